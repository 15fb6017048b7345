"""The web table in a real browser: Debian's chromium driven by Playwright
against a real server (tests/web_kit.py), with agents moving at once.

Whole matches played by clicking cards and buttons (Regicide with two
people, 三国杀 with one person and four agents), two browsers seeing only
their own hands, a replay stepped both ways, and bad messages sent from the
page answered with errors while the match stays as it was.  Skipped when
chromium or Playwright is missing, except under CI, where they must run.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import rulekit
from tests.game_files import game_path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
WAIT = 30_000            # ms: the longest any one wait lasts before the test fails
#: a 5-player 三国杀 seed that the clicking policy below (pass or end when offered, else the first
#: option; heuristic agents elsewhere) plays to its end in about a hundred and thirty decisions
SANGUOSHA_SEED = 35


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as err:
        return f"{err.name} is not installed (pip install '.[test,web]')"
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        return f"no chromium at {CHROMIUM} (apt-get install chromium; never 'playwright install')"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run under CI: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                              args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(browser):
    from tests.web_kit import serve

    with serve([game_path("regicide"), game_path("sanguosha")], agent_delay=0) as s:
        yield s


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    yield context.new_page()
    context.close()


class Seat:
    """One browser page at one seat's table."""

    def __init__(self, page, server, match: dict, seat: int):
        self.page, self.server, self.mid, self.seat = page, server, match["match"], seat
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(f"{server.url}/table?match={self.mid}#token={match['tokens'][seat]}")
        page.wait_for_selector("body[data-step]", timeout=WAIT)

    def state(self) -> dict:
        return self.page.evaluate("window.rulekitTable.state")

    def wait(self, condition: str) -> None:
        """Wait until ``condition`` (JS, ``s`` the last state) holds."""
        self.page.wait_for_function(f"(s => !!s && ({condition}))(window.rulekitTable.state)", timeout=WAIT)

    def to_move(self) -> bool:
        s = self.state()
        return bool(s["yours"] and not s["decision"]["only_pass"])

    def click(self, index: int) -> None:
        """Play action ``index`` as a person does: its cards, then its button."""
        s = self.state()
        for cid in s["actions"][index]["action"].get("cards", []):
            self.page.locator(f'.card.pickable[data-card="{cid}"]').first.click(timeout=WAIT)
        self.page.locator(f'#actions button[data-action="{index}"]').click(timeout=WAIT)
        self.wait(f"s.step > {s['step']}")

    def text(self) -> str:
        """Everything in the page's DOM, tooltips included."""
        return self.page.content()


def _hosted(server, mid: str) -> rulekit.Match:
    return server.host.matches[mid].match


def _policy(state: dict) -> int:
    """Pass or end when offered, else the first option: a match that ends."""
    acts = state["actions"]
    return next((i for i, a in enumerate(acts) if a["action"]["option"] in ("pass", "end")), 0)


def _finish_check(server, mid: str, seats: list[Seat]) -> rulekit.Match:
    """Every page shows the end of the match the server saved; that match, replayed."""
    saved = server.get(f"/api/matches/{mid}/saved")
    m = rulekit.Match.restore(rulekit.load_game(game_path(saved_game(saved))), saved)
    for s in seats:
        s.page.wait_for_selector("#endbox", timeout=WAIT)
        state = s.state()
        assert state["step"] == len(saved["actions"]) and state["end"]["outcome"] == m.result()["outcome"]
        assert m.result()["reason"] in s.page.inner_text("#endbox")
        assert s.errors == []
    return m


def saved_game(saved: dict) -> str:
    return "regicide" if saved["game"] == "Regicide" else "sanguosha"


def test_two_people_play_a_whole_regicide_match_by_clicking(server, browser):
    match = server.new_match(["person", "person"], seed=4)
    pages = [browser.new_context(viewport={"width": 1280, "height": 860}).new_page() for _ in range(2)]
    seats = [Seat(p, server, match, i) for i, p in enumerate(pages)]
    try:
        for _ in range(500):
            if seats[0].state()["end"]:
                break
            for s in seats:
                if s.to_move():
                    s.click(0)
                    break
            else:
                seats[0].page.wait_for_timeout(20)
        seats[1].wait("s.end")
        _finish_check(server, match["match"], seats)
    finally:
        for p in pages:
            p.context.close()


def test_one_person_plays_a_sanguosha_match_against_four_agents_to_the_end(server, page):
    match = server.new_match(["person"] + ["heuristic"] * 4, seed=SANGUOSHA_SEED, game="sanguosha")
    seat = Seat(page, server, match, 0)
    clicked_a_card = False
    for _ in range(400):
        seat.wait("s.end || (s.yours && !s.decision.only_pass)")
        state = seat.state()
        if state["end"]:
            break
        choice = _policy(state)
        clicked_a_card |= bool(state["actions"][choice]["action"].get("cards"))
        seat.click(choice)
    assert seat.state()["end"], "the match did not end within 400 decisions"
    assert clicked_a_card, "no card was ever clicked"
    m = _finish_check(server, match["match"], [seat])
    # the end screen tells every identity, now that the match is over
    text = seat.page.inner_text("#endbox")
    assert all(m.pvars[p]["role"] in text for p in range(5))


def test_two_browsers_each_see_only_their_own_hand(server, browser):
    match = server.new_match(["person", "person"], seed=11)
    pages = [browser.new_context().new_page() for _ in range(2)]
    try:
        seats = [Seat(p, server, match, i) for i, p in enumerate(pages)]
        m = _hosted(server, match["match"])
        everything = m.view("all")
        for s in seats:
            mine = everything["zones"][f"hand({s.seat})"]["cards"]
            theirs = everything["zones"][f"hand({1 - s.seat})"]["cards"]
            shown = {n for z in m.view(s.seat)["zones"].values() for n in z.get("cards", ())}
            s.page.wait_for_selector(".hand .card", timeout=WAIT)
            dom = s.text()
            assert mine and all(f'data-card="{c}"' in dom for c in everything["zones"][f"hand({s.seat})"]["ids"])
            assert not [n for n in theirs if n not in shown and n in dom], "another seat's hand is in the page"
            assert not [c for c in everything["zones"][f"hand({1 - s.seat})"]["ids"] if f'data-card="{c}"' in dom]
    finally:
        for p in pages:
            p.context.close()


def test_a_replay_steps_forwards_and_backwards(server, page):
    match = server.new_match(["heuristic", "random"], seed=3)
    mid = match["match"]
    for _ in range(300):
        listed = {m["match"]: m for m in server.get("/api/matches")}
        if listed[mid]["over"]:
            break
        page.wait_for_timeout(20)
    saved = server.get(f"/api/matches/{mid}/saved")
    game = rulekit.load_game(game_path("regicide"))
    page.goto(f"{server.url}/replay?match={mid}")
    page.wait_for_selector('body[data-step="0"]', timeout=WAIT)

    def shown(step: int, seat: str = "all") -> None:
        page.wait_for_selector(f'body[data-step="{step}"]', timeout=WAIT)
        m = rulekit.Match.restore(game, dict(saved, actions=saved["actions"][:step]))
        view = m.view("all" if seat == "all" else int(seat))
        hands = [z for k, z in view["zones"].items() if k.startswith("hand(") and "ids" in z]
        dom = page.content()
        for z in hands:
            assert all(f'data-card="{c}"' in dom for c in z["ids"]), f"step {step}: a hand is missing"
        assert page.evaluate("window.rulekitReplay.shown.step") == step

    shown(0)
    for step in (1, 2, 3):
        page.click("#fwd")
        shown(step)
    page.click("#back")
    shown(2)
    page.keyboard.press("End")
    shown(len(saved["actions"]))
    page.wait_for_selector("#endbox", timeout=WAIT)
    page.click("#endbox button")
    page.keyboard.press("Home")
    shown(0)
    page.select_option("#seat", "1")
    page.click("#fwd")
    shown(1, "1")
    own = set(rulekit.Match.restore(game, dict(saved, actions=saved["actions"][:1])).view("all")
              ["zones"]["hand(0)"]["ids"])
    assert not [c for c in own if f'data-card="{c}"' in page.content()], "seat 1 saw seat 0's hand"
    # a saved match loaded from a file
    page.goto(f"{server.url}/replay")
    page.set_input_files("#file", files=[{"name": "saved.json", "mimeType": "application/json",
                                          "buffer": json.dumps(saved).encode()}])
    page.wait_for_selector('body[data-step="0"]', timeout=WAIT)
    page.keyboard.press("ArrowRight")
    shown(1)


def test_bad_messages_from_the_page_are_refused_and_change_nothing(server, page):
    match = server.new_match(["person", "person"], seed=8)
    other = server.new_match(["person", "person"], seed=9)
    seat = Seat(page, server, match, 0)
    seat.wait("s.yours")
    before = seat.state()
    m = _hosted(server, match["match"])
    steps = len(m.actions)

    def refused(message: str, code: str, n: int) -> None:
        page.evaluate("m => window.rulekitTable.send(m)", message)
        page.wait_for_selector(f'body[data-errors="{n}"]', timeout=WAIT)
        assert page.evaluate("window.rulekitTable.errors.at(-1).code") == code
        assert page.locator("#toast").is_visible()
        assert len(m.actions) == steps and seat.state()["step"] == before["step"]

    refused("{not json", "malformed", 1)
    refused(json.dumps({"type": "act", "action": {"option": "no such option"}, "step": before["step"]}),
            "illegal", 2)
    refused(json.dumps({"type": "act", "action": before["actions"][0]["action"], "step": before["step"] - 1}),
            "stale", 3)
    assert m.decision.player == 0
    # another seat's token (of this match, then of another) on this seat's socket
    refused(json.dumps({"type": "hello", "token": other["tokens"][0]}), "token", 4)
    page.wait_for_selector("#conn.down", timeout=WAIT)
    assert seat.state()["step"] == before["step"] and len(m.actions) == steps
    # the same link again rejoins the seat, and a dropped connection is made again with the same token
    page.reload()
    page.wait_for_selector("body[data-step]", timeout=WAIT)
    assert seat.state()["step"] == before["step"] and seat.state()["seat"] == 0
    n = page.evaluate("window.rulekitTable.states")
    page.evaluate("window.rulekitTable.ws.close()")
    page.wait_for_function(f"window.rulekitTable.states > {n}", timeout=WAIT)
    seat.click(0)
    assert len(m.actions) == steps + 1
