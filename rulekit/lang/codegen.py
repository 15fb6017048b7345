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
import re
from functools import partial
from typing import Any

from lark import Token, Tree

from . import runtime_helpers
from .calls import collect_flags
from .fn_names import TEST_FUNCTION, FunctionNames
from .gen_choices import ChoicesMixin
from .gen_expressions import _TABLED, ExpressionsMixin
from .gen_statements import CHOSEN_FIELDS, StatementsMixin
from .name_checks import NameChecksMixin
from .names import Names
from .parser import subtrees

__all__ = ["CHOSEN_FIELDS", "CodeGen", "CompileError", "collect_flags"]


class CompileError(Exception):
    """``path`` (when set) says which key of a choice the text came from."""

    def __init__(self, message: str, line: int, column: int, expected: str = "", hint: str = "",
                 path: tuple = (), span: int = 0):
        self.message, self.line, self.column = message, line, column
        self.expected, self.hint, self.path = expected, hint, path
        self.span = span            # characters of the text the error is about (0: unknown)
        super().__init__(message)


def _projection(kind: str, prop: str, cards):
    """The function that works out one of a chosen answer's ``pj`` from its
    cards: the list of their ``prop``, or its sum (none counting 0), read
    as effect text reads them elsewhere (``_proj``, ``_sumt``)."""
    if kind == "list":
        return partial(runtime_helpers._proj, [c.props.get(prop) for c in cards])
    return partial(runtime_helpers._sumt, [0 if c.props.get(prop) is None else c.props[prop] for c in cards])


def _tabled(test, card):
    """A test of card properties, worked out for ``card`` at load time; for a
    card it fails on (a property it lacks compared with a number, say), the
    entry fails in turn, when a rule reads it: as the test itself would."""
    try:
        return bool(test(None, card))
    except Exception as err:      # noqa: BLE001 - any failure of the rule's own test
        return runtime_helpers.FailsFor(err)


def _first_passed(entries: list):
    """The index of the first test passed of a split's tests (-1: none)."""
    for i, passed in enumerate(entries):
        if type(passed) is runtime_helpers.FailsFor:
            return passed
        if passed:
            return i
    return -1


def _span(node) -> int:
    """How many characters of its line ``node`` covers (0 when not on one line)."""
    if isinstance(node, Token):
        text = str(node)
        return 0 if "\n" in text else len(text)
    meta = getattr(node, "meta", None)
    if meta is not None and not getattr(meta, "empty", True) and meta.end_line == meta.line:
        return max(0, meta.end_column - meta.column)
    return 0


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


class CompileLimit(Exception):
    """The generated code passed a limit of Python's compiler (the loader
    reports it as a rule-file error; the parser's nesting limits make it rare)."""


class _Func:
    """One generated function being written."""

    def __init__(self, name: str, params: tuple[str, ...], rule: str):
        self.name, self.params, self.rule = name, params, rule
        self.lines: list[str] = []
        #: per line: (Where or None, rule, via) of the text it came from (see CodeGen.via)
        self.origins: list = []
        self.hoist: set[str] = set()

    def source(self) -> tuple[str, list]:
        """The function's source, and the origin of each of its lines."""
        head = f"def {self.name}(m{''.join(', L_' + p for p in self.params)}):"
        hoists = [f"    {h} = m.{attr}" for h, attr in
                  (("V", "vars"), ("GZ", "gz"), ("PZ", "pz"), ("CH", "chosen")) if h in self.hoist]
        body = self.lines or ["    pass"]
        origins = [(None, self.rule)] * (1 + len(hoists)) + (self.origins or [(None, self.rule)])
        return "\n".join([head, *hoists, *body]) + "\n", origins


class CodeGen(ChoicesMixin, StatementsMixin, ExpressionsMixin, NameChecksMixin):
    """Writes the generated module of one rule file.

    The names of procedures, choices and triggers are fixed before any body
    is written (see :mod:`rulekit.lang.fn_names`), so bodies may refer to
    each other in any order.
    """

    def __init__(self, names: Names, deciding_procs: set[str], deciding_events: set[str],
                 triggers: list[dict], choice_if_none: dict[str, bool]):
        self.names = names
        self.deciding_procs = deciding_procs
        self.deciding_events = deciding_events
        #: every name of the module (see fn_names): none may be a helper's
        self.fnames = FunctionNames((*runtime_helpers.NAMESPACE, *runtime_helpers.SAFE_BUILTINS, "m"))
        option_of = {proc: (c, o) for c, effects in names.option_effects.items() for o, proc in effects}
        self.proc_fn = {p: self.fn_name("option", *option_of[p]) if p in option_of
                        else self.fn_name("procedure", p) for p in sorted(names.procedures)}
        self.choice_fn = {c: self.fn_name("choice", c) for c in sorted(names.choices)}
        self.if_none_fn = {c: self.fn_name("if_none", c) for c in sorted(names.choices)}
        self.choice_if_none = choice_if_none  # choice -> if_none is a generator
        self.triggers = triggers  # [{"on", "has_when", "index", "skill"}]
        for t in triggers:      # named after the skill that holds it, else its event
            t["fn"] = self.fn_name("trigger", t.get("skill") or t["on"], t["index"])
            t["when_fn"] = self.fn_name("when", t.get("skill") or t["on"], t["index"])
        self.ns: dict[str, Any] = dict(runtime_helpers.NAMESPACE)
        # the game's chosen answers (Game.answers), one memo per seat: see _chosen
        self.ns["_ANS"] = tuple({} for _ in range(names.max_players))
        self.chunks: list[tuple[str, list]] = []   # (function source, origin per line)
        self.errors: list[CompileError] = []
        self.fn: _Func | None = None
        self.locals: set[str] = set()
        self.local_kinds: dict[str, str] = {}   # locals whose kind is known (e.g. "it" over a zone)
        self.static_preds: dict[str, str] = {}  # predicate source -> name of its per-card table
        self.pools: dict[tuple[str, str], str] | None = None
        self.error_path: tuple = ()     # key of the choice being compiled, for error positions
        self._assigned: set[str] = set()
        self.prop_tables: dict[str, str] = {}  # constant name -> card property tabled by id
        #: name -> tables: per card, the first of the tables it passes (-1: none)
        self.split_tables: dict[str, tuple] = {}
        self.sum_tables: dict[str, str] = {}    # constant -> card property summed (none as 0)
        #: what every chosen answer carries worked out (its ``pj``): ("list"|"sum", property)
        self.chosen_projs: list[tuple[str, str]] = []
        #: F<n> -> (the test, the locals it reads, its chunk in ``chunks``)
        self.outlined: dict[str, tuple[str, list, int]] = {}
        self.card_actions: dict[str, str] = {}  # constant -> option: its Action per card id
        self.last_split = None                  # the last move_where written (see _join_split)
        self.rule = ""                  # the rule being written (for budgets and errors)
        self.prefix = "L_"              # prefix of let/for locals (differs in inlined text)
        self.comp_vars: set[str] = set()  # names bound by a comprehension or a parameter
        self.inline_procs: dict[str, Tree] = {}  # procedures written in place of their calls
        self.proc_paths: dict[str, tuple] = {}   # where each procedure's text is (set by the loader)
        #: procedures whose text is 'return <expression>', written in place of calls
        #: with plain arguments (see inline_exprs), and the arguments while one is
        self.expr_procs: dict[str, tuple] = {}
        self.arg_subst: dict[str, tuple[str, str]] = {}
        self.inlined = 0
        self.in_flow = False            # writing the turn flow: goto / end turn jump directly
        self.loop_depth = 0             # while/for loops around the statement being written
        self.text_path: tuple = ()      # where in the file the text being written is
        self.locate: Any = None         # locate(path, line, column) -> Where, set by the loader
        self.origin = None              # position of the statement being written
        #: the calls, outermost first, of the procedures being written in
        #: place of them: ((Where of the call, rule it is in), ...)
        self.via: tuple = ()
        self.card_props: frozenset[str] = frozenset()
        #: parameters of the text being written that take a name from a
        #: ``names:`` entry: parameter -> entry (see NameChecksMixin)
        self.declared_params: dict[str, str] = {}
        self.can_yield = False          # the function being written may stop for a decision
        self.can_return = False         # ... and may 'return' (procedures and triggers)
        self.resets = (False, False)    # some variables reset every (turn, phase)
        self.reset_scope: dict[tuple, str] = {}  # ("vars"|"player_vars", name) -> "turn"|"phase"

    # ---- helpers ------------------------------------------------------------
    def fn_name(self, kind: str, *key) -> str:
        """The name of the generated function of ``kind`` for ``key`` (see
        :mod:`rulekit.lang.fn_names`): the same for the same key, so the
        loader finds by it what it asked to be written."""
        return self.fnames.name(kind, *key)

    def const(self, value: Any, kind: str = "value", *key) -> str:
        """A new module constant holding ``value``, named by ``kind`` and ``key``."""
        name = self.fnames.fresh(kind, *key)
        self.ns[name] = value
        return name

    def prop_table(self, prop: str) -> str:
        """The name of the per-card table of ``prop`` (by card id), one per
        property for the whole file: card properties never change, so the
        table is filled in at build and shared by every use."""
        for name, p in self.prop_tables.items():
            if p == prop:
                return name
        name = self.const(("prop", prop), "prop", prop)      # replaced by the table at build
        self.prop_tables[name] = prop
        return name

    def chosen_projection(self, kind: str, prop: str) -> int:
        """The index in every chosen answer's ``pj`` of ``CHOICE.cards.prop``
        (kind "list") or ``sum(CHOICE.cards.prop)`` (kind "sum").  Answers are
        made once per game and never change, nor do card properties, so what
        effect text reads of an answer's cards is worked out when the answer
        is first made, not every time a rule reads it."""
        self.fn.hoist.add("CH")
        key = (kind, prop)
        if key not in self.chosen_projs:
            self.chosen_projs.append(key)
        return self.chosen_projs.index(key)

    # ---- filters written out as functions of their own ------------------------
    #: the locals a filter's test may read from the function it is written in
    _FREE = re.compile(r"\bL(?:\d+|_p\d+)?_\w+")
    _STRINGS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
    _HOISTS = (("V", "vars"), ("GZ", "gz"), ("PZ", "pz"), ("CH", "chosen"))

    def where_list(self, seq: str, pred: str) -> str:
        """``SEQ where TEST`` (``pred`` is the test with ``it`` as ``L_it``):
        a tabled test of card properties through ``_filt``, any other test
        through a function of its own (see :meth:`outline_where`)."""
        if _TABLED.fullmatch(pred):
            return f"_filt({pred.split('[', 1)[0]}, {seq})"
        return self.outline_where(seq, pred)

    def outline_where(self, seq: str, pred: str) -> str:
        """``SEQ where TEST`` as a call of a module-level function ``F<n>``
        that loops over SEQ, instead of a comprehension.  On Python 3.11 a
        comprehension is a function object made afresh every time it is
        reached; a function made once, at load time, costs only its call.
        SEQ is evaluated by the caller (it may read the ``it`` of an
        enclosing filter); the locals the test reads are passed in."""
        code = self._STRINGS.sub("''", pred)       # a name inside a string is no local
        free = sorted(set(self._FREE.findall(code)) - {"L_it"})
        name = self.fnames.fresh("where", self.fn.name)     # where_proc_x, where_proc_x_2, ...
        self.outlined[name] = (pred, free, len(self.chunks))
        self.chunks.append(self._outlined_source(name, pred, free, "list"))
        return f"{name}(m, {seq}{''.join(', ' + f for f in free)})"

    def outline_any(self, call: str) -> str:
        """``any(SEQ where TEST)`` from the call ``outline_where`` wrote for
        the filter: its function is rewritten to stop at the first element
        that passes and answer true or false (nothing else calls it)."""
        name = call.split("(", 1)[0]
        pred, free, chunk = self.outlined[name]
        self.chunks[chunk] = self._outlined_source(name, pred, free, "any")
        return call

    def _outlined_source(self, name: str, pred: str, free: list, mode: str) -> tuple[str, list]:
        code = self._STRINGS.sub("''", pred)
        # the elements' parameter is not named _seq: the test may call the helper of that name
        lines = [f"def {name}(m, _elems{''.join(', ' + f for f in free)}):"]
        lines += [f"    {h} = m.{attr}" for h, attr in self._HOISTS if re.search(rf"\b{h}\b", code)]
        if mode == "any":
            lines += ["    for L_it in _elems:", f"        if {pred}: return True", "    return False"]
        else:
            lines += ["    _out = []", "    for L_it in _elems:", f"        if {pred}: _out.append(L_it)",
                      "    return _out"]
        return "\n".join(lines) + "\n", [(self.origin, self.rule, self.via)] * len(lines)

    def error(self, node, message: str, expected: str = "", hint: str = ""):
        if self.names.follow_on(node, message):
            return          # about a part set aside for a structural error, reported already
        line, col = _pos(node)
        self.errors.append(CompileError(message, line, col, expected, hint, self.error_path, _span(node)))

    def _begin(self, name: str, params: tuple[str, ...], rule: str, local_names: set[str],
               kinds: dict | None = None):
        self.fn = _Func(name, params, rule)
        self.rule = rule
        self.prefix = "L_"
        self.comp_vars = set(params)
        self.locals = set(params) | local_names
        self.rebound: set[str] = set()
        self.local_kinds = dict(kinds or {})
        self.can_yield = self.can_return = False
        self.loop_depth = 0
        self.origin = None

    def where_const(self, node) -> str:
        """A constant holding the file position of ``node`` (for run-time errors)."""
        where = self.origin_of(node)
        return "None" if where is None else self.const(where, "at", where.line, where.column)

    def local(self, name: str) -> str:
        """The Python name of an effect-text local."""
        return ("L_" if name in self.comp_vars else self.prefix) + name

    def check_shadowing(self, tree: Tree) -> None:
        """A name bound by let / for / 'as' must not hide a declared name: the
        text after it would silently read the local instead (a choice's
        answer, a zone, a variable...)."""
        n = self.names
        for tok in self._bindings(tree):
            name = str(tok)
            for what, names in (("choice", n.choices), ("zone", n.zones), ("variable", n.vars),
                                ("table", n.tables), ("option", n.options),
                                ("procedure", n.procedures)):
                if name in names:
                    self.error(tok, f"'{name}' here would hide the {what} '{name}'",
                               "a name not declared elsewhere in the file",
                               f"rename the local, e.g. '{name}_'")
                    break

    @staticmethod
    def _bindings(tree: Tree):
        """The name tokens a text binds: ``let x``, ``for x in``, ``emit ... as x``."""
        for s in subtrees(tree):
            if s.data in ("let_stmt", "for_stmt"):
                yield s.children[0]
            elif s.data == "emit_stmt" and s.children[2] is not None:
                yield s.children[2]

    @classmethod
    def _declared(cls, tree: Tree) -> set[str]:
        return {str(tok) for tok in cls._bindings(tree)}

    @staticmethod
    def _assigned_names(tree: Tree) -> set[str]:
        """Names set by let or assignment may hold anything: they get no kind."""
        every = subtrees(tree)
        return {str(s.children[0]) for s in every if s.data == "let_stmt"} | {
            str(s.children[0].children[0]) for s in every if s.data == "assign_stmt"}

    def _end(self):
        self.chunks.append(self.fn.source())
        self.fn = None

    def emit(self, depth: int, text: str):
        self.fn.lines.append("    " * depth + text)
        self.fn.origins.append((self.origin, self.rule, self.via))

    def origin_of(self, node):
        """The file position of ``node`` in the text being written, if known."""
        if self.locate is None or not self.text_path:
            return None
        line, column = _pos(node)
        return self.locate(self.text_path, line, column)

    def tick(self, depth: int):
        check = f"if m.steps > m.budget: m.over_budget({self.rule!r})"
        lines, indent = self.fn.lines, "    " * depth
        if (len(lines) >= 2 and lines[-1] == indent + check
                and lines[-2].startswith(indent + "m.steps += ")):
            # two steps in a row (a phase that starts with a call): one count
            lines[-2] = indent + f"m.steps += {int(lines[-2].rsplit(' ', 1)[1]) + 1}"
            return
        self.emit(depth, "m.steps += 1")
        self.emit(depth, check)

    # ---- whole functions ------------------------------------------------------
    #: parameters of trigger functions and their kinds
    TRIGGER_KINDS = {"event": "event", "owner": "int"}

    def script(self, fname: str, tree: Tree, rule: str, params: tuple[str, ...] = (),
               kinds: dict | None = None) -> None:
        """``kinds``: the static kinds of parameters (e.g. a trigger's event)."""
        self._assigned = self._assigned_names(tree)
        self.check_shadowing(tree)
        declared = self._declared(tree)
        self._begin(fname, params, rule, declared, kinds)
        self.rebound = declared | self._assigned    # names the text sets (a parameter too)
        self.can_yield = self.can_return = True
        self.block(tree.children, 1)
        self._end()

    def flow(self, phases: list[tuple[str, Tree, tuple]], report) -> None:
        """``FLOW(m, first_phase)``: every turn, the phases in order, written
        as one function.  A phase's ``goto`` and ``end turn`` become plain
        jumps (exceptions only from inside loops and procedures), and no
        phase needs a call or a generator of its own.  ``report(path)`` maps
        the errors of each phase's text."""
        self._begin(self.fn_name("turn"), ("first_phase",), "turn", set())
        self.can_yield = True
        self.fn.hoist.update(("V", "GZ", "PZ", "CH"))
        count = len(phases)
        e = self.emit
        # A negative first phase -1-i resumes a turn at phase i (a copy made
        # from a checkpoint): the turn has begun already.
        e(1, "L_resume = L_first_phase < 0")
        e(1, "if L_resume: L_first_phase = -1 - L_first_phase")
        e(1, "while True:")
        e(2, "if L_resume:")
        e(3, "L_resume = False")
        e(2, "else:")
        # One step per turn, not per phase: a turn that never stops deciding
        # nothing is caught here, a phase loop by its goto, a loop by its own
        # steps; over budget, the last phase that ran is named.
        e(3, "m.steps += 1")
        e(3, "if m.steps > m.budget: m.over_budget()")
        e(3, "m.turn += 1")
        e(3, "m.next_player = None")
        e(3, "m.log.append(('turn', m.current))")
        if self.resets[0]:
            e(3, "m.reset_vars('turn')")
        e(2, "ph = L_first_phase")
        e(2, "L_first_phase = 0")
        e(2, f"while ph < {count}:")
        e(3, "try:")
        for i, (name, tree, path) in enumerate(phases):
            # 'if', not 'elif': a phase that ends with ph = i + 1 runs straight
            # into the next one, without going round the loop again
            self.rule = f"phase '{name}'"     # the lines of the phase (see rulekit show-code)
            e(4, f"if ph == {i}:")
            # a match that may be copied notes its data as each phase begins
            e(5, f"if m.copyable: m.checkpoint({i})")
            e(5, f"m.phase = {name!r}")
            if self.resets[1]:
                e(5, "m.reset_vars('phase')")
            self.prefix = f"L_p{i}_"
            self.locals = {"first_phase"} | self._declared(tree)
            self.local_kinds = {}
            self._assigned = self._assigned_names(tree)
            self.check_shadowing(tree)
            self.in_flow = True
            self.text_path = path
            self.block(tree.children, 5)
            self.in_flow = False
            e(5, f"ph = {i + 1}")
            report(path)
        self.rule = "turn"
        e(3, "except _Goto as _jump:")
        e(4, "m.steps += 1")
        e(4, "if m.steps > m.budget: m.over_budget()")
        e(4, "ph = _jump.phase")
        e(3, "except _EndTurn:")
        e(4, "break")
        e(2, "_next = m.next_player")
        e(2, "m.current = ({} if _next is None else _next)".format(
            "m.next_seat(m.current)" if self.names.eliminates else "(m.current + 1) % m.n"))
        self._end()

    def expression(self, fname: str, tree: Tree, rule: str, params: tuple[str, ...] = (),
                   kinds: dict | None = None) -> None:
        self._begin(fname, params, rule, set(), kinds)
        self.origin = self.origin_of(tree)
        src, _ = self.expr(tree)
        self.emit(1, f"return {src}")
        self._end()

    def constant(self, fname: str, value: Any, params: tuple[str, ...] = (), rule: str = "constant") -> None:
        """``fname`` returns ``value`` (a plain number or flag; a stand-in for text that does not parse)."""
        self._begin(fname, params, rule, set())
        self.emit(1, f"return {self.const(value, 'value', fname)}")
        self._end()

    # ---- the module ---------------------------------------------------------
    def set_card_props(self, props) -> None:
        self.card_props = frozenset(props)

    def build(self, filename: str, cards) -> dict[str, Any]:
        """Compile every generated function at once; return the namespace."""
        for src, table in self.static_preds.items():
            self.chunks.append((f"def {TEST_FUNCTION}{table}(m, L_it):\n    return {src}\n", []))
        origins: dict[int, tuple] = {}
        calls: dict[int, tuple] = {}      # line of a procedure written in place -> its calls
        line = 1
        for text, lines in self.chunks:
            for i, origin in enumerate(lines):
                origins[line + i] = origin[:2]
                if len(origin) > 2 and origin[2]:
                    calls[line + i] = origin[2]
            line += text.count("\n") + 1
        source = "\n".join(text for text, _ in self.chunks)
        label = f"<rulekit {filename}>"
        linecache.cache[label] = (len(source), None, source.splitlines(True), label)
        try:
            code = compile(source, label, "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError) as err:
            raise CompileLimit(str(err)) from None
        ns = self.ns
        ns["__builtins__"] = runtime_helpers.SAFE_BUILTINS
        exec(code, ns)  # the code is the compiler's own output; see the module docstring
        for table in self.static_preds.values():
            ns[table] = [_tabled(ns[TEST_FUNCTION + table], c) for c in cards]
        for const, prop in self.prop_tables.items():
            ns[const] = [c.props.get(prop) for c in cards]
        for const, prop in self.sum_tables.items():
            ns[const] = [0 if c.props.get(prop) is None else c.props[prop] for c in cards]
        for const, option in self.card_actions.items():
            ns[const] = [runtime_helpers.Action(option, (c.id,), None) for c in cards]
        ns["_PJ"] = tuple(_projection(kind, prop, cards) for kind, prop in self.chosen_projs)
        for name, tables in self.split_tables.items():
            ns[name] = [_first_passed([ns[t][c.id] for t in tables]) for c in cards]
        ns["__source__"] = source
        ns["__label__"] = label
        ns["__origins__"] = origins
        ns["__calls__"] = calls
        ns["__names__"] = dict(self.fnames.rules)
        return ns
