"""Checking the ``choices:`` section and writing each choice's enumerator.

Part of the loader's builder (a mixin): it checks what the JSON Schema cannot
(duplicate option names, mixed option kinds, a ``same`` property no card has,
card options without ``from``), parses every expression of a choice, and
hands them to the code generator.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import RuleError, Where
from .lang.codegen import CodeGen
from .lang.gen_base import PendingCheck
from .lang.names import suggest
from .lang.templates import TemplateError, split_template
from .limits import MAX_CARDS
from .model import OptionDef

_EXPRESSION_KEYS = ("when", "where", "from", "require", "player", "number")


if TYPE_CHECKING:
    from .composed import ComposedYaml
    from .yamlsafe import LoadedYaml


class ChoicesBuilder:
    # what the loader's builder, which this is a part of, provides
    loaded: LoadedYaml | ComposedYaml
    errors: list[RuleError]
    rule_where: dict[str, Where]
    pending: list[tuple[tuple, PendingCheck]]     # checks of types, with the path of their text

    if TYPE_CHECKING:
        def parse(self, path: tuple, start: str = "script") -> Any: ...

        def err(self, path: tuple, message: str, expected: str = "", hint: str = "",
                key: bool = False) -> None: ...

    def choice(self, gen: CodeGen, cname: str, spec: dict, card_props: set[str]) -> tuple[OptionDef, ...]:
        """Check one choice and write its enumerator; return its option records."""
        base = ("choices", cname)
        parsed: dict = {}
        if "who" in spec:
            parsed["who"] = self.parse(base + ("who",), "expr")
        options, names = [], set()
        ranges: dict[int, tuple] = {}
        for i, o in enumerate(spec["options"]):
            path = base + ("options", i)
            trees = {k: self.parse(path + (k,), "expr") for k in _EXPRESSION_KEYS if k in o}
            if "parts" in o:
                trees["parts"] = [self.parse(path + ("parts", j), "expr") for j in range(len(o["parts"]))]
            parsed[i] = trees
            if o["name"] in names:
                self.err(path + ("name",), f"option '{o['name']}' is declared twice in choice '{cname}'",
                         "a different name for each option of a choice",
                         "an action names its option, so each name must say which one is meant")
            names.add(o["name"])
            options.append(self._option(o, path, card_props, ranges, i))
        self._prompt(spec, base)
        skip = spec.get("skip_if_only")
        if skip is not None and skip not in names:
            self.err(base + ("skip_if_only",), f"choice '{cname}' has no option '{skip}'",
                     "the name of one of its options", suggest(skip, names))
        if not self._all_parsed(parsed):
            gen.constant(gen.choice_fn[cname], None, rule=f"choice '{cname}'")
            return tuple(options)
        rule = f"choice '{cname}'"
        self.rule_where[rule] = self.loaded.where(base)
        gen.choice(cname, spec, parsed, rule, ranges)
        for e in gen.errors:   # each carries the key of the choice it came from
            if isinstance(e, PendingCheck):
                self.pending.append((base + e.path, e))     # settled once every text is compiled
                continue
            where = self.loaded.text_where(base + e.path, e.line, e.column) if e.path \
                else self.loaded.where(base)
            error = RuleError(where, e.message, e.expected, e.hint, e.span if e.path else 0)
            if error not in self.errors:
                self.errors.append(error)
        gen.errors.clear()
        return tuple(options)

    def _prompt(self, spec: dict, base: tuple) -> None:
        """A prompt's placeholders must be plain names of the choice's params."""
        prompt = spec.get("prompt")
        if not isinstance(prompt, str):
            return
        try:
            params = spec.get("params", ())    # a name, or {name, one_of}
            split_template(prompt, tuple(p["name"] if isinstance(p, dict) else p for p in params))
        except TemplateError as e:
            line, column = e.position(prompt)
            error = RuleError(self.loaded.text_where(base + ("prompt",), line, column),
                              e.message, e.expected, e.hint)
            if error not in self.errors:
                self.errors.append(error)

    def _option(self, o: dict, path: tuple, card_props: set[str], ranges: dict, i: int) -> OptionDef:
        mixed = [k for k in ("cards", "parts", "player", "number") if k in o]
        if len(mixed) > 1:
            self.err(path, f"option '{o['name']}' has both '{mixed[0]}' and '{mixed[1]}'",
                     "at most one of cards / parts / player / number")
        if "cards" in o or "parts" in o:
            lo, hi = self._range(o["cards"], path + ("cards",)) if "cards" in o \
                else (len(o["parts"]),) * 2
            ranges[i] = (lo, hi)
            if "from" not in o:
                self.err(path, f"option '{o['name']}' picks cards but says not where from",
                         "a 'from' key naming a zone or list, e.g. from: hand(current)")
            same = o.get("same")
            if same is not None and same not in card_props:
                self.err(path + ("same",), f"no card has a property '{same}'",
                         "a card property: " + ", ".join(sorted(card_props)), suggest(same, card_props))
            return OptionDef(o["name"], "cards", lo, hi, same, o.get("doc", ""))
        if "number" in o:
            numbers = self._numbers(o, path)
            ranges[i] = numbers
            return OptionDef(o["name"], "number", doc=o.get("doc", ""), numbers=numbers)
        if "range" in o:
            self.err(path + ("range",), "'range' only applies to an option that picks a number",
                     "number: EXPR in the same option", key=True)
        if "player" in o:
            return OptionDef(o["name"], "player", doc=o.get("doc", ""))
        for extra in ("from", "require", "same", "where"):
            if extra in o:
                self.err(path + (extra,), f"'{extra}' only applies to an option that picks cards",
                         "cards: N (or player: ... / number: ...) in the same option", key=True)
        return OptionDef(o["name"], "plain", doc=o.get("doc", ""))

    def _numbers(self, o: dict, path: tuple) -> tuple[int, int]:
        """(lowest, highest) of a number option's declared ``range``."""
        if "range" not in o:
            self.err(path, f"option '{o['name']}' picks a number but does not say which can come",
                     "range: LOW..HIGH beside number:, e.g. range: 1..10",
                     "learning environments give each number its own action from the range")
            return 0, 0
        lo, hi = (int(x) for x in str(o["range"]).split("..", 1))
        if lo > hi or hi - lo >= MAX_CARDS:
            self.err(path + ("range",), f"number range '{o['range']}' is empty or too wide",
                     f"LOW..HIGH with LOW <= HIGH and at most {MAX_CARDS:,} numbers")
        return lo, hi

    @staticmethod
    def _all_parsed(parsed: dict) -> bool:
        if parsed.get("who", True) is None:
            return False
        for trees in parsed.values():
            if not isinstance(trees, dict):
                continue
            for t in trees.values():
                if t is None or (isinstance(t, list) and any(x is None for x in t)):
                    return False
        return True

    def _range(self, value: Any, path: tuple) -> tuple[int, int]:
        """(fewest, most) cards of ``N`` or ``LOW..HIGH`` (the schema checked the form)."""
        parts = [value] if isinstance(value, int) else str(value).split("..")
        if any(len(str(x).lstrip("-0")) > len(str(MAX_CARDS)) or int(x) > MAX_CARDS for x in parts):
            self.err(path, f"card count '{value}' is more than the limit of {MAX_CARDS:,} cards (MAX_CARDS)",
                     f"N or LOW..HIGH with HIGH at most {MAX_CARDS:,}")
            return 1, 1
        if isinstance(value, int):
            return value, value
        lo, hi = (int(x) for x in parts)
        if lo > hi or lo < 1:
            self.err(path, f"card count range '{value}' is empty or starts below 1",
                     "N or LOW..HIGH with 1 <= LOW <= HIGH")
        return lo, hi
