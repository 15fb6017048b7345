"""The learning environment's cost per step against the engine's own.

Plays the same uniform-random games two ways and prints steps/s of each:

- raw: ``match.apply(index)`` with a random index into ``decision.options``;
- env: ``rulekit.rl.env`` (PettingZoo AEC): every step observes the agent
  to move (``env.last()``: the view encoded, the mask), picks a random
  legal index from the mask and calls ``env.step``.

Both play with ``auto_pass=False`` (the environment's default: every seat
a response window names is asked).  The best of ``--rounds`` rounds.

    python bench/bench_rl.py [--game sanguosha] [--players 8] [--games 20] [--rounds 3]
                             [--actions auto|catalogue|features]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

import rulekit  # noqa: E402
import rulekit.rl  # noqa: E402


def raw(game, players: int, games: int) -> tuple[int, float]:
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        m = game.new_match(players, seed=seed)
        rng = random.Random(seed)
        while m.decision is not None:
            m.apply(rng.randrange(len(m.decision.options)))
            steps += 1
    return steps, time.perf_counter() - start


def env(game, players: int, games: int, actions: str) -> tuple[int, float, dict]:
    """Steps, seconds, and the seconds spent observing (``env.last``),
    picking (the random agent's draw from the mask) and stepping."""
    e = rulekit.rl.env(game, players=players, actions=actions)
    rng = np.random.default_rng(0)
    steps = 0
    parts = dict.fromkeys(("observe", "pick", "step"), 0.0)
    clock = time.perf_counter
    start = clock()
    for seed in range(games):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            t0 = clock()
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            t1 = clock()
            index = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            t2 = clock()
            e.step(index)
            t3 = clock()
            parts["observe"] += t1 - t0
            parts["pick"] += t2 - t1
            parts["step"] += t3 - t2
            steps += 1
    return steps, clock() - start, parts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="sanguosha", help="a folder or file under games/ (default sanguosha)")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--actions", default="auto", choices=["auto", "catalogue", "features"])
    args = ap.parse_args()
    path = HERE.parent / "games" / args.game
    game = rulekit.load_game(path if path.exists() else path.with_suffix(".yaml"))
    env(game, args.players, 1, args.actions)                     # builds the catalogue once, warms up
    best_raw = max(s / t for s, t in (raw(game, args.players, args.games) for _ in range(args.rounds)))
    runs = [env(game, args.players, args.games, args.actions) for _ in range(args.rounds)]
    steps, seconds, parts = max(runs, key=lambda r: r[0] / r[1])
    best_env = steps / seconds
    print(f"{game.name}, {args.players} players, {args.games} games, best of {args.rounds} rounds")
    print(f"  raw m.apply(index): {best_raw:>9,.0f} steps/s")
    print(f"  env.last + step:    {best_env:>9,.0f} steps/s  ({best_env / best_raw:.3f}x)")
    print("  per env step: " + ", ".join(f"{name} {1e6 * t / steps:.0f} us" for name, t in parts.items()))

if __name__ == "__main__":
    main()
