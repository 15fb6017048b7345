"""Parsing effect text with the lark grammar in ``grammar/effects.lark``.

The grammar is indentation-based (like Python), so the parser runs lark's
LALR parser behind an :class:`~lark.indenter.Indenter`.  LALR is chosen over
Earley because a rule file holds hundreds of effect texts and loading must
stay well under a second; the grammar is written to be conflict-free.

Syntax errors are turned into :class:`EffectSyntaxError` with the line and
column *inside the effect text*; the loader maps them to the rule file.
"""
from __future__ import annotations

import hashlib
import io
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TypeVar

import lark
from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from .. import user_cache
from ..limits import MAX_INTEGER


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
    """The effect-language grammar of this copy of rulekit.  In a checkout
    (tests or scripts run without installing) it is ``grammar/effects.lark``
    beside the ``rulekit`` folder, and that one is read first: an editable
    install of another checkout maps the package ``rulekit.grammar`` to its
    own folder, whose grammar need not be the one this code compiles.
    Installed, it is the package ``rulekit.grammar``."""
    beside = Path(__file__).resolve().parents[2] / "grammar" / "effects.lark"
    if beside.is_file():
        return beside.read_text(encoding="utf-8")
    try:
        folder = resources.files("rulekit.grammar")
    except ModuleNotFoundError:      # pragma: no cover - neither installed nor in a checkout
        folder = beside.parent
    return folder.joinpath("effects.lark").read_text(encoding="utf-8")


#: how the parser is built (besides the grammar, the start rule and the indenter)
_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


@lru_cache(maxsize=2)
def _parser(start: str) -> Lark:
    """The LALR parser from ``start``, read back from the user's cache
    folder when an earlier process kept it there (see
    :mod:`rulekit.user_cache`), else built and kept.  The name it is kept
    under holds a digest of the grammar, the start rule, the options and
    the versions of lark and Python, so two copies of rulekit with
    different grammars each keep their own."""
    grammar = grammar_text()
    key = f"{grammar}\0{start}\0{sorted(_OPTIONS.items())}\0{lark.__version__}\0{sys.version_info[:2]}"
    family = f"effects-{start}-"        # this start rule's parsers, one per grammar
    name = f"{family}{hashlib.sha256(key.encode('utf-8')).hexdigest()[:16]}.lark"
    folder = user_cache.cache_dir()
    kept = user_cache.read(folder, name)
    if kept is not None:
        try:
            return Lark.load(io.BytesIO(kept))
        except Exception:  # noqa: BLE001 - whole (its digest matched) but not a parser this lark reads: built anew
            pass
    parser = Lark(grammar, postlex=_EffectIndenter(), start=start, **_OPTIONS)
    if folder is not None:     # (written out only where it can be kept)
        saved = io.BytesIO()
        parser.save(saved)
        user_cache.keep(folder, name, saved.getvalue())
        user_cache.prune(folder, family, name)     # the parsers of earlier grammars
    return parser


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
    if "\t" in line[:len(line) - len(line.lstrip())]:     # a tab in the indentation (counted as 8)
        return "indent effect text with spaces, not tabs"
    return "see the effect language reference, docs/language.md"


#: the type of a tree's tokens (lark's trees are generic in it)
_Leaf = TypeVar("_Leaf")


def subtrees(tree: Tree[_Leaf]) -> list[Tree[_Leaf]]:
    """Every subtree of ``tree``, itself first, each before its children.
    lark's ``iter_subtrees`` also keeps a node that two parents share from
    being visited twice (its trees may be graphs), at several times the
    cost; a tree of effect text shares no node, and loading a game walks
    every tree several times (what it calls, binds, returns...).

    The list is kept on the tree (trees are shared by the parse cache and
    never changed once parsed), so each later walk of the same tree is a
    lookup: a game's load walks its trees about ten times.  Read the list,
    never change it."""
    known: list[Tree[_Leaf]] | None = getattr(tree, "_rulekit_subtrees", None)
    if known is not None:
        return known
    out = [tree]
    for node in out:                    # the list grows as it is read
        for child in node.children:
            if isinstance(child, Tree):
                out.append(child)
    tree._rulekit_subtrees = out        # type: ignore[attr-defined]
    return out


def parse_effect(text: str, start: str = "script") -> Tree[Token]:
    """Parse effect text (``start="script"``) or one expression (``start="expr"``).

    Results are remembered by text: a game loaded again (by each test, each
    worker of a simulation, each edit of one rule) parses only the texts that
    changed.  Parsing is a third of the time of loading a large game.  The
    trees are shared, so nothing after the parser may change one."""
    if len(text) > _CACHED_CHARS:
        return _parse(text, start)
    key = (text, start)
    hit = _CACHE.get(key)
    if hit is None:
        try:
            hit = _parse(text, start)
        except EffectSyntaxError as err:
            hit = err
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))        # the oldest
        _CACHE[key] = hit
    if isinstance(hit, EffectSyntaxError):      # (no subclass of it is ever made)
        raise EffectSyntaxError(hit.message, hit.line, hit.column, hit.expected, hit.hint)
    return hit


#: How many parsed texts are remembered, and the longest text remembered
#: (a long text is rare and its tree large).
_CACHE_SIZE = 4096
_CACHED_CHARS = 10_000
_CACHE: dict[tuple[str, str], Tree[Token] | EffectSyntaxError] = {}


def _parse(text: str, start: str) -> Tree[Token]:
    shift = 0
    if start == "script" and not text.endswith("\n"):
        text = text + "\n"
    elif start == "expr":
        # Inside brackets the indenter ignores line breaks, so an expression
        # may span lines (YAML block scalars); line 1 shifts one column right,
        # which _unshift undoes on the tree.
        text, shift = "(" + text + ")", 1
    try:
        tree = _parser(start).parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(text, err, shift) from None
    except DedentError:
        line, column = _bad_dedent(text)
        raise EffectSyntaxError("this line's indentation matches no enclosing block", line, column,
                                "the indentation of a line above (a block ends by going back "
                                "to an earlier indentation)",
                                "indent each block by the same amount, e.g. two spaces") from None
    if shift:
        _unshift(tree)
    _plain_names(tree)
    _check_nesting(tree)
    return tree


def _plain_names(tree: Tree[Token]) -> None:
    """Give every node its rule's name as a plain (interned) text.  lark
    names a node by a ``Token``, whose ``==`` is written in Python: the
    loader tests node names some fifty thousand times a load of a large
    game (``node.data == "call_stmt"``), and with a plain text each test is
    a pointer comparison.  Done once, when the text is parsed (the tree is
    then cached)."""
    for node in subtrees(tree):
        node.data = sys.intern(str(node.data))


#: Deeper text is refused: Python, which runs the compiled effects, allows only
#: so many nested blocks and brackets, and no rulebook sentence needs more.
MAX_BLOCKS = 10
MAX_DEPTH = 100


def _check_nesting(tree: Tree[Token]) -> None:
    """Refuse blocks nested more than MAX_BLOCKS deep and expressions nested
    more than MAX_DEPTH deep (e.g. a sum of a thousand terms), at the place
    where the limit is passed."""
    stack = [(tree, 0, 0, tree)]
    while stack:
        node, depth, blocks, parent = stack.pop()
        if node.data == "suite":
            blocks += 1
            if blocks > MAX_BLOCKS:      # reported at the statement that opens the block
                line, column = _first_position(parent)
                raise EffectSyntaxError(f"blocks are nested more than {MAX_BLOCKS} deep", line, column,
                                        f"at most {MAX_BLOCKS} nested if/while/for blocks",
                                        "move the inner part into a procedure and call it")
        if depth > MAX_DEPTH:
            line, column = _first_position(node)
            raise EffectSyntaxError(f"the expression is nested more than {MAX_DEPTH} deep", line, column,
                                    f"at most {MAX_DEPTH} nested operations",
                                    "split it with let, or sum a list: sum(cards.value)")
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1, blocks, node))
            elif isinstance(child, Token) and child.type == "NUMBER" and len(child) >= _INT_DIGITS:
                _check_number(child)


#: A number of more digits than MAX_INTEGER has may be over it (leading zeros aside).
_INT_DIGITS = len(str(MAX_INTEGER))


def _check_number(token: Token) -> None:
    """Refuse a number literal over MAX_INTEGER (Python converts long digit
    strings slowly and refuses those of more than 4,300 digits)."""
    digits = str(token).lstrip("0")
    if len(digits) > _INT_DIGITS or int(digits) > MAX_INTEGER:
        shown = digits if len(digits) <= 24 else digits[:20] + "..."
        raise EffectSyntaxError(f"the number {shown} is larger than the limit of {MAX_INTEGER:,} "
                                "(MAX_INTEGER)", token.line or 0, token.column or 0,
                                f"a number of at most {MAX_INTEGER:,}",
                                "no card game counts that far; check for a typo")


def _first_position(node: Tree[Token]) -> tuple[int, int]:
    """The first token of ``node`` in reading order."""
    stack: list[Tree[Token] | Token] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            if item.line is not None:
                return item.line, item.column or 0
        elif isinstance(item, Tree):
            meta = item.meta
            if not getattr(meta, "empty", True):
                return meta.line, meta.column
            stack.extend(reversed(item.children))
    return 1, 1


def _unshift(tree: Tree[Token]) -> None:
    """Move every position on line 1 one column left (the added '(')."""
    seen: set[int] = set()
    for sub in tree.iter_subtrees():
        meta = sub.meta
        if not getattr(meta, "empty", True) and meta.line == 1 and id(meta) not in seen:
            seen.add(id(meta))
            meta.column -= 1
            if meta.end_line == 1:      # (the extent is what an error underlines)
                meta.end_column -= 1
        for child in sub.children:
            if isinstance(child, Token) and child.line == 1 and child.column is not None and id(child) not in seen:
                seen.add(id(child))
                child.column -= 1
                if child.end_line == 1 and child.end_column is not None:
                    child.end_column -= 1


def _bad_dedent(text: str) -> tuple[int, int]:
    """The first line that dedents to an indentation no enclosing block has."""
    levels = [0]
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while levels and indent < levels[-1]:
            levels.pop()
        if not levels or indent != levels[-1]:
            return number, indent + 1
    return 1, 1


def _syntax_error(text: str, err: UnexpectedInput, shift: int) -> EffectSyntaxError:
    e = _unclosed_bracket(text, err, shift) or _translate(text, err)
    if shift and e.line == 1:
        e.column = max(1, e.column - shift)
    return e


def _unclosed_bracket(text: str, err: UnexpectedInput, shift: int) -> EffectSyntaxError | None:
    """An error after an opening bracket that is never closed is reported at
    that bracket: the indenter joins the following lines into it, so lark's
    own position (on a later line) would mislead."""
    pos = getattr(err, "pos_in_stream", None)
    if pos is None:
        token = getattr(err, "token", None)
        pos = getattr(token, "start_pos", None)
    if pos is None:
        pos = len(text)
    stack: list[int] = []
    quote = None
    for i, ch in enumerate(text[:pos]):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            while i < pos and text[i] != "\n":
                break
        elif ch in "([":
            stack.append(i)
        elif ch in ")]" and stack:
            stack.pop()
    if shift and stack and stack[0] == 0:
        stack.pop(0)        # the bracket added around a lone expression
    if not stack:
        return None
    at = stack[-1]
    if "\n" not in text[at:pos]:
        return None         # an error on the bracket's own line: lark's message is clear
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    closer = ")" if text[at] == "(" else "]"
    return EffectSyntaxError(f"'{text[at]}' is never closed", line, column,
                             f"'{closer}' before the end of the line",
                             "close the bracket on the same line, or break the line inside it")


def _translate(text: str, err: UnexpectedInput) -> EffectSyntaxError:
    try:
        raise err
    except UnexpectedToken as err:
        tok = err.token
        if tok.type == "_INDENT":       # (lark puts it at the end of the line above)
            return EffectSyntaxError(
                "this line is indented more than the line above, which opens no block",
                tok.end_line or err.line + 1, len(str(tok)) + 1,
                "the indentation of the line above (only a line ending in ':' opens an indented block)",
                "indent it as the line above; or, if the line above begins a block (if, else, while, "
                "for...), end that line with ':'")
        found = "end of text" if tok.type == "$END" else (
            "end of line" if tok.type == "_NL" else repr(str(tok)))
        return EffectSyntaxError(
            f"unexpected {found}", err.line, err.column,
            _expected_text(err.expected), _hint_for(text, err))
    except UnexpectedCharacters as err:
        pos = err.pos_in_stream
        ch = text[pos] if pos is not None and pos < len(text) else "?"
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
