"""Every seat's observation vector kept up to date, not rebuilt.

:class:`~rulekit.rl.observation.ObservationEncoder` builds a seat's vector
from ``match.view(seat)``: every zone, every player's variables and
``display`` values, each step, though a step changes a few of them.
:class:`SeatObservations` keeps every seat's vector as one row of a
``(seats, size)`` array and, once per step (at the first observation after
it), writes what the step changed into every row at once, with numpy, at
places worked out in advance (:mod:`rulekit.rl.columns`).  A response
window asks every seat in turn: each change is walked once, not once per
seat that looks.

- the eliminated seats: a few entries, written where they differ from what
  the rows hold; the turn, phase, current seat, decision's choice and
  decider (the decision changes at almost every step) only in the row of
  the seat that observes, as it does;
- zones: the cards the log's ``move`` entries took from or put into a zone
  (where they are now decides the entry), the count of each zone they (or a
  ``shuffle``) name, a ``top`` zone's top card (every card changes zone
  through a logged move, so the log is the complete list); a zone's cards
  are written only in the rows of the seats that may see them, exactly as
  the full encoder does;
- match, player and card variables: those the match's code noted it wrote
  (:mod:`rulekit.rl.tracked`) and whose value differs from the one written;
  a player's variable goes to the rows that may see it, the others get the
  hidden flag, and it is written again when who may see it changed;
- ``display`` and ``public`` values (:mod:`rulekit.rl.shown`): evaluated
  again only when something they read changed; once per player for every
  row when the expression never names its viewer, else for a seat when it
  observes.

The result is the full encoder's vector, entry for entry (the tests compare
the two at every step of random matches of every game); it never holds
more, as it is made of the same parts the view would show.
"""
from __future__ import annotations

from typing import Any, Iterable, cast

import numpy as np

from ..derived import derived
from ..engine import failures
from ..engine.copies import fresh_value
from ..engine.match import Match
from ..engine.runtime import Zone
from ..limits import MAX_INTEGER
from .columns import PlayerVar, columns
from .observation import _HIDDEN, _NUMBER, ObservationEncoder, width
from .reads import Token, reads, tokens
from .shown import Shown, _clip
from .tracked import Compared, is_tracked

_UNSET = object()           # a player variable not written yet


class _Plan:
    """What every match of an encoder's game shares (a new match per episode)."""

    def __init__(self, enc: ObservationEncoder):
        game, cols = enc.game, columns(enc)
        #: per variable a player may hide: (its name, seen by its owner, shown_when or None)
        self.hide = [(k, vis == "owner", when) for k, (vis, when) in game.var_visibility.items()]
        self.hide_at = {k: i for i, (k, _, _) in enumerate(self.hide)}
        hide_reads = [frozenset() if when is None else tokens(reads(when, game.code_label))
                      for _, _, when in self.hide]
        self.hide_read = None if None in hide_reads else frozenset[Token]().union(*filter(None, hide_reads))
        self.var_at = {k: (at, words) for k, at, words in enc._vars}
        #: per reset scope: the match variables and player variables it sets back
        self.resets = {when: (tuple(k for k, _ in sections[0]), tuple(k for k, _ in sections[1]))
                       for when, sections in game.resets.items()}
        #: where each phase's and choice's flag is in a row
        self.phase_at = {k: int(at[0]) for k, at in cols.phase.items()}
        self.no_phase = int(cols.no_phase[0])
        self.choice_at = {k: int(at[0]) for k, at in cols.decision.items()}


@derived
def _plan(enc: ObservationEncoder) -> _Plan:
    return _Plan(enc)


class SeatObservations:
    """The observation vectors of every seat of one match (see the module).

    ``observe(seat)`` returns the seat's row of the kept array, updated: copy
    it to keep it, as the next step writes into it."""

    def __init__(self, encoder: ObservationEncoder, match: Match):
        self.enc = encoder
        self.match = match
        e, n = encoder, encoder.players
        self.cols = columns(encoder)
        self.V = np.zeros((n, e.size), dtype=np.float32)
        self._flat = self.V.reshape(-1)
        #: the same memory, one entry at a time: a single write costs a third of numpy's
        self._cells = self.V.data.cast("B").cast("f")
        #: by width, the same memory again, row ``i`` the ``width`` entries from flat place ``i`` on: a
        #: value over a word list written at many places (one per row) in one numpy write
        self._spans: dict[int, np.ndarray] = {}
        #: by width, what a hidden value over a word list shows: its last entry ("hidden") set
        self._blanks: dict[int, np.ndarray] = {}
        live = self.cols.live(match)
        cols, plan = self.cols, _plan(encoder)
        self._zones = dict(zip(live, cols.zone_places.values()))
        #: by zone, the flat places of its count, its cards' section and its top card's, one per row
        #: that holds it (None: no row): a few entries, written one at a time (numpy's fancy
        #: indexing costs more than a loop over 8 rows); and its entry of each card id (None: the
        #: id itself, a zone that may hold any card)
        self._at = cast(dict[Zone, tuple[list[int], list[int] | None, list[int] | None, list[int] | None]],
                        dict(zip(live, cols.zone_starts.values())))
        self._names = {z.name: z for z in live}
        self._tokens = dict(zip(live, cols.zone_tokens))
        #: by zone, what a move into or out of it writes: its places (as ``_at``) and its token
        self._plan = {z: (*self._at[z], self._tokens[z]) for z in live}
        self._sees = dict(zip(live, cols.zone_sees.values()))       # by zone, per row
        self._top: dict[Zone, int | None] = {}
        self._hide, self._hide_at, self._hide_read = plan.hide, plan.hide_at, plan.hide_read
        self._shown: list[list[bool]] = []          # by hidden variable, then seat: shown to all
        self._var_at, self._resets = plan.var_at, plan.resets
        self._pvals: list[dict[str, Any]] = [{} for _ in range(n)]   # by seat: the player variables as written
        self._compared = None if is_tracked(match.game) else Compared(match)
        match.changes.clear()          # (a match followed from mid-game: everything is written afresh)
        self._log_at = len(match.log)
        #: the turn, phase and current seat as seen (None: nothing seen yet); who is out as written
        self._hk: tuple[Any, ...] | None = None
        self._out = [False] * n
        #: by seat, the turn, phase, current seat, decision's choice and decider its row holds
        #: (None: nothing written yet)
        self._asked: list[tuple[Any, ...] | None] = [None] * n
        self._phase_at, self._no_phase, self._choice_at = plan.phase_at, plan.no_phase, plan.choice_at
        self._first = True
        #: by token changed this step, whose zones or variables changed (None: not only seats')
        self._owned: dict[Token, set[int] | None] = {}
        self.shown = Shown(encoder, match, self.V, self.cols)
        self._todo = self.shown.todo
        #: each seat's row of V, as a view kept (indexing V makes a new one each time), and as cells
        self._rows = list(self.V)
        self._row_cells = [self._cells[r * e.size:(r + 1) * e.size] for r in range(n)]

    def observe(self, seat: int) -> np.ndarray:
        self.update(seat)
        return self._rows[seat]

    def cells(self, seat: int) -> memoryview[float]:
        """The seat's row, updated, as a flat memoryview (to copy it without numpy's overhead)."""
        self.update(seat)
        return self._row_cells[seat]

    def update(self, seat: int) -> None:
        """Bring the seat's row up to date."""
        try:
            self.sync()
            dec = self.match.decision
            now = (self._hk, None, None) if dec is None else (self._hk, dec.choice, dec.player)
            if now != self._asked[seat]:
                self._write_asked(seat, now)
            if self._todo[seat]:      # (the tests here and above: a call less at most steps)
                self.shown.write(seat)
        except Exception as err:    # a display or public value failed: where, in the rule file
            failure = failures.mapped(self.match.game, err, self.cols.n)
            if failure is None:
                raise
            raise failure from err

    def _write_asked(self, seat: int, now: tuple[Any, ...]) -> None:
        """The turn, phase and current seat (as :meth:`sync` saw them), the
        decision's choice and decider ``now``, in the seat's row only, as
        it observes: the decision changes at almost every step, the phase
        often, and a write into every row touches memory in every row (the
        costliest part of a step's writes), for rows that may not be read
        before the next change.  Seats are counted from the row's."""
        was = self._asked[seat]
        self._asked[seat] = now
        cells, e, n, base = self._cells, self.enc, self.cols.n, seat * self.cols.size
        phase_at, other, choice_at = self._phase_at, self._no_phase, self._choice_at   # (other: setup's phase)
        (turn, phase, current), choice, decider = now
        if was is None:                 # (nothing written in this row yet: its entries are zeros)
            cells[base + e._turn] = _clip(turn)
            cells[base + phase_at.get(phase, other)] = 1.0
            cells[base + choice_at[choice]] = 1.0
            if current is not None:
                cells[base + e._current + (current - seat) % n] = 1.0
            if decider is not None:
                cells[base + e._decider + (decider - seat) % n] = 1.0
            return
        head, was_choice, was_decider = was
        if head != now[0]:
            was_turn, was_phase, was_current = head
            if turn != was_turn:
                cells[base + e._turn] = _clip(turn)
            if phase != was_phase:
                cells[base + phase_at.get(was_phase, other)] = 0.0
                cells[base + phase_at.get(phase, other)] = 1.0
            if current != was_current:
                if was_current is not None:
                    cells[base + e._current + (was_current - seat) % n] = 0.0
                if current is not None:
                    cells[base + e._current + (current - seat) % n] = 1.0
        if choice != was_choice:
            cells[base + choice_at[was_choice]] = 0.0
            cells[base + choice_at[choice]] = 1.0
        if decider != was_decider:
            if was_decider is not None:
                cells[base + e._decider + (was_decider - seat) % n] = 0.0
            if decider is not None:
                cells[base + e._decider + (decider - seat) % n] = 1.0

    # ---- one pass for every seat ------------------------------------------------
    def sync(self) -> None:
        """Write into every row what changed since the last call."""
        m = self.match
        notes = m.changes if self._compared is None else self._compared.changes()
        log, at = m.log, self._log_at
        hk = (m.turn, m.phase, m.current)
        if hk != self._hk or m.out != self._out:      # (the first pass too: nothing seen yet)
            changed: set[Token] = set()
            self._write_head(changed, hk)
        elif not notes and (len(log) == at or len(log) == at + 1 and log[at][0] == "decide"):
            self._log_at = len(log)     # (most steps: a decision answered, nothing written, nothing moved)
            return
        else:
            changed = set()
        if not notes and not self._first and (len(log) == at or len(log) == at + 1 and log[at][0] == "decide"):
            self._log_at = len(log)     # (the turn, phase or seats changed, nothing else)
            if changed:
                self.shown.stale(changed)
            return
        first, self._first = self._first, False
        if first:
            self._log_at = len(m.log)
            self._write_all_zones()
            self._notes(notes, changed)
            self._write_vars(self._var_at)
            self._write_players({p: set(self.cols.pvars) for p in range(self.cols.n)}, changed, True)
            if self.enc._state:
                self._write_card_state(range(len(self.enc.game.cards)))
            self.shown.stale(None)
            return
        self._owned.clear()
        moved = self._moved(changed) if len(m.log) != self._log_at else set()
        names: Iterable[str] = ()
        players: dict[int, set[str]] = {}
        cards: Iterable[int] = ()
        if notes:
            names, players, cards = self._notes(notes, changed)
            self._write_vars(names)
        self._write_players(players, changed, False)
        if self.enc._state and (moved or cards):
            self._write_card_state(moved | set(cards))
        if changed:                 # (a step that only asked another seat: nothing a value reads)
            self.shown.stale(changed, self._owned)

    def _own(self, token: Token, seat: int | None) -> None:
        """Note that seat ``seat`` (None: not a seat's) changed something of ``token``."""
        owned = self._owned
        if seat is None:
            owned[token] = None
        elif token not in owned:
            owned[token] = {seat}
        else:
            seats = owned[token]
            if seats is not None:
                seats.add(seat)

    def _write_head(self, changed: set[Token], hk: tuple[Any, ...]) -> None:
        """Who is out, in every row, where it differs from what the rows
        hold; the turn, phase or current seat ``hk`` changed noted (written
        as each seat observes: :meth:`_write_asked`)."""
        m, c = self.match, self.cols
        if hk != self._hk:
            self._hk = hk
            changed.add("turn")
        out = self._out
        if out != m.out:
            for p, now in enumerate(m.out):
                if now != out[p]:
                    self._flat[c.out[p]] = 1 if now else 0
            self._out = list(m.out)
            changed.add("seats")
        elif self._first:
            changed.add("seats")

    def _notes(self, notes, changed: set[Token]) -> tuple[set[str], dict[int, set[str]], set[int]]:
        """The match variables, each seat's player variables and the cards
        whose variables the notes say were written; the match and card
        variables noted in ``changed`` (a player's, where its value changed:
        :meth:`_write_players`)."""
        names: set[str] = set()
        players: dict[int, set[str]] = {}
        cards: set[int] = set()
        for note in notes:
            what = note[0]
            if type(what) is int:               # (seat, name)
                players.setdefault(what, set()).add(note[1])
            elif len(note) == 2:                # (None, name)
                names.add(note[1])
            elif len(note) == 3:                # (None, name, card id)
                cards.add(note[2])
            else:                               # (when,)
                reset, player_reset = self._resets[what]
                names.update(reset)
                if player_reset:
                    for p in range(self.cols.n):
                        players.setdefault(p, set()).update(player_reset)
        if notes:
            notes.clear()
        if names:
            changed.update(("var", k) for k in names)
            changed.add(("var", None))
        if cards:
            changed.add("cvars")
        return names, players, cards

    def _write_all_zones(self) -> None:
        """Every zone's entries, at the first pass: the rows are zeros, so
        an empty zone (most of a new match's) writes nothing."""
        cells = self._cells
        for z, (size, cards, top, col) in self._at.items():
            zc = z.cards
            if not zc:
                continue
            for b in size:
                cells[b] = len(zc)
            if cards is None and top is None:
                continue                # (a zone no row sees the cards of: its count only)
            ids = [c.id for c in zc] if col is None else [col[c.id] for c in zc]
            if cards is not None:
                for b in cards:
                    for i in ids:
                        cells[b + i] = 1
            if top is not None and zc:
                self._top[z] = ids[-1]
                for b in top:
                    cells[b + ids[-1]] = 1

    def _moved(self, changed: set[Token]) -> set[int]:
        """Write what the log's moves and shuffles since the last pass
        changed: each moved card's entry in the zones it left and entered
        (whether it is there now), the count of each zone they name and the
        top of a ``top`` zone.  Returns the ids of the cards moved.

        Each card's entries are written as its move is read (where the card
        is now decides them, so a card moved twice gets the same entries
        twice); the counts and tops once per zone touched, after."""
        log, at = self.match.log, self._log_at
        self._log_at = len(log)
        plan, loc, cells = self._plan, self.match.loc, self._cells
        touched: set[Zone] = set()
        add = touched.add
        ids: set[int] = set()
        for ev in log[at:]:             # (plain loops: a step moves a card or two)
            kind = ev[0]
            if kind == "move":
                _, dest, cards, src = ev
                add(dest)
                if type(src) is list:           # (cards taken from several zones: seldom)
                    touched.update(src)
                    for z, c in zip(src, cards):
                        self._entry(z, c.id)
                elif src is not None:
                    add(src)
                    _, starts, _, col, _ = plan[src]
                    if starts is not None:
                        for c in cards:
                            cid = c.id
                            x = 1.0 if loc[cid] is src else 0.0     # (a float: stored without a conversion)
                            j = cid if col is None else col[cid]
                            for b in starts:
                                cells[b + j] = x
                _, starts, _, col, _ = plan[dest]
                for c in cards:
                    cid = c.id
                    ids.add(cid)
                    if starts is not None:
                        x = 1.0 if loc[cid] is dest else 0.0
                        j = cid if col is None else col[cid]
                        for b in starts:
                            cells[b + j] = x
            elif kind == "shuffle":
                add(self._names[ev[1]])
        if not touched:
            return ids
        own = self._own
        for z in touched:
            size, _, top, col, token = plan[z]
            x = float(len(z.cards))
            for b in size:
                cells[b] = x
            if top is not None:
                old = self._top.get(z)
                new = None if not z.cards else z.cards[-1].id if col is None else col[z.cards[-1].id]
                self._top[z] = new
                if old != new:
                    for b in top:
                        if old is not None:
                            cells[b + old] = 0.0
                        if new is not None:
                            cells[b + new] = 1.0
            changed.add(token)
            own(token, z.owner)
        changed.add(("zone", None))
        return ids

    def _entry(self, z: Zone, cid: int) -> None:
        """Card ``cid``'s entry in zone ``z``, in every row that sees the
        zone's cards: whether the card is there now."""
        _, starts, _, col, _ = self._plan[z]
        if starts is not None:
            x = 1.0 if self.match.loc[cid] is z else 0.0
            j = cid if col is None else col[cid]
            for b in starts:
                self._cells[b + j] = x

    def _write_card_state(self, ids: Iterable[int]) -> None:
        """Card variables of the cards in ``ids``: their values in the rows
        of the seats that see where each card is now, zeros in the others
        (a card no seat sees is not even read); one numpy write for them
        all when there are many (a turn may write many cards'), one entry
        at a time when a few (a card or two moved: a dozen numpy calls
        would cost more)."""
        m, enc = self.match, self.enc
        cvars, zones, loc, scalar = m.cvars, self._zones, m.loc, enc._scalar
        if not isinstance(ids, (list, set, tuple)):
            ids = list(ids)
        n, size, state = self.cols.n, self.cols.size, enc._state
        if len(ids) * len(state) * n <= 64:
            cells, sees = self._cells, self._sees
            for cid in ids:
                z = loc[cid]
                place = zones.get(z)
                seers = None if place is None or place.cards is None else sees[z]
                for k, at in state:
                    x = 0.0 if seers is None else _clip(scalar(cvars[k][cid]))
                    for r in range(n):
                        cells[r * size + at + cid] = x if seers is not None and seers[r] else 0.0
            return
        seen: list[int] = []
        rows: list[np.ndarray] = []
        unseen: list[int] = []
        for cid in ids:
            place = zones.get(loc[cid])
            if place is None or place.cards is None:
                unseen.append(cid)
            else:
                seen.append(cid)
                rows.append(place.sees)
        if unseen:
            self.V[:, [at + cid for _, at in state for cid in unseen]] = 0
        if seen:
            vals = np.array([[scalar(cvars[k][cid]) for cid in seen] for k, _ in state], dtype=np.float64)
            np.minimum(np.maximum(vals, -MAX_INTEGER, out=vals), MAX_INTEGER, out=vals)
            block = np.array(rows).T[:, None, :] * vals          # (rows, variables, cards)
            self.V[:, [at + cid for _, at in state for cid in seen]] = block.reshape(len(block), -1)

    def _write_vars(self, names) -> None:
        m, e, V = self.match, self.enc, self.V
        for k in names:
            place = self._var_at.get(k)
            if place is None:
                continue
            at, words = place
            v = m.vars.get(k)
            if words is None:           # one entry, the same in every row
                V[:, at] = _clip(v if type(v) in _NUMBER else e._scalar(v))
            else:
                V[:, at:at + width(words)] = self._spread(v, words)

    def _write_players(self, players: dict[int, set[str]], changed: set[Token], first: bool) -> None:
        """Each player variable written whose value differs from the one in
        the rows (noted in ``changed``: a variable written again with the
        value it had changes no display value), or whose readers changed (a
        hidden one shown or hidden again): in the rows that may see it, the
        hidden flag in the others."""
        hide, hide_read = self._hide, self._hide_read
        if not players and not (hide and (first or hide_read is None or not hide_read.isdisjoint(changed))):
            return                  # (most steps: no player variable written, none shown or hidden)
        m, n = self.match, self.cols.n
        pvars, pvals, own = m.pvars, self._pvals, self._own
        moved: dict[tuple[int, str], Any] = {}
        if first:                   # (every value is new, and every display value is stale: see sync)
            moved = {(p, k): pvars[p].get(k, _HIDDEN) for p, keys in players.items() for k in keys}
        else:
            for p, keys in players.items():
                values, last = pvars[p], pvals[p]
                for k in keys:
                    v = values.get(k, _HIDDEN)
                    if v != last.get(k, _UNSET):
                        moved[p, k] = v
                        token = ("pvar", k)
                        changed.add(token)
                        own(token, p)
        if moved:
            changed.add(("pvar", None))
        if hide and (first or hide_read is None or not hide_read.isdisjoint(changed)):
            shown = [[when is not None and bool(when(m, p)) for p in range(n)] for _, _, when in hide]
            before = self._shown
            for i, (k, _, _) in enumerate(hide):
                for p in range(n):
                    if first or shown[i][p] != before[i][p]:
                        moved.setdefault((p, k), pvars[p].get(k, _HIDDEN))
            self._shown = shown
        pcols = self.cols.pvars
        for (p, k), v in moved.items():
            pvals[p][k] = fresh_value(v)
            col = pcols.get(k)
            if col is not None and not (first and col.flags is None and col.number and type(v) in _NUMBER
                                        and not v):
                self._write_player(p, k, v, col)      # (a new match's rows are zeros: its zeros are there)

    def _write_player(self, p: int, k: str, v: Any, col: PlayerVar) -> None:
        """Player ``p``'s ``k`` as the full encoder writes it, in every row:
        the value where the row's seat may see it, hidden where not.  A
        value over the vocabulary is written whole (its zeros too) through
        :meth:`_span`, one numpy write for every row, not cleared and then
        written entry by entry."""
        cols, flat = self.cols, self._flat
        places, flags, number = col.places[p], col.flags, col.number
        blank: Any
        if number:
            value: Any = _clip(v if type(v) in _NUMBER else self.enc._scalar(v))
            if flags is None:           # (the commonest: a count every row sees, a row at a time)
                cells = self._cells
                for b in col.starts[p]:
                    cells[b] = value
                return
            put, blank = flat.__setitem__, 0
        else:
            assert col.words is not None        # (a value over a word list)
            value = self._spread(v, col.words)
            put, blank = self._span(len(value)).__setitem__, self._blanks[len(value)]
        if flags is None:               # seen by every row
            put(places, value)
            return
        i = self._hide_at[k]
        if v is not _HIDDEN and self._shown[i][p]:
            seen, hidden = cols.all, cols.none
        elif v is not _HIDDEN and self._hide[i][1]:
            seen, hidden = cols.only[p], cols.others[p]
        else:
            seen, hidden = cols.none, cols.all
        if len(seen):
            put(places[seen], value)
            flat[flags[p][seen]] = 0
        if len(hidden):
            put(places[hidden], blank)
            flat[flags[p][hidden]] = 1

    def _span(self, wide: int) -> np.ndarray:
        """The kept array seen as rows of ``wide`` entries, row ``i`` from flat place ``i`` on."""
        span = self._spans.get(wide)
        if span is None:
            flat = self._flat
            span = self._spans[wide] = np.ndarray((flat.size - wide + 1, wide), flat.dtype, self.V,
                                                  strides=(flat.itemsize,) * 2)    # (as_strided costs more)
            blank = self._blanks[wide] = np.zeros(wide, dtype=np.float32)
            blank[-1] = 1
        return span

    def _spread(self, v: Any, words: dict[str, int]) -> np.ndarray:
        """``v`` over its word list's 2 + W entries, as the full encoder writes it."""
        offs: list[int] = []
        vs: list[float] = []
        self.enc._value(offs.append, vs.append, 0, v, words)
        out = np.zeros(width(words), dtype=np.float32)
        for o, x in zip(offs, vs):
            out[o] = _clip(x)
        return out
