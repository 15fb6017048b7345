"""Legal actions as feature vectors: the alternative to the catalogue.

When a game's actions cannot all be numbered (an option picking any number
of cards: see :class:`~rulekit.rl.catalogue.CatalogueTooLarge`), a policy
can still score the actions offered now if each is described by a vector
of fixed length.  An action's vector is the concatenation of

- a one-hot over every option name of every choice of the game,
- a multi-hot over card ids (the cards it picks),
- a one-hot over seats counted from the deciding seat (the player it names),
- a one-hot over every number a number option can give.

The legal actions of a decision, in the engine's order, fill the first rows
of a ``(K, width)`` array; the rest is zero and masked out.  The action is
then a row number, ``Discrete(K)``, applied by its index (the engine's
cheapest form).  ``K`` is fixed per game (and match options): by default
twice the most legal actions met in any decision of :data:`PROBE_MATCHES`
random matches (seeds ``0..PROBE_MATCHES-1``) at each player count the game
allows, rounded up to a power of two, at least 16.  It is measured because
a rule file does not bound the size of a hand, deterministic because the
seeds are, and taken over every player count because how many actions a
hand offers hardly depends on the number of seats, while the most seen in
a few matches of one count varies by chance.  A decision offering more than
``K`` actions raises :class:`TooManyActions`, which names the game and says
how to raise ``K``.
"""
from __future__ import annotations

import random

import numpy as np

from ..derived import derived
from ..engine.runtime import Decision
from ..model import Game

#: random matches played at each player count to measure how many actions a decision offers
PROBE_MATCHES = 20


class TooManyActions(ValueError):
    """A decision offers more legal actions than the ``K`` rows of the features."""


@derived
def _most_actions(game: Game, players: int, options: tuple) -> int:
    most = 1
    for seed in range(PROBE_MATCHES):
        m = game.new_match(players, seed=seed, options=dict(options), auto_pass=True)
        rng = random.Random(seed)
        while m.decision is not None:
            count = len(m.decision.options)
            most = max(most, count)
            m.apply(rng.randrange(count))
    return most


def derived_max_actions(game: Game, options: dict | None = None) -> int:
    """``K`` for ``game`` with match ``options``, at any player count (see the module)."""
    given = tuple(sorted((options or {}).items()))
    seen = max(_most_actions(game, n, given) for n in range(game.min_players, game.max_players + 1))
    k = 16
    while k < 2 * seen:
        k *= 2
    return k


class ActionFeatures:
    """Each legal action of a decision as a row of ``features``; see the module."""

    def __init__(self, game: Game, players: int, max_actions: int | None = None,
                 options: dict | None = None):
        self.game = game
        self.players = players
        self.names = tuple(dict.fromkeys(o.name for c in game.choices.values() for o in c.options))
        ranges = [o.numbers for c in game.choices.values() for o in c.options if o.numbers]
        self.low = min((lo for lo, _ in ranges), default=0)
        count = max((hi for _, hi in ranges), default=-1) - self.low + 1
        self._name_col = {name: i for i, name in enumerate(self.names)}
        self._card0 = len(self.names)
        self._seat0 = self._card0 + len(game.cards)
        self._num0 = self._seat0 + players
        self.width = self._num0 + count
        self.k = max_actions if max_actions is not None else derived_max_actions(game, options)

    def layout(self) -> list[tuple[str, slice]]:
        """The parts of a row: option name, cards, seat (+0 is the decider), number."""
        return [("option", slice(0, self._card0)), ("cards", slice(self._card0, self._seat0)),
                ("player", slice(self._seat0, self._num0)), ("number", slice(self._num0, self.width))]

    def encode(self, decision: Decision) -> tuple[np.ndarray, np.ndarray]:
        """``(features, mask)``: a ``(K, width)`` int8 array whose row ``i``
        describes ``decision.options[i]``, and the ``K`` int8 mask of the rows in use."""
        options = decision.options
        if len(options) > self.k:
            raise TooManyActions(
                f"{self.game.name} with {self.players} players: player {decision.player}'s decision "
                f"'{decision.choice}' offers {len(options)} legal actions, more than the {self.k} rows "
                f"of the action features; give max_actions= a larger value (at least {len(options)})")
        rows, cols = [], []
        name_col, card0, seat0, num0 = self._name_col, self._card0, self._seat0, self._num0
        me, n, low = decision.player, self.players, self.low
        for i, a in enumerate(options):
            rows.append(i)
            cols.append(name_col[a.option])
            for c in a.cards:
                rows.append(i)
                cols.append(card0 + c)
            if a.player is not None:
                rows.append(i)
                cols.append(seat0 + (a.player - me) % n)
            if a.number is not None:
                rows.append(i)
                cols.append(num0 + a.number - low)
        features = np.zeros((self.k, self.width), dtype=np.int8)
        features[rows, cols] = 1
        mask = np.zeros(self.k, dtype=np.int8)
        mask[:len(options)] = 1
        return features, mask
