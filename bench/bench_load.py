"""Loading rule files: how long ``rulekit.load_game`` takes, for each game
shipped, the first time and again.

A game is loaded again whenever it is checked after an edit, or when a
variant shares its modules; the fuzz tests load a game whose one file
changed thousands of times.  Prints, per game, the first load and the best
of ``--rounds`` later loads (background load matters less), and the same
with one file of the game changed each time (only that file is new).

    python bench/bench_load.py [--rounds 10]
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import rulekit  # noqa: E402

GAMES = ["games/regicide.yaml", "games/sanguosha", "games/wulinsha", "games/xiake"]


def timed(path: Path) -> float:
    """CPU seconds to load the game at ``path``."""
    start = time.process_time()
    rulekit.load_game(path)
    return time.process_time() - start


def one_file_changed(game: Path, rounds: int) -> float:
    """The best load of a copy of the game whose game file gains a comment each time."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = game.parent
        copy = Path(tmp) / "tree"
        shutil.copytree(tree, copy)
        loaded = copy / game.relative_to(tree)
        file = loaded / "game.yaml" if loaded.is_dir() else loaded
        text = file.read_text(encoding="utf-8")
        best = float("inf")
        for i in range(rounds):
            file.write_text(text + f"\n# edit {i}\n", encoding="utf-8")
            best = min(best, timed(loaded))
        return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print(f"{'game':<24}{'first (ms)':>12}{'again (ms)':>12}{'one file new (ms)':>20}")
    for name in GAMES:
        path = HERE.parent / name
        first = timed(path)
        again = min(timed(path) for _ in range(args.rounds))
        edited = one_file_changed(path, args.rounds)
        print(f"{name:<24}{first * 1000:>12.0f}{again * 1000:>12.0f}{edited * 1000:>20.0f}")


if __name__ == "__main__":
    main()
