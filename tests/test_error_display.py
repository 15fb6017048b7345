"""Errors show the offending line with a caret under the place, as compilers do.

The caret is placed by display width: a CJK character takes two terminal
columns, a tab runs to the next multiple of 8.  Column numbers in the
``file:line:column`` header stay 1-based character columns.
"""
from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import rulekit
from rulekit.errors import RuleError, RuleFileError, Where, scalar_span, show_source

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "tests" / "broken"


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


@pytest.mark.parametrize("text, column, span, shown, caret", [
    ("move deck to discrad", 14, 7, "move deck to discrad", " " * 13 + "^~~~~~~"),
    ('has(p, "连营X")', 8, 5, 'has(p, "连营X")', " " * 7 + "^~~~~~~"),     # '"连营X"' is 7 columns
    ('"杀" == "闪X"', 8, 4, '"杀" == "闪X"', " " * 8 + "^~~~~"),           # after 4 columns of '"杀"'
    ("\tx = 1", 2, 1, "        x = 1", " " * 8 + "^"),                      # a tab: to column 8
    ("ab\tc", 4, 1, "ab      c", " " * 8 + "^"),
    ("if x", 5, 0, "if x", " " * 4 + "^"),                                   # just past the end
    ("a\x1bb", 3, 1, "a?b", "  ^"),                                          # no terminal escapes
])
def test_the_caret_is_under_the_column_by_display_width(text, column, span, shown, caret):
    source, marker = show_source(text, 12, column, span)
    assert source == "   12 | " + shown
    assert marker == "      | " + caret


def test_a_long_line_is_cut_around_the_caret():
    text = "x" * 300 + " target " + "y" * 300
    source, marker = show_source(text, 1, 302, 6)
    assert source.startswith("    1 | ...") and source.endswith("...")
    assert width(source) < 130
    assert source[marker.index("^"):marker.index("^") + 6] == "target"


def test_a_long_line_of_wide_characters_keeps_the_caret_aligned():
    text = "连" * 200 + "X" + "连" * 200
    source, marker = show_source(text, 1, 201, 1)
    before = source[:source.index("X")]
    assert width(before) == marker.index("^")


def test_an_error_without_a_line_shows_no_source():
    e = RuleError(Where("f.yaml"), "cannot read the rule file", source="whatever")
    assert e.format() == "f.yaml: error: cannot read the rule file"


def test_the_source_lines_come_before_expected_and_hint():
    e = RuleError(Where("f.yaml", 2, 3), "bad", "good", "fix it", span=2, source="  xy")
    assert e.format().split("\n") == ["f.yaml:2:3: error: bad", "    2 |   xy", "      |   ^~",
                                      "    expected: good", "    hint: fix it"]


@pytest.mark.parametrize("line, column, span", [
    ("  deck: {visibility: hiden}", 22, 5),
    ("choises:", 1, 7),
    ('players: {min: 1, max: "three"}', 24, 7),
    ("  first: 0 # the dealer", 10, 1),
    ("setup: |", 8, 0),
    ("  - name: x", 3, 0),
    ("x: 'it''s' here", 4, 7),
])
def test_the_span_of_a_yaml_scalar(line, column, span):
    assert scalar_span(line, column) == span


def _broken_errors() -> list[RuleError]:
    found = []
    for path in sorted(BROKEN.glob("*.yaml")):
        try:
            rulekit.load_game(path)
        except RuleFileError as err:
            found.extend(err.errors)
    return found


def test_every_broken_file_error_shows_its_line_and_a_caret_under_its_column():
    lines = {}
    checked = 0
    for e in _broken_errors():
        if not e.where.line:
            continue
        text = lines.setdefault(e.where.file, Path(e.where.file).read_text(encoding="utf-8").split("\n"))
        source_line = text[e.where.line - 1]
        shown = e.format().split("\n")
        assert shown[1] == f"{e.where.line:>5} | {source_line.expandtabs(8)}".rstrip()
        caret = shown[2]
        assert caret.startswith("      | ")
        assert caret.index("^") - 8 == width(source_line[:e.where.column - 1].expandtabs(8))
        checked += 1
    assert checked > 40


def test_str_of_rule_file_error_has_the_source_and_caret():
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(BROKEN / "unknown_zone.yaml")
    assert str(info.value).split("\n")[:3] == [
        f"{BROKEN / 'unknown_zone.yaml'}:41:30: error: unknown name 'discrad'",
        "   41 |           move play.cards to discrad",
        "      |                              ^~~~~~~",
    ]


def test_validate_prints_the_source_and_caret():
    run = subprocess.run([sys.executable, "-m", "rulekit", "validate", "tests/broken/several_stages.yaml"],
                         cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=120,
                         env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert run.returncode == 1
    out = run.stderr.split("\n")
    i = out.index("tests/broken/several_stages.yaml:53:11: error: cannot assign to unknown variable 'scroe'")
    assert out[i + 1:i + 3] == ["   53 |           scroe += sum(play.cards.value)",
                                "      |           ^~~~~"]
    assert out[-2] == "tests/broken/several_stages.yaml: 6 errors"


@pytest.mark.parametrize("name, underlined", [
    ("table_missing_player_count", "hand_size[player_count]"),   # an expression: all of it
    ("unknown_function", "length"),                               # a name
    ("bad_visibility", "hiden"),                                  # a YAML value
    ("unknown_top_key", "choises"),                               # a YAML key
])
def test_the_tildes_cover_what_the_error_is_about(name, underlined):
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(BROKEN / f"{name}.yaml")
    source, caret = str(info.value).split("\n")[1:3]
    start = caret.index("^")
    assert caret.endswith("^" + "~" * (len(underlined) - 1))
    assert source[start:start + len(underlined)] == underlined
