"""Shared helpers of the learning-environment tests (tests/test_rl_*.py):
every shipped game at a few player counts, and random decisions of each."""
from __future__ import annotations

import functools
import random

from game_files import game_files, game_id

import rulekit
from rulekit.rl import load_game as rl_load_game


@functools.cache
def load(path) -> rulekit.Game:
    """The game as the environments load it: compiled with change tracking."""
    return rl_load_game(path)


def cases(counts_per_game: int = 2) -> list[tuple]:
    """(path, players) for every game file: its fewest and most players,
    and 8 for the games that seat 8 (三国杀's own benchmark size)."""
    out = []
    for path in game_files():
        g = load(path)
        counts = sorted({g.min_players, g.max_players} | ({8} if g.min_players <= 8 <= g.max_players else set()))
        out += [(path, n) for n in counts[:max(counts_per_game, 1) + 1]]
    return out


def case_id(case) -> str:
    path, n = case
    return f"{game_id(path)}-{n}p"


def random_decisions(game: rulekit.Game, players: int, seeds, limit: int = 100_000):
    """Yield (match, decision) at every decision of random matches with
    ``seeds``, the decision still pending; the caller must not apply it."""
    for seed in seeds:
        if limit <= 0:
            return
        m = game.new_match(players, seed=seed)
        rng = random.Random(seed)
        while m.decision is not None and limit > 0:
            limit -= 1
            yield m, m.decision
            m.apply(rng.randrange(len(m.decision.options)))


#: a game whose option picks any number of its 30 cards: too many sets to number
ANY_NUMBER = """
name: Shed any
players: {min: 2, max: 2}
cards:
  - {name: Chip, count: 30, props: {value: 1}}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
choices:
  play:
    who: current
    prompt: "Shed some chips"
    options:
      - {name: shed, cards: 1..30, from: hand(current)}
setup: |
  move box to deck
  for p in players:
    move top(deck, 5) to hand(p)
turn:
  phases:
    - name: main
      effect: |
        choose play
        move play.cards to deck
        if size(hand(current)) == 0:
          win for current "shed everything"
"""


#: a game with a pile whose top card is shown, shuffled in play: only a
#: shuffle changes what its top shows without a card moving
STIRRED_TOP = """
name: Stirred top
players: {min: 2, max: 2}
cards:
  - {name: Acorn, count: 6, props: {value: 1}}
  - {name: Berry, count: 6, props: {value: 2}}
zones:
  deck: {visibility: top}
  hand: {per_player: true, visibility: owner}
choices:
  play:
    who: current
    prompt: "Stir the deck or draw its top card"
    options:
      - {name: stir}
      - {name: draw}
setup: |
  move box to deck
  shuffle deck
turn:
  phases:
    - name: main
      effect: |
        choose play
        if play.option == "stir":
          shuffle deck
        else:
          move top(deck, 1) to hand(current)
        if size(deck) == 0:
          win for current "drew the last card"
"""
