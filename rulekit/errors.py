"""Errors that teach.

Every problem with a rule file is a :class:`RuleError` that knows *where* it is
(file, line, column, all 1-based), *what* is wrong, what was *expected* and a
*hint* for fixing it.  Loading collects every error it can find before giving
up, so authors fix a file in one pass instead of one error per run; the
collection is raised as :class:`RuleFileError`.

Errors that happen while a match runs are separate: :class:`IllegalAction`
(a driver sent an action that is not legal; the match is left untouched) and
:class:`StepBudgetExceeded` (a rule file that never ends, naming the rule).
"""
from __future__ import annotations

import attrs


@attrs.frozen
class Where:
    """A position in a rule file (1-based line and column)."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file


@attrs.frozen
class RuleError:
    """One problem found in a rule file."""

    where: Where
    message: str
    expected: str = ""
    hint: str = ""

    def format(self) -> str:
        lines = [f"{self.where}: error: {self.message}"]
        if self.expected:
            lines.append(f"    expected: {self.expected}")
        if self.hint:
            lines.append(f"    hint: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


class RuleFileError(Exception):
    """A rule file could not be loaded; ``errors`` lists every problem found."""

    def __init__(self, errors: list[RuleError]):
        self.errors = sorted(errors, key=lambda e: (e.where.file, e.where.line, e.where.column))
        super().__init__(self.format())

    def format(self) -> str:
        return "\n".join(e.format() for e in self.errors)


class IllegalAction(Exception):
    """An action that is not legal now.  The match is exactly as it was before."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class StepBudgetExceeded(Exception):
    """A rule ran longer than the match's step budget: the rule file never ends."""

    def __init__(self, rule: str, where: Where | None, budget: int):
        self.rule = rule
        self.where = where
        self.budget = budget
        at = f" ({where})" if where else ""
        super().__init__(
            f"rule '{rule}'{at} ran past the step budget of {budget} steps; "
            "a loop or turn cycle in the rule file never ends (check its while-conditions "
            "and that every turn moves the game towards an end)"
        )


class RuleRuntimeError(Exception):
    """A rule did something impossible while running (e.g. a choice with no options).

    It names the rule (``"phase 'play'"``, ``"procedure 'heal'"``, ``"setup"``)
    and, once the match has filled it in, its position in the rule file, so
    the author can find it.
    """

    def __init__(self, message: str, rule: str = "", where: Where | None = None):
        self.message = message
        self.rule = rule
        self.where = where
        super().__init__(message)

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        named = f" (in {self.rule})" if self.rule else ""
        return f"{prefix}{self.message}{named}"
