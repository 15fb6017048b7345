"""A variable declared ``one_of: SET`` holds names of its SET, in play.

The observation encodes such a variable over its SET alone
(rulekit/rl/observation.py): a value outside it would land in the
"other" entry and lose what it was without a word.  The loader checks the
starting value only; this plays random and heuristic matches of every
shipped game and checks every declared variable at every decision.
"""
from __future__ import annotations

import random

import pytest
from game_files import game_files, game_id
from rl_kit import load

from rulekit.agents import HeuristicAgent
from rulekit.rl import ObservationEncoder

DECLARING = [p for p in game_files() if load(p).var_sets]


def outside(match) -> list[tuple]:
    """(section, variable, seat or None, value) of every declared variable
    now holding something not in its SET (a text may be "": no name yet)."""
    bad = []
    for (section, name), names in match.game.var_sets.items():
        allowed = set(names)
        held = [(None, match.vars[name])] if section == "vars" else list(enumerate(p[name] for p in match.pvars))
        for seat, v in held:
            items = v if isinstance(v, list) else [v]
            if isinstance(v, list) and any(type(x) is not str for x in v) or \
                    any(x not in allowed and not (x == "" and not isinstance(v, list)) for x in items):
                bad.append((section, name, seat, v))
    return bad


def play(game, players: int, seed: int, heuristic: bool):
    """Yield the match at every decision of one match."""
    m = game.new_match(players, seed=seed)
    rng, agent = random.Random(seed), HeuristicAgent(seed)
    while m.decision is not None:
        yield m
        if heuristic:
            m.apply(agent.act(m, m.decision))
        else:
            m.apply(rng.randrange(len(m.decision.options)))


def test_the_shipped_games_declare_their_names():
    """三国杀, 武林杀 and 俠客 declare their text and list variables (a
    game declaring none would pass the test below without checking anything)."""
    assert {game_id(p) for p in DECLARING} >= {"sanguosha", "wulinsha", "xiake"}


@pytest.mark.parametrize("path", DECLARING, ids=game_id)
@pytest.mark.parametrize("heuristic", [False, True], ids=["random", "heuristic"])
def test_a_declared_variable_holds_only_names_of_its_set(path, heuristic):
    game = load(path)
    players = min(max(game.min_players, 8), game.max_players)
    seen = 0
    for seed in range(3):
        for m in play(game, players, seed, heuristic):
            assert outside(m) == [], f"seed {seed}, turn {m.turn}"
            seen += 1
    assert seen > 100


def test_a_value_outside_its_set_is_found_and_encoded_as_other():
    """The check above can fail: a role that is not one of the identities
    is reported, and the observation shows it only as "other"."""
    game = load(next(p for p in DECLARING if game_id(p) == "sanguosha"))
    m = game.new_match(5, seed=0)
    assert outside(m) == []
    m.pvars[1]["role"] = "间谍"
    m.pvars[2]["skills"] = ["not a skill"]
    assert outside(m) == [("player_vars", "role", 1, "间谍"), ("player_vars", "skills", 2, ["not a skill"])]
    enc = ObservationEncoder(game, 5)
    layout = dict(enc.observation_layout())
    own = enc.observe(m, 1)[layout["role(+0)"]]
    assert own[-1] == 1 and own[1:-1].sum() == 0
    assert len(enc.part_words("role(+0)")) == 4
