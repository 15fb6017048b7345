"""Pass: a small procedure's expression is written in place of its call.

Rule files name their small questions (``has(p, "X")``: ``return skill in
p.skills``; ``wounded(p)``) so that rules read like the rulebook, and a
shared module offers such hooks for games to override.  A call costs a
Python function call, and the hottest run hundreds of thousands of times
in a simulation, so the call of a procedure whose whole text is ``return
<expression>`` (see :mod:`rulekit.lang.inline_exprs` for which qualify) is
replaced by that expression, its parameters replaced by the arguments.
The printer then picks the direct form for what each argument is (a seat's
variable read as ``m.pvars[s][v]``...).

Only when that changes nothing but speed: every argument is plain (a
local, a constant, ``current``), so an argument the expression reads
twice, or not at all, is still worth exactly what a call would see.  Calls
inside a written-in expression are written in place in turn, unless that
expression has eight or more parameters; and a procedure is written in
place only if it makes at most MAX_CALLS calls, counting those of the
procedures it calls (see :mod:`rulekit.lang.work`): those bound the code's
growth (a chain of procedures each calling the next twice would double it
at every link).

What the arguments decide is worked out on the way (by
:func:`rulekit.lang.pass_facts.folded`): a hook written in place with text
for its parameter (``immune(t, "duel")`` tests ``"duel" == "attack"``) or
a number (``1 + extra(p)`` with a hook that says 0) leaves no test or sum
of constants behind.
"""
from __future__ import annotations

from collections.abc import Callable

from . import pass_facts
from .expr_ir import Attr, Builtin, CardVar, Expr, Inlined, Local, ProcCall, map_parts

#: name -> (parameters, expression) of a procedure that may be written in place, or None
Callees = Callable[[str], "tuple[tuple[str, ...], Expr] | None"]

#: no call is written in place inside an expression with this many parameters
MAX_PARAMS = 8
#: a procedure making more calls than this (counting its callees') is not written in place
MAX_CALLS = 64


def run(node: Expr, callees: Callees, params: int = 0) -> Expr:
    """``node`` with the calls that qualify written in place; ``params`` is
    the number of parameters of the expression ``node`` is written in."""
    if isinstance(node, Inlined):
        return node                 # written in place already
    written = map_parts(node, lambda part: run(part, callees, params))
    if written is not node:         # a part was written in place: what it decides is worked out
        node = pass_facts.folded(written)
    if not isinstance(node, ProcCall) or params >= MAX_PARAMS:
        return node
    callee = callees(node.name)
    if callee is None or not all(a.plain for a in node.args):
        return node
    names, body = callee
    return Inlined(run(substitute(body, dict(zip(names, node.args))), callees, len(names)))


def kind_may_change(node: Expr) -> bool:
    """May writing calls in place change ``node``'s kind?  Only through the
    parts its kind is worked out from (an operator's, a filter's, an index's
    kind is fixed): so the writer asks the pass only when a call is there."""
    if isinstance(node, ProcCall):
        return True
    if isinstance(node, (Attr, CardVar)):
        return kind_may_change(node.base)
    if isinstance(node, Builtin):
        return any(kind_may_change(a) for a in node.args)
    return False


def substitute(node: Expr, args: dict[str, Expr]) -> Expr:
    """``node`` with each parameter (a :class:`Local` named in ``args``) replaced by its argument."""
    if isinstance(node, Local):
        return args.get(node.name, node)
    put = map_parts(node, lambda part: substitute(part, args))
    return put if put is node else pass_facts.folded(put)
