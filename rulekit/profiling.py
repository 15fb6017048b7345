"""Where a simulation's time goes, by rule of the rule file: ``rulekit profile``.

A variant that simulates slowly is slow somewhere in its rules; which rule
is a question about the rule file, so the answer names rules and their
file:line:col, not Python functions.  A rule's effect text runs as lines
of one generated module (see :mod:`rulekit.lang.codegen`), and the module
knows the rule each of its lines was written from (``Game.code_origins``):
a procedure written in place of its call, and each phase of the turn
function, have lines of their own.  So the profile samples: while the
games play, a thread looks at the playing thread's stack every
``interval`` seconds and notes

* the rule whose line was running (*own* time): the innermost line of
  generated code; a built-in of the effect language, and Python's own code
  a rule called (a shuffle, a sort), count for the rule that called them;
* every rule with a line on the stack (*all* time: the rule and what it
  called, each rule once a sample however deep its recursion);
* what part of rulekit the time was in: the rules, the engine (moving
  cards, logging, answering decisions), the agents' own code, or the
  driver of the games.

Sampling, not tracing, because a trace hook on every call would slow the
rules several times over, and unevenly (a rule of many small calls more
than a rule of long loops), which is what a profile must not do.  The
figures are shares of the samples: they do not depend on the machine's
speed, and two runs agree to within a few per cent.
"""
from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any, Sequence

import attrs

from .errors import Where
from .model import Game
from .simulation import GameFailed, checked, play_games

#: where rulekit's own files are, by part (the rest of the package drives the games)
_PACKAGE = Path(__file__).resolve().parent
_ROOT = str(_PACKAGE)
_LANG = str(_PACKAGE / "lang")
_ENGINE = str(_PACKAGE / "engine")
_AGENTS = str(_PACKAGE / "agents.py")

#: rules of the generated code that are no rule of the file, as a report names them
_NAMED = {"turn": "the turn, between its phases"}

#: the parts of rulekit a sample may be in, in the order a report lists them
PARTS = ("rules", "engine", "agents", "driver")


@attrs.frozen
class RuleTime:
    """One rule's share of the samples."""

    rule: str                  # as errors name it: "procedure 'draw'", "phase 'play'"
    own: float                 # share of the samples running a line of its own
    all: float                 # share of the samples with a line of it on the stack
    where: Where | None        # its place in the rule file


@attrs.frozen
class Profile:
    """The result of :func:`profile`."""

    game: str
    players: int
    games: int
    agents: str
    seconds: float             # the games' wall time, sampled (sampling slows them a little)
    samples: int
    parts: dict[str, float]    # part of rulekit (see PARTS) -> share of the samples
    rules: tuple[RuleTime, ...]   # by own share, largest first

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "games": self.games, "agents": self.agents,
                "seconds": self.seconds, "samples": self.samples, "parts": dict(self.parts),
                "rules": [{"rule": r.rule, "own": r.own, "all": r.all,
                           "where": str(r.where) if r.where is not None else None} for r in self.rules]}


class _Sampler:
    """Counts, from another thread, what the thread ``ident`` is running."""

    def __init__(self, game: Game, ident: int, interval: float):
        self.label = game.code_label
        self.origins = game.code_origins
        self.ident, self.interval = ident, interval
        self.own: Counter[str] = Counter()
        self.all: Counter[str] = Counter()
        self.parts: Counter[str] = Counter()
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rulekit-profile", daemon=True)

    def __enter__(self) -> _Sampler:
        self._switch = sys.getswitchinterval()
        # the playing thread lets this one look at least this often (it runs Python all along)
        sys.setswitchinterval(min(self._switch, self.interval / 2))
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        sys.setswitchinterval(self._switch)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            frame = sys._current_frames().get(self.ident)
            if frame is not None:
                self.note(frame)

    def rule_of(self, frame: FrameType) -> str:
        """The rule a frame of the generated module is running a line of:
        that line's, or (an instruction of no line, such as a loop's step)
        its function's."""
        origins = self.origins
        found = origins.get(frame.f_lineno) if frame.f_lineno is not None else None
        if found is None or not found[1]:
            found = origins.get(frame.f_code.co_firstlineno)
        rule = found[1] if found is not None and found[1] else "the generated code"
        return _NAMED.get(rule, rule)

    def note(self, frame: FrameType | None) -> None:
        """Count one look at a stack whose innermost frame is ``frame``."""
        own: str | None = None
        part: str | None = None
        seen: set[str] = set()
        while frame is not None:
            file = frame.f_code.co_filename
            if file == self.label:
                rule = self.rule_of(frame)
                seen.add(rule)
                if part is None or part == "rules" and own is None:
                    part, own = "rules", rule
            elif part is None:
                if file.startswith(_LANG):
                    part = "rules"      # a built-in or helper: its caller's rule is found further out
                elif file.startswith(_ENGINE):
                    part = "engine"
                elif file == _AGENTS:
                    part = "agents"
                elif file.startswith(_ROOT):
                    part = "driver"
            frame = frame.f_back
        if part is None:
            return                      # not in a game (the thread between games, or starting)
        self.samples += 1
        self.parts[part] += 1
        if own is not None:
            self.own[own] += 1
        self.all.update(seen)


def profile(game: Game, players: int, games: int, seed: int = 0, agents: str | Sequence[str] = "random",
            options: dict | None = None, interval: float = 0.0005) -> Profile:
    """Play ``games`` matches of ``game`` as :func:`rulekit.simulate` does
    (match i seeded ``seed + i``, in this process) while sampling, every
    ``interval`` seconds, which rule is running.  A game that fails raises
    :class:`rulekit.simulation.GameFailed`; bad arguments raise ``ValueError``
    before any game is played."""
    if not 0 < interval <= 1:
        raise ValueError(f"the interval is in seconds, above 0 and at most 1, not {interval!r}")
    options = checked(game, players, games, agents, options, seed)
    start = time.perf_counter()
    with _Sampler(game, threading.get_ident(), interval) as sampler:
        _, failure = play_games(game, players, 0, games, seed, agents, options)
    seconds = time.perf_counter() - start
    if failure is not None:
        raise GameFailed(*failure)
    n = max(sampler.samples, 1)
    rules = tuple(sorted((RuleTime(rule, sampler.own[rule] / n, sampler.all[rule] / n,
                                   game.rule_positions.get(rule))
                          for rule in sampler.all), key=lambda r: (-r.own, -r.all, r.rule)))
    return Profile(game.name, players, games, agents if isinstance(agents, str) else ",".join(agents),
                   seconds, sampler.samples, {p: sampler.parts[p] / n for p in PARTS}, rules)
