"""Setting up 武林杀 situations for scenario tests (as sanguosha_kit does for
三国杀, whose generic helpers — act, use, can, legal, pass_until, cards_in —
are shared).

``table()`` starts a match of ``games/wulinsha`` from a prepared state:
identities, heroes, 内力, hands, equipment, judgement areas and the top of
the deck are given; every other card stays in ``box``.  Card names are
"<kind> <suit><rank>" (e.g. "杀 ♠7", "包子 ♥3"), heroes are named in Chinese.
"""
from __future__ import annotations

from pathlib import Path

from sanguosha_kit import FILL, act, asked, can, cards_in, find, hand, legal, pass_until, table_zones, use  # noqa: F401  (shared)

import rulekit
from rulekit.testing import prepare

ROOT = Path(__file__).resolve().parents[1]
WLS_DIR = ROOT / "games" / "wulinsha"
_GAME: rulekit.Game | None = None

#: default identities by seat for each player count (seat 0 is the 盟主)
ROLES = {
    4: ["盟主", "护卫", "刺客", "奸细"],
    5: ["盟主", "护卫", "刺客", "刺客", "奸细"],
    6: ["盟主", "护卫", "刺客", "刺客", "刺客", "奸细"],
    7: ["盟主", "护卫", "护卫", "刺客", "刺客", "刺客", "奸细"],
    8: ["盟主", "护卫", "护卫", "刺客", "刺客", "刺客", "刺客", "奸细"],
}


def game() -> rulekit.Game:
    global _GAME
    if _GAME is None:
        _GAME = rulekit.load_game(WLS_DIR)
    return _GAME


def table(players: int = 5, *, roles: list[str] | None = None, heroes: dict | None = None,
          hands: dict | None = None, equips: dict | None = None, judging: dict | None = None,
          deck: list[str] | None = None, discard: list[str] | None = None,
          neili: dict | None = None, max_neili: dict | None = None, current: int = 0,
          phase: str = "play", out: list[int] | None = None, player_vars: dict | None = None,
          options: dict | None = None, rules: rulekit.Game | None = None,
          vars: dict | None = None, auto_pass: bool = True,
          zones: dict | None = None, seed: int = 0) -> rulekit.Match:
    """A match at ``phase`` of ``current``'s turn (see sanguosha_kit.table).

    ``heroes``: seat -> hero name (seats without one have no skills).
    ``equips``: seat -> equipment card names (each goes to its slot: the
    card's ``slot``).  ``judging``: seat -> the cards of the judgement area,
    the first placed first.  ``neili`` / ``max_neili``: seat -> 内力 and
    内力上限 (default 4; the maximum defaults to at least the 内力).  ``zones``:
    any other zone, "<zone>(<seat>)" or "<zone>" -> card names, top first.
    ``seed``: the match's random seed (what a random pick, e.g. a hand card
    taken unseen, falls on)."""
    g = rules or game()
    roles = roles or ROLES[players]
    extra_zones = zones
    zones = table_zones(g, heroes, hands, equips, judging, deck, discard)
    for name, cards in (extra_zones or {}).items():
        zones[name] = list(cards)
    neili, max_neili = neili or {}, max_neili or {}
    pv = {}
    for p in range(players):
        n = neili.get(p, 4)
        pv[p] = {"role": roles[p], "role_shown": roles[p] == "盟主" or p in (out or []),
                 "内力": n, "内力上限": max_neili.get(p, max(n, 4)),
                 "skills": _skills(g, (heroes or {}).get(p), roles[p]) if p not in (out or []) else []}
        pv[p].update((player_vars or {}).get(p, {}))
    return prepare(g, players, zones=zones, vars=vars, player_vars=pv, current=current, phase=phase,
                   options=options, out=out, auto_pass=auto_pass, seed=seed)


def _skills(g: rulekit.Game, hero: str | None, role: str) -> list[str]:
    """The skills a seat holds with this hero (盟主技 only as the 盟主)."""
    if hero is None:
        return []
    props = g.card_named(hero)[0].props
    return list(props["skills"]) + (list(props["lord_skills"]) if role == "盟主" else [])


def neili(m: rulekit.Match, p: int) -> int:
    return m.pvars[p]["内力"]
