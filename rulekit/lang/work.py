"""How much a rule may do between two counted steps.

The step budget stops a rule file that never ends: every loop turn, every
``call`` statement and every turn counts a step.  What an *expression*
does was not counted, and an expression can do a great deal: a procedure
that calls itself twice (``f(n - 1) + f(n - 1)``) calls itself 2^n times
within one step, a chain of procedures each calling the next twice does
the same without calling itself, and filters nested in filters over long
lists multiply their lengths (``l where size(l where size(l where ...)))``).
Within the budget such a rule would run for years.

So, worked out on the parse trees before anything is compiled (like
:mod:`rulekit.lang.calls` and :mod:`rulekit.lang.purity`), with the limits
in :mod:`rulekit.limits`:

- a call of a procedure that can reach its caller again (the two are on a
  cycle of calls) counts a step, wherever it is written;
- so does a call of a procedure that makes more than ``FREE_CALLS``
  calls, counting those its callees make (a counted call as one), and
  inside such a procedure every call of one that calls others: what runs
  between two counted steps is then a bounded number of calls per call
  written in the text;
- a filter whose test filters, goes through a list a rule built (``in``,
  ``sum``, a property of each element) or calls a procedure that filters
  counts a step for every element it tests (:func:`loops_within`), and a
  filter of a list a rule built (not the players, nor a zone's cards in a
  game of at most BOUNDED_CARDS cards: see :func:`bounded`) one for every
  ``ELEMENTS_PER_STEP`` elements, as do the built-ins that go through one
  (``rulekit.lang.names._long``, which tabled filters call too).

A step may then still go once through a list of up to MAX_BUILT_ITEMS
values (``x in l``), which is quick.  Calls of procedures off any cycle,
and filters of zones or of the players whose tests do none of the above,
cost nothing more.  What counts in the shipped games: the calls on a cycle
(an attack that may call another, a nullification that may be nullified)
and the filters whose tests call a procedure that filters.
"""
from __future__ import annotations

import attrs
from lark import Token, Tree

from ..limits import FREE_CALLS
from .expr_ir import (
    MANY,
    Attr,
    Builtin,
    CardVar,
    Chosen,
    Expr,
    Local,
    Op,
    ProcCall,
    Where,
    children,
    sum_of_cards,
    zones_of,
)
from .names import ITERATING, counts_steps
from .parser import subtrees

#: a game of at most this many cards has zones short enough to filter
#: within a step; in a larger one (up to MAX_CARDS) a zone counts as a list
#: a rule built (a filter of 10,000 cards at every step would take hours)
BOUNDED_CARDS = 512


@attrs.frozen
class Work:
    """What :func:`plan` found: which calls count a step, which procedures loop."""

    #: procedure -> the procedures on a cycle of calls with it (itself included if it calls itself)
    cycle: dict[str, frozenset[str]]
    #: procedures whose every call counts a step (they make more than FREE_CALLS calls)
    heavy: frozenset[str]
    #: procedures that may go through a list within one step: a filter of
    #: their own, or a call (that counts no step) of one that does
    looping: frozenset[str]
    #: procedures that call procedures
    calling: frozenset[str] = frozenset()
    #: procedure -> the calls it makes, counting those its callees make (a counted call as one)
    made: dict[str, int] = attrs.field(factory=dict)
    #: the game has at most BOUNDED_CARDS cards (see bounded)
    small_zones: bool = True

    def counts(self, caller: str | None, callee: str) -> bool:
        """Does a call of ``callee`` written in ``caller`` (a procedure's
        name, None for any other rule) count a step?"""
        if callee in self.heavy or (caller is not None and caller in self.cycle.get(callee, ())):
            return True
        # inside a procedure that makes many calls, every call that makes calls itself
        return caller in self.heavy and callee in self.calling

    def in_place(self, most_calls: int) -> frozenset[str]:
        """The procedures that make at most ``most_calls`` calls (counting
        their callees'): only those may be written in place of their calls,
        whose calls are then written in place in turn; a chain of procedures
        each calling the next twice would double the code at every link."""
        return frozenset(n for n, made in self.made.items() if made <= most_calls)


NONE = Work({}, frozenset(), frozenset())


def calls_in(tree: Tree[Token], procedures: set[str] | frozenset[str]) -> list[str]:
    """The procedures ``tree`` calls, once per call written (a statement,
    ``call NAME(..)`` or ``NAME(..)`` in an expression)."""
    out = []
    for sub in subtrees(tree):
        if sub.data in ("call_stmt", "call_proc", "call") and str(sub.children[0]) in procedures:
            out.append(str(sub.children[0]))
    return out


def _filters(tree: Tree[Token]) -> bool:
    """Does the text filter a list, or go through one with a built-in?
    (Its ``for`` and ``while`` loops count their steps.)"""
    for sub in subtrees(tree):
        if sub.data == "where_op":
            return True
        if sub.data == "call" and str(sub.children[0]) in ITERATING:
            return True
    return False


def _cycles(calls: dict[str, list[str]]) -> dict[str, frozenset[str]]:
    """Each procedure on a cycle of calls -> the procedures of its cycle (its
    strongly connected component: Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: dict[str, frozenset[str]] = {}
    for root in sorted(calls):
        if root in index:
            continue
        work = [(root, iter(calls[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            n, rest = work[-1]
            for c in rest:
                if c not in index:
                    index[c] = low[c] = len(index)
                    stack.append(c)
                    on_stack.add(c)
                    work.append((c, iter(calls[c])))
                    break
                if c in on_stack:
                    low[n] = min(low[n], index[c])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[n])
                if low[n] == index[n]:
                    part = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        part.append(m)
                        if m == n:
                            break
                    if len(part) > 1 or n in calls[n]:
                        for m in part:
                            out[m] = frozenset(part)
    return out


def _callees_first(calls: dict[str, list[str]], cycle: dict[str, frozenset[str]]) -> list[str]:
    """The procedures, each after those it calls (but those on a cycle with
    it), without recursion: a chain of calls may be thousands long."""
    order: list[str] = []
    done: set[str] = set()
    for root in sorted(calls):
        if root in done:
            continue
        done.add(root)
        stack = [(root, iter(calls[root]))]
        while stack:
            n, rest = stack[-1]
            for c in rest:
                if c not in done and n not in cycle.get(c, ()):
                    done.add(c)
                    stack.append((c, iter(calls[c])))
                    break
            else:
                stack.pop()
                order.append(n)
    return order


def plan(procedures: dict[str, Tree[Token] | None], cards: int = 0) -> Work:
    """Which calls count a step and which procedures loop (see the module docstring)."""
    names = frozenset(procedures)
    calls = {n: calls_in(t, names) if t is not None else [] for n, t in procedures.items()}
    cycle = _cycles(calls)
    made: dict[str, int] = {}            # calls a procedure makes, a counted call as one
    for n in _callees_first(calls, cycle):
        total = 0
        for c in calls[n]:
            inner = made.get(c, 0)
            counted = n in cycle.get(c, ()) or inner > FREE_CALLS
            total += 1 if counted else 1 + inner
        made[n] = total
    heavy = {n for n, total in made.items() if total > FREE_CALLS}
    looping = {n for n, t in procedures.items() if t is not None and _filters(t)}
    callers: dict[str, set[str]] = {}
    for n, called in calls.items():
        for c in called:
            if c not in heavy and n not in cycle.get(c, ()):    # (a counted call is counted)
                callers.setdefault(c, set()).add(n)
    todo = list(looping)
    while todo:             # and those calling one by a call that counts no step
        for n in callers.get(todo.pop(), ()):
            if n not in looping:
                looping.add(n)
                todo.append(n)
    return Work(cycle, frozenset(heavy), frozenset(looping), frozenset(n for n, c in calls.items() if c), made,
                cards <= BOUNDED_CARDS)


def loops_within(node: Expr, work: Work, caller: str | None) -> bool:
    """May the expression ``node`` (a filter's test) go through a list a rule
    built, filter, or call a procedure that filters?  Then its filter
    counts a step for every element it tests: one test may take as long as
    a whole filter.  (Going through a zone or the players is as long as the
    game lets them be; a call that counts a step of its own is counted.)"""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, Where):
            return True
        if isinstance(n, Builtin) and n.name in ITERATING and not all(bounded(a, work) for a in n.args):
            return True
        if isinstance(n, (Attr, CardVar)) and n.base.kind in MANY and not bounded(n.base, work):
            return True                      # a property of every element
        if isinstance(n, Op) and n.form == "in" and not bounded(n.args[1], work):
            return True
        if isinstance(n, ProcCall) and n.name in work.looping and not work.counts(caller, n.name):
            return True
        todo.extend(children(n))
    return False


def may_count(node: Expr, work: Work) -> bool:
    """May evaluating the expression ``node`` count a step?  When it calls a
    procedure (which may count its own), goes through a list with a
    built-in (which counts a long one), filters a list that is not
    :func:`bounded` or with a test that loops, or reads a card property or
    variable of every card of a list that is not bounded.  (A value read
    from outside the rules puts the count back only then, or when the
    lowering wrote a read of ``.name`` of a value that may be a built list:
    see CodeGen.expression.)"""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ProcCall):
            return True
        if isinstance(n, Builtin) and counts_steps(n.name, len(n.args)):
            summed = sum_of_cards(n) if n.name == "sum" else None
            # (a sum of a card property reads a table: an answer's is worked out once, a zone's is free)
            if summed is None or not (isinstance(summed.base, Chosen) or bounded(summed.base, work)):
                return True
        if isinstance(n, Where) and not (bounded(n.seq, work) and not loops_within(n.test, work, None)):
            return True
        if isinstance(n, (Attr, CardVar)) and n.base.kind in ("cards", "zone") and not isinstance(n.base, Chosen) \
                and not bounded(n.base, work):          # (a property or card variable of each card)
            return True
        todo.extend(children(n))
    return False


def bounded(seq: Expr, work: Work) -> bool:
    """Is ``seq`` short enough to go through within a step: the players, a
    zone's cards (some of them) or an answer's (a heuristic's and a
    ``require``'s ``chosen`` too) in a game of at most BOUNDED_CARDS cards?
    A list a rule built may hold 100,000 values."""
    if seq.kind == "seats":
        return True
    if isinstance(seq, Chosen) or (isinstance(seq, Local) and seq.kind == "cards"):
        return work.small_zones
    return work.small_zones and zones_of(seq) is not None
