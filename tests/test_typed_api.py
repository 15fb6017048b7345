"""A library user's type checker sees rulekit's types: the package ships
``py.typed``, and the calls a program makes (load a game, start a match,
answer its decisions, copy it, simulate, step a learning environment) are
annotated, so ``mypy --strict`` on the user's code knows a Match from a
Game and an optional decision from a present one, rather than ``Any`` that
lets every mistake through.  The examples the README and the authoring
guide show pass it as written."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("mypy", reason="mypy comes with the test extra")

USER_CODE = '''
import random
import rulekit
from rulekit.agents import HeuristicAgent, make_agents

game = rulekit.load_game("games/regicide.yaml")
reveal_type(game)
m = game.new_match(players=2, seed=1, auto_pass=True)
reveal_type(m)
reveal_type(m.decision)
reveal_type(m.legal_actions())
reveal_type(m.clone())
reveal_type(m.resample(0, random.Random(1)))
reveal_type(rulekit.Match.restore(game, m.save()))
reveal_type(make_agents("random", 2))
reveal_type(rulekit.simulate(game, 2, 10))
reveal_type(m.result())
decision = m.decision
if decision is not None:
    reveal_type(HeuristicAgent(seed=1).act(m, decision))
HeuristicAgent(seed=1).act(m, m.decision)       # the decision may be None: an error
game.new_match(2, seed=1, auto_pas=True)        # a misspelt option: an error
'''

#: what the checker must say of each line of USER_CODE that reveals a type
REVEALED = {
    "reveal_type(game)": "rulekit.model.Game",
    "reveal_type(m)": "rulekit.engine.match.Match",
    "reveal_type(m.decision)": "fallback=rulekit.engine.runtime.Decision] | None",
    "reveal_type(m.legal_actions())": "fallback=rulekit.engine.runtime.Action]]",
    "reveal_type(m.clone())": "rulekit.engine.match.Match",
    "reveal_type(m.resample(0, random.Random(1)))": "rulekit.engine.match.Match",
    "reveal_type(rulekit.Match.restore(game, m.save()))": "rulekit.engine.match.Match",
    'reveal_type(make_agents("random", 2))': "list[rulekit.agents.Agent]",
    "reveal_type(rulekit.simulate(game, 2, 10))": "dict[str, Any]",
    "reveal_type(m.result())": "dict[str, Any] | None",
    "reveal_type(HeuristicAgent(seed=1).act(m, decision))": "fallback=rulekit.engine.runtime.Action]",
}


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def mypy(tmp_path: Path, files: dict[str, str]) -> list[str]:
    """``mypy --strict`` on ``files`` as a user's modules, rulekit found in
    the checkout (errors inside rulekit are not the user's: not shown)."""
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
         "--cache-dir", str(tmp_path / "cache"), *(str(tmp_path / name) for name in files)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode in (0, 1), run.stdout + run.stderr     # 2: mypy itself failed
    return run.stdout.splitlines()


def test_a_users_type_checker_knows_rulekits_types(tmp_path):
    lines = mypy(tmp_path, {"user.py": USER_CODE})
    source = USER_CODE.splitlines()
    said: dict[str, str] = {}
    errors = []
    for line in lines:
        found = re.match(r".*user\.py:(\d+): (note|error): (.*)", line)
        assert found, line
        number, kind, text = int(found.group(1)), found.group(2), found.group(3)
        if kind == "note" and text.startswith("Revealed type is "):
            said[source[number - 1].strip()] = text
        elif kind == "error":
            errors.append(source[number - 1].strip().split("#")[0].strip())
    for call, wanted in REVEALED.items():
        assert call in said, f"{call}: nothing revealed ({lines})"
        assert wanted in said[call], f"{call}: {said[call]}"
        assert '"Any"' not in said[call], said[call]
    assert errors == ["HeuristicAgent(seed=1).act(m, m.decision)",
                      "game.new_match(2, seed=1, auto_pas=True)"], lines


RL_CODE = '''
import rulekit.rl

env = rulekit.rl.env("games/regicide.yaml", players=2)
env.reset(seed=1)
reveal_type(env.match)
reveal_type(env.observe("player_0"))
reveal_type(env.last())
reveal_type(env.action_space("player_0"))
solo = rulekit.rl.GymEnv("games/regicide.yaml")
reveal_type(solo.reset(seed=1))
reveal_type(solo.match)
'''


def test_the_learning_environments_types_are_seen_too(tmp_path):
    pytest.importorskip("pettingzoo", reason="the rl extra")
    lines = mypy(tmp_path, {"rl_user.py": RL_CODE})
    source = RL_CODE.splitlines()
    said = {}
    for line in lines:
        found = re.match(r".*rl_user\.py:(\d+): note: Revealed type is (.*)", line)
        assert found, line          # no error
        said[source[int(found.group(1)) - 1].strip()] = found.group(2)
    assert said["reveal_type(env.match)"] == '"rulekit.engine.match.Match"'
    assert said["reveal_type(solo.match)"] == '"rulekit.engine.match.Match"'
    assert said['reveal_type(env.observe("player_0"))'].startswith('"dict[str, numpy.ndarray')
    assert said["reveal_type(env.last())"].startswith('"tuple[dict[str, numpy.ndarray')
    assert "Discrete" in said['reveal_type(env.action_space("player_0"))']
    assert said["reveal_type(solo.reset(seed=1))"].startswith('"tuple[dict[str, numpy.ndarray')


def test_an_environments_match_before_its_first_reset_says_to_reset(tmp_path):
    rl = pytest.importorskip("rulekit.rl", reason="the rl extra")
    path = ROOT / "games" / "regicide.yaml"
    for env in (rl.env(path, players=2), rl.GymEnv(path)):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            _ = env.match


def test_the_documented_library_examples_pass_a_strict_type_checker(tmp_path):
    blocks = {"readme_library.py": python_blocks(ROOT / "README.md")[0],
              "guide_testing.py": python_blocks(ROOT / "docs" / "authoring.md")[0]}
    assert "game.new_match" in blocks["readme_library.py"] and "prepare(" in blocks["guide_testing.py"]
    assert mypy(tmp_path, blocks) == []
