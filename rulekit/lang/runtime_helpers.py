"""What generated effect code may call: the namespace of the generated module.

The generated functions see only these names (and a short list of harmless
Python builtins), never the rest of Python: defence in depth on top of the
compiler only writing what the grammar allows.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations, product
from math import comb, prod
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NoReturn

from ..engine.runtime import Action, Chosen, Decision, EndTurn, GameOver, Goto, Zone
from ..errors import RuleRuntimeError, value_kind
from ..limits import ELEMENTS_PER_STEP, MAX_OPTIONS
from ..model import Card
from . import runtime_growth
from .names import BUILTINS, _long, not_summed

if TYPE_CHECKING:
    from ..engine.match import Match
    from ..errors import Where
    from .match_interface import RuleMatch


def _seq(x: Any) -> Any:
    """Anything iterable in effect text: a zone's cards, a list, one card, none."""
    t = type(x)
    if t is Zone:
        return x.cards
    if t is list or t is tuple:
        return x
    if x is None:
        return ()
    if t is Card:
        return (x,)
    raise RuleRuntimeError(f"expected cards or a list, got {x!r}")


def get_attr(m: Match, obj: Any, name: str) -> Any:
    """``obj.name`` in effect text: a card's property, a player's variable, a
    chosen answer's field, or the same attribute of every element of a list."""
    t = type(obj)
    if t is Card:
        return obj.props.get(name)
    if t is list or t is Zone or t is tuple:
        # (a player's variable may hold a list: the list of them is weighed)
        return runtime_growth._nest([get_attr(m, x, name) for x in obj])
    if t is int:
        return m.pvars[obj][name]
    if t is Chosen:
        return getattr(obj, name)
    if obj is None:
        return None
    if t is dict:
        return obj.get(name)
    raise TypeError(f"cannot read '.{name}' of {value_kind(type(obj).__name__)} ({obj!r})")


def get_attr_long(m: Match, obj: Any, name: str, rule: str | None = None) -> Any:
    """``obj.name`` where ``obj`` may be a list a rule built: as
    :func:`get_attr`, counting a step for every whole ELEMENTS_PER_STEP of
    the list's elements, and one more for every list inside it (a list of
    a thousand short lists is a thousand lists gone through), as a filter
    of the list would.  A list may hold MAX_BUILT_ITEMS values: read in a
    loop without counting, a million steps would take hours."""
    t = type(obj)
    if t is Card:
        return obj.props.get(name)
    if t is int:
        return m.pvars[obj][name]
    if t is list or t is Zone or t is tuple:
        return _each_attr(m, obj, name, rule, 0)
    return get_attr(m, obj, name)


def _count_items(m: Match, items: Any, rule: str | None, inner: int) -> None:
    """Count the steps of going through ``items`` element by element: one
    for every whole ELEMENTS_PER_STEP, and one more for a list inside
    another (``inner``)."""
    steps = len(items) // ELEMENTS_PER_STEP + inner
    if steps:
        m.count(steps, rule)


def _each_attr(m: Match, items: Any, name: str, rule: str | None, inner: int) -> list[Any]:
    _count_items(m, items, rule, inner)
    out = []
    for x in items:
        t = type(x)
        out.append(_each_attr(m, x, name, rule, 1) if t is list or t is Zone or t is tuple
                   else get_attr(m, x, name))
    return runtime_growth._nest(out)


def _sets(n: int, lo: int, hi: int) -> None:
    """Before an option offers every set of ``lo`` to ``hi`` of ``n`` cards:
    fail when they are more than MAX_OPTIONS (see rulekit.limits)."""
    total = _set_count(n, lo, hi)
    if total > MAX_OPTIONS:
        few = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise OverflowError(f"the option would offer every set of {few} of {n} cards, {total:,} answers, more "
                            f"than {MAX_OPTIONS:,} (MAX_OPTIONS): let the player pick the cards one at a time")


def _set_count(n: int, lo: int, hi: int, stop: int | None = None) -> int:
    """How many sets of ``lo`` to ``hi`` of ``n`` cards there are, or, with
    ``stop``, the count as far as the first sum past it (of ten thousand
    cards the sets are numbers of thousands of digits, and a hostile file's
    range may ask for thousands of them)."""
    total = 0
    for k in range(lo, min(hi, n) + 1):
        total += comb(n, k)
        if stop is not None and total > stop:
            break
    return total


def sets_within(lo: int, hi: int) -> int:
    """The most cards of which every set of ``lo`` to ``hi`` is within
    MAX_OPTIONS: a group no larger needs no :func:`_sets` (the compiler
    writes the call only behind a test of the group's size)."""
    low, high = lo, MAX_OPTIONS + lo     # lo cards have one set; lo + MAX_OPTIONS have more than the limit
    while low < high:
        mid = (low + high + 1) // 2
        if _set_count(mid, lo, hi, MAX_OPTIONS) > MAX_OPTIONS:
            high = mid - 1
        else:
            low = mid
    return low


def _picks(*sizes: int) -> None:
    """Before an option offers one card of each part: fail when the ways to
    pick them are more than MAX_OPTIONS."""
    total = prod(sizes)
    if total > MAX_OPTIONS:
        raise OverflowError(f"the option would pick one card for each of {len(sizes)} parts in {total:,} ways, "
                            f"more than {MAX_OPTIONS:,} (MAX_OPTIONS): let the player pick the cards one at a time")


#: entries a memo of shared objects keeps before it starts again: the sets of
#: cards players answer with are many (every subset of a hand may be one),
#: and a Game may serve millions of matches.  Starting again only costs the
#: rebuilding of what is used next; actions compare by value, so nothing
#: that holds an older object notices.
MEMO_LIMIT = 1 << 17


class ActionMemo(dict[Any, Action]):
    """Shared Action objects of one option, by card id, seat or number: building a
    tuple per legal action per decision is a large part of enumerating."""

    def __init__(self, option: str, kind: str) -> None:
        super().__init__()
        self.option = option
        self.kind = kind

    def __missing__(self, key: Any) -> Action:
        if self.kind == "cards":          # keyed by a tuple of card ids: see add()
            raise KeyError(key)
        if self.kind == "number":
            if len(self) >= MEMO_LIMIT:
                self.clear()
            act = Action(self.option, (), None, key)
        else:
            act = Action(self.option, (key,), None) if self.kind == "card" else Action(self.option, (), key)
        self[key] = act
        return act

    def add(self, ids: tuple[int, ...]) -> Action:
        """The Action of the card ids ``ids`` (not yet in the memo), kept."""
        if len(self) >= MEMO_LIMIT:
            self.clear()
        act = self[ids] = Action(self.option, ids, None)
        return act


# ---- card lists through per-card tables ------------------------------------
# Plain loops in small functions, not comprehensions: on the Python this
# runs on (3.11), a comprehension is a function made and called each time it
# is reached, which costs more than the loop itself over a hand of cards
# (a seven-card sum: 330 ns as a comprehension, 213 ns here; one card: 261
# against 96).

def _sumt(table: list[Any], cards: Iterable[Card]) -> int:
    """``sum(cards.prop)``: ``table`` holds each card's value (none as 0)."""
    total = 0
    try:
        for c in cards:
            total += table[c.id]
    except TypeError:
        raise TypeError(not_summed([(c.name, table[c.id]) for c in cards])) from None
    return total


def _proj(table: list[Any], cards: Iterable[Card]) -> list[Any]:
    """``cards.prop``: ``table`` holds each card's value of the property."""
    out = []
    for c in cards:
        out.append(table[c.id])
    return out


def _filt(table: list[Any], cards: Iterable[Card]) -> list[Card]:
    """``cards where TEST`` for a TEST of card properties alone, tabled by card id."""
    out = []
    for c in cards:
        if table[c.id]:
            out.append(c)
    return out


class FailsFor:
    """The entry of a per-card table for a card its test failed on when the
    table was worked out: reading it as a test (or a split's index) fails
    the same way, so the rule fails where the test is written, as it would
    have without the table."""

    __slots__ = ("err",)

    def __init__(self, err: Exception) -> None:
        self.err = err

    def _raise(self, *_args: object) -> NoReturn:
        err = self.err
        try:
            again = type(err)(*err.args)
        except Exception:       # noqa: BLE001 - an error type made otherwise
            again = RuleRuntimeError(f"the rule failed: {err}")
        raise again

    __bool__ = __lt__ = __index__ = _raise


def _top_prop(cards: list[Card], prop: str) -> Any:
    """``top(zone).prop``: none when the zone is empty."""
    return cards[-1].props.get(prop) if cards else None


def _pv(m: Match, player: object, name: str, rule: str | None = None) -> Any:
    """``p.var`` for a name only players have: the player's variable (of a
    list of players, counted as :func:`get_attr_long` does)."""
    if type(player) is int:
        return m.pvars[player][name]
    return get_attr_long(m, player, name, rule)


def _cv(m: Match, card: Any, name: str, rule: str | None = None, inner: int = 0) -> Any:
    """``c.var`` for a card variable: the card's value in this match (a list
    of cards gives the list of their values, its steps counted as
    :func:`get_attr_long` counts them)."""
    t = type(card)
    if t is Card:
        return m.cvars[name][card.id]
    if t is list or t is tuple or t is Zone:
        _count_items(m, card, rule, inner)
        return runtime_growth._nest([_cv(m, c, name, rule, 1) for c in card])
    if card is None:
        return None
    return get_attr(m, card, name)


def _set_cv(m: RuleMatch, card: object, name: str, value: object, rule: str) -> None:
    """``c.var = v`` for a card variable: only a card has one."""
    if type(card) is not Card:
        raise RuleRuntimeError(f"card variable '{name}' belongs to a card, not to {card!r}", rule)
    m.cvars[name][card.id] = value


def _seat_eq(m: RuleMatch, value: Any) -> int | None:
    """The seat equal to ``value`` as ``seat == value`` finds it (``true``
    is seat 1), or None: what an event's field names, when it is not
    simply a seat's number (see Statements.add_seat_named)."""
    for seat in range(m.n):
        if seat == value:
            return seat
    return None


def _top1(cards: list[Card]) -> Card | None:
    """``top(zone)``: the top card, or none when the zone is empty."""
    return cards[-1] if cards else None


def _chosen(m: RuleMatch, action: Action, decision: Decision,
            projections: tuple[Callable[[list[Card]], Any], ...] = ()) -> Chosen:
    """The answer as effect text reads it.  Answers are kept per game, by
    who answered (``Game.answers[seat]``) and the action: actions are shared,
    and effect text never changes an answer or its card list, so every
    match may share them too.  ``projections`` work out what the rules read
    of the answer's cards (see ``CodeGen.chosen_projection``)."""
    memo: dict[Action, Chosen] = m.game.answers[decision.player]
    ch = memo.get(action)
    if ch is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        cards = [m.cards[i] for i in action.cards]
        ch = memo[action] = Chosen(action.option, cards, action.player, decision.player,
                                   tuple([f(cards) for f in projections]), action.number)
    return ch


def _idx(container: Any, key: object, rule: str) -> Any:
    try:
        return container[key]
    except (KeyError, IndexError, TypeError):
        raise RuleRuntimeError(f"no entry {key!r} in {container!r}", rule) from None


def _as_zone(value: object, rule: str) -> Zone:
    if type(value) is not Zone:
        raise RuleRuntimeError(f"expected a zone, got {value!r}", rule)
    return value


def _winners(m: RuleMatch, who: object) -> list[int]:
    """``win for EXPR``: one seat or a list of seats, in seat order."""
    # (anything else, a text say, is named as it is, not as "cards or a list" as _seq would)
    seats: list[object] = list(who) if isinstance(who, (list, tuple)) else [] if who is None else [who]
    players = [p for p in seats if type(p) is int and 0 <= p < m.n]
    if len(players) != len(seats):
        raise RuleRuntimeError(f"'win for' needs a player or a list of players (seats 0 to {m.n - 1}), "
                               f"got {who!r}")
    return sorted(set(players))


def _asked(m: RuleMatch, who: object, choice: str) -> int:
    """The seat a decision of ``choice`` is put to, from its ``who``: one
    of the match's seats (what asks anything else would reach the agents,
    the views and the learning environments as a player)."""
    if type(who) is not int or not 0 <= who < m.n:
        raise RuleRuntimeError(f"choice '{choice}' is put to {who!r}, which is no player: its 'who' must give "
                               f"a seat 0 to {m.n - 1}", f"choice '{choice}'")
    return who


def _next_player(m: RuleMatch, who: object) -> int:
    """``next player EXPR``: a seat of the match (a turn of any other value would not be one)."""
    if type(who) is not int or not 0 <= who < m.n:
        raise RuleRuntimeError(f"'next player' needs a player (seats 0 to {m.n - 1}), got {who!r}")
    return who


def _bad_number(option: str, value: object, lo: int, hi: int, rule: str) -> NoReturn:
    raise RuleRuntimeError(f"option '{option}' offers {value!r}, outside its declared range {lo}..{hi}", rule)


def _no_option(choice: str, rule: str, where: Where | None = None) -> NoReturn:
    raise RuleRuntimeError(
        f"choice '{choice}' has no legal option (give it an if_none effect that ends the turn "
        "or the game)", rule, where)


SAFE_BUILTINS = {"len": len, "min": min, "max": max, "list": list, "tuple": tuple, "bool": bool,
                 "range": range, "type": type, "set": set, "sorted": sorted, "True": True, "False": False, "None": None}

NAMESPACE = {
    "_tn": tuple.__new__, "_int": int, "_sum": sum, "_Action": Action, "_Decision": Decision, "_Card": Card,
    "_combinations": combinations, "_product": product, "_sets": _sets, "_picks": _picks,
    "_seq": _seq, "_ga": get_attr, "_gal": get_attr_long,
    "_chosen": _chosen, "_long": _long, "_idx": _idx, "_as_zone": _as_zone,
    "_no_option": _no_option, "_bad_number": _bad_number, "_winners": _winners, "_next_player": _next_player,
    "_asked": _asked, "_Goto": Goto,
    "_EndTurn": EndTurn, "_GameOver": GameOver,
    "_top1": _top1, "_seat_eq": _seat_eq,
    "_pv": _pv, "_cv": _cv, "_set_cv": _set_cv, "_top_prop": _top_prop, "_sumt": _sumt,
    "_proj": _proj, "_filt": _filt,
    "_ID": attrgetter("id"), "_map": map, "_Unhashable": TypeError,   # see pass_memo
    "_PLAIN": frozenset({int, str, bool, type(None)}),                 # see pass_kept
    "_Failed": Exception,       # see gen_windows
    **{f"_B_{name}": spec[0] for name, spec in BUILTINS.items()},
    **runtime_growth.NAMESPACE,
}
