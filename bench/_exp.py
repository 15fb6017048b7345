import sys, time, random
sys.path.insert(0,'bench')
import ceiling_regicide as C
from bench_regicide import hand_round
def raw_round(players, games, seed):
    rng = random.Random(seed); t=time.perf_counter()
    for i in range(games):
        m = C.Match(players, seed+i)
        dec = m.decision; send = m._flow.send
        try:
            while dec is not None:
                opts = dec.options
                dec = send(opts[rng.randrange(len(opts))])
        except StopIteration:
            pass
    return time.perf_counter()-t
for n in (2,3):
  for r in range(3):
    c = C.ceiling_round(n, 2000, 1)[0]; raw = raw_round(n,2000,1); h = hand_round(n,2000,1)[0]
    print(n, f"ceiling {h/c:.3f}  no-apply {h/raw:.3f}")
