"""Writing expressions of the effect language: parse tree -> expression tree -> Python.

``tree(node)`` turns a parse tree into an expression tree
(:mod:`rulekit.lang.expr_ir`): names resolved, every error reported with its
place in the file, each node typed.  The passes over expression trees run
next (:mod:`rulekit.lang.pass_tables`, :mod:`rulekit.lang.pass_inline`), then
the printer (:mod:`rulekit.lang.expr_lower`) writes the Python, picking a
direct form (``len(x)``, ``c.props.get(p)``) from the kinds of the parts.
``expr(node)`` does all three and returns the :class:`~rulekit.lang.ir.Code`
the statement writer uses.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import attrs
from lark import Token, Tree

from . import pass_facts, pass_inline, pass_tables, type_checks
from .expr_ir import (
    NONE,
    Attr,
    Builtin,
    CardVar,
    Chosen,
    Expr,
    Index,
    Lit,
    Local,
    Op,
    ProcCall,
    Where,
    ZoneOf,
)
from .expr_lower import Lowering
from .fn_context import FnContext
from .gen_base import CHOSEN_FIELDS, CompileError, Node, PendingCheck, subtree, unquote
from .ir import Code, Function
from .name_checks import listed
from .names import BUILTINS, SPECIAL_FUNCTIONS, SPECIAL_NAMES, suggest
from .type_checks import type_of


def elem_of(kind: str) -> str:
    """"card" when iterating a value of ``kind`` yields only cards, "int" for seats."""
    return "card" if kind in ("zone", "cards") else "int" if kind == "seats" else "any"


class Expressions(Lowering):
    """The expression writer: ``expr(node)`` is the :class:`~rulekit.lang.ir.Code` of a parse tree."""

    def expr(self, node: Node, extra: set[str] | None = None, kinds: dict[str, str] | None = None,
             wants: tuple[str, str] | None = None) -> Code:
        """The Python of the expression ``node``: built, passed over, printed.
        ``wants``: (the statement, what it needs of the value: see
        type_checks.statement_problem), checked on the tree as it is built."""
        made = self.made
        tree = self.tree(node, extra, kinds)
        if wants is not None:
            self.check_wanted(node, tree, *wants)
        return self.lower(self.settle(tree, made))

    def check_wanted(self, node: Node, tree: Expr, statement: str, wants: str) -> None:
        """``tree`` (of ``node``) is given to ``statement``, which needs ``wants`` of it."""
        self.check_types(node, lambda t: type_checks.statement_problem(
            statement, wants, type_of(tree, t), type_checks.never_none(tree, t)))

    def known_tree(self, node: Node) -> Expr:
        """The tree of ``node`` after the passes, the facts of the ``if``
        tests around it among them (see :mod:`rulekit.lang.pass_facts`):
        what :meth:`expr` prints, for a writer that reads the tree too."""
        made = self.made
        return self.settle(self.tree(node), made)

    @property
    def made(self) -> tuple[int, int]:
        """How many calls that may be written in place, and filters, the writer has built so far."""
        return self.calls_made, self.filters_made

    def settle(self, tree: Expr, made: tuple[int, int] = (-1, -1)) -> Expr:
        """``tree`` after the passes over expressions (procedures written in
        place first: a test may then be one of card properties alone).  A
        pass runs only when ``tree`` may hold what it works on: when the
        writer built such a node since ``made`` (see :attr:`made`)."""
        if self.calls_made != made[0]:
            tree = pass_inline.run(tree, self.callee)
        if self.cx.facts:
            tree = pass_facts.run(tree, self.cx.facts)
        if self.filters_made != made[1]:
            tree = pass_tables.run(tree)
        return tree

    def tree(self, node: Node, extra: set[str] | None = None, kinds: dict[str, str] | None = None) -> Expr:
        """The expression tree of ``node``; ``extra`` names bound around it
        (``it`` in a filter's test), of the ``kinds`` given."""
        if extra:
            saved, saved_kinds, saved_comp = self.cx.locals, self.cx.local_kinds, self.cx.comp_vars
            saved_yield, self.cx.can_yield = self.cx.can_yield, False   # inside a comprehension
            self.cx.locals = saved | extra
            self.cx.comp_vars = saved_comp | extra
            self.cx.local_kinds = {**{k: v for k, v in saved_kinds.items() if k not in extra}, **(kinds or {})}
            try:
                return self.tree(node)
            finally:
                self.cx.locals, self.cx.local_kinds, self.cx.comp_vars = saved, saved_kinds, saved_comp
                self.cx.can_yield = saved_yield
        if isinstance(node, Token):
            return self.e_name(Tree("name", [node]))
        method: Callable[[Tree[Token]], Expr] | None = getattr(self, "e_" + node.data, None)
        if method is None:  # pragma: no cover
            self.error(node, f"expression '{node.data}' is not supported")
            return NONE
        return method(node)

    def kind_of(self, tree: Expr) -> str:
        """The kind ``tree`` has once its procedures are written in place."""
        return pass_inline.run(tree, self.callee).kind if pass_inline.kind_may_change(tree) else tree.kind

    def callee(self, name: str) -> tuple[tuple[str, ...], Expr] | None:
        """The parameters and expression tree of a procedure that may be
        written in place of its calls (see :mod:`rulekit.lang.pass_inline`),
        built once, in a function of its own: nothing of a caller's is
        visible to it, and its errors are reported where it is written."""
        if name in self.callee_trees:
            return self.callee_trees[name]
        found = self.expr_procs.get(name)
        if found is None:
            return None
        params, tree = found
        with self.apart(params, name):
            built = self.tree(tree)
        self.callee_trees[name] = (params, built)
        return params, built

    @contextlib.contextmanager
    def apart(self, params: tuple[str, ...], rule: str) -> Iterator[list[CompileError]]:
        """Build trees of text over ``params`` in a function of their own,
        to be written in place elsewhere: nothing of the function being
        written is visible to them.  What fails there is reported where
        the text is written, so it is dropped here, into the list given."""
        saved, errors = self._cx, len(self.errors)
        self._cx = FnContext(Function("", params, rule), rule, comp_vars=set(params), locals=set(params))
        dropped: list[CompileError] = []
        try:
            yield dropped
        finally:
            self._cx = saved
            # (its checks of types are made again where the text is written)
            dropped.extend(e for e in self.errors[errors:] if not isinstance(e, PendingCheck))
            del self.errors[errors:]

    def seq(self, node: Node) -> str:
        """Source for iterating a zone or list."""
        return self.seq_of(self.expr(node))

    def elem_kind(self, node: Node) -> str:
        """"card" when iterating ``node`` yields only cards, "int" for seats."""
        return elem_of(self.expr_kind(node))

    def expr_kind(self, node: Node) -> str:
        errors = len(self.errors)
        kind = self.kind_of(self.tree(node))
        del self.errors[errors:]
        return kind

    def e_number(self, node: Tree[Token]) -> Expr:
        value = int(str(node.children[0]))
        return Lit(str(value), "int", plain=True, number=value, fixed=True)

    def e_string(self, node: Tree[Token]) -> Expr:
        text = repr(unquote(node.children[0]))
        return Lit(text, "str", plain="\\" not in text, fixed=True)

    def e_true(self, node: Tree[Token]) -> Expr:
        return Lit("True", "bool", plain=True, fixed=True)

    def e_false(self, node: Tree[Token]) -> Expr:
        return Lit("False", "bool", plain=True, fixed=True)

    def e_none(self, node: Tree[Token]) -> Expr:
        return Lit("None", "any", plain=True, fixed=True)

    def e_list_lit(self, node: Tree[Token]) -> Expr:
        args = node.children[0]
        items = tuple(self.tree(a) for a in subtree(args).children) if args is not None else ()
        return Op("list", "", items, "list")

    def e_name(self, node: Tree[Token]) -> Expr:
        tok = node.children[0]
        name = str(tok)
        names = self.names
        if name in self.cx.locals:
            return Local(name, self.local_name(name), self.cx.local_kinds.get(name, "any"))
        if name in names.vars:
            return Lit(f"V[{name!r}]", "any", hoist="V", named=("vars", name))
        if name in names.tables:
            table = self.fn_name("table", name)     # one constant per table, however often read
            self.ns[table] = names.tables[name]
            return Lit(table, "any", plain=True, fixed=True)
        if name in names.zones:
            zdef = names.zones[name]
            if zdef.per_player:
                self.error(tok, f"zone '{name}' belongs to each player", f"{name}(player)",
                           f"write {name}(current) or {name}(p)")
                return NONE
            return Lit(f"GZ[{zdef.index}]", "zone", shared=True, hoist="GZ", zone=zdef.index)
        if name in names.choices:
            return Lit(f"CH.get({name!r})", "any", hoist="CH")
        special = {"current": Lit("m.current", "int", plain=True), "player_count": Lit("m.n", "int"),
                   "players": Lit("m.players", "seats"), "phase": Lit("m.phase", "str"),
                   "all_players": Lit("m.all_seats", "seats")}.get(name)
        if special is not None:
            return special
        if name in names.options:
            return Lit(f"m.options[{name!r}]", "any", named=("options", name))
        self.error(tok, f"unknown name '{name}'",
                   "a variable, table, zone, choice, a name bound by let/for, or one of: "
                   + ", ".join(SPECIAL_NAMES),
                   suggest(name, set(names.all_readable()) | self.cx.locals))
        return NONE

    def _choice_name(self, node: Node) -> str | None:
        """The choice ``node`` names (a name of a choice not hidden by a local), else None."""
        if isinstance(node, Tree) and node.data == "name":
            name = str(node.children[0])
            if name in self.names.choices and name not in self.cx.locals:
                return name
        return None

    def e_attr(self, node: Tree[Token]) -> Expr:
        base_n, attr_tok = node.children
        attr = str(attr_tok)
        choice = self._choice_name(base_n)
        if choice is not None and attr in CHOSEN_FIELDS:
            return Chosen(choice, attr)
        if attr in self.names.card_vars:      # before the reads below, which read fixed properties
            return CardVar(self.tree(base_n), attr)
        if choice is not None:
            self.error(attr_tok, f"a chosen answer has no field '{attr}'",
                       "one of: " + ", ".join(CHOSEN_FIELDS), suggest(attr, CHOSEN_FIELDS))
            return NONE
        base = self.tree(base_n)
        base_kind = self.kind_of(base)
        names = self.names
        if base_kind == "event" and attr != "name" and not self.event_field_known(attr_tok):
            return NONE
        known = self.card_props | names.player_vars | set(CHOSEN_FIELDS) | names.event_fields | names.card_vars
        if base_kind != "event" and attr not in names.player_vars and base_kind == "int":
            self.error(attr_tok, f"unknown player variable '{attr}'", "a name declared under player_vars",
                       self._zone_hint(attr, base_n) or suggest(attr, names.player_vars))
            return NONE
        if base_kind == "card" and attr not in self.card_props:
            self.error(attr_tok, f"no card has a property '{attr}'",
                       "a card property: " + ", ".join(sorted(self.card_props)),
                       f"'{attr}' is a player variable: read it of a player, not of a card"
                       if attr in names.player_vars else suggest(attr, self.card_props | names.card_vars))
            return NONE
        if base_kind != "event" and attr not in known:
            player_vars = listed(sorted(names.player_vars)) or "none declared"
            self.error(attr_tok, f"unknown property '{attr}'",
                       f"a card property ({listed(sorted(self.card_props))}), a player variable "
                       f"({player_vars}), or a chosen answer's field ({', '.join(CHOSEN_FIELDS)})",
                       self._zone_hint(attr, base_n) or suggest(attr, known))
            return NONE
        player_var = attr in names.player_vars
        return Attr(base, attr, card_prop=attr in self.card_props, player_var=player_var,
                    player_only=(player_var and attr not in self.card_props and attr not in CHOSEN_FIELDS
                                 and attr not in names.event_fields))

    def _zone_hint(self, attr: str, base_n: Node) -> str:
        """The hint for ``X.hand`` when ``hand`` is a per-player zone (whose
        cards are ``hand(X)``), else ""."""
        zone = self.names.zones.get(attr)
        if zone is None or not zone.per_player:
            return ""
        whose = str(base_n.children[0]) if isinstance(base_n, Tree) and base_n.data == "name" else "p"
        return f"'{attr}' is a zone each player has: write {attr}({whose})"

    def chosen_cards(self, node: Node) -> str | None:
        """The choice's name when ``node`` is ``CHOICE.cards`` (a chosen
        answer's cards), else None."""
        if not (isinstance(node, Tree) and node.data == "attr" and str(node.children[1]) == "cards"):
            return None
        return self._choice_name(node.children[0])

    def e_index(self, node: Tree[Token]) -> Expr:
        base_n, key_n = node.children
        is_table = (isinstance(base_n, Tree) and base_n.data == "name"
                    and str(base_n.children[0]) in self.names.tables
                    and str(base_n.children[0]) not in self.cx.locals)
        base = self.tree(base_n)
        if self.kind_of(base) == "zone":
            self.error(node, "a zone is not a list: its cards are not numbered",
                       "a table or a list before '['",
                       "top(ZONE) is its top card; join(ZONE)[i] the i-th of its cards from the bottom, "
                       "first(ZONE) the bottom one")
            return NONE
        key = self.tree(key_n)
        return Index(base, key, checked=is_table and self._check_table_covers_players(node))

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

    def e_call(self, node: Tree[Token]) -> Expr:
        name_tok, args_n = node.children
        name = str(name_tok)
        arg_nodes = list(subtree(args_n).children) if args_n is not None else []
        zdef = self.names.zones.get(name)
        if zdef is not None:
            if not zdef.per_player:
                self.error(name_tok, f"zone '{name}' is not per player", "", f"write just '{name}'")
                return NONE
            if len(arg_nodes) != 1:
                self.error(name_tok, f"zone '{name}' takes one player", f"{name}(player)")
                return NONE
            player = self.tree(arg_nodes[0])
            self.check_wanted(arg_nodes[0], player, f"zone '{name}'", "player")
            return ZoneOf(zdef.index, player)
        if name in SPECIAL_FUNCTIONS:
            arg = arg_nodes[0] if len(arg_nodes) == 1 else None
            if isinstance(arg, Tree) and arg.data == "name":
                arg = arg.children[0]
            if not isinstance(arg, Token):
                self.error(name_tok, f"{name} takes the name of a choice", f"{name}(choice)")
                return Lit("False", "bool")
            if str(arg) not in self.names.choices:
                self.error(arg, f"unknown choice '{arg}'", "a name declared under choices",
                           suggest(str(arg), self.names.choices))
                return Lit("False", "bool")
            return Lit(f"({self.choice_fn[str(arg)]}(m) is not None)", "bool")
        if name in self.names.procedures:
            return self.proc_tree(name_tok, arg_nodes)
        spec = BUILTINS.get(name)
        if spec is None:
            self.error(name_tok, f"unknown function '{name}'",
                       "a built-in (" + ", ".join(sorted(BUILTINS) + sorted(SPECIAL_FUNCTIONS))
                       + ") or a per-player zone",
                       suggest(name, list(BUILTINS) + [z for z, d in self.names.zones.items()
                                                        if d.per_player]))
            return NONE
        _fn, lo, hi, doc = spec
        if not lo <= len(arg_nodes) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            self.error(name_tok, f"{name}() takes {want} argument(s), got {len(arg_nodes)}", doc)
            return NONE
        built = Builtin(name, tuple(self.tree(a) for a in arg_nodes))
        if built.args:
            first = built.args[0]
            self.check_types(arg_nodes[0], lambda t: type_checks.argument_problem(
                name, type_of(first, t), type_checks.never_none(first, t)))
        if name == "sum":
            self._check_summed(built, arg_nodes[0])
        return built

    def e_call_proc(self, node: Tree[Token]) -> Expr:
        name_tok, args_n = node.children
        return self.proc_tree(name_tok, list(subtree(args_n).children) if args_n is not None else [],
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
        """The Python of a procedure's call (see :meth:`proc_tree`)."""
        return self.lower(self.settle(self.proc_tree(name_tok, arg_nodes, explicit)))

    def proc_tree(self, name_tok: Node, arg_nodes: list[Node], explicit: bool = False) -> Expr:
        """A call of a procedure: ``Pn(m, args)``, or ``(yield from Pn(m, args))``
        when it can stop for a decision (only where the text may stop, and
        only when written ``call NAME(...)``: ``explicit``)."""
        name = str(name_tok)
        if name not in self.names.procedures:
            self.error(name_tok, f"unknown procedure '{name}'", "a name declared under procedures",
                       suggest(name, self.names.procedures))
            return NONE
        params = self.names.proc_params.get(name, ())
        if len(arg_nodes) != len(params):
            self.error(name_tok, f"procedure '{name}' takes {len(params)} argument(s), got {len(arg_nodes)}",
                       f"{name}({', '.join(params)})" if params else f"call {name}")
            return NONE
        self.check_name_args("procedure", name, arg_nodes)
        call = ProcCall(name, self.proc_fn[name], tuple(self.tree(a) for a in arg_nodes))
        if name in self.expr_procs:
            self.calls_made += 1
        if name not in self.deciding_procs:
            return call
        if not explicit:
            self.error(name_tok, f"procedure '{name}' can stop for a decision",
                       f"call {name}(...) in a statement or 'let x = call {name}(...)'",
                       "a plain name(...) is only for procedures that never decide")
            return NONE
        if not self.cx.can_yield:
            self.error(name_tok, f"procedure '{name}' can stop for a decision, which is not possible here",
                       "effect text (a phase, a procedure or a trigger), not a condition, filter or score",
                       "decide first, keep the answer with 'let', then test it")
            return NONE
        return attrs.evolve(call, yields=True)

    def _operator(self, node: Tree[Token], kind: str) -> Op:
        """``A op B`` (the operator its middle child), checked for types that never work with it."""
        left, op_tok, right = node.children
        op = str(op_tok)
        a, b = self.tree(left), self.tree(right)
        self.check_types(op_tok, lambda t: type_checks.binary_problem(op, type_of(a, t), type_of(b, t)))
        return Op("binary", op, (a, b), kind)

    def e_binop(self, node: Tree[Token]) -> Expr:
        return self._operator(node, "int")

    def e_compare_op(self, node: Tree[Token]) -> Expr:
        reported = len(self.errors)
        self.check_compared(node)
        left, op, right = node.children
        if str(op) in ("==", "!=") and isinstance(right, Tree) and right.data == "none":
            return Op("is", "is" if str(op) == "==" else "is not", (self.tree(left),), "bool")
        if len(self.errors) > reported:     # a name no card has (said better than "never true")
            return Op("binary", str(op), (self.tree(left), self.tree(right)), "bool")
        return self._operator(node, "bool")

    def e_in_op(self, node: Tree[Token]) -> Expr:
        return self._membership(node, "in")

    def e_not_in_op(self, node: Tree[Token]) -> Expr:
        return self._membership(node, "not in")

    def _membership(self, node: Tree[Token], op: str) -> Expr:
        self.check_compared(node)
        item, container = (self.tree(n) for n in node.children)
        self.check_types(node.children[1],
                         lambda t: type_checks.container_problem(type_of(item, t), type_of(container, t)))
        return Op("in", op, (item, container), "bool")

    def e_and_op(self, node: Tree[Token]) -> Expr:
        return Op("binary", "and", (self.tree(node.children[0]), self.tree(node.children[1])), "any")

    def e_or_op(self, node: Tree[Token]) -> Expr:
        return Op("binary", "or", (self.tree(node.children[0]), self.tree(node.children[1])), "any")

    def e_not_op(self, node: Tree[Token]) -> Expr:
        return Op("not", "not", (self.tree(node.children[0]),), "bool")

    def e_neg(self, node: Tree[Token]) -> Expr:
        value = self.tree(node.children[0])
        self.check_types(node, lambda t: type_checks.negation_problem(type_of(value, t)))
        return Op("neg", "-", (value,), "int")

    def e_ternary(self, node: Tree[Token]) -> Expr:
        made = Op("ternary", "if", tuple(self.tree(n) for n in node.children), "any")
        return pass_facts.known_entries(made, lambda lit: type(self.ns.get(lit.src)) is dict)

    def e_where_op(self, node: Tree[Token]) -> Expr:
        seq = self.tree(node.children[0])
        elem = elem_of(self.kind_of(seq))
        self.filters_made += 1
        return Where(seq, self.tree(node.children[1], extra={"it"}, kinds={"it": elem}), elem)

    def filter_test(self, test: Node, elem: str) -> Code:
        """A per-element test with ``it`` bound (``L_it``); a test of card
        properties alone is read from a table (``table`` is set: see pass_tables)."""
        made = self.made
        tree = self.settle(self.tree(test, extra={"it"}, kinds={"it": elem}), made)
        return self.lower_test(tree, pass_tables.tabled(tree, elem))
