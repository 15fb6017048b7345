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

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "regicide.sha256"


def playthrough_digest() -> str:
    """sha256 over the logs of 4 × 25 uniform-random Regicide games."""
    import rulekit

    game = rulekit.load_game(ROOT / "games" / "regicide.yaml")
    digest = hashlib.sha256()
    for players in (1, 2, 3, 4):
        for seed in range(25):
            m = game.new_match(players=players, seed=seed)
            rng = random.Random(seed)
            while m.decision is not None:
                options = m.decision.options
                m.apply(options[rng.randrange(len(options))])
            digest.update(m.log_json().encode("utf-8"))
    return digest.hexdigest()


def _digest_in_subprocess(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    code = "import sys; sys.path.insert(0, sys.argv[1]); import test_determinism as t; print(t.playthrough_digest())"
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], env=env,
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return out.stdout.strip()


def test_logs_do_not_depend_on_the_process_hash_seed():
    assert _digest_in_subprocess("1") == _digest_in_subprocess("4242")


def test_golden_playthroughs_are_unchanged():
    expected = GOLDEN.read_text(encoding="utf-8").strip()
    assert playthrough_digest() == expected, (
        "the event logs of the golden Regicide playthroughs changed; if the rule change is "
        "intended, run: python tests/test_determinism.py --update")


if __name__ == "__main__":
    if "--update" in sys.argv:
        sys.path.insert(0, str(ROOT))
        GOLDEN.write_text(playthrough_digest() + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN}")
