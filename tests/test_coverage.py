"""Rule coverage (``simulate(..., coverage=True)``, ``rulekit simulate
--coverage``): how often each rule ran, checked against a direct count, and
the rules that cannot run listed as never run, with their file:line."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import rulekit
from rulekit.agents import make_agents

DEAD = """\
name: Dead rules
players: {min: 2, max: 2}
cards:
  - {name: C, count: 10}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
vars:
  drawn: 0
choices:
  act:
    who: current
    options:
      - {name: draw, when: any(deck)}
      - {name: never, when: size(deck) > 99}
      - {name: stop}
procedures:
  unused:
    params: [p]
    effect: |
      move top(deck) to hand(p)
      drawn += 1
setup: move box to deck
triggers:
  - on: drew
    effect: drawn += 1
  - on: drew
    when: event.player > 5
    effect: drawn += 100
turn:
  phases:
    - name: main
      effect: |
        choose act
        if act.option == "draw":
          move top(deck) to hand(current)
          emit drew(player=current)
        if act.option == "stop" or empty(deck):
          win for current "stopped"
"""


def _game(tmp_path: Path) -> rulekit.Game:
    path = tmp_path / "dead.yaml"
    path.write_text(DEAD, encoding="utf-8")
    return rulekit.load_game(path)


def test_rules_that_cannot_run_are_listed_with_their_place(tmp_path):
    game = _game(tmp_path)
    c = rulekit.simulate(game, 2, 40, seed=1, coverage=True)["coverage"]
    never = c["never"]
    assert never["procedures"] == ["procedure 'unused'"]
    assert never["triggers"] == ["trigger on 'drew' #1"]
    assert never["options"] == ["act: never"]
    assert c["sections"]["procedures"]["procedure 'unused'"]["where"].endswith("dead.yaml:20")
    assert c["sections"]["triggers"]["trigger on 'drew' #1"]["where"].endswith("dead.yaml:29")
    assert c["summary"]["triggers"] == "1/2" and c["summary"]["phases"] == "1/1"


def test_counts_agree_with_a_direct_count(tmp_path):
    game = _game(tmp_path)
    r = rulekit.simulate(game, 2, 30, seed=4, coverage=True)
    options, draws = Counter(), 0
    for i in range(30):
        m = game.new_match(2, seed=4 + i, auto_pass=True)
        m.play(make_agents("random", 2, 4 + i))
        for ev in m.log:
            if ev[0] == "decide":
                options[ev[2].option] += 1
        draws += sum(1 for ev in m.log if ev[0] == "event" and ev[1] == "drew")
    sections = r["coverage"]["sections"]
    assert {k.split(": ")[1]: v["count"] for k, v in sections["options"].items()} == {
        "draw": options["draw"], "never": 0, "stop": options["stop"]}
    assert sections["triggers"]["trigger on 'drew' #0"]["count"] == draws


def test_processes_count_the_same(tmp_path):
    game = _game(tmp_path)
    one = rulekit.simulate(game, 2, 40, seed=2, coverage=True)["coverage"]
    two = rulekit.simulate(game, 2, 40, seed=2, coverage=True, jobs=2)["coverage"]
    assert one == two


def test_the_command_prints_what_never_ran(tmp_path, capsys):
    from rulekit.cli import main
    path = tmp_path / "dead.yaml"
    path.write_text(DEAD, encoding="utf-8")
    assert main(["simulate", str(path), "--games", "20", "--coverage", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "rule coverage (ran / declared): procedures 0/1, triggers 1/2, phases 1/1, options 2/3" in out
    assert f"    procedure 'unused'  {path}:20" in out


def test_a_trace_function_already_set_is_warned_of_and_set_back(tmp_path):
    """Python runs one trace function at a time: rule coverage, which needs
    its own while the games are played, says so to whoever set one (a
    debugger, coverage.py), and puts theirs back afterwards."""
    import sys

    game = _game(tmp_path)
    before = sys.gettrace()

    def theirs(frame, event, arg):
        return None

    sys.settrace(theirs)
    try:
        with pytest.warns(RuntimeWarning, match="replaces the trace function already set") as caught:
            c = rulekit.simulate(game, 2, 5, seed=1, coverage=True)["coverage"]
        assert sys.gettrace() is theirs
    finally:
        sys.settrace(before)
    assert caught[0].filename == __file__         # said where simulate was called
    assert c["summary"]["phases"] == "1/1"        # the games were counted all the same
