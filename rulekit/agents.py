"""Agents: things that answer a match's decisions.

A match never calls a player; whoever drives it asks an agent for an action
whenever :attr:`Match.decision` is set.  Agents here know nothing about any
particular game: the random agent picks uniformly, the heuristic agent
maximises the score the *rule file* gives under ``heuristics:``, and the
scripted agent replays a fixed list (handy in tests and bug reports).

Every agent owns its own ``random.Random``, so a seed reproduces a whole match
and agents never disturb the match's own shuffles.
"""
from __future__ import annotations

import inspect
import random
import weakref
from typing import Any, Callable, Iterable, Protocol, Sequence, runtime_checkable

from .engine.failures import in_rule_terms
from .engine.runtime import Action, Decision
from .errors import RuleRuntimeError, StepBudgetExceeded


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(match, decision) -> Action``.

    ``decision`` is ``match.decision``, passed in so an agent need not know
    where the match keeps it; the returned action must be one of
    ``decision.options``.
    """

    def act(self, match: Any, decision: Decision) -> Action: ...


class RandomAgent:
    """Picks uniformly among the legal actions: the baseline every game has."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def act(self, match: Any, decision: Decision) -> Action:
        options = decision.options
        return options[self.rng.randrange(len(options))]


class HeuristicAgent:
    """Plays the legal action the rule file's heuristic scores highest.

    The score comes from the game (``heuristics:`` in the rule file), so the
    agent stays generic; for a choice without a heuristic it plays at random.
    Ties are broken at random so equally good moves do not bias a simulation.
    A decision with a single option is answered with it, unscored.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def scores(self, match: Any, decision: Decision) -> list[float] | None:
        """The heuristic's score of every option, or ``None`` without a heuristic."""
        choice = _scored(match, decision)
        if choice is None:
            return None
        heuristic = choice.heuristic
        args = decision.args                # the values of the choice's params, in order
        # Scoring writes nothing, so a heuristic that calls only pure procedures
        # may have their answers remembered across the options (see Match.memo).
        memo = getattr(choice, "memo_safe", False) and getattr(match, "memo", False) is None
        if memo:
            match.memo = {}
        try:
            every = getattr(choice, "scores", None)
            if every is not None:
                try:
                    out = every(match, decision.options, *args)
                except (RuleRuntimeError, StepBudgetExceeded):
                    raise
                except Exception:       # noqa: BLE001 - scored again one by one below, which names the
                    out = None          # answer (or asks a match-like object without m.cards card by card)
                if out is not None and _numbers(out):
                    return out
            return _score_all(match, decision, _scorer(heuristic, choice.params if args else ()), args)
        finally:
            if memo:
                match.memo = None

    def act(self, match: Any, decision: Decision) -> Action:
        options = decision.options
        if len(options) == 1 and _scored(match, decision) is not None:
            # the best of one: what scoring it would pick, and it draws nothing at random either
            # (a tenth of a large game's decisions; :meth:`scores` still scores them all)
            return options[0]
        scores = self.scores(match, decision)
        if scores is None:
            return options[self.rng.randrange(len(options))]
        best = max(scores)
        if scores.count(best) == 1:            # the usual case, without building the list of ties
            return options[scores.index(best)]
        top = [a for a, s in zip(options, scores) if s == best]
        return top[self.rng.randrange(len(top))]


def _scored(match: Any, decision: Decision) -> Any:
    """The decision's choice if it has a heuristic, else None (the agent then
    plays at random, drawing even for a single option)."""
    choice = match.game.choices.get(decision.choice)
    return choice if choice is not None and choice.heuristic is not None else None


def _score_all(match: Any, decision: Decision, call: Callable, args: tuple) -> list[float]:
    # a match's cards by id (a match-like object without the list is asked card by card)
    cards = getattr(match, "cards", None)
    card = cards.__getitem__ if type(cards) is list else match.card
    out = []
    for a in decision.options:
        ids = a.cards
        try:
            # (most answers hold one card or none: a list display costs a third of list(map(...)))
            chosen = [card(ids[0])] if len(ids) == 1 else list(map(card, ids)) if ids else []
            score = call(match, chosen, a.option, a.player, *args) if args else call(
                match, chosen, a.option, a.player)
        except (RuleRuntimeError, StepBudgetExceeded):
            raise
        except Exception as err:  # noqa: BLE001 - reported as a rule error, with the rule named
            said = in_rule_terms(err) or f"{type(err).__name__}: {err}"
            raise _heuristic_error(match, decision, a, said) from err
        # an int or a float, the usual answer, passes the first test (bool is a type of its own);
        # NaN is refused: it is no better or worse than anything, so no best answer exists
        if type(score) is not int and (type(score) is not float or score != score) and (
                isinstance(score, bool) or not isinstance(score, (int, float)) or score != score):
            raise _heuristic_error(match, decision, a, f"it gave {score!r}, not a number")
        out.append(score)
    return out


#: the types a score may have (bool is a type of its own, and not one of them)
_INTS, _NUMBERS = {int}, {int, float}


def _numbers(scores: list) -> bool:
    """Every score is a number, and none NaN (which is no better or worse
    than anything).  Whole numbers, the usual case, are told at C speed."""
    kinds = set(map(type, scores))
    return kinds <= _INTS or kinds <= _NUMBERS and all(s == s for s in scores)


def _heuristic_error(match: Any, decision: Decision, action: Action, problem: str) -> RuleRuntimeError:
    rule = f"heuristic '{decision.choice}'"
    where_of = getattr(match.game, "rule_where", None)
    return RuleRuntimeError(
        f"the heuristic for choice '{decision.choice}' could not score "
        f"'{match.describe_action(action)}': {problem} (a heuristic must give a number "
        "for every legal answer)", rule, where_of(rule) if where_of else None)


def _scorer(heuristic: Callable, params: tuple[str, ...] = ()) -> Callable[..., Any]:
    """Call ``heuristic(match, chosen, option, player, *args)``.

    ``args`` are the values of the choice's ``params:`` (``decision.args``),
    which the compiled heuristic of such a choice takes after ``player``.
    Compiled expressions may also take the effect-language form
    ``fn(match, frame)`` with the names in a frame dict (the params under
    their names); both are accepted so the agent does not depend on how the
    compiler packages an expression.
    """
    # kept on the compiled function itself when it can hold attributes (looking
    # it up there is cheaper than in the weak dict, which makes a weakref per call)
    cached = getattr(heuristic, "_rulekit_scorer", None) or _SCORERS.get(heuristic)
    if cached is not None and cached[0] == params:
        return cached[1]
    try:
        sig = inspect.signature(heuristic).parameters.values()
        required = sum(1 for p in sig if p.default is p.empty
                       and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    except (TypeError, ValueError):
        required = 4 + len(params)
    if required == 2:
        def call(m, chosen, option, player, *args, fn=heuristic, names=params):
            frame = {"chosen": chosen, "option": option, "player": player}
            frame.update(zip(names, args))
            return fn(m, frame)
    else:
        call = heuristic
    try:
        heuristic._rulekit_scorer = (params, call)  # type: ignore[attr-defined]
    except AttributeError:          # a callable without attributes (a builtin, a bound method)
        _SCORERS[heuristic] = (params, call)
    return call


# Compiled functions belong to a loaded game; do not keep games alive through this cache.
_SCORERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class ScriptError(Exception):
    """A scripted agent was asked for an action its script cannot give."""


class ScriptedAgent:
    """Plays a fixed list of actions in order.

    Each entry is an :class:`Action`, an index into the decision's options, a
    ``{"option", "cards", "player"}`` dict, or readable text compared with
    :meth:`Match.describe_action` (case and extra spaces ignored), e.g.
    ``"card 7"`` or ``"pass"``.  A wrong or missing entry raises
    :class:`ScriptError` saying what was legal, so a broken test explains itself.
    """

    name = "scripted"

    def __init__(self, actions: Iterable[Action | int | str | dict]):
        self.actions = list(actions)
        self.position = 0

    @property
    def remaining(self) -> int:
        return len(self.actions) - self.position

    def act(self, match: Any, decision: Decision) -> Action:
        if self.position >= len(self.actions):
            raise ScriptError(
                f"the script has no action left ({len(self.actions)} played) but player "
                f"{decision.player} must answer '{decision.choice}'; legal now: "
                + _legal_list(match, decision))
        entry = self.actions[self.position]
        action = resolve_action(match, decision, entry)
        self.position += 1
        return action


def resolve_action(match: Any, decision: Decision, entry: Action | int | str | dict) -> Action:
    """The legal action ``entry`` stands for, or :class:`ScriptError` saying why none."""
    options = decision.options
    if isinstance(entry, bool):
        raise ScriptError(f"not an action: {entry!r}")
    if isinstance(entry, int):
        if 0 <= entry < len(options):
            return options[entry]
        raise ScriptError(f"action index {entry} is out of range: there are {len(options)} "
                          f"legal actions: {_legal_list(match, decision)}")
    if isinstance(entry, str):
        wanted = _norm(entry)
        for a in options:
            if _norm(match.describe_action(a)) == wanted:
                return a
        raise ScriptError(f"'{entry}' is not a legal action for player {decision.player}'s "
                          f"'{decision.choice}'; legal now: {_legal_list(match, decision)}")
    if isinstance(entry, dict):
        entry = Action.from_json(entry)
    if isinstance(entry, tuple):
        action = Action(*entry)
        if action in options:
            return action
        raise ScriptError(f"{match.describe_action(action)!r} is not legal now; "
                          f"legal now: {_legal_list(match, decision)}")
    raise ScriptError(f"not an action: {entry!r} (use an Action, an index, a dict or text)")


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _legal_list(match: Any, decision: Decision, limit: int = 12) -> str:
    names = [match.describe_action(a) for a in decision.options]
    more = f", … ({len(names) - limit} more)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _mcts(seed: int, budget: str | None = None) -> Agent:
    from .search import mcts_agent  # the search module is loaded only when asked for

    return mcts_agent(seed, budget)


#: agent name -> factory(seed[, what follows "name:"]), e.g. "mcts:500"
AGENTS: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent,
                                           "mcts": _mcts}


def seat_seed(seed: int, seat: int) -> int:
    """A distinct, reproducible seed for ``seat`` in the match seeded ``seed``.

    Seats get different seeds so two random agents do not mirror each other;
    the mix is plain arithmetic so it is the same on every run and platform.
    """
    return (seed * 1_000_003 + seat * 7_919 + 1) & 0xFFFF_FFFF_FFFF


def make_agents(spec: str | Sequence[str], players: int, seed: int = 0) -> list[Agent]:
    """One agent per seat from ``spec``: ``"random"``, ``"heuristic,random"``,
    ``"mcts:500,heuristic"`` or a list of names; the names are cycled when
    there are fewer than seats.  What follows a colon is the agent's budget
    (only ``mcts`` takes one: iterations, or seconds as ``mcts:0.5s``)."""
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else [str(s).strip() for s in spec]
    names = [n for n in names if n]
    if not names:
        raise ValueError(f"no agent named; choose from: {', '.join(AGENTS)}")
    if len(names) > players:
        raise ValueError(f"{len(names)} agents named ({', '.join(names)}) for {players} "
                         f"player{'s' if players != 1 else ''}: name one agent per seat at most")
    unknown = [n for n in names if n.split(":", 1)[0] not in AGENTS]
    if unknown:
        raise ValueError(f"unknown agent '{unknown[0]}'; choose from: {', '.join(AGENTS)} "
                         "(one name for every seat, or a comma-separated list such as 'heuristic,random')")
    for n in names:
        if ":" in n and not n.startswith("mcts:"):
            raise ValueError(f"agent '{n.split(':', 1)[0]}' takes no budget (only mcts does: mcts:200)")
    out = []
    for seat in range(players):
        name, _, budget = names[seat % len(names)].partition(":")
        factory = AGENTS[name]
        out.append(factory(seat_seed(seed, seat), budget) if budget else factory(seat_seed(seed, seat)))
    return out
