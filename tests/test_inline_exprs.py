"""A procedure whose text is ``return <expression>`` is written in place of
its calls (rulekit.lang.inline_exprs): the games must be exactly the same,
only faster."""
from __future__ import annotations

import random
import re

from game_files import game_path

import rulekit
import rulekit.loader

GAME = """\
name: Inline
players: {min: 2, max: 2}
cards:
  - {name: a, count: 4, props: {kind: a}}
zones:
  deck: {}
player_vars: {tags: []}
procedures:
  has:
    params: [p, tag]
    effect: return tag in p.tags
  twice:
    params: [n]
    effect: return n + n
setup: |
  move box to deck
  current.tags = ["x"]
turn:
  phases:
    - name: main
      effect: |
        if has(current, "x") and twice(size(deck)) == 8 and has(next(current), "y") == false:
          win for [current] "tagged"
        win for players "untagged"
"""


def function(code: str, name: str) -> str:
    found = re.search(rf"^def {name}\(.*?(?=^def |\Z)", code, re.S | re.M)
    assert found, name
    return found.group(0)


def test_a_call_with_plain_arguments_is_written_in_place_and_others_are_calls():
    game = rulekit.load_game_text(GAME, "inline.yaml")
    flow = function(game.code, "turn")
    # has(current, "x"): inlined; twice(size(deck)) and has(next(current), ...): calls
    assert "'x' in " in flow
    assert flow.count("proc_has(m") == 1 and flow.count("proc_twice(m") == 1
    m = game.new_match(2, seed=1)
    assert m.result()["reason"] == "tagged"


def _logs(game: rulekit.Game, games: int = 6) -> list[str]:
    out = []
    for seed in range(games):
        m = game.new_match(5, seed=seed, auto_pass=True)
        rng = random.Random(seed)
        while m.decision is not None:
            m.apply(rng.randrange(len(m.decision.options)))
        out.append(m.log_json())
    return out


def test_sanguosha_plays_the_same_games_with_and_without_inlining(monkeypatch):
    inlined = rulekit.load_game(game_path("sanguosha"))
    assert "'马术' in " in function(inlined.code, "turn") or "'马术' in " in inlined.code
    monkeypatch.setattr(rulekit.loader, "expression_procs", lambda *a: {})
    called = rulekit.load_game(game_path("sanguosha"))
    assert "'马术' in " not in called.code
    assert _logs(inlined) == _logs(called)
