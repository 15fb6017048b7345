"""Reading the ``one_of:`` of a variable's spec: the names it may hold.

A match or player variable holding text (a role, a faction) or a list of
names (the skills a player has) may say which names those are::

    player_vars:
      skills: {initial: [], one_of: skill}
      role: {initial: "", visibility: owner, one_of: role}

where ``skill`` and ``role`` are entries of the file's ``names:`` section.
A ``display:`` or ``public:`` entry may say the same of the value it shows,
in its long form ``{value: EXPR, one_of: SET}``; or ``{value: EXPR,
number: true}``: a number, or no number (none, or a text such as "-"
shown in its place).  A player or match variable holding a list of cards
may say ``holds: cards``: what it holds is cards, whose count is what a
seat may always be told (the cards themselves may lie where it may not
look).
A zone may say the same of the cards it holds (``weapon: {per_player: true,
one_of: weapons}``): the names of its cards (see :func:`zone_sets`); that
one is enforced, as the engine refuses any other card there.
For a variable it is a declaration only (the rules run the same): it tells a reader, and
the learning environment, which values to expect, so an observation encodes
the variable over its own few names instead of every word of the game
(:mod:`rulekit.rl.observation`).  A declared text variable holds one of the
names or the empty text (no name yet); a list, names of the set.  The
loader checks the entry exists and that a literal starting value is one of
its names; what play writes is checked by the conformance tests.
"""
from __future__ import annotations

from typing import Any, Callable

from .lang.names import suggest

_KIND = {"vars": "variable", "player_vars": "player variable", "display": "display value",
         "public": "public value"}

#: (section, variable) -> the names it may hold, in the order the entry gives them
VarSets = dict[tuple[str, str], tuple[str, ...]]
#: (section, name) -> "number" (a display or public value: a number or none) or "cards" (a variable)
VarKinds = dict[tuple[str, str], str]


def shown_text(spec: Any) -> Any:
    """A ``display:`` or ``public:`` entry's expression, in either form."""
    return spec.get("value") if isinstance(spec, dict) else spec


def var_kinds(data: dict) -> VarKinds:
    """The values declared ``number: true`` (display, public) and the
    variables declared ``holds: cards``."""
    out: VarKinds = {}
    for section in ("display", "public"):
        for name, spec in data.get(section, {}).items():
            if isinstance(spec, dict) and spec.get("number"):
                out[(section, name)] = "number"
    for section in ("vars", "player_vars"):
        for name, spec in data.get(section, {}).items():
            if isinstance(spec, dict) and spec.get("holds") == "cards":
                out[(section, name)] = "cards"
    return out


def var_sets(data: dict, name_sets: dict[str, dict | None], err: Callable[..., None],
             lost: Any = None) -> VarSets:
    """The names entry of every variable declared ``one_of: SET``, read from
    ``vars:``, ``player_vars:``, ``display:`` and ``public:`` (an entry whose
    names are not all known, as in a file with parts set aside, is left out)."""
    out: VarSets = {}
    for section in ("vars", "player_vars", "display", "public"):
        for name, spec in data.get(section, {}).items():
            if not isinstance(spec, dict) or "one_of" not in spec:
                continue
            set_name = spec["one_of"]
            if not known_set((section, name, "one_of"), set_name, name_sets, err, lost):
                continue
            names = name_sets[set_name]
            if names is None:
                continue
            if section in ("vars", "player_vars"):
                _check_initial(section, name, spec.get("initial"), set_name, names, err)
            out[(section, name)] = tuple(names)
    return out


def zone_sets(zones: dict, name_sets: dict[str, dict | None], cards: Any, err: Callable[..., None],
              lost: Any = None) -> dict[str, tuple[str, tuple[str, ...], tuple[int, ...]]]:
    """Zone -> (SET, its names, the ids of the cards so named) of every zone
    declared ``one_of: SET``: the only cards it may ever hold (the engine
    refuses any other there, and an observation encodes the zone over those
    cards only).  An entry whose names are not all known is left out."""
    out = {}
    for name, spec in zones.items():
        if not isinstance(spec, dict) or "one_of" not in spec:
            continue
        set_name = spec["one_of"]
        if not known_set(("zones", name, "one_of"), set_name, name_sets, err, lost):
            continue
        names = name_sets[set_name]
        if names is None:
            continue
        out[name] = (set_name, tuple(names), tuple(c.id for c in cards if c.name in names))
    return out


def known_set(path: tuple, set_name: Any, name_sets: dict[str, dict | None], err: Callable[..., None],
              lost: Any = None) -> bool:
    """Is ``one_of: SET`` (of a variable, a shown value, a parameter or a zone) an
    entry of ``names:``?  When not, the error is reported at ``path``
    (unless the entry may be among the parts set aside)."""
    if set_name in name_sets:
        return True
    if not (lost and (set_name in lost.names or "names" in lost.sections)):
        err(path, f"no entry '{set_name}' under names:", "the name of an entry of the names: section",
            suggest(str(set_name), name_sets) or f"declare it, e.g. names: {{{set_name}: [a, b, c]}}")
    return False


def _check_initial(section: str, name: str, initial: Any, set_name: str, names: dict,
                   err: Callable[..., None]) -> None:
    """A starting value is the empty text, a name of the set, or a list of them."""
    values = initial if isinstance(initial, list) else [initial]
    for i, value in enumerate(values):
        if isinstance(value, str) and (value in names or value == "" and not isinstance(initial, list)):
            continue
        at = (section, name, "initial") + ((i,) if isinstance(initial, list) else ())
        shown = ", ".join(list(names)[:8]) + (", ..." if len(names) > 8 else "")
        err(at, f"{_KIND[section]} '{name}' starts at {value!r}, which is not a name of "
            f"names entry '{set_name}'", f"one of: {shown}" + ("" if isinstance(initial, list) else " (or \"\")"),
            suggest(str(value), names) or f"add it to names: {set_name}, or drop one_of")
