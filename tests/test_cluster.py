"""Simulations as Ray tasks (``--backend ray``), on a local Ray of two CPUs:
the report is the local one, and a task whose worker dies is run again."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit

ray = pytest.importorskip("ray")
ROOT = Path(__file__).resolve().parents[1]
TIMINGS = ("seconds", "games_per_second", "decisions_per_second")


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One local Ray of two CPUs for the module (starting Ray takes seconds)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _without_timings(r: dict) -> dict:
    return {k: v for k, v in r.items() if k not in TIMINGS}


def test_ray_gives_the_local_report_and_retries_a_dead_worker(tmp_path):
    game = rulekit.load_game(ROOT / "games" / "sanguosha")
    local = rulekit.simulate(game, 5, 20, seed=9, coverage=True)
    on_ray = rulekit.simulate(game, 5, 20, seed=9, coverage=True, backend="ray", jobs=2)
    assert on_ray.pop("retried") == 0
    assert _without_timings(on_ray) == _without_timings(local)
    fault = tmp_path / "die-once"
    fault.write_text("")
    again = rulekit.simulate(game, 5, 20, seed=9, coverage=True, backend="ray", jobs=2,
                             _fault_file=str(fault))
    assert again.pop("retried") == 1 and not fault.exists()
    assert _without_timings(again) == _without_timings(local)


def test_the_command_runs_on_ray(capsys):
    from rulekit.cli import main
    assert main(["simulate", str(ROOT / "games" / "regicide.yaml"), "--players", "2", "--games", "40",
                 "--backend", "ray", "--jobs", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ray:       0 tasks submitted again" in out and "Regicide: 40 games" in out


def test_a_game_loaded_from_text_runs_on_ray_too():
    """The game is pickled to the workers: one loaded from text carries its text."""
    text = (ROOT / "docs" / "examples" / "last_card.yaml").read_text(encoding="utf-8")
    game = rulekit.load_game_text(text, "<text>")
    local = rulekit.simulate(game, 3, 30, seed=2)
    on_ray = rulekit.simulate(game, 3, 30, seed=2, backend="ray", jobs=2)
    assert on_ray.pop("retried") == 0
    assert _without_timings(on_ray) == _without_timings(local)
