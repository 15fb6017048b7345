"""rulekit as a package: one version, its type hints shipped, and a plain
checkout that works without installing."""
from __future__ import annotations

import re
from pathlib import Path

import rulekit
from rulekit.lang import parser

ROOT = Path(__file__).resolve().parents[1]


def test_the_grammar_is_found_in_a_plain_checkout(monkeypatch):
    """Not installed, there is no package ``rulekit.grammar``: the grammar
    is read from ``grammar/`` beside the ``rulekit`` folder."""
    installed = parser.grammar_text()

    def no_package(name):
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(parser.resources, "files", no_package)
    assert parser.grammar_text() == installed == (ROOT / "grammar" / "effects.lark").read_text(encoding="utf-8")


def test_the_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert not re.search(r"^version\s*=\s*\"", pyproject, re.M)     # no second copy
    assert 'version = {attr = "rulekit.__version__"}' in pyproject
    assert re.fullmatch(r"\d+\.\d+\.\d+", rulekit.__version__)
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").count(f"## {rulekit.__version__}") == 1


def test_type_hints_are_shipped():
    assert (ROOT / "rulekit" / "py.typed").is_file()
    assert '"rulekit" = ["py.typed"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_every_package_folder_is_shipped():
    """The wheel holds the packages pyproject.toml lists, and only those: a
    folder of ``rulekit`` left off the list is missing from an installed
    rulekit (``rulekit.cli`` was, and with it the ``rulekit`` command)."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = re.search(r"^packages = \[(.*?)\]", pyproject, re.M | re.S)
    assert listed is not None
    declared = set(re.findall(r'"([\w.]+)"', listed.group(1)))
    folders = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "rulekit").rglob("__init__.py")}
    assert folders - declared == set()


def test_the_core_needs_no_numpy():
    """The learning environments (``rulekit.rl``, the ``rl`` extra) are
    optional: rulekit loads, plays and simulates with numpy, gymnasium and
    pettingzoo unavailable, and only ``import rulekit.rl`` needs them."""
    import subprocess
    import sys

    code = """
import sys
for name in ("numpy", "gymnasium", "pettingzoo"):
    sys.modules[name] = None          # any import of them fails
import rulekit, rulekit.agents, rulekit.cli, rulekit.testing
game = rulekit.load_game("games/regicide.yaml")
assert rulekit.simulate(game, players=2, games=3, seed=0)["games"] == 3
try:
    import rulekit.rl
except ImportError:
    print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def test_the_rl_extra_and_its_package_are_declared():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"rulekit.rl"' in pyproject
    assert re.search(r'^rl = \["numpy>=1\.24", "gymnasium>=1\.0", "pettingzoo>=1\.24"\]', pyproject, re.M)
    for path in ("README.md", ".ci/run"):
        assert "pip install -e '.[test,rl,plot,cluster,web]'" in (ROOT / path).read_text(encoding="utf-8")


def test_ci_runs_the_suite_the_readme_runs():
    """CI runs the README's test command as a reader would: it exports no
    setting that changes what the suite tries (a fuzzing window instead of
    the fuzzer's corpus would make CI's run slower than, and different from,
    the one the README promises)."""
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert not re.search(r"^\s*export\s+RULEKIT_", ci, re.M)
    assert "unset RULEKIT_FUZZ_MUTANTS RULEKIT_FUZZ_FIRST_SEED" in ci


def test_the_tests_run_under_pytest_without_xdist():
    """The suite's conftest must not need pytest-xdist (it is in the test
    extra, but a plain ``python -m pytest`` runs the tests in one process):
    its hook for xdist's worker count is optional."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q",
                          "tests/test_packaging.py::test_the_version_is_written_once"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
