"""Printing the intermediate form as Python source: the one place that
writes the generated code's text.

Each function prints as its source and, per line, the :data:`Origin` of
the statement the line belongs to (the header and the hoisted fields
belong to the rule as a whole), from which the loader builds the line map
of ``rulekit show-code`` and of run-time errors.
"""
from __future__ import annotations

from typing import Any

from ..limits import ELEMENTS_PER_STEP
from .ir import (
    Assign,
    Break,
    Chunk,
    Continue,
    Decide,
    Do,
    EmptyLists,
    Filter,
    For,
    Function,
    If,
    MoveSplit,
    MoveWhere,
    Origin,
    Pass,
    Raise,
    ResetVars,
    Return,
    SetVar,
    Stmt,
    TestFunction,
    Tick,
    Try,
    While,
    YieldFrom,
)

#: the match's fields a function may bind to a local first, and the local's name; CP: the
#: current player's variables (bound only where the current player stays the same: see
#: Function.current_fixed)
HOISTS = (("V", "vars"), ("GZ", "gz"), ("PZ", "pz"), ("CH", "chosen"), ("CP", "pvars[m.current]"))

Lines = list[tuple[str, Origin]]
#: per printed line: its origin (the function's header and hoists: (None, rule))
LineOrigins = list[tuple[Any, ...]]


def variable(scope: str, name: str, owner: object = None) -> str:
    """A match variable (``scope`` "match") or ``owner``'s player variable
    ("player") as the generated code reads and writes it."""
    return f"V[{name!r}]" if scope == "match" else f"m.pvars[{owner}][{name!r}]"


def simple(stmt: Stmt) -> str:
    """The one line of a simple statement."""
    if isinstance(stmt, Assign):
        return f"{stmt.target} {stmt.op} {stmt.value}"
    if isinstance(stmt, Do):
        return stmt.call
    if isinstance(stmt, SetVar):
        if stmt.scope == "card":
            return f"_set_cv(m, {stmt.owner}, {stmt.name!r}, {stmt.value}, {stmt.rule!r})"
        return f"{variable(stmt.scope, stmt.name, stmt.owner)} = {stmt.value}"
    if isinstance(stmt, ResetVars):
        return f"m.reset_vars({stmt.when!r})"
    if isinstance(stmt, YieldFrom):
        return f"yield from {stmt.call}"
    if isinstance(stmt, Decide):
        return f"{stmt.target} = yield {stmt.decision}"
    if isinstance(stmt, Return):
        return "return" if stmt.value is None else f"return {stmt.value}"
    if isinstance(stmt, Raise):
        return f"raise {stmt.exc}"
    if isinstance(stmt, Pass):
        return "pass"
    if isinstance(stmt, Break):
        return "break"
    if isinstance(stmt, Continue):
        return "continue"
    if isinstance(stmt, EmptyLists):
        return "; ".join(f"{n} = []" for n in stmt.names)
    if isinstance(stmt, MoveWhere):
        return f"m.move_where({stmt.zone}, {stmt.table}, {stmt.dest}, {stmt.bottom}, {stmt.shuffle})"
    if isinstance(stmt, MoveSplit):
        dests = ", ".join(f"({d}, {b}, {sh})" for d, b, sh in stmt.targets)
        return f"m.move_split({stmt.zone}, {stmt.table}, ({dests},))"
    raise TypeError(f"not a simple statement: {stmt!r}")     # pragma: no cover


def _single(body: list[Stmt]) -> bool:
    """Is ``body`` one simple statement, which a one-line ``if`` or ``for``
    prints after its colon?  (A pass may have added to a body that was one:
    the statement is then printed on lines of its own, whatever it asked.)"""
    return len(body) == 1 and not isinstance(body[0], (Tick, If, For, While, Try))


def statements(body: list[Stmt], depth: int, out: Lines) -> None:
    """Append the lines of ``body`` at indentation ``depth`` to ``out``."""
    pad = "    " * depth
    for stmt in body:
        origin = stmt.origin
        if isinstance(stmt, Tick):
            rule = "" if stmt.rule is None else repr(stmt.rule)
            out.append((f"{pad}m.steps += {stmt.steps}", origin))
            out.append((f"{pad}if m.steps > m.budget: m.over_budget({rule})", origin))
        elif isinstance(stmt, If):
            if stmt.one_line and len(stmt.branches) == 1 and stmt.orelse is None and _single(stmt.branches[0][1]):
                (cond, (inner,)), = stmt.branches
                out.append((f"{pad}if {cond}: {simple(inner)}", origin))
                continue
            for k, (cond, inner_body) in enumerate(stmt.branches):
                out.append((f"{pad}{'if' if k == 0 else 'elif'} {cond}:", origin))
                statements(inner_body, depth + 1, out)
            if stmt.orelse is not None:
                out.append((f"{pad}else:", origin))
                statements(stmt.orelse, depth + 1, out)
        elif isinstance(stmt, For):
            items = stmt.iter
            if stmt.counted is not None:
                items = "_each"
                out.append((f"{pad}_each = {stmt.iter}", origin))
                out.append((f"{pad}m.steps += len(_each)", origin))
                out.append((f"{pad}if m.steps > m.budget: m.over_budget({stmt.counted!r})", origin))
            head = f"{pad}for {stmt.target} in {items}:"
            if stmt.one_line and _single(stmt.body):
                out.append((f"{head} {simple(stmt.body[0])}", origin))
                continue
            out.append((head, origin))
            statements(stmt.body, depth + 1, out)
        elif isinstance(stmt, While):
            out.append((f"{pad}while {stmt.cond}:", origin))
            statements(stmt.body, depth + 1, out)
        elif isinstance(stmt, Try):
            out.append((f"{pad}try:", origin))
            statements(stmt.body, depth + 1, out)
            for clause, handler in stmt.handlers:
                out.append((f"{pad}except {clause}:", origin))
                statements(handler, depth + 1, out)
            if stmt.final:
                out.append((f"{pad}finally:", origin))
                statements(stmt.final, depth + 1, out)
        else:
            out.append((pad + simple(stmt), origin))


def function(fn: Function) -> tuple[str, LineOrigins]:
    """A function's source, and the origin of each of its lines."""
    head = f"def {fn.name}(m{''.join(', L_' + p for p in fn.params)}):"
    hoists = [f"    {h} = m.{attr}" for h, attr in HOISTS if h in fn.hoist]
    lines: Lines = []
    statements(fn.body, 1, lines)
    whole: Origin = (None, fn.rule, ())
    body = [text for text, _ in lines] or ["    pass"]
    origins: LineOrigins = [whole[:2]] * (1 + len(hoists))
    origins += [origin for _, origin in lines] or [whole[:2]]
    return "\n".join([head, *hoists, *body]) + "\n", origins


def filter_function(f: Filter) -> tuple[str, LineOrigins]:
    """``SEQ where TEST`` as a function over the elements (see CodeGen.outline_where)."""
    # the elements' parameter is not named _seq: the test may call the helper of that name
    lines = [f"def {f.name}(m, _elems{''.join(', ' + v for v in f.free)}):"]
    lines += [f"    {h} = m.{attr}" for h, attr in HOISTS if h in f.hoist]
    lines += [f"    {name} = {src}" for name, src in f.pre]
    if f.charge == "each":      # (see rulekit.lang.work)
        lines += ["    m.steps += len(_elems)", f"    if m.steps > m.budget: m.over_budget({f.origin[1]!r})"]
    elif f.charge == "many":
        lines += [f"    if len(_elems) > {ELEMENTS_PER_STEP}: m.count(len(_elems) // {ELEMENTS_PER_STEP}, "
                  f"{f.origin[1]!r})"]
    test, ask = f.test, []
    if f.key is not None:       # the test asked once for each value of the property (see pass_keyed)
        lines += ["    _seen = {}"]
        ask = [f"        _t = _seen.get(_k := L_it.props.get({f.key!r}))",
               f"        if _t is None: _t = _seen[_k] = bool({f.test})"]
        test = "_t"
    if f.mode == "any":
        lines += ["    for L_it in _elems:", *ask, f"        if {test}: return True", "    return False"]
    else:
        lines += ["    _out = []", "    for L_it in _elems:", *ask, f"        if {test}: _out.append(L_it)",
                  "    return _out"]
    return "\n".join(lines) + "\n", [f.origin] * len(lines)


def chunk(c: Chunk) -> tuple[str, LineOrigins]:
    if isinstance(c, Function):
        return function(c)
    if isinstance(c, Filter):
        return filter_function(c)
    assert isinstance(c, TestFunction)
    return f"def {c.name}(m, L_it):\n    return {c.test}\n", []
