"""Pass: what a heuristic reads the same for every option is worked out once.

An agent scores all the options of a decision with the match standing
still, in one loop (``scores_C``, see ``CodeGen.scores``).  A part of the
heuristic that reads nothing of the option (its ``chosen`` cards, its
``option``, its ``player``) has the same value for every option:
``top(pile).value``, ``sum(hand(current).value)``; and a part read twice
in one option's score has the same value both times: ``sum(chosen.value)``
compared with one bound and added to a total.  This pass takes such parts
out of the score: those of the first kind to be worked out once before the
loop (``_v0 = ...``), those of the second once at the start of each
option's turn (``_c0 = ...``); the score reads the locals.

Only parts that cannot fail and count no steps are taken out, since the
score might not have read them (``a if TEST else b`` reads one side): the
properties of a shared pile's top card (as :mod:`pass_hoist` takes them
out of a filter's test), and the sum of a property that is a whole number
on every card (none counting 0) over a shared zone, a zone of the current
player, or the option's cards.  A filter is left whole: its own function
is written apart.
"""
from __future__ import annotations

from collections.abc import Mapping

from .expr_ir import Attr, Builtin, Expr, Lit, Local, Where, ZoneOf, children, map_parts, sum_of_cards
from .pass_hoist import total_top_read

#: (local, the part it stands for), in the order they are worked out
Taken = list[tuple[str, Expr]]


def run(score: Expr, per_option: frozenset[str], number_props: Mapping[str, int]
        ) -> tuple[Expr, Taken, Taken]:
    """``score`` with the parts taken out replaced by locals; the parts
    worked out before the loop; those worked out at the start of each
    option's turn.  ``per_option``: the Python names of the locals an option
    sets (``L_chosen``...)."""
    total: list[Expr] = []

    def find(node: Expr) -> None:
        if isinstance(node, Where):
            return
        if _total(node, per_option, number_props):
            total.append(node)      # (its parts go with it)
            return
        for part in children(node):
            find(part)

    find(score)
    before: Taken = []
    each: Taken = []

    def take(node: Expr) -> Expr:
        if isinstance(node, Where):
            return node
        if not _total(node, per_option, number_props):
            return map_parts(node, take)
        invariant = not _reads(node, per_option)
        if not invariant and sum(part == node for part in total) < 2:
            return node               # read once for the option: as good where it stands
        into, prefix = (before, "_v") if invariant else (each, "_c")
        for name, part in into:
            if part == node:
                return Local(name, name, node.kind)
        name = f"{prefix}{len(into)}"
        into.append((name, node))
        return Local(name, name, node.kind)

    return take(score), before, each


def _total(node: Expr, per_option: frozenset[str], number_props: Mapping[str, int]) -> bool:
    """Is ``node`` a part that cannot fail nor count a step, worth taking out?
    (A top card itself is left: a property read of it, when not one of the
    card's, is written for what its base is, which a local would hide.)"""
    if isinstance(node, Attr):
        return total_top_read(node)
    if not (isinstance(node, Builtin) and node.name == "sum"):
        return False
    summed = sum_of_cards(node)
    if summed is None or summed.attr not in number_props or not summed.card_prop:
        return False
    cards = summed.base
    if isinstance(cards, Local):
        return cards.py in per_option and cards.kind == "cards"
    if isinstance(cards, Lit):
        return cards.shared
    return isinstance(cards, ZoneOf) and isinstance(cards.player, Lit) and cards.player.src == "m.current"


def _reads(node: Expr, names: frozenset[str]) -> bool:
    """Does ``node`` read one of the locals ``names``?"""
    if isinstance(node, Local):
        return node.py in names
    return any(_reads(part, names) for part in children(node))
