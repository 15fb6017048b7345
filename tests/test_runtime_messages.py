"""A rule that fails while running is told in the rule file's terms, at
the statement that failed: effect text is not typed, so the mix-ups an
author makes (a number that is no seat, a card where a player belongs, a
card variable read of a player, a zone indexed like a list) reach the code
that reads them, and must come back as what they are."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.errors import RuleFileError, RuleRuntimeError

GAME = """
name: Mixups
players: {min: 2, max: 2}
cards:
  - {name: Chip, count: 4, props: {value: 1}}
zones:
  deck: {visibility: hidden}
  hand: {visibility: owner, per_player: true}
player_vars:
  health: 3
card_vars:
  worn: 0
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        let seat = 3
        let card = top(deck)
        %s
        win for current "done"
"""
LINE = 21          # the line of the statement under test in GAME


def failure(statement: str) -> RuleRuntimeError:
    game = rulekit.load_game_text(GAME % statement, "mixups.yaml")
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_match(2, seed=1)
    return caught.value


@pytest.mark.parametrize("statement, says", [
    ("seat.health -= 1", "a number used as a player is not a seat of this match: its players are 0 to 1"),
    ("let h = hand(seat)", "a number used as a player is not a seat of this match: its players are 0 to 1"),
    ("card.health += 1", "a card was used where a player (a seat number) is expected"),
    ("let h = hand(card)", "a card was used where a player (a seat number) is expected"),
    ("let w = current.worn", "'worn' is a card variable, read here of something that is not a card"),
    ("let x = [1, 2][5]", "no entry 5 in [1, 2]"),
])
def test_a_mixup_is_said_in_the_rule_files_terms_at_its_statement(statement, says):
    err = failure(statement)
    assert says in err.message
    assert (err.where.line, err.where.column) == (LINE, 9), str(err)
    assert "phase 'main'" in str(err)


def test_a_zone_indexed_like_a_list_is_refused_when_the_file_loads():
    with pytest.raises(RuleFileError) as caught:
        rulekit.load_game_text(GAME % "let c = deck[0]", "mixups.yaml")
    text = str(caught.value)
    assert "mixups.yaml:21:17" in text and "a zone is not a list" in text and "top(ZONE)" in text
