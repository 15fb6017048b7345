"""Saved matches posted for the replay viewer, kept in memory.

A replay is a saved match (``match.save()``, which holds the seed and so
every hidden card: it is only ever given out once a match is over) and the
rule file it was played on.  A frame is the table after ``step`` actions,
seen by one seat or by all; frames are asked for one after another, so the
last match built is kept and played forward when it can be.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from ..engine.match import Match
from ..engine.runtime import Action
from ..errors import IllegalAction
from .games import Offered
from .hosting import BadRequest
from .table import table_state

#: replays kept at once; the oldest is forgotten first
KEEP = 64


class _Replay:
    def __init__(self, offered: Offered, saved: dict[str, Any]):
        self.offered, self.saved = offered, saved
        self.lock = threading.Lock()
        self.match: Match | None = None    # the last frame's match

    def at(self, step: int) -> Match:
        m = self.match
        if m is None or len(m.actions) > step:
            m = Match.restore(self.offered.game, {**self.saved, "actions": []})
        for a in self.saved["actions"][len(m.actions):step]:
            m.apply(Action.from_json(a))
        self.match = m
        return m


class Replays:
    """The replays posted to one server."""

    def __init__(self, catalogue: dict[str, Offered]):
        self.catalogue = catalogue
        self.kept: OrderedDict[str, _Replay] = OrderedDict()

    def add(self, saved: Any) -> dict[str, Any]:
        """Check ``saved`` plays to its end on its rule file; ``{"replay", "steps", "players"}``."""
        if not isinstance(saved, dict) or not isinstance(saved.get("actions"), list):
            raise BadRequest("post a saved match: the JSON of GET /api/matches/ID/saved")
        offered = self._offered(saved)
        saved = {k: saved.get(k) for k in ("players", "seed", "options", "actions")}
        try:
            Match.restore(offered.game, saved)
        except (IllegalAction, ValueError, TypeError, KeyError) as err:
            raise BadRequest(f"this saved match does not replay on {offered.id}: {err}") from None
        rid = secrets.token_urlsafe(9)
        self.kept[rid] = _Replay(offered, saved)
        while len(self.kept) > KEEP:
            self.kept.popitem(last=False)
        return {"replay": rid, "steps": len(saved["actions"]), "players": saved["players"]}

    def _offered(self, saved: dict[str, Any]) -> Offered:
        gid = saved.get("game_id", saved.get("id"))
        if isinstance(gid, str) and gid in self.catalogue:
            return self.catalogue[gid]
        title = saved.get("game")
        if isinstance(title, str) and title in self.catalogue:
            return self.catalogue[title]
        named = [o for o in self.catalogue.values() if o.game.name == title]
        if len(named) == 1:
            return named[0]
        if named:
            raise BadRequest(f"several rule files here are called {title!r}: add \"game_id\": one of "
                             f"{', '.join(o.id for o in named)}")
        raise BadRequest(f"no rule file here is called {title!r}")

    def frame(self, rid: str, step: int, seat: str) -> dict[str, Any]:
        """The table after ``step`` actions, seen by ``seat`` (a number or ``all``); KeyError if unknown."""
        replay = self.kept[rid]
        players = replay.saved["players"]
        if seat != "all" and not (seat.isdigit() and int(seat) < players):
            raise BadRequest(f"seat is all or a seat from 0 to {players - 1}")
        if not 0 <= step <= len(replay.saved["actions"]):
            raise BadRequest(f"step is from 0 to {len(replay.saved['actions'])}")
        with replay.lock:
            return table_state(replay.at(step), "all" if seat == "all" else int(seat))  # type: ignore[arg-type]
