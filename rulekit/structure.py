"""Check the shape of a rule file against its JSON Schema, in words authors understand.

The schema (``rulekit/schema/game.schema.json``) is the single description of
the rule-file format; editors can use it too.  Raw jsonschema messages talk
about "additionalProperties" and JSON pointers, so every error is translated
here into a :class:`~rulekit.errors.RuleError` that says where in the game it
is ("in option 2 of choice 'attack'"), points at the right line and column
(the key for an unknown key, the value for a wrong value) and suggests a fix.
"""
from __future__ import annotations

import difflib
import functools
import json
import re
from importlib import resources
from typing import Any, Iterable

import jsonschema
from jsonschema.exceptions import ValidationError

from .errors import RuleError
from .yamlsafe import LoadedYaml

__all__ = ["check_structure", "schema"]

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
    "choices": "choice",
    "procedures": "procedure",
    "tables": "table",
    "stats": "stat",
    "heuristics": "heuristic",
    "options": "option",
    "display": "display value",
    "public": "public value",
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


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    base = jsonschema.Draft202012Validator
    strict = jsonschema.validators.extend(
        base, type_checker=base.TYPE_CHECKER.redefine("integer", _strict_integer)
    )
    return strict(schema())


def check_structure(loaded: LoadedYaml) -> list[RuleError]:
    """Every structural problem of the rule file, sorted by position."""
    translator = _Translator(loaded)
    found: list[RuleError] = []
    for error in _validator().iter_errors(loaded.data):
        found.extend(translator.translate(error))
    found.extend(_player_range(loaded))
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda e: (e.where.line, e.where.column, e.message))


def _player_range(loaded: LoadedYaml) -> list[RuleError]:
    """min <= max cannot be said in JSON Schema, but it is part of the shape."""
    players = loaded.data.get("players") if isinstance(loaded.data, dict) else None
    if not isinstance(players, dict):
        return []
    low, high = players.get("min"), players.get("max")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)) or low <= high:
        return []
    return [RuleError(
        loaded.where(("players", "max")),
        f"'players': max ({high}) is smaller than min ({low})",
        expected=f"max of at least {low}",
        hint="swap the two numbers",
    )]


class _Translator:
    """Turns jsonschema errors into RuleErrors for one loaded file."""

    def __init__(self, loaded: LoadedYaml):
        self.loaded = loaded

    # -- describing places -----------------------------------------------------

    def _container(self, path: tuple) -> Any:
        value = self.loaded.data
        for part in path:
            try:
                value = value[part]
            except (KeyError, IndexError, TypeError):
                return None
        return value

    def describe(self, path: tuple) -> str:
        """A readable name for the value at ``path``, e.g. "'cards' in option 2 of choice 'attack'"."""
        if not path:
            return "the top level"
        parent, last = path[:-1], path[-1]
        if len(parent) == 1 and parent[0] in _NAMED:
            return f"{_NAMED[parent[0]]} {_quote(last)}"
        if isinstance(last, int) and isinstance(self._container(parent), list):
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

