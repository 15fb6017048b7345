"""Tests for the generic agents: random, heuristic (scores from the rule file), scripted."""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402
from game_files import game_files, game_id, load  # noqa: E402

import rulekit  # noqa: E402
from rulekit.agents import AGENTS, Agent, HeuristicAgent, RandomAgent, ScriptedAgent, ScriptError, make_agents  # noqa: E402
from rulekit.cli import main  # noqa: E402
from rulekit.engine.runtime import Action, Decision  # noqa: E402

GAME = ROOT / "games" / "regicide.yaml"


def tiny_game(tmp_path: Path, values: list[int], heuristic: str | None) -> rulekit.Game:
    """A one-player game: pick the cards of your hand one by one (or pass and lose).

    Card names are c<value>; the optional heuristic scores the pick choice.
    """
    heuristics = f"heuristics:\n  pick: {heuristic!r}\n" if heuristic else ""
    text = textwrap.dedent("""\
        name: Pick
        players: {min: 1, max: 1}
        cards:
          - name: "c{value}"
            each:
              value: %s
        zones:
          hand: {per_player: true, visibility: owner}
          pile: {visibility: public}
        vars:
          total: 0
        choices:
          pick:
            who: current
            prompt: "Pick a card"
            options:
              - name: card
                cards: 1
                from: hand(current)
              - name: pass
        setup: |
          move box to hand(0)
        turn:
          phases:
            - name: play
              effect: |
                choose pick
                if pick.option == "pass":
                  lose "passed"
                total += sum(pick.cards.value)
                move pick.cards to pile
                if size(hand(0)) == 0:
                  win "all picked"
        stats:
          total: total
        """) % (values,) + heuristics
    path = tmp_path / "pick.yaml"
    path.write_text(text, encoding="utf-8")
    return rulekit.load_game(path)


def play(game, agents, players: int, seed: int) -> list[Action]:
    m = game.new_match(players, seed=seed)
    m.play(agents)
    return list(m.actions)


@pytest.fixture(scope="module")
def regicide():
    return rulekit.load_game(GAME)


# ---- random ------------------------------------------------------------------

def test_random_agent_is_reproducible(regicide):
    first = play(regicide, [RandomAgent(11), RandomAgent(12)], 2, seed=4)
    again = play(regicide, [RandomAgent(11), RandomAgent(12)], 2, seed=4)
    assert first == again and first


def test_random_agent_seed_matters(regicide):
    runs = {tuple(play(regicide, RandomAgent(s), 2, seed=4)) for s in range(5)}
    assert len(runs) > 1


def test_random_agent_only_plays_legal_actions(regicide):
    m = regicide.new_match(3, seed=2)
    agent = RandomAgent(0)
    while m.decision is not None:
        action = agent.act(m, m.decision)
        assert action in m.legal_actions()
        m.apply(action)
    assert m.result()["outcome"] in ("win", "loss")


# ---- heuristic ---------------------------------------------------------------

def test_heuristic_agent_plays_highest_score(tmp_path):
    game = tiny_game(tmp_path, [1, 5, 3, 9, 2], "sum(chosen.value) - (100 if option == 'pass' else 0)")
    m = game.new_match(1, seed=0)
    first = HeuristicAgent(0).act(m, m.decision)
    assert first.option == "card" and m.card(first.cards[0]).name == "c9"
    m.play(HeuristicAgent(0))
    assert m.result()["outcome"] == "win"
    assert [c.name for c in m.zone("pile").cards] == ["c9", "c5", "c3", "c2", "c1"]


def test_heuristic_agent_can_prefer_a_plain_option(tmp_path):
    game = tiny_game(tmp_path, [1, 2], "100 if option == 'pass' else sum(chosen.value)")
    m = game.new_match(1, seed=0)
    assert HeuristicAgent(3).act(m, m.decision) == Action("pass")


def test_heuristic_agent_breaks_ties_at_random(tmp_path):
    game = tiny_game(tmp_path, [7, 7, 1], "sum(chosen.value)")
    m = game.new_match(1, seed=0)
    sevens = {c.id for c in game.cards if c.name == "c7"}
    picked = {HeuristicAgent(s).act(m, m.decision).cards[0] for s in range(30)}
    assert picked == sevens


def test_heuristic_agent_without_heuristic_plays_like_random(tmp_path):
    game = tiny_game(tmp_path, [1, 5, 3, 9, 2], None)
    assert game.choices["pick"].heuristic is None
    for seed in range(5):
        assert play(game, HeuristicAgent(seed), 1, 0) == play(game, RandomAgent(seed), 1, 0)


def test_a_heuristic_reads_its_chosen_cards_from_the_card_tables(tmp_path, capsys):
    """``chosen`` in a heuristic is always the list of the answer's cards,
    so what it reads of them comes from the per-card tables (no value is
    asked its type), and scores as reading each card would."""
    heuristic = "sum(chosen.value) * 10 + size(chosen where it.value > 4) - (100 if option == 'pass' else 0)"
    game = tiny_game(tmp_path, [1, 5, 3, 9, 2], heuristic)
    m = game.new_match(1, seed=0)
    scores = HeuristicAgent(0).scores(m, m.decision)
    expected = []
    for a in m.decision.options:
        values = [m.card(i).props["value"] for i in a.cards]
        expected.append(sum(values) * 10 + sum(v > 4 for v in values) - (100 if a.option == "pass" else 0))
    assert scores == expected and max(scores) == 91
    assert main(["show-code", str(tmp_path / "pick.yaml"), "heuristic 'pick'"]) == 0
    code = capsys.readouterr().out
    assert "_sumt(" in code and "_ga(" not in code and "type(L_chosen)" not in code


def test_heuristic_agent_uses_documented_signature():
    """heuristic(match, chosen_cards, option, player) -> number, whatever compiled it."""
    calls = []

    def heuristic(m, chosen, option, player):
        calls.append((chosen, option, player))
        return (player or 0) + sum(chosen)

    options = [Action("card", (3,)), Action("card", (8,)), Action("who", (), 2), Action("pass")]
    match = SimpleNamespace(game=SimpleNamespace(choices={"c": SimpleNamespace(heuristic=heuristic)}),
                            card=lambda i: i)
    assert HeuristicAgent(0).act(match, Decision(0, "c", "?", options)) == Action("card", (8,))
    assert calls == [([3], "card", None), ([8], "card", None), ([], "who", 2), ([], "pass", None)]


def test_heuristic_agent_answers_a_single_option_unscored():
    """With one option there is nothing to weigh: the agent plays it without
    asking the heuristic (nor its random generator), and plays the same as
    scoring it would; with two the heuristic is asked for each."""
    calls = []

    def heuristic(m, chosen, option, player):
        calls.append(option)
        return 1

    match = SimpleNamespace(game=SimpleNamespace(choices={"c": SimpleNamespace(heuristic=heuristic)}),
                            card=lambda i: i)
    agent = HeuristicAgent(0)
    state = agent.rng.getstate()
    assert agent.act(match, Decision(0, "c", "?", [Action("pass")])) == Action("pass")
    assert calls == [] and agent.rng.getstate() == state
    assert agent.scores(match, Decision(0, "c", "?", [Action("pass")])) == [1]
    assert agent.act(match, Decision(0, "c", "?", [Action("go"), Action("pass")])) in (Action("go"), Action("pass"))
    assert calls == ["pass", "go", "pass"]


PARAMS_GAME = textwrap.dedent("""\
    name: Give
    players: {min: 3, max: 3}
    cards:
      - {name: C, count: 6, props: {value: 1}}
    zones:
      hand: {per_player: true, visibility: owner}
    player_vars:
      got: 0
    choices:
      give:
        params: [giver, bonus]
        who: giver
        prompt: "Player {giver}: give {bonus} to whom?"
        options:
          - {name: to, player: "players where it != giver"}
    setup: |
      move box to hand(0)
    turn:
      phases:
        - name: play
          effect: |
            choose give(current, 2 + current)
            let to = give.player
            to.got += 2 + current
            if current == 2:
              win "given"
    heuristics:
      give: "bonus * 10 - player if giver == 0 else player"
    """)


def test_heuristic_agent_passes_the_choice_arguments(tmp_path):
    """The heuristic of a choice with params reads them: (m, chosen, option, player, *args)."""
    path = tmp_path / "give.yaml"
    path.write_text(PARAMS_GAME, encoding="utf-8")
    game = rulekit.load_game(path)
    m = game.new_match(3, seed=0)
    assert m.decision.args == (0, 2)
    agent = HeuristicAgent(0)
    assert agent.scores(m, m.decision) == [19, 18]          # bonus 2: 20 - player 1, 20 - player 2
    assert agent.act(m, m.decision).player == 1
    m.play(agent)
    assert m.result()["outcome"] == "win"
    # seat 0 gives 2 to seat 1; seats 1 and 2 score the highest seat: 3 to seat 2, 4 to seat 1
    assert [pv["got"] for pv in m.pvars] == [0, 6, 3]


def test_heuristic_agent_passes_arguments_to_both_signatures():
    """The positional form gets the arguments after player; the frame form by
    the names the choice declares under params (the cached scorer is
    reused for later decisions)."""
    seen = []

    def positional(m, chosen, option, player, giver, bonus):
        seen.append((giver, bonus))
        return bonus - player

    def framed(m, frame):
        seen.append((frame["giver"], frame["bonus"]))
        return frame["player"] * frame["bonus"]

    options = [Action("to", (), 1), Action("to", (), 2)]
    for fn, best in ((positional, 1), (framed, 2)):
        choice = SimpleNamespace(heuristic=fn, params=("giver", "bonus"))
        match = SimpleNamespace(game=SimpleNamespace(choices={"c": choice}), card=lambda i: i)
        for bonus in (3, 5):
            decision = Decision(0, "c", "?", options, (0, bonus))
            assert HeuristicAgent(0).act(match, decision).player == best
    assert seen == [(0, 3)] * 2 + [(0, 5)] * 2 + [(0, 3)] * 2 + [(0, 5)] * 2


def test_heuristic_that_gives_no_number_is_a_rule_error(tmp_path):
    game = tiny_game(tmp_path, [1, 2], "option")
    m = game.new_match(1, seed=0)
    with pytest.raises(rulekit.RuleRuntimeError, match=r"heuristic for choice 'pick'.*not a number"):
        HeuristicAgent(0).act(m, m.decision)


def test_a_heuristic_that_fails_is_said_in_effect_texts_words(tmp_path):
    game = tiny_game(tmp_path, [1, 2], "option + sum(chosen.value)")     # 'card' + 1
    m = game.new_match(1, seed=0)
    with pytest.raises(rulekit.RuleRuntimeError) as caught:
        HeuristicAgent(0).act(m, m.decision)
    assert "could not score 'card c1': '+' cannot take a text and a number (a heuristic" in str(caught.value)
    assert isinstance(caught.value.__cause__, TypeError)


def test_heuristic_that_gives_nan_is_a_rule_error():
    """NaN compares false with everything: no answer would be best (and
    picking among the ties would find none), so it is refused like any
    other answer that is not a number."""
    choice = SimpleNamespace(heuristic=lambda m, chosen, option, player: float("nan") if player == 2 else 1.0,
                             params=())
    match = SimpleNamespace(game=SimpleNamespace(choices={"c": choice}), card=lambda i: i,
                            describe_action=repr)
    decision = Decision(0, "c", "?", [Action("to", (), 1), Action("to", (), 2)], ())
    with pytest.raises(rulekit.RuleRuntimeError, match=r"heuristic for choice 'c'.*gave nan, not a number"):
        HeuristicAgent(0).act(match, decision)


@pytest.mark.parametrize("path", game_files(), ids=game_id)
def test_a_heuristic_scores_all_options_at_once_as_it_scores_each(path):
    """A choice's ``scores`` (the heuristic written as one loop over the
    options, which the agent calls) gives, option for option, what its
    ``heuristic`` gives, and leaves the match's step count as it was: over
    heuristic games of every shipped game, at every decision with a
    heuristic."""
    game = load(path)
    compared = 0
    for seed in range(2):
        m = game.new_match(game.max_players, seed=seed)
        agents = make_agents("heuristic", m.n, seed)
        while m.decision is not None and compared < 400:
            dec = m.decision
            choice = game.choices[dec.choice]
            if choice.heuristic is not None:
                assert choice.scores is not None
                steps = m.steps
                each = [choice.heuristic(m, [m.cards[i] for i in a.cards], a.option, a.player, *dec.args)
                        for a in dec.options]
                assert choice.scores(m, dec.options, *dec.args) == each, dec.choice
                assert m.steps == steps
                compared += 1
            m.apply(agents[dec.player].act(m, dec))
    assert compared > 0 or all(c.heuristic is None for c in game.choices.values())


def test_a_heuristic_of_fractions_is_scored_at_once_and_nan_still_refused(tmp_path):
    """Scores that are not whole numbers pass the agent's check of the
    scores given at once; a NaN among them is still refused by name."""
    for worth, scores in (("{card: 0.5, pass: 0}", [0.5, 0.5, 0]), ("{card: 1, pass: .nan}", None)):
        path = Path(tiny_game(tmp_path, [1, 2], "0").file)
        text = path.read_text(encoding="utf-8").replace("pick: '0'", "pick: 'worth[option]'")
        path.write_text(text + f"tables:\n  worth: {worth}\n", encoding="utf-8")
        m = rulekit.load_game(path).new_match(1, seed=0)
        assert m.game.choices["pick"].scores is not None
        if scores is not None:
            assert HeuristicAgent(0).scores(m, m.decision) == scores
            continue
        with pytest.raises(rulekit.RuleRuntimeError, match=r"could not score 'pass': it gave nan, not a number"):
            HeuristicAgent(0).act(m, m.decision)


def test_heuristic_agent_plays_whole_regicide_games(regicide):
    for seed in range(3):
        m = regicide.new_match(2, seed=seed)
        m.play(make_agents("heuristic", 2, seed))
        assert m.is_over()


# ---- scripted ----------------------------------------------------------------

def test_scripted_agent_accepts_indices_text_actions_and_dicts(tmp_path):
    game = tiny_game(tmp_path, [1, 5, 3], None)
    m = game.new_match(1, seed=0)
    c5 = game.card_named("c5")[0].id
    agent = ScriptedAgent(["card  C3", Action("card", (c5,)), {"option": "card", "cards": [0]}])
    # the third entry names card id 0 (c1); first check the index form on a copy
    assert ScriptedAgent([0]).act(m, m.decision) == m.decision.options[0]
    m.play(agent)
    assert [c.name for c in m.zone("pile").cards] == ["c3", "c5", "c1"]
    assert agent.remaining == 0 and m.result()["outcome"] == "win"


def test_scripted_agent_explains_a_wrong_entry(tmp_path):
    game = tiny_game(tmp_path, [1, 5], None)
    m = game.new_match(1, seed=0)
    with pytest.raises(ScriptError, match=r"'card c9' is not a legal action.*card c1"):
        ScriptedAgent(["card c9"]).act(m, m.decision)
    with pytest.raises(ScriptError, match="out of range"):
        ScriptedAgent([99]).act(m, m.decision)
    with pytest.raises(ScriptError, match="not an action: True"):          # a bool is no index
        ScriptedAgent([True]).act(m, m.decision)
    with pytest.raises(ScriptError, match=r"'card c1 c5' is not legal now; legal now: card c1"):
        ScriptedAgent([{"option": "card", "cards": [0, 1]}]).act(m, m.decision)
    with pytest.raises(ScriptError, match=r"not an action: 1\.5 \(use an Action"):
        ScriptedAgent([1.5]).act(m, m.decision)


def test_scripted_agent_explains_running_out(tmp_path):
    game = tiny_game(tmp_path, [1, 5], None)
    m = game.new_match(1, seed=0)
    with pytest.raises(ScriptError, match="no action left.*pick"):
        m.play(ScriptedAgent(["card c1"]))


# ---- make_agents -------------------------------------------------------------

def test_make_agents_cycles_names_over_seats():
    agents = make_agents("heuristic,random", 3, seed=1)
    assert [type(a) for a in agents] == [HeuristicAgent, RandomAgent, HeuristicAgent]
    assert all(isinstance(a, Agent) for a in agents)
    assert [type(a) for a in make_agents(["random"], 2)] == [RandomAgent, RandomAgent]
    assert set(AGENTS) == {"random", "heuristic", "mcts"}


def test_make_agents_seeds_each_seat_differently_and_reproducibly():
    a = [x.rng.random() for x in make_agents("random", 3, seed=5)]
    b = [x.rng.random() for x in make_agents("random", 3, seed=5)]
    assert a == b and len(set(a)) == 3


def test_make_agents_rejects_bad_specs():
    with pytest.raises(ValueError, match="unknown agent 'clever'.*random, heuristic"):
        make_agents("random,clever", 2)
    with pytest.raises(ValueError, match="3 agents named"):
        make_agents("random,random,random", 2)
    with pytest.raises(ValueError, match="no agent"):
        make_agents(" , ", 2)


def test_play_refuses_what_is_not_an_agent_for_every_seat(regicide):
    m = regicide.new_match(2, seed=1)
    with pytest.raises(TypeError, match=r"play takes agents \(objects with act\(match, decision\)\), not None"):
        m.play(None)
    with pytest.raises(ValueError, match="this match has 2 seats, and was given 1 agents"):
        m.play([RandomAgent(1)])
    assert m.actions == [] and m.decision is not None
    assert m.play((RandomAgent(1), RandomAgent(2)))["outcome"] in ("win", "loss")


def test_a_rule_file_given_as_bytes_is_read_as_its_file_would_be():
    data = GAME.read_bytes()
    assert rulekit.load_game_text(data, str(GAME)).name == rulekit.load_game(GAME).name
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game_text(b"name: \xff\n", "bad.yaml")
    assert str(info.value).startswith("bad.yaml:1:7: error: byte 0xff is not UTF-8 text")
    with pytest.raises(TypeError, match="load_game_text takes a rule file's text"):
        rulekit.load_game_text(None)
