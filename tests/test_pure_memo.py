"""Pure procedures (rulekit.lang.purity) and the memo of their answers
(rulekit.lang.pass_memo) that the heuristic agent opens while it scores."""
from __future__ import annotations

import textwrap

import rulekit
from rulekit.agents import HeuristicAgent
from rulekit.lang import pass_memo, printer, purity
from rulekit.lang.ir import Assign, For, Function, If, Return
from rulekit.lang.parser import parse_effect
from rulekit.lang.passes import ModuleTables

AT = (None, "procedure 'f'", ())


def trees(**texts: str) -> dict:
    return {name: parse_effect(textwrap.dedent(text)) for name, text in texts.items()}


# ---- which procedures are pure ---------------------------------------------------
PROCS = trees(
    count_high="""\
        let n = 0
        for c in hand(p):
          if c.value > 5:
            n += 1
        return n
    """,
    any_high="return count_high(p) > 0",
    mover="move top(deck) to hand(p)\nreturn 1",
    calls_mover="let x = call mover(p)\nreturn x",
    sets_var="total = 3\nreturn total",
    shuffles="return first(shuffled(hand(p)))",
    reads="return p + 1",
    three="return size(hand(p) where it.value > a + b)",
    calls_three="return three(p, 1, 2) > 0",
)
PARAMS = {n: ("p",) for n in PROCS} | {"three": ("p", "a", "b")}


def test_a_procedure_that_writes_nothing_and_calls_only_pure_ones_is_pure():
    assert purity.pure(PROCS, PARAMS) == {"count_high", "any_high", "reads", "three", "calls_three"}


def test_moves_match_variables_random_draws_and_impure_calls_are_not_pure():
    pure = purity.pure(PROCS, PARAMS)
    for name in ("mover", "calls_mover", "sets_var", "shuffles"):
        assert name not in pure, name


def test_only_pure_procedures_with_a_loop_or_a_filter_and_few_parameters_are_remembered():
    pure = purity.pure(PROCS, PARAMS)
    # any_high has no loop and calls only count_high, which is remembered itself:
    # it answers about as fast as a look-up, as reads does; three has more
    # parameters than a decision asks the same question with, so calls_three,
    # which has no loop of its own, is remembered in its place
    assert purity.costly(PROCS, pure, PARAMS) == {"count_high", "calls_three"}


def test_an_expression_calling_only_pure_procedures_may_use_the_memo():
    names, pure = set(PROCS), purity.pure(PROCS, PARAMS)
    assert purity.calls_only(parse_effect("any_high(player) and reads(1) > 0", "expr"), names, pure)
    assert not purity.calls_only(parse_effect("call calls_mover(player)", "expr"), names, pure)


# ---- the memo pass -----------------------------------------------------------------
def memo_function() -> Function:
    """``f(p)``: counts one step per element of a loop, returns early for p 0."""
    body = [If([("L_p == 0", [Return("'zero'", origin=AT)])], one_line=True, origin=AT),
            For("x", "range(L_p)", [Assign("m.steps", "1", "+=", origin=AT)], origin=AT),
            Assign("m.calls", "1", "+=", origin=AT),
            If([("L_p == 1", [Return("'one'", origin=AT)])], origin=AT)]
    return Function("f", ("p",), "procedure 'f'", body)


class FakeMatch:
    def __init__(self):
        self.memo, self.steps, self.budget, self.calls = None, 0, 100, 0


def compiled(fn: Function):
    ns: dict = {"_Unhashable": TypeError}
    exec(printer.function(fn)[0], ns)
    return ns[fn.name]


def test_the_memo_pass_changes_only_the_functions_it_is_told_of():
    fn = memo_function()
    pass_memo.run(fn, ModuleTables())
    assert fn.body == memo_function().body


def test_a_remembered_procedure_answers_from_the_memo_and_counts_its_steps_again():
    fn = memo_function()
    pass_memo.run(fn, ModuleTables(memoized={"f"}))
    f = compiled(fn)
    m = FakeMatch()
    assert [f(m, 0), f(m, 1), f(m, 3), f(m, 3)] == ["zero", "one", None, None]
    assert (m.calls, m.steps) == (3, 7)              # closed: every call runs (0 returns first)
    m = FakeMatch()
    m.memo = {}
    assert [f(m, 0), f(m, 1), f(m, 3), f(m, 3), f(m, 1), f(m, True)] == ["zero", "one", None, None, "one", "one"]
    assert m.calls == 3                               # 3 and 1 once each, True apart from 1
    assert m.steps == 1 + 3 + 3 + 1 + 1               # the steps of every call, remembered or not


def test_an_argument_that_cannot_be_a_key_is_not_looked_up():
    fn = memo_function()
    fn.body.insert(0, Assign("L_p", "len(L_p)", origin=AT))
    pass_memo.run(fn, ModuleTables(memoized={"f"}))
    f = compiled(fn)
    m = FakeMatch()
    m.memo = {}
    assert [f(m, [1, 2]), f(m, [1, 2])] == [None, None]
    assert m.calls == 2 and m.memo == {}


# ---- in a game -----------------------------------------------------------------------
GAME = """\
name: Memo
players: {min: 2, max: 2}
cards:
  - name: "c{value}"
    each:
      value: [1, 2, 3, 4, 5, 6, 7, 8]
zones:
  hand: {per_player: true, visibility: owner}
  pile: {visibility: public}
procedures:
  high:
    params: [p]
    effect: |
      return size(hand(p) where it.value > 4)
choices:
  pick:
    who: current
    prompt: "Pick a card"
    options:
      - name: card
        cards: 1
        from: hand(current)
setup: |
  shuffle box
  move top(box, 4) to hand(0)
  move box to hand(1)
turn:
  phases:
    - name: play
      effect: |
        choose pick
        move pick.cards to pile
        if size(hand(current)) == 0:
          win for current "emptied"
heuristics:
  pick: "sum(chosen.value) + high(current) - high(1 - current)"
"""


def test_the_heuristic_agent_scores_the_same_with_the_memo(tmp_path):
    path = tmp_path / "memo.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = rulekit.load_game(path)
    assert game.choices["pick"].memo_safe
    assert "_mk = (proc_high, L_p, type(L_p)" in game.code
    m = game.new_match(2, seed=3)
    agent = HeuristicAgent(0)
    steps = m.steps
    with_memo = agent.scores(m, m.decision)
    assert m.memo is None                              # closed again after scoring
    plain = [game.choices["pick"].heuristic(m, [m.card(i) for i in a.cards], a.option, a.player)
             for a in m.decision.options]
    assert with_memo == plain
    assert m.steps == steps                            # 'high' counts no step of its own
