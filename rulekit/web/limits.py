"""What one socket may send: how large a message, how many a second.

A table sends a few messages a minute; anything far beyond that is a bug or
an attack, and must cost the server little and the other matches nothing.
"""
from __future__ import annotations

import time

#: the largest message a socket may send (an action is a few dozen bytes)
MAX_MESSAGE_BYTES = 64 * 1024
#: the largest saved match a replay may be posted from (a long match is thousands of actions)
MAX_SAVED_BYTES = 4 * 1024 * 1024
#: the server closes the connection (without reading it) above this size
MAX_FRAME_BYTES = 1024 * 1024
#: a socket may send this many messages at once ...
BURST = 20
#: ... and this many a second after that
PER_SECOND = 10.0
#: messages dropped in a row, after the first refusal, before the socket is closed
FLOOD_CLOSE = 200


class RateLimit:
    """A token bucket: ``BURST`` messages at once, refilled at ``PER_SECOND``.

    ``allow()`` says whether a message may be read now; a refused message is
    dropped unread, so a flood costs the server one comparison a message."""

    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND, clock=time.monotonic):
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self.tokens = float(burst)
        self.last = clock()
        self.refused = 0           # refused in a row

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False
