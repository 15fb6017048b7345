"""The worked example of learning from a rule file (examples/train_last_card.py):
a linear policy trained with numpy through the PettingZoo environment rises
above random play, and the learning curve is written (CSV, and PNG when
matplotlib is there)."""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

ROOT = Path(__file__).resolve().parents[1]


def test_a_small_policy_learns_last_card_above_random(tmp_path):
    out = tmp_path / "curve"
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "train_last_card.py"), "--episodes", "80",
                          "--every", "40", "--eval", "60", "--out", str(out)],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = list(csv.reader(open(out.with_suffix(".csv"))))
    assert rows[0] == ["episodes", "win_rate"] and [r[0] for r in rows[1:]] == ["0", "40", "80"]
    first, last = float(rows[1][1]), float(rows[-1][1])
    assert first < 0.7 and last > 0.8          # from about random (one half) to far above it
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert out.with_suffix(".png").stat().st_size > 10_000
