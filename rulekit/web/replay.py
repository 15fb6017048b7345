"""A saved match (``match.save()``) as frames for a replay viewer: the table
state after any number of its actions, seen by one seat or by all.

A viewer steps forwards and backwards, so a frame is made from the nearest
earlier copy of the match (one is kept every ``every`` actions while the
saved match is checked, once, when the replay is opened) and the few
actions since; the frames asked for last are kept as they are.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Literal

from ..engine.arguments import same_rules
from ..engine.match import DEFAULT_STEP_BUDGET, Match
from ..engine.runtime import Action
from ..engine.view import ALL
from ..errors import IllegalAction
from ..model import Game
from .table import table_state


class ReplayError(ValueError):
    """A saved match that cannot be replayed with this game, or a frame that does not exist."""


class Replay:
    """The frames of one saved match of ``game``."""

    def __init__(self, game: Game, saved: dict, every: int = 40, keep: int = 64):
        if not isinstance(saved, dict) or not isinstance(saved.get("actions"), list):
            raise ReplayError("a saved match is a JSON object with 'players', 'seed' and 'actions' "
                              "(what match.save() writes)")
        if saved.get("game") not in (None, game.name):
            raise ReplayError(f"this match was saved from '{saved.get('game')}', not '{game.name}'")
        try:
            same_rules(game.name, saved, game.origin.digest if game.origin is not None else None)
        except ValueError as err:
            raise ReplayError(str(err)) from None
        try:
            players: Any = saved.get("players")      # Match checks it and says what it must be
            start = Match(game, players, saved.get("seed", 0),
                          step_budget=saved.get("step_budget", DEFAULT_STEP_BUDGET),
                          prepared=saved.get("prepared"), options=saved.get("options"),
                          auto_pass=bool(saved.get("auto_pass", False)), copyable=True)
        except (TypeError, ValueError) as err:
            raise ReplayError(f"the saved match cannot be started: {err}") from None
        self.game, self.every, self.keep = game, every, keep
        self.players = start.n
        self.actions: list[Action] = []
        self._marks: dict[int, Match] = {0: start.clone()}
        for i, data in enumerate(saved["actions"]):
            try:
                action = Action.from_json(data)
                start.apply(action)
            except (IllegalAction, TypeError, ValueError) as err:
                raise ReplayError(f"action {i} of the saved match ({data!r}) is not legal there: {err}") from None
            self.actions.append(start.actions[-1])
            if (i + 1) % every == 0:
                self._marks[i + 1] = start.clone()
        self.steps = len(self.actions)
        self._cursor = start                    # a match at the last step; moved forwards only
        self._frames: OrderedDict = OrderedDict()

    def match_at(self, step: int) -> Match:
        """A match after the first ``step`` actions (do not change it)."""
        if type(step) is not int or not 0 <= step <= self.steps:
            raise ReplayError(f"step {step!r} does not exist: this match has steps 0 to {self.steps}")
        cur = self._cursor
        at = len(cur.actions)
        mark = max(k for k in self._marks if k <= step)
        if not mark <= at <= step:
            cur = self._marks[mark].clone()
        for action in self.actions[len(cur.actions):step]:
            cur.apply(action)
        self._cursor = cur
        return cur

    def frame(self, step: int, seat: int | str = ALL) -> dict[str, Any]:
        """The table state after ``step`` actions seen by ``seat`` (a seat or
        ``"all"``), with ``steps`` (how many there are) and ``next``: the
        action taken from here, told only where that seat could see it
        taken (``"all"``, or the seat that took it)."""
        viewer: int | Literal["all"]
        if seat == ALL:
            viewer = ALL
        elif type(seat) is int and 0 <= seat < self.players:
            viewer = seat
        else:
            raise ReplayError(f"seat {seat!r} does not exist: seats are 0 to {self.players - 1}, or 'all'")
        key = (step, viewer)
        if key in self._frames:
            self._frames.move_to_end(key)
            return self._frames[key]
        m = self.match_at(step)
        state = table_state(m, viewer)
        state["steps"] = self.steps
        state["next"] = None
        if step < self.steps and m.decision is not None and viewer in (ALL, m.decision.player):
            action = self.actions[step]
            state["next"] = {"player": m.decision.player, "text": m.describe_action(action),
                             "action": action.to_json()}
        self._frames[key] = state
        if len(self._frames) > self.keep:
            self._frames.popitem(last=False)
        return state
