"""Legal actions as feature vectors: each row describes its action exactly,
K is fixed per game and player count, and a game whose actions cannot all
be numbered is played this way."""
from __future__ import annotations

import numpy as np
import pytest
from game_files import game_path
from rl_kit import ANY_NUMBER, case_id, cases, load, random_decisions

import rulekit
import rulekit.rl as rl
from rulekit.rl.features import PROBE_MATCHES, _most_actions


def decode(f: rl.ActionFeatures, row: np.ndarray, decider: int) -> tuple:
    parts = {name: row[s] for name, s in f.layout()}
    (option,) = np.flatnonzero(parts["option"])
    seats = np.flatnonzero(parts["player"])
    numbers = np.flatnonzero(parts["number"])
    return (f.names[option], tuple(sorted(int(c) for c in np.flatnonzero(parts["cards"]))),
            (decider + int(seats[0])) % f.players if len(seats) else None,
            f.low + int(numbers[0]) if len(numbers) else None)


@pytest.mark.parametrize("case", cases(1), ids=case_id)
def test_each_row_describes_its_action(case):
    path, players = case
    game = load(path)
    f = rl.ActionFeatures(game, players)
    for _, dec in random_decisions(game, players, range(1000, 1100), limit=800):
        rows, mask = f.encode(dec)
        assert rows.shape == (f.k, f.width) and rows.dtype == np.int8 and mask.dtype == np.int8
        assert mask.sum() == len(dec.options) and mask[:len(dec.options)].all()
        assert not rows[len(dec.options):].any()
        for a, row in zip(dec.options, rows):
            assert decode(f, row, dec.player) == (a.option, tuple(sorted(a.cards)), a.player, a.number)


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_k_is_twice_the_most_actions_seen_and_holds_beyond_the_probe(case):
    path, players = case
    game = load(path)
    f = rl.ActionFeatures(game, players)
    most = max(_most_actions(game, n, ()) for n in range(game.min_players, game.max_players + 1))
    assert f.k >= 16 and f.k & (f.k - 1) == 0 and most * 2 <= f.k and (f.k == 16 or f.k < 4 * most)
    assert f.k == rl.ActionFeatures(game, game.min_players).k          # one K per game
    beyond = max(len(dec.options) for _, dec in random_decisions(
        game, players, range(PROBE_MATCHES, PROBE_MATCHES + 30), limit=20_000))
    assert beyond <= f.k


def test_too_many_actions_names_the_game_and_the_remedy():
    game = load(game_path("regicide"))
    f = rl.ActionFeatures(game, 2, max_actions=4)
    dec = next(d for _, d in random_decisions(game, 2, range(5)) if len(d.options) > 4)
    with pytest.raises(rl.TooManyActions, match=r"Regicide with 2 players: .* offers \d+ legal actions, "
                                               r"more than the 4 rows .* max_actions="):
        f.encode(dec)


def test_the_env_applies_the_row_it_is_given():
    env = rl.env(load(game_path("sanguosha")), players=5, actions="features")
    env.reset(seed=3)
    for _ in range(40):
        agent = env.agent_selection
        obs = env.observe(agent)
        options = list(env.match.decision.options)
        assert obs["action_mask"].sum() == len(options)
        row = len(options) - 1
        env.step(row)
        assert env.match.actions[-1] == options[row]


@pytest.mark.filterwarnings("ignore::UserWarning")     # the API checker's advice on Dict spaces
def test_a_game_too_large_for_the_catalogue_is_played_with_features():
    game = rulekit.load_game_text(ANY_NUMBER, "shed.yaml")
    env = rl.env(game, players=2)
    assert env.driver.actions.mode == "features"
    assert set(env.observation_space("player_0").spaces) == {"observation", "action_mask", "action_features"}
    with pytest.raises(rl.CatalogueTooLarge):
        rl.env(game, players=2, actions="catalogue")
    from pettingzoo.test import api_test
    api_test(env, num_cycles=50)
