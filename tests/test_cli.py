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
from rulekit.agents import make_agents  # noqa: E402
from rulekit.cli import main  # noqa: E402
from rulekit.cli.show import event_line, view_lines  # noqa: E402
from rulekit.progress import Progress  # noqa: E402
from rulekit.testing import prepare, smoke  # noqa: E402

GAME = str(ROOT / "games" / "regicide.yaml")
MECH = str(ROOT / "tests" / "games" / "mechanisms.yaml")   # options start_hp (1, 2, 3), thorns (bool)

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

NEVER_ENDS = str(ROOT / "tests" / "games" / "never_ends.yaml")   # its phase never ends


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def numbers(lines: int) -> str:
    """Input that answers every prompt with some listed option: 1, 2, 3, ...
    again and again (a number that is no longer listed is refused and the
    next one tried, as option numbers stay put within a turn)."""
    return "".join(f"{k % 24 + 1}\n" for k in range(lines))


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
    (["--jobs", "0"], "must be at least 1"),
])
def test_simulate_bad_arguments_exit_2(capsys, argv, message):
    code, _, err = run(capsys, "simulate", GAME, *argv)
    assert code == 2 and message in err


def _without_timings(report_json: str) -> dict:
    return {k: v for k, v in json.loads(report_json).items() if "second" not in k}


@pytest.mark.parametrize("argv", [
    (GAME, "-p", "2", "-g", "40", "-s", "11"),
    (MECH, "-p", "3", "-g", "25", "-a", "heuristic,random", "-o", "start_hp=2"),
])
def test_simulate_in_processes_gives_the_same_report(capsys, argv):
    code, alone, _ = run(capsys, "simulate", *argv, "--json")
    code2, shared, _ = run(capsys, "simulate", *argv, "--json", "--jobs", "2")
    assert code == code2 == 0
    assert _without_timings(shared) == _without_timings(alone)
    assert json.loads(shared)["games"] == int(argv[argv.index("-g") + 1])


def test_simulate_in_processes_reports_the_first_failing_game(capsys):
    code, _, alone = run(capsys, "simulate", NEVER_ENDS, "-g", "3", "-s", "4")
    code2, _, shared = run(capsys, "simulate", NEVER_ENDS, "-g", "3", "-s", "4", "-j", "2")
    assert code == code2 == 1
    assert "game 1 (seed 4) failed" in shared and "step budget" in shared
    assert shared == alone


def test_simulate_rule_that_never_ends_exits_1(capsys):
    code, _, err = run(capsys, "simulate", NEVER_ENDS, "-g", "1")
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
    assert "player 0 (you): yielded false\n      hand         7: " in out     # your hand, under you
    assert "player 1 (heuristic): yielded false\n      hand         7 cards, face down" in out
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
                       stdin=numbers(5000), monkeypatch=monkeypatch)
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


# ---- match options (--option NAME=VALUE) ---------------------------------------

def test_describe_lists_options_with_default_values_and_doc(capsys):
    code, out, _ = run(capsys, "describe", MECH)
    assert code == 0
    assert "options (2; set with --option NAME=VALUE):" in out
    assert re.search(r"^  start_hp\s+one of 1, 2, 3 \(default 2\) — hit points each player starts with$",
                     out, re.M)
    assert re.search(r"^  thorns\s+true or false \(default false\) — a player with an empty hand", out, re.M)
    # the long forms of the other sections are described, not dumped
    assert "  hurt(target, amount):" in out and "'params'" not in out
    assert "target(attacker) (who: attacker)" in out
    assert "attacks_this_turn = 0  (reset every turn)" in out
    assert "team = none  (each player; seen only by its owner; shown to all when owner.revealed)" in out
    assert "on damaged for each player (as owner):" in out
    assert "tags: lists, cards with attack 20, basic 30; empty on 6" in out


def test_describe_without_options_has_no_options_section(capsys):
    _, out, _ = run(capsys, "describe", GAME)
    assert "options (" not in out


@pytest.mark.parametrize("given, expected", [
    ([], {"start_hp": 2, "thorns": False}),
    (["--option", "start_hp=3"], {"start_hp": 3, "thorns": False}),
    (["-o", "thorns=yes", "-o", "start_hp=1"], {"start_hp": 1, "thorns": True}),
    (["-o", "thorns=TRUE"], {"start_hp": 2, "thorns": True}),
    (["-o", "thorns=0", "-o", "thorns=1"], {"start_hp": 2, "thorns": True}),   # the last one counts
    (["-o", "thorns = no"], {"start_hp": 2, "thorns": False}),
])
def test_simulate_options_are_typed_and_used(capsys, given, expected):
    code, out, err = run(capsys, "simulate", MECH, "-p", "3", "-g", "4", "--json", *given)
    assert code == 0, err
    report = json.loads(out)
    assert report["options"] == expected
    game = rulekit.load_game(MECH)
    decisions = 0
    for seed in range(4):     # the same games as the options played directly
        m = game.new_match(3, seed=seed, options=expected)
        m.play(make_agents("random", 3, seed))
        decisions += len(m.actions)
    assert report["decisions"] == decisions


def test_simulate_option_changes_the_games(capsys):
    runs = {}
    for hp in ("1", "3"):
        _, out, _ = run(capsys, "simulate", MECH, "-p", "4", "-g", "20", "--json", "-o", f"start_hp={hp}")
        runs[hp] = json.loads(out)["decisions"]
    assert runs["1"] < runs["3"]
    _, text, _ = run(capsys, "simulate", MECH, "-p", "4", "-g", "2", "-o", "start_hp=3")
    assert "options:   start_hp=3, thorns=false" in text


@pytest.mark.parametrize("argv, message", [
    (["-o", "start_hp=7"], "option 'start_hp' cannot be 7: choose one of 1, 2, 3"),
    (["-o", "start_hp=lots"], "option 'start_hp' is a whole number, not 'lots'"),
    (["-o", "thorns=maybe"], "option 'thorns' is true or false, not 'maybe'"),
    (["-o", "colour=red"], "Mechanisms has no option 'colour' (its options: start_hp, thorns)"),
    (["-o", "start_hpp=1"], "did you mean 'start_hp'?"),
    (["-o", "start_hp"], "'start_hp' is not NAME=VALUE"),
    (["-o", "=3"], "'=3' is not NAME=VALUE"),
])
@pytest.mark.parametrize("command", ["simulate", "play"])
def test_bad_option_is_a_usage_error(capsys, command, argv, message):
    code, out, err = run(capsys, command, MECH, "-p", "2", *argv)
    assert code == 2 and message in err and "Traceback" not in err
    assert "game over" not in out


def test_option_of_a_game_without_options(capsys):
    code, _, err = run(capsys, "simulate", GAME, "-o", "start_hp=1")
    assert code == 2 and "Regicide has no option 'start_hp' (it has no options)" in err


def test_validate_play_uses_options(capsys):
    code, out, err = run(capsys, "validate", MECH, "--play", "3", "-o", "start_hp=1", "--option", "thorns=true")
    assert code == 0 and err == ""
    assert out.strip().endswith("3 random games per player count played cleanly with start_hp=1, thorns=true")
    assert "2 options" in out


def test_validate_checks_options_against_every_file(capsys):
    """A file without the option is reported (exit 2); the other files are still checked."""
    code, out, err = run(capsys, "validate", GAME, MECH, "-o", "thorns=yes")
    assert code == 2
    assert f"rulekit: error: {GAME}: Regicide has no option 'thorns'" in err
    assert f"{MECH}: ok" in out and "ok — Regicide" not in out
    code, _, err = run(capsys, "validate", MECH, "-o", "start_hp=9")
    assert code == 2 and "cannot be 9" in err


def test_smoke_with_options_plays_those_matches():
    game = rulekit.load_game(MECH)
    assert smoke(game, 3, players=[3], options={"start_hp": 3, "thorns": True}) == []
    with pytest.raises(ValueError, match="cannot be 5"):
        smoke(game, 1, players=[3], options={"start_hp": 5})


def test_play_with_options(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", MECH, "-p", "3", "-s", "1", "-o", "start_hp=3", stdin="q\n",
                       monkeypatch=monkeypatch)
    assert code == 0
    assert "Options: start_hp=3, thorns=false." in out
    assert "player 0 (you): hp 3" in out


# ---- simulate: text stats and wins by seat -----------------------------------------

def with_stats(tmp_path, stats: str) -> str:
    text = Path(MECH).read_text(encoding="utf-8") + "\nstats:\n" + textwrap.indent(stats, "  ")
    path = tmp_path / "mech_stats.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_simulate_counts_text_stats(capsys, tmp_path):
    path = with_stats(tmp_path, textwrap.dedent("""\
        side: 'first(players).team if size(players) == 1 else "nobody"'
        survivors: size(players)
        long_game: 'turns if turns > 8 else none'
        thorny: thorns
        teams_left: 'unique(players.team)'
        """))
    code, out, _ = run(capsys, "simulate", path, "-p", "4", "-g", "30", "--json")
    assert code == 0
    report = json.loads(out)
    for key in ("games", "seconds", "decisions", "results", "stats"):
        assert key in report
    stats = report["stats"]
    side = stats["side"]["counts"]
    assert set(side) <= {"odd", "even"} and sum(side.values()) == 30
    assert list(side.values()) == sorted(side.values(), reverse=True)      # most frequent first
    assert stats["survivors"] == {"mean": 1.0, "min": 1, "max": 1}
    assert stats["thorny"] == {"counts": {"false": 30}}
    assert set(stats["teams_left"]["counts"]) <= {"[odd]", "[even]"}       # lists written as lists
    mixed = stats["long_game"]                                              # a number, or none
    assert mixed["numbers"] + mixed["counts"]["none"] == 30 and mixed["min"] > 8
    code, text, _ = run(capsys, "simulate", path, "-p", "4", "-g", "30")
    assert code == 0
    line = next(line for line in text.splitlines() if line.strip().startswith("side "))
    for value, n in side.items():
        assert f"{value} {n} ({n / 30:.0%})" in line
    assert re.search(r"long_game\s+mean [\d.]+  min \d+  max \d+  \(in \d+ games?\);  none \d+", text)


def test_simulate_text_shows_wins_by_seat_for_competitive_games(capsys):
    code, out, _ = run(capsys, "simulate", MECH, "-p", "3", "-g", "30", "-a", "heuristic,random", "--json")
    winners = json.loads(out)["results"]["winners"]
    assert code == 0 and set(winners) == {"0", "1", "2"} and sum(winners.values()) == 30
    _, text, _ = run(capsys, "simulate", MECH, "-p", "3", "-g", "30", "-a", "heuristic,random")
    lines = text.splitlines()
    start = lines.index("wins by seat:")
    for p, agent in enumerate(["heuristic", "random", "heuristic"]):
        n = winners[str(p)]
        assert re.fullmatch(rf"  player {p} \({agent}\)\s+{n}\s+{n / 30:.1%}", lines[start + 1 + p])


COOP = textwrap.dedent("""\
    name: Together
    players: {min: 2, max: 3}
    cards:
      - {name: X, count: 4}
    zones:
      deck: {visibility: hidden}
      done: {}
    choices:
      go:
        options:
          - {name: draw}
          - {name: quit}
    setup: move box to deck
    turn:
      phases:
        - name: play
          effect: |
            choose go
            if go.option == "quit":
              lose "gave up"
            move top(deck, 1) to done
            if size(deck) == 0:
              win "all drawn"
    """)


def test_simulate_text_for_co_operative_wins(capsys, tmp_path):
    path = tmp_path / "coop.yaml"
    path.write_text(COOP, encoding="utf-8")
    code, out, _ = run(capsys, "simulate", str(path), "-p", "2", "-g", "40")
    assert code == 0
    wins = int(re.search(r"win rate: .*\((\d+) of 40\)", out).group(1))
    assert 0 < wins < 40
    assert f"winners:   all players together, in each of the {wins} won games" in out
    assert "wins by seat" not in out


# ---- play: hidden variables and eliminated players -------------------------------------

def test_play_table_shows_hidden_variables_and_players_out():
    """Without a display: section, each player's variables are listed."""
    text = Path(MECH).read_text(encoding="utf-8")
    game = rulekit.load_game_text(text[:text.index("\ndisplay:")], str(MECH))
    m = prepare(game, 3, zones={"hand(0)": ["Hit"], "deck": ["Block"] * 4}, phase="play", out=[1],
                player_vars={p: {"hp": hp, "team": "odd" if p % 2 else "even"} for p, hp in enumerate([2, 0, 2])})
    who = lambda p: f"player {p}" + (" (you)" if p == 0 else "")  # noqa: E731
    lines = view_lines(m, 0, who)
    assert "  player 0 (you): hp 2 · team even · revealed false · plays 0" in lines
    assert "  player 1 — out: hp 0 · team (hidden) · revealed false · plays 0" in lines
    assert "  player 2: hp 2 · team (hidden) · revealed false · plays 0" in lines
    assert event_line({"event": "eliminate", "player": 1}, who) == "player 1 is out of the game"
    # once revealed, everybody sees the team
    m.pvars[1]["revealed"] = True
    assert "  player 1 — out: hp 0 · team odd · revealed true · plays 0" in view_lines(m, 2, who)


def test_play_table_shows_display_values_instead_of_variables():
    game = rulekit.load_game(MECH)
    m = prepare(game, 3, zones={"hand(0)": ["Hit"], "deck": ["Block"] * 4}, phase="play",
                player_vars={p: {"hp": 2} for p in range(3)})
    lines = view_lines(m, 0, lambda p: f"player {p}")
    assert "  player 0: hp 2 · distance none" in lines
    assert "  player 2: hp 2 · distance 1" in lines
    assert "      hand         1: Hit" in lines


def test_play_tells_the_person_when_they_are_out(capsys, monkeypatch):
    """Seat 1 has 1 hit point and always passes; the agents play on without it."""
    for seed in range(30):
        code, out, _ = run(capsys, "play", MECH, "-p", "3", "--seat", "1", "-s", str(seed), "-a", "random",
                           "-o", "start_hp=1", stdin="1\n" * 300, monkeypatch=monkeypatch)
        assert code == 0
        if "You are out of the game" in out:
            break
    else:
        pytest.fail("seat 1 was never eliminated in 30 games")
    assert out.count("You are out of the game") == 1 and "== game over" in out


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


def test_play_sanguosha_in_the_terminal(capsys, monkeypatch):
    """A person can play 三国杀 with 5 players: their hand, everyone's
    equipment, HP, distances and the lord are shown; prompts name the card
    asked for; bad input is asked again, never a traceback."""
    sgs = str(Path(__file__).resolve().parents[1] / "games" / "sanguosha")
    lines = ["x", "999", "", "?", "view", "log 5"] + ["1", "2", "nonsense", "1"] * 150
    code, out, err = run(capsys, "play", sgs, "-p", "5", "-s", "4", stdin="\n".join(lines) + "\n",
                         monkeypatch=monkeypatch)
    assert code == 0 and "Traceback" not in out + err
    assert "'x' is not an option" in out and "there is no option 999" in out
    assert "identity 主公" in out                      # the lord is shown to everyone
    assert re.search(r"player 0 \(you\): general \S+ · kingdom \S+ · identity \S+ · hp \d+", out)
    assert re.search(r"distance \d", out)
    assert re.search(r"^      hand         \d+: ", out, re.M)      # your own hand, by name
    assert re.search(r"^      hand         \d+ cards?, face down", out, re.M)   # the others'


def test_simulate_says_decided_for_competitive_games_and_win_rate_for_cooperative(capsys):
    example = str(ROOT / "docs" / "examples" / "last_card.yaml")
    code, out, _ = run(capsys, "simulate", example, "-p", "3", "-g", "20")
    assert code == 0 and "decided:   100.00% (20 of 20 games had winners" in out and "win rate" not in out
    code, out, _ = run(capsys, "simulate", GAME, "-p", "2", "-g", "20")
    assert code == 0 and "win rate:" in out and "decided:" not in out


def test_describe_shows_parameters_that_take_declared_names(capsys):
    code, out, _ = run(capsys, "describe", str(ROOT / "games" / "sanguosha"))
    assert code == 0
    assert "  has(p, skill: one of skill): — p is in the game and has the skill" in out
    assert "  confirm(p, what: one of skill_or_kind) (who: p)" in out


# ---- skills ------------------------------------------------------------------

SKILLS = str(ROOT / "tests" / "games" / "skills.yaml")   # skills double, steal and cheer (text in Chinese)


def test_describe_lists_skills_with_kind_and_text(capsys):
    code, out, _ = run(capsys, "describe", SKILLS)
    assert code == 0
    section = out.split("\nskills (3; one in full with --skill NAME):\n", 1)[1].split("\n\n", 1)[0]
    assert section.splitlines() == [
        "  double (active)", "      Play a card for twice the points, and the bonus.",
        "  steal (active, limited)", "      Name another player.",
        "  cheer (locked)", "      每当技能得分时，多得一分。"]
    assert "    - double: 1 card from hand(who); when has(who, \"double\")" in out   # where its option went


def test_describe_one_skill(capsys):
    code, out, _ = run(capsys, "describe", SKILLS, "--skill", "cheer")
    assert code == 0
    assert out.splitlines() == ["cheer (locked)", "  每当技能得分时，多得一分。",
                                "  adds: 1 trigger, procedure 'cheers'"]
    code, out, _ = run(capsys, "describe", SKILLS, "--skill", "DOUBLE")     # any case
    assert code == 0 and out.startswith("double (active)\n") and "option 'double' of choice 'play'" in out


@pytest.mark.parametrize("file, name, message", [
    (SKILLS, "dubble", "rulekit: error: Skills has no skill 'dubble'; did you mean 'double'?"),
    (SKILLS, "zzz", "rulekit: error: Skills has no skill 'zzz'; its skills: double, steal, cheer"),
    (GAME, "x", "rulekit: error: Regicide has no skills"),
])
def test_describe_an_unknown_skill_exits_2(capsys, file, name, message):
    code, out, err = run(capsys, "describe", file, "--skill", name)
    assert code == 2 and out == "" and err.strip() == message


def test_describe_a_game_without_skills_has_no_skills_section(capsys):
    assert "\nskills (" not in run(capsys, "describe", GAME)[1]


def test_play_shows_a_skills_text(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", SKILLS, "-p", "2",
                       stdin="?double\n? skill cheer\n?skills\n?dubble\n?\nq\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "Type ? for help, ?NAME for a skill's text." in out
    assert "?double\n  double (active)\n    Play a card for twice the points, and the bonus.\n" in out
    assert "? skill cheer\n  cheer (locked)\n    每当技能得分时，多得一分。\n" in out
    assert "adds:" not in out                                # what the author reads, not the player
    assert "?skills\n  skills (?NAME for one's text): double (active), steal (active, limited), cheer (locked)\n" \
        in out
    assert "?dubble\n  Skills has no skill 'dubble'; did you mean 'double'?\n" in out
    assert "  ?NAME       the text of a skill, e.g. ?double (also ?skill NAME; ?skills lists them)" in out
    assert "about 'play':\n  double: skill double — Play a card for twice the points, and the bonus.\n" in out


def test_play_help_of_a_game_without_skills_does_not_mention_them(capsys, monkeypatch):
    _, out, _ = run(capsys, "play", GAME, "-p", "2", stdin="?\n?x\nq\n", monkeypatch=monkeypatch)
    assert "?NAME" not in out and "Type ? for help." in out
    assert "  Regicide has no skills" in out


def test_play_shows_a_cards_properties_and_state(capsys, monkeypatch):
    """``?CARD``: a card's properties with the text of the skills they name;
    on the table, a card's state where it is not the starting one."""
    xiake = str(ROOT / "games" / "xiake")
    code, out, _ = run(capsys, "play", xiake, "-s", "3", stdin="?任清璇\n1\n1\nv\nq\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "?任清璇\n  任清璇: type hero, faction " in out and ", cost 3, attack 2, health 2, " in out
    assert "\n    成長\n      " in out                        # the ability's text follows
    assert re.search(r"row +1: \S+\[攻擊 \d+ 氣血 \d+ 位置 1 主 0 入場 1\]", out)
    assert "hand         " in out and "[" not in out.split("hand         ", 1)[1].split("\n", 1)[0]


def test_play_narrates_events_in_the_rule_files_words(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", GAME, "-p", "2", "--seat", "1", "--agents", "random",
                       stdin="1\n" * 300, monkeypatch=monkeypatch)
    assert code == 0
    assert re.search(r"\n  player 0 \(random\) deals \d+ to \S+: \d+ of its \d+\n", out)
    assert re.search(r"\n  \S+ attacks player 1 \(you\) for \d+ \(shield \d+\)\n", out)


def test_play_says_unanswered_windows_in_one_line_and_every_identity_at_the_end(capsys, monkeypatch):
    sgs = str(ROOT / "games" / "sanguosha")
    code, out, _ = run(capsys, "play", sgs, "-p", "5", "--seed", "2", "--agents", "random",
                       stdin=numbers(30000), monkeypatch=monkeypatch)
    assert code == 0
    lines = out.splitlines()
    passes = [line for line in lines if line.endswith(" — nullify: pass")]
    assert passes and any(line.count("player ") > 1 for line in passes)       # several seats, one line
    assert not any(a == b for a, b in zip(lines, lines[1:]) if a.endswith(": pass"))
    end = out.split("== game over", 1)[1]
    assert all(re.search(rf"player {p} \([^)]*\): role \S+", end) for p in range(5))
    assert "phase None" not in out and "player player" not in out


def test_play_shows_each_generals_skills_when_choosing_one(capsys, monkeypatch):
    sgs = str(ROOT / "games" / "sanguosha")
    _, out, _ = run(capsys, "play", sgs, "-p", "5", "--seed", "4", stdin="q\n", monkeypatch=monkeypatch)
    first = out.split("\npick_general:", 1)[1].split("your choice", 1)[0].splitlines()
    assert re.match(r"\s+1\. \S+", first[1])
    assert re.match(r"\s{7}\S+: .+", first[2])          # its skill, with the text


def test_option_numbers_stay_put_within_a_turn(capsys, monkeypatch):
    """Discarding card by card to absorb an attack: after "1" the other
    cards keep their numbers and "1" is refused rather than meaning another
    card; a new turn numbers from 1 again."""
    from rulekit.cli.numbering import OptionNumbers
    from rulekit.engine.runtime import Action, Decision

    cards = [Action("discard", (c,)) for c in (7, 8, 9)]
    numbers = OptionNumbers()
    first = numbers.number(Decision(0, "pay", "", cards), turn=2)
    assert first == [(1, cards[0]), (2, cards[1]), (3, cards[2])]
    drawn = Action("discard", (11,))
    again = numbers.number(Decision(0, "pay", "", [cards[1], drawn, cards[2]]), turn=2)
    assert again == [(2, cards[1]), (3, cards[2]), (4, drawn)]
    assert numbers.number(Decision(0, "pay", "", cards[1:]), turn=3) == [(1, cards[1]), (2, cards[2])]
    assert numbers.number(Decision(0, "play", "", cards[1:]), turn=3)[0] == (1, cards[1])

    # in a whole game: answering "1" again once card 1 has gone is refused
    _, out, _ = run(capsys, "play", GAME, "-p", "2", stdin="1\n" * 12 + "q\n", monkeypatch=monkeypatch)
    assert "there is no option 1: choose 2-" in out
