"""Step counting: two counts in a row become one.

Every loop turn, call of a procedure and trigger counts a step (``Tick``)
so that a rule that never ends is stopped (``m.over_budget``); a ``for``
loop counts its turns at once, before the first (``For.counted``).  When one
count directly follows another in the same block, for the same rule (a
loop whose body starts with a call, a call of a procedure whose text
starts with one), the second adds nothing a reader of the budget could
tell apart: one statement counts both.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .ir import Function, Stmt, Tick, every_block

if TYPE_CHECKING:
    from .passes import ModuleTables


def run(fn: Function, tables: ModuleTables) -> None:
    for block in every_block(fn.body):
        block[:] = merged(block)


def merged(block: list[Stmt]) -> list[Stmt]:
    out: list[Stmt] = []
    for stmt in block:
        last = out[-1] if out else None
        if isinstance(stmt, Tick) and isinstance(last, Tick) and last.rule == stmt.rule:
            last.steps += stmt.steps
            continue
        out.append(stmt)
    return out
