"""The arithmetic of effect text that could make a value grow without end.

A loop, a turn cycle or a recursion that multiplies a number by itself, or
adds it to itself, or joins a list to itself, doubles the value's size at
every step: the step budget stops the match long after memory is gone (and
long after a number has passed the 4,300 digits Python will write out, so
that no view of the match could be shown).  So a product, a sum and a
difference are held to ±MAX_INTEGER, the size a rule file may write, and a
list or text that ``+`` or ``*`` builds to MAX_BUILT_ITEMS elements; past
them the rule fails, at its statement, like any rule error.  They take what
the language gives them: ``*`` two numbers, or a list or text and a number
(repeated), ``+`` two numbers, two lists or two texts; ``true`` and
``false`` are not numbers; ``%`` takes two numbers (of a text, Python's
``%`` formats it).  Where one side of a sum or difference is a number the
text bounds (a literal, a size, arithmetic of those), the compiler writes
Python's own ``+`` or ``-``: such a sum is a number or fails, and a step
grows a number by that much at most, which the step budget bounds (see
``expr_lower.numeric``).

Lists inside lists grow the same way without any ``+``: ``l = [l, l]``
doubles what ``l`` holds at every step while memory holds two pointers, and
only showing the value (a view, the log as JSON) writes it all out; so does
a list of one long text many times (``[s] * 100000``).  So a list that may
hold lists, texts or events is weighed as it is built (:func:`_nest`):
every value counts, those of the lists inside it too and a text's
characters, up to MAX_BUILT_ITEMS, nested at most MAX_NESTING deep.  The
depth also stops an event that holds itself (``event.x = [event]``), which
would never end.
"""
from __future__ import annotations

from typing import Any

from ..limits import MAX_BUILT_ITEMS, MAX_INTEGER, MAX_NESTING, TooLarge, written_size


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
        return seq * times if type(seq) is str else _nest(seq * times)
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
            return a + b if ta is str else _nest(a + b)
        raise OverflowError(_too_long(ta, len(a) + len(b), "+"))
    raise TypeError(f"unsupported operand type(s) for +: '{ta.__name__}' and '{tb.__name__}'")


def _sub(a: Any, b: Any) -> Any:
    """``a - b`` of effect text, where the compiler does not know one side
    to be a number the text bounds (``v - (0 - v)`` doubles ``v``)."""
    if type(a) is int and type(b) is int:
        difference = a - b
        if -MAX_INTEGER <= difference <= MAX_INTEGER:
            return difference
        raise OverflowError(f"{a} - {b} is beyond ±10^15 (MAX_INTEGER), the largest number a rule may hold")
    return a - b


def _mod(a: Any, b: Any) -> int:
    """``a % b`` of effect text: the remainder of whole numbers (of a text,
    Python's ``%`` would format it, "%999999999d" % 1 making a gigabyte)."""
    if type(a) is not int or type(b) is not int:
        raise TypeError(f"unsupported operand type(s) for %: '{type(a).__name__}' and '{type(b).__name__}'")
    return a % b


def _nest(items: list[Any]) -> list[Any]:
    """``items``, a list just built, when it holds no list, text or event, or
    within MAX_BUILT_ITEMS values and MAX_NESTING levels counting those it
    holds (see the module's doc); else the rule fails.  A list of cards,
    seats or numbers, the usual case, is only looked at (a long one in C)."""
    if len(items) < 16:
        for x in items:
            t = type(x)
            if t is list or t is dict or t is tuple or t is str:
                _weigh(items)
                break
    else:
        kinds = set(map(type, items))
        if list in kinds or dict in kinds or tuple in kinds or str in kinds:
            _weigh(items)
    return items


def _one(x: Any) -> list[Any]:
    """``[x]``, weighed when ``x`` is a list or an event (see :func:`_nest`;
    one text is within the limit, which a text ``+`` builds is held to)."""
    t = type(x)
    if t is list or t is dict or t is tuple:
        _weigh([x])
    return [x]


def _weigh(value: list[Any] | dict[str, Any]) -> None:
    """Fail when ``value`` holds more than MAX_BUILT_ITEMS values, counting
    what the lists and events inside it hold and a text's characters, or
    nests more than MAX_NESTING deep (see rulekit.limits.written_size)."""
    try:
        written_size((value,), MAX_BUILT_ITEMS, MAX_NESTING)
    except TooLarge as too:
        if too.deep:
            raise OverflowError(f"a list or event would be nested more than {MAX_NESTING} deep (MAX_NESTING): "
                                "a list put in itself in a loop (l = [l]) nests a level a step, and an event "
                                "that holds itself (event.x = [event]) nests without end") from None
        raise OverflowError(f"a list would hold more than {MAX_BUILT_ITEMS} values counting those of the "
                            "lists inside it and a text's characters (MAX_BUILT_ITEMS): a list that "
                            "holds itself twice, as in l = [l, l], doubles at every step") from None


def _held(event: dict[str, Any], value: Any) -> None:
    """After ``event.field = value``: an event that now holds a list or an
    event is weighed (one holding itself is nested without end)."""
    t = type(value)
    if t is list or t is dict or t is tuple:
        _weigh(event)


def _too_long(kind: type, size: int, op: str) -> str:
    what, items = ("list", "elements") if kind is list else ("text", "characters")
    return f"'{op}' would build a {what} of {size} {items}, more than {MAX_BUILT_ITEMS} (MAX_BUILT_ITEMS)"


NAMESPACE = {"_mul": _mul, "_add": _add, "_sub": _sub, "_mod": _mod, "_nest": _nest, "_one": _one, "_held": _held}
