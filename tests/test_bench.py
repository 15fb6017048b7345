"""The benchmark scripts run, and their three versions of Regicide play the
same game: the engine running games/regicide.yaml, the plain hand-written
game and the ceiling yardstick (which plays exactly the engine's games).  (Speed itself is measured by running the
scripts, never asserted here.)"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import bench_regicide  # noqa: E402
import ceiling_regicide  # noqa: E402

import rulekit  # noqa: E402

GAMES = 600


@pytest.fixture(scope="module")
def game():
    return rulekit.load_game(BENCH.parent / "games" / "regicide.yaml")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_three_versions_play_the_same_game(game, players):
    _, c_dec, c_def = ceiling_regicide.ceiling_round(players, GAMES, 1)
    _, h_dec, h_def = bench_regicide.hand_round(players, GAMES, 1)
    _, e_dec, e_def = bench_regicide.engine_round(game, players, GAMES, 1)
    # the yardstick makes the same random draws as the engine: the same games
    assert (c_dec, c_def) == (e_dec, e_def)
    # the hand-written game draws differently; over 600 games the means agree
    # closely (about 18 decisions and 1.6 enemies defeated per game)
    assert abs(e_dec - h_dec) / GAMES < 1.0
    assert abs(e_def - h_def) / GAMES < 0.15


def test_scripts_print_their_tables(capsys):
    assert ceiling_regicide.main(["--games", "20", "--rounds", "1"]) == 0
    assert bench_regicide.main(["--games", "20", "--rounds", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "ceiling games/s" in out and "ratio" in out
