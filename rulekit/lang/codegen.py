"""Compiling parsed effect text to Python functions.

Why generate Python: random play must run at a good fraction of a
hand-written implementation's speed (see ``bench/``), and an interpreter that
walks closures per node is ten to twenty times slower than straight Python.
So each piece of effect text becomes one Python function whose body mirrors
the text line by line: ``let`` names become Python locals, ``where`` filters
become list comprehensions, a ``choose`` becomes a ``yield`` that suspends the
match at a decision (so any script that can decide is a generator).

Why this is safe: effect text is never executed.  The compiler writes Python
from the *lark parse tree*, node by node, from a fixed set of templates.  The
only things that reach the generated code from the rule file are
identifiers that matched the grammar's NAME pattern (always prefixed, so they
cannot name a Python builtin or dunder) and constants written with
``repr()``.  A name that is not declared in the rule file is a load-time
error, so effect text can reach nothing but the match it runs on.  All
functions of one game form one generated module, compiled once at load time
(the approach ``collections.namedtuple`` takes).

Every error found here is a :class:`CompileError` with the line and column
*inside the effect text*; the loader maps it to file:line:column.
"""
from __future__ import annotations

import linecache
from typing import Any

from lark import Token, Tree

from . import runtime_helpers
from .names import BUILTINS, SPECIAL_FUNCTIONS, SPECIAL_NAMES, Names, suggest

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_ARITH = {"+", "-", "*", "//", "%"}
CHOSEN_FIELDS = ("option", "cards", "player", "by")


class CompileError(Exception):
    """``path`` (when set) says which key of a choice the text came from."""

    def __init__(self, message: str, line: int, column: int, expected: str = "", hint: str = "",
                 path: tuple = ()):
        self.message, self.line, self.column = message, line, column
        self.expected, self.hint, self.path = expected, hint, path
        super().__init__(message)


def _pos(node) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 0, node.column or 0
    meta = getattr(node, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        return meta.line, meta.column
    for child in getattr(node, "children", ()):
        if child is not None:
            return _pos(child)
    return 0, 0


def _unquote(tok: Token) -> str:
    return str(tok)[1:-1]


def collect_flags(tree: Tree) -> tuple[bool, set[str], set[str]]:
    """(has a ``choose``, procedures called, events emitted) — used to decide
    which scripts can stop at a decision before any is compiled."""
    has_choose, calls, emits = False, set(), set()
    for sub in tree.iter_subtrees():
        if sub.data == "choose_stmt":
            has_choose = True
        elif sub.data == "call_stmt":
            calls.add(str(sub.children[0]))
        elif sub.data == "emit_stmt":
            emits.add(str(sub.children[0]))
    return has_choose, calls, emits


def _local(name: str) -> str:
    return "L_" + name


class _Keyed(dict):
    """The parsed expressions of one option; reading one sets the error path,
    so an error is reported at the key it came from."""

    def __init__(self, trees: dict, gen: "CodeGen", base: tuple):
        super().__init__(trees)
        self.gen, self.base = gen, base

    def __getitem__(self, key):
        self.gen.error_path = self.base + (key,)
        return super().__getitem__(key)


class _Func:
    """One generated function being written."""

    def __init__(self, name: str, params: tuple[str, ...], rule: str):
        self.name, self.params, self.rule = name, params, rule
        self.lines: list[str] = []
        self.hoist: set[str] = set()
        self.tmp = 0

    def temp(self) -> str:
        self.tmp += 1
        return f"_t{self.tmp}"

    def source(self) -> str:
        head = f"def {self.name}(m{''.join(', ' + _local(p) for p in self.params)}):"
        hoists = [f"    {h} = m.{attr}" for h, attr in
                  (("V", "vars"), ("GZ", "gz"), ("PZ", "pz"), ("CH", "chosen")) if h in self.hoist]
        body = self.lines or ["    pass"]
        return "\n".join([head, *hoists, *body]) + "\n"


class CodeGen:
    """Writes the generated module of one rule file.

    Function names are fixed before any body is written (procedures ``P0..``,
    choice enumerators ``O0..``, trigger bodies ``T0..``), so bodies may refer
    to each other in any order.
    """

    def __init__(self, names: Names, deciding_procs: set[str], deciding_events: set[str],
                 triggers: list[dict], choice_if_none: dict[str, bool]):
        self.names = names
        self.deciding_procs = deciding_procs
        self.deciding_events = deciding_events
        self.proc_fn = {p: f"P{i}" for i, p in enumerate(sorted(names.procedures))}
        self.choice_fn = {c: f"O{i}" for i, c in enumerate(sorted(names.choices))}
        self.if_none_fn = {c: f"N{i}" for i, c in enumerate(sorted(names.choices))}
        self.choice_if_none = choice_if_none  # choice -> if_none is a generator
        self.triggers = triggers  # [{"on", "has_when", "index"}]
        self.ns: dict[str, Any] = dict(runtime_helpers.NAMESPACE)
        self.chunks: list[str] = []
        self.errors: list[CompileError] = []
        self.func_rules: dict[str, str] = {}
        self.counter = 0
        self.fn: _Func | None = None
        self.locals: set[str] = set()
        self.local_kinds: dict[str, str] = {}   # locals whose kind is known (e.g. "it" over a zone)
        self.static_preds: dict[str, str] = {}  # predicate source -> name of its per-card table
        self.pools: dict[tuple[str, str], str] | None = None
        self.error_path: tuple = ()     # key of the choice being compiled, for error positions
        self._assigned: set[str] = set()
        self.card_props: frozenset[str] = frozenset()

    # ---- helpers ------------------------------------------------------------
    def const(self, value: Any) -> str:
        self.counter += 1
        name = f"K{self.counter}"
        self.ns[name] = value
        return name

    def error(self, node, message: str, expected: str = "", hint: str = ""):
        line, col = _pos(node)
        self.errors.append(CompileError(message, line, col, expected, hint, self.error_path))

    def _begin(self, name: str, params: tuple[str, ...], rule: str, local_names: set[str]):
        self.fn = _Func(name, params, rule)
        self.locals = set(params) | local_names
        self.func_rules[name] = rule

    def _end(self):
        self.chunks.append(self.fn.source())
        self.fn = None

    def emit(self, depth: int, text: str):
        self.fn.lines.append("    " * depth + text)

    def tick(self, depth: int):
        self.emit(depth, "m.steps += 1")
        self.emit(depth, f"if m.steps > m.budget: m.over_budget({self.fn.rule!r})")

    # ---- whole functions ------------------------------------------------------
    def script(self, fname: str, tree: Tree, rule: str, params: tuple[str, ...] = ()) -> None:
        declared = {str(s.children[0]) for s in tree.iter_subtrees() if s.data in ("let_stmt", "for_stmt")}
        # names also set by let or assignment may hold anything: no kind for them
        self._assigned = {str(s.children[0]) for s in tree.iter_subtrees() if s.data == "let_stmt"} | {
            str(s.children[0].children[0]) for s in tree.iter_subtrees() if s.data == "assign_stmt"}
        self._begin(fname, params, rule, declared)
        self.local_kinds = {}
        self.block(tree.children, 1)
        self._end()

    def expression(self, fname: str, tree: Tree, rule: str, params: tuple[str, ...] = ()) -> None:
        self._begin(fname, params, rule, set())
        src, _ = self.expr(tree)
        self.emit(1, f"return {src}")
        self._end()

    def constant(self, fname: str, value: Any, params: tuple[str, ...] = ()) -> None:
        self._begin(fname, params, "constant", set())
        self.emit(1, f"return {self.const(value)}")
        self._end()

    def choice(self, cname: str, spec: dict, parsed: dict, rule: str) -> None:
        """The enumerator ``O_i(m)``: the Decision with every legal action, or None."""
        self._begin(self.choice_fn[cname], (), rule, set())
        self.pools = {}
        self.emit(1, "out = []")
        for i, opt in enumerate(spec["options"]):
            trees = _Keyed(parsed[i], self, ("options", i))
            depth = 1
            if "when" in trees:
                self.emit(1, f"if {self.expr(trees['when'])[0]}:")
                depth = 2
            name = repr(opt["name"])
            if "cards" in opt or "parts" in opt:
                self._card_option(opt, trees, name, depth)
            elif "player" in opt:
                src = self._seq(trees["player"])
                self.emit(depth, f"for L_it in {src}:")
                act = self._action_table("player", opt["name"])
                if "where" in trees:
                    self.emit(depth + 1, f"if {self.expr(trees['where'], extra={'it'})[0]}:")
                    self.emit(depth + 2, f"out.append({act}[L_it])")
                else:
                    self.emit(depth + 1, f"out.append({act}[L_it])")
            else:
                self.emit(depth, f"out.append({self.const(runtime_helpers.Action(opt['name']))})")
        self.emit(1, "if not out: return None")
        self.error_path = ("who",)
        who = self.expr(parsed["who"])[0] if "who" in parsed else "m.current"
        self.error_path = ()
        self.emit(1, f"return _Decision({who}, {cname!r}, {spec.get('prompt', cname)!r}, out)")
        self._end()

    def _card_option(self, opt: dict, trees: dict, name: str, depth: int) -> None:
        lo, hi = opt["_range"]
        src = self._seq(trees["from"]) if "from" in trees else "()"
        elem = self._elem_kind(trees["from"]) if "from" in trees else "any"
        pred = self._filter(trees["where"], elem) if "where" in trees else "True"
        key = (src, pred)
        if "parts" in opt and pred == "True":
            self._parts_option(trees["parts"], elem, self._require(trees, elem), name, depth,
                               trees.base, src)
            return
        if depth == 1 and key in self.pools:       # the same cards as an earlier option
            self.emit(depth, f"pool = {self.pools[key]}")
        else:
            self.emit(depth, f"pool = [L_it for L_it in {src} if {pred}]" if pred != "True"
                      else f"pool = list({src})")
            if depth == 1:
                self.pools[key] = f"_pool{len(self.pools)}"
                self.emit(depth, f"{self.pools[key]} = pool")
        require = self._require(trees, elem)
        if "parts" in opt:
            parts = trees["parts"]
            self._parts_option(parts, elem, require, name, depth, trees.base)
            return
        if lo == hi == 1 and require is None and opt.get("same") is None:
            act = self._action_table("card", opt["name"])
            self.emit(depth, f"out.extend([{act}[c.id] for c in pool])")
            return
        groups = f"_groups(pool, {opt['same']!r}, {lo})" if opt.get("same") else "(pool,)"
        self.emit(depth, f"for grp in {groups}:")
        self.emit(depth + 1, f"for k in range({lo}, min({hi}, len(grp)) + 1):")
        self.emit(depth + 2, "for L_chosen in _combinations(grp, k):")
        if require is not None:
            self.emit(depth + 3, f"if {require}:")
            self.emit(depth + 4, f"out.append(_tn(_Action, ({name}, tuple([c.id for c in L_chosen]), None)))")
        else:
            self.emit(depth + 3, f"out.append(_tn(_Action, ({name}, tuple([c.id for c in L_chosen]), None)))")

    def _action_table(self, kind: str, option: str) -> str:
        """A memo of Action objects for one option (actions are immutable, so
        one object per card or seat serves every match): its ``get``."""
        return self.const(runtime_helpers.ActionMemo(option, kind))

    def _require(self, trees, elem: str) -> str | None:
        if "require" not in trees:
            return None
        return self.expr(trees["require"], extra={"chosen"},
                         kinds={"chosen": "cards" if elem == "card" else "list"})[0]

    def _parts_option(self, parts: list, elem: str, require: str | None, name: str, depth: int,
                      base: tuple = (), src: str | None = None):
        """One distinct card per part; each set of cards is offered once.
        With ``src`` (no ``where``), each part's cards are a pool of their own,
        shared with other options that filter the same cards the same way."""
        lists = []
        for i, tree in enumerate(parts):
            self.error_path = base + ("parts", i)
            pred = self._filter(tree, elem)
            self.error_path = ()
            if src is None:
                self.emit(depth, f"_p{i} = [L_it for L_it in pool if {pred}]")
            elif depth == 1 and (src, pred) in self.pools:
                self.emit(depth, f"_p{i} = {self.pools[(src, pred)]}")
            else:
                self.emit(depth, f"_p{i} = [L_it for L_it in {src} if {pred}]")
                if depth == 1:
                    self.pools[(src, pred)] = f"_pool{len(self.pools)}"
                    self.emit(depth, f"{self.pools[(src, pred)]} = _p{i}")
            lists.append(f"_p{i}")
        k = len(parts)
        self.emit(depth, "seen = set()")
        if k == 2 and require is None:
            self.emit(depth, "for a in _p0:")
            self.emit(depth + 1, "for b in _p1:")
            self.emit(depth + 2, "if a is b: continue")
            self.emit(depth + 2, "ids = (a.id, b.id) if a.id < b.id else (b.id, a.id)")
            self.emit(depth + 2, "if ids in seen: continue")
            self.emit(depth + 2, "seen.add(ids)")
            self.emit(depth + 2, f"out.append(_tn(_Action, ({name}, ids, None)))")
            return
        self.emit(depth, f"for L_chosen in _product({', '.join(lists)}):")
        self.emit(depth + 1, "ids = tuple(sorted([c.id for c in L_chosen]))")
        self.emit(depth + 1, f"if ids in seen or len(set(ids)) < {k}: continue")
        self.emit(depth + 1, "seen.add(ids)")
        if require is not None:
            self.emit(depth + 1, f"if not ({require}): continue")
        self.emit(depth + 1, f"out.append(_tn(_Action, ({name}, ids, None)))")

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
        method(node, depth)

    def s_suite(self, node, depth):
        self.block(node.children, depth)

    def s_pass_stmt(self, node, depth):
        self.emit(depth, "pass")

    def s_move_stmt(self, node, depth):
        src_n, dest_n, place = node.children
        dest, kind = self.expr(dest_n)
        if kind != "zone":
            dest = f"_as_zone({dest}, {self.fn.rule!r})"
        bottom = place is not None and str(place) == "bottom"
        if (isinstance(src_n, Tree) and src_n.data == "call" and str(src_n.children[0]) == "top"
                and src_n.children[1] is not None and len(src_n.children[1].children) == 2):
            zone_n, count_n = src_n.children[1].children
            zone, zkind = self.expr(zone_n)
            if zkind == "zone":
                count = self.expr(count_n)[0]
                self.emit(depth, f"m.move_top({zone}, {count}, {dest}, {bottom})")
                return
        src, _ = self.expr(src_n)
        self.emit(depth, f"m.move({src}, {dest}, {bottom})")

    def s_shuffle_stmt(self, node, depth):
        zone, kind = self.expr(node.children[0])
        if kind != "zone":
            zone = f"_as_zone({zone}, {self.fn.rule!r})"
        self.emit(depth, f"m.shuffle({zone})")

    def s_let_stmt(self, node, depth):
        name, value_n = node.children
        self.emit(depth, f"{_local(str(name))} = {self.expr(value_n)[0]}")

    def s_assign_stmt(self, node, depth):
        target, op_tok, value_n = node.children
        value = self.expr(value_n)[0]
        op = str(op_tok)
        parts = [str(t) for t in target.children]
        if len(parts) == 2:
            owner = self.expr(Tree("name", [target.children[0]]))[0]
            var = parts[1]
            if var not in self.names.player_vars:
                self.error(target.children[1], f"unknown player variable '{var}'",
                           "a name declared under player_vars", suggest(var, self.names.player_vars))
                return
            self.emit(depth, f"m.pvars[{owner}][{var!r}] {op} {value}")
            return
        (name,) = parts
        if name in self.locals:
            self.emit(depth, f"{_local(name)} {op} {value}")
            return
        if name in self.names.vars:
            self.fn.hoist.add("V")
            self.emit(depth, f"V[{name!r}] {op} {value}")
            return
        self.error(target, f"cannot assign to unknown variable '{name}'",
                   "a variable declared under vars, or a local introduced with 'let'",
                   suggest(name, self.names.vars | self.locals) or f"declare it: vars: {{{name}: 0}}")

    def s_choose_stmt(self, node, depth):
        name = str(node.children[0])
        if name not in self.names.choices:
            self.error(node.children[0], f"unknown choice '{name}'", "a name declared under choices",
                       suggest(name, self.names.choices))
            return
        self.fn.hoist.add("CH")
        self.emit(depth, f"_d = {self.choice_fn[name]}(m)")
        self.emit(depth, "if _d is None:")
        if name in self.choice_if_none:
            call = f"{self.if_none_fn[name]}(m)"
            self.emit(depth + 1, f"yield from {call}" if self.choice_if_none[name] else call)
        self.emit(depth + 1, f"_no_option({name!r}, {self.fn.rule!r})")
        self.emit(depth, "_a = yield _d")
        self.emit(depth, f"CH[{name!r}] = _chosen(m, _a, _d)")

    def s_call_stmt(self, node, depth):
        name = str(node.children[0])
        if name not in self.names.procedures:
            self.error(node.children[0], f"unknown procedure '{name}'",
                       "a name declared under procedures", suggest(name, self.names.procedures))
            return
        self.tick(depth)
        call = f"{self.proc_fn[name]}(m)"
        self.emit(depth, f"yield from {call}" if name in self.deciding_procs else call)

    def s_emit_stmt(self, node, depth):
        event = str(node.children[0])
        gen = event in self.deciding_events
        self.emit(depth, f"m.log.append(('event', {event!r}))")
        for t in self.triggers:
            if t["on"] != event:
                continue
            d = depth
            if t["has_when"]:
                self.emit(depth, f"if W{t['index']}(m):")
                d = depth + 1
            self.tick(d)
            call = f"T{t['index']}(m)"
            self.emit(d, f"yield from {call}" if gen and t["is_gen"] else call)

    def s_goto_stmt(self, node, depth):
        name = str(node.children[0])
        if name not in self.names.phases:
            self.error(node.children[0], f"unknown phase '{name}'", "the name of a phase under turn",
                       suggest(name, self.names.phases))
            return
        self.emit(depth, f"raise _Goto({self.names.phases[name]})")

    def s_end_turn_stmt(self, node, depth):
        self.emit(depth, "raise _EndTurn()")

    def s_next_player_stmt(self, node, depth):
        self.emit(depth, f"m.next_player = {self.expr(node.children[0])[0]}")

    def s_win_stmt(self, node, depth):
        reason = _unquote(node.children[0]) if node.children[0] is not None else "won"
        self.emit(depth, f"raise _GameOver('win', {reason!r})")

    def s_lose_stmt(self, node, depth):
        reason = _unquote(node.children[0]) if node.children[0] is not None else "lost"
        self.emit(depth, f"raise _GameOver('loss', {reason!r})")

    def s_log_stmt(self, node, depth):
        self.emit(depth, f"m.log.append(('note', {_unquote(node.children[0])!r}))")

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
        self.block(node.children[1].children, depth + 1)

    def s_for_stmt(self, node, depth):
        var, seq_n, suite_n = node.children
        self.emit(depth, f"for {_local(str(var))} in list({self._seq(seq_n)}):")
        if self._elem_kind(seq_n) == "int" and str(var) not in self._assigned:
            self.local_kinds[str(var)] = "int"
        self.tick(depth + 1)
        self.block(suite_n.children, depth + 1)

    # ---- expressions: each returns (python source, static kind) -----------------
    # kinds: "zone", "list", "card", "int", "bool", "str", "any"
    def expr(self, node, extra: set[str] | None = None, kinds: dict | None = None) -> tuple[str, str]:
        if extra:
            saved, saved_kinds = self.locals, self.local_kinds
            self.locals = saved | extra
            self.local_kinds = {**{k: v for k, v in saved_kinds.items() if k not in extra}, **(kinds or {})}
            try:
                return self.expr(node)
            finally:
                self.locals, self.local_kinds = saved, saved_kinds
        if isinstance(node, Token):
            return self.e_name(Tree("name", [node]))
        method = getattr(self, "e_" + node.data, None)
        if method is None:  # pragma: no cover
            self.error(node, f"expression '{node.data}' is not supported")
            return "None", "any"
        return method(node)

    def _seq(self, node) -> str:
        """Source for iterating a zone or list."""
        src, kind = self.expr(node)
        if kind == "zone":
            return f"{src}.cards"
        if kind in ("list", "cards", "seats"):
            return src
        return f"_seq({src})"

    def _elem_kind(self, node) -> str:
        """"card" when iterating ``node`` yields only cards, "int" for seats."""
        kind = self.expr_kind(node)
        return "card" if kind in ("zone", "cards") else "int" if kind == "seats" else "any"

    def expr_kind(self, node) -> str:
        errors = len(self.errors)
        kind = self.expr(node)[1]
        del self.errors[errors:]
        return kind

    def e_number(self, node):
        return str(int(node.children[0])), "int"

    def e_string(self, node):
        return repr(_unquote(node.children[0])), "str"

    def e_true(self, node):
        return "True", "bool"

    def e_false(self, node):
        return "False", "bool"

    def e_none(self, node):
        return "None", "any"

    def e_list_lit(self, node):
        args = node.children[0]
        items = [self.expr(a)[0] for a in args.children] if args is not None else []
        return "[" + ", ".join(items) + "]", "list"

    def e_name(self, node):
        tok = node.children[0]
        name = str(tok)
        names = self.names
        if name in self.locals:
            return _local(name), self.local_kinds.get(name, "any")
        if name in names.vars:
            self.fn.hoist.add("V")
            return f"V[{name!r}]", "any"
        if name in names.tables:
            return self.const(names.tables[name]), "any"
        if name in names.zones:
            zdef = names.zones[name]
            if zdef.per_player:
                self.error(tok, f"zone '{name}' belongs to each player", f"{name}(player)",
                           f"write {name}(current) or {name}(p)")
                return "None", "any"
            self.fn.hoist.add("GZ")
            return f"GZ[{zdef.index}]", "zone"
        if name in names.choices:
            self.fn.hoist.add("CH")
            return f"CH.get({name!r})", "any"
        if name == "current":
            return "m.current", "int"
        if name == "player_count":
            return "m.n", "int"
        if name == "players":
            return "m.players", "seats"
        self.error(tok, f"unknown name '{name}'",
                   "a variable, table, zone, choice, a name bound by let/for, or one of: "
                   + ", ".join(SPECIAL_NAMES),
                   suggest(name, set(names.all_readable()) | self.locals))
        return "None", "any"

    def e_attr(self, node):
        base_n, attr_tok = node.children
        attr = str(attr_tok)
        if (isinstance(base_n, Tree) and base_n.data == "name"
                and str(base_n.children[0]) in self.names.choices
                and str(base_n.children[0]) not in self.locals and attr in CHOSEN_FIELDS):
            self.fn.hoist.add("CH")
            cname = str(base_n.children[0])
            kind = "cards" if attr == "cards" else "any"
            return f"CH[{cname!r}].{attr}", kind
        if (isinstance(base_n, Tree) and base_n.data == "call" and str(base_n.children[0]) == "top"
                and base_n.children[1] is not None and len(base_n.children[1].children) == 1):
            zone, zkind = self.expr(base_n.children[1].children[0])
            if zkind == "zone":
                return f"_top_prop({zone}.cards, {attr!r})", "any"
        if (isinstance(base_n, Tree) and base_n.data == "name"
                and str(base_n.children[0]) in self.names.choices
                and str(base_n.children[0]) not in self.locals):
            self.error(attr_tok, f"a chosen answer has no field '{attr}'",
                       "one of: " + ", ".join(CHOSEN_FIELDS), suggest(attr, CHOSEN_FIELDS))
            return "None", "any"
        known = self.card_props | self.names.player_vars | set(CHOSEN_FIELDS)
        if attr not in self.names.player_vars and self.expr_kind(base_n) == "int":
            self.error(attr_tok, f"unknown player variable '{attr}'", "a name declared under player_vars",
                       suggest(attr, self.names.player_vars))
            return "None", "any"
        if attr not in known:
            self.error(attr_tok, f"unknown property '{attr}'",
                       "a card property, a player variable, or a chosen answer's field ("
                       + ", ".join(CHOSEN_FIELDS) + ")", suggest(attr, known))
            return "None", "any"
        base, kind = self.expr(base_n)
        if kind in ("cards", "zone"):
            seq = f"{base}.cards" if kind == "zone" else base
            return f"[c.props.get({attr!r}) for c in {seq}]", "list"
        if kind in ("list", "seats"):
            return f"_ga(m, {base}, {attr!r})", "list"
        if kind == "card":
            return f"{base}.props.get({attr!r})", "any"
        if kind == "int" and attr in self.names.player_vars:
            return f"m.pvars[{base}][{attr!r}]", "any"
        if base.isidentifier():
            return (f"({base}.props.get({attr!r}) if type({base}) is _Card "
                    f"else _ga(m, {base}, {attr!r}))"), "any"
        return f"_ga(m, {base}, {attr!r})", "any"

    def e_index(self, node):
        base_n, key_n = node.children
        is_table = (isinstance(base_n, Tree) and base_n.data == "name"
                    and str(base_n.children[0]) in self.names.tables
                    and str(base_n.children[0]) not in self.locals)
        base = self.expr(base_n)[0]
        key = self.expr(key_n)[0]
        if is_table and self._check_table_covers_players(node):
            return f"{base}[{key}]", "any"
        return f"_idx({base}, {key}, {self.fn.rule!r})", "any"

    def _check_table_covers_players(self, node) -> bool:
        """``table[player_count]`` must have an entry for every allowed count;
        when it has, the lookup needs no run-time check."""
        base_n, key_n = node.children
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

    def e_call(self, node):
        name_tok, args_n = node.children
        name = str(name_tok)
        arg_nodes = list(args_n.children) if args_n is not None else []
        zdef = self.names.zones.get(name)
        if zdef is not None:
            if not zdef.per_player:
                self.error(name_tok, f"zone '{name}' is not per player", "", f"write just '{name}'")
                return "None", "any"
            if len(arg_nodes) != 1:
                self.error(name_tok, f"zone '{name}' takes one player", f"{name}(player)")
                return "None", "any"
            self.fn.hoist.add("PZ")
            return f"PZ[{zdef.index}][{self.expr(arg_nodes[0])[0]}]", "zone"
        if name in SPECIAL_FUNCTIONS:
            arg = arg_nodes[0] if len(arg_nodes) == 1 else None
            if isinstance(arg, Tree) and arg.data == "name":
                arg = arg.children[0]
            if not isinstance(arg, Token):
                self.error(name_tok, f"{name} takes the name of a choice", f"{name}(choice)")
                return "False", "bool"
            if str(arg) not in self.names.choices:
                self.error(arg, f"unknown choice '{arg}'", "a name declared under choices",
                           suggest(str(arg), self.names.choices))
                return "False", "bool"
            return f"({self.choice_fn[str(arg)]}(m) is not None)", "bool"
        spec = BUILTINS.get(name)
        if spec is None:
            self.error(name_tok, f"unknown function '{name}'",
                       "a built-in (" + ", ".join(sorted(BUILTINS) + sorted(SPECIAL_FUNCTIONS))
                       + ") or a per-player zone",
                       suggest(name, list(BUILTINS) + [z for z, d in self.names.zones.items()
                                                        if d.per_player]))
            return "None", "any"
        _fn, lo, hi, doc = spec
        if not lo <= len(arg_nodes) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            self.error(name_tok, f"{name}() takes {want} argument(s), got {len(arg_nodes)}", doc)
            return "None", "any"
        args = [self.expr(a) for a in arg_nodes]
        srcs = [s for s, _ in args]
        kind0 = args[0][1]
        if name == "sum" and isinstance(arg_nodes[0], Tree) and arg_nodes[0].data == "attr":
            base_n, attr_tok = arg_nodes[0].children
            base, bkind = self.expr(base_n)
            if bkind in ("cards", "zone"):
                return f"_sum_prop({self._seq(base_n)}, {str(attr_tok)!r})", "int"
        if name in ("size", "count") and kind0 in ("zone", "list", "cards", "seats"):
            return f"len({srcs[0]})", "int"
        if name == "any" and kind0 in ("zone", "list", "cards", "seats"):
            return f"(len({srcs[0]}) > 0)", "bool"
        if name == "empty" and kind0 in ("zone", "list", "cards", "seats"):
            return f"(len({srcs[0]}) == 0)", "bool"
        if name in ("min", "max") and len(srcs) > 1:
            return f"{name}({', '.join(srcs)})", "int"
        if name == "next":
            return f"(({srcs[0]}) + 1) % m.n", "int"
        if name == "room" and kind0 == "zone":
            return f"m.room({srcs[0]})", "int"
        cards_in = kind0 in ("zone", "cards")
        many = "cards" if cards_in else "list"
        kind = {"top": "any" if len(srcs) == 1 else many, "bottom": "any" if len(srcs) == 1 else many,
                "shuffled": many, "unique": many, "size": "int", "count": "int", "sum": "int",
                "any": "bool", "empty": "bool"}.get(name, "any")
        return f"_B_{name}(m, {', '.join(srcs)})", kind

    def _binary(self, node, ops: set[str], kind: str):
        left, op, right = node.children
        return f"({self.expr(left)[0]} {op} {self.expr(right)[0]})", kind

    def e_binop(self, node):
        return self._binary(node, _ARITH, "int")

    def e_compare_op(self, node):
        return self._binary(node, _COMPARE, "bool")

    def e_neg(self, node):
        return f"(-{self.expr(node.children[0])[0]})", "int"

    def e_in_op(self, node):
        return f"({self.expr(node.children[0])[0]} in {self.expr(node.children[1])[0]})", "bool"

    def e_not_in_op(self, node):
        return f"({self.expr(node.children[0])[0]} not in {self.expr(node.children[1])[0]})", "bool"

    def e_and_op(self, node):
        return f"({self.expr(node.children[0])[0]} and {self.expr(node.children[1])[0]})", "any"

    def e_or_op(self, node):
        return f"({self.expr(node.children[0])[0]} or {self.expr(node.children[1])[0]})", "any"

    def e_not_op(self, node):
        return f"(not {self.expr(node.children[0])[0]})", "bool"

    def e_ternary(self, node):
        a, c, b = (self.expr(n)[0] for n in node.children)
        return f"({a} if {c} else {b})", "any"

    def e_where_op(self, node):
        seq = self._seq(node.children[0])
        elem = self._elem_kind(node.children[0])
        pred = self._filter(node.children[1], elem)
        return f"[L_it for L_it in {seq} if {pred}]", {"card": "cards", "int": "seats"}.get(elem, "list")

    # ---- filters that only read card properties are tabled at load time -------
    _PURE = {"compare_op", "in_op", "not_in_op", "and_op", "or_op", "not_op", "ternary", "binop",
             "neg", "string", "number", "true", "false", "none", "list_lit", "args"}

    def _card_static(self, node) -> bool:
        """True when ``node`` depends only on the properties of the card ``it``
        (and constants): its value per card never changes during a match."""
        if isinstance(node, Token):
            return node.type != "NAME"
        if node.data == "attr":
            base = node.children[0]
            return (isinstance(base, Tree) and base.data == "name"
                    and str(base.children[0]) == "it")
        if node.data == "name":
            return str(node.children[0]) in self.names.tables and str(node.children[0]) not in self.locals
        if node.data == "index":
            return all(self._card_static(c) for c in node.children)
        if node.data in self._PURE:
            return all(c is None or self._card_static(c) for c in node.children)
        return False

    def _filter(self, tree, elem: str) -> str:
        """Source of a per-element test with ``it`` bound (``L_it``)."""
        src = self.expr(tree, extra={"it"}, kinds={"it": elem})[0]
        if elem != "card" or not self._card_static(tree):
            return src
        if src not in self.static_preds:
            self.static_preds[src] = f"TB{len(self.static_preds)}"
        return f"{self.static_preds[src]}[L_it.id]"

    # ---- the module ---------------------------------------------------------
    def set_card_props(self, props) -> None:
        self.card_props = frozenset(props)

    def build(self, filename: str, cards) -> dict[str, Any]:
        """Compile every generated function at once; return the namespace."""
        for src, table in self.static_preds.items():
            self.chunks.append(f"def SP_{table}(m, L_it):\n    return {src}\n")
        source = "\n".join(self.chunks)
        label = f"<rulekit {filename}>"
        linecache.cache[label] = (len(source), None, source.splitlines(True), label)
        code = compile(source, label, "exec")
        ns = self.ns
        ns["__builtins__"] = runtime_helpers.SAFE_BUILTINS
        exec(code, ns)  # the code is the compiler's own output; see the module docstring
        for table in self.static_preds.values():
            test = ns[f"SP_{table}"]
            ns[table] = [bool(test(None, c)) for c in cards]
        ns["__source__"] = source
        ns["__func_rules__"] = dict(self.func_rules)
        return ns
