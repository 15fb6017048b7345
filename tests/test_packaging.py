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
