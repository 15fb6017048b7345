"""The web table's server over real HTTP and websockets (docs/web.md, "Protocol").

Each seat is sent only its own view; a person acts only for the seat its
token holds; every bad message is answered with its error code and leaves
every match exactly as it was (its ``log_json()`` compared before and after).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from web_kit import REGICIDE, ROOT, Client, free_socket, serve  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

import rulekit  # noqa: E402
from rulekit.agents import HeuristicAgent  # noqa: E402
from rulekit.engine.runtime import Action  # noqa: E402
from rulekit.web.hosting import agent_seed  # noqa: E402
from rulekit.web.limits import BURST, FLOOD_CLOSE, MAX_MESSAGE_BYTES  # noqa: E402
from rulekit.web.table import table_state  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with serve([REGICIDE]) as s:
        yield s


@pytest.fixture(scope="module")
def game():
    return rulekit.load_game(REGICIDE)


def live(server, mid):
    """The server's match ``mid`` (the server runs in this process)."""
    return server.host.load(mid).match


def two_people(server, seed=0):
    made = server.new_match(["person", "person"], seed=seed)
    return made["match"], made["tokens"]


def normal(value):
    return json.loads(json.dumps(value, ensure_ascii=False))


def view_of(match, seat):
    """``match.view(seat)`` as sent in a state (which tells the log in ``log`` lines, not in the view)."""
    view = normal(match.view(seat, log=False))
    view.pop("log", None)
    return view


def sent(state):
    """The view in a state, without its log."""
    view = dict(state["view"])
    view.pop("log", None)
    return view


def exactly_table_state(state, match, seat):
    """A state is ``table_state(match, seat)`` and nothing else."""
    return state == normal({"type": "state", **table_state(match, seat)})


# ---- hello, state, act ---------------------------------------------------------

def test_hello_sends_the_seat_its_own_view_and_only_its_own_actions(server):
    mid, tokens = two_people(server, seed=3)
    match = live(server, mid)
    with server.seat(mid, tokens[0]) as a, server.seat(mid, tokens[1]) as b:
        sa, sb = a.state, b.state
        to_move = match.decision.player
        for seat, state in ((0, sa), (1, sb)):
            assert state["type"] == "state" and state["seat"] == seat and state["step"] == 0
            assert sent(state) == view_of(match, seat) and exactly_table_state(state, match, seat)
            assert state["yours"] == (seat == to_move)
            offered = [normal(o.to_json()) for o in match.decision.options]
            assert [x["action"] for x in state["actions"]] == (offered if seat == to_move else [])
            assert state["result"] is None
        # the other seat's hand is a count, never its cards
        assert "cards" not in sa["view"]["zones"]["hand(1)"]
        assert "cards" not in sb["view"]["zones"]["hand(0)"]
        assert sa["view"]["zones"]["hand(0)"]["ids"] == normal(match.view(0))["zones"]["hand(0)"]["ids"]


def test_an_action_is_applied_and_every_seat_is_sent_its_new_state(server):
    mid, tokens = two_people(server, seed=4)
    match = live(server, mid)
    with server.seat(mid, tokens[0]) as a, server.seat(mid, tokens[1]) as b:
        mover = a if a.state["yours"] else b
        action = mover.state["actions"][-1]["action"]
        mover.act(action, 0)
        na, nb = a.next_state(), b.next_state()
        assert na["step"] == nb["step"] == 1 == len(match.actions)
        assert normal(match.actions[0].to_json()) == action
        assert sent(na) == view_of(match, 0) and sent(nb) == view_of(match, 1)
        assert exactly_table_state(na, match, 0) and exactly_table_state(nb, match, 1)


def test_a_state_carries_only_the_log_lines_the_socket_has_not_had(server):
    mid, tokens = two_people(server, seed=7)
    match = live(server, mid)
    with server.seat(mid, tokens[0]) as a, server.seat(mid, tokens[1]) as b:
        assert a.raw["log_from"] == 0 and a.raw["log"] == table_state(match, 0)["log"]
        for _ in range(6):
            mover = a if a.state["yours"] else b
            held = len(a.log)
            mover.act(mover.state["actions"][0]["action"], mover.state["step"])
            na, nb = a.next_state(), b.next_state()
            # the whole log, put together from the new lines, is the seat's told log
            assert exactly_table_state(na, match, 0) and exactly_table_state(nb, match, 1)
            assert 0 < a.raw["log_from"] <= held and len(a.raw["log"]) < len(na["log"])
        a.send({"type": "hello", "token": tokens[0]})          # a hello again: the whole log
        again = a.next_state()
        assert a.raw["log_from"] == 0 and exactly_table_state(again, match, 0)


def test_a_closed_tab_rejoins_with_its_token_where_the_match_stands(server):
    mid, tokens = two_people(server, seed=5)
    with server.seat(mid, tokens[0]) as a, server.seat(mid, tokens[1]) as b:
        mover = a if a.state["yours"] else b
        mover.act(mover.state["actions"][0]["action"], 0)
        before = (a.next_state(), b.next_state())
    for seat in (0, 1):
        with server.seat(mid, tokens[seat]) as again:
            assert again.state == before[seat]
            again.send({"type": "hello", "token": tokens[seat]})     # hello again: the state again
            assert again.next_state() == before[seat]


def test_two_tabs_of_one_seat_both_follow_the_match(server):
    mid, tokens = two_people(server, seed=6)
    with server.seat(mid, tokens[0]) as a1, server.seat(mid, tokens[0]) as a2, server.seat(mid, tokens[1]) as b:
        mover = a1 if a1.state["yours"] else b
        mover.act(mover.state["actions"][0]["action"], 0)
        assert a1.next_state() == a2.next_state()
        b.next_state()


# ---- bad input: an error, and nothing changes --------------------------------------

BAD = [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "dance"}', "malformed"),
    ('{"type": "act", "action": {"option": "yield"}}', "malformed"),                     # no step
    ('{"type": "act", "action": "yield", "step": 0}', "malformed"),
    ('{"type": "act", "action": {"option": "card", "cards": ["A"]}, "step": 0}', "malformed"),
    ('{"type": "act", "action": {"option": "card", "cards": [true]}, "step": 0}', "malformed"),
    ('{"type": "act", "action": {"option": "card", "evil": 1}, "step": 0}', "malformed"),
    ('{"type": "act", "action": {"option": 7}, "step": 0}', "malformed"),
    ('{"type": "act", "action": {"option": "yield", "player": "0"}, "step": 0}', "malformed"),
    ('{"type": "hello"}', "malformed"),
    ('{"type": "act", "action": {"option": "no such option"}, "step": 0}', "illegal"),
    ('{"type": "act", "action": {"option": "card", "cards": [99999]}, "step": 0}', "illegal"),
    ('{"type": "act", "action": {"option": "card", "cards": [-1]}, "step": 0}', "illegal"),
    ('{"type": "act", "action": {"option": "yield"}, "step": 5}', "stale"),
    ('{"type": "act", "action": {"option": "yield"}, "step": -1}', "stale"),
]


@pytest.mark.parametrize("frame,code", BAD, ids=[f"{c}-{i}" for i, (_, c) in enumerate(BAD)])
def test_a_bad_message_is_answered_and_changes_nothing(server, frame, code):
    mid, tokens = two_people(server, seed=7)
    other, _ = two_people(server, seed=8)
    match = live(server, mid)
    mover = match.decision.player
    before, before_other = match.log_json(), live(server, other).log_json()
    with server.seat(mid, tokens[mover]) as c:
        c.send(frame)
        err = c.next_error()
        assert err["code"] == code and err["message"]
        assert match.log_json() == before and live(server, other).log_json() == before_other
        # the socket still works: the seat plays on
        c.act(c.state["actions"][0]["action"], 0)
        assert c.next_state()["step"] == 1 == len(match.actions)


def test_an_illegal_card_leaves_the_match_unchanged(server, game):
    mid, tokens = two_people(server, seed=9)
    match = live(server, mid)
    mover = match.decision.player
    others_card = match.zone("hand", 1 - mover).cards[0].id     # in the other seat's hand
    before = match.log_json()
    with server.seat(mid, tokens[mover]) as c:
        c.act({"option": "card", "cards": [others_card]}, 0)
        assert c.next_error()["code"] == "illegal"
        assert match.log_json() == before and len(match.actions) == 0
        assert sent(c.state) == view_of(match, mover)


def test_acting_out_of_turn_is_refused(server):
    mid, tokens = two_people(server, seed=10)
    match = live(server, mid)
    waiting = 1 - match.decision.player
    before = match.log_json()
    with server.seat(mid, tokens[waiting]) as c:
        assert not c.state["yours"] and c.state["actions"] == []
        c.act(match.decision.options[0].to_json(), 0)       # the mover's own option
        assert c.next_error()["code"] == "not_your_turn"
    assert match.log_json() == before


def test_an_action_before_hello_is_refused(server):
    mid, tokens = two_people(server, seed=11)
    match = live(server, mid)
    before = match.log_json()
    c = server.connect(mid)
    try:
        c.act(match.decision.options[0].to_json(), 0)
        assert c.next_error()["code"] == "token"
        assert c.hello(tokens[match.decision.player])["step"] == 0      # hello still works
    finally:
        c.close()
    assert match.log_json() == before


@pytest.mark.parametrize("whose", ["unknown", "other match", "other seat after hello"])
def test_a_wrong_token_is_refused_and_the_socket_closed(server, whose):
    mid, tokens = two_people(server, seed=12)
    _, foreign = two_people(server, seed=13)
    match = live(server, mid)
    before = match.log_json()
    c = server.connect(mid)
    try:
        if whose == "unknown":
            c.send({"type": "hello", "token": "x" * 32})
        elif whose == "other match":
            c.send({"type": "hello", "token": foreign[0]})
        else:
            c.hello(tokens[0])
            c.send({"type": "hello", "token": tokens[1]})
        assert c.next_error()["code"] == "token"
        assert c.close_code() == 1008
    finally:
        c.close()
    assert match.log_json() == before


def test_no_such_match(server):
    c = server.connect("nothing-here")
    try:
        assert c.next_error()["code"] == "token"
        assert c.close_code() == 1008
    finally:
        c.close()


def test_an_oversized_message_is_refused(server):
    mid, tokens = two_people(server, seed=14)
    match = live(server, mid)
    before = match.log_json()
    with server.seat(mid, tokens[match.decision.player]) as c:
        c.send(json.dumps({"type": "act", "action": {"option": "x" * MAX_MESSAGE_BYTES}, "step": 0}))
        assert c.next_error()["code"] == "too_large"
        c.send(b"\x00" * 10)                          # a binary frame
        assert c.next_error()["code"] == "malformed"
    assert match.log_json() == before


def test_a_frame_beyond_the_transport_limit_closes_the_socket(server):
    mid, tokens = two_people(server, seed=15)
    match = live(server, mid)
    before = match.log_json()
    with server.seat(mid, tokens[0]) as c:
        c.send("x" * (2 * 1024 * 1024))
        assert c.close_code() == 1009
    assert match.log_json() == before


def test_a_flood_is_refused_and_the_socket_recovers(server):
    mid, tokens = two_people(server, seed=16)
    match = live(server, mid)
    before = match.log_json()
    stale = json.dumps({"type": "act", "action": {"option": "yield"}, "step": 99})
    with server.seat(mid, tokens[match.decision.player]) as c:
        for _ in range(BURST * 3):
            c.send(stale)
        codes = []                             # a burst is answered, then one refusal says why
        while "rate" not in codes:
            codes.append(c.next_error()["code"])
        assert set(codes[:-1]) == {"stale"} and len(codes) - 1 <= BURST
        assert match.log_json() == before
        deadline = time.monotonic() + 30       # the bucket refills: the seat plays on
        msg = {"type": "none yet"}
        while msg["type"] != "state":
            assert time.monotonic() < deadline, "the socket never recovered from the flood"
            c.act(c.state["actions"][0]["action"], 0)
            try:                               # refused messages are dropped unanswered
                msg = c.recv(timeout=0.5)
            except TimeoutError:
                continue
            assert msg["type"] == "state" or msg["code"] in ("rate", "stale")
        assert msg["step"] == 1


def test_a_socket_that_keeps_flooding_is_closed(server):
    mid, tokens = two_people(server, seed=18)
    match = live(server, mid)
    before = match.log_json()
    with server.seat(mid, tokens[0]) as c:
        try:
            for _ in range(5 * FLOOD_CLOSE):
                c.send("{}")
        except ConnectionClosed:               # closed while still sending
            pass
        assert c.close_code() == 1008
    assert match.log_json() == before
    with server.seat(mid, tokens[0]) as c:          # the seat itself is not lost
        assert c.state["step"] == 0


def test_a_disconnect_mid_decision_harms_nothing(server):
    mid, tokens = two_people(server, seed=17)
    match = live(server, mid)
    mover = match.decision.player
    c = server.connect(mid)
    c.hello(tokens[mover])
    c.send({"type": "act", "action": c.state["actions"][0]["action"], "step": 0})
    c.close()                                    # gone before its state comes back
    with server.seat(mid, tokens[1 - mover]) as other:
        state = other.state if other.state["step"] == 1 else other.next_state()
        assert state["step"] == 1 == len(match.actions)
    with server.seat(mid, tokens[mover]) as again:
        assert sent(again.state) == view_of(match, mover)


# ---- a whole match -----------------------------------------------------------------

def play_out(clients: list[Client], rng: random.Random, limit: int = 2000) -> list[list[dict]]:
    """Both seats connected: the seat whose state is ``yours`` picks at random,
    then every seat reads its next state; every state each seat was sent."""
    history: list[list[dict]] = [[c.state] for c in clients]
    for _ in range(limit):
        states = [c.state for c in clients]
        assert len({s["step"] for s in states}) == 1
        if states[0]["result"] is not None:
            return history
        movers = [i for i, s in enumerate(states) if s["yours"]]
        assert len(movers) == 1
        actions = states[movers[0]]["actions"]
        clients[movers[0]].act(actions[rng.randrange(len(actions))]["action"], states[0]["step"])
        for seen, c in zip(history, clients):
            seen.append(c.next_state())
    raise AssertionError("the match did not end")


def test_a_two_player_match_is_played_to_the_end_over_websockets(server, game):
    mid, tokens = two_people(server, seed=21)
    status, _ = server.request("GET", f"/api/matches/{mid}/saved")
    assert status == 409                          # not before the end: it holds the seed
    with server.seat(mid, tokens[0]) as a, server.seat(mid, tokens[1]) as b:
        history = play_out([a, b], random.Random(1))
    match = live(server, mid)
    assert match.is_over() and history[0][-1]["result"] == normal(match.result())
    saved = server.get(f"/api/matches/{mid}/saved")
    assert saved == normal(match.save())
    assert rulekit.Match.restore(game, saved).log_json() == match.log_json()
    listing = {m["match"]: m for m in server.get("/api/matches")}
    assert listing[mid]["over"] and listing[mid]["step"] == len(saved["actions"])
    assert "token" not in json.dumps(listing[mid])
    # every state a seat was sent is that seat's view at that step, and nothing more:
    # never the other seat's hand, never the other seat's options
    assert len(history[0]) == len(saved["actions"]) + 1 > 10
    for step in range(len(saved["actions"]) + 1):
        then = rulekit.Match.restore(game, {**saved, "actions": saved["actions"][:step]})
        for seat in (0, 1):
            state = history[seat][step]
            assert state["step"] == step and sent(state) == view_of(then, seat)
            assert exactly_table_state(state, then, seat)
            assert "cards" not in state["view"]["zones"][f"hand({1 - seat})"]
            if not state["yours"]:
                assert state["actions"] == [] and "options" not in json.dumps(state["view"]["decision"] or {})


def test_agents_play_their_seats(server, game):
    made = server.new_match(["person", "heuristic"], seed=30)
    mid, token = made["match"], made["tokens"][0]
    assert list(made["tokens"]) == [0]            # no token for an agent's seat
    rng = random.Random(2)
    with server.seat(mid, token) as c:
        state = c.state
        if not (state["yours"] or state["result"] is not None):
            state = c.until(lambda s: s["yours"] or s["result"] is not None)
        while state["result"] is None:
            c.act(state["actions"][rng.randrange(len(state["actions"]))]["action"], state["step"])
            state = c.until(lambda s: s["yours"] or s["result"] is not None)
    saved = server.get(f"/api/matches/{mid}/saved")
    assert len(saved["actions"]) == state["step"] and live(server, mid).is_over()
    # the agent's moves are those of a heuristic agent seeded from (match seed, seat, step)
    replay, agent_moves = game.new_match(2, seed=30), 0
    for step, action in enumerate(saved["actions"]):
        dec = replay.decision
        if dec.player == 1:
            expected = HeuristicAgent(agent_seed(30, 1, step)).act(replay, dec)
            assert normal(expected.to_json()) == action
            agent_moves += 1
        replay.apply(Action.from_json(action))
    assert agent_moves > 3


def test_a_failing_agent_stops_its_own_match_only(server, monkeypatch):
    from rulekit.web import hosting

    class Broken:
        def __init__(self, seed):
            pass

        def act(self, match, decision):
            raise RuntimeError("this agent is broken")

    monkeypatch.setitem(hosting.AGENTS, "random", Broken)
    made = server.new_match(["person", "random"], seed=50)
    mid, token = made["match"], made["tokens"][0]
    hosted = server.host.load(mid)
    with server.seat(mid, token) as c:
        while c.state["yours"]:           # the person plays until it is the agent's turn
            c.act(c.state["actions"][0]["action"], c.state["step"])
            c.next_state()
        assert c.state["result"] is None
        wait = time.monotonic() + 30
        while not (hosted.agents is not None and hosted.agents.done()):
            assert time.monotonic() < wait
            time.sleep(0.01)
        step, log = len(hosted.match.actions), hosted.match.log_json()
        assert not c.state["yours"] and c.state["step"] == step
        other = server.new_match(["heuristic", "heuristic"], seed=51)["match"]     # other matches play on
        wait = time.monotonic() + 30
        while not server.request("GET", f"/api/matches/{other}/saved")[0] == 200:
            assert time.monotonic() < wait
            time.sleep(0.02)
    assert hosted.match.log_json() == log and len(server.host.store.actions(mid)) == step
    monkeypatch.undo()                    # mended: the seat's next hello lets the agent try again
    with server.seat(mid, token) as c:
        assert c.state["step"] == step
        state = c.until(lambda s: s["step"] > step)
        assert state["step"] == step + 1 or state["result"] is not None


# ---- HTTP ----------------------------------------------------------------------------

def test_unknown_paths_are_404(server):
    assert server.request("GET", "/static/no-such-file.js")[0] == 404
    assert server.request("GET", "/api/nothing")[0] == 404


def test_games_are_listed(server):
    games = server.get("/api/games")
    assert games == [{"id": "regicide", "title": "Regicide", "players": [1, 4], "options": {},
                      "agents": ["random", "heuristic"]}]


@pytest.mark.parametrize("body,says", [
    ({"game": "chess", "players": 2, "seats": ["person", "person"]}, "no game"),
    ({"game": "regicide", "players": 9, "seats": ["person"] * 9}, "players"),
    ({"game": "regicide", "players": "2", "seats": ["person", "person"]}, "players"),
    ({"game": "regicide", "players": 2, "seats": ["person"]}, "seats"),
    ({"game": "regicide", "players": 2, "seats": ["person", "mcts"]}, "seats"),
    ({"game": "regicide", "players": 2, "seats": ["person", "person"], "seed": "7"}, "seed"),
    ({"game": "regicide", "players": 2, "seats": ["person", "person"], "options": {"x": 1}}, "option"),
    ([1, 2], "object"),
])
def test_a_match_that_cannot_be_started_is_a_400(server, body, says):
    before = len(server.get("/api/matches"))
    status, reply = server.request("POST", "/api/matches", body)
    assert status == 400 and says in reply["error"]
    assert len(server.get("/api/matches")) == before


def test_a_server_full_of_unfinished_matches_starts_no_more(server, monkeypatch):
    from rulekit.web import hosting

    live_now = sum(not h.match.is_over() for h in server.host.matches.values())
    monkeypatch.setattr(hosting, "MAX_LIVE", live_now)
    status, reply = server.request("POST", "/api/matches", {"game": "regicide", "players": 1, "seats": ["person"]})
    assert status == 400 and "unfinished matches" in reply["error"]
    monkeypatch.setattr(hosting, "MAX_LIVE", live_now + 1)
    assert server.new_match(["person"])["tokens"]


def test_a_body_that_is_not_json_or_too_large_is_a_400(server):
    assert server.request("POST", "/api/matches", raw=b"{nope")[0] == 400
    status, reply = server.request("POST", "/api/matches", raw=b" " * (MAX_MESSAGE_BYTES + 1))
    assert status == 400 and "at most" in reply["error"]


def test_saved_is_refused_before_the_end_and_unknown_matches_are_404(server):
    mid, _ = two_people(server, seed=40)
    assert server.request("GET", f"/api/matches/{mid}/saved")[0] == 409
    assert server.request("GET", "/api/matches/nope/saved")[0] == 404


def finished_and_saved(server, seed: int) -> dict:
    """A match of two random agents, played to its end: its saved form."""
    mid = server.new_match(["random", "random"], seed=seed)["match"]
    deadline = time.monotonic() + 30
    while server.request("GET", f"/api/matches/{mid}/saved")[0] != 200:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return server.get(f"/api/matches/{mid}/saved")


def test_a_finished_match_replays(server, game):
    saved = finished_and_saved(server, 41)
    replay = server.post("/api/replays", saved)
    assert replay["steps"] == len(saved["actions"]) and replay["players"] == 2
    match = rulekit.Match.restore(game, {**saved, "actions": saved["actions"][:3]})
    frame = server.get(f"/api/replays/{replay['replay']}/3?seat=1")
    assert frame["step"] == 3 and sent(frame) == view_of(match, 1)
    assert server.get(f"/api/replays/{replay['replay']}/0?seat=all")["view"]["zones"]["hand(1)"]["cards"]
    assert server.request("GET", f"/api/replays/{replay['replay']}/999")[0] == 400
    assert server.request("POST", "/api/replays", {**saved, "actions": [{"option": "nope"}]})[0] == 400


def test_replays_refuse_what_names_no_served_rule_file_and_bad_seats(server, tmp_path):
    """A replay is posted as a saved match, which names its rule file by
    title (or by the id the catalogue gives it): anything else is refused
    with what was expected, as is a seat that is neither a number nor all."""
    saved = finished_and_saved(server, 42)
    for body, says in (([1, 2], "post a saved match"), ({**saved, "actions": "all"}, "post a saved match"),
                       ({**saved, "game": "Chess"}, "no rule file here is called 'Chess'")):
        status, reply = server.request("POST", "/api/replays", body)
        assert status == 400 and says in reply["error"], reply
    by_id = server.post("/api/replays", {**saved, "game": "regicide"})   # the catalogue's id
    assert by_id["steps"] == len(saved["actions"])
    status, reply = server.request("GET", f"/api/replays/{by_id['replay']}/1?seat=me")
    assert status == 400 and "seat is all or a seat from 0 to 1, not 'me'" in reply["error"]
    assert server.request("GET", "/api/replays/nope/1?seat=all")[0] == 404
    twin = tmp_path / "regicide_again.yaml"                   # another file of the same title
    twin.write_text(REGICIDE.read_text(encoding="utf-8"), encoding="utf-8")
    with serve([REGICIDE, twin]) as two:
        status, reply = two.request("POST", "/api/replays", saved)
        assert status == 400 and "several rule files here are called 'Regicide'" in reply["error"], reply
        assert two.post("/api/replays", {**saved, "game": "regicide_again"})["steps"] == len(saved["actions"])


def test_the_catalogue_leaves_out_a_file_that_does_not_load_and_a_second_file_of_one_id(tmp_path, caplog):
    """A folder of games may hold a broken draft, and two files may claim one
    id: the server offers what loads, each id once (the first found), and
    logs what it left out and why."""
    import logging

    from rulekit.web.games import load_catalogue

    text = REGICIDE.read_text(encoding="utf-8")
    games = tmp_path / "games"
    (games / "duel").mkdir(parents=True)
    (games / "regicide.yaml").write_text(text, encoding="utf-8")
    (games / "draft.yaml").write_text("name: Draft\n", encoding="utf-8")
    (games / "duel" / "game.yaml").write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="rulekit.web"):
        catalogue = load_catalogue([games, REGICIDE])
    assert sorted(catalogue) == ["duel", "regicide"]
    assert catalogue["regicide"].path == games / "regicide.yaml"
    said = caplog.text
    assert f"{games / 'draft.yaml'}: left out, it does not load" in said and "missing required key" in said
    assert f"{REGICIDE}: left out, the id 'regicide' is already {games / 'regicide.yaml'}" in said


# ---- the command ---------------------------------------------------------------------

def test_rulekit_serve_serves_and_stops(tmp_path):
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    proc = subprocess.Popen([sys.executable, "-m", "rulekit", "serve", str(REGICIDE), "--port", str(port),
                             "--db", str(tmp_path / "m.sqlite3"), "--agent-delay", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        import urllib.request
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as r:
                    assert json.loads(r.read())[0]["id"] == "regicide"
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.1)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=30)
    assert "serving 1 game (regicide)" in out and "127.0.0.1" in out
    assert (tmp_path / "m.sqlite3").is_file()


def test_a_port_in_use_or_a_broken_database_is_one_message(tmp_path, capsys):
    from rulekit.cli import main

    taken = free_socket()
    taken.listen()
    try:
        status = main(["serve", str(REGICIDE), "--port", str(taken.getsockname()[1]), "--db", str(tmp_path / "m")])
    finally:
        taken.close()
    assert status == 2 and "choose another with --port" in capsys.readouterr().err
    (tmp_path / "bad.db").write_text("not a database")
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    assert main(["serve", str(REGICIDE), "--port", str(port), "--db", str(tmp_path / "bad.db")]) == 1
    assert "cannot use it as the database" in capsys.readouterr().err


def test_without_the_web_extra_rulekit_serve_says_how_to_install_it():
    code = """
import sys
sys.modules["starlette"] = None
import rulekit.cli
raise SystemExit(rulekit.cli.main(["serve", "games/regicide.yaml"]))
"""
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 2 and "pip install 'rulekit[web]'" in run.stderr
    assert "Traceback" not in run.stderr


def test_importing_rulekit_imports_no_web_framework():
    code = "import sys, rulekit, rulekit.cli, rulekit.web; print(sorted(m for m in sys.modules " \
           "if m.split('.')[0] in ('starlette', 'uvicorn', 'websockets')))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.stdout.strip() == "[]", run.stderr
