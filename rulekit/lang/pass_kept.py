"""Pass: answers of pure procedures that read only variables, kept until one is written.

The heuristic agent scores the options of every decision, and the
procedures its scores ask (``foes(p)``: who looks like p's enemy, from the
identities shown and who hurt whom) read a few variables that change a few
times a turn, not at every decision.  :mod:`rulekit.lang.pass_memo` lets a
pure procedure remember its answers while one decision is scored; for a
procedure that reads variables and nothing else that changes (no zone, no
answer of a choice, no event, not whose turn or which phase it is), the
answers stay true until one of those variables is written.  Such a
procedure files its answers in ``m.kept``, which outlives the decision,
and every write of a variable one of them reads empties it.

Worked out on the parse trees before anything is written (:func:`plan`):
which procedures may keep their answers, and the variables they read
(through the procedures they call).  The writes are the builder's typed
nodes (``SetVar``), so :func:`run` finds every write the rules make; the
engine empties ``m.kept`` itself where it sets variables (a reset, an
elimination, a match restored, set up for a test or resampled).  Only
answers for arguments that are plain values (a seat, a text, a number, a
flag) are kept: a zone or a list given as an argument may change unseen.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token, Tree

from . import purity
from .ir import Do, Function, SetVar, Stmt, every_block
from .parser import subtrees

if TYPE_CHECKING:
    from .names import Names
    from .passes import ModuleTables

#: what a kept procedure may not read at all: whose turn it is, the phase, an event
_NEVER = frozenset({"current", "phase", "event"})
#: built-ins that read which players are still in the game
_SEATS = frozenset({"players", "next", "prev", "seats_from", "seat_distance"})


def _reads(tree: Tree[Token], names: Names, procedures: set[str]) -> tuple[set[tuple[str, str]], set[str]] | None:
    """The variables a text reads ((scope, name): "match" or "player") and
    the procedures it calls; None when it reads something else that changes."""
    read: set[tuple[str, str]] = set()
    called: set[str] = set()
    for sub in subtrees(tree):
        if sub.data == "name":
            name = str(sub.children[0])
            if name in _NEVER or name in names.zones or name in names.choices:
                return None
            if name in names.vars:
                read.add(("match", name))
            elif name in _SEATS:
                read.add(("match", "players"))
        elif sub.data == "attr":
            attr = str(sub.children[1])
            if attr in names.card_vars:
                return None
            if attr in names.player_vars:
                read.add(("player", attr))
        elif sub.data in ("call", "call_proc"):
            name = str(sub.children[0])
            if name in names.zones or name in _NEVER:
                return None
            if name in procedures:
                called.add(name)
            elif name in _SEATS:
                read.add(("match", "players"))
    return read, called


def plan(texts: dict[str, Tree[Token] | None], memoized: set[str], names: Names
         ) -> tuple[set[str], set[tuple[str, str]]]:
    """The procedures of ``memoized`` (pure, worth remembering) that may keep
    their answers in ``m.kept``, and the variables they read together."""
    procedures = set(texts)
    own = {n: r for n, t in texts.items() if t is not None and (r := _reads(t, names, procedures)) is not None}
    # (a procedure calling one that reads what changes reads it too)
    ok = purity.closed(set(own), {n: called for n, (_, called) in own.items()})
    kept = memoized & ok
    watched: set[tuple[str, str]] = set()
    todo, seen = list(kept), set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        read, called = own[n]
        watched |= read
        todo.extend(called)
    return kept, watched


def run(fn: Function, tables: ModuleTables) -> None:
    """Empty ``m.kept`` after every write of a variable a kept procedure reads."""
    if not tables.kept_watch:
        return
    for block in every_block(fn.body):
        block[:] = [s for stmt in block for s in _noted(stmt, tables.kept_watch)]


def _noted(stmt: Stmt, watched: set[tuple[str, str]]) -> list[Stmt]:
    if isinstance(stmt, SetVar) and (stmt.scope, stmt.name) in watched:
        return [stmt, Do("m.kept.clear()", origin=stmt.origin)]
    return [stmt]

