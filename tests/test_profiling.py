"""``rulekit profile``: the time of a simulation by rule of the rule file.

A game whose time is nearly all in one procedure's loop must show that
procedure first, at its place in the file, and the phase that calls it
with at least that share of the time in it and what it calls.
"""
from __future__ import annotations

import json

import pytest

import rulekit
from rulekit.cli import main
from rulekit.profiling import PARTS, profile

SLOW = """\
name: Slow
players: {min: 2, max: 2}
cards:
  - {name: Chip, count: 4}
zones:
  deck: {}
vars: {turns: 0, spent: 0}
procedures:
  slow:
    params: [n]
    effect: |
      let i = 0
      while i < n:
        i += 1
        spent += 1
  small:
    params: [p]
    effect: return p == current
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        turns += 1
        call slow(1000)
        if small(current) and turns >= 30:
          win for current "done"
"""


@pytest.fixture(scope="module")
def slow(tmp_path_factory) -> rulekit.Game:
    path = tmp_path_factory.mktemp("profile") / "slow.yaml"
    path.write_text(SLOW, encoding="utf-8")
    return rulekit.load_game(path)


def test_the_rule_that_takes_the_time_comes_first_at_its_place(slow):
    found = profile(slow, 2, 30)
    assert found.samples > 30
    top = found.rules[0]
    assert top.rule == "procedure 'slow'"
    assert top.own > 0.5 and top.all >= top.own
    effect_line = SLOW.split("\n").index("  slow:") + 3          # its effect text, as errors place it
    assert (top.where.line, top.where.column) == (effect_line, 13)
    # the phase calls it: everything the procedure does is in the phase's 'all' too
    phase = next(r for r in found.rules if r.rule == "phase 'main'")
    assert phase.all >= top.all
    assert list(found.parts) == list(PARTS) and sum(found.parts.values()) == pytest.approx(1)
    assert [r.own for r in found.rules] == sorted((r.own for r in found.rules), reverse=True)


def test_bad_arguments_are_refused_before_a_game_is_played(slow):
    with pytest.raises(ValueError, match="for 2 to 2 players"):
        profile(slow, 3, 5)
    with pytest.raises(ValueError, match="at least 1"):
        profile(slow, 2, 0)
    with pytest.raises(ValueError, match="unknown agent"):
        profile(slow, 2, 5, agents="nobody")


def test_the_command_lists_the_parts_and_the_rules(slow, capsys):
    assert main(["profile", slow.file, "--games", "10", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "where the time goes:" in out and "the rules' own lines" in out
    rows = [line for line in out.split("\n") if "procedure 'slow'" in line]
    assert len(rows) == 1 and "slow.yaml:" in rows[0]
    assert "more (--top)" in out
    assert main(["profile", slow.file, "--games", "1"]) == 0
    assert "few samples, so the shares are rough: more games, --games 10" in capsys.readouterr().out
    assert main(["profile", slow.file, "--games", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"][0]["rule"] == "procedure 'slow'" and data["games"] == 5


def test_a_bad_player_count_is_refused_without_a_traceback(slow, capsys):
    assert main(["profile", slow.file, "--players", "5"]) == 2
    assert "Slow is for 2 players, not 5" in capsys.readouterr().err


def test_a_game_that_fails_is_reported_with_the_command_that_replays_it(tmp_path, capsys):
    path = tmp_path / "broken.yaml"
    path.write_text(SLOW.replace("        turns += 1\n", "        turns += 1\n        spent = 1 // (3 - turns)\n"),
                    encoding="utf-8")
    assert main(["profile", str(path), "--games", "3"]) == 1
    err = capsys.readouterr().err
    assert "game 1 (seed 0) failed" in err and "a division or % by zero" in err
    assert f"rulekit simulate {path} --players 2 --games 1 --seed 0 --agents random" in err
