"""games/regicide_house.yaml: Regicide with two house rules, written as a
variant that ``extends`` regicide.yaml and ``override``s one table and one
procedure.  Each house rule is played from the same prepared table in both
games, and only the house game does the new thing; what the variant does
not name stays Regicide's.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.testing import prepare

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture(scope="module")
def regicide() -> rulekit.Game:
    return rulekit.load_game(GAMES / "regicide.yaml")


@pytest.fixture(scope="module")
def house() -> rulekit.Game:
    return rulekit.load_game(GAMES / "regicide_house.yaml")


def pile(m: rulekit.Match, zone: str, player: int | None = None) -> list[str]:
    """Card names, top first."""
    return [c.name for c in reversed(m.zone(zone, player).cards)]


def play(m: rulekit.Match, *cards: str) -> None:
    m.apply(next(a for a in m.legal_actions() if a.option == "card"
                 and [m.card(i).name for i in a.cards] == list(cards)))


def exact_kill(game: rulekit.Game, hand: list[str]) -> rulekit.Match:
    """Player 0 plays 5♠ against the Jack of hearts with 15 damage dealt: exactly its 20 health."""
    m = prepare(game, 2, zones={"enemy": ["J♥"], "castle": ["Q♣", "K♠"], "hand(0)": hand,
                                "hand(1)": ["2♥"], "tavern": ["9♣", "8♣"]}, vars={"damage": 15})
    play(m, "5♠")
    return m


def test_the_variant_is_regicide_under_another_name(regicide, house):
    assert house.name == "Regicide (house rules)" and house.description == regicide.description
    assert [c.name for c in house.cards] == [c.name for c in regicide.cards]
    assert list(house.choices) == list(regicide.choices) and house.phases == regicide.phases
    assert {k: v for k, v in house.tables.items() if k != "hand_size"} == \
        {k: v for k, v in regicide.tables.items() if k != "hand_size"}


@pytest.mark.parametrize("players, regicide_hand, house_hand", [(1, 8, 9), (2, 7, 8), (3, 6, 7), (4, 5, 6)])
def test_a_bigger_hand_is_dealt_and_kept(regicide, house, players, regicide_hand, house_hand):
    for game, size in ((regicide, regicide_hand), (house, house_hand)):
        m = game.new_match(players, seed=3)
        assert [len(m.zone("hand", p).cards) for p in range(players)] == [size] * players


def test_an_exactly_killed_royal_goes_on_the_tavern_in_regicide(regicide):
    m = exact_kill(regicide, ["5♠", "2♦"])
    assert pile(m, "tavern") == ["J♥", "9♣", "8♣"] and pile(m, "hand", 0) == ["2♦"]


def test_an_exactly_killed_royal_joins_its_defeaters_hand_in_the_house_game(house):
    m = exact_kill(house, ["5♠", "2♦"])
    assert pile(m, "tavern") == ["9♣", "8♣"]
    assert sorted(pile(m, "hand", 0)) == ["2♦", "J♥"]
    assert pile(m, "enemy") == ["Q♣"] and m.vars["defeated"] == 1 and m.vars["damage"] == 0
    assert (m.decision.player, m.decision.choice) == (0, "attack")     # the defeater goes again
    play(m, "J♥")                                                       # and may play the royal: 10
    assert m.vars["damage"] == 10


def test_a_full_hand_leaves_the_royal_on_the_tavern_in_the_house_game(house):
    full = ["5♠"] + ["2♦", "3♦", "4♦", "6♦", "7♦", "8♦", "9♦", "10♦"]     # 8 left: the 2-player limit
    m = exact_kill(house, full)
    assert pile(m, "tavern") == ["J♥", "9♣", "8♣"] and len(pile(m, "hand", 0)) == 8


def test_overkill_still_discards_the_royal_in_the_house_game(house):
    m = prepare(house, 2, zones={"enemy": ["J♥"], "castle": ["Q♣"], "hand(0)": ["6♠", "2♦"]},
                vars={"damage": 15})
    play(m, "6♠")
    assert "J♥" in pile(m, "discard") and "J♥" not in pile(m, "hand", 0)


def test_the_log_tells_a_recruited_royal_joins_its_defeaters_hand(house):
    """Every player reads where the defeated royal went: into the hand of
    the player who defeated it, in the house game."""
    m = exact_kill(house, ["5♠", "3♦"])
    said = [e["text"] for e in m.events(1) if "text" in e]
    assert "J♥ defeated: it goes into the hand of its defeater" in said, said
