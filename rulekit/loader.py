"""Loading a rule file: YAML → checked structure → compiled, frozen :class:`Game`.

Stages, each reporting *every* problem it finds with file:line:column:

1. :mod:`rulekit.yamlsafe` reads the YAML safely (no object tags, no
   aliases, no duplicate keys) and remembers where every node is.
2. :mod:`rulekit.structure` checks the shape against the JSON Schema shipped
   in ``rulekit/schema/``.  A malformed item (a choice with an unknown key, a
   zone with a wrong value...) is set aside, and the rest goes on to stage 3,
   so one run reports the structural errors *and* those in the effect text.
   References to an item set aside are not reported as unknown names.
3. This module builds the model and compiles every piece of effect text with
   the lark grammar; unknown names, arities, strings that should be names
   (see :mod:`rulekit.lang.name_checks`) and table lookups that do not cover
   every player count are reported at their position in the file.

Every error is reported once, in file order, with the source line it points
into.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import weakref
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import attrs
from lark import Token

from . import narration
from .cards import expand_cards
from .composed import ComposedYaml
from .errors import RuleError, RuleFileError, Where
from .lang import calls, pass_inline, pass_kept, purity, trigger_guards, work
from .lang.bindings import bind, named_in
from .lang.codegen import CodeGen, CompileLimit
from .lang.gen_base import PendingCheck
from .lang.inline_exprs import expression_procs
from .lang.names import BUILTINS, Names, suggest
from .lang.parser import EffectSyntaxError, parse_effect, subtrees
from .lang.templates import TemplateError
from .lang.type_checks import ValueTypes, settled
from .limits import check_limits
from .loader_choices import ChoicesBuilder
from .loader_vars import known_set, var_kinds, var_sets, zone_sets
from .model import Card, ChoiceDef, Game, OptionDef, Origin, PhaseDef, Script, SkillDef, TriggerDef, ZoneDef
from .modules import compose
from .structure import Salvaged, check_shape, salvage
from .yamlsafe import LoadedYaml, decode_rule_file

BOX = "box"


def load_game(path: str | PathLike[str], tree: str | PathLike[str] | None = None) -> Game:
    """Load, check and compile a game: a rule file, or a folder holding
    ``game.yaml``, with every file it includes or extends (see
    :mod:`rulekit.modules`; ``tree`` is the folder they must stay in, by
    default the one that holds the game).  Raise :class:`RuleFileError`
    listing every problem found."""
    # (the origin's path is absolute: a process that unpickles the game may work in another folder)
    return _load(compose(Path(path), tree=None if tree is None else Path(tree)),
                 os.path.abspath(path), None if tree is None else os.path.abspath(tree), None)


def load_game_text(text: str | bytes, file: str = "<text>", tree: str | Path | None = None) -> Game:
    """:func:`load_game` of ``text``, read as the file ``file`` (the files it
    includes are found relative to it).  Bytes are read as a rule file's
    bytes are: UTF-8, anything else an error at its position."""
    if isinstance(text, (bytes, bytearray)):
        text = decode_rule_file(bytes(text), file)
    if not isinstance(text, str):
        raise TypeError(f"load_game_text takes a rule file's text (or bytes), not {type(text).__name__}")
    return _load(compose(Path(file), text, None if tree is None else Path(tree)), file,
                 None if tree is None else os.path.abspath(tree), text)


def digest_of(data: dict[str, Any]) -> str:
    """A digest of what a game's files say: their data once read and put
    together (a file's keys in its order, values of the plain types YAML
    gives), so not of comments, layout or the names the files go by, which
    change nothing in a match."""
    return hashlib.sha256(repr(data).encode("utf-8", "surrogatepass")).hexdigest()


#: the games of this process by their origin, while something holds them: a
#: game unpickled where it is loaded is that game, and is loaded once a process
_LOADED: weakref.WeakValueDictionary[Origin, Game] = weakref.WeakValueDictionary()


def loaded_again(origin: Origin) -> Game:
    """The game ``origin`` says, loaded again (once a process: every match
    pickled with it shares it); ValueError when its files changed since."""
    game = _LOADED.get(origin)
    if game is None:
        game = (load_game(origin.path, origin.tree) if origin.text is None
                else load_game_text(origin.text, origin.path, origin.tree))
        if game.origin is None or game.origin.digest != origin.digest:
            raise ValueError(f"the rule files of {game.name} ({origin.path}) changed since the game was "
                             "pickled: load the game again rather than unpickle it")
        _LOADED[origin] = game
    return game


def _load(loaded: LoadedYaml | ComposedYaml, path: str, tree: str | PathLike[str] | None, text: str | None) -> Game:
    lines = loaded.sources()
    over = check_limits(loaded)
    if over:                   # nothing larger than the limits is ever built
        raise RuleFileError(over, lines)
    errors, bad = check_shape(loaded)
    salvaged = salvage(loaded, bad) if errors else None
    if errors and salvaged is None:
        raise RuleFileError(errors, lines)
    builder = _Builder(salvaged.loaded if salvaged else loaded, salvaged)
    game = builder.build()
    if errors or builder.errors or game is None:
        raise RuleFileError(errors + builder.errors, lines)
    # how to load it again (what a pickled game carries), known once it is loaded: the game is frozen
    origin = Origin(path, None if tree is None else os.fspath(tree), text, digest_of(game.source))
    object.__setattr__(game, "origin", origin)
    _LOADED[origin] = game
    return game


class _Builder(ChoicesBuilder):
    """Builds one Game from one loaded file, collecting every error.

    ``salvaged`` (for a file with structural errors) says what was set aside:
    the rest is checked, and nothing is built.
    """

    def __init__(self, loaded: LoadedYaml | ComposedYaml, salvaged: Salvaged | None = None):
        self.loaded = loaded
        self.data: dict = loaded.data
        self.file = loaded.file
        self.errors: list[RuleError] = []
        self.rule_where: dict[str, Where] = {}
        self._trees: dict = {}
        self.salvaged = salvaged
        self.lost = None if salvaged is None else salvaged.lost()
        #: the checks of types made as texts compile, with the path of their text (settle_checks)
        self.pending: list[tuple[tuple, PendingCheck]] = []

    def err(self, path: tuple, message: str, expected: str = "", hint: str = "", key: bool = False):
        where = self.loaded.key_where(path) if key else self.loaded.where(path)
        span = self.loaded.span_at(where) \
            if key or isinstance(self.loaded.value_at(path), (str, int, float)) else 0
        error = RuleError(where, message, expected, hint, span)
        if error not in self.errors:      # e.g. one template error, not one per generated card
            self.errors.append(error)

    def cards(self) -> tuple[Card, ...]:
        cards = expand_cards(self.data["cards"], self.err)
        total = self.data.get("card_total")
        if total is not None and total != len(cards) and not (self.lost and self.lost.cards):
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
            text = self._text(path)
            tree = parse_effect(text, start)
            bindings = self.loaded.bindings_at(path) if isinstance(self.loaded, ComposedYaml) else None
            if bindings and named_in(text, bindings):
                tree = bind(tree, bindings)
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
            if isinstance(e, PendingCheck):
                self.pending.append((path, e))      # settled once every text is compiled
                continue
            error = RuleError(self.loaded.text_where(path, e.line, e.column), e.message, e.expected, e.hint,
                              e.span)
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
        self.settle_checks(gen, names)
        if self.errors or self.salvaged:     # a file with structural errors is only checked
            return None
        try:
            ns = gen.build(self.file, cards)
        except CompileLimit as err:
            self.err((), f"the rules are too complex to compile: {err}", "simpler effect text",
                     "split long effect text into procedures")
            return None
        return self.assemble(ns, gen, names, cards, d)

    def settle_checks(self, gen: CodeGen, names: Names) -> None:
        """The checks of types made as the texts were compiled, with the
        types of the variables the whole file settles (type_checks.settled)."""
        if not self.pending:
            return
        types = settled(names.value_types, gen.assigned)
        for path, check in self.pending:
            e = check.settled(types)
            if e is not None:
                error = RuleError(self.loaded.text_where(path, e.line, e.column), e.message, e.expected, e.hint,
                                  e.span)
                if error not in self.errors:
                    self.errors.append(error)

    def names(self, cards) -> Names:
        """Everything effect text may name; duplicate phases and clashing names are errors."""
        d = self.data
        self.find_option_effects()
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
        trees += self._lost_trees()
        self.emitted = narration.event_fields(trees)
        event_fields = set().union(*self.emitted.values()) if self.emitted else set()
        eliminates = any(sub.data == "eliminate_stmt" for t in trees for sub in subtrees(t))
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
        prop_values, list_props, nested_props = self.prop_values(cards)
        for vname in d.get("card_vars", {}):
            clash = ("a card property" if vname in prop_values
                     else "a player variable" if vname in d.get("player_vars", {}) else None)
            if clash:
                self.err(("card_vars", vname), f"card variable '{vname}' has the name of {clash}",
                         "another name", "card.name in effect text must say which one it reads",
                         key=True)
        card_vars = d.get("card_vars", {})
        for z in self.zone_specs:
            key = z.get("order_by")
            if key is None:
                continue
            if key in card_vars:
                zdefs[z["name"]] = attrs.evolve(zdefs[z["name"]], order_by=key)
            else:
                self.err(("zones", z["name"], "order_by"), f"no card variable '{key}' to list zone "
                         f"'{z['name']}' by", "the name of a card variable (card_vars:)",
                         suggest(str(key), card_vars) or f"declare it, e.g. card_vars: {{{key}: 0}}")
        name_sets = self.name_sets(prop_values, cards)
        self.var_sets = var_sets(d, name_sets, self.err, self.lost)
        for zname, (set_name, set_names, allowed) in zone_sets(d["zones"], name_sets, cards, self.err,
                                                               self.lost).items():
            zdefs[zname] = attrs.evolve(zdefs[zname], one_of=set_name, names=set_names, allowed=allowed)
        defaults = {n: o["default"] for n, o in d.get("options", {}).items()}
        return Names(
            zones=zdefs, vars=frozenset(d.get("vars", {})),
            player_vars=frozenset(d.get("player_vars", {})), tables=d.get("tables", {}),
            card_vars=frozenset(d.get("card_vars", {})),
            choices=frozenset(d.get("choices", {})),
            procedures=frozenset(d.get("procedures", {})) | frozenset(self.effect_paths),
            phases=phase_index,
            min_players=d["players"]["min"], max_players=d["players"]["max"],
            proc_params={**{n: _param_names(p.get("params", ())) for n, p in d.get("procedures", {}).items()
                            if isinstance(p, dict)},
                         **{p: ("chosen", "option", "player", "number")
                            + _param_names(d["choices"][c].get("params", ()))
                            for (c, _), p in self.option_effects.items()}},
            choice_params={n: _param_names(c.get("params", ())) for n, c in d.get("choices", {}).items()},
            choice_skip={n: c["skip_if_only"] for n, c in d.get("choices", {}).items() if "skip_if_only" in c},
            option_effects={c: tuple(effects) for c, effects in self.effects_by_choice.items()},
            one_card_choices=frozenset(
                n for n, c in d.get("choices", {}).items()
                if c.get("options") and all(o.get("cards") == 1 and "parts" not in o and "player" not in o
                                            for o in c["options"])),
            choice_options={} if self.lost else {
                n: frozenset(o["name"] for o in c["options"]) for n, c in d.get("choices", {}).items()
                if isinstance(c.get("options"), list)
                and all(isinstance(o, dict) and isinstance(o.get("name"), str) for o in c["options"])},
            options=defaults,
            event_fields=frozenset(event_fields), eliminates=eliminates,
            name_sets=name_sets, param_sets=self.param_sets(name_sets), prop_values=prop_values,
            list_props=frozenset(list_props), nested_props=frozenset(nested_props), lost=self.lost,
            value_types=ValueTypes.of(d, cards, defaults, self.salvaged.lost_props if self.salvaged else ()))

    def find_option_effects(self) -> None:
        """Options with an ``effect``: each is compiled as a procedure named
        ``choice.option`` (a name effect text cannot write, so it cannot clash)."""
        self.option_effects: dict[tuple[str, str], str] = {}
        self.effects_by_choice: dict[str, list[tuple[str, str]]] = {}    # choice -> [(option, procedure)]
        self.effect_paths: dict[str, tuple] = {}
        for cname, cspec in self.data.get("choices", {}).items():
            for i, option in enumerate(cspec["options"]):
                if "effect" in option:
                    pname = f"{cname}.{option['name']}"
                    self.option_effects[(cname, option["name"])] = pname
                    self.effects_by_choice.setdefault(cname, []).append((option["name"], pname))
                    self.effect_paths[pname] = ("choices", cname, "options", i, "effect")

    def _lost_trees(self) -> list:
        """The parse trees of effect text set aside with a malformed item (the
        events it emits are still emitted); their own errors are not reported."""
        out = []
        for text in self.salvaged.lost_texts if self.salvaged else ():
            try:
                out.append(parse_effect(text, "script"))
            except EffectSyntaxError:
                pass
        return out

    # ---- declared names ----------------------------------------------------------------
    def narration(self, spec: dict) -> dict[str, narration.Narration]:
        """Each ``narration:`` entry's pieces; an event no rule emits, or a
        placeholder that is not one of its fields, is an error at its place."""
        out = {}
        for event, text in spec.items():
            path = ("narration", event)
            if event not in self.emitted:
                self.err(path, f"narration for event '{event}', which no rule emits",
                         "the name of an event some 'emit' statement sends",
                         suggest(event, self.emitted) or "events: " + ", ".join(sorted(self.emitted)),
                         key=True)
                continue
            try:
                out[event] = narration.compile_narration(event, text, self.emitted[event])
            except TemplateError as e:
                body = text if isinstance(text, str) else text["text"]
                line, column = e.position(body)
                at = path if isinstance(text, str) else path + ("text",)
                self.errors.append(RuleError(self.loaded.text_where(at, line, column),
                                             e.message, e.expected, e.hint))
            except ValueError as e:
                fields = self.emitted[event]
                self.err(path + ("seats",), f"seat '{e.args[0]}' is not a field of event '{event}'",
                         "fields of the event: " + (", ".join(sorted(fields)) or "none"),
                         suggest(e.args[0], fields))
        return out

    @staticmethod
    def prop_values(cards) -> tuple[dict[str, dict], set[str], set[str]]:
        """Every value of every card property (a list's elements), in the
        order of the cards; the properties that are lists (what a string
        compared with one may be); and those that are lists or mappings
        (a list of their values is weighed: runtime_growth)."""
        values: dict[str, dict] = {}
        lists: set[str] = set()
        nested: set[str] = set()
        for card in cards:
            for prop, value in card.props.items():
                known = values.setdefault(prop, {})
                if isinstance(value, list):
                    lists.add(prop)
                    known.update(dict.fromkeys(v for v in value if not isinstance(v, (list, dict))))
                elif not isinstance(value, dict):
                    known[value] = None
                if isinstance(value, (list, dict)):
                    nested.add(prop)
        return values, lists, nested

    def name_sets(self, prop_values: dict[str, dict], cards: Sequence[Card]) -> dict[str, dict | None]:
        """The names each entry of ``names:`` declares, in order: its ``values``,
        every value of its ``card_props`` and the names of the cards its
        ``card_names`` picks (None when some card entries were set aside, so
        not every name is known)."""
        out: dict[str, dict | None] = {}
        for set_name, spec in self.data.get("names", {}).items():
            if isinstance(spec, list):
                out[set_name] = dict.fromkeys(spec)
                continue
            path = ("names", set_name)
            if "section" in spec:
                out[set_name] = self.section_names(set_name, spec)
                continue
            if "union" in spec and "card_props" not in spec and "values" not in spec:
                continue                    # made below, once the entries it joins are known
            if not any(k in spec for k in ("values", "card_props", "params", "card_names")):
                self.err(path, f"names entry '{set_name}' declares no names",
                         "values: [...], params: [...], card_props: [...] and / or card_names: {...}",
                         f"e.g. {set_name}: {{card_props: [kind]}} for every kind a card has")
                out[set_name] = None        # its uses are not reported on top
                continue
            found = dict.fromkeys(spec.get("values", ()))
            found.update(self.param_names(set_name, spec.get("params", ())))
            props = spec.get("card_props", ())
            for i, prop in enumerate([props] if isinstance(props, str) else props):
                if prop not in prop_values:
                    self._no_card_prop(path + ("card_props",) + (() if isinstance(props, str) else (i,)),
                                       prop, prop_values)
                    continue
                found.update(dict.fromkeys(v for v in prop_values[prop] if isinstance(v, str)))
            if "card_names" in spec:
                found.update(self.card_names(set_name, spec["card_names"], prop_values, cards))
            picks_cards = props or "card_names" in spec
            out[set_name] = None if picks_cards and self.lost and self.lost.cards else found
        for set_name, spec in self.data.get("names", {}).items():
            if isinstance(spec, dict) and "union" in spec:
                out[set_name] = self.union_names(set_name, spec, out)
        for set_name, spec in self.data.get("names", {}).items():
            if isinstance(spec, dict) and "except" in spec:
                out[set_name] = self.names_except(set_name, spec, out)
        return out

    def names_except(self, set_name: str, spec: dict, made: dict) -> dict | None:
        """An entry's names without those of the entries ``except`` lists
        (``{card_names: {}, except: [hero]}``: every card's name but the heroes')."""
        found = made.get(set_name)
        for i, other in enumerate(spec["except"]):
            if other not in made or other == set_name or "except" in self.data["names"].get(other, {}):
                self.err(("names", set_name, "except", i), f"'{other}' is not an entry of names: whose "
                         "names this one can leave out", "the name of another entry (itself made without except)",
                         suggest(other, [n for n in made if n != set_name]))
                continue
            if made[other] is None or found is None:
                return None
            found = {k: None for k in found if k not in made[other]}
        return found

    def card_names(self, set_name: str, where: dict, prop_values: dict[str, dict],
                   cards: Sequence[Card]) -> dict:
        """The names of the cards whose properties have the values ``where``
        gives (``{type: general}``: every general's name; ``{}``: every card's)."""
        for prop in where:
            if prop not in prop_values:
                self._no_card_prop(("names", set_name, "card_names", prop), prop, prop_values, key=True)
                return {}
        return dict.fromkeys(c.name for c in cards
                             if all(c.props.get(prop) == value for prop, value in where.items()))

    def _no_card_prop(self, path: tuple, prop: object, prop_values: dict[str, dict], key: bool = False) -> None:
        """A names entry reads a property no card has (unless card entries
        were set aside: it may be one of theirs)."""
        if not (self.lost and self.lost.cards):
            self.err(path, f"no card has a property '{prop}'", "a card property: " + ", ".join(sorted(prop_values)),
                     suggest(str(prop), prop_values), key=key)

    def param_names(self, set_name: str, params: list) -> dict:
        """The values a module's parameters stand for (a list's elements):
        a module's names entry made of what the game passed it."""
        found: dict = {}
        if not params:
            return found
        bindings = self.loaded.bindings_at(("names", set_name)) if isinstance(self.loaded, ComposedYaml) else None
        values = bindings.values if bindings else {}
        for i, param in enumerate(params):
            if param not in values:
                self.err(("names", set_name, "params", i), f"'{param}' is not a parameter of the module "
                         "that declares this names entry", "a value parameter declared under its params:",
                         suggest(str(param), values) or "params: names the module's own parameters")
                continue
            value = values[param]
            found.update(dict.fromkeys(v for v in (value if isinstance(value, list) else [value])
                                       if isinstance(v, str)))
        return found

    def union_names(self, set_name: str, spec: dict, made: dict) -> dict | None:
        """The names of other entries of ``names:`` together (with any of its own)."""
        found = dict(made.get(set_name) or {})
        for i, other in enumerate(spec["union"]):
            if other not in made or other == set_name or "union" in self.data["names"].get(other, {}):
                self.err(("names", set_name, "union", i), f"'{other}' is not an entry of names: that "
                         "this one can join", "the name of another entry (itself made without union)",
                         suggest(other, [n for n in made if n != set_name]))
                continue
            if made[other] is None:
                return None
            found.update(made[other])
        return found

    def section_names(self, set_name: str, spec: dict) -> dict | None:
        """The names of the items of a section (e.g. every skill declared);
        with ``card_props``, each value of those properties on a card must be
        one of them."""
        section = spec["section"]
        if self.lost and section in self.lost.sections:
            return None
        found = dict.fromkeys(self.data.get(section, {}))
        props = spec.get("card_props", ())
        props = [props] if isinstance(props, str) else props
        for i, entry in enumerate(self.data["cards"]):
            values = entry.get("props", {}) if isinstance(entry, dict) else {}
            for prop in props:
                given = values.get(prop, ())
                for j, value in enumerate(given if isinstance(given, list) else [given]):
                    if isinstance(value, str) and value not in found and not (self.lost and value in self.lost.names):
                        self.err(("cards", i, "props", prop) + ((j,) if isinstance(given, list) else ()),
                                 f"card '{entry.get('name')}' has {prop} '{value}', which is not "
                                 f"declared under {section}:", f"one of the {section} (names entry '{set_name}')",
                                 suggest(value, found) or f"declare it under {section}:")
        return found

    def param_sets(self, name_sets: dict) -> dict[tuple[str, str], tuple[str | None, ...]]:
        """For each procedure and choice with a parameter declared
        ``{name: p, one_of: SET}``: the SET of every parameter (None: any value)."""
        out = {}
        for kind, section in (("procedure", "procedures"), ("choice", "choices")):
            for name, spec in self.data.get(section, {}).items():
                params = spec.get("params", ()) if isinstance(spec, dict) else ()
                sets = tuple(p.get("one_of") if isinstance(p, dict) else None for p in params)
                for i, set_name in enumerate(sets):
                    if set_name is not None:
                        known_set((section, name, "params", i, "one_of"), set_name, name_sets, self.err, self.lost)
                if any(sets):
                    out[(kind, name)] = sets
        return out

    def generator(self, names: Names, cards) -> CodeGen:
        """A code generator told which scripts can stop at a decision."""
        d = self.data
        procs = {n: self.parse(self.proc_path(n)) for n in (*d.get("procedures", {}), *self.effect_paths)}
        triggers = d.get("triggers", [])
        trig_trees = [(t["on"], self.parse(("triggers", i, "effect"))) for i, t in enumerate(triggers)]
        deciding_procs, deciding_events, trig_gen = calls.deciding(procs, trig_trees)
        if_none_gen = {}
        for cname, cspec in d.get("choices", {}).items():
            if "if_none" in cspec:
                tree = self.parse(("choices", cname, "if_none"))
                if_none_gen[cname] = tree is not None and calls.decides(tree, deciding_procs,
                                                                         deciding_events)
        skill_of = {i: skill for skill, parts in getattr(self.loaded, "skill_parts", {}).items()
                    for i in parts.get("triggers", ())}
        gen = CodeGen(names, deciding_procs, deciding_events,
                      [{"on": t["on"], "has_when": "when" in t, "index": i, "is_gen": trig_gen[i],
                        "each_player": bool(t.get("each_player")), "skill": skill_of.get(i),
                        "seat_guard": (t.get("each_player") and isinstance(t.get("when"), str)
                                       and trigger_guards.seat_guard(self.parse(("triggers", i, "when"), "expr"))
                                       or None)}
                       for i, t in enumerate(triggers)], if_none_gen)
        gen.set_card_props(self.card_props(cards), cards, self.salvaged.lost_props if self.salvaged else ())
        gen.locate = self.loaded.text_where
        gen.proc_paths = {n: self.proc_path(n) for n in procs}
        gen.work = work.plan(procs, len(cards))
        with_params = {n for n, p in names.proc_params.items() if p}
        # those on a cycle of calls, or making many calls, are not written in place (see work.in_place)
        small = gen.work.in_place(pass_inline.MAX_CALLS)
        gen.inline_procs = {n: t for n, t in calls.inlinable(procs, with_params, gen.work.cycle).items() if n in small}
        gen.expr_procs = {n: e for n, e in expression_procs(procs, names.proc_params, deciding_procs,
                                                            gen.work.cycle).items() if n in small}
        self.pure_procs = purity.pure(procs, names.proc_params)
        gen.pure_procs = frozenset(self.pure_procs)
        self.proc_names = tuple(procs)
        memoized = {n for n in purity.costly(procs, self.pure_procs, names.proc_params) if n not in gen.inline_procs}
        gen.tables.memoized = {gen.proc_fn[n] for n in memoized}
        kept, gen.tables.kept_watch = pass_kept.plan(procs, memoized, names)
        gen.tables.kept = {gen.proc_fn[n] for n in kept}
        turn_resets, phase_resets = (any(any(section) for section in self.resets(when)) for when in ("turn", "phase"))
        gen.resets = (turn_resets, phase_resets)
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
        if name in self.effect_paths:
            return self.effect_paths[name]
        return ("procedures", name, "effect") if isinstance(self.data["procedures"][name], dict) \
            else ("procedures", name)

    def card_props(self, cards) -> set[str]:
        """Every card property (with those of card entries set aside)."""
        lost = self.salvaged.lost_props if self.salvaged else frozenset()
        return set().union(lost, *(c.props for c in cards))

    def _script(self, gen: CodeGen, fname: str, path: tuple, rule: str, params=(), kinds=None) -> None:
        self._compile(gen, fname, path, rule, params, "script", kinds)

    def _expression(self, gen: CodeGen, fname: str, path: tuple, rule: str, params=(), kinds=None,
                    reader: bool = False, wants: tuple[str, str] | None = None) -> None:
        """``reader``: a value read from outside the rules; ``wants``: what
        is needed of its value (see CodeGen.expression)."""
        value = self.data
        for k in path:
            value = value[k]
        if isinstance(value, str):
            self._compile(gen, fname, path, rule, params, "expr", kinds, reader, wants)
        else:                        # a plain number or flag needs no compiling
            gen.constant(fname, value, params, rule)

    def _scores(self, gen: CodeGen, cname: str, params: tuple[str, ...]) -> None:
        """The heuristic of choice ``cname`` for all options at once (see
        CodeGen.scores), when its text compiled without an error."""
        path = ("heuristics", cname)
        tree = self.parse(path, "expr") if isinstance(self.data["heuristics"][cname], str) else None
        if tree is None or self.errors:          # (a file with errors is not built)
            return
        gen.text_path = path
        gen.scores(gen.fn_name("scores", cname), tree, f"heuristic '{cname}'", params, gen.HEURISTIC_KINDS)
        gen.errors.clear()                       # (the heuristic's own function told of them)

    def _compile(self, gen: CodeGen, fname: str, path: tuple, rule: str, params, start: str,
                 kinds=None, reader: bool = False, wants: tuple[str, str] | None = None) -> None:
        """Write function ``fname`` from the text at ``path`` (a stand-in if it does not parse)."""
        self.rule_where[rule] = self.loaded.where(path)
        tree = self.parse(path, start)
        if tree is None:
            gen.constant(fname, None, params, rule)
            return
        gen.text_path = path
        if start == "script":
            gen.script(fname, tree, rule, params, kinds)
        else:
            gen.expression(fname, tree, rule, params, kinds, reader, wants)
        self.report(path, gen)

    def compile_all(self, gen: CodeGen, names: Names, cards) -> None:
        """Write every generated function (errors are collected, not raised)."""
        d = self.data
        for spec in self.zone_specs:
            if spec.get("limit") is not None:
                self._expression(gen, gen.fn_name("limit", spec["name"]), ("zones", spec["name"], "limit"),
                                 f"zone '{spec['name']}' limit", ("owner",),
                                 wants=(f"the limit of zone '{spec['name']}'", "number"))
        self.option_defs = {}
        props = self.card_props(cards)
        for cname, cspec in d.get("choices", {}).items():
            gen.declared_params = self._declared_params("choice", cname, names)
            self.option_defs[cname] = self.choice(gen, cname, cspec, props)
            cparams = names.choice_params.get(cname, ())
            if "if_none" in cspec:
                self._script(gen, gen.if_none_fn[cname], ("choices", cname, "if_none"),
                             f"choice '{cname}' if_none", cparams)
            if cname in d.get("heuristics", {}):
                self._expression(gen, gen.fn_name("heuristic", cname), ("heuristics", cname),
                                 f"heuristic '{cname}'", ("chosen", "option", "player") + cparams,
                                 gen.HEURISTIC_KINDS, reader=True, wants=(f"heuristic '{cname}'", "number"))
                self._scores(gen, cname, ("chosen", "option", "player") + cparams)
        gen.declared_params = {}
        for hname in d.get("heuristics", {}):
            if hname not in names.choices and not (self.lost and (hname in self.lost.names
                                                                 or "choices" in self.lost.sections)):
                self.err(("heuristics", hname), f"heuristic for unknown choice '{hname}'",
                         "the name of a choice", suggest(hname, names.choices), key=True)
        for pname in d.get("procedures", {}):
            path = self.proc_path(pname)
            gen.declared_params = self._declared_params("procedure", pname, names)
            gen.returning_for = gen.writing_proc = pname
            self._script(gen, gen.proc_fn[pname], path, f"procedure '{pname}'",
                         names.proc_params.get(pname, ()))
            gen.declared_params, gen.returning_for, gen.writing_proc = {}, None, None
        for (cname, oname), pname in self.option_effects.items():
            gen.declared_params = {k: v for k, v in self._declared_params("choice", cname, names).items()}
            gen.writing_proc = pname
            self._script(gen, gen.proc_fn[pname], self.effect_paths[pname],
                         f"option '{oname}' of choice '{cname}'", names.proc_params[pname])
            gen.declared_params, gen.writing_proc = {}, None
        for vname, vspec in d.get("player_vars", {}).items():
            if isinstance(vspec, dict) and "shown_when" in vspec:
                self._expression(gen, gen.fn_name("shown", vname), ("player_vars", vname, "shown_when"),
                                 f"player var '{vname}' shown_when", ("owner",), {"owner": "int"}, reader=True)
        self._triggers(gen)
        if "setup" in d:
            self._script(gen, gen.fn_name("setup"), ("setup",), "setup")
        flow_phases = []
        for i, ph in enumerate(d["turn"]["phases"]):
            path = ("turn", "phases", i, "effect")
            self.rule_where[f"phase '{ph['name']}'"] = self.loaded.where(path)
            tree = self.parse(path)
            if tree is not None:
                flow_phases.append((ph["name"], tree, path))
        gen.flow(flow_phases, lambda path: self.report(path, gen))
        if "first" in d["turn"]:
            self._expression(gen, gen.fn_name("first"), ("turn", "first"), "turn first")
        else:
            gen.constant(gen.fn_name("first"), 0, rule="turn first")
        for dname, spec in d.get("display", {}).items():
            path = ("display", dname) + (("value",) if isinstance(spec, dict) else ())
            self._expression(gen, gen.fn_name("display", dname), path, f"display '{dname}'",
                             ("viewer", "player"), {"player": "int"}, reader=True)
        for pname, spec in d.get("public", {}).items():
            path = ("public", pname) + (("value",) if isinstance(spec, dict) else ())
            self._expression(gen, gen.fn_name("public", pname), path, f"public '{pname}'", ("viewer",),
                             reader=True)
        for sname in d.get("stats", {}):
            self._expression(gen, gen.fn_name("stat", sname), ("stats", sname), f"stat '{sname}'", ("outcome",),
                             reader=True)
        self.narrations = self.narration(d.get("narration", {}))
        for sname in d.get("player_stats", {}):
            self._expression(gen, gen.fn_name("player_stat", sname), ("player_stats", sname),
                             f"player stat '{sname}'",
                             ("player", "outcome"), {"player": "int"}, reader=True)

    @staticmethod
    def _declared_params(kind: str, name: str, names: Names) -> dict[str, str]:
        """The parameters of a procedure or choice that take a name from a
        ``names:`` entry (the code generator skips those its text sets)."""
        sets = names.param_sets.get((kind, name))
        if not sets:
            return {}
        params = names.proc_params.get(name, ()) if kind == "procedure" else names.choice_params.get(name, ())
        return {p: s for p, s in zip(params, sets) if s is not None}

    def _triggers(self, gen: CodeGen) -> None:
        emitted: set[str] = set()
        for tree in [self.parse(path) for path in self._script_paths()] + self._lost_trees():
            if tree is not None:
                emitted |= calls.collect_flags(tree)[2]
        for i, tspec in enumerate(self.data.get("triggers", [])):
            rule = f"trigger on '{tspec['on']}' #{i}"
            params = ("event", "owner") if tspec.get("each_player") else ("event",)
            kinds = {p: gen.TRIGGER_KINDS[p] for p in params}
            if "when" in tspec:
                self._expression(gen, gen.triggers[i]["when_fn"], ("triggers", i, "when"), rule, params, kinds)
            self._script(gen, gen.triggers[i]["fn"], ("triggers", i, "effect"), rule, params, kinds)
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
        yield from self.effect_paths.values()
        for i in range(len(d.get("triggers", []))):
            yield ("triggers", i, "effect")
        for i in range(len(d["turn"]["phases"])):
            yield ("turn", "phases", i, "effect")
        for n, c in d.get("choices", {}).items():
            if "if_none" in c:
                yield ("choices", n, "if_none")

    def _memo_safe(self, cname: str, d: dict) -> bool:
        """Does the heuristic of choice ``cname`` call no procedure but pure ones?"""
        if not isinstance(d.get("heuristics", {}).get(cname), str):
            return False
        return purity.calls_only(self.parse(("heuristics", cname), "expr"),
                                 set(self.proc_names), self.pure_procs)

    def assemble(self, ns: dict, gen: CodeGen, names: Names, cards, d: dict) -> Game:
        """The frozen Game from the generated functions."""
        def as_script(fname: str, rule: str) -> Script:
            fn = ns[fname]
            return Script(rule, fn, inspect.isgeneratorfunction(fn), self.rule_where.get(rule))

        zones = tuple(attrs.evolve(z, limit=ns.get(gen.fn_name("limit", z.name)),
                                   limit_fixed=self._fixed_limit(self.zone_specs[z.index].get("limit")))
                      for z in names.zones.values())
        through = gen.param_option_zones()
        choices = {cname: ChoiceDef(cname, cspec.get("prompt", cname), self._sourced(cname, zones, gen, through),
                                    ns[gen.choice_fn[cname]], ns.get(gen.fn_name("heuristic", cname)),
                                    ns.get(gen.fn_name("scores", cname)),
                                    self.loaded.where(("choices", cname)), names.choice_params[cname],
                                    cspec.get("skip_if_only"), self._memo_safe(cname, d))
                   for cname, cspec in d.get("choices", {}).items()}
        triggers: dict[str, list] = {}
        for i, tspec in enumerate(d.get("triggers", [])):
            triggers.setdefault(tspec["on"], []).append(TriggerDef(
                tspec["on"], ns.get(gen.triggers[i]["when_fn"]),
                as_script(gen.triggers[i]["fn"], f"trigger on '{tspec['on']}' #{i}"),
                tspec.get("doc", "")))
        def initial(section: str) -> dict:
            return {k: v["initial"] if isinstance(v, dict) else v for k, v in d.get(section, {}).items()}

        visibility = {k: (v.get("visibility", "public"), ns.get(gen.fn_name("shown", k)))
                      for k, v in d.get("player_vars", {}).items()
                      if isinstance(v, dict) and (v.get("visibility", "public") != "public")}
        return Game(
            name=d["name"], description=d.get("description", ""), file=self.file,
            min_players=names.min_players, max_players=names.max_players, cards=cards,
            zones=zones, tables=names.tables, vars=initial("vars"),
            player_vars=initial("player_vars"), card_vars=dict(d.get("card_vars", {})), choices=choices,
            options={k: dict(v) for k, v in d.get("options", {}).items()},
            resets={"turn": self.resets("turn"), "phase": self.resets("phase")},
            var_visibility=visibility, var_sets=self.var_sets, var_kinds=var_kinds(d),
            procedures={p: as_script(gen.proc_fn[p], f"procedure '{p}'") for p in d.get("procedures", {})},
            setup=as_script(gen.fn_name("setup"), "setup") if "setup" in d else None,
            first_player=ns[gen.fn_name("first")],
            phases=tuple(PhaseDef(ph["name"], ph.get("doc", ""), self.loaded.where(("turn", "phases", i)))
                         for i, ph in enumerate(d["turn"]["phases"])),
            flow=as_script(gen.fn_name("turn"), "turn"),
            triggers={k: tuple(v) for k, v in triggers.items()},
            stats={s: ns[gen.fn_name("stat", s)] for s in d.get("stats", {})}, source=d,
            player_stats={s: ns[gen.fn_name("player_stat", s)] for s in d.get("player_stats", {})},
            narration=self.narrations,
            inlined=frozenset(gen.inline_procs) | frozenset(gen.expr_procs),
            answers=ns["_ANS"],
            display={k: ns[gen.fn_name("display", k)] for k in d.get("display", {})},
            public={k: ns[gen.fn_name("public", k)] for k in d.get("public", {})},
            skills=self.skills(), files=tuple(self.loaded.sources()),
            rule_positions={k: v for k, v in self.rule_where.items() if v is not None},
            code=ns["__source__"], code_label=ns["__label__"], code_origins=ns["__origins__"],
            code_calls=ns["__calls__"], code_names=ns["__names__"])

    def _sourced(self, cname: str, zones: tuple[ZoneDef, ...], gen: CodeGen,
                 through: dict[tuple[str, str], frozenset[int]]) -> tuple[OptionDef, ...]:
        """The choice's options, each card option with the cards it can ever
        offer: those its zones may hold, when every zone it takes cards from
        declares them (``one_of``); ``through``: the zones of the options
        that offer a parameter's cards or a procedure's result
        (:meth:`Choices.param_option_zones`)."""
        out = []
        for o in self.option_defs[cname]:
            where = gen.option_zones.get((cname, o.name)) if o.kind == "cards" else None
            if where is None and o.kind == "cards":
                where = through.get((cname, o.name))      # (cards passed in, or a procedure's result)
            if where is not None:
                held = [zones[i].allowed for i in sorted(where)]
                if all(h is not None for h in held):
                    o = attrs.evolve(o, cards_from=tuple(sorted({cid for h in held if h for cid in h})))
            out.append(o)
        return tuple(out)

    def skills(self) -> dict[str, SkillDef]:
        parts = getattr(self.loaded, "skill_parts", {})
        out = {}
        for name, spec in self.data.get("skills", {}).items():
            kind = spec.get("kind", ())
            got = parts.get(name, {})
            out[name] = SkillDef(name, spec["text"], (kind,) if isinstance(kind, str) else tuple(kind),
                                 tuple(tuple(o) for o in got.get("options", ())), len(got.get("triggers", ())),
                                 tuple(got.get("procedures", ())), self.loaded.where(("skills", name)),
                                 spec.get("doc", ""))
        return out

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



def _param_names(params) -> tuple[str, ...]:
    """Parameter names, from ``[p, {name: skill, one_of: skill}]``."""
    return tuple(p["name"] if isinstance(p, dict) else p for p in params)
