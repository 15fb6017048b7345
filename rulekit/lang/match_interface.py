"""What compiled rules may use of a match: the interface, declared once.

Generated code (and the helpers and built-in functions it calls) reads and
writes the running :class:`rulekit.engine.match.Match` directly, for speed:
``m.gz[2].cards``, ``m.steps += 1``.  That is a second interface of Match,
apart from its public one (``decision``, ``apply``, ``view``...): the one
the compiler is allowed to write against.  It is listed here, so that a
change to Match knows what it must keep, and so that a test can check the
generated code of every game uses nothing else (tests/test_debuggable_rules.py).

Fields marked "written" are also assigned by generated code.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import random
    from collections.abc import Iterable, Sequence

    from ..engine.runtime import Zone
    from ..model import Card, Game


class RuleMatch(Protocol):
    """A match as generated code sees it (``m`` in every generated function)."""

    # ---- the table --------------------------------------------------------------
    game: Game                      # the rules (helpers read its tables)
    cards: tuple[Card, ...]         # every card, by id
    gz: list[Zone | None]           # shared zones, by index (0: the box; None: a per-player zone's)
    pz: list[list[Zone] | None]     # per-player zones, by index, then seat (None: a shared zone's)
    loc: list[Zone]                 # the zone each card is in, by card id
    rng: random.Random              # the match's only source of chance
    options: dict[str, Any]         # the match options (``option(name)``)

    # ---- variables --------------------------------------------------------------
    vars: dict[str, Any]            # game variables (written)
    pvars: list[dict[str, Any]]     # player variables, by seat (written)
    cvars: dict[str, list[Any]]        # card variables, by name then card id (written)
    chosen: dict[str, Any]          # the latest answer of each choice (written)
    dirty: dict[str, bool]          # a variable reset by turn/phase was written (written)

    # ---- whose turn ---------------------------------------------------------------
    n: int                          # seats at the table
    current: int                    # the seat whose turn it is (written)
    next_player: int | None         # the seat to play next, if a rule said so (written)
    players: list[int]              # seats still in the game, in seat order
    all_seats: list[int]            # every seat
    out: list[bool]                 # eliminated, by seat
    turn: int                       # turns begun (written)
    phase: str | None               # the phase running (written)
    log: list[tuple[Any, ...]]        # the event log (generated code appends)

    # ---- running ----------------------------------------------------------------
    steps: int                      # steps counted so far (written)
    memo: dict[Any, Any] | None              # answers of pure procedures, while open (see pass_memo)
    kept: dict[Any, Any]                     # ... of those reading only variables (see pass_kept)
    budget: int                     # the step budget
    auto_pass: bool                 # answer response windows that have one answer
    copyable: bool                  # note a checkpoint as each phase begins

    def over_budget(self, rule: str | None = None) -> None: """Stop a rule that never ends."""
    def count(self, steps: int, rule: str | None = None) -> None: """Count steps of long work (see work)."""
    def checkpoint(self, phase: int) -> None: """Note the match's data as a phase begins."""
    def reset_vars(self, when: str) -> None: """Set back the variables declared ``reset: when``."""

    # ---- seats ------------------------------------------------------------------
    def eliminate(self, p: int) -> None: """``eliminate p``."""
    def next_seat(self, p: int) -> int: """The next seat still in the game."""
    def prev_seat(self, p: int) -> int: """The previous seat still in the game."""
    def seats_from(self, p: int) -> list[int]: """Seats still in the game, from ``p`` on."""
    def seat_distance(self, a: int, b: int) -> int: """Seats between, the shorter way round."""

    # ---- cards ------------------------------------------------------------------
    def move(self, what: Zone | Card | Iterable[Card] | None, dest: Zone,
             bottom: bool = False) -> None: """``move WHAT to DEST``."""
    def move_zone(self, src: Zone, dest: Zone, bottom: bool = False) -> None: """A whole zone."""
    def move_cards(self, cards: list[Card], dest: Zone, bottom: bool = False) -> None: """Some cards."""
    def move_one(self, cards: list[Card], dest: Zone, bottom: bool = False) -> None: """A chosen card."""
    def move_top1(self, src: Zone, dest: Zone, bottom: bool = False) -> None: """The top card."""
    def move_top(self, src: Zone, n: int, dest: Zone, bottom: bool = False) -> None: """Top ``n``."""
    def move_where(self, src: Zone, table: Sequence[object], dest: Zone, bottom: bool = False,
                   shuffle: bool = False) -> None: """The cards a tabled test passes."""
    def move_split(self, src: Zone, table: Sequence[int],
                   targets: Sequence[tuple[Zone, bool, bool]]) -> None: """Deal into piles."""
    def shuffle(self, z: Zone) -> None: """``shuffle Z``."""
    def zone_limit(self, z: Zone) -> int: """The zone's limit of cards."""
    def room(self, z: Zone) -> int: """Cards the zone may still take."""


def members() -> frozenset[str]:
    """The names of :class:`RuleMatch`'s fields and methods."""
    names = set(RuleMatch.__annotations__)
    names.update(k for k, v in vars(RuleMatch).items() if callable(v) and not k.startswith("_"))
    return frozenset(names)
