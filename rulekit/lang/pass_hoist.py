"""Pass: what a filter's test reads of a shared pile's top card is read once.

``hand(current) where it.suit == top(pile).suit or it.rank == top(pile).rank``
asks for the top card of the pile, and its properties, for every card of the
hand, though nothing changes while a filter runs (its test writes nothing).
This pass takes such reads out of the test: the filter's function works
them out before its loop (``_h0 = ...``) and the test reads the local.

Only reads that cannot fail are taken out, since the loop might not have
made them (an empty hand, or a test that stops at ``it.rank == "8" or``
before): the top card of a shared zone (none when it is empty) and a
property of it (none then too).  A filter inside the test is left whole:
its own function is written the same way.
"""
from __future__ import annotations

from .expr_ir import Attr, Builtin, Expr, Lit, Local, Where, children, map_parts, top_zone


def run(test: Expr) -> tuple[Expr, list[tuple[str, Expr]]]:
    """``test`` with each read of a shared pile's top card (or of one of its
    properties) replaced by a local ``_h<n>``, and those locals with the
    reads they stand for, in order (a read made twice is one local)."""
    taken: list[tuple[str, Expr]] = []
    if not _reads_a_top(test):       # (most tests: a walk that makes nothing, to say so)
        return test, taken

    def take(node: Expr) -> Expr:
        if isinstance(node, Where):
            return node                     # its own function takes out its own
        if total_top_read(node):
            for name, read in taken:
                if read == node:
                    return Local(name, name)
            name = f"_h{len(taken)}"
            taken.append((name, node))
            return Local(name, name)
        return map_parts(node, take)

    return take(test), taken


def _reads_a_top(test: Expr) -> bool:
    """Does ``test`` read a shared zone's top card outside a filter of its own?"""
    todo = [test]
    while todo:
        node = todo.pop()
        if isinstance(node, Builtin) and node.name == "top":
            return True
        if not isinstance(node, Where):
            todo.extend(children(node))
    return False


def total_top_read(node: Expr) -> bool:
    """``top(ZONE)`` or ``top(ZONE).PROP`` of a shared zone: a read that
    gives none for an empty zone rather than failing."""
    if isinstance(node, Attr):
        zone = top_zone(node)
        return node.card_prop and isinstance(zone, Lit) and zone.shared
    if isinstance(node, Builtin) and node.name == "top" and len(node.args) == 1:
        zone = node.args[0]
        return isinstance(zone, Lit) and zone.shared
    return False
