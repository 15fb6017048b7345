"""武林杀: the heroes of 江湖 and 海外 (reconstructed), one scenario per skill.

Seats in a 5-player table: 0 盟主, 1 护卫, 2 刺客, 3 刺客, 4 奸细; seat 0 is
at distance 1 from seats 1 and 4 and at distance 2 from seats 2 and 3.
"""
from __future__ import annotations

from wulinsha_kit import FILL, act, asked, can, cards_in, hand, neili, pass_until, table, use

# ============================================================ 张教主 =====

def test_nuoyi_takes_a_card_of_the_damage_source():
    """挪移: hurt, 张教主 takes a card of the source's area (here its weapon)."""
    m = table(5, heroes={1: "张教主"}, hands={0: ["杀 ♠7"]}, equips={0: ["倚天剑 ♠6"]})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 1, "挪移")
    act(m, "yes")
    act(m, "card", "倚天剑 ♠6")
    assert neili(m, 1) == 3
    assert hand(m, 1) == ["倚天剑 ♠6"]
    assert cards_in(m, "weapon", 0) == []


def test_mingjiao_a_jianghu_hero_gives_the_mengzhu_a_dodge_once_a_phase():
    """明教: another 江湖 hero gives the 盟主 a 闪 or 包子, once in its play phase."""
    m = table(5, heroes={0: "张教主", 1: "李探花"}, hands={1: ["闪 ♦2", "包子 ♥3", "杀 ♠7"]}, current=1)
    assert not can(m, "明教", ["杀 ♠7"])
    act(m, "明教", "闪 ♦2")
    act(m, "player", player=0)
    assert hand(m, 0) == ["闪 ♦2"]
    assert not can(m, "明教", ["包子 ♥3"])


def test_mingjiao_not_for_other_factions():
    """明教 is for 江湖 heroes only."""
    m = table(5, heroes={0: "张教主", 1: "列奥尼达"}, hands={1: ["闪 ♦2"]}, current=1)
    assert not can(m, "明教", ["闪 ♦2"])


# ============================================================ 三少爷 =====

def test_duoming_won_pindian_forbids_the_dodge():
    """夺命: 三少爷 wins the 拼点, so the target cannot answer with 闪."""
    m = table(5, heroes={0: "三少爷"}, hands={0: ["杀 ♠7", "杀 ♦K"], 1: ["闪 ♦2", "杀 ♣2"]})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "confirm", 0, "夺命")
    act(m, "yes")
    act(m, "card", "杀 ♦K")
    act(m, "card", "杀 ♣2")
    assert neili(m, 1) == 3
    assert hand(m, 1) == ["闪 ♦2"]


def test_duoming_lost_pindian_leaves_the_dodge():
    """夺命: lost, the target may still answer with 闪."""
    m = table(5, heroes={0: "三少爷"}, hands={0: ["杀 ♠7", "杀 ♣2"], 1: ["闪 ♦2", "杀 ♦K"]})
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    act(m, "card", "杀 ♣2")
    act(m, "card", "杀 ♦K")
    act(m, "card", "闪 ♦2")
    assert neili(m, 1) == 4


def test_shiwujian_awakens_at_one_neili_and_wujian_adds_damage():
    """十五剑: at 1 内力 the start of the turn costs 1 内力上限 and gives 无剑 (+1 damage without a 兵器)."""
    m = table(5, heroes={0: "三少爷"}, neili={0: 1}, max_neili={0: 4}, hands={0: ["杀 ♠7"]},
              deck=FILL, phase="start")
    pass_until(m, "play")
    assert m.pvars[0]["内力上限"] == 3
    assert "无剑" in m.pvars[0]["skills"]
    assert "十五剑" in m.pvars[0]["used_once"]
    use(m, "杀 ♠7", target=1)
    assert neili(m, 1) == 2


def test_shiwujian_only_once_and_not_above_one():
    """十五剑 happens once: already awakened, nothing more; at 2 内力, nothing."""
    m = table(5, heroes={0: "三少爷"}, neili={0: 1}, max_neili={0: 3}, deck=FILL, phase="start",
              player_vars={0: {"used_once": ["十五剑"]}})
    pass_until(m, "play")
    assert m.pvars[0]["内力上限"] == 3
    m = table(5, heroes={0: "三少爷"}, neili={0: 2}, deck=FILL, phase="start")
    pass_until(m, "play")
    assert m.pvars[0]["内力上限"] == 4 and "无剑" not in m.pvars[0]["skills"]


def test_wujian_not_with_a_weapon():
    """无剑: with a 兵器 in the equipment area the 杀 deals 1."""
    m = table(5, heroes={0: "三少爷"}, hands={0: ["杀 ♠7"]}, equips={0: ["倚天剑 ♠6"]},
              player_vars={0: {"skills": ["夺命", "无剑"]}})
    use(m, "杀 ♠7", target=1)
    assert neili(m, 1) == 3


# ============================================================ 龙姑娘 =====

def test_gumu_not_the_target_of_steal_or_dianxue():
    """古墓: 龙姑娘 cannot be the target of 妙手空空 or 点穴."""
    m = table(5, heroes={1: "龙姑娘"}, hands={0: ["妙手空空 ♠3", "点穴 ♠6"], 1: ["闪 ♦2"], 4: ["闪 ♦3"]})
    use(m, "妙手空空 ♠3")
    assert [a.player for a in m.legal_actions()] == [4]
    m = table(5, heroes={1: "龙姑娘"}, hands={0: ["点穴 ♠6"]})
    use(m, "点穴 ♠6")
    assert 1 not in [a.player for a in m.legal_actions()]


def test_hubo_two_cards_as_an_uncounted_slash():
    """互搏: two hand cards as a 杀, once a phase, not counted: a 杀 may still be used."""
    m = table(5, heroes={0: "龙姑娘"}, hands={0: ["闪 ♦2", "包子 ♥3", "杀 ♠7", "闪 ♦3", "闪 ♦4"]})
    act(m, "互搏", ["闪 ♦2", "包子 ♥3"])
    act(m, "player", player=1)
    assert neili(m, 1) == 3
    assert not can(m, "互搏", ["闪 ♦3", "闪 ♦4"])
    use(m, "杀 ♠7", target=1)
    assert neili(m, 1) == 2


# ============================================================ 慕容公子 =====

def test_douzhuan_discards_a_card_to_slash_back():
    """斗转: hurt by another's 杀, discard a hand card: a 杀 on the source (at distance 2), not a card."""
    m = table(5, heroes={2: "慕容公子"}, hands={0: ["杀 ♠7"], 2: ["包子 ♥3"]},
              equips={0: ["倚天剑 ♠6"]})
    use(m, "杀 ♠7", target=2)
    assert asked(m, "own_card_or_stop", 2)
    act(m, "card", "包子 ♥3")
    assert neili(m, 2) == 3
    assert neili(m, 0) == 3
    assert sorted(cards_in(m, "discard")) == ["包子 ♥3", "杀 ♠7"]


def test_douzhuan_not_after_a_duel():
    """斗转 answers damage from a 杀 only."""
    m = table(5, heroes={2: "慕容公子"}, hands={0: ["论剑 ♠A"], 2: ["包子 ♥3"]})
    use(m, "论剑 ♠A", target=2)
    assert neili(m, 2) == 3
    assert not asked(m, "own_card_or_stop", 2)
    assert hand(m, 2) == ["包子 ♥3"]


def test_fuguo_takes_a_card_from_each_chosen_and_recovers_once():
    """复国 (限定技): up to three others give a hand card each; then recover 1; only once."""
    m = table(5, heroes={0: "慕容公子"}, neili={0: 2}, hands={1: ["闪 ♦2"], 2: ["杀 ♠7"], 3: []})
    act(m, "复国")
    act(m, "player", player=1)
    act(m, "player", player=2)
    act(m, "player", player=3)
    act(m, "card", "闪 ♦2")
    act(m, "card", "杀 ♠7")
    assert hand(m, 0) == ["杀 ♠7", "闪 ♦2"]
    assert neili(m, 0) == 3


def test_fuguo_only_once_a_game():
    """复国 is a 限定技: once used (in an earlier turn), it is not offered again."""
    m = table(5, heroes={0: "慕容公子"}, neili={0: 2}, hands={1: ["闪 ♦2"]},
              player_vars={0: {"used_once": ["复国"]}})
    assert not can(m, "复国")
    m = table(5, heroes={0: "慕容公子"}, neili={0: 2}, hands={1: ["闪 ♦2"]})
    act(m, "复国")
    act(m, "done")
    assert neili(m, 0) == 3
    assert not can(m, "复国")


# ============================================================ 楚香帅 =====

def test_liuxiang_takes_and_gives_back():
    """留香: take a card of another's area, then give them a hand card; once a phase."""
    m = table(5, heroes={0: "楚香帅"}, hands={0: ["闪 ♦2"]}, equips={3: ["倚天剑 ♠6"]})
    act(m, "留香")
    act(m, "player", player=3)
    act(m, "card", "倚天剑 ♠6")
    act(m, "card", "闪 ♦2")
    assert hand(m, 0) == ["倚天剑 ♠6"]
    assert hand(m, 3) == ["闪 ♦2"]
    assert not can(m, "留香")


def test_tayue_brings_others_closer():
    """踏月: 楚香帅's 杀 reaches seat 2 (distance 2, less 1)."""
    m = table(5, heroes={0: "楚香帅"}, hands={0: ["杀 ♠7"]})
    use(m, "杀 ♠7")
    assert sorted(a.player for a in m.legal_actions()) == [1, 2, 3, 4]
    m = table(5, heroes={0: "李探花"}, hands={0: ["杀 ♠7"]}, player_vars={0: {"skills": []}})
    use(m, "杀 ♠7")
    assert sorted(a.player for a in m.legal_actions()) == [1, 4]


# ============================================================ 李探花 =====

def test_feidao_slash_at_any_distance():
    """飞刀: 李探花's 杀 reaches every other player (in a 8-player table, the farthest too)."""
    m = table(8, heroes={0: "李探花"}, hands={0: ["杀 ♠7"]})
    use(m, "杀 ♠7")
    assert sorted(a.player for a in m.legal_actions()) == [1, 2, 3, 4, 5, 6, 7]


def test_libuxufa_black_hits_all_the_same():
    """例不虚发: the 杀 is dodged; a black card turned up: it deals damage, the card is discarded."""
    m = table(5, heroes={0: "李探花"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["杀 ♣2"] + FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    assert asked(m, "confirm", 0, "例不虚发")
    act(m, "yes")
    assert neili(m, 1) == 3
    assert "杀 ♣2" in cards_in(m, "discard")


def test_libuxufa_black_card_stays_shown_until_the_damage_is_resolved():
    """此【杀】依然对目标角色造成伤害,然后将亮出的牌置入弃牌堆, and 【亮出】: 亮出的牌须持续被
    展示至相关结算完成后 — while the target is dying of that damage, the card is still shown
    (where every seat sees it), and goes to the discard pile once the dying is resolved."""
    m = table(5, heroes={0: "李探花"}, hands={0: ["杀 ♠7"], 2: ["闪 ♦2", "包子 ♥3"]}, neili={2: 1},
              deck=["杀 ♣2"] + FILL)
    use(m, "杀 ♠7", target=2)
    act(m, "card", "闪 ♦2")
    act(m, "yes")
    assert m.decision.choice == "peach" and neili(m, 2) == 0
    assert cards_in(m, "例不虚发亮出") == ["杀 ♣2"] and "杀 ♣2" not in cards_in(m, "discard")
    assert m.view(3)["zones"]["例不虚发亮出"]["cards"] == ["杀 ♣2"]
    act(m, "card", "包子 ♥3")
    assert neili(m, 2) == 1 and cards_in(m, "例不虚发亮出") == [] and "杀 ♣2" in cards_in(m, "discard")


def test_libuxufa_red_is_taken():
    """例不虚发: a red card turned up goes to 李探花's hand; the 杀 stays dodged."""
    m = table(5, heroes={0: "李探花"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["包子 ♥3"] + FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    act(m, "yes")
    assert neili(m, 1) == 4
    assert hand(m, 0) == ["包子 ♥3"]


# ============================================================ 任大小姐 =====

def test_qinxin_discards_to_heal_a_wounded_player():
    """琴心: discard a hand card, a wounded player recovers 1; once a phase."""
    m = table(5, heroes={0: "任大小姐"}, neili={3: 2}, hands={0: ["闪 ♦2", "闪 ♦3"]})
    act(m, "琴心", "闪 ♦2")
    act(m, "player", player=3)
    assert neili(m, 3) == 3
    assert not can(m, "琴心", ["闪 ♦3"])


def test_shenggu_red_card_as_baozi_outside_her_turn():
    """圣姑: outside her turn a red card (an equipment too) saves as 包子."""
    m = table(5, heroes={1: "任大小姐"}, neili={4: 1}, hands={0: ["杀 ♠7"]}, equips={1: ["射雕弓 ♥5"]})
    use(m, "杀 ♠7", target=4)
    pass_until(m, "peach", 1)
    act(m, "圣姑", "射雕弓 ♥5")
    assert neili(m, 4) == 1
    assert cards_in(m, "weapon", 1) == []


def test_shenggu_not_in_her_own_turn():
    """圣姑 is not offered in her own turn."""
    m = table(5, heroes={0: "任大小姐"}, neili={1: 1}, hands={0: ["杀 ♠7", "包子 ♥3"]},
              equips={0: ["射雕弓 ♥5"]})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "peach", 0)
    assert can(m, "card", ["包子 ♥3"])
    assert not can(m, "圣姑", ["射雕弓 ♥5"])


# ============================================================ 欧阳先生 =====

def test_hama_loses_one_and_draws_two_as_often_as_wanted():
    """蛤蟆: lose 1 内力, draw 2 — more than once a phase."""
    m = table(5, heroes={0: "欧阳先生"}, deck=FILL)
    act(m, "蛤蟆")
    act(m, "蛤蟆")
    assert neili(m, 0) == 2
    assert len(hand(m, 0)) == 4


# ============================================================ 列奥尼达 =====

def test_buqu_a_new_number_saves_him_at_one():
    """不屈: dying, the top card is turned up; a number not among the 伤 joins them and 内力 becomes 1."""
    m = table(5, heroes={1: "列奥尼达"}, neili={1: 1}, hands={0: ["杀 ♠7"]}, deck=["杀 ♣8"] + FILL,
              zones={"伤(1)": ["杀 ♠9"]})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "peach", 1)
    act(m, "不屈")
    assert neili(m, 1) == 1
    assert 1 in m.players
    assert sorted(cards_in(m, "伤", 1)) == ["杀 ♠9", "杀 ♣8"]


def test_buqu_a_repeated_number_is_discarded_and_he_dies():
    """不屈: a number already among the 伤 is discarded; tried once in this dying state, he dies."""
    m = table(5, heroes={1: "列奥尼达"}, neili={1: 1}, hands={0: ["杀 ♠7"]}, deck=["杀 ♣9"] + FILL,
              zones={"伤(1)": ["杀 ♠9"]})
    use(m, "杀 ♠7", target=1)
    act(m, "不屈")
    assert "杀 ♣9" in cards_in(m, "discard")
    assert cards_in(m, "伤", 1) == ["杀 ♠9"]
    assert 1 not in m.players


def test_buqu_again_in_a_new_dying_state():
    """不屈 (reading): each new damage makes a new dying state, where it may be tried again."""
    m = table(5, heroes={1: "列奥尼达"}, neili={1: 1}, hands={0: ["杀 ♠7", "杀 ♠8"]},
              equips={0: ["峨眉刺 ♣A"]}, deck=["杀 ♣10", "杀 ♦10"] + FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "不屈")
    use(m, "杀 ♠8", target=1)
    assert can(m, "不屈")
    act(m, "不屈")
    assert 1 not in m.players
    assert cards_in(m, "伤", 1) == ["杀 ♣10"]


def test_buqu_hand_limit_is_the_number_of_shang():
    """不屈: with 伤 on the hero, the hand limit is their number (here 1, though 内力 is 4)."""
    hand4 = ["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦J"]
    m = table(5, heroes={0: "列奥尼达"}, hands={0: hand4}, phase="discard", zones={"伤(0)": ["杀 ♠9"]})
    for _ in range(3):
        assert asked(m, "discard_one", 0)
        act(m, "card", [m.card(m.legal_actions()[0].cards[0]).name])
    assert len(hand(m, 0)) == 1
    m = table(5, heroes={0: "列奥尼达"}, hands={0: hand4}, phase="discard", deck=FILL)
    assert not asked(m, "discard_one", 0)
    assert len(hand(m, 0)) == 4


def test_sanbai_another_haiwai_heals_the_mengzhu_one_more():
    """三百 (盟主技): another 海外 hero's 疗伤 on the 盟主 gives 2; another faction's gives 1."""
    m = table(5, heroes={0: "列奥尼达", 1: "宫本武藏"}, neili={0: 2}, max_neili={0: 5},
              hands={1: ["疗伤 ♥7"]}, current=1)
    use(m, "疗伤 ♥7", target=0)
    assert neili(m, 0) == 4
    m = table(5, heroes={0: "列奥尼达", 1: "李探花"}, neili={0: 2}, max_neili={0: 5},
              hands={1: ["疗伤 ♥7"]}, current=1)
    use(m, "疗伤 ♥7", target=0)
    assert neili(m, 0) == 3


def test_sanbai_saving_the_dying_mengzhu():
    """三百: a 海外 hero's 包子 saves the dying 盟主 with 2."""
    m = table(5, heroes={0: "列奥尼达", 1: "宫本武藏"}, neili={0: 1}, max_neili={0: 5},
              hands={2: ["杀 ♠7"], 1: ["包子 ♥3"]}, current=2, equips={2: ["倚天剑 ♠6"]})
    use(m, "杀 ♠7", target=0)
    pass_until(m, "peach", 1)
    act(m, "card", "包子 ♥3")
    assert neili(m, 0) == 2


# ============================================================ 宫本武藏 =====

def test_ertian_his_duel_needs_two_slashes_each_time():
    """二天: the target of his 论剑 must play two 杀 at a time: with one, it takes the damage."""
    m = table(5, heroes={0: "宫本武藏"}, hands={0: ["论剑 ♠A"], 1: ["杀 ♠7"]})
    use(m, "论剑 ♠A", target=1)
    act(m, "card", "杀 ♠7")
    assert neili(m, 1) == 3
    assert neili(m, 0) == 4


def test_ertian_when_he_is_challenged():
    """二天: challenged, its user must answer him with two 杀 each time: 宫本武藏 wins with one."""
    m = table(5, heroes={1: "宫本武藏"}, hands={0: ["论剑 ♠A", "杀 ♠8"], 1: ["杀 ♠7"]})
    use(m, "论剑 ♠A", target=1)
    act(m, "card", "杀 ♠7")
    act(m, "card", "杀 ♠8")
    assert neili(m, 0) == 3
    assert neili(m, 1) == 4


def test_yanliu_two_cards_as_a_duel_once_a_phase():
    """岩流: two hand cards used as 论剑, once a phase."""
    m = table(5, heroes={0: "宫本武藏"}, hands={0: ["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"]})
    act(m, "岩流", ["闪 ♦2", "闪 ♦3"])
    act(m, "player", player=2)
    assert neili(m, 2) == 3
    assert not can(m, "岩流", ["闪 ♦4", "闪 ♦5"])


# ============================================================ 服部半藏 =====

def test_qianxing_no_target_without_hand_cards():
    """潜行: with no hand cards 服部半藏 is no target of 杀 or 论剑; with one, he is."""
    m = table(5, heroes={1: "服部半藏"}, hands={0: ["杀 ♠7", "论剑 ♠A"]})
    use(m, "杀 ♠7")
    assert sorted(a.player for a in m.legal_actions()) == [4]
    m = table(5, heroes={1: "服部半藏"}, hands={0: ["论剑 ♠A"]})
    use(m, "论剑 ♠A")
    assert 1 not in [a.player for a in m.legal_actions()]
    m = table(5, heroes={1: "服部半藏"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7")
    assert sorted(a.player for a in m.legal_actions()) == [1, 4]


def test_yingfeng_turns_another_hero_over():
    """影缝 (限定技): another player's hero is turned face down."""
    m = table(5, heroes={0: "服部半藏"})
    act(m, "影缝")
    act(m, "player", player=2)
    assert m.pvars[2]["face_down"] is True
    assert "影缝" in m.pvars[0]["used_once"]


def test_yingfeng_only_once_a_game():
    """影缝 cannot be used a second time."""
    m = table(5, heroes={0: "服部半藏"})
    act(m, "影缝")
    act(m, "player", player=2)
    assert not can(m, "影缝")
    m = table(5, heroes={0: "服部半藏"}, player_vars={0: {"used_once": ["影缝"]}})
    assert not can(m, "影缝")


def test_shoulijian_discards_equipment_for_an_uncounted_slash_at_any_distance():
    """手里剑: discard an equipment card: a 杀 on seat 2 (distance 2), not counted; once a phase."""
    m = table(5, heroes={0: "服部半藏"}, hands={0: ["射雕弓 ♥5", "杀 ♠7", "倚天剑 ♠6"]})
    act(m, "手里剑", "射雕弓 ♥5")
    act(m, "player", player=2)
    assert neili(m, 2) == 3
    assert "射雕弓 ♥5" in cards_in(m, "discard")
    assert not can(m, "手里剑", ["倚天剑 ♠6"])
    use(m, "杀 ♠7", target=1)
    assert neili(m, 1) == 3


# ============================================================ 波斯圣女 =====

def test_shenghuo_replaces_the_judge_card_with_a_black_card():
    """圣火: the 点穴 judge card (♥: no effect) is replaced with a black card: the play phase is skipped."""
    m = table(5, heroes={1: "波斯圣女"}, hands={1: ["杀 ♠7", "包子 ♥3"]}, judging={0: ["点穴 ♠6"]},
              deck=["包子 ♥4"] + FILL, phase="judge")
    assert asked(m, "own_card_or_stop", 1)
    assert not can(m, "card", ["包子 ♥3"])
    act(m, "card", "杀 ♠7")
    pass_until(m, "play")
    assert m.decision.player == 1          # seat 0's play phase was skipped


def test_shenghuo_declined_leaves_the_judgement():
    """圣火 declined: ♥ judge, 点穴 has no effect, seat 0 plays."""
    m = table(5, heroes={1: "波斯圣女"}, hands={1: ["杀 ♠7"]}, judging={0: ["点穴 ♠6"]},
              deck=["包子 ♥4"] + FILL, phase="judge")
    act(m, "done")
    pass_until(m, "play")
    assert m.decision.player == 0


def test_fengyun_a_dodge_makes_another_judge_spade_hurts():
    """风云: after playing a 闪, another player judges: ♠, 1 damage; otherwise nothing."""
    m = table(5, heroes={1: "波斯圣女"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["杀 ♠8"] + FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    assert asked(m, "pick_player_or_stop", 1)
    act(m, "player", player=3)
    assert neili(m, 3) == 3 and neili(m, 1) == 4
    m = table(5, heroes={1: "波斯圣女"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]}, deck=["杀 ♣8"] + FILL)
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    act(m, "player", player=3)
    assert neili(m, 3) == 4


# ============================================================ 暹罗拳王 =====

def test_babi_one_more_target_without_a_weapon():
    """八臂: without a 兵器 his 杀 may take a second target."""
    m = table(5, heroes={0: "暹罗拳王"}, hands={0: ["杀 ♠7"]})
    use(m, "杀 ♠7", target=1)
    assert asked(m, "more_targets", 0)
    act(m, "player", player=4)
    assert neili(m, 1) == 3 and neili(m, 4) == 3


def test_babi_not_with_a_weapon():
    """八臂: with a 兵器, one target only."""
    m = table(5, heroes={0: "暹罗拳王"}, hands={0: ["杀 ♠7"]}, equips={0: ["倚天剑 ♠6"]})
    use(m, "杀 ♠7", target=1)
    assert not asked(m, "more_targets", 0)
    assert neili(m, 1) == 3 and neili(m, 4) == 4
