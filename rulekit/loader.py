"""Loading a rule file: YAML → checked structure → compiled, frozen :class:`Game`.

Stages, each reporting *every* problem it finds with file:line:column:

1. :mod:`rulekit.yamlsafe` reads the YAML safely (no object tags, no
   aliases, no duplicate keys) and remembers where every node is.
2. :mod:`rulekit.structure` checks the shape against the JSON Schema shipped
   in ``rulekit/schema/``.
3. This module builds the model and compiles every piece of effect text with
   the lark grammar; unknown names, arities and table lookups that do not
   cover every player count are reported at their position in the file.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import inspect

import attrs
from lark import Token

from .errors import RuleError, RuleFileError, Where
from .lang.codegen import CodeGen, collect_flags
from .lang.names import Names, suggest
from .lang.parser import EffectSyntaxError, parse_effect
from .model import Card, ChoiceDef, Game, OptionDef, PhaseDef, Script, TriggerDef, ZoneDef
from .structure import check_structure
from .yamlsafe import LoadedYaml, load_yaml

BOX = "box"
_FIELD = re.compile(r"\{([^{}]+)\}")


def load_game(path: str | Path) -> Game:
    """Load, check and compile a rule file; raise :class:`RuleFileError` listing
    every problem found."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RuleFileError([RuleError(Where(str(path)), f"cannot read the rule file: {err}",
                                       hint="check the path and that the file is UTF-8 text")]) from None
    return load_game_text(text, str(path))


def load_game_text(text: str, file: str = "<text>") -> Game:
    loaded = load_yaml(text, file)
    errors = check_structure(loaded)
    if errors:
        raise RuleFileError(errors)
    builder = _Builder(loaded)
    game = builder.build()
    if builder.errors or game is None:
        raise RuleFileError(builder.errors)
    return game


class _Builder:
    def __init__(self, loaded: LoadedYaml):
        self.loaded = loaded
        self.data: dict = loaded.data
        self.file = loaded.file
        self.errors: list[RuleError] = []
        self.rule_where: dict[str, Where] = {}

    def err(self, path: tuple, message: str, expected: str = "", hint: str = "", key: bool = False):
        where = self.loaded.key_where(path) if key else self.loaded.where(path)
        error = RuleError(where, message, expected, hint)
        if error not in self.errors:      # e.g. one template error, not one per generated card
            self.errors.append(error)

    # ---- cards --------------------------------------------------------------
    def cards(self) -> tuple[Card, ...]:
        out: list[Card] = []
        for i, entry in enumerate(self.data["cards"]):
            path = ("cards", i)
            base = dict(entry.get("props", {}))
            each = entry.get("each", {})
            axes = []
            for prop, values in each.items():
                axes.append([v if isinstance(v, dict) else {prop: v} for v in values])
            for combo in itertools.product(*axes) if axes else [()]:
                props = dict(base)
                for part in combo:
                    props.update(part)
                name = self._card_name(entry["name"], props, path)
                for _ in range(entry.get("count", 1)):
                    out.append(Card(len(out), name, props))
        return tuple(out)

    def _card_name(self, template: str, props: dict, path: tuple) -> str:
        def field(mo):
            key = mo.group(1)
            if key not in props:
                self.err(path + ("name",), f"card name template uses unknown property '{key}'",
                         "one of: " + ", ".join(sorted(props)), suggest(key, props))
                return key
            return str(props[key])
        return _FIELD.sub(field, template)

    # ---- zones --------------------------------------------------------------
    def zones(self) -> list[dict]:
        zones = [{"name": BOX, "visibility": "hidden", "per_player": False, "limit": None,
                  "doc": "built-in: every card starts here; cards out of play stay here"}]
        for name, spec in self.data["zones"].items():
            if name == BOX:
                self.err(("zones", BOX), "zone name 'box' is reserved", "another name",
                         "rulekit puts every card in 'box' before setup; use it without declaring it",
                         key=True)
                continue
            zones.append({"name": name, **spec})
        return zones

    # ---- parsing effect text ---------------------------------------------------
    def parse(self, path: tuple, start: str = "script"):
        """Parse the text at ``path`` (memoised); report a syntax error and
        return None when it does not parse."""
        key = (path, start)
        if key in self._trees:
            return self._trees[key]
        try:
            tree = parse_effect(self._text(path), start)
        except EffectSyntaxError as e:
            self.errors.append(RuleError(self.loaded.text_where(path, e.line, e.column),
                                         f"syntax error in effect text: {e.message}", e.expected, e.hint))
            tree = None
        self._trees[key] = tree
        return tree

    def _text(self, path: tuple) -> str:
        node = self.data
        for k in path:
            node = node[k]
        return str(node)

    def report(self, path: tuple, gen: CodeGen):
        for e in gen.errors:
            error = RuleError(self.loaded.text_where(path, e.line, e.column), e.message, e.expected, e.hint)
            if error not in self.errors:
                self.errors.append(error)
        gen.errors.clear()

    # ---- the whole file -------------------------------------------------------
    def build(self) -> Game | None:
        d = self.data
        self._trees: dict = {}
        cards = self.cards()
        zone_specs = self.zones()
        zdefs = {z["name"]: ZoneDef(z["name"], i, bool(z.get("per_player", False)),
                                    z.get("visibility", "public"), None, z.get("doc", ""),
                                    self.loaded.where(("zones", z["name"])) if i else None)
                 for i, z in enumerate(zone_specs)}
        phases_spec = d["turn"]["phases"]
        phase_index: dict[str, int] = {}
        for i, ph in enumerate(phases_spec):
            if ph["name"] in phase_index:
                self.err(("turn", "phases", i, "name"), f"phase '{ph['name']}' is declared twice",
                         "unique phase names")
            phase_index.setdefault(ph["name"], i)
        for name in zdefs:
            for section in ("vars", "tables", "choices"):
                if name in d.get(section, {}):
                    self.err(("zones", name), f"'{name}' names both a zone and an entry of {section}",
                             "distinct names for zones, variables, tables and choices", key=True)

        procs_spec: dict = d.get("procedures", {})
        triggers_spec: list = d.get("triggers", [])
        choices_spec: dict = d.get("choices", {})
        names = Names(
            zones=zdefs, vars=frozenset(d.get("vars", {})),
            player_vars=frozenset(d.get("player_vars", {})), tables=d.get("tables", {}),
            choices=frozenset(choices_spec), procedures=frozenset(procs_spec),
            phases=phase_index, events=frozenset(t["on"] for t in triggers_spec),
            min_players=d["players"]["min"], max_players=d["players"]["max"])

        deciding_procs, deciding_events, trig_gen = self._deciding(procs_spec, triggers_spec)
        if_none_gen = {}
        for cname, cspec in choices_spec.items():
            if "if_none" in cspec:
                tree = self.parse(("choices", cname, "if_none"))
                if_none_gen[cname] = tree is not None and self._decides(tree, deciding_procs, deciding_events)
        triggers = [{"on": t["on"], "has_when": "when" in t, "index": i, "is_gen": trig_gen[i]}
                    for i, t in enumerate(triggers_spec)]
        gen = CodeGen(names, deciding_procs, deciding_events, triggers, if_none_gen)
        gen.set_card_props(set().union(*(c.props for c in cards)) if cards else ())

        def script(fname: str, path: tuple, rule: str, params=()):
            self.rule_where[rule] = self.loaded.where(path)
            tree = self.parse(path)
            if tree is not None:
                gen.script(fname, tree, rule, params)
                self.report(path, gen)
            else:
                gen.constant(fname, None, params)

        def expression(fname: str, path: tuple, rule: str, params=()):
            value = self.data
            for k in path:
                value = value[k]
            if not isinstance(value, str):
                gen.constant(fname, value, params)
                return
            tree = self.parse(path, "expr")
            self.rule_where[rule] = self.loaded.where(path)
            if tree is not None:
                gen.expression(fname, tree, rule, params)
                self.report(path, gen)
            else:
                gen.constant(fname, None, params)

        for i, spec in enumerate(zone_specs):
            if spec.get("limit") is not None:
                expression(f"Z{i}", ("zones", spec["name"], "limit"), f"zone '{spec['name']}' limit",
                           ("owner",))
        option_defs = {}
        for cname, cspec in choices_spec.items():
            option_defs[cname] = self.choice(gen, cname, cspec, cards)
            if "if_none" in cspec:
                script(gen.if_none_fn[cname], ("choices", cname, "if_none"), f"choice '{cname}' if_none")
            if cname in d.get("heuristics", {}):
                expression(f"H_{gen.choice_fn[cname]}", ("heuristics", cname), f"heuristic '{cname}'",
                           ("chosen", "option", "player"))
        for pname in procs_spec:
            script(gen.proc_fn[pname], ("procedures", pname), f"procedure '{pname}'")
        emitted = self._emitted
        for i, tspec in enumerate(triggers_spec):
            if "when" in tspec:
                expression(f"W{i}", ("triggers", i, "when"), f"trigger on '{tspec['on']}' #{i}")
            script(f"T{i}", ("triggers", i, "effect"), f"trigger on '{tspec['on']}' #{i}")
            if tspec["on"] not in emitted:
                self.err(("triggers", i, "on"), f"no effect ever emits event '{tspec['on']}'",
                         "an event named by some 'emit' statement",
                         suggest(tspec["on"], emitted) or f"add 'emit {tspec['on']}' where it happens")
        if "setup" in d:
            script("SETUP", ("setup",), "setup")
        gen.inline_procs = self._inlinable(procs_spec)
        flow_phases = []
        for i, ph in enumerate(phases_spec):
            path = ("turn", "phases", i, "effect")
            self.rule_where[f"phase '{ph['name']}'"] = self.loaded.where(path)
            tree = self.parse(path)
            if tree is not None:
                flow_phases.append((ph["name"], tree, path))
        gen.flow(flow_phases, lambda path: self.report(path, gen))
        expression("FIRST", ("turn", "first"), "turn first") if "first" in d["turn"] \
            else gen.constant("FIRST", 0)
        stat_names = list(d.get("stats", {}))
        for i, sname in enumerate(stat_names):
            expression(f"S{i}", ("stats", sname), f"stat '{sname}'", ("outcome",))
        for hname in d.get("heuristics", {}):
            if hname not in choices_spec:
                self.err(("heuristics", hname), f"heuristic for unknown choice '{hname}'",
                         "the name of a choice", suggest(hname, choices_spec), key=True)
        if self.errors:
            return None

        ns = gen.build(self.file, cards)
        for rule_fn, rule in ns["__func_rules__"].items():
            self.rule_where.setdefault(rule, None)

        def as_script(fname: str, rule: str) -> Script:
            fn = ns[fname]
            return Script(rule, fn, inspect.isgeneratorfunction(fn), self.rule_where.get(rule))

        zones = tuple(attrs.evolve(z, limit=ns.get(f"Z{z.index}"),
                                   limit_fixed=self._fixed_limit(zone_specs[z.index].get("limit")))
                      for z in zdefs.values())
        choices = {}
        for cname, cspec in choices_spec.items():
            choices[cname] = ChoiceDef(cname, cspec.get("prompt", cname), option_defs[cname],
                                       ns[gen.choice_fn[cname]], ns.get(f"H_{gen.choice_fn[cname]}"),
                                       self.loaded.where(("choices", cname)))
        triggers_out: dict[str, list] = {}
        for i, tspec in enumerate(triggers_spec):
            triggers_out.setdefault(tspec["on"], []).append(TriggerDef(
                tspec["on"], ns.get(f"W{i}"), as_script(f"T{i}", f"trigger on '{tspec['on']}' #{i}"),
                tspec.get("doc", "")))
        return Game(
            name=d["name"], description=d.get("description", ""), file=self.file,
            min_players=names.min_players, max_players=names.max_players, cards=cards,
            zones=zones, tables=names.tables, vars=dict(d.get("vars", {})),
            player_vars=dict(d.get("player_vars", {})), choices=choices,
            procedures={p: as_script(gen.proc_fn[p], f"procedure '{p}'") for p in procs_spec},
            setup=as_script("SETUP", "setup") if "setup" in d else None,
            first_player=ns["FIRST"],
            phases=tuple(PhaseDef(ph["name"], ph.get("doc", ""),
                                  self.loaded.where(("turn", "phases", i)))
                         for i, ph in enumerate(phases_spec)),
            flow=as_script("FLOW", "turn"),
            triggers={k: tuple(v) for k, v in triggers_out.items()},
            stats={s: ns[f"S{i}"] for i, s in enumerate(stat_names)}, source=d,
            rule_positions={k: v for k, v in self.rule_where.items() if v is not None},
            code=ns["__source__"])

    def _fixed_limit(self, limit) -> bool:
        """A limit that reads only tables, numbers and player_count is the
        same all match long, so a match may compute it once."""
        if limit is None or not isinstance(limit, str):
            return limit is not None
        try:
            tree = parse_effect(limit, "expr")
        except EffectSyntaxError:
            return False
        tables = set(self.data.get("tables", {}))
        for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME"):
            if str(tok) not in tables and str(tok) != "player_count":
                return False
        return True

    def _inlinable(self, procs_spec: dict) -> dict:
        """Procedures that never reach themselves through calls: the compiler
        writes their text in place of each call."""
        calls = {n: collect_flags(t)[1] if (t := self.parse(("procedures", n))) is not None else set()
                 for n in procs_spec}

        def reaches_itself(start: str) -> bool:
            seen, todo = set(), list(calls.get(start, ()))
            while todo:
                n = todo.pop()
                if n == start:
                    return True
                if n not in seen:
                    seen.add(n)
                    todo.extend(calls.get(n, ()))
            return False

        return {n: self.parse(("procedures", n)) for n in procs_spec
                if self.parse(("procedures", n)) is not None and not reaches_itself(n)}

    @staticmethod
    def _decides(tree, deciding_procs, deciding_events) -> bool:
        choose, calls, emits = collect_flags(tree)
        return bool(choose or calls & deciding_procs or emits & deciding_events)

    def _deciding(self, procs_spec: dict, triggers_spec: list):
        """Fixed point: which procedures, events and triggers can reach a ``choose``."""
        empty = (False, set(), set())
        flags = {n: collect_flags(t) if (t := self.parse(("procedures", n))) is not None else empty
                 for n in procs_spec}
        trig_flags = [collect_flags(t) if (t := self.parse(("triggers", i, "effect"))) is not None
                      else empty for i in range(len(triggers_spec))]
        self._emitted = set()
        for path in self._all_script_paths():
            tree = self.parse(path)
            if tree is not None:
                self._emitted |= collect_flags(tree)[2]
        procs: set[str] = set()
        events: set[str] = set()
        changed = True
        while changed:
            changed = False
            for n, (choose, calls, emits) in flags.items():
                if n not in procs and (choose or calls & procs or emits & events):
                    procs.add(n)
                    changed = True
            for spec, (choose, calls, emits) in zip(triggers_spec, trig_flags):
                if spec["on"] not in events and (choose or calls & procs or emits & events):
                    events.add(spec["on"])
                    changed = True
        trig_gen = [bool(c or calls & procs or emits & events) for c, calls, emits in trig_flags]
        return procs, events, trig_gen

    def _all_script_paths(self):
        d = self.data
        if "setup" in d:
            yield ("setup",)
        for n in d.get("procedures", {}):
            yield ("procedures", n)
        for i in range(len(d.get("triggers", []))):
            yield ("triggers", i, "effect")
        for i in range(len(d["turn"]["phases"])):
            yield ("turn", "phases", i, "effect")
        for n, c in d.get("choices", {}).items():
            if "if_none" in c:
                yield ("choices", n, "if_none")

    def choice(self, gen: CodeGen, cname: str, spec: dict, cards) -> tuple[OptionDef, ...]:
        """Check a choice, write its enumerator; return the option records."""
        base = ("choices", cname)
        rule = f"choice '{cname}'"
        options = []
        parsed: dict = {}
        if "who" in spec:
            parsed["who"] = self.parse(base + ("who",), "expr")
        card_props = set().union(*(c.props for c in cards)) if cards else set()
        seen_options: set[str] = set()
        for i, o in enumerate(spec["options"]):
            path = base + ("options", i)
            trees = {}
            for key in ("when", "where", "from", "require", "player"):
                if key in o:
                    trees[key] = self.parse(path + (key,), "expr")
            if "parts" in o:
                trees["parts"] = [self.parse(path + ("parts", j), "expr") for j in range(len(o["parts"]))]
            parsed[i] = trees
            if o["name"] in seen_options:
                self.err(path + ("name",), f"option '{o['name']}' is declared twice in choice '{cname}'",
                         "a different name for each option of a choice",
                         "an action names its option, so each name must say which one is meant")
            seen_options.add(o["name"])
            mixed = [k for k in ("cards", "parts", "player") if k in o]
            if len(mixed) > 1:
                self.err(path, f"option '{o['name']}' has both '{mixed[0]}' and '{mixed[1]}'",
                         "at most one of cards / parts / player")
            if "cards" in o or "parts" in o:
                lo, hi = self._range(o["cards"], path + ("cards",)) if "cards" in o else \
                    (len(o["parts"]),) * 2
                o = {**o, "_range": (lo, hi)}
                spec["options"][i] = o
                if "from" not in o:
                    self.err(path, f"option '{o['name']}' picks cards but says not where from",
                             "a 'from' key naming a zone or list, e.g. from: hand(current)")
                same = o.get("same")
                if same is not None and same not in card_props:
                    self.err(path + ("same",), f"no card has a property '{same}'",
                             "a card property: " + ", ".join(sorted(card_props)), suggest(same, card_props))
                options.append(OptionDef(o["name"], "cards", lo, hi, same, o.get("doc", "")))
            elif "player" in o:
                options.append(OptionDef(o["name"], "player", doc=o.get("doc", "")))
            else:
                for extra in ("from", "require", "same", "where"):
                    if extra in o:
                        self.err(path + (extra,), f"'{extra}' only applies to an option that picks cards",
                                 "cards: N (or player: ...) in the same option", key=True)
                options.append(OptionDef(o["name"], "plain", doc=o.get("doc", "")))
        def broken(t):
            return t is None or (isinstance(t, list) and any(x is None for x in t))
        if any(broken(t) for tr in parsed.values() if isinstance(tr, dict) for t in tr.values()) \
                or parsed.get("who", 1) is None:
            gen.constant(gen.choice_fn[cname], None)
            return tuple(options)
        self.rule_where[rule] = self.loaded.where(base)
        gen.choice(cname, spec, parsed, rule)
        # Errors in a choice's expressions carry the key they came from.
        for e in gen.errors:
            where = self.loaded.text_where(base + e.path, e.line, e.column) if e.path \
                else self.loaded.where(base)
            error = RuleError(where, e.message, e.expected, e.hint)
            if error not in self.errors:
                self.errors.append(error)
        gen.errors.clear()
        return tuple(options)

    def _range(self, value: Any, path: tuple) -> tuple[int, int]:
        if isinstance(value, int):
            return value, value
        lo, hi = (int(x) for x in str(value).split(".."))
        if lo > hi or lo < 1:
            self.err(path, f"card count range '{value}' is empty or starts below 1",
                     "N or LOW..HIGH with 1 <= LOW <= HIGH")
        return lo, hi
