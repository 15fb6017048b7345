"""Tests for the safe YAML loader and the rule-file structure check."""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import jsonschema  # noqa: E402
import pytest  # noqa: E402

from rulekit.errors import RuleFileError  # noqa: E402
from rulekit.structure import check_structure, schema  # noqa: E402
from rulekit.yamlsafe import MAX_BYTES, load_yaml  # noqa: E402


def refused(text: str) -> list[str]:
    """The formatted errors load_yaml raises for ``text`` (which must fail)."""
    with pytest.raises(RuleFileError) as info:
        load_yaml(text, "t.yaml")
    return [f"{e.where}: {e.message}" for e in info.value.errors]


def errors_of(text: str) -> list[str]:
    loaded = load_yaml(text, "g.yaml")
    return [f"{e.where}: {e.message}" for e in check_structure(loaded)]


# -- refusals ------------------------------------------------------------------


def test_alias_bomb_is_refused_before_expanding():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    errors = refused("\n".join(lines) + "\n")
    assert errors[0] == "t.yaml:1:4: anchors and aliases are not allowed in rule files (anchor '&a')"
    assert "t.yaml:2:8: anchors and aliases are not allowed in rule files (alias '*a')" in errors
    # One error per anchor and per alias name, not one per use.
    assert len(errors) == 9 + 8


def test_alias_error_has_hint():
    with pytest.raises(RuleFileError) as info:
        load_yaml("a: &x 1\nb: *x\n", "t.yaml")
    assert all("write the repeated value out" in e.hint for e in info.value.errors)


def test_python_tag_is_refused(tmp_path):
    marker = tmp_path / "ran"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\nb: !!python/name:os.system ''\n"
    errors = refused(text)
    assert errors == [
        "t.yaml:1:4: the tag '!!python/object/apply:os.system' is not allowed in rule files",
        "t.yaml:2:4: the tag '!!python/name:os.system' is not allowed in rule files",
    ]
    assert not marker.exists()


def test_local_and_misplaced_tags_are_refused():
    assert refused("a: !foo 3\nb: !!map [1]\n") == [
        "t.yaml:1:4: the tag '!foo' is not allowed in rule files",
        "t.yaml:2:4: the tag '!!map' cannot be used on a list",
    ]


def test_core_tags_are_allowed():
    assert load_yaml("a: !!str 12\nb: !!int '7'\nc: !!float 1\n", "t.yaml").data == {"a": "12", "b": 7, "c": 1.0}


def test_a_core_tag_on_a_value_it_cannot_read_is_refused_where_it_is():
    """(The fuzzer wrote ``!!int`` before an empty value: PyYAML's own
    constructors then fail with an IndexError or a KeyError.)"""
    assert refused("a: !!int ''\nb: !!float _\nc: !!bool ''\nd: !!int\ne: !!int x\n") == [
        "t.yaml:1:4: cannot read '' as int",
        "t.yaml:2:4: cannot read '_' as float",
        "t.yaml:3:4: cannot read '' as bool",
        "t.yaml:4:4: cannot read '' as int",
        "t.yaml:5:4: cannot read 'x' as int",
    ]


def test_duplicate_key_is_refused_at_second_key():
    with pytest.raises(RuleFileError) as info:
        load_yaml("zones:\n  hand: {}\n  deck: {}\n  hand: {}\n", "t.yaml")
    [error] = info.value.errors
    assert f"{error.where}: {error.message}" == "t.yaml:4:3: duplicate key 'hand'"
    assert "line 2" in error.hint


def test_duplicate_keys_are_all_collected():
    assert refused("a: 1\nb: {x: 1, x: 2}\na: 3\n") == [
        "t.yaml:2:11: duplicate key 'x'",
        "t.yaml:3:1: duplicate key 'a'",
    ]


def test_tab_indentation():
    with pytest.raises(RuleFileError) as info:
        load_yaml("zones:\n\thand: {}\n", "t.yaml")
    [error] = info.value.errors
    assert str(error.where) == "t.yaml:2:1"
    assert "'\\t'" in error.message
    assert error.hint.startswith("indent with spaces")


def test_syntax_errors_point_at_the_problem():
    with pytest.raises(RuleFileError) as info:
        load_yaml("name: x\nprompt: Choose: a card\n", "t.yaml")
    [error] = info.value.errors
    assert str(error.where) == "t.yaml:2:15"
    assert error.message == "invalid YAML: mapping values are not allowed here"
    assert "quoted" in error.hint

    with pytest.raises(RuleFileError) as info:
        load_yaml("a:\n  b: 1\n c: 2\n", "t.yaml")
    assert str(info.value.errors[0].where) == "t.yaml:3:2"
    assert "indentation" in info.value.errors[0].hint


def test_non_scalar_key_is_refused():
    assert refused("? [a, b]\n: 1\n") == ["t.yaml:1:3: a mapping key must be a single value, not a list"]


def test_more_than_one_document():
    assert refused("a: 1\n---\nb: 2\n") == ["t.yaml:2:1: a rule file must hold exactly one YAML document"]


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n"])
def test_empty_document(text):
    assert refused(text) == ["t.yaml:1:1: the file is empty"]


def test_top_level_must_be_a_mapping():
    assert refused("- a\n- b\n") == ["t.yaml:1:1: a rule file must be a mapping at the top level, not a list"]


def test_too_large():
    assert refused("a: " + "x" * MAX_BYTES + "\n") == [
        f"t.yaml:1:1: the file has {MAX_BYTES + 4} bytes, more than the limit of {MAX_BYTES} bytes (MAX_FILE_BYTES)"]


# -- data and positions -------------------------------------------------------------


def test_scalars_are_resolved():
    loaded = load_yaml("t: {1: 0, 2: 1}\nb: true\nn: ~\nf: 1.5\ns: '1'\nd: 2024-01-02\n", "t.yaml")
    assert loaded.data == {"t": {1: 0, 2: 1}, "b": True, "n": None, "f": 1.5, "s": "1", "d": "2024-01-02"}


def test_positions():
    loaded = load_yaml("name: X\nzones:\n  hand: {per_player: true}\nlist:\n  - a\n  - b\n", "t.yaml")
    assert str(loaded.where(())) == "t.yaml:1:1"
    assert str(loaded.where(("zones", "hand"))) == "t.yaml:3:9"
    assert str(loaded.key_where(("zones", "hand"))) == "t.yaml:3:3"
    assert str(loaded.where(("zones", "hand", "per_player"))) == "t.yaml:3:22"
    assert str(loaded.key_where(("zones", "hand", "per_player"))) == "t.yaml:3:10"
    assert str(loaded.where(("list", 1))) == "t.yaml:6:5"
    # Missing paths fall back to the nearest existing ancestor.
    assert str(loaded.where(("zones", "hand", "limit"))) == "t.yaml:3:9"
    assert str(loaded.key_where(("zones", "deck"))) == "t.yaml:3:3"
    assert str(loaded.key_where(("list", 0))) == "t.yaml:5:5"


def test_text_where_block_scalar():
    text = "phases:\n  - name: play\n    effect: |\n      let n = 1\n      if n > 0:\n        win \"yes\"\n"
    loaded = load_yaml(text, "t.yaml")
    path = ("phases", 0, "effect")
    assert str(loaded.where(path)) == "t.yaml:3:13"
    assert str(loaded.text_where(path, 1, 1)) == "t.yaml:4:7"
    assert str(loaded.text_where(path, 1, 5)) == "t.yaml:4:11"
    assert str(loaded.text_where(path, 3, 3)) == "t.yaml:6:9"  # inside the nested line


def test_text_where_strip_and_folded_blocks():
    text = "a: |-\n    one\n    two\nb: >\n  joined\n  text\n\n  para\n"
    loaded = load_yaml(text, "t.yaml")
    assert str(loaded.text_where(("a",), 2, 2)) == "t.yaml:3:6"
    assert loaded.data["b"] == "joined text\npara\n"
    assert str(loaded.text_where(("b",), 1, 8)) == "t.yaml:6:3"  # 't' of "text"
    assert str(loaded.text_where(("b",), 2, 1)) == "t.yaml:8:3"  # 'p' of "para"


def test_text_where_plain_and_quoted_scalars():
    loaded = load_yaml("when: yields < 3\nwho: 'it''s x'\nsay: \"a\\tb\"\n", "t.yaml")
    assert str(loaded.text_where(("when",), 1, 1)) == "t.yaml:1:7"
    assert str(loaded.text_where(("when",), 1, 8)) == "t.yaml:1:14"
    assert str(loaded.text_where(("who",), 1, 1)) == "t.yaml:2:7"
    assert str(loaded.text_where(("who",), 1, 6)) == "t.yaml:2:13"  # after the doubled quote
    assert str(loaded.text_where(("say",), 1, 3)) == "t.yaml:3:10"  # after the \t escape


def test_text_where_on_non_string_falls_back():
    loaded = load_yaml("a: 3\n", "t.yaml")
    assert str(loaded.text_where(("a",), 1, 2)) == "t.yaml:1:4"


# -- structure ------------------------------------------------------------------------


def test_schema_is_valid():
    jsonschema.Draft202012Validator.check_schema(schema())


def test_regicide_passes():
    path = ROOT / "games" / "regicide.yaml"
    loaded = load_yaml(path.read_text(encoding="utf-8"), str(path))
    assert check_structure(loaded) == []


MINIMAL = textwrap.dedent("""\
    name: Test
    players: {min: 1, max: 2}
    cards:
      - {name: A, count: 2}
    zones:
      deck: {visibility: hidden}
    turn:
      phases:
        - name: play
          effect: |
            move top(deck, 1) to deck
    """)


def test_minimal_game_passes():
    assert errors_of(MINIMAL) == []


def test_chinese_names_pass():
    assert errors_of(MINIMAL.replace("deck", "牌堆")) == []


def test_unknown_key():
    text = MINIMAL.replace("zones:", "zonez:")
    loaded = load_yaml(text, "g.yaml")
    errors = check_structure(loaded)
    assert [f"{e.where}: {e.message}" for e in errors] == [
        "g.yaml:1:1: missing required key 'zones' in the top level",
        "g.yaml:5:1: unknown key 'zonez' in the top level",
    ]
    unknown = errors[1]
    assert unknown.expected.startswith("one of: card_total, card_vars, cards, choices, description,")
    assert unknown.hint == "did you mean 'zones'?"
    assert "zones: {deck: {visibility: hidden}" in errors[0].hint


def test_missing_required_keys_are_reported_together():
    errors = errors_of("name: X\ncards: [{name: A}]\nzones: {}\n")
    assert errors == ["g.yaml:1:1: missing required keys 'players' and 'turn' in the top level"]
    loaded = load_yaml("name: X\ncards: [{name: A}]\nzones: {}\nturn: {phases: [{name: p, effect: ''}]}\n", "g.yaml")
    [error] = check_structure(loaded)
    assert error.hint == "add e.g. 'players: {min: 1, max: 4}' (how many players the game supports)"


def test_wrong_type_enum_and_minimum():
    text = MINIMAL.replace("max: 2", "max: three").replace("visibility: hidden", "visibility: secret")
    text = text.replace("count: 2", "count: 0")
    assert errors_of(text) == [
        "g.yaml:2:24: 'max' in 'players': expected an integer, got a string ('three')",
        "g.yaml:4:22: 'count' in card entry 1: must be at least 1, got 0",
        "g.yaml:6:22: 'visibility' in zone 'deck': 'secret' is not allowed",
    ]
    loaded = load_yaml(text, "g.yaml")
    enum = check_structure(loaded)[2]
    assert enum.expected == "one of: public, hidden, owner, top"


def test_errors_inside_choices():
    text = MINIMAL + textwrap.dedent("""\
        choices:
          attack:
            who: current
            options:
              - name: card
                cards: 1
              - name: combo
                cards: 2-4
                frm: hand(current)
              - {name: bad name}
        """)
    loaded = load_yaml(text, "g.yaml")
    errors = check_structure(loaded)
    assert [f"{e.where}: {e.message}" for e in errors] == [
        "g.yaml:19:16: 'cards' in option 2 of choice 'attack': '2-4' is not a range",
        "g.yaml:20:9: unknown key 'frm' in option 2 of choice 'attack'",
        "g.yaml:21:16: 'name' in option 3 of choice 'attack': 'bad name' is not a valid name",
    ]
    assert errors[0].expected == "a range like '2..4' (from..to)"
    assert errors[1].hint == "did you mean 'from'?"
    assert errors[2].hint == "try 'bad_name'"


def test_bad_names_point_at_the_key():
    text = MINIMAL.replace("  deck: {visibility: hidden}", "  deck: {}\n  my-pile: {}\n  2: {}")
    assert errors_of(text) == [
        "g.yaml:7:3: zone name 'my-pile' in 'zones' is not a valid name",
        "g.yaml:8:3: zone name 2 in 'zones' must be a name, not an integer (2)",
    ]


def test_any_of_picks_the_meant_branch():
    text = MINIMAL.replace(
        "{name: A, count: 2}",
        "{name: A, each: {suit: [hearts, {suit: x, symbol: [1]}, [nested]]}}",
    )
    assert errors_of(text) == [
        "g.yaml:4:55: 'symbol' in item 2 of 'suit' in 'each' in card entry 1: "
        "expected a string, a number or true/false, got a list",
        "g.yaml:4:61: item 3 of 'suit' in 'each' in card entry 1: "
        "expected a string, a number, true/false or a mapping, got a list",
    ]


def test_empty_lists_and_player_range():
    text = MINIMAL.replace("{min: 1, max: 2}", "{min: 3, max: 2}").replace(
        "  phases:\n    - name: play\n      effect: |\n        move top(deck, 1) to deck\n",
        "  phases: []\n",
    )
    assert errors_of(text) == [
        "g.yaml:2:24: 'players': max (2) is smaller than min (3)",
        "g.yaml:8:11: 'phases' in 'turn': must not be empty",
    ]


def test_floats_are_not_integers():
    assert errors_of(MINIMAL.replace("count: 2", "count: 2.0")) == [
        "g.yaml:4:22: 'count' in card entry 1: expected an integer, got a number (2.0)",
    ]


# ---- a file libyaml refuses is re-read by PyYAML from its last top-level key ----------------

def _both_ways(text: str) -> tuple[object, str, str]:
    """What libyaml left to start from, and PyYAML's report read from there and read whole."""
    from rulekit import yamlsafe
    from rulekit.errors import LINE_BREAK

    root, loader, restart = yamlsafe._compose_fast(text, "f.yaml")
    assert loader is None, "libyaml read the file"
    lines = LINE_BREAK.split(text)

    def report(start) -> str:
        with pytest.raises(RuleFileError) as info:
            yamlsafe._compose(text, "f.yaml", lines, start)
        return str(info.value)
    return restart, report(restart), report(None)


AFTER_KEYS = "name: G\n# a comment\nplayers: {min: 1, max: 2}\ncards:\n  - {name: A}\n"


@pytest.mark.parametrize("tail", [
    "zones: [a, b\nvars: {}\n",                 # an unclosed list
    "zones:\n  d: {visibility: public}\n - x\n",  # a sequence entry where a key belongs
    "- x\n",                                     # the root mapping's own context, at line 1
    'phases: "open\n',                           # a quoted text never closed
    "vars: {a: 1}}\n",
])
def test_a_re_read_from_the_last_top_level_key_reports_what_the_whole_re_read_does(tail):
    """PyYAML's reader (pure Python) reads the part after the last
    top-level key libyaml read, the lines before left blank: the same
    message at the same position, and the context of the top-level mapping
    still named at its own start."""
    restart, part, whole = _both_ways(AFTER_KEYS + tail)
    assert restart is not None and restart.line >= 2
    assert part == whole
    if tail.startswith("- ") or " - " in tail:
        assert "(while parsing a block mapping at line 1, column 1)" in part


@pytest.mark.parametrize("head", ["---\n", "%YAML 1.1\n---\n", "name: &a G\n", "name: !local G\n",
                                  "name:\tG\n", "  name: G\n"])
def test_no_re_read_starts_after_what_only_a_whole_reading_reports(head):
    """A document marker or directive, an anchor, a tag, a tab or an
    indented top level before the problem: the file is read whole."""
    restart, part, whole = _both_ways(head + AFTER_KEYS + "zones: [a, b\nvars: {}\n")
    assert restart is None and part == whole


LIST_KEY = AFTER_KEYS + "".join(f"  - {{name: C{i}, count: 2}}\n" for i in range(40))


@pytest.mark.parametrize("tail", [
    "  - {name: X, count: [1, 2\n",                # an unclosed flow list in the last entry
    "  - name: X\n   count: 2\n",                  # the last entry's mapping indented wrongly
    " - x\n",                                       # a dash left of the list's column
    "  - 'open\n",                                  # a quoted text never closed
    "  - name: X\n    effect: |\n  bad\n  - y\n", # a block text, then a line left of the list
])
def test_a_re_read_from_the_last_entry_of_a_top_level_list_reports_what_the_whole_re_read_does(tail):
    """A file of cards is one top-level key and a long list: PyYAML re-reads
    the key's line and the list from the last entry libyaml read, the lines
    between left blank, and names the list's own start as the context."""
    text = LIST_KEY + tail
    restart, part, whole = _both_ways(text)
    assert restart is not None and restart.entry is not None
    line, _, first = restart.entry
    assert first.line == 4 and line >= 4 + 40 - 1      # (0-based) the list's first entry; its last
    again = restart.text(text)        # the key's line, then the list from that entry on, lines kept
    assert again.count("\n") == text.count("\n")
    assert [row for row in again.split("\n") if row] == ["cards:"] + [row for row in text.split("\n")[line:] if row]
    assert part == whole


@pytest.mark.parametrize("key", ['"cards":\n', "cards: !!seq\n", "cards: &a\n"])
def test_no_re_read_starts_at_an_entry_unless_a_plain_key_stands_alone_on_its_line(key):
    """A quoted key, a tag or an anchor on the key's line: not re-read from an entry."""
    from rulekit import yamlsafe

    text = AFTER_KEYS.replace("cards:\n", key) + "  - x\n  - {y: [\n"
    root, loader, restart = yamlsafe._compose_fast(text, "f.yaml")
    assert loader is None and (restart is None or restart.entry is None)


def test_no_re_read_starts_at_an_entry_whose_value_starts_below_its_dash():
    restart, part, whole = _both_ways(LIST_KEY + "  -\n    name: X\n    count: [1\n")
    assert restart is not None and restart.entry is None and part == whole


def test_re_reads_of_mutated_game_files_report_what_whole_re_reads_do():
    """Mutants of every game file that libyaml refuses (a few hundred; the
    comparison was run on 7,530 without a difference)."""
    from test_fuzz_rule_files import RULE_FILES, hostile_mutant

    compared = 0
    for _, file in RULE_FILES:
        source = file.read_bytes()
        for seed in range(12):
            try:
                text = hostile_mutant(source, seed).decode("utf-8")
                restart, part, whole = _both_ways(text)
            except (UnicodeDecodeError, RuleFileError, AssertionError):
                continue        # not UTF-8, a control character, or libyaml read it
            if restart is not None:
                compared += 1
                assert part == whole, (file, seed)
    assert compared > 100
