"""The server's memory across restarts: one SQLite file.

A match is fully determined by its rule file, its start (players, seed,
options) and its actions, so that is all that is kept: ``matches`` (one row
a match), ``seats`` (what plays each seat, and the sha256 of a person's
token: a stolen database file gives nobody a seat) and ``actions``, which is
only ever appended to.  A restarted server replays each unfinished match from
these (:meth:`Match.restore`) and stands exactly where the last one stood.

An action is committed before any seat is shown its consequences, so what a
player has seen is never lost when the server stops.  The journal is
SQLite's write-ahead log with ``synchronous=FULL``: a commit is on disk when
it returns (and the actions of several matches share one commit).

One connection serves every thread (the event loop and the workers that
apply actions); a lock keeps them from interleaving.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,          -- the id of the rule file (rulekit.web.games)
    spec TEXT NOT NULL,          -- JSON: players, seed, options
    created REAL NOT NULL,
    steps INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    match TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,          -- "person" or an agent's name
    token_sha256 TEXT,           -- a person's token, hashed; NULL for an agent
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL REFERENCES matches(id),
    step INTEGER NOT NULL,       -- 0 for the first action of the match
    action TEXT NOT NULL,        -- JSON form of the action (Action.to_json)
    at REAL NOT NULL,
    PRIMARY KEY (match, step)
);
"""


@dataclass(frozen=True)
class StoredMatch:
    """A match as the database holds it."""

    id: str
    game: str
    spec: dict[str, Any]
    kinds: list[str]
    token_hashes: list[str | None]
    steps: int
    over: bool


@dataclass(eq=False)
class _Pending:
    """An action waiting for its commit."""

    mid: str
    step: int
    action: str
    over: int
    done: bool = False
    error: Exception | None = None


class Store:
    """The SQLite file of a server."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()            # the connection: one thread at a time
        self._queue_lock = threading.Lock()      # actions waiting to be committed
        self._queue: list[_Pending] = []
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add_match(self, mid: str, game: str, spec: dict[str, Any], kinds: list[str],
                  token_hashes: list[str | None]) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO matches (id, game, spec, created) VALUES (?, ?, ?, ?)",
                             (mid, game, json.dumps(spec), time.time()))
            self._db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                                 [(mid, i, k, h) for i, (k, h) in enumerate(zip(kinds, token_hashes))])

    def add_action(self, mid: str, step: int, action: dict[str, Any], over: bool) -> None:
        """Append the action played at ``step`` and return once it is committed.

        The primary key refuses a second action for one step, so two writers
        can never fork a match.  Commits are grouped: a commit waits for the
        disk (milliseconds), and the actions of other matches that arrive
        meanwhile are committed together by whichever of their threads gets
        the connection next, so the disk's speed limits each action's
        latency, not how many actions all the matches make a second."""
        item = _Pending(mid, step, json.dumps(action), int(over))
        with self._queue_lock:
            self._queue.append(item)
        with self._lock:
            if not item.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._write(batch)
        if item.error is not None:
            raise item.error

    def _write(self, batch: list[_Pending]) -> None:
        """Commit ``batch`` in one transaction; an action refused (a step
        already written) is refused alone, a failed commit fails them all."""
        db = self._db
        try:
            db.execute("BEGIN")
            for it in batch:
                db.execute("SAVEPOINT one")
                try:
                    db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (it.mid, it.step, it.action, time.time()))
                    db.execute("UPDATE matches SET steps = ?, over = ? WHERE id = ?", (it.step + 1, it.over, it.mid))
                except sqlite3.Error as err:
                    db.execute("ROLLBACK TO one")
                    it.error = err
                db.execute("RELEASE one")
            db.execute("COMMIT")
        except sqlite3.Error as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            for it in batch:
                it.error = it.error or err
        finally:
            for it in batch:
                it.done = True

    def actions(self, mid: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT action FROM actions WHERE match = ? ORDER BY step", (mid,)).fetchall()
        return [json.loads(a) for (a,) in rows]

    def match(self, mid: str) -> StoredMatch | None:
        with self._lock:
            row = self._db.execute("SELECT id, game, spec, steps, over FROM matches WHERE id = ?",
                                   (mid,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT kind, token_sha256 FROM seats WHERE match = ? ORDER BY seat",
                                     (mid,)).fetchall()
        return StoredMatch(row[0], row[1], json.loads(row[2]), [k for k, _ in seats], [h for _, h in seats],
                           row[3], bool(row[4]))

    def match_ids(self, unfinished_only: bool = False) -> list[str]:
        query = "SELECT id FROM matches" + (" WHERE over = 0" if unfinished_only else "") + " ORDER BY created"
        with self._lock:
            return [mid for (mid,) in self._db.execute(query).fetchall()]

    def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest matches, for the lobby: nothing in them is secret."""
        with self._lock:
            rows = self._db.execute("SELECT id, game, spec, steps, over FROM matches ORDER BY created DESC LIMIT ?",
                                    (limit,)).fetchall()
            kinds: dict[str, list[str]] = {mid: [] for mid, *_ in rows}
            for mid, kind in self._db.execute(
                    f"SELECT match, kind FROM seats WHERE match IN ({','.join('?' * len(rows))}) "
                    "ORDER BY match, seat", list(kinds)).fetchall():
                kinds[mid].append(kind)
        return [{"match": mid, "game": game, "players": json.loads(spec)["players"], "seats": kinds[mid],
                 "step": steps, "over": bool(over)} for mid, game, spec, steps, over in rows]
