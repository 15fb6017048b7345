"""武林杀's equipment, every piece in a prepared situation: the nine 兵器 (each
range, and each ability), the two 护具, the six 轻功 (+1 and −1), and one card
per slot, a new one replacing the old.  Each card's text is its row of
card_text in games/wulinsha/cards.yaml; the rulebook's 装备牌 section says a
piece stays in the equipment area, one per slot (两种轻功 one each).

Seats of the default 5-player table: 0 盟主, 1 护卫, 2 刺客, 3 刺客, 4 奸细;
from seat 0, seats 1 and 4 are at distance 1, seats 2 and 3 at distance 2.
"""
from __future__ import annotations

import re

import pytest
from wulinsha_kit import act, asked, can, cards_in, game, hand, neili, pass_until, table, use

ROLES10 = ["盟主", "护卫", "护卫", "护卫", "刺客", "刺客", "刺客", "刺客", "奸细", "奸细"]


def targets(m) -> set[int]:
    """The players offered at a target choice."""
    return {a.player for a in m.legal_actions() if a.option == "player"}


def sha_targets(m, card: str) -> set[int]:
    """Whom ``card`` (a 杀 in the current player's hand) may be used on; empty if not usable."""
    if not can(m, "use", [card]):
        return set()
    act(m, "use", card)
    assert m.decision.choice == "target"
    return targets(m)


def text(kind: str) -> str:
    return game().tables["card_text"][kind]


# ---------------------------------------------------------------- 兵器 ranges ---

WEAPONS = [("峨眉刺 ♣A", 1), ("倚天剑 ♠6", 2), ("玄铁重剑 ♠2", 2), ("鸳鸯刀 ♠2", 2), ("打狗棒 ♠5", 3),
           ("九节鞭 ♠Q", 3), ("屠龙刀 ♦5", 3), ("霸王枪 ♦Q", 4), ("射雕弓 ♥5", 5)]


@pytest.mark.parametrize("weapon, reach", WEAPONS)
def test_each_weapon_sets_the_attack_range_its_text_gives(weapon, reach):
    """装备兵器后,角色的攻击范围等于其兵器的攻击范围: in a 10-seat circle, a
    杀 reaches exactly the seats at distance up to the range (攻击范围N)."""
    assert f"攻击范围{reach}。" in text(weapon.split()[0])
    m = table(10, roles=ROLES10, hands={0: ["杀 ♠7", "闪 ♦2"]}, equips={0: [weapon]})
    assert sha_targets(m, "杀 ♠7") == {p for p in range(1, 10) if min(p, 10 - p) <= reach}


def test_without_a_weapon_the_range_is_one():
    m = table(10, roles=ROLES10, hands={0: ["杀 ♠7"]})
    assert sha_targets(m, "杀 ♠7") == {1, 9}


# ---------------------------------------------------------------- 兵器 abilities ---

def test_emeici_unlimited_sha_in_the_play_phase():
    """峨眉刺: 锁定技, 出牌阶段使用【杀】无次数限制."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8", "杀 ♠9"]}, equips={0: ["峨眉刺 ♣A"]})
    for card in ("杀 ♠7", "杀 ♠8", "杀 ♠9"):
        use(m, card, 1)
    assert neili(m, 1) == 1 and m.decision.choice == "play"


def test_emeici_lost_the_limit_is_back():
    """Without 峨眉刺 (here traded for another 兵器) the second 杀 is not usable."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8", "倚天剑 ♠6"]}, equips={0: ["峨眉刺 ♣A"]})
    use(m, "杀 ♠7", 1)
    use(m, "倚天剑 ♠6")
    assert not can(m, "use", ["杀 ♠8"])


def test_yitianjian_ignores_the_targets_ruanweijia():
    """倚天剑: 你使用的【杀】无视目标角色的护具 — a black 杀 hits through 软猬甲."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["倚天剑 ♠6"], 1: ["软猬甲 ♣2"]})
    use(m, "杀 ♠7", 1)
    assert neili(m, 1) == 3


def test_yitianjian_ignores_the_targets_jinsijia():
    """倚天剑: 金丝甲 is not offered against its 杀."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["倚天剑 ♠6"], 1: ["金丝甲 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", 1)
    assert not asked(m, "confirm", 1, "金丝甲")
    assert neili(m, 1) == 3 and cards_in(m, "deck") == ["闪 ♦2"]


def test_xuantiezhongjian_prevents_the_damage_and_discards_two_cards():
    """玄铁重剑: instead of the damage, discard two of the target's cards, one after the other."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["包子 ♥3", "闪 ♦2"]}, equips={0: ["玄铁重剑 ♠2"], 1: ["神行百变 ♥5"]})
    use(m, "杀 ♠7", 1)
    pass_until(m, "confirm", 0)
    assert asked(m, "confirm", 0, "玄铁重剑")
    act(m, "yes")
    act(m, "card", "神行百变 ♥5")
    act(m, "hand")
    assert neili(m, 1) == 4
    assert len(hand(m, 1)) == 1 and cards_in(m, "minus_horse", 1) == []
    assert "神行百变 ♥5" in cards_in(m, "discard")


def test_xuantiezhongjian_may_be_declined():
    m = table(5, hands={0: ["杀 ♠7"], 1: ["包子 ♥3"]}, equips={0: ["玄铁重剑 ♠2"]})
    use(m, "杀 ♠7", 1)
    pass_until(m, "confirm", 0)
    act(m, "no")
    assert neili(m, 1) == 3 and hand(m, 1) == ["包子 ♥3"]


def test_xuantiezhongjian_not_offered_against_a_player_without_cards():
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["玄铁重剑 ♠2"]})
    use(m, "杀 ♠7", 1)
    assert neili(m, 1) == 3 and m.decision.choice == "play"


def test_yuanyangdao_on_the_other_gender_the_target_lets_the_user_draw():
    """鸳鸯刀: 杀 on a player of the other gender: they discard a hand card or the user draws 1."""
    m = table(5, heroes={0: "令狐少侠", 1: "黄帮主"}, hands={0: ["杀 ♠7"], 1: ["包子 ♥3"]},
              equips={0: ["鸳鸯刀 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", 1)
    assert asked(m, "confirm", 0, "鸳鸯刀")
    act(m, "yes")
    assert (m.decision.choice, m.decision.player) == ("swords", 1)
    act(m, "let_draw")
    assert hand(m, 0) == ["闪 ♦2"]


def test_yuanyangdao_the_target_may_discard_instead():
    m = table(5, heroes={0: "黄帮主", 1: "令狐少侠"}, hands={0: ["杀 ♠7"], 1: ["包子 ♥3"]},
              equips={0: ["鸳鸯刀 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", 1)
    act(m, "yes")
    act(m, "discard", "包子 ♥3")
    assert hand(m, 0) == [] and "包子 ♥3" in cards_in(m, "discard")


def test_yuanyangdao_nothing_between_the_same_gender():
    m = table(5, heroes={0: "令狐少侠", 1: "宋道长"}, hands={0: ["杀 ♠7"], 1: ["包子 ♥3"]},
              equips={0: ["鸳鸯刀 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", 1)
    assert not asked(m, "confirm", 0, "鸳鸯刀")
    assert hand(m, 0) == [] and neili(m, 1) == 3


def test_dagoubang_a_dodged_sha_is_followed_by_another_on_the_same_target():
    """打狗棒: 【杀】被【闪】抵消后,可以对相同的目标再使用一张【杀】 (not counted)."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"], 2: ["闪 ♦2"]}, equips={0: ["打狗棒 ♠5"]})
    use(m, "杀 ♠7", 2)                                # distance 2, range 3
    act(m, "card", "闪 ♦2")
    assert (m.decision.choice, m.decision.player) == ("respond", 0)
    act(m, "card", "杀 ♠8")
    assert neili(m, 2) == 3
    assert sorted(cards_in(m, "discard")) == ["杀 ♠7", "杀 ♠8", "闪 ♦2"]


def test_dagoubang_no_follow_up_when_the_sha_hits():
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"]}, equips={0: ["打狗棒 ♠5"]})
    use(m, "杀 ♠7", 2)
    assert neili(m, 2) == 3 and m.decision.choice == "play" and hand(m, 0) == ["杀 ♠8"]


def test_jiujiebian_two_hand_cards_used_as_sha():
    """九节鞭: two hand cards used as one 杀."""
    m = table(5, hands={0: ["包子 ♥3", "闪 ♦2"]}, equips={0: ["九节鞭 ♠Q"]})
    act(m, "九节鞭", ["包子 ♥3", "闪 ♦2"])
    act(m, "player", player=3)                         # distance 2, range 3
    assert neili(m, 3) == 3
    assert sorted(cards_in(m, "discard")) == ["包子 ♥3", "闪 ♦2"]


def test_jiujiebian_a_converted_sha_is_outside_the_one_sha_limit():
    """每个出牌阶段仅限使用一张非转化的【杀】 (reading: converted 杀 are not
    limited): after the one 杀, 九节鞭 still converts, again and again; and a
    converted 杀 does not use up the one 杀."""
    m = table(5, hands={0: ["杀 ♠7", "包子 ♥3", "闪 ♦2", "闪 ♦3", "闪 ♦4", "杀 ♠8"]}, equips={0: ["九节鞭 ♠Q"]})
    use(m, "杀 ♠7", 1)
    assert not can(m, "use", ["杀 ♠8"])
    act(m, "九节鞭", ["包子 ♥3", "闪 ♦2"])
    act(m, "player", player=1)
    act(m, "九节鞭", ["闪 ♦3", "闪 ♦4"])
    act(m, "player", player=1)
    assert neili(m, 1) == 1 and not can(m, "use", ["杀 ♠8"])
    m = table(5, hands={0: ["包子 ♥3", "闪 ♦2", "杀 ♠8"]}, equips={0: ["九节鞭 ♠Q"]})
    act(m, "九节鞭", ["包子 ♥3", "闪 ♦2"])
    act(m, "player", player=1)
    use(m, "杀 ♠8", 1)
    assert neili(m, 1) == 2


def test_jiujiebian_two_hand_cards_played_as_sha():
    """九节鞭: two hand cards played (打出) as 杀, here against 狮子吼."""
    m = table(5, hands={0: ["狮子吼 ♠7"], 1: ["包子 ♥3", "闪 ♦2"]}, equips={1: ["九节鞭 ♠Q"]})
    use(m, "狮子吼 ♠7")
    assert (m.decision.choice, m.decision.player) == ("respond", 1)
    act(m, "九节鞭", ["包子 ♥3", "闪 ♦2"])
    assert neili(m, 1) == 4


def test_tulongdao_discards_two_cards_for_a_dodged_sha_to_hit():
    """屠龙刀: dodged, discard two cards (not the 屠龙刀 itself): the 杀 still deals its damage."""
    m = table(5, hands={0: ["杀 ♠7", "包子 ♥3", "闪 ♦3"], 3: ["闪 ♦2"]},
              equips={0: ["屠龙刀 ♦5", "草上飞 ♦K"]})
    use(m, "杀 ♠7", 3)
    act(m, "card", "闪 ♦2")
    assert asked(m, "confirm", 0, "屠龙刀")
    act(m, "yes")
    assert not can(m, "card", ["屠龙刀 ♦5"])
    act(m, "card", "草上飞 ♦K")
    act(m, "card", "包子 ♥3")
    assert neili(m, 3) == 3 and hand(m, 0) == ["闪 ♦3"] and cards_in(m, "weapon", 0) == ["屠龙刀 ♦5"]


def test_tulongdao_declined_the_dodge_stands():
    m = table(5, hands={0: ["杀 ♠7", "包子 ♥3", "闪 ♦3"], 3: ["闪 ♦2"]}, equips={0: ["屠龙刀 ♦5"]})
    use(m, "杀 ♠7", 3)
    act(m, "card", "闪 ♦2")
    act(m, "no")
    assert neili(m, 3) == 4 and len(hand(m, 0)) == 2


def test_bawangqiang_the_last_hand_card_takes_two_more_targets():
    """霸王枪: a 杀 that is the user's last hand card may take up to two more targets."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["霸王枪 ♦Q"]})
    use(m, "杀 ♠7", 1)
    assert m.decision.choice == "more_targets"
    act(m, "player", player=2)
    act(m, "player", player=3)
    assert [neili(m, p) for p in range(5)] == [4, 3, 3, 3, 4]


def test_bawangqiang_not_with_other_hand_cards():
    m = table(5, hands={0: ["杀 ♠7", "包子 ♥3"]}, equips={0: ["霸王枪 ♦Q"]})
    use(m, "杀 ♠7", 1)
    assert m.decision.choice == "play" and [neili(m, p) for p in range(5)] == [4, 3, 4, 4, 4]


def test_shediaogong_discards_a_qinggong_of_the_target_it_hurts():
    """射雕弓: the 杀 deals damage: the user may discard one of the target's 轻功."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["射雕弓 ♥5"], 2: ["梯云纵 ♠5", "一苇渡江 ♠K"]})
    use(m, "杀 ♠7", 2)
    assert asked(m, "confirm", 0, "射雕弓")
    act(m, "yes")
    act(m, "card", "梯云纵 ♠5")
    assert neili(m, 2) == 3
    assert cards_in(m, "plus_horse", 2) == [] and cards_in(m, "minus_horse", 2) == ["一苇渡江 ♠K"]


def test_shediaogong_not_offered_without_a_qinggong():
    m = table(5, hands={0: ["杀 ♥10"]}, equips={0: ["射雕弓 ♥5"], 2: ["软猬甲 ♣2"]})
    use(m, "杀 ♥10", 2)
    assert neili(m, 2) == 3 and m.decision.choice == "play"


# ---------------------------------------------------------------- 护具 ---

def test_jinsijia_a_red_judgement_counts_as_a_shan():
    """金丝甲: asked for 闪, judge: red — 视为 a 闪 was used."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["金丝甲 ♠2"]}, deck=["包子 ♥3"])
    use(m, "杀 ♠7", 1)
    assert asked(m, "confirm", 1, "金丝甲")
    act(m, "yes")
    assert neili(m, 1) == 4 and "包子 ♥3" in cards_in(m, "discard")


def test_jinsijia_black_then_a_shan_may_still_be_used():
    m = table(5, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, equips={1: ["金丝甲 ♠2"]}, deck=["杀 ♣8"])
    use(m, "杀 ♠7", 1)
    act(m, "yes")
    assert (m.decision.choice, m.decision.player) == ("respond", 1)
    act(m, "card", "闪 ♦2")
    assert neili(m, 1) == 4


def test_jinsijia_black_without_a_shan_is_hit():
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["金丝甲 ♣2"]}, deck=["杀 ♣8"])
    use(m, "杀 ♠7", 1)
    act(m, "yes")
    assert neili(m, 1) == 3


def test_jinsijia_answers_baoyulihua_too():
    """金丝甲 works whenever a 闪 is needed (当你需要使用或打出一张【闪】时)."""
    m = table(5, hands={0: ["暴雨梨花 ♥A"]}, equips={1: ["金丝甲 ♠2"]}, deck=["包子 ♥3"])
    use(m, "暴雨梨花 ♥A")
    act(m, "yes")
    assert [neili(m, p) for p in range(5)] == [4, 4, 3, 3, 3]


def test_ruanweijia_a_black_sha_has_no_effect():
    """软猬甲: 锁定技, 黑色【杀】对你无效 — no 闪 asked, no damage."""
    m = table(5, hands={0: ["杀 ♣2"], 1: ["闪 ♦2"]}, equips={1: ["软猬甲 ♣2"]})
    use(m, "杀 ♣2", 1)
    assert neili(m, 1) == 4 and hand(m, 1) == ["闪 ♦2"] and m.decision.choice == "play"


def test_ruanweijia_a_red_sha_takes_effect():
    m = table(5, hands={0: ["杀 ♥10"]}, equips={1: ["软猬甲 ♣2"]})
    use(m, "杀 ♥10", 1)
    assert neili(m, 1) == 3


# ---------------------------------------------------------------- 轻功 ---

PLUS = ["梯云纵 ♠5", "踏雪无痕 ♣5", "登萍渡水 ♥K"]
MINUS = ["神行百变 ♥5", "一苇渡江 ♠K", "草上飞 ♦K"]


@pytest.mark.parametrize("card", PLUS)
def test_each_plus_qinggong_puts_its_holder_one_further(card):
    """+1 轻功: 其他角色计算与你的距离时+1 — a neighbour with it is out of range 1."""
    assert "其他角色计算与你的距离时+1" in text(card.split()[0])
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: [card]})
    assert sha_targets(m, "杀 ♠7") == {4}


@pytest.mark.parametrize("card", PLUS)
def test_a_plus_qinggong_does_not_change_its_holders_own_distance(card):
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: [card]})
    assert sha_targets(m, "杀 ♠7") == {1, 4}


@pytest.mark.parametrize("card", MINUS)
def test_each_minus_qinggong_brings_its_holder_one_closer(card):
    """−1 轻功: 你计算与其他角色的距离时-1 — the seats at distance 2 come in range."""
    assert "你计算与其他角色的距离时-1" in text(card.split()[0])
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: [card]})
    assert sha_targets(m, "杀 ♠7") == {1, 2, 3, 4}


def test_a_plus_and_a_minus_qinggong_are_held_together_and_cancel_out():
    """+1型轻功牌和-1型轻功牌只能各有一张: one of each at once, in two slots."""
    m = table(5, hands={0: ["杀 ♠7", "神行百变 ♥5"]}, equips={0: ["梯云纵 ♠5"], 2: ["踏雪无痕 ♣5"]})
    use(m, "神行百变 ♥5")
    assert cards_in(m, "plus_horse", 0) == ["梯云纵 ♠5"] and cards_in(m, "minus_horse", 0) == ["神行百变 ♥5"]
    assert sha_targets(m, "杀 ♠7") == {1, 3, 4}      # seat 2: 2 - 1 + 1


# ---------------------------------------------------------------- one per slot ---

@pytest.mark.parametrize("old, new, slot", [
    ("峨眉刺 ♣A", "射雕弓 ♥5", "weapon"),
    ("金丝甲 ♠2", "软猬甲 ♣2", "armor"),
    ("梯云纵 ♠5", "登萍渡水 ♥K", "plus_horse"),
    ("神行百变 ♥5", "草上飞 ♦K", "minus_horse"),
    ("夜明珠 ♦A", "还魂丹 ♥2", "treasure"),
])
def test_a_new_piece_replaces_the_old_one_which_is_discarded(old, new, slot):
    """装备新的…牌时,将原来的…牌置入弃牌堆: one card per slot."""
    m = table(5, hands={0: [new]}, equips={0: [old]})
    use(m, new)
    assert cards_in(m, slot, 0) == [new]
    assert cards_in(m, "discard") == [old] and hand(m, 0) == []


def test_equipment_stays_in_play_and_each_piece_goes_to_its_own_slot():
    """装备牌…使用后就会一直放在该处,而不是置入弃牌堆."""
    cards = ["倚天剑 ♠6", "金丝甲 ♠2", "梯云纵 ♠5", "神行百变 ♥5", "九阴真经 ♠9"]
    m = table(5, hands={0: list(cards)})
    for card in cards:
        use(m, card)
    assert [cards_in(m, s, 0) for s in ("weapon", "armor", "plus_horse", "minus_horse", "treasure")] == [
        [c] for c in cards]
    assert cards_in(m, "discard") == []


def test_every_equipment_kind_of_the_deck_is_tested_here():
    """The pieces above are every equipment kind of cards.yaml but the 宝物 (tested with the rules)."""
    kinds = {c.props["kind"] for c in game().cards if c.props.get("type") == "equip"}
    here = {w.split()[0] for w, _ in WEAPONS} | {c.split()[0] for c in PLUS + MINUS} | {"金丝甲", "软猬甲"}
    assert kinds - here == {"九阴真经", "还魂丹", "夜明珠"}
    assert all(re.search(r"攻击范围\d", text(k)) for k in kinds if game().tables["slot"][k] == "weapon")
