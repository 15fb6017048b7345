"""A card as a browser draws it: its name split into a title and a corner
(rank and suit), its suit's colour, its properties and its own state.

Everything here is read from the rule file's card (its name and ``props``),
which every player knows from the file anyway; a card reaches this module
only where the seat's view shows it by name.
"""
from __future__ import annotations

from typing import Any

from ..model import Card, Game

#: suit symbols and the words rule files use for them, with their colour
SUITS = {"♠": "black", "♣": "black", "♥": "red", "♦": "red"}
SUIT_WORDS = {"spades": "♠", "clubs": "♣", "hearts": "♥", "diamonds": "♦"}
#: properties the corner and the colour already say
_SAID = frozenset(("name", "suit", "symbol", "rank", "color", "colour"))


def suit_of(card: Card) -> str | None:
    """The suit symbol of a card: a property holding a symbol or a suit's
    word, else a symbol in its name; None for a card without a suit."""
    for v in card.props.values():
        if isinstance(v, str):
            if v in SUITS:
                return v
            if v.lower() in SUIT_WORDS:
                return SUIT_WORDS[v.lower()]
    return next((ch for ch in card.name if ch in SUITS), None)


def face(game: Game, card: Card, state: dict | None = None) -> dict[str, Any]:
    """``{"id", "name", "title", "corner", "rank", "suit", "color", "props",
    "state", "skills"}``: ``title`` is the name without its rank and suit
    (empty for a plain playing card), ``corner`` the rank and suit,
    ``props`` the card's other properties (what a tooltip lists), ``state``
    its card variables where they differ from their starting values,
    ``skills`` the text of each skill a property names."""
    suit = suit_of(card)
    rank = card.props.get("rank")
    rank = str(rank) if rank is not None else ""
    title, corner = card.name, ""
    if suit:
        corner = f"{rank}{suit}"
        for piece in (f"{suit}{rank}", f"{rank}{suit}", suit):
            if piece in title:
                title = " ".join(title.replace(piece, " ", 1).split())
                break
    props = {k: v for k, v in card.props.items() if k not in _SAID}
    out: dict[str, Any] = {"id": card.id, "name": card.name, "title": title, "corner": corner, "rank": rank,
                           "suit": suit, "color": SUITS.get(suit or ""), "props": props}
    if state:
        start = game.card_vars
        changed = {k: v for k, v in state.items() if v != start.get(k)}
        if changed:
            out["state"] = changed
    named = [x for v in card.props.values() if isinstance(v, list) for x in v
             if isinstance(x, str) and x in game.skills]
    if named:
        out["skills"] = [{"name": n, "text": " ".join(game.skills[n].text.split())} for n in named]
    return out


def zone_faces(game: Game, info: dict) -> list[dict] | None:
    """The cards of a zone as the view shows them (top first), each as its
    face; None when the view shows no card of it by name."""
    if "ids" in info:
        states = info.get("state") or [None] * len(info["ids"])
        return [face(game, game.cards[cid], st) for cid, st in zip(info["ids"], states)]
    if "top_id" in info:
        return [face(game, game.cards[info["top_id"]])]
    return None
