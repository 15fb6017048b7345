"""Which procedures may be written in place of their calls.

Rule files name their small questions (``has(p, "X")``: ``return skill in
p.skills``; ``wounded(p)``; ``distance_adjust(a, b)``) so that rules read
like the rulebook, and a shared module offers such hooks for games to
override.  A call costs a Python function call, and the hottest of them run
hundreds of thousands of times in a simulation, so a procedure whose whole
text is ``return <expression>`` is written at each call site instead (the
pass :mod:`rulekit.lang.pass_inline`, which also says which calls qualify).

A procedure qualifies when that changes nothing but speed: the expression
has no comprehension (``where``) or ``it`` (those are compiled into
functions of their own that capture the locals they read), and the
procedure never decides and does not reach itself.
"""
from __future__ import annotations

from collections.abc import Collection

from lark import Token, Tree

from .parser import subtrees

#: parse-tree nodes an inlined expression may hold
_ALLOWED = {"name", "string", "number", "true", "false", "none", "attr", "index", "call",
            "compare_op", "in_op", "not_in_op", "and_op", "or_op", "not_op", "binop", "neg",
            "list_lit", "args", "ternary"}


def expression_procs(procedures: dict[str, Tree[Token] | None], params: dict[str, tuple[str, ...]],
                     deciding: set[str], on_cycle: Collection[str]) -> dict[str, tuple[tuple[str, ...], Tree[Token]]]:
    """name -> (parameters, the returned expression) of every procedure that
    may be written in place of its calls (``on_cycle``: the procedures on a
    cycle of calls, which never are)."""
    out = {}
    for name, tree in procedures.items():
        if tree is None or name in deciding or name in on_cycle or len(tree.children) != 1:
            continue
        stmt = tree.children[0]
        if not isinstance(stmt, Tree) or stmt.data != "return_stmt" or not stmt.children \
                or stmt.children[0] is None:
            continue
        expr = stmt.children[0]
        if not isinstance(expr, Tree):
            continue
        if all(sub.data in _ALLOWED for sub in subtrees(expr)) and not _names_it(expr):
            out[name] = (params.get(name, ()), expr)
    return out


def _names_it(expr: Tree[Token]) -> bool:
    return any(isinstance(t, Token) and t.type == "NAME" and t == "it" for t in expr.scan_values(lambda v: True))
