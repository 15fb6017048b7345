"""How much a copy of a match costs: replaying its history against copying
its state (``Match.clone`` from the checkpoint of the current turn).

    python bench/clone.py                      # 三国杀, 8 players, 400 decisions in
    python bench/clone.py --game xiake --players 2 --actions 130

For each of ``--matches`` matches that uniformly random play has brought
``--actions`` decisions into the game, the best of ``--repeat`` copies each
way; then the median ratio.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulekit  # noqa: E402


def best(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sanguosha")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--actions", type=int, default=400)
    ap.add_argument("--matches", type=int, default=10, help="matches (seeds 1..N) to copy")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    folder = ROOT / "games" / args.game
    g = rulekit.load_game(folder if folder.is_dir() else folder.with_suffix(".yaml"))
    rows = []
    for seed in range(1, args.matches + 1):
        m = g.new_match(args.players, seed=seed, copyable=True)
        rng = random.Random(seed)
        while m.decision is not None and len(m.actions) < args.actions:
            m.apply(rng.randrange(len(m.decision.options)))
        if m.decision is None:
            continue                  # over before that many decisions

        def replay(m=m):
            c = rulekit.Match(g, **m._spec())
            for a in m.actions:
                c.apply(a)

        old, new = best(replay, args.repeat), best(m.clone, args.repeat)
        since = len(m.actions) - m._ckpt.actions_len
        rows.append((old, new, since))
        print(f"  seed {seed:>2}: replay {old * 1e3:7.3f} ms   clone {new * 1e3:6.3f} ms "
              f"({since:>2} decisions since the checkpoint)   {old / new:5.1f}x")
    ratios = sorted(old / new for old, new, _ in rows)
    print(f"{g.name}, {args.players} players, {args.actions} decisions in: clone is "
          f"{statistics.median(ratios):.1f}x faster than replaying (median of {len(rows)} matches; "
          f"{ratios[0]:.1f}x to {ratios[-1]:.1f}x)")


if __name__ == "__main__":
    main()
