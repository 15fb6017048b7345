"""Dealing a pile into several in one pass.

``move (Z where T1) to D1`` followed directly by ``move (Z where T2) to D2``
(same shared zone Z, tests of card properties alone, so tabled) becomes one
``m.move_split``: one pass over Z files each card under the first test it
passes.  Dealing a box into several piles is the usual case.  The result,
the log and the random draws are those of the separate moves, because no
card can come back to Z in between: every destination must be a zone read
directly and none may be Z itself.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .fn_names import split_table
from .ir import Function, MoveSplit, MoveWhere, Stmt, every_block

if TYPE_CHECKING:
    from .passes import ModuleTables


def run(fn: Function, tables: ModuleTables) -> None:
    for block in every_block(fn.body):
        block[:] = fused(block, tables)


def fused(block: list[Stmt], tables: ModuleTables) -> list[Stmt]:
    out: list[Stmt] = []
    for stmt in block:
        last = out[-1] if out else None
        if isinstance(stmt, MoveWhere) and isinstance(last, (MoveWhere, MoveSplit)) and _joins(last, stmt):
            split = last if isinstance(last, MoveSplit) else MoveSplit(
                last.zone, split_table(len(tables.split_tables)), [last.table],
                [(last.dest, last.bottom, last.shuffle)], origin=last.origin)
            split.tables.append(stmt.table)
            split.targets.append((stmt.dest, stmt.bottom, stmt.shuffle))
            tables.split_tables[split.table] = tuple(split.tables)
            out[-1] = split
            continue
        out.append(stmt)
    return out


def _joins(last: MoveWhere | MoveSplit, stmt: MoveWhere) -> bool:
    zone = stmt.zone
    if last.zone.src != zone.src or not zone.shared:
        return False
    dests = [last.dest] if isinstance(last, MoveWhere) else [d for d, _, _ in last.targets]
    return all(d.kind == "zone" and d.src != zone.src for d in (*dests, stmt.dest))
