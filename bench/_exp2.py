import sys, time, random
sys.path.insert(0,'bench')
import ceiling_regicide as C, rulekit
g=rulekit.load_game('games/regicide.yaml')
N=20000
for rep in range(3):
    t=time.perf_counter()
    for i in range(N): g.new_match(players=2, seed=i)
    t1=time.perf_counter()-t
    t=time.perf_counter()
    for i in range(N): C.Match(2, i)
    t2=time.perf_counter()-t
    print(f"engine new_match {1e6*t1/N:.1f}us  ceiling {1e6*t2/N:.1f}us")
