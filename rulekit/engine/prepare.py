"""Starting a match from given zone contents (a stacked deck).

Tests and outside tools build any situation this way instead of searching
for a seed that happens to produce it.  The prepared state is plain JSON
(so ``Match.save`` can record it):

```python
{"zones": {"pile": ["J♠"], "hand(0)": ["7♥", "A♣"], "deck": ["5♦", "9♣"]},
 "vars": {"damage": 4}, "player_vars": {"0": {"hp": 3}},
 "card_vars": {"row(0)": [{"place": 2, "health": 1}]},
 "current": 0, "phase": "play"}
```

``card_vars`` gives the state of the cards of a zone, in the order its
cards are listed under ``zones`` (top first); a card given no entry keeps
its starting values.

Zone lists name cards **top first** (the first name is the next card drawn).
Per-player zones are written ``hand(0)``.  A name that several cards share
(``Joker``) takes the next one not yet placed.  Cards not named stay in the
built-in ``box`` zone, so every card is still in exactly one zone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import IllegalAction
from ..model import Card
from .runtime import Zone

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match


def _zone_by_label(m: "Match", label: str) -> Zone:
    if "(" in label and label.endswith(")"):
        name, who = label[:-1].split("(", 1)
        return m.zone(name, int(who))
    return m.zone(label)


def apply_prepared(m: "Match", prepared: dict[str, Any]) -> int:
    """Put the named cards in place, set variables; return the phase index."""
    game = m.game
    by_name: dict[str, list[Card]] = {}
    for c in game.cards:
        by_name.setdefault(c.name, []).append(c)
    unknown_zone = None
    placed: dict[str, list[Card]] = {}
    for label, names in prepared.get("zones", {}).items():
        try:
            zone = _zone_by_label(m, label)
        except (KeyError, ValueError, IndexError):
            unknown_zone = label
            break
        cards: list[Card] = []
        for name in names:
            free = by_name.get(name)
            if not free:
                raise IllegalAction(f"prepared state: no (more) card named {name!r} for zone {label!r}")
            cards.append(free.pop(0))
            if zone.allow is not None and cards[-1].id not in zone.allow:
                raise IllegalAction(f"prepared state: zone {label!r} holds only cards of names entry "
                                    f"'{zone.zdef.one_of}', not {name!r}")
        m.move(list(reversed(cards)), zone)
        placed[label] = cards
    if unknown_zone is not None:
        raise IllegalAction(f"prepared state: unknown zone {unknown_zone!r}; zones: "
                            + ", ".join(z.name for z in m.all_zones()))
    for key, value in prepared.get("vars", {}).items():
        if key not in m.vars:
            raise IllegalAction(f"prepared state: unknown variable {key!r}")
        m.vars[key] = value
    for who, values in prepared.get("player_vars", {}).items():
        for key, value in values.items():
            if key not in m.pvars[int(who)]:
                raise IllegalAction(f"prepared state: unknown player variable {key!r}")
            m.pvars[int(who)][key] = value
    for label, states in prepared.get("card_vars", {}).items():
        given = placed.get(label)
        if given is None or len(states) > len(given):
            raise IllegalAction(f"prepared state: card_vars for {label!r} name more cards than "
                                "its zone is given")
        for card, values in zip(given, states):
            for key, value in values.items():
                if key not in m.cvars:
                    raise IllegalAction(f"prepared state: unknown card variable {key!r}")
                m.cvars[key][card.id] = value
    m.dirty.update(turn=True, phase=True)    # given values: the next resets set them back
    for p in prepared.get("out", ()):
        m.eliminate(int(p))
    m.current = int(prepared.get("current", 0))
    phase = prepared.get("phase")
    if phase is None:
        return 0
    for i, ph in enumerate(game.phases):
        if ph.name == phase:
            return i
    raise IllegalAction(f"prepared state: unknown phase {phase!r}")
