"""A variable or shown value declared ``one_of: SET`` holds names of its
SET, in play; one declared ``number: true`` a number or none (or a text in
its place); a variable declared ``holds: cards``, a list of cards.

The observation encodes such a value over its SET alone
(rulekit/rl/observation.py): a value outside it would land in the
"other" entry and lose what it was without a word; a number-or-none is
two entries, a list of cards its count.  The loader checks the starting
value only; this plays random and heuristic matches of every shipped game
and checks every declared value, for every viewer, at every decision.
"""
from __future__ import annotations

import random

import pytest
from game_files import game_files, game_id
from rl_kit import load

from rulekit.agents import HeuristicAgent
from rulekit.engine.runtime import Card
from rulekit.rl import ObservationEncoder

DECLARING = [p for p in game_files() if load(p).var_sets or load(p).var_kinds]


def held(match, section: str, name: str) -> list[tuple]:
    """(seat, or (viewer, player), or None; value) of each value of a declared entry now."""
    if section == "vars":
        return [(None, match.vars[name])]
    if section == "player_vars":
        return list(enumerate(p[name] for p in match.pvars))
    n = match.n
    if section == "public":
        return [(v, match.game.public[name](match, v)) for v in range(n)]
    fn = match.game.display[name]
    return [((v, p), fn(match, v, p)) for v in range(n) for p in range(n)]


def outside(match) -> list[tuple]:
    """(section, name, seat or None, value) of every declared value now
    holding something not in its SET (a text may be "": no name yet), not a
    number or none (``number: true``; a text such as "-" may stand for none)
    or not a list of cards (``holds: cards``)."""
    bad = []
    for (section, name), kind in match.game.var_kinds.items():
        for seat, v in held(match, section, name):
            ok = (type(v) in (int, float) or v is None or type(v) is str) if kind == "number" else \
                (isinstance(v, list) and all(isinstance(c, Card) for c in v))
            if not ok:
                bad.append((section, name, seat, v))
    for (section, name), names in match.game.var_sets.items():
        allowed = set(names)
        for seat, v in held(match, section, name):
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
    game declaring none would pass the test below without checking anything),
    and the identity games their shown kingdoms, identities and distances."""
    assert {game_id(p) for p in DECLARING} >= {"sanguosha", "wulinsha", "xiake"}
    for p in DECLARING:
        if game_id(p) in ("sanguosha", "wulinsha"):
            game = load(p)
            assert ("display", "identity") in game.var_sets
            assert game.var_kinds[("display", "distance")] == "number"
            assert game.var_kinds[("player_vars", "lent")] == "cards"


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
    assert outside(m) == [("player_vars", "role", 1, "间谍"), ("player_vars", "skills", 2, ["not a skill"]),
                          ("display", "identity", (1, 1), "间谍")]     # (shown to its owner only)
    enc = ObservationEncoder(game, 5)
    layout = dict(enc.observation_layout())
    own = enc.observe(m, 1)[layout["role(+0)"]]
    assert own[-1] == 1 and own[1:-1].sum() == 0
    assert len(enc.part_words("role(+0)")) == 4


def test_a_shown_value_outside_its_set_or_not_a_number_is_found():
    """The check covers display values, for every viewer: a kingdom no card
    has, a distance that is a list, and a list of cards holding a name."""
    game = load(next(p for p in DECLARING if game_id(p) == "sanguosha"))
    m = game.new_match(4, seed=0)
    assert outside(m) == []
    m.pvars[3]["lent"] = ["杀"]
    display = dict(game.display)
    game.display["kingdom"] = lambda match, viewer, player: "秦" if player == 2 else "-"
    game.display["distance"] = lambda match, viewer, player: [1]
    try:
        bad = outside(m)
    finally:
        game.display.clear()
        game.display.update(display)
    assert ("player_vars", "lent", 3, ["杀"]) in bad
    assert ("display", "distance", (0, 0), [1]) in bad
    assert [b[2] for b in bad if b[1] == "kingdom"] == [(v, 2) for v in range(4)]
