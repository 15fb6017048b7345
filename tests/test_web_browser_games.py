"""Every seed game played to its end in a real browser by one person
clicking (cards, then a button) against agents: 俠客 (whose options pick
heroes on the rows), 武林杀 with five seats, Last Card and solo Regicide with
its jesters.  A game whose legal action cannot be taken by clicking fails
here.  Skipped like tests/test_web_browser.py when chromium is missing.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.web.table import table_state
from tests.test_web_browser import WAIT, Seat, browser  # noqa: F401 - the browser fixture

ROOT = Path(__file__).resolve().parents[1]
#: (game id, players, seed, most decisions): seeds the clicking policy below plays to the end
#: in a few dozen decisions of the person's, agents (heuristic) at every other seat
GAMES = [("xiake", 2, 5, 120), ("wulinsha", 5, 1, 200), ("last_card", 3, 1, 120), ("regicide", 1, 3, 120),
         ("regicide_house", 1, 2, 120)]


@pytest.fixture(scope="module")
def server(browser):  # noqa: F811 - the browser fixture, imported
    from tests.web_kit import serve

    with serve([ROOT / "games", ROOT / "docs" / "examples"], agent_delay=0) as s:
        yield s


def _busy(state: dict, k: int) -> int:
    """Every other decision the first option that does something (a card, a
    hero, a target), else pass or end when offered, else the first option."""
    acts = state["actions"]
    rest = ("pass", "end")
    doing = [i for i, a in enumerate(acts) if a["action"]["option"] not in rest]
    if doing and k % 2 == 0:
        return doing[0]
    return next((i for i, a in enumerate(acts) if a["action"]["option"] in rest), 0)


@pytest.mark.parametrize("game, players, seed, most", GAMES, ids=[g[0] for g in GAMES])
def test_one_person_plays_a_whole_match_by_clicking(server, browser, game, players, seed, most):  # noqa: F811
    match = server.new_match(["person"] + ["heuristic"] * (players - 1), seed=seed, game=game)
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    try:
        seat = Seat(page, server, match, 0)
        where: set[str] = set()          # the zones of the cards clicked
        for k in range(most):
            seat.wait("s.end || (s.yours && !s.decision.only_pass)")
            state = seat.state()
            if state["end"]:
                break
            choice = _busy(state, k)
            for cid in state["actions"][choice]["action"].get("cards", []):
                where.add(page.locator(f'.card.pickable[data-card="{cid}"]').first
                          .evaluate("c => c.closest('[data-zone]').dataset.zone"))
            seat.click(choice)
        assert seat.state()["end"], f"the match did not end within {most} decisions"
        assert where, "no card was ever clicked"
        if game == "xiake":           # heroes on a row are picked, not only cards in the hand
            assert any(not z.startswith("hand") for z in where), where
        stored = server.host.store.match(match["match"])
        saved = server.get(f"/api/matches/{match['match']}/saved")
        m = rulekit.Match.restore(rulekit.load_game(server.host.catalogue[stored.game].path), saved)
        page.wait_for_selector("#endbox", timeout=WAIT)
        assert seat.state()["step"] == len(saved["actions"]) and seat.state()["end"]["outcome"] == m.result()["outcome"]
        assert m.result()["reason"] in page.inner_text("#endbox")
        # the log put together from the pieces sent is the seat's whole told log
        assert seat.state()["log"] == table_state(m, 0)["log"]
        assert seat.errors == []
    finally:
        page.context.close()
