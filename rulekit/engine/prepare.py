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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import IllegalAction
from ..model import Card
from .runtime import Zone

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match


#: what a prepared state may give: the kind each must be (None: checked where it is read) and
#: what it is, in words
_PARTS: dict[str, tuple[type | None, str]] = {
    "zones": (Mapping, "a mapping of zone to card names"), "vars": (Mapping, "a mapping of variable to value"),
    "player_vars": (Mapping, "a mapping of seat to a mapping of variable to value"),
    "card_vars": (Mapping, "a mapping of zone to a list of mappings of card variable to value"),
    "out": (list, "a list of seats"), "current": (None, "a seat"), "phase": (str, "a phase's name")}


def _refuse(message: str) -> IllegalAction:
    return IllegalAction(f"prepared state: {message}")


def _zone_by_label(m: "Match", label: str) -> Zone:
    if "(" in label and label.endswith(")"):
        name, who = label[:-1].split("(", 1)
        return m.zone(name, int(who))
    try:
        return m.zone(label)
    except TypeError:           # a zone per player, named without its seat
        raise _refuse(f"zone {label!r} is one per player: name whose, as '{label}(0)'") from None


def _seat(m: "Match", value: object, what: str, key: bool = False) -> int:
    """A seat given in a prepared state (as a key, "1" is seat 1: JSON's keys are texts)."""
    if key and type(value) is str and value.isdigit():
        value = int(value)
    if type(value) is not int or not 0 <= value < m.n:
        raise _refuse(f"{what} is a seat from 0 to {m.n - 1}, not {value!r}")
    return value


def _check_shape(prepared: object) -> None:
    """Each part of the state is of the kind it must be (before anything is placed)."""
    if not isinstance(prepared, Mapping):
        raise _refuse(f"it is a mapping ({', '.join(_PARTS)}), not {type(prepared).__name__}")
    unknown = [k for k in prepared if k not in _PARTS]
    if unknown:
        raise _refuse(f"unknown part {unknown[0]!r}; the parts are {', '.join(_PARTS)}")
    for key, (kind, what) in _PARTS.items():
        value = prepared.get(key)
        if kind is not None and value is not None and not isinstance(value, kind):
            raise _refuse(f"{key} is {what}, not {value!r}")
    for label, names in prepared.get("zones", {}).items():
        if not isinstance(names, list) or not all(type(n) is str for n in names):
            raise _refuse(f"the cards of zone {label!r} are a list of card names, not {names!r}")
    for who, values in prepared.get("player_vars", {}).items():
        if not isinstance(values, Mapping):
            raise _refuse(f"player_vars of seat {who!r} are a mapping of variable to value, not {values!r}")
    for label, states in prepared.get("card_vars", {}).items():
        if not isinstance(states, list) or not all(isinstance(v, Mapping) for v in states):
            raise _refuse(f"card_vars of zone {label!r} are a list of mappings (one per card), not {states!r}")


def apply_prepared(m: "Match", prepared: dict[str, Any]) -> int:
    """Put the named cards in place, set variables; return the phase index."""
    _check_shape(prepared)
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
        seat = _seat(m, who, "a key of player_vars", key=True)
        for key, value in values.items():
            if key not in m.pvars[seat]:
                raise IllegalAction(f"prepared state: unknown player variable {key!r}")
            m.pvars[seat][key] = value
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
    m.kept.clear()                           # (answers of the variables as they were: see pass_kept)
    for p in prepared.get("out", ()):
        m.eliminate(_seat(m, p, "each of out"))
    m.current = _seat(m, prepared.get("current", 0), "current")
    phase = prepared.get("phase")
    if phase is None:
        return 0
    for i, ph in enumerate(game.phases):
        if ph.name == phase:
            return i
    raise IllegalAction(f"prepared state: unknown phase {phase!r}")
