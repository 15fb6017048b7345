"""The generic engine mechanisms, each tested on its own with the small game
``tests/games/mechanisms.yaml``: match options, procedures with parameters
and return values (recursive chains too), choices with parameters, events
whose fields triggers change, triggers held by each player and visited in
seat order, eliminated players, per-turn and per-phase counters and player
variables hidden in ``view(player)``."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.errors import RuleFileError
from rulekit.testing import check_conservation, play_random, prepare

GAME = Path(__file__).parent / "games" / "mechanisms.yaml"


@pytest.fixture(scope="module")
def game() -> rulekit.Game:
    return rulekit.load_game(GAME)


def act(m, option, *, cards=(), player=None):
    for a in m.legal_actions():
        if a.option == option and (player is None or a.player == player) and (
                not cards or sorted(m.card(i).name for i in a.cards) == sorted(cards)):
            m.apply(a)
            return a
    raise AssertionError(f"{option} {cards} {player} not legal: {m.legal_actions()}")


def start(game, players=4, hands=None, **kw):
    zones = {f"hand({p})": cards for p, cards in (hands or {}).items()}
    zones.setdefault("deck", ["Block"] * 4)
    pv = {p: {"hp": 2, "team": "odd" if p % 2 else "even"} for p in range(players)}
    pv.update(kw.pop("player_vars", {}))
    return prepare(game, players, zones=zones, player_vars=pv, phase="play", **kw)


# ---- options ------------------------------------------------------------------
def test_options_default_and_given(game):
    assert game.new_match(3, seed=1).options == {"start_hp": 2, "thorns": False}
    m = game.new_match(3, seed=1, options={"start_hp": 3})
    assert m.options["start_hp"] == 3 and all(m.pvars[p]["hp"] == 3 for p in range(3))


def test_option_value_not_allowed_is_refused(game):
    with pytest.raises(ValueError, match=r"'start_hp' cannot be 7: choose one of 1, 2, 3"):
        game.new_match(3, options={"start_hp": 7})
    with pytest.raises(ValueError, match=r"takes a bool"):
        game.new_match(3, options={"thorns": "yes"})
    with pytest.raises(ValueError, match=r"no option 'colour'.*start_hp, thorns"):
        game.new_match(3, options={"colour": 1})


def test_options_survive_save_and_restore(game):
    m = game.new_match(4, seed=3, options={"start_hp": 1, "thorns": True})
    play_random(m, seed=3)
    again = rulekit.Match.restore(game, m.save())
    assert again.options == m.options and again.log_json() == m.log_json()


# ---- procedures with parameters, values and recursion --------------------------
def test_value_procedure_in_an_expression_limits_targets(game):
    """target's options use distance(a, b), a procedure with a return value."""
    m = start(game, 5, {0: ["Hit"]})
    act(m, "hit")
    assert m.decision.choice == "target"
    assert sorted(a.player for a in m.legal_actions()) == [1, 4]


def test_eliminated_players_leave_the_circle_of_distances(game):
    m = start(game, 5, {0: ["Hit"]}, out=[1])
    act(m, "hit")
    assert sorted(a.player for a in m.legal_actions()) == [2, 4]


def test_a_distance_asked_before_an_elimination_is_not_kept_after_it(game):
    """Distances are remembered between eliminations: the circle shrinks
    when a player leaves, and so do the distances across the empty seat."""
    m = start(game, 5, {0: ["Hit"]})
    assert (m.seat_distance(0, 2), m.seat_distance(2, 0), m.seat_distance(0, 3)) == (2, 2, 2)
    m.eliminate(1)
    assert (m.seat_distance(0, 2), m.seat_distance(2, 0), m.seat_distance(0, 3)) == (1, 1, 2)
    assert m.seat_distance(0, 1) == 1          # an eliminated seat still has a place


def test_chain_of_three_counters_resolves_by_parity(game):
    """Player 1 blocks; 2 counters the block; 3 counters the counter; 0
    counters again.  Three counters: the block is cancelled."""
    m = start(game, 4, {0: ["Hit", "Counter"], 1: ["Block"], 2: ["Counter"], 3: ["Counter"]})
    act(m, "hit")
    act(m, "player", player=1)
    assert m.decision.player == 1 and m.decision.prompt == "Player 1: play a block against player 0?"
    assert m.decision.args == (1, "block", 0)
    act(m, "card", cards=["Block"])
    # counters are asked in seat order from the current player (0), skipping the answerer
    assert m.decision.player == 0 and m.decision.prompt == "Player 0: play a counter against player 1?"
    act(m, "pass")
    assert m.decision.player == 2
    act(m, "card", cards=["Counter"])           # counters the block
    assert m.decision.player == 0               # who counters player 2's counter?
    act(m, "card", cards=["Counter"])           # 0 counters it: the block stands again ...
    for p in (1, 2, 3):                         # ... unless someone counters 0's counter
        assert m.decision.player == p
        if p == 3:
            act(m, "card", cards=["Counter"])   # 3 does: the block is cancelled again
        else:
            act(m, "pass")
    while m.decision.choice == "respond":       # nobody has a counter left
        act(m, "pass")
    assert m.pvars[1]["hp"] == 1                # three counters: the hit went home


def test_block_stands_when_nobody_counters(game):
    m = start(game, 3, {0: ["Hit"], 1: ["Block"]})
    act(m, "hit")
    act(m, "player", player=1)
    act(m, "card", cards=["Block"])
    while m.decision.choice == "respond":
        act(m, "pass")
    assert m.pvars[1]["hp"] == 2


# ---- events, triggers and seat order -----------------------------------------------
def test_each_player_triggers_visit_in_seat_order_from_the_current_player(game):
    m = start(game, 4, {2: ["Hit"], 0: ["Block"]}, current=2)
    act(m, "hit")
    act(m, "player", player=3)
    act(m, "pass")
    assert m.vars["order"] == [2, 3, 0, 1]


def test_a_trigger_changes_the_event_the_emitter_reads(game):
    """With the thorns option, an empty-handed target takes one more damage."""
    m = start(game, 3, {0: ["Hit", "Hit"], 1: ["Block"]}, options={"thorns": True})
    act(m, "hit")
    act(m, "player", player=2)                  # player 2 has no cards at all
    act(m, "pass")
    assert m.pvars[2]["hp"] == 0 and 2 not in m.players
    m = start(game, 3, {0: ["Hit"], 2: ["Block"]}, options={"thorns": True})
    act(m, "hit")
    act(m, "player", player=2)
    act(m, "pass")
    assert m.pvars[2]["hp"] == 1                # holding a card: no extra damage


# ---- eliminated players ------------------------------------------------------------
def test_elimination_skips_turns_and_reveals(game):
    m = start(game, 3, {0: ["Hit"], 1: []}, player_vars={1: {"hp": 1, "team": "odd"}})
    act(m, "hit")
    act(m, "player", player=1)
    act(m, "pass")
    assert m.players == [0, 2] and m.out == [False, True, False]
    assert {"event": "eliminate", "player": 1} in m.events()
    act(m, "stop")
    assert m.current == 2                        # seat 1 is skipped
    assert m.view(0)["player_vars"][1]["team"] == "odd"   # revealed on elimination


def test_last_player_standing_wins(game):
    m = start(game, 2, {0: ["Hit"]}, player_vars={1: {"hp": 1}})
    act(m, "hit")
    act(m, "player", player=1)
    act(m, "pass")
    assert m.result()["winners"] == [0] and m.result()["reason"] == "last one standing"


# ---- counters that reset ---------------------------------------------------------------
def test_per_turn_and_per_phase_counters(game):
    m = start(game, 3, {0: ["Hit", "Hit"]})
    for target in (1, 2):
        act(m, "hit")
        act(m, "player", player=target)
        act(m, "pass")
    assert m.vars["attacks_this_turn"] == 2 and m.pvars[0]["plays"] == 2
    act(m, "stop")                     # end phase: plays resets as the phase starts
    assert m.current == 1 and m.vars["attacks_this_turn"] == 0
    assert m.pvars[0]["plays"] == 0 and m.vars["turns"] == 1


def test_counters_given_by_a_prepared_state_reset_too(game):
    """Resets are skipped while nothing was written since the last one; a
    prepared state counts as written, so its counters are set back as its
    turn and phase start, like any others."""
    pv = {p: {"hp": 2, "team": "odd" if p % 2 else "even", "plays": 3} for p in range(3)}
    m = start(game, 3, {0: ["Hit"]}, player_vars=pv, vars={"attacks_this_turn": 4})
    assert [m.pvars[p]["plays"] for p in range(3)] == [0, 0, 0]
    assert m.vars["attacks_this_turn"] == 0


# ---- hidden player variables -------------------------------------------------------------
def test_hidden_variable_seen_only_by_its_owner(game):
    m = game.new_match(4, seed=5)
    for viewer in range(4):
        teams = [pv.get("team") for pv in m.view(viewer)["player_vars"]]
        assert teams == [("odd" if p % 2 else "even") if p == viewer else None for p in range(4)]
    assert [pv["team"] for pv in m.view("all")["player_vars"]] == ["even", "odd", "even", "odd"]


# ---- property: conservation, replay, termination ---------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_games_conserve_and_replay(game, players):
    for seed in range(150):
        m = game.new_match(players, seed=seed, options={"thorns": seed % 2 == 0})
        play_random(m, seed=seed, check=True)
        assert m.is_over()
        assert rulekit.Match.restore(game, m.save()).log_json() == m.log_json()
        check_conservation(m)


def test_play_random_checks_after_each_action_that_moved_a_card(game, monkeypatch):
    """``play_random(check=True)`` checks the zones after an action that
    logged a move or a shuffle: a card lost then is found at once."""
    apply = rulekit.Match.apply

    def losing(m, action):
        at = len(m.log)
        apply(m, action)
        moved = [ev for ev in m.log[at:] if ev[0] == "move" and ev[1].cards]
        if moved:
            moved[-1][1].cards.pop()          # the card the move put there vanishes
    monkeypatch.setattr(rulekit.Match, "apply", losing)
    with pytest.raises(AssertionError, match="lost"):
        play_random(game.new_match(3, seed=1), seed=1, check=True)


# ---- errors in rule files using the mechanisms ---------------------------------------------
BROKEN = [
    ("  hurt:\n    params: [target, amount]", "  hurt:\n    params: [target]",
     "procedure 'hurt' takes 1 argument(s), got 2"),
    ("choose target(current)", "choose target", "choice 'target' takes 1 argument(s), got 0"),
    ("when: thorns and", "when: call ask(owner, 'x', owner) and",
     "procedure 'ask' can stop for a decision, which is not possible here"),
    ("return seat_distance(a, b)", "return call ask(a, 'x', b)",
     "procedure 'distance' can stop for a decision"),
    ("        turns += 1\n", "        turns += 1\n        return 1\n", "'return' outside a procedure or trigger"),
    ("effect: event.amount += 1", "effect: event.amont += 1", "no event has a field 'amont'"),
    ("distance(attacker, it) <= 1", "ask(attacker, 'x', it)", "procedure 'ask' can stop for a decision"),
    ("start_hp: {default: 2,", "start_hp: {default: 5,", "option 'start_hp' defaults to 5, which is not one of its values"),
    ("  thorns: {default: false,", "  deck: {default: false,", "'deck' names both a match option and an entry of zones"),
    ("    let t = target.player", "    let target = target.player", "'target' here would hide the choice 'target'"),
    ("    prompt: \"Attack someone", "    skip_if_only: pas\n    prompt: \"Attack someone",
     "choice 'attack' has no option 'pas'"),
    ("  distance:\n", "  size:\n", "procedure 'size' has the name of a built-in function"),
]


@pytest.mark.parametrize("old,new,message", BROKEN)
def test_broken_uses_are_reported_with_position(old, new, message):
    text = GAME.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(RuleFileError) as err:
        rulekit.load_game_text(text.replace(old, new, 1), "m.yaml")
    assert message in str(err.value)
    assert "m.yaml:" in str(err.value)


# ---- display values ------------------------------------------------------------------------
def test_display_values_are_computed_for_the_viewer(game):
    m = start(game, 5, out=[1])
    shown = m.view(0)["display"]
    assert [d["distance"] for d in shown] == [None, 1, 1, 2, 1]   # seat 1 is out: 0-2 is 1 away
    assert [d["hp"] for d in shown] == [2] * 5
    assert all(d["distance"] is None for d in m.view(None)["display"])


def test_skip_if_only_with_a_card_option_is_logged_with_its_card():
    """skip_if_only may name a card option: the one card is taken and the log
    (and every view of it) shows it like a chosen answer."""
    text = GAME.read_text(encoding="utf-8").replace(
        "    prompt: \"Attack someone", "    skip_if_only: hit\n    prompt: \"Attack someone", 1).replace(
        "      - {name: stop}\n", "", 1)
    g = rulekit.load_game_text(text, "skip.yaml")
    m = prepare(g, 3, zones={"hand(0)": ["Hit"], "deck": ["Block"] * 4},
                player_vars={p: {"hp": 2} for p in range(3)}, phase="play", auto_pass=True)
    assert m.decision.choice == "target"          # the only Hit was played without asking
    decided = [e for e in m.events() if e["event"] == "decide"]
    assert decided[-1] == {"event": "decide", "player": 0, "choice": "attack", "option": "hit",
                           "cards": ["Hit"], "ids": [g.card_named("Hit")[0].id]}
    assert [e for e in m.view(1)["log"] if e["event"] == "decide"][-1]["cards"] == ["Hit"]  # played face up
