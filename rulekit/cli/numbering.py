"""Option numbers that stay put while a person decides several times in a row.

In a play phase a person answers one decision after another (use a card,
use another, end); the engine lists the options afresh each time, so by
position "3" would mean a different card after every action.  Here an
option keeps its number for as long as it is offered in a row of
decisions of the same choice for the same seat in the same turn (others may
answer in between, as a target answers an attack); an option offered anew
gets the next unused number, so a number never changes meaning mid-row.  A
different choice, or a new turn, starts again from 1.
"""
from __future__ import annotations

from ..engine.runtime import Action, Decision


class OptionNumbers:
    """Numbers for the options of successive decisions (one per person)."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._numbers: dict[Action, int] = {}
        self._next = 1

    def number(self, dec: Decision, turn: int) -> list[tuple[int, Action]]:
        """``(number, action)`` for each option of ``dec``, ordered by number."""
        key = (dec.choice, dec.player, turn)
        if key != self._key:
            self._key, self._numbers, self._next = key, {}, 1
        offered = set(dec.options)
        kept = {a: n for a, n in self._numbers.items() if a in offered}
        for a in dec.options:
            if a not in kept:
                kept[a] = self._next
                self._next += 1
        self._numbers = kept
        return sorted(((n, a) for a, n in kept.items()), key=lambda item: item[0])
