"""A match: one game being played.

The match never calls a player.  It runs the rule file's compiled effects
until they reach a decision, then stops and waits: :attr:`Match.decision`
says who decides what and lists the legal actions; :meth:`Match.apply`
resumes it.  Agents, the CLI, tests, learning environments and servers all
drive it the same way.

Design notes
- The flow (setup, turns, phases) is one generator; compiled effects that
  can decide are generators too, so a decision suspends the whole stack.
- One seeded ``random.Random`` per match and no iteration over hash-ordered
  sets: the same file, seed and actions give a byte-identical event log.
- Every card is in exactly one zone at every moment: cards start in the
  built-in zone ``box`` and only ever change zone through :meth:`move`,
  which also keeps the card → zone index ``loc``.
- ``clone``/``save``/``restore`` replay the actions from the start: exact,
  and it costs nothing while playing.
"""
from __future__ import annotations

import json
import operator
import random
import reprlib
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterable, Iterator, Sequence, SupportsIndex, TypedDict

from ..derived import derived
from ..errors import IllegalAction, RuleRuntimeError, StepBudgetExceeded
from ..model import Card, Game, ZoneDef
from . import arguments, copies, failures
from .runtime import Action, Decision, GameOver, LogEntry, Result, Zone
from .shuffling import shuffle_in_place

if TYPE_CHECKING:  # pragma: no cover
    from ..agents import Agent
    from .view import Viewer

#: the flow of a match: yields each decision, is sent each answer
Flow = Generator[Decision, "Action | None", None]
#: what ``Match.apply`` takes: an offered Action, its index (an int, or an
#: integer type such as numpy's), or an action as a tuple or its JSON form
ActionLike = Action | SupportsIndex | dict[str, Any] | tuple[Any, ...] | list[Any]
#: copies the starting values of a match's variables (see ``_copies``)
VarsCopy = Callable[[dict[str, Any]], dict[str, Any]]

DEFAULT_STEP_BUDGET = 1_000_000


_ACTION_KEYS = frozenset(("option", "cards", "player", "number"))


def _as_action(value: object) -> Action:
    """An Action from an Action, a tuple or its JSON form, every field checked:
    IllegalAction for anything malformed (a string or None for the cards, a
    card id that is not an int, a seat that is not an int, an option that is
    not a string), so no malformed value ever reaches the match."""
    if isinstance(value, dict):
        if "option" not in value:
            raise IllegalAction(f"an action needs an 'option': {_short(value)}")
        unknown = [k for k in value if k not in _ACTION_KEYS]
        if unknown:
            raise IllegalAction(f"unknown key {_short(unknown[0])} in action {_short(value)}; "
                                "an action has 'option', 'cards', 'player' and 'number'")
        value = (value["option"], value.get("cards", ()), value.get("player"), value.get("number"))
    if isinstance(value, (tuple, list)) and 1 <= len(value) <= 4:
        option, cards, player, number = (list(value) + [(), None, None])[:4]
        if type(option) is not str:
            raise IllegalAction(f"malformed action {_short(value)}: the option must be a string, "
                                f"not {type(option).__name__}")
        if not isinstance(cards, (tuple, list)) or not all(type(c) is int for c in cards):
            raise IllegalAction(f"malformed action {_short(value)}: the cards must be a list of "
                                "card ids (ints)")
        if not (player is None or type(player) is int):
            raise IllegalAction(f"malformed action {_short(value)}: the player must be a seat "
                                "number (an int) or none")
        if not (number is None or type(number) is int):
            raise IllegalAction(f"malformed action {_short(value)}: the number must be an int or none")
        return Action(option, tuple(cards), player, number)
    raise IllegalAction(f"not an action: {_short(value)} (use one of legal_actions(), its index, "
                        "or {'option': ..., 'cards': [ids], 'player': seat, 'number': n})")


def _short(value: object) -> str:
    """``repr(value)``, cut short: an error message must not echo a huge value."""
    try:
        text = repr(value)
    except Exception:                      # a value whose repr fails is still refused
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 200 else text[:197] + "..."


# What every match of a game works out the same is worked out once and kept
# on the game (``rulekit.derived``), not in a cache of this module, which
# would keep games alive after their program let them go.

@derived
def _copies(game: Game) -> tuple[VarsCopy, VarsCopy]:
    """How a match copies the starting values of the variables and of the
    player variables: ``dict.copy`` when none is a list (lists are copied
    one by one, so matches never share one)."""
    def how(values: dict[str, Any]) -> VarsCopy:
        return copies.fresh_vars if any(type(v) is list for v in values.values()) else dict.copy
    return how(game.vars), how(game.player_vars)


@derived
def _reset_plan(game: Game, when: str) -> tuple[tuple[dict[str, Any], tuple[str, ...]], ...]:
    """What ``reset_vars(when)`` sets: for the variables and for the player
    variables, a dict of starting values that one ``dict.update`` applies, and
    the names among them whose starting value is a list (each gets a copy).
    A phase reset happens for every player in every phase of every turn."""
    return tuple((dict(section), tuple(k for k, v in section if type(v) is list))
                 for section in game.resets[when])


@derived
def _zone_plan(game: Game, players: int) -> tuple[tuple[tuple[ZoneDef, str | tuple[str, ...]], ...],
                                                   dict[int, int]]:
    """(zone def, its name, or for a zone per player the names of each
    player's) of every zone of a match, in index order, and the card limits
    known so far of zones whose limit depends only on the player count (by
    zone index, filled in as matches meet them): worked out once per game and
    player count, not for every new match."""
    specs = tuple((z, z.name if not z.per_player else tuple(f"{z.name}({p})" for p in range(players)))
                  for z in game.zones)
    return specs, {}


def _new_zones(game: Game, players: int) -> tuple[list[Zone | None], list[list[Zone] | None], dict[int, int]]:
    """The live zones of a new match: ``gz[i]`` for a shared zone (else None),
    ``pz[i][p]`` for player ``p``'s zone (else None); and the known limits."""
    gz: list[Zone | None] = []
    pz: list[list[Zone] | None] = []
    specs, limits = _zone_plan(game, players)
    for zdef, names in specs:
        if type(names) is str:
            gz.append(Zone(names, zdef, None))
            pz.append(None)
        else:
            gz.append(None)
            pz.append([Zone(name, zdef, p) for p, name in enumerate(names)])
    for i, lim in limits.items():
        shared = gz[i]
        for z in (shared,) if shared is not None else pz[i] or ():
            z.lim = lim
    return gz, pz, limits


def _no_flow(action: Action | None) -> Decision:
    """What resumes a match that is over or closed: nothing (``apply``
    refuses first; a flow would hold the match in a reference cycle)."""
    raise IllegalAction("the match is over (or was closed); no action is expected")


class MatchOptions(TypedDict, total=False):
    """The keyword arguments a match starts with, after players and seed
    (``Game.new_match(players, seed, **these)``), for a type checker."""

    step_budget: int                      # steps a decision may take (DEFAULT_STEP_BUDGET)
    prepared: dict[str, Any] | None       # zones and variables to start from (rulekit.testing.prepare)
    options: dict[str, Any] | None        # the rule file's options, by name
    auto_pass: bool                       # answer a decision whose only option is a pass without asking
    copyable: bool                        # record a checkpoint as each phase begins (Match.clone)


class Match:
    """A match of ``game`` for ``players`` players.

    ``prepared`` (see :func:`rulekit.testing.prepare`) starts the match from
    given zone contents and variables instead of running the file's setup.
    """

    # Slots, not an instance dict: compiled effects read and write the
    # match's fields (``m.steps``, ``m.current``, ``m.pvars``...) all the
    # time, and a slot is a fixed place, where a dict of this many keys
    # (CPython shares the keys of at most 30) is a lookup every time.
    __slots__ = ("game", "n", "seed", "options", "rng", "players", "all_seats", "out", "_pos",
                 "_dist", "_prepared",
                 "_seats_from", "cards", "budget", "steps", "memo", "kept", "gz", "pz", "_limits", "loc", "vars",
                 "pvars", "cvars", "chosen", "dirty", "current", "next_player", "phase", "turn", "log",
                 "actions", "_result", "decision", "_flow", "_send", "auto_pass", "copyable", "_ckpt", "_redeals",
                 "changes", "__weakref__")

    def __init__(self, game: Game, players: int, seed: int = 0, *,
                 step_budget: int = DEFAULT_STEP_BUDGET, prepared: dict[str, Any] | None = None,
                 options: dict[str, Any] | None = None, auto_pass: bool = False, copyable: bool = False,
                 _start: bool = True) -> None:
        if _start and not (     # (a copy's come from the match it copies, checked when it started)
                type(players) is int and type(seed) is int and type(step_budget) is int  # the usual call,
                and game.min_players <= players <= game.max_players and step_budget >= 1  # in one test:
                and type(auto_pass) is bool and type(copyable) is bool and options is None):  # as below
            players = arguments.players(game.name, game.min_players, game.max_players, players)
            seed, step_budget = arguments.seed(seed), arguments.step_budget(step_budget)
            auto_pass, copyable = arguments.flag("auto_pass", auto_pass), arguments.flag("copyable", copyable)
            options = arguments.options(options)
        self.game = game
        self.n = players
        self.seed = seed
        #: answer a response window (a choice declared ``skip_if_only``) for
        #: a seat whose only answer is that option, without asking it.
        #: Faster, but while another seat decides, everyone can then tell
        #: that it had something to answer with: for simulations, where
        #: nobody watches the others' decisions (see README, "Response
        #: windows ask everyone they name").  Off by default.
        self.auto_pass = auto_pass
        #: record a checkpoint as each phase begins, so that ``clone`` costs the
        #: state and part of a turn, not the whole history (see ``copies``);
        #: set by the first ``clone`` too.  Off by default: simulations never copy.
        self.copyable = copyable
        self._ckpt: copies.Checkpoint | None = None
        #: a copy drawn by resample: what it was dealt (see copies.Redeals); None for any other match
        self._redeals: copies.Redeals | None = None
        self.options = game.match_options(options) if (options or game.options) else {}
        self.rng = random.Random(seed)
        self.players = list(range(players))    # players still in the game, in seat order
        self.all_seats = self.players[:]
        self.out = [False] * players            # eliminated, by seat
        self._pos: dict[int, int] | None = None  # seat -> place among the living, when first needed
        self._dist: dict[tuple[int, int], int] = {}  # (a, b) -> seat_distance of two living players
        self._seats_from: dict[int, list[int]] = {}    # seat -> seats_from(seat), until an elimination
        self.cards = game.cards
        self.budget = step_budget
        self.steps = 0
        #: answers of pure procedures while the match stands still (see
        #: rulekit.lang.pass_memo), or None: opened by whoever drives the match
        self.memo: dict[Any, Any] | None = None
        #: answers of the pure procedures that read only variables, kept until
        #: one of those is written (see rulekit.lang.pass_kept)
        self.kept: dict[Any, Any] = {}
        self.gz, self.pz, self._limits = _new_zones(game, players)
        if _start:                # (a copy's cards and variables come from its checkpoint)
            box = self.gz[0]
            assert box is not None, "zone 0 is the box, a shared zone"
            box.cards = list(game.cards)
            self.loc: list[Zone] = [box] * len(game.cards)
            copy_vars, copy_pvars = _copies(game)
            self.vars: dict[str, Any] = copy_vars(game.vars)
            self.pvars: list[dict[str, Any]] = [copy_pvars(game.player_vars) for _ in range(players)]
            #: card variable -> its value for each card, by card id
            self.cvars: dict[str, list[Any]] = {
                k: ([list(v) for _ in game.cards] if type(v) is list else [v] * len(game.cards))
                for k, v in game.card_vars.items()}
        self.chosen: dict[str, Any] = {}
        # a variable declared with reset: has been written since its last reset
        self.dirty = {"turn": False, "phase": False}
        #: what a game compiled with change tracking wrote (see rulekit.lang.pass_changes);
        #: its reader empties it.  Plain play never touches it.
        self.changes: set[tuple[Any, ...]] = set()
        self.current = 0
        self.next_player: int | None = None
        self.phase: str | None = None
        self.turn = 0
        self.log: list[LogEntry] = []
        self.actions: list[Action] = []
        self._prepared = prepared
        self._result: Result | None = None
        #: who must decide what now (``None`` once the match is over); set
        #: only by the match itself.  A plain attribute, not a property: a
        #: driver reads it once per decision, millions of times.
        self.decision: Decision | None = None
        self._flow: Flow | None = None
        #: resumes the flow with an answer: ``_no_flow`` once the match is over
        self._send: Callable[[Action | None], Decision] = _no_flow
        if not _start:            # a copy: its state and flow come from a checkpoint
            return
        self._flow = self._run(prepared)
        self._send = self._flow.send
        self._resume(None)

    # ---- the flow -----------------------------------------------------------
    def _run(self, prepared: dict[str, Any] | None) -> Flow:
        """Setup, then the turns.  Once the turns start, the match sends
        answers to the flow's generator itself (``_send``), not through this
        one: a decision then resumes one generator, not two.  ``GameOver``
        ends the match wherever it is raised (see :meth:`_stopped`)."""
        game = self.game
        first_phase = 0
        self.log.append(("start", game.name, self.n, self.seed))
        if prepared is None:
            if game.setup is not None:
                if game.setup.is_gen:
                    yield from game.setup.run(self)
                else:
                    game.setup.run(self)
            self.current = game.first_player(self)
        else:
            first_phase = self._apply_prepared(prepared)
        flow = game.flow       # every turn, forever: the rules end the match
        if not flow.is_gen:
            flow.run(self, first_phase)
            return
        turns = flow.run(self, first_phase)
        self._send = turns.send
        yield next(turns)

    def _finish(self, over: GameOver) -> None:
        winners = over.winners if over.winners is not None else (
            list(self.players) if over.outcome == "win" else [])
        stats = {name: fn(self, over.outcome) for name, fn in self.game.stats.items()}
        per_seat = {name: [fn(self, p, over.outcome) for p in self.all_seats]
                    for name, fn in self.game.player_stats.items()}
        self._result = {"outcome": over.outcome, "reason": over.reason,
                        "winners": winners, "stats": stats, "player_stats": per_seat}
        self.log.append(("end", over.outcome, over.reason))

    def _resume(self, action: Action | None) -> None:
        try:
            self.decision = self._send(action)
        except BaseException as err:
            self._stopped(err)

    def _stopped(self, err: BaseException) -> None:
        """The flow stopped with ``err``: the match is over (StopIteration),
        or a rule failed, which is reported with where it is in the file.
        The flow's generators are let go: their frames refer to the match,
        and a match in such a cycle would wait for the garbage collector
        instead of being freed as soon as its driver drops it."""
        self.decision = None
        self._flow, self._send = None, _no_flow
        if isinstance(err, GameOver):
            try:
                self._finish(err)
                return
            except Exception as failed:     # a stat of the rule file failed: reported as any rule
                err = failed
        if type(err) is StopIteration:
            return
        try:
            raise err
        except RuleRuntimeError as err:
            if not err.chain:
                err.chain = failures.call_chain(self.game, err.__traceback__)
            if not err.rule and err.chain:      # (raised by the engine: the rule that called it)
                err.rule = err.chain[-1][0]
            if err.where is None:       # the statement that failed, else the rule's start
                last = err.chain[-1][1] if err.chain else None
                err.where = last or self.game.rule_where(err.rule or f"phase '{self.phase}'")
            raise
        except Exception as err:  # a rule failed inside generated code: say which and where
            failure = failures.mapped(self.game, err, len(self.all_seats))
            if failure is None:
                raise                       # rulekit's own error, or a bug in rulekit itself
            # the Python error stays as the cause (the CLI shows only the message)
            raise failure from err

    def count(self, steps: int, rule: str | None = None) -> None:
        """Count ``steps`` steps of work an expression does at length (a call
        that may call itself, a filter of a long list: see
        :mod:`rulekit.lang.work`), stopping ``rule`` past the budget."""
        self.steps += steps
        if self.steps > self.budget:
            self.over_budget(rule)

    def over_budget(self, rule: str | None = None) -> None:
        """Stop a rule file that never ends (every turn, loop pass, call and
        goto counts a step).  Without ``rule`` (a turn's or a goto's step),
        the phase that ran last is named."""
        if rule is None:
            rule = f"phase '{self.phase}'" if self.phase else "turn"
        raise StepBudgetExceeded(rule, self.game.rule_where(rule), self.budget)

    # ---- seats ----------------------------------------------------------------
    def eliminate(self, p: int) -> None:
        """``eliminate p``: the player leaves the game (their zones stay)."""
        if type(p) is not int or not 0 <= p < self.n:
            raise RuleRuntimeError(f"eliminate needs a player, got {p!r}")
        if not self.out[p]:
            self.out[p] = True
            self.players.remove(p)
            self._pos = None
            self._dist = {}
            self._seats_from = {}
            self.kept.clear()
            self.log.append(("eliminate", p))

    def next_seat(self, p: int) -> int:
        """The next seat clockwise from ``p`` whose player is still in the game."""
        n, out = self.n, self.out
        q = (p + 1) % n
        while out[q] and q != p:
            q = (q + 1) % n
        return q

    def prev_seat(self, p: int) -> int:
        n, out = self.n, self.out
        q = (p - 1) % n
        while out[q] and q != p:
            q = (q - 1) % n
        return q

    def seats_from(self, p: int) -> list[int]:
        """The players still in the game in seat order, starting at seat ``p``.
        The list is kept until someone is eliminated (effect text never
        changes a list, so every caller may share it)."""
        order = self._seats_from.get(p)
        if order is None:
            n, out = self.n, self.out
            order = self._seats_from[p] = [q for q in [(p + i) % n for i in range(n)] if not out[q]]
        return order

    def seat_distance(self, a: int, b: int) -> int:
        """Steps from seat ``a`` to seat ``b`` the shorter way round, counting
        the seats of players still in the game (and of ``a`` and ``b``).
        Asked for every target of every card a player might use, and the
        same few pairs again and again: the distance of two living players
        is kept until someone is eliminated."""
        d = self._dist.get((a, b))
        return d if d is not None else self._distance(a, b)

    def _distance(self, a: int, b: int) -> int:
        """:meth:`seat_distance` worked out (and kept, for two living players)."""
        if a == b:
            return 0
        pos = self._pos
        if pos is None:
            pos = self._pos = {q: i for i, q in enumerate(self.players)}
        i, j = pos.get(a), pos.get(b)
        if i is not None and j is not None:      # both still in the game: the usual case
            d = i - j if i > j else j - i
            k = len(pos)
            d = self._dist[(a, b)] = d if d + d <= k else k - d
            return d
        ring = [q for q in range(self.n) if not self.out[q] or q == a or q == b]
        d = abs(ring.index(a) - ring.index(b))
        k = len(ring)
        return d if d + d <= k else k - d

    def reset_vars(self, when: str) -> None:
        """Set the variables declared with ``reset: turn`` (or ``phase``) back."""
        if not self.dirty[when]:            # nothing written since the last reset
            return
        self.dirty[when] = False
        self.kept.clear()
        (game_vars, game_lists), (player_vars, player_lists) = _reset_plan(self.game, when)
        if game_vars:
            self.vars.update(game_vars)
            for k in game_lists:
                self.vars[k] = list(game_vars[k])
        if player_vars:
            for pv in self.pvars:
                pv.update(player_vars)
                for k in player_lists:
                    pv[k] = list(player_vars[k])

    # ---- moving cards (the only way a card changes zone) ---------------------
    def move(self, what: Zone | Card | Iterable[Card] | None, dest: Zone, bottom: bool = False) -> None:
        """Move a card, a list of cards or a whole zone's cards onto ``dest``
        (on top, or at the bottom).  A list moves as a packet, its first card
        lowest.  The log keeps the objects; they become names and ids only
        when the log is read (``events``/``log_json``), which keeps moving cheap."""
        if type(what) is list:          # the usual case (a list of one card most of all): no second call
            if len(what) == 1:
                self.move_one(what, dest, bottom)
            elif what:
                if dest.allow is not None:
                    self.refuse(what, dest)
                self._place(what, self._take(what), dest, bottom)
        elif isinstance(what, Zone):
            self.move_zone(what, dest, bottom)
        elif isinstance(what, Card):
            self.move_one([what], dest, bottom)
        elif what is not None:
            self.move_cards(list(what), dest, bottom)

    def move_zone(self, src: Zone, dest: Zone, bottom: bool = False) -> None:
        """Every card of ``src`` onto ``dest``, as one packet."""
        if src is dest or not src.cards:
            return
        if dest.allow is not None:
            self.refuse(src.cards, dest)
        cards = src.cards[:]
        src.cards.clear()
        self._place(cards, src, dest, bottom)

    def move_cards(self, cards: list[Card], dest: Zone, bottom: bool = False) -> None:
        """A list of cards onto ``dest``.  The list itself goes into the log,
        so callers never change it afterwards (chosen answers' card lists
        are shared and never changed)."""
        if not cards:
            return
        if type(cards) is not list:
            cards = list(cards)
        if len(cards) == 1:            # the usual case, kept short
            self.move_one(cards, dest, bottom)
            return
        if dest.allow is not None:
            self.refuse(cards, dest)
        self._place(cards, self._take(cards), dest, bottom)

    def move_one(self, cards: list[Card], dest: Zone, bottom: bool = False) -> None:
        """:meth:`move_cards` of a list known to hold exactly one card (the
        answer to a choice whose every option picks one card, the commonest
        move of a decision, is moved with this directly).  The card is where
        ``loc`` says, so its zone holds it: nothing here can fail."""
        c = cards[0]
        if dest.allow is not None and c.id not in dest.allow:
            self.refuse(cards, dest)
        loc = self.loc
        src = loc[c.id]
        zc = src.cards
        if zc[-1] is c:
            zc.pop()
        else:
            zc.remove(c)
        loc[c.id] = dest
        if bottom:
            dest.cards.insert(0, c)
        else:
            dest.cards.append(c)
        self.log.append(("move", dest, cards, src))

    def move_top1(self, src: Zone, dest: Zone, bottom: bool = False) -> None:
        """``move top(src, 1) to dest``: the commonest move of all (a draw)."""
        zc = src.cards
        if zc and src is not dest:
            if dest.allow is not None and zc[-1].id not in dest.allow:
                self.refuse(zc[-1:], dest)
            c = zc.pop()
            self.loc[c.id] = dest
            if bottom:
                dest.cards.insert(0, c)
            else:
                dest.cards.append(c)
            self.log.append(("move", dest, [c], src))

    def _take(self, cards: list[Card]) -> Zone | list[Zone]:
        """Remove two or more ``cards`` from where they are; return their zone
        (or, when they come from several, the list of their zones).  Each
        card is where ``loc`` says, so once no card is named twice nothing
        here can fail."""
        if len(set(cards)) != len(cards):     # (before anything is removed: a failed move loses nothing)
            raise RuleRuntimeError(f"a card cannot move twice in one move: {cards}")
        loc = self.loc
        src = loc[cards[0].id]
        for c in cards:
            if loc[c.id] is not src:
                srcs = [loc[c.id] for c in cards]
                for c2, z in zip(cards, srcs):
                    z.cards.remove(c2)
                return srcs
        zc = src.cards
        if len(cards) <= 8:      # a few cards: remove one by one
            for c in cards:
                zc.remove(c)
        else:
            ids = {c.id for c in cards}  # many: rebuild the pile once
            zc[:] = [c for c in zc if c.id not in ids]
        return src

    def move_top(self, src: Zone, n: int, dest: Zone, bottom: bool = False) -> None:
        """``move top(src, n) to dest``: the same as :meth:`move`, without
        searching for the cards (they are the top of ``src``)."""
        zc = src.cards
        if n <= 0 or not zc or src is dest:
            return
        if dest.allow is not None:
            self.refuse(zc[-n:], dest)
        if n >= len(zc):
            cards = zc[::-1]
            zc.clear()
        else:
            cards = zc[: -n - 1: -1]
            del zc[-n:]
        self._place(cards, src, dest, bottom)

    def move_where(self, src: Zone, table: Sequence[object], dest: Zone, bottom: bool = False,
                   shuffle: bool = False) -> None:
        """``move [shuffled](src where TEST) to dest`` for a TEST tabled per
        card id: one pass splits ``src`` (the same cards, in the same order,
        and the same random draws as filtering first)."""
        moved: list[Card] = []
        kept: list[Card] = []
        for c in src.cards:
            (moved if table[c.id] else kept).append(c)
        if not moved:
            return
        if dest.allow is not None:
            self.refuse(moved, dest)
        src.cards[:] = kept
        if shuffle:
            shuffle_in_place(self.rng, moved)
        self._place(moved, src, dest, bottom)

    def move_split(self, src: Zone, table: Sequence[int], targets: Sequence[tuple[Zone, bool, bool]]) -> None:
        """Several ``move [shuffled](src where TEST_i) to DEST_i`` in a row,
        in one pass: ``table[card id]`` is the first i whose test the card
        passes.  Each destination then gets its cards as its own move would
        have (same order, same random draws, same log).  A setup deals the
        same box the same way in every match, so the piles of the last split
        by this table are kept (in ``Game.splits``) and reused while the
        pile holds the same cards: comparing two lists of the game's shared
        cards costs far less than the pass that files them."""
        zc = src.cards
        memo = self.game.splits
        hit = memo.get(id(table))
        piles: list[list[Card]]
        if hit is not None and hit[0] is table and hit[1] == zc:
            piles = [p[:] for p in hit[2]]    # the same cards as last time: the same piles
            kept = hit[3][:]
        else:
            piles = [[] for _ in targets]
            kept = []
            for c in zc:
                i = table[c.id]
                (kept if i < 0 else piles[i]).append(c)
            memo[id(table)] = (table, zc[:], [p[:] for p in piles], kept[:])
        for (dest, _, _), moved in zip(targets, piles):
            if dest.allow is not None:
                self.refuse(moved, dest)
        src.cards[:] = kept
        for (dest, bottom, shuffle), moved in zip(targets, piles):
            if moved:
                if shuffle:
                    shuffle_in_place(self.rng, moved)
                self._place(moved, src, dest, bottom)

    def _place(self, cards: list[Card], src: Zone | list[Zone], dest: Zone, bottom: bool) -> None:
        """Put ``cards``, taken from ``src`` already, onto ``dest``.  Every
        caller has asked :meth:`refuse` before taking them: a move refused
        leaves every card where it was."""
        loc = self.loc
        for c in cards:
            loc[c.id] = dest
        if bottom:
            dest.cards[0:0] = cards
        else:
            dest.cards.extend(cards)
        self.log.append(("move", dest, cards, src))

    def refuse(self, cards: Sequence[Card], dest: Zone) -> None:
        """A rule error if a card of ``cards`` is not one ``dest`` may hold
        (a zone declared ``one_of: SET``): the rule put the card in the
        wrong place, which would go on unnoticed otherwise."""
        allow = dest.allow
        if allow is None:
            return
        wrong = [c for c in cards if c.id not in allow]
        if wrong:
            zdef = dest.zdef
            shown = ", ".join(zdef.names[:8]) + (", ..." if len(zdef.names) > 8 else "")
            raise RuleRuntimeError(f"card {wrong[0].name!r} cannot go to zone {dest.name!r}: it holds only "
                                   f"cards of names entry '{zdef.one_of}' ({shown})")

    def shuffle(self, z: Zone) -> None:
        shuffle_in_place(self.rng, z.cards)
        self.log.append(("shuffle", z.name))

    def zone_limit(self, z: Zone) -> int:
        """A zone's card limit (effectively unlimited when none is declared)."""
        if z.lim >= 0:
            return z.lim
        zdef = z.zdef
        limit = zdef.limit(self, z.owner) if zdef.limit is not None else 1 << 30   # (a zone's lim is set then)
        if zdef.limit_fixed:          # depends only on the player count: kept, for later matches too
            z.lim = self._limits[zdef.index] = limit
        return limit

    def room(self, z: Zone) -> int:
        lim = z.lim
        return (lim if lim >= 0 else self.zone_limit(z)) - len(z.cards)

    # ---- the driver's API ---------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return list(self.decision.options) if self.decision is not None else []

    def apply(self, action: ActionLike) -> None:
        """Answer the pending decision with one of ``decision.options``, or
        its index there (the cheapest: what a learning agent or a random
        policy picks anyway).  An illegal action raises :class:`IllegalAction`
        with the reason and changes nothing."""
        dec = self.decision
        if type(action) is int and action >= 0 and dec is not None:
            try:
                action = dec.options[action]
            except IndexError:
                action = self._legal(action, dec)    # out of range: says so
        elif dec is None:
            raise IllegalAction("the match is over (or was closed); no action is expected")
        elif type(action) is not Action:
            action = self._legal(action, dec)
        else:
            # the offered object itself: an equal Action may carry 1.0 or
            # True for a card id, which would index the zones differently
            options = dec.options
            try:
                action = options[options.index(action)]
            except ValueError:
                action = self._legal(action, dec)
        self.actions.append(action)
        self.memo = None      # (open only while a decision is scored: see HeuristicAgent.scores)
        cards = action.cards
        self.log.append(("decide", dec, action,
                         None if not cards else [self.loc[cards[0]]] if len(cards) == 1
                         else list(map(self.loc.__getitem__, cards))))
        try:                      # _resume, written out: this runs once per decision
            self.decision = self._send(action)
        except BaseException as err:
            self._stopped(err)

    def _legal(self, action: object, dec: Decision) -> Action:
        """The offered action that ``action`` (an index, an Action, a tuple or
        its JSON form) names, or :class:`IllegalAction` saying why none."""
        if type(action) is not bool and isinstance(action, SupportsIndex):
            action = operator.index(action)   # an int, or an integer type such as numpy's
            if not 0 <= action < len(dec.options):
                raise IllegalAction(
                    f"action index {action} is out of range: there are {len(dec.options)} legal actions")
            return dec.options[action]
        return self._offered(_as_action(action), dec)   # an Action too: its fields may be anything

    def _offered(self, action: Action, dec: Decision) -> Action:
        """The offered action equal to ``action`` (cards in any order), or
        :class:`IllegalAction` saying why there is none."""
        if action in dec.options:
            return action
        key = (action.option, tuple(sorted(action.cards)), action.player, action.number)
        for o in dec.options:
            if (o.option, tuple(sorted(o.cards)), o.player, o.number) == key:
                return o
        raise IllegalAction(self.explain(action))

    def explain(self, action: Action) -> str:
        """Why ``action`` is not legal now, in words."""
        dec = self.decision
        if dec is None:
            return "the match is over"
        names = {o.option for o in dec.options}
        who = f"player {dec.player} must answer '{dec.choice}' ({dec.prompt})"
        if action.option not in names:
            return f"'{action.option}' is not an option now: {who}; options now: {', '.join(sorted(names))}"
        for cid in action.cards:
            if not 0 <= cid < len(self.cards):
                return f"there is no card with id {cid}"
        if action.cards:
            where = ", ".join(f"{self.cards[i].name} is in {self.loc[i].name}" for i in action.cards)
            return f"'{action.option}' with these cards is not legal ({where}): {who}"
        if action.player is not None:
            return f"player {action.player} cannot be chosen for '{action.option}': {who}"
        if action.number is not None:
            return f"{action.number} cannot be chosen for '{action.option}': {who}"
        return f"'{action.option}' needs other arguments: {who}"

    def close(self) -> None:
        """Abandon the match where it stands (a learning environment that
        cuts an episode short, a server whose players left): no decision is
        pending afterwards and ``apply`` is refused.  Until a match ends or
        is closed its flow's generators refer back to it, so without this an
        abandoned match waits for the garbage collector's cycle search."""
        flow, send = self._flow, self._send
        self.decision = None
        self._flow, self._send = None, _no_flow
        for gen in (getattr(send, "__self__", None), flow):
            if gen is not None and hasattr(gen, "close"):
                gen.close()

    def is_over(self) -> bool:
        return self._result is not None

    def result(self) -> Result | None:
        """``{"outcome", "reason", "winners", "stats", "player_stats"}`` once
        over, else ``None``; ``player_stats[name][seat]`` is the value of the
        rule file's player stat ``name`` for that seat."""
        return self._result

    def play(self, agents: Agent | list[Agent] | tuple[Agent, ...]) -> Result | None:
        """Let ``agents`` (one per seat, or one for all) play to the end;
        the result (None: the flow stopped without deciding the match)."""
        seated = agents if isinstance(agents, (list, tuple)) else [agents] * self.n
        if not all(callable(getattr(a, "act", None)) for a in seated):
            raise TypeError(f"play takes agents (objects with act(match, decision)), not {reprlib.repr(agents)}")
        if len(seated) != self.n:
            raise ValueError(f"play takes an agent for every seat, or one for all: this match has "
                             f"{self.n} seats, and was given {len(seated)} agents")
        while self.decision is not None:
            dec = self.decision
            self.apply(seated[dec.player].act(self, dec))
        return self._result

    # ---- names and views ----------------------------------------------------
    def card(self, cid: int) -> Card:
        return self.cards[cid]

    def zone(self, name: str, player: int | None = None) -> Zone:
        """A live zone by name (``player`` for per-player zones)."""
        zdef = self.game.zone_by_name[name]
        if not zdef.per_player:
            shared = self.gz[zdef.index]
            assert shared is not None, "a shared zone has one live zone"
            return shared
        if player is None:
            raise TypeError(f"zone '{name}' is one per player: say whose, zone('{name}', seat)")
        zones = self.pz[zdef.index]
        assert zones is not None, "a zone per player has a live zone per seat"
        return zones[player]

    def all_zones(self) -> Iterator[Zone]:
        pz = self.pz
        for i, z in enumerate(self.gz):
            if z is not None:
                yield z
            else:
                yield from pz[i] or ()

    def describe_action(self, action: Action) -> str:
        parts = [action.option]
        if action.cards:
            parts.append(" ".join(self.cards[i].name for i in action.cards))
        if action.player is not None:
            if action.option == "player":     # not "player player 1"
                parts = []
            parts.append(f"player {action.player}")
        if action.number is not None:
            parts.append(str(action.number))
        return " ".join(parts)

    def view(self, player: Viewer, since: int = 0, log: bool = True) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator; ``"all"``, that is
        ``rulekit.ALL_SEEING``: everything, for tools and tests), log included.
        ``since=k`` returns only the log from entry ``k`` on (``log_size``
        says how many there are), so a client polling every decision does
        not receive the whole history each time; ``log=False`` leaves the
        log out (an observation encoder reads only the state).  Any other
        viewer, or a negative ``since``, is refused (TypeError, ValueError)."""
        from .view import build_view, checked

        player, since = checked(self, player, since)
        try:
            return build_view(self, player, since, log)
        except Exception as err:    # a display or public value failed: where, in the rule file
            failure = failures.mapped(self.game, err, len(self.all_seats))
            if failure is None:
                raise
            raise failure from err

    def events(self, player: Viewer = "all", since: int = 0) -> list[dict[str, Any]]:
        """The event log as dicts; redacted for ``player`` unless ``"all"``."""
        from .view import checked, event_dicts

        player, since = checked(self, player, since)
        return event_dicts(self, player, since)

    def log_json(self) -> str:
        """The full event log as compact JSON: byte-identical for the same
        game file, seed and actions.  Without the narration's words, which
        say the events for people and may be reworded without changing a game."""
        from .view import event_dicts

        return json.dumps(event_dicts(self, "all", 0, narrated=False), ensure_ascii=False,
                          separators=(",", ":"))

    # ---- copies -------------------------------------------------------------
    def _spec(self) -> dict[str, Any]:
        """What this match was started with: what a copy is started with."""
        return {"players": self.n, "seed": self.seed, "step_budget": self.budget,
                "prepared": self._prepared, "options": self.options, "auto_pass": self.auto_pass}

    def save(self) -> dict[str, Any]:
        """A JSON-serialisable record from which :meth:`restore` rebuilds this
        match.  A copy drawn by :meth:`resample` is refused (ValueError): its
        seed and actions make the match it was drawn from, not its deal."""
        if self._redeals is not None:
            raise ValueError("a resampled copy cannot be saved or pickled: its seed and actions make the match "
                             "it was drawn from, not the cards it was dealt (save that match, or clone() the copy)")
        origin = self.game.origin
        return {"game": self.game.name, **self._spec(),
                **({"rules": origin.digest} if origin is not None else {}),
                "actions": [a.to_json() for a in self.actions]}

    def __reduce__(self) -> tuple[Any, ...]:
        """A match pickles as its game (see ``Game.__reduce__``) and its
        :meth:`save`: unpickled, its decisions are played again (a copy drawn
        by :meth:`resample` is refused, as by ``save``), and a match that was
        closed is closed again."""
        return (_unpickled, (self.game, self.save(), self.decision is None and self._result is None))

    @classmethod
    def restore(cls, game: Game, saved: dict[str, Any]) -> "Match":
        """The match a :meth:`save` record describes, its actions played
        again.  A record that is not one is refused (ValueError), and so is
        one saved under other rule files than ``game``'s (its ``rules``, a
        digest of them: replayed under the files as they are now, it would
        be another match), and an action of it that is not legal there
        with ``IllegalAction``."""
        spec, actions = arguments.saved(game.name, saved, game.origin.digest if game.origin else None)
        if spec["step_budget"] is None:
            spec["step_budget"] = DEFAULT_STEP_BUDGET
        m = cls(game, spec.pop("players"), spec.pop("seed"), **spec)
        for a in actions:
            m.apply(Action.from_json(a))
        return m

    def resample(self, player: int, rng: random.Random | None = None) -> "Match":
        """A copy in which what ``player`` cannot know — others' unseen hand
        cards, the order of hidden piles, others' secret variables, future
        shuffles — is dealt again at random, consistently with everything
        ``player`` has seen: for search over hidden information (see
        :mod:`rulekit.engine.resample`)."""
        from .resample import resample

        if type(player) is not int or not 0 <= player < self.n:
            raise ValueError(f"resample needs a seat from 0 to {self.n - 1}, not {player!r}")
        return resample(self, player, rng if rng is not None else random.Random())

    def checkpoint(self, phase: int) -> None:
        """Called by the flow as each phase begins while ``copyable``: a copy
        resumes the turn at that phase (the flow's first phase ``-1 - phase``)."""
        ck = self._ckpt
        if ck is not None and ck.turn == self.turn and ck.actions_len == len(self.actions):
            return                 # nothing decided since: the one there is serves
        self._ckpt = copies.take(self, -1 - phase)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Match":
        """``copy.deepcopy`` of a match (or of anything holding one, such as
        a learning environment) is :meth:`clone`: a match's flow is
        suspended Python code, which cannot be copied object by object."""
        copied = memo[id(self)] = self.clone()
        return copied

    def __copy__(self) -> "Match":
        """``copy.copy`` too is :meth:`clone`: a copy sharing the flow would not be a match of its own."""
        return self.clone()

    def clone(self) -> "Match":
        """An independent copy in the same state.  From the checkpoint of the
        current turn when there is one (see :mod:`rulekit.engine.copies`):
        the state is copied and only this turn's decisions are played again.
        Otherwise (the first copy of a match not started ``copyable``, or
        one still in its setup) every decision is played again, and from
        then on the match records checkpoints.  A copy of a match that was
        closed is closed too (its decisions played again would open it)."""
        m = self._copy()
        if self.decision is None and m.decision is not None:
            m.close()
        return m

    def _copy(self) -> "Match":
        ck = self._ckpt
        self.copyable = True
        if self._redeals is not None and (ck is None or not self.game.flow.is_gen):
            return self._clone_sample(self._redeals)
        if ck is None or not self.game.flow.is_gen:
            m = Match(self.game, **self._spec(), copyable=True)
            for a in self.actions:
                m.apply(a)
            self._ckpt = m._ckpt       # the same data as this match's own phase began
            m.copyable = False
            return m
        # A copy records no checkpoints of its own (search plays copies out
        # by the thousand); it keeps the one it was made from, which serves
        # for copies of it too, and records from its first clone() on.
        m = self._resumed_at(ck)
        for a in self.actions[ck.actions_len:]:
            m.apply(a)
        m._redeals = self._redeals
        return m

    def _resumed_at(self, ck: copies.Checkpoint) -> "Match":
        """A new match of this one's game and start with ``ck``'s data, its
        turn resumed at ``ck``'s phase (no decision since played again)."""
        m = Match(self.game, **self._spec(), _start=False)
        copies.restore(m, ck, self.log, self.actions)
        m._ckpt = ck
        turns = self.game.flow.run(m, ck.first_phase)
        m._flow = turns
        m._send = turns.send
        m._resume(None)
        return m

    def _clone_sample(self, redeals: copies.Redeals) -> "Match":
        """:meth:`clone` of a copy drawn by :meth:`resample` that has recorded
        no checkpoint since: its turn (or the match) played again up to each
        deal, the deal put in, then the decisions since (see copies.Redeals)."""
        from .resample import decide_again

        base = redeals.base
        if base is None or not self.game.flow.is_gen:
            m, done = Match(self.game, **self._spec()), 0
        else:
            m, done = self._resumed_at(base), base.actions_len
        for deal in redeals.deals:
            for a in self.actions[done:deal.actions_len]:
                m.apply(a)
            copies.put_deal(m, deal)
            decide_again(m)
            done = deal.actions_len
        for a in self.actions[done:]:
            m.apply(a)
        m._ckpt, m._redeals = None, redeals     # (``base`` is from before the deals: not a copy's to use)
        return m

    # ---- prepared states ----------------------------------------------------
    def _apply_prepared(self, prepared: dict[str, Any]) -> int:
        from .prepare import apply_prepared

        return apply_prepared(self, prepared)


def _unpickled(game: Game, saved: dict[str, Any], closed: bool) -> Match:
    """A pickled match: restored from its save, and closed if it was."""
    m = Match.restore(game, saved)
    if closed and m.decision is not None:
        m.close()
    return m
