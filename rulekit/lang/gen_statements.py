"""Writing statements of the effect language as Python lines.

Part of :class:`rulekit.lang.codegen.CodeGen` (a mixin).  Each ``s_*`` method
writes the lines for one statement of the grammar at an indentation depth.
"""
from __future__ import annotations

from typing import Any

import attrs
from lark import Tree

from .fn_names import TABLED, split_table
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


@attrs.define
class _Split:
    """The last ``move (ZONE where TEST) to ...`` written, which the next one
    from the same zone may join (see ``_join_split``)."""

    fn: Any                 # the function being written
    lines: int              # how many lines it had just after this move
    zone: str
    depth: int
    tables: list            # the per-card tables of the tests, in order
    targets: list           # (destination, bottom, shuffled) per test
    name: str | None = None  # the first-match table, once a second move joined

class StatementsMixin:
    # ---- statements ---------------------------------------------------------
    def block(self, stmts, depth: int) -> None:
        before = len(self.fn.lines)
        for s in stmts:
            if s is not None:
                self.stmt(s, depth)
        if len(self.fn.lines) == before:
            self.emit(depth, "pass")

    def stmt(self, node: Tree, depth: int) -> None:
        method = getattr(self, "s_" + node.data, None)
        if method is None:  # pragma: no cover - grammar and compiler out of step
            self.error(node, f"statement '{node.data}' is not supported")
            return
        saved, self.origin = self.origin, self.origin_of(node)
        method(node, depth)
        self.origin = saved

    def s_suite(self, node, depth):
        self.block(node.children, depth)

    def s_pass_stmt(self, node, depth):
        self.emit(depth, "pass")

    def s_move_stmt(self, node, depth):
        src_n, dest_n, place = node.children
        dest, kind = self.expr(dest_n)
        if kind != "zone":
            dest = f"_as_zone({dest}, {self.rule!r})"
        bottom = place is not None and str(place) == "bottom"
        if (isinstance(src_n, Tree) and src_n.data == "call" and str(src_n.children[0]) == "top"
                and src_n.children[1] is not None and len(src_n.children[1].children) == 2):
            zone_n, count_n = src_n.children[1].children
            zone, zkind = self.expr(zone_n)
            if zkind == "zone":
                count = self.expr(count_n)[0]
                if count == "1":
                    self.emit(depth, f"m.move_top1({zone}, {dest}, {bottom})")
                else:
                    self.emit(depth, f"m.move_top({zone}, {count}, {dest}, {bottom})")
                return
        if self._move_where(src_n, dest, bottom, depth):
            return
        src, kind = self.expr(src_n)
        chosen = self._chosen_cards(src_n)
        if chosen is not None and chosen in self.names.one_card_choices:
            self.emit(depth, f"m.move_one({src}, {dest}, {bottom})")
        elif kind == "cards":       # a chosen answer's cards: no need to ask what it is
            self.emit(depth, f"m.move_cards({src}, {dest}, {bottom})")
        elif kind == "zone":
            self.emit(depth, f"m.move_zone({src}, {dest}, {bottom})")
        else:
            self.emit(depth, f"m.move({src}, {dest}, {bottom})")

    def _move_where(self, src_n, dest: str, bottom: bool, depth: int) -> bool:
        """``move [shuffled](ZONE where TEST) to ...`` with a test that only
        reads card properties: split the zone in one pass instead of
        filtering it and then searching for each card."""
        shuffle = False
        if (isinstance(src_n, Tree) and src_n.data == "call" and str(src_n.children[0]) == "shuffled"
                and src_n.children[1] is not None and len(src_n.children[1].children) == 1):
            src_n, shuffle = src_n.children[1].children[0], True
        if not (isinstance(src_n, Tree) and src_n.data == "where_op"):
            return False
        zone, zkind = self.expr(src_n.children[0])
        if zkind != "zone" or self._elem_kind(src_n.children[0]) != "card":
            return False
        test = self._filter(src_n.children[1], "card")
        if not TABLED.fullmatch(test):
            return False
        table = test.split("[", 1)[0]
        target = (dest, bottom, shuffle)
        if self._join_split(zone, table, target, depth):
            return True
        self.emit(depth, f"m.move_where({zone}, {table}, {dest}, {bottom}, {shuffle})")
        self.last_split = _Split(self.fn, len(self.fn.lines), zone, depth, [table], [target])
        return True

    def _join_split(self, zone: str, table: str, target: tuple, depth: int) -> bool:
        """Merge ``move (Z where T2) to D2`` into the move just written when
        that was ``move (Z where T1) to D1`` from the same shared zone: one
        pass over Z then files each card under the first test it passes.
        Dealing a box into several piles is the usual case.  The result, the
        log and the random draws are those of the separate moves, because no
        card can come back to Z in between (no destination is Z)."""
        last = self.last_split
        if (last is None or last.fn is not self.fn or last.lines != len(self.fn.lines)
                or last.zone != zone or last.depth != depth or not zone.startswith("GZ[")):
            return False
        targets = last.targets + [target]
        if any(not (d.startswith("GZ[") or d.startswith("PZ[")) or d == zone for d, _, _ in targets):
            return False
        last.tables.append(table)
        last.targets.append(target)
        if last.name is None:
            last.name = split_table(len(self.split_tables))
        self.split_tables[last.name] = tuple(last.tables)
        dests = ", ".join(f"({d}, {b}, {sh})" for d, b, sh in targets)
        self.fn.lines[-1] = "    " * depth + f"m.move_split({zone}, {last.name}, ({dests},))"
        return True

    def s_shuffle_stmt(self, node, depth):
        zone, kind = self.expr(node.children[0])
        if kind != "zone":
            zone = f"_as_zone({zone}, {self.rule!r})"
        self.emit(depth, f"m.shuffle({zone})")

    def s_let_stmt(self, node, depth):
        name, value_n = node.children
        self.emit(depth, f"{self.local(str(name))} = {self.expr(value_n)[0]}")

    def s_assign_stmt(self, node, depth):
        target, op_tok, value_n = node.children
        value = self.expr(value_n)[0]
        op = str(op_tok)
        parts = [str(t) for t in target.children]
        if len(parts) == 2 and parts[0] in self.locals and self.local_kinds.get(parts[0]) == "event":
            if self.event_field_known(target.children[1]):
                self.emit(depth, f"{self.local(parts[0])}[{parts[1]!r}] {op} {value}")
            return
        if len(parts) == 2 and parts[1] in self.names.card_vars:
            owner = self.expr(Tree("name", [target.children[0]]))[0]
            var = parts[1]
            if op == "=":
                self.emit(depth, f"_set_cv(m, {owner}, {var!r}, {value}, {self.rule!r})")
            else:
                self.emit(depth, f"_set_cv(m, {owner}, {var!r}, _cv(m, {owner}, {var!r}) {op[:-1]} ({value}), "
                          f"{self.rule!r})")
            return
        if len(parts) == 2:
            owner = self.expr(Tree("name", [target.children[0]]))[0]
            var = parts[1]
            if var not in self.names.player_vars:
                self.error(target.children[1], f"unknown player variable '{var}'",
                           "a name declared under player_vars", suggest(var, self.names.player_vars))
                return
            self._assign(depth, f"m.pvars[{owner}][{var!r}]", op, value)
            self._changed(depth, ("player_vars", var))
            return
        (name,) = parts
        if name in self.locals:
            self._assign(depth, self.local(name), op, value)
            return
        if name in self.names.vars:
            self.fn.hoist.add("V")
            self._assign(depth, f"V[{name!r}]", op, value)
            self._changed(depth, ("vars", name))
            return
        self.error(target, f"cannot assign to unknown variable '{name}'",
                   "a variable declared under vars, or a local introduced with 'let'",
                   suggest(name, self.names.vars | self.locals) or f"declare it: vars: {{{name}: 0}}")

    def _assign(self, depth: int, target: str, op: str, value: str) -> None:
        """``x op= v`` as ``x = x op v``: values in effect text are values, so
        ``a += [c]`` makes a new list rather than changing one that another
        variable, or a chosen answer's shared card list, also holds."""
        if op == "=":
            self.emit(depth, f"{target} = {value}")
        else:
            self.emit(depth, f"{target} = {target} {op[:-1]} ({value})")

    def _changed(self, depth: int, var: tuple) -> None:
        """After writing a variable declared with ``reset:``: note that the
        next reset of its scope has something to set back (resets with
        nothing to do are skipped; a phase reset runs for every player in
        every phase)."""
        when = self.reset_scope.get(var)
        if when is not None:
            self.emit(depth, f"m.dirty[{when!r}] = True")

    def s_choose_stmt(self, node, depth):
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
        args = "".join(", " + self.expr(a)[0] for a in arg_nodes)
        effects = self.names.option_effects.get(name)
        if effects and arg_nodes:
            # the option's effect gets the same arguments: computed once
            self.emit(depth, f"_ca = ({args[2:]},)")
            args = "".join(f", _ca[{i}]" for i in range(len(arg_nodes)))
        self.fn.hoist.add("CH")
        self.emit(depth, f"_d = {self.choice_fn[name]}(m{args})")
        self.emit(depth, "if _d is None:")
        if name in self.choice_if_none:
            call = f"{self.if_none_fn[name]}(m{args})"
            self.emit(depth + 1, f"yield from {call}" if self.choice_if_none[name] else call)
        self.emit(depth + 1, f"_no_option({name!r}, {self.rule!r}, {self.where_const(node)})")
        skip = self.names.choice_skip.get(name)
        if skip is not None:
            # A response window.  By default the seat is asked even when
            # this is its only answer, so that what the others see (a
            # pending decision of that seat, then its answer in the log) is
            # the same whatever it holds.  With m.auto_pass the only answer
            # is taken without asking and logged exactly like an answer
            # given: the log still cannot tell "had nothing to answer with"
            # from "chose not to", but a live view of the others could.
            self.emit(depth, f"if m.auto_pass and len(_d.options) == 1 and _d.options[0].option == {skip!r}:")
            self.emit(depth + 1, "_a = _d.options[0]")
            self.emit(depth + 1, "m.log.append(('decide', _d, _a, "
                                 "[m.loc[i] for i in _a.cards] if _a.cards else None))")
            self.emit(depth + 1, f"CH[{name!r}] = {_ANSWER}")
            self.emit(depth, "else:")
            depth += 1
        self.emit(depth, "_a = yield _d")
        self.emit(depth, f"CH[{name!r}] = {_ANSWER}")
        if effects:
            self._option_effects(name, effects, args, depth - (1 if skip is not None else 0))

    def _option_effects(self, name: str, effects: tuple, args: str, depth: int) -> None:
        """After ``choose``: run the effect of the option chosen, if it has one
        (a skill's option runs the skill: nobody dispatches on its name)."""
        self.tick(depth)
        self.emit(depth, f"_r = CH[{name!r}]")
        for k, (option, proc) in enumerate(effects):
            call = f"{self.proc_fn[proc]}(m, _r.cards, _r.option, _r.player, _r.number{args})"
            self.emit(depth, f"{'if' if k == 0 else 'elif'} _r.option == {option!r}:")
            self.emit(depth + 1, f"yield from {call}" if proc in self.deciding_procs else call)

    def s_call_stmt(self, node, depth):
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
            self._inline(name, tree, depth)
            return
        self.tick(depth)
        src, _ = self.proc_call(name_tok, _call_args(args_n), explicit=True)
        self.emit(depth, src)

    def _inline(self, name: str, tree: Tree, depth: int) -> None:
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
        self.block(tree.children, depth)
        del self.errors[errors:]     # reported once, where the procedure is written
        self.text_path, self.via = saved_path, saved_via
        self.prefix, self.locals, self.local_kinds, self._assigned, self.rule = saved

    def s_emit_stmt(self, node, depth):
        """Game-wide triggers first, in file order; then, for each player
        still in the game in seat order from the current player, the
        triggers held per player (``each_player``) in file order."""
        event_tok, kwargs_n, as_tok = node.children
        event = str(event_tok)
        gen = event in self.deciding_events
        fields = [(str(k.children[0]), self.expr(k.children[1])[0])
                  for k in (kwargs_n.children if kwargs_n is not None else ())]
        mine = [t for t in self.triggers if t["on"] == event]
        items = "".join(f", {k!r}: {v}" for k, v in fields)
        if mine or as_tok is not None or fields:
            # the log keeps the event itself: its fields as the triggers leave them
            self.emit(depth, f"_ev = {{'name': {event!r}{items}}}")
            self.emit(depth, f"m.log.append(('event', {event!r}, _ev))")
        else:
            self.emit(depth, f"m.log.append(('event', {event!r}, None))")
        shared = [t for t in mine if not t.get("each_player")]
        held = [t for t in mine if t.get("each_player")]
        for t in shared:
            self._fire(t, depth, "_ev", gen)
        if held:
            self.emit(depth, "for _o in m.seats_from(m.current):")
            for t in held:
                self.emit(depth + 1, "if m.out[_o]: continue")
                self._fire(t, depth + 1, "_ev, _o", gen)
        if as_tok is not None:
            self.emit(depth, f"{self.local(str(as_tok))} = _ev")
            if str(as_tok) not in self._assigned:
                self.local_kinds[str(as_tok)] = "event"

    def _fire(self, t: dict, depth: int, args: str, gen: bool) -> None:
        d = depth
        if t["has_when"]:
            self.emit(depth, f"if {t['when_fn']}(m, {args}):")
            d = depth + 1
        self.tick(d)
        call = f"{t['fn']}(m, {args})"
        self.emit(d, f"yield from {call}" if gen and t["is_gen"] else call)

    def s_return_stmt(self, node, depth):
        if self.in_flow or not self.can_return:
            self.error(node, "'return' outside a procedure or trigger",
                       "'end turn' to end the turn, or 'goto PHASE'")
            return
        value = node.children[0]
        self.emit(depth, "return" if value is None else f"return {self.expr(value)[0]}")

    def s_eliminate_stmt(self, node, depth):
        self.emit(depth, f"m.eliminate({self.expr(node.children[0])[0]})")

    def s_goto_stmt(self, node, depth):
        name = str(node.children[0])
        if name not in self.names.phases:
            self.error(node.children[0], f"unknown phase '{name}'", "the name of a phase under turn",
                       suggest(name, self.names.phases))
            return
        if self.in_flow and self.loop_depth == 0:   # straight to the phase, no exception
            self.tick(depth)        # a goto back to an earlier phase may loop
            self.emit(depth, f"ph = {self.names.phases[name]}")
            self.emit(depth, "continue")
        else:
            self.emit(depth, f"raise _Goto({self.names.phases[name]})")

    def s_end_turn_stmt(self, node, depth):
        if self.in_flow and self.loop_depth == 0:
            self.emit(depth, "break")
        else:
            self.emit(depth, "raise _EndTurn()")

    def s_next_player_stmt(self, node, depth):
        self.emit(depth, f"m.next_player = {self.expr(node.children[0])[0]}")

    def s_win_stmt(self, node, depth):
        who, reason_tok = node.children
        reason = _unquote(reason_tok) if reason_tok is not None else "won"
        if who is None:
            self.emit(depth, f"raise _GameOver('win', {reason!r})")
        else:
            self.emit(depth, f"raise _GameOver('win', {reason!r}, _winners({self.expr(who)[0]}))")

    def s_lose_stmt(self, node, depth):
        reason = _unquote(node.children[0]) if node.children[0] is not None else "lost"
        self.emit(depth, f"raise _GameOver('loss', {reason!r})")

    def s_log_stmt(self, node, depth):
        text = _fixed_text(node.children[0])
        if text is None:
            self.error(node.children[0], "log writes a fixed text",
                       "a string, or strings joined with + (a module's text parameters are strings)",
                       "the log is read by every player, so its notes are fixed when the file loads: "
                       "nothing a match computes (a hidden card) can reach it")
            return
        self.emit(depth, f"m.log.append(('note', {text!r}))")

    def s_if_stmt(self, node, depth):
        cond_n, suite_n, *rest = node.children
        else_n = rest.pop() if rest and (rest[-1] is None or rest[-1].data == "else_clause") else None
        self.emit(depth, f"if {self.expr(cond_n)[0]}:")
        self.block(suite_n.children, depth + 1)
        for el in rest:
            self.emit(depth, f"elif {self.expr(el.children[0])[0]}:")
            self.block(el.children[1].children, depth + 1)
        if else_n is not None:
            self.emit(depth, "else:")
            self.block(else_n.children[0].children, depth + 1)

    def s_while_stmt(self, node, depth):
        self.emit(depth, f"while {self.expr(node.children[0])[0]}:")
        self.tick(depth + 1)
        self.loop_depth += 1
        self.block(node.children[1].children, depth + 1)
        self.loop_depth -= 1

    def s_for_stmt(self, node, depth):
        var, seq_n, suite_n = node.children
        self.emit(depth, f"for {self.local(str(var))} in list({self._seq(seq_n)}):")
        if self._elem_kind(seq_n) == "int" and str(var) not in self._assigned:
            self.local_kinds[str(var)] = "int"
        self.tick(depth + 1)
        self.loop_depth += 1
        self.block(suite_n.children, depth + 1)
        self.loop_depth -= 1

