"""What effect text can reach: which scripts can stop at a decision, and
which procedures can be written in place of their calls.

Worked out on the parse trees before anything is compiled, because the code
generator must know whether a ``call`` or an ``emit`` has to be a
``yield from`` (it reaches a ``choose``) or a plain call.
"""
from __future__ import annotations

from collections.abc import Collection

from lark import Token, Tree

from .parser import subtrees

Flags = tuple[bool, set[str], set[str]]
_EMPTY: Flags = (False, set(), set())


def collect_flags(tree: Tree[Token]) -> Flags:
    """(has a ``choose``, procedures called, events emitted)."""
    has_choose, calls, emits = False, set(), set()
    for sub in subtrees(tree):
        if sub.data == "choose_stmt":
            has_choose = True
        elif sub.data in ("call_stmt", "call_proc"):
            calls.add(str(sub.children[0]))
        elif sub.data == "emit_stmt":
            emits.add(str(sub.children[0]))
    return has_choose, calls, emits


def flags_of(tree: Tree[Token] | None) -> Flags:
    return collect_flags(tree) if tree is not None else _EMPTY


def deciding(procedures: dict[str, Tree[Token] | None], triggers: list[tuple[str, Tree[Token] | None]]
             ) -> tuple[set[str], set[str], list[bool]]:
    """Fixed point over calls and events: (procedures that can decide, events
    whose triggers can decide, whether each trigger can decide)."""
    proc_flags = {n: flags_of(t) for n, t in procedures.items()}
    trig_flags = [(event, flags_of(t)) for event, t in triggers]
    procs: set[str] = set()
    events: set[str] = set()
    changed = True
    while changed:
        changed = False
        for n, (choose, calls, emits) in proc_flags.items():
            if n not in procs and (choose or calls & procs or emits & events):
                procs.add(n)
                changed = True
        for event, (choose, calls, emits) in trig_flags:
            if event not in events and (choose or calls & procs or emits & events):
                events.add(event)
                changed = True
    trig_gen = [bool(c or calls & procs or emits & events) for _, (c, calls, emits) in trig_flags]
    return procs, events, trig_gen


def decides(tree: Tree[Token], procs: set[str], events: set[str]) -> bool:
    choose, calls, emits = collect_flags(tree)
    return bool(choose or calls & procs or emits & events)


def uses_return(tree: Tree[Token]) -> bool:
    return any(sub.data == "return_stmt" for sub in subtrees(tree))


def inlinable(procedures: dict[str, Tree[Token] | None], with_params: frozenset[str] | set[str],
              on_cycle: Collection[str]) -> dict[str, Tree[Token]]:
    """Procedures that are on no cycle of calls (``on_cycle``: see
    :func:`rulekit.lang.work.plan`, which finds them all in one pass), take
    no parameters and return nothing: the compiler writes their text in
    place of each call."""
    return {n: t for n, t in procedures.items()
            if t is not None and n not in with_params and not uses_return(t) and n not in on_cycle}
