"""The arithmetic of effect text that could make a value grow without end.

A loop, a turn cycle or a recursion that multiplies a number by itself, or
joins a list to itself, doubles the value's size at every step: the step
budget stops the match long after memory is gone.  So a product is held to
±MAX_INTEGER, the size a rule file may write, and a list or text that
``+`` or ``*`` builds to MAX_BUILT_ITEMS elements; past them the rule
fails, at its statement, like any rule error.  Both take what the language
gives them: ``*`` two numbers, or a list or text and a number (repeated),
``+`` two numbers, two lists or two texts; ``true`` and ``false`` are not
numbers; ``%`` takes two numbers (of a text, Python's ``%`` formats it).
Where one side of a sum is surely a number (a literal, a size, a
difference...), the compiler writes Python's own ``+``: such a sum is a
number or fails, and a number that grows by sums gains a bit a step at
most, which the step budget bounds (see ``expr_lower.is_number``).
"""
from __future__ import annotations

from typing import Any

from ..limits import MAX_BUILT_ITEMS, MAX_INTEGER


def _mul(a: Any, b: Any) -> Any:
    """``a * b`` of effect text: a product of numbers, or a list or text
    repeated a number of times (``["rebel"] * n``)."""
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        product = a * b
        if -MAX_INTEGER <= product <= MAX_INTEGER:
            return product
        raise OverflowError(f"{a} * {b} is beyond ±10^15 (MAX_INTEGER), the largest number a rule may hold")
    if tb is int and (ta is list or ta is str):
        seq, times = a, b
    elif ta is int and (tb is list or tb is str):
        seq, times = b, a
    else:
        # Python's own words, which the failure report turns into effect text's ("'*' cannot take ...")
        raise TypeError(f"unsupported operand type(s) for *: '{ta.__name__}' and '{tb.__name__}'")
    if len(seq) * times <= MAX_BUILT_ITEMS:
        return seq * times
    raise OverflowError(_too_long(type(seq), len(seq) * times, "*"))


def _add(a: Any, b: Any) -> Any:
    """``a + b`` of effect text, where the compiler does not know both to be numbers."""
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        total = a + b
        if -MAX_INTEGER <= total <= MAX_INTEGER:
            return total
        raise OverflowError(f"{a} + {b} is beyond ±10^15 (MAX_INTEGER), the largest number a rule may hold")
    if (ta is list and tb is list) or (ta is str and tb is str):
        if len(a) + len(b) <= MAX_BUILT_ITEMS:
            return a + b
        raise OverflowError(_too_long(ta, len(a) + len(b), "+"))
    raise TypeError(f"unsupported operand type(s) for +: '{ta.__name__}' and '{tb.__name__}'")


def _mod(a: Any, b: Any) -> int:
    """``a % b`` of effect text: the remainder of whole numbers (of a text,
    Python's ``%`` would format it, "%999999999d" % 1 making a gigabyte)."""
    if type(a) is not int or type(b) is not int:
        raise TypeError(f"unsupported operand type(s) for %: '{type(a).__name__}' and '{type(b).__name__}'")
    return a % b


def _too_long(kind: type, size: int, op: str) -> str:
    what, items = ("list", "elements") if kind is list else ("text", "characters")
    return f"'{op}' would build a {what} of {size} {items}, more than {MAX_BUILT_ITEMS} (MAX_BUILT_ITEMS)"


NAMESPACE = {"_mul": _mul, "_add": _add, "_mod": _mod}
