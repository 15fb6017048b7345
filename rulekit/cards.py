"""Expanding the ``cards:`` section into the physical cards of a game.

An entry is one card (``count`` copies) or, with ``each``, the product of
property lists: ``each: {suit: [...], rank: [...]}`` makes one card per suit
and rank.  A list element that is a mapping sets several properties at once
(``{rank: K, value: 20}``).  The name is a template over the properties.
Card ids are positions in this expansion, so they are stable for a file.
"""
from __future__ import annotations

import itertools
import re
from typing import Callable

from .lang.names import suggest
from .model import Card

_FIELD = re.compile(r"\{([^{}]+)\}")


def expand_cards(entries: list[dict], err: Callable) -> tuple[Card, ...]:
    """The cards of ``entries``; template errors go to ``err(path, message, expected, hint)``."""
    out: list[Card] = []
    for i, entry in enumerate(entries):
        path = ("cards", i)
        base = dict(entry.get("props", {}))
        axes = [[v if isinstance(v, dict) else {prop: v} for v in values]
                for prop, values in entry.get("each", {}).items()]
        for combo in itertools.product(*axes) if axes else [()]:
            props = dict(base)
            for part in combo:
                props.update(part)
            name = _card_name(entry["name"], props, path, err)
            props.setdefault("name", name)     # every card's name is readable as card.name
            for _ in range(entry.get("count", 1)):
                out.append(Card(len(out), name, props))
    return tuple(out)


def _card_name(template: str, props: dict, path: tuple, err: Callable) -> str:
    def field(mo):
        key = mo.group(1)
        if key not in props:
            err(path + ("name",), f"card name template uses unknown property '{key}'",
                "one of: " + ", ".join(sorted(props)), suggest(key, props))
            return key
        return str(props[key])
    return _FIELD.sub(field, template)
