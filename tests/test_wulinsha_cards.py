"""武林杀's cards, each in a prepared situation (the rules of the standard
kinds are the shared module's, under 武林杀's names; see card_text in
games/wulinsha/cards.yaml for each text)."""
from __future__ import annotations

import pytest
from wulinsha_kit import FILL, act, can, cards_in, neili, pass_until, table, use

DECK = ["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6", "闪 ♦7", "闪 ♦8"]


def test_biguanxiulian_draws_two():
    m = table(5, hands={0: ["闭关修炼 ♥7"]}, deck=DECK)
    use(m, "闭关修炼 ♥7")
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦3", "闪 ♦4"]


def test_jingang_huti_cancels_a_zhaoshi_and_may_itself_be_cancelled():
    """金刚护体 cancels a 招式 for one player; another 金刚护体 cancels it (a chain)."""
    m = table(5, hands={0: ["闭关修炼 ♥7", "金刚护体 ♣K"], 1: ["金刚护体 ♠J"]}, deck=DECK, auto_pass=False)
    use(m, "闭关修炼 ♥7")
    asked = []
    while m.decision.choice == "nullify":
        p = m.decision.player
        asked.append(p)
        if p == 1 and "金刚护体 ♠J" in cards_in(m, "hand", 1):
            act(m, "card", "金刚护体 ♠J")           # 1 cancels 0's 闭关修炼
        elif p == 0 and "金刚护体 ♣K" in cards_in(m, "hand", 0):
            act(m, "card", "金刚护体 ♣K")           # 0 cancels the cancel
        else:
            act(m, "pass")
    assert sorted(x for x in cards_in(m, "hand", 0)) == ["闪 ♦3", "闪 ♦4"]   # it took effect after all


def test_lunjian_the_target_plays_sha_first_and_the_first_who_cannot_is_hurt():
    m = table(5, hands={0: ["论剑 ♠A", "杀 ♠7"], 1: ["杀 ♠8", "闪 ♦2"]}, neili={0: 4, 1: 4})
    use(m, "论剑 ♠A", 1)
    act(m, "card", "杀 ♠8")                        # 1 plays first
    act(m, "card", "杀 ♠7")                        # then 0
    assert neili(m, 1) == 3 and neili(m, 0) == 4    # 1 has no more 杀
    assert {"杀 ♠7", "杀 ♠8"} <= set(cards_in(m, "discard"))


def test_shizihou_each_other_player_plays_sha_or_is_hurt():
    m = table(4, hands={0: ["狮子吼 ♠7"], 2: ["杀 ♠8"]})
    use(m, "狮子吼 ♠7")
    while m.decision is not None and m.decision.choice == "respond":
        act(m, "card", "杀 ♠8") if m.decision.player == 2 else act(m, "pass")
    assert [neili(m, p) for p in range(4)] == [4, 3, 4, 3]


def test_baoyulihua_each_other_player_uses_shan_or_is_hurt():
    m = table(4, hands={0: ["暴雨梨花 ♥A"], 3: ["闪 ♦2"]})
    use(m, "暴雨梨花 ♥A")
    while m.decision is not None and m.decision.choice == "respond":
        act(m, "card", "闪 ♦2") if m.decision.player == 3 else act(m, "pass")
    assert [neili(m, p) for p in range(4)] == [4, 3, 3, 4]


def test_wulindahui_every_wounded_player_recovers_one():
    m = table(4, hands={0: ["武林大会 ♥A"]}, neili={0: 3, 1: 2, 2: 4}, max_neili={1: 4})
    use(m, "武林大会 ♥A")
    assert [neili(m, p) for p in range(4)] == [4, 3, 4, 4]


def test_qunyingyan_cards_are_turned_up_and_each_takes_one_from_the_user_on():
    m = table(4, hands={0: ["群英宴 ♥3"]}, deck=["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6"])
    use(m, "群英宴 ♥3")
    order = []
    while m.decision is not None and m.decision.choice == "own_card":
        order.append(m.decision.player)
        m.apply(m.decision.options[0])
    assert order == [0, 1, 2, 3] and all(len(cards_in(m, "hand", p)) == 1 for p in range(4))


def test_yihuajiemu_the_holder_attacks_the_victim_or_gives_up_the_weapon():
    m = table(4, hands={0: ["移花接木 ♣Q"]}, equips={1: ["倚天剑 ♠6"]})
    use(m, "移花接木 ♣Q", 1)
    act(m, "player", player=2)                     # whom 1 must attack: 1 has no 杀, so gives the weapon
    assert cards_in(m, "hand", 0) == ["倚天剑 ♠6"] and cards_in(m, "weapon", 1) == []


def test_dianxue_skips_the_play_phase_unless_hearts():
    m = table(5, phase="judge", judging={0: ["点穴 ♠6"]}, deck=["杀 ♠7"] + DECK)
    assert m.current == 1 and "点穴 ♠6" in cards_in(m, "discard")     # 0's play phase was skipped
    m = table(5, phase="judge", judging={0: ["点穴 ♠6"]}, deck=["包子 ♥3", "闪 ♦3", "闪 ♦4"])
    assert (m.current, m.decision.player, m.decision.choice) == (0, 0, "play")


def test_qinggong_changes_the_distance():
    """轻功+1: others count their distance to you +1; 轻功-1: you count yours -1."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["梯云纵 ♠5"]})
    assert not any(a.player == 1 for a in _targets(m, "杀 ♠7"))
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["神行百变 ♥5"]})
    assert {a.player for a in _targets(m, "杀 ♠7")} == {1, 2, 3, 4}


def _targets(m, card):
    act(m, "use", card)
    return list(m.legal_actions())


def targets(m) -> set[int]:
    """The players offered at a target choice."""
    return {a.player for a in m.legal_actions() if a.option == "player"}


# ---- 杀 and 闪 --------------------------------------------------------------------------------

def test_sha_hits_for_one_and_is_discarded():
    """杀: 目标角色需使用一张【闪】,否则受到你造成的1点伤害; the used card goes to the discard pile."""
    m = table(5, hands={0: ["杀 ♠7"]})
    use(m, "杀 ♠7", 1)
    assert [neili(m, p) for p in range(5)] == [4, 3, 4, 4, 4]
    assert cards_in(m, "discard") == ["杀 ♠7"] and cards_in(m, "hand", 0) == []


def test_sha_only_on_another_player_in_attack_range():
    """对你攻击范围内的一名其他角色使用: range 1, the two neighbours."""
    m = table(5, hands={0: ["杀 ♠7"]})
    act(m, "use", "杀 ♠7")
    assert targets(m) == {1, 4}


def test_shan_cancels_the_sha():
    m = table(5, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7", 1)
    assert (m.decision.choice, m.decision.player) == ("respond", 1)
    act(m, "card", "闪 ♦2")
    assert neili(m, 1) == 4 and sorted(cards_in(m, "discard")) == ["杀 ♠7", "闪 ♦2"]


def test_shan_is_never_used_in_the_play_phase():
    """闪 answers a 杀 (当【杀】对你生效前); it is no play-phase card."""
    m = table(5, hands={0: ["闪 ♦2"]}, neili={0: 3})
    assert not can(m, "use", ["闪 ♦2"])


def test_one_non_converted_sha_per_play_phase_dodged_or_not():
    """每个出牌阶段仅限使用一张非转化的【杀】: after a dodged 杀 no second one."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7", 1)
    act(m, "card", "闪 ♦2")
    assert m.decision.choice == "play" and not can(m, "use", ["杀 ♠8"])


def test_the_sha_limit_starts_again_in_the_next_play_phase():
    deck = ["闪 ♦2", "闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦J", "闪 ♦J"] + FILL
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"]}, deck=deck, vars={"turns": 5})
    use(m, "杀 ♠7", 1)
    assert not can(m, "use", ["杀 ♠8"])
    for p in (0, 1, 2, 3, 4):
        assert (m.decision.choice, m.current) == ("play", p)
        act(m, "end")
        pass_until(m, "play")
    assert m.current == 0 and can(m, "use", ["杀 ♠8"])


def test_sha_played_in_lunjian_does_not_use_up_the_sha():
    """打出 is not 使用: the 杀 played in a 论剑 leave the phase's one 杀."""
    m = table(5, hands={0: ["论剑 ♠A", "杀 ♠7", "杀 ♠8"], 1: ["杀 ♠9"]})
    use(m, "论剑 ♠A", 1)
    act(m, "card", "杀 ♠9")
    act(m, "card", "杀 ♠7")
    assert neili(m, 1) == 3 and can(m, "use", ["杀 ♠8"])


# ---- 包子 --------------------------------------------------------------------------------------

def test_baozi_heals_its_wounded_user_by_one():
    m = table(5, hands={0: ["包子 ♥3"]}, neili={0: 2}, max_neili={0: 4})
    use(m, "包子 ♥3")
    assert neili(m, 0) == 3 and cards_in(m, "discard") == ["包子 ♥3"]


def test_baozi_never_above_the_neili_maximum():
    """对已受伤的你使用: at full 内力 (内力上限) 包子 cannot be used; it never goes past the maximum."""
    m = table(5, hands={0: ["包子 ♥3", "包子 ♥4"]}, neili={0: 3}, max_neili={0: 4})
    use(m, "包子 ♥3")
    assert neili(m, 0) == 4 and not can(m, "use", ["包子 ♥4"])


def test_baozi_heals_only_its_user_in_the_play_phase():
    m = table(5, hands={0: ["包子 ♥3"]}, neili={0: 3, 1: 2}, max_neili={0: 4, 1: 4})
    use(m, "包子 ♥3")
    assert (neili(m, 0), neili(m, 1)) == (4, 2)


def test_baozi_saves_a_dying_player():
    m = table(5, hands={0: ["杀 ♠7"], 3: ["包子 ♥3"]}, neili={1: 1})
    use(m, "杀 ♠7", 1)
    assert (m.decision.choice, m.decision.player) == ("peach", 3)
    act(m, "card", "包子 ♥3")
    assert neili(m, 1) == 1 and 1 in m.players


# ---- 拆招, 妙手空空 -----------------------------------------------------------------------------

def test_chaizhao_discards_a_hand_card_unseen():
    m = table(5, hands={0: ["拆招 ♠3"], 2: ["杀 ♠7", "闪 ♦2"]})
    use(m, "拆招 ♠3", 2)
    assert [a.option for a in m.legal_actions()] == ["hand"]
    act(m, "hand")
    assert len(cards_in(m, "hand", 2)) == 1 and len(cards_in(m, "discard")) == 2


def test_chaizhao_discards_a_chosen_equipped_or_judgement_card_at_any_distance():
    m = table(5, hands={0: ["拆招 ♠3"]}, equips={3: ["金丝甲 ♠2", "梯云纵 ♠5"]}, judging={3: ["点穴 ♠6"]})
    use(m, "拆招 ♠3", 3)                              # distance 3 (2, +1)
    assert {m.card(i).name for a in m.legal_actions() for i in a.cards} == {"金丝甲 ♠2", "梯云纵 ♠5", "点穴 ♠6"}
    act(m, "card", "点穴 ♠6")
    assert cards_in(m, "judging", 3) == [] and "点穴 ♠6" in cards_in(m, "discard")


def test_chaizhao_only_on_another_player_with_a_card():
    m = table(5, hands={0: ["拆招 ♠3", "杀 ♠7"]}, equips={0: ["倚天剑 ♠6"]})
    assert not can(m, "use", ["拆招 ♠3"])


def test_miaoshoukongkong_takes_a_card_into_the_users_hand():
    m = table(5, hands={0: ["妙手空空 ♠3"]}, equips={1: ["倚天剑 ♠6"]})
    use(m, "妙手空空 ♠3", 1)
    act(m, "card", "倚天剑 ♠6")
    assert cards_in(m, "hand", 0) == ["倚天剑 ♠6"] and cards_in(m, "weapon", 0) == []
    assert cards_in(m, "weapon", 1) == [] and cards_in(m, "discard") == ["妙手空空 ♠3"]


def test_miaoshoukongkong_only_at_distance_one_whatever_the_weapon():
    """妙手空空: 距离为1 — a 兵器's range does not reach further."""
    m = table(5, hands={0: ["妙手空空 ♠3"], 1: ["闪 ♦2"], 2: ["闪 ♦3"], 3: ["闪 ♦4"], 4: ["闪 ♦5"]},
              equips={0: ["射雕弓 ♥5"]})
    act(m, "use", "妙手空空 ♠3")
    assert targets(m) == {1, 4}


def test_miaoshoukongkong_distance_with_qinggong():
    """A −1 轻功 brings seats 2 and 3 to distance 1; a +1 轻功 puts seat 1 at 2."""
    m = table(5, hands={0: ["妙手空空 ♠3"], 2: ["闪 ♦3"], 3: ["闪 ♦4"]}, equips={0: ["草上飞 ♦K"]})
    act(m, "use", "妙手空空 ♠3")
    assert targets(m) == {2, 3}
    m = table(5, hands={0: ["妙手空空 ♠3"], 1: ["闪 ♦2"], 4: ["闪 ♦5"]}, equips={1: ["登萍渡水 ♥K"]})
    act(m, "use", "妙手空空 ♠3")
    assert targets(m) == {4}


# ---- 金刚护体, 论剑, 切磋 ---------------------------------------------------------------------------

def test_jingang_huti_is_never_used_by_itself():
    m = table(5, hands={0: ["金刚护体 ♠J"]})
    assert not can(m, "use", ["金刚护体 ♠J"])


def test_lunjian_the_user_who_runs_out_of_sha_is_hurt_by_the_target():
    m = table(5, hands={0: ["论剑 ♠A", "杀 ♠7"], 3: ["杀 ♠8", "杀 ♠9"]})
    use(m, "论剑 ♠A", 3)                              # any distance
    act(m, "card", "杀 ♠8")
    act(m, "card", "杀 ♠7")
    act(m, "card", "杀 ♠9")
    assert (neili(m, 0), neili(m, 3)) == (3, 4)


def test_qiecuo_the_target_who_wins_takes_a_card_of_the_user():
    """切磋: 若其赢,其获得你区域里的一张牌."""
    m = table(5, hands={0: ["切磋 ♣5", "闪 ♦2"], 1: ["杀 ♦K"]}, equips={0: ["倚天剑 ♠6"]})
    use(m, "切磋 ♣5", 1)
    act(m, "card", "闪 ♦2")
    act(m, "card", "杀 ♦K")
    assert m.decision.player == 1
    act(m, "card", "倚天剑 ♠6")
    assert cards_in(m, "hand", 1) == ["倚天剑 ♠6"] and cards_in(m, "weapon", 0) == []


def test_qiecuo_a_tie_does_nothing():
    """Reading: 点数大的一方赢 — equal numbers, nobody wins, nobody takes a card."""
    m = table(5, hands={0: ["切磋 ♣5", "闪 ♦7"], 1: ["杀 ♠7", "闪 ♦2"]})
    use(m, "切磋 ♣5", 1)
    act(m, "card", "闪 ♦7")
    act(m, "card", "杀 ♠7")
    assert m.decision.choice == "play" and cards_in(m, "hand", 0) == [] and cards_in(m, "hand", 1) == ["闪 ♦2"]


# ---- 走火入魔 and 点穴 ------------------------------------------------------------------------------

def test_zouhuorumo_is_put_in_its_users_own_judgement_area():
    m = table(5, hands={0: ["走火入魔 ♠A"]})
    use(m, "走火入魔 ♠A")
    assert cards_in(m, "judging", 0) == ["走火入魔 ♠A"] and cards_in(m, "hand", 0) == []


@pytest.mark.parametrize("judge", ["杀 ♠10", "论剑 ♠A", "杀 ♣2", "包子 ♥3"])
def test_zouhuorumo_moves_on_to_the_next_player_when_it_misses(judge):
    """走火入魔: not ♠2-9, it moves to the next player's judgement area (按回合顺序)."""
    m = table(5, phase="judge", current=2, judging={2: ["走火入魔 ♠A"]}, deck=[judge, "闪 ♦3", "闪 ♦4"])
    assert neili(m, 2) == 4
    assert cards_in(m, "judging", 2) == [] and cards_in(m, "judging", 3) == ["走火入魔 ♠A"]


def test_zouhuorumo_goes_round_the_table_and_hits_later():
    """Moved on, it is judged in that player's next judge phase: ♠5 there, 3 内力 lost."""
    m = table(5, phase="judge", current=4, judging={4: ["走火入魔 ♠A"]},
              deck=["包子 ♥3", "闪 ♦3", "闪 ♦4", "杀 ♠9", "闪 ♦5", "闪 ♦6"], vars={"turns": 5})
    assert cards_in(m, "judging", 0) == ["走火入魔 ♠A"]
    act(m, "end")
    pass_until(m, "play")
    assert m.current == 0 and neili(m, 0) == 1 and "走火入魔 ♠A" in cards_in(m, "discard")


def test_dianxue_not_on_oneself():
    m = table(5, hands={0: ["点穴 ♠6"]})
    act(m, "use", "点穴 ♠6")
    assert targets(m) == {1, 2, 3, 4}                # any other player, at any distance


def test_yihuajiemu_the_holder_who_has_a_sha_may_use_it_on_the_victim():
    m = table(4, hands={0: ["移花接木 ♣Q"], 1: ["杀 ♠7"]}, equips={1: ["倚天剑 ♠6"]})
    use(m, "移花接木 ♣Q", 1)
    act(m, "player", player=3)                     # distance 2 from seat 1, range 2
    assert (m.decision.choice, m.decision.player) == ("respond", 1)
    act(m, "card", "杀 ♠7")
    assert neili(m, 3) == 3 and cards_in(m, "weapon", 1) == ["倚天剑 ♠6"] and cards_in(m, "hand", 0) == []
