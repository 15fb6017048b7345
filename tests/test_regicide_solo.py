"""The solo rules of Regicide, as games/regicide.yaml implements them.

Rulebook, “Solo game”: the game follows the normal rules with these changes.
Set both Jesters aside during setup; the maximum hand size is 8.  A Jester
does not cancel immunity: instead the player may turn a Jester face down to
“discard your whole hand (even with 0 cards) and draw 8 cards — this is not a
diamonds draw, so enemy immunity does not block it”.  With two Jesters this
can be done twice a game, at the start of step 1 (before playing a card) or
at the start of step 4 (before taking damage).  Victory with 0 / 1 / 2
Jesters used is gold / silver / bronze.

The rulebook limits the powers to two a game and names the two points where
one may be used; it does not limit them to one per point.  So after a use
the remaining power is offered again at once, at the same point.

In the rule file the face-up Jesters are the zone ``powers`` and the ones
turned face down are ``used``; the offer is the choice ``solo_power``.
"""
from __future__ import annotations

from collections import Counter

import pytest

from rulekit.testing import check_conservation

TAVERN = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "2♠"]


def hand_of(m) -> Counter:
    return Counter(c.name for c in m.zone("hand", 0).cards)


def assert_offered_power(m, phase: str):
    assert m.decision is not None, f"the match ended: {m.result()}"
    assert (m.decision.player, m.decision.choice, m.phase) == (0, "solo_power", phase)
    assert sorted(a.option for a in m.legal_actions()) == ["decline", "use"]


def assert_attack(m):
    assert m.decision is not None, f"the match ended: {m.result()}"
    assert (m.decision.player, m.decision.choice, m.phase) == (0, "attack", "play")


def test_solo_setup_no_jesters_in_tavern_hand_of_8_two_powers(regicide, pile):
    """“Set both Jesters aside; the maximum hand size is 8.”"""
    for seed in range(10):
        m = regicide.new_match(players=1, seed=seed)
        assert len(pile(m, "hand", 0)) == 8
        assert "Jester" not in pile(m, "tavern") + pile(m, "hand", 0)
        assert len(pile(m, "tavern")) == 40 - 8
        assert pile(m, "powers") == ["Jester", "Jester"] and pile(m, "used") == []
        check_conservation(m)


def test_solo_power_offered_before_step_1(regicide):
    """The power may be used “at the start of step 1, before playing a card”."""
    m = regicide.new_match(players=1, seed=4)
    assert_offered_power(m, "play")


def test_solo_power_offered_before_step_4(deal, act):
    """… or “at the start of step 4, before taking damage from the enemy”."""
    m = deal(1, enemy="J♠", hands=[["5♦", "10♥"]], powers=["Jester", "Jester"])
    assert_offered_power(m, "play")
    act(m, "decline")
    assert_attack(m)
    act(m, "card", "5♦")
    assert_offered_power(m, "suffer")
    act(m, "decline")
    assert m.decision.choice == "pay"
    act(m, "discard", "10♥")
    # The solo player takes every turn.
    assert_offered_power(m, "play")
    assert m.current == 0 and m.turn == 2


def test_solo_power_not_offered_at_skipped_step_4_after_a_defeat(deal, act, pile):
    """Defeating an enemy skips step 4 (no offer there); the new turn starts at
    step 1, where the power is offered again."""
    m = deal(1, enemy="J♠", castle=["Q♥"], hands=[["5♦", "10♥"]], powers=["Jester", "Jester"],
             vars={"damage": 15})
    act(m, "decline")
    act(m, "card", "5♦")
    assert pile(m, "enemy") == ["Q♥"]
    assert_offered_power(m, "play")


def test_solo_power_discards_the_hand_and_draws_8(deal, act, pile):
    """“Discard your whole hand and draw 8 cards”; one Jester is turned face
    down."""
    m = deal(1, enemy="J♠", hands=[["2♥", "3♥", "4♥"]], tavern=TAVERN, powers=["Jester", "Jester"])
    act(m, "use")
    assert hand_of(m) == Counter(TAVERN[:8])
    assert Counter(pile(m, "discard")) == Counter(["2♥", "3♥", "4♥"])
    assert pile(m, "tavern") == TAVERN[8:]
    assert pile(m, "powers") == ["Jester"] and pile(m, "used") == ["Jester"]
    assert_offered_power(m, "play")   # the second power, at the same point
    act(m, "decline")
    assert_attack(m)
    check_conservation(m)


def test_solo_power_works_with_an_empty_hand(deal, act, pile):
    """“… even if you have 0 cards in hand.”"""
    m = deal(1, enemy="J♠", hands=[[]], tavern=TAVERN, powers=["Jester", "Jester"])
    assert_offered_power(m, "play")
    act(m, "use")
    assert hand_of(m) == Counter(TAVERN[:8])
    assert pile(m, "discard") == []


def test_solo_power_draws_what_is_left_in_the_tavern(deal, act, pile):
    """With fewer than 8 cards in the tavern, the player draws them all (no
    penalty for drawing from a short tavern)."""
    m = deal(1, enemy="J♠", hands=[["2♥"]], tavern=TAVERN[:5], powers=["Jester", "Jester"])
    act(m, "use")
    assert hand_of(m) == Counter(TAVERN[:5])
    assert pile(m, "tavern") == []


def test_solo_power_at_step_4_gives_a_new_hand_to_pay_with(deal, act, pile):
    """Used before taking damage, the new hand absorbs the attack (the old
    hand, worth 4, could not)."""
    m = deal(1, enemy="J♥", hands=[["A♦", "2♥"]], tavern=["2♣", "10♠", "5♣"],
             powers=["Jester", "Jester"])
    act(m, "decline")
    act(m, "card", "A♦")          # draws 1 (2♣): hand 2♥ 2♣, worth 4
    assert_offered_power(m, "suffer")
    act(m, "use")                 # discard 2♥ 2♣, draw 10♠ 5♣
    assert hand_of(m) == Counter(["10♠", "5♣"])
    act(m, "decline")             # keep the second power
    act(m, "discard", "10♠")
    assert_offered_power(m, "play")
    assert Counter(pile(m, "discard")) == Counter(["2♥", "2♣", "10♠"])


@pytest.mark.parametrize("enemy", ["J♦", "J♥"])
def test_solo_power_is_not_blocked_by_immunity(deal, act, enemy):
    """“This is not a diamonds draw: the enemy's immunity does not block it”
    (nor does a hearts enemy)."""
    m = deal(1, enemy=enemy, hands=[["3♠"]], tavern=TAVERN, powers=["Jester", "Jester"])
    act(m, "use")
    assert hand_of(m) == Counter(TAVERN[:8])


def test_solo_power_does_not_cancel_immunity(deal, act, pile):
    """“Turning a Jester face down does not cancel the enemy's immunity”:
    after the power, a diamond against the Jack of diamonds draws nothing."""
    tavern = ["5♦", "2♥", "3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥"]
    m = deal(1, enemy="J♦", hands=[["2♠"]], tavern=tavern, powers=["Jester", "Jester"])
    act(m, "use")
    act(m, "decline")
    assert "5♦" in hand_of(m)
    act(m, "card", "5♦")
    assert pile(m, "tavern") == ["9♥", "10♥"]
    assert m.vars["damage"] == 5
    assert m.vars["immune"] is True


def test_solo_power_can_be_used_at_most_twice(deal, act, pile):
    """“Since you have two Jesters, this can be done twice per game.”"""
    tavern = [f"{r}{s}" for s in "♣♥" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10"]]
    m = deal(1, enemy="K♠", hands=[["2♠"]], tavern=tavern, powers=["Jester", "Jester"])
    act(m, "use")
    act(m, "decline")
    act(m, "card", "2♣")
    assert_offered_power(m, "suffer")
    act(m, "use")
    assert pile(m, "powers") == [] and pile(m, "used") == ["Jester", "Jester"]
    assert m.decision.choice == "pay"
    # Pay the King's 20 and start the next turn: no more offers.
    for card in ["10♣", "8♥", "2♥"]:
        act(m, "discard", card)
    assert_attack(m)
    assert all(a.option != "use" for a in m.legal_actions())


LONG_TAVERN = [f"{r}{s}" for s in "♣♥♦" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10"]]


def test_solo_both_powers_one_after_the_other_before_step_1(deal, act, pile):
    """Twice a game, at the start of step 1: the second power is offered
    again right after the first, and each use discards the hand and draws 8."""
    m = deal(1, enemy="K♠", hands=[["2♠", "3♠"]], tavern=LONG_TAVERN, powers=["Jester", "Jester"])
    act(m, "use")
    assert hand_of(m) == Counter(LONG_TAVERN[:8])
    assert_offered_power(m, "play")
    act(m, "use")
    assert hand_of(m) == Counter(LONG_TAVERN[8:16])
    assert Counter(pile(m, "discard")) == Counter(["2♠", "3♠"] + LONG_TAVERN[:8])
    assert pile(m, "tavern") == LONG_TAVERN[16:]
    assert pile(m, "powers") == [] and pile(m, "used") == ["Jester", "Jester"]
    assert_attack(m)                  # no third offer
    check_conservation(m)


def test_solo_both_powers_one_after_the_other_before_step_4(deal, act, pile):
    """… and at the start of step 4, before taking damage."""
    m = deal(1, enemy="K♠", hands=[["2♠", "3♠"]], tavern=LONG_TAVERN, powers=["Jester", "Jester"])
    act(m, "decline")
    act(m, "card", "2♠")              # a spade against the King of spades: no shield
    assert_offered_power(m, "suffer")
    act(m, "use")
    assert hand_of(m) == Counter(LONG_TAVERN[:8])
    assert_offered_power(m, "suffer")
    act(m, "use")
    assert hand_of(m) == Counter(LONG_TAVERN[8:16])
    assert pile(m, "powers") == [] and pile(m, "used") == ["Jester", "Jester"]
    assert m.decision.choice == "pay" and m.phase == "suffer"
    check_conservation(m)


def test_solo_declining_the_second_power_keeps_it_for_later(deal, act, pile):
    """Declining ends the offers at that point only; the power left is
    offered at the next point (here step 4 of the same turn)."""
    m = deal(1, enemy="K♠", hands=[["2♠"]], tavern=LONG_TAVERN, powers=["Jester", "Jester"])
    act(m, "use")
    act(m, "decline")
    assert_attack(m)
    act(m, "card", "2♣")
    assert_offered_power(m, "suffer")
    act(m, "use")
    assert pile(m, "powers") == [] and m.decision.choice == "pay"


def test_solo_no_third_power_at_either_point(deal, act, pile):
    """With both Jesters face down nothing is offered, at step 1 or step 4."""
    m = deal(1, enemy="K♠", hands=[["2♠", "10♠", "K♥"]], tavern=LONG_TAVERN[:5],
             used=["Jester", "Jester"])
    assert_attack(m)
    act(m, "card", "2♠")
    assert m.decision.choice == "pay" and m.phase == "suffer"
    assert "use" not in {a.option for a in m.legal_actions()}


def _offers_in_play(regicide, seed: int, prefer_use: bool):
    """Play one solo match; yield (phase, decisions earlier in that phase) at
    every offer of the power, and the number of powers used at the end."""
    m = regicide.new_match(players=1, seed=seed)
    rng = __import__("random").Random(seed)
    phase_key, before = None, []
    while m.decision is not None:
        key = (m.turn, m.phase)
        if key != phase_key:
            phase_key, before = key, []
        if m.decision.choice == "solo_power":
            yield m.phase, list(before)
        actions = m.legal_actions()
        uses = [a for a in actions if a.option == "use"]
        a = uses[0] if prefer_use and uses else actions[rng.randrange(len(actions))]
        before.append(m.decision.choice)
        m.apply(a)
    yield "end", len(m.zone("used").cards)


@pytest.mark.parametrize("prefer_use", [False, True])
def test_solo_power_is_offered_only_at_the_start_of_step_1_or_step_4(regicide, prefer_use):
    """Over whole games (random answers, or always using a power when
    offered): every offer comes before anything else is decided in step 1 or
    step 4 (after nothing but earlier offers), and at most two are used."""
    offers = 0
    for seed in range(30):
        for phase, before in _offers_in_play(regicide, seed, prefer_use):
            if phase == "end":
                assert before <= 2
                continue
            offers += 1
            assert phase in ("play", "suffer")
            assert set(before) <= {"solo_power"}, (seed, phase, before)
    assert offers > 30


def test_solo_player_can_never_yield(deal, act, regicide):
    """Reading: yielding is forbidden when every *other* player yielded on
    their last turn; alone, that is always the case, so the solo player never
    yields."""
    m = deal(1, enemy="J♠", hands=[["5♦", "10♥"]], powers=["Jester", "Jester"])
    act(m, "decline")
    assert_attack(m)
    assert "yield" not in {a.option for a in m.legal_actions()}
    for seed in range(20):
        m = regicide.new_match(players=1, seed=seed)
        while m.decision is not None:
            assert "yield" not in {a.option for a in m.legal_actions()}
            m.apply(m.legal_actions()[seed % len(m.legal_actions())])


def test_solo_lose_with_empty_hand_and_no_power_left(deal):
    """With no card to play, no yield and no Jester left, the player can
    neither play nor yield: the game is lost."""
    m = deal(1, enemy="J♠", hands=[[]], tavern=TAVERN, used=["Jester", "Jester"])
    assert m.is_over()
    assert m.result()["outcome"] == "loss"
    assert m.result()["stats"]["medal"] == "none"


@pytest.mark.parametrize("used,medal", [(0, "gold"), (1, "silver"), (2, "bronze")])
def test_solo_medal_by_jesters_used(deal, act, used, medal):
    """“Victory with 2 Jesters used = bronze, 1 = silver, 0 = gold.”"""
    m = deal(1, enemy="K♥", hands=[["5♠", "2♦"]], vars={"damage": 35, "defeated": 11},
             powers=["Jester"] * (2 - used), used=["Jester"] * used)
    if used < 2:
        act(m, "decline")
    act(m, "card", "5♠")
    result = m.result()
    assert result["outcome"] == "win"
    assert result["winners"] == [0]
    assert result["stats"]["medal"] == medal


def test_solo_medal_bronze_after_using_both_powers(deal, act):
    """Both powers actually used during play, then the last King falls:
    bronze."""
    tavern = ["9♣", "2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦",
              "10♦", "10♥", "A♣", "2♠", "3♠", "4♠", "5♠", "6♠"]
    m = deal(1, enemy="K♥", hands=[["2♥"]], tavern=tavern, powers=["Jester", "Jester"],
             vars={"damage": 20, "defeated": 11})
    act(m, "use")                        # first Jester: 9♣ 2♦ ... 8♦
    act(m, "decline")                    # keep the second one for now
    act(m, "card", "9♣")                 # 18 damage: 38
    act(m, "use")                        # second Jester: 10♦ 10♥ A♣ 2♠ ... 6♠
    act(m, "discard", "10♦")
    act(m, "discard", "10♥")
    assert_attack(m)                     # no Jester left to offer
    act(m, "card", "A♣")                 # 2 damage: 40, the last King falls
    assert m.result()["outcome"] == "win"
    assert m.result()["stats"]["medal"] == "bronze"


def test_solo_medal_is_none_on_a_loss(deal, act):
    """Medals are for victories only."""
    m = deal(1, enemy="J♥", hands=[["A♦", "2♣"]], used=["Jester", "Jester"])
    act(m, "card", "A♦")
    assert m.result()["outcome"] == "loss"
    assert m.result()["stats"]["medal"] == "none"
