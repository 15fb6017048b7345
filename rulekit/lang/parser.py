"""Parsing effect text with the lark grammar in ``grammar/effects.lark``.

The grammar is indentation-based (like Python), so the parser runs lark's
LALR parser behind an :class:`~lark.indenter.Indenter`.  LALR is chosen over
Earley because a rule file holds hundreds of effect texts and loading must
stay well under a second; the grammar is written to be conflict-free.

Syntax errors are turned into :class:`EffectSyntaxError` with the line and
column *inside the effect text*; the loader maps them to the rule file.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter


class _EffectIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


class EffectSyntaxError(Exception):
    """A syntax error in effect text, at a 1-based line/column of that text."""

    def __init__(self, message: str, line: int, column: int, expected: str = "", hint: str = ""):
        self.message = message
        self.line = line
        self.column = column
        self.expected = expected
        self.hint = hint
        super().__init__(f"{line}:{column}: {message}")


def grammar_text() -> str:
    """The effect-language grammar shipped with rulekit."""
    return resources.files("rulekit.grammar").joinpath("effects.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=2)
def _parser(start: str) -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        postlex=_EffectIndenter(),
        start=start,
        propagate_positions=True,
        maybe_placeholders=True,
    )


# Readable names for the grammar's terminals, used in "expected ..." messages.
_TERMINAL_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'",
    "COMMA": "','", "DOT": "'.'", "EQUAL": "'='", "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "ASSIGN_OP": "'=', '+=' or '-='",
    "PLACE": "'top' or 'bottom'", "$END": "end of text",
}


def _expected_text(expected: set[str]) -> str:
    names = []
    for term in sorted(expected):
        if term in _TERMINAL_NAMES:
            names.append(_TERMINAL_NAMES[term])
        elif term.isupper() and term.isalpha():
            names.append(f"'{term.lower()}'")
        else:
            names.append(term)
    unique = list(dict.fromkeys(names))
    if len(unique) > 8:
        unique = unique[:8] + ["..."]
    return ", ".join(unique)


def _hint_for(text: str, err: UnexpectedInput) -> str:
    line = text.splitlines()[err.line - 1] if 0 < err.line <= len(text.splitlines()) else ""
    stripped = line.strip()
    if stripped.startswith(("if ", "elif ", "else", "while ", "for ")) and not stripped.rstrip().endswith(":"):
        return "a block statement ends with ':' and its body is indented on the next lines"
    if "==" not in stripped and " = " in stripped and stripped.startswith(("if ", "while ")):
        return "compare with '==', assign with '='"
    if "\t" in line:
        return "indent effect text with spaces, not tabs"
    return "see the effect language reference in README.md"


def parse_effect(text: str, start: str = "script") -> Tree:
    """Parse effect text (``start="script"``) or one expression (``start="expr"``)."""
    shift = 0
    if start == "script" and not text.endswith("\n"):
        text = text + "\n"
    elif start == "expr":
        # Inside brackets the indenter ignores line breaks, so an expression
        # may span lines (YAML block scalars); column 1 shifts by one.
        text, shift = "(" + text.strip() + ")", 1
    try:
        return _parser(start).parse(text)
    except EffectSyntaxError:
        raise
    except UnexpectedInput as err:
        raise _syntax_error(text, err, shift) from None


def _syntax_error(text: str, err: UnexpectedInput, shift: int) -> EffectSyntaxError:
    e = _translate(text, err)
    if shift and e.line == 1:
        e.column = max(1, e.column - shift)
    return e


def _translate(text: str, err: UnexpectedInput) -> EffectSyntaxError:
    try:
        raise err
    except UnexpectedToken as err:
        tok = err.token
        found = "end of text" if tok.type == "$END" else (
            "end of line" if tok.type == "_NL" else repr(str(tok)))
        return EffectSyntaxError(
            f"unexpected {found}", err.line, err.column,
            _expected_text(err.expected), _hint_for(text, err))
    except UnexpectedCharacters as err:
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        return EffectSyntaxError(
            f"unexpected character {ch!r}", err.line, err.column,
            _expected_text(set(err.allowed or ())), _hint_for(text, err))
    except UnexpectedEOF as err:
        lines = text.splitlines() or [""]
        return EffectSyntaxError(
            "effect text ends too early", len(lines), len(lines[-1]) + 1,
            _expected_text(set(err.expected)), "an indented block is probably missing")
    except UnexpectedInput as err:  # pragma: no cover - other lark input errors
        return EffectSyntaxError(str(err).splitlines()[0], err.line, err.column)
