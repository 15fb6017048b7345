"""Errors that teach.

Every problem with a rule file is a :class:`RuleError` that knows *where* it is
(file, line, column, all 1-based), *what* is wrong, what was *expected* and a
*hint* for fixing it.  Loading collects every error it can find before giving
up, so authors fix a file in one pass instead of one error per run; the
collection is raised as :class:`RuleFileError`.

An error also carries the text of the line it points into, so it is shown
as compilers show theirs: the line, and a caret under the column (``^~~~``
under a known span).  The caret is placed by display width (a CJK character
takes two terminal columns, a tab runs to the next multiple of 8), while
column numbers stay 1-based character columns.

Errors that happen while a match runs are separate: :class:`IllegalAction`
(a driver sent an action that is not legal; the match is left untouched) and
:class:`StepBudgetExceeded` (a rule file that never ends, naming the rule).
"""
from __future__ import annotations

import re
import unicodedata
from typing import Mapping, TypeAlias

import attrs

#: The line breaks YAML itself recognises, so line numbers match the reader's.
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")

#: Python's names of the types of effect text's values, as effect text speaks of them
VALUE_KINDS = {"int": "a number", "float": "a number", "bool": "true or false", "str": "a text",
               "Card": "a card", "list": "a list", "tuple": "a list", "NoneType": "none", "Zone": "a zone",
               "dict": "an event or a table", "Chosen": "a chosen answer"}


def value_kind(type_name: str) -> str:
    """What a value of the Python type ``type_name`` is, in a rule file's words."""
    return VALUE_KINDS.get(type_name, f"a {type_name}")


#: Characters a rule file's text may not hold, however it writes them (a
#: double-quoted escape such as "\e" or "\x9b" makes one): control characters
#: other than tab and line break, and the bidirectional overrides and isolates.
#: Shown to a person — a card's name, a prompt, an error quoting the text —
#: they would drive the terminal (an escape sequence clears it, moves the
#: cursor, sets the window's title) or reorder what is read around them.
UNSAFE_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with each of UNSAFE_TEXT's characters written as its escape
    (``\\x1b``, ``\\u202e``): what an error message may show of a rule file."""
    if UNSAFE_TEXT.search(text) is None:
        return text
    return UNSAFE_TEXT.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


#: A shown source line longer than this (in terminal columns) is cut to a
#: window around the caret: a rule file may hold one enormous line.
SHOWN_WIDTH = 100
_TAB = 8


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
    """One problem found in a rule file.

    ``span`` is how many characters from the column the problem covers (0:
    unknown, shown as a lone caret); ``source`` is the text of the line,
    filled in by the loader (see :func:`with_sources`).
    """

    where: Where
    message: str
    expected: str = ""
    hint: str = ""
    span: int = attrs.field(default=0, eq=False)
    source: str | None = attrs.field(default=None, eq=False)

    def format(self) -> str:
        """The error as compilers show theirs; what it quotes of the file is
        shown printable (see :func:`printable`), whatever the file holds."""
        lines = [f"{printable(str(self.where))}: error: {printable(self.message)}"]
        if self.source is not None and self.where.line:
            lines.extend(show_source(self.source, self.where.line, self.where.column, self.span))
        if self.expected:
            lines.append(f"    expected: {printable(self.expected)}")
        if self.hint:
            lines.append(f"    hint: {printable(self.hint)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


# ---- showing the source line ------------------------------------------------------


def char_width(ch: str) -> int:
    """Terminal columns one character takes (tabs are handled by the caller)."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _cells(text: str) -> list[tuple[str, int]]:
    """Each character as (what is shown, its width): tabs expanded to the next
    tab stop, control characters shown as '?' (a rule file must not be able to
    drive the terminal through an error message)."""
    out, col = [], 0
    for ch in text:
        if ch == "\t":
            shown = " " * (_TAB - col % _TAB)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            shown = "?"
        else:
            shown = ch
        width = len(shown) if ch == "\t" else char_width(shown)
        out.append((shown, width))
        col += width
    return out


def show_source(text: str, line: int, column: int, span: int = 0) -> list[str]:
    """The two lines under an error's header: ``text`` after a gutter with the
    line number, then a caret under 1-based character ``column`` (``^~~~``
    across ``span`` characters).  A column past the end points just after the
    last character (e.g. "unexpected end of line")."""
    cells = _cells(text)
    start = max(0, min(column - 1, len(cells)))
    end = min(len(cells), start + max(min(span, SHOWN_WIDTH // 2), 1))   # a huge span: its start
    lo, hi, cut_left, cut_right = _window(cells, start, end)
    before = sum(w for _, w in cells[lo:start]) + (3 if cut_left else 0)
    marked = max(1, sum(w for _, w in cells[start:end]))
    shown = ("..." if cut_left else "") + "".join(s for s, _ in cells[lo:hi]) + ("..." if cut_right else "")
    gutter = f"{line:>5} | "
    return [gutter + shown.rstrip(), " " * (len(gutter) - 2) + "| " + " " * before + "^" + "~" * (marked - 1)]


def _window(cells: list, start: int, end: int) -> tuple[int, int, bool, bool]:
    """The characters shown of a long line: up to SHOWN_WIDTH columns around
    the marked ones, so that the caret is always on screen."""
    total = sum(w for _, w in cells)
    if total <= SHOWN_WIDTH:
        return 0, len(cells), False, False
    lo, width = start, 0
    while lo > 0 and width + cells[lo - 1][1] <= SHOWN_WIDTH // 3:
        lo -= 1
        width += cells[lo][1]
    hi = lo
    width = 0
    while hi < len(cells) and (hi < end or width + cells[hi][1] <= SHOWN_WIDTH):
        width += cells[hi][1]
        hi += 1
    return lo, hi, lo > 0, hi < len(cells)


_PLAIN_END = re.compile(r"[,\[\]{}]|:(?= |$)| #")


def scalar_span(line: str, column: int) -> int:
    """How many characters the YAML scalar or key at 1-based ``column`` of
    ``line`` takes: a quoted one to its closing quote, a plain one to the
    end of its flow item, key or line (0 where a mapping, list or block
    scalar starts: those are shown with a lone caret)."""
    start = column - 1
    if not 0 <= start < len(line) or line[start] in "{[|>" or line.startswith("- ", start):
        return 0
    quote = line[start]
    if quote in "'\"":
        i = start + 1
        while i < len(line):
            if line[i] == "\\" and quote == '"':
                i += 2
                continue
            if line[i] == quote:
                if quote == "'" and line.startswith("''", i):
                    i += 2
                    continue
                return i + 1 - start
            i += 1
        return len(line) - start
    end = _PLAIN_END.search(line, start)
    text = line[start:end.start() if end else len(line)]
    return len(text.rstrip())


def source_lines(text: str) -> list[str]:
    """The lines of a rule file, split where YAML splits them."""
    return LINE_BREAK.split(text)


Lines: TypeAlias = list[str] | tuple[str, ...]


def with_sources(errors: list[RuleError], lines: Lines | Mapping[str, Lines]) -> list[RuleError]:
    """The errors with the text of the line each points into.  ``lines`` are
    those of the one file every error is in, or the lines of each file by
    name (a game put together from several files)."""
    out = []
    for e in errors:
        text = lines if isinstance(lines, (list, tuple)) else lines.get(e.where.file, ())
        if e.source is None and 1 <= e.where.line <= len(text):
            e = attrs.evolve(e, source=text[e.where.line - 1])
        out.append(e)
    return out


class RuleFileError(Exception):
    """A rule file could not be loaded; ``errors`` lists every problem found,
    in file order (each once)."""

    def __init__(self, errors: list[RuleError], lines: Lines | Mapping[str, Lines] | None = None):
        if lines is not None:
            errors = with_sources(errors, lines)
        unique = list(dict.fromkeys(errors))
        self.errors = sorted(unique, key=lambda e: (e.where.file, e.where.line, e.where.column))
        super().__init__(self.format())

    def format(self) -> str:
        return "\n".join(e.format() for e in self.errors)


class IllegalAction(Exception):
    """An action that is not legal now.  The match is exactly as it was before."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class StepBudgetExceeded(Exception):
    """A rule ran longer than the match's step budget: the rule file never ends.

    ``rule`` names the rule as rule errors do (``"phase 'play'"``,
    ``"procedure 'heal'"``, ``"setup"``), and so does the message."""

    def __init__(self, rule: str, where: Where | None, budget: int):
        self.rule = rule
        self.where = where
        self.budget = budget
        at = f" ({where})" if where else ""
        super().__init__(
            f"{rule}{at} ran past the step budget of {budget} steps; "
            "a loop or turn cycle in the rule file never ends, or its rules do more than the "
            "budget allows (check its while-conditions, that every turn moves the game "
            "towards an end, procedures that call themselves and filters of long lists)"
        )


class RuleRuntimeError(Exception):
    """A rule did something impossible while running (e.g. a choice with no options).

    It names the rule (``"phase 'play'"``, ``"procedure 'heal'"``, ``"setup"``)
    and, once the match has filled it in, its position in the rule file, so
    the author can find it.  ``chain`` is how the match got there: the rules
    that were running, outermost first (a phase, the trigger its event
    fired, the procedure that trigger called...), each with the position of
    the statement it was at, ``((rule, Where or None), ...)``.  A rule that
    failed on a Python error (a division by zero, say) keeps that error as
    its ``__cause__``, for those debugging a program that uses rulekit.
    """

    def __init__(self, message: str, rule: str = "", where: Where | None = None, chain: tuple = ()):
        self.message = message
        self.rule = rule
        self.where = where
        self.chain = chain
        super().__init__(message)

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        named = f" (in {self.rule})" if self.rule else ""
        return f"{prefix}{self.message}{named}" + format_chain(self.chain)


#: the steps of a long call chain shown at each end (the middle is counted, not listed)
CHAIN_ENDS = 10


def format_chain(chain: tuple) -> str:
    """The lines that show a call chain of more than one rule (else nothing):
    a step repeated in a row (a procedure calling itself) once, with how
    many times, and of a long chain its first and last CHAIN_ENDS lines."""
    if len(chain) < 2:
        return ""
    runs: list[list] = []
    for step in chain:
        if runs and runs[-1][0] == step:
            runs[-1][1] += 1
        else:
            runs.append([step, 1])
    width = max(len(rule) for rule, _ in chain)
    steps = [f"      {rule:<{width}}  {where if where is not None else '(position unknown)'}"
             + (f"  ({times} times in a row)" if times > 1 else "")
             for (rule, where), times in runs]
    if len(steps) > 2 * CHAIN_ENDS + 1:
        left_out = len(steps) - 2 * CHAIN_ENDS
        steps[CHAIN_ENDS:-CHAIN_ENDS] = [f"      ... {left_out} more steps ..."]
    return "\n    call chain, outermost first:\n" + "\n".join(steps)
