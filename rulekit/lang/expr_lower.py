"""Printing expression trees as Python source.

Each node of :mod:`rulekit.lang.expr_ir` becomes a
:class:`~rulekit.lang.ir.Code`: its source, with the facts the statement
writer and the passes read.  The form is picked here, from the kinds of
the node's parts as they are now (after the passes): a zone's list rather
than the zone, a card's property table rather than a call, a seat's
variable read directly.  What a printed expression needs of its function
is noted as it is printed: the match fields bound to locals first
(``hoist``), the locals a filter's test reads (``read``), the filters
written out as functions of their own.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..limits import MAX_BUILT_ITEMS, MAX_INTEGER, MAX_PLAYERS
from . import pass_hoist, pass_keyed, work
from .expr_ir import (
    MANY,
    Attr,
    Builtin,
    CardVar,
    Chosen,
    Expr,
    Index,
    Inlined,
    Lit,
    Local,
    Op,
    ProcCall,
    Where,
    ZoneOf,
    sum_of_cards,
    top_zone,
    unwrapped,
)
from .fn_names import test_table
from .ir import Code
from .name_checks import NameChecks
from .names import IN_PLACE_METHODS


class Lowering(NameChecks):
    """``lower(node)`` is the :class:`~rulekit.lang.ir.Code` of an expression tree."""

    def lower(self, node: Expr) -> Code:
        return _PRINTERS[type(node)](self, node)

    def seq_of(self, code: Code) -> str:
        """Source for iterating ``code`` (a zone's list, a list as it is)."""
        if code.kind == "zone":
            return f"{code}.cards"
        if code.kind in ("list", "cards", "seats"):
            return code.src
        return f"_seq({code})"

    def _l_Lit(self, node: Lit) -> Code:
        if node.hoist is not None:
            self.hoist(node.hoist)
        return Code(node.src, node.kind, shared=node.shared, plain=node.plain, number=node.number)

    def _l_Local(self, node: Local) -> Code:
        self.read(node.py)
        return Code(node.py, node.kind, plain=True, local=True)

    def _l_Chosen(self, node: Chosen) -> Code:
        self.hoist("CH")
        return Code(f"CH[{node.choice!r}].{node.field}", node.kind)

    def _l_Attr(self, node: Attr) -> Code:
        attr = node.attr
        zone = top_zone(node)
        if zone is not None:
            z = self.lower(zone)
            if z.shared and node.card_prop:
                # a shared zone's top card, read in place from the property's table
                return Code(f"({self.prop_table(attr)}[{z}.cards[-1].id] if {z}.cards else None)", "any")
            return Code(f"_top_prop({z}.cards, {attr!r})", "any")
        b = node.base
        if isinstance(b, Chosen) and b.field == "cards":
            read = f"CH[{b.choice!r}].pj[{self.chosen_projection('list', attr)}]"
            return Code(f"_nest({read})" if attr in self.names.nested_props else read, "list")
        bcode = self.lower(b)
        base, kind = bcode.src, bcode.kind
        if kind == "event":
            return Code(f"{base}.get({attr!r})", "any")
        if kind in ("cards", "zone"):
            # a card's properties never change: read them from a per-card table
            seq = f"{base}.cards" if kind == "zone" else base
            if not work.bounded(b, self.work):     # (a longer list counts its steps: see work)
                seq = f"_long(m, {seq}, {self.cx.rule!r})"
            projected = f"_proj({self.prop_table(attr)}, {seq})"
            # (a property that is a list, of the same card many times, may make a long list of lists)
            return Code(f"_nest({projected})" if attr in self.names.nested_props else projected, "list")
        if kind == "seats":
            return Code(f"_ga(m, {base}, {attr!r})", "list")
        if kind == "card":
            return Code(f"{base}.props.get({attr!r})", "any")
        if kind == "int" and node.player_var:
            if base == "m.current" and self.function.current_fixed:
                # the current player's variables, looked up once for the function (choices
                # and skills read several: a play phase's choice asks each skill of the player)
                self.hoist("CP")
                return Code(f"CP[{attr!r}]", "any")
            return Code(f"m.pvars[{base}][{attr!r}]", "any")
        # what is left may be a list a rule built, as long as MAX_BUILT_ITEMS: read through a
        # helper that counts its steps (see runtime_helpers.get_attr_long), which a reader puts back
        rule = self.cx.rule
        self.long_reads = True
        if kind == "list":
            return Code(f"_gal(m, {base}, {attr!r}, {rule!r})", "list")
        if node.player_only:
            # only a player has it: read the player's variable directly (a
            # non-player base fails with a clear message through _pv), a seat without a call
            if bcode.plain:          # (read twice: a local or a constant)
                return Code(f"(m.pvars[{base}][{attr!r}] if type({base}) is _int "
                            f"else _pv(m, {base}, {attr!r}, {rule!r}))", "any")
            return Code(f"_pv(m, {base}, {attr!r}, {rule!r})", "any")
        if bcode.plain:
            card = (f"({base}.props.get({attr!r}) if type({base}) is _Card "
                    f"else _gal(m, {base}, {attr!r}, {rule!r}))")
            if node.player_var:     # a player's, or a card's: test for a player first
                return Code(f"(m.pvars[{base}][{attr!r}] if type({base}) is _int else {card})", "any")
            return Code(card, "any")
        first = self._first_of_plain(b)
        if first is not None and node.card_prop:
            # first(cards).PROP of a local (a parameter given an answer's cards): read in place
            # when it is a list whose first element is a card, the usual case, else as before
            return Code(f"({first}[0].props.get({attr!r}) if type({first}) is list and {first} and "
                        f"type({first}[0]) is _Card else _gal(m, {base}, {attr!r}, {rule!r}))", "any")
        return Code(f"_gal(m, {base}, {attr!r}, {rule!r})", "any")

    def _first_of_plain(self, node: Expr) -> str | None:
        """The source of X in ``first(X)`` when X is a local or a constant
        (read three times in place of a call), else None.  (Asked of the
        tree before X is written again: a filter would be written twice.)"""
        if not (isinstance(node, Builtin) and node.name == "first" and len(node.args) == 1
                and node.args[0].plain):
            return None
        return self.lower(node.args[0]).src

    def _l_CardVar(self, node: CardVar) -> Code:
        """The match's value of a card variable for the card (a name is a
        card variable or a property, never both), or the list of values of
        a list of cards."""
        bcode = self.lower(node.base)
        base, kind, attr = bcode.src, bcode.kind, node.attr
        if kind == "card":
            return Code(f"m.cvars[{attr!r}][{base}.id]", "any")
        if kind in ("cards", "zone"):
            seq = f"{base}.cards" if kind == "zone" else base
            if not work.bounded(node.base, self.work):     # (a longer list counts its steps: see work)
                seq = f"_long(m, {seq}, {self.cx.rule!r})"
            return Code(f"_nest([m.cvars[{attr!r}][_c.id] for _c in {seq}])", "list")
        self.long_reads = True
        return Code(f"_cv(m, {base}, {attr!r}, {self.cx.rule!r})", node.kind)

    def _l_Index(self, node: Index) -> Code:
        base, key = self.lower(node.base).src, self.lower(node.key).src
        if node.checked:
            return Code(f"{base}[{key}]", "any")
        return Code(f"_idx({base}, {key}, {self.cx.rule!r})", "any")

    def _l_ZoneOf(self, node: ZoneOf) -> Code:
        self.hoist("PZ")
        return Code(f"PZ[{node.index}][{self.lower(node.player).src}]", "zone")

    def _l_Builtin(self, node: Builtin) -> Code:
        name = node.name
        summed = sum_of_cards(node) if name == "sum" else None
        if summed is not None:
            b, prop = summed.base, summed.attr
            if isinstance(b, Chosen) and b.field == "cards" and summed.card_prop:
                return Code(f"CH[{b.choice!r}].pj[{self.chosen_projection('sum', prop)}]", "int")
            # a table of the property by card id (none counts 0), read in one loop; a list
            # longer than the game's zones may be counts its steps as sum() would (see work)
            table = self.sum_table(prop)
            seq = self.seq_of(self.lower(b))
            if not work.bounded(b, self.work):
                seq = f"_long(m, {seq}, {self.cx.rule!r})"
            return Code(f"_sumt({table}, {seq})", "int")
        joined = _join_parts(node.args[0]) if name in _SIZES and node.args else None
        if joined is not None and all(a.kind in MANY for a in joined):
            # the size of a join of zones and lists is the sum of theirs: no list is built
            parts = [self.lower(a) for a in joined]
            if name in ("any", "empty") and len(parts) > 1 and all(a.kind == "zone" or a.plain for a in parts):
                # whether any part holds something: stop at the first that does (a zone's
                # list, a local: reading one changes nothing, so the rest may go unread)
                held = " or ".join(f"{a}.cards" if a.kind == "zone" else a.src for a in parts)
                return Code(f"bool({held})" if name == "any" else f"(not ({held}))", "bool")
            n = " + ".join(f"len({a}.cards)" if a.kind == "zone" else f"len({a})" for a in parts)
            return self._sized(name, f"({n or 0})")
        args = [self.lower(a) for a in node.args]
        srcs = [a.src for a in args]
        kind0 = args[0].kind if args else "any"
        if name in ("any", "empty") and isinstance(node.args[0], Where) and args[0].outlined is not None:
            # any(X where TEST): stop at the first element that passes
            found = self.outline_any(args[0])
            return Code(found, "bool") if name == "any" else Code(f"(not {found})", "bool")
        if kind0 in MANY and name in _SIZES:
            # a zone's list, not the zone: len(zone) would call Zone.__len__ in Python
            return self._sized(name, f"len({srcs[0]}.cards)" if kind0 == "zone" else f"len({srcs[0]})")
        if name in ("min", "max") and len(srcs) > 1:
            return Code(f"{name}({', '.join(srcs)})", "int")
        if name == "next" and not self.names.eliminates and (kind0 == "int" or args[0].plain):
            # without eliminations the next seat is arithmetic; what may be no seat is asked
            # first, and goes to the method, which says what it was given instead
            step = f"(({srcs[0]}) + 1) % m.n"
            return Code(step if kind0 == "int" else f"({step} if type({srcs[0]}) is _int "
                        f"else m.next_seat({srcs[0]}))", "int")
        if name == "join":
            # zones, list displays and seats only (sizes the game bounds; a variable's list
            # joined to itself doubles, so b_join counts what it builds)
            if all(a.kind == "zone" or _bounded_list(n) for a, n in zip(args, node.args)):
                # lists and zones only: one list display, no call (a new list,
                # as effect text never changes one another name holds)
                listed = ", ".join(f"*{a}.cards" if a.kind == "zone" else f"*{a}" for a in args)
                nested = any(may_nest(unwrapped(n)) for n in node.args)
                return Code(f"_nest([{listed}])" if nested else f"[{listed}]", node.kind)
            return Code(f"_B_join(m, {', '.join(srcs)})", node.kind)
        in_place = IN_PLACE_METHODS.get(name)
        if in_place is not None and (in_place.takes != "zone" or kind0 == "zone"):
            return Code(f"m.{in_place.method}({', '.join(srcs)})", in_place.gives)
        if name == "top" and len(srcs) == 1 and kind0 == "zone":
            if args[0].shared:          # a shared zone (a constant's item): read in place, no call
                return Code(f"({srcs[0]}.cards[-1] if {srcs[0]}.cards else None)", "any")
            return Code(f"_top1({srcs[0]}.cards)", "any")
        return Code(f"_B_{name}(m, {', '.join(srcs)})", node.kind)

    @staticmethod
    def _sized(name: str, n: str) -> Code:
        """``size``/``count`` (``n``), ``any`` or ``empty`` of a size."""
        if name == "any":
            return Code(f"({n} > 0)", "bool")
        if name == "empty":
            return Code(f"({n} == 0)", "bool")
        return Code(n, "int")

    def _l_ProcCall(self, node: ProcCall) -> Code:
        call = f"{node.fn}(m{''.join(', ' + self.lower(a).src for a in node.args)})"
        if node.yields:
            call = f"(yield from {call})"
        if self.work.counts(self.writing_proc, node.name):
            # a call that may come back to its caller, or makes many calls: a step (see work)
            return Code(f"(m.count(1, {self.cx.rule!r}) or {call})", "any")
        return Code(call, "any")

    def _l_Inlined(self, node: Inlined) -> Code:
        code = self.lower(node.body)
        return Code(f"({code})", code.kind)

    def _l_Op(self, node: Op) -> Code:
        form, op = node.form, node.op
        if form == "list":
            items = [self.lower(a).src for a in node.args]
            if not may_nest(node):
                return Code(f"[{', '.join(items)}]", "list")
            return Code(f"_one({items[0]})" if len(items) == 1 else f"_nest([{', '.join(items)}])", "list")
        if form == "not":
            return Code(f"(not {self.lower(node.args[0])})", "bool")
        if form == "neg":
            return Code(f"(-{self.lower(node.args[0])})", "int")
        if form == "ternary":
            a, c, b = (self.lower(n) for n in node.args)
            # (two numbers make a number: a sum with it is Python's own, see runtime_growth)
            return Code(f"({a.src} if {c.src} else {b.src})", "int" if a.kind == b.kind == "int" else "any")
        first = self.lower(node.args[0])
        left = first.src
        if form == "is":
            return Code(f"({left} {op} None)", "bool")
        if form == "in":
            places = self._card_places(node.args[0], left, node.args[1])
            if places is not None:
                return Code(f"({places})" if op == "in" else f"(not {places})", "bool")
        right = self.lower(node.args[1])
        if form == "in":
            # a zone's list rather than the zone, whose __contains__ would be a Python call
            container = f"{right}.cards" if right.kind == "zone" else right.src
            return Code(f"({left} {op} {container})", "bool")
        if op in _CHECKED and not _unchecked(op, node.args[0], node.args[1], self.number_props,
                                             self.cx.number_locals):
            return Code(f"{_CHECKED[op]}({left}, {right.src})", node.kind)
        return Code(f"({left} {op} {right.src})", node.kind)

    def _card_places(self, item: Expr, left: str, container: Expr) -> str | None:
        """``CARD in join(ZONE, ZONE...)`` as a test of where the card lies
        (every card is in exactly one zone, ``m.loc`` by id), without
        building the joined list; None for any other container.  A value
        of unknown kind is tested for being one first (read twice, so only a
        local's)."""
        parts = _join_parts(container)
        if parts is None or any(p.kind != "zone" for p in parts):
            return None
        if not (item.kind == "card" or isinstance(item, Local) and item.kind == "any"):
            return None
        zones = "".join(f"{self.lower(p)}, " for p in parts)
        if item.kind == "card":
            return f"m.loc[{left}.id] in ({zones})"
        return f"type({left}) is _Card and m.loc[{left}.id] in ({zones})"

    def _l_Where(self, node: Where) -> Code:
        seq = self.seq_of(self.lower(node.seq))
        return self.where_list(seq, self.lower_test(node.test, node.tabled), node.kind,
                               work.bounded(node.seq, self.work))

    def lower_test(self, test: Expr, tabled: bool) -> Code:
        """A per-element test with ``it`` bound (``L_it``), with the locals
        and hoisted fields it reads; a tabled one (see pass_tables) is
        worked out for every card at load time and read from its table
        (``table`` is set)."""
        if not tabled:
            # what the test reads of a shared pile's top card, worked out once before the loop
            loops = work.loops_within(test, self.work, self.writing_proc)
            test, taken = pass_hoist.run(test)
            key = pass_keyed.key_of(test, self.pure_procs, self.key_props)
            code = attrs.evolve(self._watched(test), loops=loops, key=key)
            if not taken:
                return code
            pre = [(name, self._watched(read)) for name, read in taken]
            reads = code.reads.union(*(c.reads for _, c in pre)) - {name for name, _ in pre}
            hoists = code.hoists.union(*(c.hoists for _, c in pre))
            return attrs.evolve(code, reads=reads, hoists=hoists, pre=tuple((n, c.src) for n, c in pre))
        code = self._watched(test)
        if code.src not in self.static_preds:
            self.static_preds[code.src] = test_table(len(self.static_preds))
        table = self.static_preds[code.src]
        return Code(f"{table}[L_it.id]", "bool", table=table)

    def _watched(self, node: Expr) -> Code:
        """``node`` printed, with the locals and hoisted fields it reads."""
        return self.watching(lambda: self.lower(node))


#: the operators written as a call of a helper of runtime_growth: ``*`` (a product squares a
#: number, a repetition multiplies a list), ``+`` and ``-`` (a list joined to itself doubles, and
#: so does a number: v + (v - 0), v - (0 - v)) and ``%`` (of a text, Python's formatting:
#: "%999999999d" % 1 is a gigabyte)
_CHECKED = {"*": "_mul", "+": "_add", "-": "_sub", "%": "_mod"}

#: the built-ins whose value is a number (or whose call fails)
_NUMBERS = frozenset(("size", "count", "sum", "seat_distance", "room", "limit"))


def _unchecked(op: str, a: Expr, b: Expr, props: NumberProps, known: NumberProps) -> bool:
    """Whether ``a op b`` (an operator of _CHECKED) may be Python's own: a
    sum or difference with one side a number the text bounds is a number or
    fails, so it joins no lists, and a step grows a number by that much at
    most; a product or remainder of such numbers is bounded.  (``known``:
    the locals that hold such numbers, see Statements.note_number.)"""
    if op in ("+", "-"):
        return numeric(a, props, known) or numeric(b, props, known)
    if op == "*":               # (a thousand literals multiplied would have 15,000 digits)
        low, high = bound(a, props, known), bound(b, props, known)
        return low is not None and high is not None and low * high <= MAX_INTEGER
    return numeric(a, props, known) and numeric(b, props, known)


def _bounded_list(node: Expr) -> bool:
    """A list whose length the text bounds: a list display, or seats."""
    node = unwrapped(node)
    return (isinstance(node, Op) and node.form == "list") or (isinstance(node, Builtin)
                                                              and node.name == "seats_from")


#: the kinds of value that hold no other values (a zone is shown by its name)
_FLAT = frozenset(("int", "bool", "str", "card", "zone"))


def flat(node: Expr) -> bool:
    """``node``'s value holds no other values (it is no list or event): a
    chosen answer's player, number or option is one too."""
    return node.kind in _FLAT or isinstance(node, Chosen) and node.field in ("option", "player", "number")


def may_nest(node: Expr) -> bool:
    """``node`` is a list display with an element that may be a list or an
    event: what it holds is weighed as it is built (runtime_growth._nest)."""
    return isinstance(node, Op) and node.form == "list" and not all(map(flat, node.args))


#: the card properties that every card holding them holds as a whole number, each with the
#: largest size it has (see CodeGen.set_card_props): read from a card, such a property is a
#: number the text bounds (a card's properties never change)
NumberProps = Mapping[str, int]
_NO_PROPS: NumberProps = {}


def numeric(node: Expr, props: NumberProps = _NO_PROPS, known: NumberProps = _NO_PROPS) -> bool:
    """``node`` is a number whenever it has a value, of a size the text
    bounds: a whole-number literal, a size, a card's property that is a
    number on every card (``props``), a local that holds such a number
    (``known``, by Python name), or arithmetic of those.  What is read from
    the match's variables is not: effect text is not typed, a variable may
    hold a list, and a number it holds may have grown."""
    node = unwrapped(node)
    if isinstance(node, Local):
        return node.py in known
    if isinstance(node, Lit):
        return type(node.number) is int and node.kind == "int"
    if isinstance(node, Builtin):
        return node.name in _NUMBERS
    if isinstance(node, Attr):
        return _card_number(node, props) is not None
    if isinstance(node, Op):
        if node.form == "neg":
            return numeric(node.args[0], props, known)
        if node.form == "ternary":
            return numeric(node.args[0], props, known) and numeric(node.args[2], props, known)
        return node.form == "binary" and node.op in ("+", "-", "*", "//", "%") and all(
            numeric(a, props, known) for a in node.args)
    return False


def _card_number(node: Attr, props: NumberProps) -> int | None:
    """The largest size of a number property of one card (a card's, or a
    zone's top card's) that ``node`` reads, else None.  (A card without
    it gives none, with which arithmetic fails: still no growth.)"""
    if node.attr not in props:
        return None
    if node.base.kind == "card" or (node.card_prop and top_zone(node) is not None):
        return props[node.attr]
    return None


#: the largest value of each built-in of _NUMBERS that has one: a list or text holds at
#: most MAX_BUILT_ITEMS, a table seats at most MAX_PLAYERS, a zone's limit is written in the file
_BOUNDS = {"size": MAX_BUILT_ITEMS, "count": MAX_BUILT_ITEMS, "seat_distance": MAX_PLAYERS,
           "room": MAX_INTEGER, "limit": MAX_INTEGER}


def bound(node: Expr, props: NumberProps = _NO_PROPS, known: NumberProps = _NO_PROPS) -> int | None:
    """The largest size a :func:`numeric` node may have, worked out from
    the text (None: not known, e.g. a sum of a list of numbers, or not
    numeric).  A sum of a number property of cards holds at most
    MAX_BUILT_ITEMS cards' (a list of cards a rule built is as long as that
    at most, and a zone holds fewer)."""
    node = unwrapped(node)
    if isinstance(node, Local):
        return known.get(node.py)
    if isinstance(node, Lit):
        return abs(node.number) if type(node.number) is int and node.kind == "int" else None
    if isinstance(node, Attr):
        return _card_number(node, props)
    if isinstance(node, Builtin):
        if node.name == "sum":
            summed = sum_of_cards(node)
            return props[summed.attr] * MAX_BUILT_ITEMS if summed is not None and summed.attr in props else None
        return _BOUNDS.get(node.name)
    if not isinstance(node, Op):
        return None
    parts = [bound(a, props, known) for a in node.args]
    if node.form == "neg":
        return parts[0]
    if node.form == "ternary":
        return None if parts[0] is None or parts[2] is None else max(parts[0], parts[2])
    if node.form != "binary" or None in parts:
        return None
    a, b = parts
    assert a is not None and b is not None
    return {"+": a + b, "-": a + b, "*": a * b, "//": a, "%": b}.get(node.op)


#: the built-ins that are a size, or a test of one
_SIZES = ("size", "count", "any", "empty")


def _join_parts(node: Expr) -> list[Expr] | None:
    """The parts of ``join(...)`` (written in place or not), an empty list
    display left out; None for anything else."""
    node = unwrapped(node)
    if not (isinstance(node, Builtin) and node.name == "join"):
        return None
    parts = [unwrapped(a) for a in node.args]
    return [a for a in parts if not (isinstance(a, Op) and a.form == "list" and not a.args)]


#: the printer of each kind of node (looked up by type: a printer runs for every node of every expression)
_PRINTERS: dict[type, Callable[[Any, Any], Code]] = {
    t: getattr(Lowering, "_l_" + t.__name__)
    for t in (Lit, Local, Chosen, Attr, CardVar, Index, ZoneOf, Builtin, ProcCall, Inlined, Op, Where)}
