"""The benchmark scripts run, and their three versions of Regicide play the
same game: the engine running games/regicide.yaml, the plain hand-written
game and the hand-compiled yardstick (which plays exactly the engine's
games).  (Speed itself is measured by running the scripts, never asserted
here.)"""
from __future__ import annotations

import functools
import shutil
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
    _, u_dec, u_def = ceiling_regicide.unchecked_round(players, GAMES, 1)
    # the yardstick makes the same random draws as the engine: the same games,
    # with or without apply
    assert (c_dec, c_def) == (e_dec, e_def) == (u_dec, u_def)
    # the hand-written game draws differently; over 600 games the means agree
    # closely (about 18 decisions and 1.6 enemies defeated per game)
    assert abs(e_dec - h_dec) / GAMES < 1.0
    assert abs(e_def - h_def) / GAMES < 0.15


def test_scripts_print_their_tables(capsys):
    assert ceiling_regicide.main(["--games", "20", "--rounds", "1"]) == 0
    assert bench_regicide.main(["--games", "20", "--rounds", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "ceiling games/s" in out and "ratio" in out


def _in_git_work_tree() -> bool:
    import subprocess

    try:
        return subprocess.run(["git", "-C", str(BENCH.parent), "rev-parse", "HEAD"],
                              capture_output=True).returncode == 0
    except OSError:
        return False


@pytest.mark.skipif(not _in_git_work_tree(), reason="compare.py checks revisions out with git")
def test_compare_times_a_revision_against_the_working_tree_and_cleans_up(capsys):
    import subprocess

    import compare

    def worktrees() -> str:
        return subprocess.run(["git", "-C", str(BENCH.parent), "worktree", "list"],
                              capture_output=True, text=True).stdout

    before = worktrees()
    assert compare.main(["HEAD", "--games", "5", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "HEAD: best" in out and "working tree: best" in out and "B/A: all games" in out
    assert worktrees() == before


@pytest.mark.parametrize("frozen", [False, True])
def test_compare_worker_plays_the_games_asked_and_freezes_only_with_frozen(frozen):
    """A revision's worker answers "ready", then a CPU time for each game
    it is given; with --frozen, in any revision, what the load left alive
    is out of the collector's passes and the youngest generation waits for
    as many objects as in ``rulekit.settled``."""
    import subprocess

    import compare

    from rulekit.engine.settled import YOUNG
    assert compare.young_threshold() == YOUNG
    code = compare.WORKER.format(game="regicide", players=2, heuristic=False, settled=False, frozen=frozen,
                                 young=YOUNG, warm=1, rules=".")
    code += (f"\nimport gc\nassert (gc.get_freeze_count() > 0) == {frozen}, gc.get_freeze_count()"
             f"\nassert (gc.get_threshold()[0] == {YOUNG}) == {frozen}, gc.get_threshold()\n")
    run = subprocess.run([sys.executable, "-c", code], input="0\n1\n", cwd=BENCH.parent,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    ready, *times = run.stdout.split()
    assert ready == "ready" and len(times) == 2 and all(float(t) > 0 for t in times)


@pytest.mark.skipif(not _in_git_work_tree(), reason="compare.py checks revisions out with git")
def test_compare_with_rules_plays_the_rule_files_of_that_revision_on_both_sides(capsys, monkeypatch):
    """``--rules REV``: both revisions load the game from REV's checkout
    (the engines compared on the same rule files), and say so."""
    import compare

    loaded = []

    class Recording:
        def __init__(self, where, code, hash_seed):
            loaded.append((where, code))

        def play(self, i):
            return 1e-4

        def close(self):
            pass

    monkeypatch.setattr(compare, "compare", functools.partial(compare.compare, start=Recording))
    assert compare.main(["HEAD", "--games", "2", "--rounds", "1", "--rules", "HEAD"]) == 0
    assert "the rules of HEAD" in capsys.readouterr().out
    (a, code_a), (b, code_b) = loaded
    assert a != b and code_a == code_b
    rules = code_a.split('rules = os.path.join(', 1)[1].split(",", 1)[0]
    assert "rules" in rules and str(b) not in rules       # a third checkout: the rules' revision


def test_compare_takes_one_way_of_comparing():
    import compare

    with pytest.raises(SystemExit):
        compare.main(["HEAD", "--settled", "--frozen"])


def test_compare_plays_the_same_games_on_both_sides_in_turn_with_a_hash_seed_per_round():
    """Each game is played by A and B one after the other, the first of the
    pair changing from game to game; a round's two processes share its hash
    seed, and each round has new processes with a seed of its own."""
    import compare

    played: list[tuple[str, int, int]] = []
    started: list[tuple[str, int]] = []

    class Fake:
        def __init__(self, where, code, seed):
            self.where, self.seed = where, seed
            started.append((where, seed))

        def play(self, i):
            played.append((self.where, i, self.seed))
            return 0.001 if self.where == "A" else 0.002

        def close(self):
            pass

    times_a, times_b = compare.compare("A", "B", "", games=3, rounds=2, start=Fake)
    assert started == [("A", 1), ("B", 1), ("A", 2), ("B", 2)]
    assert played == [("A", 0, 1), ("B", 0, 1), ("B", 1, 1), ("A", 1, 1), ("A", 2, 1), ("B", 2, 1),
                      ("B", 3, 2), ("A", 3, 2), ("A", 4, 2), ("B", 4, 2), ("B", 5, 2), ("A", 5, 2)]
    assert times_a == pytest.approx([1000.0, 1000.0]) and times_b == pytest.approx([2000.0, 2000.0])


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="icount.py counts with valgrind")
def test_icount_counts_the_instructions_of_a_run():
    import icount

    bare = icount.instructions("pass")
    more = icount.instructions("sum(range(200000))")
    assert 0 < bare < more


def test_icount_leaves_out_loading(monkeypatch):
    """Per game is (a run of G games - a run of none) / G."""
    import icount

    monkeypatch.setattr(icount, "instructions", lambda script: 1_000 + 70 * int("range(5)" in script))
    assert icount.per_game("for i in range({games}): pass", 5) == 14


@pytest.mark.parametrize("heuristic,frozen", [(False, False), (True, False), (False, True)])
def test_icount_plays_the_games_it_counts(heuristic, frozen):
    """The script valgrind runs plays whole games, with either agent (run
    here without valgrind: it must work in any revision's checkout); with
    --frozen, what the load left alive is out of the collector's passes."""
    import subprocess

    import icount

    template = icount.frozen(icount.ENGINE) if frozen else icount.ENGINE
    script = template.format(root=str(BENCH.parent), game="regicide", players=2, games=2, heuristic=heuristic)
    script += "\nassert m.result() is not None and len(m.actions) > 5, m.actions\n"
    script += f"\nimport gc\nassert (gc.get_freeze_count() > 10_000) == {frozen}, gc.get_freeze_count()\n"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_icount_split_replays_the_heuristic_games_it_recorded(tmp_path):
    """--split counts a replay of the heuristic games' answers: the replay
    plays each recorded game to its end with exactly its answers (run here
    without valgrind)."""
    import json
    import subprocess

    import icount

    root = str(BENCH.parent)
    answers = str(tmp_path / "answers.json")
    icount.record(root, "regicide", 2, 3, answers)
    recorded = json.loads(Path(answers).read_text())
    assert len(recorded) == 3 and all(len(game) > 5 for game in recorded)
    script = icount.REPLAY.format(root=root, game="regicide", players=2, games=3, answers=answers)
    script += "\nassert m.decision is None and len(m.actions) == len(answers[-1]), m.actions\n"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_icount_rl_plays_the_same_games_at_every_level(tmp_path):
    """The script callgrind runs plays whole games at each level, the same
    steps at all of them (run here without valgrind: its two waits are
    answered before it starts)."""
    import subprocess

    import icount_rl

    for name in ("ready.go", "done.go"):
        (tmp_path / name).touch()
    steps = set()
    for level in icount_rl.LEVELS:
        script = icount_rl.SCRIPT.format(root=str(BENCH.parent), game="regicide", players=2, games=2,
                                         level=level, flags=str(tmp_path))
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        word, n = run.stdout.split()
        assert word == "steps" and int(n) > 10, run.stdout
        steps.add(int(n))
    assert len(steps) == 1, steps


def test_a_checkout_run_by_the_scripts_reads_its_own_grammar(tmp_path):
    """An older rulekit reads its grammar as the package ``rulekit.grammar``,
    which the installed rulekit maps to its own checkout's folder: the
    scripts that run another checkout (compare, icount, icount_rl) make it
    that checkout's folder, so an old revision is not timed with a newer
    grammar."""
    import subprocess

    import compare
    import icount
    import icount_rl
    from revision import OWN_GRAMMAR

    for script in (compare.WORKER, icount.LOAD, icount_rl.SCRIPT):
        assert script.index(OWN_GRAMMAR) < script.index("import rulekit")
    (tmp_path / "grammar").mkdir()
    (tmp_path / "grammar" / "__init__.py").write_text('"""an older checkout\'s grammar"""\n')
    (tmp_path / "grammar" / "effects.lark").write_text("// the older grammar\n")
    code = (f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n" + OWN_GRAMMAR
            + "sys.path.pop(0)\nfrom importlib import resources\n"
            + "print(resources.files('rulekit.grammar').joinpath('effects.lark').read_text())\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "// the older grammar"
