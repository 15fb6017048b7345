"""三国杀 property tests beyond the conformance suite.

Random games of every player count (every card in one zone after every
action, a winning side, an identical replay) are the conformance suite's
(``tests/test_conformance.py`` with ``tests/game_invariants.py``); here the
same checks run with the match options changed, and the heuristic agents
play whole games and beat random play."""
from __future__ import annotations

import pytest
from game_invariants import sanguosha_end
from sanguosha_kit import game

import rulekit
from rulekit.agents import make_agents
from rulekit.testing import check_conservation, play_random

#: games per set of match options
OPTION_GAMES = 25


def _play_games(players: int, count: int, options=None) -> None:
    g = game()
    for seed in range(count):
        m = g.new_match(players, seed=seed, options=options)
        result = play_random(m, seed=seed, check=True)
        assert result is not None, f"seed {seed}: the match did not end"
        sanguosha_end(m, players, result)
        again = rulekit.Match.restore(g, m.save())
        assert again.log_json() == m.log_json(), f"players={players} seed={seed}: replay differs"


@pytest.mark.parametrize("options", [{"generals": False}, {"ex_cards": False},
                                     {"roles": "two_renegades"}])
@pytest.mark.parametrize("players", [6, 8])
def test_options(players, options):
    _play_games(players, OPTION_GAMES, options)


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
