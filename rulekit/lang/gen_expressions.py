"""Writing expressions of the effect language as Python source.

Each ``e_*`` method
returns a :class:`rulekit.lang.ir.Code`: the Python source and its static
kind ("zone", "cards", "card", "seats", "int", "list", "bool", "str", "any"),
which lets the writer pick a direct form (``len(x)``, ``c.props.get(p)``)
instead of a generic helper, with the other facts statements and passes use.
"""
from __future__ import annotations

from collections.abc import Callable

from lark import Token, Tree

from .fn_names import test_table
from .gen_base import CHOSEN_FIELDS, Node, subtree, unquote
from .ir import Code
from .name_checks import NameChecks
from .names import BUILTINS, SPECIAL_FUNCTIONS, SPECIAL_NAMES, suggest

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_ARITH = {"+", "-", "*", "//", "%"}


class Expressions(NameChecks):
    """The expression writer: ``expr(node)`` is the :class:`~rulekit.lang.ir.Code` of a parse tree."""

    # ---- expressions: each returns (python source, static kind) -----------------
    # kinds: "zone", "list", "card", "int", "bool", "str", "any"
    def expr(self, node: Node, extra: set[str] | None = None, kinds: dict[str, str] | None = None) -> Code:
        if extra:
            saved, saved_kinds, saved_comp = self.cx.locals, self.cx.local_kinds, self.cx.comp_vars
            saved_yield, self.cx.can_yield = self.cx.can_yield, False   # inside a comprehension
            self.cx.locals = saved | extra
            self.cx.comp_vars = saved_comp | extra
            self.cx.local_kinds = {**{k: v for k, v in saved_kinds.items() if k not in extra}, **(kinds or {})}
            try:
                return self.expr(node)
            finally:
                self.cx.locals, self.cx.local_kinds, self.cx.comp_vars = saved, saved_kinds, saved_comp
                self.cx.can_yield = saved_yield
        if isinstance(node, Token):
            return self.e_name(Tree("name", [node]))
        method: Callable[[Tree[Token]], Code] | None = getattr(self, "e_" + node.data, None)
        if method is None:  # pragma: no cover
            self.error(node, f"expression '{node.data}' is not supported")
            return Code("None", "any")
        return method(node)

    def seq(self, node: Node) -> str:
        """Source for iterating a zone or list."""
        code = self.expr(node)
        if code.kind == "zone":
            return f"{code}.cards"
        if code.kind in ("list", "cards", "seats"):
            return code.src
        return f"_seq({code})"

    def elem_kind(self, node: Node) -> str:
        """"card" when iterating ``node`` yields only cards, "int" for seats."""
        kind = self.expr_kind(node)
        return "card" if kind in ("zone", "cards") else "int" if kind == "seats" else "any"

    def expr_kind(self, node: Node) -> str:
        errors = len(self.errors)
        kind = self.expr(node).kind
        del self.errors[errors:]
        return kind

    def e_number(self, node: Tree[Token]) -> Code:
        value = int(str(node.children[0]))
        return Code(str(value), "int", plain=True, number=value)

    def e_string(self, node: Tree[Token]) -> Code:
        text = repr(unquote(node.children[0]))
        return Code(text, "str", plain="\\" not in text)

    def e_true(self, node: Tree[Token]) -> Code:
        return Code("True", "bool", plain=True)

    def e_false(self, node: Tree[Token]) -> Code:
        return Code("False", "bool", plain=True)

    def e_none(self, node: Tree[Token]) -> Code:
        return Code("None", "any", plain=True)

    def e_list_lit(self, node: Tree[Token]) -> Code:
        args = node.children[0]
        items = [self.expr(a).src for a in subtree(args).children] if args is not None else []
        return Code("[" + ", ".join(items) + "]", "list")

    def e_name(self, node: Tree[Token]) -> Code:
        tok = node.children[0]
        name = str(tok)
        names = self.names
        if name in self.cx.arg_subst:
            arg = self.cx.arg_subst[name]
            if arg.local:
                self.read(arg.src)
            return arg
        if name in self.cx.locals:
            return Code(self.local(name), self.cx.local_kinds.get(name, "any"), plain=True, local=True)
        if name in names.vars:
            self.hoist("V")
            return Code(f"V[{name!r}]", "any")
        if name in names.tables:
            table = self.fn_name("table", name)     # one constant per table, however often read
            self.ns[table] = names.tables[name]
            return Code(table, "any", plain=True)
        if name in names.zones:
            zdef = names.zones[name]
            if zdef.per_player:
                self.error(tok, f"zone '{name}' belongs to each player", f"{name}(player)",
                           f"write {name}(current) or {name}(p)")
                return Code("None", "any")
            self.hoist("GZ")
            return Code(f"GZ[{zdef.index}]", "zone", shared=True)
        if name in names.choices:
            self.hoist("CH")
            return Code(f"CH.get({name!r})", "any")
        if name == "current":
            return Code("m.current", "int", plain=True)
        if name == "player_count":
            return Code("m.n", "int")
        if name == "players":
            return Code("m.players", "seats")
        if name == "phase":
            return Code("m.phase", "str")
        if name == "all_players":
            return Code("m.all_seats", "seats")
        if name in names.options:
            return Code(f"m.options[{name!r}]", "any")
        self.error(tok, f"unknown name '{name}'",
                   "a variable, table, zone, choice, a name bound by let/for, or one of: "
                   + ", ".join(SPECIAL_NAMES),
                   suggest(name, set(names.all_readable()) | self.cx.locals))
        return Code("None", "any")

    def e_attr(self, node: Tree[Token]) -> Code:
        base_n, attr_tok = node.children
        attr = str(attr_tok)
        if (isinstance(base_n, Tree) and base_n.data == "name"
                and str(base_n.children[0]) in self.names.choices
                and str(base_n.children[0]) not in self.cx.locals and attr in CHOSEN_FIELDS):
            self.hoist("CH")
            cname = str(base_n.children[0])
            kind = "cards" if attr == "cards" else "any"
            return Code(f"CH[{cname!r}].{attr}", kind)
        if attr in self.names.card_vars:      # before the shortcuts below, which read fixed properties
            return self._card_var(base_n, attr)
        if (isinstance(base_n, Tree) and base_n.data == "call" and str(base_n.children[0]) == "top"
                and base_n.children[1] is not None and len(subtree(base_n.children[1]).children) == 1):
            zcode = self.expr(subtree(base_n.children[1]).children[0])
            zone, zkind = zcode.src, zcode.kind
            if zcode.shared and attr in self.card_props:
                # a shared zone's top card, read in place from the property's table
                return Code(f"({self.prop_table(attr)}[{zone}.cards[-1].id] if {zone}.cards else None)", "any")
            if zkind == "zone":
                return Code(f"_top_prop({zone}.cards, {attr!r})", "any")
        if (isinstance(base_n, Tree) and base_n.data == "name"
                and str(base_n.children[0]) in self.names.choices
                and str(base_n.children[0]) not in self.cx.locals):
            self.error(attr_tok, f"a chosen answer has no field '{attr}'",
                       "one of: " + ", ".join(CHOSEN_FIELDS), suggest(attr, CHOSEN_FIELDS))
            return Code("None", "any")
        base_kind = self.expr_kind(base_n)
        if base_kind == "event":
            if attr != "name" and not self.event_field_known(attr_tok):
                return Code("None", "any")
            return Code(f"{self.expr(base_n).src}.get({attr!r})", "any")
        known = (self.card_props | self.names.player_vars | set(CHOSEN_FIELDS) | self.names.event_fields
                 | self.names.card_vars)
        if attr not in self.names.player_vars and base_kind == "int":
            self.error(attr_tok, f"unknown player variable '{attr}'", "a name declared under player_vars",
                       suggest(attr, self.names.player_vars))
            return Code("None", "any")
        if attr not in known:
            self.error(attr_tok, f"unknown property '{attr}'",
                       "a card property, a player variable, or a chosen answer's field ("
                       + ", ".join(CHOSEN_FIELDS) + ")", suggest(attr, known))
            return Code("None", "any")
        chosen = self.chosen_cards(base_n)
        if chosen is not None:
            return Code(f"CH[{chosen!r}].pj[{self.chosen_projection('list', attr)}]", "list")
        bcode = self.expr(base_n)
        base, kind = bcode.src, bcode.kind
        if kind in ("cards", "zone"):
            # a card's properties never change: read them from a per-card table
            seq = f"{base}.cards" if kind == "zone" else base
            return Code(f"_proj({self.prop_table(attr)}, {seq})", "list")
        if kind in ("list", "seats"):
            return Code(f"_ga(m, {base}, {attr!r})", "list")
        if kind == "card":
            return Code(f"{base}.props.get({attr!r})", "any")
        if kind == "int" and attr in self.names.player_vars:
            return Code(f"m.pvars[{base}][{attr!r}]", "any")
        if (attr in self.names.player_vars and attr not in self.card_props
                and attr not in CHOSEN_FIELDS and attr not in self.names.event_fields):
            # only a player has it: read the player's variable directly (a
            # non-player base fails with a clear message through _pv), a seat without a call
            if bcode.plain:          # (read twice: a local or a constant)
                return Code(f"(m.pvars[{base}][{attr!r}] if type({base}) is _int "
                            f"else _pv(m, {base}, {attr!r}))", "any")
            return Code(f"_pv(m, {base}, {attr!r})", "any")
        if bcode.plain:
            card = (f"({base}.props.get({attr!r}) if type({base}) is _Card "
                    f"else _ga(m, {base}, {attr!r}))")
            if attr in self.names.player_vars:     # a player's, or a card's: test for a player first
                return Code(f"(m.pvars[{base}][{attr!r}] if type({base}) is _int else {card})", "any")
            return Code(card, "any")
        return Code(f"_ga(m, {base}, {attr!r})", "any")

    def _card_var(self, base_n: Node, attr: str) -> Code:
        """``c.var`` for a declared card variable: the match's value for the
        card (a name is a card variable or a property, never both), or the
        list of values of a list of cards."""
        bcode = self.expr(base_n)
        base, kind = bcode.src, bcode.kind
        if kind == "card":
            return Code(f"m.cvars[{attr!r}][{base}.id]", "any")
        if kind in ("cards", "zone"):
            seq = f"{base}.cards" if kind == "zone" else base
            return Code(f"[m.cvars[{attr!r}][_c.id] for _c in {seq}]", "list")
        return Code(f"_cv(m, {base}, {attr!r})", "list" if kind in ("list", "seats") else "any")

    def chosen_cards(self, node: Node) -> str | None:
        """The choice's name when ``node`` is ``CHOICE.cards`` (a chosen
        answer's cards), else None."""
        if not (isinstance(node, Tree) and node.data == "attr" and str(node.children[1]) == "cards"):
            return None
        base = node.children[0]
        if not (isinstance(base, Tree) and base.data == "name"):
            return None
        name = str(base.children[0])
        return name if name in self.names.choices and name not in self.cx.locals else None

    def e_index(self, node: Tree[Token]) -> Code:
        base_n, key_n = node.children
        is_table = (isinstance(base_n, Tree) and base_n.data == "name"
                    and str(base_n.children[0]) in self.names.tables
                    and str(base_n.children[0]) not in self.cx.locals)
        based = self.expr(base_n)
        if based.kind == "zone":
            self.error(node, "a zone is not a list: its cards are not numbered",
                       "a table or a list before '['",
                       "top(ZONE) is its top card; join(ZONE)[i] the i-th of its cards from the bottom, "
                       "first(ZONE) the bottom one")
            return Code("None")
        base = based.src
        key = self.expr(key_n).src
        if is_table and self._check_table_covers_players(node):
            return Code(f"{base}[{key}]", "any")
        return Code(f"_idx({base}, {key}, {self.cx.rule!r})", "any")

    def _check_table_covers_players(self, node: Tree[Token]) -> bool:
        """``table[player_count]`` must have an entry for every allowed count;
        when it has, the lookup needs no run-time check."""
        base_n, key_n = subtree(node.children[0]), node.children[1]
        if not (isinstance(key_n, Tree) and key_n.data == "name"
                and str(key_n.children[0]) == "player_count"):
            return False
        table = self.names.tables[str(base_n.children[0])]
        missing = [n for n in range(self.names.min_players, self.names.max_players + 1)
                   if n not in table]
        if missing:
            self.error(node, f"table '{base_n.children[0]}' has no entry for "
                       + ", ".join(map(str, missing)) + " player(s)",
                       f"keys {self.names.min_players} to {self.names.max_players} "
                       "(players.min to players.max)",
                       "add the missing player counts to the table")
            return False
        return True

    def e_call(self, node: Tree[Token]) -> Code:
        name_tok, args_n = node.children
        name = str(name_tok)
        arg_nodes = list(subtree(args_n).children) if args_n is not None else []
        zdef = self.names.zones.get(name)
        if zdef is not None:
            if not zdef.per_player:
                self.error(name_tok, f"zone '{name}' is not per player", "", f"write just '{name}'")
                return Code("None", "any")
            if len(arg_nodes) != 1:
                self.error(name_tok, f"zone '{name}' takes one player", f"{name}(player)")
                return Code("None", "any")
            self.hoist("PZ")
            return Code(f"PZ[{zdef.index}][{self.expr(arg_nodes[0]).src}]", "zone")
        if name in SPECIAL_FUNCTIONS:
            arg = arg_nodes[0] if len(arg_nodes) == 1 else None
            if isinstance(arg, Tree) and arg.data == "name":
                arg = arg.children[0]
            if not isinstance(arg, Token):
                self.error(name_tok, f"{name} takes the name of a choice", f"{name}(choice)")
                return Code("False", "bool")
            if str(arg) not in self.names.choices:
                self.error(arg, f"unknown choice '{arg}'", "a name declared under choices",
                           suggest(str(arg), self.names.choices))
                return Code("False", "bool")
            return Code(f"({self.choice_fn[str(arg)]}(m) is not None)", "bool")
        if name in self.names.procedures:
            return self.proc_call(name_tok, arg_nodes)
        spec = BUILTINS.get(name)
        if spec is None:
            self.error(name_tok, f"unknown function '{name}'",
                       "a built-in (" + ", ".join(sorted(BUILTINS) + sorted(SPECIAL_FUNCTIONS))
                       + ") or a per-player zone",
                       suggest(name, list(BUILTINS) + [z for z, d in self.names.zones.items()
                                                        if d.per_player]))
            return Code("None", "any")
        _fn, lo, hi, doc = spec
        if not lo <= len(arg_nodes) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            self.error(name_tok, f"{name}() takes {want} argument(s), got {len(arg_nodes)}", doc)
            return Code("None", "any")
        args = [self.expr(a) for a in arg_nodes]
        srcs = [a.src for a in args]
        kind0 = args[0].kind
        if (name == "sum" and isinstance(arg_nodes[0], Tree) and arg_nodes[0].data == "attr"
                and str(arg_nodes[0].children[1]) not in self.names.card_vars):
            base_n, attr_tok = arg_nodes[0].children
            chosen = self.chosen_cards(base_n)
            if chosen is not None and str(attr_tok) in self.card_props:
                return Code(f"CH[{chosen!r}].pj[{self.chosen_projection('sum', str(attr_tok))}]", "int")
            bkind = self.expr(base_n).kind
            if bkind in ("cards", "zone"):
                # a table of the property by card id (none counts 0), read in one loop
                table = self.const(("sum", str(attr_tok)), "sum", str(attr_tok))
                self.sum_tables[table] = str(attr_tok)
                return Code(f"_sumt({table}, {self.seq(base_n)})", "int")
        if (name in ("any", "empty") and isinstance(arg_nodes[0], Tree) and arg_nodes[0].data == "where_op"
                and args[0].outlined is not None):
            # any(X where TEST): stop at the first element that passes
            found = self.outline_any(args[0])
            return Code(found, "bool") if name == "any" else Code(f"(not {found})", "bool")
        if kind0 in ("zone", "list", "cards", "seats") and name in ("size", "count", "any", "empty"):
            # a zone's list, not the zone: len(zone) would call Zone.__len__ in Python
            n = f"len({srcs[0]}.cards)" if kind0 == "zone" else f"len({srcs[0]})"
            if name == "any":
                return Code(f"({n} > 0)", "bool")
            if name == "empty":
                return Code(f"({n} == 0)", "bool")
            return Code(n, "int")
        if name in ("min", "max") and len(srcs) > 1:
            return Code(f"{name}({', '.join(srcs)})", "int")
        if name == "next":
            return Code(f"m.next_seat({srcs[0]})" if self.names.eliminates
                        else f"(({srcs[0]}) + 1) % m.n", "int")
        if name == "join":
            kind = "cards" if all(a.kind in ("zone", "cards") for a in args) else "list"
            if all(a.kind in ("zone", "cards", "list", "seats") for a in args):
                # lists and zones only: one list display, no call (a new list,
                # as effect text never changes one another name holds)
                parts = ", ".join(f"*{a}.cards" if a.kind == "zone" else f"*{a}" for a in args)
                return Code(f"[{parts}]", kind)
            return Code(f"_B_join(m, {', '.join(srcs)})", kind)
        if name == "seats_from":
            return Code(f"m.seats_from({srcs[0]})", "seats")
        if name == "seat_distance":
            return Code(f"m.seat_distance({srcs[0]}, {srcs[1]})", "int")
        if name == "top" and len(srcs) == 1 and kind0 == "zone":
            return Code(f"_top1({srcs[0]}.cards)", "any")
        if name == "room" and kind0 == "zone":
            return Code(f"m.room({srcs[0]})", "int")
        cards_in = kind0 in ("zone", "cards")
        many = "cards" if cards_in else "list"
        kind = {"top": "any" if len(srcs) == 1 else many, "bottom": "any" if len(srcs) == 1 else many,
                "shuffled": many, "unique": many, "join": "list", "size": "int", "count": "int", "sum": "int",
                "any": "bool", "empty": "bool"}.get(name, "any")
        return Code(f"_B_{name}(m, {', '.join(srcs)})", kind)

    def e_call_proc(self, node: Tree[Token]) -> Code:
        name_tok, args_n = node.children
        return self.proc_call(name_tok, list(subtree(args_n).children) if args_n is not None else [],
                              explicit=True)

    def event_field_known(self, tok: Node) -> bool:
        """Is ``tok`` a field some ``emit`` gives?  If not, say so."""
        if str(tok) in self.names.event_fields:
            return True
        self.error(tok, f"no event has a field '{tok}'",
                   "a name given as an argument of some 'emit', e.g. emit hit(amount=1)",
                   suggest(str(tok), self.names.event_fields))
        return False

    def proc_call(self, name_tok: Node, arg_nodes: list[Node], explicit: bool = False) -> Code:
        """A call of a procedure: ``Pn(m, args)``, or ``(yield from Pn(m, args))``
        when it can stop for a decision (only where the text may stop, and
        only when written ``call NAME(...)``: ``explicit``)."""
        name = str(name_tok)
        if name not in self.names.procedures:
            self.error(name_tok, f"unknown procedure '{name}'", "a name declared under procedures",
                       suggest(name, self.names.procedures))
            return Code("None", "any")
        params = self.names.proc_params.get(name, ())
        if len(arg_nodes) != len(params):
            self.error(name_tok, f"procedure '{name}' takes {len(params)} argument(s), got {len(arg_nodes)}",
                       f"{name}({', '.join(params)})" if params else f"call {name}")
            return Code("None", "any")
        self.check_name_args("procedure", name, arg_nodes)
        reads = self.reading()
        compiled = [self.expr(a) for a in arg_nodes]
        inline = self.expr_procs.get(name)
        if inline is not None and len(self.cx.arg_subst) < 8 and all(a.plain for a in compiled):
            self.unread(reads)      # an argument is read where the expression reads its parameter
            return self._inline_expression(name, inline, compiled)
        args = "".join(", " + a.src for a in compiled)
        call = f"{self.proc_fn[name]}(m{args})"
        if name not in self.deciding_procs:
            return Code(call, "any")
        if not explicit:
            self.error(name_tok, f"procedure '{name}' can stop for a decision",
                       f"call {name}(...) in a statement or 'let x = call {name}(...)'",
                       "a plain name(...) is only for procedures that never decide")
            return Code("None", "any")
        if not self.cx.can_yield:
            self.error(name_tok, f"procedure '{name}' can stop for a decision, which is not possible here",
                       "effect text (a phase, a procedure or a trigger), not a condition, filter or score",
                       "decide first, keep the answer with 'let', then test it")
            return Code("None", "any")
        return Code(f"(yield from {call})", "any")

    def _inline_expression(self, name: str, inline: tuple[tuple[str, ...], Tree[Token]], args: list[Code]) -> Code:
        """The expression of procedure ``name`` written in place (see
        :mod:`rulekit.lang.inline_exprs`): its parameters read the arguments,
        and nothing of the caller's is visible to it."""
        params, tree = inline
        saved = (self.cx.locals, self.cx.local_kinds, self.cx.arg_subst, len(self.errors))
        self.cx.locals, self.cx.local_kinds = set(), {}
        self.cx.arg_subst = {p: a for p, a in zip(params, args)}
        try:
            code = self.expr(tree)
        finally:
            self.cx.locals, self.cx.local_kinds, self.cx.arg_subst, errors = saved
            del self.errors[errors:]     # reported once, where the procedure is written
        return Code(f"({code})", code.kind)

    def _binary(self, node: Tree[Token], ops: set[str], kind: str) -> Code:
        left, op, right = node.children
        return Code(f"({self.expr(left).src} {op} {self.expr(right).src})", kind)

    def e_binop(self, node: Tree[Token]) -> Code:
        return self._binary(node, _ARITH, "int")

    def e_compare_op(self, node: Tree[Token]) -> Code:
        self.check_compared(node)
        left, op, right = node.children
        if str(op) in ("==", "!=") and isinstance(right, Tree) and right.data == "none":
            return Code(f"({self.expr(left).src} {'is' if str(op) == '==' else 'is not'} None)", "bool")
        return self._binary(node, _COMPARE, "bool")

    def e_neg(self, node: Tree[Token]) -> Code:
        return Code(f"(-{self.expr(node.children[0]).src})", "int")

    def _container(self, node: Node) -> str:
        """The right side of ``in``: a zone's list rather than the zone, whose
        ``__contains__`` would be a Python call."""
        code = self.expr(node)
        return f"{code}.cards" if code.kind == "zone" else code.src

    def e_in_op(self, node: Tree[Token]) -> Code:
        self.check_compared(node)
        return Code(f"({self.expr(node.children[0]).src} in {self._container(node.children[1])})", "bool")

    def e_not_in_op(self, node: Tree[Token]) -> Code:
        self.check_compared(node)
        return Code(f"({self.expr(node.children[0]).src} not in {self._container(node.children[1])})", "bool")

    def e_and_op(self, node: Tree[Token]) -> Code:
        return Code(f"({self.expr(node.children[0]).src} and {self.expr(node.children[1]).src})", "any")

    def e_or_op(self, node: Tree[Token]) -> Code:
        return Code(f"({self.expr(node.children[0]).src} or {self.expr(node.children[1]).src})", "any")

    def e_not_op(self, node: Tree[Token]) -> Code:
        return Code(f"(not {self.expr(node.children[0]).src})", "bool")

    def e_ternary(self, node: Tree[Token]) -> Code:
        a, c, b = (self.expr(n).src for n in node.children)
        return Code(f"({a} if {c} else {b})", "any")

    def e_where_op(self, node: Tree[Token]) -> Code:
        seq = self.seq(node.children[0])
        elem = self.elem_kind(node.children[0])
        pred = self.filter_test(node.children[1], elem)
        return self.where_list(seq, pred, {"card": "cards", "int": "seats"}.get(elem, "list"))

    # ---- filters that only read card properties are tabled at load time -------
    _PURE = {"compare_op", "in_op", "not_in_op", "and_op", "or_op", "not_op", "ternary", "binop",
             "neg", "string", "number", "true", "false", "none", "list_lit", "args"}

    def _card_static(self, node: Node) -> bool:
        """True when ``node`` depends only on the properties of the card ``it``
        (and constants): its value per card never changes during a match."""
        if isinstance(node, Token):
            return node.type != "NAME"
        if node.data == "attr":
            base = node.children[0]
            return (isinstance(base, Tree) and base.data == "name"
                    and str(base.children[0]) == "it"
                    and str(node.children[1]) not in self.names.card_vars)   # a card's state changes
        if node.data == "name":
            return str(node.children[0]) in self.names.tables and str(node.children[0]) not in self.cx.locals
        if node.data == "index":
            return all(self._card_static(c) for c in node.children)
        if node.data in self._PURE:
            return all(c is None or self._card_static(c) for c in node.children)
        return False

    def filter_test(self, test: Node, elem: str) -> Code:
        """A per-element test with ``it`` bound (``L_it``); a test of card
        properties alone is worked out for every card at load time and read
        from its table (``table`` is set)."""
        code = self.watching(lambda: self.expr(test, extra={"it"}, kinds={"it": elem}))
        if elem != "card" or not self._card_static(test):
            return code
        if code.src not in self.static_preds:
            self.static_preds[code.src] = test_table(len(self.static_preds))
        table = self.static_preds[code.src]
        return Code(f"{table}[L_it.id]", "bool", table=table)
