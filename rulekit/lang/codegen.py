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

import functools
import linecache
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from types import CodeType
from typing import Any

from lark import Token, Tree

from ..engine.runtime import Action
from ..model import Card
from . import pass_invariant, printer, runtime_helpers, work
from .expr_lower import bound, numeric
from .fn_names import TEST_FUNCTION, test_set
from .gen_base import CompileError
from .gen_choices import Choices
from .gen_statements import Statements
from .ir import Assign, Break, Do, For, If, Origin, ResetVars, Return, Stmt, TestFunction, Tick, Try, While
from .parser import subtrees

__all__ = ["CodeGen", "CompileError", "CompileLimit"]


def _projection(kind: str, prop: str, cards: Sequence[Card]) -> Callable[..., Any]:
    """The function that works out one of a chosen answer's ``pj`` from its
    cards: the list of their ``prop``, or its sum (none counting 0), read
    as effect text reads them elsewhere (``_proj``, ``_sumt``)."""
    if kind == "list":
        return partial(runtime_helpers._proj, [c.props.get(prop) for c in cards])
    return partial(runtime_helpers._sumt, [0 if c.props.get(prop) is None else c.props[prop] for c in cards])


def _tabled(test: Callable[[Any, Card], object], card: Card) -> bool | runtime_helpers.FailsFor:
    """A test of card properties, worked out for ``card`` at load time; for a
    card it fails on (a property it lacks compared with a number, say), the
    entry fails in turn, when a rule reads it: as the test itself would."""
    try:
        return bool(test(None, card))
    except Exception as err:      # noqa: BLE001 - any failure of the rule's own test
        return runtime_helpers.FailsFor(err)


def _first_passed(entries: list[object]) -> int | runtime_helpers.FailsFor:
    """The index of the first test passed of a split's tests (-1: none)."""
    for i, passed in enumerate(entries):
        if type(passed) is runtime_helpers.FailsFor:
            return passed
        if passed:
            return i
    return -1


class CompileLimit(Exception):
    """The generated code passed a limit of Python's compiler (the loader
    reports it as a rule-file error; the parser's nesting limits make it rare)."""


class CodeGen(Choices, Statements):
    """Writes the generated module of one rule file: the loader asks for
    each function (a script, an expression, a choice's enumerator, the turn
    flow), then :meth:`build` compiles them all at once.

    Its parts, each on the one below: :class:`~rulekit.lang.gen_base.GenBase`
    (the state and its small operations), name checks, the printer of
    expression trees (:mod:`rulekit.lang.expr_lower`), the expression writer
    (:mod:`rulekit.lang.gen_expressions`), and on those statements and choices.
    """

    # ---- whole functions ------------------------------------------------------
    #: parameters of trigger functions and their kinds
    TRIGGER_KINDS: dict[str, str] = {"event": "event", "owner": "int"}
    #: parameters of heuristics with a known kind: ``chosen`` is always the
    #: list of the answer's cards (empty for an answer without cards), so
    #: ``sum(chosen.value)`` reads the cards' table rather than asking each
    #: value its type (the answer's ``player`` may be none, ``option`` is text)
    HEURISTIC_KINDS: dict[str, str] = {"chosen": "cards"}

    def script(self, fname: str, tree: Tree[Token], rule: str, params: tuple[str, ...] = (),
               kinds: dict[str, str] | None = None) -> None:
        """``kinds``: the static kinds of parameters (e.g. a trigger's event)."""
        assigned = self.assigned_names(tree)
        self.check_shadowing(tree)
        declared = self.declared_names(tree)
        self.begin_function(fname, params, rule, declared, kinds)
        self.cx.assigned = assigned
        # names the text sets (a parameter too), or a procedure written in place of a call
        self.cx.rebound = declared | assigned | self._set_in_place(tree)
        self.cx.can_yield = self.cx.can_return = True
        self.begin_text(tree, self.cx.depth + 1)
        self.function.body.extend(self.block(tree.children))
        self.end_function()

    def _set_in_place(self, tree: Tree[Token]) -> set[str]:
        """The names the procedures written in place of ``call NAME`` in
        ``tree`` set (they see the caller's parameters), theirs in turn too."""
        found: set[str] = set()
        todo, seen = [tree], set[str]()
        while todo:
            for sub in subtrees(todo.pop()):
                if sub.data == "call_stmt" and sub.children[1] is None:
                    name = str(sub.children[0])
                    body = self.inline_procs.get(name)
                    if body is not None and name not in seen:
                        seen.add(name)
                        found |= self.assigned_names(body) | self.declared_names(body)
                        todo.append(body)
        return found

    def flow(self, phases: list[tuple[str, Tree[Token], tuple[Any, ...]]],
             report: Callable[[tuple[Any, ...]], object]) -> None:
        """``FLOW(m, first_phase)``: every turn, the phases in order, written
        as one function.  A phase's ``goto`` and ``end turn`` become plain
        jumps (exceptions only from inside loops and procedures), and no
        phase needs a call or a generator of its own.  ``report(path)`` maps
        the errors of each phase's text."""
        self.begin_function(self.fn_name("turn"), ("first_phase",), "turn", set())
        self.cx.can_yield = True
        self.function.hoist.update(("V", "GZ", "PZ", "CH"))
        self.function.current_fixed = False
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
            begin.append(_reset("turn", here))
        phases_run: list[Stmt] = []
        for i, (name, tree, path) in enumerate(phases):
            # 'if', not 'elif': a phase that ends with ph = i + 1 runs straight
            # into the next one, without going round the loop again
            self.cx.rule = f"phase '{name}'"     # the lines of the phase (see rulekit show-code)
            self.cx.out = []
            # a match that may be copied notes its data as each phase begins
            self.add(If([("m.copyable", [Do(f"m.checkpoint({i})", origin=self.here())])], one_line=True,
                        origin=self.here()))
            self.assign("m.phase", repr(name))
            if self.resets[1]:
                self.add(_reset("phase", self.here()))
            self.cx.prefix = f"L_p{i}_"
            self.cx.locals = {"first_phase"} | self.declared_names(tree)
            self.cx.local_kinds = {}
            self.cx.assigned = self.assigned_names(tree)
            self.check_shadowing(tree)
            self.cx.in_flow = True
            self.text_path = path
            self.begin_text(tree, self.cx.depth + 1)
            self.cx.out.extend(self.block(tree.children))
            self.cx.in_flow = False
            self.assign("ph", str(i + 1))
            phases_run.append(If([(f"ph == {i}", self.cx.out)], origin=self.here()))
            report(path)
        self.cx.rule = "turn"
        self.cx.out = self.function.body
        step = Tick(1, None, origin=here)
        jumps: list[tuple[str, list[Stmt]]] = [("_Goto as _jump", [step, Assign("ph", "_jump.phase", origin=here)]),
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
        self.end_function()

    def expression(self, fname: str, tree: Tree[Token], rule: str, params: tuple[str, ...] = (),
                   kinds: dict[str, str] | None = None, reader: bool = False,
                   wants: tuple[str, str] | None = None) -> None:
        """``fname`` returns the expression's value.  A ``reader`` (a value
        shown or scored from outside the rules: display, public, shown_when,
        heuristic, stat) puts the match's step count back as it found it,
        so what a view or an agent reads changes nothing of the match; the
        budget still stops one that would not end.  ``wants``: what its
        reader needs of the value (see Expressions.check_wanted)."""
        self.begin_function(fname, params, rule, set(), kinds)
        self.cx.origin = self.origin_of(tree)
        here = self.here()
        node = self.known_tree(tree)
        if wants is not None:
            self.check_wanted(tree, node, *wants)
        self.long_reads = False
        value = Return(self.lower(node).src, origin=here)
        # (the lowering tells of the reads it wrote that may count: a value's kind may be known
        # only there, once procedures are written in place)
        if reader and (self.long_reads or work.may_count(node, self.work)):
            self.add(Assign("_steps", "m.steps", origin=here))
            self.add(Try([value], [], [Assign("m.steps", "_steps", origin=here)], origin=here))
        else:
            self.add(value)
        self.end_function()

    def scores(self, fname: str, tree: Tree[Token], rule: str, params: tuple[str, ...],
               kinds: dict[str, str] | None = None) -> None:
        """``fname(m, options, *args)``: a heuristic's score of every one of
        ``options`` (a decision's actions), in order, for the choice's
        arguments ``args``.  ``params`` are the heuristic's: the answer's
        ``chosen``, ``option`` and ``player``, then the choice's own.

        Why a loop of its own: an agent scores every option of every
        decision, and a call of the one-option function per option, with
        the answer's cards made into a list outside, cost as much as the
        scores themselves in a large game.  Each option is scored from the
        step count the decision had, as the one-option function does, and
        the count is put back at the end (when the text may count steps)."""
        answer, rest = params[:3], params[3:]
        opts = "options"
        while opts in params:                  # (a choice's own parameter may have that name)
            opts = "_" + opts
        self.begin_function(fname, (opts,) + rest, rule, set(answer), kinds)
        self.cx.comp_vars |= set(answer)
        self.cx.origin = self.origin_of(tree)
        here = self.here()
        loop: list[Stmt] = []
        self.cx.out = loop
        node = self.known_tree(tree)
        self.long_reads = False
        chosen, option, player = (self.local_name(p) for p in answer)
        # what reads the same for every option, or twice for one, is worked out once
        node, before, each = pass_invariant.run(node, frozenset((chosen, option, player)), self.number_props)
        taken = [(name, self.watching(partial(self.lower, part)), part) for name, part in before + each]
        for name, _, part in taken:
            if numeric(part, self.number_props):       # (a sum with it is Python's own, as before)
                size = bound(part, self.number_props)
                if size is not None:
                    self.cx.number_locals[name] = size
        code = self.watching(lambda: self.lower(node))
        self.cx.out = self.function.body
        counts = self.long_reads or work.may_count(node, self.work)
        reads = code.reads.union(*(c.reads for _, c, _ in taken))
        # (only what the heuristic reads of the answer is taken out of it)
        loop[:0] = [Assign(chosen, "[_deck[_sc[0]]] if len(_sc := _so.cards) == 1 else "
                                   "[_deck[_i] for _i in _sc]", origin=here)] * (chosen in reads) + [
                    Assign(local, f"_so.{field}", origin=here)
                    for local, field in ((option, "option"), (player, "player")) if local in reads] + [
                    Assign("m.steps", "_steps", origin=here)] * counts + [
                    Assign(name, c.src, origin=here) for name, c, _ in taken[len(before):]]
        loop.append(Do(f"_out.append({code.src})", origin=here))
        self.add(Assign("_deck", "m.cards", origin=here))
        self.add(Assign("_out", "[]", origin=here))
        for name, c, _ in taken[:len(before)]:
            self.add(Assign(name, c.src, origin=here))
        scoring: list[Stmt] = [For("_so", f"L_{opts}", loop, origin=here), Return("_out", origin=here)]
        if counts:
            self.add(Assign("_steps", "m.steps", origin=here))
            self.add(Try(scoring, [], [Assign("m.steps", "_steps", origin=here)], origin=here))
        else:
            self.function.body.extend(scoring)
        self.end_function()

    def constant(self, fname: str, value: Any, params: tuple[str, ...] = (), rule: str = "constant") -> None:
        """``fname`` returns ``value`` (a plain number or flag; a stand-in for text that does not parse)."""
        self.begin_function(fname, params, rule, set())
        self.add(Return(self.const(value, 'value', fname), origin=self.here()))
        self.end_function()

    # ---- the module ---------------------------------------------------------
    def set_card_props(self, props: Iterable[str], cards: Sequence[Card], unknown: Iterable[str] = ()) -> None:
        """The card properties effect text may read, and of those the ones
        that are whole numbers on every one of ``cards`` holding them (none of
        ``unknown``, whose values were not read): arithmetic on such a
        property is a number the text bounds (see expr_lower.numeric); and
        those whose values can be keys of a dict (``key_props``).  No zone
        holds more than the cards there are (``card_count``)."""
        self.card_props = frozenset(props)
        self.card_count = len(cards)
        sizes: dict[str, int] = {}
        other: set[str] = set(unknown)
        unkeyed: set[str] = set(unknown)
        for c in cards:
            for k, v in c.props.items():
                if type(v) is int:
                    sizes[k] = max(sizes.get(k, 0), abs(v))
                else:
                    other.add(k)
                    if v is not None and type(v) not in (str, bool):
                        unkeyed.add(k)
        self.number_props = {k: n for k, n in sizes.items() if k not in other}
        self.key_props = self.card_props - unkeyed

    def build(self, filename: str, cards: Sequence[Card]) -> dict[str, Any]:
        """Compile every generated function at once; return the namespace."""
        for src, table in self.static_preds.items():
            self.chunks.append(TestFunction(TEST_FUNCTION + table, src))
        printed = [printer.chunk(c) for c in self.chunks]
        origins: dict[int, tuple[Any, ...]] = {}
        calls: dict[int, tuple[Any, ...]] = {}      # line of a procedure written in place -> its calls
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
        ns = self.ns
        ns["__builtins__"] = runtime_helpers.SAFE_BUILTINS
        line = 1
        for text, _ in printed:
            # the code is the compiler's own output; see the module docstring
            exec(_compiled_at(text, label, line), ns)
            line += text.count("\n") + 1
        for table in self.static_preds.values():
            ns[table] = entries = [_tabled(ns[TEST_FUNCTION + table], c) for c in cards]
            failing = any(type(e) is runtime_helpers.FailsFor for e in entries)
            ns[test_set(table)] = None if failing else frozenset(c for c, e in zip(cards, entries) if e)
        for const, prop in self.prop_tables.items():
            ns[const] = [c.props.get(prop) for c in cards]
        for const, prop in self.sum_tables.items():
            ns[const] = [0 if c.props.get(prop) is None else c.props[prop] for c in cards]
        for const, option in self.card_actions.items():
            ns[const] = [Action(option, (c.id,), None) for c in cards]
        ns["_PJ"] = tuple(_projection(kind, prop, cards) for kind, prop in self.chosen_projs)
        for name, tables in self.tables.split_tables.items():
            ns[name] = [_first_passed([ns[t][c.id] for t in tables]) for c in cards]
        ns["__source__"] = source
        ns["__label__"] = label
        ns["__origins__"] = origins
        ns["__calls__"] = calls
        ns["__names__"] = dict(self.fnames.rules)
        return ns


@functools.lru_cache(maxsize=8192)
def _compiled(text: str, label: str) -> CodeType:
    """The code of one generated function (one chunk of the module),
    numbered from line 1, kept for the last few thousand texts.  A chunk is
    compiled on its own: a game loaded again unchanged, or a variant or an
    edit that changes a few rules, compiles only the functions whose text
    changed (compiling is a fifth of a load; a large module compiled in one
    piece costs more than its chunks one by one).  A code object is never
    changed, and each load runs it in a namespace of its own."""
    try:
        return _interned(compile(text, label, "exec"))
    except (SyntaxError, RecursionError, MemoryError, ValueError) as err:
        raise CompileLimit(str(err)) from None


def _interned(code: CodeType) -> CodeType:
    """``code`` with its text constants interned, as the rule file's texts
    are (``rulekit.yamlsafe.interned``): a card's text compared with the
    same text written in effect text then meets one object on both sides,
    and ``==`` or a lookup by that text is a pointer test.  Tuples and
    frozensets of constants (``in ('a', 'b')``) are interned item by item."""
    return code.replace(co_consts=tuple(_interned_const(c) for c in code.co_consts))


def _interned_const(c: object) -> object:
    if type(c) is str:
        return sys.intern(c)
    if isinstance(c, CodeType):
        return _interned(c)
    if type(c) is tuple:
        return tuple(_interned_const(x) for x in c)
    if type(c) is frozenset:
        return frozenset(_interned_const(x) for x in c)
    return c


@functools.lru_cache(maxsize=8192)
def _compiled_at(text: str, label: str, line: int) -> CodeType:
    """:func:`_compiled` numbered from ``line``, the chunk's first line in
    the module (where tracebacks and the rule-file positions of
    ``__origins__`` find it): a function added above it moves it down
    without compiling it again."""
    code = _compiled(text, label)
    return code if line == 1 else _shifted(code, line - 1)


def _shifted(code: CodeType, by: int) -> CodeType:
    """``code`` and the code objects it holds (functions, comprehensions),
    ``by`` lines further down (their line tables count from their first line)."""
    consts = tuple(_shifted(c, by) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno + by, co_consts=consts)


def _reset(when: str, here: Origin) -> If:
    """The reset of a turn or a phase, made only when something it covers
    was written since the last (most phases write nothing of it): the test
    here saves the call."""
    return If([(f"m.dirty[{when!r}]", [ResetVars(when, origin=here)])], origin=here)
