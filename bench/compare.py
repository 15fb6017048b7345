"""Is a change faster?  Time two revisions of rulekit game by game, side by side.

On a shared machine the speed of one run drifts by 5–10 % from minute to
minute, and by more over a few seconds, more than most single changes
save, so two runs made one after the other say little.  This script
keeps one process per revision, each with its revision's game loaded, and
has them play the same games in turn: game 1 in A then B, game 2 in B
then A, and so on, so that each pair of games is timed within a few
milliseconds of each other and drift touches both alike.  Each round
starts a fresh pair, both with the round's hash seed (see
:func:`compare`).  Times are each
process's CPU time for the game (the machine's other work is not counted,
though it still slows the caches); the driver's messages between games are
outside them.  Games are uniform-random (or ``--agent heuristic``), each
with its own seed, so both revisions play the same games when their rules
are the same.  A round is ``--games`` such pairs; the script prints, per
revision, the best and the median time per game over the rounds, and the
ratio B/A of each round.

    python bench/compare.py HEAD~1                 # HEAD~1 against the working tree
    python bench/compare.py v1 v2 --game sanguosha --players 8 --rounds 10
    python bench/compare.py f9b9cf7 --game sanguosha --players 8 --settled   # as simulate plays
    python bench/compare.py f9b9cf7 --game sanguosha --players 8 --frozen    # both alike
    python bench/compare.py f9b9cf7 --game sanguosha --players 8 --frozen --rules f9b9cf7

``--settled`` plays each revision as its own ``rulekit.simulate`` does: a
revision without ``rulekit.settled`` plays with the collector at Python's
defaults, walking the loaded game on each full pass, so the comparison
counts that change too.  ``--frozen`` does what ``settled`` does in both,
by hand, so that only the engines differ.

Each revision plays its own rule files, so a rule file that does more
(a rule read more faithfully, events a person reads) counts against its
revision.  ``--rules REV`` has both play the game as revision REV writes
it (an older revision's files, which the newer engine reads too): the
same games on both sides, the engines alone compared.

A revision is anything ``git worktree`` accepts; without a second one the
working tree (uncommitted changes included) is B.  The revisions are checked
out in a temporary directory, which is removed afterwards.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

from revision import OWN_GRAMMAR

ROOT = Path(__file__).resolve().parent.parent

# a revision's player: loads the game, then plays game i for each line "i" it reads
# and answers with the game's CPU time in seconds
WORKER = r"""
import contextlib, inspect, os, random, sys, time
sys.path.insert(0, ".")
""" + OWN_GRAMMAR + r"""
import rulekit
from rulekit.agents import HeuristicAgent
from rulekit.engine.match import Match
# a game is games/NAME.yaml, or the folder games/NAME (either revision may have either), in this
# revision's checkout or, with --rules, in the checkout of the revision whose rules both play
rules = os.path.join({rules!r}, "games", "{game}")
game = rulekit.load_game(rules if os.path.isdir(rules) else rules + ".yaml")
# a simulation: windows answered without asking, where the revision can
kw = {{"auto_pass": True}} if "auto_pass" in inspect.signature(Match.__init__).parameters else {{}}
# --settled: play as the revision's own simulate does (in rulekit.settled() where it has one)
settle = getattr(rulekit, "settled", None) if {settled} else None
block = settle() if settle else contextlib.nullcontext()
block.__enter__()
# --frozen: the same in every revision, done here (what rulekit.settled does: the loaded game out
# of the collector's passes, the youngest generation let grow to {young:,} objects before a pass)
if {frozen}:
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold({young}, *gc.get_threshold()[1:])
def play(i):
    m = game.new_match(players={players}, seed=1 + i, **kw)
    rng = random.Random(1 + i)
    agents = [HeuristicAgent(seed=1 + i) for _ in range({players})] if {heuristic} else None
    dec = m.decision
    while dec is not None:
        if agents is not None:
            m.apply(agents[dec.player].act(m, dec))
        else:
            m.apply(dec.options[rng.randrange(len(dec.options))])
        dec = m.decision
for i in range({warm}):          # first games fill the revision's caches: not timed
    play(1_000_000 + i)
print("ready", flush=True)
for line in sys.stdin:
    i = int(line)
    start = time.process_time()
    play(i)
    print(time.process_time() - start, flush=True)
"""


def checkout(rev: str, into: Path) -> Path:
    where = into / rev.replace("/", "_").replace("~", "-").replace("^", "-")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), rev],
                   check=True)
    return where


class Worker:
    """One revision's process, playing the games it is told, one at a time."""

    def __init__(self, where: Path, code: str, hash_seed: int):
        self.where = where
        env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=where, text=True, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._read()                 # "ready": loaded and warmed up

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            assert self.proc.stderr is not None
            raise SystemExit(f"a game failed in {self.where}:\n{self.proc.stderr.read()}")
        return line

    def play(self, i: int) -> float:
        """CPU seconds of game ``i``."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{i}\n")
        self.proc.stdin.flush()
        return float(self._read())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def compare(a: Path, b: Path, code: str, games: int, rounds: int,
            start: Callable[[Path, str, int], Worker] = Worker) -> tuple[list[float], list[float]]:
    """Per round, the mean time per game (µs) of A and of B.  Each round has
    a fresh process per revision, both with the round's hash seed: where
    Python puts a text in a dict or set depends on it, which makes one
    process a few per cent faster or slower than another running the same
    code, so the seed is the same for the two sides of a round and changes
    from round to round."""
    times_a: list[float] = []
    times_b: list[float] = []
    i = 0
    for r in range(rounds):
        workers = []
        try:
            workers = [start(a, code, r + 1), start(b, code, r + 1)]
            wa, wb = workers
            sa = sb = 0.0
            for _ in range(games):
                if i % 2 == 0:
                    sa += wa.play(i)
                    sb += wb.play(i)
                else:
                    sb += wb.play(i)
                    sa += wa.play(i)
                i += 1
        finally:
            for w in workers:
                w.close()
        times_a.append(sa / games * 1e6)
        times_b.append(sb / games * 1e6)
    return times_a, times_b


def young_threshold() -> int:
    """The youngest generation's threshold ``rulekit.settled`` sets, read
    from this checkout's rulekit (``--frozen`` gives it to both revisions)."""
    sys.path.insert(0, str(ROOT))
    try:
        from rulekit.engine.settled import YOUNG
    finally:
        sys.path.remove(str(ROOT))
    return YOUNG


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="revision A (e.g. HEAD~1)")
    ap.add_argument("b", nargs="?", help="revision B (default: the working tree)")
    ap.add_argument("--game", default="regicide", help="a game of games/ (default regicide)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, help="games per round (default 1500 for regicide, else 150)")
    ap.add_argument("--rounds", type=int, default=8, help="rounds (default 8)")
    ap.add_argument("--agent", choices=("random", "heuristic"), default="random",
                    help="who plays every seat: uniform-random choices (default) or the rule file's "
                         "heuristic agent (its scoring is then part of the time)")
    ap.add_argument("--rules", metavar="REV",
                    help="both revisions play the game as revision REV writes it (default: each its own "
                         "rule files), so that only the engines differ")
    ap.add_argument("--settled", action="store_true",
                    help="play inside rulekit.settled() in a revision that has it, as its simulate does "
                         "(the collector leaves the loaded game out of its passes)")
    ap.add_argument("--frozen", action="store_true",
                    help="in both revisions, whether or not they have rulekit.settled(), leave the loaded "
                         "game out of the collector's passes and let the youngest generation grow as it "
                         "does: the engines compared alike, not each revision's simulate")
    args = ap.parse_args(argv)
    if args.settled and args.frozen:
        ap.error("--settled and --frozen are two ways of comparing: give one")
    games = args.games or (1500 if args.game == "regicide" else 150)
    with tempfile.TemporaryDirectory(prefix="rulekit-compare-") as tmp:
        made = []
        try:
            a = checkout(args.a, Path(tmp))
            made.append(a)
            if args.b is None:
                b = ROOT
            else:
                b = checkout(args.b, Path(tmp) / "b")
                made.append(b)
            rules = "."                  # each revision's own checkout
            if args.rules is not None:
                rules_at = checkout(args.rules, Path(tmp) / "rules")
                made.append(rules_at)
                rules = str(rules_at)
            code = WORKER.format(game=args.game, players=args.players, heuristic=args.agent == "heuristic",
                                 settled=args.settled, frozen=args.frozen, young=young_threshold(),
                                 warm=min(games, 10), rules=rules)
            times_a, times_b = compare(a, b, code, games, args.rounds)
        finally:
            for where in made:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)])
    label_b = args.b or "working tree"
    whose = f"the rules of {args.rules}" if args.rules else "each its own rules"
    print(f"{args.game}, {args.players} players, {args.agent} play, {whose}, {games} games a round played "
          f"in turn by both, {args.rounds} rounds (µs per game)")
    for label, t in ((args.a, times_a), (label_b, times_b)):
        print(f"  {label:>14}: best {min(t):9.1f}   median {statistics.median(t):9.1f}")
    pairs = [tb / ta for ta, tb in zip(times_a, times_b)]
    whole = sum(times_b) / sum(times_a)
    print(f"  B/A: all games {whole:.3f}   median round {statistics.median(pairs):.3f}"
          f"   round by round {min(pairs):.3f} .. {max(pairs):.3f}  (below 1: B is faster)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
