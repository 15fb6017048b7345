"""rulekit.simulate: many matches from a library, in one process or several."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulekit
from rulekit.cli import main
from rulekit.profiling import profile

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = ROOT / "games" / "regicide.yaml"
MECH = ROOT / "tests" / "games" / "mechanisms.yaml"

NEVER_ENDS = ROOT / "tests" / "games" / "never_ends.yaml"   # its phase never ends


def _without_timings(report: dict) -> dict:
    return {k: v for k, v in report.items() if "second" not in k}


@pytest.fixture(scope="module")
def regicide():
    return rulekit.load_game(REGICIDE)


def test_the_report_is_the_one_the_command_prints(regicide, capsys):
    report = rulekit.simulate(regicide, 3, 30, seed=5, agents="heuristic,random")
    assert main(["simulate", str(REGICIDE), "-p", "3", "-g", "30", "-s", "5",
                 "-a", "heuristic,random", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert _without_timings(report) == _without_timings(printed)
    assert report["games"] == 30 and sum(report["results"]["outcomes"].values()) == 30
    assert report["decisions"] > 30 * 10


def test_agents_may_be_a_list_and_processes_change_nothing(regicide):
    alone = rulekit.simulate(regicide, 2, 60, seed=2, agents=["heuristic", "random"])
    shared = rulekit.simulate(regicide, 2, 60, seed=2, agents=["heuristic", "random"], jobs=2)
    assert alone["agents"] == "heuristic,random"
    assert _without_timings(alone) == _without_timings(shared)


def test_options_reach_every_game():
    game = rulekit.load_game(MECH)
    one = rulekit.simulate(game, 4, 20, options={"start_hp": 1})
    three = rulekit.simulate(game, 4, 20, options={"start_hp": 3})
    assert one["options"]["start_hp"] == 1 and three["options"]["start_hp"] == 3
    assert _without_timings(one)["results"] != _without_timings(three)["results"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_game_is_named_by_its_index_and_seed(jobs):
    game = rulekit.load_game(NEVER_ENDS)
    with pytest.raises(rulekit.GameFailed) as info:
        rulekit.simulate(game, 1, 3, seed=10, jobs=jobs)
    err = info.value
    assert (err.index, err.seed) == (0, 10)
    assert "step budget" in err.reason
    assert str(err).startswith("game 1 (seed 10) failed: ")


@pytest.mark.parametrize("kwargs, message", [
    ({"players": 5}, "for 1 to 4 players, not 5"),
    ({"agents": "clever"}, "unknown agent 'clever'"),
    ({"games": 0}, "at least 1"),
    ({"jobs": 0}, "at least 1"),
    ({"options": {"speed": 2}}, "has no option 'speed'"),
    ({"backend": "dask"}, "unknown backend 'dask': local or ray"),
])
def test_bad_requests_are_refused_before_any_game(regicide, kwargs, message):
    args = {"players": 2, "games": 5, **kwargs}
    with pytest.raises(ValueError, match=message):
        rulekit.simulate(regicide, **args)


@pytest.mark.parametrize("kwargs, message", [
    ({"seed": None}, "a match's seed is a whole number, not None"),      # failed as None + 0
    ({"seed": "7"}, "a match's seed is a whole number, not '7'"),
    ({"agents": 2}, "agents are a name ('random', 'heuristic,random') or a list of names, not 2"),
    ({"agents": ["random", None]}, "or a list of names, not ['random', None]"),
])
def test_arguments_of_the_wrong_kind_are_refused_before_any_game(regicide, kwargs, message):
    args = {"players": 2, "games": 5, **kwargs}
    for run in (rulekit.simulate, profile):
        with pytest.raises(TypeError) as info:
            run(regicide, **args)
        assert message in str(info.value)


def test_processes_that_cannot_fork_load_the_game_themselves(regicide, monkeypatch):
    """Where processes are spawned (Windows, macOS), the game is pickled to
    each worker, which loads it again — from its file, or from its text for
    a game loaded from text: the report is the same."""
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    alone = rulekit.simulate(regicide, 2, 12, seed=4)
    spawned = rulekit.simulate(regicide, 2, 12, seed=4, jobs=2)
    assert _without_timings(alone) == _without_timings(spawned)
    text = rulekit.load_game_text(REGICIDE.read_text(encoding="utf-8"), "<text>")
    assert _without_timings(rulekit.simulate(text, 2, 12, seed=4, jobs=2)) == _without_timings(alone)


def test_wins_by_each_player_stat_match_a_direct_count():
    """``player_stats`` values are counted per seat with the wins of that
    seat, and the rate comes with a 95% interval that holds it."""
    from collections import Counter

    from rulekit.agents import make_agents

    rows = rulekit.load_game(Path(__file__).parent / "games" / "rows.yaml")
    r = rulekit.simulate(rows, 2, 60, seed=5)
    seats, wins = Counter(), Counter()
    for i in range(60):
        m = rows.new_match(2, seed=5 + i, auto_pass=True)
        m.play(make_agents("random", 2, 5 + i))
        res = m.result()
        for p in (0, 1):
            value = str(res["player_stats"]["bears"][p])
            seats[value] += 1
            wins[value] += p in res["winners"]
    by = r["wins_by"]["bears"]
    assert {v: (e["seats"], e["wins"]) for v, e in by.items()} == {v: (seats[v], wins[v]) for v in seats}
    first = r["wins_by"]["side"]["first"]
    assert first["seats"] == 60 and first["wins"] == r["results"]["winners"]["0"]
    for e in by.values():
        lo, hi = e["ci95"]
        assert 0 <= lo <= e["rate"] <= hi <= 1


def test_with_different_agents_each_agents_seats_are_counted_apart():
    rows = rulekit.load_game(Path(__file__).parent / "games" / "rows.yaml")
    r = rulekit.simulate(rows, 2, 40, seed=3, agents="heuristic,random")
    side = r["wins_by"]["side"]
    assert side["first · heuristic"]["seats"] == 40 and side["second · random"]["seats"] == 40
    assert side["first · heuristic"]["wins"] == r["results"]["winners"]["0"]
    assert "first · random" not in side
    plain = rulekit.simulate(rows, 2, 40, seed=3)
    assert not any(" · " in v for v in plain["wins_by"]["side"])
