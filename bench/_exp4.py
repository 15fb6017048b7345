import sys, time, random, gc
sys.path.insert(0,'bench')
import rulekit
from bench_regicide import hand_round, engine_round
g=rulekit.load_game('games/regicide.yaml')
n=int(sys.argv[1])
for r in range(3):
    gc.enable(); e=engine_round(g,n,2000,1)[0]; h=hand_round(n,2000,1)[0]
    gc.disable(); e2=engine_round(g,n,2000,1)[0]; h2=hand_round(n,2000,1)[0]
    gc.enable(); gc.freeze(); e3=engine_round(g,n,2000,1)[0]; gc.unfreeze()
    print(f"gc on: e {e/2:.1f} h {h/2:.1f} ratio {h/e:.3f} | gc off: e {e2/2:.1f} h {h2/2:.1f} ratio {h2/e2:.3f} | frozen e {e3/2:.1f}  (ms per 1000)")
    print(gc.get_stats())
