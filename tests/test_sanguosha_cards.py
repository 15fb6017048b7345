"""三国杀: every game card of the 108, one scenario per effect or limit.

Card effects follow /work/shared/reference/sanguosha.md §3 and the rulebook
(seeds/003).  Seats of the default 5-player table: 0 主公, 1 忠臣, 2 反贼,
3 反贼, 4 内奸; from seat 0, seats 1 and 4 are at distance 1, seats 2 and 3
at distance 2.
"""
from __future__ import annotations

from collections import Counter

import pytest
from sanguosha_kit import act, can, cards_in, game, hp, legal, table, use

# a few spare cards to draw from, none of which matters to the scenario
FILLER = ["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6", "闪 ♦7", "闪 ♦8"]
ROLES10 = ["主公", "忠臣", "忠臣", "忠臣", "反贼", "反贼", "反贼", "反贼", "内奸", "内奸"]


def targets(m) -> set[int]:
    """The players offered at a target choice."""
    return {a.player for a in m.legal_actions() if a.option == "player"}


def slash_targets(m, card: str) -> set[int]:
    """Whom ``card`` (a 杀 in the current player's hand) may be used on; empty if not usable."""
    if not can(m, "use", [card]):
        return set()
    act(m, "use", card)
    assert m.decision.choice == "target"
    return targets(m)


def game_cards(m) -> list:
    """Every game card (not a general) that is out of the box."""
    return [c for z in m.all_zones() if z.name != "box" for c in z.cards
            if c.props.get("type") != "general"]


def moves_of(m, card: str) -> list[str]:
    """The zones ``card`` was moved to, in order."""
    return [e["to"] for e in m.events() if e.get("event") == "move" and card in e.get("cards", ())]


def judged(m) -> list[str]:
    """Names of the cards turned up as judge cards, in order."""
    return [name for e in m.events() if e.get("event") == "move" and e.get("to") == "judgement"
            for name in e["cards"]]


# ---------------------------------------------------------------- the deck ---

REFERENCE = {  # reference §2.1: card -> suit/rank of every copy (* = EX)
    "杀": "♠7 ♠8 ♠8 ♠9 ♠9 ♠10 ♠10 ♥10 ♥10 ♥J ♣2 ♣3 ♣4 ♣5 ♣6 ♣7 ♣8 ♣8 ♣9 ♣9 ♣10 ♣10 ♣J ♣J "
          "♦6 ♦7 ♦8 ♦9 ♦10 ♦K",
    "闪": "♥2 ♥2 ♥K ♦2 ♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8 ♦9 ♦10 ♦J ♦J",
    "桃": "♥3 ♥4 ♥6 ♥7 ♥8 ♥9 ♥Q ♦Q",
    "过河拆桥": "♠3 ♠4 ♠Q ♥Q ♣3 ♣4",
    "顺手牵羊": "♠3 ♠4 ♠J ♦3 ♦4",
    "决斗": "♠A ♣A ♦A",
    "借刀杀人": "♣Q ♣K",
    "无中生有": "♥7 ♥8 ♥9 ♥J",
    "无懈可击": "♠J ♣Q ♣K ♦Q*",
    "南蛮入侵": "♠7 ♠K ♣7",
    "万箭齐发": "♥A",
    "桃园结义": "♥A",
    "五谷丰登": "♥3 ♥4",
    "闪电": "♠A ♥Q*",
    "乐不思蜀": "♠6 ♥6 ♣6",
    "诸葛连弩": "♣A ♦A",
    "青釭剑": "♠6",
    "寒冰剑": "♠2*",
    "雌雄双股剑": "♠2",
    "青龙偃月刀": "♠5",
    "丈八蛇矛": "♠Q",
    "贯石斧": "♦5",
    "方天画戟": "♦Q",
    "麒麟弓": "♥5",
    "八卦阵": "♠2 ♣2",
    "仁王盾": "♣2*",
    "的卢": "♣5",
    "绝影": "♠5",
    "爪黄飞电": "♥K",
    "赤兔": "♥5",
    "大宛": "♠K",
    "紫骍": "♦K",
}


def reference_deck(ex: bool) -> Counter:
    deck = Counter()
    for kind, copies in REFERENCE.items():
        for c in copies.split():
            if c.endswith("*") and not ex:
                continue
            deck[f"{kind} {c.rstrip('*')}"] += 1
    return deck


def test_deck_has_108_game_cards_with_ex():
    """标准版 104 + EX 4 = 108 game cards are shuffled into play with the EX option."""
    m = game().new_match(5, seed=1)
    assert len(game_cards(m)) == 108


def test_deck_has_104_game_cards_without_ex():
    """Without the EX option the 4 EX cards (寒冰剑 ♠2, 仁王盾 ♣2, 闪电 ♥Q, 无懈可击 ♦Q) stay out."""
    m = game().new_match(5, seed=1, options={"ex_cards": False})
    cards = game_cards(m)
    assert len(cards) == 104
    names = {c.name for c in cards}
    assert not names & {"寒冰剑 ♠2", "仁王盾 ♣2", "闪电 ♥Q", "无懈可击 ♦Q"}


@pytest.mark.parametrize("ex", [True, False])
def test_deck_suits_and_ranks_match_the_reference(ex):
    """Every card of the reference list, with its suit and rank, exactly once per copy."""
    m = game().new_match(5, seed=1, options={"ex_cards": ex})
    assert Counter(c.name for c in game_cards(m)) == reference_deck(ex)


def test_deck_basic_card_counts():
    """30 杀, 15 闪, 8 桃 (the same with and without EX)."""
    for ex in (True, False):
        m = game().new_match(5, seed=1, options={"ex_cards": ex})
        kinds = Counter(c.props["kind"] for c in game_cards(m))
        assert (kinds["杀"], kinds["闪"], kinds["桃"]) == (30, 15, 8)


def test_deck_per_suit_counts():
    """26 cards of each suit in the 104, 27 each with the EX cards."""
    for ex, n in ((True, 27), (False, 26)):
        m = game().new_match(5, seed=1, options={"ex_cards": ex})
        suits = Counter(c.props["suit"] for c in game_cards(m))
        assert suits == {"♠": n, "♥": n, "♣": n, "♦": n}


def test_card_colours_follow_suits():
    """♠ ♣ are black, ♥ ♦ red (仁王盾, 八卦阵, 武圣... read the colour)."""
    m = game().new_match(5, seed=1)
    for c in game_cards(m):
        assert c.props["color"] == ("black" if c.props["suit"] in "♠♣" else "red"), c.name


def test_setup_deals_generals_by_default():
    """With the default options the lord picks a general first (rulebook 挑选武将)."""
    m = game().new_match(5, seed=1)
    assert m.decision.choice == "pick_general"


# --------------------------------------------------------------------- 杀 ---

def test_slash_deals_one_damage_and_is_discarded():
    """杀 not answered by 闪: the target takes 1 damage; the used 杀 goes to the discard pile."""
    m = table(5, hands={0: ["杀 ♠7"]})
    use(m, "杀 ♠7", target=1)
    assert [hp(m, p) for p in range(5)] == [4, 3, 4, 4, 4]
    assert cards_in(m, "discard") == ["杀 ♠7"]
    assert cards_in(m, "hand", 0) == []


def test_slash_only_targets_players_in_attack_range():
    """Without a weapon the attack range is 1: only the two neighbours can be targeted."""
    m = table(5, hands={0: ["杀 ♠7"]})
    assert slash_targets(m, "杀 ♠7") == {1, 4}


def test_slash_not_usable_when_nobody_is_in_range():
    """杀 needs a target inside the attack range; both neighbours at distance 2 -> not usable."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["的卢 ♣5"], 4: ["绝影 ♠5"]})
    assert not can(m, "use", ["杀 ♠7"])


def test_second_slash_not_allowed_even_after_a_dodged_one():
    """Only one 杀 per play phase, whether or not the first one hit."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    assert hp(m, 1) == 4
    assert m.decision.choice == "play"
    assert not can(m, "use", ["杀 ♠8"])


def test_slash_limit_is_per_play_phase():
    """The one-杀 limit starts again in the player's next play phase."""
    deck = ["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6", "闪 ♦7", "闪 ♦8", "闪 ♦9", "闪 ♦10", "闪 ♦J",
            "闪 ♥2", "闪 ♥K", "桃 ♥3"]
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"]}, deck=deck)
    use(m, "杀 ♠7", target=1)
    assert not can(m, "use", ["杀 ♠8"])
    act(m, "end")
    for p in (1, 2, 3, 4):
        assert (m.decision.choice, m.current) == ("play", p)
        act(m, "end")
    assert (m.decision.choice, m.current) == ("play", 0)
    assert can(m, "use", ["杀 ♠8"])


def test_slash_played_in_a_duel_does_not_use_up_the_slash():
    """A 杀 played (打出) in a 决斗 is not a 杀 used: the one 杀 of the phase is still available."""
    m = table(5, hands={0: ["决斗 ♠A", "杀 ♠7", "杀 ♠8"], 1: ["杀 ♠9"]})
    use(m, "决斗 ♠A", target=1)
    act(m, "card", "杀 ♠9")        # the target plays first
    act(m, "card", "杀 ♠7")        # the user answers
    assert hp(m, 1) == 3           # the target has no second 杀
    assert can(m, "use", ["杀 ♠8"])


def test_dead_players_do_not_count_for_distance():
    """Distance counts living players only: with seat 1 dead, seat 2 is adjacent to seat 0."""
    m = table(5, hands={0: ["杀 ♠7"]}, out=[1])
    assert slash_targets(m, "杀 ♠7") == {2, 4}


# --------------------------------------------------------------------- 闪 ---

def test_jink_cannot_be_used_in_the_play_phase():
    """闪 is only played in response; it is never a 'use' option of the play phase."""
    m = table(5, hands={0: ["闪 ♦2"]}, hp={0: 3})
    assert not can(m, "use", ["闪 ♦2"])
    assert legal(m) == ["end"]


def test_jink_answers_archery_attack():
    """万箭齐发: each other player must play 闪 or take 1 damage."""
    m = table(5, hands={0: ["万箭齐发 ♥A"], 1: ["闪 ♦2"], 2: ["闪 ♦3"]})
    use(m, "万箭齐发 ♥A")
    act(m, "card", "闪 ♦2")
    act(m, "card", "闪 ♦3")
    assert [hp(m, p) for p in range(5)] == [4, 4, 4, 3, 3]


def test_jink_cannot_answer_savage_assault():
    """南蛮入侵 needs 杀: a player holding only 闪 is not asked and takes 1 damage."""
    m = table(5, hands={0: ["南蛮入侵 ♠7"], 1: ["闪 ♦2"]})
    use(m, "南蛮入侵 ♠7")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["闪 ♦2"]


def test_jink_cannot_answer_a_duel():
    """In a 决斗 only 杀 may be played: a target holding 闪 takes the damage."""
    m = table(5, hands={0: ["决斗 ♠A"], 2: ["闪 ♦2"]})
    use(m, "决斗 ♠A", target=2)
    assert hp(m, 2) == 3
    assert cards_in(m, "hand", 2) == ["闪 ♦2"]


# --------------------------------------------------------------------- 桃 ---

def test_peach_heals_oneself_in_the_play_phase_when_wounded():
    """桃 in one's own play phase: recover 1 HP."""
    m = table(5, hands={0: ["桃 ♥3"]}, hp={0: 3}, max_hp={0: 5})
    use(m, "桃 ♥3")
    assert hp(m, 0) == 4
    assert cards_in(m, "discard") == ["桃 ♥3"]


def test_peach_not_usable_at_full_hp():
    """桃 can only be used in the play phase when wounded."""
    m = table(5, hands={0: ["桃 ♥3"]}, hp={0: 5}, max_hp={0: 5})
    assert not can(m, "use", ["桃 ♥3"])


def test_peach_in_play_heals_only_the_user():
    """Outside dying, 桃 is used on oneself only, never on another wounded player."""
    m = table(5, hands={0: ["桃 ♥3"]}, hp={0: 4, 1: 2}, max_hp={0: 5, 1: 4})
    use(m, "桃 ♥3")
    assert (hp(m, 0), hp(m, 1)) == (5, 2)


def test_dying_player_saved_by_another_players_peach():
    """At 0 HP a player is dying; another player's 桃 brings them back to 1 HP."""
    m = table(5, hands={0: ["杀 ♠7"], 3: ["桃 ♥3"]}, hp={1: 1})
    use(m, "杀 ♠7", target=1)
    assert (m.decision.choice, m.decision.player) == ("peach", 3)
    act(m, "card", "桃 ♥3")
    assert hp(m, 1) == 1
    assert 1 in m.players


def test_dying_asks_for_peaches_in_seat_order_from_the_current_player():
    """Every living player, in seat order from the current player, may save the dying one."""
    m = table(5, hands={0: ["杀 ♠7", "桃 ♥3"], 2: ["桃 ♥4"], 4: ["桃 ♥6"]}, hp={1: 1},
              current=0)
    use(m, "杀 ♠7", target=1)
    asked = []
    while m.decision.choice == "peach":
        asked.append(m.decision.player)
        act(m, "pass")
    assert asked == [0, 2, 4]
    assert 1 not in m.players


def test_dying_from_minus_one_needs_two_peaches():
    """A dying player must reach at least 1 HP: from -1 it takes two 桃."""
    m = table(5, hands={1: ["桃 ♥3", "桃 ♥4", "桃 ♥6"]}, hp={0: 2}, max_hp={0: 5},
              phase="judge", judging={0: ["闪电 ♠A"]}, deck=["杀 ♠8"] + FILLER)
    # 闪电: 3 damage from 2 HP -> -1; 0 asked first, then 1, who must give two 桃
    assert (m.decision.choice, m.decision.player) == ("peach", 1)
    act(m, "card", "桃 ♥3")
    assert hp(m, 0) == 0
    assert (m.decision.choice, m.decision.player) == ("peach", 1)
    act(m, "card", "桃 ♥4")
    assert hp(m, 0) == 1
    assert cards_in(m, "hand", 1) == ["桃 ♥6"]


def test_dying_player_may_use_their_own_peach():
    """The dying player may use their own 桃 (even outside their turn)."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]}, hp={1: 1})
    use(m, "杀 ♠7", target=1)
    assert (m.decision.choice, m.decision.player) == ("peach", 1)
    act(m, "card", "桃 ♥3")
    assert hp(m, 1) == 1


def test_nobody_saves_the_dying_player_who_dies():
    """Without 桃 the dying player dies: identity shown, cards discarded, out of the game."""
    m = table(5, hands={0: ["杀 ♠7"], 4: ["闪 ♦2"]}, equips={4: ["八卦阵 ♣2"]}, hp={4: 1},
              deck=["杀 ♠8"])
    use(m, "杀 ♠7", target=4)
    act(m, "no")                       # 八卦阵 not used
    act(m, "pass")                     # no 闪
    assert 4 not in m.players
    assert m.pvars[4]["role_shown"]
    assert sorted(cards_in(m, "discard")) == sorted(["杀 ♠7", "闪 ♦2", "八卦阵 ♣2"])


# --------------------------------------------------------------- 过河拆桥 ---

def test_dismantle_takes_a_hand_card_blind():
    """过河拆桥 on a hand: the user cannot choose which hand card; one of them is discarded."""
    m = table(5, hands={0: ["过河拆桥 ♠3"], 2: ["杀 ♠7", "闪 ♦2"]})
    use(m, "过河拆桥 ♠3", target=2)
    assert m.decision.choice == "take_card"
    assert legal(m) == ["hand"]                  # no named hand card to pick
    act(m, "hand")
    assert len(cards_in(m, "hand", 2)) == 1
    assert sorted(cards_in(m, "discard")) == sorted(["过河拆桥 ♠3"] + [
        c for c in ["杀 ♠7", "闪 ♦2"] if c not in cards_in(m, "hand", 2)])


def test_dismantle_an_equipped_card():
    """过河拆桥 may discard a chosen equipped card."""
    m = table(5, hands={0: ["过河拆桥 ♠3"], 2: ["杀 ♠7"]},
              equips={2: ["八卦阵 ♣2", "赤兔 ♥5"]})
    use(m, "过河拆桥 ♠3", target=2)
    act(m, "card", "赤兔 ♥5")
    assert cards_in(m, "minus_horse", 2) == []
    assert cards_in(m, "armor", 2) == ["八卦阵 ♣2"]
    assert cards_in(m, "hand", 2) == ["杀 ♠7"]
    assert "赤兔 ♥5" in cards_in(m, "discard")


def test_dismantle_a_judgement_area_card():
    """过河拆桥 may discard a delayed trick from the target's judgement area."""
    m = table(5, hands={0: ["过河拆桥 ♠3"]}, judging={3: ["乐不思蜀 ♠6"]})
    use(m, "过河拆桥 ♠3", target=3)
    act(m, "card", "乐不思蜀 ♠6")
    assert cards_in(m, "judging", 3) == []
    assert "乐不思蜀 ♠6" in cards_in(m, "discard")


def test_dismantle_has_no_distance_limit():
    """过河拆桥 reaches any player with a card, however far; not oneself or an empty-handed player."""
    m = table(5, hands={0: ["过河拆桥 ♠3", "杀 ♠7"], 2: ["闪 ♦2"], 3: ["闪 ♦3"]},
              equips={2: ["的卢 ♣5"]})
    act(m, "use", "过河拆桥 ♠3")
    assert targets(m) == {2, 3}


def test_dismantle_not_usable_when_nobody_else_has_cards():
    """过河拆桥 needs another player with a card in hand, equipment or judgement area."""
    m = table(5, hands={0: ["过河拆桥 ♠3", "杀 ♠7"]}, equips={0: ["赤兔 ♥5"]})
    assert not can(m, "use", ["过河拆桥 ♠3"])


# --------------------------------------------------------------- 顺手牵羊 ---

def test_snatch_takes_a_hand_card_into_the_users_hand():
    """顺手牵羊: the user takes one card of the target into hand."""
    m = table(5, hands={0: ["顺手牵羊 ♠3"], 1: ["桃 ♥3"]})
    use(m, "顺手牵羊 ♠3", target=1)
    act(m, "hand")
    assert cards_in(m, "hand", 0) == ["桃 ♥3"]
    assert cards_in(m, "hand", 1) == []
    assert cards_in(m, "discard") == ["顺手牵羊 ♠3"]


def test_snatch_takes_an_equipped_card():
    """顺手牵羊 may take an equipped card; it goes to the user's hand, not their equipment."""
    m = table(5, hands={0: ["顺手牵羊 ♠3"]}, equips={4: ["诸葛连弩 ♣A"]})
    use(m, "顺手牵羊 ♠3", target=4)
    act(m, "card", "诸葛连弩 ♣A")
    assert cards_in(m, "hand", 0) == ["诸葛连弩 ♣A"]
    assert cards_in(m, "weapon", 0) == [] and cards_in(m, "weapon", 4) == []


def test_snatch_takes_a_judgement_area_card():
    """顺手牵羊 may take a delayed trick from the target's judgement area."""
    m = table(5, hands={0: ["顺手牵羊 ♠3"]}, judging={1: ["闪电 ♠A"]})
    use(m, "顺手牵羊 ♠3", target=1)
    act(m, "card", "闪电 ♠A")
    assert cards_in(m, "hand", 0) == ["闪电 ♠A"]
    assert cards_in(m, "judging", 1) == []


def test_snatch_hand_card_is_blind_equipment_is_chosen():
    """顺手牵羊: a hand card is taken blind; equipped cards are picked by name."""
    m = table(5, hands={0: ["顺手牵羊 ♠3"], 1: ["桃 ♥3", "闪 ♦2"]}, equips={1: ["赤兔 ♥5"]})
    use(m, "顺手牵羊 ♠3", target=1)
    assert sorted(legal(m)) == ["card 赤兔 ♥5", "hand"]


def test_snatch_only_at_distance_one():
    """顺手牵羊 reaches players at distance 1 only (a weapon does not extend it)."""
    m = table(5, hands={0: ["顺手牵羊 ♠3"], 1: ["闪 ♦2"], 2: ["闪 ♦3"], 3: ["闪 ♦4"],
                        4: ["闪 ♦5"]}, equips={0: ["麒麟弓 ♥5"]})
    act(m, "use", "顺手牵羊 ♠3")
    assert targets(m) == {1, 4}


def test_snatch_reaches_further_with_a_minus_horse():
    """A -1 horse brings distance-2 players to distance 1, in reach of 顺手牵羊."""
    m = table(5, hands={0: ["顺手牵羊 ♠3"], 2: ["闪 ♦3"], 3: ["闪 ♦4"]},
              equips={0: ["赤兔 ♥5"]})
    act(m, "use", "顺手牵羊 ♠3")
    assert targets(m) == {2, 3}


def test_snatch_blocked_by_a_plus_horse():
    """A +1 horse puts a neighbour at distance 2, out of reach of 顺手牵羊."""
    m = table(5, hands={0: ["顺手牵羊 ♠3"], 1: ["闪 ♦2"], 4: ["闪 ♦5"]},
              equips={1: ["爪黄飞电 ♥K"]})
    act(m, "use", "顺手牵羊 ♠3")
    assert targets(m) == {4}


# ------------------------------------------------------------------- 决斗 ---

def test_duel_target_without_slash_takes_one_damage():
    """决斗: the target plays 杀 first; not playing one, they take 1 damage from the user."""
    m = table(5, hands={0: ["决斗 ♠A"], 1: []})
    use(m, "决斗 ♠A", target=1)
    assert (hp(m, 0), hp(m, 1)) == (4, 3)
    assert cards_in(m, "discard") == ["决斗 ♠A"]


def test_duel_alternates_and_the_user_can_lose():
    """Target and user alternate 杀, target first; the first who does not takes 1 damage."""
    m = table(5, hands={0: ["决斗 ♠A", "杀 ♠7"], 3: ["杀 ♠8", "杀 ♠9"]})
    use(m, "决斗 ♠A", target=3)
    assert (m.decision.choice, m.decision.player) == ("respond", 3)
    act(m, "card", "杀 ♠8")
    assert (m.decision.choice, m.decision.player) == ("respond", 0)
    act(m, "card", "杀 ♠7")
    assert (m.decision.choice, m.decision.player) == ("respond", 3)
    act(m, "card", "杀 ♠9")
    # the user has no 杀 left: the user takes 1 damage
    assert (hp(m, 0), hp(m, 3)) == (3, 4)


def test_duel_user_may_decline_holding_a_slash():
    """Each may choose not to play 杀 even when holding one, and then takes the damage."""
    m = table(5, hands={0: ["决斗 ♠A", "杀 ♠7"], 1: ["杀 ♠8"]})
    use(m, "决斗 ♠A", target=1)
    act(m, "card", "杀 ♠8")
    act(m, "pass")
    assert (hp(m, 0), hp(m, 1)) == (3, 4)
    assert cards_in(m, "hand", 0) == ["杀 ♠7"]


def test_duel_damage_comes_from_the_winner():
    """The loser of a 决斗 takes damage from the other: a rebel user who loses rewards the target."""
    m = table(5, hands={2: ["决斗 ♠A"], 1: ["杀 ♠7"]}, hp={2: 1}, current=2, deck=FILLER)
    use(m, "决斗 ♠A", target=1)
    act(m, "card", "杀 ♠7")
    assert 2 not in m.players
    assert len(cards_in(m, "hand", 1)) == 3     # killing a rebel: draw 3


def test_duel_has_no_distance_limit_but_not_on_oneself():
    """决斗 targets any other player, at any distance."""
    m = table(5, hands={0: ["决斗 ♠A"]})
    act(m, "use", "决斗 ♠A")
    assert targets(m) == {1, 2, 3, 4}


# --------------------------------------------------------------- 借刀杀人 ---

def test_collateral_holder_slashes_the_victim():
    """借刀杀人: the weapon holder uses 杀 on the chosen victim in their range."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"], 2: ["杀 ♠7"]}, equips={2: ["青釭剑 ♠6"]})
    use(m, "借刀杀人 ♣Q", target=2)
    assert m.decision.choice == "victim"
    act(m, "player", player=4)                  # distance 2 from seat 2, range 2
    assert (m.decision.choice, m.decision.player) == ("respond", 2)
    act(m, "card", "杀 ♠7")
    assert hp(m, 4) == 3
    assert cards_in(m, "weapon", 2) == ["青釭剑 ♠6"]
    assert cards_in(m, "hand", 0) == []


def test_collateral_slash_goes_to_the_discard_pile():
    """The 杀 the holder uses for 借刀杀人 is discarded once resolved, like every used card."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"], 2: ["杀 ♠7"]}, equips={2: ["青釭剑 ♠6"]})
    use(m, "借刀杀人 ♣Q", target=2)
    act(m, "player", player=4)
    act(m, "card", "杀 ♠7")
    assert cards_in(m, "processing") == []
    assert sorted(cards_in(m, "discard")) == ["借刀杀人 ♣Q", "杀 ♠7"]


def test_collateral_holder_without_slash_gives_the_weapon():
    """借刀杀人: a holder who does not use 杀 hands their weapon to the user."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"]}, equips={2: ["麒麟弓 ♥5"]})
    use(m, "借刀杀人 ♣Q", target=2)
    act(m, "player", player=3)
    assert cards_in(m, "weapon", 2) == []
    assert cards_in(m, "hand", 0) == ["麒麟弓 ♥5"]
    assert hp(m, 3) == 4


def test_collateral_holder_may_refuse_and_give_the_weapon():
    """Holding a 杀 the holder may still refuse, and then gives the weapon."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"], 1: ["杀 ♠7"]}, equips={1: ["诸葛连弩 ♣A"]})
    use(m, "借刀杀人 ♣Q", target=1)
    act(m, "player", player=2)
    act(m, "pass")
    assert cards_in(m, "hand", 0) == ["诸葛连弩 ♣A"]
    assert cards_in(m, "hand", 1) == ["杀 ♠7"]
    assert hp(m, 2) == 4


def test_collateral_victim_must_be_in_the_holders_attack_range():
    """The victim is someone the holder could 杀: inside the holder's attack range (may be the user)."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"]}, equips={2: ["诸葛连弩 ♣A"]})
    use(m, "借刀杀人 ♣Q", target=2)
    assert targets(m) == {1, 3}                  # range 1 from seat 2


def test_collateral_victim_may_be_the_user():
    """The victim may be the user of 借刀杀人 when inside the holder's range."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"]}, equips={1: ["诸葛连弩 ♣A"]})
    use(m, "借刀杀人 ♣Q", target=1)
    assert targets(m) == {0, 2}


def test_collateral_needs_a_weapon_holder():
    """借刀杀人 needs another player with a weapon; without one it cannot be used."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"]}, equips={0: ["青釭剑 ♠6"], 2: ["八卦阵 ♣2"]})
    assert not can(m, "use", ["借刀杀人 ♣Q"])


def test_collateral_needs_someone_in_the_holders_range():
    """A holder with nobody in their attack range cannot be the target of 借刀杀人."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"]}, equips={2: ["诸葛连弩 ♣A"], 1: ["的卢 ♣5"],
                                                   3: ["绝影 ♠5"]})
    assert not can(m, "use", ["借刀杀人 ♣Q"])


# --------------------------------------------------------------- 无中生有 ---

def test_ex_nihilo_draws_two():
    """无中生有: the user draws 2 cards."""
    m = table(5, hands={0: ["无中生有 ♥7"]}, deck=["杀 ♠7", "闪 ♦2", "桃 ♥3"])
    use(m, "无中生有 ♥7")
    assert sorted(cards_in(m, "hand", 0)) == sorted(["杀 ♠7", "闪 ♦2"])
    assert cards_in(m, "deck") == ["桃 ♥3"]
    assert cards_in(m, "discard") == ["无中生有 ♥7"]


# --------------------------------------------------------------- 无懈可击 ---

def test_nullification_cannot_be_used_in_the_play_phase():
    """无懈可击 is only used against a trick, never on its own in the play phase."""
    m = table(5, hands={0: ["无懈可击 ♠J"]})
    assert not can(m, "use", ["无懈可击 ♠J"])


def test_nullification_cancels_ex_nihilo():
    """无懈可击 cancels a trick's effect: no card is drawn."""
    m = table(5, hands={0: ["无中生有 ♥7"], 2: ["无懈可击 ♠J"]}, deck=["杀 ♠7", "闪 ♦2"])
    use(m, "无中生有 ♥7")
    assert (m.decision.choice, m.decision.player) == ("nullify", 2)
    act(m, "card", "无懈可击 ♠J")
    assert cards_in(m, "hand", 0) == []
    assert sorted(cards_in(m, "discard")) == ["无中生有 ♥7", "无懈可击 ♠J"]


def test_nullification_can_be_answered_by_another_nullification():
    """A 无懈可击 can itself be cancelled by another: the trick then takes effect."""
    m = table(5, hands={0: ["无中生有 ♥7", "无懈可击 ♣Q"], 2: ["无懈可击 ♠J"]},
              deck=["杀 ♠7", "闪 ♦2"])
    use(m, "无中生有 ♥7")
    assert (m.decision.choice, m.decision.player) == ("nullify", 0)
    act(m, "pass")                               # the user does not nullify their own trick
    act(m, "card", "无懈可击 ♠J")
    assert (m.decision.choice, m.decision.player) == ("nullify", 0)
    act(m, "card", "无懈可击 ♣Q")
    assert sorted(cards_in(m, "hand", 0)) == sorted(["杀 ♠7", "闪 ♦2"])


def test_nullification_chain_of_three_cancels_the_trick():
    """Three 无懈可击 in a chain: the third cancels the second, so the first stands."""
    m = table(5, hands={0: ["无中生有 ♥7", "无懈可击 ♣Q"], 2: ["无懈可击 ♠J", "无懈可击 ♣K"]},
              deck=["杀 ♠7", "闪 ♦2"])
    use(m, "无中生有 ♥7")
    act(m, "pass")
    act(m, "card", "无懈可击 ♠J")
    act(m, "card", "无懈可击 ♣Q")
    assert (m.decision.choice, m.decision.player) == ("nullify", 2)
    act(m, "card", "无懈可击 ♣K")
    assert cards_in(m, "hand", 0) == []
    assert cards_in(m, "deck") == ["杀 ♠7", "闪 ♦2"]


def test_nullification_protects_one_target_of_savage_assault():
    """Against a trick with several targets, 无懈可击 cancels it for one target only."""
    m = table(5, hands={0: ["南蛮入侵 ♠7"], 1: ["无懈可击 ♠J"]})
    use(m, "南蛮入侵 ♠7")
    assert m.decision.args[1:] == ("南蛮入侵", 1)
    act(m, "card", "无懈可击 ♠J")
    assert [hp(m, p) for p in range(5)] == [4, 4, 3, 3, 3]


def test_nullification_cancels_collateral():
    """A nullified 借刀杀人 does nothing: the holder keeps the weapon."""
    m = table(5, hands={0: ["借刀杀人 ♣Q"], 3: ["无懈可击 ♠J"]}, equips={2: ["青釭剑 ♠6"]})
    use(m, "借刀杀人 ♣Q", target=2)
    act(m, "player", player=4)
    act(m, "card", "无懈可击 ♠J")
    assert cards_in(m, "weapon", 2) == ["青釭剑 ♠6"]
    assert cards_in(m, "hand", 0) == []


def test_nullification_cancels_a_duel():
    """A nullified 决斗: nobody plays 杀, nobody is hurt."""
    m = table(5, hands={0: ["决斗 ♠A"], 1: ["无懈可击 ♠J", "杀 ♠7"]})
    use(m, "决斗 ♠A", target=1)
    act(m, "card", "无懈可击 ♠J")
    assert (hp(m, 0), hp(m, 1)) == (4, 4)
    assert cards_in(m, "hand", 1) == ["杀 ♠7"]


def test_nullification_protects_one_player_from_peach_garden():
    """Against 桃园结义, 无懈可击 stops the recovery of one player only."""
    m = table(5, hands={0: ["桃园结义 ♥A"], 3: ["无懈可击 ♠J"]}, hp={1: 2, 2: 2}, max_hp={1: 4, 2: 4})
    use(m, "桃园结义 ♥A")
    assert m.decision.args[1:] == ("桃园结义", 1)
    act(m, "pass")
    assert m.decision.args[1:] == ("桃园结义", 2)
    act(m, "card", "无懈可击 ♠J")
    assert (hp(m, 1), hp(m, 2)) == (3, 2)


def test_nullification_skips_one_player_of_amazing_grace():
    """Against 五谷丰登, a nullified player takes no card; the next player takes on."""
    deck = ["杀 ♠7", "闪 ♦2", "桃 ♥3", "决斗 ♠A", "赤兔 ♥5"]
    m = table(5, hands={0: ["五谷丰登 ♥3"], 1: ["无懈可击 ♠J"]}, deck=deck)
    use(m, "五谷丰登 ♥3")
    act(m, "pass")                              # 0 takes a card
    act(m, "card", "桃 ♥3")
    assert m.decision.args[1:] == ("五谷丰登", 1)
    act(m, "card", "无懈可击 ♠J")               # 1 nullifies it for themselves (an odd choice)
    assert m.decision.choice == "own_card" and m.decision.player == 2
    for p in (2, 3, 4):
        assert m.decision.player == p
        act(m, "card", cards_in(m, "revealed")[0])
    assert cards_in(m, "hand", 1) == []
    assert cards_in(m, "revealed") == []
    assert len(cards_in(m, "discard")) == 3    # 五谷丰登, 无懈可击 and the card left over


# --------------------------------------------------------------- 南蛮入侵 ---

def test_savage_assault_asks_the_others_for_slash_in_seat_order():
    """南蛮入侵: every other player, in seat order from the user's next, plays 杀 or takes 1 damage."""
    m = table(5, hands={0: ["南蛮入侵 ♠7", "杀 ♣2"], 1: ["杀 ♠7"], 2: ["杀 ♠8"], 3: [],
                        4: ["杀 ♠9"]})
    use(m, "南蛮入侵 ♠7")
    answers = {1: ("card", "杀 ♠7"), 2: ("pass", ()), 4: ("card", "杀 ♠9")}
    asked = []
    while m.decision.choice == "respond":
        asked.append(m.decision.player)
        act(m, *answers[m.decision.player])
    assert asked == [1, 2, 4]                     # 3 has no 杀: not asked
    assert [hp(m, p) for p in range(5)] == [4, 4, 3, 3, 4]
    assert cards_in(m, "hand", 0) == ["杀 ♣2"]   # the user is not a target


def test_savage_assault_order_starts_after_the_user():
    """Used by seat 2, 南蛮入侵 asks seats 3, 4, 0, 1 in turn."""
    m = table(5, hands={2: ["南蛮入侵 ♠7"], 0: ["杀 ♠7"], 1: ["杀 ♠8"], 3: ["杀 ♠9"],
                        4: ["杀 ♣2"]}, current=2)
    use(m, "南蛮入侵 ♠7")
    asked = []
    while m.decision.choice == "respond":
        asked.append(m.decision.player)
        act(m, "pass")
    assert asked == [3, 4, 0, 1]
    assert [hp(m, p) for p in range(5)] == [3, 3, 4, 3, 3]


def test_savage_assault_damage_comes_from_the_user():
    """南蛮入侵 damage is dealt by its user: killing a rebel with it draws the user 3 cards."""
    m = table(5, hands={0: ["南蛮入侵 ♠7"]}, hp={2: 1}, deck=FILLER)
    use(m, "南蛮入侵 ♠7")
    assert 2 not in m.players
    assert len(cards_in(m, "hand", 0)) == 3


# --------------------------------------------------------------- 万箭齐发 ---

def test_archery_attack_hits_every_other_player_without_jink():
    """万箭齐发: all other players without 闪 take 1 damage; the user does not."""
    m = table(5, hands={0: ["万箭齐发 ♥A", "闪 ♦2"]})
    use(m, "万箭齐发 ♥A")
    assert [hp(m, p) for p in range(5)] == [4, 3, 3, 3, 3]


def test_eight_diagram_answers_archery_attack():
    """八卦阵 works whenever a 闪 is needed, also against 万箭齐发."""
    m = table(5, hands={0: ["万箭齐发 ♥A"]}, equips={1: ["八卦阵 ♠2"]}, deck=["桃 ♥3"])
    use(m, "万箭齐发 ♥A")
    assert m.decision.args == (1, "八卦阵")
    act(m, "yes")
    assert [hp(m, p) for p in range(5)] == [4, 4, 3, 3, 3]


def test_archery_attack_nullified_for_one_target():
    """万箭齐发 and 无懈可击: the nullified player is spared, the others are not."""
    m = table(5, hands={0: ["万箭齐发 ♥A"], 4: ["无懈可击 ♠J"]})
    use(m, "万箭齐发 ♥A")
    act(m, "pass")                               # for seat 1
    act(m, "pass")                               # for seat 2
    act(m, "pass")                               # for seat 3
    act(m, "card", "无懈可击 ♠J")                 # for seat 4
    assert [hp(m, p) for p in range(5)] == [4, 3, 3, 3, 4]


# --------------------------------------------------------------- 桃园结义 ---

def test_peach_garden_heals_every_wounded_player_by_one():
    """桃园结义: every wounded player (user included) recovers 1; nobody exceeds max HP."""
    m = table(5, hands={0: ["桃园结义 ♥A"]}, hp={0: 3, 1: 1, 2: 4, 3: 2},
              max_hp={0: 5, 1: 4, 2: 4, 3: 3, 4: 4})
    use(m, "桃园结义 ♥A")
    assert [hp(m, p) for p in range(5)] == [4, 2, 4, 3, 4]
    assert cards_in(m, "discard") == ["桃园结义 ♥A"]


def test_peach_garden_usable_when_nobody_is_wounded():
    """桃园结义 targets all players; it can be used even if nobody is wounded (no effect)."""
    m = table(5, hands={0: ["桃园结义 ♥A"]}, hp={0: 5}, max_hp={0: 5})
    assert can(m, "use", ["桃园结义 ♥A"])


# --------------------------------------------------------------- 五谷丰登 ---

def test_amazing_grace_each_living_player_takes_one_starting_with_the_user():
    """五谷丰登: reveal one card per living player; from the user, each takes one."""
    deck = ["杀 ♠7", "闪 ♦2", "桃 ♥3", "决斗 ♠A", "赤兔 ♥5", "杀 ♠8"]
    m = table(5, hands={0: ["五谷丰登 ♥3"]}, deck=deck, current=0)
    use(m, "五谷丰登 ♥3")
    assert sorted(cards_in(m, "revealed")) == sorted(deck[:5])
    picks = {0: "桃 ♥3", 1: "决斗 ♠A", 2: "杀 ♠7", 3: "赤兔 ♥5", 4: "闪 ♦2"}
    order = []
    while m.decision is not None and m.decision.choice == "own_card":
        p = m.decision.player
        order.append(p)
        act(m, "card", picks[p])
    assert order == [0, 1, 2, 3, 4]
    for p, card in picks.items():
        assert card in cards_in(m, "hand", p)
    assert cards_in(m, "deck") == ["杀 ♠8"]
    assert cards_in(m, "revealed") == []


def test_amazing_grace_reveals_only_as_many_cards_as_living_players():
    """With one player dead, 4 cards are revealed among 4 living players."""
    deck = ["杀 ♠7", "闪 ♦2", "桃 ♥3", "决斗 ♠A", "赤兔 ♥5"]
    m = table(5, hands={0: ["五谷丰登 ♥3"]}, deck=deck, out=[2])
    use(m, "五谷丰登 ♥3")
    assert len(cards_in(m, "revealed")) == 4
    assert cards_in(m, "deck") == ["赤兔 ♥5"]


# --------------------------------------------------------------- 乐不思蜀 ---

def judge_turn(judging: dict, deck: list[str], **kw):
    """A match at the judge phase of seat 0, with the judge cards on top of the deck."""
    return table(5, judging=judging, deck=deck + FILLER, phase="judge", **kw)


def test_indulgence_is_placed_in_the_targets_judgement_area():
    """乐不思蜀 goes face up into another player's judgement area; any distance."""
    m = table(5, hands={0: ["乐不思蜀 ♠6"]})
    act(m, "use", "乐不思蜀 ♠6")
    assert targets(m) == {1, 2, 3, 4}
    act(m, "player", player=2)
    assert cards_in(m, "judging", 2) == ["乐不思蜀 ♠6"]
    assert cards_in(m, "discard") == []


def test_indulgence_not_on_a_player_who_already_has_one():
    """No two cards of the same name in one judgement area."""
    m = table(5, hands={0: ["乐不思蜀 ♠6"]}, judging={2: ["乐不思蜀 ♣6"]})
    act(m, "use", "乐不思蜀 ♠6")
    assert targets(m) == {1, 3, 4}


def test_indulgence_non_heart_judgement_skips_the_play_phase():
    """乐不思蜀: unless the judge card is ♥, the player skips the play phase; the card is discarded."""
    m = judge_turn({0: ["乐不思蜀 ♠6"]}, ["闪 ♦2"])
    assert judged(m) == ["闪 ♦2"]
    assert m.decision.player != 0 or m.decision.choice != "play"
    assert m.current != 0
    assert "乐不思蜀 ♠6" in cards_in(m, "discard")
    assert cards_in(m, "judging", 0) == []


def test_indulgence_heart_judgement_keeps_the_play_phase():
    """乐不思蜀 with a ♥ judge card: no effect, the card is discarded all the same."""
    m = judge_turn({0: ["乐不思蜀 ♠6"]}, ["桃 ♥3"])
    assert (m.decision.choice, m.decision.player) == ("play", 0)
    assert sorted(cards_in(m, "discard")) == ["乐不思蜀 ♠6", "桃 ♥3"]


def test_indulgence_cancelled_by_nullification():
    """A nullified 乐不思蜀 is discarded without a judgement; the play phase is kept."""
    m = judge_turn({0: ["乐不思蜀 ♠6"]}, ["闪 ♦2"], hands={3: ["无懈可击 ♠J"]})
    assert (m.decision.choice, m.decision.player) == ("nullify", 3)
    act(m, "card", "无懈可击 ♠J")
    assert judged(m) == []
    assert (m.decision.choice, m.decision.player) == ("play", 0)
    assert "乐不思蜀 ♠6" in cards_in(m, "discard")


# ------------------------------------------------------------------- 闪电 ---

def test_lightning_is_placed_on_oneself():
    """闪电 is used on oneself: it goes into the user's judgement area, no target chosen."""
    m = table(5, hands={0: ["闪电 ♠A", "杀 ♠7"]})
    act(m, "use", "闪电 ♠A")
    assert cards_in(m, "judging", 0) == ["闪电 ♠A"]
    assert m.decision.choice == "play"


def test_lightning_not_usable_when_one_is_already_there():
    """No two 闪电 in one judgement area."""
    m = table(5, hands={0: ["闪电 ♥Q"]}, judging={0: ["闪电 ♠A"]})
    assert not can(m, "use", ["闪电 ♥Q"])


@pytest.mark.parametrize("card", ["雌雄双股剑 ♠2", "杀 ♠9", "绝影 ♠5"])
def test_lightning_strikes_on_spade_2_to_9(card):
    """闪电: a ♠2–9 judge card deals 3 damage to the holder; 闪电 is discarded."""
    m = judge_turn({0: ["闪电 ♠A"]}, [card], hp={0: 5}, max_hp={0: 5})
    assert hp(m, 0) == 2
    assert "闪电 ♠A" in cards_in(m, "discard")
    assert all(cards_in(m, "judging", p) == [] for p in range(5))


@pytest.mark.parametrize("card", ["决斗 ♠A", "杀 ♠10", "无懈可击 ♠J", "杀 ♣8", "桃 ♥3"])
def test_lightning_moves_on_to_the_next_player_otherwise(card):
    """Any other judge card (♠A, ♠10+, other suits): 闪电 moves to the next player, no damage."""
    m = judge_turn({0: ["闪电 ♥Q"]}, [card], hp={0: 5}, max_hp={0: 5})
    assert hp(m, 0) == 5
    assert cards_in(m, "judging", 0) == []
    assert cards_in(m, "judging", 1) == ["闪电 ♥Q"]


def test_lightning_skips_a_player_who_already_has_one():
    """闪电 moves on to the next player who can hold it (not one who already has a 闪电)."""
    m = judge_turn({0: ["闪电 ♠A"], 1: ["闪电 ♥Q"]}, ["桃 ♥3"])
    assert cards_in(m, "judging", 1) == ["闪电 ♥Q"]
    assert cards_in(m, "judging", 2) == ["闪电 ♠A"]


def test_lightning_skips_dead_players():
    """闪电 moves to the next living player."""
    m = judge_turn({0: ["闪电 ♠A"]}, ["桃 ♥3"], out=[1])
    assert cards_in(m, "judging", 2) == ["闪电 ♠A"]


def test_nullified_lightning_still_moves_on():
    """A nullified 闪电 is not judged but still moves on to the next player."""
    m = judge_turn({0: ["闪电 ♠A"]}, ["杀 ♠8"], hands={2: ["无懈可击 ♠J"]})
    act(m, "card", "无懈可击 ♠J")
    assert judged(m) == []
    assert hp(m, 0) == 4
    assert cards_in(m, "judging", 1) == ["闪电 ♠A"]


def test_lightning_damage_has_no_source():
    """闪电 damage comes from no player: killing a rebel with it rewards nobody."""
    m = judge_turn({2: ["闪电 ♠A"]}, ["杀 ♠8"], hp={2: 1}, current=2)
    assert 2 not in m.players
    assert "闪电 ♠A" in cards_in(m, "discard")
    assert (m.current, m.phase) == (3, "play")
    assert [len(cards_in(m, "hand", p)) for p in (0, 1, 3, 4)] == [0, 0, 2, 0]  # 3: draw phase


def test_delayed_tricks_judged_last_placed_first_lightning_last():
    """Judge phase: the delayed trick placed last is judged first (闪电 placed after 乐不思蜀)."""
    # first judge card ♥ (闪电 moves on), second ♠5 (乐不思蜀 takes effect)
    m = judge_turn({0: ["乐不思蜀 ♠6", "闪电 ♠A"]}, ["桃 ♥3", "绝影 ♠5"])
    assert judged(m)[:2] == ["桃 ♥3", "绝影 ♠5"]
    assert hp(m, 0) == 4
    assert moves_of(m, "闪电 ♠A")[1:3] == ["processing", "judging(1)"]
    assert m.current != 0                      # play phase skipped


def test_delayed_tricks_judged_last_placed_first_indulgence_last():
    """乐不思蜀 placed after 闪电 is judged first."""
    m = judge_turn({0: ["闪电 ♠A", "乐不思蜀 ♠6"]}, ["桃 ♥3", "绝影 ♠5"])
    assert hp(m, 0) == 1                       # 闪电 judged second, on ♠5
    assert (m.decision.choice, m.decision.player) == ("play", 0)


def test_delayed_trick_used_as_by_guose_is_judged_in_its_place():
    """A ♦ card put there by 国色 is a 乐不思蜀 of the judgement area, judged
    in the order it was placed like any other."""
    m = judge_turn({0: ["闪电 ♠A", "闪 ♦2"]}, ["杀 ♣8", "桃 ♥3"])
    assert judged(m)[:2] == ["杀 ♣8", "桃 ♥3"]
    assert m.current != 0                      # the 国色 乐不思蜀 took effect on ♣8
    assert moves_of(m, "闪电 ♠A")[1:3] == ["processing", "judging(1)"]   # moved on, on ♥3
    assert "闪 ♦2" in cards_in(m, "discard")


def end_turn_to_the_next_judge_phase(m):
    """From seat 0's play phase with nothing to discard, on to seat 1's judge phase."""
    act(m, "end")
    assert (m.current, m.phase) != (0, "play")


def test_placing_indulgence_puts_it_on_top_so_it_is_judged_first():
    """Putting 乐不思蜀 on a player holding 闪电 makes 乐不思蜀 the last placed:
    in that player's next judge phase it is judged first."""
    m = table(5, hands={0: ["乐不思蜀 ♠6"], 1: []}, judging={1: ["闪电 ♠A"]},
              deck=["桃 ♥3", "绝影 ♠5"] + FILLER)
    use(m, "乐不思蜀 ♠6", target=1)
    assert cards_in(m, "judging", 1) == ["乐不思蜀 ♠6", "闪电 ♠A"]
    end_turn_to_the_next_judge_phase(m)
    # 乐不思蜀 on ♥3: no effect; then 闪电 on ♠5: 3 damage
    assert judged(m) == ["桃 ♥3", "绝影 ♠5"]
    assert hp(m, 1) == 1
    assert (m.current, m.decision.choice) == (1, "play")


def test_lightning_moving_on_is_placed_last():
    """闪电 arriving from the previous player counts as placed after an earlier
    乐不思蜀: in that player's judge phase it is judged first."""
    m = judge_turn({0: ["闪电 ♠A"], 1: ["乐不思蜀 ♠6"]},
                   ["桃 ♥3", "闪 ♦2", "杀 ♦7", "杀 ♠8", "桃 ♥4"], hands={1: []})
    assert cards_in(m, "judging", 1) == ["闪电 ♠A", "乐不思蜀 ♠6"]
    end_turn_to_the_next_judge_phase(m)        # seat 0 drew 闪 ♦2 and 杀 ♦7
    # 闪电 on ♠8: 3 damage; then 乐不思蜀 on ♥4: no effect
    assert judged(m) == ["桃 ♥3", "杀 ♠8", "桃 ♥4"]
    assert hp(m, 1) == 1
    assert (m.current, m.decision.choice) == (1, "play")


def test_judgement_area_holds_one_delayed_trick_of_each_name():
    """No two cards of the same name in a judgement area: with a 乐不思蜀
    there (a real one or a 国色 card), no 乐不思蜀 can be placed; a 闪电
    can, and the other way round."""
    m = table(5, hands={0: ["乐不思蜀 ♠6", "闪电 ♠A"]}, judging={0: ["乐不思蜀 ♣6"], 2: ["闪 ♦2"],
                                                            3: ["闪电 ♥Q"]})
    assert can(m, "use", ["闪电 ♠A"])
    act(m, "use", "乐不思蜀 ♠6")
    assert targets(m) == {1, 3, 4}


# ----------------------------------------------------------------- weapons ---

RANGES = {"诸葛连弩 ♣A": 1, "青釭剑 ♠6": 2, "寒冰剑 ♠2": 2, "雌雄双股剑 ♠2": 2,
          "青龙偃月刀 ♠5": 3, "丈八蛇矛 ♠Q": 3, "贯石斧 ♦5": 3, "方天画戟 ♦Q": 4, "麒麟弓 ♥5": 5}


@pytest.mark.parametrize("weapon,reach", list(RANGES.items()))
def test_weapon_attack_range(weapon, reach):
    """A weapon sets the attack range: 1,2,2,2,3,3,3,4,5 (10 players: seat k at distance min(k, 10-k))."""
    m = table(10, roles=ROLES10, hands={0: ["杀 ♠7"]}, equips={0: [weapon]})
    want = {k for k in range(1, 10) if min(k, 10 - k) <= reach}
    assert slash_targets(m, "杀 ♠7") == want


def test_weapon_range_card_props():
    """The weapon cards carry the reference ranges."""
    m = game().new_match(5, seed=1)
    for c in game_cards(m):
        if c.props.get("slot") == "weapon":
            assert c.props["range"] == RANGES[[k for k in RANGES if k.startswith(c.props["kind"])][0]]


def test_crossbow_allows_any_number_of_slashes():
    """诸葛连弩: no limit on 杀 in the play phase."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8", "杀 ♠9"]}, equips={0: ["诸葛连弩 ♣A"]})
    use(m, "杀 ♠7", target=1)
    use(m, "杀 ♠8", target=1)
    use(m, "杀 ♠9", target=4)
    assert (hp(m, 1), hp(m, 4)) == (2, 3)


def test_crossbow_lost_restores_the_limit():
    """Once 诸葛连弩 is replaced, the one-杀 limit applies again."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8", "青釭剑 ♠6"]}, equips={0: ["诸葛连弩 ♣A"]})
    use(m, "杀 ♠7", target=1)
    use(m, "青釭剑 ♠6")
    assert not can(m, "use", ["杀 ♠8"])


def test_qinggang_sword_ignores_eight_diagram():
    """青釭剑: the target's armour is ignored — no 八卦阵 judgement is offered."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["青釭剑 ♠6"], 2: ["八卦阵 ♠2"]},
              deck=["桃 ♥3"])
    use(m, "杀 ♠7", target=2)
    assert hp(m, 2) == 3
    assert judged(m) == []


def test_qinggang_sword_ignores_renwang_shield():
    """青釭剑: a black 杀 hits a 仁王盾 holder."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["青釭剑 ♠6"], 1: ["仁王盾 ♣2"]})
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3


def test_ice_sword_prevents_damage_and_discards_two_cards():
    """寒冰剑: instead of the damage, discard two of the target's cards, one after the other."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["桃 ♥3", "桃 ♥4"]}, equips={0: ["寒冰剑 ♠2"],
                                                                 1: ["赤兔 ♥5"]})
    use(m, "杀 ♠7", target=1)
    assert m.decision.args == (0, "寒冰剑")
    act(m, "yes")
    act(m, "card", "赤兔 ♥5")
    act(m, "hand")
    assert hp(m, 1) == 4
    assert len(cards_in(m, "hand", 1)) == 1 and cards_in(m, "minus_horse", 1) == []


def test_ice_sword_may_be_declined():
    """寒冰剑 is optional: declined, the 杀 deals its damage."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]}, equips={0: ["寒冰剑 ♠2"]})
    use(m, "杀 ♠7", target=1)
    act(m, "no")
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 1) == ["桃 ♥3"]


def test_ice_sword_not_offered_against_a_player_without_cards():
    """寒冰剑 only when the target has cards."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["寒冰剑 ♠2"]})
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3


def test_ice_sword_with_one_card_left_discards_it_and_still_prevents_damage():
    """寒冰剑 on a target with a single card: that card is discarded, no damage."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["寒冰剑 ♠2"], 1: ["绝影 ♠5"]})
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    act(m, "card", "绝影 ♠5")
    assert hp(m, 1) == 4
    assert cards_in(m, "plus_horse", 1) == []
    assert m.decision.choice == "play"


def test_ice_sword_only_for_slash_damage():
    """寒冰剑 works on 杀 damage only, not on a 决斗's."""
    m = table(5, hands={0: ["决斗 ♠A"], 1: ["桃 ♥3"]}, equips={0: ["寒冰剑 ♠2"]})
    use(m, "决斗 ♠A", target=1)
    assert hp(m, 1) == 3
    assert m.decision.choice == "play"


def test_ice_sword_cannot_take_judgement_cards():
    """寒冰剑 discards hand or equipped cards, not the judgement area."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]}, equips={0: ["寒冰剑 ♠2"]},
              judging={1: ["乐不思蜀 ♠6"]})
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    assert legal(m) == ["hand"]


def test_double_swords_opposite_gender_lets_the_user_draw():
    """雌雄双股剑: against the other gender, the target discards a hand card or the user draws 1."""
    m = table(5, generals={0: "吕蒙", 1: "孙尚香"}, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]},
              equips={0: ["雌雄双股剑 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", target=1)
    assert m.decision.args == (0, "雌雄双股剑")
    act(m, "yes")
    assert (m.decision.choice, m.decision.player) == ("swords", 1)
    act(m, "let_draw")
    assert cards_in(m, "hand", 0) == ["闪 ♦2"]
    assert hp(m, 1) == 3


def test_double_swords_target_may_discard_instead():
    """雌雄双股剑: the target may discard a hand card instead."""
    m = table(5, generals={0: "孙尚香", 1: "吕蒙"}, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]},
              equips={0: ["雌雄双股剑 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    act(m, "discard", "桃 ♥3")
    assert cards_in(m, "hand", 0) == []
    assert "桃 ♥3" in cards_in(m, "discard")


def test_double_swords_target_without_hand_cards_must_let_the_user_draw():
    """雌雄双股剑: a target with no hand card can only let the user draw."""
    m = table(5, generals={0: "吕蒙", 1: "孙尚香"}, hands={0: ["杀 ♠7"]},
              equips={0: ["雌雄双股剑 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    assert legal(m) == ["let_draw"]


def test_double_swords_does_nothing_without_generals():
    """Without generals nobody has a gender: 雌雄双股剑 is never offered."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]}, equips={0: ["雌雄双股剑 ♠2"]})
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3
    assert m.decision.choice == "play"


def test_double_swords_needs_different_genders():
    """雌雄双股剑 does nothing between two generals of the same gender."""
    m = table(5, generals={0: "吕蒙", 1: "许褚"}, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]},
              equips={0: ["雌雄双股剑 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3
    assert cards_in(m, "hand", 0) == []


def test_green_dragon_blade_follows_a_dodged_slash():
    """青龙偃月刀: when the 杀 is dodged, the user may at once use another 杀 on the same target."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"], 2: ["闪 ♦2"]}, equips={0: ["青龙偃月刀 ♠5"]})
    use(m, "杀 ♠7", target=2)                  # distance 2, range 3
    act(m, "card", "闪 ♦2")
    assert (m.decision.choice, m.decision.player) == ("respond", 0)
    act(m, "card", "杀 ♠8")
    assert hp(m, 2) == 3
    assert m.pvars[0]["slashes"] == 1


def test_green_dragon_blade_follow_up_slash_is_discarded():
    """The follow-up 杀 of 青龙偃月刀 goes to the discard pile once resolved."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"], 2: ["闪 ♦2"]}, equips={0: ["青龙偃月刀 ♠5"]})
    use(m, "杀 ♠7", target=2)
    act(m, "card", "闪 ♦2")
    act(m, "card", "杀 ♠8")
    assert cards_in(m, "processing") == []
    assert sorted(cards_in(m, "discard")) == sorted(["杀 ♠7", "杀 ♠8", "闪 ♦2"])


def test_green_dragon_blade_follow_up_may_be_dodged_again():
    """青龙偃月刀: each dodged 杀 may be followed by another, as long as the user has 杀."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8", "杀 ♠9"], 2: ["闪 ♦2", "闪 ♦3"]},
              equips={0: ["青龙偃月刀 ♠5"]})
    use(m, "杀 ♠7", target=2)
    act(m, "card", "闪 ♦2")
    act(m, "card", "杀 ♠8")
    act(m, "card", "闪 ♦3")
    assert (m.decision.choice, m.decision.player) == ("respond", 0)
    act(m, "card", "杀 ♠9")
    assert hp(m, 2) == 3


def test_green_dragon_blade_follow_up_is_optional():
    """The follow-up 杀 may be declined."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"], 2: ["闪 ♦2"]}, equips={0: ["青龙偃月刀 ♠5"]})
    use(m, "杀 ♠7", target=2)
    act(m, "card", "闪 ♦2")
    act(m, "pass")
    assert hp(m, 2) == 4
    assert cards_in(m, "hand", 0) == ["杀 ♠8"]


def test_green_dragon_blade_not_offered_when_the_slash_hits():
    """No follow-up 杀 when the first one was not dodged."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"]}, equips={0: ["青龙偃月刀 ♠5"]})
    use(m, "杀 ♠7", target=2)
    assert hp(m, 2) == 3
    assert m.decision.choice == "play"
    assert cards_in(m, "hand", 0) == ["杀 ♠8"]


def test_serpent_spear_two_hand_cards_used_as_slash():
    """丈八蛇矛: any two hand cards may be used as one 杀 (counting as the phase's 杀)."""
    m = table(5, hands={0: ["桃 ♥3", "闪 ♦2", "杀 ♠7"]}, equips={0: ["丈八蛇矛 ♠Q"]})
    act(m, "丈八蛇矛", ["桃 ♥3", "闪 ♦2"])
    act(m, "player", player=3)                 # range 3
    assert hp(m, 3) == 3
    assert sorted(cards_in(m, "discard")) == sorted(["桃 ♥3", "闪 ♦2"])
    assert not can(m, "use", ["杀 ♠7"])


def test_serpent_spear_two_hand_cards_played_as_slash():
    """丈八蛇矛 also plays two hand cards as 杀 in response (e.g. to 南蛮入侵)."""
    m = table(5, hands={0: ["南蛮入侵 ♠7"], 1: ["桃 ♥3", "闪 ♦2"]}, equips={1: ["丈八蛇矛 ♠Q"]})
    use(m, "南蛮入侵 ♠7")
    assert (m.decision.choice, m.decision.player) == ("respond", 1)
    act(m, "丈八蛇矛", ["桃 ♥3", "闪 ♦2"])
    assert hp(m, 1) == 4


def test_axe_forces_the_damage_through_a_dodge():
    """贯石斧: when the 杀 is dodged, discard two cards (not the axe) to deal the damage anyway."""
    m = table(5, hands={0: ["杀 ♠7", "桃 ♥3", "闪 ♦3"], 3: ["闪 ♦2"]},
              equips={0: ["贯石斧 ♦5", "赤兔 ♥5"]})
    use(m, "杀 ♠7", target=3)
    act(m, "card", "闪 ♦2")
    assert m.decision.args == (0, "贯石斧")
    act(m, "yes")
    assert not can(m, "card", ["贯石斧 ♦5"])
    act(m, "card", "赤兔 ♥5")
    act(m, "card", "桃 ♥3")
    assert hp(m, 3) == 3
    assert cards_in(m, "hand", 0) == ["闪 ♦3"]
    assert cards_in(m, "weapon", 0) == ["贯石斧 ♦5"]


def test_axe_needs_two_other_cards():
    """贯石斧 with only one other card: the dodge stands."""
    m = table(5, hands={0: ["杀 ♠7", "桃 ♥3"], 3: ["闪 ♦2"]}, equips={0: ["贯石斧 ♦5"]})
    use(m, "杀 ♠7", target=3)
    act(m, "card", "闪 ♦2")
    assert hp(m, 3) == 4
    assert m.decision.choice == "play"


def test_halberd_last_hand_card_slash_takes_two_more_targets():
    """方天画戟: a 杀 that is the user's last hand card may have up to 2 extra targets."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["方天画戟 ♦Q"]})
    use(m, "杀 ♠7", target=1)
    assert m.decision.choice == "more_targets"
    act(m, "player", player=2)
    act(m, "player", player=3)
    assert [hp(m, p) for p in range(5)] == [4, 3, 3, 3, 4]
    assert m.decision.choice == "play"


def test_halberd_extra_targets_are_optional_and_in_range():
    """方天画戟: extra targets must be other players in attack range; the user may stop at any time."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["方天画戟 ♦Q"], 3: ["的卢 ♣5"]})
    use(m, "杀 ♠7", target=1)
    assert targets(m) == {2, 3, 4}             # range 4 reaches everyone
    act(m, "done")
    assert [hp(m, p) for p in range(5)] == [4, 3, 4, 4, 4]


def test_halberd_needs_the_last_hand_card():
    """方天画戟: with other hand cards left, the 杀 has one target."""
    m = table(5, hands={0: ["杀 ♠7", "桃 ♥3"]}, equips={0: ["方天画戟 ♦Q"]})
    use(m, "杀 ♠7", target=1)
    assert [hp(m, p) for p in range(5)] == [4, 3, 4, 4, 4]
    assert m.decision.choice == "play"


def test_kylin_bow_not_offered_when_target_has_no_horse():
    """麒麟弓 only has something to do when the damaged target has a horse."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["麒麟弓 ♥5"], 2: ["八卦阵 ♣2"]}, deck=["杀 ♣8"])
    use(m, "杀 ♠7", target=2)
    act(m, "yes")                              # 八卦阵: black, fails
    assert hp(m, 2) == 3
    assert m.decision.choice == "play"
    assert cards_in(m, "armor", 2) == ["八卦阵 ♣2"]


def test_kylin_bow_discards_a_horse_of_the_target():
    """麒麟弓: when the 杀 deals damage, the user may discard one of the target's horses."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["麒麟弓 ♥5"], 2: ["的卢 ♣5", "紫骍 ♦K"]})
    use(m, "杀 ♠7", target=2)
    assert m.decision.args == (0, "麒麟弓")
    act(m, "yes")
    act(m, "card", "的卢 ♣5")
    assert hp(m, 2) == 3
    assert cards_in(m, "plus_horse", 2) == []
    assert cards_in(m, "minus_horse", 2) == ["紫骍 ♦K"]


# ------------------------------------------------------------------ armour ---

def test_eight_diagram_red_judgement_counts_as_jink():
    """八卦阵: when a 闪 is needed, judge; red counts as a 闪."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["八卦阵 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    assert hp(m, 1) == 4
    assert judged(m) == ["闪 ♦2"]


def test_eight_diagram_black_judgement_then_a_jink_may_still_be_played():
    """八卦阵 on black: no 闪 from the armour, but the player may still play a 闪."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["闪 ♦3"]}, equips={1: ["八卦阵 ♠2"]},
              deck=["杀 ♣8"])
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    assert (m.decision.choice, m.decision.player) == ("respond", 1)
    act(m, "card", "闪 ♦3")
    assert hp(m, 1) == 4


def test_eight_diagram_black_judgement_without_jink_is_hit():
    """八卦阵 on black and no 闪: the 杀 hits."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["八卦阵 ♠2"]}, deck=["杀 ♣8"])
    use(m, "杀 ♠7", target=1)
    act(m, "yes")
    assert hp(m, 1) == 3


def test_eight_diagram_is_optional():
    """八卦阵 may be declined; the player is then asked for a 闪 directly."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["闪 ♦3"]}, equips={1: ["八卦阵 ♠2"]}, deck=["闪 ♦2"])
    use(m, "杀 ♠7", target=1)
    act(m, "no")
    act(m, "card", "闪 ♦3")
    assert hp(m, 1) == 4
    assert judged(m) == []


def test_renwang_shield_black_slash_has_no_effect():
    """仁王盾: a black 杀 has no effect (no 闪 asked, no damage)."""
    m = table(5, hands={0: ["杀 ♣2"], 1: ["闪 ♦2"]}, equips={1: ["仁王盾 ♣2"]})
    use(m, "杀 ♣2", target=1)
    assert hp(m, 1) == 4
    assert cards_in(m, "hand", 1) == ["闪 ♦2"]
    assert m.decision.choice == "play"


def test_renwang_shield_red_slash_takes_effect():
    """仁王盾 does nothing against a red 杀."""
    m = table(5, hands={0: ["杀 ♥10"]}, equips={1: ["仁王盾 ♣2"]})
    use(m, "杀 ♥10", target=1)
    assert hp(m, 1) == 3


def test_renwang_shield_blocks_a_black_serpent_spear_slash():
    """Two black cards used as 杀 make a black 杀: 仁王盾 stops it."""
    m = table(5, hands={0: ["决斗 ♠A", "过河拆桥 ♣3"]}, equips={0: ["丈八蛇矛 ♠Q"],
                                                            1: ["仁王盾 ♣2"]})
    act(m, "丈八蛇矛", ["决斗 ♠A", "过河拆桥 ♣3"])
    act(m, "player", player=1)
    assert hp(m, 1) == 4


def test_renwang_shield_does_not_block_a_mixed_colour_serpent_spear_slash():
    """A red and a black card used as 杀 give a 杀 of no colour: 仁王盾 does not stop it."""
    m = table(5, hands={0: ["决斗 ♠A", "桃 ♥3"]}, equips={0: ["丈八蛇矛 ♠Q"],
                                                       1: ["仁王盾 ♣2"]})
    act(m, "丈八蛇矛", ["决斗 ♠A", "桃 ♥3"])
    act(m, "player", player=1)
    assert hp(m, 1) == 3


# ---------------------------------------------------------- horses, slots ---

def test_plus_horse_puts_the_holder_out_of_a_neighbours_range():
    """+1 horse: other players' distance to the holder is +1."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={1: ["爪黄飞电 ♥K"]})
    assert slash_targets(m, "杀 ♠7") == {4}


def test_minus_horse_brings_players_into_range():
    """-1 horse: the holder's distance to others is -1."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["大宛 ♠K"]})
    assert slash_targets(m, "杀 ♠7") == {1, 2, 3, 4}


def test_minus_horse_adds_to_weapon_range():
    """-1 horse with a range-2 weapon reaches players at seat distance 3 (10 players)."""
    m = table(10, roles=ROLES10, hands={0: ["杀 ♠7"]}, equips={0: ["青釭剑 ♠6", "赤兔 ♥5"]})
    assert slash_targets(m, "杀 ♠7") == {1, 2, 3, 7, 8, 9}


def test_horses_cancel_each_other():
    """A -1 horse against a +1 horse: the distance is unchanged."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["紫骍 ♦K"], 1: ["的卢 ♣5"], 2: ["绝影 ♠5"]})
    assert slash_targets(m, "杀 ♠7") == {1, 3, 4}


def test_plus_horse_does_not_change_the_holders_own_distance():
    """A +1 horse affects only distances to its holder, not from it."""
    m = table(5, hands={0: ["杀 ♠7"]}, equips={0: ["绝影 ♠5"]})
    assert slash_targets(m, "杀 ♠7") == {1, 4}


@pytest.mark.parametrize("old,new,slot", [
    ("诸葛连弩 ♣A", "麒麟弓 ♥5", "weapon"),
    ("八卦阵 ♠2", "仁王盾 ♣2", "armor"),
    ("的卢 ♣5", "绝影 ♠5", "plus_horse"),
    ("赤兔 ♥5", "大宛 ♠K", "minus_horse"),
])
def test_equipping_replaces_and_discards_the_old_item(old, new, slot):
    """One card per equipment slot: a new item replaces the old one, which is discarded."""
    m = table(5, hands={0: [new]}, equips={0: [old]})
    use(m, new)
    assert cards_in(m, slot, 0) == [new]
    assert cards_in(m, "discard") == [old]
    assert cards_in(m, "hand", 0) == []


def test_equipment_goes_to_its_own_slot():
    """Equipping fills the card's slot and leaves the others alone."""
    m = table(5, hands={0: ["青釭剑 ♠6", "八卦阵 ♣2", "的卢 ♣5", "赤兔 ♥5"]})
    for card in ["青釭剑 ♠6", "八卦阵 ♣2", "的卢 ♣5", "赤兔 ♥5"]:
        use(m, card)
    assert [cards_in(m, s, 0) for s in ("weapon", "armor", "plus_horse", "minus_horse")] == [
        ["青釭剑 ♠6"], ["八卦阵 ♣2"], ["的卢 ♣5"], ["赤兔 ♥5"]]
    assert cards_in(m, "discard") == []
