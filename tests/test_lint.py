"""The code passes the linter configured in pyproject.toml ([tool.ruff]):
pyflakes, pycodestyle, import order and bugbear, on the library, the tests,
the benchmarks and the examples."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    run = subprocess.run([ruff, "check", "rulekit", "tests", "bench", "examples"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
