"""The two ways an environment turns a ``Discrete`` action into a move.

- ``"catalogue"``: index ``i`` of the game's :class:`ActionCatalogue`; the
  mask marks the catalogue indices legal now.
- ``"features"``: row ``i`` of the legal actions listed as feature vectors
  (:class:`ActionFeatures`); the mask marks the rows in use.
- ``"auto"``: the catalogue when the game has one within the limit, else
  the features.

Both compute, once per decision, a :class:`Legal`: the mask, and where each
allowed index is among ``decision.options``, so that the move is applied by
its position (the engine's cheapest form).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..engine.runtime import Decision
from ..model import Game
from .catalogue import ActionCatalogue, CatalogueTooLarge
from .features import ActionFeatures
from .recycle import FREE_KEPT, kept_counts

MODES = ("auto", "catalogue", "features")


class Legal(NamedTuple):
    """What a decision allows, in the environment's numbering."""

    mask: np.ndarray                 # int8, 1 where an index is legal
    positions: tuple[int, ...] | None    # each of decision.options' index, in order (None: its position)
    features: np.ndarray | None      # (K, width) int8 in features mode


#: the one-option decisions whose masks are kept by their action (a few hundred in a large game)
_SINGLES = 512


class CatalogueActions:
    mode = "catalogue"

    def __init__(self, catalogue: ActionCatalogue, kept: int = 32):
        self.catalogue = catalogue
        self.n = catalogue.n
        #: how many masks are kept for decisions to come (each the catalogue's size in bytes)
        self.kept = kept
        #: what a decision allows, by its options' indices, the last used last; with each, its
        #: mask's bytes, writable (the mask itself is read-only): see :meth:`_legal`
        self._kept: dict[tuple[int, ...], tuple[Legal, Any]] = {}
        #: what a decision of one option allows (two steps in three: a lone "pass"), by its
        #: choice, seat and action: found without working out the index
        self._single: dict[tuple[str, int, object], Legal] = {}

    def legal(self, decision: Decision) -> Legal:
        """The mask is read-only: handed to every agent that observes the
        decision without a copy.  The same indices recur (a lone "pass"
        answers most response windows): the masks of the last
        ``kept`` sets of indices are kept and handed out again, rather
        than a zeroed array written each decision (0: a new mask each
        decision, as Gymnasium's checker wants of a single agent).  A
        decision of one option finds its mask by its choice, seat and
        action, without working out the index."""
        options = decision.options
        if len(options) == 1 and self.kept:
            key = (decision.choice, decision.player, options[0])
            legal = self._single.get(key)
            if legal is None:
                if len(self._single) >= _SINGLES:
                    self._single.clear()
                legal = self._single[key] = self._legal(tuple(self.catalogue.indices(decision)))
            return legal
        return self._legal(tuple(self.catalogue.indices(decision)))

    def _legal(self, indices: tuple[int, ...]) -> Legal:
        """What the options numbered ``indices`` allow (see :meth:`legal`).

        A mask that leaves the kept ones while nothing outside holds it or
        its :class:`Legal` (counted by reference, :mod:`rulekit.rl.recycle`:
        an agent's observation, a view of it, a driver's pending decision
        would each show) is written again for the new indices, a few bytes
        cleared and set, rather than a new mask zeroed: no one can see the
        change, and a new mask's zeroing writes the catalogue's size in
        bytes (tens of thousands in a large game) through the processor's
        caches at every decision of new options."""
        kept = self._kept
        entry = kept.pop(indices, None)
        if entry is not None:
            kept[indices] = entry
            return entry[0]
        if not self.kept:
            return Legal(self._new_mask(indices)[0], indices, None)
        reused = None
        if len(kept) >= self.kept:
            entry = kept.pop(next(iter(kept)))              # the least recently used
            if kept_counts(entry) == FREE_KEPT:
                old, view = entry
                for i in old.positions or ():
                    view[i] = 0
                for i in indices:
                    view[i] = 1
                reused = old.mask, view
        mask, view = reused or self._new_mask(indices)
        legal = Legal(mask, indices, None)
        kept[indices] = legal, view
        return legal

    def _new_mask(self, indices: tuple[int, ...]) -> tuple[np.ndarray, Any]:
        """A read-only mask with ``indices`` set, and its bytes writable."""
        mask = np.zeros(self.n, dtype=np.int8)
        view = mask.data.cast("B")
        if len(indices) > 16:
            mask[list(indices)] = 1
        else:                       # a few: cheaper one by one than as a list numpy converts
            for i in indices:
                view[i] = 1
        mask.flags.writeable = False
        return mask, view

    def describe(self, index: int) -> str:
        return self.catalogue.describe(index)


class FeatureActions:
    mode = "features"

    def __init__(self, features: ActionFeatures):
        self.features = features
        self.n = features.k

    def legal(self, decision: Decision) -> Legal:
        rows, mask = self.features.encode(decision)
        rows.flags.writeable = mask.flags.writeable = False     # handed out as they are: see CatalogueActions
        return Legal(mask, None, rows)

    def describe(self, index: int) -> str:
        return f"row {index} of the legal actions"


def make_actions(game: Game, players: int, mode: str = "auto", *, options: dict | None = None,
                 max_actions: int | None = None, limit: int | None = None, kept_masks: int = 32):
    """The adapter for ``mode`` (see the module); ``kept_masks``: see :meth:`CatalogueActions.legal`."""
    if mode not in MODES:
        raise ValueError(f"actions must be one of {', '.join(MODES)}, not {mode!r}")
    if mode != "features":
        try:
            kwargs = {} if limit is None else {"limit": limit}
            return CatalogueActions(ActionCatalogue(game, players, **kwargs), kept_masks)
        except CatalogueTooLarge:
            if mode == "catalogue":
                raise
    return FeatureActions(ActionFeatures(game, players, max_actions=max_actions, options=options))
