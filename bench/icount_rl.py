"""The learning environment's cost per step in instructions: a figure noise cannot move.

``bench_rl.py`` times the environment against the engine's own step in CPU
time, which a shared machine moves by a fifth between two runs of the same
code.  This script counts, with valgrind's callgrind, the machine
instructions a step costs at each level of the environment, playing the
same uniform-random games at every level:

- ``raw``: ``match.apply(index)`` (the file compiled with change tracking,
  as the environments load it, which costs the same as the plain one);
- ``observe``: the kept vectors brought up to date and the deciding seat's
  row copied (``SeatObservations.observe``), then the raw step;
- ``mask``: the whole observation dict (``Driver.observation``: the mask
  too), then the raw step;
- ``env``: PettingZoo's ``env.last()`` and ``env.step(index)``.

Only the games are counted: each run switches callgrind's instrumentation
on after loading (``callgrind_control -i on``) and off before the
interpreter exits.  Needs valgrind (Debian's ``valgrind`` package).

    python bench/icount_rl.py                    # 三国杀, 8 players, 2 games
    python bench/icount_rl.py --game regicide.yaml --players 2 --games 20
    python bench/icount_rl.py --root ../other-checkout   # another revision

The copy of a row and the zeroing of a new mask are counted byte by byte
(valgrind counts each round of ``rep movsb`` and ``rep stosb``), far above
what they take in time; and instructions are not time: the environment's
code runs fewer instructions a cycle than the engine's.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from revision import OWN_GRAMMAR

HERE = Path(__file__).resolve().parent

LEVELS = ("raw", "observe", "mask", "env")

# one run: load, wait to be counted, play GAMES games at LEVEL, wait to stop being counted
SCRIPT = r"""
import os, random, sys, time
sys.path.insert(0, {root!r})
""" + OWN_GRAMMAR + r"""
import rulekit.rl
path = os.path.join({root!r}, "games", {game!r})
if not os.path.exists(path):
    path += ".yaml"
game = rulekit.rl.load_game(path)
env = rulekit.rl.env(game, {players})
driver = env.driver
env.reset(seed=10**6)
def wait(name):
    open(os.path.join({flags!r}, name), "w").close()
    while not os.path.exists(os.path.join({flags!r}, name + ".go")):
        time.sleep(0.01)
wait("ready")
steps = 0
for seed in range({games}):
    rng = random.Random(seed)
    if {level!r} == "raw":
        m = game.new_match({players}, seed=seed)
        while m.decision is not None:
            m.apply(rng.randrange(len(m.decision.options)))
            steps += 1
    elif {level!r} in ("observe", "mask"):
        driver.reset(seed)
        m = driver.match
        while m.decision is not None:
            dec = m.decision
            if {level!r} == "observe":
                driver._seen.observe(dec.player).copy()
            else:
                driver.observation(dec.player)
            m.apply(rng.randrange(len(dec.options)))
            steps += 1
    else:
        env.reset(seed=seed)
        m = env.match
        for _ in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            dec = m.decision
            k = rng.randrange(len(dec.options))
            positions = driver.legal().positions
            env.step(k if positions is None else positions[k])
            steps += 1
print("steps", steps, flush=True)
wait("done")
"""


def count(root: str, game: str, players: int, games: int, level: str) -> tuple[int, int]:
    """Steps played and instructions counted for one run at ``level``."""
    with tempfile.TemporaryDirectory() as flags:
        script = SCRIPT.format(root=root, game=game, players=players, games=games, level=level, flags=flags)
        run = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                                "--callgrind-out-file=/dev/null", sys.executable, "-c", script],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, PYTHONHASHSEED="0"))
        for name, switch in (("ready", "on"), ("done", "off")):
            while not os.path.exists(os.path.join(flags, name)):
                if run.poll() is not None:
                    raise SystemExit(f"the {level} run stopped:\n{run.stderr.read()[-2000:]}")
                time.sleep(0.05)
            subprocess.run(["callgrind_control", "-i", switch, str(run.pid)], capture_output=True, check=True)
            open(os.path.join(flags, name + ".go"), "w").close()
        out, err = run.communicate()
    steps = re.search(r"steps (\d+)", out)
    found = re.search(r"Collected\s*:\s*(\d+)", err)
    if run.returncode != 0 or steps is None or found is None:
        raise SystemExit(f"the {level} run failed:\n{err[-2000:]}")
    return int(steps.group(1)), int(found.group(1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sanguosha", help="a folder or file under games/ (default sanguosha)")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--root", default=str(HERE.parent), help="the rulekit checkout to count")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    root = str(Path(args.root).resolve())
    print(f"{args.game}, {args.players} players, {args.games} games, seeds 0-{args.games - 1} "
          "(instructions per step)")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:      # (counts do not depend on load)
        runs = list(pool.map(lambda level: count(root, args.game, args.players, args.games, level), LEVELS))
    raw = before = 0.0
    for level, (steps, n) in zip(LEVELS, runs):
        per = n / steps
        raw = raw or per
        added = "" if level == "raw" else f"   +{(per - before) / raw:.2f} raw steps"
        print(f"  {level:8s} {per:12,.0f}{added}   ({steps} steps)")
        before = per
    print(f"  the environment adds {(before - raw) / raw:.2f} raw steps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
