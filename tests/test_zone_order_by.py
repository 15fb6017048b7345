"""A zone declared ``order_by: VAR`` is shown by that card variable.

Views (and so ``rulekit play`` and the web table, which draw them) list the
zone's cards lowest value first instead of top first; effect text still
reads the pile in the order its cards came; a name that is no card
variable is refused at its place in the file.  See docs/authoring.md,
"Zones and variables".
"""
from __future__ import annotations

import random

import pytest
from game_files import game_path

import rulekit
from rulekit.errors import RuleFileError

# Each turn lays the top card of the deck at the place the table gives for
# the turn (3, 1, 5, 2, 4), so the row's pile holds them out of place order.
GAME = """\
name: Places
players: {min: 1, max: 2}
cards:
  - {name: "Piece {n}", each: {n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}}
zones:
  deck: {visibility: hidden}
  row: {per_player: true, order_by: place}
  pile: {}
card_vars:
  place: 0
tables:
  place_at: {5: 3, 4: 1, 3: 5, 2: 2, 1: 4}
vars:
  slot: 5
  first_in: ""
setup: |
  move box to deck
turn:
  phases:
    - name: lay
      effect: |
        if slot == 0:
          win "laid"
        let c = top(deck)
        move c to row(current)
        c.place = place_at[slot]
        slot -= 1
        first_in = bottom(row(current)).name
        move top(deck) to pile
"""


def _row(m, seat=0):
    return m.view(seat)["zones"]["row(0)"]


def test_a_row_is_shown_by_place_and_read_in_the_order_it_came():
    m = rulekit.load_game_text(GAME, "places.yaml").new_match(1, seed=1)
    assert m.result() is not None
    row = _row(m)
    assert [s["place"] for s in row["state"]] == [1, 2, 3, 4, 5]
    pile = [c.name for c in m.zone("row", 0).cards]          # bottom first: places 3, 1, 5, 2, 4
    assert row["cards"] == [pile[i] for i in (1, 3, 0, 4, 2)]
    assert m.vars["first_in"] == pile[0] == row["cards"][2]    # effect text: the first laid at the bottom
    assert m.view(0)["zones"]["pile"]["cards"] == [c.name for c in reversed(m.zone("pile").cards)]


def test_cards_of_one_value_stay_top_first_and_text_comes_after_numbers():
    text = GAME.replace("c.place = place_at[slot]", "c.place = 1 if slot > 3 else \"x\"")
    m = rulekit.load_game_text(text, "places.yaml").new_match(1, seed=2)
    pile = list(reversed(m.zone("row", 0).cards))              # top first
    ones = [c.name for c in pile if m.cvars["place"][c.id] == 1]
    xs = [c.name for c in pile if m.cvars["place"][c.id] == "x"]
    assert _row(m)["cards"] == ones + xs


def test_order_by_a_name_that_is_no_card_variable_is_refused_where_it_is_written():
    text = GAME.replace("order_by: place", "order_by: plce")
    with pytest.raises(RuleFileError) as err:
        rulekit.load_game_text(text, "places.yaml")
    line = text.splitlines().index("  row: {per_player: true, order_by: plce}") + 1
    report = str(err.value)
    assert f"places.yaml:{line}:" in report and "no card variable 'plce'" in report
    assert "place" in report.split("hint:")[1]                  # the close name is suggested


def test_the_xiake_row_is_shown_by_place_through_random_matches():
    game = rulekit.load_game(game_path("xiake"))
    seen = 0
    for seed in range(4):
        m = game.new_match(2, seed=seed)
        rng = random.Random(seed)
        while m.decision is not None:
            for p in range(2):
                row = m.view(p)["zones"][f"row({p})"]
                places = [s["位置"] for s in row["state"]]
                assert places == sorted(places)
                assert sorted(row["ids"]) == sorted(c.id for c in m.zone("row", p).cards)
                seen += len(places) > 1
            m.apply(rng.randrange(len(m.decision.options)))
    assert seen > 50
