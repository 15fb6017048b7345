"""Arrays handed to agents, written again once nothing else holds them.

An environment hands every agent a new observation vector at every step
(the agent may keep it) and a new action mask at every decision of new
options.  Allocating them costs little in instructions but much in the
processor's caches: a large game's vector and mask are tens of KB
together, and the fresh memory each takes (a mask also zeroed) evicts the
engine's own data from a 32 KB first-level cache at every step.

Most agents drop what they were given before the next step, so the same
few arrays can be handed out again: an array is written again only when
the references to it are the environment's own, counted with
``sys.getrefcount``.  Anything outside that holds it (the agent's
observation dict, a replay buffer, a numpy view or a tensor made from it)
adds a reference, and the array is then left alone for good.  The counts
that mean "held by nobody else" are measured here, at import, through
the same code that checks them, so they follow the interpreter's own.
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

_COUNTED = hasattr(sys, "getrefcount")

if _COUNTED:
    def refs(x: object) -> int:
        """``x``'s reference count, as seen from a caller holding it in one place."""
        return sys.getrefcount(x)
else:
    def refs(x: object) -> int:
        """-1: the interpreter keeps no counts, and nothing is ever reused."""
        return -1


def _entry(size: int, dtype: type) -> tuple[np.ndarray, Any]:
    """A pooled array and a flat memoryview of it (a copy into it costs no numpy call)."""
    array: np.ndarray = np.empty(size, dtype=dtype)
    code: Any = np.dtype(dtype).char
    return array, array.data.cast("B").cast(code)


def _free_in_pool() -> int:
    pool = [_entry(1, np.float32)]
    return refs(pool[0][0])


#: the count of an array in a :class:`Copies` pool that nothing outside holds
FREE_COPY = _free_in_pool() if _COUNTED else -2


def kept_counts(entry: tuple[tuple[Any, ...], Any]) -> tuple[int, int]:
    """The counts of a kept ``(legal, its mask's bytes)`` entry's legal (a
    tuple whose first item is the mask) and of its mask: :data:`FREE_KEPT`
    when nothing but the entry holds them."""
    legal = entry[0]
    return refs(legal), refs(legal[0])


def _free_kept() -> tuple[int, int]:
    mask = np.zeros(1, dtype=np.int8)
    entry = ((mask, (), None), mask.data.cast("B"))
    del mask
    return kept_counts(entry)


#: what :func:`kept_counts` gives for a kept mask nothing outside holds
FREE_KEPT = _free_kept() if _COUNTED else (-2, -2)


class Copies:
    """Copies of rows of ``size`` entries of ``dtype``, each handed out as
    a new array would be, from a pool of ``keep`` arrays: a pooled array
    whose only references are the pool's is written again; else a new
    one joins the pool (the oldest leaves it, to whoever holds it)."""

    def __init__(self, size: int, dtype: type = np.float32, keep: int = 3):
        self.size, self.dtype, self.keep = size, dtype, keep
        self._pool: list[tuple[np.ndarray, Any]] = []

    def copy(self, source: Any) -> np.ndarray:
        """A copy of ``source`` (a flat memoryview of the pool's ``size`` and type)."""
        pool = self._pool
        for entry in pool:
            if refs(entry[0]) == FREE_COPY:
                entry[1][:] = source
                return entry[0]
        entry = _entry(self.size, self.dtype)
        entry[1][:] = source
        if len(pool) >= self.keep:
            del pool[0]
        pool.append(entry)
        return entry[0]
