"""Hand-written Python implementation of the co-operative card game Regicide.

This module is a benchmark baseline only: it plays Regicide directly in plain
Python (lists of ints for cards, no interpreter) so that the speed of the
rulekit interpreter running the YAML version of the game can be compared with
it.  The rulekit engine never imports or uses this file.

Card encoding: ``suit * 13 + rank - 1`` for the 52 standard cards (rank 1..13,
A=1, J=11, Q=12, K=13; suits hearts=0, diamonds=1, clubs=2, spades=3), and
52, 53 for the two jesters.  Piles are lists whose *end* is the top.

Run as a script to play 2000 random games per player count and print figures.
"""

from __future__ import annotations

import random
import sys
import time
from itertools import combinations

HEARTS, DIAMONDS, CLUBS, SPADES = 0, 1, 2, 3
JESTERS = (52, 53)
NO_SUIT = -1

RANK = [c % 13 + 1 for c in range(52)] + [0, 0]
SUIT = [c // 13 for c in range(52)] + [NO_SUIT, NO_SUIT]
VALUE = [min(r, 10) if r <= 11 else (15 if r == 12 else 20) for r in RANK[:52]] + [0, 0]

ENEMY_ATTACK = {11: 10, 12: 15, 13: 20}
ENEMY_HEALTH = {11: 20, 12: 30, 13: 40}

HAND_SIZE = {1: 8, 2: 7, 3: 6, 4: 5}
TAVERN_JESTERS = {1: 0, 2: 0, 3: 1, 4: 2}
SOLO_POWERS = 2

YIELD = None  # the "yield" option among the legal plays

CHECK = False  # switch on to assert after every step that no card is lost


def legal_plays(hand: list[int], can_yield: bool) -> list:
    """Every legal play for ``hand``: tuples of cards, plus YIELD if allowed."""
    plays: list = []
    normal = []
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        plays.append((c,))  # every single card, jesters included (alone)
        if c < 52:
            normal.append(c)
            r = RANK[c]
            if 2 <= r <= 10:
                by_rank.setdefault(r, []).append(c)
    # Animal companion: an ace paired with any other non-jester card.
    for i, a in enumerate(normal):
        a_ace = RANK[a] == 1
        for b in normal[i + 1:]:
            if a_ace or RANK[b] == 1:
                plays.append((a, b))
    # Combos: 2-4 cards of the same rank 2..10 with total value <= 10.
    for r, group in by_rank.items():
        for k in range(2, min(4, len(group)) + 1):
            if k * r > 10:
                break
            plays.extend(combinations(group, k))
    if can_yield:
        plays.append(YIELD)
    return plays


def _draw(hand: list[int], tavern: list[int], count: int) -> None:
    for _ in range(min(count, len(tavern))):
        hand.append(tavern.pop())


def _use_powers(powers: int, randrange, hand: list[int], tavern: list[int], discard: list[int],
                hand_size: int) -> tuple[int, int]:
    """Solo: offer the jester powers left (use / decline), again after each
    use; a use discards the hand and draws a new one.  Returns (decisions,
    powers used)."""
    offered = used = 0
    while used < powers:
        options = [True, False]  # use a power / decline
        offered += 1
        if not options[randrange(len(options))]:
            break
        used += 1
        discard.extend(hand)
        hand.clear()
        _draw(hand, tavern, hand_size)
    return offered, used


def _check_cards(expected, hands, tavern, discard, table, castle, enemy) -> None:
    cards = [c for h in hands for c in h] + tavern + discard + table + castle
    if enemy is not None:
        cards.append(enemy)
    assert sorted(cards) == expected, "card lost or duplicated"


def play_game(players: int, rng: random.Random) -> tuple[bool, int, int, int]:
    """Play one game with the uniform-random policy.

    Return (won, enemies_defeated, solo_powers_used, decisions).
    """
    if players not in HAND_SIZE:
        raise ValueError("Regicide is for 1 to 4 players")
    randrange = rng.randrange
    solo = players == 1
    hand_size = HAND_SIZE[players]

    # --- setup -----------------------------------------------------------
    kings = [s * 13 + 12 for s in range(4)]
    queens = [s * 13 + 11 for s in range(4)]
    jacks = [s * 13 + 10 for s in range(4)]
    rng.shuffle(kings)
    rng.shuffle(queens)
    rng.shuffle(jacks)
    castle = kings + queens + jacks  # top (end) = jacks

    tavern = [c for c in range(52) if RANK[c] <= 10]
    tavern.extend(JESTERS[:TAVERN_JESTERS[players]])
    rng.shuffle(tavern)
    expected = sorted(tavern + castle) if CHECK else None

    hands: list[list[int]] = []
    for _ in range(players):
        hand: list[int] = []
        _draw(hand, tavern, hand_size)
        hands.append(hand)
    discard: list[int] = []
    table: list[int] = []

    powers = SOLO_POWERS if solo else 0
    powers_used = 0
    decisions = 0
    defeated = 0
    # who yielded on their last turn: a player may not yield when every
    # other player did (so the solo player never may)
    yielded = [False] * players

    enemy = castle.pop()
    enemy_suit = SUIT[enemy]
    enemy_attack = ENEMY_ATTACK[RANK[enemy]]
    enemy_health = ENEMY_HEALTH[RANK[enemy]]
    damage = shield = blocked_shield = 0
    immune = True

    cur = 0
    while True:
        # --- start of turn -----------------------------------------------
        if CHECK:
            _check_cards(expected, hands, tavern, discard, table, castle, enemy)
        hand = hands[cur]
        if powers:
            offered, used = _use_powers(powers, randrange, hand, tavern, discard, hand_size)
            decisions += offered
            powers -= used
            powers_used += used

        # --- step 1: play a card or yield ---------------------------------
        can_yield = False
        for p in range(players):
            if p != cur and not yielded[p]:
                can_yield = True
                break
        options = legal_plays(hand, can_yield)
        if not options:
            return False, defeated, powers_used, decisions
        decisions += 1
        play = options[randrange(len(options))]

        if play is YIELD:
            yielded[cur] = True
        else:
            yielded[cur] = False
            for c in play:
                hand.remove(c)
            table.extend(play)

            if play[0] >= 52:  # jester
                immune = False
                shield += blocked_shield
                blocked_shield = 0
                options = list(range(players))  # who takes the next turn
                decisions += 1
                cur = options[randrange(len(options))]
                continue

            # --- step 2: suit powers --------------------------------------
            n = 0
            suits = set()
            for c in play:
                n += VALUE[c]
                suits.add(SUIT[c])
            blocked = enemy_suit if immune else NO_SUIT

            if HEARTS in suits and blocked != HEARTS and discard:
                rng.shuffle(discard)
                k = min(n, len(discard))
                moved = discard[-k:]
                del discard[-k:]
                tavern[0:0] = moved  # bottom of the tavern

            if DIAMONDS in suits and blocked != DIAMONDS:
                drawn = 0
                full_in_a_row = 0
                p = cur
                while drawn < n and tavern and full_in_a_row < players:
                    h = hands[p]
                    if len(h) < hand_size:
                        h.append(tavern.pop())
                        drawn += 1
                        full_in_a_row = 0
                    else:
                        full_in_a_row += 1
                    p = (p + 1) % players

            if SPADES in suits:
                if blocked != SPADES:
                    shield += n
                else:
                    blocked_shield += n

            # --- step 3: deal damage --------------------------------------
            damage += 2 * n if CLUBS in suits and blocked != CLUBS else n
            if damage >= enemy_health:
                defeated += 1
                if damage == enemy_health:
                    tavern.append(enemy)
                else:
                    discard.append(enemy)
                discard.extend(table)
                table.clear()
                damage = shield = blocked_shield = 0
                immune = True
                if not castle:
                    if CHECK:
                        _check_cards(expected, hands, tavern, discard, table, castle, None)
                    return True, defeated, powers_used, decisions
                enemy = castle.pop()
                enemy_suit = SUIT[enemy]
                enemy_attack = ENEMY_ATTACK[RANK[enemy]]
                enemy_health = ENEMY_HEALTH[RANK[enemy]]
                continue  # the same player takes a new turn

        # --- step 4: suffer damage ----------------------------------------
        if powers:
            offered, used = _use_powers(powers, randrange, hand, tavern, discard, hand_size)
            decisions += offered
            powers -= used
            powers_used += used
        hit = enemy_attack - shield
        if hit > 0:
            total = 0
            for c in hand:
                total += VALUE[c]
            if total < hit:
                return False, defeated, powers_used, decisions
            paid = 0
            while paid < hit:
                options = list(hand)  # discard one card
                decisions += 1
                c = options[randrange(len(options))]
                hand.remove(c)
                discard.append(c)
                paid += VALUE[c]
        cur = (cur + 1) % players


def play_random_game(players: int, rng: random.Random) -> tuple[bool, int, int]:
    """Play one game with the uniform-random policy; return (won, enemies_defeated, decisions)."""
    won, defeated, _powers_used, decisions = play_game(players, rng)
    return won, defeated, decisions


def main(games: int = 2000) -> None:
    for players in range(1, 5):
        rng = random.Random(1)
        wins = defeated_total = powers_total = decisions_total = 0
        start = time.perf_counter()
        for _ in range(games):
            won, defeated, powers_used, decisions = play_game(players, rng)
            wins += won
            defeated_total += defeated
            powers_total += powers_used
            decisions_total += decisions
        elapsed = time.perf_counter() - start
        line = (
            f"{players}p: win rate {wins / games:.4f}  "
            f"mean enemies defeated {defeated_total / games:.3f}  "
            f"{games / elapsed:,.0f} games/s  "
            f"{decisions_total / elapsed:,.0f} decisions/s"
        )
        if players == 1:
            line += f"  mean powers used {powers_total / games:.3f}"
        print(line)


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        CHECK = True
    main()
