"""Safe YAML loading that remembers where every value came from.

Rule files are written by people and read by a program that must never run
anything they contain, so this loader only composes the YAML node graph with
:class:`yaml.SafeLoader` and converts it to plain data itself: nothing is
ever constructed from a tag.  Features that make files hard to read or
dangerous to load (anchors and aliases, which allow "billion laughs" alias
bombs; custom tags; duplicate keys, which YAML silently resolves to the last
one) are refused with a :class:`~rulekit.errors.RuleError` each, collected
and raised together as :class:`~rulekit.errors.RuleFileError`.

Every value keeps its 1-based position so later stages (schema checks, the
effect-language parser) can point at the exact line and column, even inside a
multi-line effect text.
"""
from __future__ import annotations

import os
import pickle
import re
import stat
import threading
from collections import OrderedDict
from sys import intern as _intern
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import attrs
import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from . import limits
from .errors import LINE_BREAK, UNSAFE_TEXT, RuleError, RuleFileError, Where, printable, scalar_span

__all__ = ["LoadedYaml", "load_yaml", "decode_rule_file", "MAX_BYTES"]

#: Rule files are small; anything larger is a mistake or an attack.
MAX_BYTES = limits.MAX_FILE_BYTES

Path = tuple
Pos = tuple[int, int]

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null")}
_SEQ_TAG = _CORE + "seq"
_MAP_TAG = _CORE + "map"
# Tags the safe resolver may give a plain scalar on its own; rule files treat
# them as text because dates, merge keys ("<<") and "=" mean nothing here.
_TEXT_TAGS = {_CORE + t for t in ("timestamp", "merge", "value")}

# An integer written with more characters than this (digits, sign, '_',
# base prefix) is over MAX_INTEGER whatever it says; it is refused before
# Python converts it, which is slow for long digit strings.
_MAX_INT_CHARS = 40


_ALIAS_HINT = (
    "write the repeated value out in full; rule files avoid anchors so every "
    "value can be read where it stands (and so they cannot hide alias bombs)"
)


@attrs.frozen
class _Scalar:
    """What :meth:`LoadedYaml.text_where` needs to know about a string scalar."""

    style: str | None  # None (plain), "'", '"', "|" or ">"
    start: Pos  # 0-based (line, column) of the node (tag/anchor included)
    end: Pos  # 0-based (line, column) just after the node


@attrs.frozen
class LoadedYaml:
    """A rule file as plain data plus the position of every value and key.

    Paths are tuples of mapping keys and list indices from the root (``()``).
    """

    data: Any
    file: str
    positions: dict[tuple, Pos] = attrs.field(factory=dict, repr=False)
    key_positions: dict[tuple, Pos] = attrs.field(factory=dict, repr=False)
    _scalars: dict[tuple, _Scalar] = attrs.field(factory=dict, repr=False, alias="scalars")
    _lines: tuple[str, ...] = attrs.field(default=(), repr=False, alias="lines")
    # per path: a block scalar's lines and indentation, worked out once; without
    # it every position in a long text re-split the whole text (quadratic)
    _blocks: dict[tuple, Any] = attrs.field(factory=dict, repr=False, init=False)

    def where(self, path: Path) -> Where:
        """Position of the value at ``path``.

        A path that does not exist (e.g. a missing key) falls back to its
        nearest existing ancestor, so an error about it still points into the
        right part of the file.
        """
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        line, column = self.positions.get(path, (0, 0))
        return Where(self.file, line, column)

    def key_where(self, path: Path) -> Where:
        """Position of the key of the mapping entry at ``path`` (else :meth:`where`)."""
        pos = self.key_positions.get(tuple(path))
        if pos is None:
            return self.where(path)
        return Where(self.file, *pos)

    def text_where(self, path: Path, line: int, column: int) -> Where:
        """File position of 1-based ``line``/``column`` inside the string at ``path``.

        The effect-language parser only sees the string; this maps its
        positions back to the file.  Exact for block scalars and single-line
        plain or quoted scalars; a close guess for multi-line plain or
        quoted scalars, whose line breaks YAML folds away.
        """
        path = tuple(path)
        info = self._scalars.get(path)
        value = self.value_at(path)
        if info is None or not isinstance(value, str):
            return self.where(path)
        line = max(line, 1)
        column = max(column, 1)
        if info.style in ("|", ">"):
            pos = self._block_position(info, value, line, column)
        elif info.start[0] == info.end[0]:
            pos = self._inline_position(info, value, column)
        else:
            pos = self._multiline_position(info, line, column)
        return Where(self.file, pos[0] + 1, pos[1] + 1)

    def value_at(self, path: Path) -> Any:
        """The value at ``path``, or None where there is none (a key or an
        index the file does not have, or a step into a scalar)."""
        return value_at(self.data, path)

    def lines(self) -> tuple[str, ...]:
        """The lines of the file, split where YAML splits them."""
        return self._lines

    def sources(self) -> dict[str, tuple[str, ...]]:
        """The lines of the file by its name: what error display shows."""
        return {self.file: self._lines}

    def remapped(self, data: Any, remap: Any) -> "LoadedYaml":
        """The same file for ``data`` whose list items moved (see
        :func:`rulekit.structure.salvage`): ``remap`` moves the paths."""
        return attrs.evolve(self, data=data, positions=remap(self.positions),
                            key_positions=remap(self.key_positions), scalars=remap(self._scalars))

    def span_at(self, where: Where) -> int:
        """How many characters the scalar or key at ``where`` takes in its
        line (0 for a mapping, list or block scalar): what an error's
        tildes underline."""
        return scalar_span(self._line(where.line - 1), where.column)

    # -- helpers for text_where (all 0-based) ---------------------------------

    def _line(self, index: int) -> str:
        return self._lines[index] if 0 <= index < len(self._lines) else ""

    def _block_position(self, info: _Scalar, value: str, line: int, column: int) -> Pos:
        """Block scalar content starts on the line after its indicator.

        The block indentation is recovered by comparing the first non-blank
        content line in the file with the same line in the value, which
        works for automatic and explicit indentation indicators alike.
        """
        first = info.start[0] + 1
        key = (info.start, len(value))
        cached = self._blocks.get(key)
        if cached is None:
            cached = self._blocks[key] = self._block_layout(first, value)
        indent, starts = cached
        if info.style == "|":
            return first + line - 1, indent + column - 1
        offset = starts[min(line - 1, len(starts) - 1)] + column - 1
        origins = self._blocks.get((key, ">"))
        if origins is None:
            origins = self._blocks[(key, ">")] = self._folded_origins(first, indent, starts[-1])
        if offset < len(origins):
            return origins[offset]
        if origins:
            row, col = origins[-1]
            return row, col + 1 + (offset - len(origins))
        return first, indent + offset

    def _block_layout(self, first: int, value: str) -> tuple[int, list[int]]:
        """The block indentation of a block scalar and the offset in ``value``
        where each of its lines starts."""
        value_lines = value.split("\n")
        indent = 0
        for k, text in enumerate(value_lines):
            if text.strip(" "):
                source = self._line(first + k)
                indent = (len(source) - len(source.lstrip(" "))) - (len(text) - len(text.lstrip(" ")))
                break
        starts, total = [], 0
        for text in value_lines:
            starts.append(total)
            total += len(text) + 1
        starts.append(total)
        return indent, starts

    def _folded_origins(self, first: int, indent: int, offset: int) -> list[Pos]:
        """Replay YAML's folding (as PyYAML's scanner does it) to find where each
        character of a ``>`` block up to ``offset`` came from in the file."""

        def blank(i: int) -> bool:
            text = self._line(i)
            return not text.strip(" ") and len(text) <= indent

        def content(i: int) -> bool:
            text = self._line(i)
            return i < len(self._lines) and not blank(i) and len(text) - len(text.lstrip(" ")) >= indent

        origins: list[Pos] = []
        i = first
        breaks: list[Pos] = []
        while i < len(self._lines) and not self._line(i).strip(" "):
            breaks.append((i, len(self._line(i))))
            i += 1
        while content(i) and len(origins) <= offset:
            origins.extend(breaks)
            text = self._line(i)
            leading_non_space = text[indent] not in " \t"
            origins.extend((i, c) for c in range(indent, len(text)))
            line_break = (i, len(text))
            i += 1
            breaks = []
            while i < len(self._lines) and blank(i):
                breaks.append((i, len(self._line(i))))
                i += 1
            if not content(i):
                break
            folds = leading_non_space and self._line(i)[indent] not in " \t"
            if not folds or not breaks:
                origins.append(line_break)  # kept as a break, or folded to a space
        return origins

    def _inline_position(self, info: _Scalar, value: str, column: int) -> Pos:
        row, start = info.start
        source = self._line(row)
        if info.style is None:
            # A single-line plain scalar is exactly the source text, ending at
            # the end mark; counting back also skips any tag or anchor.
            return row, info.end[1] - len(value) + column - 1
        quote = info.style
        opening = source.find(quote, start)
        if opening < 0:
            return row, start + column
        raw = source[opening + 1:max(info.end[1] - 1, opening + 1)]
        return row, opening + 1 + _raw_offset(raw, quote, column - 1)

    def _folded_plain_position(self, info: _Scalar, column: int) -> Pos:
        """A plain scalar over several lines is one line of text: YAML joins
        its lines with single spaces after stripping them.  Walk the source
        lines the same way to find where character ``column`` came from."""
        remaining = column - 1
        for row in range(info.start[0], info.end[0] + 1):
            source = self._line(row)
            start = info.start[1] if row == info.start[0] else len(source) - len(source.lstrip(" \t"))
            end = info.end[1] if row == info.end[0] else len(source.rstrip(" \t"))
            length = max(end - start, 0)
            if remaining < length or row == info.end[0]:
                return row, start + remaining
            remaining -= length + 1        # the joining space
        return info.start[0], info.start[1] + column - 1

    def _multiline_position(self, info: _Scalar, line: int, column: int) -> Pos:
        if info.style is None and line == 1:
            return self._folded_plain_position(info, column)
        row = info.start[0] + line - 1
        if line == 1:
            extra = 0 if info.style is None else 1
            return row, info.start[1] + extra + column - 1
        source = self._line(row)
        return row, len(source) - len(source.lstrip(" \t")) + column - 1


def value_at(data: Any, path: Path) -> Any:
    """The value at ``path`` of ``data``, or None where there is none."""
    value = data
    try:
        for part in path:
            value = value[part]
    except (KeyError, IndexError, TypeError):
        return None
    return value


def _raw_offset(raw: str, quote: str, chars: int) -> int:
    """Offset in the raw text of a one-line quoted scalar of its ``chars``-th
    character, skipping the escapes that make raw and value differ."""
    i = 0
    for _ in range(chars):
        if i >= len(raw):
            return i + (chars - _)
        if quote == "'" and raw.startswith("''", i):
            i += 2
        elif quote == '"' and raw[i] == "\\" and i + 1 < len(raw):
            code = raw[i + 1]
            i += {"x": 4, "u": 6, "U": 10}.get(code, 2)
        else:
            i += 1
    return i


if TYPE_CHECKING:  # the composer this mixin is put in front of
    from yaml import SafeLoader as _ComposerBase
else:
    _ComposerBase = object


class _Marked(Protocol):
    """A position in the text, as PyYAML's and libyaml's marks both give it."""

    line: int
    column: int


class _Refusing(_ComposerBase):
    """A loader that refuses anchors, aliases and unknown tags while composing.

    Refusing here (rather than after composing) means an alias never shares a
    node, so converting the tree cannot blow up however the aliases nest.
    """

    def __init__(self, stream: str, file: str):
        super().__init__(stream)
        self._rk_start(file)

    def _rk_start(self, file: str) -> None:
        self.rk_file = file
        self.rk_errors: list[RuleError] = []
        self.rk_seen: set[str] = set()
        self.rk_depth = 0
        #: the line of the last top-level key read at column 0, and the root's start
        #: when it is a block mapping: where a re-read may start (see _compose)
        self.rk_key_line: int | None = None
        self.rk_root: _Marked | None = None
        #: the start of the last entry read of that key's value when it is a block
        #: list, and the list's start: where a re-read may start instead (a file of
        #: cards is one key and a list hundreds of entries long)
        self.rk_entry: _Marked | None = None
        self.rk_list: _Marked | None = None

    def _rk_where(self, mark: _Marked | None) -> Where:
        return Where(self.rk_file, mark.line + 1, mark.column + 1) if mark is not None else Where(self.rk_file)

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            if "*" + event.anchor not in self.rk_seen:
                self.rk_seen.add("*" + event.anchor)
                self.rk_errors.append(RuleError(
                    self._rk_where(event.start_mark),
                    f"anchors and aliases are not allowed in rule files (alias '*{event.anchor}')",
                    hint=_ALIAS_HINT,
                ))
            return ScalarNode(_CORE + "null", "", event.start_mark, event.end_mark)
        event = self.peek_event()
        if index is None:
            if self.rk_depth == 1:
                if event.start_mark.column == 0:
                    self.rk_key_line = event.start_mark.line
                    self.rk_entry = self.rk_list = None
            elif parent is None and isinstance(event, yaml.MappingStartEvent) and not event.flow_style:
                self.rk_root = event.start_mark
        elif self.rk_depth == 2 and type(index) is int and isinstance(parent, SequenceNode) \
                and parent.flow_style is False:
            self.rk_entry, self.rk_list = event.start_mark, parent.start_mark
        if event.anchor is not None:
            if "&" + event.anchor not in self.rk_seen:
                self.rk_seen.add("&" + event.anchor)
                self.rk_errors.append(RuleError(
                    self._rk_where(event.start_mark),
                    f"anchors and aliases are not allowed in rule files (anchor '&{event.anchor}')",
                    hint=_ALIAS_HINT,
                ))
            event.anchor = None
        if event.tag is not None and event.tag != "!":
            self._rk_check_tag(event)
        if isinstance(event, yaml.ScalarEvent):
            return super().compose_node(parent, index)
        self.rk_depth += 1
        if self.rk_depth > limits.MAX_NESTING:
            raise _TooDeep(event.start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self.rk_depth -= 1

    def _rk_check_tag(self, event: yaml.ScalarEvent | yaml.CollectionStartEvent) -> None:
        if isinstance(event, yaml.ScalarEvent):
            allowed, kind = _SCALAR_TAGS, "a single value"
        elif isinstance(event, yaml.SequenceStartEvent):
            allowed, kind = {_SEQ_TAG}, "a list"
        else:
            allowed, kind = {_MAP_TAG}, "a mapping"
        if event.tag is None or event.tag in allowed:
            return
        shown = "!!" + event.tag[len(_CORE):] if event.tag.startswith(_CORE) else event.tag
        if event.tag in _SCALAR_TAGS | {_SEQ_TAG, _MAP_TAG}:
            message = f"the tag '{shown}' cannot be used on {kind}"
        else:
            message = f"the tag '{shown}' is not allowed in rule files"
        self.rk_errors.append(RuleError(
            self._rk_where(event.start_mark),
            message,
            expected="no tag, or one of !!str, !!int, !!float, !!bool, !!null",
            hint="remove the tag; rule files hold plain text, numbers, true/false, lists and mappings",
        ))
        event.tag = None
        if isinstance(event, yaml.ScalarEvent):
            # Read a refused scalar as text instead of guessing its type.
            event.implicit = (False, False)


class _Loader(_Refusing, yaml.SafeLoader):
    """PyYAML's own reader, scanner and parser: its errors are the ones reported."""


try:
    from yaml._yaml import CParser as _CParser
    _LIBYAML = True
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _LIBYAML = False

if _LIBYAML:
    class _FastLoader(_Refusing, yaml.composer.Composer, _CParser, yaml.constructor.SafeConstructor,
                      yaml.resolver.Resolver):
        """libyaml's scanner and parser under the same composer: six times as fast
        as PyYAML's own, which was half the time of loading a large game.  Its
        nodes and marks are the same (checked on every shipped game); only a
        plain scalar's style is '' rather than None.  A file it cannot read is
        read again by :class:`_Loader`, whose messages rulekit's hints expect."""

        def __init__(self, stream: str, file: str):
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self._rk_start(file)


def _explicit_tag(node: ScalarNode, text: str) -> bool:
    """Whether the author wrote a tag (``!!bool yes``) rather than YAML guessing one."""
    index = node.start_mark.index
    return text[index:index + 1] == "!"


class _Converter:
    """Turns a composed node tree into plain data, recording positions."""

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.errors: list[RuleError] = []
        self.positions: dict[tuple, Pos] = {}
        self.key_positions: dict[tuple, Pos] = {}
        self.scalars: dict[tuple, _Scalar] = {}
        self.constructor = SafeConstructor()

    def where(self, node: Node) -> Where:
        return Where(self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def convert(self, node: Node, path: tuple) -> Any:
        self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, ScalarNode):
            value = self.scalar(node)
            if isinstance(value, str):
                unsafe = UNSAFE_TEXT.search(value)
                if unsafe is not None:
                    value = self.unsafe(node, value, unsafe.group())
                self.scalars[path] = _Scalar(
                    node.style or None,       # libyaml writes '' for plain
                    (node.start_mark.line, node.start_mark.column),
                    (node.end_mark.line, node.end_mark.column),
                )
            return value
        if isinstance(node, MappingNode):
            return self.mapping(node, path)
        return [self.convert(item, path + (i,)) for i, item in enumerate(node.value)]   # a SequenceNode

    def scalar(self, node: ScalarNode) -> Any:
        if node.tag in _TEXT_TAGS or node.tag not in _SCALAR_TAGS:
            return node.value
        # YAML 1.2: only true/false are booleans.  YAML 1.1 also reads a bare
        # on/off/yes/no as one, which turns keys like "on:" into True.
        if node.tag == _CORE + "bool" and node.value.lower() not in ("true", "false") \
                and not _explicit_tag(node, self.text):
            return node.value
        if node.tag == _CORE + "int" and len(node.value) > _MAX_INT_CHARS:
            return self._too_large(node)
        try:
            value = self.constructor.construct_object(node, deep=True)
            if type(value) is int and abs(value) > limits.MAX_INTEGER:
                return self._too_large(node)
            return value
        except (ConstructorError, ValueError, TypeError, OverflowError, IndexError, KeyError):  # (PyYAML's, on '')
            kind = node.tag[len(_CORE):]
            self.errors.append(RuleError(
                self.where(node),
                f"cannot read {node.value!r} as {kind}",
                hint=f"remove the '!!{kind}' tag or fix the value",
            ))
            return node.value

    def unsafe(self, node: ScalarNode, value: str, char: str) -> str:
        """Refuse a text holding ``char``, a character of UNSAFE_TEXT (see
        there why); the text goes on with it escaped, so that nothing later
        quotes it raw."""
        where = self.where(node)
        line = LINE_BREAK.split(self.text, maxsplit=where.line)[where.line - 1]
        self.errors.append(RuleError(
            where,
            f"the text '{printable(_shown_text(value))}' holds U+{ord(char):04X}, "
            f"{'a control character' if ord(char) < 0xA0 else 'a bidirectional override'}: "
            "shown to a person it would drive their terminal or reorder the text around it",
            expected="printable text (a tab and a line break are allowed)",
            hint="remove it (in double quotes, \\t and \\n write a tab and a line break; "
                 "nothing else of that kind is needed)",
            span=scalar_span(line, where.column),
        ))
        return printable(value)

    def _too_large(self, node: ScalarNode) -> str:
        shown = node.value if len(node.value) <= 24 else node.value[:20] + "..."
        self.errors.append(RuleError(
            self.where(node),
            f"the number {shown} is larger than the limit of {limits.MAX_INTEGER:,} (MAX_INTEGER)",
            expected=f"an integer between -{limits.MAX_INTEGER:,} and {limits.MAX_INTEGER:,}",
            hint="no card game counts that far; check for a typo, or quote the value if it is text",
        ))
        return node.value

    def mapping(self, node: MappingNode, path: tuple) -> dict:
        result: dict = {}
        first_seen: dict[Any, Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                kind = "a list" if isinstance(key_node, SequenceNode) else "a mapping"
                self.errors.append(RuleError(
                    self.where(key_node),
                    f"a mapping key must be a single value, not {kind}",
                    hint="use a name as the key, e.g. 'hand:'; '?' complex keys are not allowed",
                ))
                continue
            key = self.scalar(key_node)
            unsafe = UNSAFE_TEXT.search(key) if isinstance(key, str) else None
            if unsafe is not None:
                key = self.unsafe(key_node, key, unsafe.group())
            if key in first_seen:
                earlier = first_seen[key]
                self.errors.append(RuleError(
                    self.where(key_node),
                    f"duplicate key {_show(key)}",
                    hint=(
                        f"it is already defined at line {earlier.start_mark.line + 1}; "
                        "YAML would silently keep only the last one, so merge or rename them"
                    ),
                ))
                continue
            first_seen[key] = key_node
            self.key_positions[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = self.convert(value_node, path + (key,))
        return result


def _shown_text(text: str) -> str:
    return text if len(text) <= 40 else text[:36] + "..."


def _show(key: Any) -> str:
    return f"'{key}'" if isinstance(key, str) else repr(key)


def _syntax_hint(problem: str, context: str, line_text: str) -> str:
    """A fix for the YAML syntax errors authors actually make."""
    if "'\\t'" in problem or line_text[: len(line_text) - len(line_text.lstrip(" \t"))].count("\t"):
        return "indent with spaces, not tabs (YAML does not allow tabs for indentation)"
    if "mapping values are not allowed" in problem:
        return (
            "text that contains ': ' must be quoted, e.g. prompt: \"Choose: a card\"; "
            "otherwise check the indentation of this line"
        )
    if "could not find expected ':'" in problem:
        return "each entry of a mapping needs 'key: value'; check the indentation and the quotes"
    if "expected <block end>" in problem or "expected <block end>" in context:
        return "check the indentation: entries of one mapping or list must start in the same column"
    if "cannot start any token" in problem:
        return "quote a value that starts with a special character such as @ or `"
    if "end of stream" in problem and "quoted" in context:
        return "a quoted text is not closed; add the closing quote"
    if "expected ',' or ']'" in problem or "expected ',' or '}'" in problem:
        return "a flow list [...] or mapping {...} is not closed, or an item inside it needs quotes"
    if "block scalar" in context:
        return "after '|' or '>' put the text on the following, more indented lines"
    return "check the syntax around this position"


def _syntax_error(exc: yaml.MarkedYAMLError, file: str, lines: list[str]) -> RuleError:
    mark = exc.problem_mark or exc.context_mark
    where = Where(file, mark.line + 1, mark.column + 1) if mark else Where(file)
    problem = exc.problem or "invalid YAML"
    context = exc.context or ""
    if "expected a single document" in context:
        return RuleError(
            where,
            "a rule file must hold exactly one YAML document",
            hint="remove the '---' separator and everything after it, or put the second game in its own file",
        )
    line_text = lines[mark.line] if mark and mark.line < len(lines) else ""
    message = f"invalid YAML: {problem}"
    cm = exc.context_mark
    if context and cm is not None and _context_mark_differs(exc):
        message += f" ({context} at line {cm.line + 1}, column {cm.column + 1})"
    elif context:
        message += f" ({context})"
    return RuleError(where, message, hint=_syntax_hint(problem, context, line_text))


def _context_mark_differs(exc: yaml.MarkedYAMLError) -> bool:
    """Only mention the context's position when it is not the problem's."""
    cm, pm = exc.context_mark, exc.problem_mark
    return cm is not None and (pm is None or (cm.line, cm.column) != (pm.line, pm.column))


def read_rule_file(path: str | os.PathLike[str], file: str) -> bytes:
    """A rule file's bytes, read without waiting or filling memory: only a
    plain file is opened (a pipe would wait for a writer for ever, a
    device such as /dev/zero never ends), and no more than the size limit
    is read from it (a file can grow while it is read).  Raises OSError as
    ``open`` does, or RuleFileError for what is not a rule file."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe" if stat.S_ISFIFO(info.st_mode) \
            else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "not a file"
        raise RuleFileError([RuleError(Where(file), f"cannot read the rule file: it is {kind}",
                                       expected="a rule file (a plain file of UTF-8 text)",
                                       hint="give the path of a .yaml file, or of a game's folder")])
    _check_size(info.st_size, file)
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise RuleFileError([_too_large(None, file)])
    return data


def decode_rule_file(data: bytes, file: str) -> str:
    """The text of a rule file read as bytes; RuleFileError at the first byte
    that is not UTF-8, with its line and column, so the author can find it."""
    _check_size(len(data), file)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8")
        raise RuleFileError([RuleError(
            _where_in_text(before, len(before), file),
            f"byte 0x{data[err.start]:02x} is not UTF-8 text ({err.reason})",
            expected="a rule file in UTF-8",
            hint="save the file as UTF-8, or retype the character at this position",
        )]) from None


def _check_size(size: int, file: str) -> None:
    if size > MAX_BYTES:
        raise RuleFileError([_too_large(size, file)])


def _too_large(size: int | None, file: str) -> RuleError:
    """The file is over the limit: by ``size`` bytes, or by an unknown number (None)."""
    said = f"has {size} bytes, more than" if size is not None else "has more than"
    return RuleError(
        Where(file, 1, 1),            # the whole file: its start
        f"the file {said} the limit of {MAX_BYTES} bytes (MAX_FILE_BYTES)",
        hint="rule files are small; split out data or check that this is the right file",
    )


class _TooDeep(Exception):
    """Raised while composing when lists and mappings nest past MAX_NESTING."""

    def __init__(self, mark: yaml.Mark):
        self.mark = mark


def _where_in_text(text: str, position: int, file: str) -> Where:
    before = text[:position]
    line = len(LINE_BREAK.findall(before))
    column = len(LINE_BREAK.split(before)[-1])
    return Where(file, line + 1, column + 1)


def _invalid_character(text: str, position: int, character: int | str, file: str) -> RuleError:
    return RuleError(
        _where_in_text(text, position, file),
        f"invalid character {_show_char(character)} in the file",
        hint="rule files are UTF-8 text; remove control characters (write \\t or \\n "
             "inside double quotes if you mean one)",
    )


def _show_char(character: int | str) -> str:
    code = character if isinstance(character, int) else ord(character[:1] or "\0")
    name = "a control character" if code < 0x20 or 0x7F <= code < 0xA0 else "not allowed in YAML"
    return f"U+{code:04X} ({name})"


def _nested_too_deep(file: str, mark: yaml.Mark | None) -> RuleError:
    where = Where(file, mark.line + 1, mark.column + 1) if mark is not None else Where(file)
    return RuleError(
        where,
        f"lists and mappings are nested more than {limits.MAX_NESTING} deep here (MAX_NESTING)",
        expected=f"at most {limits.MAX_NESTING} levels of nesting",
        hint="a rule file needs only a few levels; check for unclosed '[' or '{'",
    )


def _compose_fast(text: str, file: str) -> tuple[Node | None, Any, _Restart | None]:
    """The node tree by libyaml, or (None, None, restart) when it is not
    there or the file has any problem (which :func:`_compose` then reports,
    re-reading from ``restart`` when libyaml found one)."""
    bad = _NON_PRINTABLE.search(text)
    if bad is not None:      # PyYAML's reader checks the whole text before parsing, so this is its error
        raise RuleFileError([_invalid_character(text, bad.start(), bad.group(), file)])
    if not _LIBYAML:
        return None, None, None
    loader = _FastLoader(text, file)
    try:
        try:
            return loader.get_single_node(), loader, None
        finally:
            loader.dispose()
    except (yaml.YAMLError, _TooDeep, RecursionError):
        return None, None, _restart(text, loader)


class _Restart(NamedTuple):
    """Where PyYAML may start re-reading a file libyaml refused: a top-level
    key at the start of its line, read before libyaml stopped, or an entry
    of that key's block list."""

    line: int                # the key's line (0-based)
    start: int               # where that line starts in the text
    root: _Marked            # the start of the top-level mapping
    #: the entry's line, where that line starts, and the start of its list (the
    #: first entry's '-'), or None: the re-read starts at the key
    entry: tuple[int, int, _Marked] | None = None

    def text(self, text: str) -> str:
        """What PyYAML re-reads: the text from the key's line, or the key's
        line and the text from the entry's line, the lines before each left
        blank so that every position stays the same."""
        if self.entry is None:
            return "\n" * self.line + text[self.start:]
        line, start, _ = self.entry
        key = text[self.start:_line_end(text, self.start)]
        return "\n" * self.line + key + "\n" * (line - self.line) + text[start:]


def _restart(text: str, loader: _Refusing) -> _Restart | None:
    """The last top-level key libyaml read of a file it then refused, when
    reading from there is reading as from the start: the file's top level is
    a block mapping at column 0 after nothing but blank lines and comments
    (no '---', no directive), nothing was refused before it (no anchor,
    alias or tag: PyYAML's re-read would not see those), and no tab comes
    before it (where the two readers differ most)."""
    line, root = loader.rk_key_line, loader.rk_root
    if line is None or root is None or root.column != 0 or line <= root.line or loader.rk_errors \
            or loader.rk_seen:
        return None
    head = _line_start(text, root.line)                 # where the root's line starts, and the key's
    index = _line_start(text, line, head or 0, root.line)
    if head is None or index is None or "\t" in text[:index]:
        return None
    if any(row.strip() and not row.lstrip().startswith("#") for row in LINE_BREAK.split(text[:head])):
        return None
    return _Restart(line, index, root, _entry(text, line, index, loader))


def _line_start(text: str, line: int, start: int = 0, at: int = 0) -> int | None:
    """Where the 0-based ``line`` of ``text`` starts, looking from ``start``,
    the start of line ``at``; None when the text has fewer lines."""
    if line == at:
        return start
    for k, brk in enumerate(LINE_BREAK.finditer(text, start), at + 1):
        if k == line:
            return brk.end()
    return None


def _line_end(text: str, start: int) -> int:
    """Where the line of ``text`` that starts at ``start`` ends (its break)."""
    brk = LINE_BREAK.search(text, start)
    return len(text) if brk is None else brk.start()


#: a top-level key alone on its line (a comment may follow): its value starts below
_KEY_ALONE = re.compile(r"[A-Za-z_][\w-]*:[ ]*(?:#.*)?")
#: what comes before an entry of a block list on the entry's line
_DASH = re.compile(r" *- +")


def _entry(text: str, key_line: int, key_start: int, loader: _Refusing) -> tuple[int, int, _Marked] | None:
    """The last entry libyaml read of the last top-level key's block list, when
    re-reading from it is re-reading from the key: the key stands alone on its
    line and the entry starts its own line, after its '-'."""
    entry, first = loader.rk_entry, loader.rk_list
    if entry is None or first is None or entry.line <= first.line:
        return None
    if not _KEY_ALONE.fullmatch(text, key_start, _line_end(text, key_start)):
        return None
    start = _line_start(text, entry.line, key_start, key_line)
    if start is None:
        return None
    head = text[start:start + entry.column]
    if not _DASH.fullmatch(head) or head.index("-") != first.column or "\t" in text[key_start:start]:
        return None
    return entry.line, start, first


_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE


def _refused(loader: _Refusing | None) -> list[RuleError]:
    """What the loader refused before it stopped (nothing if it never started)."""
    return loader.rk_errors if loader is not None else []


def _compose(text: str, file: str, lines: list[str], restart: _Restart | None = None) -> tuple[Node | None, Any]:
    """The node tree by PyYAML's own parser, or RuleFileError with its problem.

    PyYAML's reader is pure Python, six times as slow as libyaml's: a file
    libyaml refused is re-read from the last top-level key libyaml read
    (``restart``), the lines before it left blank, so positions stay the
    same; the parser starts there as it stood there (a key of the top-level
    block mapping at column 0).  When that key's value is a block list, the
    re-read keeps the key's line and starts the list at the last entry
    libyaml read (an error near the end of a file of 150 cards:
    2 ms instead of 170).  Only the contexts "while parsing a block
    mapping" and "while parsing a block collection" then name that key or
    entry rather than the mapping's or the list's start, and are put back.
    A re-read that finds no problem reads the whole file."""
    if restart is not None:
        again: _Loader | None = None
        try:
            again = _Loader(restart.text(text), file)
            try:
                again.get_single_node()
            finally:
                again.dispose()
        except yaml.MarkedYAMLError as exc:
            cm, top = exc.context_mark, restart.root
            if cm is not None and (cm.line, cm.column) == (restart.line, 0) and \
                    exc.context == "while parsing a block mapping":
                exc.context_mark = yaml.Mark(file, 0, top.line, top.column, None, 0)
            elif cm is not None and restart.entry is not None and exc.context == "while parsing a block collection":
                line, _, first = restart.entry
                if (cm.line, cm.column) == (line, first.column):     # the list's start, seen at the entry
                    exc.context_mark = yaml.Mark(file, 0, first.line, first.column, None, 0)
            raise RuleFileError(_refused(again) + [_syntax_error(exc, file, lines)]) from None
        except (yaml.YAMLError, _TooDeep, RecursionError):
            pass
    loader: _Loader | None = None
    try:
        loader = _Loader(text, file)      # reads the text: may refuse a control character
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        raise RuleFileError(_refused(loader) + [_syntax_error(exc, file, lines)]) from None
    except yaml.reader.ReaderError as exc:
        raise RuleFileError([_invalid_character(text, exc.position, exc.character, file)]) from None
    except _TooDeep as exc:
        raise RuleFileError(_refused(loader) + [_nested_too_deep(file, exc.mark)]) from None
    except RecursionError:
        raise RuleFileError([_nested_too_deep(file, None)]) from None
    return root, loader


#: the files read last, by (name, text): what a file parses to, its data pickled
_READ: OrderedDict[tuple[str, str], tuple[bytes, LoadedYaml]] = OrderedDict()
_READ_KEPT = 64
_READ_LOCK = threading.Lock()


def load_yaml(text: str, file: str) -> LoadedYaml:
    """Load one rule file safely, keeping positions; raise RuleFileError on refusal.

    The same text read again under the same name is not parsed again: a game
    and its variants share modules, and a program that loads a game anew
    (a check after each edit, a test per rule) rereads files that have not
    changed.  The caller gets its own copy of the data, which the merging
    of modules changes in place; the positions are only ever read."""
    key = (file, text)
    with _READ_LOCK:
        kept = _READ.get(key)
        if kept is not None:
            _READ.move_to_end(key)
    if kept is None:
        loaded = _load_yaml(text, file)
        kept = (pickle.dumps(loaded.data, pickle.HIGHEST_PROTOCOL), attrs.evolve(loaded, data=None))
        with _READ_LOCK:
            _READ[key] = kept
            if len(_READ) > _READ_KEPT:
                _READ.popitem(last=False)
    data, loaded = kept
    return attrs.evolve(loaded, data=interned(pickle.loads(data)))


def interned(value: Any) -> Any:
    """``value`` (a file's data: mappings, lists, scalars) with every text
    replaced by the one shared copy Python keeps of it (``sys.intern``).
    The compiled rules' text constants are interned too
    (``rulekit.lang.codegen``), so a card's text compared with the same
    text written in effect text, or a variable looked up by name, is the
    same object on both sides: the comparison is one pointer test instead
    of comparing the characters.  (Python interns by itself only the
    constants that look like ASCII names.)"""
    kind = type(value)
    if kind is str:
        return _intern(value)
    if kind is dict:
        return {_intern(k) if type(k) is str else k: interned(v) for k, v in value.items()}
    if kind is list:
        return [interned(v) for v in value]
    return value


def _load_yaml(text: str, file: str) -> LoadedYaml:
    if len(text) > MAX_BYTES:
        _check_size(len(text), file)
    _check_size(len(text.encode("utf-8", "surrogatepass")), file)
    lines = LINE_BREAK.split(text)
    root, loader, restart = _compose_fast(text, file)
    if loader is None:
        root, loader = _compose(text, file, lines, restart)
    errors = list(loader.rk_errors)
    if root is None or (isinstance(root, ScalarNode) and root.tag == _CORE + "null" and not root.value):
        errors.append(RuleError(
            Where(file, 1, 1),
            "the file is empty",
            expected="a mapping of top-level keys",
            hint="start with e.g. 'name: My game'",
        ))
        raise RuleFileError(errors)
    converter = _Converter(file, text)
    try:
        data = converter.convert(root, ())
    except RecursionError:
        raise RuleFileError(errors + [_nested_too_deep(file, None)]) from None
    errors.extend(converter.errors)
    if not isinstance(data, dict):
        got = "a list" if isinstance(data, list) else "a single value"
        errors.append(RuleError(
            converter.where(root),
            f"a rule file must be a mapping at the top level, not {got}",
            expected="top-level keys such as 'name:', 'players:', 'cards:'",
            hint="start with e.g. 'name: My game'",
        ))
    if errors:
        raise RuleFileError(errors)
    return LoadedYaml(
        data,
        file,
        converter.positions,
        converter.key_positions,
        scalars=converter.scalars,
        lines=tuple(lines),
    )
