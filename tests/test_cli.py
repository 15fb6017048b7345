"""Tests for the command line: validate, describe, simulate, play (never a traceback)."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402

import rulekit  # noqa: E402
from rulekit.cli import main  # noqa: E402
from rulekit.progress import Progress  # noqa: E402

GAME = str(ROOT / "games" / "regicide.yaml")

BROKEN = textwrap.dedent("""\
    name: Broken
    players: {min: 1, max: 2}
    cards:
      - name: X
        count: 3
    zones:
      deck: {visibility: hidden}
    turn:
      phases:
        - name: play
          effect: |
            move top(dek, 1) to deck
    """)

NEVER_ENDS = textwrap.dedent("""\
    name: Forever
    players: {min: 1, max: 1}
    cards:
      - name: X
    zones:
      deck: {visibility: hidden}
    turn:
      phases:
        - name: play
          effect: |
            move deck to deck
    """)


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(scope="module")
def game():
    return rulekit.load_game(GAME)


# ---- validate ----------------------------------------------------------------

def test_validate_ok(capsys):
    code, out, err = run(capsys, "validate", GAME)
    assert code == 0 and err == ""
    assert out.strip() == (f"{GAME}: ok — Regicide, 1–4 players, 54 cards, 9 zones, 4 phases, "
                           "4 choices, 2 procedures")


def test_validate_broken_file_reports_position(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "validate", GAME, str(bad))
    assert code == 1
    assert "ok — Regicide" in out
    assert re.search(re.escape(str(bad)) + r":12:\d+: error: unknown name 'dek'", err)
    assert "did you mean 'deck'" in err


def test_validate_broken_yaml_and_missing_file(capsys, tmp_path):
    bad = tmp_path / "tabs.yaml"
    bad.write_text("name: X\nplayers:\n\tmin: 1\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", str(bad), str(tmp_path / "missing.yaml"))
    assert code == 1
    assert re.search(re.escape(str(bad)) + r":\d+:\d+: error", err)
    assert "missing.yaml: error: cannot read the rule file" in err


STUCK = textwrap.dedent("""\
    name: Stuck
    players: {min: 1, max: 2}
    cards:
      - {name: C, count: 3, props: {v: 1}}
    zones:
      deck: {visibility: hidden}
      hand: {per_player: true, visibility: owner}
    choices:
      take:
        options:
          - {name: card, cards: 1, from: deck}
    turn:
      phases:
        - name: draw
          effect: |
            choose take
            move take.cards to hand(current)
    """)


def test_validate_play_plays_random_games(capsys):
    code, out, err = run(capsys, "validate", GAME, "--play", "5")
    assert code == 0 and err == ""
    assert out.strip().endswith("5 random games per player count played cleanly")


def test_validate_play_finds_a_choice_left_without_options(capsys, tmp_path):
    """The file loads, but once the deck is empty the choice has no legal
    option and no if_none: only playing shows it, with the rule's position."""
    stuck = tmp_path / "stuck.yaml"
    stuck.write_text(STUCK, encoding="utf-8")
    code, out, err = run(capsys, "validate", str(stuck), "--play", "2")
    assert code == 1 and out == ""
    assert f"{stuck}: error in play: players=1 seed=0: {stuck}:16:9: choice 'take' has no legal option" in err
    assert "(in phase 'draw')" in err
    assert f"{stuck}: loads, but 4 random games failed" in err


# ---- describe ----------------------------------------------------------------

def test_describe_mentions_zones_choices_and_phases(capsys, game):
    code, out, _ = run(capsys, "describe", GAME)
    assert code == 0
    assert out.startswith("Regicide\n")
    assert "zones (9):" in out and "phases of a turn (4" in out
    for zone in game.zones:
        assert re.search(rf"^  {zone.name}\s", out, re.M)
    for phase in game.phases:
        assert re.search(rf"^  \d\. {phase.name}\b", out, re.M)
    for choice in game.choices.values():
        assert choice.prompt in out
    assert "choose attack" in out          # effect text of a phase
    assert "Jester ×2" in out              # duplicate names are compacted


# ---- simulate ----------------------------------------------------------------

def test_simulate_json(capsys):
    code, out, _ = run(capsys, "simulate", GAME, "--players", "2", "--games", "20", "--seed", "3",
                       "--agents", "heuristic,random", "--json")
    assert code == 0
    report = json.loads(out)
    for key in ("games", "seconds", "decisions", "results", "stats", "games_per_second",
                "decisions_per_second"):
        assert key in report
    assert report["games"] == 20
    assert sum(report["results"]["outcomes"].values()) == 20
    assert set(report["results"]["winners"]) == {"0", "1"}
    assert set(report["stats"]["enemies_defeated"]) == {"mean", "min", "max"}
    assert sum(report["stats"]["medal"]["counts"].values()) == 20


def test_simulate_is_reproducible_and_text_report(capsys):
    args = ("simulate", GAME, "-p", "2", "-g", "15", "-s", "9", "--no-progress")
    code, first, _ = run(capsys, *args, "--json")
    _, again, _ = run(capsys, *args, "--json")
    strip = lambda r: {k: v for k, v in json.loads(r).items() if "second" not in k}  # noqa: E731
    assert code == 0 and strip(first) == strip(again)
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "win rate:" in out and "enemies_defeated" in out and "decisions/s" in out


@pytest.mark.parametrize("argv, message", [
    (["-p", "9"], "is for 1–4 players, not 9"),
    (["--agents", "clever"], "unknown agent 'clever'"),
    (["--games", "0"], "must be at least 1"),
])
def test_simulate_bad_arguments_exit_2(capsys, argv, message):
    code, _, err = run(capsys, "simulate", GAME, *argv)
    assert code == 2 and message in err


def test_simulate_rule_that_never_ends_exits_1(capsys, tmp_path):
    path = tmp_path / "forever.yaml"
    path.write_text(NEVER_ENDS, encoding="utf-8")
    code, _, err = run(capsys, "simulate", str(path), "-g", "1")
    assert code == 1
    assert "step budget" in err and "seed 0" in err


# ---- play --------------------------------------------------------------------

def test_play_reasks_bad_input_and_quits(capsys, monkeypatch):
    code, out, err = run(capsys, "play", GAME, "--players", "2", "--seed", "3",
                         stdin="x\n999\n?\nlog 3\nview\nq\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "'x' is not an option" in out
    assert "there is no option 999" in out
    assert "q, quit" in out                       # help
    assert "turn of player 0 (you)" in out        # log
    assert out.count("── turn 1 · your turn · phase play ──") == 2   # shown, then view again
    assert "hand(0) (yours)" in out and "hand(1)" in out and "7 cards, face down" in out
    assert "Leaving the match unfinished" in out


def test_play_hides_other_hands(capsys, monkeypatch, game):
    _, out, _ = run(capsys, "play", GAME, "-p", "2", "-s", "3", stdin="q\n", monkeypatch=monkeypatch)
    m = game.new_match(2, seed=3)
    theirs = [c.name for c in m.zone("hand", 1).cards]
    mine = [c.name for c in m.zone("hand", 0).cards]
    assert theirs and all(name in out for name in mine)
    assert not [name for name in theirs if re.search(rf"(?<![\w]){re.escape(name)}", out)]


def test_play_end_of_input_exits_cleanly(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", GAME, "-p", "2", stdin="", monkeypatch=monkeypatch)
    assert code == 0 and "input ended" in out


def test_play_to_the_end_with_agents(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", GAME, "-p", "3", "--seat", "1", "--agents", "random",
                       stdin="1\n" * 500, monkeypatch=monkeypatch)
    assert code == 0
    assert "player 0 (random) — attack:" in out
    assert "== game over" in out and "stats: enemies_defeated" in out


def test_play_accepts_option_text(capsys, monkeypatch, game):
    m = game.new_match(2, seed=3)
    text = m.describe_action(m.decision.options[-1])
    _, out, _ = run(capsys, "play", GAME, "-p", "2", "-s", "3", stdin=f"{text.upper()}\nq\n",
                    monkeypatch=monkeypatch)
    assert "is not an option" not in out


def test_play_bad_seat_exits_2(capsys):
    code, _, err = run(capsys, "play", GAME, "-p", "2", "--seat", "2")
    assert code == 2 and "seats are 0 to 1" in err


def test_python_dash_m_with_piped_input():
    proc = subprocess.run([sys.executable, "-m", "rulekit", "play", GAME, "-p", "2"],
                          input="abc\n0\nquit\n", capture_output=True, text=True, cwd=ROOT,
                          timeout=60, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "'abc' is not an option" in proc.stdout and "no option 0" in proc.stdout


# ---- progress ----------------------------------------------------------------

class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_after_the_delay():
    tty = FakeTerminal()
    bar = Progress(10, "run", stream=tty, delay=0.0, interval=0.0)
    bar.update(5)
    bar.close()
    assert "run [" in tty.getvalue() and "5/10" in tty.getvalue()
    assert tty.getvalue().endswith("\r\x1b[2K")

    late = FakeTerminal()
    Progress(10, stream=late, delay=60).update(5)
    plain = io.StringIO()
    Progress(10, stream=plain, delay=0.0).update(5)
    off = FakeTerminal()
    Progress(10, stream=off, delay=0.0, enabled=False).update(5)
    assert late.getvalue() == plain.getvalue() == off.getvalue() == ""
