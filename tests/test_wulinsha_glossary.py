"""武林杀's glossary (九、名词解释), one or more scenarios per term, each named
after it: 获得, 将…当…, 展示 and 亮出, 一次伤害, 视为, 交给, 代替, 替换, 拼点,
移出游戏, 已损失的内力值, 翻面.  RECONSTRUCTION.md lists the cards and skills
that use each term; these tests use them.

Seats of the default 5-player table: 0 盟主, 1 护卫, 2 刺客, 3 刺客, 4 奸细;
from seat 0, seats 1 and 4 are at distance 1, seats 2 and 3 at distance 2.
"""
from __future__ import annotations

import pytest
from wulinsha_kit import FILL, act, asked, can, cards_in, hand, neili, pass_until, table, use


def names_seen(m, viewer: int) -> set[str]:
    """Every card name the viewer's log shows (hidden cards show as None)."""
    return {c for e in m.view(viewer)["log"] for c in e.get("cards") or () if c}


# ---- 获得 ------------------------------------------------------------------------------------------

def test_huode_a_hand_card_is_taken_at_random():
    """获得…若你指定的是其手牌,则随机选择一张: the taker names no hand card,
    and which one comes is left to chance (it differs from seed to seed)."""
    taken = set()
    for seed in range(12):
        m = table(5, hands={0: ["妙手空空 ♠3"], 1: ["杀 ♠8", "闪 ♦2"]}, seed=seed)
        use(m, "妙手空空 ♠3", 1)
        assert [a.option for a in m.legal_actions()] == ["hand"]
        act(m, "hand")
        taken |= set(hand(m, 0))
        assert len(hand(m, 0)) == 1 and len(hand(m, 1)) == 1
    assert taken == {"杀 ♠8", "闪 ♦2"}


def test_huode_an_equipped_or_judgement_card_is_chosen():
    """若你指定的是其装备区或判定区,是由你任选一张: each one is named."""
    m = table(5, hands={0: ["妙手空空 ♠3"], 1: ["闪 ♦2"]}, equips={1: ["金丝甲 ♠2", "倚天剑 ♠6"]},
              judging={1: ["点穴 ♠6"]})
    use(m, "妙手空空 ♠3", 1)
    offered = sorted(m.describe_action(a) for a in m.legal_actions())
    assert offered == ["card 倚天剑 ♠6", "card 点穴 ♠6", "card 金丝甲 ♠2", "hand"]
    act(m, "card", "点穴 ♠6")
    assert hand(m, 0) == ["点穴 ♠6"] and cards_in(m, "judging", 1) == []


# ---- 将…当… ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, stopped", [
    (["拆招 ♠3", "论剑 ♣A"], True),        # two black cards: a black 杀
    (["闪 ♦2", "包子 ♥3"], False),                               # two red cards: a red 杀
    (["拆招 ♠3", "包子 ♥3"], False),                             # mixed: a 杀 of no colour
])
def test_jiang_dang_several_cards_of_one_colour_keep_it_else_no_colour(cards, stopped):
    """将多张牌当一张牌使用…除非这些牌的颜色均相同(视为相应颜色),否则视为无色:
    互搏's two black cards make a black 杀, which 软猬甲 stops; a red or a colourless one it does not."""
    m = table(5, heroes={0: "龙姑娘"}, hands={0: list(cards)}, equips={1: ["软猬甲 ♣2"]})
    act(m, "互搏", cards)
    act(m, "player", player=1)
    assert neili(m, 1) == (4 if stopped else 3)


def test_jiang_dang_two_black_cards_through_jiujiebian_are_black_too():
    m = table(5, hands={0: ["拆招 ♠3", "论剑 ♣A"]}, equips={0: ["九节鞭 ♠Q"], 1: ["软猬甲 ♣2"]})
    act(m, "九节鞭", ["拆招 ♠3", "论剑 ♣A"])
    act(m, "player", player=1)
    assert neili(m, 1) == 4


def test_jiang_dang_converted_cards_are_themselves_again_once_resolved():
    """转化的牌在结算后恢复为原有属性: the 闪 and 包子 used as a 杀 reach the
    discard pile as a 闪 and a 包子, and are nothing else there."""
    m = table(5, heroes={0: "龙姑娘"}, hands={0: ["闪 ♦2", "包子 ♥3"]})
    act(m, "互搏", ["闪 ♦2", "包子 ♥3"])
    act(m, "player", player=1)
    assert neili(m, 1) == 3
    assert sorted(cards_in(m, "discard")) == ["包子 ♥3", "闪 ♦2"]
    assert sorted(c.props["kind"] for c in m.zone("discard").cards) == ["包子", "闪"]


def test_jiang_dang_converted_cards_taken_back_are_used_as_themselves():
    """权谋 takes the cards that hurt 赵王爷: a 闪 and a 包子 again, not a 杀."""
    m = table(5, heroes={0: "龙姑娘", 1: "赵王爷"}, hands={0: ["闪 ♦2", "包子 ♥3"]})
    act(m, "互搏", ["闪 ♦2", "包子 ♥3"])
    act(m, "player", player=1)
    act(m, "yes")                                      # 权谋
    assert hand(m, 1) == ["包子 ♥3", "闪 ♦2"]
    assert {c.props["kind"] for c in m.zone("hand", 1).cards} == {"包子", "闪"}


def test_jiang_dang_yanliu_two_cards_as_lunjian():
    """岩流: two hand cards as 论剑 — it is a 论剑: the target answers with 杀, twice (二天)."""
    m = table(5, heroes={0: "宫本武藏"}, hands={0: ["闪 ♦2", "包子 ♥3"], 2: ["杀 ♠8"]})
    act(m, "岩流", ["闪 ♦2", "包子 ♥3"])
    act(m, "player", player=2)
    act(m, "card", "杀 ♠8")                           # one 杀: two are needed each time
    assert neili(m, 2) == 3 and sorted(cards_in(m, "discard")) == ["包子 ♥3", "杀 ♠8", "闪 ♦2"]


# ---- 展示 and 亮出 -------------------------------------------------------------------------------

def test_zhanshi_the_card_is_shown_to_everyone_and_taken_back():
    """展示 (追查): the card taken is shown to all — a third player's view names
    it — and then it is in the hand of the one who took it."""
    m = table(5, heroes={0: "铁捕头"}, hands={0: ["杀 ♠7"]})
    act(m, "追查")
    act(m, "player", player=1)
    act(m, "黑桃")
    assert hand(m, 1) == ["杀 ♠7"] and neili(m, 1) == 4          # ♠ named: no damage
    assert "杀 ♠7" in names_seen(m, 3)


def test_liangchu_the_cards_turned_up_stay_shown_until_resolved():
    """亮出 (群英宴): the cards turned up from the deck lie face up for all
    while the players take them; what is left then goes to the discard pile."""
    m = table(4, hands={0: ["群英宴 ♥3"]}, deck=["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6", "杀 ♠8"], out=[3])
    use(m, "群英宴 ♥3")
    assert sorted(m.view(2)["zones"]["revealed"]["cards"]) == ["闪 ♦3", "闪 ♦4", "闪 ♦5"]
    act(m, "card", "闪 ♦3")
    assert sorted(m.view(2)["zones"]["revealed"]["cards"]) == ["闪 ♦4", "闪 ♦5"]
    act(m, "card", "闪 ♦4")
    act(m, "card", "闪 ♦5")
    assert cards_in(m, "revealed") == [] and cards_in(m, "deck") == ["闪 ♦6", "杀 ♠8"]


def test_liangchu_beidou_the_rest_is_discarded():
    """亮出 (北斗): three cards turned up; one of each suit taken, the rest discarded."""
    m = table(5, heroes={0: "王真人"}, phase="draw", deck=["杀 ♠8", "杀 ♠9", "闪 ♦2"] + FILL, vars={"turns": 5})
    act(m, "yes")
    assert sorted(m.view(3)["zones"]["revealed"]["cards"]) == ["杀 ♠8", "杀 ♠9", "闪 ♦2"]
    act(m, "card", "杀 ♠8")
    act(m, "card", "闪 ♦2")
    assert hand(m, 0) == ["杀 ♠8", "闪 ♦2"] and cards_in(m, "discard") == ["杀 ♠9"]


# ---- 一次伤害 ------------------------------------------------------------------------------------

def test_yici_shanghai_two_points_are_one_damage():
    """一次伤害 may be of several points: 无剑's 2 are one damage — 诏狱 (受到伤害后) is asked once, X = 2."""
    m = table(5, heroes={0: "三少爷", 1: "曹督公"}, player_vars={0: {"skills": ["无剑"]}},
              hands={0: ["杀 ♠7"]}, deck=FILL)
    use(m, "杀 ♠7", 1)
    assert neili(m, 1) == 2
    assert [e["name"] for e in m.events() if e.get("event") == "emit"].count("damaged") == 1
    act(m, "player", player=3)
    assert len(hand(m, 3)) == 2 and not asked(m, "pick_player_or_stop", 1)


# ---- 视为 ----------------------------------------------------------------------------------------

def test_shiwei_liumai_is_a_sha_without_any_card():
    """视为 (六脉): a 杀 is used with no card: nothing leaves a hand, only the
    judge card is discarded, and the phase's one 杀 is left."""
    m = table(5, heroes={0: "段公子"}, hands={0: ["杀 ♠7"]}, deck=["闪 ♦2"] + FILL)
    act(m, "六脉")
    act(m, "player", player=3)
    assert neili(m, 3) == 3
    assert hand(m, 0) == ["杀 ♠7"] and cards_in(m, "discard") == ["闪 ♦2"] and cards_in(m, "processing") == []
    assert can(m, "use", ["杀 ♠7"])


def test_shiwei_a_sha_without_cards_has_no_colour():
    """通过“视为”看作的另一种属性不是转化: 六脉's 杀 has no card, so no colour — 软猬甲 does not stop it."""
    m = table(5, heroes={0: "段公子"}, equips={3: ["软猬甲 ♣2"]}, deck=["闪 ♦2"] + FILL)
    act(m, "六脉")
    act(m, "player", player=3)
    assert neili(m, 3) == 3


def test_shiwei_douzhuan_strikes_back_without_a_sha_card():
    m = table(5, heroes={1: "慕容公子"}, hands={0: ["杀 ♠7"], 1: ["包子 ♥3"]})
    use(m, "杀 ♠7", 1)
    act(m, "card", "包子 ♥3")
    assert neili(m, 0) == 3 and sorted(cards_in(m, "discard")) == ["包子 ♥3", "杀 ♠7"]


def test_shiwei_jinsijia_a_shan_without_a_shan_card():
    """金丝甲: red judge — 视为 a 闪 was used; no 闪 card moves."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["闪 ♦3"]}, equips={1: ["金丝甲 ♠2"]}, deck=["包子 ♥3"])
    use(m, "杀 ♠7", 1)
    act(m, "yes")
    assert neili(m, 1) == 4 and hand(m, 1) == ["闪 ♦3"]


# ---- 交给 ----------------------------------------------------------------------------------------

def test_jiaogei_a_card_given_is_passed_face_down():
    """交给: 将牌以正面向下的方式传递 — 普度's card is seen by giver and taker, by nobody else."""
    m = table(5, heroes={0: "空镜大师"}, hands={0: ["杀 ♠7", "闪 ♦3"]})
    act(m, "普度", "闪 ♦3")
    act(m, "player", player=1)
    assert hand(m, 1) == ["闪 ♦3"]
    assert "闪 ♦3" in names_seen(m, 0) and "闪 ♦3" in names_seen(m, 1)
    assert "闪 ♦3" not in names_seen(m, 2) and "闪 ♦3" not in names_seen(m, 4)


def test_jiaogei_fuguo_the_cards_given_stay_hidden_from_the_others():
    m = table(5, heroes={0: "慕容公子"}, neili={0: 2}, hands={1: ["闪 ♦2"], 2: ["杀 ♠7"]})
    act(m, "复国")
    act(m, "player", player=1)
    act(m, "done")
    act(m, "card", "闪 ♦2")
    assert hand(m, 0) == ["闪 ♦2"] and "闪 ♦2" not in names_seen(m, 3)


def test_jiaogei_face_up_when_the_card_must_be_named():
    """若须指明此牌的某种属性,则改为正面朝上传递: 明教 gives a 闪 or 包子 — shown as it passes."""
    m = table(5, heroes={0: "张教主", 2: "楚香帅"}, hands={2: ["闪 ♦2", "杀 ♠7"]}, current=2)
    act(m, "明教", "闪 ♦2")
    act(m, "player", player=0)
    assert hand(m, 0) == ["闪 ♦2"] and "闪 ♦2" in names_seen(m, 3)


# ---- 代替 and 替换 --------------------------------------------------------------------------------

def test_daiti_xiantian_the_judge_card_replaced_is_discarded():
    """代替 (先天): the new card takes the judge card's place; the old one goes to the discard pile."""
    m = table(5, heroes={1: "王真人"}, hands={1: ["杀 ♠7"]}, judging={0: ["点穴 ♠6"]},
              deck=["包子 ♥4"] + FILL, phase="judge")
    act(m, "card", "杀 ♠7")
    pass_until(m, "play")
    assert m.current == 1                              # ♠7 judged: 0's play phase skipped
    assert "包子 ♥4" not in hand(m, 1)
    assert {"包子 ♥4", "杀 ♠7", "点穴 ♠6"} <= set(cards_in(m, "discard"))


def test_tihuan_shenghuo_takes_the_judge_card_it_replaces():
    """替换 (圣火): 用新的牌取代目标牌,你获得被取代的牌."""
    m = table(5, heroes={1: "波斯圣女"}, hands={1: ["杀 ♠7"]}, judging={0: ["点穴 ♠6"]},
              deck=["包子 ♥4"] + FILL, phase="judge")
    act(m, "card", "杀 ♠7")
    assert "包子 ♥4" in hand(m, 1)
    assert "包子 ♥4" not in cards_in(m, "discard") and "杀 ♠7" in cards_in(m, "discard")


def test_tihuan_daojian_takes_the_equipment_it_replaces():
    """替换 (盗剑): the hand card goes into the other's slot; the one it replaced comes to 玉小姐's hand."""
    m = table(5, heroes={0: "玉小姐"}, hands={0: ["射雕弓 ♥5"]}, equips={3: ["倚天剑 ♠6"]})
    act(m, "盗剑", "射雕弓 ♥5")
    act(m, "player", player=3)
    assert hand(m, 0) == ["倚天剑 ♠6"] and cards_in(m, "weapon", 3) == ["射雕弓 ♥5"]
    assert cards_in(m, "discard") == []


# ---- 拼点 ----------------------------------------------------------------------------------------

def test_pindian_the_cards_are_put_face_down_then_shown_at_once():
    """拼点: 各将一张手牌以正面朝下的方式放置后同时亮出: the second chooses without seeing the first."""
    m = table(5, hands={0: ["切磋 ♣5", "杀 ♦K"], 1: ["闪 ♦2", "杀 ♠8"]})
    use(m, "切磋 ♣5", 1)
    act(m, "card", "杀 ♦K")
    assert m.decision.player == 1 and m.view(1)["zones"]["face_down_card(0)"] == {"count": 1}
    act(m, "card", "闪 ♦2")
    assert {"杀 ♦K", "闪 ♦2"} <= names_seen(m, 3) and {"杀 ♦K", "闪 ♦2"} <= set(cards_in(m, "discard"))


@pytest.mark.parametrize("mine, theirs, won", [("杀 ♦K", "闪 ♦2", True), ("闪 ♦2", "杀 ♦K", False)])
def test_pindian_the_higher_number_wins(mine, theirs, won):
    """点数大的一方赢 (独孤: won, 杀 at any distance; lost, no 杀 this turn)."""
    m = table(5, heroes={0: "令狐少侠"}, hands={0: [mine, "杀 ♠7"], 1: [theirs]})
    act(m, "独孤")
    act(m, "player", player=1)
    act(m, "card", mine)
    act(m, "card", theirs)
    assert m.pvars[0]["dugu"] == ("won" if won else "lost")
    assert can(m, "use", ["杀 ♠7"]) is won


def test_pindian_a_tie_is_won_by_nobody():
    """点数大的一方赢: on equal numbers nobody wins — 独孤 has not won (没赢: no 杀 this turn),
    and 夺命 has not won (the 杀 may still be answered with 闪)."""
    m = table(5, heroes={0: "令狐少侠"}, hands={0: ["杀 ♦K", "杀 ♠7"], 1: ["闪 ♥K"]})
    act(m, "独孤")
    act(m, "player", player=1)
    act(m, "card", "杀 ♦K")
    act(m, "card", "闪 ♥K")
    assert m.pvars[0]["dugu"] == "lost" and not can(m, "use", ["杀 ♠7"])
    m = table(5, heroes={0: "三少爷"}, hands={0: ["杀 ♠7", "杀 ♦7"], 1: ["闪 ♦7", "闪 ♦2"]})
    use(m, "杀 ♠7", 1)
    act(m, "yes")                                   # 夺命
    act(m, "card", "杀 ♦7")
    act(m, "card", "闪 ♦7")                         # 7 against 7
    act(m, "card", "闪 ♦2")                         # the 闪 is still allowed
    assert neili(m, 1) == 4


def test_pindian_not_with_yourself():
    """你不能和自己拼点: 独孤, 切磋 and 夺命 offer only other players."""
    m = table(5, heroes={0: "令狐少侠"}, hands={0: ["切磋 ♣5", "杀 ♦K"], 1: ["闪 ♦2"], 3: ["闪 ♦3"]})
    act(m, "独孤")
    assert {a.player for a in m.legal_actions()} == {1, 3}
    m = table(5, hands={0: ["切磋 ♣5", "杀 ♦K"], 1: ["闪 ♦2"], 3: ["闪 ♦3"]})
    act(m, "use", "切磋 ♣5")
    assert {a.player for a in m.legal_actions()} == {1, 3}


# ---- 移出游戏 -------------------------------------------------------------------------------------

def test_yichu_youxi_huanhundan_never_comes_back():
    """移出游戏: 还魂丹 is set aside; when the deck is rebuilt from the discard pile, it is not in it."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["还魂丹 ♥2"]}, neili={1: 1}, deck=[])
    use(m, "杀 ♠7", 1)
    act(m, "还魂丹")
    assert cards_in(m, "removed") == ["还魂丹 ♥2"]
    act(m, "end")
    pass_until(m, "play")                              # seat 1 draws from the rebuilt deck
    assert cards_in(m, "removed") == ["还魂丹 ♥2"] and hand(m, 1) == ["杀 ♠7"]


def test_yichu_youxi_buqu_shang_are_not_his_cards_when_he_dies():
    """不屈's 伤 are out of the game: his death does not discard them (弃置该角色所有牌)."""
    m = table(5, heroes={1: "列奥尼达"}, neili={1: 1}, hands={0: ["杀 ♠7"], 1: ["闪 ♥2"]},
              zones={"伤(1)": ["杀 ♠9"]}, deck=["杀 ♣9"] + FILL)
    use(m, "杀 ♠7", 1)
    act(m, "pass")
    act(m, "不屈")                                     # ♣9: a number already there, discarded
    assert 1 not in m.players
    assert cards_in(m, "伤", 1) == ["杀 ♠9"] and "杀 ♠9" not in cards_in(m, "discard")


# ---- 已损失的内力值 -------------------------------------------------------------------------------

@pytest.mark.parametrize("now, most, reach", [(4, 4, {1, 6}), (2, 4, {1, 2, 3, 4, 5, 6}), (3, 4, {1, 2, 5, 6}),
                                               (3, 5, {1, 2, 3, 4, 5, 6})])
def test_yisunshi_de_neili_is_the_maximum_minus_the_neili_now(now, most, reach):
    """已损失的内力值 = 内力上限 − 当前内力 (not what was lost so far): 死战's range is 1 + X."""
    m = table(7, heroes={0: "魏将军"}, hands={0: ["杀 ♠7"]}, neili={0: now}, max_neili={0: most})
    act(m, "use", "杀 ♠7")
    assert {a.player for a in m.legal_actions()} == reach


def test_yisunshi_de_neili_falls_when_neili_is_recovered():
    """After 包子, 魏将军 has lost one less: the seats at distance 3 leave his range."""
    m = table(7, heroes={0: "魏将军"}, hands={0: ["杀 ♠7", "包子 ♥3"]}, neili={0: 2}, max_neili={0: 4})
    use(m, "包子 ♥3")
    act(m, "use", "杀 ♠7")
    assert {a.player for a in m.legal_actions()} == {1, 2, 5, 6}


# ---- 翻面 ----------------------------------------------------------------------------------------

def test_fanmian_a_face_down_hero_turns_face_up_and_skips_that_turn():
    """当一名角色的回合即将开始时,若其侠客牌处于背面朝上的状态,则将之翻转至正面朝上,然后跳过该回合."""
    m = table(5, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"] + FILL, player_vars={1: {"face_down": True}},
              vars={"turns": 5})
    act(m, "end")
    pass_until(m, "play")
    assert m.current == 2 and m.pvars[1]["face_down"] is False and hand(m, 1) == []


def test_fanmian_turning_face_up_at_the_turn_is_a_fanmian_too():
    """【翻面】: "由正面朝上翻转至背面朝上,或由背面朝上翻转至正面朝上": the
    turning over when the turn is about to begin is a 翻面 like any other,
    and the log says so (an event a skill may answer)."""
    m = table(5, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"] + FILL, player_vars={1: {"face_down": True}},
              vars={"turns": 5})
    act(m, "end")
    pass_until(m, "play")
    flipped = [e for e in m.events() if e.get("event") == "emit" and e["name"] == "flipped"]
    assert [e["fields"]["player"] for e in flipped] == [1]
    assert flipped[0]["text"] == "player 1 翻面"


def test_fanmian_only_that_turn_is_skipped():
    """Seats 1 and 2 are dead; seat 3 is face down: 4, 0, (3 skipped), 4, 0, then 3 plays."""
    deck = ["闪 ♦2", "闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦J", "闪 ♦J"] + FILL
    m = table(5, current=3, phase="finish", deck=deck, player_vars={3: {"face_down": True}},
              vars={"turns": 5}, out=[1, 2])
    order = []
    for _ in range(5):
        pass_until(m, "play")
        order.append(m.current)
        act(m, "end")
    assert order == [4, 0, 4, 0, 3]


def test_fanmian_turning_over_again_is_face_up():
    """翻面 both ways: 诏狱 turns a face-down hero face up again."""
    m = table(5, heroes={1: "曹督公"}, hands={0: ["杀 ♠7"]}, player_vars={3: {"face_down": True}}, deck=FILL)
    use(m, "杀 ♠7", 1)
    act(m, "player", player=3)
    assert m.pvars[3]["face_down"] is False and len(hand(m, 3)) == 1
