"""Each seat's observation vector kept up to date, not rebuilt.

:class:`~rulekit.rl.observation.ObservationEncoder` builds a seat's vector
from ``match.view(seat)``: every zone, every player's variables and
``display`` values, each step, though a step changes a few of them.
:class:`SeatObservations` keeps one vector per seat and, when the seat
observes again, writes only what changed since it last did:

- the decision, turn, phase and eliminated seats: a few entries, always
  written;
- zones: the cards the log's ``move`` entries since then took from or put
  into a zone the seat sees, and the count of each zone they (or a
  ``shuffle``) name, and a ``top`` zone's top card (every card changes zone
  through a logged move, so the log is the complete list); a zone's cards
  are written only where the seat may see them, exactly as the full
  encoder does;
- match, player and card variables: compared with copies taken when last
  written; a player's variables are written again when they or what the
  seat may see of them (a hidden identity shown) changed;
- ``display`` and ``public`` values: expressions over the whole match,
  evaluated again only when something they read changed (what they read is
  found in their compiled code: :mod:`rulekit.rl.reads`), and written where
  they differ.

The result is the full encoder's vector, entry for entry (the tests compare
the two at every step of random matches of every game); it never holds
more, as it is made of the same parts the view would show.
"""
from __future__ import annotations

import enum
import functools
from typing import Any, Callable, Final, Iterable, Literal

import numpy as np

from ..engine.copies import fresh_value, fresh_vars
from ..engine.match import Match
from ..engine.runtime import Zone
from ..limits import MAX_INTEGER
from ..model import Card
from .observation import _HIDDEN, _NUMBER, ObservationEncoder
from .reads import Token, reads, tokens


class _Unset(enum.Enum):
    UNSET = 0


_UNSET: Final = _Unset.UNSET      # a cached value before its first writing
Unset = Literal[_Unset.UNSET]


class _Seat:
    """One seat's vector and what it was written from."""

    __slots__ = ("vec", "log_at", "zones", "where", "top", "turn_key", "seats_key", "vars", "pvars", "shown", "display",
                 "public", "cvars", "order")
    vec: np.ndarray
    log_at: int                                   # the log's length when last written
    #: (zone, its count's place, its cards' place or None, its top card's place or None) of each zone
    zones: list[tuple[Zone, int, int | None, int | None]]
    where: dict[Zone, tuple[int, int | None, int | None]]   # the same by zone
    top: dict[Zone, int | None]                   # the top card written of each ``top`` zone
    turn_key: tuple[int, str | None, int] | None
    seats_key: tuple[bool, ...] | None
    vars: dict[str, Any] | Unset
    pvars: list[dict[str, Any] | Unset]           # by seat from this one
    shown: list[tuple[bool, ...]] | None          # by seat from this one: which hidden variables it sees
    display: list[list[Any]]                      # by display value, then seat from this one
    public: list[Any]
    cvars: dict[str, list[Any]] | Unset
    order: list[int]                              # the seats from this one


@functools.lru_cache(maxsize=64)
def _plan(enc: ObservationEncoder) -> tuple[list[np.ndarray], list[frozenset[Token] | None],
                                            list[frozenset[Token] | None], list[frozenset[Token] | None]]:
    """What every match of an encoder's game shares, worked out once (a new
    match per episode): per seat counted from the observer, every entry of
    its player variables; what each display and public value, and each
    hidden variable's ``shown_when``, reads."""
    wide, game = len(enc.vocab) + 2, enc.game
    entries = []
    for r in range(enc.players):
        out: list[int] = []
        for _, at, number, hidden in enc._pvars:
            out.extend(range(at[r], at[r] + (1 if number else wide)))
            if hidden is not None:
                out.append(hidden[r])
        entries.append(np.asarray(out, dtype=np.intp))
    return (entries,
            [tokens(reads(game.display[k], game.code_label)) for k, _, _ in enc._display],
            [tokens(reads(game.public[k], game.code_label)) for k, _, _ in enc._public],
            [None if when is None else tokens(reads(when, game.code_label))
             for _, (_, when) in game.var_visibility.items()])


class _Changes:
    """What changed since a seat last observed, as the tokens of
    :func:`~rulekit.rl.reads.tokens` (the places of the zones the log named,
    the names of the variables that differ, whether who is in, the turn or
    card variables did), or ``everything`` (a first observation, a
    player's variables gaining or losing a name)."""

    __slots__ = ("tokens", "everything")

    def __init__(self, zones: set[int | None]):
        self.everything = None in zones             # {None}: the seat observes for the first time
        self.tokens: set[Token] = {("zone", i) for i in zones}
        if zones:
            self.tokens.add(("zone", None))

    def names(self, kind: str, changed: Iterable[str] | None) -> None:
        if changed is None:
            self.everything = True
        elif changed:
            self.tokens.update((kind, k) for k in changed)
            self.tokens.add((kind, None))

    def touch(self, read: frozenset[Token] | None) -> bool:
        """Whether a value reading ``read`` (its tokens; None: everything) may have changed."""
        return read is None or self.everything or not read.isdisjoint(self.tokens)


class SeatObservations:
    """The observation vectors of every seat of one match (see the module).

    ``observe(seat)`` returns the seat's own buffer, updated: copy it to
    keep it, as the next call writes into it."""

    def __init__(self, encoder: ObservationEncoder, match: Match):
        self.enc = encoder
        self.match = match
        self._seats: list[_Seat | None] = [None] * encoder.players
        e = encoder
        self._head = e._out + e.players            # turn .. out: written every time
        self._wide = len(e.vocab) + 2
        self._hidden_word = len(e.vocab) + 1
        self._names = {z.name: z for z in match.all_zones()}
        #: per variable a player may hide: (its name, seen by its owner, shown_when or None)
        self._hide = [(k, vis == "owner", when) for k, (vis, when) in match.game.var_visibility.items()]
        (self._player_entries, self._display_reads, self._public_reads,
         self._hide_reads) = _plan(encoder)
        #: player variable -> (its place per seat from the observer, a number?, its .hidden flags or None)
        self._pvar_places = {k: (at, number, hidden) for k, at, number, hidden in e._pvars}
        self._pvar_names = [k for k, _, _, _ in e._pvars]

    def observe(self, seat: int) -> np.ndarray:
        s = self._seats[seat]
        ix: list[int] = []
        val: list[float] = []
        moved: set[int | None]
        cards: list[list[Card]] | None
        if s is None:
            s = self._seats[seat] = self._new_seat(seat)
            self._write_zones(s, ix, val)
            moved, cards = {None}, None
        else:
            moved, cards = self._moved(s, ix, val)
        ch = _Changes(moved)
        m = self.match
        turn = (m.turn, m.phase, m.current)
        if turn != s.turn_key:
            ch.tokens.add("turn")
            s.turn_key = turn
        seats = tuple(m.out)
        if seats != s.seats_key:
            ch.tokens.add("seats")
            s.seats_key = seats
        self._write_head(s, seat, ix, val)
        if self.enc._state:
            if self._write_card_state(s, cards, ix, val):
                ch.tokens.add("cvars")
        self._write_vars(s, seat, ix, val, ch)
        if ix:
            if max(val) > MAX_INTEGER or min(val) < -MAX_INTEGER:     # np.clip costs more than this check
                s.vec[ix] = np.clip(np.asarray(val, dtype=np.float64), -MAX_INTEGER, MAX_INTEGER)
            else:
                s.vec[ix] = val
        return s.vec

    # ---- parts ----------------------------------------------------------------
    def _new_seat(self, seat: int) -> _Seat:
        s = _Seat.__new__(_Seat)
        m, enc, n = self.match, self.enc, self.enc.players
        s.vec = np.zeros(enc.size, dtype=np.float32)
        s.log_at = len(m.log)
        s.zones = []
        for name, count, cards, top, owner in enc._zones:
            z = m.zone(name) if owner is None else m.zone(name, (seat + owner) % n)
            s.zones.append((z, count, cards, top))
        s.where = {z: (count, cards, top) for z, count, cards, top in s.zones}
        s.top = {}
        s.turn_key = s.seats_key = None
        s.vars = _UNSET
        s.pvars = [_UNSET] * n
        s.shown = None
        s.display = [[_UNSET] * n for _ in enc._display]
        s.public = [_UNSET] * len(enc._public)
        s.cvars = _UNSET
        s.order = [(seat + r) % n for r in range(n)]
        return s

    def _moved(self, s: _Seat, ix: list[int], val: list[float]) -> tuple[set[int | None], list[list[Card]]]:
        """Write what the log's moves and shuffles since ``s`` last observed
        changed: each moved card's place where the seat sees it (gone from
        its zone, then in its new one, in the log's order), the count of
        each zone they name and the top of a ``top`` zone.  Returns the
        places in the file (``ZoneDef.index``) of the zones named, and the
        lists of the cards that moved."""
        log = self.match.log
        if s.log_at == len(log):
            return set(), []
        where = s.where
        bits: dict[int, int] = {}       # entry -> 0/1, the last write wins
        touched: set[Zone] = set()
        moved: list[list[Card]] = []
        for ev in log[s.log_at:]:
            kind = ev[0]
            if kind == "move":
                _, dest, cards, src = ev
                moved.append(cards)
                if type(src) is list:
                    for c, z in zip(cards, src):
                        touched.add(z)
                        at = where[z][1]
                        if at is not None:
                            bits[at + c.id] = 0
                elif src is not None:
                    touched.add(src)
                    at = where[src][1]
                    if at is not None:
                        for c in cards:
                            bits[at + c.id] = 0
                touched.add(dest)
                at = where[dest][1]
                if at is not None:
                    for c in cards:
                        bits[at + c.id] = 1
            elif kind == "shuffle":
                touched.add(self._names[ev[1]])
        s.log_at = len(log)
        for z in touched:
            count, _, top = where[z]
            ix.append(count)
            val.append(len(z.cards))
            if top is not None:
                old = s.top.get(z)
                if old is not None:
                    bits[top + old] = 0
                new = s.top[z] = z.cards[-1].id if z.cards else None
                if new is not None:
                    bits[top + new] = 1
        ix.extend(bits)
        val.extend(bits.values())
        return {z.zdef.index for z in touched}, moved

    def _write_head(self, s: _Seat, seat: int, ix: list[int], val: list[float]) -> None:
        m, e, n = self.match, self.enc, self.enc.players
        s.vec[:self._head] = 0
        ix.append(e._turn)
        val.append(m.turn)
        ix.append(e._phase + e._phase_col.get(m.phase, len(e._phase_col)))
        val.append(1)
        ix.append(e._current + (m.current - seat) % n)
        val.append(1)
        dec = m.decision
        if dec is None:
            ix.append(e._decision + len(e._choice_col))
            val.append(1)
        else:
            ix.append(e._decision + e._choice_col[dec.choice])
            val.append(1)
            ix.append(e._decider + (dec.player - seat) % n)
            val.append(1)
        out = m.out
        for p in range(n):
            if out[p]:
                ix.append(e._out + (p - seat) % n)
                val.append(1)

    def _write_zones(self, s: _Seat, ix: list[int], val: list[float]) -> None:
        """Every zone, for a seat that has not observed yet."""
        for z, count, cards, top in s.zones:
            zc = z.cards
            ix.append(count)
            val.append(len(zc))
            if cards is not None:
                ix.extend([cards + c.id for c in zc])
                val.extend([1] * len(zc))
            elif top is not None and zc:
                s.top[z] = zc[-1].id
                ix.append(top + zc[-1].id)
                val.append(1)

    def _write_card_state(self, s: _Seat, moved: list[list[Card]] | None, ix: list[int], val: list[float]) -> bool:
        """Card variables of the cards the seat sees: of each card that
        moved (``moved``: lists of cards; None, a first observation: of
        every card) and each whose variables changed, its values where the
        seat now sees it, zeros where it does not.  Whether any card's
        variables changed."""
        m, enc = self.match, self.enc
        cvars, kept = m.cvars, s.cvars
        ids: range | set[int]
        if moved is None or kept is _UNSET:
            s.cvars = {k: [fresh_value(x) for x in v] for k, v in cvars.items()}
            ids = range(len(enc.game.cards))
            changed = True
        else:
            ids = touched = {c.id for cards in moved for c in cards}
            changed = False
            for k, now in cvars.items():
                old = kept[k]
                if now != old:
                    changed = True
                    diff = [i for i, x, y in zip(range(len(now)), now, old) if x is not y and x != y]
                    for i in diff:
                        old[i] = fresh_value(now[i])
                    touched.update(diff)
        scalar, where, loc = enc._scalar, s.where, m.loc
        for cid in ids:
            seen = where[loc[cid]][1] is not None
            for k, at in enc._state:
                ix.append(at + cid)
                val.append(scalar(cvars[k][cid]) if seen else 0)
        return changed

    def _write_vars(self, s: _Seat, seat: int, ix: list[int], val: list[float], ch: "_Changes") -> None:
        m, e = self.match, self.enc
        vec, wide = s.vec, self._wide
        put, give = ix.append, val.append
        kept = s.vars
        if kept is _UNSET or m.vars != kept:
            ch.names("var", None if kept is _UNSET else {
                k for k in m.vars.keys() | kept.keys() if m.vars.get(k, _UNSET) != kept.get(k, _UNSET)})
            s.vars = fresh_vars(m.vars)
            for k, at, number in e._vars:
                vec[at:at + (1 if number else wide)] = 0
                e._value(put, give, at, m.vars.get(k), number)
        self._write_players(s, seat, put, give, ch)
        order = s.order
        for j, (k, places, number) in enumerate(e._display):
            cached = s.display[j]
            if cached[0] is not _UNSET and not ch.touch(self._display_reads[j]):
                continue                # nothing it reads changed: as it was
            fn = m.game.display[k]
            now = [fn(m, seat, p) for p in order]
            if now == cached:           # == is enough: equal values encode alike (1, 1.0, True)
                continue
            for r, v in enumerate(now):
                if v != cached[r] or cached[r] is _UNSET:
                    cached[r] = fresh_value(v)      # a list the match may change in place
                    a = places[r]
                    vec[a:a + (1 if number else wide)] = 0
                    if number and type(v) in _NUMBER:
                        put(a)
                        give(v)
                    else:
                        e._value(put, give, a, v, number)
        for j, (k, at, number) in enumerate(e._public):
            if s.public[j] is not _UNSET and not ch.touch(self._public_reads[j]):
                continue
            v = m.game.public[k](m, seat)
            if s.public[j] is _UNSET or v != s.public[j]:
                s.public[j] = fresh_value(v)
                vec[at:at + (1 if number else wide)] = 0
                e._value(put, give, at, v, number)

    def _write_players(self, s: _Seat, seat: int, put: Callable[[int], None], give: Callable[[float], None],
                       ch: "_Changes") -> None:
        """Each player's variables, where they or what ``seat`` may see of
        them changed: only the variables that changed, unless a hidden one
        was shown or hidden again.  Notes in ``ch`` which changed."""
        m, hide, vec = self.match, self._hide, s.vec
        pvars, kept = m.pvars, s.pvars
        todo: list[tuple[int, list[str] | None]] = []   # (seat from this one, names changed or None for all)
        names: set[str] | None = set()
        for r, p in enumerate(s.order):
            values, before = pvars[p], kept[r]
            if values == before:
                continue
            if before is _UNSET or values.keys() != before.keys():
                names = None
                todo.append((r, None))
            else:
                changed = [k for k, v in values.items() if v != before[k]]
                todo.append((r, changed))
                if names is not None:
                    names.update(changed)
        ch.names("pvar", names)
        if hide and (s.shown is None or any(ch.touch(rd) for rd in self._hide_reads)):
            rows = [[(own and p == seat) or (when is not None and bool(when(m, p))) for p in s.order]
                    for _, own, when in hide]
            shown = list(zip(*rows))
            before_shown = s.shown
            if shown != before_shown:
                again = (set(range(len(shown))) if before_shown is None
                         else {r for r in range(len(shown)) if shown[r] != before_shown[r]})
                todo = [(r, keys) for r, keys in todo if r not in again] + [(r, None) for r in sorted(again)]
                s.shown = shown
        for r, keys in todo:
            values = pvars[s.order[r]]
            if keys is None:
                vec[self._player_entries[r]] = 0
                kept[r] = fresh_vars(values)
            else:
                before = kept[r]
                for k in keys:
                    before[k] = fresh_value(values[k])  # type: ignore[index]  # (keys: before was compared)
            unseen = {k for (k, _, _), seen in zip(hide, s.shown[r]) if not seen} if s.shown is not None else ()
            self._write_player(vec, values, unseen, r, put, give, keys)

    def _write_player(self, vec: np.ndarray, values: dict[str, Any], unseen: Iterable[str], r: int,
                      put: Callable[[int], None], give: Callable[[float], None], keys: list[str] | None) -> None:
        """Seat ``+r``'s player variables named in ``keys`` (None: all of
        them, already cleared) as the full encoder writes them; those in
        ``unseen`` as hidden."""
        wide, hidden_word, places = self._wide, self._hidden_word, self._pvar_places
        for k in (self._pvar_names if keys is None else keys):
            place = places.get(k)
            if place is None:
                continue
            at, number, hidden = place
            a = at[r]
            if keys is not None:
                vec[a:a + (1 if number else wide)] = 0
                if hidden is not None:
                    vec[hidden[r]] = 0
            v: Any = _HIDDEN if k in unseen else values.get(k, _HIDDEN)
            if v is _HIDDEN and hidden is not None:   # (only a variable with a visibility is left out)
                put(hidden[r])
                give(1)
                if not number:
                    put(a + hidden_word)
                    give(1)
            elif number and type(v) in _NUMBER:
                put(a)
                give(v)
            else:
                self.enc._value(put, give, a, v, number)
