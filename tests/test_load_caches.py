"""Loading a game again reuses what did not change: a rule file's text is
not parsed again, nor its compiled module compiled again; each load still
gets a game of its own (its own functions, tables and memos), which plays
exactly as a first load's."""
from __future__ import annotations

import random

from game_files import ROOT

import rulekit
from rulekit.lang import codegen

LAST_CARD = ROOT / "docs" / "examples" / "last_card.yaml"


def _log(game: rulekit.Game, seed: int) -> str:
    m = game.new_match(3, seed=seed)
    rng = random.Random(seed)
    while m.decision is not None:
        m.apply(rng.randrange(len(m.decision.options)))
    return m.log_json()


def test_a_game_loaded_again_shares_its_compiled_code_not_its_functions():
    first = rulekit.load_game(LAST_CARD)
    compiled = codegen._compiled.cache_info().misses
    again = rulekit.load_game(LAST_CARD)
    assert codegen._compiled.cache_info().misses == compiled     # nothing compiled the second time
    a, b = first.procedures, again.procedures
    assert a.keys() == b.keys() and a
    for name in a:
        assert a[name].run is not b[name].run and a[name].run.__code__ is b[name].run.__code__
    assert first.flow.run.__globals__ is not again.flow.run.__globals__
    assert [_log(first, s) for s in range(5)] == [_log(again, s) for s in range(5)]


def test_a_changed_rule_is_compiled_anew():
    text = LAST_CARD.read_text(encoding="utf-8")
    before = rulekit.load_game_text(text, "last_card.yaml")
    line = "  move top(deck, 1) to pile\n"
    assert line in text
    changed = rulekit.load_game_text(text.replace(line, "  move top(deck, 2) to pile\n"), "last_card.yaml")
    assert changed.setup.run.__code__ is not before.setup.run.__code__
    assert len(changed.new_match(2, seed=1).zone("pile").cards) == 2
    assert len(before.new_match(2, seed=1).zone("pile").cards) == 1
