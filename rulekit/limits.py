"""The limits a rule file must keep, in one place.

A rule file is data written by people and sometimes by no friend: a loader
that builds whatever a file asks for can be made to take all memory (a
billion seats, a hundred billion cards) or all time (a text that is slow to
compile).  Each limit below is far above what any card game needs, and a
file over one is refused with a :class:`~rulekit.errors.RuleFileError` that
names the limit and its value.  Within the limits, loading takes time and
memory in proportion to the file's size.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator

from .errors import RuleError

if TYPE_CHECKING:  # pragma: no cover
    from .composed import RuleSource

MAX_FILE_BYTES = 512 * 1024
"""Bytes in one rule file (512 KiB).  The largest game shipped (every
card and general) has under 80 KB; a file several times that is a mistake
or an attack, and the time of every later stage grows with the file."""

MAX_TEXT_CHARS = 50_000
"""Characters in one text of the file (an effect, an expression, a prompt, a
name).  The longest effect of a shipped game has about 3,000; one effect
is compiled into one Python function, and a huge one is a mistake."""

MAX_ALL_TEXT_CHARS = 200_000
"""Characters in all the texts of a file together.  The largest game shipped has about 39,000.
Parsing and compiling effect text costs time and memory per token (about
0.5 ms and 10 KB per statement), so this bounds the time a file can take
to load to a few seconds."""

MAX_TEXT_LINES = 10_000
"""Lines in all the texts of a file together: about the number of statements
(the largest game shipped has about 2,300).  Together with MAX_ALL_TEXT_CHARS it bounds the work
of the effect-language parser and of the Python compiler."""

MAX_MODULES = 256
"""Files one game reads (itself and every module it includes or extends).
A game of many small modules (one file per skill) has a few hundred; more is
a folder included by mistake, or a file written to make the loader read
without end."""

MAX_NESTING = 50
"""How deep lists and mappings may nest in the YAML of a rule file, and a
list a rule builds while a match runs (lists and events inside lists).  A
rule file needs four or five levels; thousands of nested brackets would
exhaust the stack of the parser and the checks that walk the data, and of
whatever writes a view of the match out as JSON."""

MAX_PLAYERS = 100
"""Seats in a match (``players: max``).  A match keeps per-seat variables
and zones from the start, so a billion seats would take all memory while
loading; no card game seats more than a few dozen."""

MAX_CARDS = 10_000
"""Cards in the box, after ``count`` and ``each`` are multiplied out.  Every
card is an object with its properties and a place in the match, so the
count decides the memory of every match; the largest real decks have a few
hundred cards."""

MAX_TABLE_KEYS = 1_000
"""Keys in one table.  Tables hold per-player-count values and small lookups;
each key is checked and compiled into the module."""

MAX_INTEGER = 10 ** 15
"""The largest integer (in size) written in a rule file, in YAML or in effect
text.  Python converts longer digit strings slowly (and refuses those of
more than 4,300 digits); no card game counts past a few thousand."""

MAX_BUILT_ITEMS = 100_000
"""The most elements of a list, or characters of a text, that effect text
builds while a match runs.  ``l = l + l`` in a loop doubles the list at
every step: within the step budget it would fill any memory.  (A product, a
sum and a difference of numbers are held to MAX_INTEGER in size for the same
reason: ``v = v * v`` squares, ``v = v + v`` doubles.)  Of a list, the
values of the lists and events inside it and a text's characters count too
(see :func:`written_size`): ``l = [l, l]`` doubles them at every step while
memory holds only two pointers."""

MAX_OPTIONS = 100_000
"""The most sets of cards one option of a choice may offer.  An option that
picks several cards offers every set of them (``cards: 1..20`` from forty
cards is a million million sets), worked out before anyone answers; a real
choice offers a few hundred at most.  Past it the choice fails, naming the
sets it would make: pick the cards one at a time instead."""

MAX_SHOWN_VALUES = 10_000_000
"""The most values a view of a match, or its log, writes out: variables,
card states and the fields of logged events, counting the values inside
lists and a text's characters.  Each value a rule builds is held to
MAX_BUILT_ITEMS, but a rule may store one such list on ten thousand cards,
or emit it at every step, sharing it in memory while writing it out would
take gigabytes.  A long real match writes out a few hundred thousand."""

FREE_CALLS = 1_000
"""The most calls of procedures a call of one may make (counting those its
callees make) and still count no step.  The step budget stops a rule that
never ends, but an expression counts no step of its own: a procedure calling
itself twice (``f(n - 1) + f(n - 1)``), or a chain of procedures each calling
the next twice, would make 2^n calls in one.  So a call of a procedure on a
cycle of calls counts a step, and so does a call of one that makes more
calls than this (see :mod:`rulekit.lang.work`); the procedures of a real
game make a few hundred at most."""

ELEMENTS_PER_STEP = 64
"""The elements of a list a filter, a built-in that goes through one
(``sum``, ``shuffled``...) or a read of a name of every element
(``l.value``) may go through for one step.  A filter of the
players, or of a zone in a game of at most 512 cards, tests as many as the
game lets them hold; one of a longer zone or of a list a rule built (up to
MAX_BUILT_ITEMS) counts a step for every this many, and a filter whose test
goes through a list itself (filters in filters multiply their lengths) a
step for each element.  (``x in l``
still goes through a list once within a step, at C speed.)"""


class TooLarge(Exception):
    """What :func:`written_size` raises: ``deep`` when a value nests past
    the depth it was given, else when the values are past the count."""

    def __init__(self, deep: bool):
        super().__init__("nested too deep" if deep else "too many values")
        self.deep = deep


def written_size(values: Iterable[Any], left: int, deepest: int | None = None) -> int:
    """``left`` less what ``values`` hold as they are written out: one for
    each value (lists and events too), a text's characters, and the same of
    what lists and events hold; :class:`TooLarge` below zero, or (given
    ``deepest``) past that many levels of lists and events.  A list held
    twice counts twice, as showing it writes it twice; the count stops at
    the limit, so it costs at most that many steps however lists are shared.

    It goes level by level (the values, then what the lists among them
    hold...), each level's types and texts taken in C: a view asks this of
    every variable at every step, and nearly all of them are numbers."""
    level = values if type(values) is list else list(values)
    depth = 1
    while level:
        left -= len(level)
        if left < 0:
            raise TooLarge(False)
        kinds = set(map(type, level))
        if str in kinds:
            left -= sum([len(v) for v in level if type(v) is str])
            if left < 0:
                raise TooLarge(False)
        if list not in kinds and tuple not in kinds and dict not in kinds:
            return left
        if deepest is not None and depth > deepest:
            raise TooLarge(True)
        inner: list[Any] = []
        for v in level:
            t = type(v)
            if t is list or t is tuple or t is dict:
                if len(inner) + len(v) > left:   # (before taking it in: the count stops at the limit)
                    raise TooLarge(False)
                inner.extend(v.values() if t is dict else v)
        level = inner                            # (counted as the next level)
        depth += 1
    return left


def check_limits(loaded: RuleSource) -> list[RuleError]:
    """Every limit the loaded file passes, before anything is built from it.

    Runs before the schema check, so it reads the data defensively: a value of
    the wrong type is left for the schema check to report."""
    data = loaded.data if isinstance(loaded.data, dict) else {}
    errors = _players(loaded, data.get("players"))
    errors += _cards(loaded, data.get("cards"))
    errors += _tables(loaded, data.get("tables"))
    errors += _texts(loaded)
    return errors


def _int(value: Any) -> bool:
    return type(value) is int


def _players(loaded: RuleSource, players: Any) -> list[RuleError]:
    if not isinstance(players, dict):
        return []
    return [RuleError(loaded.where(("players", key)),
                      f"'players' {key}: {players[key]} is more than the limit of {MAX_PLAYERS} "
                      "players (MAX_PLAYERS)",
                      expected=f"at most {MAX_PLAYERS}",
                      hint="every seat gets its own variables and zones when a match starts")
            for key in ("min", "max") if _int(players.get(key)) and players[key] > MAX_PLAYERS]


def _cards(loaded: RuleSource, entries: Any) -> list[RuleError]:
    """The cards the entries make, multiplied out without making them."""
    if not isinstance(entries, list):
        return []
    total = 0
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        count = entry.get("count", 1)
        made = count if _int(count) and count > 0 else 1
        each = entry.get("each")
        if isinstance(each, dict):
            for values in each.values():
                if isinstance(values, list):
                    made *= len(values)
        total += made
        if total > MAX_CARDS:
            path = ("cards", i, "count") if made == count else ("cards", i)
            return [RuleError(loaded.where(path),
                              f"the cards add up to more than the limit of {MAX_CARDS:,} cards "
                              f"(MAX_CARDS) at entry {i + 1}, which makes {made:,}",
                              expected=f"at most {MAX_CARDS:,} cards in all",
                              hint="check 'count' and the lists under 'each': every combination "
                                   "of 'each' values is one card")]
    return []


def _tables(loaded: RuleSource, tables: Any) -> list[RuleError]:
    if not isinstance(tables, dict):
        return []
    return [RuleError(loaded.where(("tables", name)),
                      f"table '{name}' has {len(table):,} keys, more than the limit of "
                      f"{MAX_TABLE_KEYS:,} (MAX_TABLE_KEYS)",
                      expected=f"at most {MAX_TABLE_KEYS:,} keys in one table",
                      hint="a table holds a few values per player count or card; compute the rest "
                           "in effect text")
            for name, table in tables.items() if isinstance(table, dict) and len(table) > MAX_TABLE_KEYS]


def _strings(data: Any) -> Iterator[tuple[tuple, str]]:
    """(path, text) of every string value, depth first (iterative: no recursion)."""
    stack: list[tuple[tuple, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            yield path, value
        elif isinstance(value, dict):
            stack.extend((path + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in enumerate(value))


def _texts(loaded: RuleSource) -> list[RuleError]:
    errors = []
    chars = lines = 0
    for path, text in _strings(loaded.data):
        if len(text) > MAX_TEXT_CHARS:
            errors.append(RuleError(loaded.where(path),
                                    f"this text has {len(text):,} characters, more than the limit of "
                                    f"{MAX_TEXT_CHARS:,} (MAX_TEXT_CHARS)",
                                    expected=f"at most {MAX_TEXT_CHARS:,} characters in one text",
                                    hint="split long effect text into procedures"))
        chars += len(text)
        lines += text.count("\n") + 1
    for found, limit, name, unit, largest in ((chars, MAX_ALL_TEXT_CHARS, "MAX_ALL_TEXT_CHARS",
                                                "characters", "40,000"),
                                               (lines, MAX_TEXT_LINES, "MAX_TEXT_LINES", "lines", "2,300")):
        if found > limit:
            errors.append(RuleError(loaded.where(()),
                                    f"the texts of this file have {found:,} {unit} in all, more than "
                                    f"the limit of {limit:,} ({name})",
                                    expected=f"at most {limit:,} {unit} of text",
                                    hint=f"the largest shipped game has about {largest}; check for "
                                         "generated or repeated text"))
    return errors
