"""武林杀: the heroes of 名门 and 官府 (heroes/名门.yaml, heroes/官府.yaml), one
scenario per skill clause.

Seats in a 5-player table: 0 盟主, 1 护卫, 2 刺客, 3 刺客, 4 奸细; seat 0 is at
distance 1 from seats 1 and 4 and at distance 2 from seats 2 and 3.
"""
from __future__ import annotations

from wulinsha_kit import FILL, act, asked, can, cards_in, hand, neili, pass_until, table, use

# ============================================================ 赵王爷 =====

def test_quanmou_takes_the_attack_that_hurt_him():
    """权谋: after taking damage, 赵王爷 may take the card that caused it."""
    m = table(5, heroes={1: "赵王爷"}, hands={0: ["杀 ♠7"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 1, "权谋")
    act(m, "yes")
    assert neili(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["杀 ♠7"]
    assert cards_in(m, "discard") == []


def test_quanmou_declined_leaves_the_card_discarded():
    m = table(5, heroes={1: "赵王爷"}, hands={0: ["杀 ♠7"], 1: []})
    use(m, "杀 ♠7", target=1)
    act(m, "no")
    assert cards_in(m, "hand", 1) == []
    assert cards_in(m, "discard") == ["杀 ♠7"]


# ============================================================ 洪统帅 =====

def test_tunbing_draws_three_and_turns_the_hero_over():
    """屯兵: at the end phase, draw 3 and turn the hero face down; the next turn is skipped."""
    m = table(5, heroes={0: "洪统帅"}, hands={0: []}, deck=FILL, phase="finish")
    assert asked(m, "confirm", 0, "屯兵")
    act(m, "yes")
    assert len(cards_in(m, "hand", 0)) == 3
    assert m.pvars[0]["face_down"] is True
    assert m.current == 1


def test_tunbing_declined():
    m = table(5, heroes={0: "洪统帅"}, hands={0: []}, deck=FILL, phase="finish")
    act(m, "no")
    assert cards_in(m, "hand", 0) == [] and m.pvars[0]["face_down"] is False


# ============================================================ 魏将军 =====

def test_sizhan_widens_the_attack_range_by_the_neili_lost():
    """死战: with 2 内力 lost, seats at distance 2 and 3 are in reach (range 1 + 2)."""
    m = table(5, heroes={0: "魏将军"}, hands={0: ["杀 ♠7"]}, neili={0: 2}, max_neili={0: 4})
    act(m, "use", "杀 ♠7")
    assert can(m, "player", player=2) and can(m, "player", player=3)


def test_sizhan_range_unchanged_without_loss():
    m = table(5, heroes={0: "魏将军"}, hands={0: ["杀 ♠7"]})
    act(m, "use", "杀 ♠7")
    assert not can(m, "player", player=2)
    assert can(m, "player", player=1)


def test_sizhan_allows_x_extra_attacks():
    """死战: 1 内力 lost — two 杀 in the play phase, not three."""
    m = table(5, heroes={0: "魏将军"}, hands={0: ["杀 ♠7", "杀 ♠8", "杀 ♠9"]},
              neili={0: 3}, max_neili={0: 4}, deck=FILL)
    use(m, "杀 ♠7", target=1)
    pass_until(m, "play")
    use(m, "杀 ♠8", target=1)
    pass_until(m, "play")
    assert neili(m, 1) == 2
    assert not can(m, "use", ["杀 ♠9"])


# ============================================================ 曹督公 =====

def test_zhaoyu_another_draws_the_neili_lost_and_turns_over():
    """诏狱: damaged to 1 of 3, 曹督公 has 2 lost: the chosen player draws 2 and turns over."""
    m = table(5, heroes={1: "曹督公"}, hands={0: ["杀 ♠7"], 1: []}, neili={1: 2},
              max_neili={1: 3}, deck=FILL)
    use(m, "杀 ♠7", target=1)
    assert asked(m, "pick_player_or_stop", 1)
    act(m, "player", player=3)
    assert len(cards_in(m, "hand", 3)) == 2
    assert m.pvars[3]["face_down"] is True


def test_zhaoyu_may_stop():
    m = table(5, heroes={1: "曹督公"}, hands={0: ["杀 ♠7"], 1: []}, deck=FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "done")
    assert all(not m.pvars[p]["face_down"] for p in range(5))


# ============================================================ 铁捕头 =====

def test_zhuicha_wrong_suit_costs_one_neili():
    """追查: the target names ♥, takes a ♠ card: 1 damage from 铁捕头."""
    m = table(5, heroes={0: "铁捕头"}, hands={0: ["杀 ♠7"]})
    act(m, "追查")
    act(m, "player", player=2)
    act(m, "红桃")
    assert cards_in(m, "hand", 2) == ["杀 ♠7"]
    assert neili(m, 2) == 3


def test_zhuicha_right_suit_no_damage_and_once_per_phase():
    """追查: the suit named right, no damage; and only once in a play phase."""
    m = table(5, heroes={0: "铁捕头"}, hands={0: ["杀 ♠7"]}, deck=FILL)
    act(m, "追查")
    act(m, "player", player=2)
    act(m, "黑桃")
    assert cards_in(m, "hand", 2) == ["杀 ♠7"] and neili(m, 2) == 4
    assert not can(m, "追查")


# ============================================================ 玉小姐 =====

def test_daojian_swaps_equipment_of_the_same_slot():
    """盗剑: 玉小姐's hand weapon replaces player 2's weapon, which comes to her hand."""
    m = table(5, heroes={0: "玉小姐"}, hands={0: ["峨眉刺 ♣A"]}, equips={2: ["倚天剑 ♠6"]})
    assert can(m, "盗剑", ["峨眉刺 ♣A"])
    act(m, "盗剑", "峨眉刺 ♣A")
    act(m, "player", player=2)
    assert cards_in(m, "weapon", 2) == ["峨眉刺 ♣A"]
    assert cards_in(m, "hand", 0) == ["倚天剑 ♠6"]
    assert not can(m, "盗剑", ["倚天剑 ♠6"])          # once per play phase


def test_daojian_needs_the_same_slot():
    m = table(5, heroes={0: "玉小姐"}, hands={0: ["峨眉刺 ♣A"]}, equips={2: ["金丝甲 ♠2"]})
    assert not can(m, "盗剑", ["峨眉刺 ♣A"])


def test_jianxin_draws_two_on_losing_equipment():
    """剑心: her equipped weapon dismantled, 玉小姐 may draw 2."""
    m = table(5, heroes={1: "玉小姐"}, hands={0: ["拆招 ♠3"], 1: []},
              equips={1: ["倚天剑 ♠6"]}, deck=FILL)
    use(m, "拆招 ♠3", target=1)
    pass_until(m, "take_card")
    act(m, "card", "倚天剑 ♠6")
    assert asked(m, "confirm", 1, "剑心")
    act(m, "yes")
    assert len(cards_in(m, "hand", 1)) == 2


# ============================================================ 陆指挥 =====

def test_tiqi_takes_a_hand_card_from_two_players_instead_of_drawing():
    m = table(5, heroes={0: "陆指挥"}, hands={0: [], 2: ["杀 ♠7"], 3: ["闪 ♦2"]},
              deck=FILL, phase="draw")
    assert asked(m, "confirm", 0, "缇骑")
    act(m, "yes")
    act(m, "player", player=2)
    act(m, "player", player=3)
    assert hand(m, 0) == ["杀 ♠7", "闪 ♦2"]
    assert len(cards_in(m, "deck")) == len(FILL)          # nothing drawn


def test_tiqi_declined_draws_two():
    m = table(5, heroes={0: "陆指挥"}, hands={0: [], 2: ["杀 ♠7"]}, deck=FILL, phase="draw")
    act(m, "no")
    assert len(cards_in(m, "hand", 0)) == 2 and cards_in(m, "hand", 2) == ["杀 ♠7"]


# ============================================================ 空镜大师 =====

def test_pudu_second_card_given_recovers_one():
    """普度: the second hand card given in a play phase recovers 1 内力, the third nothing."""
    m = table(5, heroes={0: "空镜大师"}, hands={0: ["杀 ♠7", "闪 ♦2", "杀 ♠8"]},
              neili={0: 2}, max_neili={0: 5})
    act(m, "普度", ["杀 ♠7"])
    act(m, "player", player=1)
    assert neili(m, 0) == 2
    act(m, "普度", ["闪 ♦2"])
    act(m, "player", player=2)
    assert neili(m, 0) == 3
    act(m, "普度", ["杀 ♠8"])
    act(m, "player", player=1)
    assert neili(m, 0) == 3
    assert hand(m, 1) == ["杀 ♠7", "杀 ♠8"] and hand(m, 2) == ["闪 ♦2"]


# ============================================================ 郭大侠 =====

def test_xianglong_one_dodge_does_not_cancel():
    """降龙: the target plays one 闪 and is still hit; with two it is not."""
    m = table(5, heroes={0: "郭大侠"}, hands={0: ["杀 ♠7", "杀 ♠8"], 1: ["闪 ♦2"]},
              player_vars={0: {}}, deck=FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "card", ["闪 ♦2"])
    assert neili(m, 1) == 3
    assert cards_in(m, "hand", 1) == []


def test_xianglong_two_dodges_cancel():
    m = table(5, heroes={0: "郭大侠"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2", "闪 ♦3"]}, deck=FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "card", ["闪 ♦2"])
    act(m, "card", ["闪 ♦3"])
    assert neili(m, 1) == 4


def test_xiazhidazhe_awakens_with_two_lost():
    """侠之大者: at the start phase with 2 内力 lost: 内力上限 5, 内力 3, and 守城."""
    m = table(5, heroes={0: "郭大侠"}, neili={0: 2}, max_neili={0: 4}, deck=FILL, phase="start")
    assert m.pvars[0]["内力上限"] == 5 and neili(m, 0) == 3
    assert "守城" in m.pvars[0]["skills"] and "侠之大者" in m.pvars[0]["used_once"]


def test_xiazhidazhe_not_with_one_lost():
    m = table(5, heroes={0: "郭大侠"}, neili={0: 3}, max_neili={0: 4}, deck=FILL, phase="start")
    assert m.pvars[0]["内力上限"] == 4 and "守城" not in m.pvars[0]["skills"]


def test_xiazhidazhe_awakens_only_once():
    """侠之大者: awakened, 郭大侠 still has 2 内力 lost at his next start phase (3 of 5),
    but the skill does not take effect again."""
    m = table(5, heroes={0: "郭大侠"}, neili={0: 2}, max_neili={0: 4}, phase="start",
              deck=[f"闪 ♦{r}" for r in (2, 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "J")]
              + ["杀 ♣8", "杀 ♣8", "杀 ♣9", "杀 ♣9"])
    assert m.pvars[0]["内力上限"] == 5 and neili(m, 0) == 3
    turns_seen = {}
    while True:                       # every player ends each phase until 郭大侠's next turn
        d = m.decision
        if d.choice == "play" and d.player == 0 and m.current == 0 and turns_seen.get("back"):
            break
        if m.current != 0:
            turns_seen["back"] = True
        if can(m, "end"):
            act(m, "end")
        elif can(m, "pass"):
            act(m, "pass")
        elif can(m, "no"):
            act(m, "no")
        else:
            m.apply(m.legal_actions()[0])
    assert m.pvars[0]["内力上限"] == 5 and neili(m, 0) == 3
    assert m.pvars[0]["skills"].count("守城") == 1


def test_shoucheng_takes_the_attack_on_a_neighbour():
    """守城: player 1 (at distance 1 from 0) is attacked by 2; 郭大侠 at 0 takes the 杀."""
    m = table(5, heroes={0: "郭大侠"}, hands={2: ["杀 ♠7"], 0: [], 1: []}, current=2,
              player_vars={0: {"skills": ["守城"]}}, equips={2: ["倚天剑 ♠6"]})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 0, "守城")
    act(m, "yes")
    assert neili(m, 0) == 3 and neili(m, 1) == 4


# ============================================================ 周掌门 =====

def test_baigu_discards_black_and_takes_a_card_in_range():
    m = table(5, heroes={0: "周掌门"}, hands={0: ["杀 ♠7", "闪 ♦2"]}, equips={1: ["金丝甲 ♠2"]})
    assert not can(m, "白骨", ["闪 ♦2"])              # a red card will not do
    act(m, "白骨", ["杀 ♠7"])
    act(m, "player", player=1)
    act(m, "card", ["金丝甲 ♠2"])
    assert hand(m, 0) == sorted(["闪 ♦2", "金丝甲 ♠2"])
    assert cards_in(m, "discard") == ["杀 ♠7"]
    assert not can(m, "白骨", ["金丝甲 ♠2"])         # once per play phase


def test_foguang_passes_the_attack_on():
    """佛光: 周掌门 (seat 1) discards a card and the 杀 of seat 0 goes to seat 2, at distance 1 from her."""
    m = table(5, heroes={1: "周掌门"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7", target=1)
    act(m, "card", ["闪 ♦2"])
    act(m, "player", player=2)
    assert neili(m, 2) == 3 and neili(m, 1) == 4
    assert sorted(cards_in(m, "discard")) == ["杀 ♠7", "闪 ♦2"]


# ============================================================ 王真人 =====

def test_xiantian_replaces_the_judge_card():
    """先天: 点穴 judged ♠ (skip play); 王真人 replaces it with ♥: the play phase is kept."""
    m = table(5, heroes={0: "王真人"}, hands={0: ["杀 ♥10"]}, judging={0: ["点穴 ♠6"]},
              deck=["杀 ♠7"] + FILL, phase="judge")
    act(m, "card", ["杀 ♥10"])
    pass_until(m, "play")
    assert m.decision is not None and m.decision.choice == "play" and m.current == 0
    assert "杀 ♠7" in cards_in(m, "discard")


def test_beidou_one_card_of_each_suit():
    m = table(5, heroes={0: "王真人"}, hands={0: []}, deck=["杀 ♠7", "杀 ♠8", "闪 ♦2"] + FILL,
              phase="draw")
    act(m, "yes")
    act(m, "card", ["杀 ♠8"])
    act(m, "card", ["闪 ♦2"])
    assert hand(m, 0) == ["杀 ♠8", "闪 ♦2"]
    assert cards_in(m, "discard") == ["杀 ♠7"]


# ============================================================ 黄帮主 =====

def test_jiqiao_draws_on_a_trick():
    m = table(5, heroes={0: "黄帮主"}, hands={0: ["拆招 ♠3"]}, equips={2: ["金丝甲 ♠2"]}, deck=FILL)
    use(m, "拆招 ♠3", target=2)
    assert asked(m, "confirm", 0, "机巧")
    act(m, "yes")
    assert len(cards_in(m, "hand", 0)) == 1


def test_miaosuan_steals_at_any_distance_but_attacks_in_range():
    m = table(5, heroes={0: "黄帮主"}, hands={0: ["妙手空空 ♠3", "杀 ♠7"], 2: ["闪 ♦2"]})
    act(m, "use", ["妙手空空 ♠3"])
    assert can(m, "player", player=2)
    m = table(5, heroes={0: "黄帮主"}, hands={0: ["杀 ♠7"], 2: ["闪 ♦2"]})
    act(m, "use", ["杀 ♠7"])
    assert not can(m, "player", player=2)


# ============================================================ 宋道长 =====

def test_taiji_takes_the_dodged_attack():
    """太极: 宋道长 cancels a 杀 with 闪 and may take the 杀."""
    m = table(5, heroes={1: "宋道长"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7", target=1)
    act(m, "card", ["闪 ♦2"])
    assert asked(m, "confirm", 1, "太极")
    act(m, "yes")
    assert cards_in(m, "hand", 1) == ["杀 ♠7"] and cards_in(m, "discard") == ["闪 ♦2"]


def test_taiji_not_when_hit():
    m = table(5, heroes={1: "宋道长"}, hands={0: ["杀 ♠7"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert not asked(m, "confirm", 1, "太极")
    assert neili(m, 1) == 3 and cards_in(m, "hand", 1) == []


# ============================================================ 令狐少侠 =====

def test_dugu_won_attacks_twice_at_any_distance():
    m = table(5, heroes={0: "令狐少侠"}, hands={0: ["杀 ♦K", "杀 ♠7", "杀 ♠8", "杀 ♠9"], 2: ["杀 ♣2"]},
              deck=FILL)
    act(m, "独孤")
    act(m, "player", player=2)
    act(m, "card", ["杀 ♦K"])
    act(m, "card", ["杀 ♣2"])
    use(m, "杀 ♠7", target=2)                 # distance 2
    pass_until(m, "play")
    use(m, "杀 ♠8", target=3)
    pass_until(m, "play")
    assert neili(m, 2) == 3 and neili(m, 3) == 3
    assert not can(m, "use", ["杀 ♠9"])


def test_dugu_lost_no_attack():
    m = table(5, heroes={0: "令狐少侠"}, hands={0: ["杀 ♣2", "杀 ♠7"], 1: ["杀 ♦K"]})
    act(m, "独孤")
    act(m, "player", player=1)
    act(m, "card", ["杀 ♣2"])
    act(m, "card", ["杀 ♦K"])
    assert not can(m, "use", ["杀 ♠7"])


def test_dugu_lost_no_attack_whatever_the_equipment():
    """本回合你不能使用【杀】: neither 峨眉刺 (unlimited 杀) nor 九节鞭 (two cards
    as 杀) gives the loser a 杀 (侠客技能 > 游戏牌效果)."""
    for weapon, option, cards in (("峨眉刺 ♣A", "use", ["杀 ♠7"]), ("九节鞭 ♠Q", "九节鞭", ["杀 ♠7", "闪 ♦3"])):
        m = table(5, heroes={0: "令狐少侠"}, hands={0: ["杀 ♣2", "杀 ♠7", "闪 ♦3"], 1: ["杀 ♦K"]},
                  equips={0: [weapon]})
        assert can(m, option, cards)
        act(m, "独孤")
        act(m, "player", player=1)
        act(m, "card", ["杀 ♣2"])
        act(m, "card", ["杀 ♦K"])
        assert not can(m, option, cards), weapon


# ============================================================ 段公子 =====

def test_liumai_red_judge_attacks_anyone_uncounted():
    m = table(5, heroes={0: "段公子"}, hands={0: ["杀 ♠7"]}, deck=["闪 ♦2"] + FILL)
    act(m, "六脉")
    act(m, "player", player=3)
    pass_until(m, "play")
    assert neili(m, 3) == 3
    assert can(m, "use", ["杀 ♠7"]) and not can(m, "六脉")


def test_liumai_black_judge_nothing():
    m = table(5, heroes={0: "段公子"}, deck=["杀 ♠8"] + FILL)
    act(m, "六脉")
    assert m.decision.choice == "play"
    assert all(neili(m, p) == 4 for p in range(5))


def test_lingbo_adds_one_to_distance():
    m = table(5, heroes={1: "段公子"}, hands={0: ["杀 ♠7"]})
    act(m, "use", ["杀 ♠7"])
    assert not can(m, "player", player=1) and can(m, "player", player=4)


# ============================================================ 盟主技 =====

def test_yingxiongtie_a_mingmen_hero_lends_a_slash_to_use():
    """英雄帖 (盟主): 空镜大师 uses a 杀 that 郭大侠 (名门) plays for him."""
    m = table(5, heroes={0: "空镜大师", 1: "郭大侠"}, hands={0: [], 1: ["杀 ♠7"]})
    act(m, "英雄帖")
    act(m, "player", player=4)
    assert asked(m, "help_lord", 1)
    act(m, "card", ["杀 ♠7"])
    pass_until(m, "play")
    assert neili(m, 4) == 3 and cards_in(m, "hand", 1) == []
    assert not can(m, "英雄帖")                     # the one 杀 of the phase is used


def test_yingxiongtie_answers_a_duel():
    """英雄帖: asked for 杀 in a 论剑, the 盟主 has a 名门 hero play it for him."""
    m = table(5, heroes={0: "空镜大师", 1: "王真人"}, hands={4: ["论剑 ♠A"], 1: ["杀 ♠7"]},
              current=4)
    use(m, "论剑 ♠A", target=0)
    pass_until(m, "respond", player=0)
    act(m, "英雄帖")
    act(m, "card", ["杀 ♠7"])
    pass_until(m, "play")
    assert neili(m, 4) == 3 and neili(m, 0) == 4


def test_yingxiongtie_asks_only_mingmen_and_only_for_the_mengzhu():
    m = table(5, heroes={0: "空镜大师", 1: "赵王爷"}, hands={0: [], 1: ["杀 ♠7"]})
    assert not can(m, "英雄帖")                     # no other 名门 hero at the table
    m = table(5, heroes={1: "空镜大师", 2: "郭大侠"}, hands={1: [], 2: ["杀 ♠7"]}, current=1)
    assert not can(m, "英雄帖")                     # not the 盟主


def test_wangfu_a_guanfu_hero_dodges_for_the_mengzhu():
    """王府 (盟主): 赵王爷 attacked; 洪统帅 (官府) plays 闪 for him."""
    m = table(5, heroes={0: "赵王爷", 2: "洪统帅"}, hands={2: ["闪 ♦2"], 4: ["杀 ♠7"]}, current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "王府")
    assert asked(m, "help_lord", 2)
    act(m, "card", ["闪 ♦2"])
    assert neili(m, 0) == 4 and cards_in(m, "hand", 2) == []


def test_wangfu_refused_the_attack_hits():
    m = table(5, heroes={0: "赵王爷", 2: "洪统帅"}, hands={2: ["闪 ♦2"], 4: ["杀 ♠7"]}, current=4)
    use(m, "杀 ♠7", target=0)
    act(m, "王府")
    act(m, "pass")
    pass_until(m, "play")
    assert neili(m, 0) == 3 and cards_in(m, "hand", 2) == ["闪 ♦2"]


# ============================================================ 曹督公: 抄家 =====

def test_chaojia_takes_every_card_of_the_dead():
    """抄家: player 2 (刺客, 1 内力) dies; 曹督公 takes its hand and equipment, the 点穴 is discarded."""
    m = table(5, heroes={3: "曹督公"}, hands={0: ["杀 ♠7"], 2: ["闪 ♥2"], 3: []},
              equips={0: ["倚天剑 ♠6"], 2: ["金丝甲 ♠2"]}, judging={2: ["点穴 ♠6"]},
              neili={2: 1}, deck=FILL)
    use(m, "杀 ♠7", target=2)
    pass_until(m, "confirm", player=3)
    assert asked(m, "confirm", 3, "抄家")
    act(m, "yes")
    assert neili(m, 2) <= 0
    assert hand(m, 3) == sorted(["闪 ♥2", "金丝甲 ♠2"])
    assert "点穴 ♠6" in cards_in(m, "discard")


def test_chaojia_declined_the_cards_are_discarded():
    m = table(5, heroes={3: "曹督公"}, hands={0: ["杀 ♠7"], 2: ["闪 ♥2"], 3: []},
              equips={0: ["倚天剑 ♠6"]}, neili={2: 1}, deck=FILL)
    use(m, "杀 ♠7", target=2)
    pass_until(m, "confirm", player=3)
    act(m, "no")
    assert hand(m, 3) == [] and "闪 ♥2" in cards_in(m, "discard")
