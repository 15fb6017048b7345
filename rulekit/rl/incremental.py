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
- match, player and card variables: those the match's code noted it wrote
  since then (:mod:`rulekit.rl.tracked`); a player's variables are written
  again when they or what the seat may see of them (a hidden identity
  shown) changed;
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

from ..engine.copies import fresh_value
from ..engine.match import Match
from ..engine.runtime import Zone
from ..limits import MAX_INTEGER
from ..model import Card
from .observation import _HIDDEN, _NUMBER, ObservationEncoder
from .reads import Token, reads, tokens
from .tracked import Compared, is_tracked


class _Unset(enum.Enum):
    UNSET = 0


_UNSET: Final = _Unset.UNSET      # a cached value before its first writing
Unset = Literal[_Unset.UNSET]


class _Seat:
    """One seat's vector and what it was written from."""

    __slots__ = ("vec", "log_at", "zones", "where", "top", "turn_key", "seats_key", "shown", "display",
                 "public", "order", "pvals", "away", "unseen")
    vec: np.ndarray
    log_at: int                                   # the log's length when last written
    #: (zone, its count's place, its cards' place or None, its top card's place or None) of each zone
    zones: list[tuple[Zone, int, int | None, int | None]]
    where: dict[Zone, tuple[int, int | None, int | None]]   # the same by zone
    top: dict[Zone, int | None]                   # the top card written of each ``top`` zone
    turn_key: tuple[int, str | None, int] | None
    seats_key: tuple[bool, ...] | None
    shown: list[tuple[bool, ...]] | None          # by seat from this one: which hidden variables it sees
    display: list[list[Any]]                      # by display value, then seat from this one
    public: list[Any]
    order: list[int]                              # the seats from this one
    #: by seat from this one, the player variables as last written (a reset
    #: notes every player's, mostly already at their starting values)
    pvals: list[dict[str, Any]]
    away: set[tuple[int, str]]                    # (seat from this one, variable) away from its reset value
    unseen: list[set[str]]                        # by seat from this one: its hidden variables this one does not see


#: the notes kept before the journal is trimmed
_JOURNAL = 4096


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
            [frozenset() if when is None else tokens(reads(when, game.code_label))    # (no shown_when: never shown)
             for _, (_, when) in game.var_visibility.items()])


class _Changes:
    """What changed since a seat last observed, as the tokens of
    :func:`~rulekit.rl.reads.tokens` (the places of the zones the log named,
    the names of the variables written, whether who is in, the turn or
    card variables did), or ``everything`` (a first observation)."""

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
         hide_reads) = _plan(encoder)
        #: what any hidden variable's shown_when reads (None: everything)
        self._hide_read = None if None in hide_reads else frozenset[Token]().union(*filter(None, hide_reads))
        #: player variable -> (its place per seat from the observer, a number?, its .hidden flags or None)
        self._pvar_places = {k: (at, number, hidden) for k, at, number, hidden in e._pvars}
        self._pvar_names = [k for k, _, _, _ in e._pvars]
        self._var_places = {k: (at, number) for k, at, number in e._vars}
        game = match.game
        #: per reset scope: the match variables and player variables it sets back
        self._resets = {when: (tuple(k for k, _ in sections[0]), frozenset(k for k, _ in sections[1]))
                        for when, sections in game.resets.items()}
        #: a player variable declared with reset: -> its starting value
        self._reset_to = {k: v for sections in game.resets.values() for k, v in sections[1]}
        #: where the notes of what the match wrote come from (see rulekit.rl.tracked)
        self._compared = None if is_tracked(game) else Compared(match)
        match.changes.clear()          # (a match followed from mid-game: every seat starts afresh)
        #: every note gathered, in order (``_base``: the place of the first
        #: one kept); each seat reads on from where it stopped (``_read``)
        self._journal: list[Any] = []
        self._base = 0
        self._read = [0] * encoder.players

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
        written = self._written(seat, ch)
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
            self._write_card_state(s, cards, written[2], ix, val)
        self._write_vars(s, seat, written, ix, val, ch)
        if ix:
            if max(val) > MAX_INTEGER or min(val) < -MAX_INTEGER:     # np.clip costs more than this check
                s.vec[ix] = np.clip(np.asarray(val, dtype=np.float64), -MAX_INTEGER, MAX_INTEGER)
            else:
                s.vec[ix] = val
        return s.vec

    # ---- parts ----------------------------------------------------------------
    def _written(self, seat: int, ch: "_Changes") -> tuple[set[str], dict[int, set[str]], set[int], set[str]]:
        """What the match wrote since ``seat`` last observed: the match
        variables, each seat's player variables (by seat), the cards whose
        variables were written, the reset scopes whose player variables
        were set back; noted in ``ch`` too."""
        m, journal = self.match, self._journal
        notes = m.changes if self._compared is None else self._compared.changes()
        if notes:
            journal.extend(notes)
            notes.clear()
        end = self._base + len(journal)
        unread = journal[self._read[seat] - self._base:] if not ch.everything else []
        self._read[seat] = end
        if len(journal) > _JOURNAL:
            self._trim()
        names: set[str] = set()
        players: dict[int, set[str]] = {}
        cards: set[int] = set()
        scopes: set[str] = set()
        touched: set[str] = set()
        for note in unread:
            what = note[0]
            if type(what) is int:               # (seat, name)
                players.setdefault(what, set()).add(note[1])
                touched.add(note[1])
            elif len(note) == 2:                # (None, name)
                names.add(note[1])
            elif len(note) == 3:                # (None, name, card id)
                cards.add(note[2])
            else:                               # (when,)
                reset, player_reset = self._resets[what]
                names.update(reset)
                if player_reset:
                    scopes.add(what)
                    touched |= player_reset
        ch.names("var", names)
        ch.names("pvar", touched)
        if cards:
            ch.tokens.add("cvars")
        return names, players, cards, scopes

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
        s.shown = None
        s.display = [[_UNSET] * n for _ in enc._display]
        s.public = [_UNSET] * len(enc._public)
        s.order = [(seat + r) % n for r in range(n)]
        s.pvals = [{} for _ in range(n)]
        s.away = set()
        s.unseen = [set() for _ in range(n)]
        return s

    def _trim(self) -> None:
        """Drop the notes every seat has read; a seat that has not observed
        for long (it was left behind by half the journal) starts afresh."""
        half = self._base + len(self._journal) // 2
        for seat, at in enumerate(self._read):
            if at < half:
                self._seats[seat] = None
                self._read[seat] = half
        cut = min(self._read) - self._base
        del self._journal[:cut]
        self._base += cut

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

    def _write_card_state(self, s: _Seat, moved: list[list[Card]] | None, written: set[int],
                          ix: list[int], val: list[float]) -> None:
        """Card variables of the cards the seat sees: of each card that
        moved (``moved``: lists of cards; None, a first observation: of
        every card) and each whose variables were ``written``, its values
        where the seat now sees it, zeros where it does not."""
        m, enc = self.match, self.enc
        cvars = m.cvars
        ids: range | set[int]
        if moved is None:
            ids = range(len(enc.game.cards))
        else:
            ids = {c.id for cards in moved for c in cards} | written
        scalar, where, loc = enc._scalar, s.where, m.loc
        for cid in ids:
            seen = where[loc[cid]][1] is not None
            for k, at in enc._state:
                ix.append(at + cid)
                val.append(scalar(cvars[k][cid]) if seen else 0)

    def _write_vars(self, s: _Seat, seat: int, written: tuple[set[str], dict[int, set[str]], set[int], set[str]],
                    ix: list[int], val: list[float], ch: "_Changes") -> None:
        m, e = self.match, self.enc
        vec, wide = s.vec, self._wide
        put, give = ix.append, val.append
        names = written[0]
        if ch.everything or names:
            var_places = self._var_places
            for k in (var_places if ch.everything else names):
                place = var_places.get(k)
                if place is not None:
                    at, number = place
                    vec[at:at + (1 if number else wide)] = 0
                    e._value(put, give, at, m.vars.get(k), number)
        self._write_players(s, seat, written[1], written[3], put, give, ch)
        order, tokens, every, display_reads = s.order, ch.tokens, ch.everything, self._display_reads
        for j, (k, places, number) in enumerate(e._display):
            cached, read = s.display[j], display_reads[j]
            if not every and read is not None and read.isdisjoint(tokens):
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

    def _write_players(self, s: _Seat, seat: int, written: dict[int, set[str]], scopes: set[str],
                       put: Callable[[int], None], give: Callable[[float], None], ch: "_Changes") -> None:
        """Each player's variables, where they were written or what ``seat``
        may see of them changed: only the variables written, unless a hidden
        one was shown or hidden again.  A reset (``scopes``) rewrites only
        the variables this seat was last shown away from their starting value."""
        m, hide, vec, n = self.match, self._hide, s.vec, self.enc.players
        todo: dict[int, Iterable[str] | None]      # seat from this one -> names written, or None for all
        if ch.everything:
            todo = dict.fromkeys(range(n))
        else:
            todo = {(p - seat) % n: keys for p, keys in written.items()}
            if scopes and s.away:
                names = frozenset().union(*(self._resets[when][1] for when in scopes))
                for r, k in s.away:
                    if k in names:
                        keys = todo.get(r, ())
                        todo[r] = {k, *keys} if keys is not None else None
        if hide and (s.shown is None or ch.touch(self._hide_read)):
            rows = [[(own and p == seat) or (when is not None and bool(when(m, p))) for p in s.order]
                    for _, own, when in hide]
            shown = list(zip(*rows))
            before = s.shown
            if shown != before:
                for r in range(n):
                    if before is None or shown[r] != before[r]:
                        todo[r] = None
                        s.unseen[r] = {k for (k, _, _), seen in zip(hide, shown[r]) if not seen}
                s.shown = shown
        pvars, reset_to, away = m.pvars, self._reset_to, s.away
        for r, keys in todo.items():
            values, last = pvars[s.order[r]], s.pvals[r]
            if keys is None:
                vec[self._player_entries[r]] = 0
                last = s.pvals[r] = {k: fresh_value(v) for k, v in values.items()}
                keys = values.keys()
                write = None
            else:
                keys = write = [k for k in keys if values[k] != last.get(k, _UNSET)]
                if not write:
                    continue
                for k in write:
                    last[k] = fresh_value(values[k])
            for k in keys:
                if k in reset_to:
                    if last[k] != reset_to[k]:
                        away.add((r, k))
                    else:
                        away.discard((r, k))
            self._write_player(vec, values, s.unseen[r], r, put, give, write)

    def _write_player(self, vec: np.ndarray, values: dict[str, Any], unseen: Iterable[str], r: int,
                      put: Callable[[int], None], give: Callable[[float], None], keys: Iterable[str] | None) -> None:
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
