"""俠客's 150 hero cards, checked as data, apart from the rules that use them.

games/xiake/cards.yaml is read with PyYAML, not loaded with rulekit, so that a
printed list put in its place is checked on its own.  What the seed rules give
(150 cards; cost, attack, 氣血 and 門派 on each; 任清璇 3 / 2 / 2 growing by 1
each time her controller plays a card) and the format the rules read
(the props of a card, the catalogue of abilities) are checked for any list;
the rest (six 門派 of 25, every ability on three cards, the stat budget of
vanilla cards) is what this reconstruction sets out to be
(games/xiake/RECONSTRUCTION.md), and a printed list may drop it.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

FOLDER = Path(__file__).resolve().parents[1] / "games" / "xiake"

# The catalogue of abilities the rules implement: True for those that take a
# number X, False for those whose value is `true`.
CATALOGUE = {
    "成長": True, "突襲": False, "守護": False, "掩護": False, "鼓舞": True, "療傷": True,
    "暗器": True, "群攻": True, "遺志": True, "遺言": True, "回魂": True, "點穴": False,
    "化功": True, "封印": True, "狂暴": True, "反震": True, "劇毒": False, "連擊": False,
    "鐵壁": True, "結陣": True, "傳功": True, "吸星": True, "激勵": True,
}
BASE = {"type", "faction", "cost", "attack", "health", "source"}
SOURCES = {"seed", "designed", "printed"}
SEED_CARD = {"type": "hero", "cost": 3, "attack": 2, "health": 2, "source": "seed", "成長": 1}

DATA = yaml.safe_load((FOLDER / "cards.yaml").read_text(encoding="utf-8"))
CARDS = DATA["cards"]
FACTIONS = DATA["tables"]["faction_text"]
TEXTS = DATA["tables"]["ability_text"]


def _abilities(props: dict) -> dict:
    return {k: v for k, v in props.items() if k not in BASE}


def test_the_file_is_a_module_with_the_two_tables():
    assert isinstance(DATA["module"], str) and DATA["module"]
    assert set(DATA["tables"]) == {"faction_text", "ability_text"}


def test_150_distinct_heroes():
    names = [c["name"] for c in CARDS]
    assert len(names) == 150
    assert [n for n, k in Counter(names).items() if k > 1] == []


def test_six_factions_of_25_each_with_a_text():
    assert len(FACTIONS) == 6
    assert all(isinstance(t, str) and t for t in FACTIONS.values())
    assert Counter(c["props"]["faction"] for c in CARDS) == {f: 25 for f in FACTIONS}


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["name"])
def test_props_are_those_of_the_format(card):
    """Exactly type/faction/cost/attack/health/source and at most two
    abilities of the catalogue, each with a number (int >= 1) or `true`."""
    assert set(card) == {"name", "props"}
    p = card["props"]
    assert BASE <= set(p), sorted(BASE - set(p))
    assert p["type"] == "hero" and p["faction"] in FACTIONS and p["source"] in SOURCES
    assert type(p["cost"]) is int and 1 <= p["cost"] <= 10
    assert type(p["attack"]) is int and p["attack"] >= 0
    assert type(p["health"]) is int and p["health"] >= 1
    abilities = _abilities(p)
    assert set(abilities) <= set(CATALOGUE), sorted(set(abilities) - set(CATALOGUE))
    assert len(abilities) <= 2
    for name, value in abilities.items():
        if CATALOGUE[name]:
            assert type(value) is int and value >= 1, (name, value)
        else:
            assert value is True, (name, value)


def test_ren_qingxuan_is_the_seed_card_and_the_only_one():
    """The seed's example card: cost 3 (top left), attack 2, 氣血 2, and
    +1 attack +1 氣血 whenever her controller plays a card (成長 1)."""
    card = next(c for c in CARDS if c["name"] == "任清璇")
    props = dict(card["props"])
    assert props.pop("faction") in FACTIONS
    assert props == SEED_CARD
    assert [c["name"] for c in CARDS if c["props"]["source"] == "seed"] == ["任清璇"]


def test_each_ability_has_a_text_with_x_iff_it_takes_a_number():
    assert set(TEXTS) == set(CATALOGUE)
    for name, numbered in CATALOGUE.items():
        assert isinstance(TEXTS[name], str) and TEXTS[name], name
        assert ("X" in TEXTS[name]) == numbered, name


@pytest.mark.parametrize("ability", CATALOGUE)
def test_every_ability_is_on_at_least_three_cards(ability):
    users = [c["name"] for c in CARDS if ability in c["props"]]
    assert len(users) >= 3, users


def test_vanilla_cards_keep_the_stat_budget():
    """A card without ability has attack + 氣血 within 2 of 2 × cost + 1."""
    vanilla = [c for c in CARDS if not _abilities(c["props"])]
    assert vanilla, "no card without ability"
    for c in vanilla:
        p = c["props"]
        assert abs(p["attack"] + p["health"] - (2 * p["cost"] + 1)) <= 2, c["name"]
