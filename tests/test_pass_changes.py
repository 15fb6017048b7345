"""Change tracking (rulekit.lang.pass_changes): compiled for it, the code
notes every variable it writes in ``match.changes``; compiled the plain
way (the default), it is the code it always was."""
from __future__ import annotations

import rulekit
from rulekit.lang import pass_changes as changes
from rulekit.lang import printer
from rulekit.lang.ir import Assign, Code, Function, If, ResetVars, SetVar, Stmt
from rulekit.lang.passes import ModuleTables

AT = (None, "r", ())


def tracked(body: list[Stmt]) -> list[str]:
    fn = Function("f", (), "r", body)
    with changes.tracking():
        changes.run(fn, ModuleTables())
    return printer.function(fn)[0].splitlines()[1:]


def test_off_by_default_nothing_is_noted():
    body: list[Stmt] = [SetVar("match", "score", "1", origin=AT)]
    fn = Function("f", (), "r", body)
    changes.run(fn, ModuleTables())
    assert fn.body == [SetVar("match", "score", "1", origin=AT)]


def test_each_kind_of_write_is_noted_after_it():
    p = Code("L_p", "int", plain=True, local=True)
    lines = tracked([SetVar("match", "score", "1", origin=AT),
                     SetVar("player", "hp", "m.pvars[L_p]['hp'] - 1", p, origin=AT),
                     ResetVars("turn", origin=AT),
                     Assign("L_x", "2", origin=AT),
                     Assign("V['score']", "3", origin=AT)])
    assert [line.strip() for line in lines] == [
        "V['score'] = 1", "m.changes.add((None, 'score'))",
        "m.pvars[L_p]['hp'] = m.pvars[L_p]['hp'] - 1", "m.changes.add((L_p, 'hp'))",
        "if m.dirty['turn']: m.changes.add(('turn',))", "m.reset_vars('turn')",
        "L_x = 2",
        "V['score'] = 3"]      # not a typed write: the builder never writes a variable so


def test_a_seat_or_card_given_by_an_expression_is_worked_out_once_in_the_order_written():
    """``m.pvars[f(m)]['k'] = g(m)``: Python works out g(m), then f(m)."""
    lines = [line.strip() for line in tracked([
        SetVar("player", "hp", "g(m)", Code("f(m)", "int"), origin=AT),
        SetVar("card", "power", "g(m)", Code("first(m)", "card"), "r", origin=AT)])]
    assert lines == ["_wv = g(m)", "_wo = f(m)", "m.pvars[_wo]['hp'] = _wv", "m.changes.add((_wo, 'hp'))",
                     "_wo = first(m)", "_set_cv(m, _wo, 'power', g(m), 'r')",
                     "m.changes.add((None, 'power', _wo.id))"]


def test_a_one_line_block_that_grows_is_written_on_lines_of_its_own():
    lines = tracked([If([("c", [SetVar("match", "score", "1", origin=AT)])], one_line=True, origin=AT)])
    assert [line.strip() for line in lines] == ["if c:", "V['score'] = 1", "m.changes.add((None, 'score'))"]


GAME = """
name: Noted
players: {min: 2, max: 2}
cards:
  - {name: Chip, count: 4, props: {value: 1}}
zones:
  deck: {visibility: hidden}
vars:
  rounds: 0
player_vars:
  score: 0
  tried: {initial: false, reset: turn}
card_vars:
  worn: 0
choices:
  play:
    who: current
    prompt: "Score or pass"
    options:
      - {name: score}
      - {name: pass}
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        choose play
        rounds += 1
        current.tried = true
        if play.option == "score":
          current.score += 1
          for c in deck:
            c.worn += 1
        if rounds == 6:
          win for current "scored"
"""


def test_a_tracked_game_notes_what_a_step_wrote_and_a_plain_one_nothing():
    plain = rulekit.load_game_text(GAME, "noted.yaml")
    m = plain.new_match(2, seed=1)
    m.apply(0)
    assert m.changes == set()
    with changes.tracking():
        game = rulekit.load_game_text(GAME, "noted.yaml")
    m = game.new_match(2, seed=1)
    m.changes.clear()
    player = m.current
    m.apply(0)                                  # "score"
    assert {(None, "rounds"), (player, "tried"), (player, "score"), ("turn",)} <= m.changes
    assert {(None, "worn", c.id) for c in m.zone("deck").cards} <= m.changes
    assert m.pvars[player]["score"] == 1 and m.vars["rounds"] == 1
