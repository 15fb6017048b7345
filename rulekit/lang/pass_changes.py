"""Change tracking: generated code notes each variable it writes.

A learning environment keeps every seat's observation vector and writes,
once per step for all seats, only what the step changed
(:mod:`rulekit.rl.incremental`).
Finding what changed by comparing every variable with a copy costs more
than the step itself; the code that writes a variable knows what it wrote.
Compiled :func:`tracking`, each write of

- a match variable ``V['k'] = ...`` adds ``(None, 'k')``,
- a player variable ``m.pvars[P]['k'] = ...`` adds ``(P, 'k')`` (P the seat),
- a card variable ``_set_cv(m, C, 'k', ...)`` adds ``(None, 'k', C.id)``,
- a reset ``m.reset_vars(W)`` that will set something back adds ``(W,)``

to the match's set ``m.changes``, which the reader empties.  The notes
hold no text the code did not already hold (the observation's vocabulary
is read from the code's text constants: see rulekit.rl.vocabulary).  Off by
default: plain play runs the code it always did.  Every expression is
evaluated once and in the order it was (a seat or card given by an
expression is kept in a local ``_wo`` first, the value in ``_wv``).

The writes are the builder's typed nodes (:class:`~rulekit.lang.ir.SetVar`,
:class:`~rulekit.lang.ir.ResetVars`): the only way generated code writes a
declared variable.  The tests compare the kept observations with full ones
at every step of every game, so a write made any other way is seen at once.
"""
from __future__ import annotations

import contextlib
import contextvars
from typing import TYPE_CHECKING, Iterator

from .ir import Assign, Code, Do, Function, If, ResetVars, SetVar, Stmt, every_block

if TYPE_CHECKING:
    from .passes import ModuleTables

#: on while a game is compiled for change tracking (see :func:`tracking`)
TRACK: contextvars.ContextVar[bool] = contextvars.ContextVar("rulekit_track_changes", default=False)


@contextlib.contextmanager
def tracking() -> Iterator[None]:
    """Games loaded inside compile with change tracking on."""
    token = TRACK.set(True)
    try:
        yield
    finally:
        TRACK.reset(token)


def run(fn: Function, tables: ModuleTables) -> None:
    if TRACK.get():
        for block in every_block(fn.body):
            block[:] = [s for stmt in block for s in noted(stmt)]


def noted(stmt: Stmt) -> list[Stmt]:
    """``stmt`` and what notes its write, or ``[stmt]`` when it writes no variable."""
    here = stmt.origin
    if isinstance(stmt, SetVar):
        name = repr(stmt.name)
        if stmt.scope == "match":
            return [stmt, Do(f"m.changes.add((None, {name}))", origin=here)]
        owner = stmt.owner
        assert owner is not None
        if stmt.scope == "player":
            if owner.plain:                 # a local, a constant, the current seat: read again as it is
                return [stmt, Do(f"m.changes.add(({owner}, {name}))", origin=here)]
            return [Assign("_wv", stmt.value, origin=here), Assign("_wo", owner.src, origin=here),
                    SetVar("player", stmt.name, "_wv", Code("_wo", "int", plain=True, local=True), origin=here),
                    Do(f"m.changes.add((_wo, {name}))", origin=here)]
        return [Assign("_wo", owner.src, origin=here),
                SetVar("card", stmt.name, stmt.value, Code("_wo", "card", plain=True, local=True), stmt.rule,
                       origin=here),
                Do(f"m.changes.add((None, {name}, _wo.id))", origin=here)]
    if isinstance(stmt, ResetVars):
        when = repr(stmt.when)
        mark = Do(f"m.changes.add(({when},))", origin=here)
        return [If([(f"m.dirty[{when}]", [mark])], one_line=True, origin=here), stmt]
    return [stmt]
