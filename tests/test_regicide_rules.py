"""games/regicide.yaml implements every rule of the Regicide rulebook.

Each test builds the situation a rule talks about with a stacked deck
(``deal``: the named cards, top first, in each zone), plays it through the
engine and checks the outcome the rulebook prescribes.  Docstrings quote or
paraphrase the rulebook (Chinese and Russian editions, which agree).

Zones: ``castle`` (enemies to come), ``enemy`` (current enemy), ``tavern``
(draw pile), ``discard``, ``table`` (cards played against the current
enemy), ``hand(p)``, and, solo only, ``powers``/``used`` (see
test_regicide_solo.py).
"""
from __future__ import annotations

from collections import Counter

import pytest

from rulekit import Action, IllegalAction
from rulekit.testing import check_conservation

SUITS = "♥♦♣♠"
NUMBERS = [f"{r}{s}" for s in SUITS for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]]
HAND_SIZE = {1: 8, 2: 7, 3: 6, 4: 5}
TAVERN_JESTERS = {1: 0, 2: 0, 3: 1, 4: 2}
ENEMIES = {"J": (10, 20), "Q": (15, 30), "K": (20, 40)}  # attack, health


def rank(name: str) -> str:
    return "Jester" if name == "Jester" else name[:-1]


def hand_of(m, p: int) -> Counter:
    return Counter(c.name for c in m.zone("hand", p).cards)


def assert_turn_of(m, player: int):
    """The match waits for ``player`` at step 1 (their attack)."""
    assert m.decision is not None, f"the match ended: {m.result()}"
    assert (m.decision.player, m.decision.choice, m.phase) == (player, "attack", "play")
    assert m.current == player


def assert_paying(m, player: int):
    """The match waits for ``player`` to discard at step 4."""
    assert m.decision is not None, f"the match ended: {m.result()}"
    assert (m.decision.player, m.decision.choice, m.phase) == (player, "pay", "suffer")


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_castle_is_jacks_on_top_then_queens_then_kings_at_bottom(regicide, pile, players):
    """“Shuffle the 4 Kings and place them face down, then the 4 Queens on
    top of them, then the 4 Jacks on top of the Queens: this is the castle
    deck.”  The top Jack is turned face up as the current enemy."""
    for seed in range(5):
        m = regicide.new_match(players=players, seed=seed)
        order = pile(m, "enemy") + pile(m, "castle")      # top first
        assert [rank(n) for n in order] == ["J"] * 4 + ["Q"] * 4 + ["K"] * 4
        assert sorted(order) == sorted(f"{r}{s}" for r in "JQK" for s in SUITS)


def test_setup_each_rank_of_the_castle_is_shuffled(regicide, pile):
    """Each group of four royals is shuffled before it is placed."""
    orders = {r: set() for r in "JQK"}
    for seed in range(30):
        order = pile(regicide.new_match(players=2, seed=seed), "enemy") + \
            pile(regicide.new_match(players=2, seed=seed), "castle")
        orders["J"].add(tuple(order[0:4]))
        orders["Q"].add(tuple(order[4:8]))
        orders["K"].add(tuple(order[8:12]))
    for r, seen in orders.items():
        assert len(seen) > 5, f"the {r}s always come in the same few orders: {seen}"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_top_jack_is_revealed_as_current_enemy(regicide, players):
    """“Place the castle deck in the middle of the table and turn its top card
    face up — a Jack.  This is the current enemy.”  The rest of the castle
    stays face down."""
    m = regicide.new_match(players=players, seed=3)
    view = m.view(None)
    assert view["zones"]["enemy"]["count"] == 1
    assert rank(view["zones"]["enemy"]["cards"][0]) == "J"
    assert view["zones"]["castle"]["count"] == 11
    assert "cards" not in view["zones"]["castle"]
    assert "cards" not in view["zones"]["tavern"]


@pytest.mark.parametrize("players,jesters", [(1, 0), (2, 0), (3, 1), (4, 2)])
def test_setup_tavern_is_numbers_aces_and_jesters_by_player_count(regicide, pile, players, jesters):
    """“Shuffle the cards 2 to 10, the 4 animal companions (A) and the number
    of Jesters given by the table (1 player: 0, 2: 0, 3: 1, 4: 2) to form the
    tavern deck”, from which the hands are dealt."""
    for seed in range(5):
        m = regicide.new_match(players=players, seed=seed)
        dealt = pile(m, "tavern") + [n for p in range(players) for n in pile(m, "hand", p)]
        assert Counter(dealt) == Counter(NUMBERS + ["Jester"] * jesters)
        assert pile(m, "discard") == [] and pile(m, "table") == []


def test_setup_tavern_is_shuffled(regicide, pile):
    """The tavern deck is shuffled: different games deal different cards."""
    hands = {tuple(pile(regicide.new_match(players=2, seed=s), "hand", 0)) for s in range(20)}
    assert len(hands) == 20


@pytest.mark.parametrize("players,size", [(1, 8), (2, 7), (3, 6), (4, 5)])
def test_setup_deals_every_hand_to_the_maximum_hand_size(regicide, pile, players, size):
    """“Deal cards to every player up to the maximum hand size”: 8 / 7 / 6 / 5
    cards for 1 / 2 / 3 / 4 players."""
    m = regicide.new_match(players=players, seed=11)
    assert [len(pile(m, "hand", p)) for p in range(players)] == [size] * players
    assert len(pile(m, "tavern")) == 40 + TAVERN_JESTERS[players] - size * players


def test_setup_solo_sets_both_jesters_aside_face_up(regicide, pile):
    """Solo: “during setup put the two Jesters aside” — none in the tavern,
    both face up in ``powers``."""
    m = regicide.new_match(players=1, seed=0)
    assert pile(m, "powers") == ["Jester", "Jester"]
    assert pile(m, "used") == []
    assert "Jester" not in pile(m, "tavern") + pile(m, "hand", 0)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_accounts_for_all_54_cards(regicide, pile, players):
    """52 cards and 2 Jesters: every card is in exactly one place after setup;
    the Jesters not used for this player count stay out of the game (box)."""
    for seed in range(5):
        m = regicide.new_match(players=players, seed=seed)
        check_conservation(m)
        everywhere = [n for z in m.all_zones() for n in (c.name for c in z.cards)]
        assert len(everywhere) == 54
        box = pile(m, "box")
        assert box == ["Jester"] * (0 if players == 1 else 2 - TAVERN_JESTERS[players])


def test_setup_first_player_starts_at_step_1(regicide):
    """After setup the first player begins the first turn at step 1 (play a
    card or yield).  Reading: seat 0 is the player who goes first."""
    m = regicide.new_match(players=3, seed=1)
    assert_turn_of(m, 0)
    assert m.turn == 1


# ---------------------------------------------------------------------------
# The four steps of a turn
# ---------------------------------------------------------------------------

def test_turn_has_four_steps_play_power_damage_suffer(deal, act, pile):
    """“Each turn has 4 steps: 1 play a card or yield; 2 activate the suit
    power; 3 deal damage and check whether the enemy is defeated; 4 suffer
    damage from the enemy by discarding cards.”  Then the next player."""
    m = deal(2, enemy="J♣", hands=[["5♥", "10♦"], ["2♠"]], tavern=["6♣"],
             discard=["2♣", "3♣", "4♣"])
    assert_turn_of(m, 0)
    act(m, "card", "5♥")
    # Step 2: hearts heal the 3 cards of the discard to the tavern bottom.
    assert pile(m, "discard") == []
    assert pile(m, "tavern")[0] == "6♣"
    assert sorted(pile(m, "tavern")[1:]) == ["2♣", "3♣", "4♣"]
    # Step 3: 5 damage; the card stays in front of the enemy.
    assert m.vars["damage"] == 5
    assert pile(m, "table") == ["5♥"]
    # Step 4: the Jack attacks for 10.
    assert_paying(m, 0)
    act(m, "discard", "10♦")
    assert pile(m, "discard") == ["10♦"]
    assert_turn_of(m, 1)


# ---------------------------------------------------------------------------
# Enemies: attack and health
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("royal", ["J", "Q", "K"])
def test_enemy_health_is_20_30_40(deal, pile, act, royal):
    """Jack: health 20, Queen: 30, King: 40.  An enemy is defeated when the
    total damage of all cards played against it is at least its health."""
    health = ENEMIES[royal][1]
    # One short of the health: not defeated.
    m = deal(2, enemy=f"{royal}♥", castle=["K♠"], hands=[["A♦", "K♣"]], vars={"damage": health - 2})
    act(m, "card", "A♦")
    assert m.vars["damage"] == health - 1
    assert pile(m, "enemy") == [f"{royal}♥"]
    # Exactly the health: defeated.
    m = deal(2, enemy=f"{royal}♥", castle=["K♠"], hands=[["A♦", "K♣"]], vars={"damage": health - 1})
    act(m, "card", "A♦")
    assert pile(m, "enemy") == ["K♠"]


@pytest.mark.parametrize("royal,hand", [
    ("J", ["9♠", "A♣"]),
    ("Q", ["10♠", "4♠", "A♣"]),
    ("K", ["10♠", "9♠", "A♣"]),
])
def test_enemy_attack_is_10_15_20(deal, act, royal, hand):
    """Jack: attack 10, Queen: 15, King: 20.  The player must discard cards
    worth at least the attack: one point short is still not enough."""
    m = deal(2, enemy=f"{royal}♥", hands=[["A♦"] + hand])
    act(m, "card", "A♦")          # 1 damage; the tavern is empty: no draw
    for card in hand[:-1]:
        assert_paying(m, 0)
        act(m, "discard", card)
    assert_paying(m, 0)            # attack - 1 paid so far: not enough
    act(m, "discard", hand[-1])
    assert_turn_of(m, 1)


# ---------------------------------------------------------------------------
# Suit powers
# ---------------------------------------------------------------------------

def test_hearts_heal_shuffled_discard_cards_to_the_bottom_of_the_tavern(deal, act, pile):
    """Hearts: “shuffle the discard pile, count out as many cards as the
    attack value and put them face down under the tavern deck; put the rest
    back face up in the discard pile”."""
    discard = ["2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦", "10♦", "A♠"]
    m = deal(2, enemy="J♣", hands=[["4♥", "K♠"]], tavern=["5♣", "6♣"], discard=discard)
    act(m, "card", "4♥")
    tavern = pile(m, "tavern")
    assert tavern[:2] == ["5♣", "6♣"], "the tavern's top cards must not move"
    healed = tavern[2:]
    assert len(healed) == 4
    assert len(pile(m, "discard")) == 6
    assert Counter(healed + pile(m, "discard")) == Counter(discard)
    assert pile(m, "table") == ["4♥"], "the played card itself is not healed"
    check_conservation(m)


def test_hearts_heal_takes_random_cards_of_the_shuffled_discard(deal, act, pile):
    """The discard pile is shuffled before counting out the healed cards."""
    discard = ["2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦", "10♦", "A♠"]
    seen = set()
    for seed in range(15):
        m = deal(2, enemy="J♣", hands=[["3♥", "K♠"]], discard=discard, seed=seed)
        act(m, "card", "3♥")
        seen.add(frozenset(pile(m, "tavern")))
    assert len(seen) > 5


def test_hearts_heal_with_fewer_discards_than_value_moves_them_all(deal, act, pile):
    """“There is no penalty if the tavern or discard pile holds fewer cards
    than the value”: all 2 discarded cards are healed by an 8."""
    m = deal(2, enemy="J♣", hands=[["8♥", "K♠"]], tavern=["5♣"], discard=["2♦", "3♦"])
    act(m, "card", "8♥")
    assert pile(m, "discard") == []
    assert pile(m, "tavern")[0] == "5♣"
    assert sorted(pile(m, "tavern")[1:]) == ["2♦", "3♦"]
    assert m.vars["damage"] == 8


def test_diamonds_draw_current_player_first_then_clockwise_one_at_a_time(deal, act, pile):
    """Diamonds: “the current player draws a card from the tavern, then the
    other players clockwise each draw one card, until the total drawn equals
    the attack value.  Players at their maximum hand size are skipped.”
    3 players (hand size 6): player 1 plays 5♦; player 2 is full, player 0
    has room for one card."""
    m = deal(3, enemy="J♠", current=1,
             hands=[["2♥", "3♥", "4♥", "5♥", "6♥"],
                    ["5♦", "9♥"],
                    ["2♠", "3♠", "4♠", "5♠", "6♠", "7♠"]],
             tavern=["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣"])
    act(m, "card", "5♦")
    assert hand_of(m, 1) == Counter(["9♥", "2♣", "4♣", "5♣", "6♣"])
    assert hand_of(m, 0) == Counter(["2♥", "3♥", "4♥", "5♥", "6♥", "3♣"])
    assert hand_of(m, 2) == Counter(["2♠", "3♠", "4♠", "5♠", "6♠", "7♠"])
    assert pile(m, "tavern") == ["7♣", "8♣"], "exactly 5 cards are drawn"
    assert m.vars["damage"] == 5


def test_diamonds_draw_stops_when_the_tavern_is_empty(deal, act, pile):
    """“No penalty if the tavern holds fewer cards than the value”: an 8♦
    with 2 cards left in the tavern draws those 2 and the turn goes on."""
    m = deal(2, enemy="J♠", hands=[["8♦", "10♣"], ["2♥"]], tavern=["2♣", "3♣"])
    act(m, "card", "8♦")
    assert hand_of(m, 0) == Counter(["10♣", "2♣"])
    assert hand_of(m, 1) == Counter(["2♥", "3♣"])
    assert pile(m, "tavern") == []
    assert m.vars["damage"] == 8
    assert_paying(m, 0)


def test_diamonds_draw_stops_when_every_hand_is_full_and_never_exceeds_hand_size(deal, act, pile):
    """“Players never hold more cards than their maximum hand size”: with
    player 1 full (7 cards) and player 0 one card short, a 7♦ draws 1 card."""
    tavern = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣"]
    m = deal(2, enemy="J♠",
             hands=[["7♦", "2♥", "3♥", "4♥", "5♥", "6♥", "7♥"],
                    ["2♠", "3♠", "4♠", "5♠", "6♠", "7♠", "8♠"]],
             tavern=tavern)
    act(m, "card", "7♦")
    assert [len(m.zone("hand", p).cards) for p in (0, 1)] == [7, 7]
    assert "2♣" in hand_of(m, 0)
    assert pile(m, "tavern") == tavern[1:]


def test_clubs_double_damage(deal, act):
    """Clubs: “during step 3 the attack value is doubled: an 8 of clubs deals
    16 damage”."""
    m = deal(2, enemy="J♥", hands=[["8♣", "K♠"]], vars={"damage": 2})
    act(m, "card", "8♣")
    assert m.vars["damage"] == 18


def test_spades_shield_reduces_the_enemy_attack(deal, act):
    """Spades: “during step 4 reduce the enemy's attack by the value of the
    spades played” — a 4♠ against a Jack (attack 10) leaves 6 to absorb."""
    m = deal(2, enemy="J♥", hands=[["4♠", "5♦", "A♣", "K♣"]])
    act(m, "card", "4♠")
    assert_paying(m, 0)
    act(m, "discard", "5♦")
    assert_paying(m, 0)
    act(m, "discard", "A♣")
    assert_turn_of(m, 1)
    assert hand_of(m, 0) == Counter(["K♣"])


def test_spades_shield_accumulates_across_plays_against_the_same_enemy(deal, act):
    """“The shield is the total of all spades played by all players; it lasts
    until the current enemy is defeated.”  4♠ then 3♠: the Jack attacks for 3."""
    m = deal(2, enemy="J♥", hands=[["4♠", "6♦"], ["3♠", "2♦", "A♣", "K♣"]])
    act(m, "card", "4♠")
    act(m, "discard", "6♦")
    assert_turn_of(m, 1)
    act(m, "card", "3♠")
    act(m, "discard", "2♦")
    assert_paying(m, 1)
    act(m, "discard", "A♣")
    assert_turn_of(m, 0)
    assert hand_of(m, 1) == Counter(["K♣"])


def test_spades_shield_resets_when_the_enemy_is_defeated(deal, act, pile):
    """Spades shield only the enemy they were played against: the next enemy
    attacks at full strength."""
    m = deal(2, enemy="J♥", castle=["Q♦"],
             hands=[["9♠", "A♦"], ["A♠", "10♠", "3♣", "10♥", "5♥"]])
    act(m, "card", "9♠")               # 9 damage, Jack attacks for 1
    act(m, "discard", "A♦")
    act(m, "companion", "A♠", "10♠")   # 9 + 11 = 20: exact kill, shield was 20
    assert pile(m, "enemy") == ["Q♦"]
    assert_turn_of(m, 1)
    act(m, "card", "3♣")               # 6 damage to the Queen; she attacks for 15
    act(m, "discard", "10♥")
    assert_paying(m, 1)
    act(m, "discard", "5♥")
    assert_turn_of(m, 0)


def test_hearts_resolve_before_diamonds_in_one_play(deal, act, pile):
    """“Whenever hearts and diamonds powers apply together, hearts first, then
    diamonds”: with an empty tavern, 5♥ + A♦ heals 6 cards which are then
    drawn."""
    discard = ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "2♠"]
    m = deal(2, enemy="J♠", hands=[["5♥", "A♦", "K♣"], ["2♥", "3♥", "4♥"]], discard=discard)
    act(m, "companion", "5♥", "A♦")
    assert pile(m, "tavern") == []
    drawn = (hand_of(m, 0) - Counter(["K♣"])) + (hand_of(m, 1) - Counter(["2♥", "3♥", "4♥"]))
    assert sum(drawn.values()) == 6
    assert [len(m.zone("hand", p).cards) for p in (0, 1)] == [4, 6]
    assert Counter(pile(m, "discard")) + drawn == Counter(discard)


def test_all_suit_powers_are_mandatory(deal, act, pile):
    """“The powers of all suits must be applied”: there is no option to play a
    card without its power."""
    m = deal(2, enemy="J♠", hands=[["3♦"], ["2♥"]], tavern=["2♣", "3♣", "4♣"])
    assert {a.option for a in m.legal_actions()} == {"card", "yield"}
    act(m, "card", "3♦")
    assert pile(m, "tavern") == []


# ---------------------------------------------------------------------------
# Immunity: each enemy blocks its own suit's power
# ---------------------------------------------------------------------------

def test_immunity_hearts_enemy_blocks_healing_but_takes_damage(deal, act, pile):
    """“Each enemy is immune to the power of cards of its own suit ... the
    value is still added to the damage” — hearts against a hearts enemy."""
    m = deal(2, enemy="J♥", hands=[["5♥", "K♠"]], tavern=["2♣"], discard=["2♦", "3♦", "4♦"])
    act(m, "card", "5♥")
    assert pile(m, "tavern") == ["2♣"]
    assert pile(m, "discard") == ["2♦", "3♦", "4♦"]
    assert m.vars["damage"] == 5


def test_immunity_diamonds_enemy_blocks_drawing_but_takes_damage(deal, act, pile):
    """“For example, players do not draw cards for diamonds when fighting the
    Jack of diamonds; the value still counts as damage.”"""
    m = deal(2, enemy="J♦", hands=[["5♦", "K♠"], ["2♥"]], tavern=["2♣", "3♣", "4♣"])
    act(m, "card", "5♦")
    assert pile(m, "tavern") == ["2♣", "3♣", "4♣"]
    assert hand_of(m, 0) == Counter(["K♠"]) and hand_of(m, 1) == Counter(["2♥"])
    assert m.vars["damage"] == 5


def test_immunity_clubs_enemy_is_not_dealt_double_damage(deal, act):
    """Clubs against a clubs enemy deal their plain value, not double."""
    m = deal(2, enemy="J♣", hands=[["5♣", "K♠"]])
    act(m, "card", "5♣")
    assert m.vars["damage"] == 5


def test_immunity_spades_enemy_is_not_shielded_against(deal, act):
    """“The Jack of spades blocks the power of spades (spades do not reduce its
    attack)” — yet the 5♠ deals 5 damage."""
    m = deal(2, enemy="J♠", hands=[["5♠", "9♦", "A♣"]])
    act(m, "card", "5♠")
    assert m.vars["damage"] == 5
    act(m, "discard", "9♦")
    assert_paying(m, 0)                # 9 paid: the attack is the full 10
    act(m, "discard", "A♣")
    assert_turn_of(m, 1)


def test_immunity_blocks_only_the_enemys_suit_in_a_companion_play(deal, act, pile):
    """A♣ + 8♦ against the Jack of diamonds: the diamonds power is blocked,
    the clubs power still doubles the 9 (18 damage)."""
    m = deal(2, enemy="J♦", hands=[["A♣", "8♦", "K♠"], ["2♥"]], tavern=["2♣", "3♣"])
    act(m, "companion", "A♣", "8♦")
    assert m.vars["damage"] == 18
    assert pile(m, "tavern") == ["2♣", "3♣"]


def test_immunity_returns_with_the_next_enemy(deal, act, pile):
    """Immunity is a property of every enemy: after a Jester cancelled it and
    that enemy fell, the next enemy is immune to its own suit again."""
    m = deal(3, enemy="J♣", castle=["Q♣"], hands=[["Jester"], ["10♣", "5♣", "K♠"], ["2♥"]])
    act(m, "jester", "Jester")
    act(m, "player", player=1)
    act(m, "card", "10♣")              # 20 damage (immunity cancelled): exact kill
    assert pile(m, "enemy") == ["Q♣"]
    act(m, "card", "5♣")               # the Queen of clubs is immune again
    assert m.vars["damage"] == 5


# ---------------------------------------------------------------------------
# Jester
# ---------------------------------------------------------------------------

def test_jester_can_only_be_played_alone(deal, offered):
    """“During step 1 a Jester can only be played on its own”: not with an
    animal companion, not in a combo, not as a plain card."""
    m = deal(3, enemy="J♣", hands=[["Jester", "A♣", "5♥", "5♦"]])
    assert offered(m, "jester", "Jester")
    for a in m.legal_actions():
        names = [m.card(i).name for i in a.cards]
        if "Jester" in names:
            assert names == ["Jester"] and a.option == "jester", m.describe_action(a)


@pytest.mark.parametrize("chosen", [0, 1, 2])
def test_jester_skips_steps_3_and_4_and_its_player_chooses_who_goes_next(deal, act, pile, chosen):
    """“After playing a Jester the player skips steps 3 and 4, then chooses the
    player (possibly themself) who takes the next turn.”  The Jester deals 0
    damage and the enemy does not attack."""
    m = deal(3, enemy="J♣", hands=[["Jester", "2♥"], ["3♥"], ["4♥"]], vars={"damage": 7})
    act(m, "jester", "Jester")
    assert m.decision.choice == "next_up" and m.decision.player == 0
    assert sorted(a.player for a in m.legal_actions()) == [0, 1, 2]
    act(m, "player", player=chosen)
    assert_turn_of(m, chosen)
    assert m.vars["damage"] == 7
    assert hand_of(m, 0) == Counter(["2♥"]), "no discard: step 4 was skipped"
    assert pile(m, "table") == ["Jester"]


def test_jester_cancels_immunity_for_later_hearts(deal, act, pile):
    """“The Jester cancels the enemy's immunity: cards of the enemy's suit have
    their power again” — hearts heal against the Jack of hearts."""
    m = deal(3, enemy="J♥", hands=[["Jester"], ["5♥", "K♠"], ["2♥"]],
             discard=["2♦", "3♦", "4♦", "5♦", "6♦", "7♦"])
    act(m, "jester", "Jester")
    act(m, "player", player=1)
    act(m, "card", "5♥")
    assert len(pile(m, "tavern")) == 5 and len(pile(m, "discard")) == 1


def test_jester_cancels_immunity_for_later_diamonds(deal, act, pile):
    """After a Jester, diamonds draw against the Jack of diamonds."""
    m = deal(3, enemy="J♦", hands=[["Jester"], ["3♦", "K♠"], ["2♥"]], tavern=["2♣", "3♣", "4♣"])
    act(m, "jester", "Jester")
    act(m, "player", player=1)
    act(m, "card", "3♦")
    assert pile(m, "tavern") == []
    # Player 1 draws first, then clockwise: player 2, then player 0.
    assert hand_of(m, 1) == Counter(["K♠", "2♣"])
    assert hand_of(m, 2) == Counter(["2♥", "3♣"])
    assert hand_of(m, 0) == Counter(["4♣"])


def test_jester_cancels_immunity_for_later_clubs(deal, act):
    """After a Jester, clubs deal double damage to the Jack of clubs."""
    m = deal(3, enemy="J♣", hands=[["Jester"], ["5♣", "K♠"], ["2♥"]])
    act(m, "jester", "Jester")
    act(m, "player", player=1)
    act(m, "card", "5♣")
    assert m.vars["damage"] == 10


def test_jester_cancels_immunity_for_later_spades(deal, act):
    """After a Jester, spades shield against the Jack of spades."""
    m = deal(3, enemy="J♠", hands=[["Jester"], ["5♠", "4♦", "A♣"], ["2♥"]])
    act(m, "jester", "Jester")
    act(m, "player", player=1)
    act(m, "card", "5♠")
    act(m, "discard", "4♦")
    assert_paying(m, 1)
    act(m, "discard", "A♣")            # 5 paid = 10 - 5 shield
    assert_turn_of(m, 2)


def test_jester_makes_spades_played_earlier_against_a_spades_enemy_shield(deal, act):
    """“If a Jester is played against a spades enemy, the spades played before
    (and the cards played together with them) now reduce its attack.”
    A♠ + 4♥ (total 5) was played while the Jack of spades was immune."""
    m = deal(3, enemy="J♠", hands=[["A♠", "4♥", "10♦"], ["Jester"], ["2♥", "4♦", "A♣"]])
    act(m, "companion", "A♠", "4♥")
    act(m, "discard", "10♦")           # immune: full attack of 10
    assert_turn_of(m, 1)
    act(m, "jester", "Jester")
    act(m, "player", player=2)
    act(m, "card", "2♥")
    act(m, "discard", "4♦")
    assert_paying(m, 2)
    act(m, "discard", "A♣")            # 5 paid = 10 - 5: the earlier spades now count
    assert_turn_of(m, 0)


def test_jester_does_not_double_clubs_played_earlier_against_a_clubs_enemy(deal, act):
    """“However, clubs played before a Jester against a clubs enemy are not
    counted double”: damage already dealt is unchanged; later clubs double."""
    m = deal(3, enemy="J♣", hands=[["5♣", "10♦"], ["Jester"], ["3♣", "K♠"]])
    act(m, "card", "5♣")
    assert m.vars["damage"] == 5
    act(m, "discard", "10♦")
    act(m, "jester", "Jester")
    assert m.vars["damage"] == 5
    act(m, "player", player=2)
    assert m.vars["damage"] == 5
    act(m, "card", "3♣")
    assert m.vars["damage"] == 11


# ---------------------------------------------------------------------------
# Animal companions (aces)
# ---------------------------------------------------------------------------

def test_companion_pairs_with_one_card_and_both_powers_use_the_total(deal, act, pile):
    """“Playing the 8 of diamonds with the ace of clubs: their attack is 9 and
    both powers apply to 9 (draw 9 cards and deal 18 damage).”"""
    tavern = ["2♥", "3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "2♠", "3♠"]
    m = deal(2, enemy="J♠", hands=[["8♦", "A♣"], []], tavern=tavern)
    act(m, "companion", "8♦", "A♣")
    assert m.vars["damage"] == 18
    assert pile(m, "tavern") == ["2♠", "3♠"]
    assert sum(len(m.zone("hand", p).cards) for p in (0, 1)) == 9


def test_companion_may_be_played_alone(deal, act):
    """“An animal companion can be played on its own” and is worth 1."""
    m = deal(2, enemy="J♥", hands=[["A♣", "K♠"]])
    act(m, "card", "A♣")
    assert m.vars["damage"] == 2


def test_companion_with_a_card_of_its_own_suit_applies_the_power_once(deal, act, pile):
    """“If an animal companion is played with a card of the same suit, that
    suit's power applies only once”: A♦ + 5♦ draws 6 cards, not 12."""
    tavern = [f"{r}♣" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10"]] + ["2♥", "3♥", "4♥"]
    m = deal(2, enemy="J♠", hands=[["A♦", "5♦"], []], tavern=tavern)
    act(m, "companion", "A♦", "5♦")
    assert len(pile(m, "tavern")) == 6
    assert m.vars["damage"] == 6


def test_companion_ace_with_same_suit_clubs_doubles_once(deal, act):
    """A♣ + 5♣: 6 doubled once is 12 damage (not quadrupled)."""
    m = deal(2, enemy="J♥", hands=[["A♣", "5♣", "K♠"]])
    act(m, "companion", "A♣", "5♣")
    assert m.vars["damage"] == 12


def test_companion_may_pair_with_another_ace(deal, act, pile):
    """“... or with another animal companion”: A♥ + A♦ is worth 2, heals 2
    and then draws 2."""
    m = deal(2, enemy="J♠", hands=[["A♥", "A♦", "K♣"], ["2♥"]],
             discard=["2♣", "3♣", "4♣", "5♣"])
    act(m, "companion", "A♥", "A♦")
    assert m.vars["damage"] == 2
    assert len(pile(m, "discard")) == 2 and pile(m, "tavern") == []
    assert [len(m.zone("hand", p).cards) for p in (0, 1)] == [2, 2]


def test_companion_may_pair_with_a_royal(deal, act):
    """“... also with a Jack, Queen or King”: A♦ + J♥ is worth 11."""
    m = deal(2, enemy="K♠", hands=[["A♦", "J♥", "K♣"]])
    act(m, "companion", "A♦", "J♥")
    assert m.vars["damage"] == 11


def test_companion_cannot_pair_with_a_jester(deal, offered):
    """“... but never with a Jester”."""
    m = deal(3, enemy="J♠", hands=[["A♣", "Jester", "5♥"]])
    assert offered(m, "companion", "A♣", "5♥")
    assert not any("Jester" in [m.card(i).name for i in a.cards] and len(a.cards) > 1
                   for a in m.legal_actions())


def test_companion_pairs_with_exactly_one_other_card(deal, offered):
    """An animal companion is played “alone or with ONE other card”: an ace
    with two other cards is not a legal play, nor is a pair without an ace."""
    m = deal(2, enemy="J♠", hands=[["A♣", "2♥", "3♦", "7♠"]])
    assert offered(m, "companion", "A♣", "2♥")
    assert all(len(a.cards) <= 2 for a in m.legal_actions())
    assert not offered(m, "companion", "2♥", "3♦")


# ---------------------------------------------------------------------------
# Combos
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("cards,legal", [
    (["2♥", "2♦"], True),
    (["2♥", "2♦", "2♣"], True),
    (["2♥", "2♦", "2♣", "2♠"], True),
    (["3♥", "3♦"], True),
    (["3♥", "3♦", "3♣"], True),
    (["3♥", "3♦", "3♣", "3♠"], False),   # 12
    (["4♥", "4♦"], True),
    (["4♥", "4♦", "4♣"], False),         # 12
    (["5♥", "5♦"], True),                # exactly 10
    (["5♥", "5♦", "5♣"], False),
    (["6♥", "6♦"], False),               # 12
    (["10♥", "10♦"], False),
    (["J♥", "J♦"], False),
])
def test_combo_is_2_to_4_cards_of_one_rank_totalling_at_most_10(deal, offered, cards, legal):
    """“A combo of 2, 3 or 4 cards of the same value with a total of 10 or
    less: 2-4 twos, 2-3 threes, 2 fours or 2 fives.”"""
    m = deal(2, enemy="K♠", hands=[cards + ["9♣"]])
    assert offered(m, "combo", *cards) is legal


def test_combo_needs_one_rank(deal, offered):
    """A combo's cards all have the same value: 2♥ + 3♦ is not a combo."""
    m = deal(2, enemy="K♠", hands=[["2♥", "3♦"]])
    assert not offered(m, "combo", "2♥", "3♦")
    assert all(len(a.cards) <= 1 for a in m.legal_actions())


def test_combo_powers_apply_to_the_total(deal, act, pile):
    """“If a player plays 3♠, 3♦ and 3♣ together, the players draw 9 cards,
    deal 18 damage and reduce the enemy's attack by 9.”"""
    tavern = [f"{r}♥" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10"]] + ["2♠"]
    m = deal(2, enemy="Q♥", hands=[["3♠", "3♦", "3♣", "5♣", "A♦"], ["K♦"]], tavern=tavern)
    act(m, "combo", "3♠", "3♦", "3♣")
    assert m.vars["damage"] == 18
    assert pile(m, "tavern") == ["2♠"]
    # Queen attacks for 15 - 9 = 6: 5 is not enough, 5 + 1 is.
    act(m, "discard", "5♣")
    assert_paying(m, 0)
    act(m, "discard", "A♦")
    assert_turn_of(m, 1)


def test_combo_cannot_include_an_animal_companion(deal, offered):
    """“Animal companions cannot be played with a combo, nor make a combo with
    another animal companion” (A + A is a companion pair, not a combo)."""
    m = deal(2, enemy="K♠", hands=[["A♣", "A♥", "2♣", "2♦"]])
    assert offered(m, "combo", "2♣", "2♦")
    for a in m.legal_actions():
        names = [m.card(i).name for i in a.cards]
        if a.option == "combo":
            assert not any(n.startswith("A") for n in names), m.describe_action(a)
        assert len(names) <= 2, m.describe_action(a)
    assert offered(m, "companion", "A♣", "A♥")


# ---------------------------------------------------------------------------
# Defeating an enemy
# ---------------------------------------------------------------------------

def test_overkilled_enemy_goes_to_the_discard_pile(deal, act, pile):
    """“Put the enemy in the discard pile if the damage exceeded its health.”"""
    m = deal(2, enemy="J♥", castle=["Q♣", "K♠"], hands=[["6♠", "2♦"]], vars={"damage": 15})
    act(m, "card", "6♠")
    assert "J♥" in pile(m, "discard")
    assert "J♥" not in pile(m, "tavern")
    assert m.vars["defeated"] == 1


def test_exactly_killed_enemy_goes_face_down_on_top_of_the_tavern(deal, act, pile):
    """“If the damage equals its health, put it face down on top of the
    tavern deck.”"""
    m = deal(2, enemy="J♥", castle=["Q♣", "K♠"], hands=[["5♠", "2♦"]], tavern=["9♣", "8♣"],
             vars={"damage": 15})
    act(m, "card", "5♠")
    assert pile(m, "tavern") == ["J♥", "9♣", "8♣"]
    assert pile(m, "discard") == ["5♠"]
    assert "cards" not in m.view(1)["zones"]["tavern"], "face down"


def test_exactly_killed_enemy_is_drawn_first_and_worth_10_in_hand(deal, act, pile):
    """The enemy on top of the tavern is the next card drawn; “a Jack in hand
    is worth 10” and its suit power applies when played."""
    m = deal(2, enemy="J♥", castle=["Q♣", "K♠"], hands=[["5♠", "A♦", "5♣"], ["2♥"]],
             tavern=["9♣", "8♣"], vars={"damage": 15})
    act(m, "card", "5♠")
    act(m, "card", "A♦")               # draw 1: the Jack comes back first
    assert hand_of(m, 0) == Counter(["J♥", "5♣"])
    assert pile(m, "tavern") == ["9♣", "8♣"]
    act(m, "discard", "J♥")            # 10 of the Queen's 15
    assert_paying(m, 0)
    act(m, "discard", "5♣")
    assert_turn_of(m, 1)


def test_defeated_enemy_all_played_cards_go_to_the_discard(deal, act, pile):
    """“Put all cards played against this enemy in the discard pile.”"""
    m = deal(2, enemy="J♥", castle=["Q♣"], hands=[["10♠", "2♦"]], table=["4♣", "3♦"],
             discard=["7♥"], vars={"damage": 14, "shield": 3})
    act(m, "card", "10♠")
    assert pile(m, "table") == []
    assert Counter(pile(m, "discard")) == Counter(["7♥", "4♣", "3♦", "10♠", "J♥"])
    check_conservation(m)


def test_defeated_enemy_next_castle_card_is_revealed(deal, act, pile):
    """“Turn the next card of the castle deck face up” — the new enemy."""
    m = deal(2, enemy="J♥", castle=["Q♣", "K♠"], hands=[["10♠", "2♦"]], vars={"damage": 14})
    act(m, "card", "10♠")
    assert pile(m, "enemy") == ["Q♣"]
    assert pile(m, "castle") == ["K♠"]
    assert m.view(1)["zones"]["enemy"]["cards"] == ["Q♣"]
    assert m.vars["damage"] == 0


def test_defeating_player_skips_step_4_and_starts_again_at_step_1(deal, act):
    """“The player who defeated the enemy skips step 4 and starts a new turn
    at step 1 against the new enemy.”"""
    m = deal(2, enemy="J♥", castle=["Q♣", "K♠"], hands=[["10♠", "2♦", "3♦"], ["2♥"]],
             vars={"damage": 14})
    act(m, "card", "10♠")
    assert_turn_of(m, 0)
    assert hand_of(m, 0) == Counter(["2♦", "3♦"]), "nothing was discarded"


@pytest.mark.parametrize("royal,value", [("J♥", 10), ("Q♥", 15), ("K♥", 20)])
def test_royals_in_hand_are_worth_10_15_20_when_played(deal, act, royal, value):
    """“Jacks in hand are worth 10, Queens 15 and Kings 20 when played”, with
    their suit power as usual."""
    m = deal(2, enemy="K♠", hands=[[royal, "K♣"]])
    act(m, "card", royal)
    assert m.vars["damage"] == value


@pytest.mark.parametrize("hand", [
    ["J♣", "9♣", "A♥"],
    ["Q♣", "4♣", "A♥"],
    ["K♣"],
])
def test_royals_in_hand_are_worth_10_15_20_when_discarded(deal, act, hand):
    """“... and the same when discarded to absorb damage”: against a King
    (attack 20)."""
    m = deal(2, enemy="K♠", hands=[["A♦"] + hand])
    act(m, "card", "A♦")
    for card in hand[:-1]:
        act(m, "discard", card)
        assert_paying(m, 0)
    act(m, "discard", hand[-1])
    assert_turn_of(m, 1)


# ---------------------------------------------------------------------------
# Step 4: suffer damage
# ---------------------------------------------------------------------------

def test_step4_discard_one_card_at_a_time_until_the_attack_is_covered(deal, act, pile):
    """“The player discards cards one at a time until their total value is at
    least the enemy's attack: to absorb 10, discard a 2, then a 3, then a 10.”"""
    m = deal(2, enemy="J♥", hands=[["A♦", "2♣", "3♣", "10♣", "9♦"]])
    act(m, "card", "A♦")
    act(m, "discard", "2♣")
    assert_paying(m, 0)
    act(m, "discard", "3♣")
    assert_paying(m, 0)
    act(m, "discard", "10♣")
    assert_turn_of(m, 1)
    assert hand_of(m, 0) == Counter(["9♦"])
    assert pile(m, "discard") == ["10♣", "3♣", "2♣"]


def test_step4_animal_companion_absorbs_1_and_jester_0(deal, act):
    """“When absorbing damage an animal companion is worth 1 and a Jester 0.”"""
    m = deal(3, enemy="J♥", hands=[["A♦", "Jester", "A♣", "9♦"]])
    act(m, "card", "A♦")
    act(m, "discard", "Jester")
    assert_paying(m, 0)
    act(m, "discard", "9♦")
    assert_paying(m, 0)
    act(m, "discard", "A♣")
    assert_turn_of(m, 1)


def test_step4_jester_cannot_help_survive(deal, act):
    """A Jester absorbs 0: Jester + 9 cannot absorb a Jack's 10."""
    m = deal(3, enemy="J♥", hands=[["A♦", "Jester", "9♦"]])
    act(m, "card", "A♦")
    assert m.is_over()
    assert m.result()["outcome"] == "loss"


def test_step4_no_discard_when_the_attack_is_fully_shielded(deal, act):
    """“If the enemy's attack is 0, the player discards nothing” — even with
    an empty hand (“no penalty if a player has no cards and the attack is 0”)."""
    m = deal(2, enemy="J♥", hands=[["10♠"], ["2♥"]])
    act(m, "card", "10♠")
    assert_turn_of(m, 1)
    assert len(m.zone("hand", 0).cards) == 0


def test_step4_player_may_discard_down_to_an_empty_hand(deal, act):
    """“No penalty if a player has no cards left after absorbing damage.”"""
    m = deal(2, enemy="J♥", hands=[["A♦", "10♣"], ["2♥"]])
    act(m, "card", "A♦")
    act(m, "discard", "10♣")
    assert_turn_of(m, 1)
    assert len(m.zone("hand", 0).cards) == 0


def test_step4_players_lose_when_the_hand_cannot_absorb_the_attack(deal, act):
    """“If a player cannot discard enough to absorb the enemy's attack, they
    die and all players lose.”"""
    m = deal(2, enemy="J♥", hands=[["A♦", "5♣", "4♣"]])
    act(m, "card", "A♦")
    assert m.is_over() and m.decision is None
    result = m.result()
    assert result["outcome"] == "loss" and result["winners"] == []
    assert "attack" in result["reason"]


# Reading (games/regicide.yaml, step 4): the Russian text pays one card at a
# time until the attack is covered; the Chinese text reads as one discard of
# several cards.  The file follows the Russian text, so a card is discarded
# only while some of the attack is still owed.

def _card_ids(m, *names: str) -> tuple[int, ...]:
    out: list[int] = []
    for name in names:
        out.append(next(c.id for c in m.cards if c.name == name and c.id not in out))
    return tuple(out)


def test_step4_overpayment_in_one_discard_is_refused(deal, act, offered, pile):
    """Reading: {10♦, 10♣} against a Jack's 10 is not one payment: only one
    card is discarded at a time, and once the first 10 covers the attack the
    second stays in hand."""
    m = deal(2, enemy="J♥", hands=[["A♦", "10♦", "10♣", "5♠"], ["2♥"]])
    act(m, "card", "A♦")                      # attack 10, nothing to draw
    assert_paying(m, 0)
    assert all(len(a.cards) == 1 for a in m.legal_actions())
    assert not offered(m, "discard", "10♦", "10♣")
    before = (m.log_json(), pile(m, "hand", 0), m.decision)
    with pytest.raises(IllegalAction):
        m.apply(Action("discard", _card_ids(m, "10♦", "10♣")))
    assert (m.log_json(), pile(m, "hand", 0), m.decision) == before
    act(m, "discard", "10♦")
    assert_turn_of(m, 1)
    assert hand_of(m, 0) == Counter(["10♣", "5♠"])
    assert pile(m, "discard") == ["10♦"]


@pytest.mark.parametrize("payment", [
    ["10♣"], ["5♠", "5♣"], ["9♣", "A♣"], ["2♣", "3♣", "5♠"], ["5♠", "10♣"], ["Jester", "10♣"],
    ["2♣", "3♣", "10♣"],
])
def test_step4_each_card_of_a_payment_is_accepted_while_attack_is_owed(deal, act, payment):
    """Reading: every card discarded while some of the attack is owed is
    accepted (a smaller card first, then a larger one, as in the rulebook's
    2, 3, 10 example), and the payment ends with the card that covers the
    attack."""
    hand = ["A♦", "10♣", "9♣", "5♠", "5♣", "3♣", "2♣", "A♣", "Jester"]
    m = deal(3, enemy="J♥", hands=[hand, ["2♥"], ["3♥"]])
    act(m, "card", "A♦")
    for card in payment[:-1]:
        act(m, "discard", card)
        assert_paying(m, 0)
    act(m, "discard", payment[-1])
    assert_turn_of(m, 1)
    assert hand_of(m, 0) == Counter(hand[1:]) - Counter(payment)


@pytest.mark.parametrize("worth,survives", [(9, False), (10, True)])
def test_step4_lose_exactly_when_the_whole_hand_cannot_cover_the_attack(deal, act, worth, survives):
    """The hand must be worth the attack (10) in all: 10 survives, 9 loses
    at once (nobody is asked to discard)."""
    cards = {9: ["4♣", "5♣"], 10: ["4♣", "6♣"]}[worth]
    m = deal(2, enemy="J♥", hands=[["A♦", *cards], ["2♥"]])
    act(m, "card", "A♦")
    if survives:
        assert_paying(m, 0)
        act(m, "discard", cards[0])
        act(m, "discard", cards[1])
        assert_turn_of(m, 1)
    else:
        assert m.is_over() and m.result()["outcome"] == "loss"


# ---------------------------------------------------------------------------
# Yielding
# ---------------------------------------------------------------------------

def test_yield_skips_steps_2_and_3_and_goes_to_step_4(deal, act, pile):
    """“To yield the player says 'I yield' and goes straight to step 4,
    skipping steps 2 and 3” — no power, no damage, but the enemy attacks."""
    m = deal(2, enemy="J♣", hands=[["5♥", "10♦"], ["2♥"]], discard=["2♣", "3♣"],
             vars={"damage": 4})
    act(m, "yield")
    assert m.vars["damage"] == 4
    assert pile(m, "discard") == ["2♣", "3♣"] and pile(m, "table") == []
    assert_paying(m, 0)
    act(m, "discard", "10♦")
    assert_turn_of(m, 1)


def test_yield_with_an_empty_hand_is_allowed(deal, act):
    """“No penalty if a player starts a turn with no cards in hand; they may
    yield” — and survive if the attack is fully shielded."""
    m = deal(2, enemy="J♥", hands=[[], ["2♥"]], table=["10♠"], vars={"shield": 10})
    assert [a.option for a in m.legal_actions()] == ["yield"]
    act(m, "yield")
    assert_turn_of(m, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cannot_yield_when_all_other_players_yielded_on_their_last_turn(deal, act, offered,
                                                                       players):
    """“A player cannot yield if all other players yielded on their last turn.
    For example with 3 players, if two players yield in a row, the third
    cannot yield.”"""
    hands = [["10♦", "K♣"], ["10♥", "K♦"], ["10♣", "K♥"], ["10♠", "K♠"]][:players]
    m = deal(players, enemy="J♥", hands=hands)
    for p in range(players - 1):
        assert_turn_of(m, p)
        assert offered(m, "yield")
        act(m, "yield")
        act(m, "discard", hands[p][0])
    assert_turn_of(m, players - 1)
    assert not offered(m, "yield")
    assert offered(m, "card", hands[players - 1][0])


def test_yield_allowed_again_once_someone_played(deal, act, offered):
    """Only yields by *all* other players on their last turn forbid yielding:
    3 players, yield / play / yield — the first player may yield again."""
    m = deal(3, enemy="K♥", hands=[["10♦", "K♣"], ["A♦", "K♦"], ["10♣", "K♠"]])
    act(m, "yield")
    act(m, "discard", "K♣")
    act(m, "card", "A♦")
    act(m, "discard", "K♦")
    act(m, "yield")
    act(m, "discard", "K♠")
    assert_turn_of(m, 0)
    assert offered(m, "yield")


def test_lose_when_a_player_can_neither_play_nor_yield(deal, act):
    """“The players also lose if a player on their turn can neither yield (all
    other players yielded before them) nor play a card (no cards in hand).”"""
    m = deal(2, enemy="J♥", hands=[[], []], table=["10♠"], vars={"shield": 10})
    act(m, "yield")
    assert m.is_over()
    assert m.result()["outcome"] == "loss"
    assert "neither play" in m.result()["reason"]


# ---------------------------------------------------------------------------
# End of the game and turn order
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("card", ["5♠", "10♣"])
def test_players_win_when_the_last_king_is_defeated(deal, act, card):
    """“The game ends in victory when the last enemy (King) is defeated” —
    whether exactly or with overkill."""
    m = deal(2, enemy="K♥", hands=[[card, "2♦"]], vars={"damage": 35, "defeated": 11})
    act(m, "card", card)
    assert m.is_over() and m.decision is None
    result = m.result()
    assert result["outcome"] == "win"
    assert result["winners"] == [0, 1]
    assert result["stats"]["enemies_defeated"] == 12
    check_conservation(m)


def test_defeating_a_king_with_enemies_left_is_not_a_win(deal, act, pile):
    """Only the last King ends the game."""
    m = deal(2, enemy="K♥", castle=["K♠"], hands=[["5♠", "2♦"]], vars={"damage": 35})
    act(m, "card", "5♠")
    assert not m.is_over()
    assert pile(m, "enemy") == ["K♠"]


def test_turn_passes_clockwise(deal, act):
    """“If the enemy is not defeated, play passes clockwise to the next
    player” (seat order 0, 1, 2, 3, 0)."""
    hands = [["A♦", "K♣"], ["A♥", "K♦"], ["A♣", "K♥"], ["A♠", "K♠"]]
    m = deal(4, enemy="Q♥", hands=hands, castle=["J♣"])
    seen = []
    for p in range(4):
        assert_turn_of(m, p)
        seen.append(m.current)
        act(m, "card", hands[p][0])
        act(m, "discard", hands[p][1])
    assert_turn_of(m, 0)
    assert seen == [0, 1, 2, 3]


def test_a_jester_turn_is_not_a_yield(deal, act, offered):
    """Playing a Jester is not yielding: 3 players, yield / Jester (choosing
    the third player) — the third player may still yield."""
    m = deal(3, enemy="K♥", hands=[["10♦", "K♣"], ["Jester"], ["10♣", "K♠"]])
    act(m, "yield")
    act(m, "discard", "K♣")
    act(m, "jester", "Jester")
    act(m, "player", player=2)
    assert_turn_of(m, 2)
    assert offered(m, "yield")


def test_cannot_yield_after_defeating_an_enemy_when_the_others_yielded(deal, act, offered):
    """“A player cannot yield if all other players yielded on their last
    turn” — also on the extra turn a player gets for defeating an enemy:
    3 players, players 2 and 0 yield, player 1 defeats the Jack and starts
    again at step 1; the others' last turns were still yields."""
    m = deal(3, enemy="J♥", castle=["Q♣"], current=2, vars={"damage": 10},
             hands=[["10♦", "K♣"], ["10♠", "9♦"], ["10♣", "K♠"]])
    act(m, "yield")
    act(m, "discard", "K♠")
    act(m, "yield")
    act(m, "discard", "K♣")
    act(m, "card", "10♠")              # 20: the Jack falls, player 1 goes again
    assert_turn_of(m, 1)
    assert not offered(m, "yield")


# ---------------------------------------------------------------------------
# What the players read: prompts and the log tell what the table shows
# ---------------------------------------------------------------------------

def said(m, seat: int = 0) -> list[str]:
    """The log as ``seat`` reads it (the narration of each event)."""
    return [e["text"] for e in m.events(seat) if "text" in e]


def test_step4_prompt_tells_how_much_of_the_attack_is_still_to_absorb(deal, act):
    """Step 4 is paid card by card “until the total is at least the enemy's
    attack”: each prompt tells the player what is still to be absorbed."""
    m = deal(2, enemy="J♥", hands=[["A♦", "2♣", "3♣", "10♣", "9♦"]])
    act(m, "card", "A♦")
    assert "10 still to absorb" in m.decision.prompt
    act(m, "discard", "2♣")
    assert "8 still to absorb" in m.decision.prompt
    act(m, "discard", "3♣")
    assert "5 still to absorb" in m.decision.prompt


@pytest.mark.parametrize("card,where", [("5♣", "face down on top of the tavern"),
                                        ("6♣", "to the discard pile")])
def test_log_tells_where_a_defeated_enemy_goes(deal, act, card, where):
    """An enemy killed exactly goes face down on top of the tavern, an
    overkilled one to the discard pile: every player reads which."""
    m = deal(2, enemy="J♥", castle=["J♦"], hands=[[card], ["5♠"]], vars={"damage": 10})
    act(m, "card", card)
    assert any(where in line for line in said(m, 1)), said(m, 1)


def test_log_tells_what_hearts_heal_and_diamonds_draw(deal, act):
    """“Hearts: shuffle the discard pile and put that many cards under the
    tavern” and “Diamonds: draw that many cards round the table”: the log
    says how many cards each power moved (not which ones drawn)."""
    m = deal(2, enemy="K♠", hands=[["A♥", "5♦"], ["2♠"]],
             discard=["2♥", "3♥", "4♥"], tavern=["6♣", "7♣", "8♣", "9♣"])
    act(m, "companion", "A♥", "5♦")
    lines = said(m, 1)
    assert any("3 of the discard pile's cards" in line and "under the tavern" in line
               for line in lines), lines
    assert any("draw 6 from the tavern" in line for line in lines), lines
    assert not any("6♣" in line or "7♣" in line for line in lines), lines


def test_log_tells_when_the_enemy_blocks_a_power(deal, act):
    """“Each enemy is immune to the power of its own suit”: the log says the
    power was blocked, so a player sees why no card was drawn."""
    m = deal(2, enemy="J♦", hands=[["5♦", "9♣"], ["2♠"]], tavern=["6♣"])
    act(m, "card", "5♦")
    assert any("immune" in line and "diamonds" in line for line in said(m, 1)), said(m, 1)


def test_log_tells_a_jester_cancels_the_enemys_immunity(deal, act):
    """“The Jester cancels the enemy's immunity”: every player reads that the
    enemy's suit has its power again."""
    m = deal(3, enemy="J♣", hands=[["Jester", "2♥"], ["3♥"], ["4♥"]])
    act(m, "jester", "Jester")
    assert "Jester: J♣ is no longer immune to clubs" in said(m, 2), said(m, 2)
