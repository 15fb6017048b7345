"""Where one entry of a match sits in every seat's observation at once.

The kept observations (:mod:`rulekit.rl.incremental`) hold every seat's
vector as one row of a ``(seats, size)`` array and write a change once for
all seats, with numpy, at the flat places (``seat * size + column``) this
module works out in advance.  A seat sees other seats counted from itself,
so the same player's variable sits in a different column of each row: the
places are an array over the rows, indexed by the absolute seat.
"""
from __future__ import annotations

from typing import NamedTuple, cast

import numpy as np

from ..derived import derived
from ..engine.match import Match
from ..engine.runtime import Zone
from .observation import ObservationEncoder, Words, width

_NONE = np.zeros(0, dtype=np.intp)


class PlayerVar(NamedTuple):
    """A player variable's places, by the absolute seat of its owner ``p``."""

    places: list[np.ndarray]          # [p]: per row, where the value starts
    clear: list[np.ndarray]           # [p]: every entry of it (its .hidden flag too), per row
    flags: list[np.ndarray] | None    # [p]: per row, its .hidden flag (None: it cannot be hidden)
    number: bool
    words: Words                      # its word list (None: a number)
    starts: list[list[int]]           # [p]: ``places[p]`` as a list (single writes, a row at a time)


class ZonePlaces(NamedTuple):
    """A live zone's places, each as :func:`place` gives it: its count
    (``size``); its cards' section where a row may see them (None: no row
    does), and which rows those are; its top card's section (None: not a
    ``top`` zone)."""

    size: "Place"
    cards: "Place | None"
    sees: np.ndarray                  # bool per row
    top: "Place | None"


class One(int):
    """The flat place of an entry that one row only holds (an owner's own zone)."""


#: where an entry sits in every row: a column (an ``int``, the same in every
#: row), a :class:`One` (one row only), or the flat places, one per row
Place = int | One | np.ndarray


def place(rows: np.ndarray, per_row: list[int | None]) -> Place | None:
    """The cheapest form of the entry at ``per_row[s]`` of each row ``s`` (None: not in that row)."""
    seen = [(s, c) for s, c in enumerate(per_row) if c is not None]
    if not seen:
        return None
    if len(seen) == len(per_row) > 1 and len(set(per_row)) == 1:
        return seen[0][1]
    if len(seen) == 1:                  # (a one-seat match's every entry: a single write, not numpy's)
        return One(int(rows[seen[0][0]]) + seen[0][1])
    return rows[[s for s, _ in seen]] + np.array([c for _, c in seen])


def starts(cols: "Columns", at: Place | None) -> list[int] | None:
    """The flat place of an entry in each row that holds it, as a list (None: no row)."""
    if at is None:
        return None
    if type(at) is One:
        return [int(at)]
    if isinstance(at, (int, np.integer)):
        return [int(r) + int(at) for r in cols.rows]
    return [int(x) for x in at]


class Columns:
    """The flat places of an encoder's entries, for every seat at once."""

    def __init__(self, enc: ObservationEncoder):
        n, size = enc.players, enc.size
        self.n, self.size = n, size
        seats = np.arange(n)
        self.rows = seats * size
        self.all = seats
        #: rows by seat: only seat p's, every one but p's, none
        self.only = [np.array([p]) for p in range(n)]
        self.others = [np.delete(seats, p) for p in range(n)]
        self.none = _NONE
        rel = [(p - seats) % n for p in range(n)]          # rel[p][s]: seat p counted from seat s
        phases, choices = enc._phase_col, enc._choice_col
        #: by phase (None: setup, or one the file does not name), by choice (None: no decision)
        self.phase = {k: self.rows + (enc._phase + i) for k, i in phases.items()}
        self.no_phase = self.rows + (enc._phase + len(phases))
        self.decision: dict[str | None, np.ndarray] = {k: self.rows + (enc._decision + i)
                                                       for k, i in choices.items()}
        self.decision[None] = self.rows + (enc._decision + len(choices))
        self.current = [self.rows + enc._current + rel[p] for p in range(n)]
        self.decider = [self.rows + enc._decider + rel[p] for p in range(n)]
        self.out = [self.rows + enc._out + rel[p] for p in range(n)]
        self.pvars: dict[str, PlayerVar] = {}
        for k, at, words, hidden in enc._pvars:
            entries = np.arange(width(words))
            places = [self.rows + np.asarray(at)[rel[p]] for p in range(n)]
            flags = None if hidden is None else [self.rows + np.asarray(hidden)[rel[p]] for p in range(n)]
            clear = [np.concatenate([(places[p][:, None] + entries).ravel(), _NONE if flags is None else flags[p]])
                     for p in range(n)]
            self.pvars[k] = PlayerVar(places, clear, flags, words is None, words, [a.tolist() for a in places])
        #: (zone name, absolute owner or None) -> per row (count, cards or None, top or None)
        self.zone_keys: dict[tuple[str, int | None], list[tuple[int, int | None, int | None]]] = {}
        for s in range(n):
            for name, count, cards, top, owner in enc._zones:
                key = (name, None if owner is None else (s + owner) % n)
                self.zone_keys.setdefault(key, []).append((count, cards, top))
        self.zone_places = {key: self._zone_places(per_row) for key, per_row in self.zone_keys.items()}
        index = {z.name: z.index for z in enc.game.zones}
        self._zone_at = [(index[name], owner) for name, owner in self.zone_places]
        #: by zone key: the token a change of the zone touches (see :mod:`rulekit.rl.reads`)
        self.zone_tokens = [("zone", i) for i, _ in self._zone_at]
        #: the same, as lists of flat places (count, cards, top; see :func:`starts`), with the zone's
        #: entry of each card id (None: the id itself; see ObservationEncoder.zone_cols); who sees the cards
        self.zone_starts = {key: (starts(self, at.size), starts(self, at.cards), starts(self, at.top),
                                  enc.zone_cols[key[0]])
                            for key, at in self.zone_places.items()}
        self.zone_sees = {key: at.sees.tolist() for key, at in self.zone_places.items()}

    def _zone_places(self, per_row: list[tuple[int, int | None, int | None]]) -> ZonePlaces:
        size = place(self.rows, [c for c, _, _ in per_row])
        assert size is not None             # (every row counts every zone)
        return ZonePlaces(size, place(self.rows, [c for _, c, _ in per_row]),
                          np.array([c is not None for _, c, _ in per_row]),
                          place(self.rows, [t for _, _, t in per_row]))

    def live(self, match: Match) -> list[Zone]:
        """The live zones of ``match``, in the order of the zone keys (of
        every table here): read from the match's zone lists at places worked
        out once, not looked up by name (a new match per episode)."""
        gz, pz = match.gz, match.pz
        return cast(list[Zone], [gz[i] if owner is None else pz[i][owner]  # type: ignore[index]
                                 for i, owner in self._zone_at])


@derived
def columns(enc: ObservationEncoder) -> Columns:
    """An encoder's places, worked out once (a new match per episode)."""
    return Columns(enc)
