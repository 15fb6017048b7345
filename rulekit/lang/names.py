"""What names effect text may use, and the built-in functions.

The compiler resolves every name at load time against a :class:`Names`
table (the rule file's zones, variables, tables, choices, procedures and
phases), so a typo is an error with a position and a suggestion instead of a
failure in the middle of a match.
"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs
from lark import Token, Tree

from ..engine.runtime import Zone
from ..engine.shuffling import shuffle_in_place
from ..errors import value_kind
from ..limits import ELEMENTS_PER_STEP, MAX_BUILT_ITEMS
from ..model import Card
from .runtime_growth import _nest
from .type_checks import ValueTypes

if TYPE_CHECKING:
    from .match_interface import RuleMatch

#: Names every rule may read, filled in by the match.
SPECIAL_NAMES = {
    "current": "the player whose turn it is",
    "player_count": "the number of players in the match",
    "players": "every player still in the game, in seat order from 0",
    "phase": "the name of the phase being played",
    "all_players": "every seat, eliminated players included, in seat order from 0",
}


@attrs.frozen
class Names:
    """The names a rule file declares."""

    zones: dict[str, Any]          # name -> ZoneDef
    vars: frozenset[str]
    player_vars: frozenset[str]
    tables: dict[str, dict[Any, Any]]
    choices: frozenset[str]
    procedures: frozenset[str]
    phases: dict[str, int]
    card_vars: frozenset[str] = frozenset()
    min_players: int = 1
    max_players: int = 1
    proc_params: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    choice_params: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    choice_skip: dict[str, str] = attrs.field(factory=dict)  # choice -> option taken when alone
    #: choice -> ((option, the procedure its ``effect`` is compiled as), ...)
    option_effects: dict[str, tuple[tuple[str, str], ...]] = attrs.field(factory=dict)
    #: choices whose every option picks exactly one card: an answer's cards are one card
    one_card_choices: frozenset[str] = frozenset()
    #: choice -> the names of its options (a choice missing: not all known)
    choice_options: dict[str, frozenset[str]] = attrs.field(factory=dict)
    options: dict[str, Any] = attrs.field(factory=dict)      # match option -> default
    event_fields: frozenset[str] = frozenset()  # argument names of every 'emit'
    eliminates: bool = False    # some effect eliminates players: seats must skip them
    #: ``names:`` entry -> the names it declares (None: not all known, e.g. a
    #: card entry that makes them was set aside for a structural error)
    name_sets: dict[str, dict[str, Any] | None] = attrs.field(factory=dict)   # (a dict: ordered, as written)
    #: ("procedure" | "choice", name) -> per parameter, the ``names:`` entry it takes a name from
    param_sets: dict[tuple[str, str], tuple[str | None, ...]] = attrs.field(factory=dict)
    #: card property -> every value some card has (the elements, for a list), in card order
    prop_values: dict[str, dict[Any, Any]] = attrs.field(factory=dict)
    #: card properties whose value is a list on some card
    list_props: frozenset[str] = frozenset()
    #: card properties whose value is a list or a mapping on some card (a list of their values is weighed)
    nested_props: frozenset[str] = frozenset()
    lost: Lost | None = None    # parts set aside for structural errors (None: nothing)
    #: the types of the variables, card properties and options (see :mod:`rulekit.lang.type_checks`)
    value_types: ValueTypes = attrs.field(factory=ValueTypes)

    def follow_on(self, node: object, message: str) -> bool:
        """Is an error at ``node`` only a consequence of parts of the file set
        aside for structural errors (see :class:`Lost`)?"""
        return self.lost is not None and self.lost.explains(node, message)

    def all_readable(self) -> list[str]:
        return sorted(
            set(self.zones) | self.vars | set(self.tables) | self.choices | set(SPECIAL_NAMES)
            | set(self.options)
        )


#: For each section of the file: the errors about a name it would declare
#: (when the whole section is set aside, none of its names is known).
_UNKNOWN = {
    "zones": ("unknown name", "unknown function", "unknown property"),
    "vars": ("unknown name", "cannot assign to unknown variable"),
    "player_vars": ("unknown player variable", "unknown property"),
    "card_vars": ("unknown property", "unknown card variable"),
    "tables": ("unknown name",),
    "choices": ("unknown name", "unknown choice"),
    "procedures": ("unknown procedure", "unknown function"),
    "options": ("unknown name",),
    "phases": ("unknown phase",),
    "names": ("no entry",),
}


@attrs.frozen
class Lost:
    """What a file with structural errors had set aside before its effect text
    was compiled: a reference to one of these is not reported again."""

    names: frozenset[str] = frozenset()      # items set aside: a choice, a zone, a phase...
    sections: frozenset[str] = frozenset()   # sections set aside whole: none of their names known
    cards: bool = False                      # card entries set aside: properties not all known
    players: bool = False                    # the player counts are not known

    def explains(self, node: object, message: str) -> bool:
        tok = _first_token(node)
        if tok is not None and str(tok) in self.names:
            return True
        if any(message.startswith(_UNKNOWN.get(s, ())) for s in self.sections):
            return True
        if self.cards and message.startswith(("unknown property", "no card has")):
            return True
        return self.players and message.startswith("table '")


def _first_token(node: object) -> Token | None:
    """The token an error is reported at (the first of a tree)."""
    if isinstance(node, Token):
        return node
    if isinstance(node, Tree):
        for child in node.children:
            tok = _first_token(child)
            if tok is not None:
                return tok
    return None


#: Names people reach for from other languages.
_ALIASES = {"len": "size", "length": "size", "random": "shuffled", "reverse": "bottom"}


def suggest(name: str, candidates: Iterable[str], cutoff: float = 0.6) -> str:
    candidates = list(candidates)
    alias = _ALIASES.get(name)
    if alias in candidates:
        return f"did you mean '{alias}'?"
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=cutoff)
    return f"did you mean '{close[0]}'?" if close else ""


# ---- built-in functions -----------------------------------------------------
# Each takes the match first.  They accept zones wherever a list is expected.

def _cards(x: Any) -> list[Any]:
    if type(x) is Zone:
        return x.cards
    if x is None:
        return []
    if type(x) is Card:
        return [x]
    seq: list[Any] = x      # a list (or a tuple) of effect text's values
    return seq


def _long(m: RuleMatch, xs: Any, rule: str | None = None) -> Any:
    """``xs``, with a step counted for every whole ELEMENTS_PER_STEP of its
    elements when there are more: a built-in (or a tabled filter, which
    names its ``rule``) that goes through a list of up to MAX_BUILT_ITEMS
    values (shuffling one takes 30 ms) does more than one step's work (see
    rulekit.lang.work).  (Anything but a list is left to the built-in,
    which says what it takes.)"""
    if type(xs) is list and len(xs) > ELEMENTS_PER_STEP:
        m.count(len(xs) // ELEMENTS_PER_STEP, rule)
    return xs


#: the built-ins that go through every element of a list (those above that
#: count its steps, and top/bottom of n elements): a filter whose test calls
#: one counts a step per element (see rulekit.lang.work)
ITERATING = frozenset({"sum", "min", "max", "unique", "join", "shuffled", "top", "bottom"})


def counts_steps(name: str, args: int) -> bool:
    """Does the built-in ``name``, given ``args`` arguments, count the steps
    of a long list (through :func:`_long`)?  ``min`` and ``max`` of several
    values do not, nor do ``top`` and ``bottom``."""
    return name in ("sum", "unique", "join", "shuffled") or (name in ("min", "max") and args == 1)


def b_size(m: RuleMatch, x: Any) -> int:
    return len(x) if type(x) is list else len(_cards(x))     # (a list, the usual case, without a call)


def b_sum(m: RuleMatch, x: Any) -> int:
    values = _long(m, _cards(x))
    try:
        return sum(v for v in values if v is not None)
    except TypeError:
        raise TypeError(not_summed([(None, v) for v in values])) from None


def not_summed(named: list[tuple[str | None, Any]]) -> str:
    """What ``sum`` of values that are not all numbers says: the first one that
    is not, after the name of the card that gave it (``None``: a value of a list)."""
    for name, value in named:
        if value is None or isinstance(value, (int, float)):
            continue
        if isinstance(value, Card):
            return f"sum needs numbers, not cards (card {value.name}): sum a property, as in sum(cards.value)"
        return f"sum needs numbers, and {name} gives {value!r}" if name else f"sum needs numbers, not {value!r}"
    return "sum needs numbers"


def b_any(m: RuleMatch, x: Any) -> bool:
    return len(x) > 0 if type(x) is list else len(_cards(x)) > 0


def b_none(m: RuleMatch, x: Any) -> bool:
    return len(x) == 0 if type(x) is list else len(_cards(x)) == 0


def b_min(m: RuleMatch, *args: Any) -> Any:
    return min(_long(m, args[0])) if len(args) == 1 else min(args)


def b_max(m: RuleMatch, *args: Any) -> Any:
    return max(_long(m, args[0])) if len(args) == 1 else max(args)


def b_top(m: RuleMatch, z: Any, n: int | None = None) -> Any:
    cards = _cards(z)
    if n is None:
        return cards[-1] if cards else None
    if n <= 0:
        return []
    return cards[: -n - 1 : -1] if n < len(cards) else cards[::-1]


def b_bottom(m: RuleMatch, z: Any, n: int | None = None) -> Any:
    cards = _cards(z)
    if n is None:
        return cards[0] if cards else None
    return list(cards[: max(n, 0)])


def b_shuffled(m: RuleMatch, x: Any) -> list[Any]:
    out = list(_long(m, _cards(x)))
    shuffle_in_place(m.rng, out)
    return out


def b_next(m: RuleMatch, p: int) -> int:
    return m.next_seat(p)


def b_prev(m: RuleMatch, p: int) -> int:
    return m.prev_seat(p)


def b_seats_from(m: RuleMatch, p: int) -> list[int]:
    return m.seats_from(p)


def b_seat_distance(m: RuleMatch, a: int, b: int) -> int:
    return m.seat_distance(a, b)


def b_limit(m: RuleMatch, z: Zone) -> int:
    return m.zone_limit(_zone("limit", z))


def b_room(m: RuleMatch, z: Zone) -> int:
    return m.room(_zone("room", z))


def _zone(builtin: str, z: object) -> Zone:
    if type(z) is not Zone:
        raise TypeError(f"{builtin}() takes a zone, not {value_kind(type(z).__name__)}")
    return z


def b_first(m: RuleMatch, x: Any) -> Any:
    xs = x if type(x) is list else _cards(x)
    return xs[0] if xs else None


def b_abs(m: RuleMatch, x: Any) -> Any:
    return abs(x)


def b_join(m: RuleMatch, *parts: Any) -> list[Any]:
    out: list[Any] = []
    for x in parts:
        out.extend(_cards(x))
        if len(out) > MAX_BUILT_ITEMS:    # (a list joined to itself in a loop doubles at every step)
            raise OverflowError(f"join() would build a list of more than {MAX_BUILT_ITEMS} elements "
                                "(MAX_BUILT_ITEMS)")
    return _nest(_long(m, out))


def b_unique(m: RuleMatch, x: Any) -> list[Any]:
    return list(dict.fromkeys(_long(m, _cards(x))))


#: name -> (function, min args, max args, one-line doc)
BUILTINS: dict[str, tuple[Callable[..., Any], int, int, str]] = {
    "size": (b_size, 1, 1, "number of cards in a zone or elements in a list"),
    "count": (b_size, 1, 1, "number of elements in a list (same as size)"),
    "sum": (b_sum, 1, 1, "sum of a list of numbers, e.g. sum(hand(p).value)"),
    "any": (b_any, 1, 1, "the list is not empty, e.g. any(players where ...)"),
    "empty": (b_none, 1, 1, "the list is empty (the opposite of any)"),
    "min": (b_min, 1, 8, "smallest of the arguments (or of one list)"),
    "max": (b_max, 1, 8, "largest of the arguments (or of one list)"),
    "top": (b_top, 1, 2, "top(z): the top card or none; top(z, n): the n top cards"),
    "bottom": (b_bottom, 1, 2, "bottom(z): the bottom card; bottom(z, n): the n bottom cards"),
    "shuffled": (b_shuffled, 1, 1, "a list of the same cards in random order"),
    "next": (b_next, 1, 1, "the next seat (of a player still in the game) clockwise"),
    "prev": (b_prev, 1, 1, "the previous seat (of a player still in the game)"),
    "seats_from": (b_seats_from, 1, 1,
                   "the players still in the game in seat order, starting with the given seat"),
    "seat_distance": (b_seat_distance, 2, 2,
                      "steps between two seats the shorter way round, counting only players "
                      "still in the game"),
    "limit": (b_limit, 1, 1, "a zone's declared card limit"),
    "room": (b_room, 1, 1, "how many more cards a zone may hold before its limit"),
    "first": (b_first, 1, 1, "the first element of a list, or none"),
    "abs": (b_abs, 1, 1, "absolute value"),
    "unique": (b_unique, 1, 1, "the list without repeats, first occurrence kept"),
    "join": (b_join, 1, 8, "one list of the cards (or elements) of several zones or lists, in order"),
}

class InPlace(NamedTuple):
    """A built-in the compiler writes in place as the match's own method
    (``seats_from(p)`` as ``m.seats_from(p)``)."""

    method: str     # the Match method
    takes: str      # what its arguments are: "seat" (seat numbers) or "zone"
    gives: str      # the kind of its value, as the compiler knows kinds


#: The built-ins written in place, by name.  A failure inside the method is
#: reported as one in the built-in, and a built-in that takes seats says
#: what it was given instead (rulekit.engine.failures).
IN_PLACE_METHODS: dict[str, InPlace] = {
    "next": InPlace("next_seat", "seat", "int"),
    "seats_from": InPlace("seats_from", "seat", "seats"),
    "seat_distance": InPlace("seat_distance", "seat", "int"),
    "room": InPlace("room", "zone", "int"),
}

#: Functions the compiler handles itself (they take a choice name, not a value).
SPECIAL_FUNCTIONS = {"can_choose": "can_choose(choice): the choice has at least one legal option now"}
