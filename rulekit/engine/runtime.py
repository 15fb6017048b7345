"""Small runtime objects shared by compiled effects and the match.

Kept apart from :mod:`rulekit.engine.match` so the compiler can depend on them
without depending on the whole match machinery.
"""
from __future__ import annotations

from typing import Any, Iterator, NamedTuple, Sequence

from ..model import Card, ZoneDef

#: one entry of a match's event log: its kind, then that kind's fields
#: (``("move", dest, cards, src)``, ``("decide", decision, action, srcs)``...)
LogEntry = tuple[Any, ...]
#: a finished match's ``result()``: outcome, reason, winners, stats, player_stats
Result = dict[str, Any]


class Zone:
    """A live pile of cards in one match.  ``cards[-1]`` is the top."""

    __slots__ = ("name", "zdef", "owner", "cards", "lim", "allow")

    def __init__(self, name: str, zdef: ZoneDef, owner: int | None):
        self.name = name
        self.zdef = zdef
        self.owner = owner
        self.cards: list[Card] = []
        # the card limit once known: set at once when there is none, on first
        # use when it depends only on the player count, never (-1) otherwise
        self.lim = (1 << 30) if zdef.limit is None else -1
        #: the ids of the only cards the zone may hold (None: any card), see ZoneDef.one_of
        self.allow = zdef.allow

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __repr__(self) -> str:
        return f"<zone {self.name}: {len(self.cards)} cards>"


class Action(NamedTuple):
    """One legal answer to a decision.

    ``option`` names the option of the choice (e.g. ``"card"``, ``"yield"``);
    ``cards`` holds card ids (stable per game file), ``player`` a seat and
    ``number`` a number picked from a list (e.g. a place on a row).
    Actions are plain tuples: cheap to build, hashable, comparable and
    JSON-friendly, which matters when millions are enumerated.
    """

    option: str
    cards: tuple[int, ...] = ()
    player: int | None = None
    number: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"option": self.option}
        if self.cards:
            out["cards"] = list(self.cards)
        if self.player is not None:
            out["player"] = self.player
        if self.number is not None:
            out["number"] = self.number
        return out

    @classmethod
    def from_json(cls, data: object) -> "Action":
        """The Action of a JSON form.  A malformed form still makes an Action
        (never a TypeError here), which ``Match.apply`` refuses as IllegalAction:
        so its fields are taken unchecked (``Any``), whatever they hold."""
        if not isinstance(data, dict):
            unchecked: Any = data
            return cls(unchecked)
        cards = data.get("cards", ())
        option: Any = data.get("option")
        return cls(option, tuple(cards) if isinstance(cards, list) else cards,
                   data.get("player"), data.get("number"))


class Decision(NamedTuple):
    """The match is waiting for ``player`` to answer ``choice``.

    ``prompt`` is the choice's prompt with its ``{param}`` placeholders
    filled in from ``args``.  It is written out when read, not when the
    decision is made: most decisions of a simulation are never shown to
    anyone, and formatting every one of them took a tenth of the time of a
    game whose choices name their arguments in their prompts.  The prompt
    was split into pieces when the game was loaded
    (:func:`rulekit.lang.templates.split_template`), so filling it is a join:
    a rule file's text never reaches ``str.format``."""

    player: int
    choice: str
    template: str          # the prompt as the rule file writes it (the prompt itself without placeholders)
    options: Sequence[Action]   # a list, or a tuple shared by decisions of one answer only
    args: tuple[Any, ...] = ()       # the arguments of a choice declared with params
    shown: tuple[str | int, ...] = ()  # the prompt's pieces: literal text, or the index in args of a placeholder

    @property
    def prompt(self) -> str:
        if not self.shown:
            return self.template
        args = self.args
        return "".join([p if isinstance(p, str) else as_text(args[p]) for p in self.shown])


def as_text(v: object) -> str:
    """A value as a prompt shows it: cards by name, lists space-separated."""
    if type(v) is str:
        return v
    if type(v) is Card:
        return v.name
    if type(v) is list or type(v) is tuple or type(v) is Zone:
        return " ".join(as_text(x) for x in v)
    return str(v)


class Chosen:
    """What a player answered to a choice, as effect text sees it:
    ``attack.option``, ``attack.cards`` (Card objects), ``attack.player``,
    ``attack.number``.
    ``pj`` holds what the rules read of the cards (``attack.cards.suit``,
    ``sum(attack.cards.value)``...), worked out once: an answer is shared
    by every match of its game, and neither it nor a card ever changes."""

    __slots__ = ("option", "cards", "player", "by", "pj", "number")

    def __init__(self, option: str, cards: list[Card], player: int | None, by: int,
                 pj: tuple[Any, ...] = (), number: int | None = None):
        self.option = option
        self.cards = cards
        self.player = player
        self.by = by
        self.pj = pj
        self.number = number


# ---- control flow inside effects -------------------------------------------

class EndTurn(Exception):
    """``end turn``: the current turn stops here."""


class Goto(Exception):
    """``goto PHASE``: continue the turn at another phase."""

    def __init__(self, phase: int):
        self.phase = phase


class GameOver(Exception):
    """``win`` / ``lose``: the match is decided."""

    def __init__(self, outcome: str, reason: str, winners: list[int] | None = None):
        self.outcome = outcome
        self.reason = reason
        self.winners = winners
