"""Remembering what a pure procedure answered while the match stands still.

For a procedure the loader found pure and worth it (see
:mod:`rulekit.lang.purity`; ``tables.memoized``), the function looks its
arguments up in ``m.memo`` first and files its answer there at every
``return``.  ``m.memo`` is ``None`` unless whoever drives the match opens
it for a stretch in which nothing writes (the heuristic agent, scoring the
options of one decision), so a procedure called in play is unchanged but
for one test.

What stays exact: the arguments' types are part of the key (``1`` and
``true`` are equal in Python and would share an entry), an argument that
cannot be a key (a list) is simply not looked up, and the steps the
procedure counted are filed with its answer and counted again when the
answer is read, so a match's step count and budget are those of a match
without the memo.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .ir import Assign, Do, Function, If, Origin, Return, Stmt, Try, every_block

if TYPE_CHECKING:
    from .passes import ModuleTables


def run(fn: Function, tables: ModuleTables) -> None:
    if fn.name not in tables.memoized:
        return
    here: Origin = fn.body[0].origin if fn.body else (None, fn.rule, ())
    for block in every_block(fn.body):
        block[:] = [s for stmt in block for s in (_filed(stmt) if isinstance(stmt, Return) else [stmt])]
    if not fn.body or not isinstance(fn.body[-1], Return):
        fn.body.extend(_filed(Return(None, origin=here)))
    fn.body[:0] = _look_up(fn, here, tables)


def _look_up(fn: Function, here: Origin, tables: ModuleTables) -> list[Stmt]:
    # the function itself names the entry: a string would be a text constant of the code
    key = ", ".join([fn.name] + [f"L_{p}, type(L_{p})" for p in fn.params])
    hit = [Assign("m.steps", "_mv[1]", "+=", origin=here),
           If([("m.steps > m.budget", [Do(f"m.over_budget({fn.rule!r})", origin=here)])],
              one_line=True, origin=here),
           Return("_mv[0]", origin=here)]
    look = [Assign("_mk", f"({key},)", origin=here),
            Try([Assign("_mv", "_mc.get(_mk)", origin=here)],
                [("_Unhashable", [Assign("_mc", "None", origin=here), Assign("_mv", "None", origin=here)])],
                origin=here),
            If([("_mv is not None", hit)], origin=here),
            Assign("_ms", "m.steps", origin=here)]
    begin: list[Stmt] = [Assign("_mc", "m.memo", origin=here)]
    if fn.name in tables.kept:       # (see pass_kept: answers for plain arguments are kept)
        kept = " and ".join(["_mc is not None", *(f"type(L_{p}) in _PLAIN" for p in fn.params)])
        begin.append(If([(kept, [Assign("_mc", "m.kept", origin=here)])], one_line=True, origin=here))
    return [*begin, If([("_mc is not None", look)], origin=here)]


def _filed(ret: Return) -> list[Stmt]:
    here = ret.origin
    return [Assign("_mr", ret.value or "None", origin=here),
            If([("_mc is not None", [Assign("_mc[_mk]", "(_mr, m.steps - _ms)", origin=here)])],
               one_line=True, origin=here),
            Return("_mr", origin=here)]
