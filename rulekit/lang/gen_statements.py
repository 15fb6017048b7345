"""Writing statements of the effect language as Python lines.

Part of :class:`rulekit.lang.codegen.CodeGen` (a mixin).  Each ``s_*`` method
adds the intermediate-form statements (:mod:`rulekit.lang.ir`) of one
statement of the grammar to the block being built.
"""
from __future__ import annotations

from lark import Tree

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
    Stmt,
    While,
    YieldFrom,
)
from .names import suggest

CHOSEN_FIELDS = ("option", "cards", "player", "by", "number")


def _unquote(tok) -> str:
    return str(tok)[1:-1]


def _fixed_text(node) -> str | None:
    """The text of ``log``: a string, or strings joined with ``+``.  A
    module writes its notes with its parameters (``log armor + ": no
    effect"``), which are strings once the game has given them; so the text
    is still known when the file loads.  None for anything else."""
    if not isinstance(node, Tree):
        return None
    if node.data == "string":
        return _unquote(node.children[0])
    if node.data == "binop" and str(node.children[1]) == "+":
        left, right = _fixed_text(node.children[0]), _fixed_text(node.children[2])
        return None if left is None or right is None else left + right
    return None


def _call_args(args_n) -> list:
    """The argument nodes of ``choose NAME(...)`` / ``call NAME(...)`` (none without brackets)."""
    return list(args_n.children[0].children) if args_n is not None and args_n.children[0] else []


# a kept answer when there is one (a dict lookup), else _chosen makes and keeps it
_ANSWER = "_ANS[_d.player].get(_a) or _chosen(m, _a, _d, _PJ)"


class StatementsMixin:
    # ---- statements ---------------------------------------------------------
    def block(self, stmts) -> list[Stmt]:
        """The statements of ``stmts`` as a new block (``pass`` when empty)."""
        saved, self.out = self.out, []
        try:
            for s in stmts:
                if s is not None:
                    self.stmt(s)
            if not self.out:
                self.add(Pass(origin=self.here()))
            return self.out
        finally:
            self.out = saved

    def stmt(self, node: Tree) -> None:
        method = getattr(self, "s_" + node.data, None)
        if method is None:  # pragma: no cover - grammar and compiler out of step
            self.error(node, f"statement '{node.data}' is not supported")
            return
        saved, self.origin = self.origin, self.origin_of(node)
        method(node)
        self.origin = saved

    def s_suite(self, node):
        self.in_place(node.children)

    def in_place(self, stmts) -> None:
        """The statements of ``stmts`` in the block being built (``pass`` when none)."""
        before = len(self.out)
        for s in stmts:
            if s is not None:
                self.stmt(s)
        if len(self.out) == before:
            self.add(Pass(origin=self.here()))

    def s_pass_stmt(self, node):
        self.add(Pass(origin=self.here()))

    def s_move_stmt(self, node):
        src_n, dest_n, place = node.children
        dest = self.expr(dest_n)
        if dest.kind != "zone":
            dest = Code(f"_as_zone({dest}, {self.rule!r})")
        bottom = place is not None and str(place) == "bottom"
        if (isinstance(src_n, Tree) and src_n.data == "call" and str(src_n.children[0]) == "top"
                and src_n.children[1] is not None and len(src_n.children[1].children) == 2):
            zone_n, count_n = src_n.children[1].children
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
        src = self.expr(src_n)
        chosen = self._chosen_cards(src_n)
        if chosen is not None and chosen in self.names.one_card_choices:
            self.do(f"m.move_one({src}, {dest}, {bottom})")
        elif src.kind == "cards":       # a chosen answer's cards: no need to ask what it is
            self.do(f"m.move_cards({src}, {dest}, {bottom})")
        elif src.kind == "zone":
            self.do(f"m.move_zone({src}, {dest}, {bottom})")
        else:
            self.do(f"m.move({src}, {dest}, {bottom})")

    def _move_where(self, src_n, dest: Code, bottom: bool) -> bool:
        """``move [shuffled](ZONE where TEST) to ...`` with a test that only
        reads card properties: split the zone in one pass instead of
        filtering it and then searching for each card (and a run of such
        moves from one shared zone is one pass: see pass_splits)."""
        shuffle = False
        if (isinstance(src_n, Tree) and src_n.data == "call" and str(src_n.children[0]) == "shuffled"
                and src_n.children[1] is not None and len(src_n.children[1].children) == 1):
            src_n, shuffle = src_n.children[1].children[0], True
        if not (isinstance(src_n, Tree) and src_n.data == "where_op"):
            return False
        zone = self.expr(src_n.children[0])
        if zone.kind != "zone" or self._elem_kind(src_n.children[0]) != "card":
            return False
        test = self._filter(src_n.children[1], "card")
        if test.table is None:
            return False
        self.add(MoveWhere(zone, test.table, dest, bottom, shuffle, origin=self.here()))
        return True

    def s_shuffle_stmt(self, node):
        zone = self.expr(node.children[0])
        src = zone.src if zone.kind == "zone" else f"_as_zone({zone}, {self.rule!r})"
        self.do(f"m.shuffle({src})")

    def s_let_stmt(self, node):
        name, value_n = node.children
        self.assign(self.local(str(name)), self.expr(value_n).src)

    def s_assign_stmt(self, node):
        target, op_tok, value_n = node.children
        value = self.expr(value_n).src
        op = str(op_tok)
        parts = [str(t) for t in target.children]
        if len(parts) == 2 and parts[0] in self.locals and self.local_kinds.get(parts[0]) == "event":
            if self.event_field_known(target.children[1]):
                self.add(Assign(f"{self.local(parts[0])}[{parts[1]!r}]", value, op, origin=self.here()))
            return
        if len(parts) == 2 and parts[1] in self.names.card_vars:
            owner = self.expr(Tree("name", [target.children[0]])).src
            var = parts[1]
            if op == "=":
                self.do(f"_set_cv(m, {owner}, {var!r}, {value}, {self.rule!r})")
            else:
                self.do(f"_set_cv(m, {owner}, {var!r}, _cv(m, {owner}, {var!r}) {op[:-1]} ({value}), "
                        f"{self.rule!r})")
            return
        if len(parts) == 2:
            owner = self.expr(Tree("name", [target.children[0]])).src
            var = parts[1]
            if var not in self.names.player_vars:
                self.error(target.children[1], f"unknown player variable '{var}'",
                           "a name declared under player_vars", suggest(var, self.names.player_vars))
                return
            self._assign(f"m.pvars[{owner}][{var!r}]", op, value)
            self._changed(("player_vars", var))
            return
        (name,) = parts
        if name in self.locals:
            self._assign(self.local(name), op, value)
            return
        if name in self.names.vars:
            self.hoist("V")
            self._assign(f"V[{name!r}]", op, value)
            self._changed(("vars", name))
            return
        self.error(target, f"cannot assign to unknown variable '{name}'",
                   "a variable declared under vars, or a local introduced with 'let'",
                   suggest(name, self.names.vars | self.locals) or f"declare it: vars: {{{name}: 0}}")

    def _assign(self, target: str, op: str, value: str) -> None:
        """``x op= v`` as ``x = x op v``: values in effect text are values, so
        ``a += [c]`` makes a new list rather than changing one that another
        variable, or a chosen answer's shared card list, also holds."""
        self.assign(target, value if op == "=" else f"{target} {op[:-1]} ({value})")

    def _changed(self, var: tuple) -> None:
        """After writing a variable declared with ``reset:``: note that the
        next reset of its scope has something to set back (resets with
        nothing to do are skipped; a phase reset runs for every player in
        every phase)."""
        when = self.reset_scope.get(var)
        if when is not None:
            self.assign(f"m.dirty[{when!r}]", "True")

    def s_choose_stmt(self, node):
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
        args = "".join(", " + self.expr(a).src for a in arg_nodes)
        effects = self.names.option_effects.get(name)
        if effects and arg_nodes:
            # the option's effect gets the same arguments: computed once
            self.assign("_ca", f"({args[2:]},)")
            args = "".join(f", _ca[{i}]" for i in range(len(arg_nodes)))
        self.hoist("CH")
        here = self.here()
        self.assign("_d", f"{self.choice_fn[name]}(m{args})")
        none: list[Stmt] = []
        if name in self.choice_if_none:
            call = f"{self.if_none_fn[name]}(m{args})"
            none.append(YieldFrom(call, origin=here) if self.choice_if_none[name] else Do(call, origin=here))
        none.append(Do(f"_no_option({name!r}, {self.rule!r}, {self.where_const(node)})", origin=here))
        self.add(If([("_d is None", none)], origin=here))
        asked: list[Stmt] = [Decide("_a", "_d", origin=here), Assign(f"CH[{name!r}]", _ANSWER, origin=here)]
        skip = self.names.choice_skip.get(name)
        if skip is None:
            self.out.extend(asked)
        else:
            # A response window.  By default the seat is asked even when
            # this is its only answer, so that what the others see (a
            # pending decision of that seat, then its answer in the log) is
            # the same whatever it holds.  With m.auto_pass the only answer
            # is taken without asking and logged exactly like an answer
            # given: the log still cannot tell "had nothing to answer with"
            # from "chose not to", but a live view of the others could.
            alone: list[Stmt] = [
                Assign("_a", "_d.options[0]", origin=here),
                Do("m.log.append(('decide', _d, _a, [m.loc[i] for i in _a.cards] if _a.cards else None))",
                   origin=here),
                Assign(f"CH[{name!r}]", _ANSWER, origin=here)]
            self.add(If([(f"m.auto_pass and len(_d.options) == 1 and _d.options[0].option == {skip!r}",
                          alone)], asked, origin=here))
        if effects:
            self._option_effects(name, effects, args)

    def _option_effects(self, name: str, effects: tuple, args: str) -> None:
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

    def s_call_stmt(self, node):
        name_tok, args_n = node.children
        name = str(name_tok)
        if name not in self.names.procedures:
            self.error(name_tok, f"unknown procedure '{name}'",
                       "a name declared under procedures", suggest(name, self.names.procedures))
            return
        tree = self.inline_procs.get(name)
        if tree is not None and args_n is None:
            # written in place, it cannot call itself: only its own loops
            # can go on forever, and they count their steps
            self._inline(name, tree)
            return
        self.tick()
        self.do(self.proc_call(name_tok, _call_args(args_n), explicit=True).src)

    def _inline(self, name: str, tree: Tree) -> None:
        """Write a procedure's body in place of ``call NAME`` (it cannot call
        itself): no function call, and no generator when it can decide.  Its
        locals get a prefix of their own, so it sees none of the caller's."""
        saved = (self.prefix, self.locals, self.local_kinds, self._assigned, self.rule)
        self.inlined += 1
        self.prefix = f"L{self.inlined}_"
        self.locals = self.comp_vars | self._declared(tree)
        self.local_kinds = {}
        self._assigned = self._assigned_names(tree)
        self.rule = f"procedure '{name}'"
        saved_path, self.text_path = self.text_path, self.proc_paths.get(name, ("procedures", name))
        saved_via, self.via = self.via, self.via + ((self.origin, saved[4]),)
        errors = len(self.errors)
        self.in_place(tree.children)     # in the caller's block: the passes see one run of statements
        del self.errors[errors:]     # reported once, where the procedure is written
        self.text_path, self.via = saved_path, saved_via
        self.prefix, self.locals, self.local_kinds, self._assigned, self.rule = saved

    def s_emit_stmt(self, node):
        """Game-wide triggers first, in file order; then, for each player
        still in the game in seat order from the current player, the
        triggers held per player (``each_player``) in file order."""
        event_tok, kwargs_n, as_tok = node.children
        event = str(event_tok)
        gen = event in self.deciding_events
        fields = [(str(k.children[0]), self.expr(k.children[1]).src)
                  for k in (kwargs_n.children if kwargs_n is not None else ())]
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
            saved, self.out = self.out, []
            for t in held:
                self.add(If([("m.out[_o]", [Continue(origin=here)])], one_line=True, origin=here))
                self._fire(t, "_ev, _o", gen)
            body, self.out = self.out, saved
            self.add(For("_o", "m.seats_from(m.current)", body, origin=here))
        if as_tok is not None:
            self.assign(self.local(str(as_tok)), "_ev")
            if str(as_tok) not in self._assigned:
                self.local_kinds[str(as_tok)] = "event"

    def _fire(self, t: dict, args: str, gen: bool) -> None:
        saved = self.out
        if t["has_when"]:
            self.out = []
        self.tick()
        call = f"{t['fn']}(m, {args})"
        self.add(YieldFrom(call, origin=self.here()) if gen and t["is_gen"] else Do(call, origin=self.here()))
        if t["has_when"]:
            body, self.out = self.out, saved
            guard = f"{t['seat_guard']} and " if t.get("seat_guard") and args == "_ev, _o" else ""  # trigger_guards
            self.add(If([(f"{guard}{t['when_fn']}(m, {args})", body)], origin=self.here()))

    def s_return_stmt(self, node):
        if self.in_flow or not self.can_return:
            self.error(node, "'return' outside a procedure or trigger",
                       "'end turn' to end the turn, or 'goto PHASE'")
            return
        value = node.children[0]
        self.add(Return(None if value is None else self.expr(value).src, origin=self.here()))

    def s_eliminate_stmt(self, node):
        self.do(f"m.eliminate({self.expr(node.children[0])})")

    def s_goto_stmt(self, node):
        name = str(node.children[0])
        if name not in self.names.phases:
            self.error(node.children[0], f"unknown phase '{name}'", "the name of a phase under turn",
                       suggest(name, self.names.phases))
            return
        if self.in_flow and self.loop_depth == 0:   # straight to the phase, no exception
            self.tick()        # a goto back to an earlier phase may loop
            self.assign("ph", str(self.names.phases[name]))
            self.add(Continue(origin=self.here()))
        else:
            self.add(Raise(f"_Goto({self.names.phases[name]})", origin=self.here()))

    def s_end_turn_stmt(self, node):
        if self.in_flow and self.loop_depth == 0:
            self.add(Break(origin=self.here()))
        else:
            self.add(Raise("_EndTurn()", origin=self.here()))

    def s_next_player_stmt(self, node):
        self.assign("m.next_player", self.expr(node.children[0]).src)

    def s_win_stmt(self, node):
        who, reason_tok = node.children
        reason = _unquote(reason_tok) if reason_tok is not None else "won"
        if who is None:
            self.add(Raise(f"_GameOver('win', {reason!r})", origin=self.here()))
        else:
            self.add(Raise(f"_GameOver('win', {reason!r}, _winners({self.expr(who)}))", origin=self.here()))

    def s_lose_stmt(self, node):
        reason = _unquote(node.children[0]) if node.children[0] is not None else "lost"
        self.add(Raise(f"_GameOver('loss', {reason!r})", origin=self.here()))

    def s_log_stmt(self, node):
        text = _fixed_text(node.children[0])
        if text is None:
            self.error(node.children[0], "log writes a fixed text",
                       "a string, or strings joined with + (a module's text parameters are strings)",
                       "the log is read by every player, so its notes are fixed when the file loads: "
                       "nothing a match computes (a hidden card) can reach it")
            return
        self.do(f"m.log.append(('note', {text!r}))")

    def s_if_stmt(self, node):
        cond_n, suite_n, *rest = node.children
        else_n = rest.pop() if rest and (rest[-1] is None or rest[-1].data == "else_clause") else None
        branches = [(self.expr(cond_n).src, self.block(suite_n.children))]
        for el in rest:
            branches.append((self.expr(el.children[0]).src, self.block(el.children[1].children)))
        orelse = self.block(else_n.children[0].children) if else_n is not None else None
        self.add(If(branches, orelse, origin=self.here()))

    def s_while_stmt(self, node):
        cond = self.expr(node.children[0]).src
        self.add(While(cond, self._loop_body(node.children[1].children), origin=self.here()))

    def s_for_stmt(self, node):
        var, seq_n, suite_n = node.children
        target, seq = self.local(str(var)), self._seq(seq_n)
        if self._elem_kind(seq_n) == "int" and str(var) not in self._assigned:
            self.local_kinds[str(var)] = "int"
        self.add(For(target, f"list({seq})", self._loop_body(suite_n.children), origin=self.here()))

    def _loop_body(self, stmts) -> list[Stmt]:
        """A loop's body: it counts a step every time round."""
        saved, self.out = self.out, []
        self.tick()
        self.loop_depth += 1
        self.out.extend(self.block(stmts))
        self.loop_depth -= 1
        body, self.out = self.out, saved
        return body
