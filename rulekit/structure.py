"""Check the shape of a rule file against its JSON Schema, in words authors understand.

The schema (``rulekit/schema/game.schema.json``) is the single description of
the rule-file format; editors can use it too.  Raw jsonschema messages talk
about "additionalProperties" and JSON pointers, so every error is translated
here into a :class:`~rulekit.errors.RuleError` that says where in the game it
is ("in option 2 of choice 'attack'"), points at the right line and column
(the key for an unknown key, the value for a wrong value) and suggests a fix.
"""
from __future__ import annotations

import copy
import difflib
import functools
import json
import re
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterable

import attrs
import jsonschema
from jsonschema.exceptions import ValidationError

from .errors import RuleError
from .lang.names import Lost
from .yamlsafe import LoadedYaml

if TYPE_CHECKING:
    from .composed import RuleSource

__all__ = ["Salvaged", "check_structure", "check_shape", "schema"]

_IDENTIFIER = "^[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*$"
_RANGE = r"^\d+\.\.\d+$"

#: What each pattern in the schema means, as (noun, explanation).
_PATTERN_WORDS = {
    _IDENTIFIER: (
        "a valid name",
        "a name of letters (Latin or Chinese), digits and underscores, not starting with a digit",
    ),
    _RANGE: ("a range", "a range like '2..4' (from..to)"),
}

_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true/false",
    "object": "a mapping",
    "array": "a list",
    "null": "nothing",
}

# Mappings whose keys name things, and what each thing is called.
_NAMED = {
    "zones": "zone",
    "vars": "var",
    "player_vars": "player var",
    "card_vars": "card var",
    "choices": "choice",
    "procedures": "procedure",
    "tables": "table",
    "stats": "stat",
    "player_stats": "player stat",
    "narration": "narration",
    "heuristics": "heuristic",
    "options": "option",
    "display": "display value",
    "public": "public value",
    "names": "names entry",
}
# Lists whose items are things, by the path of the list.
_LISTED = {("cards",): "card entry", ("triggers",): "trigger", ("turn", "phases"): "phase"}


@functools.cache
def schema() -> dict:
    """The rule-file schema as a dict (loaded once from the package data)."""
    text = resources.files("rulekit.schema").joinpath("game.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def _strict_integer(checker: Any, instance: Any) -> bool:
    # jsonschema accepts 2.0 as an integer; rule files mean whole numbers.
    return isinstance(instance, int) and not isinstance(instance, bool)


#: (reference, repr of a part) of the parts found valid; cleared when full
_VALID: dict[tuple[str, str], bool] = {}
_VALID_MOST = 100_000

#: what each "$ref" of the schema leads to: every reference in it is local ("#/$defs/...")
#: under its one $id, so it resolves the same way wherever it is met
_REFS: dict[str, Any] = {}


def _ref(validator: Any, ref: str, instance: Any, schema: dict) -> Iterable[ValidationError]:
    """jsonschema's "$ref" with each reference looked up once, not at every
    value it checks: the lookup was a third of the time spent checking the
    shape of a large game."""
    resolver = getattr(validator, "_resolver", None)
    if resolver is None:               # a jsonschema without the resolver this relies on
        yield from _BASE_REF(validator, ref, instance, schema)
        return
    resolved = _REFS.get(ref)
    if resolved is None:
        resolved = _REFS[ref] = resolver.lookup(ref)
    if not isinstance(instance, (dict, list)):
        yield from validator.descend(instance, resolved.contents, resolver=resolved.resolver)
        return
    # A part (a card, a choice, a skill) is valid or not whatever surrounds it
    # (the schema uses no unevaluated*/dynamic references), so a part found
    # valid once is not checked again: a game loaded again, or a file changed
    # in one place, checks only what is new.  repr() tells True from 1 and
    # 1.0 from 1, and keeps the order of keys, so equal keys mean equal parts.
    key = (ref, repr(instance))
    if key in _VALID:
        return
    errors = list(validator.descend(instance, resolved.contents, resolver=resolved.resolver))
    if errors:
        yield from errors
        return
    if len(_VALID) >= _VALID_MOST:
        _VALID.clear()
    _VALID[key] = True


_BASE_REF = jsonschema.Draft202012Validator.VALIDATORS["$ref"]


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    base = jsonschema.Draft202012Validator
    strict = jsonschema.validators.extend(
        base, validators={"$ref": _ref},
        type_checker=base.TYPE_CHECKER.redefine("integer", _strict_integer),
    )
    return strict(schema())


def check_structure(loaded: LoadedYaml) -> list[RuleError]:
    """Every structural problem of the rule file, sorted by position."""
    return check_shape(loaded)[0]


def check_shape(loaded: RuleSource) -> tuple[list[RuleError], set[tuple]]:
    """Every structural problem, sorted by position, and the path of each
    value found wrong (for an unknown or missing key: the key's path), so
    the loader can set aside just those parts and check the rest."""
    translator = _Translator(loaded)
    found: list[RuleError] = []
    bad: set[tuple] = set()
    for error in _validator().iter_errors(loaded.data):
        found.extend(_with_span(loaded, e) for e in translator.translate(error))
        bad.update(_bad_paths(error))
    for e in _player_range(loaded):
        found.append(_with_span(loaded, e))
        bad.add(("players", "max"))
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda e: (e.where.line, e.where.column, e.message)), bad


def _bad_paths(error: ValidationError) -> list[tuple]:
    """Where one schema error is: the value, or each unknown / missing key."""
    path = tuple(error.absolute_path)
    if "propertyNames" in error.relative_schema_path:
        return [path + (error.instance,)]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        return [path + (k,) for k in error.instance if k not in known]
    if error.validator == "required" and isinstance(error.instance, dict):
        return [path + (k,) for k in error.validator_value if k not in error.instance]
    return [path]


def _with_span(loaded: RuleSource, error: RuleError) -> RuleError:
    """The error with the extent of the scalar or key it points at, when it
    points at one (not at a mapping or list, and not at a missing key)."""
    if error.span or error.message.startswith("missing required"):
        return error
    return attrs.evolve(error, span=loaded.span_at(error.where))


# ---- setting aside what is malformed ---------------------------------------------------

#: Lists whose items stand alone (an item set aside does not hide the others).
_ITEM_LISTS = (("cards",), ("triggers",), ("turn", "phases"))
#: Top-level keys that must be there for the rest to be checked, and what
#: stands in for them when they are missing or malformed.
_STAND_INS: dict[str, Any] = {"name": "?", "players": {"min": 1, "max": 1}, "cards": [], "zones": {},
                             "turn": {"phases": []}}


@attrs.frozen
class Salvaged:
    """What can still be checked of a file with structural errors.

    ``loaded`` is the file without its malformed parts (positions kept);
    the rest says what was set aside, so that references to it are not
    reported again as unknown names: a follow-on error only hides the real
    one.
    """

    loaded: RuleSource
    #: names of the items set aside (a choice, a zone, a phase...)
    names: frozenset[str] = frozenset()
    #: a whole section was set aside (its names are unknown)
    sections: frozenset[str] = frozenset()
    #: card entries set aside (card properties and their values are not all known)
    cards_lost: bool = False
    #: card properties named by the entries set aside
    lost_props: frozenset[str] = frozenset()
    #: the player counts are not known
    players_lost: bool = False
    #: effect text of the items set aside (events they emit are not unknown)
    lost_texts: tuple[str, ...] = ()

    def lost(self) -> Lost:
        """What the compiler must not report again: references to these."""
        return Lost(self.names, self.sections, self.cards_lost, self.players_lost)


def salvage(loaded: RuleSource, bad: set[tuple]) -> Salvaged | None:
    """The file without the items that have structural errors, or None when
    too little is left to check (the top level is not a mapping)."""
    data = loaded.data
    if not isinstance(data, dict) or () in bad:
        return None
    data = copy.copy(data)
    names: set[str] = set()
    sections: set[str] = set()
    dropped: dict[tuple, set] = {lst: set() for lst in _ITEM_LISTS}
    lost: list = []
    for path in sorted(bad, key=lambda p: (len(p), repr(p))):
        unit = _unit(path)
        if unit[:-1] in dropped and unit[-1] in dropped[unit[:-1]]:
            continue
        _set_aside(data, unit, names, sections, dropped, lost)
    for key, stand_in in _STAND_INS.items():
        if key not in data:
            data[key] = copy.deepcopy(stand_in)
    data["turn"] = dict(data["turn"])
    for lst, gone in dropped.items():
        if gone:
            parent = data["turn"] if lst == ("turn", "phases") else data
            parent[lst[-1]] = [item for i, item in enumerate(parent[lst[-1]]) if i not in gone]
    props, texts = _lost_parts(lost)
    return Salvaged(
        loaded=_reindexed(loaded, data, dropped), names=frozenset(names), sections=frozenset(sections),
        cards_lost=bool(dropped[("cards",)]) or "cards" in sections, lost_props=frozenset(props),
        players_lost=any(p[:1] == ("players",) for p in bad), lost_texts=tuple(texts))


def _unit(path: tuple) -> tuple:
    """The part of the file set aside for an error at ``path``: the whole
    item of a section (a choice, a zone, a card entry, a phase...), else the
    top-level key (or key of ``turn``) itself."""
    if len(path) >= 2 and path[0] in _NAMED:
        return path[:2]
    for lst in _ITEM_LISTS:
        n = len(lst)
        if len(path) > n and path[:n] == lst and isinstance(path[n], int):
            return path[:n + 1]
    return path[:2] if path[:1] == ("turn",) and len(path) >= 2 else path[:1]


def _set_aside(data: dict, unit: tuple, names: set, sections: set, dropped: dict, lost: list) -> None:
    """Remove ``unit`` from ``data`` (a copy), noting what it was."""
    head = unit[0]
    if unit[:-1] in dropped:                       # an item of a list: removed when all are known
        parent = data.get(head) if len(unit) == 2 else data.get("turn", {}).get("phases")
        item = parent[unit[-1]] if isinstance(parent, list) and unit[-1] < len(parent) else None
        dropped[unit[:-1]].add(unit[-1])
        lost.append((unit[:-1], item))
        if unit[:-1] == ("turn", "phases"):
            name = item.get("name") if isinstance(item, dict) else None
            if isinstance(name, str):
                names.add(name)
            else:
                sections.add("phases")
        return
    if len(unit) == 2 and head in _NAMED:
        section = data.get(head)
        if isinstance(section, dict) and unit[1] in section:
            data[head] = {k: v for k, v in section.items() if k != unit[1]}
            lost.append(((head,), section[unit[1]]))
        names.add(str(unit[1]))
        return
    if unit == ("turn", "phases"):
        data["turn"] = {**data["turn"], "phases": []} if isinstance(data.get("turn"), dict) else {"phases": []}
        sections.add("phases")
        return
    if head == "turn" and len(unit) == 2:
        if isinstance(data.get("turn"), dict):
            data["turn"] = {k: v for k, v in data["turn"].items() if k != unit[1]}
        return
    if head == "players" and isinstance(data.get("players"), dict):
        good = [v for v in data["players"].values() if isinstance(v, int) and not isinstance(v, bool) and v >= 1]
        data["players"] = {"min": min(good), "max": min(good)} if good else dict(_STAND_INS["players"])
        return
    value = data.pop(head, None)
    if value is not None:
        lost.append(((head,), value))
    if head in ("cards", "triggers"):
        sections.add(head)
    elif head == "turn":
        sections.add("phases")
    elif head in _NAMED or head not in schema()["properties"]:
        # the names the section meant to declare, as far as they can be told
        # ('choises:' is a mapping of choices; a list of one-key mappings is
        # a mapping written as a list); else none of its names is known
        found = _declared_names(value)
        names.update(found)
        if not found and head in _NAMED:
            sections.add(head)


def _declared_names(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(map(str, value))
    if isinstance(value, list):
        return {str(k) for item in value if isinstance(item, dict) for k in item} | {
            item for item in value if isinstance(item, str)}
    return set()


def _lost_parts(lost: list) -> tuple[set[str], list[str]]:
    """Card properties and effect text (that emits events) of the parts set aside."""
    props: set[str] = set()
    texts: list[str] = []
    for (section, *_), item in lost:
        if section == "cards":
            for entry in item if isinstance(item, list) else [item]:
                props |= _entry_props(entry)
        texts.extend(_emitting_texts(item))
    return props, texts


def _emitting_texts(value: Any, depth: int = 0) -> list[str]:
    """Every string in ``value`` that may hold an 'emit' statement."""
    if isinstance(value, str):
        return [value] if "emit" in value else []
    if depth > 8:
        return []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [t for v in items for t in _emitting_texts(v, depth + 1)]


def _entry_props(entry: Any) -> set[str]:
    if not isinstance(entry, dict):
        return set()
    props = set(entry["props"]) if isinstance(entry.get("props"), dict) else set()
    each = entry.get("each")
    if isinstance(each, dict):
        props |= set(each)
        for values in each.values():
            for v in values if isinstance(values, list) else ():
                if isinstance(v, dict):
                    props |= set(v)
    return {p for p in props if isinstance(p, str)}


def _reindexed(loaded: RuleSource, data: dict, dropped: dict[tuple, set]) -> RuleSource:
    """``loaded`` for ``data``: positions of list items after one set aside
    move up with their items."""
    moves = {}
    for lst, gone in dropped.items():
        if gone:
            old = loaded.value_at(lst)
            count = len(old) if isinstance(old, list) else 0
            moves[lst] = {i: i - sum(1 for g in gone if g < i) for i in range(count) if i not in gone}
    if not moves:
        return loaded.remapped(data, lambda table: table)

    def remap(table: dict) -> dict:
        out = {}
        for path, value in table.items():
            for lst, new in moves.items():
                n = len(lst)
                if len(path) > n and path[:n] == lst and isinstance(path[n], int):
                    if path[n] not in new:
                        break
                    path = lst + (new[path[n]],) + path[n + 1:]
            else:
                out[path] = value
        return out

    return loaded.remapped(data, remap)


def _player_range(loaded: RuleSource) -> list[RuleError]:
    """min <= max cannot be said in JSON Schema, but it is part of the shape."""
    players = loaded.data.get("players") if isinstance(loaded.data, dict) else None
    if not isinstance(players, dict):
        return []
    low, high = players.get("min"), players.get("max")
    if type(low) is not int or type(high) is not int or low <= high:
        return []
    return [RuleError(
        loaded.where(("players", "max")),
        f"'players': max ({high}) is smaller than min ({low})",
        expected=f"max of at least {low}",
        hint="swap the two numbers",
    )]


class _Translator:
    """Turns jsonschema errors into RuleErrors for one loaded file."""

    def __init__(self, loaded: RuleSource):
        self.loaded = loaded

    # -- describing places -----------------------------------------------------

    def describe(self, path: tuple) -> str:
        """A readable name for the value at ``path``, e.g. "'cards' in option 2 of choice 'attack'"."""
        if not path:
            return "the top level"
        parent, last = path[:-1], path[-1]
        if len(parent) == 1 and parent[0] in _NAMED:
            return f"{_NAMED[parent[0]]} {_quote(last)}"
        if isinstance(last, int) and isinstance(self.loaded.value_at(parent), list):
            if parent in _LISTED:
                return f"{_LISTED[parent]} {last + 1}"
            if len(parent) == 3 and parent[0] == "choices" and parent[2] == "options":
                return f"option {last + 1} of {self.describe(parent[:-1])}"
            return f"item {last + 1} of {self.describe(parent)}"
        if not parent:
            return _quote(last)
        return f"{_quote(last)} in {self.describe(parent)}"

    def _kind_of_key(self, container: tuple) -> str:
        if len(container) == 1 and container[0] in _NAMED:
            return _NAMED[container[0]]
        if "props" in container or "each" in container:
            return "property"
        return "key"

    # -- translation -------------------------------------------------------------

    def translate(self, error: ValidationError) -> list[RuleError]:
        if error.validator in ("anyOf", "oneOf"):
            chosen = _relevant_branch(error)
            if chosen is None:
                return [self._union_type(error)]
            return [e for sub in chosen for e in self.translate(sub)]
        if "propertyNames" in error.relative_schema_path:
            return [self._bad_key(error)]
        handler = getattr(self, f"_on_{error.validator}", None)
        if handler is None:
            return [self._generic(error)]
        return list(handler(error))

    def _path(self, error: ValidationError) -> tuple:
        return tuple(error.absolute_path)

    def _on_type(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        expected = _type_phrase(error.validator_value)
        yield RuleError(
            self.loaded.where(path),
            f"{self.describe(path)}: expected {expected}, got {_got(error.instance)}",
            expected=expected,
            hint=_describe_hint(error.schema),
        )

    def _on_required(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        instance = error.instance
        missing = [k for k in error.validator_value if k not in instance]
        if not missing:
            return
        names = _and(_quote(k) for k in missing)
        plural = "s" if len(missing) > 1 else ""
        hints = []
        for key in missing:
            description, example = _property_info(error.schema, key)
            text = f"{key}: {_flow(example)}" if example is not None else f"{key}: ..."
            hints.append(f"'{text}'" + (f" ({_lower_first(description)})" if description else ""))
        yield RuleError(
            self.loaded.where(path),
            f"missing required key{plural} {names} in {self.describe(path)}",
            hint="add e.g. " + "; ".join(hints),
        )

    def _on_additionalProperties(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        allowed = sorted(error.schema.get("properties", {}))
        for key in error.instance:
            if key in error.schema.get("properties", {}):
                continue
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            if close:
                hint = f"did you mean '{close[0]}'?"
            else:
                hint = "check the spelling and the indentation: a key indented wrongly lands in another mapping"
            yield RuleError(
                self.loaded.key_where(path + (key,)),
                f"unknown key {_quote(key)} in {self.describe(path)}",
                expected="one of: " + ", ".join(allowed),
                hint=hint,
            )

    def _on_enum(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        allowed = [str(v) for v in error.validator_value]
        close = difflib.get_close_matches(str(error.instance), allowed, n=1, cutoff=0.5)
        yield RuleError(
            self.loaded.where(path),
            f"{self.describe(path)}: {_shown(error.instance)} is not allowed",
            expected="one of: " + ", ".join(allowed),
            hint=f"did you mean '{close[0]}'?" if close else _describe_hint(error.schema),
        )

    def _on_pattern(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        noun, words = _PATTERN_WORDS.get(
            error.validator_value, ("in the right form", f"text matching {error.validator_value}")
        )
        yield RuleError(
            self.loaded.where(path),
            f"{self.describe(path)}: {_shown(error.instance)} is not {noun}",
            expected=words,
            hint=_fix_hint(error.validator_value, error.instance),
        )

    def _on_minimum(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        yield RuleError(
            self.loaded.where(path),
            f"{self.describe(path)}: must be at least {error.validator_value}, got {error.instance}",
            expected=f"an integer of at least {error.validator_value}",
        )

    def _on_minItems(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        count = error.validator_value
        example = _first_example(error.schema)
        key = path[-1] if path and isinstance(path[-1], str) else None
        hint = f"e.g. {key}: {_flow(example)}" if example is not None and key else ""
        yield RuleError(
            self.loaded.where(path),
            f"{self.describe(path)}: must not be empty" if count == 1
            else f"{self.describe(path)}: needs at least {count} items, has {len(error.instance)}",
            expected=f"a list of at least {count} item{'s' if count > 1 else ''}",
            hint=hint,
        )

    def _on_minLength(self, error: ValidationError) -> Iterable[RuleError]:
        path = self._path(error)
        yield RuleError(
            self.loaded.where(path),
            f"{self.describe(path)}: must not be empty",
            expected="a non-empty string",
            hint=_describe_hint(error.schema),
        )

    def _generic(self, error: ValidationError) -> RuleError:
        path = self._path(error)
        return RuleError(self.loaded.where(path), f"{self.describe(path)}: {error.message}")

    def _union_type(self, error: ValidationError) -> RuleError:
        path = self._path(error)
        phrases: list[str] = []
        for branch in error.validator_value:
            phrases.extend(p for p in _branch_phrases(branch) if p not in phrases)
        expected = _or(phrases)
        return RuleError(
            self.loaded.where(path),
            f"{self.describe(path)}: expected {expected}, got {_got(error.instance)}",
            expected=expected,
            hint=_describe_hint(error.schema),
        )

    def _bad_key(self, error: ValidationError) -> RuleError:
        container = self._path(error)
        key = error.instance
        kind = self._kind_of_key(container)
        where = self.loaded.key_where(container + (key,))
        place = self.describe(container)
        noun, words = _PATTERN_WORDS[_IDENTIFIER]
        if error.validator == "type":
            message = f"{kind} name {_shown(key)} in {place} must be a name, not {_got(key)}"
        else:
            message = f"{kind} name {_shown(key)} in {place} is not {noun}"
        return RuleError(where, message, expected=words, hint=_fix_hint(_IDENTIFIER, key))


# -- choosing among anyOf branches ----------------------------------------------


def _relevant_branch(error: ValidationError) -> list[ValidationError] | None:
    """The errors of the anyOf/oneOf branch the author most likely meant.

    A branch that failed only because the value has the wrong type was
    clearly not meant; among the others the one whose errors reach deepest
    into the value wins.  ``None`` means every branch failed on the type, so
    the caller reports the expected types together.
    """
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if not branches:
        return None
    meant = {
        index: subs for index, subs in branches.items()
        if not all(s.validator == "type" and not s.relative_path for s in subs)
    }
    if not meant:
        return None
    best = max(meant.values(), key=lambda subs: max(len(s.relative_path) for s in subs))
    return best


def _branch_phrases(branch: dict) -> list[str]:
    """What one anyOf branch accepts, as phrases to join with "or"."""
    resolved = _resolve(branch)
    pattern = resolved.get("pattern")
    if pattern in _PATTERN_WORDS:
        return [_PATTERN_WORDS[pattern][1]]
    types = resolved.get("type")
    if types is None:
        return ["a value"]
    return [_TYPE_WORDS.get(t, t) for t in ([types] if isinstance(types, str) else types)]


# -- small wording helpers -------------------------------------------------------


def _resolve(sub: dict) -> dict:
    """Follow local ``$ref``s so descriptions and examples can be found."""
    seen = 0
    while isinstance(sub, dict) and "$ref" in sub and seen < 10:
        ref = sub["$ref"]
        if not ref.startswith("#/"):
            break
        target: Any = schema()
        for part in ref[2:].split("/"):
            target = target[part]
        merged = dict(target)
        merged.update({k: v for k, v in sub.items() if k != "$ref"})
        sub = merged
        seen += 1
    return sub


def _property_info(parent: dict, key: str) -> tuple[str, Any]:
    prop = _resolve(parent.get("properties", {}).get(key, {}))
    return prop.get("description", ""), _first_example(prop)


def _first_example(sub: dict) -> Any:
    examples = _resolve(sub).get("examples")
    return examples[0] if examples else None


def _describe_hint(sub: dict) -> str:
    return _resolve(sub).get("description", "")


def _fix_hint(pattern: str, value: Any) -> str:
    if pattern == _IDENTIFIER and isinstance(value, (str, int, float)):
        fixed = re.sub(r"[^A-Za-z0-9_\u4e00-\u9fff]+", "_", str(value)).strip("_") or "name"
        if fixed[0].isdigit():
            fixed = "_" + fixed
        return f"try '{fixed}'"
    if pattern == _RANGE:
        return "write a single number like 2, or a range like '2..4'"
    return ""


def _type_phrase(types: str | list[str]) -> str:
    if isinstance(types, str):
        types = [types]
    return _or([_TYPE_WORDS.get(t, t) for t in types])


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _and(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _lower_first(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def _quote(key: Any) -> str:
    return f"'{key}'" if isinstance(key, str) else str(key)


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value if len(value) <= 40 else value[:37] + '...'}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _got(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"true/false ({_shown(value)})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({_shown(value)})"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


_PLAIN = re.compile(r"[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_ ()\[\].\u4e00-\u9fff]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def _flow(value: Any) -> str:
    """Render an example value as one line of flow-style YAML."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if value.isdigit() or (_PLAIN.fullmatch(value) and value.lower() not in _YAML_WORDS):
            return value
        return json.dumps(value, ensure_ascii=False)
    return str(value)

