"""武林杀's rules from the rulebook (《武林杀》游戏规则), each set up and checked:
setup (identities, heroes, 内力, the starting hand, its exchange, starting
equipment), the first turn's draw, dying and its saves, death's rewards and
penalties, the end of the game, and the fifth equipment slot (宝物)."""
from __future__ import annotations

from collections import Counter

import pytest
from wulinsha_kit import WLS_DIR, act, cards_in, game, neili, table, use

import rulekit


def start(players: int, seed: int, **options) -> rulekit.Match:
    return game().new_match(players=players, seed=seed, options=options or None)


def answer_setup(m: rulekit.Match, exchange: set[int] = frozenset(), equip: bool = False) -> None:
    """Answer every decision of setup: the first hero offered, keep or exchange, equipment or not."""
    while m.decision is not None and m.decision.choice in ("pick_general", "exchange", "start_equip"):
        d = m.decision
        if d.choice == "pick_general":
            m.apply(d.options[0])
        elif d.choice == "exchange":
            act(m, "exchange" if d.player in exchange else "keep")
        else:
            act(m, "card") if equip and any(a.option == "card" for a in d.options) else act(m, "done")


@pytest.mark.parametrize("players, counts", [
    (4, (1, 1, 1, 1)), (5, (1, 1, 2, 1)), (6, (1, 1, 3, 1)), (7, (1, 2, 3, 1)),
    (8, (1, 2, 4, 1)), (9, (1, 3, 4, 1)), (10, (1, 3, 4, 2))])
def test_identities_by_player_count(players, counts):
    m = start(players, 1)
    roles = Counter(m.pvars[p]["role"] for p in range(players))
    assert tuple(roles[r] for r in ("盟主", "护卫", "刺客", "奸细")) == counts


@pytest.mark.parametrize("players, counts", [(6, (1, 1, 2, 2)), (8, (1, 2, 3, 2))])
def test_the_alternative_rows_for_6_and_8_players(players, counts):
    m = start(players, 1, roles="two_renegades")
    roles = Counter(m.pvars[p]["role"] for p in range(players))
    assert tuple(roles[r] for r in ("盟主", "护卫", "刺客", "奸细")) == counts


def test_the_lord_is_shown_and_chooses_from_five_heroes_openly():
    m = start(5, 3)
    lord = next(p for p in range(5) if m.pvars[p]["role"] == "盟主")
    assert m.pvars[lord]["role_shown"] and not any(m.pvars[p]["role_shown"] for p in range(5) if p != lord)
    d = m.decision
    assert (d.player, d.choice, len(d.options)) == (lord, "pick_general", 5)


def test_the_others_choose_from_three_face_down_and_are_shown_together():
    m = start(5, 3)
    lord = m.decision.player
    m.apply(m.decision.options[0])                   # the lord's choice, open
    assert m.zone("general", lord).cards
    first = m.decision.player
    assert first != lord and len(m.decision.options) == 3
    m.apply(m.decision.options[0])
    other = next(p for p in range(5) if p not in (lord, first))
    assert m.view(other)["zones"][f"picked({first})"] == {"count": 1}       # face down to the others
    assert m.view(first)["zones"][f"picked({first})"]["cards"]              # seen by its owner
    assert not m.zone("general", first).cards                               # not yet shown
    answer_setup(m)
    assert all(m.zone("general", p).cards for p in range(5))                # all shown together


@pytest.mark.parametrize("players, bonus", [(4, 0), (5, 1), (8, 1)])
def test_neili_is_the_heros_maximum_plus_one_for_the_lord_except_with_four(players, bonus):
    m = start(players, 2)
    answer_setup(m)
    for p in range(players):
        hero = m.zone("general", p).cards[-1]
        extra = bonus if m.pvars[p]["role"] == "盟主" else 0
        assert m.pvars[p]["内力"] == m.pvars[p]["内力上限"] == hero.props["max_neili"] + extra


def test_four_cards_each_and_an_exchange_of_the_starting_hand_once():
    m = start(5, 5)
    while m.decision.choice == "pick_general":
        m.apply(m.decision.options[0])
    assert all(len(m.zone("hand", p).cards) == 4 for p in range(5))
    p = m.decision.player
    before = {c.id for c in m.zone("hand", p).cards}
    act(m, "exchange")
    after = {c.id for c in m.zone("hand", p).cards}
    assert len(after) == 4 and m.pvars[p]["exchanged"]
    assert after != before                           # new cards (the old ones went back and were shuffled)
    assert m.decision.player != p or m.decision.choice != "exchange"   # once


EQUIPPING = """\
extends: wulinsha
name: 武林杀, the starting equipment of one hand
override:
  setup: |
    for p in players:
      p.role = "盟主" if p == 0 else "刺客"
      p.内力 = 4
      p.内力上限 = 4
    move box where it.name in ["倚天剑 ♠6", "鸳鸯刀 ♠2", "梯云纵 ♠5", "神行百变 ♥5", "夜明珠 ♦A"] to hand(0)
    call starting_equipment(0)
"""


def test_starting_equipment_at_most_one_card_of_each_type():
    """每种类型的装备牌各一张: from the starting hand, at most one 兵器, one
    护具, one 轻功 (either kind) and one 宝物 go into play."""
    g = rulekit.load_game_text(EQUIPPING, str(WLS_DIR.parent / "wulinsha+equipping.yaml"))
    m = g.new_match(players=4, seed=1)
    offered = lambda: sorted(m.card(i).name for a in m.decision.options for i in a.cards)  # noqa: E731
    assert offered() == sorted(["倚天剑 ♠6", "鸳鸯刀 ♠2", "梯云纵 ♠5", "神行百变 ♥5", "夜明珠 ♦A"])
    act(m, "card", "倚天剑 ♠6")
    assert offered() == sorted(["梯云纵 ♠5", "神行百变 ♥5", "夜明珠 ♦A"])     # no second 兵器
    act(m, "card", "梯云纵 ♠5")
    assert offered() == ["夜明珠 ♦A"]                                         # no second 轻功
    act(m, "card", "夜明珠 ♦A")
    assert cards_in(m, "weapon", 0) == ["倚天剑 ♠6"] and cards_in(m, "plus_horse", 0) == ["梯云纵 ♠5"]
    assert cards_in(m, "treasure", 0) == ["夜明珠 ♦A"]
    assert sorted(cards_in(m, "hand", 0)) == sorted(["鸳鸯刀 ♠2", "神行百变 ♥5"])


@pytest.mark.parametrize("turns, drawn", [(1, 1), (2, 2), (9, 2)])
def test_the_first_turn_of_the_game_draws_one_card(turns, drawn):
    """摸牌阶段摸两张牌 (第一个执行回合的角色摸牌阶段仅摸一张牌)."""
    m = table(4, phase="draw", deck=["杀 ♠7", "杀 ♠8", "闪 ♦2"], vars={"turns": turns})
    assert len(cards_in(m, "hand", 0)) == drawn


def test_from_the_start_the_mengzhu_draws_one_card_and_the_next_player_two():
    """第一个执行回合的角色摸牌阶段仅摸一张牌: a whole game from setup — the 盟主 holds his 4
    starting cards and 1 drawn; the next player draws 2."""
    m = start(5, 11)
    answer_setup(m)
    lord = m.current
    assert m.pvars[lord]["role"] == "盟主" and m.decision.choice == "play" and len(m.zone("hand", lord).cards) == 5
    act(m, "end")
    while m.decision.choice != "play":                 # decline whatever a skill offers on the way
        options = {a.option for a in m.legal_actions()}
        act(m, "pass" if "pass" in options else "no") if options & {"pass", "no"} else m.apply(m.legal_actions()[0])
    assert m.current != lord and len(m.zone("hand", m.current).cards) == 6


def test_a_treasure_replaces_the_one_in_play():
    """宝物: one slot; equipping a new one discards the old one."""
    m = table(4, hands={0: ["九阴真经 ♠9"]}, equips={0: ["夜明珠 ♦A"]})
    use(m, "九阴真经 ♠9")
    assert cards_in(m, "treasure", 0) == ["九阴真经 ♠9"] and "夜明珠 ♦A" in cards_in(m, "discard")


# ---- dying, death, the end -------------------------------------------------------------------

def test_a_dying_player_is_saved_by_baozi_or_liaoshang_asked_from_the_current_player():
    """内力 at 0: the dying player or anyone else may save with 包子 or 疗伤,
    asked in turn order from the current player."""
    m = table(5, hands={0: ["杀 ♠7"], 2: ["疗伤 ♥7"], 3: ["包子 ♥3"]}, neili={1: 1}, auto_pass=False)
    use(m, "杀 ♠7", 1)
    act(m, "pass")                                    # player 1 does not dodge
    asked = []
    while m.decision.choice == "peach":
        asked.append(m.decision.player)
        if m.decision.player == 2:
            act(m, "card", "疗伤 ♥7")
            break
        act(m, "pass")
    assert asked == [0, 1, 2] and neili(m, 1) == 1


def test_killing_a_cike_draws_three(monkeypatch):
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["倚天剑 ♠6"]}, neili={2: 1},
              deck=["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6"])
    use(m, "杀 ♠7", 2)                                 # seat 2 is a 刺客, at distance 2
    assert 2 not in m.players and len(cards_in(m, "hand", 0)) == 3


def test_the_mengzhu_who_kills_a_huwei_discards_all_his_cards():
    m = table(5, hands={0: ["杀 ♠7", "闪 ♦3"]}, equips={0: ["倚天剑 ♠6"]}, neili={1: 1})
    use(m, "杀 ♠7", 1)                                 # seat 1 is a 护卫
    assert 1 not in m.players and cards_in(m, "hand", 0) == [] and cards_in(m, "weapon", 0) == []


def test_the_cike_win_when_the_mengzhu_dies_and_others_live():
    m = table(4, current=1, hands={1: ["杀 ♠7"]}, neili={0: 1})     # seat 1 (护卫) kills the 盟主
    use(m, "杀 ♠7", 0)
    assert m.result()["winners"] == [2] and m.view(None)["vars"]["winner"] == "刺客"


def test_the_mengzhu_and_huwei_win_when_every_cike_and_jianxi_is_dead():
    m = table(4, hands={0: ["杀 ♠7"]}, neili={3: 1}, out=[2])       # the 刺客 is dead; kill the 奸细
    use(m, "杀 ♠7", 3)
    assert sorted(m.result()["winners"]) == [0, 1] and m.view(None)["vars"]["winner"] == "盟主"


def test_the_jianxi_wins_alone_as_the_last_one_standing():
    m = table(4, roles=["盟主", "护卫", "刺客", "奸细"], current=3, hands={3: ["杀 ♠7"]}, neili={0: 1},
              out=[1, 2])
    use(m, "杀 ♠7", 0)
    assert m.result()["winners"] == [3] and m.view(None)["vars"]["winner"] == "奸细"


# ---- 武林杀's own cards ---------------------------------------------------------------------------

def test_liaoshang_heals_another_wounded_player():
    m = table(5, hands={0: ["疗伤 ♥7"]}, neili={3: 2})
    use(m, "疗伤 ♥7", 3)
    assert neili(m, 3) == 3 and "疗伤 ♥7" in cards_in(m, "discard")


def test_zouhuorumo_loses_neili_and_is_not_damage():
    """走火入魔 on ♠2-9: 3 内力 lost (失去内力: no source)."""
    m = table(5, phase="judge", judging={0: ["走火入魔 ♠A"]}, deck=["杀 ♠7", "闪 ♦3", "闪 ♦4"])
    assert neili(m, 0) == 1
    assert not any(e.get("name") == "damaged" for e in m.events())


def test_qiecuo_the_winner_takes_a_card_of_the_loser():
    m = table(5, hands={0: ["切磋 ♣5", "杀 ♦K"], 1: ["闪 ♦2", "杀 ♠8"]})
    use(m, "切磋 ♣5", 1)
    act(m, "card", "杀 ♦K")                            # 13, face down
    act(m, "card", "闪 ♦2")                            # 2
    act(m, "hand")                                     # the winner takes one of the loser's cards
    assert cards_in(m, "hand", 0) == ["杀 ♠8"] and cards_in(m, "hand", 1) == []


def test_huanhundan_saves_its_holder_and_leaves_the_game():
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["还魂丹 ♥2"]}, neili={1: 1}, auto_pass=False)
    use(m, "杀 ♠7", 1)
    act(m, "pass")
    while m.decision.choice == "peach" and m.decision.player != 1:
        act(m, "pass")
    act(m, "还魂丹")
    assert neili(m, 1) == 1 and cards_in(m, "removed") == ["还魂丹 ♥2"] and cards_in(m, "treasure", 1) == []


def test_jiuyinzhenjing_once_per_play_phase():
    m = table(5, hands={0: ["杀 ♠7", "闪 ♦2"]}, equips={0: ["九阴真经 ♠9"]}, deck=["闪 ♦3", "闪 ♦4"])
    act(m, "九阴真经", "闪 ♦2")
    assert sorted(cards_in(m, "hand", 0)) == ["杀 ♠7", "闪 ♦3"]
    assert not any(a.option == "九阴真经" for a in m.legal_actions())


@pytest.mark.parametrize("treasure, discards", [([], True), (["夜明珠 ♦A"], False)])
def test_yemingzhu_raises_the_hand_limit_by_one(treasure, discards):
    """The hand limit is the 内力 now; 夜明珠 makes it one more."""
    m = table(5, phase="discard", hands={0: ["杀 ♠7", "杀 ♠8", "闪 ♦2", "闪 ♦3"]}, neili={0: 3},
              equips={0: treasure})
    asked = m.decision is not None and (m.decision.player, m.decision.choice) == (0, "discard_one")
    assert asked == discards
