"""Games and matches pickle, so a program can hand them to other processes
(``multiprocessing``, a process pool, a cluster's workers).

A game's compiled code cannot be pickled: a game pickles as where it was
loaded from and a digest of its files, and is loaded again, once a process
(in the process that loaded it, it is that game).  A match pickles as its
game and its ``save()``: its decisions are played again."""
from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit

ROOT = Path(__file__).resolve().parents[1]
SANGUOSHA = ROOT / "games" / "sanguosha"
LAST_CARD = ROOT / "docs" / "examples" / "last_card.yaml"


def played(game: rulekit.Game, players: int, seed: int, steps: int) -> rulekit.Match:
    m = game.new_match(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.decision is None:
            break
        m.apply(rng.randrange(len(m.decision.options)))
    return m


def play_on(m: rulekit.Match, seed: int, steps: int) -> str:
    rng = random.Random(seed)
    for _ in range(steps):
        if m.decision is None:
            break
        m.apply(rng.randrange(len(m.decision.options)))
    return m.log_json()


def test_a_match_pickles_as_itself_and_plays_on_the_same():
    game = rulekit.load_game(SANGUOSHA)
    m = played(game, 5, seed=3, steps=60)
    back = pickle.loads(pickle.dumps(m))
    assert back.game is game                    # loaded here: the same game
    assert back.log_json() == m.log_json() and back.decision == m.decision
    assert play_on(back, 9, 80) == play_on(m, 9, 80)
    assert pickle.loads(pickle.dumps(game)) is game


def test_a_closed_match_unpickles_closed():
    m = played(rulekit.load_game(SANGUOSHA), 5, seed=3, steps=20)
    m.close()
    back = pickle.loads(pickle.dumps(m))
    assert back.decision is None and back.log_json() == m.log_json()
    with pytest.raises(rulekit.IllegalAction, match="the match is over"):
        back.apply(0)


def test_another_process_in_another_folder_loads_the_game_and_plays_on_the_same(tmp_path):
    game = rulekit.load_game(os.path.relpath(SANGUOSHA))     # (a path that names it only from here)
    m = played(game, 5, seed=4, steps=50)
    (tmp_path / "m.pickle").write_bytes(pickle.dumps(m))
    script = ("import pickle, random, sys\n"
              "m = pickle.load(open('m.pickle', 'rb'))\n"
              "rng = random.Random(9)\n"
              "for _ in range(80):\n"
              "    if m.decision is None: break\n"
              "    m.apply(rng.randrange(len(m.decision.options)))\n"
              "sys.stdout.write(m.log_json())\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == play_on(m, 9, 80)


def test_a_game_whose_files_changed_since_it_was_pickled_is_refused(tmp_path):
    path = tmp_path / "last.yaml"
    path.write_text(LAST_CARD.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "m.pickle").write_bytes(pickle.dumps(played(rulekit.load_game(path), 2, seed=1, steps=5)))
    path.write_text(LAST_CARD.read_text(encoding="utf-8").replace("deal: {2: 7,", "deal: {2: 6,"),
                    encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", "import pickle; pickle.load(open('m.pickle', 'rb'))"],
                         cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert run.returncode == 1
    assert f"ValueError: the rule files of Last Card ({path}) changed since the game was pickled" in run.stderr


def test_a_game_loaded_from_text_carries_its_text(tmp_path):
    game = rulekit.load_game_text(LAST_CARD.read_text(encoding="utf-8"), "in memory.yaml")
    m = played(game, 3, seed=2, steps=20)
    (tmp_path / "m.pickle").write_bytes(pickle.dumps(m))
    script = ("import pickle, sys\n"
              "m = pickle.load(open('m.pickle', 'rb'))\n"
              "sys.stdout.write(m.game.file + ' ' + m.log_json())\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "in memory.yaml " + m.log_json()


def test_a_resampled_copy_is_not_pickled_as_the_match_it_was_drawn_from():
    m = played(rulekit.load_game(SANGUOSHA), 5, seed=3, steps=30)
    with pytest.raises(ValueError, match="cannot be saved or pickled"):
        pickle.dumps(m.resample(m.decision.player, random.Random(1)))


def test_a_learning_environment_pickles_mid_match_and_plays_on_the_same():
    """Its match pickles as above; its encoder, catalogue and pooled arrays
    are made again and its observations written afresh."""
    np = pytest.importorskip("numpy")
    rl = pytest.importorskip("rulekit.rl", reason="the rl extra")

    def step(env, rng):
        obs, _, done, cut, _ = env.last()
        env.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))

    env = rl.env(SANGUOSHA, players=5)
    env.reset(seed=3)
    warm = np.random.default_rng(0)
    for _ in range(40):
        step(env, warm)
    again = pickle.loads(pickle.dumps(env))
    rngs = np.random.default_rng(5), np.random.default_rng(5)
    for _ in range(150):
        if not env.agents:
            break
        (o1, *rest1), (o2, *rest2) = env.last(), again.last()
        assert env.agent_selection == again.agent_selection and rest1 == rest2
        assert all(np.array_equal(o1[k], o2[k]) for k in o1)
        step(env, rngs[0])
        step(again, rngs[1])
    assert again.match.log_json() == env.match.log_json()
    solo = rl.GymEnv(ROOT / "games" / "regicide.yaml")
    obs, _ = solo.reset(seed=1)
    copy = pickle.loads(pickle.dumps(solo))
    first = int(np.flatnonzero(obs["action_mask"])[0])
    (a, *ra), (b, *rb) = solo.step(first), copy.step(first)
    assert np.array_equal(a["observation"], b["observation"]) and ra == rb
