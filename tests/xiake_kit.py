"""Setting up 俠客 duel situations for scenario tests.

``table()`` starts a match of ``games/xiake`` from a prepared state: each
player's row (heroes at their places, with their attack and 氣血), hand,
deck, life and points; every other card stays out of play (in ``box``).

The card set is a reconstruction that the printed list may replace, so the
tests do not name cards: ``hero("暗器")`` is a card with that ability (and
no other, when there is one), ``plain()`` one with none; a test reads the
card's numbers from its properties (``prop(name, "暗器")``) and checks what
the rulebook says happens with them.
"""
from __future__ import annotations

from pathlib import Path

import rulekit
from rulekit.testing import prepare

ROOT = Path(__file__).resolve().parents[1]
XIAKE_DIR = ROOT / "games" / "xiake"
_GAME: rulekit.Game | None = None
#: the fixed properties of a hero card; every other property is an ability
BASE_PROPS = {"name", "type", "faction", "cost", "attack", "health", "source"}


def game() -> rulekit.Game:
    global _GAME
    if _GAME is None:
        _GAME = rulekit.load_game(XIAKE_DIR)
    return _GAME


def abilities(card: rulekit.Card) -> set[str]:
    return set(card.props) - BASE_PROPS


def heroes(ability: str | None = None, **props) -> list[str]:
    """Names of cards with ``ability`` (only it first), then by cost; ``props``
    must match (e.g. ``cost=3``; a callable tests the value)."""
    def ok(c):
        return all(v(c.props[k]) if callable(v) else c.props[k] == v for k, v in props.items())
    found = [c for c in game().cards if ok(c) and (ability in abilities(c) if ability else not abilities(c))]
    found.sort(key=lambda c: (len(abilities(c)), c.props["cost"], c.id))
    return [c.name for c in found]


def hero(ability: str | None = None, nth: int = 0, **props) -> str:
    return heroes(ability, **props)[nth]


def plain(nth: int = 0, **props) -> str:
    """A card without abilities."""
    return heroes(None, **props)[nth]


def prop(name: str, key: str):
    return game().card_named(name)[0].props.get(key)


def table(*, rows: dict | None = None, hands: dict | None = None, decks: dict | None = None,
          life: dict | None = None, points: dict | None = None, current: int = 0,
          phase: str = "play", round: int = 3, graves: dict | None = None) -> rulekit.Match:
    """A match at ``phase`` of ``current``'s turn number ``round``.

    ``rows``: seat -> list of (name, place) or (name, place, {card var: value});
    a hero's attack and 氣血 default to its printed numbers, and it came into
    play in an earlier turn (so it may attack) unless ``入場`` says otherwise.
    ``decks``: seat -> top cards, top first (default: 10 vanilla cards each,
    so nobody runs out).  ``hands`` / ``graves``: seat -> card names.
    ``life`` / ``points``: seat -> value."""
    g = game()
    zones: dict[str, list[str]] = {}
    card_vars: dict[str, list[dict]] = {}
    used: set[str] = set()
    for seat, placed in (rows or {}).items():
        names, states = [], []
        for entry in placed:
            name, place = entry[0], entry[1]
            card = g.card_named(name)[0]
            state = {"位置": place, "主": seat, "攻擊": card.props["attack"],
                     "氣血": card.props["health"], "入場": 0}
            if len(entry) > 2:
                state.update(entry[2])
            names.append(name)
            states.append(state)
        zones[f"row({seat})"] = names
        card_vars[f"row({seat})"] = states
        used.update(names)
    for zone, given in (("hand", hands), ("grave", graves)):
        for seat, cards in (given or {}).items():
            zones[f"{zone}({seat})"] = list(cards)
            used.update(cards)
    for seat in (0, 1):
        if decks and seat in decks:
            zones[f"deck({seat})"] = list(decks[seat])
            used.update(decks[seat])
    spare = [n for n in heroes(None) if n not in used]
    for seat in (0, 1):
        if not (decks and seat in decks):
            zones[f"deck({seat})"], spare = spare[:10], spare[10:]
    pv = {p: {"life": (life or {}).get(p, 20), "points": (points or {}).get(p, 10)} for p in (0, 1)}
    return prepare(g, 2, zones=zones, card_vars=card_vars, player_vars=pv, current=current,
                   phase=phase, vars={"round": round})


# ---- reading and acting -----------------------------------------------------------
def names_in(m: rulekit.Match, zone: str, player: int | None = None) -> list[str]:
    return [c.name for c in m.zone(zone, player).cards]


def card_of(m: rulekit.Match, name: str) -> rulekit.Card:
    return m.game.card_named(name)[0]


def stat(m: rulekit.Match, name: str) -> tuple[int, int]:
    """(攻擊, 氣血) of a card: its own numbers now (without auras)."""
    c = card_of(m, name)
    return m.cvars["攻擊"][c.id], m.cvars["氣血"][c.id]


def place_of(m: rulekit.Match, name: str) -> int:
    return m.cvars["位置"][card_of(m, name).id]


def legal(m: rulekit.Match) -> list[str]:
    return [m.describe_action(a) for a in m.legal_actions()]


def act(m: rulekit.Match, option: str, card: str | None = None, *, number: int | None = None,
        player: int | None = None):
    """Answer the pending decision: by option, and card name, number or player."""
    for a in m.legal_actions():
        if a.option != option:
            continue
        if card is not None and [m.card(i).name for i in a.cards] != [card]:
            continue
        if number is not None and a.number != number:
            continue
        if player is not None and a.player != player:
            continue
        m.apply(a)
        return a
    raise AssertionError(f"{option} {card or ''} {number or ''} is not legal for {m.decision}: {legal(m)}")


def summon(m: rulekit.Match, name: str, place: int) -> None:
    act(m, "summon", name)
    act(m, "place", number=place)


def attack(m: rulekit.Match, attacker: str, target: str | None = None) -> None:
    """In the battle phase: attack with ``attacker`` (a hero, or the player when
    the other row is empty)."""
    act(m, "hero", attacker)
    if target is not None:
        act(m, "hero", target)


def life(m: rulekit.Match, p: int) -> int:
    return m.pvars[p]["life"]
