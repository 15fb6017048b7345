"""A choice never offers more answers than can be worked out.

An option that picks several cards offers every set of them, worked out
before anyone answers: ``cards: 1..20`` from forty cards is over six hundred
thousand million sets, which would take all memory and hours.  Past
MAX_OPTIONS sets (``rulekit.limits``) the choice fails at once, with the
count and what to do instead; below it, every set is offered as before.
"""
from __future__ import annotations

import pytest

import rulekit
from rulekit.limits import MAX_OPTIONS


def _game(option: str, cards: int) -> rulekit.Game:
    text = (f"name: Sets\nplayers: {{min: 1, max: 1}}\ncards: [{{name: C, count: {cards}}}]\n"
            "zones: {d: {visibility: public}}\nsetup: |\n  move box to d\n"
            "turn:\n  phases:\n    - name: p\n      effect: |\n        choose pick(current)\n        win\n"
            "choices:\n  pick:\n    params: [p]\n    who: p\n    prompt: 'pick, player {p}'\n"
            f"    options:\n      - {option}\n")
    return rulekit.load_game_text(text, "sets.yaml")


@pytest.mark.parametrize("option,cards,says", [
    ("{name: some, cards: 1..20, from: d}", 40, "every set of 1 to 20 of 40 cards, 618,679,078,297 answers"),
    ("{name: five, cards: 5, from: d}", 100, "every set of 5 of 100 cards, 75,287,520 answers"),
    ("{name: pair, parts: ['true', 'true'], from: d}", 400, "one card for each of 2 parts in 160,000 ways"),
    ("{name: three, parts: ['true', 'true', 'true'], from: d}", 50, "each of 3 parts in 125,000 ways"),
])
def test_an_option_that_would_offer_too_many_sets_fails_at_once_saying_how_many(option, cards, says):
    game = _game(option, cards)
    with pytest.raises(rulekit.RuleRuntimeError) as info:
        game.new_match(1)
    message = str(info.value)
    assert says in message and f"more than {MAX_OPTIONS:,} (MAX_OPTIONS)" in message
    assert "pick the cards one at a time" in message
    assert info.value.where.file == "sets.yaml" and info.value.rule == "choice 'pick'"


@pytest.mark.parametrize("option,cards,offered", [
    ("{name: pair, cards: 2, from: d}", 40, 780),
    ("{name: some, cards: 1..3, from: d}", 20, 20 + 190 + 1140),
    ("{name: pair, parts: ['true', 'true'], from: d}", 300, 300 * 299 // 2),
])
def test_an_option_within_the_limit_offers_every_set(option, cards, offered):
    m = _game(option, cards).new_match(1)
    assert len(m.decision.options) == offered
    m.apply(len(m.decision.options) - 1)
    assert m.result()["outcome"] == "win"


@pytest.mark.parametrize("option,cards,counted", [
    ("{name: pair, parts: ['true', 'true'], from: d}", 316, False),      # 316 * 316 <= MAX_OPTIONS
    ("{name: pair, parts: ['true', 'true'], from: d}", 317, True),
    ("{name: two, cards: 2, from: d}", 447, False),                      # every pair of 447 is within
    ("{name: two, cards: 2, from: d}", 448, True),
    ("{name: two, cards: 2, from: 'join(d, d)'}", 20, True),             # a list may hold a card twice
])
def test_sets_are_counted_only_where_the_game_has_cards_enough_to_pass_the_limit(option, cards, counted):
    """A zone holds at most every card of the game: where that many cannot
    make MAX_OPTIONS sets, the generated choice has no count at all."""
    code = _game(option, cards).code
    assert (("_picks(" in code) or ("_sets(" in code)) == counted, code
