"""Same game file + seed + actions ⇒ byte-identical event log, in any process.

- Python randomises string hashing per process (PYTHONHASHSEED); an engine
  that iterated over a set of strings would produce different logs in
  different processes.  Two subprocesses with different hash seeds must agree.
- A golden digest of the logs of fixed random playthroughs fails loudly when
  behaviour changes.  If a rule change is intended, regenerate it with
  ``python tests/test_determinism.py --update`` and say why in the commit.
"""
from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
#: game -> (player counts, games per count) of the golden playthroughs
PLAYTHROUGHS = {"regicide": ((1, 2, 3, 4), 25), "sanguosha": ((4, 5, 8), 10)}


def playthrough_digest(name: str = "regicide") -> str:
    """sha256 over the logs of fixed uniform-random games of ``games/<name>``."""
    from game_files import game_path

    import rulekit

    game = rulekit.load_game(game_path(name))
    counts, games = PLAYTHROUGHS[name]
    digest = hashlib.sha256()
    for players in counts:
        for seed in range(games):
            # as a simulation plays: a seat with nothing to answer a window with is not asked
            m = game.new_match(players=players, seed=seed, auto_pass=True)
            rng = random.Random(seed)
            while m.decision is not None:
                options = m.decision.options
                m.apply(options[rng.randrange(len(options))])
            digest.update(m.log_json().encode("utf-8"))
    return digest.hexdigest()


def _digest_in_subprocess(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import test_determinism as t; "
            "print(t.playthrough_digest('regicide'), t.playthrough_digest('sanguosha'))")
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], env=env,
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return out.stdout.strip()


def test_logs_do_not_depend_on_the_process_hash_seed():
    assert _digest_in_subprocess("1") == _digest_in_subprocess("4242")


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_playthroughs_are_unchanged(name):
    expected = (GOLDEN_DIR / f"{name}.sha256").read_text(encoding="utf-8").strip()
    assert playthrough_digest(name) == expected, (
        f"the event logs of the golden {name} playthroughs changed; if the rule change is "
        "intended, run: python tests/test_determinism.py --update")



def test_shared_memos_that_start_again_change_no_game(monkeypatch):
    """A Game keeps the Action and answer objects it has made, for every
    match; past a limit a memo starts again.  With a limit of 3 (it starts
    again all the time) the golden playthroughs give the same digest."""
    from rulekit.lang import runtime_helpers

    monkeypatch.setattr(runtime_helpers, "MEMO_LIMIT", 3)
    for name in PLAYTHROUGHS:
        assert playthrough_digest(name) == (GOLDEN_DIR / f"{name}.sha256").read_text().strip()

if __name__ == "__main__":
    if "--update" in sys.argv:
        sys.path.insert(0, str(ROOT))
        for name in PLAYTHROUGHS:
            path = GOLDEN_DIR / f"{name}.sha256"
            path.write_text(playthrough_digest(name) + "\n", encoding="utf-8")
            print(f"wrote {path}")
