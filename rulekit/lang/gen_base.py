"""What every writer of the compiler shares: the module being built, the
function being built, and the small operations on both.

:class:`GenBase` holds the state of one rule file's compilation (its
names, the module's constants and chunks); the state of the function being
written (its block, locals, the rule it belongs to) is a
:class:`~rulekit.lang.fn_context.FnContext`, ``cx``, made afresh for each
function.  The writers of expressions, statements and choices build on
it, each a class that adds one kind of tree to the intermediate form (see
:mod:`rulekit.lang.codegen` for the whole).  Every field is declared once,
with its type, so a reader (and a type checker) finds in one place what a
writer may use.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any, TypeAlias

import attrs
from lark import Token, Tree

from . import printer, runtime_helpers, work
from .expr_ir import Expr
from .fn_context import FnContext
from .fn_names import FunctionNames
from .ir import Assign, Chunk, Code, Do, Filter, Function, Origin, Stmt, Tick
from .names import Names
from .parser import subtrees
from .passes import ModuleTables, run_all
from .type_checks import Assigned, Problem, ValueTypes

if TYPE_CHECKING:
    from ..errors import Where
    from .gen_windows import Window, WindowTrees

#: the answer ``_a`` to the Decision ``_d``, as effect text reads it (``CH[choice]``): a kept
#: answer when there is one (a dict lookup), else _chosen makes and keeps it
ANSWER = "_ANS[_d.player].get(_a) or _chosen(m, _a, _d, _PJ)"

#: the fields of a chosen answer effect text may read (``CHOICE.cards``...)
CHOSEN_FIELDS = ("option", "cards", "player", "by", "number")


#: a node of the parse tree: a subtree, or a token (a name, a number...)
Node: TypeAlias = "Tree[Token] | Token"


def unquote(tok: Node) -> str:
    """The text of a STRING token, without its quotes."""
    return str(tok)[1:-1]


def subtree(node: Node | None) -> Tree[Token]:
    """``node``, where the grammar makes it a subtree (lark types every child
    as a subtree or a token): a token here is a grammar and compiler out of step."""
    assert isinstance(node, Tree), f"expected a subtree of the parse tree, got {node!r}"
    return node


class CompileError(Exception):
    """``path`` (when set) says which key of a choice the text came from."""

    def __init__(self, message: str, line: int, column: int, expected: str = "", hint: str = "",
                 path: tuple[Any, ...] = (), span: int = 0) -> None:
        self.message, self.line, self.column = message, line, column
        self.expected, self.hint, self.path = expected, hint, path
        self.span = span            # characters of the text the error is about (0: unknown)
        super().__init__(message)


class PendingCheck(CompileError):
    """A check of types made where the text is written and settled once the
    whole file is compiled, when the types of its variables are known (see
    :func:`rulekit.lang.type_checks.settled`): ``settle`` gives the problem
    found, if any, from the settled types."""

    def __init__(self, line: int, column: int, path: tuple[Any, ...], span: int,
                 settle: Callable[[ValueTypes], Problem | None]) -> None:
        super().__init__("(a check of types, not settled)", line, column, path=path, span=span)
        self.settle = settle

    def settled(self, types: ValueTypes) -> CompileError | None:
        """The error this check finds with the settled ``types``, if any."""
        problem = self.settle(types)
        return None if problem is None else CompileError(*problem[:1], self.line, self.column, *problem[1:],
                                                         self.path, self.span)


def _span(node: object) -> int:
    """How many characters of its line ``node`` covers (0 when not on one line)."""
    if isinstance(node, Token):
        text = str(node)
        return 0 if "\n" in text else len(text)
    meta = getattr(node, "meta", None)
    if meta is not None and not getattr(meta, "empty", True) and meta.end_line == meta.line:
        width: int = meta.end_column - meta.column
        return max(0, width)
    return 0


def _pos(node: object) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 0, node.column or 0
    meta = getattr(node, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        return meta.line, meta.column
    for child in getattr(node, "children", ()):
        if child is not None:
            return _pos(child)
    return 0, 0


class GenBase:
    """The state of one rule file's compilation and the operations every
    writer uses on it.

    The names of procedures, choices and triggers are fixed before any body
    is written (see :mod:`rulekit.lang.fn_names`), so bodies may refer to
    each other in any order.
    """

    def __init__(self, names: Names, deciding_procs: set[str], deciding_events: set[str],
                 triggers: list[dict[str, Any]], choice_if_none: dict[str, bool]) -> None:
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
        #: every assignment of a declared variable, for the settled types of the checks (type_checks)
        self.assigned: list[Assigned] = []
        #: the declared types where each set of locals holds numbers (see check_types)
        self._declared: dict[frozenset[str], ValueTypes] = {}
        self.static_preds: dict[str, str] = {}  # predicate source -> name of its per-card table
        self.prop_tables: dict[str, str] = {}  # constant name -> card property tabled by id
        self.tables = ModuleTables()   # load-time tables the passes add
        self.sum_tables: dict[str, str] = {}    # constant -> card property summed (none as 0)
        #: what every chosen answer carries worked out (its ``pj``): ("list"|"sum", property)
        self.chosen_projs: list[tuple[str, str]] = []
        #: filters written out as functions of their own, by name
        self.outlined: dict[str, Filter] = {}
        self.card_actions: dict[str, str] = {}  # constant -> option: its Action per card id
        self.inline_procs: dict[str, Tree[Token]] = {}  # procedures written in place of their calls
        self.proc_paths: dict[str, tuple[Any, ...]] = {}   # where each procedure's text is (set by the loader)
        #: procedures whose text is 'return <expression>', written in place of calls
        #: with plain arguments (see inline_exprs)
        self.expr_procs: dict[str, tuple[tuple[str, ...], Tree[Token]]] = {}
        #: their parameters and expression trees, built when first called (see Expressions.callee)
        self.callee_trees: dict[str, tuple[tuple[str, ...], Expr]] = {}
        #: expression nodes built so far that a pass works on (see Expressions.settle)
        self.calls_made = 0
        self.filters_made = 0
        self.inlined = 0                # procedures written in place so far (their locals' prefixes)
        self._cx: FnContext | None = None   # the function being written, if any
        self.text_path: tuple[Any, ...] = ()      # where in the file the text being written is
        self.locate: Callable[[tuple[Any, ...], int, int], Where] | None = None  # set by the loader
        self.card_props: frozenset[str] = frozenset()
        #: the card properties that are a whole number on every card holding them, by largest size
        self.number_props: dict[str, int] = {}
        #: the card properties whose values on every card can be keys of a dict (see pass_keyed)
        self.key_props: frozenset[str] = frozenset()
        #: how many cards the game has (None: not known): no zone holds more
        self.card_count: int | None = None
        #: (choice, option) -> the zones its cards can only come from (None: anywhere), see zones_of
        self.option_zones: dict[tuple[str, str], frozenset[int] | None] = {}
        #: (choice, option) -> the trees of its ``from:`` (None: none); Choices.param_option_zones
        #: reads those of the options their zones alone leave open, once the whole file is written
        self.option_sources: dict[tuple[str, str], list[Any]] = {}
        self.pure_procs: frozenset[str] = frozenset()     # procedures that write nothing (see purity)
        #: response windows whose skip answer ``choose`` may give in place (see gen_windows)
        self.windows: dict[str, Window] = {}
        #: window -> the constant holding the options of a seat that can only skip (see gen_windows)
        self.alone_options: dict[str, str] = {}
        #: ... their ``who`` and options as trees, built when first chosen (None: not in place)
        self.window_trees: dict[str, WindowTrees | None] = {}
        #: (choice, parameter) -> the trees of what each ``choose`` of the choice passes it
        self.choice_args: dict[tuple[str, str], list[Any]] = {}
        #: procedure -> the trees of what its ``return`` statements give (None: a bare return)
        self.proc_returns: dict[str, list[Any]] = {}
        self.returning_for: str | None = None     # the procedure being written (set by the loader)
        #: ... or an option's effect: the procedure whose calls may come back to it (see work)
        self.writing_proc: str | None = None
        self.work = work.NONE       # which calls and filters count steps (set by the loader)
        #: set when the lowering writes a read of ``.name`` that may go through a list a rule
        #: built, counting its steps (runtime_helpers.get_attr_long): CodeGen.expression asks
        self.long_reads = False
        self.choosing = ""                  # the choice being written
        #: parameters of the text being written that take a name from a
        #: ``names:`` entry: parameter -> entry (see name_checks)
        self.declared_params: dict[str, str] = {}
        self.resets: tuple[bool, bool] = (False, False)    # some variables reset every (turn, phase)
        self.reset_scope: dict[tuple[str, str], str] = {}  # ("vars"|"player_vars", name) -> "turn"|"phase"

    # ---- helpers ------------------------------------------------------------
    @property
    def cx(self) -> FnContext:
        """The function being written and where in it (between ``begin_function`` and ``end_function``)."""
        assert self._cx is not None, "no function is being written"
        return self._cx

    @property
    def function(self) -> Function:
        """The function being written."""
        return self.cx.fn

    def fn_name(self, kind: str, *key: object) -> str:
        """The name of the generated function of ``kind`` for ``key`` (see
        :mod:`rulekit.lang.fn_names`): the same for the same key, so the
        loader finds by it what it asked to be written."""
        return self.fnames.name(kind, *key)

    def const(self, value: Any, kind: str = "value", *key: object) -> str:
        """A new module constant holding ``value``, named by ``kind`` and ``key``."""
        name = self.fnames.fresh(kind, *key)
        self.ns[name] = value
        return name

    def prop_table(self, prop: str) -> str:
        """The name of the per-card table of ``prop`` (by card id), one per
        property for the whole file: card properties never change, so the
        table is filled in at build and shared by every use."""
        return self._card_table(self.prop_tables, "prop", prop)

    def sum_table(self, prop: str) -> str:
        """The name of the per-card table ``sum(cards.prop)`` reads (none as
        0), one per property for the whole file, as :meth:`prop_table`."""
        return self._card_table(self.sum_tables, "sum", prop)

    def _card_table(self, tables: dict[str, str], kind: str, prop: str) -> str:
        for name, p in tables.items():
            if p == prop:
                return name
        name = self.const((kind, prop), kind, prop)      # replaced by the table at build
        tables[name] = prop
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
    def where_list(self, seq: str, pred: Code, kind: str = "list", bounded: bool = False) -> Code:
        """``SEQ where TEST`` (``pred`` is the test with ``it`` as ``L_it``):
        a tabled test of card properties through ``_filt``, any other test
        through a function of its own (see :meth:`outline_where`).
        ``bounded``: SEQ is some of a zone's cards or the players, as long
        as the game lets it be; a longer list counts steps (see work)."""
        if pred.table is not None:
            if not bounded:
                seq = f"_long(m, {seq}, {self.cx.rule!r})"
            return Code(f"_filt({pred.table}, {seq})", kind)
        return self.outline_where(seq, pred, kind, bounded)

    def outline_where(self, seq: str, pred: Code, kind: str = "list", bounded: bool = False) -> Code:
        """``SEQ where TEST`` as a call of a module-level function ``F<n>``
        that loops over SEQ, instead of a comprehension.  On Python 3.11 a
        comprehension is a function object made afresh every time it is
        reached; a function made once, at load time, costs only its call.
        SEQ is evaluated by the caller (it may read the ``it`` of an
        enclosing filter); the locals the test reads are passed in.  A test
        that may loop itself counts a step for each element; a list that is
        not ``bounded`` a step for every ELEMENTS_PER_STEP (see work)."""
        free = sorted(pred.reads - {"L_it"})
        hoist = [h for h, _ in printer.HOISTS if h in pred.hoists]
        name = self.fnames.fresh("where", self.function.name)     # where_proc_x, where_proc_x_2, ...
        charge = "each" if pred.loops else "" if bounded else "many"
        self.outlined[name] = Filter(name, pred.src, free, hoist, self.here(), pre=pred.pre, charge=charge,
                                     key=pred.key)
        self.chunks.append(self.outlined[name])
        return Code(f"{name}(m, {seq}{''.join(', ' + f for f in free)})", kind, outlined=name)

    def watching(self, write: Callable[[], Code]) -> Code:
        """``write()``, with the locals and hoisted fields the code it
        writes reads noted in its ``reads`` and ``hoists`` (a filter's test:
        its function takes those locals as parameters)."""
        reads: set[str] = set()
        hoists: set[str] = set()
        self.cx.watch.append((reads, hoists))
        try:
            code = write()
        finally:
            self.cx.watch.pop()
        return attrs.evolve(code, reads=frozenset(reads), hoists=frozenset(hoists))

    def read(self, local: str) -> None:
        for reads, _ in self.cx.watch:
            reads.add(local)

    def hoist(self, field: str) -> None:
        """The function being written reads the match's ``field`` ("V", "GZ",
        "PZ" or "CH": see printer.HOISTS) through a local bound first."""
        self.function.hoist.add(field)
        for _, hoists in self.cx.watch:
            hoists.add(field)

    def outline_any(self, call: Code) -> str:
        """``any(SEQ where TEST)`` from the call ``outline_where`` wrote for
        the filter: its function stops at the first element that passes and
        answers true or false (nothing else calls it)."""
        assert call.outlined is not None
        self.outlined[call.outlined].mode = "any"
        return call.src

    def error(self, node: object, message: str, expected: str = "", hint: str = "") -> None:
        if self.names.follow_on(node, message):
            return          # about a part set aside for a structural error, reported already
        line, col = _pos(node)
        path = self._cx.error_path if self._cx is not None else ()
        self.errors.append(CompileError(message, line, col, expected, hint, path, _span(node)))

    def check_types(self, node: object, settle: Callable[[ValueTypes], Problem | None]) -> None:
        """A check of types at ``node``, settled when the file is compiled (see PendingCheck).

        The settled types know less than the declared ones (some variables
        are not known after all), and with less known no other problem can
        appear (an operand is then of the same type or not known): so a
        check that finds nothing with the declared types is not kept."""
        numbers = frozenset(self._cx.number_locals) if self._cx is not None else frozenset()
        declared = self._declared.get(numbers)
        if declared is None:
            declared = self._declared[numbers] = self.names.value_types.seeing(numbers)
        if settle(declared) is None:
            return
        line, col = _pos(node)
        path = self._cx.error_path if self._cx is not None else ()
        self.errors.append(PendingCheck(line, col, path, _span(node), lambda t: settle(t.seeing(numbers))))

    def begin_function(self, name: str, params: tuple[str, ...], rule: str, local_names: set[str],
               kinds: dict[str, str] | None = None) -> None:
        self._cx = FnContext(Function(name, params, rule), rule, comp_vars=set(params),
                             locals=set(params) | local_names, local_kinds=dict(kinds or {}))

    def where_const(self, node: object) -> str:
        """A constant holding the file position of ``node`` (for run-time errors)."""
        where = self.origin_of(node)
        return "None" if where is None else self.const(where, "at", where.line, where.column)

    def local_name(self, name: str) -> str:
        """The Python name of an effect-text local."""
        return ("L_" if name in self.cx.comp_vars else self.cx.prefix) + name

    def local(self, name: str) -> str:
        """The Python name of an effect-text local, read here."""
        local = self.local_name(name)
        self.read(local)
        return local

    def check_shadowing(self, tree: Tree[Token]) -> None:
        """A name bound by let / for / 'as' must not hide a declared name: the
        text after it would silently read the local instead (a choice's
        answer, a zone, a variable...)."""
        n = self.names
        for tok in self._bindings(tree):
            name = str(tok)
            names: Collection[str]
            for what, names in (("choice", n.choices), ("zone", n.zones), ("variable", n.vars),
                                ("table", n.tables), ("option", n.options),
                                ("procedure", n.procedures)):
                if name in names:
                    self.error(tok, f"'{name}' here would hide the {what} '{name}'",
                               "a name not declared elsewhere in the file",
                               f"rename the local, e.g. '{name}_'")
                    break

    @staticmethod
    def _bindings(tree: Tree[Token]) -> Iterator[Node]:
        """The name tokens a text binds: ``let x``, ``for x in``, ``emit ... as x``."""
        for s in subtrees(tree):
            if s.data in ("let_stmt", "for_stmt"):
                yield s.children[0]
            elif s.data == "emit_stmt" and s.children[2] is not None:
                yield s.children[2]

    @classmethod
    def declared_names(cls, tree: Tree[Token]) -> set[str]:
        return {str(tok) for tok in cls._bindings(tree)}

    @staticmethod
    def assigned_names(text: Tree[Token]) -> set[str]:
        """Names set by let or assignment may hold anything: they get no kind."""
        every = subtrees(text)
        return {str(s.children[0]) for s in every if s.data == "let_stmt"} | {
            str(subtree(s.children[0]).children[0]) for s in every if s.data == "assign_stmt"}

    def end_function(self) -> None:
        run_all(self.function, self.tables)
        self.chunks.append(self.function)
        self._cx = None

    def here(self) -> Origin:
        """The origin of a statement written now."""
        return (self.cx.origin, self.cx.rule, self.cx.via)

    def add(self, stmt: Stmt) -> None:
        self.cx.out.append(stmt)

    def do(self, call: str) -> None:
        self.add(Do(call, origin=self.here()))

    def assign(self, target: str, value: str) -> None:
        self.add(Assign(target, value, origin=self.here()))

    def origin_of(self, node: object) -> Where | None:
        """The file position of ``node`` in the text being written, if known."""
        if self.locate is None or not self.text_path:
            return None
        line, column = _pos(node)
        return self.locate(self.text_path, line, column)

    def tick(self) -> None:
        """Count a step of the rule being written (see pass_steps)."""
        self.add(Tick(1, self.cx.rule, origin=self.here()))

