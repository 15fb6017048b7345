"""The rule files a server offers, each under a stable id.

The id is what the lobby sends to start a match and what the database keeps
for every match, so it must not change between two runs of the server on the
same files: it is the file's path relative to the folder it was found in
(``cards`` for ``games/cards.yaml``, ``duel`` for ``games/duel/game.yaml``),
never a counter or the game's title.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..agents import AGENTS
from ..errors import RuleFileError
from ..loader import load_game
from ..model import Game

log = logging.getLogger("rulekit.web")

#: the agents a seat may be given in the lobby.  Search agents are left out:
#: their budget is seconds of a worker thread per move, which a public server
#: should not hand to whoever opens a match.
SEAT_AGENTS: tuple[str, ...] = tuple(name for name in AGENTS if name in ("random", "heuristic"))


@dataclass(frozen=True)
class Offered:
    """One rule file the server offers."""

    id: str
    path: Path
    game: Game

    def describe(self) -> dict[str, Any]:
        """The entry of ``GET /api/games``."""
        g = self.game
        return {"id": self.id, "title": g.name, "players": [g.min_players, g.max_players],
                "options": g.options, "agents": list(SEAT_AGENTS)}


def find_rule_files(paths: Iterable[str | Path]) -> list[tuple[str, Path]]:
    """``(id, file)`` for every rule file named or found: a file is itself;
    a folder holding ``game.yaml`` is that game; any other folder offers its
    ``*.yaml`` and its ``*/game.yaml``."""
    found: list[tuple[str, Path]] = []
    for p in map(Path, paths):
        if p.is_file():
            found.append((p.stem if p.name != "game.yaml" else p.parent.name, p))
        elif (p / "game.yaml").is_file():
            found.append((p.name, p / "game.yaml"))
        elif p.is_dir():
            for f in sorted(p.glob("*.yaml")):
                found.append((f.stem, f))
            for f in sorted(p.glob("*/game.yaml")):
                found.append((f.parent.name, f))
    return found


def load_catalogue(paths: Iterable[str | Path]) -> dict[str, Offered]:
    """Every rule file found that loads, by id.  A file that does not load
    is logged and left out (a folder of games may hold a broken draft); two
    files with one id keep the first, and the second is logged."""
    out: dict[str, Offered] = {}
    for gid, path in find_rule_files(paths):
        if gid in out:
            log.warning("%s: left out, the id %r is already %s", path, gid, out[gid].path)
            continue
        try:
            out[gid] = Offered(gid, path, load_game(path))
        except RuleFileError as err:
            log.warning("%s: left out, it does not load:\n%s", path, err)
    return out
