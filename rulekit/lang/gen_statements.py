"""Writing statements of the effect language as Python lines.

Built on the expression writer.  Each ``s_*`` method
adds the intermediate-form statements (:mod:`rulekit.lang.ir`) of one
statement of the grammar to the block being built.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from lark import Token, Tree

from . import pass_facts, printer, type_checks
from .expr_ir import Expr
from .expr_lower import bound, flat, numeric
from .gen_base import ANSWER, Node, subtree, unquote
from .gen_expressions import elem_of
from .gen_windows import Windows
from .ir import (
    Assign,
    Break,
    Code,
    Continue,
    Decide,
    Do,
    For,
    If,
    MoveWhere,
    Pass,
    Raise,
    Return,
    SetVar,
    Stmt,
    While,
    YieldFrom,
)
from .names import suggest
from .parser import subtrees


def _fixed_text(node: Node | None) -> str | None:
    """The text of ``log``: a string, or strings joined with ``+``.  A
    module writes its notes with its parameters (``log armor + ": no
    effect"``), which are strings once the game has given them; so the text
    is still known when the file loads.  None for anything else."""
    if not isinstance(node, Tree):
        return None
    if node.data == "string":
        return unquote(node.children[0])
    if node.data == "binop" and str(node.children[1]) == "+":
        left, right = _fixed_text(node.children[0]), _fixed_text(node.children[2])
        return None if left is None or right is None else left + right
    return None


def _call_args(args_n: Node | None) -> list[Node]:
    """The argument nodes of ``choose NAME(...)`` / ``call NAME(...)`` (none without brackets)."""
    if args_n is None or not subtree(args_n).children[0]:
        return []
    return list(subtree(subtree(args_n).children[0]).children)


class Statements(Windows):
    """The statement writer: ``block(stmts)`` is the intermediate form of a block of text."""

    # ---- statements ---------------------------------------------------------
    def block(self, stmts: Iterable[Node | None]) -> list[Stmt]:
        """The statements of ``stmts`` as a new block (``pass`` when empty)."""
        saved, self.cx.out = self.cx.out, []
        known = dict(self.cx.facts)        # what an 'if' in the block learns holds in the block only
        self.cx.depth += 1
        try:
            for s in stmts:
                if s is not None:
                    self.stmt(subtree(s))
            if not self.cx.out:
                self.add(Pass(origin=self.here()))
            return self.cx.out
        finally:
            self.cx.out = saved
            self.cx.facts = known
            self.cx.depth -= 1

    def stmt(self, node: Tree[Token]) -> None:
        method: Callable[[Tree[Token]], None] | None = getattr(self, "s_" + node.data, None)
        if method is None:  # pragma: no cover - grammar and compiler out of step
            self.error(node, f"statement '{node.data}' is not supported")
            return
        saved, self.cx.origin = self.cx.origin, self.origin_of(node)
        method(node)
        self.cx.origin = saved

    def s_suite(self, node: Tree[Token]) -> None:
        self.in_place(node.children)

    def in_place(self, stmts: Iterable[Node | None]) -> None:
        """The statements of ``stmts`` in the block being built (``pass`` when none)."""
        before = len(self.cx.out)
        for s in stmts:
            if s is not None:
                self.stmt(subtree(s))
        if len(self.cx.out) == before:
            self.add(Pass(origin=self.here()))

    def s_pass_stmt(self, node: Tree[Token]) -> None:
        self.add(Pass(origin=self.here()))

    def s_move_stmt(self, node: Tree[Token]) -> None:
        src_n, dest_n, place = node.children
        dest = self.expr(dest_n, wants=("'move ... to'", "zone"))
        if dest.kind != "zone":
            dest = Code(f"_as_zone({dest}, {self.cx.rule!r})")
        bottom = place is not None and str(place) == "bottom"
        if (isinstance(src_n, Tree) and src_n.data == "call" and str(src_n.children[0]) == "top"
                and src_n.children[1] is not None and len(subtree(src_n.children[1]).children) == 2):
            zone_n, count_n = subtree(src_n.children[1]).children
            zone = self.expr(zone_n)
            if zone.kind == "zone":
                count = self.expr(count_n)
                if count.number == 1:
                    self.do(f"m.move_top1({zone}, {dest}, {bottom})")
                else:
                    self.do(f"m.move_top({zone}, {count}, {dest}, {bottom})")
                return
        if self._move_where(src_n, dest, bottom):
            return
        src = self.expr(src_n, wants=("'move'", "several"))
        chosen = self.chosen_cards(src_n)
        if chosen is not None and chosen in self.names.one_card_choices:
            self.do(f"m.move_one({src}, {dest}, {bottom})")
        elif src.kind == "cards":       # a chosen answer's cards: no need to ask what it is
            self.do(f"m.move_cards({src}, {dest}, {bottom})")
        elif src.kind == "zone":
            self.do(f"m.move_zone({src}, {dest}, {bottom})")
        else:
            self.do(f"m.move({src}, {dest}, {bottom})")

    def _move_where(self, src_n: Node, dest: Code, bottom: bool) -> bool:
        """``move [shuffled](ZONE where TEST) to ...`` with a test that only
        reads card properties: split the zone in one pass instead of
        filtering it and then searching for each card (and a run of such
        moves from one shared zone is one pass: see pass_splits)."""
        shuffle = False
        if (isinstance(src_n, Tree) and src_n.data == "call" and str(src_n.children[0]) == "shuffled"
                and src_n.children[1] is not None and len(subtree(src_n.children[1]).children) == 1):
            src_n, shuffle = subtree(src_n.children[1]).children[0], True
        if not (isinstance(src_n, Tree) and src_n.data == "where_op"):
            return False
        zone = self.expr(src_n.children[0])
        if zone.kind != "zone":             # (a zone holds only cards)
            return False
        test = self.filter_test(src_n.children[1], "card")
        if test.table is None:
            return False
        self.add(MoveWhere(zone, test.table, dest, bottom, shuffle, origin=self.here()))
        return True

    def s_shuffle_stmt(self, node: Tree[Token]) -> None:
        zone = self.expr(node.children[0], wants=("'shuffle'", "zone"))
        src = zone.src if zone.kind == "zone" else f"_as_zone({zone}, {self.cx.rule!r})"
        self.do(f"m.shuffle({src})")

    def s_let_stmt(self, node: Tree[Token]) -> None:
        name, value_n = node.children
        tree = self.known_tree(value_n)
        target = self.local(str(name))
        self.assign(target, self.lower(tree).src)
        self.note_number(target, "=", tree)

    def begin_text(self, tree: Tree[Token], depth: int) -> None:
        """Before writing a text (a procedure's, a phase's, or one written in
        place of its call) whose top level is at block ``depth``: the locals
        a ``for`` or an ``emit ... as`` binds are never numbers the text
        bounds (see :meth:`note_number`)."""
        self.cx.scope_depth = depth
        for s in subtrees(tree):
            if s.data == "for_stmt" or (s.data == "emit_stmt" and s.children[2] is not None):
                self.cx.never_numbers.add(self.local(str(s.children[0] if s.data == "for_stmt" else s.children[2])))

    def note_number(self, target: str, op: str, tree: Expr) -> None:
        """After ``target op= tree`` of a local: whether the local now holds a
        number the text bounds, and how large (``cx.number_locals``), so that
        sums with it are Python's own (see expr_lower.numeric).

        The text of a phase, or of a procedure written in place inside a
        loop, runs again in the same Python function, where a local keeps its
        value from the run before.  So a local is known only from an
        assignment at the text's top level (every run passes through it, in
        order, before what follows reads the local), then grown by each later
        assignment (each runs at most once a run, outside loops: ``n = 2 *
        n`` doubles the largest size, which is kept); a loop makes every
        local it sets unknown from its start on (see :meth:`_loop_body`),
        and so does an assignment of what is not such a number.  A local a
        ``for`` or an ``emit ... as`` binds as well is never known (see
        :meth:`begin_text`)."""
        cx = self.cx
        known = cx.number_locals
        size = bound(tree, self.number_props, known) if numeric(tree, self.number_props, known) else None
        if size is None or target in cx.never_numbers:
            known.pop(target, None)
        elif op == "=" and cx.depth == cx.scope_depth:
            known[target] = size                  # (whatever it held before)
        elif target in known:
            known[target] = max(known[target], size) if op == "=" else known[target] + size

    def s_assign_stmt(self, node: Tree[Token]) -> None:
        target, op_tok, value_n = subtree(node.children[0]), node.children[1], node.children[2]
        tree = self.known_tree(value_n)
        value = self.lower(tree).src
        op = str(op_tok)
        # x += v, v not a number the text bounds: a list or text joined to itself doubles, and
        # so does a number (x += x - 0, x -= 0 - x), so the sum is checked (see runtime_growth)
        if op in ("+=", "-=") and not numeric(tree, self.number_props, self.cx.number_locals):
            op += "?"
        parts = [str(t) for t in target.children]
        if len(parts) == 2 and parts[0] in self.cx.locals and self.cx.local_kinds.get(parts[0]) == "event":
            if self.event_field_known(target.children[1]):
                field = f"{self.local(parts[0])}[{parts[1]!r}]"
                self.add(Assign(field, _grown(field, op, value), origin=self.here()) if op.endswith("?")
                         else Assign(field, value, op, origin=self.here()))
                if not flat(tree):      # an event that holds a list, or itself, is weighed
                    self.do(f"_held({self.local(parts[0])}, {field})")
            return
        if len(parts) == 2 and parts[1] in self.names.card_vars:
            card = self.expr(Tree("name", [target.children[0]]))
            var = parts[1]
            self._note_assigned("card_vars", var, op_tok, tree)
            if op != "=":
                value = _grown(f"_cv(m, {card}, {var!r})", op, value)
            self.add(SetVar("card", var, value, card, self.cx.rule, origin=self.here()))
            return
        if len(parts) == 2:
            owner = self.expr(Tree("name", [target.children[0]]))
            var = parts[1]
            if var not in self.names.player_vars:
                self.error(target.children[1], f"unknown player variable '{var}'",
                           "a name declared under player_vars", suggest(var, self.names.player_vars))
                return
            self._note_assigned("player_vars", var, op_tok, tree)
            self._set("player", var, op, value, owner)
            self._changed(("player_vars", var))
            return
        (name,) = parts
        if name in self.cx.locals:
            self._assign(self.local(name), op, value)
            self.note_number(self.local(name), op.rstrip("?"), tree)
            return
        if name in self.names.vars:
            self._note_assigned("vars", name, op_tok, tree)
            self.hoist("V")
            self._set("match", name, op, value, None)
            self._changed(("vars", name))
            return
        self.error(target, f"cannot assign to unknown variable '{name}'",
                   "a variable declared under vars, or a local introduced with 'let'",
                   suggest(name, self.names.vars | self.cx.locals) or f"declare it: vars: {{{name}: 0}}")

    def _note_assigned(self, section: str, name: str, op_tok: Node, tree: Expr) -> None:
        """Note an assignment of the declared variable ``name`` of ``section``
        (for the settled types, see :func:`rulekit.lang.type_checks.settled`);
        ``x += v`` and ``x -= v`` are checked as ``x + v`` and ``x - v``."""
        op = str(op_tok)
        self.assigned.append((section, name, op, tree, frozenset(self.cx.number_locals)))
        if op != "=":
            self.check_types(op_tok, lambda t: type_checks.binary_problem(
                op[0], getattr(t, section).get(name), type_checks.type_of(tree, t)))

    def _assign(self, target: str, op: str, value: str) -> None:
        """``x op= v`` as ``x = x op v``: values in effect text are values, so
        ``a += [c]`` makes a new list rather than changing one that another
        variable, or a chosen answer's shared card list, also holds."""
        self.assign(target, value if op == "=" else _grown(target, op, value))

    def _set(self, scope: str, name: str, op: str, value: str, owner: Code | None) -> None:
        """A write of a declared match or player variable, ``x op= v`` as
        ``x = x op v`` as in :meth:`_assign`."""
        if op != "=":
            value = _grown(printer.variable(scope, name, owner), op, value)
        self.add(SetVar(scope, name, value, owner, origin=self.here()))

    def _changed(self, var: tuple[str, str]) -> None:
        """After writing a variable declared with ``reset:``: note that the
        next reset of its scope has something to set back (resets with
        nothing to do are skipped; a phase reset runs for every player in
        every phase)."""
        when = self.reset_scope.get(var)
        if when is not None:
            self.assign(f"m.dirty[{when!r}]", "True")

    def s_choose_stmt(self, node: Tree[Token]) -> None:
        name_tok, args_n = node.children
        name = str(name_tok)
        if name not in self.names.choices:
            self.error(name_tok, f"unknown choice '{name}'", "a name declared under choices",
                       suggest(name, self.names.choices))
            return
        params = self.names.choice_params.get(name, ())
        arg_nodes = _call_args(args_n)
        if len(arg_nodes) != len(params):
            self.error(name_tok, f"choice '{name}' takes {len(params)} argument(s), got {len(arg_nodes)}",
                       f"choose {name}({', '.join(params)})" if params else f"choose {name}")
            return
        self.check_name_args("choice", name, arg_nodes)
        trees = [self.known_tree(a) for a in arg_nodes]
        for param, tree in zip(params, trees):      # (what it is given, for the cards an option can offer)
            self.choice_args.setdefault((name, param), []).append(tree)
        args = "".join(", " + self.lower(t).src for t in trees)
        effects = self.names.option_effects.get(name)
        if effects and arg_nodes:
            # the option's effect gets the same arguments: computed once
            self.assign("_ca", f"({args[2:]},)")
            args = "".join(f", _ca[{i}]" for i in range(len(arg_nodes)))
        self.hoist("CH")
        here = self.here()
        alone = self.alone_answer(name, trees)
        if alone is not None:                 # a seat that can only pass is answered in place
            self.cx.out.extend(alone)
            top, self.cx.out = self.cx.out, []
        self.assign("_d", f"{self.choice_fn[name]}(m{args})")
        none: list[Stmt] = []
        if name in self.choice_if_none:
            call = f"{self.if_none_fn[name]}(m{args})"
            none.append(YieldFrom(call, origin=here) if self.choice_if_none[name] else Do(call, origin=here))
        none.append(Do(f"_no_option({name!r}, {self.cx.rule!r}, {self.where_const(node)})", origin=here))
        self.add(If([("_d is None", none)], origin=here))
        asked: list[Stmt] = [Decide("_a", "_d", origin=here), Assign(f"CH[{name!r}]", ANSWER, origin=here)]
        skip = self.names.choice_skip.get(name)
        if skip is None:
            self.cx.out.extend(asked)
        else:
            # A response window.  By default the seat is asked even when
            # this is its only answer, so that what the others see (a
            # pending decision of that seat, then its answer in the log) is
            # the same whatever it holds.  With m.auto_pass the only answer
            # is taken without asking and logged exactly like an answer
            # given: the log still cannot tell "had nothing to answer with"
            # from "chose not to", but a live view of the others could.
            given: list[Stmt] = [
                Assign("_a", "_d.options[0]", origin=here),
                Do("m.log.append(('decide', _d, _a, [m.loc[i] for i in _a.cards] if _a.cards else None))",
                   origin=here),
                Assign(f"CH[{name!r}]", ANSWER, origin=here)]
            self.add(If([(f"m.auto_pass and len(_d.options) == 1 and _d.options[0].option == {skip!r}",
                          given)], asked, origin=here))
        if alone is not None:
            listed, self.cx.out = self.cx.out, top
            self.add(If([("_d is not None", self.alone_given(name))], listed, origin=here))
        if effects:
            self._option_effects(name, effects, args)

    def _option_effects(self, name: str, effects: tuple[tuple[str, str], ...], args: str) -> None:
        """After ``choose``: run the effect of the option chosen, if it has one
        (a skill's option runs the skill: nobody dispatches on its name)."""
        self.tick()
        self.assign("_r", f"CH[{name!r}]")
        branches: list[tuple[str, list[Stmt]]] = []
        for option, proc in effects:
            call = f"{self.proc_fn[proc]}(m, _r.cards, _r.option, _r.player, _r.number{args})"
            run = YieldFrom(call, origin=self.here()) if proc in self.deciding_procs else Do(call, origin=self.here())
            branches.append((f"_r.option == {option!r}", [run]))
        self.add(If(branches, origin=self.here()))

    def s_call_stmt(self, node: Tree[Token]) -> None:
        name_tok, args_n = node.children
        name = str(name_tok)
        if name not in self.names.procedures:
            self.error(name_tok, f"unknown procedure '{name}'",
                       "a name declared under procedures", suggest(name, self.names.procedures))
            return
        body = self.inline_procs.get(name)
        if body is not None and args_n is None:
            # written in place, it cannot call itself: only its own loops
            # can go on forever, and they count their steps
            self._inline(name, body)
            return
        if not self.work.counts(self.writing_proc, name):    # (else the call counts its step: see work)
            self.tick()
        self.do(self.proc_call(name_tok, _call_args(args_n), explicit=True).src)

    def _inline(self, name: str, body: Tree[Token]) -> None:
        """Write a procedure's body in place of ``call NAME`` (it cannot call
        itself): no function call, and no generator when it can decide.  Its
        locals get a prefix of their own, so it sees none of the caller's."""
        saved = (self.cx.prefix, self.cx.locals, self.cx.local_kinds, self.cx.assigned, self.cx.rule)
        self.inlined += 1
        self.cx.prefix = f"L{self.inlined}_"
        self.cx.locals = self.cx.comp_vars | self.declared_names(body)
        self.cx.local_kinds = {}
        self.cx.assigned = self.assigned_names(body)
        self.cx.rule = f"procedure '{name}'"
        saved_path, self.text_path = self.text_path, self.proc_paths.get(name, ("procedures", name))
        saved_via, self.cx.via = self.cx.via, self.cx.via + ((self.cx.origin, saved[4]),)
        errors = len(self.errors)
        self.cx.facts = {}              # its names are not the caller's, and it may set the caller's
        saved_scope = self.cx.scope_depth
        self.begin_text(body, self.cx.depth)      # (its top level is the caller's block)
        self.in_place(body.children)     # in the caller's block: the passes see one run of statements
        self.cx.scope_depth = saved_scope
        del self.errors[errors:]     # reported once, where the procedure is written
        self.text_path, self.cx.via = saved_path, saved_via
        self.cx.prefix, self.cx.locals, self.cx.local_kinds, self.cx.assigned, self.cx.rule = saved

    def s_emit_stmt(self, node: Tree[Token]) -> None:
        """Game-wide triggers first, in file order; then, for each player
        still in the game in seat order from the current player, the
        triggers held per player (``each_player``) in file order."""
        event_tok, kwargs_n, as_tok = node.children
        event = str(event_tok)
        gen = event in self.deciding_events
        fields = [(str(subtree(k).children[0]), self.expr(subtree(k).children[1]).src)
                  for k in (subtree(kwargs_n).children if kwargs_n is not None else ())]
        mine = [t for t in self.triggers if t["on"] == event]
        items = "".join(f", {k!r}: {v}" for k, v in fields)
        if mine or as_tok is not None or fields:
            # the log keeps the event itself: its fields as the triggers leave them
            self.assign("_ev", f"{{'name': {event!r}{items}}}")
            self.do(f"m.log.append(('event', {event!r}, _ev))")
        else:
            self.do(f"m.log.append(('event', {event!r}, None))")
        shared = [t for t in mine if not t.get("each_player")]
        held = [t for t in mine if t.get("each_player")]
        for t in shared:
            self._fire(t, "_ev", gen)
        if held:
            here = self.here()
            saved, self.cx.out = self.cx.out, []
            named = {t["seat_guard"][0] if t.get("seat_guard") else None for t in held}
            field = named.pop() if len(named) == 1 else None   # all fire only for the seat the event names
            for k, t in enumerate(held):
                if field is None or k > 0:      # (the seat the event names is tested before the first)
                    self.add(If([("m.out[_o]", [Continue(origin=here)])], one_line=True, origin=here))
                # the first trigger's seat is the one the event names; a later one's is tested
                # again, as a trigger before it may have sent the event on to another seat
                self._fire(t, "_ev, _o", gen, guarded=field is not None and k == 0)
            body, self.cx.out = self.cx.out, saved
            if field is None:
                self.add(For("_o", "m.seats_from(m.current)", body, origin=here))
            else:
                self.add_seat_named(field, body)
        if as_tok is not None:
            self.assign(self.local(str(as_tok)), "_ev")
            if str(as_tok) not in self.cx.assigned:
                self.cx.local_kinds[str(as_tok)] = "event"

    def add_seat_named(self, field: str, body: list[Stmt]) -> None:
        """Run ``body`` (the triggers held per player) for the seat the
        event's ``field`` names, without going round every seat: what the
        loop over the seats from the current one would have run.  That
        loop runs them for the seat whose turn comes when the field names
        it: so, after a trigger, for the seat the field names now if it
        comes later in the order (the event was sent on), and for no seat
        once it names one already passed, one out of the game or none."""
        here = self.here()
        self.add(Assign("_p", "-1", origin=here))
        self.add(While("True", [
            Assign("_o", f"_ev.get({field!r})", origin=here),
            # (a seat as the comparison of the loop finds it: true is seat 1, 1.0 too)
            If([("type(_o) is not _int or not 0 <= _o < m.n", [Assign("_o", "_seat_eq(m, _o)", origin=here)])],
               one_line=True, origin=here),
            If([("_o is None or m.out[_o]", [Break(origin=here)])], one_line=True, origin=here),
            Assign("_q", "(_o - m.current) % m.n", origin=here),
            If([("_q <= _p", [Break(origin=here)])], one_line=True, origin=here),
            Assign("_p", "_q", origin=here),
            *body], origin=here))

    def _fire(self, t: dict[str, Any], args: str, gen: bool, guarded: bool = False) -> None:
        """Run trigger ``t`` (``args``: the event, and the seat for one held
        per player) if its ``when`` holds; ``guarded``: its seat test was
        made just before, so it is not made again."""
        saved = self.cx.out
        if t["has_when"]:
            self.cx.out = []
        self.tick()
        call = f"{t['fn']}(m, {args})"
        self.add(YieldFrom(call, origin=self.here()) if gen and t["is_gen"] else Do(call, origin=self.here()))
        if t["has_when"]:
            body, self.cx.out = self.cx.out, saved
            # the loader sets a seat guard only on a trigger held per player (see trigger_guards)
            guard = f"{t['seat_guard'][1]} and " if t.get("seat_guard") and not guarded else ""
            self.add(If([(f"{guard}{t['when_fn']}(m, {args})", body)], origin=self.here()))

    def s_return_stmt(self, node: Tree[Token]) -> None:
        if self.cx.in_flow or not self.cx.can_return:
            self.error(node, "'return' outside a procedure or trigger",
                       "'end turn' to end the turn, or 'goto PHASE'")
            return
        value = node.children[0]
        tree = None if value is None else self.known_tree(value)
        if self.returning_for is not None:      # (what it gives, for the cards an option can offer)
            self.proc_returns.setdefault(self.returning_for, []).append(tree)
        self.add(Return(None if tree is None else self.lower(tree).src, origin=self.here()))

    def s_eliminate_stmt(self, node: Tree[Token]) -> None:
        player = self.expr(node.children[0], wants=("'eliminate'", "player"))
        self.do(f"m.eliminate({player})")

    def s_goto_stmt(self, node: Tree[Token]) -> None:
        name = str(node.children[0])
        if name not in self.names.phases:
            self.error(node.children[0], f"unknown phase '{name}'", "the name of a phase under turn",
                       suggest(name, self.names.phases))
            return
        if self.cx.in_flow and self.cx.loop_depth == 0:   # straight to the phase, no exception
            self.tick()        # a goto back to an earlier phase may loop
            self.assign("ph", str(self.names.phases[name]))
            self.add(Continue(origin=self.here()))
        else:
            self.add(Raise(f"_Goto({self.names.phases[name]})", origin=self.here()))

    def s_end_turn_stmt(self, node: Tree[Token]) -> None:
        if self.cx.in_flow and self.cx.loop_depth == 0:
            self.add(Break(origin=self.here()))
        else:
            self.add(Raise("_EndTurn()", origin=self.here()))

    def s_next_player_stmt(self, node: Tree[Token]) -> None:
        player = self.expr(node.children[0], wants=("'next player'", "player"))
        self.assign("m.next_player", f"_next_player(m, {player})")

    def s_win_stmt(self, node: Tree[Token]) -> None:
        who, reason_tok = node.children
        reason = unquote(reason_tok) if reason_tok is not None else "won"
        if who is None:
            self.add(Raise(f"_GameOver('win', {reason!r})", origin=self.here()))
        else:
            winners = self.expr(who, wants=("'win for'", "players"))
            self.add(Raise(f"_GameOver('win', {reason!r}, _winners(m, {winners}))", origin=self.here()))

    def s_lose_stmt(self, node: Tree[Token]) -> None:
        reason = unquote(node.children[0]) if node.children[0] is not None else "lost"
        self.add(Raise(f"_GameOver('loss', {reason!r})", origin=self.here()))

    def s_log_stmt(self, node: Tree[Token]) -> None:
        text = _fixed_text(node.children[0])
        if text is None:
            self.error(node.children[0], "log writes a fixed text",
                       "a string, or strings joined with + (a module's text parameters are strings)",
                       "the log is read by every player, so its notes are fixed when the file loads: "
                       "nothing a match computes (a hidden card) can reach it")
            return
        self.do(f"m.log.append(('note', {text!r}))")

    def s_if_stmt(self, node: Tree[Token]) -> None:
        """An ``if`` whose test is ``PARAM == "text"`` lets its branch know
        that, and the later branches that it is not so; the statements
        after the ``if`` know it is not so when that branch and every one
        before it end in return (see :mod:`rulekit.lang.pass_facts`)."""
        cond_n, suite_n, *rest = node.children
        else_n = rest.pop() if rest and (rest[-1] is None or subtree(rest[-1]).data == "else_clause") else None
        here = self.here()
        before = self.cx.facts
        ruled_out = dict(before)                # the tests so far were false
        after = dict(before)                    # what holds once past the 'if'
        ended = True                            # every branch so far ends in return
        branches = []
        for test_n, body_n in [(cond_n, suite_n)] + [(el.children[0], el.children[1]) for el in map(subtree, rest)]:
            self.cx.facts = dict(ruled_out)
            cond = self.known_tree(test_n)
            fact = self._fact(cond)
            if fact is not None:
                pass_facts.learn(self.cx.facts, *fact, holds=True)
            body = self.block(subtree(body_n).children)
            ended = ended and bool(body) and isinstance(body[-1], (Return, Raise))
            if fact is not None:
                pass_facts.learn(ruled_out, *fact, holds=False)
                if ended:
                    pass_facts.learn(after, *fact, holds=False)
            branches.append((self.lower(cond).src, body))
        self.cx.facts = ruled_out
        orelse = self.block(subtree(subtree(else_n).children[0]).children) if else_n is not None else None
        self.cx.facts = after
        self.add(If(branches, orelse, origin=here))

    def _fact(self, cond: Expr) -> tuple[str, str] | None:
        """(Python name, text) of a test ``PARAM == "text"`` of a parameter
        the text never sets, in the function's own text (not a procedure's
        written in place)."""
        found = pass_facts.tested(cond)
        if found is None:
            return None
        local, text = found
        name = local.name
        if (local.py != "L_" + name or self.cx.prefix != "L_" or name not in self.function.params
                or name in self.cx.rebound or name in self.cx.assigned or name == "it"):   # (a filter's own)
            return None
        return local.py, text

    def s_while_stmt(self, node: Tree[Token]) -> None:
        body = list(subtree(node.children[1]).children)
        self._set_in_loop(body)             # (the test runs after the body too)
        cond = self.expr(node.children[0]).src
        self.add(While(cond, self._loop_body(body), origin=self.here()))

    def s_for_stmt(self, node: Tree[Token]) -> None:
        var, seq_n, suite_n = node.children
        target, looped = self.local(str(var)), self.expr(seq_n, wants=("'for'", "several"))
        seq = self.seq_of(looped)
        # a seat or a card of a zone: read directly (``m.pvars[s]``, ``c.props``) in the body;
        # a name looped over something else again is of no known kind from there on
        kind = elem_of(looped.kind)
        if kind in ("int", "card") and str(var) not in self.cx.assigned:
            self.cx.local_kinds[str(var)] = kind
        else:
            self.cx.local_kinds.pop(str(var), None)
        body = list(subtree(suite_n).children)
        self._set_in_loop(body)
        # the steps of all its turns counted at once, before the first (see ir.For)
        self.add(For(target, f"list({seq})", self._loop_body(body, tick=False), origin=self.here(),
                     counted=self.cx.rule))

    def _set_in_loop(self, stmts: Sequence[Node | None]) -> None:
        """Before a loop: a local its body sets may grow at every time round,
        so from here on it is no number the text bounds (see
        :meth:`note_number`), in the body and the loop's test too, which read
        what the last time round set."""
        for s in stmts:
            if s is not None:
                for name in self.assigned_names(subtree(s)):
                    if name in self.cx.locals:
                        self.cx.number_locals.pop(self.local(name), None)

    def _loop_body(self, stmts: Iterable[Node | None], tick: bool = True) -> list[Stmt]:
        """A loop's body: it counts a step every time round (``tick``), or
        the loop counts them before it starts."""
        saved, self.cx.out = self.cx.out, []
        if tick:
            self.tick()
        self.cx.loop_depth += 1
        self.cx.out.extend(self.block(stmts))
        self.cx.loop_depth -= 1
        body, self.cx.out = self.cx.out, saved
        return body


def _grown(target: str, op: str, value: str) -> str:
    """``target op= value`` as a value: ``+=?`` and ``-=?`` (a sum that may
    join lists or texts, or double a number) through runtime_growth's
    checked ``_add`` and ``_sub``."""
    if op.endswith("?"):
        return f"{'_add' if op == '+=?' else '_sub'}({target}, {value})"
    return f"{target} {op[:-1]} ({value})"
