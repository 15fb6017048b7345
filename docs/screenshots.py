"""Take the web table's screenshots in docs/img/ (web_lobby.png,
web_table_sanguosha.png, web_table_regicide.png, web_table_xiake.png, web_replay.png): a real
server on a free port, Debian's chromium driven by Playwright.

    python docs/screenshots.py            # from the repository's root

Needs the web and test extras and /usr/bin/chromium; the matches are seeded,
so the pictures change only when the pages, the games or the agents do.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web_kit import serve  # noqa: E402

IMG = ROOT / "docs" / "img"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
SIZE = {"width": 1440, "height": 900}
WAIT = 30_000


def play_until(page, done, pick, most: int = 400) -> None:
    """Click as a person until ``done(state)``: ``pick(state)`` gives the action's index."""
    for _ in range(most):
        page.wait_for_function("(s => s && (s.end || (s.yours && !s.decision.only_pass)))"
                               "(window.rulekitTable.state)", timeout=WAIT)
        s = page.evaluate("window.rulekitTable.state")
        if s["end"] or done(s):
            return
        i = pick(s)
        for cid in s["actions"][i]["action"].get("cards", []):
            page.locator(f'.card.pickable[data-card="{cid}"]').first.click()
        page.locator(f'#actions button[data-action="{i}"]').click()
        page.wait_for_function(f"window.rulekitTable.state.step > {s['step']}", timeout=WAIT)


def select_first_card(page) -> None:
    page.locator(".hand .card.pickable").first.click()
    page.wait_for_timeout(200)


def first_use(s) -> int:
    """The first option that plays a card, else the last option (end, pass)."""
    acts = s["actions"]
    return next((i for i, a in enumerate(acts) if a["action"].get("cards") and a["action"]["option"] != "discard"),
                len(acts) - 1)


def main() -> None:
    from playwright.sync_api import sync_playwright

    IMG.mkdir(parents=True, exist_ok=True)
    with serve([ROOT / "games", ROOT / "docs" / "examples"], agent_delay=0) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport=SIZE)

        # a finished match for the lobby's list and the replay
        done = server.new_match(["heuristic"] * 5, seed=12, game="sanguosha")
        server.new_match(["person", "heuristic"], seed=2, game="regicide")

        # the sanguosha table, mid-game, a card chosen
        match = server.new_match(["person"] + ["heuristic"] * 4, seed=35, game="sanguosha")
        page.goto(f"{server.url}/table?match={match['match']}#token={match['tokens'][0]}")
        play_until(page, lambda s: s["turn"] >= 7 and s["decision"]["choice"] == "play"
                   and len(s["pickable"]) >= 2, first_use)
        select_first_card(page)
        page.screenshot(path=str(IMG / "web_table_sanguosha.png"))

        # regicide, two players, mid-game
        match = server.new_match(["person", "heuristic"], seed=7, game="regicide")
        page.goto(f"{server.url}/table?match={match['match']}#token={match['tokens'][0]}")
        play_until(page, lambda s: s["step"] >= 6 and len(s["pickable"]) >= 3, lambda s: 0)
        select_first_card(page)
        page.screenshot(path=str(IMG / "web_table_regicide.png"))

        # 俠客, a duel: heroes on both rows with their attack, 氣血 and place
        match = server.new_match(["person", "heuristic"], seed=6, game="xiake")
        page.goto(f"{server.url}/table?match={match['match']}#token={match['tokens'][0]}")
        play_until(page, lambda s: s["turn"] >= 5 and s["decision"]["choice"] == "play"
                   and len(s["pickable"]) >= 2, first_use)
        select_first_card(page)
        page.screenshot(path=str(IMG / "web_table_xiake.png"))

        # the lobby: a match just created, its seat links shown
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-ready]")
        page.select_option("#game", "sanguosha")
        page.fill("#players", "5")
        page.dispatch_event("#players", "input")
        page.select_option('select[data-seat="1"]', "person")
        page.fill("#seed", "2026")
        page.click("#create")
        page.wait_for_selector("[data-link]")
        page.screenshot(path=str(IMG / "web_lobby.png"))

        # the replay of the finished match, part way through
        page.goto(f"{server.url}/replay?match={done['match']}")
        page.wait_for_selector('body[data-step="0"]', timeout=WAIT)
        steps = page.evaluate("window.rulekitReplay.steps")
        page.fill("#slider", str(steps * 2 // 3))
        page.dispatch_event("#slider", "input")
        page.wait_for_selector(f'body[data-step="{steps * 2 // 3}"]', timeout=WAIT)
        page.screenshot(path=str(IMG / "web_replay.png"))
        browser.close()
    for name in ("web_lobby", "web_table_sanguosha", "web_table_regicide", "web_table_xiake", "web_replay"):
        print(IMG / f"{name}.png")


if __name__ == "__main__":
    main()
