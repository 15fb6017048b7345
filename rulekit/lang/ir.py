"""The intermediate form between effect text's parse tree and Python source.

Why an intermediate form: the compiler's optimisations (counting steps,
dealing a pile into several in one pass...) look at what has been written
so far.  Done on emitted text they become string surgery that a reader
cannot check; done on these nodes they are small functions over lists of
statements (see :mod:`rulekit.lang.passes`), and one printer
(:mod:`rulekit.lang.printer`) is the only place that writes Python.

Statements are nodes.  Expressions are trees of their own while they are
written and passed over (:mod:`rulekit.lang.expr_ir`); a statement holds
an expression printed as a :class:`Code`: its Python source with the facts
the compiler knows about it (its kind, whether it names a zone
directly...), so no statement pass needs to read source text.
Every statement keeps its :data:`Origin`, the place in the rule file it
was written from, which becomes the line map ``rulekit show-code`` and
run-time errors use.
"""
from __future__ import annotations

from typing import Any, Union

import attrs

#: (file position or None, rule, calls of procedures written in place): see CodeGen.via
Origin = tuple[Any, str, tuple[Any, ...]]


@attrs.define(slots=True, hash=False)     # never changed once made (a frozen class's __init__ costs 3x)
class Code:
    """An expression: its source and what is known of it statically.

    ``kind`` is one of "zone", "cards", "card", "seats", "int", "list",
    "bool", "str", "event", "any".  ``shared`` marks a shared zone read
    directly (``GZ[i]``): only such a zone can be dealt from in one pass.
    ``plain`` marks a value that costs nothing and cannot fail (a local, a
    constant, ``current``): such an argument may be substituted into an
    inlined expression.  ``number`` is the value of a number literal.
    ``outlined`` names the filter function a ``where`` was written to.
    ``table`` names the per-card table of a test of card properties alone
    (the source is then ``TABLE[L_it.id]``): see Expressions.filter_test.
    ``local`` marks a local of the generated function read directly.
    Written by the compiler's expression writer, read by the statement
    writer and the passes: so no one reads a fact back out of source text.
    """

    src: str
    kind: str = "any"
    shared: bool = False
    plain: bool = False
    number: int | None = None
    outlined: str | None = None
    table: str | None = None
    local: bool = False
    #: for a filter's test: the caller's locals and the hoisted fields it reads
    reads: frozenset[str] = frozenset()
    hoists: frozenset[str] = frozenset()
    #: for a filter's test: the locals its function works out before its loop,
    #: and their sources (see pass_hoist)
    pre: tuple[tuple[str, str], ...] = ()
    #: for a filter's test: it may go through a list itself (see work.loops_within)
    loops: bool = False
    #: for a filter's test: the card property it reads its card by, whose
    #: answers its function keeps per value (see pass_keyed)
    key: str | None = None

    def __str__(self) -> str:
        return self.src


@attrs.define
class Stmt:
    """A statement; ``origin`` is where in the rule file it came from."""

    origin: Origin = attrs.field(kw_only=True)


@attrs.define
class Assign(Stmt):
    """``TARGET OP VALUE``; ``op`` is "=" but for an event's field, changed in place."""

    target: str
    value: str
    op: str = "="


@attrs.define
class SetVar(Stmt):
    """A write of a declared variable, ``VALUE`` already the whole new value:

    - ``scope`` "match": ``V['NAME'] = VALUE``;
    - "player": ``m.pvars[OWNER]['NAME'] = VALUE`` (``owner`` the seat);
    - "card": ``_set_cv(m, OWNER, 'NAME', VALUE, RULE)`` (``owner`` the card;
      the helper checks the value and keeps the card's table).

    A node of its own so that a pass which must know every variable write
    (change tracking) matches it rather than reading printed text.
    """

    scope: str
    name: str
    value: str
    owner: Code | None = None
    rule: str | None = None


@attrs.define
class ResetVars(Stmt):
    """``m.reset_vars(WHEN)``: set back the variables declared ``reset: WHEN``."""

    when: str


@attrs.define
class Do(Stmt):
    """An expression statement (a call)."""

    call: str


@attrs.define
class YieldFrom(Stmt):
    """``yield from CALL``: a call of a script that may stop for a decision."""

    call: str


@attrs.define
class Decide(Stmt):
    """``TARGET = yield DECISION``: stop the match at a decision."""

    target: str
    decision: str


@attrs.define
class Return(Stmt):
    value: str | None = None


@attrs.define
class Raise(Stmt):
    exc: str


@attrs.define
class Pass(Stmt):
    pass


@attrs.define
class Break(Stmt):
    pass


@attrs.define
class Continue(Stmt):
    pass


@attrs.define
class EmptyLists(Stmt):
    """``a = []; b = []``: the pools an enumerator fills in one loop."""

    names: list[str]


@attrs.define
class Tick(Stmt):
    """Count ``steps`` steps and stop a rule over its budget (``rule``
    None: the turn itself, named by the match)."""

    steps: int
    rule: str | None


@attrs.define
class MoveWhere(Stmt):
    """``move [shuffled](ZONE where TEST) to DEST`` with a tabled test."""

    zone: Code
    table: str
    dest: Code
    bottom: bool
    shuffle: bool


@attrs.define
class MoveSplit(Stmt):
    """One pass over ``zone`` filing each card under the first test of
    ``tables`` it passes, to that test's target (see pass_splits)."""

    zone: Code
    table: str
    tables: list[str]
    targets: list[tuple[Code, bool, bool]]     # (destination, bottom, shuffled)


@attrs.define
class If(Stmt):
    """``if``/``elif`` branches and an optional ``else``.  ``one_line``: a
    single branch, printed after the colon while its body is one simple
    statement (see printer.statements)."""

    branches: list[tuple[str, list[Stmt]]]
    orelse: list[Stmt] | None = None
    one_line: bool = False


@attrs.define
class For(Stmt):
    """``for TARGET in ITER``.  ``counted``: the rule to name past the
    budget, when the loop counts a step for each element of ITER before its
    first turn rather than a ``Tick`` in the body each time round (one count
    for a loop over eight seats instead of eight).  ``one_line``: printed
    after the colon while the body is one simple statement."""

    target: str
    iter: str
    body: list[Stmt]
    one_line: bool = False
    counted: str | None = None


@attrs.define
class While(Stmt):
    cond: str
    body: list[Stmt]


@attrs.define
class Try(Stmt):
    """``try`` with ``except`` handlers: (the clause after ``except``, body),
    and what ``finally`` does."""

    body: list[Stmt]
    handlers: list[tuple[str, list[Stmt]]]
    final: list[Stmt] = attrs.field(factory=list)



@attrs.define
class Function:
    """One generated function: ``def NAME(m, L_param...)``, the match's
    fields it reads often bound to locals first (``hoist``), then the body."""

    name: str
    params: tuple[str, ...]
    rule: str
    body: list[Stmt] = attrs.field(factory=list)
    hoist: set[str] = attrs.field(factory=set)
    #: the current player is the same from the function's start to its end: every
    #: function but the flow's, which goes from turn to turn (its phases' reads of the
    #: current player's variables cannot be bound once)
    current_fixed: bool = True


@attrs.define
class Filter:
    """``SEQ where TEST`` written out as a module-level function (see
    CodeGen.outline_where): its test, the caller's locals it reads, what
    it works out once before its loop, and whether it answers "any
    passes?" rather than listing those that pass."""

    name: str
    test: str
    free: list[str]
    hoist: list[str]
    origin: Origin
    mode: str = "list"
    #: locals worked out before the loop, and their sources (see pass_hoist)
    pre: tuple[tuple[str, str], ...] = ()
    #: the steps its elements count (see work): "each" a step for every
    #: element (its test may loop), "many" one for every ELEMENTS_PER_STEP of
    #: a long list, "" none (a zone's cards, the players: a size the game bounds)
    charge: str = ""
    #: the card property whose values the test is asked once each for (see pass_keyed)
    key: str | None = None


@attrs.define
class TestFunction:
    """The test of a tabled filter, run on every card when the module is built."""

    name: str
    test: str


Chunk = Union[Function, Filter, TestFunction]


def blocks(stmt: Stmt) -> list[list[Stmt]]:
    """The statement lists directly inside ``stmt`` (none for a simple one)."""
    if isinstance(stmt, If):
        return [body for _, body in stmt.branches] + ([stmt.orelse] if stmt.orelse is not None else [])
    if isinstance(stmt, (For, While)):
        return [stmt.body]
    if isinstance(stmt, Try):
        return [stmt.body] + [body for _, body in stmt.handlers] + ([stmt.final] if stmt.final else [])
    return []


def every_block(body: list[Stmt]) -> list[list[Stmt]]:
    """``body`` and every statement list nested in it, outermost first."""
    out = [body]
    i = 0
    while i < len(out):
        for stmt in out[i]:
            out.extend(blocks(stmt))
        i += 1
    return out
