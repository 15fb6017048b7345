"""What certainly fails is refused when the file loads (rulekit.lang.type_checks).

An operation on values whose types the file makes certain — literals, sizes,
card properties every card holds as one type, variables whose every
assignment keeps the type of their initial value — that fails whenever it
runs, or a comparison that never holds, is an error at its file, line and
column; whatever a match could run without failing still loads."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.errors import RuleFileError

GAME = """\
name: Types
players: {min: 2, max: 2}
cards:
  - name: "{rank}{suit}"
    each:
      suit: [{suit: S}, {suit: H}]
      rank: [{rank: "2", value: 2}, {rank: "3", value: 3}]
zones:
  deck: {visibility: hidden}
  pile: {per_player: true, visibility: hidden}
vars:
  score: 0
  word: "a"
  seen: []
  loose: null
player_vars: {won: 0}
card_vars: {marks: 0}
choices:
  go:
    options:
      - {name: ok}
procedures:
  pick: return first(deck.value)
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        choose go
        STATEMENT
        win for current "done"
"""


def load(statement: str) -> rulekit.Game:
    return rulekit.load_game_text(GAME.replace("STATEMENT", statement.replace("\n", "\n        ")), "types.yaml")


def refused(statement: str) -> list[rulekit.RuleError]:
    with pytest.raises(RuleFileError) as info:
        load(statement)
    return info.value.errors


def refused_at(statement: str, column: int, message: str) -> None:
    """``statement`` (its first line the file's line 31) is refused with one
    error, at ``column``, with what was expected and a hint."""
    errors = refused(statement)
    assert [(e.where.line, e.where.column, e.message) for e in errors] == [(31, column, message)]
    assert errors[0].expected and errors[0].hint


@pytest.mark.parametrize("statement, column, message", [
    ('score = score + "x"', 23, "'+' cannot take a number and a text"),
    ('score += "x"', 15, "'+' cannot take a number and a text"),
    ("score = size(deck) - [1]", 28, "'-' cannot take a number and a list"),
    ('score = current.won // "2"', 29, "'//' cannot take a number and a text"),
    ("score = word % 2", 22, "'%' cannot take a text and a number"),
    ("score = seen * seen", 22, "'*' cannot take a list and a list"),
    ('let x = top(deck).rank + 1', 32, "'+' cannot take a text and a number"),
    ("let x = deck.marks + 1", 28, "'+' cannot take a list and a number"),
    ('if current.won < "3":\n  lose "x"', 24, "'<' cannot compare a number and a text"),
    ('if phase == 2:\n  lose "x"', 18, "'==' between a text and a number is never true"),
    ('if word != seen:\n  lose "x"', 17, "'!=' between a text and a list is always true"),
    ("if 3 in score:\n  lose \"x\"", 17, "'in' cannot look inside a number"),
    ('if score in "abc":\n  lose "x"', 21, "'in' cannot look for a number in a text"),
    ("let x = -word", 17, "'-' cannot take a text"),
    ("let x = size(score)", 22, "size() cannot take a number"),
    ("let x = any(3)", 21, "any() cannot take a number"),
    ("let x = next(word)", 22, "next() cannot take a text"),
])
def test_what_fails_whenever_it_runs_is_refused_where_it_is_written(statement, column, message):
    refused_at(statement, column, message)


@pytest.mark.parametrize("statement, column, message", [
    ("for i in size(deck):\n  pass", 18, "'for' needs cards or a list, not a number"),
    ("move 3 to deck", 14, "'move' needs cards or a list, not a number"),
    ("move top(deck) to word", 27, "'move ... to' needs a zone, not a text"),
    ("shuffle seen", 17, "'shuffle' needs a zone, not a list"),
    ('eliminate "x"', 19, "'eliminate' needs a player (a seat number), not a text"),
    ("next player word", 21, "'next player' needs a player (a seat number), not a text"),
    ("win for deck \"r\"", 17, "'win for' needs a player or a list of players, not a zone"),
    ("move top(deck) to pile(word)", 32, "zone 'pile' needs a player (a seat number), not a text"),
])
def test_a_statement_given_what_it_never_takes_is_refused(statement, column, message):
    refused_at(statement, column, message)


@pytest.mark.parametrize("statement", [
    'move top(deck) to pile(current)\nmove "" to deck\nmove top(deck) to deck\nfor c in top(deck):\n  pass',
    "win for players \"all\"\nwin for current \"one\"",
    "for c in word:\n  pass",              # a text is its characters (none, when empty)
])
def test_statements_given_what_may_work_load(statement):
    load(statement)


@pytest.mark.parametrize("statement", [
    'word = word + "b"\nseen = seen + [1] + deck.value\nscore = score * 2 - size(deck) // 2 % 3',
    'let x = "ab" * 3\nlet y = 2 * [1]\nlet z = "a" in "abc"\nlet n = size("abc")',
    'if top(deck).rank == "2" or top(deck).value > 2 or word < "b":\n  lose "x"',
    "if (score > 1) == 1 or top(deck) == top(deck) or seen == deck:\n  lose \"x\"",
    "loose = 1\nloose = \"a\"\nlet x = loose + 1",      # declared null: any type
    "let x = size(deck) + true - (score > 2)",            # a truth value counts as 1 or 0
    "let t = \"a\"\nlet x = t + 1",                        # a local that holds no number: not followed
    'let n = 1\nfor c in deck:\n  let y = n + 1\n  n = "a"',   # set again in a loop: not known in it
    "let x = pick() + 1\nlet y = call pick() + 1",           # what a procedure returns: not known
    # none is taken as an empty list, a card as a list of one, a text as its characters:
    # a card's property (of the top of an empty zone: none) or a variable set to one may be none
    "let x = sum(top(deck).value)\nlet y = any(word) and size(first(word)) > 0",
    "score = top(deck).value\nlet n = size(score)",
])
def test_what_may_work_loads(statement):
    load(statement)


def test_a_local_the_compiler_knows_to_hold_a_number_is_one():
    errors = refused('let n = size(deck) * 2\nlet x = n + "a"')
    assert [(e.where.line, e.where.column, e.message) for e in errors] == [
        (32, 19, "'+' cannot take a number and a text")]
    errors = refused("let n = size(deck)\nscore = n\nlet x = size(score)")      # and so is what it is set to
    assert [e.message for e in errors] == ["size() cannot take a number"]


def test_a_variable_set_to_another_type_anywhere_is_no_longer_known():
    """``score: 0`` set to a list in another rule may hold a list: size(score)
    is then no error (it works after that rule ran)."""
    load("score = [1, 2]\nlet n = size(score)")
    load("score = call pick()\nlet n = size(score)")
    with pytest.raises(RuleFileError):              # set to numbers only: a number
        load("score = size(deck) * 2\nlet n = size(score)")


def test_variables_set_from_each_other_keep_their_type():
    """Types are worked out as the largest set that every assignment keeps
    (seen from each other, as in a loop, two numbers stay numbers)."""
    errors = refused('score = current.won + 1\ncurrent.won = score\nlet x = size(current.won)')
    assert [e.message for e in errors] == ["size() cannot take a number"]


def test_what_is_built_on_a_failure_is_reported_once():
    """``score + "x"`` makes no value: the variable it is assigned to keeps
    its type, and the comparison built on it is not reported again."""
    errors = refused('score = score + "x"\nif score + "y" == "z":\n  lose "x"')
    assert [(e.where.line, e.message) for e in errors] == [
        (31, "'+' cannot take a number and a text"), (32, "'+' cannot take a number and a text")]


def test_a_comparison_with_a_name_no_card_has_is_told_once():
    """``it.rank == 2`` where every rank is a text: the name check says so
    (with the value to write); the check of types adds nothing."""
    errors = refused('if any(deck where it.rank == 2):\n  lose "x"')
    assert [e.message for e in errors] == ["no card has rank 2: every rank is a text"]


def test_every_kind_of_text_is_checked_at_its_own_position():
    """Choices' filters and conditions, heuristics, stats and displays are
    checked too, each at its own line and column."""
    text = GAME.replace("STATEMENT", "pass").replace(
        "      - {name: ok}", '      - {name: ok, when: "size(deck) + word > 0"}').replace(
        "procedures:", 'display:\n  half: "word // 2"\nheuristics:\n  go: "-word"\nprocedures:')
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text, "types.yaml")
    found = sorted((e.where.line, e.where.column, e.message) for e in info.value.errors)
    assert found == [(21, 38, "'+' cannot take a number and a text"),
                     (23, 15, "'//' cannot take a text and a number"),
                     (25, 8, "'-' cannot take a text")]


def test_a_variable_declared_a_text_is_not_divided_as_a_stat():
    """(A mutant of Regicide gave a variable a text its ``player_stats``
    divide, found when the match ended: now when the file loads.)"""
    text = GAME.replace("STATEMENT", "pass").replace("procedures:", 'player_stats:\n  half: "word // 2"\nprocedures:')
    with pytest.raises(RuleFileError, match=r"types.yaml:\d+:\d+: error: '//' cannot take a text and a number"):
        rulekit.load_game_text(text, "types.yaml")


def test_a_property_of_cards_set_aside_is_not_known():
    """A card entry with a structural error is set aside: the properties of
    the cards left say nothing certain (the one set aside had a text)."""
    text = GAME.replace("STATEMENT", 'if any(deck where it.value == "wild"):\n          lose "x"').replace(
        '      rank: [{rank: "2", value: 2}, {rank: "3", value: 3}]',
        '      rank: [{rank: "2", value: 2}, {rank: "3", value: 3}]\n  - {name: W, props: {value: "wild"}, bogus: 1}')
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text, "types.yaml")
    assert [e.message for e in info.value.errors] == ["unknown key 'bogus' in card entry 2"]


def test_a_heuristic_or_a_zone_limit_that_is_no_number_is_refused():
    """An agent refuses a score that is no number (true or false included),
    and a zone's limit is a number of cards."""
    text = GAME.replace("STATEMENT", "pass").replace(
        "procedures:", 'heuristics:\n  go: "size(deck) > 2"\nprocedures:').replace(
        "pile: {per_player: true, visibility: hidden}", 'pile: {per_player: true, visibility: hidden, limit: "word"}')
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text, "types.yaml")
    assert sorted((e.message, e.hint) for e in info.value.errors) == [
        ("heuristic 'go' needs a number, not true or false", "a test counts as a number written 'N if TEST else M'"),
        ("the limit of zone 'pile' needs a number, not a text", "write a number")]
    rulekit.load_game_text(text.replace('"size(deck) > 2"', '"1 if size(deck) > 2 else 0"').replace(
        'limit: "word"', 'limit: "size(deck)"'), "types.yaml")


def test_who_and_the_players_offered_are_checked():
    """A choice's ``who`` is a player; a ``player:`` option offers a list of them."""
    for old, new, message in [
            ("  go:\n    options:", '  go:\n    who: "deck"\n    options:', "'who' needs a player (a seat number), not a zone"),
            ("      - {name: ok}", '      - {name: ok, player: "size(deck)"}', "'player' of option 'ok' needs a list, not a number")]:
        with pytest.raises(RuleFileError) as info:
            rulekit.load_game_text(GAME.replace("STATEMENT", "pass").replace(old, new), "types.yaml")
        assert [e.message for e in info.value.errors] == [message]


@pytest.mark.parametrize("who", ["first([99])", "first([deck])", "first([none])"])
def test_a_choice_put_to_what_is_no_seat_stops_its_rule(who):
    """What the file cannot tell is checked as the match asks: a decision put
    to what is no seat never reaches an agent (it was an internal error)."""
    game = rulekit.load_game_text(GAME.replace("STATEMENT", "pass").replace(
        "  go:\n    options:", f'  go:\n    who: "{who}"\n    options:'), "types.yaml")
    with pytest.raises(rulekit.RuleRuntimeError, match=r"choice 'go' is put to .*, which is no player: its 'who' must "
                       r"give a seat 0 to 1 \(in choice 'go'\)"):
        game.new_match(2, seed=0)


def test_an_option_is_of_its_defaults_type():
    """A match's option takes only values of its default's type."""
    text = GAME.replace("card_vars: {marks: 0}", "card_vars: {marks: 0}\noptions:\n  start: {default: 2, values: [1, 2]}")
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text.replace("STATEMENT", "let z = size(start)"), "types.yaml")
    assert [e.message for e in info.value.errors] == ["size() cannot take a number"]
    rulekit.load_game_text(text.replace("STATEMENT", "let z = start + 1"), "types.yaml")
