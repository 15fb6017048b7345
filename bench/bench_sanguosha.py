"""三国杀 (games/sanguosha) through the rulekit engine: uniform-random play.

Every decision picks one legal action uniformly at random; each match has
its own seed.  Prints, per player count, games/s, decisions/s, average
decisions and turns per game, and the share of wins by side.  The best of
``--rounds`` rounds is reported, so background load matters less.

    python bench/bench_sanguosha.py [--games 300] [--rounds 3] [--players 8]
                                    [--agents random|heuristic]

There is no hand-written implementation to compare with (see
bench_regicide.py for the engine against hand-written code); these figures
track the engine on a large rule file: 62 procedures, per-player triggers,
response windows and recursive 无懈可击 chains.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import rulekit  # noqa: E402
from rulekit.agents import make_agents  # noqa: E402


def one_round(game, players: int, games: int, seed: int, agents: str):
    decisions = turns = 0
    sides: Counter = Counter()
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(games):
        m = game.new_match(players=players, seed=seed + i, auto_pass=True)   # a simulation
        if agents == "random":
            dec = m.decision
            while dec is not None:
                m.apply(rng.randrange(len(dec.options)))
                decisions += 1
                dec = m.decision
        else:
            m.play(make_agents(agents, players, seed + i))
            decisions += len(m.actions)
        result = m.result()
        sides[result["stats"]["side"]] += 1
        turns += result["stats"]["turns"]
    return time.perf_counter() - start, decisions, turns, sides


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--players", type=int, nargs="+", default=[8])
    ap.add_argument("--agents", default="random")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    game = rulekit.load_game(HERE.parent / "games" / "sanguosha")
    print(f"load + validate + compile games/sanguosha: {(time.perf_counter() - t0) * 1000:.0f} ms")
    print(f"{args.games} {args.agents} games per player count, best of {args.rounds} rounds")
    print("players | games/s  decisions/s | decisions/game turns/game | wins: 主公 反贼 内奸")
    for n in args.players:
        best = None
        for r in range(args.rounds):
            res = one_round(game, n, args.games, 1000 * r, args.agents)
            if best is None or res[0] < best[0]:
                best = res
        secs, decisions, turns, sides = best
        share = " ".join(f"{100 * sides[s] / args.games:4.1f}%" for s in ("主公", "反贼", "内奸"))
        print(f"{n:7d} | {args.games / secs:7.1f} {decisions / secs:12,.0f} | "
              f"{decisions / args.games:14.1f} {turns / args.games:10.1f} | {share}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
