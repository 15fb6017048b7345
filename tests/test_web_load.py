"""Fifty matches at once through the websockets, each the same game as its
seeds played in-process.

Client-side agents (bench/bench_web.py) play the person seats, picking among
the ``actions`` they are sent with RNGs seeded per (match seed, seat); every
other match has a seat played by the server's random agent.  Every match
must finish, and its saved actions must replay to the log of the same seeds
played in-process by the same agents: the server lost, reordered or
invented no move, and its agents play as promised (deterministic per match
seed, seat and step).  Figures are printed (``pytest -s``), never asserted.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_web  # noqa: E402
from web_kit import REGICIDE, serve  # noqa: E402

import rulekit  # noqa: E402

MATCHES = 50
PLAYERS = 2


def test_fifty_matches_at_once_play_the_games_played_in_process():
    game = rulekit.load_game(REGICIDE)
    seeds = list(range(1000, 1000 + MATCHES))
    with serve([REGICIDE]) as server:
        run = bench_web.run_matches(server.url, "regicide", PLAYERS, seeds, agent_seats=1)
        saved = [server.get(f"/api/matches/{mid}/saved") for mid in run.ids]
        listing = {row["match"]: row for row in server.get("/api/matches")}
    run.actions = sum(len(s["actions"]) for s in saved)
    print("\n" + bench_web.figures(run))
    assert len(run.ids) == len(set(run.ids)) == MATCHES
    for i, (seed, mid, record) in enumerate(zip(seeds, run.ids, saved)):
        kinds = bench_web.seats_of(i, PLAYERS, 1)
        expected = bench_web.in_process(game, seed, kinds)
        assert listing[mid]["over"] and listing[mid]["seats"] == kinds
        assert record["seed"] == seed and record["players"] == PLAYERS
        replayed = rulekit.Match.restore(game, record)
        assert replayed.is_over()
        assert replayed.log_json() == expected.log_json(), f"match {i} (seed {seed}) differs"
    assert any(k == "random" for i in range(MATCHES) for k in bench_web.seats_of(i, PLAYERS, 1))
