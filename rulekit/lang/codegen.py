"""Compiling parsed effect text to Python functions.

Why generate Python: random play must run at a good fraction of a
hand-written implementation's speed (see ``bench/``), and an interpreter that
walks closures per node is ten to twenty times slower than straight Python.
So each piece of effect text becomes one Python function whose body mirrors
the text line by line: ``let`` names become Python locals, ``where`` filters
become list comprehensions, a ``choose`` becomes a ``yield`` that suspends the
match at a decision (so any script that can decide is a generator).

How: the *lark parse tree* is turned, node by node, into the intermediate
form of :mod:`rulekit.lang.ir` (statements as nodes; expressions as
:class:`~rulekit.lang.ir.Code`, their source from a fixed set of templates
with what is known of them).  When a function is complete the passes of
:mod:`rulekit.lang.passes` run over it (counting steps, dealing piles), and
:mod:`rulekit.lang.printer` writes every function's source at build, with
the rule-file position of each line.

Why this is safe: effect text is never executed.  The
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
from functools import partial
from typing import Any, Callable

import attrs
from lark import Token, Tree

from . import printer, runtime_helpers
from .calls import collect_flags
from .fn_names import TEST_FUNCTION, FunctionNames
from .gen_choices import ChoicesMixin
from .gen_expressions import ExpressionsMixin
from .gen_statements import CHOSEN_FIELDS, StatementsMixin
from .ir import (
    Assign,
    Break,
    Chunk,
    Code,
    Do,
    Filter,
    Function,
    If,
    Origin,
    Return,
    Stmt,
    TestFunction,
    Tick,
    Try,
    While,
)
from .name_checks import NameChecksMixin
from .names import Names
from .parser import subtrees
from .passes import ModuleTables, run_all

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
        self.chunks: list[Chunk] = []   # every function of the module, in order
        self.errors: list[CompileError] = []
        self.fn: Function | None = None
        self.out: list[Stmt] = []       # the block being built
        self.locals: set[str] = set()
        self.local_kinds: dict[str, str] = {}   # locals whose kind is known (e.g. "it" over a zone)
        self.static_preds: dict[str, str] = {}  # predicate source -> name of its per-card table
        self.pools: dict[tuple[str, str], str] | None = None
        self.error_path: tuple = ()     # key of the choice being compiled, for error positions
        self._assigned: set[str] = set()
        self.prop_tables: dict[str, str] = {}  # constant name -> card property tabled by id
        self.tables = ModuleTables()   # load-time tables the passes add
        self.sum_tables: dict[str, str] = {}    # constant -> card property summed (none as 0)
        #: what every chosen answer carries worked out (its ``pj``): ("list"|"sum", property)
        self.chosen_projs: list[tuple[str, str]] = []
        #: filters written out as functions of their own, by name
        self.outlined: dict[str, Filter] = {}
        #: per filter being written: (the locals, the hoisted fields its test reads)
        self.watch: list[tuple[set[str], set[str]]] = []
        self.card_actions: dict[str, str] = {}  # constant -> option: its Action per card id
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
        self.hoist("CH")
        key = (kind, prop)
        if key not in self.chosen_projs:
            self.chosen_projs.append(key)
        return self.chosen_projs.index(key)

    # ---- filters written out as functions of their own ------------------------
    def where_list(self, seq: str, pred: Code, kind: str = "list") -> Code:
        """``SEQ where TEST`` (``pred`` is the test with ``it`` as ``L_it``):
        a tabled test of card properties through ``_filt``, any other test
        through a function of its own (see :meth:`outline_where`)."""
        if pred.table is not None:
            return Code(f"_filt({pred.table}, {seq})", kind)
        return self.outline_where(seq, pred, kind)

    def outline_where(self, seq: str, pred: Code, kind: str = "list") -> Code:
        """``SEQ where TEST`` as a call of a module-level function ``F<n>``
        that loops over SEQ, instead of a comprehension.  On Python 3.11 a
        comprehension is a function object made afresh every time it is
        reached; a function made once, at load time, costs only its call.
        SEQ is evaluated by the caller (it may read the ``it`` of an
        enclosing filter); the locals the test reads are passed in."""
        free = sorted(pred.reads - {"L_it"})
        hoist = [h for h, _ in printer.HOISTS if h in pred.hoists]
        name = self.fnames.fresh("where", self.fn.name)     # where_proc_x, where_proc_x_2, ...
        self.outlined[name] = Filter(name, pred.src, free, hoist, self.here())
        self.chunks.append(self.outlined[name])
        return Code(f"{name}(m, {seq}{''.join(', ' + f for f in free)})", kind, outlined=name)

    def watching(self, write: Callable[[], Code]) -> Code:
        """``write()``, with the locals and hoisted fields the code it
        writes reads noted in its ``reads`` and ``hoists`` (a filter's test:
        its function takes those locals as parameters)."""
        reads: set[str] = set()
        hoists: set[str] = set()
        self.watch.append((reads, hoists))
        try:
            code = write()
        finally:
            self.watch.pop()
        return attrs.evolve(code, reads=frozenset(reads), hoists=frozenset(hoists))

    def read(self, local: str) -> None:
        for reads, _ in self.watch:
            reads.add(local)

    def reading(self) -> list[set[str]]:
        """What the filters being written have read so far (see :meth:`unread`)."""
        return [set(reads) for reads, _ in self.watch]

    def unread(self, before: list[set[str]]) -> None:
        """Forget the reads since :meth:`reading` returned ``before``."""
        for (reads, _), was in zip(self.watch, before):
            reads.intersection_update(was)

    def hoist(self, field: str) -> None:
        """The function being written reads the match's ``field`` ("V", "GZ",
        "PZ" or "CH": see printer.HOISTS) through a local bound first."""
        self.fn.hoist.add(field)
        for _, hoists in self.watch:
            hoists.add(field)

    def outline_any(self, call: Code) -> str:
        """``any(SEQ where TEST)`` from the call ``outline_where`` wrote for
        the filter: its function stops at the first element that passes and
        answers true or false (nothing else calls it)."""
        assert call.outlined is not None
        self.outlined[call.outlined].mode = "any"
        return call.src

    def error(self, node, message: str, expected: str = "", hint: str = ""):
        if self.names.follow_on(node, message):
            return          # about a part set aside for a structural error, reported already
        line, col = _pos(node)
        self.errors.append(CompileError(message, line, col, expected, hint, self.error_path, _span(node)))

    def _begin(self, name: str, params: tuple[str, ...], rule: str, local_names: set[str],
               kinds: dict | None = None):
        self.fn = Function(name, params, rule)
        self.out = self.fn.body
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
        local = ("L_" if name in self.comp_vars else self.prefix) + name
        self.read(local)
        return local

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
        run_all(self.fn, self.tables)
        self.chunks.append(self.fn)
        self.fn = None

    def here(self) -> Origin:
        """The origin of a statement written now."""
        return (self.origin, self.rule, self.via)

    def add(self, stmt: Stmt) -> None:
        self.out.append(stmt)

    def do(self, call: str) -> None:
        self.add(Do(call, origin=self.here()))

    def assign(self, target: str, value: str) -> None:
        self.add(Assign(target, value, origin=self.here()))

    def origin_of(self, node):
        """The file position of ``node`` in the text being written, if known."""
        if self.locate is None or not self.text_path:
            return None
        line, column = _pos(node)
        return self.locate(self.text_path, line, column)

    def tick(self) -> None:
        """Count a step of the rule being written (see pass_steps)."""
        self.add(Tick(1, self.rule, origin=self.here()))

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
        self.fn.body.extend(self.block(tree.children))
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
        here = self.here()
        # A negative first phase -1-i resumes a turn at phase i (a copy made
        # from a checkpoint): the turn has begun already.
        self.assign("L_resume", "L_first_phase < 0")
        self.add(If([("L_resume", [Assign("L_first_phase", "-1 - L_first_phase", origin=here)])],
                    one_line=True, origin=here))
        # One step per turn, not per phase: a turn that never stops deciding
        # nothing is caught here, a phase loop by its goto, a loop by its own
        # steps; over budget, the last phase that ran is named.
        begin: list[Stmt] = [Tick(1, None, origin=here), Assign("m.turn", "1", "+=", origin=here),
                             Assign("m.next_player", "None", origin=here),
                             Do("m.log.append(('turn', m.current))", origin=here)]
        if self.resets[0]:
            begin.append(Do("m.reset_vars('turn')", origin=here))
        phases_run: list[Stmt] = []
        for i, (name, tree, path) in enumerate(phases):
            # 'if', not 'elif': a phase that ends with ph = i + 1 runs straight
            # into the next one, without going round the loop again
            self.rule = f"phase '{name}'"     # the lines of the phase (see rulekit show-code)
            self.out = []
            # a match that may be copied notes its data as each phase begins
            self.add(If([("m.copyable", [Do(f"m.checkpoint({i})", origin=self.here())])], one_line=True,
                        origin=self.here()))
            self.assign("m.phase", repr(name))
            if self.resets[1]:
                self.do("m.reset_vars('phase')")
            self.prefix = f"L_p{i}_"
            self.locals = {"first_phase"} | self._declared(tree)
            self.local_kinds = {}
            self._assigned = self._assigned_names(tree)
            self.check_shadowing(tree)
            self.in_flow = True
            self.text_path = path
            self.out.extend(self.block(tree.children))
            self.in_flow = False
            self.assign("ph", str(i + 1))
            phases_run.append(If([(f"ph == {i}", self.out)], origin=self.here()))
            report(path)
        self.rule = "turn"
        self.out = self.fn.body
        step = Tick(1, None, origin=here)
        jumps = [("_Goto as _jump", [step, Assign("ph", "_jump.phase", origin=here)]),
                 ("_EndTurn", [Break(origin=here)])]
        after = "m.next_seat(m.current)" if self.names.eliminates else "(m.current + 1) % m.n"
        self.add(While("True", [
            If([("L_resume", [Assign("L_resume", "False", origin=here)])], begin, origin=here),
            Assign("ph", "L_first_phase", origin=here),
            Assign("L_first_phase", "0", origin=here),
            While(f"ph < {len(phases)}", [Try(phases_run, jumps, origin=here)], origin=here),
            Assign("_next", "m.next_player", origin=here),
            Assign("m.current", f"({after} if _next is None else _next)", origin=here),
        ], origin=here))
        self._end()

    def expression(self, fname: str, tree: Tree, rule: str, params: tuple[str, ...] = (),
                   kinds: dict | None = None) -> None:
        self._begin(fname, params, rule, set(), kinds)
        self.origin = self.origin_of(tree)
        self.add(Return(self.expr(tree).src, origin=self.here()))
        self._end()

    def constant(self, fname: str, value: Any, params: tuple[str, ...] = (), rule: str = "constant") -> None:
        """``fname`` returns ``value`` (a plain number or flag; a stand-in for text that does not parse)."""
        self._begin(fname, params, rule, set())
        self.add(Return(self.const(value, 'value', fname), origin=self.here()))
        self._end()

    # ---- the module ---------------------------------------------------------
    def set_card_props(self, props) -> None:
        self.card_props = frozenset(props)

    def build(self, filename: str, cards) -> dict[str, Any]:
        """Compile every generated function at once; return the namespace."""
        for src, table in self.static_preds.items():
            self.chunks.append(TestFunction(TEST_FUNCTION + table, src))
        printed = [printer.chunk(c) for c in self.chunks]
        origins: dict[int, tuple] = {}
        calls: dict[int, tuple] = {}      # line of a procedure written in place -> its calls
        line = 1
        for text, lines in printed:
            for i, origin in enumerate(lines):
                origins[line + i] = origin[:2]
                if len(origin) > 2 and origin[2]:
                    calls[line + i] = origin[2]
            line += text.count("\n") + 1
        source = "\n".join(text for text, _ in printed)
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
        for name, tables in self.tables.split_tables.items():
            ns[name] = [_first_passed([ns[t][c.id] for t in tables]) for c in cards]
        ns["__source__"] = source
        ns["__label__"] = label
        ns["__origins__"] = origins
        ns["__calls__"] = calls
        ns["__names__"] = dict(self.fnames.rules)
        return ns
