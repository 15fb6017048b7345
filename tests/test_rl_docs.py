"""docs/rl.md says what the environments are: its examples run and its
table of sizes is what the code gives."""
from __future__ import annotations

import re

import numpy as np
import pytest
from game_files import ROOT
from rl_kit import load

import rulekit
import rulekit.rl as rl

DOC = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")


def python_blocks() -> list[str]:
    return [b.split("```", 1)[0] for b in DOC.split("```python\n")[1:]]


def test_the_ten_line_loop_plays_a_match(monkeypatch, capsys):
    loop = python_blocks()[0]
    assert len(loop.strip().splitlines()) <= 11
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    exec(compile(loop, "docs/rl.md", "exec"), scope)
    assert scope["env"].match.result() is not None
    assert capsys.readouterr().out.strip() == str(scope["env"].match.result()["winners"])


def test_the_reward_hook_example_adds_to_the_rewards(monkeypatch):
    monkeypatch.chdir(ROOT)
    scope: dict = {"rulekit": rulekit}
    exec(compile(python_blocks()[1], "docs/rl.md", "exec"), scope)
    env = scope["env"]
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    shaped = 0.0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        shaped += reward
        env.step(None if terminated else int(rng.choice(obs["action_mask"].nonzero()[0])))
    assert shaped != sum(rl.outcome_rewards(env.match.result(), 5, False))


ROW = re.compile(r"^\| `([^`]+)` \| (\d+) \| ([\d,]+) \| ([\d,]+) \| (\d+) \| (\d+) \| (\d+) \|$", re.M)


def _rows():
    return [(path, int(n), *(int(x.replace(",", "")) for x in rest)) for path, n, *rest in ROW.findall(DOC)]


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r[0]}-{r[1]}p")
def test_the_table_of_sizes_is_measured(row):
    path, players, catalogue, observation, words, k, width = row
    game = load(ROOT / path)
    assert rl.ActionCatalogue(game, players).n == catalogue
    enc = rl.ObservationEncoder(game, players)
    assert (enc.size, len(enc.vocab)) == (observation, words)
    features = rl.ActionFeatures(game, players)
    assert (features.k, features.width) == (k, width)


def test_the_table_has_every_game_and_player_count():
    from game_files import game_files
    listed = {(path, n) for path, n, *_ in _rows()}
    for p in game_files():
        game = load(p)
        rel = str((p.parent if p.name == "game.yaml" else p).relative_to(ROOT))
        assert {(rel, n) for n in range(game.min_players, game.max_players + 1)} <= listed


def test_the_readme_example_makes_the_environments(monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("### Learning environments", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    exec(compile(block, "README.md", "exec"), scope)
    assert scope["env"].agents == [f"player_{p}" for p in range(8)]
    assert scope["env"].match.log_json() == load(ROOT / "games" / "sanguosha").new_match(8, seed=7).log_json()
    assert scope["solo"].action_space.n == rl.ActionCatalogue(load(ROOT / "games" / "regicide.yaml"), 1).n
