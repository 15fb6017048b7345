"""三国杀 property tests: over thousands of random games, every card is in
exactly one zone after every action, every game ends with a winner, and
replaying the actions gives a byte-identical log."""
from __future__ import annotations

import pytest
from sanguosha_kit import game

import rulekit
from rulekit.agents import make_agents
from rulekit.testing import check_conservation, play_random

#: games per test: short tests, so that the two cores finish together
CHUNK = 125


def _play_chunk(players: int, start: int, count: int, options=None) -> None:
    g = game()
    for seed in range(start, start + count):
        m = g.new_match(players, seed=seed, options=options)
        result = play_random(m, seed=seed, check=True)
        assert result is not None and result["winners"], f"seed {seed}: {result}"
        assert m.vars["winner"] in ("主公", "反贼", "内奸")
        again = rulekit.Match.restore(g, m.save())
        assert again.log_json() == m.log_json(), f"players={players} seed={seed}: replay differs"


@pytest.mark.parametrize("players", [5, 8])
@pytest.mark.parametrize("start", range(0, 2000, CHUNK))
def test_two_thousand_random_games(players, start):
    _play_chunk(players, start, CHUNK)


@pytest.mark.parametrize("players", [4, 6, 7, 9, 10])
def test_every_player_count(players):
    _play_chunk(players, 0, 150)


@pytest.mark.parametrize("options", [{"generals": False}, {"ex_cards": False},
                                     {"roles": "two_renegades"}])
@pytest.mark.parametrize("players", [6, 8])
def test_options(players, options):
    _play_chunk(players, 0, 100, options)


def test_heuristic_agents_play_whole_games():
    g = game()
    for seed in range(60):
        m = g.new_match(8, seed=seed)
        m.play(make_agents("heuristic,random", 8, seed))
        check_conservation(m)
        assert m.is_over()


def _seat_wins(players: int, games: int, heuristic: bool) -> int:
    """Games won by seat (seed mod players) when it is played by the
    heuristic agent (or by a random one), all other seats random."""
    from rulekit.agents import HeuristicAgent, RandomAgent

    g = game()
    wins = 0
    for seed in range(games):
        seat = seed % players
        agents = [RandomAgent(seed * 31 + i) for i in range(players)]
        if heuristic:
            agents[seat] = HeuristicAgent(seed)
        result = g.new_match(players, seed=seed).play(agents)
        wins += seat in result["winners"]
    return wins


@pytest.mark.parametrize("players", [5, 8])
def test_heuristic_agent_beats_random_play(players):
    """The heuristic plays to its identity (from public information and its
    own role): over the same 150 deals its seat wins far more often."""
    assert _seat_wins(players, 150, True) >= _seat_wins(players, 150, False) + 25
