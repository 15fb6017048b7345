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

It also lets the youngest generation grow to ``YOUNG`` objects before a
pass (Python's default is 700), and sets the threshold back at the end.
What a match keeps until it ends (its log, the decisions in it) is a few
thousand objects, and a finished match is freed at once.  At 700 the
collector walks each of them on the way: in the large game above, three
or four passes a game, 7–8 % of the simulation's time.  At ``YOUNG`` a
pass is rare (two in sixty games), and most of what it would have walked
is gone by then.  (A threshold of 0, the collector turned off, is left
as it is.)
"""
from __future__ import annotations

import contextlib
import gc
import threading
from typing import Iterator

#: the youngest generation's threshold within a block (see above)
YOUNG = 10_000

_depth = 0
_lock = threading.Lock()
_threshold: tuple[int, ...] = ()


@contextlib.contextmanager
def settled() -> Iterator[None]:
    """Within the block, the collector skips every object alive at its start.

    For a loop that plays many matches of games loaded beforehand:
    ``with rulekit.settled(): for seed in range(n): ...``.  The objects
    become collectable again when the block ends, and the collector's
    threshold for the youngest generation, raised to ``YOUNG`` in the
    block, is set back.  Simulations (``rulekit.simulate``) play in such a
    block."""
    global _depth, _threshold
    with _lock:
        if _depth == 0:
            gc.freeze()
            _threshold = gc.get_threshold()
            if _threshold[0]:
                gc.set_threshold(max(YOUNG, _threshold[0]), *_threshold[1:])
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_threshold)
                gc.unfreeze()
