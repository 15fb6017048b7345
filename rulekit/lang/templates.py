"""Prompts with placeholders: ``"Player {p}: use {what}?"``.

A placeholder is a plain parameter name in braces; ``{{`` and ``}}`` stand for
literal braces.  Nothing else is allowed: Python's ``str.format`` would also
run format specs (``{p:>1000000000}`` builds a gigabyte string) and attribute
or index lookups (``{p.__class__}`` shows the interpreter's internals), so a
rule file's text never reaches it.  A prompt is split once, at load, into
literal pieces and argument indices; filling it is a join.
"""
from __future__ import annotations

from .names import suggest


class TemplateError(Exception):
    """A placeholder that is not allowed, at ``offset`` (0-based) in the text."""

    def __init__(self, message: str, offset: int, expected: str = "", hint: str = ""):
        self.message, self.offset, self.expected, self.hint = message, offset, expected, hint
        super().__init__(message)

    def position(self, text: str) -> tuple[int, int]:
        """1-based (line, column) of the error inside ``text``."""
        line = text.count("\n", 0, self.offset) + 1
        return line, self.offset - (text.rfind("\n", 0, self.offset) + 1) + 1


def split_template(text: str, params: tuple[str, ...], event: str | None = None) -> tuple[str | int, ...]:
    """The pieces of ``text``: literal strings and, for each placeholder, the
    index of its parameter in ``params``.  Raises :class:`TemplateError` at the
    first brace that is not ``{{``, ``}}`` or ``{param}``.  With ``event``, the
    names are that event's fields (a narration), and the errors say so."""
    pieces: list[str | int] = []
    literal: list[str] = []
    i, n = 0, len(text)
    while i < n:
        j = _next_brace(text, i)
        literal.append(text[i:j])
        if j >= n:
            break
        if text.startswith("{{", j) or text.startswith("}}", j):
            literal.append(text[j])
            i = j + 2
            continue
        if text[j] == "}":
            raise TemplateError("a single '}' in the prompt", j, "'}}' for a literal '}'",
                                "write '}}' to show '}', or open the placeholder with '{'")
        close = text.find("}", j + 1)
        inner = text[j + 1:close] if close >= 0 else ""
        if close < 0 or "{" in inner:
            raise TemplateError("a '{' in the prompt is never closed", j,
                                "'{name}' with a parameter name, or '{{' for a literal '{'",
                                "write '{{' to show '{'")
        if not inner.isidentifier():    # a name, in any script the rule file's names use
            shown = inner if len(inner) <= 30 else inner[:27] + "..."
            raise TemplateError(f"the placeholder '{{{shown}}}' is not a plain parameter name", j,
                                "'{name}' naming a parameter of the choice",
                                "placeholders are filled by name only: no format specs (':'), "
                                "conversions ('!'), attributes ('.') or indices ('[')")
        if inner not in params and event is not None:
            listed = ", ".join(params) if params else "none"
            raise TemplateError(f"the placeholder '{{{inner}}}' names no field of event '{event}'", j,
                                f"one of its fields ({listed})",
                                suggest(inner, params) or "an event's fields are those its emit "
                                "statements send: emit NAME(field=EXPR, ...)")
        if inner not in params:
            listed = ", ".join(params) if params else "none"
            raise TemplateError(f"the placeholder '{{{inner}}}' names no parameter of the choice", j,
                                f"one of its params ({listed})",
                                suggest(inner, params) or
                                f"declare it with 'params: [..., {inner}]' and pass it when choosing, "
                                "or write '{{' and '}}' for literal braces")
        if literal:
            pieces.append("".join(literal))
            literal = []
        pieces.append(params.index(inner))
        i = close + 1
    if literal and "".join(literal):
        pieces.append("".join(literal))
    return tuple(pieces)


def _next_brace(text: str, start: int) -> int:
    """The index of the next '{' or '}' at or after ``start`` (len(text) if none)."""
    a, b = text.find("{", start), text.find("}", start)
    if a < 0:
        return b if b >= 0 else len(text)
    return a if b < 0 or a < b else b
