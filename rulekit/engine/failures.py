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
from types import TracebackType

from ..errors import RuleRuntimeError, Where
from ..lang.fn_names import is_filter
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


def rule_failure(game: Game, err: Exception) -> RuleRuntimeError | None:
    """The RuleRuntimeError for an exception raised by generated code: the
    rule and file position of the statement that failed, and the call chain
    that led there (None: the exception did not come from a rule)."""
    chain = call_chain(game, err.__traceback__)
    if not chain:
        return None
    rule, where = chain[-1]
    if isinstance(err, KeyError) and err.args and err.args[0] in game.choices:
        message = f"'{err.args[0]}' is read before anyone chose it"
    elif isinstance(err, UnboundLocalError):
        name = str(err).split("'")[1] if "'" in str(err) else str(err)
        local = re.match(r"L(?:_p\d+|\d+)?_(.+)$", name)
        message = f"'{local.group(1) if local else name}' is read before 'let' gives it a value"
    else:
        message = f"the rule failed: {err}"
    return RuleRuntimeError(message, rule, where, chain)
