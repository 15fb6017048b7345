"""武林杀's rules of play from the rulebook (三、进行游戏 and 四、基本概念), each
set up and checked: the turn order and its six phases, drawing, the
judgement area, the deck running out, death, distance and range, the five
damage timings, losing 内力, a 限定技, events and responses, the end.
(拼点 and 翻面 are with the other glossary terms: test_wulinsha_glossary.py.)

Seats of the default 5-player table: 0 盟主, 1 护卫, 2 刺客, 3 刺客, 4 奸细;
from seat 0, seats 1 and 4 are at distance 1, seats 2 and 3 at distance 2.
"""
from __future__ import annotations

import pytest
from wulinsha_kit import FILL, WLS_DIR, act, can, cards_in, game, hand, legal, neili, pass_until, table, use

import rulekit

#: enough distinct cards for a round of draws (none of them read by a judgement)
ROUND = ["闪 ♦2", "闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦J", "闪 ♦J", "闪 ♥2", "闪 ♥2"] + FILL


def emitted(m: rulekit.Match) -> list[str]:
    return [e["name"] for e in m.events() if e.get("event") == "emit"]


# ---- the turn ---------------------------------------------------------------------------------

def test_the_first_turn_is_the_mengzhus():
    """由盟主开始: once setup is done, the 盟主 plays the first turn."""
    m = game().new_match(players=5, seed=4)
    while m.decision.choice in ("pick_general", "exchange", "start_equip"):
        act(m, "done") if can(m, "done") else act(m, "keep") if can(m, "keep") else m.apply(m.legal_actions()[0])
    lord = next(p for p in range(5) if m.pvars[p]["role"] == "盟主")
    assert m.current == lord and m.phase == "play"


def test_turns_pass_to_the_next_seat_round_the_table():
    """按逆时针方向…右边玩家的回合开始 (reading: the next seat, as seats are
    numbered counter-clockwise): 2, 3, 4, then 0 and 1."""
    m = table(5, current=2, deck=ROUND, vars={"turns": 5})
    order = []
    for _ in range(5):
        pass_until(m, "play")
        order.append(m.current)
        act(m, "end")
    assert order == [2, 3, 4, 0, 1]


def test_a_dead_seat_has_no_turn():
    m = table(5, deck=ROUND, out=[1], vars={"turns": 5})
    act(m, "end")
    pass_until(m, "play")
    assert m.current == 2


def test_six_phases_in_order():
    """准备, 判定, 摸牌, 出牌, 弃牌, 结束."""
    assert [ph.name for ph in game().phases] == ["start", "judge", "draw", "play", "discard", "finish"]


def test_a_turn_runs_through_the_six_phases():
    """One turn: 准备 (phase_start), 判定 (点穴: a ♥, so the play phase stays),
    摸牌 (2 cards), 出牌, 弃牌 (down to 内力), 结束 (phase_finish); then the next seat."""
    m = table(5, phase="start", neili={0: 1}, hands={0: ["杀 ♠7"]}, judging={0: ["点穴 ♠6"]},
              deck=["包子 ♥3", "闪 ♦2", "闪 ♦3"] + FILL, vars={"turns": 5})
    assert (m.phase, m.decision.choice) == ("play", "play")
    assert hand(m, 0) == ["杀 ♠7", "闪 ♦2", "闪 ♦3"]
    act(m, "end")
    assert (m.phase, m.decision.choice) == ("discard", "discard_one")
    act(m, "card", "闪 ♦2")
    act(m, "card", "闪 ♦3")
    pass_until(m, "play")
    assert m.current == 1 and hand(m, 0) == ["杀 ♠7"]
    names = emitted(m)
    steps = [names.index("phase_start"), names.index("drawing"), names.index("discarding"),
             names.index("phase_finish")]
    assert steps == sorted(steps)
    judged = [i for i, e in enumerate(m.events()) if e.get("event") == "move" and e["to"] == "judgement"]
    drawn = [i for i, e in enumerate(m.events()) if e.get("event") == "move" and e["to"] == "hand(0)"]
    assert judged[0] < drawn[-1]


def test_the_draw_phase_draws_two_from_the_top():
    """摸牌阶段: 你从牌堆顶摸两张牌 (after the game's first turn)."""
    m = table(5, phase="draw", deck=["闪 ♦2", "包子 ♥3", "杀 ♣2"], vars={"turns": 3})
    assert hand(m, 0) == ["包子 ♥3", "闪 ♦2"] and cards_in(m, "deck") == ["杀 ♣2"]


def test_the_hand_limit_is_the_neili_now_one_card_at_a_time():
    """手牌上限等于你当前的内力值 (not the 内力上限): each card over it is discarded."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8", "包子 ♥3", "包子 ♥4"]}, neili={0: 2}, max_neili={0: 4}, deck=ROUND)
    act(m, "end")
    for card in ("杀 ♠7", "包子 ♥3"):
        assert (m.phase, m.decision.choice, m.decision.player) == ("discard", "discard_one", 0)
        act(m, "card", card)
    assert hand(m, 0) == ["包子 ♥4", "杀 ♠8"] and m.current == 1


def test_no_card_is_discarded_at_will_in_the_play_phase():
    """弃置: 除了弃牌阶段…你不可以在其他时候主动弃牌 — holding only 闪, the play phase offers only its end."""
    m = table(5, hands={0: ["闪 ♦2", "闪 ♦3"]})
    assert legal(m) == ["end"]


# ---- the judgement area -------------------------------------------------------------------------

def test_no_two_cards_of_the_same_name_in_one_judgement_area():
    """任何一名角色面前的判定区里不能放有两张名称相同的牌."""
    m = table(5, hands={0: ["点穴 ♠6", "走火入魔 ♠A"]}, judging={0: ["走火入魔 ♥Q"], 1: ["点穴 ♣6"]})
    assert not can(m, "use", ["走火入魔 ♠A"])         # 0 already holds one
    act(m, "use", "点穴 ♠6")
    assert 1 not in {a.player for a in m.legal_actions()}


def test_a_moving_zouhuorumo_passes_over_a_player_who_holds_one():
    m = table(5, phase="judge", judging={0: ["走火入魔 ♠A"], 1: ["走火入魔 ♥Q"]},
              deck=["包子 ♥3", "闪 ♦2", "闪 ♦3"])
    assert cards_in(m, "judging", 1) == ["走火入魔 ♥Q"] and cards_in(m, "judging", 2) == ["走火入魔 ♠A"]


@pytest.mark.parametrize("placed, neili_after, plays", [
    (["走火入魔 ♠A", "点穴 ♠6"], 4, False),           # 点穴 (last placed) gets ♠9, 走火入魔 ♥3
    (["点穴 ♠6", "走火入魔 ♠A"], 1, True),            # 走火入魔 (last placed) gets ♠9, 点穴 ♥3
])
def test_delayed_zhaoshi_are_judged_last_placed_first(placed, neili_after, plays):
    """若有多张延时类招式牌…先判定最后放置的那张: the first judge card, ♠9, goes to the last placed."""
    m = table(5, phase="judge", judging={0: placed}, deck=["杀 ♠9", "包子 ♥3", "闪 ♦2", "闪 ♦3"],
              hands={0: ["杀 ♠7"]}, vars={"turns": 5})
    assert neili(m, 0) == neili_after
    assert (m.current == 0 and m.phase == "play") is plays


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out():
    """当牌堆没牌时,立即将弃牌堆洗混后形成新的牌堆."""
    m = table(5, phase="draw", deck=["包子 ♥3"], discard=["杀 ♣2", "杀 ♣3", "杀 ♣4"], vars={"turns": 5})
    drawn = hand(m, 0)
    assert len(drawn) == 2 and "包子 ♥3" in drawn and cards_in(m, "discard") == []
    assert sorted(cards_in(m, "deck") + [c for c in drawn if c != "包子 ♥3"]) == ["杀 ♣2", "杀 ♣3", "杀 ♣4"]


def test_a_judgement_refills_an_empty_deck_too():
    m = table(5, phase="judge", judging={0: ["点穴 ♠6"]}, discard=["包子 ♥3"], vars={"turns": 5})
    assert m.phase == "play" and m.current == 0           # the only card to judge by was the ♥ 包子


# ---- death ---------------------------------------------------------------------------------------

def test_death_reveals_the_identity_and_discards_every_card_of_the_dead():
    """死亡的角色亮出身份牌,弃置该角色所有牌及判定区里的牌."""
    m = table(5, current=2, hands={2: ["杀 ♥10"], 1: ["闪 ♦2", "包子 ♥3"]}, neili={1: 1},
              equips={1: ["软猬甲 ♣2", "草上飞 ♦K", "梯云纵 ♠5", "倚天剑 ♠6", "夜明珠 ♦A"], 2: ["射雕弓 ♥5"]},
              judging={1: ["点穴 ♠6", "走火入魔 ♠A"]})
    assert not m.view(3)["player_vars"][1].get("role")
    use(m, "杀 ♥10", 1)
    pass_until(m, "play")
    assert 1 not in m.players and m.view(3)["player_vars"][1]["role"] == "护卫"
    for z in ("hand", "weapon", "armor", "plus_horse", "minus_horse", "treasure", "judging"):
        assert cards_in(m, z, 1) == []
    assert sorted(cards_in(m, "discard")) == sorted(
        ["杀 ♥10", "闪 ♦2", "包子 ♥3", "软猬甲 ♣2", "草上飞 ♦K", "梯云纵 ♠5", "倚天剑 ♠6", "夜明珠 ♦A",
         "点穴 ♠6", "走火入魔 ♠A"])


def test_a_dead_player_leaves_the_distance_circle():
    """当一名角色死亡后,他将不再占据一个位置: its two neighbours are now 1 apart."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"]}, equips={0: ["峨眉刺 ♣A"]}, neili={4: 1})
    assert m.view(0)["display"][3]["distance"] == 2
    use(m, "杀 ♠7", 4)
    pass_until(m, "play")
    assert 4 not in m.players and m.view(0)["display"][3]["distance"] == 1
    act(m, "use", "杀 ♠8")
    assert {a.player for a in m.legal_actions()} == {1, 3}


def test_killing_a_cike_draws_three_whoever_the_killer():
    """任何角色杀死一名刺客,立即摸三张牌 — a 刺客 who kills a 刺客 too."""
    m = table(5, current=2, hands={2: ["杀 ♠7"]}, neili={3: 1}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"])
    use(m, "杀 ♠7", 3)
    pass_until(m, "play")
    assert hand(m, 2) == ["闪 ♦2", "闪 ♦3", "闪 ♦4"]


def test_a_death_without_a_source_rewards_nobody():
    """失去内力 has no source: a 刺客 dying of 走火入魔 gives nobody three cards."""
    m = table(5, phase="judge", current=2, judging={2: ["走火入魔 ♠A"]}, neili={2: 3},
              deck=["杀 ♠7", "闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"], vars={"turns": 5})
    pass_until(m, "play")
    assert 2 not in m.players and m.current == 3
    assert sum(len(hand(m, p)) for p in range(5)) == 2          # only seat 3's draw


def test_used_and_discarded_cards_lie_face_up():
    """弃牌堆里的牌全部正面朝上: every player sees the discard pile."""
    m = table(5, hands={0: ["杀 ♠7"]})
    use(m, "杀 ♠7", 1)
    assert m.view(3)["zones"]["discard"]["cards"] == ["杀 ♠7"]


def test_the_mengzhu_is_punished_for_a_huwei_he_kills_in_the_huweis_own_lunjian():
    """若盟主杀死护卫,盟主须弃置所有牌: the 盟主 is the source of the damage the 护卫 takes in his
    own 论剑 (首先未打出【杀】的一方受到另一方造成的1点伤害), in the 护卫's turn."""
    m = table(5, current=1, hands={1: ["论剑 ♠A"], 0: ["杀 ♠7", "闪 ♦2"]}, neili={1: 1},
              equips={0: ["倚天剑 ♠6"]})
    use(m, "论剑 ♠A", 0)
    act(m, "card", "杀 ♠7")                          # the 盟主 plays first; the 护卫 has no 杀
    pass_until(m, "play")
    assert 1 not in m.players and hand(m, 0) == [] and cards_in(m, "weapon", 0) == []


def test_only_the_mengzhu_is_punished_for_killing_a_huwei():
    m = table(5, current=2, hands={2: ["杀 ♠7", "闪 ♦2"]}, neili={1: 1}, equips={2: ["倚天剑 ♠6"]})
    use(m, "杀 ♠7", 1)
    pass_until(m, "play")
    assert 1 not in m.players and hand(m, 2) == ["闪 ♦2"] and cards_in(m, "weapon", 2) == ["倚天剑 ♠6"]


# ---- distance and range -------------------------------------------------------------------------

def test_the_distance_is_at_least_one():
    """一名角色与其他角色间的最短距离为1: 踏月 and a −1 轻功 bring nobody nearer than 1."""
    m = table(5, heroes={0: "楚香帅"}, hands={0: ["杀 ♠7"]}, equips={0: ["神行百变 ♥5"]})
    assert [m.view(0)["display"][p]["distance"] for p in range(1, 5)] == [1, 1, 1, 1]
    m = table(5, hands={0: ["杀 ♠7"]})
    assert [m.view(0)["display"][p]["distance"] for p in range(1, 5)] == [1, 2, 2, 1]


def test_the_distance_is_the_shorter_way_round():
    """无论顺时针或逆时针,取最短路径 (6 players: D is 1 from C and E, 2 from B and F, 3 from A)."""
    m = table(6, current=3)
    assert [m.view(3)["display"][p]["distance"] for p in (2, 4, 1, 5, 0)] == [1, 1, 2, 2, 3]


def test_the_attack_range_is_one_without_a_weapon():
    """任何角色的攻击范围在游戏开始的时候都为1."""
    m = table(6, hands={0: ["杀 ♠7"]})
    act(m, "use", "杀 ♠7")
    assert {a.player for a in m.legal_actions()} == {1, 5}


# ---- events and responses ------------------------------------------------------------------------

def test_responses_are_asked_from_the_current_player_in_turn_order():
    """从当前正进行回合的玩家开始,按逆时针的顺序轮流决定是否进行响应."""
    m = table(5, current=2, hands={2: ["闭关修炼 ♥7"]}, deck=FILL, auto_pass=False)
    use(m, "闭关修炼 ♥7")
    asked_ = []
    while m.decision.choice == "nullify":
        asked_.append(m.decision.player)
        act(m, "pass")
    assert asked_ == [2, 3, 4, 0, 1]


# ---- the five damage timings, and losing 内力 -----------------------------------------------------

TIMINGS = """\
extends: wulinsha
name: 武林杀, with the damage timings written in the log
triggers:
  - {on: causing_damage, effect: 'log "造成伤害时"'}
  - {on: taking_damage, effect: 'log "受到伤害时"'}
  - {on: dealt_damage, effect: 'log "造成伤害后"'}
  - {on: damaged, effect: 'log "受到伤害后"'}
  - {on: lost_life, effect: 'log "失去内力"'}
"""


@pytest.fixture(scope="module")
def timings() -> rulekit.Game:
    return rulekit.load_game_text(TIMINGS, str(WLS_DIR.parent / "wulinsha+timings.yaml"))


def steps(m: rulekit.Match) -> list[str]:
    """The notes of the log and the saving decisions (濒死), in order."""
    return [e["text"] if e["event"] == "note" else "濒死: saved" for e in m.events()
            if e.get("event") == "note" or e.get("event") == "decide" and e["choice"] == "peach" and e["option"] != "pass"]


def test_the_damage_timings_come_in_the_rulebook_order(timings):
    """造成伤害时, 受到伤害时, 扣减内力, 造成伤害后, 受到伤害后."""
    m = table(5, rules=timings, hands={0: ["杀 ♠7"]}, neili={1: 3})
    use(m, "杀 ♠7", 1)
    assert neili(m, 1) == 2
    assert steps(m) == ["造成伤害时", "受到伤害时", "造成伤害后", "受到伤害后"]


def test_dying_is_resolved_before_the_after_damage_timings(timings):
    """扣减内力 (若进入濒死状态,则在扣减内力后优先结算濒死状态), then 造成伤害后, 受到伤害后."""
    m = table(5, rules=timings, hands={0: ["杀 ♠7"], 1: ["包子 ♥3"]}, neili={1: 1})
    use(m, "杀 ♠7", 1)
    act(m, "card", "包子 ♥3")
    assert neili(m, 1) == 1
    assert steps(m) == ["造成伤害时", "受到伤害时", "濒死: saved", "造成伤害后", "受到伤害后"]


def test_a_skill_of_the_causing_timing_changes_the_damage_before_it_is_taken():
    """无剑 (造成伤害时, +1) acts before 内力 is reduced: 2 lost from one 杀."""
    m = table(5, heroes={0: "三少爷"}, hands={0: ["杀 ♠7"]}, player_vars={0: {"skills": ["无剑"]}})
    use(m, "杀 ♠7", 1)
    assert neili(m, 1) == 2


def test_a_player_who_dies_of_the_damage_has_no_after_damage_skill():
    """Dying is resolved first: 挪移 (受到伤害后) does not act for a dead 张教主."""
    m = table(5, heroes={4: "张教主"}, hands={0: ["杀 ♠7", "闪 ♦2"]}, neili={4: 1})
    use(m, "杀 ♠7", 4)
    assert 4 not in m.players and hand(m, 0) == ["闪 ♦2"]
    assert not any(e.get("event") == "decide" and e["choice"] == "confirm" for e in m.events())


def test_losing_neili_is_not_damage(timings):
    """失去内力 has no source: 蛤蟆's loss passes no damage timing."""
    m = table(5, rules=timings, heroes={0: "欧阳先生"}, deck=FILL)
    act(m, "蛤蟆")
    assert neili(m, 0) == 3 and steps(m) == ["失去内力"]


def test_losing_neili_triggers_no_damage_skill():
    """因受到伤害而触发的技能…在失去内力时无法发动: 走火入魔 takes 3 from 张教主, 挪移 and 诏狱 stay silent."""
    m = table(5, phase="judge", heroes={0: "张教主"}, player_vars={0: {"skills": ["挪移", "诏狱"]}},
              judging={0: ["走火入魔 ♠A"]}, hands={1: ["闪 ♦2"]}, deck=["杀 ♠7"] + FILL)
    assert neili(m, 0) == 1 and m.decision.choice == "play"
    assert not {"causing_damage", "taking_damage", "dealt_damage", "damaged"} & set(emitted(m))
    assert not any(e.get("event") == "decide" and e["choice"] in ("confirm", "pick_player_or_stop") for e in m.events())


def test_losing_neili_to_zero_is_dying_too():
    """内力 at 0 from a loss: 濒死, saved by 包子 like any dying."""
    m = table(5, phase="judge", judging={0: ["走火入魔 ♠A"]}, neili={0: 3}, hands={2: ["包子 ♥3"]},
              deck=["杀 ♠7"] + FILL)
    assert (m.decision.choice, m.decision.player) == ("peach", 2)
    act(m, "card", "包子 ♥3")
    assert neili(m, 0) == 1


# ---- a 限定技 ------------------------------------------------------------------------------------

def test_a_limited_skill_is_used_once_per_game():
    """限定技: 整局游戏只能使用一次 — 影缝 is not offered in 服部半藏's next turn,
    while his once-a-phase 手里剑 is."""
    m = table(5, heroes={0: "服部半藏"}, hands={0: ["倚天剑 ♠6", "鸳鸯刀 ♠2"]}, deck=ROUND, vars={"turns": 5})
    assert can(m, "影缝") and can(m, "手里剑", ["倚天剑 ♠6"])
    act(m, "影缝")
    act(m, "player", player=3)
    act(m, "手里剑", "倚天剑 ♠6")
    act(m, "player", player=2)
    assert not can(m, "影缝") and not can(m, "手里剑", ["鸳鸯刀 ♠2"])
    act(m, "end")
    for _ in range(4):                                 # seat 3's turn is skipped (face down)
        pass_until(m, "play")
        if m.current == 0:
            break
        act(m, "end")
    assert m.current == 0
    assert can(m, "手里剑", ["鸳鸯刀 ♠2"]) and not can(m, "影缝")


# ---- the end of the game -------------------------------------------------------------------------

def test_the_huwei_win_with_the_mengzhu_even_dead():
    m = table(5, hands={0: ["杀 ♠7"]}, neili={4: 1}, out=[1, 2, 3])
    use(m, "杀 ♠7", 4)
    assert sorted(m.result()["winners"]) == [0, 1] and m.view(None)["vars"]["winner"] == "盟主"


def test_the_cike_win_when_the_jianxi_kills_the_mengzhu_and_others_live():
    """盟主死亡: unless the 奸细 is the only one alive, the 刺客 win (the dead 刺客 too)."""
    m = table(5, current=4, hands={4: ["杀 ♠7"]}, neili={0: 1}, out=[2])
    use(m, "杀 ♠7", 0)
    assert sorted(m.result()["winners"]) == [2, 3] and m.view(None)["vars"]["winner"] == "刺客"


def test_the_game_goes_on_while_a_jianxi_lives():
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"]}, equips={0: ["倚天剑 ♠6"]}, neili={2: 1}, out=[3])
    use(m, "杀 ♠7", 2)
    pass_until(m, "play")
    assert not m.is_over() and 2 not in m.players and m.decision.choice == "play"


def test_with_two_jianxi_alive_the_mengzhus_death_is_the_cikes_win():
    """盟主死亡:若此时奸细是唯一存活的玩家,则奸细获胜,除此之外的情况为刺客获胜 — 10 players,
    two 奸细 left with the 盟主: the 奸细 who kills him is not the only one alive."""
    roles = ["盟主", "护卫", "护卫", "护卫", "刺客", "刺客", "刺客", "刺客", "奸细", "奸细"]
    m = table(10, roles=roles, current=8, hands={8: ["杀 ♠7"]}, equips={8: ["射雕弓 ♥5"]}, neili={0: 1},
              out=[1, 2, 3, 4, 5, 6, 7])
    use(m, "杀 ♠7", 0)
    assert sorted(m.result()["winners"]) == [4, 5, 6, 7] and m.view(None)["vars"]["winner"] == "刺客"
