"""The web table's memory: the SQLite store, and a server that stops and
starts again on the same file resuming every unfinished match where it stood."""
from __future__ import annotations

import json
import random
import sqlite3
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_web  # noqa: E402
from web_kit import REGICIDE, ROOT, TIMEOUT, serve  # noqa: E402

import rulekit  # noqa: E402
from rulekit.web.hosting import hash_token  # noqa: E402
from rulekit.web.store import Store  # noqa: E402


@pytest.fixture(scope="module")
def game():
    return rulekit.load_game(REGICIDE)


def rows(db: Path, query: str, *args) -> list[tuple]:
    """Read the database as another process would, through a connection of its own."""
    con = sqlite3.connect(db)
    try:
        return con.execute(query, args).fetchall()
    finally:
        con.close()


def wait_for(predicate, what: str):
    deadline = time.monotonic() + TIMEOUT
    while not (value := predicate()):
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)
    return value


# ---- the store itself --------------------------------------------------------------

def test_the_store_keeps_matches_seats_and_actions(tmp_path):
    store = Store(tmp_path / "m.sqlite3")
    assert store.listing() == [] and store.match_ids() == []
    store.add_match("m1", "g", {"players": 2, "seed": 5, "options": {}}, ["person", "random"], ["ab" * 32, None])
    store.add_action("m1", 0, {"option": "card", "cards": [3]}, over=False)
    store.add_action("m1", 1, {"option": "yield"}, over=True)
    got = store.match("m1")
    assert (got.game, got.spec, got.kinds, got.token_hashes, got.steps, got.over) == \
        ("g", {"players": 2, "seed": 5, "options": {}}, ["person", "random"], ["ab" * 32, None], 2, True)
    assert store.actions("m1") == [{"option": "card", "cards": [3]}, {"option": "yield"}]
    assert store.match_ids(unfinished_only=True) == [] and store.match_ids() == ["m1"]
    assert store.listing() == [{"match": "m1", "game": "g", "players": 2, "seats": ["person", "random"],
                                "step": 2, "over": True}]
    assert store.match("nope") is None
    store.close()


def test_a_step_is_written_once(tmp_path):
    """The actions are only appended: a second action for one step (two
    writers racing) is refused and the first stays."""
    store = Store(tmp_path / "m.sqlite3")
    store.add_match("m1", "g", {"players": 1, "seed": 0, "options": {}}, ["person"], [None])
    store.add_action("m1", 0, {"option": "a"}, over=False)
    with pytest.raises(sqlite3.IntegrityError):
        store.add_action("m1", 0, {"option": "b"}, over=False)
    assert store.actions("m1") == [{"option": "a"}] and store.match("m1").steps == 1
    store.close()


def test_actions_of_many_matches_committed_together_stay_apart(tmp_path):
    """Actions arriving while a commit waits for the disk are committed
    together; one refused in such a group is refused alone."""
    import threading

    from rulekit.web.store import _Pending

    store = Store(tmp_path / "m.sqlite3")
    for m in ("a", "b"):
        store.add_match(m, "g", {"players": 1, "seed": 0, "options": {}}, ["person"], [None])
    store.add_action("a", 0, {"option": "x"}, over=False)
    batch = [_Pending("b", 0, '{"option": "y"}', 0), _Pending("a", 0, '{"option": "again"}', 0),
             _Pending("a", 1, '{"option": "z"}', 1)]
    with store._lock:
        store._write(batch)
    assert [p.done for p in batch] == [True] * 3
    assert [type(p.error) for p in batch] == [type(None), sqlite3.IntegrityError, type(None)]
    assert store.actions("a") == [{"option": "x"}, {"option": "z"}] and store.actions("b") == [{"option": "y"}]
    assert (store.match("a").steps, store.match("a").over) == (2, True)

    def play(m: str):
        for step in range(40):
            store.add_action(m, step, {"option": f"{m}{step}"}, over=step == 39)
    for m in ("c", "d", "e", "f"):
        store.add_match(m, "g", {"players": 1, "seed": 0, "options": {}}, ["person"], [None])
    threads = [threading.Thread(target=play, args=(m,)) for m in ("c", "d", "e", "f")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    for m in ("c", "d", "e", "f"):
        assert store.actions(m) == [{"option": f"{m}{i}"} for i in range(40)] and store.match(m).over
    store.close()


def test_tokens_are_stored_hashed(tmp_path):
    with serve([REGICIDE], db=tmp_path / "m.sqlite3") as server:
        made = server.new_match(["person", "person"], seed=1)
    tokens = list(made["tokens"].values())
    stored = [h for (h,) in rows(tmp_path / "m.sqlite3", "SELECT token_sha256 FROM seats ORDER BY seat")]
    assert stored == [hash_token(t) for t in tokens]
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert not any(t.encode() in raw for t in tokens)


def test_every_action_is_in_the_database_before_any_seat_sees_it(tmp_path):
    db = tmp_path / "m.sqlite3"
    with serve([REGICIDE], db=db) as server:
        made = server.new_match(["person", "person"], seed=2)
        mid = made["match"]
        rng = random.Random(0)
        with server.seat(mid, made["tokens"][0]) as a, server.seat(mid, made["tokens"][1]) as b:
            while a.state["result"] is None:
                mover = a if a.state["yours"] else b
                actions = mover.state["actions"]
                mover.act(actions[rng.randrange(len(actions))]["action"], mover.state["step"])
                for c in (a, b):
                    state = c.next_state()
                    stored = rows(db, "SELECT action FROM actions WHERE match = ? ORDER BY step", mid)
                    assert len(stored) >= state["step"]
            assert rows(db, "SELECT over, steps FROM matches WHERE id = ?", mid) == [(1, a.state["step"])]


def test_a_failed_write_leaves_the_match_as_it_was(tmp_path):
    with serve([REGICIDE], db=tmp_path / "m.sqlite3") as server:
        made = server.new_match(["person", "person"], seed=3)
        mid = made["match"]
        match = server.host.load(mid).match
        mover = match.decision.player
        before = match.log_json()
        store = server.host.store
        real = store.add_action

        def broken(*args, **kwargs):
            raise sqlite3.OperationalError("disk I/O error")
        store.add_action = broken
        try:
            with server.seat(mid, made["tokens"][mover]) as c:
                c.act(c.state["actions"][0]["action"], 0)
                assert c.close_code() == 1011      # the server lets the socket go ...
        finally:
            store.add_action = real
        assert server.host.load(mid).match.log_json() == before       # ... and forgets the action
        with server.seat(mid, made["tokens"][mover]) as c:             # the seat plays on
            assert c.state["step"] == 0
            c.act(c.state["actions"][0]["action"], 0)
            assert c.next_state()["step"] == 1
        assert len(server.host.store.actions(mid)) == 1


# ---- restarts ----------------------------------------------------------------------

def test_a_restarted_server_resumes_a_match_where_it_stood(tmp_path, game):
    db = tmp_path / "m.sqlite3"
    rng = random.Random(4)

    def move(a, b):
        mover = a if a.state["yours"] else b
        actions = mover.state["actions"]
        mover.act(actions[rng.randrange(len(actions))]["action"], mover.state["step"])
        a.next_state()
        b.next_state()

    with serve([REGICIDE], db=db) as server:
        made = server.new_match(["person", "person"], seed=5)
        mid, tokens = made["match"], made["tokens"]
        a, b = server.connect(mid), server.connect(mid)
        a.hello(tokens[0])
        b.hello(tokens[1])
        for _ in range(4):
            move(a, b)
        before = [a.state, b.state]
        log_before = server.host.load(mid).match.log_json()
    # the tabs open when the server stopped are told it is restarting
    assert a.close_code() == b.close_code() == 1012
    assert before[0]["step"] == 4 and before[0]["result"] is None
    with serve([REGICIDE], db=db) as server:
        assert server.host.matches[mid].match.log_json() == log_before       # resumed at start-up
        with server.seat(mid, tokens[0]) as a, server.seat(mid, tokens[1]) as b:
            assert [a.state, b.state] == before                                # same step, same views
            while a.state["result"] is None:
                move(a, b)
        saved = server.get(f"/api/matches/{mid}/saved")
    assert rulekit.Match.restore(game, saved).is_over()
    assert len(saved["actions"]) > 4


def test_the_agents_of_a_restarted_server_play_on_as_the_stopped_one_would_have(tmp_path, game):
    """An all-agent match stopped after a few moves and resumed ends exactly
    as the same seed played without a stop: agents are seeded per (match
    seed, seat, step), not by how long a server has been running."""
    db = tmp_path / "m.sqlite3"
    kinds, seed = ["random", "heuristic"], 15
    expected = bench_web.in_process(game, seed, kinds)
    assert len(expected.actions) > 10
    with serve([REGICIDE], db=db, agent_delay=0.2) as server:     # slow: stopped well before the end
        mid = server.new_match(kinds, seed=seed)["match"]
        wait_for(lambda: server.get("/api/matches")[0]["step"] >= 2, "two agent moves")
    (steps, over), = rows(db, "SELECT steps, over FROM matches WHERE id = ?", mid)
    assert 2 <= steps < len(expected.actions) and not over
    with serve([REGICIDE], db=db) as server:
        saved = wait_for(lambda: server.request("GET", f"/api/matches/{mid}/saved")[1]
                         if server.request("GET", f"/api/matches/{mid}/saved")[0] == 200 else None,
                         "the match resumed and finished")
    assert rulekit.Match.restore(game, saved).log_json() == expected.log_json()


def test_a_match_whose_rule_file_is_not_served_waits_in_the_database(tmp_path):
    db = tmp_path / "m.sqlite3"
    with serve([REGICIDE], db=db) as server:
        made = server.new_match(["person", "person"], seed=6)
    mid, token = made["match"], made["tokens"][0]
    with serve([ROOT / "games" / "regicide_house.yaml"], db=db) as server:
        assert mid not in server.host.matches
        c = server.connect(mid)
        try:
            assert c.next_error()["code"] == "token"
        finally:
            c.close()
        assert [m["match"] for m in server.get("/api/matches")] == [mid]       # still listed
    with serve([REGICIDE], db=db) as server:
        with server.seat(mid, token) as c:
            assert c.state["step"] == 0


def test_a_stored_match_that_no_longer_replays_is_left_alone(tmp_path):
    db = tmp_path / "m.sqlite3"
    with serve([REGICIDE], db=db) as server:
        good = server.new_match(["person", "person"], seed=7)["match"]
        bad = server.new_match(["person", "person"], seed=8)["match"]
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT INTO actions VALUES (?, 0, ?, 0)", (bad, json.dumps({"option": "no such option"})))
    con.close()
    with serve([REGICIDE], db=db) as server:
        assert good in server.host.matches and bad not in server.host.matches


def test_a_stored_match_whose_rule_file_changed_is_left_alone(tmp_path):
    """Its actions may still replay, but under the edited rules they make
    another match than the one its players saw: it is not resumed (the
    digest of the files it was played under is stored with it), and waits in
    the database for the files it was played under."""
    db, path = tmp_path / "m.sqlite3", tmp_path / "regicide.yaml"
    text = REGICIDE.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    with serve([path], db=db) as server:
        mid = server.new_match(["person", "person"], seed=7)["match"]
    path.write_text(text.replace("healed(count=healed)", "healed(count=healed, again=true)"), encoding="utf-8")
    with serve([path], db=db) as server:
        assert mid not in server.host.matches
        assert [m["match"] for m in server.get("/api/matches")] == [mid]
    path.write_text(text, encoding="utf-8")
    with serve([path], db=db) as server:
        assert mid in server.host.matches

