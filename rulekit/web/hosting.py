"""The matches a server hosts: who holds each seat, who is told what, and the
agents that play the seats nobody holds.

Each match has one :class:`asyncio.Lock`; every change to it (a person's
action, an agent's move) happens under that lock, in a worker thread, so a
long move never blocks the event loop and two changes never interleave.  A
change is: apply the action (the engine refuses an illegal one and changes
nothing), commit it to the :class:`~rulekit.web.store.Store`, and only then
compute what each connected seat now sees and push it.

Agents are deterministic per (match seed, seat, step): the agent that plays
a step is made afresh with a seed mixed from those three (:func:`agent_seed`),
so a restarted server, which replays the stored actions, goes on with the
very moves the stopped one would have made.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..agents import AGENTS
from ..engine.match import Match
from ..errors import IllegalAction
from .games import SEAT_AGENTS, Offered
from .protocol import Act, Refused
from .store import Store, StoredMatch
from .table import ToldLog, table_state

log = logging.getLogger("rulekit.web")

#: at most this many unfinished matches at once: each holds memory and may hold agents' time
MAX_LIVE = 2000
PERSON = "person"


class Listener(Protocol):
    """A connected seat: takes the JSON text of a message, without waiting."""

    def push(self, text: str) -> None: ...


class BadRequest(ValueError):
    """A request to start a match that cannot be met (HTTP 400 with its text)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def agent_seed(seed: int, seat: int, step: int) -> int:
    """The seed of the agent that plays ``seat`` at ``step`` of the match
    seeded ``seed``: the same on every run and platform, distinct per step."""
    digest = hashlib.sha256(f"rulekit-agent:{seed}:{seat}:{step}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(eq=False)
class Hosted:
    """One match in memory, with its seats and the sockets watching it."""

    id: str
    offered: Offered
    match: Match
    kinds: list[str]
    token_hashes: list[str | None]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: dict[int, set[Listener]] = field(default_factory=dict)
    agents: asyncio.Task | None = None
    told: dict[int, ToldLog] = field(default_factory=dict)    # each seat's log, told so far
    sent: dict[Listener, int] = field(default_factory=dict)   # the log lines each socket holds

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` holds, or ``None``; compares every seat's hash
        in constant time, so timing tells nothing about a token."""
        h = hash_token(token)
        found = None
        for seat, stored in enumerate(self.token_hashes):
            if stored is not None and hmac.compare_digest(stored, h):
                found = seat
        return found

    def agent_to_move(self) -> bool:
        dec = self.match.decision
        return dec is not None and self.kinds[dec.player] != PERSON

    def states(self) -> dict[int, SeatState]:
        """What each connected seat now sees (call under the lock)."""
        return {seat: self.seat_state(seat) for seat, group in self.listeners.items() if group}

    def seat_state(self, seat: int) -> SeatState:
        told = self.told.setdefault(seat, ToldLog(seat))
        changed = told.update(self.match)
        return SeatState(table_state(self.match, seat, log=False), told.lines, changed)

    def push(self, states: dict[int, SeatState]) -> None:
        """Send each socket its seat's state with the log lines it does not hold yet."""
        for seat, state in states.items():
            texts: dict[int, str] = {}
            for listener in list(self.listeners.get(seat, ())):
                since = min(state.changed, self.sent.get(listener, 0))
                if since not in texts:
                    texts[since] = state.text(since)
                self.sent[listener] = len(state.lines)
                listener.push(texts[since])


@dataclass
class SeatState:
    """A seat's state without its log, the seat's told lines, and the first of them that changed."""

    state: dict
    lines: list[dict]
    changed: int

    def text(self, since: int) -> str:
        """The state message for a socket holding the log's lines before ``since``."""
        return json.dumps({"type": "state", **self.state, "log_from": since, "log": self.lines[since:]},
                          ensure_ascii=False, separators=(",", ":"))


class Host:
    """Every match of one server, by id."""

    def __init__(self, catalogue: dict[str, Offered], store: Store, agent_delay: float = 0.4):
        self.catalogue, self.store, self.agent_delay = catalogue, store, agent_delay
        self.matches: dict[str, Hosted] = {}
        self.closing = False

    # ---- starting, resuming -------------------------------------------------
    def create(self, game: Any, players: Any, seats: Any, seed: Any = None,
               options: Any = None) -> tuple[Hosted, dict[int, str]]:
        """A new match and a token for each person's seat; :class:`BadRequest` saying why not.
        Runs in a worker thread (setting up a match and committing it take a
        moment); the caller then calls :meth:`kick` from the event loop."""
        offered = self.catalogue.get(game) if isinstance(game, str) else None
        if offered is None:
            raise BadRequest(f"no game {game!r} here; the games: {', '.join(self.catalogue) or 'none'}")
        g = offered.game
        if type(players) is not int or not g.min_players <= players <= g.max_players:
            raise BadRequest(f"{g.name} is for {g.min_players} to {g.max_players} players, not {players!r}")
        kinds = [PERSON, *SEAT_AGENTS]
        if not isinstance(seats, list) or len(seats) != players or not all(s in kinds for s in seats):
            raise BadRequest(f"\"seats\" lists what plays each of the {players} seats: one of {', '.join(kinds)}")
        if seed is None:
            seed = secrets.randbelow(2 ** 32)
        if type(seed) is not int or not -2 ** 63 <= seed < 2 ** 63:
            raise BadRequest("\"seed\" is a whole number (64 bits) or null")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise BadRequest("\"options\" is an object of option: value")
        try:
            options = g.match_options(dict(options)) if (options or g.options) else {}
        except ValueError as err:
            raise BadRequest(str(err)) from None
        if sum(not h.match.is_over() for h in list(self.matches.values())) >= MAX_LIVE:
            raise BadRequest(f"this server already hosts {MAX_LIVE} unfinished matches; try again later")
        mid = secrets.token_urlsafe(9)
        tokens = {i: secrets.token_urlsafe(24) for i, kind in enumerate(seats) if kind == PERSON}
        hashes = [hash_token(tokens[i]) if i in tokens else None for i in range(players)]
        origin = offered.game.origin
        spec = {"players": players, "seed": seed, "options": options,
                **({"rules": origin.digest} if origin is not None else {})}
        match = g.new_match(players, seed=seed, options=options)
        self.store.add_match(mid, offered.id, spec, list(seats), hashes)
        hosted = self.matches[mid] = Hosted(mid, offered, match, list(seats), hashes)
        return hosted, tokens

    def resume_all(self) -> int:
        """Bring every unfinished match of the database back, where it stood."""
        count = 0
        for mid in self.store.match_ids(unfinished_only=True):
            if self.load(mid) is not None:
                count += 1
        return count

    def load(self, mid: str) -> Hosted | None:
        """The match ``mid``, from memory or rebuilt from the database
        (``None`` if there is none, or its rule file is no longer served)."""
        hosted = self.matches.get(mid)
        if hosted is not None:
            return hosted
        stored = self.store.match(mid)
        if stored is None:
            return None
        rebuilt = self._rebuild(stored)
        return None if rebuilt is None else self.matches.setdefault(mid, rebuilt)

    def _rebuild(self, stored: StoredMatch) -> Hosted | None:
        offered = self.catalogue.get(stored.game)
        if offered is None:
            log.warning("match %s: its game %r is not served; it stays in the database", stored.id, stored.game)
            return None
        try:
            match = Match.restore(offered.game, {**stored.spec, "actions": self.store.actions(stored.id)})
        except Exception as err:  # noqa: BLE001 - the rule file changed under a stored match
            log.warning("match %s cannot be resumed on %s (%s); it stays in the database",
                        stored.id, offered.path, err)
            return None
        return Hosted(stored.id, offered, match, stored.kinds, stored.token_hashes)

    # ---- seats ---------------------------------------------------------------
    async def join(self, hosted: Hosted, seat: int, listener: Listener) -> None:
        """``listener`` now holds ``seat``: it is sent the current state and every later one.
        If agents are to move and are not moving (their last move failed), they try again."""
        async with hosted.lock:
            hosted.listeners.setdefault(seat, set()).add(listener)
            state = await asyncio.to_thread(hosted.seat_state, seat)
            listener.push(state.text(0))        # a hello is sent the whole log
            hosted.sent[listener] = len(state.lines)
        self.kick(hosted)

    def leave(self, hosted: Hosted, seat: int, listener: Listener) -> None:
        group = hosted.listeners.get(seat)
        if group is not None:
            group.discard(listener)
        hosted.sent.pop(listener, None)
        self.forget_if_done(hosted)

    def forget_if_done(self, hosted: Hosted) -> None:
        """A finished match nobody watches is dropped from memory (the database has it)."""
        if hosted.match.is_over() and not any(hosted.listeners.values()) and not hosted.lock.locked():
            self.matches.pop(hosted.id, None)

    # ---- changes -------------------------------------------------------------
    async def act(self, hosted: Hosted, seat: int, msg: Act) -> None:
        """A person's action: applied, stored and pushed, or :class:`Refused` with the match unchanged."""
        async with hosted.lock:
            states = await asyncio.to_thread(self._person_step, hosted, seat, msg)
            hosted.push(states)
        self.kick(hosted)

    def _person_step(self, hosted: Hosted, seat: int, msg: Act) -> dict[int, SeatState]:
        match = hosted.match
        step = len(match.actions)
        if msg.step != step:
            raise Refused("stale", f"that action was chosen at step {msg.step}; the match is at step {step}")
        dec = match.decision
        if dec is None:
            raise Refused("not_your_turn", "the match is over")
        if dec.player != seat:
            raise Refused("not_your_turn", f"player {dec.player} decides now, not you (player {seat})")
        try:
            match.apply(msg.action)
        except IllegalAction as err:
            raise Refused("illegal", str(err)) from None
        except Exception as err:  # noqa: BLE001 - a rule failed: rebuilt from the database, unchanged
            self._reload(hosted)
            raise Refused("illegal", f"a rule failed on that action: {err}") from None
        return self._commit(hosted, step)

    def _commit(self, hosted: Hosted, step: int) -> dict[int, SeatState]:
        """Store the action just applied at ``step``, then say what each seat sees."""
        match = hosted.match
        try:
            self.store.add_action(hosted.id, step, match.actions[step].to_json(), match.is_over())
        except Exception:
            self._reload(hosted)        # memory must not be ahead of the database
            raise
        return hosted.states()

    def _reload(self, hosted: Hosted) -> None:
        """Rebuild the match from the database: after a failure, the match is what was stored."""
        stored = self.store.match(hosted.id)
        rebuilt = self._rebuild(stored) if stored is not None else None
        if rebuilt is not None:
            hosted.match = rebuilt.match
            hosted.told.clear()        # the next states send every socket its whole log again

    def kick(self, hosted: Hosted) -> None:
        """Let the agents play, if an agent's seat is to move and they are not already playing."""
        if self.closing or not hosted.agent_to_move():
            return
        if hosted.agents is None or hosted.agents.done():
            hosted.agents = asyncio.get_running_loop().create_task(self._agents(hosted))

    async def _agents(self, hosted: Hosted) -> None:
        """Play the agents' seats until a person is to decide or the match ends."""
        while hosted.agent_to_move() and not self.closing:
            if self.agent_delay > 0:
                await asyncio.sleep(self.agent_delay)
            async with hosted.lock:
                try:
                    states = await asyncio.to_thread(self._agent_step, hosted)
                except Exception:  # noqa: BLE001 - a broken heuristic or rule stops this match only
                    log.exception("match %s: an agent's move failed; the match waits where it stood", hosted.id)
                    await asyncio.to_thread(self._reload, hosted)
                    return
                if states is None:
                    return
                hosted.push(states)
        self.forget_if_done(hosted)

    def _agent_step(self, hosted: Hosted) -> dict[int, SeatState] | None:
        match = hosted.match
        dec = match.decision
        if dec is None or hosted.kinds[dec.player] == PERSON or self.closing:
            return None
        step = len(match.actions)
        agent = AGENTS[hosted.kinds[dec.player]](agent_seed(match.seed, dec.player, step))
        match.apply(agent.act(match, dec))
        return self._commit(hosted, step)

    async def close(self) -> None:
        """Stop the agents (a move under way finishes first; the next server makes the next)."""
        self.closing = True
        tasks = [h.agents for h in self.matches.values() if h.agents is not None and not h.agents.done()]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=self.agent_delay + 10)
            for t in late:
                t.cancel()
