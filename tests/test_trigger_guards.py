"""The seat test written before a per-player trigger's ``when`` (rulekit.lang.trigger_guards)."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.lang.parser import parse_effect
from rulekit.lang.trigger_guards import seat_guard


def guard(when: str) -> tuple[str, str] | None:
    return seat_guard(parse_effect(when, "expr"))


def test_a_when_beginning_owner_is_an_event_field_tests_that_seat_first():
    assert guard("owner == event.target") == ("target", "_o == _ev.get('target')")
    assert guard("owner == event.source and has(owner, 'x') and event.amount > 1") == (
        "source", "_o == _ev.get('source')")
    assert guard("event.user == owner and true") == ("user", "_ev.get('user') == _o")


def test_any_other_beginning_gives_no_seat_test():
    for when in ("has(owner, 'x') and owner == event.target",     # not the first test
                 "owner != event.target", "owner == current", "owner == event.name",
                 "owner == event.target or owner == event.source", "event.target == 1"):
        assert guard(when) is None, when


BASE = """\
name: Guards
players: {min: 3, max: 3}
cards:
  - name: "c{value}"
    each:
      value: [1, 2, 3, 4, 5, 6]
zones:
  hand: {per_player: true, visibility: owner}
player_vars:
  hit: 0
choices:
  poke:
    who: current
    prompt: "Poke a player"
    options:
      - name: seat
        player: players
setup: |
  move box to hand(0)
turn:
  phases:
    - name: play
      effect: |
        choose poke
        emit poked(target=poke.player)
        if current == 2:
          win "done"
"""

GAME = BASE + """\
triggers:
  - on: poked
    each_player: true
    when: owner == event.target
    effect: |
      owner.hit += 10
  - on: poked
    each_player: true
    when: owner != event.target
    effect: |
      owner.hit += 1
"""


def test_only_the_seat_named_by_the_event_fires_and_the_others_still_run(tmp_path):
    path = tmp_path / "guards.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = rulekit.load_game(path)
    assert "if _o == _ev.get('target') and when_" in game.code
    m = game.new_match(3, seed=0)
    for target in (1, 1, 0):
        (action,) = [a for a in m.decision.options if a.player == target]
        m.apply(action)
    assert [pv["hit"] for pv in m.pvars] == [10 + 2, 20 + 1, 3]


#: a trigger that sends the event on to another seat (or to what is not one), and one that notes
#: every seat the event reaches
SEND_ON = BASE.replace("emit poked(target=poke.player)", "emit poked(target=poke.player, moved=0)") + """\
triggers:
  - on: poked
    each_player: true
    when: owner == event.target and event.moved == 0
    effect: |
      owner.hit += 10
      event.moved = 1
      event.target = WHERE
  - on: poked
    each_player: true
    when: owner == event.target
    effect: |
      owner.hit += 1
"""
REDIRECT = SEND_ON.replace("WHERE", "2")


def test_seats_the_event_does_not_name_are_passed_at_once_yet_a_redirected_event_reaches_its_new_seat(tmp_path):
    """Every trigger held per player on the event tests the same seat, so
    the emitting code goes to the seat the event names rather than round
    every seat; an event a trigger sends on to a later seat still reaches
    it there (seat 1 keeps the +10 and sends it to seat 2)."""
    assert REDIRECT != GAME
    path = tmp_path / "redirect.yaml"
    path.write_text(REDIRECT, encoding="utf-8")
    game = rulekit.load_game(path)
    assert "_o = _ev.get('target')" in game.code and "for _o in m.seats_from" not in game.code
    m = game.new_match(3, seed=0)
    (action,) = [a for a in m.decision.options if a.player == 1]
    m.apply(action)
    assert [pv["hit"] for pv in m.pvars] == [0, 10, 1]


def test_triggers_testing_different_seats_keep_every_seat_in_the_loop(tmp_path):
    path = tmp_path / "guards.yaml"
    path.write_text(GAME, encoding="utf-8")
    code = rulekit.load_game(path).code
    assert "for _o in m.seats_from(m.current)" in code and "_ev.get('target'))" not in code.split("for _o")[0]


#: the same, with a trigger held per player that tests no seat: every seat is gone round
ROUND = SEND_ON + """\
  - on: poked
    each_player: true
    when: event.moved == 5
    effect: pass
"""


@pytest.mark.parametrize("where", ["2", "0", "1", "true", "7", "none", "0 - 1", '"x"'])
@pytest.mark.parametrize("poked", [0, 1, 2])
def test_an_event_sent_on_reaches_the_seats_going_round_them_would(tmp_path, where, poked):
    """Going to the seat the event names, and to the seat it names after
    each trigger while that one comes later from the current player, runs
    what going round every seat runs: for a seat after, the one before,
    the same seat, true (seat 1, as a comparison finds it), a number that
    is no seat, none and a text."""
    hits = []
    for text in (SEND_ON, ROUND):
        path = tmp_path / f"send_on_{len(hits)}.yaml"
        path.write_text(text.replace("WHERE", where), encoding="utf-8")
        game = rulekit.load_game(path)
        assert ("for _o in m.seats_from" in game.code) == (text is ROUND)
        m = game.new_match(3, seed=0)
        for _ in range(3):                      # seats 0, 1 and 2 poke in turn
            (action,) = [a for a in m.decision.options if a.player == poked]
            m.apply(action)
        hits.append([pv["hit"] for pv in m.pvars])
    assert hits[0] == hits[1]
