"""A one-line progress bar for long runs, on stderr.

It stays silent for short runs (it only appears once ``delay`` seconds have
passed) and when the stream is not a terminal, so piped output and logs stay
clean; it redraws at most a few times a second so it never costs speed.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``update(done)`` as work advances, ``close()`` at the end (erases the bar)."""

    def __init__(self, total: int, label: str = "", *, stream: TextIO | None = None,
                 enabled: bool = True, delay: float = 2.0, width: int = 30, interval: float = 0.2):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and is_tty(self.stream)
        self.delay = delay
        self.width = width
        self.interval = interval
        self.start = time.perf_counter()
        self._next = self.start + delay
        self._shown = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now < self._next:
            return
        self._next = now + self.interval
        self._shown = True
        self.stream.write("\r" + self.line(done, now - self.start))
        self.stream.flush()

    def line(self, done: int, elapsed: float) -> str:
        """The bar's text, e.g. ``simulating [#####.....] 500/1000 · 250/s · 2 s left``."""
        frac = min(max(done / self.total, 0.0), 1.0)
        filled = int(frac * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else float("inf")
        eta = f"{left:.0f} s left" if left != float("inf") else "…"
        label = f"{self.label} " if self.label else ""
        return f"{label}[{bar}] {done}/{self.total} · {rate:,.0f}/s · {eta}"

    def close(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self._shown = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def is_tty(stream: TextIO) -> bool:
    """Is ``stream`` a terminal?  (False for anything without a working ``isatty``.)"""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
