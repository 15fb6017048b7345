"""What a rule file shows or scores costs the match nothing.

A ``display`` or ``public`` value, a ``shown_when``, a heuristic and a
stat are read from outside the rules: by a view, an agent, a report.  What
they do is bounded by the step budget as any rule is (a display that calls
itself for ever stops), but it is not counted in the match's steps: a
match's step count, and so the action at which a long match reaches its
budget, would otherwise depend on how often a server showed it or which
agent played it, and a view that reached the budget would leave the match
over it.  Each reader starts from the match's count and puts it back.
"""
from __future__ import annotations

import pytest

import rulekit
from rulekit.agents import HeuristicAgent

#: f(n) calls itself: each call counts a step (it is on a cycle of calls)
GAME = """name: Readers
players: {min: 2, max: 2}
cards: [{name: C}]
zones: {d: {visibility: public}}
vars: {n: 0}
player_vars:
  secret: {initial: 1, visibility: owner, shown_when: "f(8) > 0"}
procedures:
  f:
    params: [k]
    effect: |
      if k > 0:
        return f(k - 1) + 1
      return 1
display:
  depth: "f(10)"
public:
  deep: "f(12)"
stats:
  counted: "f(6)"
heuristics:
  go: "f(9) + (1 if option == 'more' else 0)"
turn:
  phases:
    - name: p
      effect: |
        choose go
        n += 1
        if n >= 3:
          win
choices:
  go:
    who: current
    prompt: "go on"
    options:
      - {name: more}
      - {name: stop}
"""


#: a procedure that never returns
SPIN = """  spin:
    effect: |
      let k = 0
      while true:
        k += 1
      return k
"""


@pytest.fixture(scope="module")
def game() -> rulekit.Game:
    return rulekit.load_game_text(GAME, "readers.yaml")


def test_a_view_leaves_the_step_count_as_it_was(game):
    m = game.new_match(2, seed=1)
    before = m.steps
    for viewer in (0, 1, None, rulekit.ALL_SEEING):
        view = m.view(viewer)
        assert view["display"][0]["depth"] == 11 and view["public"]["deep"] == 13
    assert m.steps == before


def test_scoring_leaves_the_step_count_as_it_was(game):
    m = game.new_match(2, seed=1)
    before = m.steps
    assert HeuristicAgent(seed=0).scores(m, m.decision) == [11, 10]
    assert m.steps == before


def test_the_same_actions_count_the_same_steps_whoever_looked(game):
    looked, alone = game.new_match(2, seed=1), game.new_match(2, seed=1)
    agent = HeuristicAgent(seed=0)
    while looked.decision is not None:
        looked.view(0)
        action = agent.act(looked, looked.decision)
        looked.apply(action)
        alone.apply(action)
    assert looked.steps == alone.steps and looked.log_json() == alone.log_json()


def test_a_stat_read_at_the_end_leaves_the_step_count_as_it_was(game):
    m = game.new_match(2, seed=1)
    while m.decision is not None:
        m.apply(0)
    before = m.steps
    assert game.stats["counted"](m, m.result()["outcome"]) == 7
    assert m.steps == before


def test_a_reader_past_the_budget_stops_and_leaves_the_match_as_it_was():
    endless = GAME.replace('depth: "f(10)"', 'depth: "spin()"').replace("display:", SPIN + "display:")
    game = rulekit.load_game_text(endless, "readers.yaml")
    m = game.new_match(2, seed=1, step_budget=5_000)
    before = m.steps
    with pytest.raises(rulekit.StepBudgetExceeded):
        m.view(0)
    assert m.steps == before
    m.apply(0)                 # the match goes on within its budget
    assert m.steps > before


@pytest.mark.parametrize("value", [
    "sum(nums)", "max(nums)", "size(unique(nums))", "size(join(nums, nums))", "size(shuffled(nums))",
    "size(nums where it > 0)", "size(players where size(nums where it == 1) > 0)",
])
def test_a_value_going_through_a_long_list_leaves_the_step_count_as_it_was(value):
    """The built-ins and filters that count a long list's steps, read in a
    display value: the view puts the count back."""
    text = GAME.replace('depth: "f(10)"', f'depth: "{value}"').replace("vars: {n: 0}", "vars: {n: 0, nums: []}")
    text = text.replace("        choose go\n", "        nums = [1] * 1000\n        choose go\n")
    m = rulekit.load_game_text(text, "readers.yaml").new_match(2, seed=1)
    assert "_steps = m.steps" in m.game.code.split("def display_depth")[1].split("\ndef ")[0]
    before = m.steps
    m.view(0)
    assert m.steps == before


@pytest.mark.parametrize("value,helper", [("sum(d.value)", "_sumt("), ("size(d.value)", "_proj(")])
def test_a_card_property_over_a_long_zone_in_a_display_leaves_the_count_as_it_was(value, helper):
    """In a game of more cards than work.BOUNDED_CARDS a zone counts as a
    long list: ``sum(d.value)`` and ``d.value``, read from a per-card table,
    count its steps too, so a view puts them back."""
    text = GAME.replace("cards: [{name: C}]", "cards: [{name: C, count: 600, props: {value: 1}}]")
    text = text.replace('depth: "f(10)"', f'depth: "{value}"').replace("turn:", "setup: |\n  move box to d\nturn:")
    m = rulekit.load_game_text(text, "readers.yaml").new_match(2, seed=1)
    shown = m.game.code.split("def display_depth")[1].split("\ndef ")[0]
    assert helper in shown and "_steps = m.steps" in shown
    before = m.steps
    assert m.view(0)["display"][0]["depth"] == 600
    assert m.steps == before


@pytest.mark.parametrize("value", ["size(l.value)", "size(l.mark)"])
def test_a_name_read_of_a_long_built_list_in_a_display_leaves_the_count_as_it_was(value):
    """``l.value`` of a list a rule built counts its steps
    (runtime_helpers.get_attr_long): a display of it puts them back."""
    text = GAME.replace("cards: [{name: C}]", "cards: [{name: C, props: {value: 1}}]\ncard_vars: {mark: 2}")
    text = text.replace('depth: "f(10)"', f'depth: "{value}"').replace("vars: {n: 0}", "vars: {n: 0, l: []}")
    text = text.replace("turn:", "setup: |\n  move box to d\nturn:")
    text = text.replace("        choose go\n", "        l = [top(d)] * 1000\n        choose go\n")
    m = rulekit.load_game_text(text, "readers.yaml").new_match(2, seed=1)
    shown = m.game.code.split("def display_depth")[1].split("\ndef ")[0]
    assert "_steps = m.steps" in shown
    before = m.steps
    assert m.view(0)["display"][0]["depth"] == 1000
    assert m.steps == before
