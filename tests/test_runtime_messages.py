"""A rule that fails while running is told in the rule file's terms, at
the statement that failed: effect text is not typed, so the mix-ups an
author makes (a number that is no seat, a card where a player belongs, a
card variable read of a player, a zone indexed like a list) reach the code
that reads them, and must come back as what they are."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.errors import RuleFileError, RuleRuntimeError

GAME = """
name: Mixups
players: {min: 2, max: 2}
cards:
  - {name: Chip, count: 4, props: {value: 1}}
zones:
  deck: {visibility: hidden}
  hand: {visibility: owner, per_player: true}
player_vars:
  health: 3
card_vars:
  worn: 0
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        let seat = 3
        let card = top(deck)
        %s
        win for current "done"
"""
LINE = 21          # the line of the statement under test in GAME


def failure(statement: str) -> RuleRuntimeError:
    game = rulekit.load_game_text(GAME % statement, "mixups.yaml")
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_match(2, seed=1)
    return caught.value


# (a value whose type the file makes certain is checked when it loads: tests/test_type_checks.py;
# first([...]) hides it)
@pytest.mark.parametrize("statement, says", [
    ("seat.health -= 1", "a number used as a player is not a seat of this match: its players are 0 to 1"),
    ("let h = hand(seat)", "a number used as a player is not a seat of this match: its players are 0 to 1"),
    ("card.health += 1", "a card was used where a player (a seat number) is expected"),
    ("let h = hand(card)", "a card was used where a player (a seat number) is expected"),
    ("let w = current.worn", "'worn' is a card variable, read here of something that is not a card"),
    ("let x = [1, 2][5]", "no entry 5 in [1, 2]"),
    ('eliminate first(["x"])', "eliminate needs a player, got 'x'"),
    ("move [card, card] to hand(current)", "a card cannot move twice in one move"),
    ('win for first(["x"]) "done"', "'win for' needs a player or a list of players (seats 0 to 1), got 'x'"),
    ("move card to first([seat])", "expected a zone, got 3"),
    ("win for seat \"done\"", "'win for' needs a player or a list of players (seats 0 to 1), got 3"),
    ('next player first(["x"])', "'next player' needs a player (seats 0 to 1), got 'x'"),
    ("next player seat", "'next player' needs a player (seats 0 to 1), got 3"),
    ('move "ab" to hand(current)', "a text was used where a card is expected"),
    ("move [seat] to hand(current)", "a number was used where a card is expected"),
    ("let w = [current] where it.value > 0", "'value' is a card property, read here of something that is not a card"),
])
def test_a_mixup_is_said_in_the_rule_files_terms_at_its_statement(statement, says):
    err = failure(statement)
    assert says in err.message
    assert (err.where.line, err.where.column) == (LINE, 9), str(err)
    assert err.rule == "phase 'main'" and "(in phase 'main')" in str(err)


def test_a_number_that_is_no_seat_is_answered_with_the_ways_to_name_a_neighbour():
    said = failure("seat.health -= 1").message
    assert "next(p) or prev(p)" in said and "(p + k) % player_count" in said


def test_a_zone_indexed_like_a_list_is_refused_when_the_file_loads():
    with pytest.raises(RuleFileError) as caught:
        rulekit.load_game_text(GAME % "let c = deck[0]", "mixups.yaml")
    text = str(caught.value)
    assert "mixups.yaml:21:17" in text and "a zone is not a list" in text and "top(ZONE)" in text


SHOWN = """\
name: Shown
players: {min: 2, max: 2}
cards:
  - {name: Chip, count: 4}
zones:
  deck: {visibility: hidden}
vars:
  score: 0
display:
  half: score // 2
choices:
  go:
    options:
      - {name: ok}
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        choose go
        score = "many"
        choose go
        win for current "done"
"""


def test_a_display_value_that_fails_is_a_rule_error_at_the_value_wherever_it_is_shown(tmp_path, capsys):
    """A value shown to the players is worked out when a view is asked for,
    by the command line, the web table or a learning environment: its
    failure says where the value is, not that rulekit is broken."""
    game = rulekit.load_game_text(SHOWN, "shown.yaml")
    m = game.new_match(2, seed=0)
    m.view(0)
    m.apply(0)                      # the score is a text now
    with pytest.raises(RuleRuntimeError) as caught:
        m.view(0)
    assert str(caught.value).startswith("shown.yaml:10:9: the rule failed: '//' cannot take a text and a number")
    assert "(in display 'half')" in str(caught.value)
    assert isinstance(caught.value.__cause__, TypeError)

    path = tmp_path / "shown.yaml"                  # none from the start: the first view fails
    path.write_text(SHOWN.replace("score: 0", "score: null"), encoding="utf-8")
    from rulekit.cli import main
    assert main(["play", str(path), "--agents", "random"]) != 0
    err = capsys.readouterr().err
    assert f"a rule failed while running: {path}:10:9" in err and "internal error" not in err

    rl = pytest.importorskip("rulekit.rl")
    env = rl.env(game, players=2)       # its observations kept up to date, not views
    env.reset(seed=0)
    env.step(int(env.last()[0]["action_mask"].argmax()))
    with pytest.raises(RuleRuntimeError, match="shown.yaml:10:9: .*in display 'half'"):
        env.last()


#: the game above with a card whose value is a text, and a variable to sum into
SUMMED = GAME.replace("  - {name: Chip, count: 4, props: {value: 1}}",
                      '  - {name: Two, count: 2, props: {value: 2}}\n  - {name: Joker, props: {value: "wild"}}'
                      ).replace("card_vars:", "vars:\n  total: 0\ncard_vars:")


@pytest.mark.parametrize("statement, says", [
    # a property some cards have as a number and one as a text: summed from the per-card table
    ("total = sum(deck.value)", "sum needs numbers, and Joker gives 'wild'"),
    # a list of values and a list of cards, summed as they come
    ('total = sum([1, "x", 2])', "sum needs numbers, not 'x'"),
    ("total = sum(deck)", "sum needs numbers, not cards (card Two): sum a property, as in sum(cards.value)"),
])
def test_a_sum_of_what_is_not_a_number_names_the_value(statement, says):
    game = rulekit.load_game_text(SUMMED % statement, "sums.yaml")
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_match(2, seed=1)
    assert says in caught.value.message, caught.value.message
    assert (caught.value.where.line, caught.value.where.column) == (LINE + 3, 9)


# (each value in a local the file does not know the type of: what it knows fails when the file
# loads, see tests/test_type_checks.py)
@pytest.mark.parametrize("statement, says", [
    ('let n = first([1])\n        total = n + "a"', "the rule failed: '+' cannot take a number and a text"),
    ("let c = top(deck)\n        total = c + 1", "the rule failed: '+' cannot take a card and a number"),
    ("let l = [1, 2]\n        total = l + 3", "the rule failed: '+' cannot take a list and a number"),
    ('total = first(deck).value < "a"', "the rule failed: '<' cannot compare a number with a text"),
    ("total = -top(deck)", "the rule failed: '-' cannot take a card"),
    ('let t = "x"\n        total = abs(t)', "the rule failed: abs() cannot take a text"),
    ("total = 3 // 0", "the rule failed: a division or % by zero"),
    ("total = 5 % 0", "the rule failed: a division or % by zero"),
    # inside a built-in's own code: the built-in is named
    ("total = max(deck)", "the rule failed in max(): '>' cannot compare a card with a card "
                          "(cards have no order: compare one of their properties)"),
    ("let n = first([3])\n        total = size(n)", "the rule failed in size() or count(): a number has no size "
                        "(size counts cards, a zone's cards or a list)"),
    ('let c = top(deck, "x")', "the rule failed in top(): '<=' cannot compare a text with a number"),
    ("let n = first([3])\n        let c = first(n)", "the rule failed in first(): a number has no entries to read with [...]"),
    ("let n = first([3])\n        let x = unique(n)", "the rule failed in unique(): a number is not cards or a list, to go through"),
    ('total = sum([1, "x"])', "the rule failed: sum needs numbers, not 'x'"),
    ('let n = first([3])\n        let b = "x" in n', "the rule failed: 'in' cannot look in a number (it looks in cards, a zone, a list or a text)"),
    ('let t = "x"\n        let b = 3 in t', "the rule failed: 'in' cannot look for a number in a text (only for a text)"),
    ("total = room(3)", "the rule failed: room() takes a zone, not a number"),
    ("total = limit(top(deck))", "the rule failed: limit() takes a zone, not a card"),
])
def test_a_value_of_the_wrong_kind_is_said_in_effect_texts_words(statement, says):
    """Python's words for a value of the wrong kind ('int', 'str', 'Card',
    operand types) come back as effect text speaks of values: a number, a
    text, a card, a list, and the built-in whose own code met it; the Python
    error stays the cause, for a program."""
    game = rulekit.load_game_text(SUMMED % statement, "kinds.yaml")
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_match(2, seed=1)
    assert caught.value.message == says, caught.value.message
    assert isinstance(caught.value.__cause__, (TypeError, ZeroDivisionError))


@pytest.mark.parametrize("statement, says", [
    ("for q in seats_from(top(deck)):\n          total = 1",
     "seats_from() takes players (seat numbers), and was given a card"),
    ("total = seat_distance(0, top(deck))", "seat_distance() takes players (seat numbers), and was given a card"),
    ('total = seat_distance("a", 1)', "seat_distance() takes players (seat numbers), and was given a text"),
    # a game without eliminations writes next() of a seat as arithmetic, and asks first what may be none
    ("let c = top(deck)\n        let q = next(c)", "next() takes players (seat numbers), and was given a card"),
    ("let q = next(top(deck))", "next() takes players (seat numbers), and was given a card"),
    ('let t = "a"\n        let q = next(t)', "next() takes players (seat numbers), and was given a text"),
])
def test_a_built_in_written_in_place_that_is_given_no_seat_says_so(statement, says):
    """``seats_from(p)``, ``seat_distance(a, b)`` and ``next(p)`` are written in
    place as the match's own methods (``next`` of a seat, in a game without
    eliminations, as arithmetic); something other than a seat given to them
    fails inside the method, and the message names the built-in and what it
    got."""
    game = rulekit.load_game_text(SUMMED % statement, "kinds.yaml")
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_match(2, seed=1)
    assert caught.value.message == says, caught.value.message
    assert isinstance(caught.value.__cause__, (TypeError, ValueError))
