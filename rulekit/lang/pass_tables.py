"""Pass: a filter whose test reads only card properties is tabled.

``hand where it.suit == "hearts"``: a card's properties never change, so
the test's answer for each card is worked out once, when the file loads,
and the filter reads a table by card id (``_filt(TABLE, cards)``) instead
of running the test per card per call.  This pass marks such filters
(:attr:`rulekit.lang.expr_ir.Where.tabled`); the printer fills in the table.
It runs after procedures are written in place (:mod:`rulekit.lang.pass_inline`),
so a test that asks a small procedure about the card's properties
(``deck where is_red(it)``) is tabled too.
"""
from __future__ import annotations

import attrs

from .expr_ir import Attr, Expr, Index, Inlined, Lit, Local, Op, Where, children, map_parts


def card_static(node: Expr) -> bool:
    """True when ``node`` depends only on the properties of the card ``it``
    (and constants): its value per card never changes during a match."""
    if isinstance(node, Lit):
        return node.fixed
    if isinstance(node, Attr):      # (a card variable is a CardVar: a card's state changes)
        return isinstance(node.base, Local) and node.base.name == "it"
    if isinstance(node, (Index, Op, Inlined)):
        return all(card_static(c) for c in children(node))
    return False


def tabled(test: Expr, elem: str) -> bool:
    """Is a test of elements of kind ``elem`` read from a table?"""
    return elem == "card" and card_static(test)


def run(node: Expr) -> Expr:
    """``node`` with every filter whose test may be tabled marked so."""
    node = map_parts(node, run)
    if isinstance(node, Where) and not node.tabled and tabled(node.test, node.elem):
        return attrs.evolve(node, tabled=True)
    return node
