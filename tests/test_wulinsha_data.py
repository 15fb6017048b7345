"""武林杀's card set and heroes, checked as data before any rule is written
on them.

games/wulinsha/cards.yaml and heroes.yaml are modules of a game whose rules
do not exist yet, so they are read with PyYAML, not loaded with rulekit.
The numbers and names come from the rulebook (112 game cards, 28 heroes, the
cards and heroes it names, its colours, equipment types and skill kinds);
the rest of the set is a reconstruction (games/wulinsha/RECONSTRUCTION.md),
and these checks are what must still hold when the printed lists replace it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

FOLDER = Path(__file__).resolve().parents[1] / "games" / "wulinsha"

RULEBOOK_CARDS = {"杀", "闪", "包子", "疗伤", "论剑", "金刚护体"}
RULEBOOK_HEROES = {"郭大侠", "三少爷", "龙姑娘", "张教主", "周掌门", "王真人", "慕容公子", "空镜大师",
                   "赵王爷", "洪统帅", "魏将军", "宫本武藏", "列奥尼达"}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
COLOR = {"♠": "black", "♣": "black", "♥": "red", "♦": "red"}
TYPES = {"basic", "trick", "delayed", "equip"}
SLOTS = {"weapon", "armor", "plus_horse", "minus_horse", "treasure"}
SKILL_KINDS = {"active", "triggered", "locked", "limited", "awakening", "lord"}
HERO_LISTS = ("skills", "lord_skills", "gained_skills")
SKILL_KEYS = {"text", "kind", "doc", "options", "triggers", "procedures", "choices"}
# The rulebook's glossary (名词解释), as a pattern found in a skill's text.
GLOSSARY = {"获得": r"获得[^。]*牌", "将…当…": r"将[^。]*当【", "展示": "展示", "亮出": "亮出",
            "视为": "视为", "交给": "交给", "代替": "代替", "替换": "替换", "拼点": "拼点",
            "移出游戏": "移出游戏", "已损失的内力值": "已损失的内力值", "翻面": "翻面"}


def _load(name: str) -> dict:
    return yaml.safe_load((FOLDER / name).read_text(encoding="utf-8"))


CARDS = _load("cards.yaml")
HEROES = _load("heroes.yaml")
FACTION_FILES = [_load(f"heroes/{f}.yaml") for f in HEROES["tables"]["factions"]]
GAME_CARDS = [c["props"] for c in CARDS["cards"]]
HERO_CARDS = {c["name"]: c["props"] for part in FACTION_FILES for c in part["cards"]}
SKILLS = {name: skill for part in FACTION_FILES for name, skill in part["skills"].items()}


def _kinds(skill: dict) -> list:
    kind = skill.get("kind")
    return kind if isinstance(kind, list) else [kind]


def test_both_files_are_modules_of_the_game():
    """The card and hero lists are modules the game (game.yaml) includes, so
    that printed lists can replace them as data."""
    assert isinstance(CARDS["module"], str) and isinstance(HEROES["module"], str)
    assert all(isinstance(part["module"], str) for part in FACTION_FILES)
    game = yaml.safe_load((FOLDER / "game.yaml").read_text(encoding="utf-8"))
    included = [i if isinstance(i, str) else i["file"] for i in game["include"]]
    assert "cards.yaml" in included and "heroes.yaml" in included
    assert all(f"heroes/{f}.yaml" in included for f in HEROES["tables"]["factions"])


def test_the_deck_has_112_game_cards_and_the_box_28_heroes():
    assert len(GAME_CARDS) == 112
    assert len(HERO_CARDS) == sum(len(part["cards"]) for part in FACTION_FILES) == 28
    assert all(p["type"] == "hero" for p in HERO_CARDS.values())


@pytest.mark.parametrize("card", CARDS["cards"], ids=lambda c: c["name"])
def test_suit_rank_number_and_colour_agree(card):
    """The colour is the suit's (♥♦ red, ♠♣ black) and the number the rank's
    place in A..K, as the rulebook's 花色、颜色和点数 says."""
    p = card["props"]
    assert p["type"] in TYPES
    assert p["rank"] in RANKS and p["number"] == RANKS.index(p["rank"]) + 1
    assert p["suit"] in COLOR and p["color"] == COLOR[p["suit"]]
    assert card["name"] == f"{p['kind']} {p['suit']}{p['rank']}"


def test_equipment_has_a_slot_and_weapons_a_range():
    for p in GAME_CARDS:
        if p["type"] == "equip":
            assert p["slot"] in SLOTS, p
            if p["slot"] == "weapon":
                assert isinstance(p["range"], int) and p["range"] >= 1, p
            else:
                assert "range" not in p, p
        else:
            assert "slot" not in p and "range" not in p, p
    assert set(CARDS["tables"]["slot_name"]) == SLOTS


def test_the_set_has_every_kind_of_card_the_rulebook_describes():
    """Basic cards, non-delayed and delayed 招式, every equipment slot, and
    several 宝物 (the type 三国杀 lacks)."""
    assert {p["type"] for p in GAME_CARDS} == TYPES
    assert {p["slot"] for p in GAME_CARDS if p["type"] == "equip"} == SLOTS
    assert len({p["kind"] for p in GAME_CARDS if p.get("slot") == "treasure"}) >= 2


def test_each_card_kind_has_one_type_one_slot_and_one_text():
    seen: dict = {}
    for p in GAME_CARDS:
        shape = (p["type"], p.get("slot"), p.get("range"), p["source"])
        assert seen.setdefault(p["kind"], shape) == shape, p["kind"]
    texts = CARDS["tables"]["card_text"]
    assert set(texts) == set(seen)
    assert all(isinstance(t, str) and t for t in texts.values())


def test_every_card_and_hero_the_rulebook_names_is_there_and_marked():
    kinds = {p["kind"]: p["source"] for p in GAME_CARDS}
    assert RULEBOOK_CARDS <= set(kinds)
    assert {k for k, s in kinds.items() if s == "rulebook"} == RULEBOOK_CARDS
    assert {k for k, s in kinds.items() if s != "rulebook"} == {k for k, s in kinds.items() if s == "designed"}
    assert {n for n, p in HERO_CARDS.items() if p["source"] == "rulebook"} == RULEBOOK_HEROES
    assert all(p["source"] in ("rulebook", "designed") for p in HERO_CARDS.values())


def test_what_the_rulebook_says_the_named_cards_do():
    types = {p["kind"]: p["type"] for p in GAME_CARDS}
    assert types["杀"] == types["闪"] == types["包子"] == "basic"
    assert types["论剑"] == types["金刚护体"] == "trick"
    text = CARDS["tables"]["card_text"]
    assert "打出一张【杀】" in text["论剑"] and "抵消" in text["金刚护体"]
    assert "濒死" in text["包子"] and "濒死" in text["疗伤"]


def test_heroes_have_a_faction_gender_and_max_neili():
    factions = HEROES["tables"]["factions"]
    for name, p in HERO_CARDS.items():
        assert p["faction"] in factions, name
        assert p["gender"] in ("male", "female"), name
        assert isinstance(p["max_neili"], int) and 3 <= p["max_neili"] <= 5, name
    assert {p["faction"] for p in HERO_CARDS.values()} == set(factions)


def test_every_listed_skill_has_a_block_and_every_block_an_owner():
    listed = [s for p in HERO_CARDS.values() for key in HERO_LISTS for s in p[key]]
    assert len(listed) == len(set(listed)), "a skill is listed twice"
    assert set(listed) == set(SKILLS)
    for name, skill in SKILLS.items():
        # text and kind, and the parts that make the skill work
        assert {"text", "kind"} <= set(skill) <= SKILL_KEYS, name
        assert isinstance(skill["text"], str) and skill["text"], name
        assert set(_kinds(skill)) <= SKILL_KINDS, name


def test_every_skill_kind_is_used_and_matches_its_printed_word():
    """The kinds the rulebook defines (锁定技, 限定技, 觉醒技) and the 盟主技
    open their text with their word; a hero's lord_skills are its 盟主技."""
    used = {k for s in SKILLS.values() for k in _kinds(s)}
    assert used == SKILL_KINDS
    word = {"locked": "锁定技", "limited": "限定技", "awakening": "觉醒技", "lord": "盟主技"}
    for name, skill in SKILLS.items():
        kind = _kinds(skill)[0]
        if kind in word:
            assert skill["text"].startswith(word[kind]), name
    lords = {s for p in HERO_CARDS.values() for s in p["lord_skills"]}
    assert lords == {n for n, s in SKILLS.items() if "lord" in _kinds(s)}


def test_lord_skills_name_a_faction_and_awakenings_change_the_hero():
    factions = HEROES["tables"]["factions"]
    for p in HERO_CARDS.values():
        for s in p["lord_skills"]:
            assert any(f + "角色" in SKILLS[s]["text"] for f in factions), s
        awakenings = [SKILLS[s]["text"] for s in p["skills"] if "awakening" in _kinds(SKILLS[s])]
        for gained in p["gained_skills"]:
            assert any(f"获得技能“{gained}”" in t for t in awakenings), gained
    texts = [s["text"] for s in SKILLS.values() if "awakening" in _kinds(s)]
    assert any("内力上限" in t for t in texts) and any("获得技能" in t for t in texts)


@pytest.mark.parametrize("term", GLOSSARY)
def test_every_glossary_term_is_used_by_a_skill(term):
    assert any(re.search(GLOSSARY[term], s["text"]) for s in SKILLS.values()), term
