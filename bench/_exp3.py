import sys, time, random
sys.path.insert(0,'bench')
import ceiling_regicide as C, rulekit
from bench_regicide import hand_round, engine_round
g=rulekit.load_game('games/regicide.yaml')
def raw_c(players, games, seed):
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
def raw_e(players, games, seed):
    rng = random.Random(seed); t=time.perf_counter()
    for i in range(games):
        m = g.new_match(players=players, seed=seed+i)
        dec = m._decision; send = m._flow.send
        try:
            while dec is not None:
                opts = dec.options
                dec = send(opts[rng.randrange(len(opts))])
        except StopIteration:
            pass
    return time.perf_counter()-t
n=int(sys.argv[1]) if len(sys.argv)>1 else 2
res={k:[] for k in 'hcCeE'}
for r in range(4):
    res['h'].append(hand_round(n,2000,1)[0]); res['c'].append(C.ceiling_round(n,2000,1)[0]); res['C'].append(raw_c(n,2000,1))
    res['e'].append(engine_round(g,n,2000,1)[0]); res['E'].append(raw_e(n,2000,1))
b={k:min(v)/2000*1e6 for k,v in res.items()}
print({k:round(v,1) for k,v in b.items()}, 'us/game')
print(f"ratios: ceiling {b['h']/b['c']:.3f} ceil-noapply {b['h']/b['C']:.3f} engine {b['h']/b['e']:.3f} engine-noapply {b['h']/b['E']:.3f}")
