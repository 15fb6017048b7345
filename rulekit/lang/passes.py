"""Passes over a generated function's intermediate form, run in order
when the function is complete, before it is printed.

A pass is a function ``run(fn, tables)`` in a module of its own (``pass_*.py``) that
changes ``fn`` (a :class:`rulekit.lang.ir.Function`) in place and may add
load-time tables to ``tables`` (a :class:`ModuleTables`).  Adding a pass is
one module and one line in :data:`PASSES`.
"""
from __future__ import annotations

from typing import Callable

import attrs

from . import pass_changes, pass_kept, pass_memo, pass_splits, pass_steps
from .ir import Function


@attrs.define
class ModuleTables:
    """Tables of the generated module filled in when it is built, that a
    pass may add to.  ``split_tables``: name -> the tabled tests of a pile
    dealt into several (per card, the index of the first it passes)."""

    split_tables: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    #: generated functions of pure procedures that answer from ``m.memo`` (see pass_memo)
    memoized: set[str] = attrs.field(factory=set)
    #: ... of those, the ones that keep their answers in ``m.kept``, and the variables
    #: ((scope, name)) whose writes empty it (see pass_kept)
    kept: set[str] = attrs.field(factory=set)
    kept_watch: set[tuple[str, str]] = attrs.field(factory=set)


Pass = Callable[[Function, ModuleTables], None]

#: every pass, in the order they run
PASSES: tuple[Pass, ...] = (pass_steps.run, pass_splits.run, pass_memo.run, pass_kept.run, pass_changes.run)


def run_all(fn: Function, tables: ModuleTables) -> None:
    for run in PASSES:
        run(fn, tables)
