"""Pass: a filter whose test reads one property of its card tests each value once.

``hand(current) where usable(current, it.kind)`` asks ``usable`` for every
card of the hand, though two attacks in a hand get the same answer: nothing
changes while a filter runs (its test writes nothing), and the test reads
nothing of the card but its kind.  Such a filter's function keeps the answer
for each value of the property it has seen (``_seen``) and asks the test only
for a value it has not.

Only a test that is worth it and cannot tell two such cards apart is keyed:
it reads the card (``it``, a card) only as ``it.PROP`` of one card property
whose values can be keys (texts, numbers, flags), it calls a procedure (a
test of properties alone is tabled per card at load time instead, see
pass_tables, and a cheap test costs less than a look-up), every procedure it
calls is pure and none stops for a decision, it draws nothing at random, and
it holds no filter of its own (whose ``it`` would be another).  The steps
the test would have counted for a card whose value was seen are not counted
again: the filter did less work.
"""
from __future__ import annotations

from collections.abc import Collection

from .expr_ir import Attr, Builtin, CardVar, Expr, Inlined, Local, ProcCall, Where, children
from .purity import IMPURE_BUILTINS


def key_of(test: Expr, pure: Collection[str], props: Collection[str]) -> str | None:
    """The card property ``test`` reads its element by, if it is to be keyed
    by it (see above); ``pure``: the pure procedures, ``props``: the card
    properties whose values can be keys."""
    read: set[str] = set()
    worth = False
    todo = [test]
    while todo:
        node = todo.pop()
        if isinstance(node, Attr) and isinstance(node.base, Local) and node.base.py == "L_it":
            if not node.card_prop or node.base.kind != "card":
                return None
            read.add(node.attr)
            continue
        if isinstance(node, Local) and node.py == "L_it":
            return None                 # the card itself, not one of its properties
        if isinstance(node, (Where, CardVar)):
            return None
        if isinstance(node, ProcCall):
            if node.yields or node.name not in pure:
                return None
            worth = True
        elif isinstance(node, Inlined):
            worth = True
        elif isinstance(node, Builtin) and node.name in IMPURE_BUILTINS:
            return None
        todo.extend(children(node))
    if worth and len(read) == 1:
        prop, = read
        return prop if prop in props else None
    return None
