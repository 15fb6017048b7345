"""What changed in a match since it was last asked: the variables written.

The kept observations (:mod:`rulekit.rl.incremental`) rewrite only what a
step changed.  A game loaded by :func:`load_game` is compiled with change
tracking (:mod:`rulekit.lang.pass_changes`): its code notes each variable
it writes in ``match.changes``, so nothing needs comparing.  A game loaded
the plain way (``rulekit.load_game``) still works: :class:`Compared` finds
the same notes by comparing the variables with copies, at a cost.

A note is ``(None, name)`` (a match variable), ``(seat, name)`` (a
player's), ``(None, name, card id)`` (a card's) or ``(when,)`` (the
variables declared ``reset: when`` set back).
"""
from __future__ import annotations

import weakref
from os import PathLike
from typing import Any

import rulekit

from ..engine.copies import fresh_value, fresh_vars
from ..engine.match import Match
from ..lang.pass_changes import tracking
from ..model import Game

_TRACKED: weakref.WeakSet[Game] = weakref.WeakSet()


def load_game(path: str | PathLike[str], tree: str | PathLike[str] | None = None) -> Game:
    """``rulekit.load_game`` compiled with change tracking: the game the
    environments play when given a path.  Its matches play as the plain
    game's do, a little slower (each write is noted)."""
    with tracking():
        game = rulekit.load_game(path, tree)
    _TRACKED.add(game)
    return game


def is_tracked(game: Game) -> bool:
    return game in _TRACKED


class Compared:
    """The notes of a match of a game compiled without tracking, found by
    comparing its variables with copies taken at the previous call."""

    def __init__(self, match: Match):
        self.match = match
        self.vars = fresh_vars(match.vars)
        self.pvars = [fresh_vars(pv) for pv in match.pvars]
        self.cvars = {k: [fresh_value(x) for x in v] for k, v in match.cvars.items()}

    def changes(self) -> set[tuple[Any, ...]]:
        m, out = self.match, set[tuple[Any, ...]]()
        if m.vars != self.vars:
            for k, v in m.vars.items():
                if self.vars.get(k) != v:
                    out.add((None, k))
                    self.vars[k] = fresh_value(v)
        for p, (now, kept) in enumerate(zip(m.pvars, self.pvars)):
            if now != kept:
                for k, v in now.items():
                    if kept.get(k) != v:
                        out.add((p, k))
                        kept[k] = fresh_value(v)
        for k, values in m.cvars.items():
            copies = self.cvars[k]
            if values != copies:
                for i, x in enumerate(values):
                    if x != copies[i]:
                        out.add((None, k, i))
                        copies[i] = fresh_value(x)
        return out
