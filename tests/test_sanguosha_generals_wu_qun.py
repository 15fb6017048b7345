"""三国杀: the generals of 吴 and 群 (2008 standard edition), one scenario per skill clause.

Seats in a 5-player table: 0 主公, 1 忠臣, 2 反贼, 3 反贼, 4 内奸; without
weapons or horses each player reaches only the two neighbours (distance 1).
"""
from __future__ import annotations

from sanguosha_kit import act, can, cards_in, hp, pass_until, table, use


def confirm(m, player, skill, answer="yes"):
    """The pending decision is ``player``'s yes/no question for ``skill``: answer it."""
    d = m.decision
    assert d is not None and d.choice == "confirm" and d.args == (player, skill), \
        f"expected {skill} to be offered to {player}, got {d}"
    act(m, answer)


def asked(m):
    d = m.decision
    return None if d is None else (d.player, d.choice)


def end_play(m):
    """End the current play phase."""
    assert m.decision.choice == "play"
    act(m, "end")


# ---- 孙权: 制衡, 救援 ---------------------------------------------------------------

def test_zhiheng_discards_any_cards_including_equipment_then_draws_as_many():
    """制衡: discard any number of cards (equipment included), then draw as many."""
    m = table(5, generals={0: "孙权"}, hands={0: ["杀 ♠7", "闪 ♦2"]}, equips={0: ["诸葛连弩 ♣A"]},
              deck=["桃 ♥3", "桃 ♥4", "桃 ♥6"])
    act(m, "制衡")
    act(m, "card", "诸葛连弩 ♣A")
    act(m, "card", "杀 ♠7")
    act(m, "done")
    assert sorted(cards_in(m, "hand", 0)) == sorted(["闪 ♦2", "桃 ♥3", "桃 ♥4"])
    assert sorted(cards_in(m, "discard")) == sorted(["诸葛连弩 ♣A", "杀 ♠7"])
    assert cards_in(m, "weapon", 0) == []
    assert cards_in(m, "deck") == ["桃 ♥6"]


def test_zhiheng_once_per_play_phase():
    """制衡: 每阶段限一次 — not a second time in the same play phase."""
    m = table(5, generals={0: "孙权"}, hands={0: ["杀 ♠7", "闪 ♦2"]}, deck=["闪 ♦3", "闪 ♦4"])
    assert can(m, "制衡")
    act(m, "制衡")
    act(m, "card", "杀 ♠7")
    act(m, "done")
    assert len(cards_in(m, "hand", 0)) == 2
    assert not can(m, "制衡")


def test_zhiheng_needs_a_card():
    """制衡: with no card to discard the skill cannot be used."""
    m = table(5, generals={0: "孙权"}, hands={0: []})
    assert not can(m, "制衡")


def _lord_dying(helper_general, helper_card="桃 ♥3", lord="孙权", lord_seat=0, helper_seat=1):
    """Seat 4 (内奸) kills into ``lord_seat`` at 1 HP; ``helper_seat`` holds a 桃."""
    generals = {lord_seat: lord}
    if helper_general:
        generals[helper_seat] = helper_general
    m = table(5, generals=generals, current=4, hp={lord_seat: 1}, max_hp={lord_seat: 5},
              hands={4: ["杀 ♠7"], lord_seat: [], helper_seat: [helper_card]})
    target = lord_seat
    use(m, "杀 ♠7", target=target)
    return m


def test_jiuyuan_peach_from_another_wu_player_heals_two_while_the_lord_is_dying():
    """救援 (lord, 2008): while 孙权 is dying, a 桃 from another 吴 general heals 2."""
    m = _lord_dying("甘宁")
    assert asked(m) == (1, "peach")
    act(m, "card", "桃 ♥3")
    assert hp(m, 0) == 2


def test_jiuyuan_not_for_a_peach_from_a_non_wu_player():
    """救援: only 吴 players' 桃 heal the extra point; a 群 general's 桃 heals 1."""
    m = _lord_dying("吕布")
    act(m, "card", "桃 ♥3")
    assert hp(m, 0) == 1


def test_jiuyuan_not_for_his_own_peach():
    """救援: the 桃 must come from another 吴 player; his own 桃 heals 1."""
    m = table(5, generals={0: "孙权"}, current=4, hp={0: 1}, max_hp={0: 5},
              hands={4: ["杀 ♠7"], 0: ["桃 ♥3"]})
    use(m, "杀 ♠7", target=0)
    assert asked(m) == (0, "peach")
    act(m, "card", "桃 ♥3")
    assert hp(m, 0) == 1


def test_jiuyuan_only_when_sun_quan_is_the_lord():
    """救援 is a lord skill: 孙权 as a loyalist gets only 1 from a 吴 player's 桃."""
    m = table(5, generals={1: "孙权", 2: "甘宁"}, current=0, hp={1: 1},
              hands={0: ["杀 ♠7"], 1: [], 2: ["桃 ♥3"]})
    use(m, "杀 ♠7", target=1)
    assert asked(m) == (2, "peach")
    act(m, "card", "桃 ♥3")
    assert hp(m, 1) == 1


# ---- 甘宁: 奇袭 -----------------------------------------------------------------------

def test_qixi_black_hand_card_used_as_dismantle():
    """奇袭: a black card may be used as 过河拆桥."""
    m = table(5, generals={0: "甘宁"}, hands={0: ["杀 ♠7"], 2: ["闪 ♦2"]}, equips={2: ["八卦阵 ♠2"]})
    use(m, "杀 ♠7", target=2, option="奇袭")    # any distance, like 过河拆桥
    act(m, "card", "八卦阵 ♠2")
    assert cards_in(m, "armor", 2) == []
    assert sorted(cards_in(m, "discard")) == sorted(["杀 ♠7", "八卦阵 ♠2"])
    assert cards_in(m, "hand", 2) == ["闪 ♦2"]


def test_qixi_equipped_black_card_used_as_dismantle():
    """奇袭: the black card may be an equipped one."""
    m = table(5, generals={0: "甘宁"}, hands={0: [], 1: ["闪 ♦2"]}, equips={0: ["青釭剑 ♠6"]})
    use(m, "青釭剑 ♠6", target=1, option="奇袭")
    act(m, "hand")
    assert cards_in(m, "hand", 1) == []
    assert sorted(cards_in(m, "discard")) == sorted(["青釭剑 ♠6", "闪 ♦2"])


def test_qixi_can_remove_a_card_from_the_judgement_area():
    """奇袭 is a 过河拆桥: it may discard a delayed trick from a judgement area."""
    m = table(5, generals={0: "甘宁"}, hands={0: ["杀 ♣5"], 1: []}, judging={1: ["乐不思蜀 ♥6"]})
    use(m, "杀 ♣5", target=1, option="奇袭")
    act(m, "card", "乐不思蜀 ♥6")
    assert cards_in(m, "judging", 1) == []
    assert sorted(cards_in(m, "discard")) == sorted(["杀 ♣5", "乐不思蜀 ♥6"])


def test_qixi_not_with_a_red_card():
    """奇袭: only black cards."""
    m = table(5, generals={0: "甘宁"}, hands={0: ["闪 ♦2", "桃 ♥3"], 1: ["闪 ♦3"]})
    assert not can(m, "奇袭", ["闪 ♦2"])
    assert not can(m, "奇袭", ["桃 ♥3"])


def test_qixi_dismantle_can_be_nullified():
    """奇袭: the card is a 过河拆桥, so 无懈可击 cancels it."""
    m = table(5, generals={0: "甘宁"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"], 3: ["无懈可击 ♠J"]})
    use(m, "杀 ♠7", target=1, option="奇袭")
    assert asked(m) == (3, "nullify")
    act(m, "card", "无懈可击 ♠J")
    assert cards_in(m, "hand", 1) == ["闪 ♦2"]


# ---- 吕蒙: 克己 -----------------------------------------------------------------------

LVMENG_HAND = ["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6"]


def test_keji_skips_the_discard_phase_without_a_slash():
    """克己: no 杀 used or played in the play phase → he may skip the discard phase."""
    m = table(5, generals={0: "吕蒙"}, hp={0: 2}, max_hp={0: 4}, hands={0: LVMENG_HAND})
    end_play(m)
    confirm(m, 0, "克己")
    assert len(cards_in(m, "hand", 0)) == 5
    assert m.decision.player == 1


def test_keji_can_be_declined():
    """克己 is optional: declining it, he discards down to his HP."""
    m = table(5, generals={0: "吕蒙"}, hp={0: 2}, max_hp={0: 4}, hands={0: LVMENG_HAND})
    end_play(m)
    confirm(m, 0, "克己", "no")
    assert asked(m) == (0, "discard_one")


def test_keji_not_after_using_a_slash():
    """克己: after using a 杀 in the play phase the discard phase is not skipped."""
    m = table(5, generals={0: "吕蒙"}, hp={0: 2}, max_hp={0: 4}, hands={0: LVMENG_HAND + ["杀 ♠7"]})
    use(m, "杀 ♠7", target=1)
    end_play(m)
    assert asked(m) == (0, "discard_one")


def test_keji_not_after_playing_a_slash_in_a_duel():
    """克己: a 杀 played (打出) in a 决斗 during the play phase also counts."""
    m = table(5, generals={0: "吕蒙"}, hp={0: 2}, max_hp={0: 4},
              hands={0: LVMENG_HAND + ["决斗 ♠A", "杀 ♠7"], 2: ["杀 ♠8"]})
    use(m, "决斗 ♠A", target=2)
    act(m, "card", "杀 ♠8")          # the target plays first
    act(m, "card", "杀 ♠7")          # 吕蒙 plays a 杀
    assert hp(m, 2) == 3
    end_play(m)
    assert asked(m) == (0, "discard_one")


def test_keji_when_the_play_phase_is_skipped():
    """克己: a play phase skipped by 乐不思蜀 used no 杀, so the discard phase may be skipped."""
    m = table(5, generals={0: "吕蒙"}, phase="judge", hp={0: 2}, max_hp={0: 4},
              hands={0: LVMENG_HAND[:3]}, judging={0: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠8", "闪 ♦7", "闪 ♦8", "闪 ♦9", "闪 ♦10"])
    confirm(m, 0, "克己")
    assert len(cards_in(m, "hand", 0)) == 5
    assert m.decision.player == 1


def test_keji_a_slash_played_in_an_earlier_turn_does_not_count():
    """克己 looks at this play phase only: a 杀 played against 南蛮入侵 in another turn does not count."""
    m = table(5, generals={0: "吕蒙"}, current=4, hp={0: 2}, max_hp={0: 4},
              hands={4: ["南蛮入侵 ♠7"], 0: ["杀 ♠8", "闪 ♦2", "闪 ♦3"]},
              deck=["闪 ♦4", "闪 ♦5", "闪 ♦6", "闪 ♦7"])
    use(m, "南蛮入侵 ♠7")
    act(m, "card", "杀 ♠8")
    end_play(m)                        # player 4's turn ends; 吕蒙's turn: draw 2
    assert (m.decision.player, m.decision.choice) == (0, "play")
    end_play(m)
    confirm(m, 0, "克己")
    assert len(cards_in(m, "hand", 0)) == 4


# ---- 黄盖: 苦肉 -----------------------------------------------------------------------

def test_kurou_loses_one_hp_and_draws_two():
    """苦肉: in the play phase, lose 1 HP and draw 2 cards."""
    m = table(5, generals={0: "黄盖"}, hands={0: []}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"])
    act(m, "苦肉")
    assert hp(m, 0) == 3
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦2", "闪 ♦3"]


def test_kurou_can_be_used_repeatedly():
    """苦肉: any number of times in one play phase."""
    m = table(5, generals={0: "黄盖"}, hands={0: []}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6"])
    act(m, "苦肉")
    act(m, "苦肉")
    assert hp(m, 0) == 2
    assert len(cards_in(m, "hand", 0)) == 4
    assert can(m, "苦肉")


def test_kurou_can_bring_him_to_dying_and_a_peach_saves_him():
    """苦肉 at 1 HP: he is dying; saved by a 桃, he then draws the 2 cards."""
    m = table(5, generals={2: "黄盖"}, current=2, hp={2: 1}, max_hp={2: 4},
              hands={2: ["桃 ♥3"]}, deck=["闪 ♦2", "闪 ♦3"])
    act(m, "苦肉")
    assert asked(m) == (2, "peach")
    act(m, "card", "桃 ♥3")
    assert hp(m, 2) == 1
    assert sorted(cards_in(m, "hand", 2)) == ["闪 ♦2", "闪 ♦3"]


def test_kurou_unsaved_he_dies_and_draws_nothing():
    """苦肉 at 1 HP with nobody saving him: he dies (and draws nothing)."""
    m = table(5, generals={2: "黄盖"}, current=2, hp={2: 1}, max_hp={2: 4},
              hands={2: []}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"])
    act(m, "苦肉")
    assert 2 not in m.players
    assert m.pvars[2]["role_shown"]
    assert cards_in(m, "hand", 2) == []
    assert m.decision.player == 3       # his turn is over


def test_kurou_available_at_one_hp():
    """苦肉 has no HP condition: it is offered even at 1 HP."""
    m = table(5, generals={0: "黄盖"}, hp={0: 1}, max_hp={0: 5}, hands={0: []})
    assert can(m, "苦肉")


# ---- 周瑜: 英姿, 反间 ------------------------------------------------------------------

def test_yingzi_draws_one_extra_card():
    """英姿: draw 1 extra card in the draw phase."""
    m = table(5, generals={0: "周瑜"}, phase="draw", hands={0: []}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"])
    confirm(m, 0, "英姿")
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦2", "闪 ♦3", "闪 ♦4"]


def test_yingzi_can_be_declined():
    """英姿 is optional: declining it, he draws the usual 2."""
    m = table(5, generals={0: "周瑜"}, phase="draw", hands={0: []}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"])
    confirm(m, 0, "英姿", "no")
    assert len(cards_in(m, "hand", 0)) == 2


def test_fanjian_wrong_suit_deals_one_damage():
    """反间: the target names a suit and takes a hand card of his; a different suit costs 1 HP."""
    m = table(5, generals={0: "周瑜"}, hands={0: ["杀 ♠7"]})
    act(m, "反间")
    act(m, "player", player=3)          # 反间 reaches any distance
    assert asked(m) == (3, "name_suit")
    act(m, "红桃")
    assert cards_in(m, "hand", 3) == ["杀 ♠7"]
    assert hp(m, 3) == 3


def test_fanjian_right_suit_no_damage():
    """反间: naming the card's suit, the target takes it without damage."""
    m = table(5, generals={0: "周瑜"}, hands={0: ["杀 ♠7"]})
    act(m, "反间")
    act(m, "player", player=1)
    act(m, "黑桃")
    assert cards_in(m, "hand", 1) == ["杀 ♠7"]
    assert hp(m, 1) == 4


def test_fanjian_once_per_play_phase():
    """反间: 每阶段限一次."""
    m = table(5, generals={0: "周瑜"}, hands={0: ["杀 ♠7", "杀 ♠8"]})
    act(m, "反间")
    act(m, "player", player=1)
    act(m, "黑桃")
    assert not can(m, "反间")


def test_fanjian_needs_a_hand_card():
    """反间 gives a hand card: not usable with an empty hand."""
    m = table(5, generals={0: "周瑜"}, hands={0: []}, equips={0: ["诸葛连弩 ♣A"]})
    assert not can(m, "反间")


# ---- 大乔: 国色, 流离 ------------------------------------------------------------------

def test_guose_diamond_card_used_as_indulgence():
    """国色: a ♦ card may be used as 乐不思蜀 (any distance)."""
    m = table(5, generals={0: "大乔"}, hands={0: ["闪 ♦2"]})
    use(m, "闪 ♦2", target=2, option="国色")
    assert cards_in(m, "judging", 2) == ["闪 ♦2"]


def test_guose_equipped_diamond_card():
    """国色: the ♦ card may be an equipped one."""
    m = table(5, generals={0: "大乔"}, hands={0: []}, equips={0: ["紫骍 ♦K"]})
    use(m, "紫骍 ♦K", target=1, option="国色")
    assert cards_in(m, "judging", 1) == ["紫骍 ♦K"]
    assert cards_in(m, "minus_horse", 0) == []


def test_guose_only_diamonds():
    """国色: a ♥ (or black) card cannot be used as 乐不思蜀."""
    m = table(5, generals={0: "大乔"}, hands={0: ["桃 ♥3", "杀 ♠7"]})
    assert not can(m, "国色")


def test_guose_not_on_a_player_already_under_indulgence():
    """国色 makes a 乐不思蜀: a judgement area cannot hold two of them."""
    m = table(5, generals={0: "大乔"}, hands={0: ["闪 ♦2"]}, judging={1: ["乐不思蜀 ♠6"]})
    act(m, "国色", "闪 ♦2")
    assert not can(m, "player", player=1)
    assert can(m, "player", player=2)


def test_guose_indulgence_takes_effect():
    """国色: the ♦ card judged as 乐不思蜀 — a non-♥ judgement skips the target's play phase."""
    m = table(5, generals={0: "大乔"}, hands={0: ["闪 ♦2"], 1: []},
              deck=["杀 ♠8", "闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6"])
    use(m, "闪 ♦2", target=1, option="国色")
    end_play(m)
    pass_until(m, "play")
    assert m.decision.player == 2          # player 1's play phase was skipped
    assert cards_in(m, "judging", 1) == []
    assert sorted(cards_in(m, "hand", 1)) == ["闪 ♦3", "闪 ♦4"]
    assert sorted(cards_in(m, "discard")) == sorted(["闪 ♦2", "杀 ♠8"])


def _daqiao_targeted(daqiao_cards=("闪 ♦2",), target_hands=None, equips=None):
    """Player 1 uses 杀 on 大乔 (seat 2, 3 HP)."""
    hands = {1: ["杀 ♠7"], 2: list(daqiao_cards)}
    hands.update(target_hands or {})
    m = table(5, generals={2: "大乔"}, current=1, hp={2: 3}, hands=hands, equips=equips)
    use(m, "杀 ♠7", target=2)
    return m


def test_liuli_redirects_the_slash_and_the_new_target_takes_the_damage():
    """流离: she discards a card to pass the 杀 to another player in her range, who is hit."""
    m = _daqiao_targeted()
    assert asked(m) == (2, "own_card_or_stop")
    act(m, "card", "闪 ♦2")
    act(m, "player", player=3)
    assert hp(m, 3) == 3
    assert hp(m, 2) == 3
    assert sorted(cards_in(m, "discard")) == sorted(["闪 ♦2", "杀 ♠7"])


def test_liuli_new_target_may_dodge():
    """流离: the new target answers the 杀 as its target."""
    m = _daqiao_targeted(target_hands={3: ["闪 ♦3"]})
    act(m, "card", "闪 ♦2")
    act(m, "player", player=3)
    assert asked(m) == (3, "respond")
    act(m, "card", "闪 ♦3")
    assert hp(m, 3) == 4 and hp(m, 2) == 3


def test_liuli_redirected_wushuang_slash_still_needs_two_dodges():
    """流离 passes the 杀 on: 吕布's 无双 still needs two 闪 from the new target."""
    m = table(5, generals={1: "吕布", 2: "大乔"}, current=1, hp={2: 3},
              hands={1: ["杀 ♠7"], 2: ["闪 ♦2"], 3: ["闪 ♦3"]})
    use(m, "杀 ♠7", target=2)
    act(m, "card", "闪 ♦2")
    act(m, "player", player=3)
    act(m, "card", "闪 ♦3")
    assert hp(m, 3) == 3 and hp(m, 2) == 3


def test_liuli_not_to_the_slash_user():
    """流离: the new target cannot be the 杀's user."""
    m = _daqiao_targeted()
    act(m, "card", "闪 ♦2")
    assert [a.player for a in m.legal_actions()] == [3]
    assert not can(m, "player", player=1)


def test_liuli_only_within_her_attack_range():
    """流离: only players in her attack range; a weapon widens it."""
    m = _daqiao_targeted()
    act(m, "card", "闪 ♦2")
    assert not can(m, "player", player=4) and not can(m, "player", player=0)
    m = _daqiao_targeted(daqiao_cards=["闪 ♦2"], equips={2: ["青龙偃月刀 ♠5"]})
    act(m, "card", "闪 ♦2")
    assert can(m, "player", player=4) and can(m, "player", player=0)
    assert not can(m, "player", player=1)


def test_liuli_discarding_her_weapon_loses_its_range():
    """流离: a weapon discarded as the cost no longer counts for her attack range."""
    m = _daqiao_targeted(daqiao_cards=["闪 ♦2"], equips={2: ["青龙偃月刀 ♠5"]})
    act(m, "card", "青龙偃月刀 ♠5")
    assert [a.player for a in m.legal_actions()] == [3]      # only the player next to her


def test_liuli_not_to_another_target_of_the_same_slash():
    """流离: the 杀 cannot be passed to a player it already targets (方天画戟)."""
    m = table(5, generals={2: "大乔"}, current=1, hp={2: 3},
              hands={1: ["杀 ♠7"], 2: ["闪 ♦2"]}, equips={1: ["方天画戟 ♦Q"], 2: ["青龙偃月刀 ♠5"]})
    use(m, "杀 ♠7", target=2)
    act(m, "player", player=3)          # a second target
    act(m, "done")
    assert asked(m) == (2, "own_card_or_stop")
    act(m, "card", "闪 ♦2")
    assert sorted(a.player for a in m.legal_actions()) == [0, 4]


def test_liuli_may_discard_an_equipped_card():
    """流离: the discarded card may be equipment (一张牌)."""
    m = _daqiao_targeted(daqiao_cards=[], equips={2: ["赤兔 ♥5"]})
    act(m, "card", "赤兔 ♥5")
    act(m, "player", player=3)
    assert hp(m, 3) == 3 and hp(m, 2) == 3


def test_liuli_can_be_declined():
    """流离 is optional: declining it, she is hit and keeps her card."""
    m = _daqiao_targeted(daqiao_cards=["桃 ♥3"])
    act(m, "done")
    assert hp(m, 2) == 2
    assert cards_in(m, "hand", 2) == ["桃 ♥3"]


def test_liuli_needs_a_card():
    """流离: without a card to discard she is not asked and is hit."""
    m = _daqiao_targeted(daqiao_cards=[])
    assert hp(m, 2) == 2
    assert m.decision.choice == "play"


# ---- 陆逊: 谦逊, 连营 ------------------------------------------------------------------

def test_qianxun_cannot_be_targeted_by_snatch():
    """谦逊: he cannot be the target of 顺手牵羊."""
    m = table(5, generals={1: "陆逊"}, hands={0: ["顺手牵羊 ♠3"], 1: ["闪 ♦2"], 4: ["闪 ♦3"]})
    act(m, "use", "顺手牵羊 ♠3")
    assert not can(m, "player", player=1)
    assert can(m, "player", player=4)


def test_qianxun_cannot_be_targeted_by_indulgence():
    """谦逊: he cannot be the target of 乐不思蜀 (国色's included)."""
    m = table(5, generals={0: "大乔", 1: "陆逊"}, hands={0: ["乐不思蜀 ♠6", "闪 ♦2"]})
    act(m, "use", "乐不思蜀 ♠6")
    assert not can(m, "player", player=1)
    assert can(m, "player", player=2)
    m = table(5, generals={0: "大乔", 1: "陆逊"}, hands={0: ["闪 ♦2"]})
    act(m, "国色", "闪 ♦2")
    assert not can(m, "player", player=1)


def test_qianxun_can_still_be_targeted_by_dismantle():
    """谦逊 protects only against 顺手牵羊 and 乐不思蜀: 过河拆桥 still works."""
    m = table(5, generals={1: "陆逊"}, hands={0: ["过河拆桥 ♠3"], 1: ["闪 ♦2", "闪 ♦3"]})
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "hand")
    assert len(cards_in(m, "hand", 1)) == 1


def test_lianying_draws_after_using_the_last_hand_card():
    """连营: after losing his last hand card by using it, he may draw 1."""
    m = table(5, generals={0: "陆逊"}, hands={0: ["杀 ♠7"]}, deck=["闪 ♦2", "闪 ♦3"])
    use(m, "杀 ♠7", target=1)
    confirm(m, 0, "连营")
    assert cards_in(m, "hand", 0) == ["闪 ♦2"]
    assert hp(m, 1) == 3


def test_lianying_draws_after_playing_the_last_dodge():
    """连营: also when the last hand card is played (打出) as 闪."""
    m = table(5, generals={1: "陆逊"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["闪 ♦3"])
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    confirm(m, 1, "连营")
    assert cards_in(m, "hand", 1) == ["闪 ♦3"]
    assert hp(m, 1) == 4


def test_lianying_draws_after_the_last_card_is_dismantled():
    """连营: also when the last hand card is discarded by 过河拆桥."""
    m = table(5, generals={1: "陆逊"}, hands={0: ["过河拆桥 ♠3"], 1: ["闪 ♦2"]}, deck=["闪 ♦3"])
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "hand")
    confirm(m, 1, "连营")
    assert cards_in(m, "hand", 1) == ["闪 ♦3"]


def test_lianying_after_equipping_the_last_hand_card():
    """连营: equipping the last hand card also loses it from the hand."""
    m = table(5, generals={0: "陆逊"}, hands={0: ["赤兔 ♥5"]}, deck=["闪 ♦2"])
    act(m, "use", "赤兔 ♥5")
    confirm(m, 0, "连营")
    assert cards_in(m, "hand", 0) == ["闪 ♦2"]
    assert cards_in(m, "minus_horse", 0) == ["赤兔 ♥5"]


def test_lianying_can_be_declined():
    """连营 is optional."""
    m = table(5, generals={0: "陆逊"}, hands={0: ["杀 ♠7"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", target=1)
    confirm(m, 0, "连营", "no")
    assert cards_in(m, "hand", 0) == []


def test_lianying_not_while_hand_cards_remain():
    """连营: only the last hand card triggers it."""
    m = table(5, generals={0: "陆逊"}, hands={0: ["杀 ♠7", "闪 ♦2"]}, deck=["闪 ♦3"])
    use(m, "杀 ♠7", target=1)
    assert m.decision.choice == "play"
    assert cards_in(m, "hand", 0) == ["闪 ♦2"]


def test_lianying_not_for_losing_equipment():
    """连营 listens to hand cards: losing equipment with no hand card does not trigger it."""
    m = table(5, generals={1: "陆逊"}, hands={0: ["过河拆桥 ♠3"], 1: []}, equips={1: ["绝影 ♠5"]},
              deck=["闪 ♦3"])
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "card", "绝影 ♠5")
    assert m.decision.choice == "play" and m.decision.player == 0
    assert cards_in(m, "hand", 1) == []


# ---- 孙尚香: 枭姬, 结姻 ----------------------------------------------------------------

DECK4 = ["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6"]


def test_xiaoji_draws_two_when_her_equipment_is_replaced():
    """枭姬: losing an equipped card (replaced by a new one), she may draw 2."""
    m = table(5, generals={0: "孙尚香"}, hands={0: ["青釭剑 ♠6"]}, equips={0: ["诸葛连弩 ♣A"]}, deck=DECK4)
    act(m, "use", "青釭剑 ♠6")
    confirm(m, 0, "枭姬")
    assert cards_in(m, "weapon", 0) == ["青釭剑 ♠6"]
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦3", "闪 ♦4"]


def test_xiaoji_draws_two_when_her_equipment_is_dismantled():
    """枭姬: also when an equipped card is discarded by 过河拆桥."""
    m = table(5, generals={1: "孙尚香"}, hands={0: ["过河拆桥 ♠3"], 1: []}, equips={1: ["八卦阵 ♠2"]}, deck=DECK4)
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "card", "八卦阵 ♠2")
    confirm(m, 1, "枭姬")
    assert len(cards_in(m, "hand", 1)) == 2


def test_xiaoji_draws_two_when_her_equipment_is_snatched():
    """枭姬: also when an equipped card is taken by 顺手牵羊."""
    m = table(5, generals={1: "孙尚香"}, hands={0: ["顺手牵羊 ♠3"], 1: []}, equips={1: ["赤兔 ♥5"]}, deck=DECK4)
    use(m, "顺手牵羊 ♠3", target=1)
    act(m, "card", "赤兔 ♥5")
    confirm(m, 1, "枭姬")
    assert cards_in(m, "hand", 0) == ["赤兔 ♥5"]
    assert len(cards_in(m, "hand", 1)) == 2


def test_xiaoji_draws_two_when_her_weapon_goes_to_collateral():
    """枭姬: also when she hands over her weapon to 借刀杀人."""
    m = table(5, generals={1: "孙尚香"}, hands={0: ["借刀杀人 ♣Q"], 1: []}, equips={1: ["诸葛连弩 ♣A"]},
              deck=DECK4)
    use(m, "借刀杀人 ♣Q", target=1)
    act(m, "player", player=2)          # whom she must 杀; she has no 杀
    confirm(m, 1, "枭姬")
    assert cards_in(m, "hand", 0) == ["诸葛连弩 ♣A"]
    assert len(cards_in(m, "hand", 1)) == 2


def test_xiaoji_draws_for_equipment_she_discards_for_an_effect():
    """枭姬: also when she discards an equipped card herself (as 贯石斧's cost)."""
    m = table(5, generals={0: "孙尚香"}, hands={0: ["杀 ♠7", "闪 ♦2"], 1: ["闪 ♦9"]},
              equips={0: ["贯石斧 ♦5", "赤兔 ♥5"]}, deck=DECK4)
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦9")
    confirm(m, 0, "贯石斧")
    act(m, "card", "赤兔 ♥5")
    confirm(m, 0, "枭姬")
    act(m, "card", "闪 ♦2")
    assert hp(m, 1) == 3
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦3", "闪 ♦4"]


def test_xiaoji_twice_for_two_equipped_cards():
    """枭姬: 每当 — each equipped card lost draws 2 (寒冰剑 discards two of them)."""
    m = table(5, generals={1: "孙尚香"}, hands={0: ["杀 ♠7"], 1: []}, equips={0: ["寒冰剑 ♠2"],
              1: ["八卦阵 ♠2", "赤兔 ♥5"]}, deck=DECK4)
    use(m, "杀 ♠7", target=1)
    confirm(m, 1, "八卦阵", "no")
    confirm(m, 0, "寒冰剑")
    act(m, "card", "八卦阵 ♠2")
    confirm(m, 1, "枭姬")
    act(m, "card", "赤兔 ♥5")
    confirm(m, 1, "枭姬")
    assert hp(m, 1) == 4
    assert len(cards_in(m, "hand", 1)) == 4


def test_xiaoji_not_when_equipping_into_an_empty_slot():
    """枭姬: equipping a card into an empty slot loses nothing."""
    m = table(5, generals={0: "孙尚香"}, hands={0: ["青釭剑 ♠6", "闪 ♦2"]}, deck=DECK4)
    act(m, "use", "青釭剑 ♠6")
    assert m.decision.choice == "play"
    assert cards_in(m, "hand", 0) == ["闪 ♦2"]


def test_xiaoji_can_be_declined():
    """枭姬 is optional."""
    m = table(5, generals={1: "孙尚香"}, hands={0: ["过河拆桥 ♠3"], 1: []}, equips={1: ["八卦阵 ♠2"]}, deck=DECK4)
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "card", "八卦阵 ♠2")
    confirm(m, 1, "枭姬", "no")
    assert cards_in(m, "hand", 1) == []


def test_xiaoji_not_for_a_hand_card():
    """枭姬 is about equipped cards: losing a hand card does not trigger it."""
    m = table(5, generals={1: "孙尚香"}, hands={0: ["过河拆桥 ♠3"], 1: ["闪 ♦2"]}, equips={1: ["八卦阵 ♠2"]},
              deck=DECK4)
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "hand")
    assert m.decision.choice == "play" and m.decision.player == 0
    assert cards_in(m, "hand", 1) == []


def test_jieyin_she_and_a_wounded_male_each_recover_one():
    """结姻: discard 2 hand cards; she and a wounded male each recover 1 HP."""
    m = table(5, generals={0: "孙尚香", 3: "吕布"}, hp={0: 1, 3: 2}, max_hp={0: 3, 3: 4},
              hands={0: ["杀 ♠7", "闪 ♦2", "闪 ♦3"]})
    act(m, "结姻", ["杀 ♠7", "闪 ♦2"])
    act(m, "player", player=3)          # any distance
    assert hp(m, 0) == 2 and hp(m, 3) == 3
    assert sorted(cards_in(m, "discard")) == sorted(["杀 ♠7", "闪 ♦2"])


def test_jieyin_only_a_wounded_male():
    """结姻: the other player must be male and wounded."""
    m = table(5, generals={0: "孙尚香", 1: "大乔", 2: "吕布", 3: "甘宁"}, hp={0: 2, 1: 2, 2: 3},
              max_hp={0: 3, 1: 3, 2: 4}, hands={0: ["杀 ♠7", "闪 ♦2"]})
    act(m, "结姻", ["杀 ♠7", "闪 ♦2"])
    assert m.decision.args[2] == [2]
    m = table(5, generals={0: "孙尚香", 1: "大乔", 3: "甘宁"}, hp={0: 2, 1: 2},
              max_hp={0: 3, 1: 3}, hands={0: ["杀 ♠7", "闪 ♦2"]})
    assert not can(m, "结姻", ["杀 ♠7", "闪 ♦2"])


def test_jieyin_needs_two_hand_cards():
    """结姻: two hand cards are discarded — one, or equipment, will not do."""
    m = table(5, generals={0: "孙尚香", 3: "吕布"}, hp={3: 2}, hands={0: ["杀 ♠7"]},
              equips={0: ["赤兔 ♥5"]})
    assert not can(m, "结姻", ["杀 ♠7"])
    assert not can(m, "结姻", ["杀 ♠7", "赤兔 ♥5"])


def test_jieyin_once_per_play_phase():
    """结姻: 每阶段限一次."""
    m = table(5, generals={0: "孙尚香", 3: "吕布"}, hp={0: 1, 3: 1}, max_hp={0: 3, 3: 4},
              hands={0: ["杀 ♠7", "闪 ♦2", "闪 ♦3", "闪 ♦4"]})
    act(m, "结姻", ["杀 ♠7", "闪 ♦2"])
    act(m, "player", player=3)
    assert not can(m, "结姻", ["闪 ♦3", "闪 ♦4"])


# ---- 华佗: 青囊, 急救 ------------------------------------------------------------------

def test_qingnang_heals_a_wounded_player():
    """青囊: discard a hand card; a wounded player recovers 1 HP."""
    m = table(5, generals={0: "华佗"}, hp={2: 2}, max_hp={2: 4}, hands={0: ["杀 ♠7"]})
    act(m, "青囊", "杀 ♠7")
    assert m.decision.args[2] == [2]
    act(m, "player", player=2)
    assert hp(m, 2) == 3
    assert cards_in(m, "discard") == ["杀 ♠7"]


def test_qingnang_can_heal_himself():
    """青囊: the wounded player may be 华佗 himself."""
    m = table(5, generals={0: "华佗"}, hp={0: 2}, max_hp={0: 4}, hands={0: ["杀 ♠7"]})
    act(m, "青囊", "杀 ♠7")
    act(m, "player", player=0)
    assert hp(m, 0) == 3


def test_qingnang_once_per_play_phase():
    """青囊: 每阶段限一次."""
    m = table(5, generals={0: "华佗"}, hp={2: 1}, max_hp={2: 4}, hands={0: ["杀 ♠7", "杀 ♠8"]})
    act(m, "青囊", "杀 ♠7")
    act(m, "player", player=2)
    assert hp(m, 2) == 2
    assert not can(m, "青囊", "杀 ♠8")


def test_qingnang_needs_a_wounded_player_and_a_hand_card():
    """青囊: not usable when nobody is wounded, nor with equipment only."""
    m = table(5, generals={0: "华佗"}, hands={0: ["杀 ♠7"]})
    assert not can(m, "青囊", "杀 ♠7")
    m = table(5, generals={0: "华佗"}, hp={2: 2}, hands={0: []}, equips={0: ["赤兔 ♥5"]})
    assert not can(m, "青囊", "赤兔 ♥5")


def test_jijiu_red_card_as_peach_outside_his_turn():
    """急救: outside his turn, a red card may be used as 桃 on a dying player."""
    m = table(5, generals={3: "华佗"}, current=1, hp={2: 1}, hands={1: ["杀 ♠7"], 3: ["闪 ♦2"]})
    use(m, "杀 ♠7", target=2)
    assert asked(m) == (3, "peach")
    act(m, "急救", "闪 ♦2")
    assert hp(m, 2) == 1
    assert 2 in m.players
    assert sorted(cards_in(m, "discard")) == sorted(["闪 ♦2", "杀 ♠7"])


def test_jijiu_equipped_red_card():
    """急救: the red card may be an equipped one."""
    m = table(5, generals={3: "华佗"}, current=1, hp={2: 1}, hands={1: ["杀 ♠7"], 3: []},
              equips={3: ["赤兔 ♥5"]})
    use(m, "杀 ♠7", target=2)
    act(m, "急救", "赤兔 ♥5")
    assert hp(m, 2) == 1
    assert cards_in(m, "minus_horse", 3) == []


def test_jijiu_saves_himself_outside_his_turn():
    """急救: 华佗 dying in another player's turn may use his own red card as 桃."""
    m = table(5, generals={2: "华佗"}, current=1, hp={2: 1}, max_hp={2: 3},
              hands={1: ["杀 ♠7"], 2: ["杀 ♥10"]})
    use(m, "杀 ♠7", target=2)
    assert asked(m) == (2, "peach")
    act(m, "急救", "杀 ♥10")
    assert hp(m, 2) == 1 and 2 in m.players


def test_jijiu_not_a_black_card():
    """急救: only red cards — with black cards only he is not asked and the player dies."""
    m = table(5, generals={3: "华佗"}, current=1, hp={2: 1}, hands={1: ["杀 ♠7"], 3: ["杀 ♠8"]})
    use(m, "杀 ♠7", target=2)
    assert 2 not in m.players


def test_jijiu_not_in_his_own_turn():
    """急救: not during his own turn."""
    m = table(5, generals={1: "华佗"}, current=1, hp={2: 1}, hands={1: ["杀 ♠7", "闪 ♦2"]})
    use(m, "杀 ♠7", target=2)
    assert 2 not in m.players
    assert "闪 ♦2" in cards_in(m, "hand", 1)


# ---- 吕布: 无双 -----------------------------------------------------------------------

def test_wushuang_slash_needs_two_dodges():
    """无双: the target of his 杀 must play two 闪 to cancel it."""
    m = table(5, generals={0: "吕布"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2", "闪 ♦3"]})
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    assert asked(m) == (1, "respond")
    act(m, "card", "闪 ♦3")
    assert hp(m, 1) == 4


def test_wushuang_one_dodge_is_not_enough():
    """无双: a single 闪 does not cancel his 杀."""
    m = table(5, generals={0: "吕布"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == []


def test_wushuang_duel_he_uses_needs_two_slashes_each_time():
    """无双: in his 决斗 the opponent must play two 杀 each time."""
    m = table(5, generals={0: "吕布"}, hands={0: ["决斗 ♠A", "杀 ♠7"], 3: ["杀 ♠8"]})
    use(m, "决斗 ♠A", target=3)
    act(m, "card", "杀 ♠8")
    assert hp(m, 3) == 3
    assert cards_in(m, "hand", 0) == ["杀 ♠7"]       # 吕布 was never asked


def test_wushuang_duel_against_him_needs_two_slashes_and_he_plays_one():
    """无双: when he is challenged, he plays one 杀 and the user must then play two."""
    m = table(5, generals={3: "吕布"}, current=0, hands={0: ["决斗 ♠A", "杀 ♠7", "杀 ♠8"], 3: ["杀 ♠9", "杀 ♠10"]})
    use(m, "决斗 ♠A", target=3)
    act(m, "card", "杀 ♠9")            # 吕布: one 杀
    assert asked(m) == (0, "respond")
    act(m, "card", "杀 ♠7")
    act(m, "card", "杀 ♠8")            # the user: two
    assert asked(m) == (3, "respond")
    act(m, "card", "杀 ♠10")
    assert hp(m, 0) == 3               # the user has no second pair of 杀: hit
    assert hp(m, 3) == 4


# ---- 貂蝉: 离间, 闭月 ------------------------------------------------------------------

def _lijian_table(**kw):
    gens = {0: "貂蝉", 1: "甘宁", 2: "吕蒙", 3: "大乔"}
    gens.update(kw.pop("generals", {}))
    hands = {0: ["闪 ♦2"]}
    hands.update(kw.pop("hands", {}))
    return table(5, generals=gens, hands=hands, **kw)


def test_lijian_second_male_duels_the_first():
    """离间: discard a card, pick two other males; the second uses 决斗 on the first."""
    m = _lijian_table(hands={1: [], 2: ["杀 ♠7"]})
    act(m, "离间", "闪 ♦2")
    act(m, "player", player=1)          # challenged
    act(m, "player", player=2)          # challenger
    assert hp(m, 1) == 3 and hp(m, 2) == 4
    assert cards_in(m, "hand", 2) == ["杀 ♠7"]
    assert cards_in(m, "discard") == ["闪 ♦2"]


def test_lijian_duel_plays_out_between_the_two():
    """离间: the challenged plays 杀 first; then the challenger must answer."""
    m = _lijian_table(hands={1: ["杀 ♠8"], 2: []})
    act(m, "离间", "闪 ♦2")
    act(m, "player", player=1)
    act(m, "player", player=2)
    assert asked(m) == (1, "respond")
    act(m, "card", "杀 ♠8")
    assert hp(m, 2) == 3 and hp(m, 1) == 4


def test_lijian_damage_comes_from_the_challenger():
    """离间: the challenger is the 决斗's user: killing a 反贼 with it, he (not 貂蝉) draws 3."""
    m = _lijian_table(generals={3: "吕布"}, hp={2: 1}, hands={2: []},
                      deck=["杀 ♠8", "杀 ♠9", "杀 ♠10", "闪 ♦3"])
    act(m, "离间", "闪 ♦2")
    act(m, "player", player=2)          # 吕蒙, a 反贼 at 1 HP
    act(m, "player", player=3)          # 吕布 challenges
    assert 2 not in m.players
    assert sorted(cards_in(m, "hand", 3)) == ["杀 ♠10", "杀 ♠8", "杀 ♠9"]
    assert cards_in(m, "hand", 0) == []


def test_lijian_wushuang_challenger_needs_two_slashes():
    """离间 with 吕布 as the challenger: his 无双 makes the challenged play two 杀 each time."""
    m = _lijian_table(generals={3: "吕布"}, hands={1: ["杀 ♠8"], 3: ["杀 ♠9"]})
    act(m, "离间", "闪 ♦2")
    act(m, "player", player=1)
    act(m, "player", player=3)
    act(m, "card", "杀 ♠8")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 3) == ["杀 ♠9"]


def test_lijian_cannot_be_nullified():
    """离间: the 决斗 cannot be cancelled by 无懈可击."""
    m = _lijian_table(hands={1: ["无懈可击 ♠J"], 2: [], 4: ["无懈可击 ♣Q"]})
    act(m, "离间", "闪 ♦2")
    act(m, "player", player=1)
    act(m, "player", player=2)
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["无懈可击 ♠J"]
    assert cards_in(m, "hand", 4) == ["无懈可击 ♣Q"]


def test_lijian_only_other_male_players():
    """离间: both players are male (女 大乔 cannot be chosen)."""
    m = _lijian_table(generals={4: "吕布"})
    act(m, "离间", "闪 ♦2")
    assert sorted(m.decision.args[2]) == [1, 2, 4]
    act(m, "player", player=1)
    assert sorted(m.decision.args[2]) == [2, 4]


def test_lijian_needs_two_other_males():
    """离间: not usable with fewer than two other male players."""
    m = table(5, generals={0: "貂蝉", 1: "甘宁", 2: "大乔", 3: "孙尚香"}, hands={0: ["闪 ♦2"]})
    assert not can(m, "离间", "闪 ♦2")


def test_lijian_may_discard_equipment():
    """离间: the discarded card may be equipped (一张牌)."""
    m = _lijian_table(hands={0: [], 1: [], 2: []}, equips={0: ["赤兔 ♥5"]})
    act(m, "离间", "赤兔 ♥5")
    act(m, "player", player=1)
    act(m, "player", player=2)
    assert hp(m, 1) == 3
    assert cards_in(m, "minus_horse", 0) == []


def test_lijian_once_per_play_phase():
    """离间: 每阶段限一次."""
    m = _lijian_table(hands={0: ["闪 ♦2", "闪 ♦3"], 1: [], 2: []})
    act(m, "离间", "闪 ♦2")
    act(m, "player", player=1)
    act(m, "player", player=2)
    assert not can(m, "离间", "闪 ♦3")


def test_biyue_draws_one_at_the_end_of_her_turn():
    """闭月: in the finish phase she may draw 1."""
    m = table(5, generals={0: "貂蝉"}, hands={0: []}, deck=["闪 ♦3", "闪 ♦4", "闪 ♦5"])
    end_play(m)
    confirm(m, 0, "闭月")
    assert cards_in(m, "hand", 0) == ["闪 ♦3"]
    assert m.decision.player == 1


def test_biyue_also_when_her_play_phase_is_skipped():
    """闭月: the finish phase comes even when 乐不思蜀 skipped her play phase."""
    m = table(5, generals={0: "貂蝉"}, phase="judge", hands={0: []}, judging={0: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠8", "闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6"])
    confirm(m, 0, "闭月")
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦3", "闪 ♦4", "闪 ♦5"]


def test_biyue_can_be_declined():
    """闭月 is optional."""
    m = table(5, generals={0: "貂蝉"}, hands={0: []}, deck=["闪 ♦3", "闪 ♦4", "闪 ♦5"])
    end_play(m)
    confirm(m, 0, "闭月", "no")
    assert cards_in(m, "hand", 0) == []


def test_biyue_not_in_another_players_turn():
    """闭月 is for the end of her own turn only."""
    m = table(5, generals={1: "貂蝉"}, current=0, hands={0: [], 1: []}, deck=["闪 ♦3", "闪 ♦4", "闪 ♦5"])
    end_play(m)
    assert m.decision.player == 1 and m.decision.choice != "confirm"
