"""Hidden-information sampling: a copy of a match that one player cannot
tell from the real one.

Search in a card game with hidden information (information-set Monte-Carlo
tree search, determinization) plays out copies of the match in which what a
player cannot know is dealt again at random, consistently with everything
that player has seen.  ``resample(match, player, rng)`` makes such a copy:

- **Cards.**  A card the player has never seen where it now is — another
  player's hand card that was never shown, the order of a hidden pile — is
  *unknown*.  The unknown cards are dealt again over the places unknown
  cards hold (a hand keeps its size, a pile its height), each among the
  zones it could have reached unseen (see ``_Linked``).  A card the
  player saw go into a hidden zone (a card it gave away face down, one it
  put on the deck) stays in that zone, in a place the rules may have
  mixed since (after a shuffle of the zone, anywhere in it).  A card is
  dealt only into a zone that may hold it (a zone declared ``one_of:
  SET``, such as a pile of heroes: see ``_fitted``).
- **Variables.**  A player variable that the player may not see for some
  seats (another player's secret role) has those seats' values dealt again
  among them, so the counts stay right (one lord, so many rebels).
- **The future.**  The copy's random generator is seeded from ``rng``: the
  shuffles to come are unknown too.

The player's own view of the copy — zones, variables, the log — is the
same as of the match (the tests check it).  The pending decision is worked
out again from the dealt state.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from ..model import Card
from . import copies
from .runtime import Zone
from .view import _zone_visible_to

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match


def resample(m: "Match", player: int, rng: random.Random) -> "Match":
    c = m.clone()
    seen, mixed, linked = _knowledge(c, player)
    _deal_cards(c, player, seen, mixed, linked, rng)
    _deal_hidden_vars(c, player, rng)
    c.rng.seed(rng.getrandbits(64))
    decide_again(c)
    # what it was dealt, for its copies (its checkpoint is of the match it was drawn from)
    earlier = c._redeals if c._ckpt is None else None
    deal = copies.take(c, 0)
    c._redeals = (copies.Redeals(earlier.base, earlier.deals + (deal,)) if earlier is not None
                  else copies.Redeals(c._ckpt, (deal,)))
    c._ckpt = None
    return c


def decide_again(m: "Match") -> None:
    """The pending decision asked again of the cards as they now are (a
    deal may have moved cards its options name)."""
    dec = m.decision
    if dec is not None:
        again = m.game.choices[dec.choice].enumerate(m, *dec.args)
        if again is not None:
            m.decision = again


class _Linked:
    """Zones whose unknown cards may be exchanged: two zones are linked when
    a card the viewer did not see went from one to the other (it could have
    been any unknown card of the first).  Cards dealt out of the box at the
    start do not link: the rules choose them by what they are (the deck
    gets the game cards, a pile of heroes the heroes), which everybody
    knows, so a hero is never dealt into the deck."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, z: str) -> str:
        parent = self.parent
        root = z
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(z, z) != root:
            parent[z], z = root, parent[z]
        return root

    def link(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _knowledge(m: "Match", viewer: int) -> tuple[dict[int, bool], set[str], _Linked]:
    """From the log: for each card, whether ``viewer`` saw its last move (it
    knows where the card is); the zones shuffled (their seen cards may now
    be anywhere in them); which zones' unknown cards may be exchanged."""
    seen: dict[int, bool] = {}
    mixed: set[str] = set()
    linked = _Linked()
    box = m.game.zones[0].name
    for ev in m.log:
        kind = ev[0]
        if kind == "move":
            _, dest, moved, src = ev
            dest_vis = _zone_visible_to(dest.zdef, dest.owner, viewer)
            srcs = src if isinstance(src, list) else [src] * len(moved)
            for card, z in zip(moved, srcs):
                known = dest_vis or _zone_visible_to(z.zdef, z.owner, viewer)
                seen[card.id] = known
                if not known and z.name != box:
                    linked.link(z.name, dest.name)
        elif kind == "shuffle":
            mixed.add(ev[1])
    return seen, mixed, linked


def _deal_cards(m: "Match", viewer: int, seen: dict[int, bool], mixed: set[str], linked: _Linked,
                rng: random.Random) -> None:
    groups: dict[str, tuple[list[tuple[Zone, int]], list[Card]]] = {}   # linked zones -> (places, unknown cards)
    for zone in m.all_zones():
        if _zone_visible_to(zone.zdef, zone.owner, viewer):
            continue
        places, unknown = groups.setdefault(linked.find(zone.name), ([], []))
        top = len(zone.cards) - 1 if zone.zdef.visibility == "top" else -1   # its top card is shown
        for i, card in enumerate(zone.cards):
            if i != top and not seen.get(card.id, False):
                places.append((zone, i))
                unknown.append(card)
    for places, unknown in groups.values():
        rng.shuffle(unknown)
        if any(zone.allow is not None for zone, _ in places):
            unknown = _fitted(places, unknown, rng)
        for (zone, i), card in zip(places, unknown):
            zone.cards[i] = card
            m.loc[card.id] = zone
    for zone in m.all_zones():        # seen cards of a shuffled hidden zone: anywhere in it
        if zone.name in mixed and not _zone_visible_to(zone.zdef, zone.owner, viewer):
            cards = zone.cards
            keep = cards[-1:] if zone.zdef.visibility == "top" else []
            rest = cards[:len(cards) - len(keep)]
            rng.shuffle(rest)
            zone.cards[:] = rest + keep   # (in place, as every change of a deal: see copies.put_deal)


def _fitted(places: list[tuple[Zone, int]], cards: list[Card], rng: random.Random) -> list[Card]:
    """``cards`` (shuffled) ordered so that each place gets a card its zone
    may hold (a zone declared ``one_of: SET``): the places of the zones
    that hold the fewest kinds of card first, each given the first card
    left that it may hold, then the places of the zones that hold any card
    the rest.  It fits whenever the sets of such zones are disjoint or one
    within another (the real deal fits them all); should a deal not fit,
    it is shuffled again, and after a few tries the cards stay where they
    are (which fits)."""
    order = sorted(range(len(places)), key=lambda k: _kinds(places[k][0]))
    for _ in range(16):
        pool = cards[:]
        out: list[Card | None] = [None] * len(places)
        for k in order:
            allow = places[k][0].allow
            j = next((j for j, c in enumerate(pool) if allow is None or c.id in allow), None)
            if j is None:
                break
            out[k] = pool.pop(j)
        else:
            return cast(list[Card], out)
        rng.shuffle(cards)
    return [zone.cards[i] for zone, i in places]


def _kinds(zone: Zone) -> int:
    """How many cards a zone may hold (any: more than any set)."""
    return len(zone.allow) if zone.allow is not None else 1 << 30


def _deal_hidden_vars(m: "Match", viewer: int, rng: random.Random) -> None:
    rules = m.game.var_visibility
    for name, (_visibility, shown_when) in rules.items():
        seats = [p for p in range(m.n) if p != viewer
                 and not (shown_when is not None and shown_when(m, p))]
        if len(seats) < 2:
            continue
        values = [m.pvars[p][name] for p in seats]
        rng.shuffle(values)
        for p, v in zip(seats, values):
            m.pvars[p][name] = v
        m.kept.clear()              # (answers of the variables as they were: see rulekit.lang.pass_kept)
