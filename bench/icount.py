"""Instructions per game, counted by valgrind: a speed figure that noise cannot move.

On a shared machine the wall-clock speed of one run drifts by 5–10 % from
minute to minute; the number of machine instructions a run executes does
not (valgrind's cachegrind counts them, the same on every run).  This
script counts, for uniform-random games, the instructions of the engine and
of the hand-written Regicide, or of 三国杀, per game: each figure is a run
of ``--games`` games minus a run of none (loading the game and starting
Python are left out), divided by the number of games.

    python bench/icount.py                       # Regicide, 2 players: engine and hand-written
    python bench/icount.py --players 4 --games 300
    python bench/icount.py --game sanguosha --players 5 --games 20
    python bench/icount.py --game sanguosha --players 8 --games 20 --agent heuristic
    python bench/icount.py --game sanguosha --players 8 --games 20 --agent heuristic --split
    python bench/icount.py --game sanguosha --players 8 --games 20 --frozen
    python bench/icount.py --root ../other-checkout   # another revision of rulekit

Instructions are not time: the engine's code and data are larger than the
hand-written game's, so it misses the processor's caches more and runs fewer
instructions per cycle.  The wall-clock ratio of ``bench_regicide.py`` has
been about 0.9 of the instruction ratio printed here.  Needs valgrind
(Debian's ``valgrind`` package); ``PYTHONHASHSEED`` is fixed so that string
hashing is the same in every run.

The count does move, by a whole pass of Python's cycle collector over
everything alive, when a change alters how many objects a load leaves alive:
the collector's full passes come when the objects that survived since the
last one reach a quarter of those alive, so a smaller heap has them sooner
(the 三国杀 parser read back from the user's cache left 71,562 objects
alive instead of 77,100, and 20 random 8-player games then held one full
pass instead of none: 35.3 million instructions a game instead of 33.6).
``--frozen`` leaves what is alive after the load out of the collector's
passes (``gc.freeze``, the first thing ``rulekit.settled`` does; the
young generation's threshold is left at Python's default): 33.59 and 33.52
million.

``--split`` tells the heuristic agent's share from the engine's: the same
games, recorded once, are counted again replayed from their answers, which
is the engine alone.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from revision import OWN_GRAMMAR

HERE = Path(__file__).resolve().parent

# the start of every run: the game loaded (load time is left out of the counts, see per_game)
LOAD = r"""
import json, random, sys
sys.path.insert(0, {root!r})
""" + OWN_GRAMMAR + r"""
import rulekit
import os
# a game is games/NAME.yaml, or the folder games/NAME (either revision may have either)
path = {root!r} + "/games/{game}"
game = rulekit.load_game(path if os.path.isdir(path) else path + ".yaml")
import inspect
from rulekit.engine.match import Match
# a simulation: windows answered without asking, where the revision can
kw = {{"auto_pass": True}} if "auto_pass" in inspect.signature(Match.__init__).parameters else {{}}
from rulekit.agents import HeuristicAgent
"""

# --frozen: what is alive once the game is loaded is left out of the collector's passes, as
# rulekit.settled does (not its larger young generation); written so that any revision runs it
FREEZE = r"""
import gc
gc.collect()
gc.freeze()
"""


def frozen(template: str) -> str:
    """``template`` (a script that starts with LOAD) with FREEZE after the load."""
    assert template.startswith(LOAD)
    return LOAD + FREEZE + template[len(LOAD):]


# one run: play GAMES uniform-random games as bench_regicide.py does
ENGINE = LOAD + r"""
rng = random.Random(1)
for i in range({games}):
    m = game.new_match(players={players}, seed=1 + i, **kw)
    if {heuristic}:
        agents = [HeuristicAgent(seed=1 + i) for _ in range({players})]
    dec = m.decision
    while dec is not None:
        m.apply(agents[dec.player].act(m, dec) if {heuristic} else rng.randrange(len(dec.options)))
        dec = m.decision
"""

# --split: the heuristic games recorded (answers as option numbers, run without valgrind), then
# counted as replays of those answers: the engine's share of a game, without the agent's scoring
RECORD = LOAD + r"""
answers = []
for i in range({games}):
    m = game.new_match(players={players}, seed=1 + i, **kw)
    agents = [HeuristicAgent(seed=1 + i) for _ in range({players})]
    answers.append([])
    dec = m.decision
    while dec is not None:
        a = agents[dec.player].act(m, dec)
        answers[-1].append(dec.options.index(a))
        m.apply(a)
        dec = m.decision
json.dump(answers, open({out!r}, "w"))
"""

REPLAY = LOAD + r"""
answers = json.load(open({answers!r}))
for i in range({games}):
    m = game.new_match(players={players}, seed=1 + i, **kw)
    for k in answers[i]:
        m.apply(k)
"""

HAND = r"""
import random, sys
sys.path.insert(0, {bench!r})
import handwritten_regicide
for i in range({games}):
    handwritten_regicide.play_random_game({players}, random.Random(1 + i))
"""


def instructions(script: str) -> int:
    """The instructions valgrind counts for ``python -c script``."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                          "--cachegrind-out-file=/dev/null", sys.executable, "-c", script],
                         capture_output=True, text=True, env=env, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run failed:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_game(template: str, games: int, **fields) -> int:
    ran = instructions(template.format(games=games, **fields))
    idle = instructions(template.format(games=0, **fields))
    return (ran - idle) // games


def record(root: str, game: str, players: int, games: int, out: str) -> None:
    """Play the heuristic games once, without valgrind, and keep their answers in the file ``out``."""
    script = RECORD.format(root=root, game=game, players=players, games=games, out=out)
    subprocess.run([sys.executable, "-c", script], check=True, env=dict(os.environ, PYTHONHASHSEED="0"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="regicide", choices=["regicide", "sanguosha"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--root", default=str(HERE.parent), help="the rulekit checkout to count")
    ap.add_argument("--agent", choices=("random", "heuristic"), default="random",
                    help="who plays every seat (the heuristic agent's scoring is counted too)")
    ap.add_argument("--frozen", action="store_true",
                    help="leave what is alive after the load out of the collector's passes (gc.freeze, as "
                         "rulekit.settled does): a change in how many objects a load leaves alive then "
                         "does not add or take away a whole pass of the collector in the games counted")
    ap.add_argument("--split", action="store_true",
                    help="with --agent heuristic: also count the same games replayed from their recorded "
                         "answers, which is the engine's share; the rest is the agent's scoring")
    args = ap.parse_args(argv)
    if args.split and args.agent != "heuristic":
        ap.error("--split needs --agent heuristic (random play's agent costs next to nothing)")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    root = str(Path(args.root).resolve())
    play, replayed = (frozen(ENGINE), frozen(REPLAY)) if args.frozen else (ENGINE, REPLAY)
    engine = per_game(play, args.games, root=root, game=args.game, players=args.players,
                      heuristic=args.agent == "heuristic")
    print(f"{args.game}, {args.players} players, {args.games} games, {args.agent} play: "
          f"engine {engine:,} instructions per game")
    if args.split:
        with tempfile.TemporaryDirectory(prefix="icount-") as kept:
            answers = os.path.join(kept, "answers.json")
            record(root, args.game, args.players, args.games, answers)
            replay = per_game(replayed, args.games, root=root, game=args.game, players=args.players,
                              answers=answers)
        print(f"  of which the engine alone {replay:,} (the same games replayed from their answers), "
              f"the agent's scoring {engine - replay:,} ({(engine - replay) / engine:.0%})")
    if args.game == "regicide" and args.agent == "random":
        hand = per_game(HAND, args.games, bench=str(HERE), players=args.players)
        print(f"hand-written {hand:,} instructions per game; "
              f"engine/hand-written speed by instructions: {hand / engine:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
