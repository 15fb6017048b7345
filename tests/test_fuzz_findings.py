"""Broken rule files the fuzzer (tests/test_fuzz_rule_files.py) once made,
kept as small files of their own: each reaches an error path only a rare
mutant reached, so the suite tries it on every run whatever window of seeds
the fuzzer takes.  As there: a broken file is refused with errors that
point into it, and a file that loads plays, or stops with rulekit's own
runtime error naming the rule — never a Python traceback.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.errors import RuleFileError, RuleRuntimeError

ROOT = Path(__file__).resolve().parent
SKILLS = (ROOT / "games" / "skills.yaml").read_text(encoding="utf-8")


def _game(effect: str, head: str = "") -> str:
    """A two-player game of four cards whose only phase runs ``effect``."""
    body = "\n".join("        " + line for line in effect.split("\n"))
    return ("name: Finding\nplayers: {min: 2, max: 2}\n" + head
            + "cards:\n  - {name: C, count: 4, props: {rank: 1}}\n"
            "zones:\n  deck: {visibility: hidden}\n  pile: {}\n"
            "card_vars:\n  health: 0\nvars: {v: 0}\n"
            f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n")


def _refused(text: str, file: str = "finding.yaml") -> str:
    """The errors refusing ``text``, checked to point at lines of it."""
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text, file)
    lines = text.count("\n") + 1
    for e in info.value.errors:
        assert e.where.file == file and 1 <= e.where.line <= lines and e.where.column >= 1, str(e)
    return str(info.value)


def _stopped(text: str) -> str:
    """The runtime error stopping the first turn of ``text``, which loads."""
    game = rulekit.load_game_text(text, "finding.yaml")
    with pytest.raises(RuleRuntimeError) as info:
        game.new_match(2)
    return str(info.value)


# ---- effect text that loads and fails in play -------------------------------------------------

def test_a_let_removed_from_one_branch_is_a_runtime_error_naming_the_variable():
    """(A mutant deleted ``let c = ...`` in one branch of an ``if``; the
    branch still reads ``c``.)"""
    err = _stopped(_game("move box to deck\nif v > 0:\n  let c = 1\nv = c\nwin"))
    assert err.startswith("finding.yaml:18:9: 'c' is read before 'let' gives it a value")


def test_a_stat_that_fails_at_the_end_is_a_runtime_error_at_the_stat():
    """(A mutant of Regicide gave a variable a text its ``player_stats``
    divide: the match ended, and working out the stats raised a Python
    error.  Declared a text, ``v // 2`` is refused when the file loads now:
    tests/test_type_checks.py; here a rule sets the text.)"""
    text = _game('move box to deck\nv = "many"\nwin', head='player_stats:\n  half: "v // 2"\n')
    err = _stopped(text)
    assert err.startswith("finding.yaml:4:10: the rule failed: '//' cannot take a text and a number"), err
    assert err.endswith("(in player stat 'half')"), err


def test_an_index_after_a_zone_is_refused_when_the_file_loads():
    """(A mutant wrote ``move top(deck, 1) to pile [p]``: a zone is not a list.)"""
    with pytest.raises(RuleFileError) as caught:
        rulekit.load_game_text(_game("move box to deck\nmove top(deck, 1) to pile [0]\nwin"), "finding.yaml")
    assert "a zone is not a list: its cards are not numbered" in str(caught.value)


def test_a_filtered_move_that_matches_no_card_moves_nothing():
    """(A mutant inserted ``move box where it.type != "hero" to deck``
    where no card has that property value.)"""
    game = rulekit.load_game_text(_game("move box to deck\nmove deck where it.rank == 2 to pile\n"
                                        "v = size(pile)\nwin"), "finding.yaml")
    m = game.new_match(2)
    assert m.result()["outcome"] == "win" and m.vars["v"] == 0
    assert len(m.zone("deck").cards) == 4 and m.zone("pile").cards == []


def test_a_card_variable_of_a_zone_is_every_card_s_of_no_card_none_and_of_text_an_error():
    """(A mutant swapped two variables' declarations between sections: the
    rules then read a card variable of what is not one card.)"""
    game = rulekit.load_game_text(_game("move box to deck\nv = size(deck.health)\nwin"), "finding.yaml")
    assert game.new_match(2).vars["v"] == 4
    game = rulekit.load_game_text(_game("let c = top(pile)\nv = c.health\nwin"), "finding.yaml")
    assert game.new_match(2).vars["v"] is None
    err = _stopped(_game('let c = "a"\nv = c.health\nwin'))
    assert err.startswith("finding.yaml:16:9: the rule failed: cannot read '.health' of a text ('a')")


# ---- files refused ---------------------------------------------------------------------------

def test_a_tag_on_a_mapping_is_refused():
    """(A mutant wrote ``!!binary`` before the mapping of a card entry.)"""
    err = _refused(_game("win").replace("  pile: {}", "  pile: !!binary {visibility: open}"))
    assert "finding.yaml:7:9: error: the tag '!!binary' is not allowed in rule files" in err


def test_a_key_tagged_with_another_type_is_refused():
    """(A mutant wrote ``!!int cards:``.)"""
    err = _refused(_game("win").replace("\ncards:", "\n!!int cards:"))
    assert "finding.yaml:3:1: error: cannot read 'cards' as int" in err


def test_a_skill_name_that_is_not_a_name_is_refused():
    """(A mutant wrote a run of ``(`` in place of a skill's key.)"""
    err = _refused(SKILLS.replace("skills:\n  double:", "skills:\n  (((x:\n    text: t\n    kind: active\n  double:"))
    assert "error: key name '(((x' in 'skills' is not a valid name" in err


def test_a_procedure_of_a_skill_named_as_one_of_the_game_is_refused():
    """(A mutant inserted a key that gave a skill a second procedure of a name taken.)"""
    text = SKILLS.replace("procedures:\n  has:", "procedures:\n  cheers:\n    params: [p]\n    effect: return true\n  has:")
    err = _refused(text)
    assert "error: procedure 'cheers' of skill 'cheer' is defined twice: first at finding.yaml:19:3" in err


def test_an_item_set_aside_whose_effect_text_does_not_parse_is_reported_once():
    """(A mutant moved a line of effect text to the first column, breaking
    the item around it.)  The item's structural error is reported; its
    effect text, set aside with it (and read only for the events it emits),
    is not reported again."""
    err = _refused(_game("win", head='procedures:\n  q: {params: [p], bogus: 1, effect: "emit if if"}\n'))
    assert "error: unknown key 'bogus' in procedure 'q'" in err
    assert "syntax error" not in err


_INCLUDING = """include: [{file: m.yaml, with: {step: 2}}]
name: Modules
players: {min: 1, max: 1}
cards: [{name: c}]
zones: {deck: {}}
turn:
  phases:
    - {name: p, effect: "call bump\\nwin"}
"""
_MODULE = "params:\n  step: {doc: points a turn, default: 1}\nvars: {score: 0}\nprocedures:\n  bump: score += step\n"


def _refused_game(tmp_path, including: str) -> list:
    """The errors refusing a game that includes a module."""
    (tmp_path / "m.yaml").write_text(_MODULE, encoding="utf-8")
    (tmp_path / "g.yaml").write_text(including, encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(tmp_path / "g.yaml")
    return info.value.errors


def test_a_module_given_a_parameter_it_does_not_declare_lists_those_it_does(tmp_path):
    """(A mutant broke the name of a module parameter beyond suggesting.)"""
    errors = _refused_game(tmp_path, _INCLUDING.replace("with: {step: 2}", "with: {zzz: 2}"))
    unknown = next(e for e in errors if e.message.endswith("m.yaml' has no parameter 'zzz'"))
    assert unknown.hint == "it declares: step" and Path(unknown.where.file).name == "g.yaml"


def test_a_game_of_modules_without_a_name_is_refused_in_the_including_file(tmp_path):
    """(A mutant deleted the name of a game that includes modules.)"""
    errors = _refused_game(tmp_path, _INCLUDING.replace("name: Modules\n", ""))
    missing = next(e for e in errors if e.message == "missing required key 'name' in the top level")
    assert Path(missing.where.file).name == "g.yaml" and missing.where.line == 1
