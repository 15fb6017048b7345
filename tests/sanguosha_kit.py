"""Setting up 三国杀 situations for scenario tests.

``table()`` starts a match of ``games/sanguosha`` from a prepared state:
the identities, generals, HP, hands, equipment, judgement areas and the top
of the deck are given; every other card stays out of play (in ``box``), so a
test sees exactly the cards it names.  Card names are "<kind> <suit><rank>",
e.g. "杀 ♠7", "闪 ♦2", "诸葛连弩 ♣A"; generals are named in Chinese.

``act()`` answers the pending decision by option name, card names and/or
player, and fails with the list of legal answers when that answer is not
legal, so a test reads like the rulebook's example.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import rulekit
from rulekit.testing import prepare

ROOT = Path(__file__).resolve().parents[1]
SGS_FILE = ROOT / "games" / "sanguosha"
_GAME: rulekit.Game | None = None

#: default identities by seat for each player count (seat 0 is the lord)
ROLES = {
    4: ["主公", "忠臣", "反贼", "内奸"],
    5: ["主公", "忠臣", "反贼", "反贼", "内奸"],
    6: ["主公", "忠臣", "反贼", "反贼", "反贼", "内奸"],
    7: ["主公", "忠臣", "忠臣", "反贼", "反贼", "反贼", "内奸"],
    8: ["主公", "忠臣", "忠臣", "反贼", "反贼", "反贼", "反贼", "内奸"],
}
SLOTS = ("weapon", "armor", "plus_horse", "minus_horse")


def game() -> rulekit.Game:
    global _GAME
    if _GAME is None:
        _GAME = rulekit.load_game(SGS_FILE)
    return _GAME


def table(players: int = 5, *, roles: list[str] | None = None, generals: dict | None = None,
          hands: dict | None = None, equips: dict | None = None, judging: dict | None = None,
          deck: list[str] | None = None, discard: list[str] | None = None,
          hp: dict | None = None, max_hp: dict | None = None, current: int = 0,
          phase: str = "play", out: list[int] | None = None, player_vars: dict | None = None,
          options: dict | None = None, rules: rulekit.Game | None = None,
          auto_pass: bool = True) -> rulekit.Match:
    """A match at ``phase`` of ``current``'s turn.

    ``generals``: seat -> general name (seats without one have no skills).
    ``hands``: seat -> card names.  ``equips``: seat -> equipment card names
    (each goes to its slot).  ``judging``: seat -> the cards of the judgement
    area (判定区) in the order they were placed, the first placed first (it
    lies lowest; the last placed is on top and is judged first).  ``deck``:
    the top of the draw pile, top card first.
    ``hp`` / ``max_hp``: seat -> value (default 4, the max defaults to the hp).
    ``out``: seats already dead (eliminated, identity shown).  ``rules``: a
    variant of the game to play instead of ``games/sanguosha``.
    ``auto_pass``: a seat whose only answer to a response window is to pass
    is not asked (as the rulebook tells it); ``False`` asks it, as a match
    does by default so that the others cannot tell who holds an answer.
    """
    g = rules or game()
    roles = roles or ROLES[players]
    zones = table_zones(g, generals, hands, equips, judging, deck, discard)
    hp = hp or {}
    max_hp = max_hp or {}
    pv = {}
    for p in range(players):
        h = hp.get(p, 4)
        pv[p] = {"role": roles[p], "role_shown": roles[p] == "主公" or p in (out or []),
                 "hp": h, "max_hp": max_hp.get(p, max(h, 4) if p not in max_hp else max_hp[p]),
                 "skills": _skills(g, (generals or {}).get(p), roles[p]) if p not in (out or []) else []}
        pv[p].update((player_vars or {}).get(p, {}))
    return prepare(g, players, zones=zones, player_vars=pv, current=current, phase=phase,
                   options=options, out=out, auto_pass=auto_pass)


def table_zones(g: rulekit.Game, heroes: dict | None, hands: dict | None, equips: dict | None,
                judging: dict | None, deck: list[str] | None, discard: list[str] | None) -> dict:
    """The prepared zones of an identity game's table (see ``table``): each
    equipment card goes to the slot its card names."""
    zones: dict[str, list[str]] = {}
    for p, name in (heroes or {}).items():
        zones[f"general({p})"] = [name]
    for p, cards in (hands or {}).items():
        zones[f"hand({p})"] = list(cards)
    for p, cards in (equips or {}).items():
        for name in cards:
            zones[f"{g.card_named(name)[0].props['slot']}({p})"] = [name]
    for p, cards in (judging or {}).items():
        zones[f"judging({p})"] = list(reversed(cards))     # named top first
    zones["deck"] = list(deck or [])
    if discard:
        zones["discard"] = list(discard)
    return zones


#: cards that only fill the deck for draws (no judgement reads them)
FILL = ["闪 ♦5", "闪 ♦6", "闪 ♦7", "闪 ♦8", "闪 ♦9", "闪 ♦10"]


def asked(m: rulekit.Match, choice: str, player: int | None = None, what: str | None = None) -> bool:
    """Is ``player`` now asked ``choice`` (a confirm for skill ``what``)?"""
    d = m.decision
    if d is None or d.choice != choice or (player is not None and d.player != player):
        return False
    return what is None or d.args[1] == what


def hand(m: rulekit.Match, p: int) -> list[str]:
    """The names of p's hand cards, sorted."""
    return sorted(cards_in(m, "hand", p))


def _skills(g: rulekit.Game, general: str | None, role: str) -> list[str]:
    """The skills a seat holds with this general (lord skills only as the lord)."""
    if general is None:
        return []
    props = g.card_named(general)[0].props
    return list(props["skills"]) + (list(props["lord_skills"]) if role == "主公" else [])


def legal(m: rulekit.Match) -> list[str]:
    return [m.describe_action(a) for a in m.legal_actions()]


def find(m: rulekit.Match, option: str, cards=(), player: int | None = None):
    want = Counter(cards)
    for a in m.legal_actions():
        if a.option != option or (player is not None and a.player != player):
            continue
        if cards and Counter(m.card(i).name for i in a.cards) != want:
            continue
        return a
    return None


def can(m: rulekit.Match, option: str, cards=(), player: int | None = None) -> bool:
    """Is this answer legal right now?"""
    return find(m, option, cards, player) is not None


def act(m: rulekit.Match, option: str, cards=(), player: int | None = None):
    """Answer the pending decision; ``cards`` are card names (a str for one)."""
    if isinstance(cards, str):
        cards = [cards]
    a = find(m, option, cards, player)
    assert a is not None, (f"'{option}' {list(cards)} player={player} is not legal for "
                           f"{m.decision.player} at '{m.decision.choice}' ({m.decision.prompt}); "
                           f"legal: {legal(m)}")
    m.apply(a)
    return a


def use(m: rulekit.Match, card: str, target: int | None = None, option: str = "use"):
    """In the play phase: use ``card`` (optionally through a skill option) on ``target``."""
    act(m, option, [card] if card else ())
    if target is not None:
        act(m, "player", player=target)


def pass_until(m: rulekit.Match, choice: str, player: int | None = None, limit: int = 50):
    """Answer 'pass' (or 'no') to everything until ``choice`` (for ``player``) is asked."""
    for _ in range(limit):
        d = m.decision
        if d is None or (d.choice == choice and (player is None or d.player == player)):
            return
        if can(m, "pass"):
            act(m, "pass")
        elif can(m, "no"):
            act(m, "no")
        else:
            raise AssertionError(f"cannot pass at {d.choice} ({d.prompt}): {legal(m)}")
    raise AssertionError(f"'{choice}' was never asked")


def cards_in(m: rulekit.Match, zone: str, player: int | None = None) -> list[str]:
    """Card names in a zone, top first."""
    z = m.zone(zone, player)
    return [c.name for c in reversed(z.cards)]


def hp(m: rulekit.Match, p: int) -> int:
    return m.pvars[p]["hp"]
