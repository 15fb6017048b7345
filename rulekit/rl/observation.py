"""A seat's view of a match as one fixed-size vector of float32.

The vector is built from ``match.view(seat)`` and nothing else: a view is
what the engine lets that seat see (other hands and hidden piles as counts,
hidden player variables left out), so an observation can never hold more.
Seats are counted from the observer: ``hand(+0)`` is the observer's hand,
``life(+1)`` the life of the next seat, whichever seat observes, so one
policy serves every seat.  ``observation_layout()`` names every part.

What goes in, in this order (the layout gives the exact slices):

- ``turn`` (the number), ``phase`` (one-hot over the file's phases, and one
  for none), ``current`` and ``decider`` (one-hot over seats from the
  observer), ``decision`` (one-hot over the choices, and one for none),
  ``out`` (a flag per seat);
- every zone: its card count (``Z.count``), and where the zone can show its
  cards to the observer a multi-hot over card ids (``Z``): public zones,
  the observer's own ``owner`` zones; ``top`` zones give their top card
  (``Z.top``, a one-hot).  Zones no seat can see are counts only.  A zone
  declared ``one_of: SET`` (it holds only the cards SET names) has an
  entry per card it may hold, in card-id order, not one per card of the
  game: ``part_cards(name)`` says which card each entry is;
- every card variable: its value for each visible card, by card id (``state.V``);
- match variables (``vars.V``), then player variables per seat (``V(+k)``),
  the file's ``display:`` values per seat (``display.V(+k)``) and its
  ``public:`` values (``public.V``).

A variable whose starting value is a number or true/false is one number, and
so is a display or public value whose expression writes no text and whose
first value is a number.  Any other value (text, a list, an expression's result) takes ``2 + W``
numbers over its word list of ``W`` words: a number (the value
itself if it is one, a list's length), a hot entry per word it is or holds,
and an "other/hidden" count for text not in the list, a list's elements
that are not words, and a value the observer may not see.  A variable
declared ``one_of: SET`` (:mod:`rulekit.loader_vars`) has the names of its
SET as its word list (the empty text is no word: nothing hot); any other
value has the game's whole word list
(:func:`~rulekit.rl.vocabulary.string_vocabulary`).  A ``display:`` or
``public:`` value declared ``one_of: SET`` is encoded over its SET too; one
declared ``number: true`` takes 2 entries, the number and a flag for no
number (:data:`NUMBER_OR_NONE`: a value the first values of a match cannot
show to be one, so it is never inferred); a variable declared ``holds:
cards`` is its count, one number (the cards may be where the seat may not
look, and a view hands the variable over as it is).  A player
variable that can be hidden has a ``.hidden`` flag too.  A card variable
holding text gives the word's place in the list plus one (a one-hot per
card would be too wide).  Numbers are kept as they are (seat numbers held
in variables too), clipped to the rule files' integer limit.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..derived import derived
from ..limits import MAX_INTEGER
from ..loader_vars import shown_text
from ..model import Game
from .vocabulary import _LITERAL, string_vocabulary

_NUMBER = (int, float, bool)
_HIDDEN = object()          # a player variable the view leaves out


def width(words: "Words") -> int:
    """How many entries a value takes: one number, or 2 + its words."""
    return 1 if words is None else len(words) + 2


@derived
def _numeric_expressions(game: Game, players: int) -> frozenset:
    """The ``display:`` names (and ``("public", name)``) that are numbers: an
    expression with no string literal in its text whose value, on a new
    match (seed 0) for every viewer and player, is a number or true/false.
    (A value is not declared with a type; the text and a first value are
    what the file says of it.)"""
    source, declared = game.source, {**game.var_sets, **game.var_kinds}
    plain = {k for k, spec in source.get("display", {}).items()
             if not _LITERAL.search(str(shown_text(spec))) and ("display", k) not in declared}
    plain |= {("public", k) for k, spec in source.get("public", {}).items()
              if not _LITERAL.search(str(shown_text(spec))) and ("public", k) not in declared}
    if not plain:
        return frozenset()
    m = game.new_match(players, seed=0)
    try:
        for viewer in range(players):
            view = m.view(viewer, log=False)
            for row in view["display"]:
                plain -= {k for k, v in row.items() if type(v) not in _NUMBER}
            plain -= {("public", k) for k, v in view["public"].items() if type(v) not in _NUMBER}
    finally:
        m.close()
    return frozenset(plain)


#: how a value is encoded: None, one number; else its word list, word -> place among its entries
Words = dict[str, int] | None

#: the "word list" of a value declared ``number: true``: none, so 2 entries, the
#: number and a flag (the "other" entry) set when the value is no number
NUMBER_OR_NONE: dict[str, int] = {}


def _columns(allowed: tuple[int, ...] | None, ncards: int) -> list[int] | None:
    """A zone's entry of each card id: its place among the cards the zone
    may hold (-1: one it may not); None for a zone that may hold any card."""
    if allowed is None:
        return None
    col = [-1] * ncards
    for i, cid in enumerate(allowed):
        col[cid] = i
    return col


class ObservationEncoder:
    """``encode(view)`` → float32 vector of ``size``; see the module."""

    def __init__(self, game: Game, players: int):
        self.game = game
        #: what is worked out once for this encoder (see rulekit.derived)
        self.derived: dict[Any, Any] = {}
        self.players = players
        self.vocab = string_vocabulary(game)
        self._word = {w: i for i, w in enumerate(self.vocab)}
        self._layout: list[tuple[str, slice]] = []
        self._words_of: dict[str, tuple[str, ...]] = {}
        self._size = 0
        n = players
        self._turn = self._add("turn", 1)
        self._phase_col: dict[str | None, int] = {p.name: i for i, p in enumerate(game.phases)}   # (None: setup)
        self._phase = self._add("phase", len(game.phases) + 1)
        self._current = self._add("current", n)
        self._decider = self._add("decider", n)
        self._choice_col = {name: i for i, name in enumerate(game.choices)}
        self._decision = self._add("decision", len(game.choices) + 1)
        self._out = self._add("out", n)
        ncards = len(game.cards)
        #: per live zone name: (count at, cards at or None, top at or None, owner or None)
        self._zones: list[tuple[str, int, int | None, int | None, int | None]] = []
        #: by zone name: its entry of each card id (-1: a card it may not hold), for a zone
        #: declared ``one_of`` (else None: the card id itself)
        self.zone_cols: dict[str, list[int] | None] = {z.name: _columns(z.allowed, ncards) for z in game.zones}
        self._cards_of: dict[str, tuple[int, ...]] = {}
        self._keys_from: dict[int, list[tuple]] = {}
        for z in game.zones:
            for owner in (range(n) if z.per_player else (None,)):
                self._zones.append(self._zone_parts(z, owner, ncards))
        self._state = [(k, self._add(f"state.{k}", ncards)) for k in game.card_vars]
        sets = {key: {w: i for i, w in enumerate(names)} for key, names in game.var_sets.items()}

        kinds = game.var_kinds

        def words(number: bool, key: tuple[str, str]) -> Words:
            """A list of cards is its count; a value declared a number (or
            none), 2 entries; one declared ``one_of``, its SET's names."""
            if number or kinds.get(key) == "cards":
                return None
            if kinds.get(key) == "number":
                return NUMBER_OR_NONE
            return sets.get(key, self._word)
        #: (name, place, words) of each game variable, of each public value;
        #: (name, place per seat, words) of each display value
        self._vars: list[tuple[str, int, Words]] = []
        self._public: list[tuple[str, int, Words]]
        self._display: list[tuple[str, list[int], Words]]
        for k, v in game.vars.items():
            w = words(type(v) in _NUMBER, ("vars", k))
            self._vars.append((k, self._add(f"vars.{k}", w), w))
        #: (name, place per seat, words, hidden flag's place per seat or None) of each player variable
        self._pvars: list[tuple[str, list[int], Words, list[int] | None]] = []
        for k, v in game.player_vars.items():
            w = words(type(v) in _NUMBER, ("player_vars", k))
            at = [self._add(f"{k}(+{r})", w) for r in range(n)]
            hidden = ([self._add(f"{k}(+{r}).hidden", 1) for r in range(n)]
                      if k in game.var_visibility else None)
            self._pvars.append((k, at, w, hidden))
        numeric = _numeric_expressions(game, players)
        self._display = []
        for k in game.display:
            w = words(k in numeric, ("display", k))
            self._display.append((k, [self._add(f"display.{k}(+{r})", w) for r in range(n)], w))
        self._public = []
        for k in game.public:
            w = words(("public", k) in numeric, ("public", k))
            self._public.append((k, self._add(f"public.{k}", w), w))

    def _add(self, name: str, size: "int | Words") -> int:
        """A part of ``size`` entries (or a value's, over its word list) at the end."""
        if size is None or isinstance(size, dict):
            if size is not None:
                self._words_of[name] = tuple(size)
            size = width(size)
        start = self._size
        self._layout.append((name, slice(start, start + size)))
        self._size += size
        return start

    def _zone_parts(self, z, owner, ncards):
        """Where a live zone's count, cards and top card go.  An owner zone's
        cards are laid out for the observer's own seat only (``+0``): no other
        seat's can ever be seen."""
        label = z.name if owner is None else f"{z.name}(+{owner})"
        count = self._add(f"{label}.count", 1)
        seen = z.visibility == "public" or (z.visibility == "owner" and owner == 0)
        ids = tuple(range(ncards)) if z.allowed is None else z.allowed
        cards = self._add(label, len(ids)) if seen else None
        top = self._add(f"{label}.top", len(ids)) if z.visibility == "top" else None
        for part, at in ((label, cards), (f"{label}.top", top)):
            if at is not None:
                self._cards_of[part] = ids
        return (z.name, count, cards, top, owner)

    @property
    def size(self) -> int:
        return self._size

    def observation_layout(self) -> list[tuple[str, slice]]:
        """(name, slice) of every part of the vector, in order."""
        return list(self._layout)

    def part_words(self, name: str) -> tuple[str, ...]:
        """The words a text or list part of the layout is encoded over: its
        entry ``1 + i`` is word ``i`` (entry 0 the number, the last one
        "other/hidden").  A declared variable's SET, else the game's words."""
        return self._words_of[name]

    def part_cards(self, name: str) -> tuple[int, ...]:
        """The card ids a zone's part of the layout (``Z``, ``Z.top``) is
        encoded over: its entry ``i`` is card ``part_cards(name)[i]``.  Every
        card of the game, unless the zone is declared ``one_of: SET``."""
        return self._cards_of[name]

    # ---- encoding -----------------------------------------------------------
    def observe(self, match, seat: int) -> np.ndarray:
        """The vector of what ``seat`` sees of ``match`` now."""
        return self.encode(match.view(seat, log=False))

    def encode(self, view: dict) -> np.ndarray:
        """The vector of a view (``match.view(seat)``, the log not needed).

        Entries are gathered as (place, value) pairs and written into the
        vector in one numpy assignment: a few hundred single writes into a
        numpy array cost more than the rest of the encoding."""
        seat = view["viewer"]
        n = self.players
        ix: list[int] = []
        val: list[float] = []
        put, give = ix.append, val.append
        put(self._turn)
        give(view["turn"])
        put(self._phase + self._phase_col.get(view["phase"], len(self._phase_col)))
        give(1)
        put(self._current + (view["current"] - seat) % n)
        give(1)
        dec = view["decision"]
        if dec is None:
            put(self._decision + len(self._choice_col))
            give(1)
        else:
            put(self._decision + self._choice_col[dec["choice"]])
            give(1)
            put(self._decider + (dec["player"] - seat) % n)
            give(1)
        for p in view["out"]:
            put(self._out + (p - seat) % n)
            give(1)
        self._encode_zones(view["zones"], seat, put, give)
        for k, at, w in self._vars:
            self._value(put, give, at, view["vars"].get(k), w)
        pvars = view["player_vars"]
        v: Any                  # a value of the view: whatever the rule file gives it
        for r in range(n):
            values = pvars[(seat + r) % n]
            for k, places, w, hidden in self._pvars:
                v = values.get(k, _HIDDEN)
                if v is _HIDDEN and hidden is not None:     # (only a variable with a visibility is left out)
                    put(hidden[r])
                    give(1)
                    if w is not None:
                        put(places[r] + len(w) + 1)
                        give(1)
                elif w is None and type(v) in _NUMBER:
                    put(places[r])
                    give(v)
                else:
                    self._value(put, give, places[r], v, w)
            shown: dict[str, Any] = view["display"][(seat + r) % n] if view["display"] else {}
            for k, places, w in self._display:
                v = shown.get(k)
                if w is None and type(v) in _NUMBER:
                    put(places[r])
                    give(v)
                else:
                    self._value(put, give, places[r], v, w)
        for k, at, w in self._public:
            self._value(put, give, at, view["public"].get(k), w)
        vec = np.zeros(self._size, dtype=np.float32)
        vec[ix] = val
        np.clip(vec, -MAX_INTEGER, MAX_INTEGER, out=vec)
        return vec

    def _zone_keys(self, seat: int) -> list[tuple]:
        """The zones in layout order, by their names in a view from ``seat``."""
        keys = self._keys_from.get(seat)
        if keys is None:
            n = self.players
            cols = self.zone_cols
            keys = self._keys_from[seat] = [
                (name if owner is None else f"{name}({(seat + owner) % n})", count, cards, top, cols[name])
                for name, count, cards, top, owner in self._zones]
        return keys

    def _encode_zones(self, zones: dict, seat: int, put, give) -> None:
        for key, count, cards, top, col in self._zone_keys(seat):
            info = zones[key]
            put(count)
            give(info["count"])
            if cards is not None:
                ids = info.get("ids")
                if ids:
                    for cid in ids:
                        put(cards + (cid if col is None else col[cid]))
                        give(1)
                    states = info.get("state")
                    if states:
                        for cid, state in zip(ids, states):
                            for k, at in self._state:
                                put(at + cid)
                                give(self._scalar(state.get(k)))
            elif top is not None and "top_id" in info:
                put(top + (info["top_id"] if col is None else col[info["top_id"]]))
                give(1)

    def _scalar(self, v) -> float:
        if type(v) in _NUMBER:
            return float(v)
        if type(v) is str:
            return self._word.get(v, -1) + 1.0
        if type(v) in (list, tuple):
            return float(len(v))
        return 0.0

    def _value(self, put, give, at: int, v, words: Words) -> None:
        """A number at ``at`` (``words`` None); or a value over 2 + W entries
        of its word list (see the module)."""
        if words is None:
            put(at)
            give(v if type(v) in _NUMBER else self._scalar(v))
            return
        other = at + 1 + len(words)
        if words is NUMBER_OR_NONE:
            put(at if type(v) in _NUMBER else other)
            give(v if type(v) in _NUMBER else 1)
            return
        if type(v) in _NUMBER:
            put(at)
            give(v)
        elif type(v) is str:
            i = words.get(v)
            if i is None and v == "" and words is not self._word:
                return                  # (a declared variable's "no name yet": nothing hot)
            put(other if i is None else at + 1 + i)
            give(1)
        elif type(v) in (list, tuple):
            put(at)
            give(len(v))
            counts: dict[int, int] = {}
            for x in v:
                i = words.get(x) if type(x) is str else None
                place = other if i is None else at + 1 + i
                counts[place] = counts.get(place, 0) + 1
            for place, c in counts.items():
                put(place)
                give(c)
        elif v is not None:
            put(other)
            give(1)
