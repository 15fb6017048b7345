"""The names in a game's generated module: the one place they are made.

Why names matter: a traceback (``RULEKIT_DEBUG=1``), a profile, a debugger
and ``rulekit show-code`` all show the generated functions by name, so a
function is named after the rule it was written from (``proc_draw``,
``trig_flight_2``, a name of any script as written), not numbered.  The compiler, the loader and
``show-code`` all ask this module, so the names are one contract:

====================  ==========================================================
``proc_P``            procedure P
``opt_C_O``           the effect of option O of choice C
``choice_C``          choice C's enumerator: its Decision with every legal action
``none_C``            choice C's ``if_none``
``heur_C``            the heuristic of choice C
``scores_C``          ... of every option of a decision at once
``trig_S_I``          trigger #I (S: the skill that holds it, else its event)
``when_S_I``          that trigger's ``when``
``turn``              the turn: every phase's text, in one function (a phase
                      is the lines of ``turn`` its text was written to)
``setup``, ``first``  ``setup`` and ``turn: first``
``limit_Z``           the limit of zone Z
``shown_V``           ``shown_when`` of player variable V
``display_D``, ``public_P``, ``stat_S``, ``pstat_S``   those sections' entries
``where_F_K``         the K-th filter of function F, written out as a function
====================  ==========================================================

and the module's constants: ``act_O`` / ``acts_O`` / ``memo_O`` (the
actions of option O), ``prop_P`` / ``sum_P`` (card property P by card id),
``tbl_T`` (table T), ``at_L_C`` (a position in the rule file),
``val_F`` (what function F returns), ``TB<n>`` / ``TBS<n>`` / ``SP_TB<n>`` (a test of
card properties by card id, and the test), ``SPL<n>`` (a pile dealt into
several).

A name is a Python identifier made of the rule's own name: letters of any
script stay (Python reads identifiers in NFKC form, so names are written in
it), anything else becomes ``_``.  The same file gives the same names on
every load (names are given in the file's order); two rules whose names
become alike get a suffix (``proc_a_2``).  Every name starts with one of
the prefixes above and an underscore, so none is a Python keyword, a helper
of the namespace (those start with ``_``) or a local of the generated code
(``m``, ``out``, ``L_...``).
"""
from __future__ import annotations

import keyword
import re
import unicodedata
from typing import Iterable

#: kind of generated function -> prefix of its name
PREFIXES = {
    "procedure": "proc", "option": "opt", "choice": "choice", "if_none": "none", "heuristic": "heur",
    "scores": "scores", "trigger": "trig", "when": "when", "turn": "turn", "setup": "setup", "first": "first",
    "limit": "limit", "shown": "shown", "display": "display", "public": "public", "stat": "stat",
    "player_stat": "pstat", "where": "where",
    # constants of the module
    "action": "act", "card_actions": "acts", "memo": "memo", "prop": "prop", "sum": "sum",
    "table": "tbl", "at": "at", "value": "val",
}

#: tables of a test of card properties by card id (``TB0[L_it.id]``), their tests, dealt piles
TEST_TABLE, TEST_FUNCTION, SPLIT_TABLE = "TB", "SP_", "SPL"


def test_table(n: int) -> str:
    return f"{TEST_TABLE}{n}"


def test_set(table: str) -> str:
    """The set of the cards that pass the test of ``table`` (``TBS<n>``),
    None when it fails on a card: "does any of these pass?" in one call."""
    return f"{TEST_TABLE}S{table[len(TEST_TABLE):]}"


def split_table(n: int) -> str:
    return f"{SPLIT_TABLE}{n}"


def identifier(text: object) -> str:
    """``text`` as a piece of a Python identifier: letters and digits of any
    script (NFKC, as Python reads them) kept, any other run of characters one ``_``."""
    text = unicodedata.normalize("NFKC", str(text))
    out = "".join(ch if (ch.isalnum() or ch == "_") and ("a" + ch).isidentifier() else "_" for ch in text)
    return re.sub("_+", "_", out).strip("_") or "_"


def _valid(name: str) -> bool:
    return (name.isidentifier() and not keyword.iskeyword(name)
            and unicodedata.normalize("NFKC", name) == name)


class FunctionNames:
    """The names of one generated module.  ``name(kind, *key)`` is the name
    of the function (or constant) of that kind for that key, the same for
    the same key; ``fresh(kind, *key)`` is always a new one.  ``rules``
    keeps, for each name, the kind and key it was made for."""

    def __init__(self, reserved: Iterable[str] = ()):
        self._taken = set(reserved)
        self._given: dict[tuple[str, tuple[object, ...]], str] = {}
        self.rules: dict[str, tuple[str, tuple[object, ...]]] = {}

    def name(self, kind: str, *key: object) -> str:
        given = self._given.get((kind, key))
        if given is None:
            given = self._given[(kind, key)] = self.fresh(kind, *key)
        return given

    def fresh(self, kind: str, *key: object) -> str:
        base = "_".join([PREFIXES[kind], *map(identifier, key)])
        if not _valid(base):      # a join that reads differently in NFKC: spell it in ASCII
            base = "_".join([PREFIXES[kind], *(identifier(str(k).encode("ascii", "backslashreplace")
                                                          .decode()) for k in key)])
        name, n = base, 1
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._taken.add(name)
        self.rules[name] = (kind, key)
        return name


def is_filter(name: str) -> bool:
    """Is ``name`` a filter written out as a function (``where_...``)?"""
    return name.startswith(PREFIXES["where"] + "_")
