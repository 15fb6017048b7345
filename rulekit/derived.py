"""Values worked out once for a game (or for an object made for one, such
as an observation encoder) and kept on it, in its ``derived`` dict.

A module-level cache (``functools.lru_cache``) keyed by the game would do
the same work once, but would keep the game alive after the program let it
go — up to the cache's size, of games of several megabytes each: a tool
that loads every edit of a file, a fuzzer that loads thousands of
variants, a training loop that makes an environment per run.  Kept on the
game, a value lives exactly as long as the game.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def derived(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn(owner, *args)`` worked out once for each ``owner`` and ``args``
    (hashable) and kept in ``owner.derived``, under ``fn``'s name."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def kept(owner: Any, *args: Any) -> T:
        store = owner.derived
        key = (name, *args)
        try:
            value: T = store[key]
        except KeyError:
            value = store[key] = fn(owner, *args)
        return value

    return kept
