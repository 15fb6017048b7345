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

import inspect
from pathlib import Path

import attrs
from lark import Token

from .cards import expand_cards
from .errors import RuleError, RuleFileError, Where
from .lang import calls
from .lang.codegen import CodeGen, CompileLimit
from .lang.names import BUILTINS, Names, suggest
from .lang.parser import EffectSyntaxError, parse_effect
from .limits import check_limits
from .loader_choices import ChoicesBuilder
from .model import Card, ChoiceDef, Game, PhaseDef, Script, TriggerDef, ZoneDef
from .structure import check_structure
from .yamlsafe import LoadedYaml, decode_rule_file, load_yaml

BOX = "box"


def load_game(path: str | Path) -> Game:
    """Load, check and compile a rule file; raise :class:`RuleFileError` listing
    every problem found."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise RuleFileError([RuleError(Where(str(path)), f"cannot read the rule file: {err}",
                                       hint="check the path and that the file is UTF-8 text")]) from None
    return load_game_text(decode_rule_file(data, str(path)), str(path))


def load_game_text(text: str, file: str = "<text>") -> Game:
    loaded = load_yaml(text, file)
    errors = check_limits(loaded) or check_structure(loaded)
    if errors:
        raise RuleFileError(errors)
    builder = _Builder(loaded)
    game = builder.build()
    if builder.errors or game is None:
        raise RuleFileError(builder.errors)
    return game


class _Builder(ChoicesBuilder):
    """Builds one Game from one loaded file, collecting every error."""

    def __init__(self, loaded: LoadedYaml):
        self.loaded = loaded
        self.data: dict = loaded.data
        self.file = loaded.file
        self.errors: list[RuleError] = []
        self.rule_where: dict[str, Where] = {}
        self._trees: dict = {}

    def err(self, path: tuple, message: str, expected: str = "", hint: str = "", key: bool = False):
        where = self.loaded.key_where(path) if key else self.loaded.where(path)
        error = RuleError(where, message, expected, hint)
        if error not in self.errors:      # e.g. one template error, not one per generated card
            self.errors.append(error)

    def cards(self) -> tuple[Card, ...]:
        cards = expand_cards(self.data["cards"], self.err)
        total = self.data.get("card_total")
        if total is not None and total != len(cards):
            counts = ", ".join(f"entry {i + 1} ('{e['name']}'): {n}"
                               for i, (e, n) in enumerate(self._entry_counts(cards)))
            self.err(("card_total",), f"the cards add up to {len(cards)}, but card_total says {total}",
                     f"{total} cards from the entries under cards", f"the entries make {counts}")
        return cards

    def _entry_counts(self, cards) -> list[tuple[dict, int]]:
        out = []
        for entry in self.data["cards"]:
            n = entry.get("count", 1)
            for values in entry.get("each", {}).values():
                n *= len(values)
            out.append((entry, n))
        return out

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
        """Check and compile everything; ``None`` (with ``errors``) if broken."""
        d = self.data
        cards = self.cards()
        self.zone_specs = self.zones()
        names = self.names(cards)
        gen = self.generator(names, cards)
        self.compile_all(gen, names, cards)
        if self.errors:
            return None
        try:
            ns = gen.build(self.file, cards)
        except CompileLimit as err:
            self.err((), f"the rules are too complex to compile: {err}", "simpler effect text",
                     "split long effect text into procedures")
            return None
        return self.assemble(ns, gen, names, cards, d)

    def names(self, cards) -> Names:
        """Everything effect text may name; duplicate phases and clashing names are errors."""
        d = self.data
        zdefs = {z["name"]: ZoneDef(z["name"], i, bool(z.get("per_player", False)),
                                    z.get("visibility", "public"), None, z.get("doc", ""),
                                    self.loaded.where(("zones", z["name"])) if i else None)
                 for i, z in enumerate(self.zone_specs)}
        phase_index: dict[str, int] = {}
        for i, ph in enumerate(d["turn"]["phases"]):
            if ph["name"] in phase_index:
                self.err(("turn", "phases", i, "name"), f"phase '{ph['name']}' is declared twice",
                         "unique phase names")
            phase_index.setdefault(ph["name"], i)
        for pname in d.get("procedures", {}):
            if pname in BUILTINS or pname in zdefs:
                self.err(("procedures", pname), f"procedure '{pname}' has the name of a "
                         + ("built-in function" if pname in BUILTINS else "zone"),
                         "another name", "procedures may be used as name(args), so the names must differ",
                         key=True)
        trees = [t for t in (self.parse(path) for path in self._script_paths()) if t is not None]
        event_fields = {str(k.children[0]) for t in trees for sub in t.iter_subtrees()
                        if sub.data == "emit_stmt" and sub.children[1] is not None
                        for k in sub.children[1].children}
        eliminates = any(sub.data == "eliminate_stmt" for t in trees for sub in t.iter_subtrees())
        for oname, ospec in d.get("options", {}).items():
            if "values" in ospec and ospec["default"] not in ospec["values"]:
                self.err(("options", oname, "default"), f"option '{oname}' defaults to "
                         f"{ospec['default']!r}, which is not one of its values",
                         "one of: " + ", ".join(map(repr, ospec["values"])))
            for section in ("zones", "vars", "tables", "choices", "procedures"):
                if oname in d.get(section, {}) or (section == "zones" and oname == BOX):
                    self.err(("options", oname), f"'{oname}' names both a match option and an entry of {section}",
                             "distinct names for options, zones, variables, tables, choices and procedures",
                             "effect text could not tell which one is meant", key=True)
        for name in zdefs:
            for section in ("vars", "tables", "choices"):
                if name in d.get(section, {}):
                    self.err(("zones", name), f"'{name}' names both a zone and an entry of {section}",
                             "distinct names for zones, variables, tables and choices", key=True)
        return Names(
            zones=zdefs, vars=frozenset(d.get("vars", {})),
            player_vars=frozenset(d.get("player_vars", {})), tables=d.get("tables", {}),
            choices=frozenset(d.get("choices", {})), procedures=frozenset(d.get("procedures", {})),
            phases=phase_index,
            min_players=d["players"]["min"], max_players=d["players"]["max"],
            proc_params={n: tuple(p.get("params", ())) for n, p in d.get("procedures", {}).items()
                         if isinstance(p, dict)},
            choice_params={n: tuple(c.get("params", ())) for n, c in d.get("choices", {}).items()},
            choice_skip={n: c["skip_if_only"] for n, c in d.get("choices", {}).items() if "skip_if_only" in c},
            one_card_choices=frozenset(
                n for n, c in d.get("choices", {}).items()
                if c.get("options") and all(o.get("cards") == 1 and "parts" not in o and "player" not in o
                                            for o in c["options"])),
            options={n: o["default"] for n, o in d.get("options", {}).items()},
            event_fields=frozenset(event_fields), eliminates=eliminates)

    def generator(self, names: Names, cards) -> CodeGen:
        """A code generator told which scripts can stop at a decision."""
        d = self.data
        procs = {n: self.parse(self.proc_path(n)) for n in d.get("procedures", {})}
        triggers = d.get("triggers", [])
        trig_trees = [(t["on"], self.parse(("triggers", i, "effect"))) for i, t in enumerate(triggers)]
        deciding_procs, deciding_events, trig_gen = calls.deciding(procs, trig_trees)
        if_none_gen = {}
        for cname, cspec in d.get("choices", {}).items():
            if "if_none" in cspec:
                tree = self.parse(("choices", cname, "if_none"))
                if_none_gen[cname] = tree is not None and calls.decides(tree, deciding_procs,
                                                                         deciding_events)
        gen = CodeGen(names, deciding_procs, deciding_events,
                      [{"on": t["on"], "has_when": "when" in t, "index": i, "is_gen": trig_gen[i],
                        "each_player": bool(t.get("each_player"))}
                       for i, t in enumerate(triggers)], if_none_gen)
        gen.set_card_props(self.card_props(cards))
        gen.locate = self.loaded.text_where
        gen.inline_procs = calls.inlinable(procs, {n for n, p in names.proc_params.items() if p})
        gen.resets = tuple(any(any(section) for section in self.resets(when)) for when in ("turn", "phase"))
        gen.reset_scope = {(section, k): when for when in ("turn", "phase")
                           for section, declared in zip(("vars", "player_vars"), self.resets(when))
                           for k, _ in declared}
        return gen

    def resets(self, when: str) -> tuple:
        """((var, initial), ...), ((player var, initial), ...) declared ``reset: when``."""
        return tuple(tuple((k, v["initial"]) for k, v in self.data.get(section, {}).items()
                           if isinstance(v, dict) and v.get("reset") == when)
                     for section in ("vars", "player_vars"))

    def proc_path(self, name: str) -> tuple:
        """Where a procedure's effect text is (short or long form)."""
        return ("procedures", name, "effect") if isinstance(self.data["procedures"][name], dict) \
            else ("procedures", name)

    @staticmethod
    def card_props(cards) -> set[str]:
        return set().union(*(c.props for c in cards)) if cards else set()

    def _script(self, gen: CodeGen, fname: str, path: tuple, rule: str, params=(), kinds=None) -> None:
        self._compile(gen, fname, path, rule, params, "script", kinds)

    def _expression(self, gen: CodeGen, fname: str, path: tuple, rule: str, params=(), kinds=None) -> None:
        value = self.data
        for k in path:
            value = value[k]
        if isinstance(value, str):
            self._compile(gen, fname, path, rule, params, "expr", kinds)
        else:                        # a plain number or flag needs no compiling
            gen.constant(fname, value, params)

    def _compile(self, gen: CodeGen, fname: str, path: tuple, rule: str, params, start: str,
                 kinds=None) -> None:
        """Write function ``fname`` from the text at ``path`` (a stand-in if it does not parse)."""
        self.rule_where[rule] = self.loaded.where(path)
        tree = self.parse(path, start)
        if tree is None:
            gen.constant(fname, None, params)
            return
        gen.text_path = path
        (gen.script if start == "script" else gen.expression)(fname, tree, rule, params, kinds)
        self.report(path, gen)

    def compile_all(self, gen: CodeGen, names: Names, cards) -> None:
        """Write every generated function (errors are collected, not raised)."""
        d = self.data
        for i, spec in enumerate(self.zone_specs):
            if spec.get("limit") is not None:
                self._expression(gen, f"Z{i}", ("zones", spec["name"], "limit"),
                                 f"zone '{spec['name']}' limit", ("owner",))
        self.option_defs = {}
        props = self.card_props(cards)
        for cname, cspec in d.get("choices", {}).items():
            self.option_defs[cname] = self.choice(gen, cname, cspec, props)
            cparams = names.choice_params.get(cname, ())
            if "if_none" in cspec:
                self._script(gen, gen.if_none_fn[cname], ("choices", cname, "if_none"),
                             f"choice '{cname}' if_none", cparams)
            if cname in d.get("heuristics", {}):
                self._expression(gen, f"H_{gen.choice_fn[cname]}", ("heuristics", cname),
                                 f"heuristic '{cname}'", ("chosen", "option", "player") + cparams)
        for hname in d.get("heuristics", {}):
            if hname not in names.choices:
                self.err(("heuristics", hname), f"heuristic for unknown choice '{hname}'",
                         "the name of a choice", suggest(hname, names.choices), key=True)
        for pname in d.get("procedures", {}):
            self._script(gen, gen.proc_fn[pname], self.proc_path(pname), f"procedure '{pname}'",
                         names.proc_params.get(pname, ()))
        for vname, vspec in d.get("player_vars", {}).items():
            if isinstance(vspec, dict) and "shown_when" in vspec:
                self._expression(gen, f"VIS_{vname}", ("player_vars", vname, "shown_when"),
                                 f"player var '{vname}' shown_when", ("owner",), {"owner": "int"})
        self._triggers(gen)
        if "setup" in d:
            self._script(gen, "SETUP", ("setup",), "setup")
        flow_phases = []
        for i, ph in enumerate(d["turn"]["phases"]):
            path = ("turn", "phases", i, "effect")
            self.rule_where[f"phase '{ph['name']}'"] = self.loaded.where(path)
            tree = self.parse(path)
            if tree is not None:
                flow_phases.append((ph["name"], tree, path))
        gen.flow(flow_phases, lambda path: self.report(path, gen))
        if "first" in d["turn"]:
            self._expression(gen, "FIRST", ("turn", "first"), "turn first")
        else:
            gen.constant("FIRST", 0)
        for i, dname in enumerate(d.get("display", {})):
            self._expression(gen, f"D{i}", ("display", dname), f"display '{dname}'",
                             ("viewer", "player"), {"player": "int"})
        for i, sname in enumerate(d.get("stats", {})):
            self._expression(gen, f"S{i}", ("stats", sname), f"stat '{sname}'", ("outcome",))

    def _triggers(self, gen: CodeGen) -> None:
        emitted: set[str] = set()
        for path in self._script_paths():
            tree = self.parse(path)
            if tree is not None:
                emitted |= calls.collect_flags(tree)[2]
        for i, tspec in enumerate(self.data.get("triggers", [])):
            rule = f"trigger on '{tspec['on']}' #{i}"
            params = ("event", "owner") if tspec.get("each_player") else ("event",)
            kinds = {p: gen.TRIGGER_KINDS[p] for p in params}
            if "when" in tspec:
                self._expression(gen, f"W{i}", ("triggers", i, "when"), rule, params, kinds)
            self._script(gen, f"T{i}", ("triggers", i, "effect"), rule, params, kinds)
            if tspec["on"] not in emitted:
                self.err(("triggers", i, "on"), f"no effect ever emits event '{tspec['on']}'",
                         "an event named by some 'emit' statement",
                         suggest(tspec["on"], emitted) or f"add 'emit {tspec['on']}' where it happens")

    def _script_paths(self):
        """Where effect text (not a lone expression) is in the file."""
        d = self.data
        if "setup" in d:
            yield ("setup",)
        for n in d.get("procedures", {}):
            yield self.proc_path(n)
        for i in range(len(d.get("triggers", []))):
            yield ("triggers", i, "effect")
        for i in range(len(d["turn"]["phases"])):
            yield ("turn", "phases", i, "effect")
        for n, c in d.get("choices", {}).items():
            if "if_none" in c:
                yield ("choices", n, "if_none")

    def assemble(self, ns: dict, gen: CodeGen, names: Names, cards, d: dict) -> Game:
        """The frozen Game from the generated functions."""
        def as_script(fname: str, rule: str) -> Script:
            fn = ns[fname]
            return Script(rule, fn, inspect.isgeneratorfunction(fn), self.rule_where.get(rule))

        zones = tuple(attrs.evolve(z, limit=ns.get(f"Z{z.index}"),
                                   limit_fixed=self._fixed_limit(self.zone_specs[z.index].get("limit")))
                      for z in names.zones.values())
        choices = {cname: ChoiceDef(cname, cspec.get("prompt", cname), self.option_defs[cname],
                                    ns[gen.choice_fn[cname]], ns.get(f"H_{gen.choice_fn[cname]}"),
                                    self.loaded.where(("choices", cname)), names.choice_params[cname])
                   for cname, cspec in d.get("choices", {}).items()}
        triggers: dict[str, list] = {}
        for i, tspec in enumerate(d.get("triggers", [])):
            triggers.setdefault(tspec["on"], []).append(TriggerDef(
                tspec["on"], ns.get(f"W{i}"), as_script(f"T{i}", f"trigger on '{tspec['on']}' #{i}"),
                tspec.get("doc", "")))
        def initial(section: str) -> dict:
            return {k: v["initial"] if isinstance(v, dict) else v for k, v in d.get(section, {}).items()}

        visibility = {k: (v.get("visibility", "public"), ns.get(f"VIS_{k}"))
                      for k, v in d.get("player_vars", {}).items()
                      if isinstance(v, dict) and (v.get("visibility", "public") != "public")}
        return Game(
            name=d["name"], description=d.get("description", ""), file=self.file,
            min_players=names.min_players, max_players=names.max_players, cards=cards,
            zones=zones, tables=names.tables, vars=initial("vars"),
            player_vars=initial("player_vars"), choices=choices,
            options={k: dict(v) for k, v in d.get("options", {}).items()},
            resets={"turn": self.resets("turn"), "phase": self.resets("phase")},
            var_visibility=visibility,
            procedures={p: as_script(gen.proc_fn[p], f"procedure '{p}'") for p in d.get("procedures", {})},
            setup=as_script("SETUP", "setup") if "setup" in d else None,
            first_player=ns["FIRST"],
            phases=tuple(PhaseDef(ph["name"], ph.get("doc", ""), self.loaded.where(("turn", "phases", i)))
                         for i, ph in enumerate(d["turn"]["phases"])),
            flow=as_script("FLOW", "turn"),
            triggers={k: tuple(v) for k, v in triggers.items()},
            stats={s: ns[f"S{i}"] for i, s in enumerate(d.get("stats", {}))}, source=d,
            answers=ns["_ANS"],
            display={k: ns[f"D{i}"] for i, k in enumerate(d.get("display", {}))},
            rule_positions={k: v for k, v in self.rule_where.items() if v is not None},
            code=ns["__source__"], code_label=ns["__label__"], code_origins=ns["__origins__"])

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

