"""The learning environment's cost per step against the engine's own.

Plays the same uniform-random games two ways and prints steps/s of each:

- raw: ``match.apply(index)`` with a random index into ``decision.options``,
  the file loaded the plain way (``rulekit.load_game``);
- env: ``rulekit.rl.env`` (PettingZoo AEC) of the file as the environments
  load it (``rulekit.rl.load_game``: compiled with change tracking): every step observes the agent
  to move (``env.last()``: its observation vector and action mask), picks a
  random legal index from the mask (the agent's part) and calls
  ``env.step``.

Both play with ``auto_pass=False`` (the environment's default: every seat
a response window names is asked), or with ``--auto-pass`` both with
``auto_pass=True`` (a decision of one option answered without asking, as a
simulation plays: fewer steps, each doing more); ``--settled`` runs both
loops inside ``rulekit.settled()``.  Times are the process's CPU time (a
busy machine's other work is not counted), split into observe, pick and
step in the proportions the wall clock measures.  Each game is played both
ways in turn, ``--rounds`` times, and its best run each way kept: a shared
machine has slow spells (everything half again as slow for a while) that
would otherwise fall on one side more than the other.

- ``observe``: ``env.last()``, the observation dict (the kept vectors
  brought up to date, the seat's row copied, the mask) and PettingZoo's
  bookkeeping;
- ``step``: ``env.step(index)``, the engine's step included (of the file
  compiled with change tracking, which costs the same as the plain one);
- ``env/raw`` is (observe + step) / raw: a step of the environment, in raw
  steps; ``overhead`` is (observe + step - raw) / raw: what the environment
  adds to the engine's own step, in raw steps (the agent's draw is left out).

    python bench/bench_rl.py [--game sanguosha] [--players 8] [--games 20] [--rounds 3]
                             [--actions auto|catalogue|features] [--auto-pass] [--settled]
    python bench/bench_rl.py --all [--games 10]      # every game, as a Markdown table
    python bench/bench_rl.py --parts [--game ...]     # what observing costs, part by part

``--parts`` adds the observation's parts to the raw loop one at a time
(the kept vectors brought up to date: every seat's row, once per step, and
the observing seat's decision and display values; its row's copy; the
mask and the observation dict) and prints each one's CPU time per step,
each game's best run at each level: a split that a busy machine does not
skew, unlike the wall clock's.
"""
from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import rulekit  # noqa: E402
import rulekit.rl  # noqa: E402

AUTO_PASS = False       # --auto-pass: both loops answer a decision of one option without asking
SETTLED = False         # --settled: the loops run in rulekit.settled(), the games loaded before


def settled():
    """``rulekit.settled()`` with ``--settled`` (entered once what the loops share is built), else nothing."""
    return rulekit.settled() if SETTLED else contextlib.nullcontext()


def raw(game, players: int, seed: int) -> tuple[int, float]:
    """Steps and CPU seconds of one game."""
    start = time.process_time()
    m = game.new_match(players, seed=seed, auto_pass=AUTO_PASS)
    rng = random.Random(seed)
    steps = 0
    while m.decision is not None:
        m.apply(rng.randrange(len(m.decision.options)))
        steps += 1
    return steps, time.process_time() - start


def env(e, seed: int, rng: np.random.Generator) -> tuple[int, float, dict]:
    """Steps and CPU seconds of one game through the environment ``e``,
    those seconds split into observing (``env.last``), picking (the random
    agent's draw from the mask) and stepping."""
    steps = 0
    wall = dict.fromkeys(("observe", "pick", "step"), 0.0)
    clock = time.perf_counter
    cpu = time.process_time()
    e.reset(seed=seed)
    for _agent in e.agent_iter():
        t0 = clock()
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        t1 = clock()
        legal = np.flatnonzero(obs["action_mask"].view(bool))   # numpy finds the ones of a bool array 20x faster
        index = int(legal[rng.integers(len(legal))])
        t2 = clock()
        e.step(index)
        t3 = clock()
        wall["observe"] += t1 - t0
        wall["pick"] += t2 - t1
        wall["step"] += t3 - t2
        steps += 1
    cpu = time.process_time() - cpu
    measured = sum(wall.values())
    return steps, cpu, {k: cpu * v / measured for k, v in wall.items()}


def parts(game, players: int, games: int, rounds: int) -> list[tuple[str, float]]:
    """CPU µs per step of the raw loop with each part of observing added in
    turn.  Each game is played at every level in turn, ``rounds`` times, and
    its best time at each level kept: a busy spell of a shared machine (it
    can slow everything by half for a while) then slows one game's one run,
    not a whole level."""
    from rulekit.rl.driver import Driver

    d = Driver(game, players, auto_pass=AUTO_PASS)

    def run(level: int, seed: int) -> tuple[int, float]:
        start = time.process_time()
        d.reset(seed)
        m = d.match
        rng = random.Random(seed)
        steps = 0
        while m.decision is not None:
            seat = m.decision.player
            if level == 1:
                d._seen.observe(seat)
            elif level == 2:
                d._seen.observe(seat).copy()
            elif level == 3:
                d.observation(seat)
            m.apply(rng.randrange(len(m.decision.options)))
            steps += 1
        return steps, time.process_time() - start

    names = ("raw step, tracked (and a driver's reset)", "+ the kept vectors brought up to date",
             "+ the seat's row copied", "+ the mask")
    best = [[float("inf")] * games for _ in names]
    steps = 0
    run(0, 0)                           # (a warm-up, before a --settled freeze)
    with settled():
        for _ in range(rounds):
            for seed in range(games):
                for level in range(len(names)):
                    n, seconds = run(level, seed)
                    best[level][seed] = min(best[level][seed], seconds)
                steps += n if _ == 0 else 0
    return [(name, 1e6 * sum(b) / steps) for name, b in zip(names, best)]


def measure(game, tracked, players: int, games: int, rounds: int, actions: str) -> dict:
    """``game`` compiled the plain way plays the raw loop; ``tracked``, the
    same file as the environments load it (``rulekit.rl.load_game``), the
    env.  Each game is played both ways in turn, ``rounds`` times, and its
    best run each way kept (see :func:`parts`)."""
    e = rulekit.rl.env(tracked, players=players, actions=actions, auto_pass=AUTO_PASS)
    env(e, 0, np.random.default_rng(0))                 # builds the catalogue once, warms up
    best_raw = [(0, float("inf"))] * games
    best_env: list[tuple[int, float, dict]] = [(0, float("inf"), {})] * games
    with settled():
        for _ in range(rounds):
            rng = np.random.default_rng(0)
            for seed in range(games):
                r = raw(game, players, seed)
                best_raw[seed] = min(best_raw[seed], r, key=lambda x: x[1])
                run = env(e, seed, rng)
                best_env[seed] = min(best_env[seed], run, key=lambda x: x[1])
    raw_steps, raw_s = sum(s for s, _ in best_raw), sum(t for _, t in best_raw)
    steps, seconds = sum(s for s, _, _ in best_env), sum(t for _, t, _ in best_env)
    us = {k: 1e6 * sum(p[k] for _, _, p in best_env) / steps for k in ("observe", "pick", "step")}
    raw_us = 1e6 * raw_s / raw_steps
    return {"raw": raw_steps / raw_s, "env": steps / seconds, **us, "raw_us": raw_us,
            "ratio": (us["observe"] + us["step"]) / raw_us,
            "overhead": (us["observe"] + us["step"] - raw_us) / raw_us}


def game_paths() -> list[Path]:
    """Every shipped rule file: games/ (a file, or a folder's game.yaml) and docs/examples/."""
    games = ROOT / "games"
    found = sorted(p for p in games.glob("*.yaml")) + sorted(p for p in games.iterdir() if (p / "game.yaml").exists())
    return found + sorted((ROOT / "docs" / "examples").glob("*.yaml"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="sanguosha",
                    help="a folder or file under games/, or a path from the repository's root (default sanguosha)")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--actions", default="auto", choices=["auto", "catalogue", "features"])
    ap.add_argument("--all", action="store_true", help="every game at its fewest and most players (and 8)")
    ap.add_argument("--parts", action="store_true", help="what observing costs, part by part (CPU time)")
    ap.add_argument("--auto-pass", action="store_true",
                    help="both loops with auto_pass=True: a decision of one option is answered without asking")
    ap.add_argument("--settled", action="store_true",
                    help="measure inside rulekit.settled(), as docs/rl.md advises for a long loop (the "
                         "collector's full passes leave the loaded game and the catalogue out)")
    args = ap.parse_args()
    global AUTO_PASS, SETTLED
    AUTO_PASS, SETTLED = args.auto_pass, args.settled
    if args.all:
        print("| game | players | raw steps/s | env steps/s | observe | pick | step | env/raw | overhead |")
        print("|---|---|---|---|---|---|---|---|---|")
        for path in game_paths():
            game, tracked = rulekit.load_game(path), rulekit.rl.load_game(path)
            lo, hi = game.min_players, game.max_players
            for n in sorted({lo, hi} | ({8} if lo <= 8 <= hi else set())):
                r = measure(game, tracked, n, args.games, args.rounds, args.actions)
                print(f"| `{path.relative_to(ROOT)}` | {n} | {r['raw']:,.0f} | {r['env']:,.0f} | "
                      f"{r['observe']:.0f} µs | {r['pick']:.0f} µs | {r['step']:.0f} µs | {r['ratio']:.1f} | "
                      f"{r['overhead']:.1f} |",
                      flush=True)
        return
    path = next((p for p in (ROOT / args.game, ROOT / "games" / args.game, ROOT / "games" / f"{args.game}.yaml")
                 if p.exists()), ROOT / "games" / args.game)
    game, tracked = rulekit.load_game(path), rulekit.rl.load_game(path)
    if args.parts:
        print(f"{game.name}, {args.players} players, {args.games} games, best of {args.rounds} rounds (CPU time)")
        before = 0.0
        for name, us in parts(tracked, args.players, args.games, args.rounds):
            print(f"  {name:45s} {us:6.1f} us/step  (+{us - before:.1f})")
            before = us
        return
    r = measure(game, tracked, args.players, args.games, args.rounds, args.actions)
    print(f"{game.name}, {args.players} players, {args.games} games, best of {args.rounds} rounds (CPU time)")
    print(f"  raw m.apply(index): {r['raw']:>9,.0f} steps/s  ({r['raw_us']:.1f} us)")
    print(f"  env.last + step:    {r['env']:>9,.0f} steps/s")
    print(f"  per env step: observe {r['observe']:.1f} us, pick {r['pick']:.1f} us, step {r['step']:.1f} us; "
          f"env/raw {r['ratio']:.1f}, overhead {r['overhead']:.1f}")


if __name__ == "__main__":
    main()
