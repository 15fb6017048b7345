"""The effect-language reference (``docs/language.md``), written from the
sources the compiler itself uses, so the documentation cannot drift from
the language:

- statements and expressions: the ``//:`` lines of the grammar
  (``grammar/effects.lark``), each ``form ; other form | meaning``, in grammar order
  (expressions loosest binding first, as the grammar nests them);
- names every rule may read: :data:`rulekit.lang.names.SPECIAL_NAMES`;
- built-in functions with their arities: :data:`rulekit.lang.names.BUILTINS`
  and :data:`rulekit.lang.names.SPECIAL_FUNCTIONS`.

``python -m rulekit.lang.reference > docs/language.md`` rewrites the file;
``tests/test_language_reference.py`` fails when it is out of date.
"""
from __future__ import annotations

import re
from importlib import resources

from .names import BUILTINS, SPECIAL_FUNCTIONS, SPECIAL_NAMES

#: a documented grammar line: ``//: FORM | MEANING``
_DOC = re.compile(r"^//:\s*(?P<form>.+?)\s+\|\s+(?P<meaning>.+)$")
#: the first expression rule: what is documented from here on is an expression
_FIRST_EXPRESSION = "?expr:"


def grammar_text() -> str:
    return resources.files("rulekit.grammar").joinpath("effects.lark").read_text(encoding="utf-8")


def documented_forms(grammar: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(statements, expressions)``: the ``(form, meaning)`` of each ``//:`` line."""
    statements: list[tuple[str, str]] = []
    expressions: list[tuple[str, str]] = []
    into = statements
    for line in grammar.splitlines():
        if line.startswith(_FIRST_EXPRESSION):
            into = expressions
        match = _DOC.match(line)
        if match:
            into.append((match["form"], match["meaning"]))
    return statements, expressions


def _signature(name: str, least: int, most: int) -> str:
    names = ["x", "y", "z"][:least] if least <= 3 else [f"x{i}" for i in range(1, least + 1)]
    if most > least:
        names.append("…" if most - least > 1 else "n")
    return f"{name}({', '.join(names)})"


def _cell(text: str) -> str:
    """Table-safe: a ``|`` in a form would end the cell."""
    return text.replace("|", "\\|")


def _code(form: str) -> str:
    """Each of the forms a ``//:`` line gives (separated by `` ; ``), as code."""
    return ", ".join(f"`{_cell(part.strip())}`" for part in form.split(" ; "))


def reference() -> str:
    """The whole reference, as Markdown."""
    statements, expressions = documented_forms(grammar_text())
    out = ["# The effect language", "",
           "<!-- Written by `python -m rulekit.lang.reference > docs/language.md` from the grammar",
           "     (grammar/effects.lark) and the built-in table (rulekit/lang/names.py); do not edit. -->",
           "",
           "Effect text (phases, procedures, setup, triggers, card and skill effects) is a small",
           "statement language indented like Python; `#` starts a comment. Conditions, counts,",
           "heuristics and stats are expressions. Every name is resolved when the file is loaded,",
           "so a typo is an error with its file, line and column, never a failure mid-match.",
           "So is an operation that fails whenever it runs, or a comparison that never holds,",
           "on values whose types the file makes certain: literals, sizes, a card property every",
           "card holds as one type, a variable whose every assignment keeps the type of its",
           "initial value, a local set to a number (`score + \"x\"` with `score: 0`, `size(3)`,",
           "`phase == 2`), and statements given what they never take (`for i in player_count`).",
           "A value of another kind (another local, an event's field, what a procedure returns)",
           "is checked when the rule runs. Numbers, texts and lists are distinct types: `\"3\" < 4` and",
           "`1 + \"1\"` fail (a truth value counts as 1 or 0 in arithmetic).",
           "", "## Statements", "", "| statement | meaning |", "|---|---|"]
    out += [f"| {_code(form)} | {_cell(meaning)} |" for form, meaning in statements]
    out += ["", "## Expressions", "", "Loosest binding first:", "", "| expression | meaning |", "|---|---|"]
    out += [f"| {_code(form)} | {_cell(meaning)} |" for form, meaning in expressions]
    out += ["", "## Names every rule may read", "",
            "Besides the file's own variables, options, tables, zones (`hand(p)` for per-player",
            "zones), choices, procedures' parameters and locals; every card has its `name`;",
            "triggers also read `event` and, with `each_player`, `owner`.", "",
            "| name | meaning |", "|---|---|"]
    out += [f"| `{name}` | {_cell(meaning)} |" for name, meaning in SPECIAL_NAMES.items()]
    out += ["", "## Built-in functions", "", "| function | meaning |", "|---|---|"]
    for name, (_fn, least, most, meaning) in BUILTINS.items():
        out.append(f"| `{_signature(name, least, most)}` | {_cell(meaning)} |")
    for name, text in SPECIAL_FUNCTIONS.items():
        form, _, meaning = text.partition(": ")
        out.append(f"| `{form or name}` | {_cell(meaning or text)} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(reference(), end="")
