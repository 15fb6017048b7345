"""三国杀: the 14 generals of 魏 and 蜀 (2008 standard texts), one scenario per skill clause.

Seats in a 5-player table: 0 主公, 1 忠臣, 2 反贼, 3 反贼, 4 内奸; seat 0 is at
distance 1 from seats 1 and 4 and at distance 2 from seats 2 and 3.
"""
from __future__ import annotations

import pytest
from sanguosha_kit import FILL, act, asked, can, cards_in, game, hand, hp, legal, pass_until, table, use

# ============================================================== 曹操 =====

def test_jianxiong_takes_the_slash_that_hurt_him():
    """奸雄: after taking damage, 曹操 may take the card that caused it."""
    m = table(5, generals={1: "曹操"}, hands={0: ["杀 ♠7"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 1, "奸雄")
    act(m, "yes")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["杀 ♠7"]
    assert cards_in(m, "discard") == []


def test_jianxiong_can_be_declined():
    """奸雄 is optional: declined, the 杀 goes to the discard pile."""
    m = table(5, generals={1: "曹操"}, hands={0: ["杀 ♠7"], 1: []})
    use(m, "杀 ♠7", target=1)
    act(m, "no")
    assert cards_in(m, "hand", 1) == []
    assert cards_in(m, "discard") == ["杀 ♠7"]


def test_jianxiong_takes_a_duel():
    """奸雄: the 决斗 that damaged 曹操 goes to his hand."""
    m = table(5, generals={1: "曹操"}, hands={0: ["决斗 ♠A"], 1: []})
    use(m, "决斗 ♠A", target=1)
    act(m, "yes")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["决斗 ♠A"]


def test_jianxiong_not_asked_without_a_card():
    """奸雄: damage caused by no card (刚烈) gives nothing to take, so no question."""
    m = table(5, generals={0: "夏侯惇", 1: "曹操"}, hands={1: ["杀 ♠7"]},
              deck=["杀 ♠8"] + FILL, current=1)
    use(m, "杀 ♠7", target=0)
    act(m, "yes")             # 刚烈: ♠ judge
    act(m, "damage")          # 曹操 takes 1 damage from 刚烈
    assert hp(m, 1) == 3
    assert not asked(m, "confirm", 1, "奸雄")


def test_jianxiong_takes_the_lightning_that_struck_him():
    """奸雄: 闪电 is the card that caused the damage — 曹操 may take it."""
    m = table(5, generals={0: "曹操"}, hands={0: []}, judging={0: ["闪电 ♠A"]},
              deck=["杀 ♠9"] + FILL, phase="judge")
    assert hp(m, 0) == 1
    assert asked(m, "confirm", 0, "奸雄")
    act(m, "yes")
    assert "闪电 ♠A" in cards_in(m, "hand", 0)
    assert "闪电 ♠A" not in cards_in(m, "discard")


def test_hujia_wei_player_plays_jink_for_the_lord():
    """护驾 (lord): when 曹操 needs a 闪, another 魏 player may play one for him."""
    m = table(5, generals={0: "曹操", 1: "司马懿"}, hands={1: ["闪 ♦2"], 4: ["杀 ♠7"]},
              current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "护驾")
    assert asked(m, "help_lord", 1)
    act(m, "card", "闪 ♦2")
    assert hp(m, 0) == 4
    assert sorted(cards_in(m, "discard")) == ["杀 ♠7", "闪 ♦2"]
    assert cards_in(m, "hand", 1) == []


def test_hujia_ally_may_answer_with_qingguo():
    """护驾: 甄姬 (魏) may play a black hand card as 闪 for the lord through 倾国."""
    m = table(5, generals={0: "曹操", 1: "甄姬"}, hands={1: ["杀 ♣5"], 4: ["杀 ♠7"]},
              current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "护驾")
    act(m, "倾国", "杀 ♣5")
    assert hp(m, 0) == 4


def test_hujia_ally_may_refuse():
    """护驾: the 魏 player only may play a 闪; if none does, the 杀 hits."""
    m = table(5, generals={0: "曹操", 1: "司马懿"}, hands={1: ["闪 ♦2"], 4: ["杀 ♠7"]},
              current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "护驾")
    act(m, "pass")
    pass_until(m, "play")                 # the lord, without a 闪, lets it hit
    assert hp(m, 0) == 3
    assert cards_in(m, "hand", 1) == ["闪 ♦2"]


def test_hujia_only_for_the_lord():
    """护驾 is a lord skill: 曹操 as a loyalist cannot ask the 魏 players for 闪."""
    m = table(5, generals={1: "曹操", 2: "司马懿"}, hands={2: ["闪 ♦2"], 0: ["杀 ♠7"]})
    use(m, "杀 ♠7", target=1)
    # 曹操 has no 闪 and no 护驾: he is not even asked; the 杀 hits
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 2) == ["闪 ♦2"]


def test_hujia_only_asks_wei_players():
    """护驾: only other 魏 players are asked; a 蜀 player with 闪 is not."""
    m = table(5, generals={0: "曹操", 1: "赵云", 2: "张辽"},
              hands={1: ["闪 ♦2"], 2: [], 4: ["杀 ♠7"]}, current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "护驾")
    # 张辽 (魏) has nothing to play, 赵云 (蜀) is not asked: the 杀 hits
    assert not asked(m, "help_lord", 1)
    pass_until(m, "play")
    assert hp(m, 0) == 3
    assert cards_in(m, "hand", 1) == ["闪 ♦2"]


def test_hujia_not_offered_without_wei_allies():
    """护驾: with no other 魏 player alive there is nobody to ask."""
    m = table(5, generals={0: "曹操", 1: "关羽"}, hands={0: ["闪 ♦2"], 4: ["杀 ♠7"]},
              current=4)
    use(m, "杀 ♠7", target=0)
    assert asked(m, "respond", 0)
    assert not can(m, "护驾")


def test_hujia_unanswered_lord_may_still_play_his_own_jink():
    """护驾: the allies 'may' play for him; if none does, the lord still needs — and may play — a 闪."""
    m = table(5, generals={0: "曹操", 1: "司马懿"},
              hands={0: ["闪 ♦3"], 1: ["闪 ♦2"], 4: ["杀 ♠7"]}, current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "护驾")
    act(m, "pass")
    assert asked(m, "respond", 0)
    act(m, "card", "闪 ♦3")
    assert hp(m, 0) == 4


def test_hujia_ally_may_answer_with_eight_diagram():
    """护驾: a 魏 ally asked to play 闪 for the lord needs a 闪, so the ally's 八卦阵 may judge
    (八卦阵: 每当你需要使用或打出一张【闪】时); on red the lord counts as having played 闪."""
    m = table(5, generals={0: "曹操", 1: "张辽"}, hands={1: [], 4: ["杀 ♠7"]},
              equips={1: ["八卦阵 ♠2"]}, deck=["闪 ♦2"], current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "护驾")
    assert asked(m, "confirm", 1, "八卦阵")
    act(m, "yes")
    assert hp(m, 0) == 4
    assert cards_in(m, "armor", 1) == ["八卦阵 ♠2"]
    assert sorted(cards_in(m, "discard")) == ["杀 ♠7", "闪 ♦2"]


def test_hujia_ally_eight_diagram_black_then_a_jink_from_hand():
    """护驾: the ally's 八卦阵 judges black; the ally may still play a 闪 from hand for the lord."""
    m = table(5, generals={0: "曹操", 1: "张辽"}, hands={1: ["闪 ♦3"], 4: ["杀 ♠7"]},
              equips={1: ["八卦阵 ♠2"]}, deck=["杀 ♣8"], current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "护驾")
    act(m, "yes")                           # 八卦阵: ♣, no 闪
    assert asked(m, "help_lord", 1)
    act(m, "card", "闪 ♦3")
    assert hp(m, 0) == 4


# ============================================================== 司马懿 =====

def test_fankui_takes_a_hand_card_of_the_source():
    """反馈: after taking damage, 司马懿 may take one card from the source."""
    m = table(5, generals={1: "司马懿"}, hands={0: ["杀 ♠7", "桃 ♥3"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 1, "反馈")
    act(m, "yes")
    act(m, "hand")
    assert cards_in(m, "hand", 1) == ["桃 ♥3"]
    assert cards_in(m, "hand", 0) == []


def test_fankui_may_take_equipment():
    """反馈: the card taken may be an equipped one."""
    m = table(5, generals={1: "司马懿"}, hands={0: ["杀 ♠7", "桃 ♥3"], 1: []},
              equips={0: ["赤兔 ♥5"]})
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    act(m, "card", "赤兔 ♥5")
    assert cards_in(m, "hand", 1) == ["赤兔 ♥5"]
    assert cards_in(m, "minus_horse", 0) == []
    assert cards_in(m, "hand", 0) == ["桃 ♥3"]


def test_fankui_can_be_declined():
    """反馈 is optional."""
    m = table(5, generals={1: "司马懿"}, hands={0: ["杀 ♠7", "桃 ♥3"], 1: []})
    use(m, "杀 ♠7", target=1)
    act(m, "no")
    assert cards_in(m, "hand", 0) == ["桃 ♥3"]
    assert cards_in(m, "hand", 1) == []


def test_fankui_not_asked_when_the_source_has_no_cards():
    """反馈: a source with no cards has nothing to take."""
    m = table(5, generals={1: "司马懿"}, hands={0: ["杀 ♠7"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3
    assert asked(m, "play", 0)


def test_guicai_changes_an_indulgence_judgement():
    """鬼才: 司马懿 replaces the 乐不思蜀 judge card with a ♥ hand card; the target is not skipped."""
    m = table(5, generals={0: "司马懿"}, hands={0: ["桃 ♥3"]}, judging={1: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠8"] + FILL, current=1, phase="judge")
    assert asked(m, "own_card_or_stop", 0)
    act(m, "card", "桃 ♥3")
    assert sorted(cards_in(m, "discard")) == sorted(["杀 ♠8", "乐不思蜀 ♠6", "桃 ♥3"])
    assert cards_in(m, "hand", 0) == []
    pass_until(m, "play")
    assert asked(m, "play", 1)              # player 1 is not skipped
    assert m.pvars[1]["skip_play"] is False


def test_guicai_can_be_declined():
    """鬼才 is optional: the judge card stands, and ♠ means the play phase is skipped."""
    m = table(5, generals={0: "司马懿"}, hands={0: ["桃 ♥3"]}, judging={1: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠8"] + FILL, current=1, phase="judge")
    act(m, "done")
    assert cards_in(m, "hand", 0) == ["桃 ♥3"]
    # player 1 draws, skips the play phase: the next play phase asked is player 2's
    assert asked(m, "play", 2)
    assert len(cards_in(m, "hand", 1)) == 2


def test_guicai_not_asked_without_hand_cards():
    """鬼才 needs a hand card to play."""
    m = table(5, generals={0: "司马懿"}, hands={0: []}, equips={0: ["赤兔 ♥5"]},
              judging={1: ["乐不思蜀 ♠6"]}, deck=["杀 ♠8"] + FILL, current=1, phase="judge")
    assert not asked(m, "own_card_or_stop", 0)
    assert asked(m, "play", 2)              # player 1's play phase was skipped


def test_guicai_on_his_own_lightning():
    """鬼才: 司马懿 may also replace his own judge card: a ♠5 闪电 judgement turned ♥ does no damage."""
    m = table(5, generals={0: "司马懿"}, hands={0: ["桃 ♥3"]}, judging={0: ["闪电 ♠A"]},
              deck=["杀 ♠9"] + FILL, phase="judge")
    act(m, "card", "桃 ♥3")
    assert hp(m, 0) == 4
    assert cards_in(m, "judging", 1) == ["闪电 ♠A"]


# ============================================================== 夏侯惇 =====

def ganglie_table(source_hand):
    m = table(5, generals={0: "夏侯惇"}, hands={1: ["杀 ♠7"] + source_hand},
              deck=["杀 ♠8"] + FILL, current=1)
    use(m, "杀 ♠7", target=0)
    assert asked(m, "confirm", 0, "刚烈")
    return m


def test_ganglie_source_takes_one_damage():
    """刚烈: judge not ♥ — the source may take 1 damage from 夏侯惇."""
    m = ganglie_table(["闪 ♦2", "闪 ♦3"])
    act(m, "yes")
    assert asked(m, "ganglie", 1)
    act(m, "damage")
    assert hp(m, 0) == 3 and hp(m, 1) == 3
    assert hand(m, 1) == ["闪 ♦2", "闪 ♦3"]


def test_ganglie_source_discards_two_hand_cards():
    """刚烈: judge not ♥ — or the source discards two hand cards instead."""
    m = ganglie_table(["闪 ♦2", "闪 ♦3", "桃 ♥3"])
    act(m, "yes")
    act(m, "discard", ["闪 ♦2", "闪 ♦3"])
    assert hp(m, 1) == 4
    assert hand(m, 1) == ["桃 ♥3"]
    assert "闪 ♦2" in cards_in(m, "discard")


def test_ganglie_discard_needs_two_hand_cards():
    """刚烈: a source with fewer than two hand cards can only take the damage."""
    m = ganglie_table(["闪 ♦2"])
    act(m, "yes")
    assert legal(m) == ["damage"]


def test_ganglie_heart_judgement_does_nothing():
    """刚烈: a ♥ judge card has no effect."""
    m = table(5, generals={0: "夏侯惇"}, hands={1: ["杀 ♠7", "闪 ♦2", "闪 ♦3"]},
              deck=["桃 ♥4"] + FILL, current=1)
    use(m, "杀 ♠7", target=0)
    act(m, "yes")
    assert not asked(m, "ganglie")
    assert hp(m, 1) == 4 and len(cards_in(m, "hand", 1)) == 2
    assert "桃 ♥4" in cards_in(m, "discard")


def test_ganglie_can_be_declined():
    """刚烈 is optional: declined, no judgement is made."""
    m = ganglie_table(["闪 ♦2", "闪 ♦3"])
    act(m, "no")
    assert hp(m, 1) == 4
    assert cards_in(m, "deck")[0] == "杀 ♠8"


# ============================================================== 张辽 =====

def test_tuxi_takes_a_hand_card_from_two_players_instead_of_drawing():
    """突袭: instead of drawing, take one hand card from each of up to two other players."""
    m = table(5, generals={0: "张辽"}, hands={0: [], 1: ["桃 ♥3"], 2: ["桃 ♥4"], 3: ["闪 ♦2"]},
              deck=FILL, phase="draw")
    assert asked(m, "confirm", 0, "突袭")
    act(m, "yes")
    act(m, "player", player=1)
    act(m, "player", player=2)
    assert hand(m, 0) == ["桃 ♥3", "桃 ♥4"]
    assert cards_in(m, "hand", 1) == [] and cards_in(m, "hand", 2) == []
    assert cards_in(m, "hand", 3) == ["闪 ♦2"]
    assert cards_in(m, "deck") == FILL          # drew nothing
    assert asked(m, "play", 0)


def test_tuxi_one_player_is_enough():
    """突袭: 'up to two' — 张辽 may stop after one player."""
    m = table(5, generals={0: "张辽"}, hands={0: [], 1: ["桃 ♥3"], 2: ["桃 ♥4"]},
              deck=FILL, phase="draw")
    act(m, "yes")
    act(m, "player", player=2)
    act(m, "done")
    assert hand(m, 0) == ["桃 ♥4"]
    assert cards_in(m, "deck") == FILL


def test_tuxi_only_other_players_with_hand_cards():
    """突袭: he takes from other players who have hand cards, not from himself or the empty-handed."""
    m = table(5, generals={0: "张辽"}, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"], 2: []},
              equips={2: ["赤兔 ♥5"]}, deck=FILL, phase="draw")
    act(m, "yes")
    targets = {a.player for a in m.legal_actions()}
    assert targets == {1}


def test_tuxi_declined_draws_two():
    """突袭 is optional: declined, 张辽 draws 2 as usual."""
    m = table(5, generals={0: "张辽"}, hands={0: [], 1: ["桃 ♥3"]}, deck=FILL, phase="draw")
    act(m, "no")
    assert hand(m, 0) == sorted(FILL[:2])
    assert cards_in(m, "hand", 1) == ["桃 ♥3"]


def test_tuxi_not_asked_when_nobody_has_hand_cards():
    """突袭: with no other player holding a hand card, 张辽 just draws."""
    m = table(5, generals={0: "张辽"}, hands={0: []}, deck=FILL, phase="draw")
    assert asked(m, "play", 0)
    assert hand(m, 0) == sorted(FILL[:2])


# ============================================================== 许褚 =====

def test_luoyi_draws_one_fewer():
    """裸衣: 许褚 may draw one card fewer in his draw phase."""
    m = table(5, generals={0: "许褚"}, hands={0: []}, deck=FILL, phase="draw")
    assert asked(m, "confirm", 0, "裸衣")
    act(m, "yes")
    assert cards_in(m, "hand", 0) == FILL[:1]
    assert m.pvars[0]["luoyi"] is True


def test_luoyi_slash_deals_one_more_damage():
    """裸衣: the 杀 he uses this turn deals +1 damage."""
    m = table(5, generals={0: "许褚"}, hands={0: ["杀 ♠7"]}, deck=FILL, phase="draw")
    act(m, "yes")
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 2


def test_luoyi_duel_deals_one_more_damage():
    """裸衣: the 决斗 he uses this turn deals +1 damage."""
    m = table(5, generals={0: "许褚"}, hands={0: ["决斗 ♠A"], 2: []}, deck=FILL, phase="draw")
    act(m, "yes")
    use(m, "决斗 ♠A", target=2)
    assert hp(m, 2) == 2


def test_luoyi_no_bonus_when_declined():
    """裸衣 declined: he draws 2 and his 杀 deals 1."""
    m = table(5, generals={0: "许褚"}, hands={0: ["杀 ♠7"]}, deck=FILL, phase="draw")
    act(m, "no")
    assert len(cards_in(m, "hand", 0)) == 3
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3


def test_luoyi_not_for_damage_he_takes_in_his_duel():
    """裸衣: only damage 许褚 deals is raised — losing his own 决斗 costs him just 1."""
    m = table(5, generals={0: "许褚"}, hands={0: ["决斗 ♠A"], 2: ["杀 ♠8"]}, deck=FILL,
              phase="draw")
    act(m, "yes")
    use(m, "决斗 ♠A", target=2)
    act(m, "card", "杀 ♠8")
    assert hp(m, 0) == 3 and hp(m, 2) == 4


def test_luoyi_not_for_other_tricks():
    """裸衣: only 杀 and 决斗 — a 南蛮入侵 still deals 1."""
    m = table(5, generals={0: "许褚"}, hands={0: ["南蛮入侵 ♠7"]}, deck=FILL, phase="draw")
    act(m, "yes")
    use(m, "南蛮入侵 ♠7")
    assert [hp(m, p) for p in (1, 2, 3, 4)] == [3, 3, 3, 3]


# ============================================================== 郭嘉 =====

def test_tiandu_takes_his_judge_card():
    """天妒: after his judgement takes effect, 郭嘉 may take the judge card (the 乐不思蜀 still works)."""
    m = table(5, generals={1: "郭嘉"}, hands={1: []}, judging={1: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠8"] + FILL, current=1, phase="judge")
    assert asked(m, "confirm", 1, "天妒")
    act(m, "yes")
    assert "杀 ♠8" in cards_in(m, "hand", 1)
    assert "杀 ♠8" not in cards_in(m, "discard")
    assert asked(m, "play", 2)              # ♠: his play phase was still skipped


def test_tiandu_can_be_declined():
    """天妒 is optional: declined, the judge card is discarded."""
    m = table(5, generals={1: "郭嘉"}, hands={1: []}, judging={1: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠8"] + FILL, current=1, phase="judge")
    act(m, "no")
    assert "杀 ♠8" in cards_in(m, "discard")
    assert "杀 ♠8" not in cards_in(m, "hand", 1)


def test_tiandu_only_his_own_judgements():
    """天妒: another player's judge card is not his to take."""
    m = table(5, generals={1: "郭嘉"}, hands={1: []}, judging={2: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠8"] + FILL, current=2, phase="judge")
    assert not asked(m, "confirm", 1, "天妒")
    assert "杀 ♠8" in cards_in(m, "discard")


def test_yiji_gives_the_top_two_cards_to_any_players():
    """遗计: for 1 damage, 郭嘉 looks at the top 2 cards and gives them to any players (himself included)."""
    m = table(5, generals={1: "郭嘉"}, hands={0: ["杀 ♠7"], 1: []},
              deck=["桃 ♥3", "桃 ♥4"] + FILL)
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 1, "遗计")
    act(m, "yes")
    assert sorted(cards_in(m, "peek", 1)) == ["桃 ♥3", "桃 ♥4"]
    act(m, "card", "桃 ♥3")
    act(m, "player", player=1)
    act(m, "card", "桃 ♥4")
    act(m, "player", player=3)
    assert cards_in(m, "hand", 1) == ["桃 ♥3"]
    assert cards_in(m, "hand", 3) == ["桃 ♥4"]
    assert cards_in(m, "deck") == FILL


def test_yiji_once_for_each_point_of_damage():
    """遗计: 2 damage (a 裸衣 杀) give him two rounds of 2 cards."""
    m = table(5, generals={0: "许褚", 1: "郭嘉"}, hands={0: ["杀 ♠7"], 1: []},
              deck=["闪 ♦4", "桃 ♥3", "桃 ♥4", "闪 ♦2", "闪 ♦3"] + FILL, phase="draw")
    act(m, "yes")                           # 裸衣: draws 闪 ♦4 only
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 2
    for _ in range(2):
        act(m, "yes")
        for _ in range(2):
            act(m, "card", cards_in(m, "peek", 1)[0])
            act(m, "player", player=1)
    assert hand(m, 1) == sorted(["桃 ♥3", "桃 ♥4", "闪 ♦2", "闪 ♦3"])
    assert cards_in(m, "deck") == FILL


def test_yiji_can_be_declined():
    """遗计 is optional: declined, the deck is untouched."""
    m = table(5, generals={1: "郭嘉"}, hands={0: ["杀 ♠7"], 1: []}, deck=FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "no")
    assert cards_in(m, "deck") == FILL
    assert cards_in(m, "hand", 1) == []


# ============================================================== 甄姬 =====

def test_luoshen_keeps_black_cards_until_a_red_one():
    """洛神: at turn start judge; keep each black card and judge again; stop at the first red."""
    m = table(5, generals={0: "甄姬"}, hands={0: []},
              deck=["杀 ♠8", "杀 ♣8", "桃 ♥3"] + FILL, phase="start")
    for _ in range(3):
        assert asked(m, "confirm", 0, "洛神")
        act(m, "yes")
    # the red 桃 ended it: discarded; then the draw phase drew 2
    assert "桃 ♥3" in cards_in(m, "discard")
    assert hand(m, 0) == sorted(["杀 ♠8", "杀 ♣8"] + FILL[:2])
    assert asked(m, "play", 0)


def test_luoshen_may_stop_after_a_black_card():
    """洛神: repeating is optional — she may stop after a black card."""
    m = table(5, generals={0: "甄姬"}, hands={0: []}, deck=["杀 ♠8", "杀 ♣8"] + FILL,
              phase="start")
    act(m, "yes")
    act(m, "no")
    assert hand(m, 0) == sorted(["杀 ♠8", "杀 ♣8", FILL[0]])


def test_luoshen_can_be_declined():
    """洛神 is optional: declined, no judgement."""
    m = table(5, generals={0: "甄姬"}, hands={0: []}, deck=["杀 ♠8", "杀 ♣8"] + FILL,
              phase="start")
    act(m, "no")
    assert hand(m, 0) == ["杀 ♠8", "杀 ♣8"]
    assert cards_in(m, "discard") == []


def test_qingguo_black_hand_card_as_jink():
    """倾国: 甄姬 may play any black hand card as a 闪."""
    m = table(5, generals={1: "甄姬"}, hands={0: ["杀 ♠7"], 1: ["过河拆桥 ♣3", "桃 ♥3"]})
    use(m, "杀 ♠7", target=1)
    assert not can(m, "倾国", ["桃 ♥3"])
    act(m, "倾国", "过河拆桥 ♣3")
    assert hp(m, 1) == 4
    assert cards_in(m, "hand", 1) == ["桃 ♥3"]


def test_qingguo_not_with_an_equipped_card():
    """倾国 uses hand cards only: an equipped black weapon is not a 闪."""
    m = table(5, generals={1: "甄姬"}, hands={0: ["杀 ♠7"], 1: []}, equips={1: ["青釭剑 ♠6"]})
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3


def test_qingguo_not_as_slash():
    """倾国 gives only 闪: a black card cannot answer a 决斗."""
    m = table(5, generals={1: "甄姬"}, hands={0: ["决斗 ♠A"], 1: ["过河拆桥 ♣3"]})
    use(m, "决斗 ♠A", target=1)
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["过河拆桥 ♣3"]


def test_qingguo_answers_arrow_barrage():
    """倾国 also answers 万箭齐发, which asks for 闪."""
    m = table(5, generals={1: "甄姬"}, hands={0: ["万箭齐发 ♥A"], 1: ["杀 ♣5"]})
    use(m, "万箭齐发 ♥A")
    act(m, "倾国", "杀 ♣5")
    assert hp(m, 1) == 4
    assert [hp(m, p) for p in (2, 3, 4)] == [3, 3, 3]


# ============================================================== 刘备 =====

def rende(m, card, to):
    act(m, "仁德", card)
    act(m, "player", player=to)


def test_rende_gives_hand_cards_and_two_recover_one():
    """仁德: give hand cards to others; when 2 have been given this phase, recover 1 HP."""
    m = table(5, generals={0: "刘备"}, hands={0: ["杀 ♠7", "闪 ♦2", "桃 ♥3"]}, hp={0: 2},
              max_hp={0: 4})
    rende(m, "杀 ♠7", 1)
    assert hp(m, 0) == 2
    rende(m, "闪 ♦2", 2)
    assert hp(m, 0) == 3
    assert cards_in(m, "hand", 1) == ["杀 ♠7"] and cards_in(m, "hand", 2) == ["闪 ♦2"]
    assert cards_in(m, "hand", 0) == ["桃 ♥3"]


def test_rende_recovers_only_once_per_phase():
    """仁德: only the first time the total reaches 2 — a 3rd and 4th card heal nothing more."""
    m = table(5, generals={0: "刘备"}, hands={0: ["杀 ♠7", "闪 ♦2", "桃 ♥3", "桃 ♥4"]},
              hp={0: 1}, max_hp={0: 4})
    for c in ["杀 ♠7", "闪 ♦2", "桃 ♥3", "桃 ♥4"]:
        rende(m, c, 1)
    assert hp(m, 0) == 2
    assert len(cards_in(m, "hand", 1)) == 4


def test_rende_one_card_heals_nothing():
    """仁德: one card given is not enough to recover."""
    m = table(5, generals={0: "刘备"}, hands={0: ["杀 ♠7", "闪 ♦2"]}, hp={0: 2}, max_hp={0: 4})
    rende(m, "杀 ♠7", 1)
    assert hp(m, 0) == 2
    assert can(m, "仁德", ["闪 ♦2"])


def test_rende_only_to_other_players():
    """仁德: the cards go to other players, never to 刘备 himself."""
    m = table(5, generals={0: "刘备"}, hands={0: ["杀 ♠7"]})
    act(m, "仁德", "杀 ♠7")
    assert {a.player for a in m.legal_actions()} == {1, 2, 3, 4}


def test_jijiang_shu_player_plays_slash_for_the_lord():
    """激将 (lord): in his play phase 刘备 may have another 蜀 player play a 杀 he uses on his target."""
    m = table(5, generals={0: "刘备", 2: "张飞"}, hands={0: [], 1: [], 2: ["杀 ♠8"]})
    act(m, "激将")
    act(m, "player", player=1)
    assert asked(m, "help_lord", 2)
    act(m, "card", "杀 ♠8")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 2) == []


def test_jijiang_slash_counts_as_his_slash_this_phase():
    """激将: the 杀 played for him is his one 杀 of the phase."""
    m = table(5, generals={0: "刘备", 2: "张飞"}, hands={0: ["杀 ♠7"], 1: [], 2: ["杀 ♠8"]})
    act(m, "激将")
    act(m, "player", player=1)
    act(m, "card", "杀 ♠8")
    assert not can(m, "use", ["杀 ♠7"])
    assert not can(m, "激将")


def test_jijiang_refused_leaves_his_slash_unused():
    """激将: if no 蜀 player plays a 杀, nothing is used and 刘备 may still use his own 杀."""
    m = table(5, generals={0: "刘备", 2: "张飞"}, hands={0: ["杀 ♠7"], 1: [], 2: ["杀 ♠8"]})
    act(m, "激将")
    act(m, "player", player=1)
    act(m, "pass")
    assert hp(m, 1) == 4
    assert asked(m, "play", 0)
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3


def test_jijiang_answers_a_duel():
    """激将: also when 刘备 must play a 杀 (a 决斗), another 蜀 player may play it — 关羽 with 武圣."""
    m = table(5, generals={0: "刘备", 1: "关羽"}, hands={0: [], 1: ["桃 ♥3"], 4: ["决斗 ♠A"]},
              current=4)
    use(m, "决斗 ♠A", target=0)
    act(m, "激将")
    assert asked(m, "help_lord", 1)
    act(m, "武圣", "桃 ♥3")
    # the duel goes on: 4 has no 杀 and takes the damage
    assert hp(m, 4) == 3 and hp(m, 0) == 4


def test_jijiang_answers_savage_assault_with_longdan():
    """激将: 赵云 may play a 闪 as 杀 (龙胆) for the lord against 南蛮入侵."""
    m = table(5, generals={0: "刘备", 1: "赵云"}, hands={0: [], 1: ["闪 ♦2"], 4: ["南蛮入侵 ♠7"]},
              current=4)
    use(m, "南蛮入侵 ♠7")
    pass_until(m, "respond", 0)
    act(m, "激将")
    act(m, "龙胆", "闪 ♦2")
    assert hp(m, 0) == 4
    assert cards_in(m, "hand", 1) == []


def test_jijiang_slash_is_the_allys_card():
    """激将: the 杀 used is the card the 蜀 player played — 曹操 hit by it may take it with 奸雄."""
    m = table(5, generals={0: "刘备", 1: "曹操", 2: "张飞"}, hands={0: [], 1: [], 2: ["杀 ♠8"]})
    act(m, "激将")
    act(m, "player", player=1)
    act(m, "card", "杀 ♠8")
    assert hp(m, 1) == 3
    assert asked(m, "confirm", 1, "奸雄")
    act(m, "yes")
    assert cards_in(m, "hand", 1) == ["杀 ♠8"]


def test_jijiang_unanswered_lord_may_still_play_his_own_slash():
    """激将: the 蜀 players 'may' play for him; if none does, 刘备 still may play his own 杀 in the 决斗."""
    m = table(5, generals={0: "刘备", 1: "关羽"}, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"], 4: ["决斗 ♠A"]},
              current=4)
    use(m, "决斗 ♠A", target=0)
    act(m, "激将")
    act(m, "pass")
    assert asked(m, "respond", 0)
    act(m, "card", "杀 ♠7")
    assert hp(m, 0) == 4 and hp(m, 4) == 3


def test_jijiang_only_for_the_lord():
    """激将 is a lord skill: 刘备 as a loyalist has no 激将."""
    m = table(5, generals={1: "刘备", 2: "张飞"}, hands={1: [], 2: ["杀 ♠8"]}, current=1)
    assert not can(m, "激将")


def test_jijiang_not_offered_without_shu_allies():
    """激将: with no other 蜀 player there is nobody to ask."""
    m = table(5, generals={0: "刘备", 2: "曹操"}, hands={0: [], 2: ["杀 ♠8"]})
    assert not can(m, "激将")


def test_jijiang_only_asks_shu_players():
    """激将: a 魏 player with a 杀 is not asked."""
    m = table(5, generals={0: "刘备", 1: "张辽", 2: "张飞"},
              hands={0: [], 1: ["杀 ♠7"], 2: []})
    act(m, "激将")
    act(m, "player", player=1)
    assert hp(m, 1) == 4
    assert cards_in(m, "hand", 1) == ["杀 ♠7"]
    assert asked(m, "play", 0)


# ============================================================== 关羽 =====

def test_wusheng_red_hand_card_used_as_slash():
    """武圣: 关羽 may use any red card as 杀."""
    m = table(5, generals={0: "关羽"}, hands={0: ["桃 ♥3", "过河拆桥 ♣3"], 1: []})
    assert not can(m, "武圣", ["过河拆桥 ♣3"])
    use(m, "桃 ♥3", target=1, option="武圣")
    assert hp(m, 1) == 3
    assert cards_in(m, "discard") == ["桃 ♥3"]


def test_wusheng_equipped_red_card_used_as_slash():
    """武圣: the red card may be an equipped one."""
    m = table(5, generals={0: "关羽"}, hands={0: []}, equips={0: ["爪黄飞电 ♥K"]})
    use(m, "爪黄飞电 ♥K", target=1, option="武圣")
    assert hp(m, 1) == 3
    assert cards_in(m, "plus_horse", 0) == []


def test_wusheng_slash_counts_for_the_one_slash_limit():
    """武圣: a red card used as 杀 is still his one 杀 of the phase."""
    m = table(5, generals={0: "关羽"}, hands={0: ["桃 ♥3", "杀 ♠7"], 1: []})
    use(m, "桃 ♥3", target=1, option="武圣")
    assert not can(m, "use", ["杀 ♠7"])
    assert not can(m, "武圣")


def test_wusheng_red_card_played_against_a_duel():
    """武圣: a red card may also be played as 杀 when answering (a 决斗)."""
    m = table(5, generals={1: "关羽"}, hands={0: ["决斗 ♠A"], 1: ["闪 ♦2"]})
    use(m, "决斗 ♠A", target=1)
    act(m, "武圣", "闪 ♦2")
    assert hp(m, 0) == 3 and hp(m, 1) == 4


def test_wusheng_equipped_red_card_answers_savage_assault():
    """武圣: an equipped red card may be played as 杀 against 南蛮入侵."""
    m = table(5, generals={1: "关羽"}, hands={0: ["南蛮入侵 ♠7"], 1: []},
              equips={1: ["赤兔 ♥5"]})
    use(m, "南蛮入侵 ♠7")
    act(m, "武圣", "赤兔 ♥5")
    assert hp(m, 1) == 4
    assert cards_in(m, "minus_horse", 1) == []


def test_wusheng_weapon_used_as_slash_does_not_lend_its_range():
    """武圣: 关羽 using his red weapon (麒麟弓, range 5) as 杀 has range 1 for that 杀."""
    m = table(5, generals={0: "关羽"}, hands={0: []}, equips={0: ["麒麟弓 ♥5"]})
    act(m, "武圣", "麒麟弓 ♥5")
    assert {a.player for a in m.legal_actions()} == {1, 4}


# ============================================================== 张飞 =====

def test_paoxiao_any_number_of_slashes():
    """咆哮: 张飞 may use any number of 杀 in his play phase."""
    m = table(5, generals={0: "张飞"}, hands={0: ["杀 ♠7", "杀 ♠8", "杀 ♠9"], 1: [], 4: []})
    use(m, "杀 ♠7", target=1)
    use(m, "杀 ♠8", target=1)
    use(m, "杀 ♠9", target=4)
    assert hp(m, 1) == 2 and hp(m, 4) == 3


def test_without_paoxiao_one_slash():
    """咆哮 is his: another general (关羽) still has one 杀 per phase."""
    m = table(5, generals={0: "关羽"}, hands={0: ["杀 ♠7", "杀 ♠8"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert not can(m, "use", ["杀 ♠8"])


# ============================================================== 诸葛亮 =====

GX = ["杀 ♠7", "杀 ♠8", "杀 ♠9", "杀 ♠10", "杀 ♣5", "杀 ♣6", "杀 ♣7"]


def test_guanxing_sees_five_cards_with_five_players():
    """观星: with 5 living players he looks at the top 5 cards."""
    m = table(5, generals={0: "诸葛亮"}, hands={0: []}, deck=GX, phase="start")
    assert asked(m, "confirm", 0, "观星")
    act(m, "yes")
    assert sorted(cards_in(m, "peek", 0)) == sorted(GX[:5])
    assert cards_in(m, "deck") == GX[5:]


def test_guanxing_at_most_five_cards():
    """观星: X is the number of living players but at most 5 (7 players → 5)."""
    m = table(7, generals={0: "诸葛亮"}, hands={0: []}, deck=GX + FILL, phase="start")
    act(m, "yes")
    assert len(cards_in(m, "peek", 0)) == 5


def test_guanxing_counts_only_living_players():
    """观星: X counts living players — 5 seats with 2 dead → 3 cards."""
    m = table(5, generals={0: "诸葛亮"}, hands={0: []}, deck=GX, phase="start", out=[2, 3])
    act(m, "yes")
    assert sorted(cards_in(m, "peek", 0)) == sorted(GX[:3])


def test_guanxing_arranges_top_and_bottom():
    """观星: he puts the cards back on top or at the bottom in any order; the draw phase draws his choice."""
    m = table(5, generals={0: "诸葛亮"}, hands={0: []}, deck=GX, phase="start")
    act(m, "yes")
    act(m, "bottom", "杀 ♠7")
    act(m, "bottom", "杀 ♠8")
    act(m, "bottom", "杀 ♠9")
    act(m, "top", "杀 ♣5")
    act(m, "top", "杀 ♠10")        # the last put on top is drawn first
    assert hand(m, 0) == sorted(["杀 ♠10", "杀 ♣5"])
    assert cards_in(m, "deck") == ["杀 ♣6", "杀 ♣7", "杀 ♠7", "杀 ♠8", "杀 ♠9"]


def test_guanxing_can_be_declined():
    """观星 is optional: declined, the deck order is kept."""
    m = table(5, generals={0: "诸葛亮"}, hands={0: []}, deck=GX, phase="start")
    act(m, "no")
    assert hand(m, 0) == sorted(GX[:2])
    assert cards_in(m, "deck") == GX[2:]


def test_guanxing_before_the_judgement():
    """观星 comes at turn start, before the judge phase: a ♥ put on top saves him from 乐不思蜀."""
    m = table(5, generals={0: "诸葛亮"}, hands={0: []}, judging={0: ["乐不思蜀 ♠6"]},
              deck=["杀 ♠7", "杀 ♠8", "桃 ♥3", "杀 ♠9", "杀 ♠10"] + FILL, phase="start")
    act(m, "yes")
    for c in ["杀 ♠7", "杀 ♠8", "杀 ♠9", "杀 ♠10"]:
        act(m, "bottom", c)
    act(m, "top", "桃 ♥3")
    assert asked(m, "play", 0)
    assert "桃 ♥3" in cards_in(m, "discard")


def test_kongcheng_no_slash_or_duel_without_hand_cards():
    """空城: with no hand cards 诸葛亮 cannot be chosen as target of 杀 or 决斗."""
    m = table(5, generals={1: "诸葛亮"}, hands={0: ["杀 ♠7", "决斗 ♠A"], 1: []})
    act(m, "use", "杀 ♠7")
    assert 1 not in {a.player for a in m.legal_actions()}
    m = table(5, generals={1: "诸葛亮"}, hands={0: ["杀 ♠7", "决斗 ♠A"], 1: []})
    act(m, "use", "决斗 ♠A")
    assert 1 not in {a.player for a in m.legal_actions()}


def test_kongcheng_slash_unusable_when_he_is_the_only_target():
    """空城: a 杀 whose only player in range is an empty-handed 诸葛亮 cannot be used."""
    m = table(4, generals={1: "诸葛亮"}, hands={0: ["杀 ♠7"], 1: []},
              equips={3: ["的卢 ♣5"]})
    assert not can(m, "use", ["杀 ♠7"])


def test_kongcheng_ends_with_a_hand_card():
    """空城: holding a hand card, 诸葛亮 can be targeted as usual."""
    m = table(5, generals={1: "诸葛亮"}, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]})
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3


def test_kongcheng_not_against_other_cards():
    """空城 protects only from 杀 and 决斗: 过河拆桥 on his equipment and 南蛮入侵 still reach him."""
    m = table(5, generals={1: "诸葛亮"}, hands={0: ["过河拆桥 ♠3", "南蛮入侵 ♠7"], 1: []},
              equips={1: ["赤兔 ♥5"]})
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "card", "赤兔 ♥5")
    assert cards_in(m, "minus_horse", 1) == []
    use(m, "南蛮入侵 ♠7")
    assert hp(m, 1) == 3


# ============================================================== 赵云 =====

def test_longdan_jink_used_as_slash():
    """龙胆: 赵云 may use a 闪 as 杀 in his play phase."""
    m = table(5, generals={0: "赵云"}, hands={0: ["闪 ♦2"], 1: []})
    use(m, "闪 ♦2", target=1, option="龙胆")
    assert hp(m, 1) == 3
    assert cards_in(m, "discard") == ["闪 ♦2"]


def test_longdan_slash_counts_for_the_one_slash_limit():
    """龙胆: a 闪 used as 杀 is his one 杀 of the phase."""
    m = table(5, generals={0: "赵云"}, hands={0: ["闪 ♦2", "杀 ♠7"], 1: []})
    use(m, "闪 ♦2", target=1, option="龙胆")
    assert not can(m, "use", ["杀 ♠7"])
    assert not can(m, "龙胆")


def test_longdan_slash_played_as_jink():
    """龙胆: 赵云 may play a 杀 as 闪."""
    m = table(5, generals={1: "赵云"}, hands={0: ["杀 ♠7"], 1: ["杀 ♠8"]})
    use(m, "杀 ♠7", target=1)
    act(m, "龙胆", "杀 ♠8")
    assert hp(m, 1) == 4


def test_longdan_jink_played_as_slash_in_a_duel():
    """龙胆: 赵云 may play a 闪 as 杀 to answer a 决斗."""
    m = table(5, generals={1: "赵云"}, hands={0: ["决斗 ♠A"], 1: ["闪 ♦2"]})
    use(m, "决斗 ♠A", target=1)
    act(m, "龙胆", "闪 ♦2")
    assert hp(m, 0) == 3 and hp(m, 1) == 4


def test_longdan_only_swaps_slash_and_jink():
    """龙胆: other cards are not 闪 (a 桃 cannot answer a 杀)."""
    m = table(5, generals={1: "赵云"}, hands={0: ["杀 ♠7"], 1: ["桃 ♥3", "杀 ♠8"]})
    use(m, "杀 ♠7", target=1)
    assert not can(m, "龙胆", ["桃 ♥3"])
    assert not can(m, "card", ["杀 ♠8"])


# ============================================================== 马超 =====

def test_mashu_reaches_one_seat_further():
    """马术: 马超's distance to others is −1: with range 1 he reaches a player 2 seats away."""
    m = table(5, generals={0: "马超"}, hands={0: ["杀 ♠7"], 2: []})
    use(m, "杀 ♠7", target=2)
    act(m, "no")                         # 铁骑
    assert hp(m, 2) == 3


def test_mashu_limit_with_a_plus_horse():
    """马术: −1 only: a player 2 seats away with a +1 horse (distance 2) is out of his range."""
    m = table(5, generals={0: "马超"}, hands={0: ["杀 ♠7"]}, equips={2: ["的卢 ♣5"]})
    act(m, "use", "杀 ♠7")
    assert {a.player for a in m.legal_actions()} == {1, 3, 4}


def test_mashu_only_his_own_distance():
    """马术 shortens his distance to others, not others' distance to him."""
    m = table(5, generals={0: "马超"}, hands={2: ["杀 ♠7"]}, current=2)
    act(m, "use", "杀 ♠7")
    assert 0 not in {a.player for a in m.legal_actions()}


def test_mashu_counts_for_steal_too():
    """马术: his distance is shorter for every card — 顺手牵羊 reaches a player 2 seats away."""
    m = table(5, generals={0: "马超"}, hands={0: ["顺手牵羊 ♠3"], 2: ["桃 ♥3"]})
    use(m, "顺手牵羊 ♠3", target=2)
    act(m, "hand")
    assert cards_in(m, "hand", 0) == ["桃 ♥3"]


def test_tieqi_red_judgement_no_jink():
    """铁骑: after he aims a 杀, 马超 may judge; on red the target cannot use 闪."""
    m = table(5, generals={0: "马超"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["桃 ♥3"] + FILL)
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 0, "铁骑")
    act(m, "yes")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["闪 ♦2"]


def test_tieqi_black_judgement_jink_allowed():
    """铁骑: on black the target may still use 闪."""
    m = table(5, generals={0: "马超"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["杀 ♣5"] + FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    act(m, "card", "闪 ♦2")
    assert hp(m, 1) == 4


def test_tieqi_can_be_declined():
    """铁骑 is optional: declined, no judgement; the target may use 闪."""
    m = table(5, generals={0: "马超"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["桃 ♥3"] + FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "no")
    act(m, "card", "闪 ♦2")
    assert hp(m, 1) == 4
    assert cards_in(m, "deck")[0] == "桃 ♥3"


# ============================================================== 黄月英 =====

def test_jizhi_draws_after_a_trick():
    """集智: after using a non-delayed trick, 黄月英 may draw 1 (with 无中生有: 3 in all)."""
    m = table(5, generals={0: "黄月英"}, hands={0: ["无中生有 ♥7"]}, deck=FILL)
    use(m, "无中生有 ♥7")
    assert asked(m, "confirm", 0, "集智")
    act(m, "yes")
    assert len(cards_in(m, "hand", 0)) == 3
    assert cards_in(m, "deck") == FILL[3:]


def test_jizhi_can_be_declined():
    """集智 is optional."""
    m = table(5, generals={0: "黄月英"}, hands={0: ["无中生有 ♥7"]}, deck=FILL)
    use(m, "无中生有 ♥7")
    act(m, "no")
    assert len(cards_in(m, "hand", 0)) == 2


def test_jizhi_draws_even_when_the_trick_is_nullified():
    """集智 triggers on using the trick: a 无懈可击 against it does not take the draw away."""
    m = table(5, generals={0: "黄月英"}, hands={0: ["过河拆桥 ♠3"], 1: ["桃 ♥3"],
                                               2: ["无懈可击 ♠J"]}, deck=FILL)
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "yes")
    assert cards_in(m, "hand", 0) == FILL[:1]
    act(m, "card", "无懈可击 ♠J")
    assert cards_in(m, "hand", 1) == ["桃 ♥3"]


def test_jizhi_not_for_delayed_tricks():
    """集智: a delayed trick (乐不思蜀) draws nothing."""
    m = table(5, generals={0: "黄月英"}, hands={0: ["乐不思蜀 ♠6", "杀 ♠7"]}, deck=FILL)
    use(m, "乐不思蜀 ♠6", target=2)
    assert not asked(m, "confirm", 0, "集智")
    assert cards_in(m, "judging", 2) == ["乐不思蜀 ♠6"]
    assert cards_in(m, "hand", 0) == ["杀 ♠7"]


def test_jizhi_on_nullification():
    """集智: 无懈可击 is a non-delayed trick too — using one draws 1."""
    m = table(5, generals={1: "黄月英"}, hands={0: ["过河拆桥 ♠3"], 1: ["桃 ♥3", "无懈可击 ♠J"]},
              deck=FILL)
    use(m, "过河拆桥 ♠3", target=1)
    act(m, "card", "无懈可击 ♠J")
    assert asked(m, "confirm", 1, "集智")
    act(m, "yes")
    assert hand(m, 1) == sorted(["桃 ♥3", FILL[0]])


def test_qicai_steals_at_any_distance():
    """奇才: 黄月英's 顺手牵羊 has no distance limit."""
    m = table(5, generals={0: "黄月英"}, hands={0: ["顺手牵羊 ♠3"], 2: ["桃 ♥3"]}, deck=FILL)
    use(m, "顺手牵羊 ♠3", target=2)
    act(m, "no")                         # 集智
    act(m, "hand")
    assert cards_in(m, "hand", 0) == ["桃 ♥3"]


def test_without_qicai_steal_needs_distance_one():
    """奇才 is hers: another general cannot 顺手牵羊 a player at distance 2."""
    m = table(5, generals={0: "赵云"}, hands={0: ["顺手牵羊 ♠3"], 1: ["闪 ♦2"], 2: ["桃 ♥3"]})
    act(m, "use", "顺手牵羊 ♠3")
    assert {a.player for a in m.legal_actions()} == {1}


# ============================================================== HP and the lord's bonus =====

HP = {"曹操": 4, "司马懿": 3, "夏侯惇": 4, "张辽": 4, "许褚": 4, "郭嘉": 3, "甄姬": 3,
      "刘备": 4, "关羽": 4, "张飞": 4, "诸葛亮": 3, "赵云": 4, "马超": 4, "黄月英": 3}


def test_general_cards_carry_their_hp_and_kingdom():
    """The 14 魏/蜀 generals: 司马懿, 郭嘉, 甄姬, 诸葛亮, 黄月英 have 3 HP, the others 4."""
    props = {c.name: c.props for c in game().cards if c.props.get("type") == "general"}
    assert {n: props[n]["hp"] for n in HP} == HP
    assert {n for n in HP if props[n]["kingdom"] == "魏"} == {
        "曹操", "司马懿", "夏侯惇", "张辽", "许褚", "郭嘉", "甄姬"}
    assert {n for n in HP if props[n]["kingdom"] == "蜀"} == set(HP) - {
        "曹操", "司马懿", "夏侯惇", "张辽", "许褚", "郭嘉", "甄姬"}


def started(players, seed, wanted=()):
    """A new match with every general choice answered: a general from ``wanted`` when offered."""
    m = game().new_match(players, seed=seed)
    while m.decision is not None and m.decision.choice == "pick_general":
        names = {a: m.card(a.cards[0]).name for a in m.legal_actions()}
        pick = [a for a, n in names.items() if n in wanted] or list(names)
        m.apply(pick[0])
    return m


def general_of(m, p):
    cards = m.zone("general", p).cards
    return cards[-1].name if cards else None


@pytest.mark.parametrize("players", [4, 5])
def test_setup_hp_is_the_generals_hp_and_the_lord_gets_one_more(players):
    """Each player's HP is their general's; the lord gets +1 with more than 4 players (not with 4)."""
    unseen = set(HP)
    lord_bonus_seen = set()
    for seed in range(40):
        m = started(players, seed, wanted=unseen)
        for p in m.players:
            g = general_of(m, p)
            assert g is not None, f"seed {seed}: player {p} has no general"
            base = next(c.props["hp"] for c in game().cards if c.name == g)
            is_lord = m.pvars[p]["role"] == "主公"
            bonus = 1 if is_lord and players > 4 else 0
            assert m.pvars[p]["max_hp"] == m.pvars[p]["hp"] == base + bonus, (seed, p, g)
            if g in HP:
                assert base == HP[g]
            unseen.discard(g)
            if is_lord:
                lord_bonus_seen.add(base)
    assert not unseen, f"never dealt: {unseen}"
    assert lord_bonus_seen >= {4}


@pytest.mark.parametrize("players,want", [(4, 3), (5, 4)])
def test_three_hp_general_as_lord(players, want):
    """Rulebook: a 3-HP general as lord has 4 HP (+1), except in a 4-player game."""
    three = {n for n, v in HP.items() if v == 3}
    for seed in range(60):
        m = started(players, seed, wanted=three)
        lord = next(p for p in m.players if m.pvars[p]["role"] == "主公")
        if general_of(m, lord) in three:
            assert m.pvars[lord]["hp"] == m.pvars[lord]["max_hp"] == want
            return
    pytest.fail("no seed offered the lord a 3-HP 魏/蜀 general")


@pytest.mark.parametrize("players,lord_hp", [(4, 4), (5, 5), (8, 5)])
def test_lord_bonus_hp_without_generals(players, lord_hp):
    """Without generals everyone has 4 HP; the lord +1 with more than 4 players."""
    for seed in range(3):
        m = game().new_match(players, seed=seed, options={"generals": False})
        for p in m.players:
            want = lord_hp if m.pvars[p]["role"] == "主公" else 4
            assert m.pvars[p]["hp"] == m.pvars[p]["max_hp"] == want
