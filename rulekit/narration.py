"""How a game's events read to a person: ``narration:`` in a rule file.

The rules emit events with fields (``emit damaged(target=t, amount=n,
source=s)``); a rule file says how each reads, in its own language::

    narration:
      damaged: {text: "{target} 受到 {source} 的 {amount} 点伤害", seats: [target, source]}
      defeated: "{enemy} defeated"

A placeholder names a field of that event and nothing else (the template
rules of prompts: no format code ever runs); ``seats`` lists the fields that
hold a player, which each viewer's narration says its own way.  The terminal, the web table
and replays narrate from these declarations, each saying a seat its own way
("player 2", "you"); a card a viewer could not see reads "a hidden card".
"""
from __future__ import annotations

from typing import Callable

from .lang.parser import subtrees
from .lang.templates import split_template


def event_fields(trees: list) -> dict[str, set[str]]:
    """Every event some ``emit`` statement of the rule file sends, with the
    fields it is sent with (an event emitted with different fields in
    different places has all of them)."""
    out: dict[str, set[str]] = {}
    for t in trees:
        for sub in subtrees(t):
            if sub.data == "emit_stmt":
                fields = out.setdefault(str(sub.children[0]), set())
                if sub.children[1] is not None:
                    fields.update(str(k.children[0]) for k in sub.children[1].children)
    return out


class Narration:
    """One event's narration: its pieces (literal text, or a 1-tuple holding
    a field's name) and which fields hold a seat."""

    __slots__ = ("pieces", "seats")

    def __init__(self, pieces: tuple, seats: frozenset):
        self.pieces, self.seats = pieces, seats

    def say(self, fields: dict, who: Callable[[int], str]) -> str:
        """The event in words, from its fields as a viewer has them: seats
        said by ``who``, cards by name (a card the viewer could not see is
        None there: "a hidden card"), lists spaced, nothing as "—"."""
        def said(v, name: str) -> str:
            if isinstance(v, list):
                return " ".join(said(x, name) for x in v) if v else "—"
            if v is None:
                return "a hidden card" if name in _CARDISH else "—"
            if name in self.seats and type(v) is int:
                return who(v)
            if v is True or v is False:
                return "yes" if v else "no"
            return str(v)
        return "".join(p if type(p) is str else said(fields.get(p[0]), p[0]) for p in self.pieces)


#: fields whose None is a card the viewer could not see (rather than nothing)
_CARDISH = frozenset(("card", "cards"))


def compile_narration(event: str, spec, fields: set[str]) -> Narration:
    """One ``narration:`` entry (text, or {text, seats}): raises
    :class:`TemplateError` for a placeholder that is not a field of the event,
    ValueError for a seat that is not one."""
    text, seats = (spec, ()) if isinstance(spec, str) else (spec["text"], tuple(spec.get("seats", ())))
    names = tuple(sorted(fields))
    pieces = tuple(p if isinstance(p, str) else (names[p],) for p in split_template(text, names, event))
    unknown = [s for s in seats if s not in fields]
    if unknown:
        raise ValueError(unknown[0])
    return Narration(pieces, frozenset(seats))
