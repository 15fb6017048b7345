"""Card state and number choices, each on its own with the small game
``tests/games/rows.yaml``: variables every card has (declared under
``card_vars``), read and written in effect text, filtered on, summed and
shown with the card; a choice of a number from a list (a free place on a
row); and the errors for names that cannot be told apart."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit import IllegalAction
from rulekit.testing import check_conservation, play_random, prepare

GAME = Path(__file__).parent / "games" / "rows.yaml"


@pytest.fixture(scope="module")
def game() -> rulekit.Game:
    return rulekit.load_game(GAME)


def table(game, **kw) -> rulekit.Match:
    zones = {"hand(0)": ["Wolf", "Bear"], "hand(1)": ["Wolf"], "deck": ["Bear"]}
    zones.update(kw.pop("zones", {}))
    return prepare(game, 2, zones=zones, phase="main", **kw)


def do(m, option, name=None, number=None):
    for a in m.legal_actions():
        if a.option == option and (name is None or [m.card(i).name for i in a.cards] == [name]) \
                and (number is None or a.number == number):
            m.apply(a)
            return a
    raise AssertionError(f"{option} {name} {number} not legal: {m.legal_actions()}")


def state(m, player: int) -> list[tuple]:
    """(place, name, health) of the cards on a player's row, by place."""
    return sorted((m.cvars["place"][c.id], c.name, m.cvars["health"][c.id])
                  for c in m.zone("row", player).cards)


def test_card_variables_start_at_their_declared_values(game):
    m = game.new_match(2, seed=1)
    assert set(m.cvars) == {"health", "place", "marks"}
    assert all(v == 0 for v in m.cvars["health"]) and all(v == [] for v in m.cvars["marks"])
    other = game.new_match(2, seed=1)
    assert m.cvars["marks"][0] is not other.cvars["marks"][0]     # a list value is each card's own


def test_a_number_choice_offers_exactly_the_free_places(game):
    m = table(game, zones={"row(0)": ["Wolf"]}, card_vars={"row(0)": [{"place": 2, "health": 1}]})
    do(m, "summon", "Bear")
    assert m.decision.choice == "place"
    assert [a.number for a in m.legal_actions()] == [1, 3, 4, 5]
    assert [m.describe_action(a) for a in m.legal_actions()][:1] == ["place 1"]


def test_effects_write_card_state_and_read_it_back(game):
    m = table(game, zones={"row(0)": ["Wolf"]}, card_vars={"row(0)": [{"place": 2, "health": 1}]})
    do(m, "summon", "Bear")
    do(m, "place", number=3)
    # the bear is at 3 with its toughness; its neighbour at 2 gained 1
    assert state(m, 0) == [(2, "Wolf", 2), (3, "Bear", 3)]
    assert m.vars["last_place"] == 3                     # the option's effect read 'number'
    bear = next(c for c in m.zone("row", 0).cards if c.name == "Bear")
    assert m.cvars["marks"][bear.id] == ["summoned"]


def test_card_state_decides_filters_and_sums(game):
    m = table(game, zones={"row(0)": ["Wolf"], "row(1)": ["Bear"]},
              card_vars={"row(0)": [{"place": 1, "health": 1}], "row(1)": [{"place": 4, "health": 3}]})
    do(m, "bite", "Wolf")
    do(m, "card", "Bear")
    assert state(m, 1) == [(4, "Bear", 1)]        # 3 less the wolf's power 2
    do(m, "end")                      # player 0 drew the last card: player 1 finds the deck empty
    assert m.result()["winners"] == [] and m.result()["reason"] == "a draw"   # 1 against 1


def test_a_creature_at_zero_health_leaves_the_row(game):
    m = table(game, zones={"row(0)": ["Bear"], "row(1)": ["Wolf"]},
              card_vars={"row(0)": [{"place": 1, "health": 3}], "row(1)": [{"place": 5, "health": 1}]})
    do(m, "bite", "Bear")
    do(m, "card", "Wolf")
    assert [c.name for c in m.zone("grave").cards] == ["Wolf"]
    wolf = m.zone("grave").cards[0]
    assert m.cvars["place"][wolf.id] == 0


def test_the_view_shows_a_cards_state_with_the_card_only(game):
    m = table(game, zones={"row(0)": ["Wolf"]}, card_vars={"row(0)": [{"place": 2, "health": 1}]})
    v = m.view(1)
    assert v["zones"]["row(0)"]["state"] == [{"health": 1, "place": 2, "marks": []}]
    assert "state" not in v["zones"]["hand(0)"] and "cards" not in v["zones"]["hand(0)"]
    assert len(m.view(0)["zones"]["hand(0)"]["state"]) == 3          # two, and one drawn


def test_number_actions_in_json_and_refused_when_illegal(game):
    m = table(game)
    do(m, "summon", "Wolf")
    before = (m.log_json(), [list(v) for v in m.cvars.values()])
    with pytest.raises(IllegalAction, match="6 cannot be chosen for 'place'"):
        m.apply({"option": "place", "number": 6})
    with pytest.raises(IllegalAction, match="the number must be an int"):
        m.apply({"option": "place", "number": "3"})
    assert (m.log_json(), [list(v) for v in m.cvars.values()]) == before
    m.apply({"option": "place", "number": 4})
    saved = m.save()
    assert saved["actions"][-1] == {"option": "place", "number": 4}
    again = rulekit.Match.restore(game, saved)
    assert again.cvars == m.cvars and again.log_json() == m.log_json()


def test_the_log_tells_the_number_chosen(game):
    """Every seat's log, and the terminal's line, say which number was
    chosen, as they say which card or player (the answer is public)."""
    from rulekit.cli.show import event_line
    m = table(game)
    do(m, "summon", "Wolf")
    do(m, "place", number=4)
    for seat in (0, 1):
        decided = [e for e in m.events(seat) if e["event"] == "decide" and e["choice"] == "place"]
        assert decided == [{"event": "decide", "player": 0, "choice": "place", "option": "place", "number": 4}]
    assert event_line(decided[0], lambda p: f"player {p}").endswith("place: place 4")


def test_random_games_conserve_cards_and_repeat_exactly(game):
    logs = []
    for _ in range(2):
        m = game.new_match(2, seed=7)
        play_random(m, seed=7, check=True)
        check_conservation(m)
        logs.append((m.log_json(), m.cvars))
    assert logs[0] == logs[1]


def _rows_with(tmp_path, old: str, new: str) -> Path:
    path = tmp_path / "rows.yaml"
    path.write_text(GAME.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, message", [
    ("  marks: []", "  marks: []\n  power: 0", "card variable 'power' has the name of a card property"),
    ("\nvars:\n", "\nplayer_vars:\n  place: 0\nvars:\n", "card variable 'place' has the name of a player variable"),
    ("{name: place, number: \"free(p)\"", "{name: place, number: \"free(p)\", player: players",
     "option 'place' has both 'player' and 'number'"),
])
def test_names_that_cannot_be_told_apart_are_refused(tmp_path, old, new, message):
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(_rows_with(tmp_path, old, new))
    assert any(message in str(e) for e in info.value.errors), info.value


def test_card_state_of_something_not_a_card_is_a_rule_error(tmp_path):
    game = rulekit.load_game(_rows_with(tmp_path, "      c.place = place.number", "      p.place = place.number"))
    m = table(game)
    do(m, "summon", "Wolf")
    with pytest.raises(rulekit.RuleRuntimeError, match="card variable 'place' belongs to a card, not to 0"):
        do(m, "place", number=1)


def test_an_undeclared_card_variable_is_refused_with_a_suggestion(tmp_path):
    with pytest.raises(rulekit.RuleFileError, match="healht"):
        rulekit.load_game(_rows_with(tmp_path, "      c.health = c.toughness", "      c.healht = c.toughness"))


def test_a_number_option_declares_its_range(tmp_path):
    with pytest.raises(rulekit.RuleFileError, match="picks a number but does not say which can come"):
        rulekit.load_game(_rows_with(tmp_path, ', range: 1..5', ''))
    game = rulekit.load_game(_rows_with(tmp_path, 'range: 1..5', 'range: 1..4'))
    assert game.choices["place"].options[0].numbers == (1, 4)
    m = table(game)
    with pytest.raises(rulekit.RuleRuntimeError, match="option 'place' offers 5, outside its declared range 1..4"):
        do(m, "summon", "Wolf")
