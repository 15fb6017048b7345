"""The PettingZoo and Gymnasium environments: their APIs' own checkers pass
for every game, the engine decides whose turn it is, rewards follow the
result, eliminated seats leave, and a seed replays a match."""
from __future__ import annotations

import numpy as np
import pytest
from game_files import game_path
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from rl_kit import case_id, cases, load

import rulekit
import rulekit.rl as rl

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")   # the checkers' advice on Dict spaces


def play(env, seed: int, rng: np.random.Generator, check=None) -> None:
    """One match of random legal actions; ``check(env)`` before every live step."""
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if check is not None:
            check(env)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("out_seats", ["terminate", "wait"])
@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_pettingzoo_api(case, out_seats):
    path, players = case
    api_test(rl.env(load(path), players=players, seed=1, out_seats=out_seats), num_cycles=300)


@pytest.mark.parametrize("name,players", [("regicide", 2), ("sanguosha", 5), ("xiake", 2)])
def test_pettingzoo_api_with_action_features(name, players):
    api_test(rl.env(load(game_path(name)), players=players, actions="features", seed=2), num_cycles=200)


@pytest.mark.parametrize("name", ["regicide", "regicide_house"])
def test_gymnasium_env_checker_for_the_solo_game(name):
    env = rl.GymEnv(load(game_path(name)))
    check_env(env, skip_render_check=True)
    check_env(rl.GymEnv(load(game_path(name)), render_mode="ansi"))


def test_the_engine_decides_whose_turn_it_is():
    """三国杀: response windows ask seats out of turn, so the agent to act is
    the decision's seat, not a rotation."""
    env = rl.env(load(game_path("sanguosha")), players=5)
    order = []

    def same_seat(e):
        assert e.agent_selection == f"player_{e.match.decision.player}"
        order.append(e.match.decision.player)
    play(env, 3, np.random.default_rng(3), same_seat)
    assert any((b - a) % 5 not in (0, 1) for a, b in zip(order, order[1:]))


def test_eliminated_seats_are_terminated_when_they_leave():
    env = rl.env(load(game_path("sanguosha")), players=8)
    left_early = set()

    def record(e):
        for a in list(e.agents):
            if e.match.out[int(a.split("_")[1])]:
                pytest.fail(f"{a} is out of the game but still an agent")
    rng = np.random.default_rng(0)
    for seed in range(4):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, terminated, _, _ = env.last()
            if terminated:
                if env.match.decision is not None:
                    left_early.add(agent)
                    assert env.match.out[int(agent.split("_")[1])]
                env.step(None)
                continue
            record(env)
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert left_early


def _random_match(env, seed: int, rng: np.random.Generator) -> dict:
    """Play one match at random; return each agent's total reward, what it
    last saw in ``infos``, and the steps at which it was selected, as
    ``{agent: (total, info, selected)}``, for every agent the match had."""
    env.reset(seed=seed)
    seen = {a: [0.0, {}, []] for a in env.agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        seen[agent][0] += reward
        seen[agent][1] = info
        if terminated or truncated:
            env.step(None)
            continue
        seen[agent][2].append(len(env.match.actions))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def test_a_seat_out_before_the_end_gets_its_sides_outcome_when_it_waits():
    """三国杀, 8 seats: with out_seats="wait" a seat killed mid-game stays an
    agent, never selected once out, and is paid its side's result at the
    end (a dead loyalist whose lord wins: +1); with the default it leaves
    at once, and the outcome of every seat is still told at the end."""
    game = load(game_path("sanguosha"))
    waited = 0
    for seed in range(6):
        env = rl.env(game, players=8, out_seats="wait")
        seen = _random_match(env, seed, np.random.default_rng(seed))
        m = env.match
        final = rl.outcome_rewards(m.result(), 8, False)
        assert env.outcome_rewards == {f"player_{p}": final[p] for p in range(8)}
        out_at = {}             # seats out before the last decision: decisions made before they left
        for k, ev in enumerate(m.log):
            if ev[0] == "eliminate":
                out_at[ev[1]] = sum(1 for e in m.log[:k] if e[0] == "decide")
        out_at = {p: at for p, at in out_at.items() if at < len(m.actions)}
        for p in range(8):
            total, info, selected = seen[f"player_{p}"]
            assert total == final[p] and info["outcome_rewards"] == env.outcome_rewards
            if p in out_at:
                assert all(step < out_at[p] for step in selected), f"seat {p} was asked after it was out"
                waited += final[p] == 1.0
        gone = rl.env(game, players=8)
        seen = _random_match(gone, seed, np.random.default_rng(seed))
        assert gone.match.log_json() == m.log_json()                  # the same match
        for p in range(8):
            total, info, _ = seen[f"player_{p}"]
            if p in out_at:
                assert total == 0.0 and "outcome_rewards" not in info  # gone before the end
            else:
                assert total == final[p] and info["outcome_rewards"] == env.outcome_rewards
        assert gone.outcome_rewards == env.outcome_rewards
    assert waited, "no seat out before the end was on the winning side"
    with pytest.raises(ValueError, match="out_seats must be one of"):
        rl.env(game, players=4, out_seats="stay")


@pytest.mark.parametrize("name,players", [("regicide", 2), ("last_card", 3), ("xiake", 2)])
def test_rewards_follow_the_result(name, players):
    path = game_path(name) if name != "last_card" else rulekit.__file__.replace(
        "rulekit/__init__.py", "docs/examples/last_card.yaml")
    game = load(path)
    env = rl.env(game, players=players)
    coop = rl.is_cooperative(game)
    outcomes = set()
    for seed in range(6):
        env.reset(seed=seed)
        total = dict.fromkeys(env.agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            total[agent] += reward
            if terminated:
                env.step(None)
                continue
            env.step(int(np.flatnonzero(obs["action_mask"])[seed % 2 - 1]))
        result = env.match.result()
        outcomes.add(result["outcome"])
        assert [total[f"player_{p}"] for p in range(players)] == rl.outcome_rewards(result, players, coop)
    assert outcomes


def test_outcome_rewards():
    win = {"outcome": "win", "winners": [1, 2]}
    assert rl.outcome_rewards(win, 3, False) == [-1.0, 1.0, 1.0]
    assert rl.outcome_rewards({"outcome": "win", "winners": [0, 1]}, 2, True) == [1.0, 1.0]
    assert rl.outcome_rewards({"outcome": "loss", "winners": []}, 2, True) == [-1.0, -1.0]
    assert rl.outcome_rewards({"outcome": "loss", "winners": []}, 2, False) == [0.0, 0.0]
    assert rl.is_cooperative(load(game_path("regicide")))
    assert not rl.is_cooperative(load(game_path("sanguosha")))


def test_the_reward_hook_sees_each_seats_events_once_and_redacted():
    game = load(game_path("regicide"))
    seen = {0: [], 1: []}

    def hook(match, events, agent):
        seen[int(agent[-1])].extend(events)
        return 0.5 if agent == "player_1" else 0.0
    env = rl.env(game, players=2, reward_hook=hook)
    env.reset(seed=4)
    start = len(env.match.log)
    total = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, _, _ = env.last()
        total += reward if agent == "player_1" else 0.0
        env.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))
    m = env.match
    assert seen[0] == m.events(0, since=start) and seen[1] == m.events(1, since=start)
    assert seen[0] != seen[1]                                   # each seat's own redaction
    steps = len(m.actions)
    final = rl.outcome_rewards(m.result(), 2, True)[1]
    assert total == pytest.approx(final + 0.5 * steps)


def test_an_illegal_action_ends_the_match_or_raises():
    game = load(game_path("regicide"))
    env = rl.env(game, players=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    mover = env.agent_selection
    env.step(bad)
    assert all(env.terminations.values())
    assert env.rewards == {mover: -1.0, ("player_1" if mover == "player_0" else "player_0"): 0.0}
    assert "not legal now" in env.infos[mover]["illegal"]

    env = rl.env(game, players=2, illegal="raise")
    env.reset(seed=1)
    with pytest.raises(rulekit.IllegalAction, match="not legal now"):
        env.step(bad)
    assert env.match.actions == [] and not any(env.terminations.values())


def test_only_a_whole_number_is_an_action_index():
    """A legal index written as a float, a text or True is refused like any
    illegal action (1.5 is not index 1); numpy's integers, 0-d arrays
    included, are the index they stand for."""
    game = load(game_path("regicide"))
    env = rl.env(game, players=2, illegal="raise")
    env.reset(seed=1)
    good = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for wrong in (float(good), good + 0.5, str(good), [good], np.float32(good)) + ((True,) if good == 1 else ()):
        with pytest.raises(rulekit.IllegalAction, match="not an index"):
            env.step(wrong)
    assert env.match.actions == []
    env.step(np.array(good, dtype=np.int16))
    assert len(env.match.actions) == 1


def test_a_seed_replays_the_match():
    game = load(game_path("sanguosha"))
    runs = []
    for _ in range(2):
        env = rl.env(game, players=4)
        observed = []
        play(env, 11, np.random.default_rng(5), lambda e, seen=observed: seen.append(e.observe(e.agent_selection)))
        runs.append((observed, env.match.log_json()))
    assert len(runs[0][0]) == len(runs[1][0]) > 10
    assert all(np.array_equal(a["observation"], b["observation"]) for a, b in zip(runs[0][0], runs[1][0]))
    assert runs[0][1] == runs[1][1]
    env = rl.env(game, players=4)
    env.reset(seed=11)
    assert env.match.log_json() == game.new_match(4, seed=11).log_json()      # the seed is the match's


@pytest.mark.parametrize("name,players", [("sanguosha", 5), ("xiake", 2), ("regicide", 3)])
def test_a_deep_copy_of_an_environment_plays_on_alone(name, players):
    """``copy.deepcopy`` of an environment mid-match (search over
    environments does this): the copy observes what the original does, the
    same moves give the same matches, and playing the copy leaves the
    original as it was."""
    import copy

    env = rl.env(load(game_path(name)), players=players)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(30):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    twin = copy.deepcopy(env)
    assert twin.match is not env.match and twin.game is env.game
    log = env.match.log_json()
    mine = env.observe(env.agent_selection)
    moves = []
    play_on = np.random.default_rng(7)
    for _agent in twin.agent_iter(200):
        obs, _, terminated, truncated, _ = twin.last()
        move = None if terminated or truncated else int(play_on.choice(np.flatnonzero(obs["action_mask"])))
        moves.append(move)
        twin.step(move)
    assert env.match.log_json() == log
    assert np.array_equal(env.observe(env.agent_selection)["observation"], mine["observation"])
    for move in moves:                       # the original, given the same moves, plays the same match
        env.step(move)
    assert env.match.log_json() == twin.match.log_json()
    assert env.rewards == twin.rewards and env.terminations == twin.terminations


def test_pettingzoo_seed_test():
    seed_test(lambda: rl.env(load(game_path("regicide")), players=3), num_cycles=50)


def test_render_shows_the_table_and_the_options(capsys):
    env = rl.env(load(game_path("regicide")), players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "player_0 decides:" in text and "enemy" in text and "yield" in text
    human = rl.env(load(game_path("regicide")), players=2, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None and capsys.readouterr().out.strip() == text.strip()


def test_render_after_the_end_shows_the_result_and_a_closed_match_says_so():
    from rulekit.rl.text import render_text

    game = load(game_path("regicide"))
    m = game.new_match(2, seed=0)
    while m.decision is not None:
        m.apply(0)
    text = render_text(m, None)
    assert f"== game over after {m.turn} turns: {m.result()['outcome']}" in text and "winners:" in text
    assert "decides:" not in text
    cut = game.new_match(2, seed=0)
    cut.close()
    assert render_text(cut, 0) == "(the match was closed)"


def test_the_gym_env_plays_a_solo_game_to_its_end():
    env = rl.GymEnv(load(game_path("regicide")))
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    done, reward = False, 0.0
    while not done:
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
    assert reward == (1.0 if info["outcome"] == "win" else -1.0)
    with pytest.raises(ValueError, match="needs rulekit.rl.env"):
        rl.GymEnv(load(game_path("regicide")), players=2)


def test_spaces_are_fixed_per_game_and_player_count():
    env = rl.env(load(game_path("xiake")), players=2)
    cat = rl.ActionCatalogue(load(game_path("xiake")), 2)
    enc = rl.ObservationEncoder(load(game_path("xiake")), 2)
    space = env.observation_space("player_1")
    assert env.action_space("player_0").n == cat.n
    assert space["observation"].shape == (enc.size,) and space["action_mask"].shape == (cat.n,)
    assert set(space.spaces) == {"observation", "action_mask"}


def test_max_steps_truncates_a_match():
    """A policy that never ends a match (passing forever) meets max_steps,
    not the engine's step budget."""
    env = rl.env(load(game_path("sanguosha")), players=4, max_steps=30)
    env.reset(seed=0)
    live_steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        live_steps += 1
    assert live_steps == 30 and not env.agents and env.match.result() is None

    gym = rl.GymEnv(load(game_path("regicide")), max_steps=3)
    obs, _ = gym.reset(seed=0)
    for _ in range(3):
        obs, _, terminated, truncated, _ = gym.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated and not terminated


@pytest.mark.parametrize("name, players", [("regicide", 2), ("sanguosha", 5)])
def test_a_mask_handed_out_again_still_marks_exactly_the_legal_actions(name, players):
    """The masks of recent sets of legal actions are kept and handed out
    again when a set recurs (a decision of one option finds its mask by its
    choice, seat and action): each mask an agent gets marks exactly the
    catalogue indices of the decision's options, and none can be written."""
    env = rl.env(load(game_path(name)), players=players, actions="catalogue")
    catalogue = env.driver.actions.catalogue
    masks: list[np.ndarray] = []            # (all kept alive: an id names one array)

    def check(env):
        mask = env.observe(env.agent_selection)["action_mask"]
        assert np.array_equal(mask, catalogue.mask(env.match.decision))
        assert not mask.flags.writeable
        masks.append(mask)

    rng = np.random.default_rng(0)
    for seed in range(3):
        play(env, seed, rng, check)
    assert len({id(m) for m in masks}) < len(masks), "no mask was handed out again"


@pytest.mark.parametrize("given,error,words", [
    ({"players": "2"}, ValueError, "Regicide is for 1 to 4 players, not '2'"),   # was a comparison's TypeError
    ({"max_steps": 0}, ValueError, "max_steps is a whole number, 1 or more (or None for no limit), not 0"),
    ({"max_actions": -1}, ValueError, "max_actions is a whole number, 1 or more"),
    ({"cooperative": "yes"}, TypeError, "cooperative is True or False, not 'yes'"),
    ({"auto_pass": 1}, TypeError, "auto_pass is True or False, not 1"),
    ({"seed": -3}, ValueError, "an environment's seed is 0 or more (numpy's generator takes no other), not -3"),
])
def test_an_environment_refuses_wrong_arguments_when_made(given, error, words):
    with pytest.raises(error) as info:
        rl.env(load(game_path("regicide")), **{"players": 2, **given})
    assert words in str(info.value)


@pytest.mark.parametrize("seed,error,words", [
    (-1, ValueError, "an environment's seed is 0 or more"),      # was numpy's "expected non-negative integer"
    ("7", TypeError, "a match's seed is a whole number, not '7'"),
    (1.5, TypeError, "a match's seed is a whole number, not 1.5"),
])
def test_reset_refuses_a_seed_that_is_not_a_whole_number_of_0_or_more(seed, error, words):
    game = load(game_path("regicide"))
    for env in (rl.env(game, players=2), rl.GymEnv(load(game_path("regicide")), players=1)):
        with pytest.raises(error) as info:
            env.reset(seed=seed)
        assert words in str(info.value)
    env = rl.env(game, players=2)
    env.reset(seed=np.int64(7))
    assert env.match.seed == 7 and type(env.match.seed) is int
