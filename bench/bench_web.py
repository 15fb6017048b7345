"""Many matches at once through the web table's websockets.

Each person's seat is played by a client-side agent that picks at random
among the ``actions`` the server sends it, with an RNG seeded per (match
seed, seat); the other seats by the server's agents.  The same seeds played
in-process with the same agents give the same games, so a run through the
server can be checked move for move (``in_process``; tests/test_web_load.py).

    python bench/bench_web.py [--matches 50] [--file games/regicide.yaml] [--players 2]
                              [--agent-seats 0]

Starts ``rulekit serve`` in a process of its own (free port, temporary
database, no agent delay), plays the matches all at once and prints matches,
actions, actions/s and the latency of an action (sent to the state after
it received).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from rulekit.agents import AGENTS, seat_seed  # noqa: E402
from rulekit.web.hosting import agent_seed  # noqa: E402

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets before 13
    from websockets.client import connect  # type: ignore[no-redef]

TIMEOUT = 120.0


def seats_of(index: int, players: int, agent_seats: int) -> list[str]:
    """What plays each seat of match ``index``: persons (client agents), and
    on every other match the last ``agent_seats`` seats the server's random agent."""
    kinds = ["person"] * players
    if index % 2 == 1:
        for s in range(players - agent_seats, players):
            kinds[s] = "random"
    return kinds


def client_rng(seed: int, seat: int) -> random.Random:
    return random.Random(seat_seed(seed, seat))


@dataclass
class Run:
    """What a run measured."""

    ids: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    person_actions: int = 0
    actions: int = 0
    seconds: float = 0.0


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
        return json.loads(resp.read())


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as resp:
        return json.loads(resp.read())


async def _seat(ws_url: str, token: str, rng: random.Random, run: Run) -> dict:
    """Play one seat to the end of its match; its last state."""
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent = None
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] != "state":
                raise RuntimeError(f"the server refused a move: {msg}")
            if sent is not None:
                run.latencies.append(time.perf_counter() - sent)
                sent = None
            if msg["result"] is not None:
                return msg
            if msg["yours"]:
                choice = msg["actions"][rng.randrange(len(msg["actions"]))]["action"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": choice, "step": msg["step"]}))
                run.person_actions += 1


async def _match(base: str, game: str, seed: int, kinds: list[str], run: Run) -> str:
    made = await asyncio.to_thread(_post, base + "/api/matches",
                                   {"game": game, "players": len(kinds), "seats": kinds, "seed": seed})
    ws_base = "ws" + base[len("http"):] + f"/ws/{made['match']}"
    await asyncio.gather(*(_seat(ws_base, s["token"], client_rng(seed, s["seat"]), run) for s in made["seats"]))
    return made["match"]


async def _all(base: str, game: str, players: int, seeds: list[int], agent_seats: int, run: Run) -> None:
    run.ids = list(await asyncio.gather(*(
        _match(base, game, seed, seats_of(i, players, agent_seats), run) for i, seed in enumerate(seeds))))


def run_matches(base: str, game: str, players: int, seeds: list[int], agent_seats: int = 0) -> Run:
    """Play a match for every seed at once through the server at ``base``."""
    run = Run()
    start = time.perf_counter()
    asyncio.run(asyncio.wait_for(_all(base, game, players, seeds, agent_seats, run), TIMEOUT))
    run.seconds = time.perf_counter() - start
    return run


def in_process(game, seed: int, kinds: list[str]):
    """The match the server plays for ``seed`` and ``kinds``, played here."""
    match = game.new_match(len(kinds), seed=seed)
    rngs = {s: client_rng(seed, s) for s, k in enumerate(kinds) if k == "person"}
    while (dec := match.decision) is not None:
        if kinds[dec.player] == "person":
            match.apply(dec.options[rngs[dec.player].randrange(len(dec.options))])
        else:
            agent = AGENTS[kinds[dec.player]](agent_seed(seed, dec.player, len(match.actions)))
            match.apply(agent.act(match, dec))
    return match


def figures(run: Run) -> str:
    lat = sorted(run.latencies) or [0.0]
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    return (f"{len(run.ids)} matches, {run.actions} actions ({run.person_actions} by clients) in "
            f"{run.seconds:.2f} s: {run.actions / run.seconds:.0f} actions/s; latency of a client's "
            f"action: median {statistics.median(lat) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
            f"max {lat[-1] * 1000:.1f} ms")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--file", default=str(HERE.parent / "games" / "regicide.yaml"))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agent-seats", type=int, default=0, help="seats the server's agents play in every other match")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "rulekit", "serve", args.file, "--port", str(port),
                                   "--db", str(Path(tmp) / "bench.sqlite3"), "--agent-delay", "0"],
                                  cwd=HERE.parent, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    games = get_json(base + "/api/games")
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            run = run_matches(base, games[0]["id"], args.players,
                              list(range(args.seed, args.seed + args.matches)), args.agent_seats)
            run.actions = sum(len(get_json(f"{base}/api/matches/{m}/saved")["actions"]) for m in run.ids)
        finally:
            server.terminate()
            server.wait(30)
    print(figures(run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
