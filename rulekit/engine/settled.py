"""Playing many matches without the collector re-reading the loaded game.

Python's cycle collector, on each of its full passes, walks every object
that is alive — the loaded game with its rule model, compiled code and
per-card tables, the parse trees the loader keeps for the next load —
though none of them can become garbage while matches are played.  A match
makes and drops many small objects, so full passes come often; walking the
settled objects each time costs a random simulation of a large game (eight
players, a hundred-odd cards, ninety procedures) about a sixth of its time.

:func:`settled` leaves out of the collector's passes every object alive
when the block starts (``gc.freeze``) and puts them back when it ends
(``gc.unfreeze``): nothing is kept for longer than the block, and a nested
block leaves the freezing to the outermost.
"""
from __future__ import annotations

import contextlib
import gc
import threading
from typing import Iterator

_depth = 0
_lock = threading.Lock()


@contextlib.contextmanager
def settled() -> Iterator[None]:
    """Within the block, the collector skips every object alive at its start.

    For a loop that plays many matches of games loaded beforehand:
    ``with rulekit.settled(): for seed in range(n): ...``.  The objects
    become collectable again when the block ends.  Simulations
    (``rulekit.simulate``) play in such a block."""
    global _depth
    with _lock:
        if _depth == 0:
            gc.freeze()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.unfreeze()
