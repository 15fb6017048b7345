"""What an expression does is counted against the step budget.

The budget stops a rule file that never ends, counting loop turns, ``call``
statements and turns.  An expression counted nothing, and one can do a
great deal: a procedure calling itself twice makes 2^n calls, a chain of
procedures each calling the next twice as many, filters nested in filters
multiply the lengths of their lists.  Within the budget such a rule would
run for years.  Now (``rulekit.lang.work``) a call that can come back to its
caller counts a step, so does a call of a procedure making more than
FREE_CALLS calls, a filter whose test filters or goes through a built list
counts a step per element, and a filter of a built list one per
ELEMENTS_PER_STEP elements.  Each test here ran for hours (or years) before.
"""
from __future__ import annotations

import pytest

import rulekit
from rulekit.lang import work
from rulekit.lang.parser import parse_effect
from rulekit.limits import ELEMENTS_PER_STEP, FREE_CALLS

BUDGET = 20_000


def _game(effect: str, procedures: str = "") -> rulekit.Game:
    body = "\n".join("        " + line for line in effect.split("\n"))
    text = ("name: Work\nplayers: {min: 1, max: 1}\ncards: [{name: C}]\n"
            "zones: {d: {visibility: public}}\nvars: {v: 0, l: [0]}\n")
    if procedures:
        text += f"procedures:\n{procedures}"
    text += f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n        win\n"
    return rulekit.load_game_text(text, "work.yaml")


def _over_budget(game: rulekit.Game) -> rulekit.StepBudgetExceeded:
    with pytest.raises(rulekit.StepBudgetExceeded) as caught:
        game.new_match(1, step_budget=BUDGET)
    return caught.value


#: f(n) calls itself twice: 2^60 calls
DOUBLING = """  f:
    params: [n]
    effect: |
      if n > 0:
        return f(n - 1) + f(n - 1)
      return 1
"""


def test_a_procedure_calling_itself_twice_counts_a_step_a_call():
    err = _over_budget(_game("v = f(60)", DOUBLING))
    assert err.rule == "procedure 'f'"
    assert "procedures that call themselves" in str(err)


def test_the_same_procedure_called_a_few_times_finishes_and_counts_its_calls():
    m = _game("v = f(5)", DOUBLING).new_match(1)
    assert m.result()["outcome"] == "win" and m.vars["v"] == 32
    assert m.steps >= 62            # a step for each of its 62 calls of itself


def _chain(length: int, last: str = "1") -> str:
    """p0 calls p1 twice, p1 p2... (no procedure calls itself)."""
    out = []
    for i in range(length):
        body = f"p{i + 1}() + p{i + 1}()" if i + 1 < length else last
        out.append(f"  p{i}:\n    effect: |\n      return {body}\n")
    return "".join(out)


def test_a_chain_of_procedures_each_calling_the_next_twice_counts_steps():
    err = _over_budget(_game("v = p0()", _chain(60)))
    assert err.rule.startswith("phase") or err.rule.startswith("procedure 'p")


def test_a_short_chain_costs_no_step():
    """Ten links make 2,046 calls in all, more than FREE_CALLS: the calls of
    the few links above the limit count, those below it do not."""
    m = _game("v = p0()", _chain(10)).new_match(1)
    assert m.vars["v"] == 2 ** 9
    assert 0 < m.steps < 2 ** 10
    small = _game("v = p0()", _chain(5)).new_match(1)      # 30 calls in all: none counts
    assert small.vars["v"] == 16 and small.steps == 1      # (the turn's step)


#: a list of 1,024 values, built in ten steps
LONG_LIST = "let x = [0]\nwhile size(x) < 1000:\n  x = x + x\n"


@pytest.mark.parametrize("test", [
    "size(x where size(x where size(x where it == 1) == 0) == 0)",     # three filters deep: 10^9 tests
    "size(x where sum(x) == it)",                                      # a built-in going through the list
    "size(x where it in x)",                                           # 'in' a built list
])
def test_filters_whose_test_goes_through_a_list_count_a_step_per_element(test):
    err = _over_budget(_game(LONG_LIST + f"while true:\n  v = {test}"))
    assert err.rule == "phase 'p'"


def test_a_filter_of_a_long_list_counts_a_step_per_elements_per_step():
    game = _game(LONG_LIST + "v = size(x where it == 0)")
    m = game.new_match(1)
    assert m.vars["v"] == 1024
    once = m.steps
    game2 = _game(LONG_LIST + "v = size(x where it == 0)\nv = size(x where it == 0)")
    assert game2.new_match(1).steps - once == 1024 // ELEMENTS_PER_STEP
    # in a loop the budget stops it, however cheap its test
    _over_budget(_game(LONG_LIST + "while true:\n  v = size(x where it == 0)"))


def test_a_filter_of_a_zone_or_of_the_players_counts_nothing():
    game = _game("v = size(d where it.name == 'C')\nv = size(players where it == 0)\n"
                 "v = size(d where size(players where it == 0) == 1)")
    m = game.new_match(1)
    assert m.vars["v"] == 0 and m.steps == 1               # (the turn's step)


# ---- the plan, on parse trees ---------------------------------------------------------

def _plan(procs: dict[str, str]) -> work.Work:
    return work.plan({n: parse_effect(t) for n, t in procs.items()})


def test_the_plan_finds_cycles_of_calls_and_procedures_making_many_calls():
    plan = _plan({"a": "return b(1)", "b": "return a(1) + c()", "c": "return c()",
                  "d": "return a(1)", "e": "return 1"})
    assert plan.cycle["a"] == plan.cycle["b"] == {"a", "b"} and plan.cycle["c"] == {"c"}
    assert "d" not in plan.cycle and "e" not in plan.cycle
    assert plan.counts("a", "b") and plan.counts("c", "c") and not plan.counts("d", "a")
    assert not plan.counts(None, "a")        # from a phase: the calls inside count
    many = _plan({f"p{i}": f"return p{i + 1}() + p{i + 1}()" for i in range(12)} | {"p12": "return 1"})
    # p3 makes 2 + 4 + ... + 512 = 1,022 calls: every call of it counts, and inside
    # it every call of a procedure that calls others; p2 makes 2 (its calls of p3)
    assert FREE_CALLS == 1_000 and many.heavy == {"p3"} and many.made["p2"] == 2
    assert many.counts("p2", "p3") and many.counts("p3", "p4") and not many.counts("p4", "p5")
    assert not many.counts(None, "p0") and not many.counts("p11", "p12")


def test_a_chain_of_calls_thousands_long_is_planned_without_recursion():
    n = 5_000
    plan = _plan({f"p{i}": f"return p{i + 1}()" for i in range(n)} | {f"p{n}": "return 1"})
    # every thousandth link makes more than FREE_CALLS calls: its calls count
    assert plan.heavy == {f"p{n - k * (FREE_CALLS + 1)}" for k in range(1, 5)}


@pytest.mark.parametrize("stmt", ["v = sum(x)", "l = shuffled(x)", "l = unique(x)", "v = max(x)",
                                  "v = min(x)", "l = join(x, [1])"])
def test_a_built_in_going_through_a_long_list_counts_a_step_per_elements_per_step(stmt):
    """Shuffling 50,000 values takes 30 ms: a million such steps, eight hours."""
    game = _game(LONG_LIST + f"{stmt}\n{stmt}")
    once = _game(LONG_LIST + stmt).new_match(1).steps
    assert game.new_match(1).steps - once == 1024 // ELEMENTS_PER_STEP
    _over_budget(_game(LONG_LIST + f"while true:\n  {stmt}"))


def test_a_call_statement_on_a_cycle_counts_one_step_not_two():
    """``call down(n - 1)`` counted a step as a statement; counted as a call
    that can come back to its caller, it counts that one step only."""
    game = _game("call down(50)", "  down:\n    params: [n]\n    effect: |\n      if n > 0:\n        call down(n - 1)\n")
    assert game.new_match(1).steps == 1 + 51        # the turn, and each call of down


def _deck_game(cards: int, effect: str) -> rulekit.Game:
    body = "\n".join("        " + line for line in effect.split("\n"))
    return rulekit.load_game_text(
        f"name: Deck\nplayers: {{min: 1, max: 1}}\ncards: [{{name: C, count: {cards}, props: {{value: 1}}}}]\n"
        "zones: {d: {visibility: public}}\nvars: {v: 0}\nsetup: |\n  move box to d\n"
        f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n        win\n", "deck.yaml")


@pytest.mark.parametrize("cards,counted", [(work.BOUNDED_CARDS, 0), (work.BOUNDED_CARDS + 88, 600 // 64)])
def test_a_zone_of_a_game_of_many_cards_counts_as_a_long_list(cards, counted):
    """A filter of a zone of up to BOUNDED_CARDS cards is free; in a game
    of up to MAX_CARDS (10,000) cards, filtering the deck at every step
    would take hours, so its zones count as lists a rule built."""
    test = "v = size(d where it.name == 'C' and v >= 0)"
    once = _deck_game(cards, test).new_match(1)
    twice = _deck_game(cards, f"{test}\n{test}").new_match(1)
    assert once.vars["v"] == cards and twice.steps - once.steps == counted


@pytest.mark.parametrize("test", ["v = sum(d.value)", "v = size(d.value)"])
@pytest.mark.parametrize("cards,counted", [(work.BOUNDED_CARDS, 0), (work.BOUNDED_CARDS + 88, 600 // 64)])
def test_a_card_property_of_every_card_of_such_a_zone_counts_as_a_long_list(cards, counted, test):
    """``sum(d.value)`` and ``d.value`` read a table of the property rather
    than calling a built-in, and count the same steps as the built-in ``sum``
    of the zone would."""
    once = _deck_game(cards, test).new_match(1)
    twice = _deck_game(cards, f"{test}\n{test}").new_match(1)
    assert "_sumt(" in once.game.code or "_proj(" in once.game.code
    assert once.vars["v"] == cards and twice.steps - once.steps == counted


def _card_list_game(effect: str, cards: int = 1) -> rulekit.Game:
    """A game whose phase first builds ``l``, 6,400 cards (the same card),
    ``s``, 6,400 seats, and ``nest``, a thousand lists of one card."""
    body = "\n".join("        " + line for line in effect.split("\n"))
    return rulekit.load_game_text(
        f"name: Long\nplayers: {{min: 1, max: 1}}\ncards: [{{name: C, count: {cards}, props: {{value: 1}}}}]\n"
        "card_vars: {mark: 2}\nzones: {d: {visibility: public}}\nvars: {v: 0, l: [], s: []}\n"
        "player_vars: {hp: 3}\nsetup: |\n  move box to d\nturn:\n  phases:\n    - name: p\n      effect: |\n"
        "        l = [top(d)] * 6400\n        s = [0] * 6400\n        let nest = [[top(d)]] * 1000\n"
        f"{body}\n        win\n", "long.yaml")


@pytest.mark.parametrize("read,helper", [
    ("size(l.value)", "_gal("),                 # a card property of a list of cards
    ("size(x.value)", "_gal("),                 # ... through a local of no known kind
    ("size(s.hp)", "_pv("),                     # a player's variable of a list of seats
    ("size(l.mark)", "_cv("),                   # a card variable of a list of cards
])
def test_a_name_read_of_every_element_of_a_long_built_list_counts_a_step_per_elements_per_step(read, helper):
    """``l.value`` of a list a rule built goes through it as a filter does:
    6,400 elements read in a loop, uncounted, took 13 ms a step, hours
    within the budget."""
    once = _card_list_game(f"let x = l\nv = {read}")
    twice = _card_list_game(f"let x = l\nv = {read}\nv = {read}")
    assert helper in once.code
    m = once.new_match(1)
    assert m.vars["v"] == 6400 and twice.new_match(1).steps - m.steps == 6400 // ELEMENTS_PER_STEP
    err = _over_budget(_card_list_game(f"let x = l\nwhile true:\n  v = {read}"))
    assert err.rule == "phase 'p'"


def test_a_name_read_through_a_list_of_lists_counts_a_step_for_each_list_inside():
    """A thousand lists of one card: each inner list is a list gone through."""
    once = _card_list_game("v = size(nest.value)").new_match(1)
    twice = _card_list_game("v = size(nest.value)\nv = size(nest.value)").new_match(1)
    assert once.vars["v"] == 1000 and twice.steps - once.steps == 1000 // ELEMENTS_PER_STEP + 1000


@pytest.mark.parametrize("cards,counted", [(work.BOUNDED_CARDS, 0), (work.BOUNDED_CARDS + 88, 600 // 64)])
def test_a_card_variable_of_every_card_of_a_long_zone_counts_as_a_long_list(cards, counted):
    """``d.mark`` (a card variable) of a zone in a game of more than
    BOUNDED_CARDS cards counts as the zone's ``d.value`` does."""
    once = _card_list_game("v = size(d.mark)", cards).new_match(1)
    twice = _card_list_game("v = size(d.mark)\nv = size(d.mark)", cards).new_match(1)
    assert once.vars["v"] == cards and twice.steps - once.steps == counted


def test_a_long_chain_to_a_procedure_that_filters_is_planned_in_one_pass():
    """Each link may go through a list within one step, through calls that
    count none, found from the last link back; the call of a link that
    makes more than FREE_CALLS calls counts, and ends the chain there."""
    n = 5_000
    plan = _plan({f"p{i}": f"return p{i + 1}()" for i in range(n)} | {f"p{n}": "return size(players where it > 0)"})
    first_counted = n - (FREE_CALLS + 1)            # (see the test above)
    assert plan.counts(f"p{first_counted - 1}", f"p{first_counted}")
    assert {f"p{i}" for i in range(first_counted, n + 1)} == plan.looping


def _statement_chain(length: int, calls: int) -> str:
    """p0 runs ``call p1`` ``calls`` times, p1 p2..., the last sets v."""
    out = []
    for i in range(length):
        body = "\n".join([f"      call p{i + 1}"] * calls)
        out.append(f"  p{i}:\n    effect: |\n{body}\n")
    return "".join(out) + f"  p{length}:\n    effect: |\n      v = v + 1\n"


def test_a_chain_of_call_statements_thousands_long_loads():
    """Each ``call`` of a procedure without parameters was written in place,
    its own calls in turn: 3,000 links raised RecursionError out of
    load_game_text, and links calling the next twice doubled the code at
    each (40 links would never load)."""
    deep = _game("call p0", _statement_chain(3_000, 1))      # it loads; calls 3,000 deep are refused in play
    with pytest.raises(rulekit.RuleRuntimeError, match="deeper than Python's stack allows"):
        deep.new_match(1)
    assert _game("call p0", _statement_chain(500, 1)).new_match(1).vars["v"] == 1
    err = _over_budget(_game("call p0", _statement_chain(40, 2)))
    assert err.rule.startswith("procedure 'p")


def test_a_for_loop_counts_a_step_for_each_element_before_its_first_turn():
    """``for`` counts its turns at once (one count, not one per turn): a loop
    over 40 elements that returns at its first costs the same 40 steps as
    one that goes through them all, and a match with a budget under them
    stops before the body ever runs (``v`` is still 0)."""
    effect = f"for x in {list(range(40))}:\n  v = v + 1\n  if x == 0:\n    win"
    source = rulekit.load_game_text(
        "name: Work\nplayers: {min: 1, max: 1}\ncards: [{name: C}]\nzones: {d: {visibility: public}}\n"
        "vars: {v: 0}\nturn:\n  phases:\n    - name: p\n      effect: |\n"
        + "".join(f"        {line}\n" for line in effect.split("\n")), "work.yaml")
    m = source.new_match(1)
    assert m.result()["outcome"] == "win" and m.vars["v"] == 1
    whole = m.steps
    assert whole >= 40
    with pytest.raises(rulekit.StepBudgetExceeded):
        source.new_match(1, step_budget=whole - 1)
    assert "_each = list(" in source.code


def test_any_of_zones_joined_reads_them_until_one_holds_a_card():
    """``any(join(z1, z2))`` (``empty`` too) is true when a part holds a card:
    the parts are read in order and the first that holds one decides."""
    game = _game("v = 0\nif any(join(d, d)):\n  v = 1\nif empty(join(d, d)):\n  v = v + 10")
    m = game.new_match(1)
    assert m.vars["v"] == 10
    code = game.code
    assert "bool(GZ[" in code and "not (GZ[" in code
