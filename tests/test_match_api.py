"""The driver's API of a match: actions, views, copies, determinism, budget.

A match never calls a player: it waits at a decision (``m.decision``) for
``m.apply``.  These tests hold the promises every driver (agents, CLI,
servers, learning environments) relies on:

- an illegal action raises :class:`rulekit.IllegalAction` with a reason and
  changes nothing at all;
- ``apply`` takes an :class:`rulekit.Action`, an index into
  ``legal_actions()`` or the action's JSON dict, with the same effect;
- ``view(player)`` shows what that player may see and nothing more,
  including in the event log;
- ``save``/``restore`` and ``clone`` rebuild the same match, and the same
  seed and actions always give the same log;
- a rule file that never ends stops with :class:`rulekit.StepBudgetExceeded`
  naming the rule and where it is.
"""
from __future__ import annotations

import contextlib
import gc
import json
import random
import textwrap
import weakref
from pathlib import Path

import pytest
from game_files import game_path

import rulekit
from rulekit import Action, IllegalAction, Match, StepBudgetExceeded
from rulekit.testing import play_random, prepare


def snapshot(m: Match) -> tuple:
    """Everything observable about a match, as comparable plain data."""
    views = [json.dumps(m.view(p), ensure_ascii=False, sort_keys=True)
             for p in [None, *range(m.n)]]
    return (m.log_json(), views, m.legal_actions(), m.decision, list(m.actions), m.steps,
            m.current, m.turn, m.phase, dict(m.vars), [dict(p) for p in m.pvars],
            [[c.id for c in z.cards] for z in m.all_zones()], m.result())


def random_prefix(m: Match, steps: int, seed: int = 0) -> Match:
    rng = random.Random(seed)
    for _ in range(steps):
        if m.decision is None:
            break
        m.apply(rng.randrange(len(m.legal_actions())))
    return m


def ids(m: Match, *names: str) -> tuple[int, ...]:
    """Card ids of the named cards, wherever they are (first free one per name)."""
    out: list[int] = []
    for name in names:
        out.append(next(c.id for c in m.cards if c.name == name and c.id not in out))
    return tuple(out)


# ---------------------------------------------------------------------------
# Illegal actions
# ---------------------------------------------------------------------------

ILLEGAL = {
    "option not offered": lambda m: Action("jester", ids(m, "7♥")),
    "option of another choice": lambda m: Action("discard", ids(m, "7♥")),
    "card in another player's hand": lambda m: Action("card", ids(m, "9♣")),
    "card in no hand": lambda m: Action("card", ids(m, "K♠")),
    "card option without cards": lambda m: Action("card"),
    "two cards for a one-card option": lambda m: Action("card", ids(m, "7♥", "A♣")),
    "companion of two non-aces": lambda m: Action("companion", ids(m, "7♥", "5♦")),
    "yield when the other player just yielded": lambda m: Action("yield"),
    "unknown card id": lambda m: Action("card", (999,)),
    "negative card id": lambda m: Action("card", (-1,)),
    "same card twice": lambda m: Action("companion", ids(m, "A♣") * 2),
    "player argument where none is asked": lambda m: Action("card", ids(m, "7♥"), 1),
    "index past the end": lambda m: len(m.legal_actions()),
    "negative index": lambda m: -1,
    "integer-like index past the end": lambda m: IntLike(len(m.legal_actions())),
    "dict with an unknown option": lambda m: {"option": "pass"},
    "dict for a card elsewhere": lambda m: {"option": "card", "cards": list(ids(m, "9♣"))},
    "a string": lambda m: "card 7♥",
    "None": lambda m: None,
    "a float": lambda m: 1.0,
    "a bool": lambda m: True,
}


@pytest.fixture
def waiting(deal, act):
    """Player 0 must attack; player 1 yielded on their last turn."""
    m = deal(2, enemy="J♠", castle=["Q♥"], hands=[["7♥", "A♣", "5♦"], ["9♣", "10♣"]],
             tavern=["2♣", "3♣"], current=1)
    act(m, "yield")
    act(m, "discard", "10♣")
    assert m.decision.player == 0 and m.decision.choice == "attack"
    return m


@pytest.mark.parametrize("case", sorted(ILLEGAL))
def test_illegal_action_raises_with_a_reason_and_changes_nothing(waiting, case):
    m = waiting
    before = snapshot(m)
    with pytest.raises(IllegalAction) as info:
        m.apply(ILLEGAL[case](m))
    assert isinstance(info.value.reason, str) and info.value.reason.strip()
    assert str(info.value) == info.value.reason
    assert snapshot(m) == before
    # ... and the match goes on normally afterwards.
    m.apply(Action("card", ids(m, "7♥")))
    assert m.zone("table").cards[-1].name == "7♥"


def test_illegal_action_reason_names_the_choice_and_the_cards(waiting):
    m = waiting
    with pytest.raises(IllegalAction) as info:
        m.apply(Action("card", ids(m, "9♣")))
    assert "9♣" in info.value.reason and "hand(1)" in info.value.reason
    assert "attack" in info.value.reason
    with pytest.raises(IllegalAction) as info:
        m.apply(Action("jester", ids(m, "7♥")))
    assert "jester" in info.value.reason and "card" in info.value.reason


def test_illegal_player_for_a_player_choice(deal, act):
    m = deal(3, enemy="J♣", hands=[["Jester"], ["2♥"], ["3♥"]])
    act(m, "jester", "Jester")
    before = snapshot(m)
    for bad in (Action("player", (), 3), Action("player", (), -1), Action("player"),
                {"option": "player", "player": 7}):
        with pytest.raises(IllegalAction) as info:
            m.apply(bad)
        assert info.value.reason
        assert snapshot(m) == before
    m.apply({"option": "player", "player": 2})
    assert m.decision.player == 2


def test_action_after_the_match_is_over_is_illegal(deal, act):
    m = deal(2, enemy="J♥", hands=[["A♦", "5♣"]])
    act(m, "card", "A♦")
    assert m.is_over() and m.legal_actions() == [] and m.decision is None
    before = snapshot(m)
    with pytest.raises(IllegalAction) as info:
        m.apply(0)
    assert "over" in info.value.reason
    assert snapshot(m) == before


@pytest.mark.parametrize("bad", [
    pytest.param({"cards": [1]}, id="dict-without-option"),
    pytest.param({"option": "card", "cards": ["7♥"]}, id="card-names-instead-of-ids"),
    pytest.param({"option": "card", "cards": 5}, id="cards-not-a-list"),
    pytest.param(("card", (1,), None, 5), id="tuple-of-wrong-length"),
])
def test_malformed_action_raises_illegal_action(waiting, bad):
    """A driver sending a malformed action gets IllegalAction (with a reason),
    like any other action that is not legal now."""
    m = waiting
    before = snapshot(m)
    with pytest.raises(IllegalAction) as info:
        m.apply(bad)
    assert info.value.reason
    assert snapshot(m) == before


def test_same_cards_in_another_order_are_the_same_action(deal):
    """A combo or companion pair is a set of cards: naming them in another
    order is the same legal play."""
    m = deal(2, enemy="J♠", hands=[["3♥", "3♠", "A♣"]])
    for a in m.legal_actions():
        if len(a.cards) == 2:
            swapped = Action(a.option, tuple(reversed(a.cards)), a.player)
            c = m.clone()
            c.apply(swapped)
            assert sorted(x.id for x in c.zone("table").cards) == sorted(a.cards)


# ---------------------------------------------------------------------------
# Forms of apply
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_index_dict_tuple_and_action_forms_of_apply_are_equivalent(regicide, players):
    for seed in range(5):
        rng = random.Random(seed)
        forms = [regicide.new_match(players=players, seed=seed) for _ in range(4)]
        while forms[0].decision is not None:
            legal = forms[0].legal_actions()
            i = rng.randrange(len(legal))
            for m in forms:
                assert m.legal_actions() == legal
            forms[0].apply(legal[i])
            forms[1].apply(i)
            forms[2].apply(json.loads(json.dumps(legal[i].to_json())))
            forms[3].apply(tuple(legal[i]))
        logs = {m.log_json() for m in forms}
        assert len(logs) == 1
        assert all(m.result() == forms[0].result() for m in forms)


class IntLike:
    """An integer of another library (numpy's int64, say): not an int, but
    usable as an index through ``__index__``."""

    def __init__(self, value: int):
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_an_integer_like_index_is_applied_as_its_integer(regicide):
    a, b = (regicide.new_match(players=3, seed=4) for _ in range(2))
    rng = random.Random(4)
    while a.decision is not None:
        i = rng.randrange(len(a.decision.options))
        a.apply(i)
        b.apply(IntLike(i))
    assert a.log_json() == b.log_json() and len(a.actions) > 10


def test_action_json_round_trip(waiting):
    for a in waiting.legal_actions():
        assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a


def test_describe_action_is_readable(deal, act):
    m = deal(3, enemy="J♣", hands=[["7♥", "A♣", "8♦", "Jester"]])
    described = {m.describe_action(a) for a in m.legal_actions()}
    assert "card 7♥" in described
    assert "companion A♣ 8♦" in described or "companion 8♦ A♣" in described
    assert "yield" in described
    act(m, "jester", "Jester")
    assert "player 1" in {m.describe_action(a) for a in m.legal_actions()}     # not "player player 1"


# ---------------------------------------------------------------------------
# Player count
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [0, 5, -1, 100, "2", 2.0, None])
def test_wrong_player_count_raises_value_error(regicide, players):
    with pytest.raises(ValueError) as info:
        regicide.new_match(players=players, seed=0)
    assert "1 to 4" in str(info.value)


def test_bool_player_count_raises_value_error(regicide):
    with pytest.raises(ValueError):
        regicide.new_match(players=True, seed=0)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_allowed_player_count_starts(regicide, players):
    m = regicide.new_match(players=players, seed=0)
    assert m.n == players and m.decision is not None and not m.is_over()
    assert (regicide.min_players, regicide.max_players) == (1, 4)


@pytest.mark.parametrize("given,error,words", [
    ({"seed": None}, TypeError, "a match's seed is a whole number, not None (for a seed of its own, draw one"),
    ({"seed": "7"}, TypeError, "a match's seed is a whole number, not '7'"),
    ({"seed": 1.5}, TypeError, "not 1.5"),
    ({"seed": True}, TypeError, "not True"),
    # a text budget failed as the rule file's setup ("'>' cannot compare a number with a text")
    ({"step_budget": "100"}, ValueError, "step_budget is a whole number of steps, 1 or more, not '100'"),
    ({"step_budget": 0}, ValueError, "1 or more, not 0"),
    ({"auto_pass": 1}, TypeError, "auto_pass is True or False, not 1"),
    ({"copyable": "yes"}, TypeError, "copyable is True or False"),
    ({"options": "roles"}, TypeError, "options are a mapping of option name to value, not 'roles'"),
])
def test_a_wrong_argument_of_a_match_is_refused_before_the_rules_run(regicide, given, error, words):
    with pytest.raises(error) as info:
        regicide.new_match(2, **given)
    assert words in str(info.value)


def test_integer_types_are_the_numbers_they_stand_for(regicide):
    """numpy's integers (a learning loop's seeds) are taken as ints, so the
    match saves as JSON and replays like one started with plain ints."""
    numpy = pytest.importorskip("numpy")
    m = regicide.new_match(numpy.int8(2), seed=numpy.int64(5), step_budget=numpy.int32(10**6))
    assert (type(m.n), type(m.seed), m.seed) == (int, int, 5)
    assert json.loads(json.dumps(m.save())) == regicide.new_match(2, seed=5).save()


# ---------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------

def test_view_hides_other_hands_and_hidden_zones(regicide):
    m = random_prefix(regicide.new_match(players=3, seed=5), 6, seed=5)
    assert not m.is_over()
    for viewer in range(3):
        v = m.view(viewer)
        assert v["viewer"] == viewer
        zones = v["zones"]
        for p in range(3):
            hand = zones[f"hand({p})"]
            assert hand["count"] == len(m.zone("hand", p).cards)
            if p == viewer:
                assert hand["cards"] == [c.name for c in reversed(m.zone("hand", p).cards)]
            else:
                assert "cards" not in hand and "top" not in hand
        for hidden in ("castle", "tavern", "box"):
            assert set(zones[hidden]) == {"count"}
            assert zones[hidden]["count"] == len(m.zone(hidden).cards)
        for public in ("enemy", "discard", "table", "powers", "used"):
            assert zones[public]["cards"] == [c.name for c in reversed(m.zone(public).cards)]


def test_spectator_view_sees_only_public_zones(regicide):
    m = random_prefix(regicide.new_match(players=2, seed=3), 4, seed=3)
    v = m.view(None)
    for p in range(2):
        assert "cards" not in v["zones"][f"hand({p})"]
    assert v["zones"]["enemy"]["cards"] == [m.zone("enemy").cards[-1].name]
    assert v["decision"] is not None and "options" not in v["decision"]


def test_view_shows_decision_options_only_to_the_deciding_player(regicide):
    m = regicide.new_match(players=2, seed=2)
    assert m.decision.player == 0
    mine = m.view(0)["decision"]
    assert mine["options"] == [m.describe_action(a) for a in m.legal_actions()]
    assert mine["choice"] == "attack" and mine["player"] == 0
    theirs = m.view(1)["decision"]
    assert "options" not in theirs and theirs["choice"] == "attack"


def test_view_shows_variables_turn_phase_and_result(regicide):
    m = regicide.new_match(players=2, seed=2)
    v = m.view(1)
    assert (v["game"], v["turn"], v["current"]) == ("Regicide", m.turn, m.current)
    assert v["phase"] == m.phase
    assert v["vars"] == m.vars and v["result"] is None
    play_random(m, seed=2)
    assert m.view(1)["result"] == m.result() and m.view(1)["decision"] is None


def test_view_log_redacts_other_players_draws(regicide):
    m = random_prefix(regicide.new_match(players=2, seed=9), 10, seed=9)
    log0 = m.view(0)["log"]
    log1 = m.view(1)["log"]
    full = m.events("all")
    assert len(log0) == len(log1) == len(full)
    for e0, e1, e in zip(log0, log1, full):
        if e["event"] != "move":
            continue
        assert None not in e["cards"]
        if e["to"] == "hand(1)" and set(e["from"]) == {"tavern"}:
            assert e0["cards"] == [None] * len(e["cards"])
            assert e1["cards"] == e["cards"]
        if e["to"] == "hand(0)" and set(e["from"]) == {"tavern"}:
            assert e1["cards"] == [None] * len(e["cards"])
            assert e0["cards"] == e["cards"]
        if e["to"] in ("enemy", "discard", "table"):
            assert e0["cards"] == e1["cards"] == e["cards"]
        if e["to"] in ("castle", "tavern") and set(e["from"]) <= {"box", "castle", "tavern"}:
            assert e0["cards"] == [None] * len(e["cards"])


def test_view_log_never_names_a_card_the_viewer_never_saw(regicide):
    """Replaying a view's log, every named card was at some point in a zone
    the viewer may see (or played by them)."""
    for seed in range(20):
        m = random_prefix(regicide.new_match(players=3, seed=seed), 25, seed=seed)
        for viewer in range(3):
            for e in m.view(viewer)["log"]:
                if e["event"] == "move":
                    to_visible = e["to"] in ("enemy", "discard", "table", "powers", "used",
                                             f"hand({viewer})")
                    for name, src in zip(e["cards"], e["from"]):
                        src_visible = src in ("enemy", "discard", "table", "powers", "used",
                                              f"hand({viewer})")
                        if name is not None:
                            assert to_visible or src_visible, (viewer, e)
                        else:
                            assert not (to_visible or src_visible), (viewer, e)


def test_view_does_not_reveal_the_seed(regicide):
    """Hidden information must not leak through a view: the seed determines
    every shuffle, so players (and spectators) must not see it."""
    m = regicide.new_match(players=2, seed=123456)
    for viewer in (None, 0, 1):
        start = m.view(viewer)["log"][0]
        assert start["event"] == "start"
        assert start.get("seed") is None


# ---------------------------------------------------------------------------
# Copies and determinism
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_save_restore_gives_the_same_match_and_continues_identically(regicide, players):
    for seed in range(10):
        m = random_prefix(regicide.new_match(players=players, seed=seed), 8, seed=seed)
        saved = json.loads(json.dumps(m.save(), ensure_ascii=False))
        r = Match.restore(regicide, saved)
        assert snapshot(r) == snapshot(m)
        play_random(m, seed=seed + 1000)
        play_random(r, seed=seed + 1000)
        assert r.log_json() == m.log_json() and r.result() == m.result()


def test_save_restore_of_a_prepared_match(deal, act, regicide):
    m = deal(3, enemy="J♣", castle=["Q♥"], hands=[["Jester", "2♥"], ["3♥"], ["4♥"]],
             tavern=["5♣", "6♣"], vars={"damage": 7})
    act(m, "jester", "Jester")
    saved = json.loads(json.dumps(m.save(), ensure_ascii=False))
    r = Match.restore(regicide, saved)
    assert snapshot(r) == snapshot(m)
    act(m, "player", player=2)
    act(r, "player", player=2)
    assert r.log_json() == m.log_json()


@pytest.mark.parametrize("change,words", [
    (lambda s: None, "a saved match is the mapping Match.save() gives, not None"),
    (lambda s: {k: v for k, v in s.items() if k != "actions"}, "not a saved match: it has no 'actions'"),
    (lambda s: {k: v for k, v in s.items() if k not in ("seed", "players")}, "it has no 'players', 'seed'"),
    (lambda s: dict(s, game="三国杀 Sanguosha (identity mode)"), "this match was saved from '三国杀"),
    (lambda s: dict(s, actions="card"), "a saved match's actions are a list, not 'card'"),
    (lambda s: dict(s, prepared=[]), "a saved match's prepared state is a mapping, not []"),
    (lambda s: dict(s, rules="0" * 64), "this match was saved under other rule files of 'Regicide'"),
])
def test_a_record_that_is_not_a_saved_match_is_refused(regicide, change, words):
    m = random_prefix(regicide.new_match(players=2, seed=3), 4, seed=3)
    with pytest.raises(ValueError) as info:
        Match.restore(regicide, change(m.save()))
    assert words in str(info.value)


def test_a_save_carries_the_digest_of_its_rule_files_and_is_refused_once_they_changed(tmp_path):
    path = tmp_path / "regicide.yaml"
    text = (Path(__file__).resolve().parents[1] / "games" / "regicide.yaml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    game = rulekit.load_game(path)
    saved = random_prefix(game.new_match(players=2, seed=3), 4, seed=3).save()
    assert saved["rules"] == game.origin.digest and len(saved["rules"]) == 64
    path.write_text(text.replace("Reading:", "Reading (edited):") + "\n# one more comment\n", encoding="utf-8")
    assert Match.restore(rulekit.load_game(path), saved).log_json()       # comments change nothing
    path.write_text(text.replace("healed(count=healed)", "healed(count=healed, again=true)"), encoding="utf-8")
    with pytest.raises(ValueError, match="saved under other rule files of 'Regicide': they changed since"):
        Match.restore(rulekit.load_game(path), saved)
    older = {k: v for k, v in saved.items() if k != "rules"}      # a save written before saves carried it
    assert Match.restore(game, older).log_json() == Match.restore(game, saved).log_json()


@pytest.mark.parametrize("given,words", [
    ({"zones": {"nope": ["J♠"]}}, "unknown zone 'nope'; zones: box, castle, enemy"),
    ({"zones": {"hand(0)": ["Nope"]}}, "no (more) card named 'Nope' for zone 'hand(0)'"),
    ({"zones": {"enemy": ["J♠"], "hand(0)": ["J♠"]}}, "no (more) card named 'J♠' for zone 'hand(0)'"),
    ({"zones": {"hand": ["J♠"]}}, "zone 'hand' is one per player: name whose, as 'hand(0)'"),
    ({"zones": {"enemy": "J♠"}}, "the cards of zone 'enemy' are a list of card names, not 'J♠'"),  # was J, ♠
    ({"vars": {"nope": 1}}, "unknown variable 'nope'"),
    ({"player_vars": {7: {}}}, "a key of player_vars is a seat from 0 to 1, not 7"),     # was taken
    ({"current": 5}, "current is a seat from 0 to 1, not 5"),       # was the rule file's failure
    ({"current": "1"}, "current is a seat from 0 to 1, not '1'"),
    ({"out": [9]}, "each of out is a seat from 0 to 1, not 9"),
    ({"phase": "nope"}, "unknown phase 'nope'"),
])
def test_a_prepared_state_that_cannot_be_set_up_is_refused_saying_why(regicide, given, words):
    with pytest.raises(IllegalAction) as info:
        prepare(regicide, 2, **given)
    assert str(info.value).startswith("prepared state: ") and words in str(info.value)


@pytest.mark.parametrize("prepared,words", [
    ("x", "it is a mapping (zones, vars, player_vars, card_vars, out, current, phase), not str"),
    ({"zone": {}}, "unknown part 'zone'; the parts are zones, vars,"),
    ({"card_vars": {"enemy": [1]}}, "card_vars of zone 'enemy' are a list of mappings (one per card), not [1]"),
    ({"player_vars": {"0": 5}}, "player_vars of seat '0' are a mapping of variable to value, not 5"),
])
def test_a_prepared_state_of_the_wrong_shape_is_refused_before_a_card_moves(regicide, prepared, words):
    with pytest.raises(IllegalAction, match="prepared state: ") as info:
        Match(regicide, 2, 0, prepared=prepared)
    assert words in str(info.value)


def test_player_vars_keyed_by_text_as_json_keeps_them_are_seats(regicide):
    m = Match(regicide, 2, 0, prepared={"player_vars": {"1": {}}, "zones": {"enemy": ["J♠"]}})
    assert m.decision is not None


def test_clone_is_identical_and_independent(regicide):
    for seed in range(10):
        m = random_prefix(regicide.new_match(players=2, seed=seed), 6, seed=seed)
        if m.is_over():
            continue
        c = m.clone()
        assert snapshot(c) == snapshot(m)
        before = snapshot(m)
        play_random(c, seed=seed)
        assert snapshot(m) == before, "playing the clone changed the original"
        play_random(m, seed=seed)
        assert c.log_json() == m.log_json()


def test_copy_and_deepcopy_of_a_match_are_clones(regicide):
    """A match's flow is suspended code: ``copy.copy`` and ``copy.deepcopy``
    (of the match, or of something holding it) give an independent clone,
    and share the loaded game, which never changes."""
    import copy

    m = random_prefix(regicide.new_match(players=2, seed=3), 6, seed=3)
    holder = {"match": m, "again": m}
    for c in (copy.copy(m), copy.deepcopy(m), copy.deepcopy(holder)["match"]):
        assert c is not m and c.game is m.game and snapshot(c) == snapshot(m)
        before = snapshot(m)
        play_random(c, seed=3)
        assert snapshot(m) == before, "playing the copy changed the original"
    twice = copy.deepcopy(holder)
    assert twice["match"] is twice["again"]          # one match held twice: one copy


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_same_seed_and_actions_give_identical_logs(regicide, players):
    for seed in range(10):
        a = regicide.new_match(players=players, seed=seed)
        b = regicide.new_match(players=players, seed=seed)
        play_random(a, seed=seed)
        for action in a.actions:
            b.apply(action)
        assert b.log_json() == a.log_json()
        assert b.result() == a.result()


def test_different_seeds_give_different_games(regicide):
    logs = {regicide.new_match(players=2, seed=s).log_json() for s in range(50)}
    assert len(logs) == 50


def test_one_game_serves_interleaved_matches(regicide):
    """A loaded game is immutable: matches played in turns do exactly what
    they do alone."""
    alone = []
    for seed in range(6):
        m = regicide.new_match(players=seed % 4 + 1, seed=seed)
        play_random(m, seed=seed)
        alone.append(m.log_json())
    matches = [regicide.new_match(players=s % 4 + 1, seed=s) for s in range(6)]
    rngs = [random.Random(s) for s in range(6)]
    while any(m.decision is not None for m in matches):
        for m, rng in zip(matches, rngs):
            if m.decision is not None:
                m.apply(m.decision.options[rng.randrange(len(m.decision.options))])
    assert [m.log_json() for m in matches] == alone


def test_log_json_is_deterministic_json(regicide):
    m = regicide.new_match(players=2, seed=4)
    play_random(m, seed=4)
    events = json.loads(m.log_json())
    assert isinstance(events, list) and len(events) == len(m.log)
    assert m.log_json() == m.clone().log_json()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_log_is_append_only(regicide, players):
    """What happened stays as it happened: every action only appends to the
    log (the full log and every player's redacted log)."""
    for seed in range(5):
        m = regicide.new_match(players=players, seed=seed)
        rng = random.Random(seed)
        before = m.log_json()
        views = [m.view(p)["log"] for p in range(players)]
        while m.decision is not None:
            m.apply(rng.randrange(len(m.legal_actions())))
            after = m.log_json()
            assert after.startswith(before[:-1]), "an earlier event changed"
            now = [m.view(p)["log"] for p in range(players)]
            for old_log, new_log in zip(views, now):
                assert new_log[:len(old_log)] == old_log
            before, views = after, now


# ---------------------------------------------------------------------------
# Step budget
# ---------------------------------------------------------------------------

def test_step_budget_exceeded_names_a_rule_of_regicide(regicide):
    raised = 0
    for seed in range(10):
        m = regicide.new_match(players=2, seed=seed, step_budget=8)
        try:
            play_random(m, seed=seed)
        except StepBudgetExceeded as e:
            raised += 1
            assert e.budget == 8
            assert e.rule and e.rule in str(e)
            assert e.where is not None and e.where.file.endswith("regicide.yaml")
            assert e.where.line > 0
            assert f"{e.where.file}:{e.where.line}" in str(e)
    assert raised == 10


def test_step_budget_of_a_prepared_match(deal, act):
    m = deal(2, enemy="J♠", hands=[["7♦", "10♣"]],
             tavern=["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣"], step_budget=50)
    act(m, "card", "7♦")               # a few steps: well within the budget
    assert m.steps <= 50
    m = deal(2, enemy="J♠", hands=[["7♦", "10♣"]],
             tavern=["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣"], step_budget=3)
    with pytest.raises(StepBudgetExceeded) as info:
        act(m, "card", "7♦")
    assert info.value.rule.startswith("phase ")
    assert "regicide.yaml" in str(info.value)


def test_step_budget_is_large_enough_for_whole_games(regicide):
    for players in (1, 2, 3, 4):
        m = regicide.new_match(players=players, seed=1)
        play_random(m, seed=1)
        assert m.is_over() and m.steps > 0


def test_never_ending_phase_raises_step_budget_exceeded(tmp_path):
    """A rule file whose phase loops forever without a decision stops with
    StepBudgetExceeded naming the phase and its file:line."""
    text = textwrap.dedent("""\
        name: Forever
        players: {min: 1, max: 2}
        cards:
          - name: X
        zones:
          pile: {visibility: public}
        vars:
          n: 0
        turn:
          phases:
            - name: spin
              effect: |
                while true:
                  n += 1
        """)
    path = tmp_path / "forever.yaml"
    path.write_text(text, encoding="utf-8")
    game = rulekit.load_game(path)
    effect_line = text.splitlines().index("      effect: |") + 1
    while_line = effect_line + 1
    with pytest.raises(StepBudgetExceeded) as info:
        game.new_match(players=1, seed=0, step_budget=500)
    err = info.value
    assert "phase" in err.rule and "spin" in err.rule
    assert err.where is not None and err.where.file == str(path)
    assert effect_line <= err.where.line <= while_line
    assert f"{path}:{err.where.line}" in str(err)
    assert "phase" in str(err)


def test_view_since_returns_only_new_events(regicide):
    """A client that has seen the first k events asks for the rest only."""
    m = regicide.new_match(players=2, seed=5)
    first = m.view(0)
    k = first["log_size"]
    assert len(first["log"]) == k
    m.apply(m.legal_actions()[0])
    later = m.view(0, since=k)
    assert later["log"] == m.view(0)["log"][k:]
    assert later["log_size"] == len(m.view(0)["log"])


@contextlib.contextmanager
def _cycle_collector_off():
    """Only reference counting frees objects inside: what is still alive
    after its last reference went is caught in a cycle."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@pytest.mark.parametrize("players", [1, 3])
def test_a_finished_match_is_freed_without_the_garbage_collector(regicide, players):
    """Millions of simulated matches must not wait for the cycle collector:
    once over, a match holds no generator whose frame refers back to it."""
    m = regicide.new_match(players=players, seed=2)
    play_random(m, seed=2)
    assert m.is_over()
    ref = weakref.ref(m)
    with _cycle_collector_off():
        del m
        assert ref() is None


@pytest.mark.parametrize("name, players", [("regicide", 2), ("sanguosha", 5)])
def test_a_closed_match_refuses_actions_and_is_freed_without_the_garbage_collector(name, players):
    """An episode cut short: close() abandons the match, which is then freed
    at once instead of waiting in a cycle with its flow's generators."""
    game = rulekit.load_game(game_path(name))
    m = game.new_match(players=players, seed=3)
    rng = random.Random(3)
    for _ in range(4):
        m.apply(rng.randrange(len(m.decision.options)))
    assert m.decision is not None
    log = list(m.log)
    m.close()
    assert m.decision is None and not m.is_over() and m.result() is None
    with pytest.raises(IllegalAction, match="closed"):
        m.apply(0)
    assert m.log == log
    m.close()                              # closing twice is harmless
    ref = weakref.ref(m)
    with _cycle_collector_off():
        del m
        assert ref() is None
