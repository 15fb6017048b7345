"""Rule files as modules: ``include``, ``extends`` and ``override``.

A game may be one file or a folder holding ``game.yaml``.  Any rule file may
pull in others::

    extends: base.yaml                # a whole game this one changes
    include: [rules/combat.yaml, cards.yaml, heroes]   # parts it is made of
    override:                         # items it replaces on purpose
      tables: {hand_size: {1: 6, 2: 6, 3: 5, 4: 4}}

Paths are relative to the file that names them, written with ``/``, and
must stay inside the game's *tree*: the folder that holds the game (the
file, or the game's folder).  A folder included means its ``game.yaml``
if it has one, else every ``.yaml`` file in it in name order.  A file
reached twice (two modules include a third) is read once; a file that
reaches itself is refused with the chain of files.

Merging, section by section, in the order base (``extends``), included
files, the file's own sections, then its ``override``:

* named items (choices, procedures, zones, tables, skills...) are united;
  the same name defined twice is an error that names both positions, unless
  the second is under ``override:``, which replaces the first (and must
  name one that exists);
* cards and triggers are appended; phases are appended by name;
* ``name`` and ``description`` are those of the file loaded (a game names
  itself); any other single value (``players``, ``setup``...) may be given
  once, or replaced under ``override:``.

The merged data has the shape of a single rule file, so every later stage
is unchanged; :class:`~rulekit.composed.ComposedYaml` keeps where each item
was written, so errors point into the module that holds the rule.
"""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from . import limits
from .composed import ComposedYaml
from .errors import RuleError, RuleFileError, Where, source_lines
from .lang.bindings import Bindings, inherited, is_value
from .lang.names import suggest
from .skills import MARKER, expand_skills
from .yamlsafe import LoadedYaml, decode_rule_file, load_yaml, read_rule_file

GAME_FILE = "game.yaml"
MODULE_KEYS = ("include", "extends", "override", "module", "params")
#: the keys of an entry of ``include`` / ``extends`` written as a mapping
ENTRY_KEYS = ("file", "with")
NAMED = ("options", "tables", "names", "zones", "vars", "player_vars", "card_vars", "choices", "procedures",
         "stats", "player_stats", "narration", "display", "public", "heuristics", "skills")
LISTS = ("cards", "triggers")
#: the loaded file's own value replaces the one of a file it includes or extends
OWN = ("name", "description")
_ITEM = {"options": "match option", "tables": "table", "names": "names entry", "zones": "zone",
         "vars": "variable", "player_vars": "player variable", "card_vars": "card variable", "choices": "choice",
         "procedures": "procedure", "stats": "stat", "player_stats": "player stat", "narration": "narration",
         "display": "display entry",
         "public": "public entry", "heuristics": "heuristic", "skills": "skill"}


def game_file(path: Path) -> Path:
    """The file to read for a game: a folder game's ``game.yaml``."""
    return path / GAME_FILE if path.is_dir() else path


def _unreadable(file: Path, err: OSError) -> tuple[str, str, str]:
    """The message, what was expected and a hint for a rule file that could
    not be read: a folder without ``game.yaml`` names the rule files it does
    hold, a missing file the nearest name beside it."""
    said = "cannot read the rule file"
    folder = file.parent
    if not isinstance(err, FileNotFoundError):
        return f"{said}: {err.strerror or err}", "", "check the path and that the file is UTF-8 text"
    if not folder.is_dir():
        return f"{said}: there is no folder {folder}", "", "check the path"
    try:
        names = sorted(p.name + "/" if p.is_dir() else p.name for p in folder.iterdir()
                       if p.suffix in (".yaml", ".yml") or (p / GAME_FILE).is_file())[:limits.MAX_MODULES]
    except OSError:
        names = []
    if file.name == GAME_FILE:
        shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
        return (f"{said}: {folder} is a folder without {GAME_FILE}",
                f"a rule file (NAME.yaml), or a game's folder holding {GAME_FILE}",
                f"the rule files in {folder}: {shown}" if names else
                "give the path of a rule file or of a game's folder")
    close = suggest(file.name, [n.rstrip("/") for n in names])
    return (f"{said}: there is nothing called {file.name} in {folder}", "",
            close or "check the path (a game is a rule file, or a folder holding game.yaml)")


def default_tree(file: Path) -> Path:
    """The folder that holds the game: a folder game's parent folder, else
    the file's folder."""
    folder = file.parent
    return folder.parent if file.name == GAME_FILE else folder


def is_module(data: object) -> bool:
    """A rule file's data is a module's, not a game's: ``module:`` and no ``name:``."""
    return isinstance(data, dict) and "module" in data and "name" not in data


def compose(path: Path, text: str | None = None, tree: Path | None = None) -> LoadedYaml | ComposedYaml:
    """The game at ``path`` (a file or a game folder) with every file it
    includes or extends merged in; ``text`` is the file's text when it is
    not to be read from disk.  Raise :class:`RuleFileError` with every
    problem of reading and merging the files."""
    file = game_file(path) if text is None else path
    composer = _Composer(default_tree(file) if tree is None else tree)
    root = composer.read(file, None, text)
    if root is None:
        raise RuleFileError(composer.errors, composer.sources)
    if is_module(root.data):
        raise RuleFileError([RuleError(
            root.key_where(("module",)), f"{root.file} is a module, not a game: it has 'module:' and no 'name:'",
            "a game (a file with name:, players:, cards:...)",
            "a module is checked as part of a game that includes it: validate or load that game, "
            "and errors in the module are reported at their place in the module")], composer.sources)
    if not _composed(root.data):
        return root                         # one plain file: nothing to merge
    composer.compose(root, file, ())
    merged = ComposedYaml(composer.data, root.file, composer.origins, composer.files,
                          bindings={k: v for k, v in composer.bindings.items() if v})
    composer.errors += expand_skills(merged)
    if composer.errors:
        raise RuleFileError(composer.errors, merged.sources())
    return merged


class _Composer:
    def __init__(self, tree: Path):
        self.tree = Path(os.path.abspath(tree)).resolve()
        self.errors: list[RuleError] = []
        self.sources: dict[str, Any] = {}
        self.files: dict[str, LoadedYaml] = {}
        self.seen: set[Path] = set()
        self.data: dict = {}
        self.origins: dict = {}
        self.bindings: dict[str, Bindings] = {}
        self.reached: dict[str, set[str]] = {}
        #: (section, name) -> the file whose override: put the item there
        self.overrider: dict[tuple, LoadedYaml] = {}

    # ---- reading files -----------------------------------------------------------
    def read(self, file: Path, included_at: Where | None, text: str | None = None) -> LoadedYaml | None:
        name = os.path.normpath(str(file)) if included_at is not None else str(file)
        if len(self.files) >= limits.MAX_MODULES:
            self.errors.append(RuleError(included_at or Where(name), f"the game reads more than "
                                         f"{limits.MAX_MODULES} files (MAX_MODULES)",
                                         "fewer modules", "check for a folder included by mistake"))
            return None
        try:
            if text is None:
                text = decode_rule_file(read_rule_file(file, name), name)
            self.sources[name] = source_lines(text)
            loaded = load_yaml(text, name)
        except OSError as err:
            self.errors.append(RuleError(included_at or Where(name), *_unreadable(file, err)))
            return None
        except RuleFileError as err:
            self.errors.extend(err.errors)
            return None
        self.files[name] = loaded
        return loaded

    # ---- putting the game together ------------------------------------------------
    def compose(self, loaded: LoadedYaml, file: Path, chain: tuple[Path, ...]) -> None:
        """Merge ``loaded`` after what it extends and includes."""
        real = file.resolve()
        self.seen.add(real)
        chain = chain + (real,)
        data = loaded.data
        before = set(self.files)
        if "extends" in data:
            for target in self.targets(loaded, ("extends",), data["extends"], file, one=True):
                self.visit(target, loaded, ("extends",), chain)
        if "include" in data:
            value = data["include"]
            items = value if isinstance(value, list) else [value]
            for i, item in enumerate(items):
                path = ("include", i) if isinstance(value, list) else ("include",)
                for target in self.targets(loaded, path, item, file):
                    self.visit(target, loaded, path, chain)
        if "module" in data and not isinstance(data["module"], str):
            self.err(loaded, ("module",), "'module' holds a text: what this module is for",
                     "module: \"the rules of combat\"")
        # the files this one reached (itself included): whose overrides it may override in turn
        self.reached[loaded.file] = set(self.files) - before | {loaded.file}
        self.merge(loaded)
        if "override" in data:
            self.override(loaded)

    def visit(self, target: Path, by: LoadedYaml, path: tuple, chain: tuple[Path, ...]) -> None:
        real = target.resolve()
        if real in chain:
            shown = " → ".join(self.shown(p) for p in chain[chain.index(real):] + (real,))
            self.err(by, path, f"the files include each other in a cycle: {shown}",
                     "modules that do not reach themselves", "move what they share into a third module")
            return
        item = by.value_at(path)
        given = item.get("with", {}) if isinstance(item, dict) else {}
        if real in self.seen:                  # a module two files need is read once
            name = next((n for n, f in self.files.items() if Path(n).resolve() == real), None)
            if name is not None and given and self.bindings.get(name) != inherited(
                    self.bindings.get(by.file), self.bind(self.files[name], by, path, given, report=False)):
                self.err(by, path + ("with",), f"'{self.shown(real)}' is already included with other "
                         "parameters", "one set of parameters per module in a game",
                         "a module is read once; give it the same 'with:' everywhere", key=True)
            return
        loaded = self.read(target, by.where(path))
        if loaded is not None:
            self.bindings[loaded.file] = inherited(self.bindings.get(by.file),
                                                   self.bind(loaded, by, path, given))
            self.compose(loaded, target, chain)

    def bind(self, module: LoadedYaml, by: LoadedYaml, path: tuple, given: Any,
             report: bool = True) -> Bindings:
        """What the parameters of ``module`` stand for, from the ``with:`` of
        the file that includes it and the defaults."""
        err = self.err if report else (lambda *a, **k: None)
        declared = module.data.get("params", {})
        if not isinstance(declared, dict):
            err(module, ("params",), "'params' declares the module's parameters by name",
                "params: {attack: {doc: the card kind used to attack, default: strike}}")
            declared = {}
        if not isinstance(given, dict):
            err(by, path + ("with",), "'with' gives the module's parameters by name", "with: {attack: strike}")
            given = {}
        for key in given:
            if key not in declared:
                err(by, path + ("with", key), f"'{module.file}' has no parameter '{key}'",
                    "a parameter declared under its params:", suggest(str(key), declared)
                    or ("it declares: " + ", ".join(map(str, declared)) if declared else "it declares none"),
                    key=True)
        names, values = {}, {}
        for name, spec in declared.items():
            spec = spec if isinstance(spec, dict) else {}
            kind = spec.get("kind", "value")
            where = ("with", name) if name in given else ()
            if kind not in ("value", "name") or set(spec) - {"doc", "kind", "default"}:
                err(module, ("params", name), f"parameter '{name}' is declared as "
                    "{doc: ..., kind: value | name, default: ...}", "doc, kind and default only")
                continue
            if name not in given and "default" not in spec:
                err(by, path, f"'{module.file}' needs a value for its parameter '{name}'"
                    + (f" ({spec['doc']})" if spec.get("doc") else ""), f"with: {{{name}: ...}}")
                continue
            value = given.get(name, spec.get("default"))
            if kind == "name":
                if not isinstance(value, str) or not value.isidentifier():
                    err(by, path + where, f"parameter '{name}' is a name, not {value!r}",
                        "a name such as hp or life")
                    continue
                if value != name:
                    names[name] = value
            elif not is_value(value):
                err(by, path + where, f"parameter '{name}' is a text, a number or a list of them, "
                    f"not {value!r}", "e.g. strike, 4 or [heal, potion]")
            else:
                values[name] = value
        return Bindings(names, values)

    def shown(self, real: Path) -> str:
        try:
            return str(real.relative_to(self.tree))
        except ValueError:                      # pragma: no cover - all are inside
            return str(real)

    def inside(self, real: Path) -> bool:
        """Whether a resolved path is in the game's tree."""
        return real == self.tree or self.tree in real.parents

    def outside(self, loaded: LoadedYaml, path: tuple, value: str) -> None:
        self.err(loaded, path, f"'{value}' is outside the game's tree ({self.tree})",
                 "a file inside the folder that holds the game",
                 "copy the module into the tree; a rule file cannot read files elsewhere")

    def targets(self, loaded: LoadedYaml, path: tuple, value: Any, file: Path, one: bool = False) -> list[Path]:
        """The files a path of ``include`` / ``extends`` names (none, reported, if it is wrong).
        Links are followed, so each file is checked to be in the tree where
        it really is, the files of an included folder too: a link in a shared
        folder must not let a rule file read a file elsewhere."""
        what = "extends" if one else "include"
        if isinstance(value, dict):
            # a misspelt 'with' would leave the parameters at their defaults without a word
            unknown = [key for key in value if key not in ENTRY_KEYS]
            for key in unknown:
                self.err(loaded, path + (key,), f"'{key}' is not a key of an '{what}' entry",
                         "file: (the path) and with: (the module's parameters)",
                         suggest(str(key), ENTRY_KEYS), key=True)
            if unknown and "file" not in value:
                return []                       # a misspelt 'file': said once
            value = value.get("file")
            path = path + ("file",)
        if not isinstance(value, str) or not value.strip():
            self.err(loaded, path, f"'{what}' names a file by its relative path",
                     "a path such as rules/combat.yaml" + ("" if one else ", or a list of them"))
            return []
        if "\\" in value or value.startswith("~") or PurePosixPath(value).is_absolute() \
                or PureWindowsPath(value).drive:
            self.err(loaded, path, f"'{value}' is not a relative path written with '/'",
                     "a path relative to this file, e.g. ../modules/combat.yaml",
                     "a game is moved and shared as one folder, so it names its files relative to each other")
            return []
        try:
            return self.files_named(loaded, path, value, file)
        except (OSError, RuntimeError, ValueError) as err:  # a name too long, a loop of links...
            shown = value if len(value) <= 60 else value[:57] + "..."
            self.err(loaded, path, f"cannot use the path '{shown}': "
                     f"{getattr(err, 'strerror', None) or err}", "the path of a rule file relative to this one")
            return []

    def files_named(self, loaded: LoadedYaml, path: tuple, value: str, file: Path) -> list[Path]:
        """The files of a relative path (see :meth:`targets`); the file
        system's own errors are left to the caller."""
        target = Path(os.path.normpath(file.parent / value))
        real = target.resolve()
        if not self.inside(real):
            self.outside(loaded, path, value)
            return []
        if real.is_dir():
            if (real / GAME_FILE).is_file():
                if not self.inside((real / GAME_FILE).resolve()):
                    self.outside(loaded, path, f"{value.rstrip('/')}/{GAME_FILE}")
                    return []
                return [target / GAME_FILE]
            found = sorted(p for p in target.iterdir() if p.suffix == ".yaml" and p.is_file())
            if not found:
                self.err(loaded, path, f"the folder '{value}' holds no .yaml file", "a folder of rule files")
            for p in [p for p in found if not self.inside(p.resolve())]:
                # a link in the folder is followed, so it must not lead out of the tree either
                self.outside(loaded, path, f"{value.rstrip('/')}/{p.name}")
                found.remove(p)
            return found
        if not real.is_file():
            near = sorted(p.name for p in target.parent.glob("*.yaml")) if target.parent.is_dir() else []
            self.err(loaded, path, f"no file '{value}'", "the path of a rule file relative to this one",
                     suggest(target.name, near) or "check the spelling and the folder")
            return []
        if real.suffix != ".yaml":
            self.err(loaded, path, f"'{value}' is not a rule file", "a .yaml file or a folder of them")
            return []
        return [target]

    # ---- merging ------------------------------------------------------------------
    def merge(self, loaded: LoadedYaml) -> None:
        bindings = self.bindings.get(loaded.file, Bindings())
        renamed = bindings.rename
        for key, value in loaded.data.items():
            if key in MODULE_KEYS:
                continue
            if key in NAMED and isinstance(value, dict) and isinstance(self.data.get(key, {}), dict):
                section = self.data.setdefault(key, {})
                self.origins.setdefault((key,), (loaded, (key,)))
                named = bindings.skill_name if key == "skills" else renamed
                for name, item in value.items():
                    if named(name) in section:
                        self.clash((key, named(name)), loaded, (key, name))
                    else:
                        section[named(name)] = item
                        self.origins[(key, named(name))] = (loaded, (key, name))
            elif key in LISTS and isinstance(value, list) and isinstance(self.data.get(key, []), list):
                items = self.data.setdefault(key, [])
                self.origins.setdefault((key,), (loaded, (key,)))
                for j, item in enumerate(value):
                    self.origins[(key, len(items))] = (loaded, (key, j))
                    if key == "triggers" and isinstance(item, dict) and renamed(item.get("on")) != item.get("on"):
                        item = {**item, "on": renamed(item["on"])}
                    items.append(item)
            elif key == "turn" and isinstance(value, dict) and isinstance(self.data.get(key, {}), dict):
                self.merge_turn(loaded, value)
            else:
                self.single((key,), value, loaded, (key,))

    def merge_turn(self, loaded: LoadedYaml, turn: dict) -> None:
        merged = self.data.setdefault("turn", {})
        self.origins.setdefault(("turn",), (loaded, ("turn",)))
        for key, value in turn.items():
            if key == "phases" and isinstance(value, list) and isinstance(merged.get(key, []), list):
                phases = merged.setdefault("phases", [])
                self.origins.setdefault(("turn", "phases"), (loaded, ("turn", "phases")))
                for j, phase in enumerate(value):
                    at = _phase_index(phases, phase)
                    if at is not None:
                        self.clash(("turn", "phases", at), loaded, ("turn", "phases", j), "phase")
                        continue
                    self.origins[("turn", "phases", len(phases))] = (loaded, ("turn", "phases", j))
                    phases.append(phase)
            else:
                self.single(("turn", key), value, loaded, ("turn", key))

    def single(self, path: tuple, value: Any, loaded: LoadedYaml, there: tuple) -> None:
        """A section (or ``turn`` key) that holds one value."""
        parent = self.data if len(path) == 1 else self.data["turn"]
        if path[-1] in parent and path not in {(k,) for k in OWN}:
            self.clash(path, loaded, there)
            return
        parent[path[-1]] = value
        self.origins[path] = (loaded, there)

    def clash(self, path: tuple, loaded: LoadedYaml, there: tuple, item: str | None = None) -> None:
        first = self.where_key(path)
        name = path[-1] if len(path) == 2 and path[0] in NAMED else None
        if item == "phase":
            name = self.data["turn"]["phases"][path[-1]].get("name")
        what = f"{item or _ITEM.get(path[0], 'section')} '{name}'" if name is not None \
            else f"'{': '.join(map(str, path))}'"
        self.errors.append(RuleError(
            loaded.key_where(there), f"{what} is defined twice: first at {first}",
            "each name defined once in a game and the files it includes",
            "rename one of them; to replace the first on purpose, put this one under 'override:'",
            span=loaded.span_at(loaded.key_where(there))))

    def where_key(self, path: tuple) -> Where:
        loaded, there = self.origins.get(path, (None, path))
        if loaded is None:
            return Where("?")
        return loaded.key_where(there)

    # ---- override -------------------------------------------------------------------
    def override(self, loaded: LoadedYaml) -> None:
        overrides = loaded.data["override"]
        if not isinstance(overrides, dict):
            self.err(loaded, ("override",), "'override' holds the sections whose items it replaces",
                     "override: {procedures: {name: ...}, tables: {...}}")
            return
        for key, value in overrides.items():
            base = ("override", key)
            if key in MODULE_KEYS:
                self.err(loaded, base, f"'{key}' cannot be overridden", "a section of the game", key=True)
            elif key in NAMED:
                self.override_items(loaded, key, value)
            elif key in LISTS:
                if key not in self.data:
                    self.nothing(loaded, base, f"no {key} to override", key=True)
                    continue
                self.forget((key,))
                self.data[key] = value
                self.origins[(key,)] = (loaded, base)
            elif key == "turn" and isinstance(value, dict) and isinstance(self.data.get("turn"), dict):
                self.override_turn(loaded, value)
            elif key not in self.data:
                self.nothing(loaded, base, f"no '{key}' to override", key=True, known=self.data)
            else:
                self.data[key] = value
                self.origins[(key,)] = (loaded, base)

    def override_items(self, loaded: LoadedYaml, key: str, value: Any) -> None:
        base = ("override", key)
        if not isinstance(value, dict):
            self.err(loaded, base, f"override: {key} holds the items to replace, by name",
                     f"{key}: {{name: ...}}")
            return
        section = self.data.get(key)
        for name, item in value.items():
            if not isinstance(section, dict) or name not in section:
                known = section if isinstance(section, dict) else {}
                self.err(loaded, base + (name,), f"there is no {_ITEM[key]} '{name}' to override",
                         f"the name of a {_ITEM[key]} the game already has", suggest(str(name), known)
                         or f"to add a new {_ITEM[key]}, write it under '{key}:' instead", key=True)
                continue
            earlier = self.overrider.get((key, name))
            if earlier is not None and earlier.file not in self.reached.get(loaded.file, ()):
                # two modules side by side replace the same item: the second
                # would silently undo the first (two skills that change one hook)
                self.err(loaded, base + (name,), f"{_ITEM[key]} '{name}' is overridden twice: first at "
                         f"{earlier.key_where(('override', key, name))}",
                         "one override of an item among files that do not include each other",
                         "write one override that does what both need, in a file that includes both "
                         "(e.g. the game's own file)", key=True)
                continue
            self.overrider[(key, name)] = loaded
            section[name] = item
            self.forget((key, name))
            self.origins[(key, name)] = (loaded, base + (name,))

    def override_turn(self, loaded: LoadedYaml, turn: dict) -> None:
        merged = self.data["turn"]
        for key, value in turn.items():
            base = ("override", "turn", key)
            if key == "phases" and isinstance(value, list) and isinstance(merged.get("phases"), list):
                for j, phase in enumerate(value):
                    at = _phase_index(merged["phases"], phase)
                    if at is None:
                        self.no_phase(loaded, base + (j,), phase, merged["phases"])
                        continue
                    merged["phases"][at] = phase
                    self.forget(("turn", "phases", at))
                    self.origins[("turn", "phases", at)] = (loaded, base + (j,))
            elif key not in merged:
                self.nothing(loaded, base, f"no 'turn: {key}' to override", key=True, known=merged)
            else:
                merged[key] = value
                self.origins[("turn", key)] = (loaded, base)

    def forget(self, prefix: tuple) -> None:
        """Drop the origins under ``prefix``: what was there is replaced."""
        for path in [p for p in self.origins if p[:len(prefix)] == prefix]:
            del self.origins[path]

    def nothing(self, loaded: LoadedYaml, path: tuple, message: str, key: bool = False,
                known: Any = ()) -> None:
        """An override of something the game does not have: most often a
        misspelling, so the nearest of the names ``known`` is suggested."""
        near = suggest(str(path[-1]), [k for k in known if isinstance(k, str)])
        self.err(loaded, path, message, "the name of something the game already has",
                 near or "to add something new, write it outside 'override:'", key=key)

    def no_phase(self, loaded: LoadedYaml, path: tuple, phase: Any, phases: list) -> None:
        """An overriding phase that names none of the game's phases: the
        error names it and suggests the nearest phase name."""
        name = phase.get("name") if isinstance(phase, dict) else None
        if not isinstance(name, str):
            self.nothing(loaded, path, "an overriding phase names the phase it replaces: {name: ..., effect: ...}")
            return
        names = [p["name"] for p in phases if isinstance(p, dict) and isinstance(p.get("name"), str)]
        self.err(loaded, path, f"there is no phase '{name}' to override", "the name of a phase the game has: "
                 + ", ".join(names), suggest(name, names) or "to add a phase, write it under 'turn: phases:'")

    def err(self, loaded: LoadedYaml, path: tuple, message: str, expected: str = "", hint: str = "",
            key: bool = False) -> None:
        where = loaded.key_where(path) if key else loaded.where(path)
        self.errors.append(RuleError(where, message, expected, hint, loaded.span_at(where)))


def _composed(data: dict) -> bool:
    """Whether a file uses modules or skills (else it is used as it was read)."""
    if any(key in data for key in MODULE_KEYS) or "skills" in data:
        return True
    choices = data.get("choices")
    return isinstance(choices, dict) and any(
        isinstance(c, dict) and isinstance(c.get("options"), list) and MARKER in c["options"]
        for c in choices.values())


def _phase_index(phases: list, phase: Any) -> int | None:
    name = phase.get("name") if isinstance(phase, dict) else None
    if name is None:
        return None
    for i, p in enumerate(phases):
        if isinstance(p, dict) and p.get("name") == name:
            return i
    return None
