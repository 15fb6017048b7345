"""Regicide through the rulekit engine vs. a hand-written implementation.

Both play the same rules with the same uniform-random policy (one random
choice among all legal actions at every decision), and both seed one
``random.Random`` per game (the hand-written game shares it with its policy;
an engine match owns its RNG and the policy's is seeded once per round).  The two are run in
alternating rounds in one process so that background load affects both
alike; the figures are the best round of each.

    python bench/bench_regicide.py [--games 2000] [--rounds 3] [--players 1 2 3 4]

Prints games/s and decisions/s for each and the engine/hand-written ratio.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import handwritten_regicide  # noqa: E402

import rulekit  # noqa: E402


def engine_round(game, players: int, games: int, seed: int) -> tuple[float, int, int]:
    """(seconds, decisions, enemies defeated) of ``games`` random games of
    ``game``: anything with ``new_match(players=, seed=)`` whose matches
    have the engine's ``decision``/``apply``/``result()``."""
    decisions = defeated = 0
    rng = random.Random(seed)  # the policy's; each match seeds its own for the game
    start = time.perf_counter()
    for i in range(games):
        m = game.new_match(players=players, seed=seed + i)
        dec = m.decision
        while dec is not None:   # the policy picks an index, as the hand-written game's does
            m.apply(rng.randrange(len(dec.options)))
            decisions += 1
            dec = m.decision
        defeated += m.result()["stats"]["enemies_defeated"]
    return time.perf_counter() - start, decisions, defeated


def hand_round(players: int, games: int, seed: int) -> tuple[float, int, int]:
    """(seconds, decisions, enemies defeated) of the hand-written game."""
    decisions = defeated = 0
    start = time.perf_counter()
    for i in range(games):
        _won, enemies, d = handwritten_regicide.play_random_game(players, random.Random(seed + i))
        decisions += d
        defeated += enemies
    return time.perf_counter() - start, decisions, defeated


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--players", type=int, nargs="*", default=[1, 2, 3, 4])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    game = rulekit.load_game(HERE.parent / "games" / "regicide.yaml")
    print(f"load + validate + compile games/regicide.yaml: {1000 * (time.perf_counter() - t0):.0f} ms")
    print(f"{args.games} uniform-random games per player count, best of {args.rounds} rounds")
    print(f"{'players':>7} | {'engine games/s':>14} {'decisions/s':>12} | "
          f"{'hand games/s':>12} {'decisions/s':>12} | {'ratio':>5}")
    ratios = []
    for n in args.players:
        best_e = best_h = None
        for _ in range(args.rounds):
            e = engine_round(game, n, args.games, args.seed)
            h = hand_round(n, args.games, args.seed)
            best_e = e if best_e is None or e[0] < best_e[0] else best_e
            best_h = h if best_h is None or h[0] < best_h[0] else best_h
        e_gps, h_gps = args.games / best_e[0], args.games / best_h[0]
        ratio = e_gps / h_gps
        ratios.append(ratio)
        print(f"{n:>7} | {e_gps:>14,.0f} {best_e[1] / best_e[0]:>12,.0f} | "
              f"{h_gps:>12,.0f} {best_h[1] / best_h[0]:>12,.0f} | {ratio:>5.2f}")
    print(f"engine / hand-written (games/s), mean over player counts: {sum(ratios) / len(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
