import sys, time, random
sys.path.insert(0,'bench')
import rulekit
from rulekit.engine import match as M
import ceiling_regicide as C
g=rulekit.load_game('games/regicide.yaml')
N=20000
orig=M.Match._resume
def t(f):
    best=9
    for r in range(5):
        t0=time.perf_counter()
        for i in range(N): f(i)
        best=min(best,time.perf_counter()-t0)
    return best/N*1e6
M.Match._resume=lambda self,a: None
print("init only", t(lambda i: g.new_match(players=2, seed=i)))
M.Match._resume=orig
print("full new_match", t(lambda i: g.new_match(players=2, seed=i)))
print("Match() direct", t(lambda i: M.Match(g, 2, i)))
print("ceiling Match", t(lambda i: C.Match(2, i)))
print("Random()", t(lambda i: random.Random(i)))
import handwritten_regicide as H
