"""The ``display`` and ``public`` values in the kept observations.

They are expressions over the whole match, evaluated for one viewer: the
costliest part of an observation, and the one part that cannot be written
for every seat at once.  A value is evaluated again for a seat only when
the seat observes and something it reads (found in its compiled code:
:mod:`rulekit.rl.reads`) changed since the seat last did, and written into
the seat's row only where it differs.  A display value whose code never
reads its viewer (``player.hp``) is the same for every seat: it is
evaluated once per player when what it reads changed, and written into
every row at once, like a player variable.  Where the code reads a seat's
zone or variable only through its viewer or its player parameter (the
viewer's weapon, the player's horse), a change of seat ``s``'s makes only
row ``s``, or only player ``s``'s entries, stale: a card equipped costs a
row's values, not every seat's.
"""
from __future__ import annotations

import dis
from typing import Any, Callable, Iterable

import numpy as np

from ..derived import derived
from ..engine.copies import fresh_value
from ..engine.match import Match
from ..limits import MAX_INTEGER
from .columns import Columns
from .observation import _NUMBER, NUMBER_OR_NONE, ObservationEncoder
from .reads import Token, owners, reads, tokens

_UNSET = object()           # a value before its first writing


def reads_viewer(fn: Callable[..., Any]) -> bool:
    """Whether a compiled display expression ``fn(match, viewer, player)``
    may read its viewer: its code names it (a nested comprehension reaches
    it as a cell variable, named too)."""
    code = getattr(fn, "__code__", None)
    if code is None or code.co_argcount != 3:
        return True
    viewer = code.co_varnames[1]
    return viewer in code.co_cellvars or any(i.argval == viewer for i in dis.get_instructions(code))


class _Plan:
    """What every match of an encoder's game shares (a new match per episode)."""

    def __init__(self, enc: ObservationEncoder, cols: Columns):
        n, game = enc.players, enc.game
        found = [reads(game.display[k], game.code_label) for k, _, _ in enc._display] + \
            [reads(game.public[k], game.code_label) for k, _, _ in enc._public]
        #: by value, the owners of what it reads (see :func:`rulekit.rl.reads.owners`)
        self.owners = [owners(r) for r in found]
        #: by display value: None if it reads its viewer, else per player its flat places in every row
        self.free: list[list[np.ndarray] | None] = []
        seats = np.arange(n)
        for k, places, _ in enc._display:
            at = np.asarray(places)
            self.free.append(None if reads_viewer(game.display[k]) else
                             [cols.rows + at[(p - seats) % n] for p in range(n)])
        self.order = [[(s + r) % n for r in range(n)] for s in range(n)]
        every = range(len(enc._display) + len(enc._public))
        #: what a change touches: the viewer-free display values (pushed to
        #: every row at once), the others (noted stale for every seat); by
        #: token, and those reading everything
        self.every = ({j for j in every if self.is_free(j)}, {j for j in every if not self.is_free(j)})
        self.by_token: dict[Token, tuple[set[int], set[int]]] = {}
        self.always: tuple[set[int], set[int]] = (set(), set())
        for j, read in enumerate(tokens(r) for r in found):
            for part in [self.always] if read is None else [self.by_token.setdefault(t, (set(), set()))
                                                             for t in read]:
                part[0 if self.is_free(j) else 1].add(j)

    def is_free(self, j: int) -> bool:
        return j < len(self.free) and self.free[j] is not None


@derived
def _plan(enc: ObservationEncoder, cols: Columns) -> _Plan:
    return _Plan(enc, cols)


class Shown:
    """The display and public values of every seat's row of ``V``."""

    def __init__(self, enc: ObservationEncoder, match: Match, V: np.ndarray, cols: Columns):
        self.enc, self.match, self.V = enc, match, V
        n = enc.players
        self._flat = V.reshape(-1)
        self._cells = V.data.cast("B").cast("f")        # the same memory, one entry at a time
        plan = _plan(enc, cols)
        self._free, self._order, self._every = plan.free, plan.order, plan.every
        self._by_token, self._always, self._owners = plan.by_token, plan.always, plan.owners
        #: no value reads everything: a change of nothing in ``_by_token`` makes nothing stale
        self._reads_less = not plan.always[0] and not plan.always[1]
        self._free_last: list[list[Any]] = [[_UNSET] * n for _ in enc._display]
        self._display: list[list[list[Any]]] = [[[_UNSET] * n for _ in enc._display] for _ in range(n)]
        self._public: list[list[Any]] = [[_UNSET] * len(enc._public) for _ in range(n)]
        #: per seat, the display and public values to evaluate again (by their place), each for
        #: the players whose entries may have changed (None: every player)
        self.todo: list[dict[int, set[int] | None]] = [{} for _ in range(n)]

    def stale(self, changed: set[Token] | None, owned: dict[Token, set[int] | None] | None = None) -> None:
        """Note, for every seat, the values reading what ``changed`` (None:
        everything).  ``owned`` gives, by token, the seats whose zones or
        variables the change touched (missing or None: unknown): a value
        that reads them only through its viewer is evaluated again only in
        those seats' rows, one that reads them only through its player only
        for those players (a weapon equipped changes its owner's attack
        range to everyone, not everyone's)."""
        if changed is not None and self._reads_less and changed.isdisjoint(self._by_token):
            return                  # (most steps: what changed is read by no value)
        push, hit = self._every if changed is None else self._always
        pushes: dict[int, set[int] | None] = dict.fromkeys(push)      # (None: every player)
        self._mark(hit, None, None)
        by_token, roles_of = self._by_token, self._owners
        for t in changed or ():
            part = by_token.get(t)
            if part is None:
                continue
            seats = None if owned is None else owned.get(t)
            for j in part[0]:
                roles = roles_of[j].get(t)
                _widen(pushes, j, None if seats is None or roles is None or None in roles else seats)
            if part[1]:
                self._mark(part[1], t, seats)
        for j, players in pushes.items():       # (each once, whatever number of its inputs changed)
            self._push(j, players)

    def _mark(self, hit: Iterable[int], t: Token | None, seats: set[int] | None) -> None:
        """Values ``hit``, reading token ``t`` that seats ``seats`` changed
        (None: unknown), to be evaluated again where they may differ."""
        todo, roles_of = self.todo, self._owners
        for j in hit:
            roles = None if t is None else roles_of[j].get(t)
            if seats is None or roles is None or None in roles:
                for s in todo:
                    s[j] = None
                continue
            if 1 in roles:              # read through the viewer: those seats' rows, every player
                for seat in seats:
                    todo[seat][j] = None
            if 2 in roles:              # through the player: every row, those players
                for s in todo:
                    _widen(s, j, seats)

    def _push(self, j: int, players: Iterable[int] | None) -> None:
        """Display value ``j``, which no viewer changes, of ``players``
        (None: every one) into every row where it differs, a row at a time
        (see :meth:`write`)."""
        m, e, cells = self.match, self.enc, self._cells
        k, _, words = e._display[j]
        fn, last, free = m.game.display[k], self._free_last[j], self._free[j]
        assert free is not None             # (pushed only when it reads no viewer)
        for p in range(len(last)) if players is None else players:
            v = fn(m, p, p)
            old = last[p]
            if v == old and old is not _UNSET:
                continue
            last[p] = fresh_value(v)
            rows = free[p].tolist()
            if words is None and type(v) in _NUMBER:
                x = _clip(v)
                for b in rows:
                    cells[b] = x
                continue
            self._rewrite(rows, old, v, words)

    def write(self, seat: int) -> None:
        """Evaluate the seat's stale values and write those that differ: the
        entries of the value written before set back to zero and the new
        value's written, one entry at a time (a value takes a few entries
        of its 2 + W; numpy calls, a clearing of the whole width and a
        write, cost more inside the loop, where the step between two
        observations leaves numpy's code out of the caches)."""
        todo = self.todo[seat]
        if not todo:
            return
        m, e = self.match, self.enc
        base = seat * self.V.shape[1]
        rewrite = self._rewrite
        nd = len(e._display)
        for j in sorted(todo):
            if j < nd and self._free[j] is None:
                k, places, words = e._display[j]
                cached = self._display[seat][j]
                fn = m.game.display[k]
                players = todo[j]
                changed: Iterable[tuple[int, Any]]
                if players is None:
                    now = [fn(m, seat, p) for p in self._order[seat]]
                    if now == cached:           # == is enough: equal values encode alike (1, 1.0, True)
                        continue
                    changed = enumerate(now)
                else:                       # (seat-relative: player p is entry (p - seat) % n)
                    n = len(cached)
                    changed = (((p - seat) % n, fn(m, seat, p)) for p in players)
                for r, v in changed:
                    if v != cached[r] or cached[r] is _UNSET:
                        rewrite((base + places[r],), cached[r], v, words)
                        cached[r] = fresh_value(v)      # a list the match may change in place
            elif j >= nd:
                k, at, words = e._public[j - nd]
                v = m.game.public[k](m, seat)
                last = self._public[seat]
                if last[j - nd] is _UNSET or v != last[j - nd]:
                    rewrite((base + at,), last[j - nd], v, words)
                    last[j - nd] = fresh_value(v)
        todo.clear()

    def _entry(self, v: Any, words: Any) -> tuple[int, Any]:
        """Where a value of one entry goes (its offset) and what it writes
        there, as :meth:`ObservationEncoder._value` writes it: a number
        (``words`` None: anything else as its scalar), or a number or its
        "none" flag (:data:`NUMBER_OR_NONE`)."""
        if words is None:
            return 0, _clip(v if type(v) in _NUMBER else self.enc._scalar(v))
        return (0, _clip(v)) if type(v) in _NUMBER else (1, 1)

    def _rewrite(self, starts: Iterable[int], old: Any, new: Any, words: Any) -> None:
        """Value ``new`` at each flat place of ``starts`` where ``old`` was
        written (:data:`_UNSET`: nothing, the entries are zeros); the
        entries are worked out once for all the places.  A value of one
        entry (a number, a flag, a number or "none": two values in three)
        is written without listing its entries."""
        cells, value = self._cells, self.enc._value
        if words is None or words is NUMBER_OR_NONE:
            at_new, x = self._entry(new, words)
            at_old = None if old is _UNSET else self._entry(old, words)[0]
            for at in starts:
                if at_old is not None and at_old != at_new:
                    cells[at + at_old] = 0.0
                cells[at + at_new] = x
            return
        gone: list[int] = []
        if old is not _UNSET:
            value(gone.append, _drop, 0, old, words)
        offs: list[int] = []
        xs: list[float] = []
        value(offs.append, xs.append, 0, new, words)
        xs = [_clip(x) for x in xs]
        for at in starts:
            for o in gone:
                cells[at + o] = 0.0
            for o, x in zip(offs, xs):
                cells[at + o] = x


def _widen(table: dict[int, set[int] | None], j: int, players: set[int] | None) -> None:
    """Value ``j`` of ``table`` to be evaluated for ``players`` too (None: every player)."""
    if players is None:
        table[j] = None
    elif j not in table:
        table[j] = set(players)
    else:
        now = table[j]
        if now is not None:
            now |= players


def _drop(_: Any) -> None:
    """A value's entries are not needed, only where they are."""


def _clip(v: Any) -> Any:
    """A number as the full encoder clips it, without numpy (one value)."""
    return v if -MAX_INTEGER <= v <= MAX_INTEGER else max(-MAX_INTEGER, min(MAX_INTEGER, v))
