"""One run of the loader reports every stage's errors, without follow-on errors.

A part of a file with a structural error (a choice with an unknown key, a
zone with a wrong value, a card entry with a typo) is set aside and the rest
is still compiled and checked.  What referred to the part set aside is not
reported again as an unknown name: that error would only hide the real one.
Each case here breaks ``tests/broken/valid_base.yaml`` in a few places and
checks the whole list of errors, by line:column and message.
"""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml

import rulekit
from rulekit.errors import RuleFileError

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "tests" / "broken" / "valid_base.yaml").read_text(encoding="utf-8")


def broken(*edits: tuple[str, str], extra: str = "") -> str:
    """valid_base.yaml with each (old, new) replaced once, and ``extra`` appended."""
    text = BASE
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text + extra


def errors(text: str) -> list[str]:
    """Every error as "LINE:COL: MESSAGE", in the order reported."""
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text, "t.yaml")
    return [f"{e.where.line}:{e.where.column}: {e.message}" for e in info.value.errors]


def test_the_base_loads():
    assert rulekit.load_game_text(BASE, "t.yaml").name == "Tiny"


def test_a_malformed_choice_hides_neither_syntax_nor_name_errors_and_is_not_unknown():
    text = broken(("        from: hand(current)\n", "        from: hand(current)\n        colour: red\n"),
                  ("  for p in players:", "  for p in players"),
                  ("score += sum", "scroe += sum"))
    assert errors(text) == [
        "29:9: unknown key 'colour' in option 1 of choice 'play'",
        "34:19: syntax error in effect text: unexpected end of line",
        "42:11: cannot assign to unknown variable 'scroe'",
    ]


def test_a_malformed_zone_is_not_unknown_where_it_is_used():
    text = broken(("deck: {visibility: hidden}", "deck: {visibility: hidden, size: 3}"),
                  ("move play.cards to discard", "move play.cards to discrad"))
    assert errors(text) == [
        "16:30: unknown key 'size' in zone 'deck'",
        "42:30: unknown name 'discrad'",
    ]


def test_a_malformed_phase_is_not_unknown_to_goto_and_the_other_phases_are_checked():
    text = broken(("    - name: play\n", "    - name: draw\n      effect: goto play\n    - name: play\n"),
                  ("        choose play\n", "        choose play\n        goto drawn\n"))
    text = text.replace("      effect: goto play\n", "      effect: goto play\n      when: true\n")
    assert errors(text) == [
        "39:7: unknown key 'when' in phase 1",
        "43:14: unknown phase 'drawn'",
    ]
    # and a goto to the phase set aside is not reported
    assert errors(text.replace("goto drawn", "goto draw")) == ["39:7: unknown key 'when' in phase 1"]


def test_a_malformed_procedure_is_not_unknown_and_its_events_still_fire_triggers():
    text = broken(("        choose play\n", "        choose play\n        call bonus\n"),
                  extra=("procedures:\n"
                         "  bonus:\n"
                         "    effect: emit scored(points=1)\n"
                         "    returns: 1\n"
                         "triggers:\n"
                         "  - on: scored\n"
                         "    effect: score += event.points + scroe\n"))
    assert errors(text) == [
        "51:5: unknown key 'returns' in procedure 'bonus'",
        "54:37: unknown name 'scroe'",
    ]


def test_a_malformed_variable_is_not_unknown():
    text = broken(("  score: 0", "  score: {initial: 0, reset: round}"),
                  ("if score >= 3:", "if score >= 3 and scroe:"))
    assert errors(text) == [
        "20:30: 'reset' in var 'score': 'round' is not allowed",
        "43:27: unknown name 'scroe'",
    ]


def test_a_misspelled_section_is_reported_once_and_its_names_are_not_unknown():
    text = broken(("choices:\n", "choises:\n"), ("  shuffle deck", "  shuffle dek"))
    assert errors(text) == [
        "21:1: unknown key 'choises' in the top level",
        "32:11: unknown name 'dek'",
    ]


def test_unknown_player_counts_hide_the_table_check_and_nothing_else():
    text = broken(("players: {min: 1, max: 2}", "players: {min: 1, max: 3.5}"),
                  ("  hand_size: {1: 3, 2: 2}", "  hand_size: {1: 3}"),
                  ("lose \"out of cards\"", "lose \"out of cards\"\n        shuffle dek"))
    assert errors(text) == [
        "5:24: 'max' in 'players': expected an integer, got a number (3.5)",
        "47:17: unknown name 'dek'",
    ]


def test_a_malformed_card_entry_hides_checks_of_card_properties_only():
    text = broken(("        - {rank: \"2\", value: 2}\n",
                   "        - {rank: \"2\", value: 2}\n  - name: Joker\n    props: {colour: black}\n    count: 0\n"),
                  ("        from: hand(current)\n",
                   "        from: hand(current)\n        where: it.colour == \"blak\"\n        same: colour\n"),
                  ("  shuffle deck", "  shuffle dek"))
    assert errors(text) == [
        "17:12: 'count' in card entry 2: must be at least 1, got 0",
        "37:11: unknown name 'dek'",
    ]


def test_every_error_is_reported_once():
    text = broken(("        from: hand(current)\n", "        from: hand(current)\n        where: it.rank == \"3\"\n"))
    # the filter is written twice (its pool and its option): one error
    assert errors(text) == ["29:27: no card has rank '3'"]


def test_a_file_that_is_not_a_mapping_stops_at_the_first_stage():
    assert errors("- name: x\n") == ["1:1: a rule file must be a mapping at the top level, not a list"]


# ---- never a traceback: structural mutants ------------------------------------------

_WRONG = [None, 0, -1, 2.5, True, "", "x", "?bad name", [], [1], {}, {"x": 1}, {"effect": 3}]


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _mutate(data, rng: random.Random):
    """``data`` with a few values replaced by values of other shapes, or keys misspelled."""
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(_paths(data))[1:])
        node = data
        for k in path[:-1]:
            node = node[k]
        if isinstance(node, dict) and rng.random() < 0.3:
            node[f"{path[-1]}_typo"] = node.pop(path[-1])
        else:
            node[path[-1]] = rng.choice(_WRONG)
    return data


def _keys_sorted(value):
    """``value`` with every mapping's keys in order, as ``yaml.safe_dump``
    writes them: the mutants are drawn from the file's values in that order."""
    if isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:               # keys of several types (``on:`` reads as true): as they are
            keys = list(value)
        return {k: _keys_sorted(value[k]) for k in keys}
    if isinstance(value, list):
        return [_keys_sorted(v) for v in value]
    return value


@pytest.mark.parametrize("source", ["games/regicide.yaml", "tests/games/mechanisms.yaml"])
def test_structural_mutants_are_refused_with_rule_file_errors_only(source):
    """Values of the wrong shape anywhere: the rest of the file is still
    checked, and every problem is a RuleFileError, never a Python error."""
    original = _keys_sorted(yaml.safe_load((ROOT / source).read_text(encoding="utf-8")))
    for seed in range(80):
        rng = random.Random(seed)
        # (PyYAML's own writer: libyaml's folds and escapes long texts otherwise, which reaches other
        # paths of the reader's positions inside quoted texts)
        text = yaml.safe_dump(_mutate(copy.deepcopy(original), rng), allow_unicode=True, sort_keys=False)
        try:
            rulekit.load_game_text(text, "mutant.yaml")
        except RuleFileError as err:
            assert err.errors
            for e in err.errors:
                assert e.where.file == "mutant.yaml" and e.message
        # a mutant may also load: some values have several allowed shapes
