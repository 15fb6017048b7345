"""A filter whose test reads one property of its card asks the test once for
each value of the property (rulekit.lang.pass_keyed): which tests are
keyed, and that a keyed filter keeps the same cards while it does less."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.lang.expr_ir import Attr, Builtin, Expr, Local, Op, ProcCall, Where
from rulekit.lang.pass_keyed import key_of

IT = Local("it", "L_it", "card")
PURE = {"usable", "worth"}
PROPS = {"kind", "suit"}


def call(name: str, *args: Expr) -> ProcCall:
    return ProcCall(name, f"proc_{name}", args)


def prop(name: str, base: Expr = IT) -> Attr:
    return Attr(base, name, card_prop=True)


def test_a_pure_call_on_one_property_of_the_card_is_keyed_by_it():
    test = call("usable", Local("current", "m.current", "int"), prop("kind"))
    assert key_of(test, PURE, PROPS) == "kind"
    twice = Op("bin", "and", (test, call("worth", prop("kind"))))
    assert key_of(twice, PURE, PROPS) == "kind"


@pytest.mark.parametrize("test", [
    prop("kind"),                                            # no call: cheaper than a look-up
    call("draws", prop("kind")),                             # a procedure that is not pure
    Op("bin", "and", (call("usable", prop("kind")), call("worth", prop("suit")))),   # two properties
    call("usable", IT),                                      # the card itself
    call("usable", prop("name")),                            # a property whose values are not all keys
    call("usable", Builtin("shuffled", (prop("kind"),))),    # drawn at random
    Op("bin", "and", (call("usable", prop("kind")),          # a filter of its own, with an it of its own
                      Builtin("any", (Where(Local("players", "m.players", "seats"), IT, "it"),)))),
])
def test_other_tests_are_asked_for_every_card(test):
    assert key_of(test, PURE, PROPS) is None


GAME = """\
name: Keyed
players: {min: 1, max: 1}
cards:
  - name: "c{n}"
    each:
      n: [{n: 1, kind: a}, {n: 2, kind: a}, {n: 3, kind: a}, {n: 4, kind: b}, {n: 5, kind: b},
          {n: 6, kind: a}]
zones:
  hand: {per_player: true, visibility: owner}
  pile: {visibility: public}
procedures:
  slow:
    params: [k]
    effect: |
      let n = 0
      for x in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]:
        n += x
      return k == "a" and n > 0
choices:
  pick:
    who: current
    prompt: "Pick a card"
    options:
      - name: card
        cards: 1
        from: hand(current)
        where: TEST
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
        move pick.cards to pile
        if size(hand(0)) == 0:
          win "all picked"
"""


def game(tmp_path: Path, test: str) -> rulekit.Game:
    path = tmp_path / f"keyed_{len(test)}.yaml"
    path.write_text(GAME.replace("TEST", test), encoding="utf-8")
    return rulekit.load_game(path)


def test_a_keyed_filter_keeps_the_same_cards_and_asks_once_per_value(tmp_path):
    keyed = game(tmp_path, "slow(it.kind)")
    each = game(tmp_path, "slow(it.kind) and it != none")      # reads the card itself: asked per card
    a, b = keyed.new_match(1, seed=3), each.new_match(1, seed=3)
    assert [(o.option, o.cards) for o in a.decision.options] == [(o.option, o.cards) for o in b.decision.options]
    assert sorted(a.card(o.cards[0]).props["kind"] for o in a.decision.options if o.cards) == ["a"] * 4
    # six cards of two kinds: the loop of 10 in 'slow' runs twice, not six times
    assert b.steps - a.steps == 4 * 10
    assert "_seen" in keyed.code and "_seen" not in each.code
