"""What is certain about a value's type, and the operations that can never work on it.

Effect text is not typed: a variable may hold a number in one match and a
list in another, and most values are only known when the rule runs.  But
much is certain when the file loads: ``3`` is a number, ``"x"`` a text,
``size(deck)`` a number, a card property that every card holds as a text is
a text.  An operation on values of such types that fails whenever it runs
(``score + "x"``, ``"3" < hp``, ``-name``, ``size(5)``), or a comparison
that never holds (``role == 1`` where every role is a text), is a mistake
the author should hear about with its position, rather than in the middle
of a match that happens to reach it.

A variable's type is certain when every assignment to it in the file keeps
the type of its initial value (:func:`settled`): ``score: 0`` with ``score
+= size(hand(p))`` holds a number; one also set to ``call pick()``, whose
value is not known, or to a text, is not known.  So nothing a match could
run without failing is refused.  An operation that certainly fails has the
type "never" (it makes no value): it does not make a variable uncertain,
and what is built on it is not reported again.  A local is known to hold a
number where the compiler knows it holds a number the text bounds (``let n =
size(deck)``, up to a loop that sets it again: see
``Statements.note_number``); any other local is not known.

The types are "number", "text", "truth", "list", "zone" and "card"; a player
is a number (its seat).  A truth value counts as a number in arithmetic and
order (a match takes ``size(deck) + true`` as Python does, 1 or 0), so only
what fails for a number fails for it here."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ..errors import value_kind
from .expr_ir import MANY, Attr, Builtin, CardVar, Chosen, Expr, Inlined, Lit, Local, Op, Where, ZoneOf, top_zone

#: how each type is named in a message: as a failure in a match names its value (errors.value_kind)
SHOWN = {kind: value_kind(python) for kind, python in (
    ("number", "int"), ("text", "str"), ("truth", "bool"), ("list", "list"), ("zone", "Zone"), ("card", "Card"))}
#: the type of what certainly fails: it makes no value
NEVER = "never"
#: what each problem is: (message, expected, hint)
Problem = tuple[str, str, str]


def type_of_value(value: Any) -> str | None:
    """The type of a value written in the file (a variable's initial value,
    a card property, an option's default); None for ``none`` and mappings."""
    if isinstance(value, bool):
        return "truth"
    if isinstance(value, int):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    return None


def common_type(values: Iterable[Any]) -> str | None:
    """The type every value has, if there is one."""
    found = {type_of_value(v) for v in values}
    return found.pop() if len(found) == 1 else None


@attrs.frozen
class ValueTypes:
    """The types the file declares: each variable's (from its initial value),
    each card property's (when every card holding it holds that type) and
    each option's (from its default)."""

    vars: Mapping[str, str] = attrs.field(factory=dict)
    player_vars: Mapping[str, str] = attrs.field(factory=dict)
    card_vars: Mapping[str, str] = attrs.field(factory=dict)
    props: Mapping[str, str] = attrs.field(factory=dict)
    options: Mapping[str, str] = attrs.field(factory=dict)
    #: the locals (by Python name) that hold a number where the text is checked: those the
    #: compiler knows to hold a number the text bounds there (FnContext.number_locals)
    number_locals: frozenset[str] = frozenset()
    #: the variables, as (section, name), that never hold none: their initial value is
    #: none of their type, and nothing that may be none is assigned to them
    present: frozenset[tuple[str, str]] = frozenset()

    def seeing(self, number_locals: frozenset[str]) -> ValueTypes:
        """These types where the locals ``number_locals`` (and no others) hold numbers."""
        return self if number_locals == self.number_locals else attrs.evolve(self, number_locals=number_locals)

    @classmethod
    def of(cls, data: Mapping[str, Any], cards: Iterable[Any], options: Mapping[str, Any],
           unknown: Iterable[str] = ()) -> ValueTypes:
        """The types ``data`` (a rule file's sections), its ``cards`` and its
        ``options`` (name -> default) declare; a property of ``unknown`` (one
        that card entries set aside for a structural error name, as
        CodeGen.set_card_props takes them) has none."""
        def declared(section: str) -> dict[str, str]:
            out = {}
            for name, spec in (data.get(section) or {}).items():
                value = spec.get("initial") if isinstance(spec, dict) else spec
                kind = type_of_value(value)
                if kind is not None:
                    out[name] = kind
            return out
        values: dict[str, list[Any]] = {}
        for card in cards:
            for prop, value in card.props.items():
                values.setdefault(prop, []).append(value)
        unknown = set(unknown)
        props = {p: t for p, vs in values.items() if p not in unknown and (t := common_type(vs)) is not None}
        typed = {n: t for n, default in options.items() if (t := type_of_value(default)) is not None}
        sections = {s: declared(s) for s in ("vars", "player_vars", "card_vars")}
        return cls(sections["vars"], sections["player_vars"], sections["card_vars"], props, typed,
                   present=frozenset((s, n) for s, typed in sections.items() for n in typed))


def type_of(node: Expr, types: ValueTypes) -> str | None:
    """The type ``node``'s value certainly has when it has one, else None."""
    if isinstance(node, Inlined):             # (its locals are the procedure's, not these)
        return type_of(node.body, types.seeing(frozenset()) if types.number_locals else types)
    if isinstance(node, Local):
        return "number" if node.py in types.number_locals else None
    if isinstance(node, Lit):
        return _lit_type(node, types)
    if isinstance(node, Chosen):
        return {"cards": "list", "option": "text", "player": "number", "number": "number"}.get(node.field)
    if isinstance(node, ZoneOf):
        return "zone"
    if isinstance(node, Where):
        return "list"
    if isinstance(node, CardVar):
        kind = node.base.kind
        return "list" if kind in MANY else types.card_vars.get(node.attr) if kind == "card" else None
    if isinstance(node, Attr):
        return _attr_type(node, types)
    if isinstance(node, Builtin):
        first = type_of(node.args[0], types) if node.args else None
        if first == NEVER or node.args and argument_problem(node.name, first, never_none(node.args[0], types)):
            return NEVER
        return _builtin_type(node)
    if isinstance(node, Op):
        return _op_type(node, types)
    return None


def _lit_type(node: Lit, types: ValueTypes) -> str | None:
    if node.kind == "int":
        return "number"
    if node.kind == "str":
        return "text"
    if node.kind == "bool":
        return "truth"
    if node.kind == "zone":
        return "zone"
    if node.kind == "seats":
        return "list"
    if node.named is not None:
        section, name = node.named
        return (types.vars if section == "vars" else types.options).get(name)
    return None


def _attr_type(node: Attr, types: ValueTypes) -> str | None:
    base = node.base.kind
    if base in MANY or isinstance(node.base, Chosen) and node.base.field == "cards":
        return "list"
    if base == "int":           # (a player's variable; of a value not known to be a player, not known)
        return types.player_vars.get(node.attr) if node.player_var else None
    if node.card_prop and (base == "card" or top_zone(node) is not None):
        return types.props.get(node.attr)
    return None


#: the built-ins whose value has one type whatever they are given
_BUILTIN_TYPES = {"size": "number", "count": "number", "sum": "number", "seat_distance": "number",
                  "room": "number", "limit": "number", "next": "number", "prev": "number", "abs": "number",
                  "any": "truth", "empty": "truth", "seats_from": "list", "shuffled": "list",
                  "unique": "list", "join": "list"}


def _builtin_type(node: Builtin) -> str | None:
    if node.name in ("top", "bottom"):
        return "list" if len(node.args) == 2 else None
    return _BUILTIN_TYPES.get(node.name)


def _op_type(node: Op, types: ValueTypes) -> str | None:
    if node.form == "list":
        return "list"
    if node.form == "in":
        parts = [type_of(x, types) for x in node.args]
        return NEVER if NEVER in parts or container_problem(*parts) is not None else "truth"
    if node.form in ("is", "not"):
        return "truth"
    if node.form == "neg":
        value = type_of(node.args[0], types)
        return NEVER if value == NEVER or negation_problem(value) is not None else "number"
    if node.form == "ternary":
        a, b = type_of(node.args[0], types), type_of(node.args[2], types)
        return a if a == b else None
    if node.op in ("and", "or"):
        return None
    return result_type(node.op, *(type_of(x, types) for x in node.args))


def result_type(op: str, a: str | None, b: str | None) -> str | None:
    """The type of ``A op B`` (a binary operator other than ``and``/``or``)
    for operands of types ``a`` and ``b``."""
    if NEVER in (a, b) or op not in ("==", "!=") and binary_problem(op, a, b) is not None:
        return NEVER
    if op in ("==", "!=", "<", "<=", ">", ">="):
        return "truth"
    a, b = _as_number(a), _as_number(b)
    if op == "+":
        return a if a == b and a in _PLUS else None
    if op == "*" and {a, b} in ({"number", "text"}, {"number", "list"}):
        return "text" if "text" in (a, b) else "list"
    return "number" if a == b == "number" else None


# ---- what can never work ---------------------------------------------------------------

#: the pairs ``+`` joins (numbers add up, texts and lists are joined)
_PLUS = ("number", "text", "list")
#: the types that are several values: what ``in``, ``for`` and the list built-ins take
_SEVERAL = ("list", "zone", "text")


def binary_problem(op: str, a: str | None, b: str | None) -> Problem | None:
    """What is wrong when ``A op B`` fails (or, for ``==``/``!=``, never
    holds) whenever values of types ``a`` and ``b`` meet; None when it may work."""
    if a is None or b is None or NEVER in (a, b):
        return None
    shown = f"{SHOWN[a]} and {SHOWN[b]}"
    if op not in ("==", "!="):
        a, b = _as_number(a), _as_number(b)
    if op == "+":
        if a == b and a in _PLUS:
            return None
        return (f"'+' cannot take {shown}", "two numbers, two texts or two lists",
                "put a card in a list to join it to one: [c]" if "card" in (a, b)
                else "size(...) counts a list or a zone" if {a, b} & {"list", "zone"} and "number" in (a, b)
                else "texts and numbers do not mix: add numbers to numbers, join texts to texts")
    if op in ("-", "//", "%"):
        if a == b == "number":
            return None
        return (f"'{op}' cannot take {shown}", "two whole numbers",
                "size(...) counts a list or a zone" if {a, b} & {"list", "zone"}
                else f"'{op}' works on whole numbers only")
    if op == "*":
        if a == b == "number" or {a, b} in ({"number", "text"}, {"number", "list"}):
            return None
        return (f"'*' cannot take {shown}", "two numbers, or a text or a list and a number",
                "'*' multiplies numbers, or repeats a text or a list a number of times")
    if op in ("<", "<=", ">", ">="):
        if a == b and a in ("number", "text"):
            return None
        return (f"'{op}' cannot compare {shown}", "two numbers (or two texts)",
                "size(...) counts a list or a zone" if {a, b} & {"list", "zone"}
                else 'a number written in quotes is a text: "3" is not 3' if {a, b} == {"number", "text"}
                else "order compares numbers")
    if op in ("==", "!="):
        if a == b or "card" in (a, b) or {a, b} == {"list", "zone"} or {a, b} == {"number", "truth"}:
            return None
        return (f"'{op}' between {shown} is {'never' if op == '==' else 'always'} true",
                "two values of the same type",
                'a number written in quotes is a text: "3" is not 3' if {a, b} == {"number", "text"}
                else "size(...) counts a list or a zone" if {a, b} & {"list", "zone"} and "number" in (a, b)
                else "a value of one type never equals one of another")
    return None


def container_problem(item: str | None, container: str | None) -> Problem | None:
    """What is wrong when ``ITEM in CONTAINER`` fails whenever it runs."""
    if container is None or NEVER in (item, container):
        return None
    if container not in _SEVERAL:
        return (f"'in' cannot look inside {SHOWN[container]}", "a list or a zone after 'in' (or a text)",
                "== compares two single values")
    if container == "text" and item is not None and item != "text":
        return (f"'in' cannot look for {SHOWN[item]} in a text", "a text before 'in' a text",
                "a text holds only texts; a list of values is written [a, b]")
    return None


#: the built-ins that take several values (a list or a zone) as their first argument
_TAKE_SEVERAL = ("size", "count", "sum", "any", "empty", "top", "bottom", "shuffled", "unique", "first")


def argument_problem(name: str, first: str | None, never_none: bool) -> Problem | None:
    """What is wrong when a built-in is given, as its first argument, a value
    it can never take.  (The built-ins that take several values take a card,
    a text or none too, as a list of one, of characters, or none: only a
    number or a truth value ``never_none`` fails in them whenever it runs.)"""
    if first is None or first == NEVER:
        return None
    if name in ("next", "prev", "seats_from", "abs"):
        if first in ("number", "truth"):
            return None
        return (f"{name}() cannot take {SHOWN[first]}", "a number" if name == "abs" else "a player (a seat number)",
                "see the built-in functions in docs/language.md")
    if name in _TAKE_SEVERAL and first in ("number", "truth") and never_none:
        return (f"{name}() cannot take {SHOWN[first]}", "a list or a zone",
                "a single value in a list is [x]" if first == "number" else
                "see the built-in functions in docs/language.md")
    return None


#: the built-ins whose value is never none
_NEVER_NONE = frozenset(("size", "count", "sum", "seat_distance", "room", "limit", "next", "prev", "abs", "any",
                         "empty", "seats_from", "shuffled", "unique", "join"))


def never_none(node: Expr, types: ValueTypes) -> bool:
    """``node``'s value is never none: a literal, a size, arithmetic, a
    variable of ``types.present``... (a card's property, a chosen answer's
    field, what a procedure returns may be)."""
    if isinstance(node, Inlined):
        return never_none(node.body, types.seeing(frozenset()))
    if isinstance(node, Local):
        return node.py in types.number_locals
    if isinstance(node, Lit):
        if node.named is not None:      # (an option is always of its default's type)
            return node.named in types.present or node.named[0] == "options" and node.named[1] in types.options
        return node.kind in ("int", "str", "bool", "zone", "seats")
    if isinstance(node, Attr):
        return node.base.kind == "int" and node.player_var and ("player_vars", node.attr) in types.present
    if isinstance(node, CardVar):
        return node.base.kind == "card" and ("card_vars", node.attr) in types.present
    if isinstance(node, Builtin):
        return node.name in _NEVER_NONE or node.name in ("top", "bottom") and len(node.args) == 2
    if isinstance(node, Op):
        if node.form == "ternary":
            return never_none(node.args[0], types) and never_none(node.args[2], types)
        return node.op not in ("and", "or")
    return isinstance(node, (Where, ZoneOf))


#: what a statement (or a player's zone) needs of a value: (what it is called, the types it
#: takes; a player is a number, "several" a list or a zone, which a card, a text or none are too)
_WANTS = {"zone": ("a zone", ("zone",)), "player": ("a player (a seat number)", ("number", "truth")),
          "players": ("a player or a list of players", ("number", "list", "truth")),
          "several": ("cards or a list", ("list", "zone", "card", "text")), "number": ("a number", ("number",)),
          "list": ("a list", ("list", "zone", "card", "text"))}


def statement_problem(statement: str, wants: str, value: str | None, never_none: bool) -> Problem | None:
    """What is wrong when ``statement`` (``'for'``, ``'shuffle'``...) is given a
    value of type ``value`` where it ``wants`` one of _WANTS, whenever it runs."""
    if value is None or value == NEVER:
        return None
    shown, takes = _WANTS[wants]
    if value in takes or wants in ("several", "list") and not never_none:
        return None
    hint = {"zone": "a player's zone is written with the player: hand(p)",
            "player": "a player is a seat number: current, next(p), a chosen answer's player",
            "players": "a player is a seat number: current, next(p), a chosen answer's player",
            "several": "n cards from a zone's top: top(zone, n)" if statement == "'move'"
            else "to repeat something n times: let i = 0, then while i < n: ... i += 1",
            "list": "the players to choose from, e.g. players where it != current",
            "number": "a test counts as a number written 'N if TEST else M'" if value == "truth"
            else "size(...) counts a list or a zone" if value in ("list", "zone") else "write a number"}[wants]
    return f"{statement} needs {shown}, not {SHOWN[value]}", shown, hint


def _as_number(kind: str | None) -> str | None:
    """A truth value as arithmetic and order take it: a number."""
    return "number" if kind == "truth" else kind


def negation_problem(a: str | None) -> Problem | None:
    """What is wrong when ``-A`` fails whenever it runs."""
    if a is None or a in ("number", "truth", NEVER):
        return None
    return f"'-' cannot take {SHOWN[a]}", "a number", "'-' negates a whole number"


#: an assignment the file makes: (section: "vars" | "player_vars" | "card_vars", name,
#: operator: "=" | "+=" | "-=", the value's tree, the locals that hold numbers there)
Assigned = tuple[str, str, str, Expr, frozenset[str]]


def settled(types: ValueTypes, assigned: Iterable[Assigned]) -> ValueTypes:
    """``types`` keeping only the variables whose every assignment keeps the
    type of the initial value.  Worked out as the largest such set: assume
    each declared type holds, drop a variable an assignment breaks (given
    the types still assumed), and again until none is dropped; what is left
    holds by induction over the assignments a match makes."""
    assigned = list(assigned)
    while True:
        dropped: set[tuple[str, str]] = set()
        for section, name, op, tree, numbers in assigned:
            declared = getattr(types, section).get(name)
            if declared is None or (section, name) in dropped:
                continue
            value = type_of(tree, types.seeing(numbers))
            kept = value if op == "=" else result_type(op[0], declared, value)
            if kept not in (declared, NEVER):
                dropped.add((section, name))
        if not dropped:
            break
        types = attrs.evolve(types, vars=_kept("vars", types.vars, dropped),
                             player_vars=_kept("player_vars", types.player_vars, dropped),
                             card_vars=_kept("card_vars", types.card_vars, dropped),
                             present=types.present - dropped)
    while True:             # (the same, for the variables that never hold none)
        lost = {(section, name) for section, name, op, tree, numbers in assigned
                if op == "=" and (section, name) in types.present
                and not never_none(tree, types.seeing(numbers))}
        if not lost:
            return types
        types = attrs.evolve(types, present=types.present - lost)


def _kept(section: str, declared: Mapping[str, str], dropped: set[tuple[str, str]]) -> dict[str, str]:
    return {n: t for n, t in declared.items() if (section, n) not in dropped}

