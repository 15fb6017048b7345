"""Is a change faster?  Time two revisions of rulekit in paired rounds.

On a shared machine the speed of one run drifts by 5–10 % from minute to
minute, more than most single changes save, so two runs made one after the
other say little.  Times are the process's CPU time (the machine's other
work is not counted, though it still slows the caches).  This script alternates the two revisions round by round
(A B, B A, A B, ...), each round a fresh process playing the same
games (uniform-random, or ``--agent heuristic``), so drift touches both alike; it prints the best and
the median time per game of each and their ratio.

    python bench/compare.py HEAD~1                 # HEAD~1 against the working tree
    python bench/compare.py v1 v2 --game sanguosha --players 8 --rounds 10
    python bench/compare.py f9b9cf7 --game sanguosha --players 8 --settled   # as simulate plays

A revision is anything ``git worktree`` accepts; without a second one the
working tree (uncommitted changes included) is B.  The revisions are checked
out in a temporary directory, which is removed afterwards.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# one round in a fresh process: microseconds per game, best of two passes
ROUND = r"""
import random, sys, time
sys.path.insert(0, ".")
import rulekit
import os
# a game is games/NAME.yaml, or the folder games/NAME (either revision may have either)
game = rulekit.load_game("games/{game}" if os.path.isdir("games/{game}") else "games/{game}.yaml")
import inspect
from rulekit.engine.match import Match
# a simulation: windows answered without asking, where the revision can
kw = {{"auto_pass": True}} if "auto_pass" in inspect.signature(Match.__init__).parameters else {{}}
from rulekit.agents import HeuristicAgent
import contextlib
# --settled: play as the revision's own simulate does (in rulekit.settled() where it has one)
settle = getattr(rulekit, "settled", None) if {settled} else None
def once():
    with (settle() if settle else contextlib.nullcontext()):
        return play()
def play():
    rng = random.Random(1)
    start = time.process_time()
    for i in range({games}):
        m = game.new_match(players={players}, seed=1 + i, **kw)
        if {heuristic}:
            agents = [HeuristicAgent(seed=1 + i) for _ in range({players})]
        dec = m.decision
        while dec is not None:
            if {heuristic}:
                m.apply(agents[dec.player].act(m, dec))
            else:
                m.apply(dec.options[rng.randrange(len(dec.options))])
            dec = m.decision
    return time.process_time() - start
print(min(once() for _ in range(2)) / {games} * 1e6)
"""


def checkout(rev: str, into: Path) -> Path:
    where = into / rev.replace("/", "_").replace("~", "-").replace("^", "-")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), rev],
                   check=True)
    return where


def one_round(where: Path, code: str) -> float:
    out = subprocess.run([sys.executable, "-c", code], cwd=where, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"a round failed in {where}:\n{out.stderr}")
    return float(out.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="revision A (e.g. HEAD~1)")
    ap.add_argument("b", nargs="?", help="revision B (default: the working tree)")
    ap.add_argument("--game", default="regicide", help="a game of games/ (default regicide)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, help="games per round (default 1500 for regicide, else 150)")
    ap.add_argument("--rounds", type=int, default=8, help="rounds per revision (default 8)")
    ap.add_argument("--agent", choices=("random", "heuristic"), default="random",
                    help="who plays every seat: uniform-random choices (default) or the rule file's "
                         "heuristic agent (its scoring is then part of the time)")
    ap.add_argument("--settled", action="store_true",
                    help="play inside rulekit.settled() in a revision that has it, as its simulate does "
                         "(the collector leaves the loaded game out of its passes)")
    args = ap.parse_args(argv)
    games = args.games or (1500 if args.game == "regicide" else 150)
    code = ROUND.format(game=args.game, games=games, players=args.players,
                        heuristic=args.agent == "heuristic", settled=args.settled)
    with tempfile.TemporaryDirectory(prefix="rulekit-compare-") as tmp:
        made = []
        try:
            a = checkout(args.a, Path(tmp))
            made.append(a)
            if args.b is None:
                b = ROOT
            else:
                b = checkout(args.b, Path(tmp))
                made.append(b)
            times: dict[Path, list[float]] = {a: [], b: []}
            for r in range(args.rounds):
                for where in ((a, b) if r % 2 == 0 else (b, a)):
                    times[where].append(one_round(where, code))
        finally:
            for where in made:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)])
    label_b = args.b or "working tree"
    print(f"{args.game}, {args.players} players, {args.agent} play, {games} games a round, {args.rounds} rounds each "
          "(µs per game)")
    for label, where in ((args.a, a), (label_b, b)):
        t = times[where]
        print(f"  {label:>14}: best {min(t):9.1f}   median {statistics.median(t):9.1f}")
    pairs = [tb / ta for ta, tb in zip(times[a], times[b])]
    median = statistics.median(times[b]) / statistics.median(times[a])
    print(f"  B/A: best {min(times[b]) / min(times[a]):.3f}   median {median:.3f}"
          f"   round by round {min(pairs):.3f} .. {max(pairs):.3f}  (below 1: B is faster)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
