"""武林杀's cards, each in a prepared situation (the rules of the standard
kinds are the shared module's, under 武林杀's names; see card_text in
games/wulinsha/cards.yaml for each text)."""
from __future__ import annotations

from wulinsha_kit import act, cards_in, neili, table, use

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
