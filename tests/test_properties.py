"""Properties of games/regicide.yaml over random games that go deep.

Uniformly random games of every player count are the conformance suite's
(``tests/test_conformance.py``), which checks Regicide's invariants
(``tests/game_invariants.py``) after every action of them.  Random play
rarely gets past the Jacks, so here, for every player count, games are
played by a player that mostly follows the game's own heuristic (more
enemies defeated, exact kills, Jesters, healing from a big discard pile),
with the same checks after EVERY action:

- every card is in exactly one zone (``check_conservation``);
- the rules' invariants hold: no hand over its maximum size, 12 royals
  between castle, current enemy and defeated, the current enemy still alive,
  decisions are the current player's, legal actions are distinct.

Every game ends (win or loss) without an exception, and replaying every
game from its saved seed and actions gives a byte-identical log.
A second family starts from random late-game positions (only Kings left) so
that the winning path and the solo medals are exercised too.
"""
from __future__ import annotations

import random

import pytest
from game_invariants import HAND_SIZE, TAVERN_JESTERS, regicide_end, regicide_start, regicide_step

from rulekit import Match
from rulekit.testing import check_conservation, prepare

GREEDY_GAMES = 500
LATE_GAMES = 300
NUMBERS = [f"{r}{s}" for s in "♥♦♣♠" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]]


def choose(m: Match, rng: random.Random):
    """Usually the heuristic's best action, else a random legal one."""
    dec = m.decision
    options = dec.options
    if rng.random() < 0.8:
        h = m.game.choices[dec.choice].heuristic
        if h is not None:
            scores = [h(m, [m.card(i) for i in a.cards], a.option, a.player, *dec.args) for a in options]
            best = max(scores)
            return options[rng.choice([i for i, s in enumerate(scores) if s == best])]
    return options[rng.randrange(len(options))]


def check_invariants(m: Match, players: int) -> None:
    check_conservation(m)
    regicide_step(m, players)


def play_checked(m: Match, players: int, rng: random.Random) -> dict:
    check_invariants(m, players)
    while m.decision is not None:
        m.apply(choose(m, rng))
        check_invariants(m, players)
    result = m.result()
    regicide_end(m, players, result)
    return result


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_greedy_games_conserve_cards_keep_invariants_and_end(regicide, players):
    defeated = 0
    for seed in range(GREEDY_GAMES):
        m = regicide.new_match(players=players, seed=seed)
        regicide_start(m, players)
        play_checked(m, players, random.Random(seed))
        defeated = max(defeated, m.vars["defeated"])
        # the same file, seed and actions give a byte-identical event log
        replay = Match.restore(regicide, m.save())
        assert replay.log_json() == m.log_json()
        assert replay.result() == m.result()
    assert defeated >= 3, "the games never got past the Jacks: the property test is too shallow"


def late_game(regicide, players: int, seed: int) -> Match:
    """A random position with only Kings left: 1-4 Kings, random hands,
    random tavern/discard split, some damage and shield already dealt."""
    rng = random.Random(seed)
    cards = NUMBERS + ["J♥", "J♦", "J♣", "J♠", "Q♥", "Q♦", "Q♣", "Q♠"]
    cards += ["Jester"] * (0 if players == 1 else TAVERN_JESTERS[players])
    rng.shuffle(cards)
    kings = ["K♥", "K♦", "K♣", "K♠"]
    rng.shuffle(kings)
    left = rng.randint(1, 4)
    zones = {"enemy": [kings[0]], "castle": kings[1:left]}
    out = kings[left:]
    for p in range(players):
        zones[f"hand({p})"] = [cards.pop() for _ in range(rng.randint(0, HAND_SIZE[players]))]
    split = rng.randint(0, len(cards))
    zones["tavern"], zones["discard"] = cards[:split], cards[split:] + out
    if players == 1:
        used = rng.randint(0, 2)
        zones["powers"], zones["used"] = ["Jester"] * (2 - used), ["Jester"] * used
    damage = rng.randint(0, 39)
    return prepare(regicide, players, zones=zones, seed=seed, current=rng.randrange(players),
                   vars={"damage": damage, "shield": rng.choice([0, 0, 5, 10]),
                         "defeated": 12 - left, "immune": rng.random() < 0.8})


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_late_games_conserve_cards_and_reach_wins(regicide, players):
    outcomes = {"win": 0, "loss": 0}
    medals = set()
    for seed in range(LATE_GAMES):
        m = late_game(regicide, players, seed)
        result = play_checked(m, players, random.Random(seed))
        outcomes[result["outcome"]] += 1
        medals.add(result["stats"]["medal"])
        if seed < 50:
            assert Match.restore(regicide, m.save()).log_json() == m.log_json()
    assert outcomes["win"] > 0 and outcomes["loss"] > 0, outcomes
    if players == 1:
        assert {"gold", "silver", "bronze"} <= medals, medals
