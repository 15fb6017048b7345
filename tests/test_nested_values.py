"""Lists inside lists stay within the limits while a match runs.

``l = [l, l]`` in a loop doubles what ``l`` holds at every step, while
memory holds only two pointers; showing it (a view as JSON, the log) would
then write out millions of values, and ``l = [l]`` nests it deeper than
JSON or Python's stack can go.  An event that holds itself
(``event.x = [event]``) nests without end.  So every list a rule builds
that may hold lists or events is weighed as it is built
(``rulekit.lang.runtime_growth``): past MAX_BUILT_ITEMS values or
MAX_NESTING levels the rule fails at its statement, as any rule error does.
"""
from __future__ import annotations

import json

import pytest

import rulekit
from rulekit.limits import MAX_BUILT_ITEMS, MAX_NESTING, MAX_SHOWN_VALUES

TOO_MANY = (f"more than {MAX_BUILT_ITEMS} values counting those of the lists inside it and a text's characters "
            "(MAX_BUILT_ITEMS)")
TOO_DEEP = f"nested more than {MAX_NESTING} deep (MAX_NESTING)"


def _game(effect: str, triggers: str = "", cards: str = "[{name: C}]") -> tuple[str, rulekit.Game]:
    body = "\n".join("        " + line for line in effect.split("\n"))
    text = (f"name: Nesting\nplayers: {{min: 1, max: 1}}\ncards: {cards}\n"
            "zones: {d: {visibility: public}}\nvars: {v: 2, l: [1]}\n"
            "player_vars: {pv: [1]}\ncard_vars: {cv: [1]}\n"
            "setup: |\n  move box to d\n"
            f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n{triggers}"
            "choices:\n  wait:\n    params: [p]\n    who: p\n    prompt: 'go on, player {p}'\n"
            "    options:\n      - {name: go}\n")
    return text, rulekit.load_game_text(text, "nest.yaml")


@pytest.mark.parametrize("effect,message", [
    ("while true:\n  l = [l, l]", TOO_MANY),                         # a list display
    ("while true:\n  l = [l]", TOO_DEEP),
    ("while true:\n  l = [l] + [l]", TOO_MANY),                        # '+' of lists
    ("while true:\n  l = [l] * 2", TOO_MANY),                          # '*' of a list
    ("while true:\n  l = join([l], [l])", TOO_MANY),                   # join of list displays, in place
    ("let x = [[1]]\nwhile true:\n  x = join(x, x)", TOO_MANY),        # (the values inside count first)
    ("while true:\n  l = join(l, [l])", TOO_MANY),                    # join at run time
    ("while true:\n  current.pv = join(players, players).pv", TOO_MANY),   # a variable of each seat
    ("while true:\n  for c in d:\n    c.cv = d.cv", TOO_DEEP),       # a card variable of each card
    ("let x = [l]\nwhile true:\n  x = [x, x, 1]", TOO_MANY),
    # one long text many times: each is within the limit, the list would write out ten billion characters
    ("let s = 'ab'\nwhile size(s) < 50000:\n  s = s + s\nl = [s] * 100000", TOO_MANY),
    ("let s = 'ab'\nwhile size(s) < 50000:\n  s = s + s\nl = [s, s, s]", TOO_MANY),
    ("let s = 'ab'\nwhile size(s) < 50000:\n  s = s + s\nl = [s]\nwhile true:\n  l = l + l", TOO_MANY),
])
def test_a_list_that_would_hold_itself_without_end_stops_its_rule_at_the_statement(effect, message):
    text, game = _game(effect + "\nwin")
    with pytest.raises(rulekit.RuleRuntimeError) as info:
        game.new_match(1)
    error = info.value
    assert message in str(error)
    assert error.where.file == "nest.yaml"
    assert text.split("\n")[error.where.line - 1].strip() == effect.split("\n")[-1].strip()


def test_a_card_property_that_is_a_list_read_of_many_cards_is_weighed():
    """``d.tags`` of ten thousand cards with ten tags each is 110,000 values."""
    tags = list(range(10))
    _, game = _game("let x = d.tags\nwin", cards=f"[{{name: C, count: 10000, props: {{tags: {tags}}}}}]")
    assert "_nest(_proj(" in game.code
    with pytest.raises(rulekit.RuleRuntimeError) as info:
        game.new_match(1)
    assert TOO_MANY in str(info.value)
    _, fewer = _game("let x = d.tags\nif size(x) != 100 or x[0] != [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]:\n  lose 'wrong'\n"
                     "win", cards=f"[{{name: C, count: 100, props: {{tags: {tags}}}}}]")
    assert fewer.new_match(1).result()["outcome"] == "win"


def test_an_event_that_would_hold_itself_stops_the_trigger_that_puts_it_in():
    text, game = _game("emit boom(x=1)\nwin", "triggers:\n  - on: boom\n    effect: |\n      event.x = [event]\n")
    with pytest.raises(rulekit.RuleRuntimeError) as info:
        game.new_match(1)
    error = info.value
    assert TOO_DEEP in str(error) and "holds itself" in str(error)
    assert text.split("\n")[error.where.line - 1].strip() == "event.x = [event]"


def test_lists_of_lists_within_the_limits_are_kept_and_shown():
    """Nesting itself is allowed: an event holding a list, a list of
    lists, a list of events; views and the log show them as they are."""
    _, game = _game("emit boom(x=[[1, 2], [3]], y=0) as ev\nl = [ev.x, [ev.x], ev.y]\n"
                    "l = l + [[]]\nchoose wait(current)\nwin",
                    "triggers:\n  - on: boom\n    effect: |\n      event.y = [event.x, 4]\n")
    m = game.new_match(1)
    assert m.vars["l"] == [[[1, 2], [3]], [[[1, 2], [3]]], [[[1, 2], [3]], 4], []]
    view = m.view(0)
    assert json.loads(json.dumps(view["vars"]))["l"] == m.vars["l"]
    assert '"fields":{"x":[[1,2],[3]],"y":[[[1,2],[3]],4]}' in m.log_json()


def test_displays_of_what_holds_no_list_stay_plain_python_lists():
    """Weighing costs a call: a display of numbers, texts, seats, cards or
    a chosen answer's player is written as Python's own list."""
    _, game = _game("l = [1, 'a', current, true]\nfor c in d:\n  l = [c, c]\nchoose wait(current)\n"
                    "l = [wait.player, wait.option]\nl = [l]\nwin")
    code = game.code
    assert "[1, 'a', m.current, True]" in code and "[L_p0_c, L_p0_c]" in code
    assert "[CH['wait'].player, CH['wait'].option]" in code
    assert "_one(V['l'])" in code


def test_a_match_too_large_to_show_says_so_instead_of_filling_memory():
    """Each value within its limit, but one list of 99,000 stored on 200
    cards, or emitted 200 times, would write out twenty million values:
    the view, or the log, is refused with a message naming the limit."""
    store = "let big = [1] * 99000\nfor c in d:\n  c.cv = big\nchoose wait(current)\nwin"
    _, game = _game(store, cards="[{name: C, count: 200}]")
    m = game.new_match(1)
    with pytest.raises(rulekit.RuleRuntimeError, match=f"more than {MAX_SHOWN_VALUES:,} values to show"):
        m.view(0)
    assert m.log_json()                              # (the log holds nothing large)
    emit = "let big = [1] * 99000\nlet i = 0\nwhile i < 200:\n  emit boom(x=big)\n  i += 1\nchoose wait(current)\nwin"
    _, game = _game(emit)
    m = game.new_match(1)
    with pytest.raises(rulekit.RuleRuntimeError, match="MAX_SHOWN_VALUES"):
        m.log_json()
    with pytest.raises(rulekit.RuleRuntimeError, match="MAX_SHOWN_VALUES"):
        m.view(0)
    # the last events alone are within the limit: a client that has seen the rest is shown them
    assert len(m.view(0, since=len(m.log) - 5)["log"]) == 5
    m.apply(0)
    assert m.result()["outcome"] == "win"


def test_counting_what_a_view_shows_ends_even_on_a_value_that_holds_itself():
    """Effect text cannot make such a value (it fails where it is built);
    a program that puts one in a match's variables gets the same refusal
    from the view, not a count that never ends."""
    _, game = _game("choose wait(current)\nwin")
    m = game.new_match(1)
    loop: dict = {}
    loop["x"] = [loop]
    m.vars["l"] = loop
    with pytest.raises(rulekit.RuleRuntimeError, match="MAX_SHOWN_VALUES"):
        m.view(0)


def test_the_deepest_list_a_rule_may_build_is_shown():
    """A list nested MAX_NESTING deep is the deepest a rule builds; a view
    and the log show it (held in a variable, and as an event's field)."""
    _, game = _game(f"let i = 1\nwhile i < {MAX_NESTING}:\n  l = [l]\n  i += 1\nemit boom(x=l)\n"
                    "choose wait(current)\nwin")
    m = game.new_match(1)
    depth, value = 0, m.vars["l"]
    while type(value) is list:
        depth, value = depth + 1, value[0]
    assert depth == MAX_NESTING
    assert json.loads(json.dumps(m.view(0)["vars"]))["l"] == m.vars["l"]
    assert m.log_json().count("[") >= MAX_NESTING
    _, deeper = _game(f"let i = 0\nwhile i < {MAX_NESTING}:\n  l = [l]\n  i += 1\nwin")
    with pytest.raises(rulekit.RuleRuntimeError, match=TOO_DEEP.replace("(", r"\(").replace(")", r"\)")):
        deeper.new_match(1)


def _counted(v, depth: int = 1) -> tuple[int, int]:
    """What written_size counts of ``v`` the plain recursive way: (values and
    characters, deepest level of lists and events)."""
    if type(v) is str:
        return len(v), 0
    if type(v) in (list, tuple, dict):
        items = list(v.values()) if type(v) is dict else list(v)
        inside = [_counted(x, depth + 1) for x in items]
        return len(items) + sum(n for n, _ in inside), max([depth, *(d for _, d in inside)])
    return 0, 0


def _value(rng, depth: int):
    roll = rng.random()
    if depth > 0 and roll < 0.3:
        return [_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    if depth > 0 and roll < 0.4:
        return {f"k{i}": _value(rng, depth - 1) for i in range(rng.randrange(3))}
    if roll < 0.6:
        return "x" * rng.randrange(5)
    return rng.choice([1, 2.5, True, None])


def test_written_size_counts_every_value_character_and_level():
    """The level-by-level count agrees with a plain recursive one on random
    nested values, a limit one short of the count refuses, and a value one
    level too deep is refused as such."""
    import random

    from rulekit.limits import TooLarge, written_size
    rng = random.Random(5)
    for _ in range(400):
        values = [_value(rng, 5) for _ in range(rng.randrange(1, 6))]
        total = len(values) + sum(_counted(v)[0] for v in values)
        deepest = max(_counted(v)[1] for v in values)
        assert written_size(values, total + 3) == 3
        assert written_size(iter(values), total, deepest) == 0
        with pytest.raises(TooLarge) as too_many:
            written_size(values, total - 1)
        assert not too_many.value.deep
        if deepest:
            with pytest.raises(TooLarge) as too_deep:
                written_size(values, total, deepest - 1)
            assert too_deep.value.deep


def test_written_size_stops_at_the_limit_however_a_list_is_shared():
    """A list held a million times is refused after counting up to the limit,
    not after going through what it holds a million times."""
    from rulekit.limits import TooLarge, written_size
    shared = list(range(1000))
    with pytest.raises(TooLarge):
        written_size([[shared] * 1_000_000], 100_000)
    assert written_size([[shared] * 99], 100_000) == 100_000 - 1 - 99 - 99_000
