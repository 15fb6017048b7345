"""Which procedures are pure, and which of those are worth remembering.

A pure procedure writes nothing (no variable of the match, no card moved,
no event emitted), decides nothing and draws nothing at random: while no
one writes, called again with the same arguments it gives the same answer.
The heuristic agent scores every option of a decision with the match
standing still, and the scores of a file's heuristics call the same pure
procedures (``can_target``, ``enemy``...) with the same arguments again and
again; :mod:`rulekit.lang.pass_memo` makes those that are worth it answer
from a memo while the match stands still (see ``Match.memo``).

Worked out on the parse trees, before anything is compiled, like
:mod:`rulekit.lang.calls`: by the statements a text holds (a whitelist: a
statement kind added to the language is impure until added here) and, to a
fixed point, by the procedures it calls.
"""
from __future__ import annotations

from lark import Token, Tree

from .parser import subtrees

#: statements that write nothing of the match (an assignment only to a local: see _writes)
_PURE_STMTS = frozenset({"let_stmt", "assign_stmt", "if_stmt", "elif_clause", "else_clause",
                         "while_stmt", "for_stmt", "return_stmt", "pass_stmt", "suite", "script"})
#: built-in functions that are not a function of the match's state alone
IMPURE_BUILTINS = frozenset({"shuffled", "can_choose"})


def _called(sub: Tree[Token], procedures: set[str]) -> str | None:
    """The procedure a node calls, if it calls one."""
    if sub.data in ("call_stmt", "call_proc"):
        return str(sub.children[0])
    if sub.data == "call" and str(sub.children[0]) in procedures:
        return str(sub.children[0])
    return None


def _local_only(subs: list[Tree[Token]], params: tuple[str, ...]) -> bool:
    """Every assignment of a text (``subs``: its nodes) sets a local (a
    ``let`` name, a loop variable or a parameter), not a variable of the match."""
    local = set(params)
    for sub in subs:
        if sub.data in ("let_stmt", "for_stmt"):
            local.add(str(sub.children[0]))
    for sub in subs:
        if sub.data == "assign_stmt":
            target = sub.children[0]
            if not isinstance(target, Tree) or len(target.children) != 1 or str(target.children[0]) not in local:
                return False
    return True


def _own_ok(subs: list[Tree[Token]], params: tuple[str, ...]) -> bool:
    for sub in subs:
        if sub.data.endswith("_stmt") and sub.data not in _PURE_STMTS:
            return False
        if sub.data == "call" and str(sub.children[0]) in IMPURE_BUILTINS:
            return False
    return _local_only(subs, params)


def pure(procedures: dict[str, Tree[Token] | None], params: dict[str, tuple[str, ...]]) -> set[str]:
    """The procedures that are pure (see the module docstring)."""
    names = set(procedures)
    subs = {n: subtrees(t) for n, t in procedures.items() if t is not None}
    calls = {n: {c for sub in nodes if (c := _called(sub, names)) is not None} for n, nodes in subs.items()}
    return closed({n for n, nodes in subs.items() if _own_ok(nodes, params.get(n, ()))}, calls)


def closed(ok: set[str], calls: dict[str, set[str]]) -> set[str]:
    """Those of ``ok`` that call only procedures of the answer: one that
    calls a procedure left out is left out too, until none is."""
    out = set(ok)
    changed = True
    while changed:
        changed = False
        for n in sorted(out):
            if not calls[n] <= out:
                out.discard(n)
                changed = True
    return out


#: more parameters than this and a procedure is seldom asked the same question twice
#: while one decision is scored (a target check asked of every player for every
#: kind of card): the memo would cost more than it saves
MAX_PARAMS = 2


def costly(procedures: dict[str, Tree[Token] | None], pure_procs: set[str],
           params: dict[str, tuple[str, ...]]) -> set[str]:
    """The pure procedures worth remembering, of at most MAX_PARAMS
    parameters: those with a loop or a filter of their own, and those
    calling a costly procedure that is not remembered itself (it has too
    many parameters).  A procedure that reads a variable or two, or asks
    only procedures remembered themselves, answers about as fast as a memo
    can be looked up."""
    names = set(procedures)
    texts = {n: subtrees(t) for n, t in procedures.items() if t is not None and n in pure_procs}
    loops = {n for n, nodes in texts.items() if any(
        sub.data in ("for_stmt", "while_stmt", "where_op") for sub in nodes)}
    calls = {n: {c for sub in nodes if (c := _called(sub, names)) is not None} for n, nodes in texts.items()}
    costly_ = set(loops)
    changed = True
    while changed:
        changed = False
        for n in sorted(set(texts) - costly_):
            if calls[n] & costly_:
                costly_.add(n)
                changed = True
    kept = {n for n in costly_ if len(params.get(n, ())) <= MAX_PARAMS}
    # a procedure costly only through callees that are remembered themselves
    # answers about as fast as a memo is looked up: it is not remembered
    return {n for n in kept if n in loops or calls[n] & (costly_ - kept)}


def calls_only(tree: Tree[Token] | None, procedures: set[str], pure_procs: set[str]) -> bool:
    """Does an expression call no procedure but pure ones (and no impure built-in)?"""
    if tree is None:
        return False
    for sub in subtrees(tree):
        called = _called(sub, procedures)
        if called is not None and called not in pure_procs:
            return False
        if sub.data == "call" and str(sub.children[0]) in IMPURE_BUILTINS:
            return False
        if sub.data.endswith("_stmt"):
            return False
    return True
