"""Saved matches posted for the replay viewer, kept in memory by id.

A replay is a saved match (``match.save()``, which holds the seed and so
every hidden card: the server gives it out only once a match is over) and the
rule file it was played on, found among the files served by the id or the
title the saved match names.  The frames themselves are
:class:`rulekit.web.replay.Replay`'s; this module finds the game, keeps the
last replays posted and lets one thread at a time step each.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from .games import Offered
from .hosting import BadRequest
from .replay import Replay, ReplayError

#: replays kept at once; the oldest is forgotten first
KEEP = 64


class Replays:
    """The replays posted to one server."""

    def __init__(self, catalogue: dict[str, Offered]):
        self.catalogue = catalogue
        self.kept: OrderedDict[str, tuple[Replay, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, saved: Any) -> dict[str, Any]:
        """Check that ``saved`` replays on its rule file; ``{"replay", "steps", "players"}``."""
        if not isinstance(saved, dict) or not isinstance(saved.get("actions"), list):
            raise BadRequest("post a saved match: the JSON of GET /api/matches/ID/saved")
        offered = self._offered(saved)
        try:
            replay = Replay(offered.game, {**saved, "game": offered.game.name})
        except ReplayError as err:
            raise BadRequest(f"this saved match does not replay on {offered.id}: {err}") from None
        rid = secrets.token_urlsafe(9)
        with self._lock:
            self.kept[rid] = (replay, threading.Lock())
            while len(self.kept) > KEEP:
                self.kept.popitem(last=False)
        return {"replay": rid, "steps": replay.steps, "players": replay.players}

    def _offered(self, saved: dict[str, Any]) -> Offered:
        """The served rule file ``saved`` names: by id (``"game": "cards"``,
        what the replay page adds when titles are ambiguous), else by title."""
        title = saved.get("game")
        if isinstance(title, str) and title in self.catalogue:
            return self.catalogue[title]
        named = [o for o in self.catalogue.values() if o.game.name == title]
        if len(named) == 1:
            return named[0]
        if named:
            raise BadRequest(f"several rule files here are called {title!r}: post it with \"game\" set to "
                             f"one of {', '.join(o.id for o in named)}")
        raise BadRequest(f"no rule file here is called {title!r}")

    def frame(self, rid: str, step: int, seat: str) -> dict[str, Any]:
        """The table after ``step`` actions, seen by ``seat`` (a number or ``all``);
        KeyError for a replay not kept."""
        with self._lock:
            replay, lock = self.kept[rid]
        if seat != "all" and not seat.isdigit():
            raise BadRequest(f"seat is all or a seat from 0 to {replay.players - 1}, not {seat!r}")
        try:
            with lock:
                return replay.frame(step, "all" if seat == "all" else int(seat))
        except ReplayError as err:
            raise BadRequest(str(err)) from None
