"""The rule model: what a loaded rule file *is*, frozen once loaded.

A :class:`Game` is built by :func:`rulekit.loader.load_game` from a YAML rule
file.  Effect text is already compiled into Python callables here (the
``run``/``test`` fields), so a match never looks at text again.  Everything is
immutable so one ``Game`` can serve any number of matches, threads or
processes at once.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable

import attrs

from .errors import Where

if TYPE_CHECKING:     # (the engine imports this module)
    from typing import Unpack

    from .engine.match import Match, MatchOptions


@attrs.frozen(eq=False)
class Card:
    """One physical card.  ``id`` is stable for a game file (its position in
    the file's card list), ``name`` is readable (e.g. ``"7♥"``), ``props`` are
    the properties effect text reads with ``card.prop``."""

    id: int
    name: str
    props: dict[str, Any] = attrs.field(repr=False)

    def __repr__(self) -> str:
        return self.name


@attrs.frozen
class SkillDef:
    """A named ability as declared under ``skills:`` (see :mod:`rulekit.skills`):
    its rulebook text and kinds, and where its parts went: the options it
    added to choices (choice, option) and how many triggers and which
    procedures it brought."""

    name: str
    text: str
    kinds: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    triggers: int = 0
    procedures: tuple[str, ...] = ()
    where: Where | None = None
    doc: str = ""


@attrs.frozen
class ZoneDef:
    """A zone: an ordered pile of cards (last = top).

    ``visibility``: ``public`` (everyone sees every card), ``hidden`` (nobody
    sees the cards, everyone sees the count), ``owner`` (a per-player zone only
    its owner sees), ``top`` (only the top card is seen).

    ``one_of``: the entry of ``names:`` a zone declared ``one_of: SET`` may
    hold cards of (None: any card), its names (``names``) and the ids of
    the cards so named, in id order (``allowed``): the engine refuses any
    other card there, and an observation has an entry per allowed card only.

    ``order_by``: the card variable by which views list the zone's cards,
    lowest first (a row of places, listed by place), instead of top first;
    the pile's own order, which effect text reads, is unchanged.
    """

    name: str
    index: int
    per_player: bool = False
    visibility: str = "public"
    limit: Callable[[Any, int | None], int] | None = None   # limit(match, owner) -> int
    doc: str = ""
    where: Where | None = None
    limit_fixed: bool = False       # the limit depends only on the player count
    one_of: str | None = None
    names: tuple[str, ...] = ()
    allowed: tuple[int, ...] | None = None
    order_by: str | None = None
    #: ``allowed`` as a set, which a move into the zone tests (None: any card)
    allow: frozenset[int] | None = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "allow", None if self.allowed is None else frozenset(self.allowed))


@attrs.frozen
class OptionDef:
    """One kind of answer to a choice: some cards, a player, or a plain option.

    The tests that decide which answers are legal (``when``, ``from``,
    ``where``, ``same``, ``require``) are compiled into the choice's
    ``enumerate`` function; this record describes the option for tools."""

    name: str
    kind: str                      # "cards" | "player" | "number" | "plain"
    min_cards: int = 0
    max_cards: int = 0
    same: str | None = None
    doc: str = ""
    numbers: tuple[int, int] | None = None   # a number option: the lowest and highest it gives
    #: a card option: the ids of the only cards it can ever offer, those of the
    #: zones its ``from`` can only take cards from, when each declares ``one_of``
    #: (None: any card); an action catalogue numbers only these
    cards_from: tuple[int, ...] | None = None


@attrs.frozen
class ChoiceDef:
    """A decision the rules ask a player to make.

    ``enumerate(match)`` returns the :class:`~rulekit.engine.runtime.Decision`
    with every legal action, or ``None`` when nothing is legal;
    ``heuristic(match, chosen_cards, option, player)`` scores one action for
    the heuristic agent (from the file's ``heuristics:``)."""

    name: str
    prompt: str
    options: tuple[OptionDef, ...]
    enumerate: Callable
    heuristic: Callable | None = None
    #: ``scores(match, options, *args)``: the heuristic's score of each of a
    #: decision's options at once (``args``: the decision's), the same as
    #: calling ``heuristic`` on each
    scores: Callable | None = None
    where: Where | None = None
    params: tuple[str, ...] = ()   # names of the arguments (Decision.args holds their values)
    #: a response window (``skip_if_only``): the option a seat that has no
    #: other answer gives (see ``Match.auto_pass``)
    window: str | None = None
    #: the heuristic calls no procedure but pure ones, so scoring the options
    #: may remember their answers (``Match.memo``, see rulekit.lang.pass_memo)
    memo_safe: bool = False


@attrs.frozen
class Script:
    """Compiled effect text: ``run(match)`` is a plain function or, when the
    text can stop at a decision, a generator function (``is_gen``)."""

    rule: str
    run: Callable
    is_gen: bool
    where: Where | None = None


@attrs.frozen
class PhaseDef:
    """A phase of every turn.  The phases' effect text is compiled together
    into the game's ``flow`` (one function for the whole turn)."""

    name: str
    doc: str = ""
    where: Where | None = None


@attrs.frozen
class TriggerDef:
    on: str
    when: Callable | None
    script: Script
    doc: str = ""


@attrs.frozen
class Origin:
    """Where a game was loaded from: the path (or the name a text was given),
    the folder its files must stay in, the text when it was not read from
    disk, and a digest of what its files say (see ``rulekit.loader.digest_of``:
    a pickled game, a saved match, is refused by files that say otherwise)."""

    path: str
    tree: str | None
    text: str | None
    digest: str


@attrs.frozen(eq=False)
class Game:
    """A loaded, validated, compiled rule file."""

    name: str
    description: str
    file: str
    min_players: int
    max_players: int
    cards: tuple[Card, ...]
    zones: tuple[ZoneDef, ...]
    tables: dict[str, dict]
    vars: dict[str, Any]
    player_vars: dict[str, Any]
    choices: dict[str, ChoiceDef]
    procedures: dict[str, Script]
    setup: Script | None
    first_player: Callable
    phases: tuple[PhaseDef, ...]
    flow: Script                       # flow.run(match, first_phase): the turns, forever
    triggers: dict[str, tuple[TriggerDef, ...]]
    stats: dict[str, Callable]
    source: dict = attrs.field(repr=False)
    #: name -> f(match, player, outcome): a value about each seat at the end
    #: (an identity, a hero, a deck), by which reports count wins
    player_stats: dict[str, Callable] = attrs.field(factory=dict)
    #: procedures the compiler may write into their callers (their runs
    #: there cannot be counted apart: see rulekit.coverage)
    inlined: frozenset = frozenset()
    #: event -> how it reads to a person (``narration:``, see rulekit.narration)
    narration: dict = attrs.field(factory=dict, repr=False)
    #: card variable -> starting value: state each card has in a match
    card_vars: dict[str, Any] = attrs.field(factory=dict)
    rule_positions: dict[str, Where] = attrs.field(factory=dict, repr=False)
    code: str = attrs.field(default="", repr=False)  # the generated Python, for reading
    code_label: str = ""                              # its file name in tracebacks
    #: generated line -> (Where or None, rule): where a failing line came from
    code_origins: dict = attrs.field(factory=dict, repr=False)
    #: generated line of a procedure written in place of its call -> the
    #: calls it was written for, outermost first: ((Where, rule), ...)
    code_calls: dict = attrs.field(factory=dict, repr=False)
    #: name in the generated code -> (kind, key) it was made for (see rulekit.lang.fn_names)
    code_names: dict = attrs.field(factory=dict, repr=False)
    #: chosen answers: per seat, by action; shared by all matches (read-only)
    answers: tuple = attrs.field(factory=tuple, repr=False, eq=False)
    #: results of dealing a pile into several (``move_split``) by the id of
    #: the split's table: (table, pile before, piles, kept), shared by all
    #: matches (every match deals the same box the same way before shuffling)
    splits: dict = attrs.field(factory=dict, repr=False, eq=False)
    #: match options: name -> {"default": value, "values": [...] or None, "doc": text}
    options: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    #: "turn" / "phase" -> ((var, initial), ...), ((player var, initial), ...) set back then
    resets: dict = attrs.field(factory=dict, repr=False)
    #: player var -> (visibility, shown_when(match, owner) or None), for view(player)
    var_visibility: dict = attrs.field(factory=dict, repr=False)
    #: ("vars" | "player_vars" | "display" | "public", name) -> the names a
    #: variable or shown value declared ``one_of: SET`` holds
    var_sets: dict = attrs.field(factory=dict, repr=False)
    #: (section, name) -> "number" (a shown value declared ``number: true``) or
    #: "cards" (a variable declared ``holds: cards``); see :mod:`rulekit.loader_vars`
    var_kinds: dict = attrs.field(factory=dict, repr=False)
    #: name -> fn(match, viewer, player): values each view shows about each player
    display: dict = attrs.field(factory=dict, repr=False)
    #: name -> fn(match, viewer): values the rules derive about the whole
    #: table that every player may see (``public:``)
    public: dict = attrs.field(factory=dict, repr=False)
    #: every file the game was read from: the one loaded first, then the
    #: files it includes or extends (what a tool watching for edits watches)
    files: tuple[str, ...] = ()
    #: name -> SkillDef, in the order declared (``skills:``)
    skills: dict[str, SkillDef] = attrs.field(factory=dict, repr=False)
    #: how to load the game again: what a pickled game carries (see ``__reduce__``)
    origin: Origin | None = attrs.field(default=None, repr=False)
    #: what every match of the game works out the same, worked out by the
    #: first (by the engine, under keys of its own): it lives as long as the game
    derived: dict[Any, Any] = attrs.field(factory=dict, repr=False, eq=False, init=False)

    def match_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Every option's value for a new match: ``given`` over the defaults.
        An unknown option or a value not allowed is a ValueError that says
        which options and values there are."""
        given = dict(given or {})
        out = {}
        for name, spec in self.options.items():
            value = given.pop(name, spec["default"])
            allowed = spec.get("values")
            if allowed is not None and value not in allowed:
                raise ValueError(f"option {name!r} cannot be {value!r}: choose one of "
                                 + ", ".join(map(repr, allowed)))
            if allowed is None and type(value) is not type(spec["default"]):
                raise ValueError(f"option {name!r} takes a {type(spec['default']).__name__}, "
                                 f"not {value!r}")
            out[name] = value
        if given:
            known = ", ".join(self.options) or "none"
            raise ValueError(f"{self.name} has no option {', '.join(map(repr, given))} "
                             f"(its options: {known})")
        return out

    def rule_where(self, rule: str) -> Where | None:
        """Where in the file the rule called ``rule`` (e.g. "phase 'play'") is."""
        return self.rule_positions.get(rule)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Game":
        """A loaded game never changes, and its matches refer to it: copying
        anything that holds it (a match, an environment) shares it."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as where it was loaded from and a digest of its
        files (its compiled code cannot be pickled): another process loads
        it again, once, and refuses the files if they changed since."""
        if self.origin is None:
            raise TypeError(f"{self.name} was not loaded by rulekit.load_game or load_game_text, "
                            "so it cannot be loaded again: it cannot be pickled")
        from .loader import loaded_again

        return (loaded_again, (self.origin,))

    zone_by_name: dict[str, ZoneDef] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # derived once: Match.zone() looks zones up by name on every call
        object.__setattr__(self, "zone_by_name", {z.name: z for z in self.zones})

    def card_named(self, name: str) -> list[Card]:
        """Every card called ``name`` (names need not be unique)."""
        return [c for c in self.cards if c.name == name]

    def new_match(self, players: int, seed: int = 0, **options: Unpack[MatchOptions]) -> Match:
        """Start a match: see :class:`rulekit.engine.match.Match` (its keyword
        arguments are :class:`rulekit.engine.match.MatchOptions`)."""
        return _match_class()(self, players, seed, **options)


@functools.cache
def _match_class() -> type[Match]:
    """The Match class, imported on first use (the engine imports this
    module) and then kept: an import statement in ``new_match`` cost a
    microsecond or two for every match started."""
    from .engine.match import Match

    return Match
