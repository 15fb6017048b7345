"""docs/examples/crazy_eights.yaml plays by the rules of Crazy Eights: match
the discard by suit or rank, an 8 is wild and names the suit to match, a
player who cannot play draws until they can, and the first player to empty
their hand wins."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.testing import prepare

FILE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "crazy_eights.yaml"


@pytest.fixture(scope="module")
def game():
    return rulekit.load_game(FILE)


def offered(m) -> set[str]:
    return {m.describe_action(a) for a in m.legal_actions()}


def answer(m, text: str) -> None:
    m.apply(next(a for a in m.legal_actions() if m.describe_action(a) == text))


def test_only_cards_matching_suit_or_rank_are_offered(game):
    m = prepare(game, players=2, vars={"active_suit": "hearts"},
                zones={"discard": ["7♥"], "hand(0)": ["2♥", "7♣", "9♠", "8♦"], "hand(1)": ["3♣"],
                       "stock": ["K♦"]})
    assert offered(m) == {"card 2♥", "card 7♣", "card 8♦"}     # no 9♠, and no draw while one can play


def test_a_wild_eight_changes_the_suit_to_match(game):
    m = prepare(game, players=2, vars={"active_suit": "hearts"},
                zones={"discard": ["7♥"], "hand(0)": ["8♦", "2♥"], "hand(1)": ["3♣", "4♥", "9♠"],
                       "stock": ["K♦"]})
    answer(m, "card 8♦")
    assert m.decision.choice == "name_suit" and m.decision.player == 0
    answer(m, "clubs")
    assert m.current == 1
    assert offered(m) == {"card 3♣"}        # 4♥ matches the 7♥ below, but the suit is now clubs


def test_a_player_who_cannot_play_draws_until_they_can(game):
    m = prepare(game, players=2, vars={"active_suit": "hearts"},
                zones={"discard": ["7♥"], "hand(0)": ["9♠"], "hand(1)": ["3♣"],
                       "stock": ["K♣", "2♥", "5♦"]})
    assert offered(m) == {"draw"}
    answer(m, "draw")                          # K♣ does not match: still player 0, draw again
    assert m.current == 0 and offered(m) == {"draw"}
    answer(m, "draw")                          # 2♥ matches: it may be played
    assert m.current == 0 and offered(m) == {"card 2♥"}
    assert [c.name for c in m.zone("hand", 0).cards] == ["9♠", "K♣", "2♥"]


def test_with_an_empty_stock_a_player_who_cannot_play_passes(game):
    m = prepare(game, players=2, vars={"active_suit": "hearts"},
                zones={"discard": ["7♥"], "hand(0)": ["9♠"], "hand(1)": ["3♥"]})
    assert offered(m) == {"pass"}
    answer(m, "pass")
    assert m.current == 1


def test_emptying_the_hand_wins(game):
    m = prepare(game, players=3, current=1, vars={"active_suit": "hearts"},
                zones={"discard": ["7♥"], "hand(1)": ["7♣"], "hand(0)": ["2♠"], "hand(2)": ["3♠"]})
    answer(m, "card 7♣")
    assert m.result()["winners"] == [1]
    assert m.result()["reason"] == "emptied their hand first"


def test_an_eight_turned_up_first_is_buried_in_the_stock(game):
    for seed in range(40):
        m = rulekit.Match(game, 2, seed)
        top = m.zone("discard").cards[-1]
        assert top.name[:-1] != "8"
        assert m.vars["active_suit"] == top.props["suit"]
