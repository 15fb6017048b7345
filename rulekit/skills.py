"""Skills: a named ability written in one block.

A skill (a character's ability, what a piece of equipment lets
its holder do) is declared once under ``skills:`` with its rulebook text,
its kind and every part that makes it work::

    skills:
      fury:
        text: You may play a red card as a Strike.
        kind: active
        options:                  # answers the skill adds to choices
          play:
            when: has(current, "fury") and usable(current, "strike")
            cards: 1
            from: held(current)
            where: it.color == "red"
            effect: call use_card(current, chosen, "strike")
          respond: {...}
        triggers: [...]           # added to the game's triggers
        procedures: {...}         # added to the game's procedures
        choices: {...}            # questions only the skill asks

Before the file is checked, each part is moved to where the engine looks for
it (the options into their choices, at the choice's ``- skills`` marker or
at the end; the triggers after the game's own; the procedures beside the
game's, and so its choices), keeping its position in the file for errors.  An option's name is
the skill's unless it gives one.  What is left under ``skills:`` is the
skill's description, which :class:`~rulekit.model.SkillDef` holds and
``rulekit describe`` / ``rulekit play`` show.  Its ``text`` may be
``{table: T}``: the row of the game's table ``T`` under the skill's name
(an ability a shared module writes, whose words each game gives).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .errors import RuleError
from .lang.names import suggest

if TYPE_CHECKING:  # pragma: no cover
    from .composed import ComposedYaml

#: the ``- skills`` item of a choice's options: where skills add theirs
MARKER = "skills"


def expand_skills(merged: "ComposedYaml") -> list[RuleError]:
    """Move every well-formed part of every skill to its section (in place);
    the errors found.  A part of the wrong shape stays where it is, for the
    schema check to report."""
    data = merged.data
    skills = data.get("skills")
    errors: list[RuleError] = []
    added: dict[str, list] = {}               # choice -> [(option, origin)]
    parts_of: dict[str, dict] = {}
    kept: dict[str, dict] = {}
    for name, skill in (skills.items() if isinstance(skills, dict) else ()):
        if isinstance(skill, dict):
            kept[name] = dict(skill)
            parts_of[name] = {"options": [], "triggers": [], "procedures": [], "choices": []}
    for name, rest in kept.items():         # first what skills declare, so options may use it
        errors += _table_text(merged, name, rest)
        errors += _move_items(merged, name, rest, parts_of[name])
    choices = data.get("choices") if isinstance(data.get("choices"), dict) else {}
    for name, rest in kept.items():
        base = ("skills", name)
        if not _options_ok(rest.get("options")):
            continue
        renamed = _renamer(merged, base)
        for written, given in rest.pop("options").items():
            cname = renamed(written)
            many = isinstance(given, list)
            for j, option in enumerate(given if many else [given]):
                path = base + ("options", written) + ((j,) if many else ())
                if cname not in choices:
                    errors.append(_error(merged, base + ("options", written),
                                         f"skill '{name}' adds an option to choice '{cname}', "
                                         "which the game does not have", "the name of a choice",
                                         suggest(str(cname), choices), key=True))
                    continue
                added.setdefault(cname, []).append(({"name": name, **option}, merged.origin(path)))
                parts_of[name]["options"].append([cname, option.get("name", name)])
    if isinstance(skills, dict):
        skills.update(kept)
    for cname, choice in choices.items():
        if isinstance(choice, dict) and isinstance(choice.get("options"), list) and (
                cname in added or MARKER in choice["options"]):
            _place(merged, cname, choice, added.get(cname, []))
    merged.skill_parts.update(parts_of)
    return errors


def _table_text(merged: "ComposedYaml", name: str, rest: dict) -> list[RuleError]:
    """A skill's ``text: {table: T}``: the row of the game's table ``T``
    under the skill's name.  A shared module declares abilities whose words
    are the game's (two games give one rule different names and texts), so
    the game writes them as data, one row per ability; the table is named as
    the skill's module names it.  The text found replaces the reference."""
    given = rest.get("text")
    if not (isinstance(given, dict) and set(given) == {"table"} and isinstance(given["table"], str)):
        return []                           # a text, or a shape the schema check reports
    path = ("skills", name, "text", "table")
    table = _renamer(merged, ("skills", name))(given["table"])
    tables = merged.data.get("tables") if isinstance(merged.data.get("tables"), dict) else {}
    if not isinstance(tables.get(table), dict):
        return [_error(merged, path, f"skill '{name}' takes its text from table '{table}', which the "
                       "game does not have", "the name of a table of texts, one row per skill",
                       suggest(table, tables) or f"add tables: {{{table}: {{{name}: ...}}}}")]
    text = tables[table].get(name)
    if not isinstance(text, str) or not text.strip():
        return [_error(merged, path, f"table '{table}' has no text for skill '{name}'",
                       f"a row '{name}: <the rulebook's text>' in table '{table}'",
                       "a skill a module declares under a parameter has the name the game gives it")]
    rest["text"] = text
    return []


def _move_items(merged: "ComposedYaml", name: str, rest: dict, parts: dict) -> list[RuleError]:
    """Move a skill's procedures, choices and triggers to the game's sections."""
    data, base, errors = merged.data, ("skills", name), []
    renamed = _renamer(merged, base)
    for section in ("procedures", "choices"):
        if isinstance(rest.get(section), dict) and isinstance(data.get(section, {}), dict):
            items = data.setdefault(section, {})
            for written, item in rest.pop(section).items():
                path = base + (section, written)
                pname = renamed(written)
                if pname in items:
                    errors.append(_error(merged, path, f"{section[:-1]} '{pname}' of skill '{name}' is "
                                         f"defined twice: first at {merged.key_where((section, pname))}",
                                         "each name defined once", "rename one of them", key=True))
                    continue
                items[pname] = item
                merged.origins[(section, pname)] = merged.origin(path)
                parts[section].append(pname)
    if isinstance(rest.get("triggers"), list) and isinstance(data.get("triggers", []), list):
        triggers = data.setdefault("triggers", [])
        for j, trigger in enumerate(rest.pop("triggers")):
            merged.origins[("triggers", len(triggers))] = merged.origin(base + ("triggers", j))
            if isinstance(trigger, dict) and renamed(trigger.get("on")) != trigger.get("on"):
                trigger = {**trigger, "on": renamed(trigger["on"])}
            triggers.append(trigger)
            parts["triggers"].append(len(triggers) - 1)
    return errors


def _renamer(merged: "ComposedYaml", path: tuple) -> Callable[[Any], Any]:
    """What the names a skill's block writes stand for: a skill written in a
    module with name parameters (see :mod:`rulekit.lang.bindings`) names its
    choices, procedures and events as the module does, and they are renamed
    here as the module's own sections are when merged."""
    bindings = merged.bindings_at(path)
    return bindings.rename if bindings else (lambda name: name)


def _options_ok(options: Any) -> bool:
    return isinstance(options, dict) and all(
        isinstance(o, dict) or (isinstance(o, list) and o and all(isinstance(x, dict) for x in o))
        for o in options.values())


def _place(merged: "ComposedYaml", cname: str, choice: dict, extra: list) -> None:
    """The choice with the skills' options at its marker (else at its end)."""
    path = ("choices", cname, "options")
    own = choice["options"]
    at = own.index(MARKER) if MARKER in own else len(own)
    entries = [(o, merged.origin(path + (i,))) for i, o in enumerate(own) if i < at and o != MARKER]
    entries += extra
    entries += [(o, merged.origin(path + (i,))) for i, o in enumerate(own) if i > at and o != MARKER]
    merged.data["choices"][cname] = {**choice, "options": [o for o, _ in entries]}
    for k, (_, origin) in enumerate(entries):
        merged.origins[path + (k,)] = origin


def _error(merged: "ComposedYaml", path: tuple, message: str, expected: str, hint: str = "",
           key: bool = False) -> RuleError:
    where = merged.key_where(path) if key else merged.where(path)
    return RuleError(where, message, expected, hint, merged.span_at(where))
