"""The search agent (information-set MCTS over ``Match.resample``): named
from the command line with a budget, reproducible from its seed, legal,
and stronger than chance where search pays: a take-away game it must play
perfectly to win, and a game with hidden hands."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.agents import RandomAgent, make_agents
from rulekit.search import MCTSAgent

TAKE = """\
name: Take
players: {min: 2, max: 2}
cards:
  - {name: Stone, count: 7}
zones:
  pile: {}
  taken: {per_player: true}
choices:
  take:
    who: current
    options:
      - {name: one, when: size(pile) >= 1}
      - {name: two, when: size(pile) >= 2}
setup: move box to pile
turn:
  phases:
    - name: main
      effect: |
        choose take
        move top(pile, 1 if take.option == "one" else 2) to taken(current)
        if empty(pile):
          win for current "took the last stone"
"""


@pytest.fixture(scope="module")
def take(tmp_path_factory) -> rulekit.Game:
    path = tmp_path_factory.mktemp("take") / "take.yaml"
    path.write_text(TAKE, encoding="utf-8")
    return rulekit.load_game(path)


def test_agent_names_and_budgets():
    agents = make_agents("mcts:50,mcts:0.25s", 2, seed=1)
    assert (agents[0].iterations, agents[0].seconds) == (50, None)
    assert (agents[1].iterations, agents[1].seconds) == (None, 0.25)
    assert make_agents("mcts", 1)[0].iterations == 200
    for budget in ("x", "0", "0s", "-1s", "infs", "nans"):      # an infinite time never decides
        with pytest.raises(ValueError, match=f"mcts budget '{budget}' is neither"):
            make_agents(f"mcts:{budget}", 1)
    with pytest.raises(ValueError, match="agent 'random' takes no budget"):
        make_agents("random:5", 1)
    guided = make_agents("mcts:40:heuristic,mcts:1s:random", 2)
    assert (guided[0].iterations, guided[0].playout) == (40, "heuristic")
    assert (guided[1].seconds, guided[1].playout) == (1.0, "random")
    with pytest.raises(ValueError, match="mcts playout 'smart' is unknown"):
        make_agents("mcts:40:smart", 1)


def test_search_finds_the_winning_move(take):
    """From 7 stones the first player wins only by leaving a multiple of 3."""
    m = take.new_match(2, seed=0)
    assert MCTSAgent(seed=1, iterations=300).act(m, m.decision).option == "one"
    m.apply(0)                                  # 6 left: ...
    m.apply(1)                                  # ... 4 left after two more
    assert MCTSAgent(seed=2, iterations=300).act(m, m.decision).option == "one"


#: Take with a heuristic that plays perfectly: leave a multiple of 3
TAKE_KNOWN = TAKE.replace("Stone, count: 7", "Stone, count: 11") + """\
heuristics:
  take: 1 if (size(pile) - (1 if option == "one" else 2)) % 3 == 0 else 0
"""


def test_heuristic_playouts_follow_the_rule_files_heuristic(tmp_path):
    """With playouts played by a perfect heuristic, two tries of each move
    tell the winning one from every position that has one; random playouts
    with the same budget do not."""
    path = tmp_path / "take.yaml"
    path.write_text(TAKE_KNOWN, encoding="utf-8")
    game = rulekit.load_game(path)

    def right_moves(playout: str) -> int:
        right = 0
        for stones_taken in range(8):           # 11 down to 4 stones left
            m = game.new_match(2, seed=stones_taken)
            for _ in range(stones_taken):
                m.apply(0)
            left = 11 - stones_taken
            if left % 3 == 0:
                continue                        # no winning move from here
            agent = MCTSAgent(seed=stones_taken, iterations=4, playout=playout)
            right += agent.act(m, m.decision).option == ("one" if left % 3 == 1 else "two")
        return right

    assert right_moves("heuristic") == 6        # every position with a winning move
    assert right_moves("random") < 6


def test_search_beats_random_play(take):
    wins = 0
    for seed in range(20):
        m = take.new_match(2, seed=seed)
        m.play([MCTSAgent(seed, iterations=60), RandomAgent(seed)])
        wins += m.result()["winners"] == [0]
    assert wins == 20


def test_search_is_legal_and_reproducible_with_hidden_hands():
    game = rulekit.load_game(Path(__file__).resolve().parents[1] / "docs" / "examples" / "last_card.yaml")
    m = game.new_match(2, seed=4)
    while m.decision is not None and len(m.decision.options) < 3:
        m.apply(0)
    picks = {MCTSAgent(seed=9, iterations=8, max_playout=60).act(m, m.decision) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(m.decision.options)
    before = m.log_json()
    MCTSAgent(seed=3, iterations=5, max_playout=60).act(m, m.decision)
    assert m.log_json() == before               # searching never touches the match
