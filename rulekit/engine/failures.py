"""From a Python exception in generated code to the rules that were running.

A rule file's effect text runs as one generated Python module (see
:mod:`rulekit.lang.codegen`), so when a rule fails, the traceback is a
list of generated functions.  An author knows none of them: the frames are
mapped back to the rule file through the game's origins table (generated
line -> the statement's position and its rule), and through its calls table
for procedures written in place of their calls.  What comes out is the call
chain of rules, outermost first — a phase, the trigger its event fired, the
procedure that trigger called — each at the statement it was running.
"""
from __future__ import annotations

import re
from types import FrameType, TracebackType

from ..errors import IllegalAction, RuleRuntimeError, StepBudgetExceeded, Where, value_kind
from ..lang.fn_names import is_filter
from ..lang.names import BUILTINS, IN_PLACE_METHODS
from ..model import Game


def call_chain(game: Game, tb: TracebackType | None) -> tuple[tuple[str, Where | None], ...]:
    """((rule, Where or None), ...), outermost first, of the generated frames of ``tb``."""
    steps: list[tuple[str, Where | None]] = []
    label, origins, calls = game.code_label, game.code_origins, game.code_calls
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == label:
            line = tb.tb_lineno
            where, rule = origins.get(line, (None, ""))
            step = (rule, where or game.rule_where(rule))
            # a filter written out as a function is part of the statement that called it
            if not (is_filter(code.co_name) and steps and steps[-1][0] == rule):
                steps.extend((r, w) for w, r in calls.get(line, ()))
                steps.append(step)
        tb = tb.tb_next
    return tuple(steps)


def rule_failure(game: Game, err: Exception, players: int | None = None) -> RuleRuntimeError | None:
    """The RuleRuntimeError for an exception raised by generated code: the
    rule and file position of the statement that failed, and the call chain
    that led there (None: the exception did not come from a rule)."""
    chain = call_chain(game, err.__traceback__)
    if not chain:
        return None
    rule, where = chain[-1]
    return RuleRuntimeError(explain(game, err, players), rule, where, chain)


def mapped(game: Game, err: Exception, players: int | None = None) -> RuleRuntimeError | None:
    """The RuleRuntimeError to raise (``from err``) for ``err``, caught
    around code that runs the rule file's expressions; None to raise ``err``
    itself: rulekit's own errors, and a Python error not from generated code
    (a bug in rulekit)."""
    if isinstance(err, (RuleRuntimeError, StepBudgetExceeded, IllegalAction)):
        return None
    return rule_failure(game, err, players)


#: Python's words for a list indexed by something other than a number
_NOT_AN_INDEX = re.compile(r"list indices must be integers or slices, not (\w+)")

#: Python's words for reading what only a card (``id``, ``props``) or a zone (``cards``) has
_NOT_A_CARD = re.compile(r"'(\w+)' object has no attribute '(id|props|cards)'")


def explain(game: Game, err: Exception, players: int | None = None) -> str:
    """What a Python error in generated code means in the rule file's terms.

    Effect text is not typed, so a value of the wrong kind reaches the code
    that reads it: the errors it then raises are said as the mix-up an
    author made (a number that is no seat, a card where a player belongs,
    a card variable read of a player)."""
    if isinstance(err, KeyError) and err.args and err.args[0] in game.choices:
        return f"'{err.args[0]}' is read before anyone chose it"
    if isinstance(err, KeyError) and err.args and err.args[0] in game.card_vars:
        return (f"'{err.args[0]}' is a card variable, read here of something that is not a card "
                "(a player, a number, none)")
    if isinstance(err, KeyError) and err.args and any(err.args[0] in c.props for c in game.cards):
        return (f"'{err.args[0]}' is a card property, read here of something that is not a card "
                "(a player, a number, none)")
    if isinstance(err, RecursionError):
        return ("the rules call one another deeper than Python's stack allows (about a thousand calls, "
                "procedures, triggers and events together): a rule that calls itself that often is "
                "better written as a loop (while, for)")
    if isinstance(err, UnboundLocalError):
        name = str(err).split("'")[1] if "'" in str(err) else str(err)
        local = re.match(r"L(?:_p\d+|\d+)?_(.+)$", name)
        return f"'{local.group(1) if local else name}' is read before 'let' gives it a value"
    if isinstance(err, IndexError) and players is not None:
        # lists and tables are read through checked helpers: what is left is a player's own row
        return (f"a number used as a player is not a seat of this match: its players are 0 to {players - 1} "
                f"(the rule failed: {err}); a neighbour is next(p) or prev(p), the seat k places on "
                "(p + k) % player_count")
    wrong = _NOT_AN_INDEX.match(str(err)) if isinstance(err, TypeError) else None
    if wrong is not None:
        return f"{value_kind(wrong.group(1))} was used where a player (a seat number) is expected"
    wrong = _NOT_A_CARD.match(str(err)) if isinstance(err, AttributeError) else None
    if wrong is not None:      # (moved, or tested from a card's table: a list holding something else)
        return (f"{value_kind(wrong.group(1))} was used where a "
                f"{'zone' if wrong.group(2) == 'cards' else 'card'} is expected")
    said = in_rule_terms(err) or str(err)
    builtin, frame = _builtin_that_failed(err.__traceback__) if isinstance(err, (TypeError, ValueError)) \
        else (None, None)
    not_a_seat = _not_a_seat(builtin, frame) if builtin is not None else None
    if not_a_seat is not None:
        return f"{builtin}() takes players (seat numbers), and was given {not_a_seat}"
    if builtin is not None and f"{builtin}()" not in said and not said.startswith(builtin):
        return f"the rule failed in {builtin}(): {said}"
    return f"the rule failed: {said}"


def _not_a_seat(builtin: str, frame: FrameType | None) -> str | None:
    """For a built-in written in place as a method of the match that takes
    seats (``seats_from``, ``seat_distance``, ``next``), whose method's
    ``frame`` failed: the kind of the first argument it was given that is
    no seat number; None otherwise."""
    in_place = IN_PLACE_METHODS.get(builtin)
    if in_place is None or in_place.takes != "seat" or frame is None:
        return None
    code = frame.f_code
    for name in code.co_varnames[1:code.co_argcount]:      # (after self)
        value = frame.f_locals.get(name)
        if type(value) is not int:
            return value_kind(type(value).__name__)
    return None


def _builtin_that_failed(tb: TracebackType | None) -> tuple[str | None, FrameType | None]:
    """The built-in function of effect text (``top``, ``size``...) whose own
    code raised the error, and the frame of that code; (None, None) when none
    did.  (Built-ins that share their code are named together: ``size() or
    count()``.)  A built-in written in place as the match's own method
    (``m.seats_from(p)``) is found by that method's code."""
    from .match import Match  # (imported here: match.py imports this module)

    found: tuple[str | None, FrameType | None] = (None, None)
    while tb is not None:
        code = tb.tb_frame.f_code
        names = [name for name, spec in BUILTINS.items() if getattr(spec[0], "__code__", None) is code]
        names += [name for name, in_place in IN_PLACE_METHODS.items()
                  if getattr(Match, in_place.method).__code__ is code]
        if names:
            found = ("() or ".join(names), tb.tb_frame)
        tb = tb.tb_next
    return found


def in_rule_terms(err: Exception) -> str | None:
    """A Python error raised by a rule's expression in effect text's words,
    when it is a value of the wrong kind or a division by zero (else None)."""
    if isinstance(err, TypeError):
        return _in_rule_terms(str(err))
    if isinstance(err, ZeroDivisionError):
        return "a division or % by zero"
    return None


#: Python's message for comparing values that have no order between them
_COMPARE = re.compile(r"'(.+?)' not supported between instances of '(\w+)' and '(\w+)'")

#: Python's messages for a value of the wrong kind, and the same in effect
#: text's words: ``{gN}`` is the message's N-th group as it is (an operator,
#: a function), ``{tN}`` the kind of value whose type that group names
_TYPE_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"unsupported operand type\(s\) for (.+?): '(\w+)' and '(\w+)'"),
     "'{g1}' cannot take {t2} and {t3}"),
    (_COMPARE, "'{g1}' cannot compare {t2} with {t3}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'), "'+' cannot take {t1} and {t2}"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"),
     "{t1} has no size (size counts cards, a zone's cards or a list)"),
    (re.compile(r"'(\w+)' object is not subscriptable"), "{t1} has no entries to read with [...]"),
    (re.compile(r"'(\w+)' object is not iterable"), "{t1} is not cards or a list, to go through"),
    (re.compile(r"argument of type '(\w+)' is not iterable"),
     "'in' cannot look in {t1} (it looks in cards, a zone, a list or a text)"),
    (re.compile(r"'in <string>' requires string as left operand, not (\w+)"),
     "'in' cannot look for {t1} in a text (only for a text)"),
    (re.compile(r"bad operand type for unary (.+?): '(\w+)'"), "'{g1}' cannot take {t2}"),
    (re.compile(r"bad operand type for (\w+)\(\): '(\w+)'"), "{g1}() cannot take {t2}"),
)


def _in_rule_terms(message: str) -> str | None:
    """A TypeError's message in the words of effect text (None: not one of Python's usual ones)."""
    for pattern, said in _TYPE_ERRORS:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        groups = found.groups()
        words = {**{f"g{i}": g for i, g in enumerate(groups, 1)},
                 **{f"t{i}": value_kind(g) for i, g in enumerate(groups, 1)}}
        if pattern is _COMPARE and groups[1:] == ("Card", "Card"):
            return said.format(**words) + " (cards have no order: compare one of their properties)"
        return said.format(**words)
    return None
