"""The engine's shuffle makes Python's order: a seed gives the games it always gave.

(Whole games: the golden playthroughs of tests/test_determinism.py, whose
logs hold every shuffle of every game, are unchanged by it.)"""
from __future__ import annotations

import random

import pytest

from rulekit.engine.shuffling import shuffle_in_place

# every length up to a few powers of two past a deck, and each side of the widths' edges
LENGTHS = [*range(0, 70), 107, 108, 127, 128, 129, 255, 256, 257, 1000]


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 12345, 2**40 + 3])
def test_the_same_order_and_the_same_state_as_random_shuffle(seed: int) -> None:
    for n in LENGTHS:
        theirs, ours = list(range(n)), list(range(n))
        a, b = random.Random(seed * 1000 + n), random.Random(seed * 1000 + n)
        a.shuffle(theirs)
        shuffle_in_place(b, ours)
        assert ours == theirs, n
        assert b.getstate() == a.getstate(), n       # the same draws: what follows is the same too


def test_one_generator_shuffling_again_and_again_stays_in_step() -> None:
    a, b = random.Random(99), random.Random(99)
    for n in [54, 3, 0, 1, 2, 108, 40, 4, 4, 12] * 5:
        theirs, ours = list(range(n)), list(range(n))
        a.shuffle(theirs)
        shuffle_in_place(b, ours)
        assert ours == theirs
    assert a.random() == b.random()


def test_any_items_are_shuffled_and_none_is_lost() -> None:
    items = ["a", None, ("t",), 3.5, "a"]
    shuffle_in_place(random.Random(5), items)
    assert sorted(map(repr, items)) == sorted(map(repr, ["a", None, ("t",), 3.5, "a"]))

