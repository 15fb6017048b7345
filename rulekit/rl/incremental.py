"""Each seat's observation vector kept up to date, not rebuilt.

:class:`~rulekit.rl.observation.ObservationEncoder` builds a seat's vector
from ``match.view(seat)``: every zone, every player's variables and
``display`` values, each step, though a step changes a few of them.
:class:`SeatObservations` keeps one vector per seat and, when the seat
observes again, writes only what changed since it last did:

- the decision, turn, phase and eliminated seats: a few entries, always
  written;
- zones: only those the log's ``move`` and ``shuffle`` entries since then
  name (every card changes zone through a logged move, so the log is the
  complete list); a zone's cards are written only where the seat may see
  them, exactly as the full encoder does;
- match and player variables (and card variables): compared with copies
  taken when last written; a player's variables are written again when
  they or what the seat may see of them (a hidden identity shown) changed;
- ``display`` and ``public`` values: they are expressions over the whole
  match, so they are evaluated every time and written where they differ.

The result is the full encoder's vector, entry for entry (the tests compare
the two at every step of random matches of every game); it never holds
more, as it is made of the same parts the view would show.
"""
from __future__ import annotations

import numpy as np

from ..engine.copies import fresh_value, fresh_vars
from ..engine.view import player_vars_view
from ..limits import MAX_INTEGER
from .observation import _HIDDEN, _NUMBER, ObservationEncoder

_UNSET = object()           # a cached value before its first writing


class _Seat:
    """One seat's vector and what it was written from."""

    __slots__ = ("vec", "log_at", "zones", "where", "top", "vars", "pvars", "shown", "display",
                 "public", "cvars", "order")


class SeatObservations:
    """The observation vectors of every seat of one match (see the module).

    ``observe(seat)`` returns the seat's own buffer, updated: copy it to
    keep it, as the next call writes into it."""

    def __init__(self, encoder: ObservationEncoder, match):
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
        #: per seat counted from the observer, every entry of its player variables
        self._player_entries = [self._entries(r) for r in range(e.players)]

    def observe(self, seat: int) -> np.ndarray:
        s = self._seats[seat]
        ix: list[int] = []
        val: list = []
        if s is None:
            s = self._seats[seat] = self._new_seat(seat)
            self._write_zones(s, ix, val)
            moved = True
        else:
            moved = self._moved(s, ix, val)
        self._write_head(s, seat, ix, val)
        if self.enc._state:
            self._write_card_state(s, moved, ix, val)
        self._write_vars(s, seat, ix, val)
        if ix:
            if max(val) > MAX_INTEGER or min(val) < -MAX_INTEGER:     # np.clip costs more than this check
                val = np.clip(np.asarray(val, dtype=np.float64), -MAX_INTEGER, MAX_INTEGER)
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
            zdef = m.game.zone_by_name[name]
            z = m.gz[zdef.index] if owner is None else m.pz[zdef.index][(seat + owner) % n]
            s.zones.append((z, count, cards, top))
        s.where = {z: (count, cards, top) for z, count, cards, top in s.zones}
        s.top = {}
        s.vars = _UNSET
        s.pvars = [_UNSET] * n
        s.shown = [_UNSET] * n
        s.display = [[_UNSET] * n for _ in enc._display]
        s.public = [_UNSET] * len(enc._public)
        s.cvars = _UNSET
        s.order = [(seat + r) % n for r in range(n)]
        return s

    def _entries(self, r: int) -> np.ndarray:
        wide = self._wide
        out: list[int] = []
        for _, at, number, hidden in self.enc._pvars:
            out.extend(range(at[r], at[r] + (1 if number else wide)))
            if hidden is not None:
                out.append(hidden[r])
        return np.asarray(out, dtype=np.intp)

    def _moved(self, s: _Seat, ix: list, val: list) -> bool:
        """Write what the log's moves and shuffles since ``s`` last observed
        changed: each moved card's place where the seat sees it (gone from
        its zone, then in its new one, in the log's order), the count of
        each zone they name and the top of a ``top`` zone.  Whether any."""
        log = self.match.log
        if s.log_at == len(log):
            return False
        where = s.where
        bits: dict[int, int] = {}       # entry -> 0/1, the last write wins
        touched = set()
        for ev in log[s.log_at:]:
            kind = ev[0]
            if kind == "move":
                _, dest, cards, src = ev
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
        return bool(touched)

    def _write_head(self, s: _Seat, seat: int, ix: list, val: list) -> None:
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

    def _write_zones(self, s: _Seat, ix: list, val: list) -> None:
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

    def _write_card_state(self, s: _Seat, moved: bool, ix: list, val: list) -> None:
        """Card variables of the cards the seat sees, rewritten whenever a
        zone it sees or any card's variables changed."""
        cvars = self.match.cvars
        if not moved and s.cvars is not _UNSET and all(cvars[k] == s.cvars[k] for k in cvars):
            return
        s.cvars = {k: [fresh_value(x) for x in v] for k, v in cvars.items()}
        enc, vec = self.enc, s.vec
        for _, at in enc._state:
            vec[at:at + len(enc.game.cards)] = 0
        scalar = enc._scalar
        for z, _, cards, _ in s.zones:
            if cards is not None:
                for c in z.cards:
                    for k, at in enc._state:
                        ix.append(at + c.id)
                        val.append(scalar(cvars[k][c.id]))

    def _write_vars(self, s: _Seat, seat: int, ix: list, val: list) -> None:
        m, e = self.match, self.enc
        vec, wide = s.vec, self._wide
        put, give = ix.append, val.append
        if s.vars is _UNSET or m.vars != s.vars:
            s.vars = fresh_vars(m.vars)
            for k, at, number in e._vars:
                vec[at:at + (1 if number else wide)] = 0
                e._value(put, give, at, m.vars.get(k), number)
        self._write_players(s, seat, put, give)
        order = s.order
        for j, (k, at, number) in enumerate(e._display):
            fn = m.game.display[k]
            now = [fn(m, seat, p) for p in order]
            cached = s.display[j]
            if now == cached:           # == is enough: equal values encode alike (1, 1.0, True)
                continue
            for r, v in enumerate(now):
                if v != cached[r] or cached[r] is _UNSET:
                    cached[r] = fresh_value(v)      # a list the match may change in place
                    a = at[r]
                    vec[a:a + (1 if number else wide)] = 0
                    if number and type(v) in _NUMBER:
                        put(a)
                        give(v)
                    else:
                        e._value(put, give, a, v, number)
        for j, (k, at, number) in enumerate(e._public):
            v = m.game.public[k](m, seat)
            if s.public[j] is _UNSET or v != s.public[j]:
                s.public[j] = fresh_value(v)
                vec[at:at + (1 if number else wide)] = 0
                e._value(put, give, at, v, number)

    def _write_players(self, s: _Seat, seat: int, put, give) -> None:
        """Each player's variables, where they or what ``seat`` may see of
        them changed: only the variables that changed, unless a hidden one
        was shown or hidden again."""
        m, hide, vec = self.match, self._hide, s.vec
        if hide:
            rows = [[(own and p == seat) or (when is not None and bool(when(m, p))) for p in s.order]
                    for _, own, when in hide]
            shown_by = list(zip(*rows))
        for r, p in enumerate(s.order):
            values = m.pvars[p]
            shown = shown_by[r] if hide else None
            before = s.pvars[r]
            if before is not _UNSET and shown == s.shown[r]:
                if values == before:
                    continue
                keys = [k for k, v in values.items() if k not in before or v != before[k]]
                keys += [k for k in before if k not in values]
            else:
                keys = None
                vec[self._player_entries[r]] = 0
            s.pvars[r] = fresh_vars(values)
            s.shown[r] = shown
            self._write_player(vec, player_vars_view(m, p, seat), r, put, give, keys)

    def _write_player(self, vec: np.ndarray, values: dict, r: int, put, give, keys=None) -> None:
        """Seat ``+r``'s player variables (those named in ``keys``, or all,
        already cleared) as the full encoder writes them."""
        wide, hidden_word = self._wide, self._hidden_word
        for k, at, number, hidden in self.enc._pvars:
            a = at[r]
            if keys is not None:
                if k not in keys:
                    continue
                vec[a:a + (1 if number else wide)] = 0
                if hidden is not None:
                    vec[hidden[r]] = 0
            v = values.get(k, _HIDDEN)
            if v is _HIDDEN:
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
