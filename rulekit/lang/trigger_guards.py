"""Testing only the seat a trigger can fire for, before calling its ``when``.

An event runs the triggers held per player once for every seat, calling
each one's ``when`` (``for _o in seats_from(current): ... if when(m, _ev, _o)``).
Most such ``when`` texts begin ``owner == event.target and ...``: one seat
at most can fire, and calling the function for every other seat is a call
per seat, per trigger, per event spent on a no.  When a ``when`` begins so,
the emitting code tests ``_o == _ev.get('target')`` itself first, the very
test the ``when`` begins with (an event's field is read so everywhere), so
the function is called for that seat alone.  When every trigger held per
player on the event begins with the same such test, the emitting code does
not go round the seats at all: it goes to the seat the field names (and,
after a trigger that sent the event on, to the seat it names then, if that
one comes later from the current player), see Statements.add_seat_named.
Nothing else changes: seats are taken in the same order and the triggers
in file order within a seat, so whatever fires fires as before.
"""
from __future__ import annotations

from lark import Token, Tree


def _is_name(node: object, name: str) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) == name


def _event_field(node: object) -> str | None:
    """``F`` when ``node`` is ``event.F``."""
    if isinstance(node, Tree) and node.data == "attr" and _is_name(node.children[0], "event"):
        return str(node.children[1])
    return None


def seat_guard(when: Tree[Token] | None) -> tuple[str, str] | None:
    """The event's field F and the test of the seat ``_o`` against it
    (``_o == _ev.get(F)``) that the trigger held per player with this
    ``when`` begins with, or None."""
    if when is None:
        return None
    first: Tree[Token] | Token = when
    while isinstance(first, Tree) and first.data == "and_op":
        first = first.children[0]
    if not isinstance(first, Tree) or first.data != "compare_op":
        return None
    left, op, right = first.children
    if str(op) != "==":
        return None
    for owner, field in ((left, _event_field(right)), (right, _event_field(left))):
        if _is_name(owner, "owner") and field is not None and field != "name":
            return field, f"_o == _ev.get({field!r})" if owner is left else f"_ev.get({field!r}) == _o"
    return None
