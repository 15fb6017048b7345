"""Shuffling: the order ``random.Random.shuffle`` makes, in half the time.

Every random draw of a match is a shuffle (a deck, a pile dealt out, a
card taken blind from a hand), and a seed must give the same games on
every machine and the games it gave before (the golden playthroughs of
``tests/test_determinism.py`` hold them), so the order a shuffle makes is
fixed: the one Python's ``random.Random.shuffle`` makes, a Fisher–Yates
pass from the last card down whose every index is drawn by ``getrandbits``
of the width of ``i + 1``, drawn again while it is too large
(``Random._randbelow``).  Python spends a method call and a
``bit_length`` on each card for that: 6–8 % of a short game whose setup
shuffles a few piles.

:func:`shuffle_in_place` makes the very same calls of ``getrandbits``, with
the same widths and in the same order: the same order of cards from the
same state of the generator, which it leaves in the same state.  The width
is kept from card to card instead of measured anew (it drops by one bit as
``i + 1`` falls below each power of two).  ``tests/test_shuffling.py``
compares it with ``random.Random.shuffle`` of the Python it runs on.
"""
from __future__ import annotations

import random
from typing import Any


def shuffle_in_place(rng: random.Random, x: list[Any]) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` would."""
    getrandbits = rng.getrandbits
    n = len(x)
    if n < 2:
        return
    k = n.bit_length()                  # the width of a draw below n = i + 1 for the first i
    edge = (1 << (k - 1)) - 1           # for i below it, i + 1 has one bit fewer
    for i in range(n - 1, 0, -1):
        if i < edge:
            k -= 1
            edge >>= 1
        r = getrandbits(k)
        while r > i:                    # (rejection: the draw must be at most i)
            r = getrandbits(k)
        x[i], x[r] = x[r], x[i]
