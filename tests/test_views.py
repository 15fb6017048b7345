"""What views show: card ids beside names (and only where the names are
shown), the all-seeing view, and the values a rule file declares public."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.testing import prepare

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def regicide() -> rulekit.Game:
    return rulekit.load_game(ROOT / "games" / "regicide.yaml")


def test_cards_carry_their_ids_so_two_of_one_name_are_told_apart(regicide):
    m = prepare(regicide, 1, zones={"enemy": ["J♠"], "hand(0)": ["Jester", "Jester", "5♥"],
                                    "castle": ["Q♠"], "tavern": ["2♣", "3♣"]})
    hand = m.view(0)["zones"]["hand(0)"]
    assert hand["cards"] == ["Jester", "Jester", "5♥"]
    assert hand["ids"] == [c.id for c in reversed(m.zone("hand", 0).cards)]
    assert len(set(hand["ids"])) == 3 and all(m.card(i).name == n for i, n in zip(hand["ids"], hand["cards"]))


def test_ids_are_shown_only_where_names_are(regicide):
    m = regicide.new_match(2, seed=3)
    theirs = m.view(0)["zones"]["hand(1)"]
    assert "ids" not in theirs and "cards" not in theirs and theirs["count"] == 7
    assert "ids" not in m.view(0)["zones"]["tavern"]
    for ev in m.view(0)["log"]:
        if ev["event"] == "move":
            assert [i is None for i in ev["ids"]] == [c is None for c in ev["cards"]]
            assert all(i is None or m.card(i).name == c for i, c in zip(ev["ids"], ev["cards"]))


def test_a_played_card_shows_its_id_in_the_decision_once_face_up(regicide):
    m = prepare(regicide, 2, zones={"enemy": ["J♠"], "hand(0)": ["5♥", "5♦"], "hand(1)": ["2♣"],
                                    "castle": ["Q♠"], "tavern": ["2♦", "3♦", "4♦", "6♦", "7♦"]})
    card = next(a for a in m.legal_actions() if a.option == "card" and m.card(a.cards[0]).name == "5♥")
    m.apply(card)
    decided = [e for e in m.view(1)["log"] if e["event"] == "decide"][-1]
    assert decided["cards"] == ["5♥"] and decided["ids"] == list(card.cards)


def test_the_all_seeing_view_shows_everything(regicide):
    m = regicide.new_match(2, seed=3)
    everything = m.view(rulekit.ALL_SEEING)
    assert everything["viewer"] == "all"
    assert everything["zones"]["hand(1)"]["cards"] and everything["zones"]["tavern"]["ids"]
    assert everything["decision"]["options"]
    assert [e for e in everything["log"] if e["event"] == "start"][0]["seed"] == 3
    total = sum(len(z["ids"]) for z in everything["zones"].values())
    assert total == len(regicide.cards)


def test_public_values_are_in_every_view_and_follow_the_rules(regicide):
    m = prepare(regicide, 2, zones={"enemy": ["K♠"], "hand(0)": ["5♠", "9♣"], "hand(1)": ["2♣"],
                                    "castle": ["Q♠"], "tavern": ["2♦", "3♦", "4♦", "6♦", "7♦"]},
                vars={"shield": 4, "damage": 7})
    for viewer in (0, 1, None, rulekit.ALL_SEEING):
        assert m.view(viewer)["public"] == {"enemy_attack": 16, "enemy_health_left": 33}
    m = prepare(regicide, 2, zones={"enemy": ["J♠"], "hand(0)": ["5♠"], "castle": ["Q♠"]},
                vars={"shield": 25})
    assert m.view(0)["public"]["enemy_attack"] == 0       # shields never make an attack negative


def test_public_values_are_checked_like_any_expression():
    text = (ROOT / "docs" / "examples" / "last_card.yaml").read_text(encoding="utf-8")
    bad = text + "\npublic:\n  pile: size(dekc)\n"
    with pytest.raises(rulekit.RuleFileError) as err:
        rulekit.load_game_text(bad, "last_card.yaml")
    assert "dekc" in str(err.value) and f"last_card.yaml:{text.count(chr(10)) + 3}:" in str(err.value)
