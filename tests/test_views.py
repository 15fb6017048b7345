"""What views show: card ids beside names (and only where the names are
shown), the all-seeing view, and the values a rule file declares public."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.testing import prepare

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def regicide() -> rulekit.Game:
    return rulekit.load_game(ROOT / "games" / "regicide.yaml")


def test_cards_carry_their_ids_so_two_of_one_name_are_told_apart(regicide):
    m = prepare(regicide, 1, zones={"enemy": ["J♠"], "hand(0)": ["Jester", "Jester", "5♥"],
                                    "castle": ["Q♠"], "tavern": ["2♣", "3♣"]})
    hand = m.view(0)["zones"]["hand(0)"]
    assert hand["cards"] == ["Jester", "Jester", "5♥"]
    assert hand["ids"] == [c.id for c in reversed(m.zone("hand", 0).cards)]
    assert len(set(hand["ids"])) == 3 and all(m.card(i).name == n for i, n in zip(hand["ids"], hand["cards"]))


def test_ids_are_shown_only_where_names_are(regicide):
    m = regicide.new_match(2, seed=3)
    theirs = m.view(0)["zones"]["hand(1)"]
    assert "ids" not in theirs and "cards" not in theirs and theirs["count"] == 7
    assert "ids" not in m.view(0)["zones"]["tavern"]
    for ev in m.view(0)["log"]:
        if ev["event"] == "move":
            assert [i is None for i in ev["ids"]] == [c is None for c in ev["cards"]]
            assert all(i is None or m.card(i).name == c for i, c in zip(ev["ids"], ev["cards"]))


def test_a_played_card_shows_its_id_in_the_decision_once_face_up(regicide):
    m = prepare(regicide, 2, zones={"enemy": ["J♠"], "hand(0)": ["5♥", "5♦"], "hand(1)": ["2♣"],
                                    "castle": ["Q♠"], "tavern": ["2♦", "3♦", "4♦", "6♦", "7♦"]})
    card = next(a for a in m.legal_actions() if a.option == "card" and m.card(a.cards[0]).name == "5♥")
    m.apply(card)
    decided = [e for e in m.view(1)["log"] if e["event"] == "decide"][-1]
    assert decided["cards"] == ["5♥"] and decided["ids"] == list(card.cards)


def test_the_all_seeing_view_shows_everything(regicide):
    m = regicide.new_match(2, seed=3)
    everything = m.view(rulekit.ALL_SEEING)
    assert everything["viewer"] == "all"
    assert everything["zones"]["hand(1)"]["cards"] and everything["zones"]["tavern"]["ids"]
    assert everything["decision"]["options"]
    assert [e for e in everything["log"] if e["event"] == "start"][0]["seed"] == 3
    total = sum(len(z["ids"]) for z in everything["zones"].values())
    assert total == len(regicide.cards)


def test_public_values_are_in_every_view_and_follow_the_rules(regicide):
    m = prepare(regicide, 2, zones={"enemy": ["K♠"], "hand(0)": ["5♠", "9♣"], "hand(1)": ["2♣"],
                                    "castle": ["Q♠"], "tavern": ["2♦", "3♦", "4♦", "6♦", "7♦"]},
                vars={"shield": 4, "damage": 7})
    for viewer in (0, 1, None, rulekit.ALL_SEEING):
        assert m.view(viewer)["public"] == {"enemy_attack": 16, "enemy_health_left": 33}
    m = prepare(regicide, 2, zones={"enemy": ["J♠"], "hand(0)": ["5♠"], "castle": ["Q♠"]},
                vars={"shield": 25})
    assert m.view(0)["public"]["enemy_attack"] == 0       # shields never make an attack negative


def test_public_values_are_checked_like_any_expression():
    text = (ROOT / "docs" / "examples" / "last_card.yaml").read_text(encoding="utf-8")
    bad = text + "\npublic:\n  pile: size(dekc)\n"
    with pytest.raises(rulekit.RuleFileError) as err:
        rulekit.load_game_text(bad, "last_card.yaml")
    assert "dekc" in str(err.value) and f"last_card.yaml:{text.count(chr(10)) + 3}:" in str(err.value)


DREW = """\
name: Drew
players: {min: 2, max: 2}
cards:
  - {name: C, count: 6}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  table: {}
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        let c = top(deck)
        move c to hand(current)
        emit drew(player=current, cards=[c], left=size(deck))
        move c to table
        emit shown(card=c, zone=table)
        win "done"
"""


def test_events_carry_their_fields_and_hide_what_the_viewer_cannot_see(tmp_path):
    path = tmp_path / "drew.yaml"
    path.write_text(DREW, encoding="utf-8")
    m = rulekit.load_game(path).new_match(2)
    drawn = m.zone("table").cards[0]
    def emitted(viewer):
        return [e for e in m.events(viewer) if e["event"] == "emit"]
    assert emitted(0)[0] == {"event": "emit", "name": "drew",
                             "fields": {"player": 0, "cards": [drawn.name], "left": 5}}
    assert emitted(1)[0]["fields"] == {"player": 0, "cards": [None], "left": 5}   # in 0's hand
    assert emitted(1)[1]["fields"] == {"card": drawn.name, "zone": "table"}      # then shown
    assert emitted(1) == [e for e in m.view(1, since=0)["log"] if e["event"] == "emit"]
    later = m.view(1, since=len(m.log) - 2)["log"]                               # a client catching up
    assert [e for e in later if e["event"] == "emit"] == emitted(1)[1:]


def test_an_event_field_holding_a_table_is_shown_as_its_mapping(tmp_path):
    """A table (a mapping the rule file writes) sent in an event, alone or
    in a list, is shown as the mapping itself to every seat."""
    text = DREW.replace("        win \"done\"", "        emit rated(worth=worth, both=[worth, c])\n        win \"done\"")
    text = text.replace("setup: |", "tables:\n  worth: {C: 2}\nsetup: |")
    path = tmp_path / "rated.yaml"
    path.write_text(text, encoding="utf-8")
    m = rulekit.load_game(path).new_match(2)
    for viewer in (0, 1, None):
        rated = [e for e in m.events(viewer) if e["event"] == "emit" and e["name"] == "rated"]
        assert rated == [{"event": "emit", "name": "rated",
                          "fields": {"worth": {"C": 2}, "both": [{"C": 2}, "C"]}}]


def test_a_damage_event_of_sanguosha_says_who_hit_whom_for_how_much():
    from sanguosha_kit import table, use
    m = table(4, hands={0: ["杀 ♠7"]}, hp={1: 4})
    use(m, "杀 ♠7", 1)                             # 1 has no 闪: hit
    hit = [e for e in m.events(2) if e["event"] == "emit" and e["name"] == "damaged"]
    assert hit == [{"event": "emit", "name": "damaged", "fields": {
        "target": 1, "amount": 1, "source": 0, "cards": ["杀 ♠7"], "reason": "杀"},
        "text": "player 1 受到 player 0 的 1 点伤害（杀）"}]


NARRATED = DREW + """\
narration:
  drew: {text: "{player} drew {cards} ({left} left)", seats: [player]}
  shown: "{card} goes to the {zone}"
"""


def test_narration_says_each_event_in_the_rule_files_words(tmp_path):
    path = tmp_path / "narrated.yaml"
    path.write_text(NARRATED, encoding="utf-8")
    m = rulekit.load_game(path).new_match(2)
    card = m.zone("table").cards[0].name
    said = [e["text"] for e in m.events(1) if "text" in e]
    assert said == ["player 0 drew a hidden card (5 left)", f"{card} goes to the table"]
    assert [e["text"] for e in m.events(0) if "text" in e][0] == f"player 0 drew {card} (5 left)"
    assert "text" not in m.log_json()                 # the log is the data, not the words
    told = m.game.narration["drew"].say({"player": 1, "cards": [card], "left": 2}, lambda p: "you")
    assert told == f"you drew {card} (2 left)"


@pytest.mark.parametrize("entry, message", [
    ('  drawn: "{player} drew"', "narration for event 'drawn', which no rule emits"),
    ('  drew: "{who} drew"', "the placeholder '{who}' names no field of event 'drew'"),
    ('  drew: "{player:>9}"', "the placeholder '{player:>9}' is not a plain parameter name"),
    ('  drew: {text: "{player}", seats: [plyer]}', "seat 'plyer' is not a field of event 'drew'"),
])
def test_narration_errors_point_at_the_entry(tmp_path, entry, message):
    path = tmp_path / "bad.yaml"
    path.write_text(DREW + "narration:\n" + entry + "\n", encoding="utf-8")
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(path)
    errors = info.value.errors
    assert any(message in e.message for e in errors), errors
    assert all(e.where.line == DREW.count("\n") + 2 for e in errors)


def test_a_view_without_the_log():
    from sanguosha_kit import table, use
    m = table(4, hands={0: ["杀 ♠7"]})
    use(m, "杀 ♠7", 1)
    v = m.view(2, log=False)
    assert v["log"] == [] and v["log_size"] == len(m.log) and v["zones"] == m.view(2)["zones"]
    assert m.view(2, since=len(m.log)) ["log"] == []


@pytest.mark.parametrize("viewer,error,words", [
    (True, TypeError, "not True"),           # equal to seat 1: it would be shown seat 1's hand
    (1.0, TypeError, "not 1.0"),             # the same
    ("0", TypeError, "not '0'"),
    ([0], TypeError, "not [0]"),
    (2, ValueError, "there is no seat 2: the seats are 0 to 1"),
    (-1, ValueError, "there is no seat -1"),
])
def test_a_viewer_that_is_not_a_seat_is_refused_not_shown_a_view(regicide, viewer, error, words):
    m = regicide.new_match(2, seed=3)
    for ask in (m.view, m.events):
        with pytest.raises(error, match="seat") as info:
            ask(viewer)
        assert words in str(info.value)


def test_a_seat_of_another_integer_type_is_that_seat():
    numpy = pytest.importorskip("numpy")
    game = rulekit.load_game(ROOT / "games" / "regicide.yaml")
    m = game.new_match(2, seed=3)
    view = m.view(numpy.int64(1))
    assert view == m.view(1) and type(view["viewer"]) is int


@pytest.mark.parametrize("since,error", [(-1, ValueError), (1.5, TypeError), ("3", TypeError), (True, TypeError)])
def test_since_is_a_count_of_entries_already_seen(regicide, since, error):
    """A negative ``since`` would count from the end of the log (``-1``: the
    last entry); it is refused, like a value that is not a whole number."""
    m = regicide.new_match(2, seed=3)
    for ask in (m.view, m.events):
        with pytest.raises(error, match="since is a number of log entries"):
            ask(0, since=since)
    assert m.events(0, since=len(m.log)) == [] and m.events(0, since=10**9) == []
    assert m.events(0, since=len(m.log) - 1) == m.events(0)[-1:]
