"""The balance report (``rulekit report``): its numbers checked against a
direct count on a small run, and the HTML page with its plots."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulekit
from rulekit.agents import make_agents
from rulekit.cli import main
from rulekit.cli.report import player_counts
from rulekit.report import balance, write_report

pytest.importorskip("matplotlib")
ROWS = Path(__file__).parent / "games" / "rows.yaml"


def test_the_numbers_are_a_direct_count():
    game = rulekit.load_game(ROWS)
    data = balance(game, [2], 30, seed=3)
    run = data["runs"]["2"]
    wins = [0, 0]
    turns = []
    for i in range(30):
        m = game.new_match(2, seed=3 + i, auto_pass=True)
        m.play(make_agents("random", 2, 3 + i))
        for p in m.result()["winners"]:
            wins[p] += 1
        turns.append(m.turn)
    assert [run["wins_by_seat"][str(p)]["wins"] for p in (0, 1)] == wins
    assert run["wins_by"]["side"]["first"]["wins"] == wins[0]
    assert run["length"]["turns"]["mean"] == sum(turns) / 30 and run["length"]["turns"]["max"] == max(turns)
    lo, hi = run["wins_by_seat"]["0"]["ci95"]
    assert lo <= wins[0] / 30 <= hi


def test_the_page_embeds_its_plots_and_the_json_has_the_numbers(tmp_path):
    game = rulekit.load_game(ROWS)
    data = balance(game, [2], 20, seed=1, coverage=True)
    html_path, json_path = write_report(data, tmp_path / "out")
    page = html_path.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "Rows — balance report" in page
    assert len(re.findall(r'<img alt="[^"]+" src="data:image/png;base64,', page)) >= 3
    assert "wins by side, 2 players" in page and "rules that never ran" in page
    assert json.loads(json_path.read_text(encoding="utf-8")) == json.loads(json.dumps(data))


def test_the_command_writes_both_files(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["report", str(ROWS), "--players", "2", "--games", "10", "--out", str(out)]) == 0
    assert (out / "report.html").exists() and (out / "report.json").exists()
    assert "wrote" in capsys.readouterr().out


def test_player_counts():
    assert player_counts("4-6,8", 4, 10) == [4, 5, 6, 8]
    assert player_counts(None, 2, 5) == [2]
    with pytest.raises(Exception, match="not 11"):
        player_counts("11", 4, 10)
    with pytest.raises(Exception, match="is not a count"):
        player_counts("four", 4, 10)


def test_several_player_counts_get_a_plot_of_wins_by_count(tmp_path):
    """With more than one player count, the page opens with the win rate by
    player count, a line for each value of the rule file's first player
    stat (Regicide's ``progress``), and then each count's own section."""
    game = rulekit.load_game(Path(__file__).parent.parent / "games" / "regicide.yaml")
    data = balance(game, [1, 2], 8, seed=2)
    assert set(data["runs"]) == {"1", "2"} and all("progress" in r["wins_by"] for r in data["runs"].values())
    html_path, _ = write_report(data, tmp_path / "out")
    page = html_path.read_text(encoding="utf-8")
    assert '<img alt="wins by progress and player count" src="data:image/png;base64,' in page
    assert page.index("wins by progress and player count") < page.index("1 players") < page.index("2 players")
