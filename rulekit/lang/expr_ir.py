"""Expressions of the intermediate form: trees of typed nodes.

Why trees rather than source text: which Python an expression becomes
depends on what its parts are (a zone's cards are ``Z.cards``, a card's
property ``c.props.get(p)``, a seat's variable ``m.pvars[s][v]``...).  When
an expression is a tree of nodes whose kinds are worked out from their
parts, a pass may replace a part (a procedure's call by its expression with
the arguments put in for its parameters: :mod:`rulekit.lang.pass_inline`; a
test of card properties by a table: :mod:`rulekit.lang.pass_tables`) and
the printer (:mod:`rulekit.lang.expr_lower`) still picks the direct form
for what the part now is.

The expression writer (:mod:`rulekit.lang.gen_expressions`) builds these
nodes from the parse tree, resolving names and reporting errors; nothing
here reads source text.  No node is changed once made: a pass builds new
nodes.  They are not attrs *frozen* classes only because a frozen class's
``__init__`` costs three times as much, and a load builds thousands.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Union

import attrs

#: containers of several values: a zone, a list of cards, of seats, of anything
MANY = ("zone", "list", "cards", "seats")


@attrs.define(hash=False)
class Lit:
    """A constant or a name resolved to a fixed source: ``3``, ``'x'``,
    ``V['score']``, ``GZ[2]``, ``m.current``, a table's constant.

    ``hoist`` is the match field (``V``, ``GZ``, ``CH``) read through a local
    bound at the function's start; ``shared`` marks a shared zone read
    directly; ``fixed`` a value that never changes during a match (a
    literal, a table of the file); ``plain`` a value that costs nothing and
    cannot fail."""

    src: str
    kind: str = "any"
    plain: bool = False
    number: int | None = None
    shared: bool = False
    hoist: str | None = None
    fixed: bool = False
    #: a shared zone's definition index (see :func:`zones_of`)
    zone: int | None = None
    #: what a match variable or an option read is: ("vars" | "options", its name)
    named: tuple[str, str] | None = None


@attrs.define(hash=False)
class Local:
    """A name bound by the text (a parameter, ``let``, ``for``, ``it``):
    ``py`` is its Python name."""

    name: str
    py: str
    kind: str = "any"
    plain = True


@attrs.define(hash=False)
class Chosen:
    """A chosen answer's field: ``CHOICE.cards``, ``CHOICE.player``..."""

    choice: str
    field: str
    plain = False

    @property
    def kind(self) -> str:
        return "cards" if self.field == "cards" else "any"


@attrs.define(hash=False)
class Attr:
    """``BASE.NAME``: a card's property, a player's variable, an event's
    field, or each of many cards' property; which one is read depends on
    the base's kind, looked at when printed.  ``card_prop``: some card has
    the property (so a shared zone's top card may read it from a table)."""

    base: Expr
    attr: str
    card_prop: bool = False
    player_var: bool = False
    #: only a player has it (not a card, an answer or an event): read as a player's variable
    player_only: bool = False
    plain = False

    @property
    def kind(self) -> str:
        b = self.base
        if top_zone(self) is not None:
            return "any"
        if b.kind == "event":
            return "any"
        if isinstance(b, Chosen) and b.field == "cards":
            return "list"
        return "list" if b.kind in MANY else "any"


@attrs.define(hash=False)
class CardVar:
    """``BASE.VAR`` for a declared card variable."""

    base: Expr
    attr: str
    plain = False

    @property
    def kind(self) -> str:
        return "list" if self.base.kind in MANY else "any"


@attrs.define(hash=False)
class Index:
    """``BASE[KEY]``; ``checked``: a table indexed by the player count that
    has an entry for every count (no run-time check needed)."""

    base: Expr
    key: Expr
    checked: bool = False
    kind = "any"
    plain = False


@attrs.define(hash=False)
class ZoneOf:
    """A player's zone: ``PZ[index][player]``."""

    index: int
    player: Expr
    kind = "zone"
    plain = False


@attrs.define(hash=False)
class Builtin:
    """A call of a built-in function of the language (``size``, ``top``,
    ``join``, ``sum``...)."""

    name: str
    args: tuple[Expr, ...]
    plain = False

    @property
    def kind(self) -> str:
        name, args = self.name, self.args
        k0 = args[0].kind if args else "any"
        if name == "sum" and sum_of_cards(self) is not None:
            return "int"
        if name in ("any", "empty") and isinstance(args[0], Where):
            return "bool"
        if k0 in MANY and name in ("size", "count", "any", "empty"):
            return "int" if name in ("size", "count") else "bool"
        if name in ("min", "max") and len(args) > 1:
            return "int"
        if name in ("next", "seat_distance"):
            return "int"
        if name == "join":
            return "cards" if all(a.kind in ("zone", "cards") for a in args) else "list"
        if name == "seats_from":
            return "seats"
        if name == "room" and k0 == "zone":
            return "int"
        many = "cards" if k0 in ("zone", "cards") else "list"
        return {"top": "any" if len(args) == 1 else many, "bottom": "any" if len(args) == 1 else many,
                "shuffled": many, "unique": many, "size": "int", "count": "int", "sum": "int",
                "any": "bool", "empty": "bool"}.get(name, "any")


@attrs.define(hash=False)
class ProcCall:
    """A call of a procedure.  ``yields``: it may stop for a decision, so
    it is called as ``(yield from ...)``."""

    name: str
    fn: str
    args: tuple[Expr, ...]
    yields: bool = False
    kind = "any"
    plain = False


@attrs.define(hash=False)
class Inlined:
    """A procedure's expression written in place of its call (its
    parameters already replaced by the arguments)."""

    body: Expr
    plain = False

    @property
    def kind(self) -> str:
        return self.body.kind


@attrs.define(hash=False)
class Op:
    """An operator: ``form`` is one of "binary" (``op`` the operator),
    "is" (``op`` "is" / "is not", against None), "in" (``op`` "in" / "not
    in"), "and", "or", "not", "neg", "ternary" (value, test, else) and
    "list" (a list display)."""

    form: str
    op: str
    args: tuple[Expr, ...]
    kind: str = "any"
    plain = False


@attrs.define(hash=False)
class Where:
    """``SEQ where TEST``: ``test`` reads ``it`` (an element of ``seq`` of
    kind ``elem``).  ``tabled``: the test reads only card properties and
    constants, so it is worked out for every card when the file loads and
    read from a table (set by :mod:`rulekit.lang.pass_tables`)."""

    seq: Expr
    test: Expr
    elem: str
    tabled: bool = False
    plain = False

    @property
    def kind(self) -> str:
        return {"card": "cards", "int": "seats"}.get(self.elem, "list")


Expr = Union[Lit, Local, Chosen, Attr, CardVar, Index, ZoneOf, Builtin, ProcCall, Inlined, Op, Where]

#: written where an error was reported: the text does not compile anyway
NONE = Lit("None", "any")


def top_zone(node: Attr) -> Expr | None:
    """The zone of ``top(ZONE).PROP`` when it reads the top card's property
    in place: a shared zone's (from the property's table) or any zone's."""
    b = node.base
    if isinstance(b, Builtin) and b.name == "top" and len(b.args) == 1:
        z = b.args[0]
        if (isinstance(z, Lit) and z.shared and node.card_prop) or z.kind == "zone":
            return z
    return None


def sum_of_cards(node: Builtin) -> Attr | None:
    """The ``CARDS.PROP`` of ``sum(CARDS.PROP)`` when it is summed from a
    per-card table (or from a chosen answer's cards, worked out once)."""
    a = node.args[0] if node.args else None
    if not isinstance(a, Attr):
        return None
    b = a.base
    if isinstance(b, Chosen) and b.field == "cards" and a.card_prop:
        return a
    return a if b.kind in ("cards", "zone") else None


def unwrapped(node: Expr) -> Expr:
    """What a procedure written in place stands for (``node`` itself for
    anything else): a pass that asks what a part is looks through it."""
    while isinstance(node, Inlined):
        node = node.body
    return node


def children(node: Expr) -> tuple[Expr, ...]:
    """The expressions directly inside ``node``."""
    if isinstance(node, (Attr, CardVar)):
        return (node.base,)
    if isinstance(node, (Builtin, ProcCall, Op)):
        return node.args
    if isinstance(node, Index):
        return (node.base, node.key)
    if isinstance(node, ZoneOf):
        return (node.player,)
    if isinstance(node, Inlined):
        return (node.body,)
    if isinstance(node, Where):
        return (node.seq, node.test)
    return ()


def map_parts(node: Expr, fn: Callable[[Expr], Expr]) -> Expr:
    """``node`` with ``fn`` applied to each of its :func:`children`: the
    same node when ``fn`` returned every part as it was (a pass returns the
    very part it did not change), so an untouched tree is not copied."""
    if isinstance(node, (Attr, CardVar)):
        base = fn(node.base)
        return node if base is node.base else attrs.evolve(node, base=base)
    if isinstance(node, (Builtin, ProcCall, Op)):
        args = tuple(fn(a) for a in node.args)
        return node if all(a is b for a, b in zip(args, node.args)) else attrs.evolve(node, args=args)
    if isinstance(node, Index):
        base, key = fn(node.base), fn(node.key)
        return node if base is node.base and key is node.key else Index(base, key, node.checked)
    if isinstance(node, ZoneOf):
        player = fn(node.player)
        return node if player is node.player else ZoneOf(node.index, player)
    if isinstance(node, Inlined):
        body = fn(node.body)
        return node if body is node.body else Inlined(body)
    if isinstance(node, Where):
        seq, test = fn(node.seq), fn(node.test)
        return node if seq is node.seq and test is node.test else Where(seq, test, node.elem, node.tabled)
    return node


#: built-ins whose cards are some of their first argument's
_SOME_OF_FIRST = ("top", "bottom", "shuffled", "unique")


def zones_of(node: Expr, params: dict[str, frozenset[int] | None] | None = None,
             procs: Callable[[str], frozenset[int] | None] | None = None) -> frozenset[int] | None:
    """The zones (their definitions' indices) the cards of ``node`` can only
    come from: a zone, a filter of one, some of its cards, several joined,
    either of two, none at all; None when they may come from anything
    else (a list passed in or a procedure's result, unless ``params`` or
    ``procs`` say; an answer's cards; a ``let`` name).  What a choice's
    option may ever offer follows (see :class:`rulekit.model.OptionDef`).
    ``params``: the zones each parameter's arguments come from, where known
    (a choice's parameter, from every ``choose`` that passes it); ``procs``:
    the zones a procedure's results come from, where known (from its
    ``return`` statements)."""
    if isinstance(node, Local):
        return None if params is None else params.get(node.name)
    if isinstance(node, ProcCall):
        return None if procs is None else procs(node.name)
    if isinstance(node, ZoneOf):
        return frozenset((node.index,))
    if isinstance(node, Lit):
        return None if node.zone is None else frozenset((node.zone,))
    if isinstance(node, Where):
        return zones_of(node.seq, params, procs)
    if isinstance(node, Inlined):
        return zones_of(node.body, None, procs)     # (its own parameters: not the caller's)
    if isinstance(node, Builtin) and node.name in _SOME_OF_FIRST and node.args:
        return zones_of(node.args[0], params, procs)
    if isinstance(node, Op) and node.form == "list" and not node.args:
        return frozenset()                  # no cards (a hook a game leaves empty)
    parts: tuple[Expr, ...] = ()
    if isinstance(node, Builtin) and node.name == "join":
        parts = node.args
    elif isinstance(node, Op) and node.form == "ternary":
        parts = (node.args[0], node.args[2])
    found: set[int] = set()
    for part in parts:
        zones = zones_of(part, params, procs)
        if zones is None:
            return None
        found |= zones
    return frozenset(found) if parts else None
