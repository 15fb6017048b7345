"""The table state a seat's browser is sent (rulekit.web.table) and the
frames of a replay (rulekit.web.replay), for every rule file shipped: a seat
is never sent a card it may not see (by name or by id), actions go only to
the seat deciding, and the state is drawable at the start, mid-game and at
the end."""
from __future__ import annotations

import json
import random
import re

import pytest

import rulekit
from rulekit.web.replay import Replay, ReplayError
from rulekit.web.table import table_state
from tests.game_files import game_files, game_id, game_path

GAMES = game_files()
REQUIRED = {"seat", "step", "yours", "actions", "view", "result"}


def _players(game: rulekit.Game) -> int:
    return min(game.max_players, max(game.min_players, 4))


@pytest.fixture(scope="module", params=GAMES, ids=[game_id(p) for p in GAMES])
def played(request):
    """A game, a finished random match of it (seed 5) and its saved record."""
    game = rulekit.load_game(request.param)
    m = game.new_match(_players(game), seed=5)
    rng = random.Random(5)
    while m.decision is not None:
        m.apply(rng.randrange(len(m.decision.options)))
    return game, m.save()


def _at(game, saved, step):
    return rulekit.Match.restore(game, dict(saved, actions=saved["actions"][:step]))


def _ids_seen(view: dict) -> set[int]:
    """Card ids a seat's own view (with its log) shows."""
    seen = set()
    for z in view["zones"].values():
        seen.update(z.get("ids", ()))
        if "top_id" in z:
            seen.add(z["top_id"])
    for ev in view["log"]:
        seen.update(i for i in ev.get("ids") or () if i is not None)
    return seen


def _ids_sent(value, key=None) -> set[int]:
    """Every card id anywhere in a table state (under id, ids, top_id, cards, pickable)."""
    out: set[int] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out |= _ids_sent(v, k)
    elif isinstance(value, list):
        if key in ("ids", "cards", "pickable") and all(type(x) is int for x in value):
            out.update(value)
        else:
            for v in value:
                out |= _ids_sent(v, key)
    elif type(value) is int and key in ("id", "top_id"):
        out.add(value)
    return out


def _check_seat(m: rulekit.Match, seat: int) -> dict:
    state = table_state(m, seat)
    assert REQUIRED <= set(state)
    text = json.dumps(state, ensure_ascii=False)
    own = m.view(seat)
    seen = _ids_seen(own)
    assert _ids_sent(state) <= seen, "a card id the seat may not see was sent"
    # the names of cards the seat cannot see, but for names it saw some card of
    said = json.dumps(own, ensure_ascii=False)
    hidden = {m.cards[c].name for c in range(len(m.cards)) if c not in seen}
    leaked = [n for n in hidden if f'"{n}"' not in said and f'"{n}"' in text]
    assert not leaked, f"seat {seat} was sent hidden cards {leaked[:5]}"
    dec = m.decision
    if dec is not None and dec.player == seat:
        assert state["yours"] and [a["action"] for a in state["actions"]] == [a.to_json() for a in dec.options]
        assert all(c in seen for a in state["actions"] for c in a["action"].get("cards", ()))
    else:
        assert not state["yours"] and state["actions"] == [] and state["pickable"] == []
        assert state["decision"] is None or "options" not in state["decision"]
    assert len(state["seats"]) == m.n and sum(s["you"] for s in state["seats"]) == 1
    return state


def test_every_seat_sees_only_its_own_at_start_midgame_and_end(played):
    game, saved = played
    n = len(saved["actions"])
    for step in (0, n // 3, 2 * n // 3, n):
        m = _at(game, saved, step)
        for seat in range(m.n):
            _check_seat(m, seat)


def test_the_check_would_catch_a_hand_sent_to_another_seat(played):
    """The all-seeing state of mid-game holds cards a seat may not see: the
    name and id checks above have something to find."""
    game, saved = played
    m = _at(game, saved, len(saved["actions"]) // 2)
    everything = table_state(m, "all")
    seen = _ids_seen(m.view(0))
    assert _ids_sent(everything) - seen, "nothing hidden from seat 0 mid-game: the check proves nothing"


def test_the_hand_is_drawn_as_cards_and_the_others_as_counts():
    game = rulekit.load_game(game_path("regicide"))
    m = game.new_match(2, seed=1)
    state = table_state(m, 0)
    hand = state["mine"][0]
    assert hand["name"] == "hand" and hand["count"] == len(hand["cards"]) > 0
    assert all(c["corner"] and c["color"] in ("red", "black") for c in hand["cards"])
    assert state["seats"][1]["counts"] == [{"name": "hand", "count": m.view(1)["zones"]["hand(1)"]["count"]}]
    assert {c["id"] for c in hand["cards"]} >= set(state["pickable"])
    assert [z["name"] for z in state["shared"]][:2] == ["castle", "enemy"]


def test_the_end_screen_shows_the_result_and_every_hidden_variable(played):
    game, saved = played
    m = _at(game, saved, len(saved["actions"]))
    state = table_state(m, 0)
    end = state["end"]
    assert end["outcome"] == m.result()["outcome"] and end["winners"] == m.result()["winners"]
    secrets = list(game.var_visibility)
    assert [s["values"] for s in end["secrets"]] == [{k: m.pvars[p][k] for k in secrets}
                                                     for p in range(m.n)] if secrets else end["secrets"] == []
    assert state["actions"] == [] and state["decision"] is None
    assert table_state(_at(game, saved, 0), 0)["end"] is None


def test_the_log_tells_unanswered_response_windows_in_one_line():
    game = rulekit.load_game(game_path("sanguosha"))
    m = game.new_match(5, seed=3)
    rng = random.Random(3)
    while m.decision is not None and len(m.actions) < 300:
        m.apply(rng.randrange(len(m.decision.options)))
    lines = table_state(m, 0)["log"]
    windows = {c.window for c in game.choices.values() if c.window}
    together = [ln["text"] for ln in lines
                if re.fullmatch(r"player \d.*, player \d.* — \S+: (%s)" % "|".join(windows), ln["text"])]
    assert together, "no run of passes told in one line"
    assert any(ln.get("text", "").startswith("turn of") for ln in lines)
    assert all("(you)" not in ln["text"] or "player 0 (you)" in ln["text"] for ln in lines)


def test_replay_frames_forwards_and_backwards_equal_the_match_restored(played):
    game, saved = played
    replay = Replay(game, json.loads(json.dumps(saved)), every=7)
    n = replay.steps
    assert n == len(saved["actions"])
    for step in [n, 0, n // 2, n // 2 + 1, 3, n - 1, 1]:
        for seat in ("all", 1):
            frame = replay.frame(max(0, step), seat)
            m = _at(game, saved, max(0, step))
            expected = table_state(m, seat)
            assert {k: v for k, v in frame.items() if k not in ("steps", "next")} == expected
            if seat == "all" and step < n:
                assert frame["next"]["action"] == saved["actions"][step]


def test_a_replay_refuses_what_does_not_exist(played):
    game, saved = played
    replay = Replay(game, saved)
    with pytest.raises(ReplayError, match="does not exist"):
        replay.frame(replay.steps + 1)
    with pytest.raises(ReplayError, match="seat 9"):
        replay.frame(0, 9)
    bad = dict(saved, actions=saved["actions"][:2] + [{"option": "no such option"}])
    with pytest.raises(ReplayError, match="action 2 of the saved match"):
        Replay(game, bad)
    with pytest.raises(ReplayError, match="saved from"):
        Replay(game, dict(saved, game="another game"))
    with pytest.raises(ReplayError, match="a saved match is a JSON object with 'players', 'seed' and 'actions'"):
        Replay(game, [saved])
    with pytest.raises(ReplayError, match="the saved match cannot be started: .*players"):
        Replay(game, dict(saved, players=99))
    with pytest.raises(ReplayError, match="saved under other rule files"):
        Replay(game, dict(saved, rules="0" * 64))
