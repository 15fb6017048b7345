"""The effect-language reference (docs/language.md) is written from the
grammar and the built-in table, so it cannot drift from the language."""
from __future__ import annotations

import re
from pathlib import Path

from rulekit.lang.names import BUILTINS, SPECIAL_FUNCTIONS
from rulekit.lang.reference import documented_forms, grammar_text, reference

ROOT = Path(__file__).resolve().parents[1]


def test_docs_language_md_is_up_to_date():
    written = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert written == reference(), (
        "docs/language.md is out of date: run `python -m rulekit.lang.reference > docs/language.md`")


def test_every_statement_of_the_grammar_is_documented():
    """Each statement rule has a ``//:`` line just above it (or above the
    rule before it, for statements documented together)."""
    lines = grammar_text().splitlines()
    rules = [i for i, line in enumerate(lines) if re.match(r"^\w+_stmt:", line)]
    assert len(rules) >= 19
    for i in rules:
        assert lines[i - 1].startswith("//:"), f"grammar line {i + 1} ({lines[i]}) has no //: line above it"


def test_every_form_and_builtin_is_in_the_reference():
    statements, expressions = documented_forms(grammar_text())
    text = reference()
    assert len(statements) >= 19 and len(expressions) >= 12
    for form, meaning in statements + expressions:
        assert meaning in text and all(part.replace("|", "\\|") in text for part in form.split(" ; "))
    for name in list(BUILTINS) + list(SPECIAL_FUNCTIONS):
        assert f"`{name}(" in text


def test_the_readme_points_to_the_reference_instead_of_copying_it():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/language.md" in readme
    assert "| `seat_distance` |" not in readme          # the built-in table lives in one place
