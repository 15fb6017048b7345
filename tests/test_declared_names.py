"""Strings that are names are checked when the file loads.

A string compared with a card property must be a value some card has; a
string given for (or compared with) a parameter declared ``{name: p,
one_of: SET}`` must be one of the names of the ``names:`` entry SET.  See
docs/authoring.md, "Names written as strings".
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulekit
from rulekit.errors import RuleFileError

ROOT = Path(__file__).resolve().parents[1]

GAME = """\
name: Names
players: {min: 2, max: 2}
names:
  skill: {card_props: [skills, lord_skills]}
  kind: {card_props: kind}
  colour: [red, black]
  both: {values: [extra], card_props: [kind]}
cards:
  - {name: Hit, count: 4, props: {kind: hit, tags: [attack, basic], colour: red}}
  - {name: Dodge, count: 4, props: {kind: dodge, tags: [basic], colour: black}}
  - {name: Sword, props: {kind: sword, slot: weapon, colour: black}}
  - {name: Hero, props: {kind: general, skills: [dash, guard], lord_skills: [rally]}}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
player_vars:
  kind: ""
  skills: []
choices:
  play:
    params: [p, {name: k, one_of: kind}]
    who: p
    options:
      - {name: card, cards: 1, from: hand(p), where: it.kind == k}
      - {name: pass, when: k != "hit"}
procedures:
  has:
    params: [p, {name: skill, one_of: skill}]
    effect: return skill in p.skills
  tint:
    params: [{name: c, one_of: colour}]
    effect: return size(deck where it.colour == c)
  either:
    params: [{name: x, one_of: both}]
    effect: return x == "extra"
setup: |
  move box to deck
  shuffle deck
  move top(deck, 3) to hand(0)
turn:
  phases:
    - name: play
      effect: |
        if has(current, "dash"):
          choose play(current, "hit")
        let n = 0
"""

# the last statement of the phase, replaced by each case
TAIL = "        let n = 0\n"


def load(text: str):
    return rulekit.load_game_text(text, "t.yaml")


def with_phase(line: str, text: str = GAME) -> str:
    return text.replace(TAIL, f"        {line}\n")


def errors(text: str) -> list[str]:
    with pytest.raises(RuleFileError) as info:
        load(text)
    return [f"{e.where.line}:{e.where.column}: {e.message}" for e in info.value.errors]


def error(text: str):
    with pytest.raises(RuleFileError) as info:
        load(text)
    assert len(info.value.errors) == 1, str(info.value)
    return info.value.errors[0]


# ---- names that are right load --------------------------------------------------------


@pytest.mark.parametrize("line", [
    'let n = size(deck where it.kind == "hit")',
    'let n = size(deck where it.kind != "sword" and it.colour in ["red", "black"])',
    'let n = size(deck where "attack" in it.tags)',
    'let n = size(deck where it.slot == "weapon")',        # a property only one card has
    'let n = size(deck where "dash" in it.skills)',
    'let n = size(deck where "Hi" in it.name)',            # a substring test of a text
    'let n = tint("red") + either("extra") + either("sword")',
    'choose play(current, "general")',
    'let b = has(current, "rally")',
    'let n = size(players where it.kind == "anything")',   # a player variable, not a card's
])
def test_right_names_load(line):
    load(with_phase(line))


def test_every_game_file_validates():
    for path in [*ROOT.glob("games/*.yaml"), *ROOT.glob("docs/examples/*.yaml"), *ROOT.glob("tests/games/*.yaml")]:
        rulekit.load_game(path)


# ---- a string compared with a card property --------------------------------------------


@pytest.mark.parametrize("line, col, message, hint", [
    ('let n = size(deck where it.kind == "hitt")', 44, "no card has kind 'hitt'", "did you mean 'hit'?"),
    ('let n = size(deck where "hitt" != it.kind)', 33, "no card has kind 'hitt'", "did you mean 'hit'?"),
    ('let n = size(deck where it.colour in ["red", "blak"])', 54, "no card has colour 'blak'",
     "did you mean 'black'?"),
    ('let n = size(deck where it.kind not in ["swrd"])', 49, "no card has kind 'swrd'", "did you mean 'sword'?"),
    ('let n = size(deck where "atack" in it.tags)', 33, "no card has 'atack' in its tags",
     "did you mean 'attack'?"),
    ('let n = size(deck where it.slot == "armour")', 44, "no card has slot 'armour'", "can never match"),
    ('let b = top(deck).colour == "rde"', 37, "no card has colour 'rde'", "did you mean 'red'?"),
])
def test_a_string_no_card_has_is_an_error(line, col, message, hint):
    e = error(with_phase(line))
    assert (e.where.line, e.where.column, e.message) == (46, col, message)
    assert hint in e.hint
    assert "a value some card has as" in e.expected
    assert e.span == len(message.split("'")[1]) + 2      # the string, quotes and all


def test_a_string_in_an_option_filter_or_condition_is_checked():
    text = GAME.replace('where: it.kind == k}', 'where: it.kind == k or it.colour == "gren"}')
    text = text.replace('when: k != "hit"}', 'when: k != "hitt"}')
    assert errors(text) == ["24:83: no card has colour 'gren'", "25:33: no kind is called 'hitt'"]


# ---- a parameter declared one_of a names: entry -------------------------------------


@pytest.mark.parametrize("old, new, where, message, hint", [
    ('has(current, "dash")', 'has(current, "dahs")', "44:25", "no skill is called 'dahs'", "did you mean 'dash'?"),
    ('choose play(current, "hit")', 'choose play(current, "hti")', "45:32", "no kind is called 'hti'",
     "did you mean 'hit'?"),
    ('return x == "extra"', 'return x == "extar"', "35:25", "no both is called 'extar'", "did you mean 'extra'?"),
])
def test_a_string_for_a_declared_parameter_must_be_one_of_its_names(old, new, where, message, hint):
    e = error(GAME.replace(old, new))
    assert (f"{e.where.line}:{e.where.column}", e.message) == (where, message)
    assert hint in e.hint
    assert "under names:" in e.expected


def test_a_parameter_the_text_sets_again_is_not_checked():
    load(GAME.replace('effect: return x == "extra"',
                      'effect: |\n      x = "free text"\n      return x == "other"'))


def test_a_property_that_is_also_a_player_variable_is_checked_only_on_a_card():
    load(with_phase('let b = top(deck).kind == "dodg"'))     # a card or a player: not known here
    assert error(with_phase('let n = size(deck where it.kind == "dodg")')).message == "no card has kind 'dodg'"


def test_one_of_names_an_entry_of_names():
    text = GAME.replace("{name: c, one_of: colour}", "{name: c, one_of: color}")
    assert errors(text) == ["31:32: no entry 'color' under names:"]
    assert "did you mean 'colour'?" in error(text).hint


def test_a_names_entry_reads_card_properties_that_exist():
    e = error(GAME.replace("card_props: [skills, lord_skills]", "card_props: [skills, lord_skill]"))
    assert (e.where.line, e.where.column, e.message) == (4, 32, "no card has a property 'lord_skill'")
    assert e.hint == "did you mean 'lord_skills'?"


def test_a_names_entry_may_hold_the_names_of_the_cards_a_property_picks():
    """``card_names: {kind: general}``: the names of the generals, and no
    other card's; a property no card has is an error at its key."""
    text = GAME.replace("  colour: [red, black]\n", "  colour: [red, black]\n"
                        "  heroes: {card_names: {kind: general}, values: ['-']}\n")
    text = text.replace("  kind: \"\"\n", "  kind: \"\"\n  picked: {initial: '-', one_of: heroes}\n")
    assert load(text).var_sets[("player_vars", "picked")] == ("-", "Hero")
    e = error(text.replace("{kind: general}", "{kinds: general}"))
    assert (e.where.line, e.message) == (7, "no card has a property 'kinds'")
    assert e.hint == "did you mean 'kind'?"


def test_a_names_entry_declares_some_names():
    e = error(GAME.replace("both: {values: [extra], card_props: [kind]}", "both: {doc: nothing}"))
    assert e.message == "names entry 'both' declares no names"


def test_the_schema_refuses_a_malformed_parameter():
    e = error(GAME.replace("{name: c, one_of: colour}", "{name: c, one_of: colour, type: text}"))
    assert e.message.startswith("unknown key 'type'")


# ---- 三国杀 ---------------------------------------------------------------------------


def _sanguosha(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of 三国杀 (and the modules it includes) with the first ``old``
    of its files replaced; the folder to load."""
    for folder in ("sanguosha", "modules"):
        shutil.copytree(ROOT / "games" / folder, tmp_path / folder)
    for file in sorted(tmp_path.rglob("*.yaml")):
        text = file.read_text(encoding="utf-8")
        if old in text:
            file.write_text(text.replace(old, new, 1), encoding="utf-8")
            return tmp_path / "sanguosha"
    raise AssertionError(f"no file of 三国杀 has {old!r}")


def _error_of(game: Path):
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(game)
    assert len(info.value.errors) == 1, str(info.value)
    return info.value.errors[0]


@pytest.mark.parametrize("old, new, message, hint", [
    ('has(current, "武圣")', 'has(current, "武圣X")', "no skill is called '武圣X'", "did you mean '武圣'?"),
    ('has(a, "马术")', 'has(a, "马速")', "no skill is called '马速'", "did you mean '马术'?"),
    ('where: it.kind == "闪"', 'where: it.kind == "闪X"', "no card has kind '闪X'", "did you mean '闪'?"),
    ('any(allies(current, "蜀"))', 'any(allies(current, "蜀国"))', "no kingdom is called '蜀国'",
     "did you mean '蜀'?"),
    ('kind == "决斗"', 'kind == "决斗X"', "no kind is called '决斗X'", "did you mean '决斗'?"),
    ('choose confirm(p, "洛神")', 'choose confirm(p, "洛伸")', "no skill_or_kind is called '洛伸'",
     "did you mean '洛神'?"),
    ('weapon_is(p, "丈八蛇矛")', 'weapon_is(p, "丈八蛇予")', "no kind is called '丈八蛇予'",
     "did you mean '丈八蛇矛'?"),
])
def test_sanguosha_misspelled_names(tmp_path, old, new, message, hint):
    e = _error_of(_sanguosha(tmp_path, old, new))
    assert e.message == message and hint in e.hint
    line = Path(e.where.file).read_text(encoding="utf-8").split("\n")[e.where.line - 1]
    assert line[e.where.column - 1:].startswith(new.split('"')[1].join('""'))


def test_the_caret_is_under_a_misspelled_chinese_name(tmp_path):
    game = _sanguosha(tmp_path, 'has(current, "武圣")', 'has(current, "武圣X")')
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(game)
    lines = str(info.value).split("\n")
    source, caret = lines[1], lines[2]
    assert source.endswith('when: has(current, "武圣X") and usable(current, "杀")')
    # the text before the string is ASCII; the string '"武圣X"' takes 7 columns
    start = source.index('"武圣X"')
    assert caret == " " * 6 + "| " + " " * (start - 8) + "^" + "~" * 6
