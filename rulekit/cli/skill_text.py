"""A game's skills as people read them: ``rulekit describe`` lists them and
prints one with ``--skill NAME``; ``rulekit play`` prints one when the person
types ``?NAME``.  A skill's text is the rulebook's, so it is shown as
written (wrapped by terminal columns: a skill's text is often Chinese,
without spaces, two columns a character), with its kinds and, for the
curious author, where its parts went."""
from __future__ import annotations

from ..errors import char_width
from ..lang.names import suggest
from ..model import Game, SkillDef
from .text import one_line, plural


def kinds(skill: SkillDef) -> str:
    return f" ({', '.join(skill.kinds)})" if skill.kinds else ""


def skills_summary(game: Game) -> list[str]:
    """One entry a skill: its name and kinds, then its text, indented."""
    out = [f"skills ({len(game.skills)}; one in full with --skill NAME):"]
    for skill in game.skills.values():
        out.append(f"  {skill.name}{kinds(skill)}")
        out += ["      " + line for line in wrap(skill.text, 72)]
    return out


def skill_names(game: Game) -> list[str]:
    """What ``?skills`` prints in ``rulekit play``: every skill's name and kinds."""
    if not game.skills:
        return [f"  {game.name} has no skills"]
    return ["  skills (?NAME for one's text): "
            + ", ".join(f"{s.name}{kinds(s)}" for s in game.skills.values())]


def skill_lines(skill: SkillDef, indent: str = "", parts: bool = True) -> list[str]:
    """One skill in full: name and kinds, text, and (``parts``, for the
    author reading ``describe``) what it adds to the game."""
    out = [f"{indent}{skill.name}{kinds(skill)}"]
    out += [indent + "  " + line for line in wrap(skill.text)]
    if skill.doc:
        out += [indent + "  " + line for line in wrap(skill.doc)]
    if not parts:
        return out
    added = [f"option '{option}' of choice '{choice}'" for choice, option in skill.options]
    if skill.triggers:
        added.append(plural(skill.triggers, "trigger"))
    added += [f"procedure '{name}'" for name in skill.procedures]
    if added:
        out.append(f"{indent}  adds: " + ", ".join(added))
    return out


def find_skill(game: Game, name: str) -> SkillDef | str:
    """The skill called ``name`` (written in any case), or why there is none."""
    name = name.strip()
    if name in game.skills:
        return game.skills[name]
    folded = {n.casefold(): s for n, s in game.skills.items()}
    if name.casefold() in folded:
        return folded[name.casefold()]
    if not game.skills:
        return f"{game.name} has no skills"
    return (f"{game.name} has no skill '{name}'; "
            + (suggest(name, game.skills) or "its skills: " + ", ".join(game.skills)))


def wrap(text: str, width: int = 76) -> list[str]:
    """``text`` on lines of at most ``width`` terminal columns, broken at a
    space where the line has one, else between two characters (Chinese or
    Japanese text has no spaces)."""
    lines: list[str] = []
    line, used = "", 0
    for ch in one_line(text):
        w = char_width(ch)
        if used + w > width:
            cut = line.rfind(" ")
            if ch == " " or cut <= 0:
                lines.append(line.rstrip())
                line = ""
            else:
                lines.append(line[:cut])
                line = line[cut + 1:]
            used = sum(char_width(c) for c in line)
            if ch == " ":
                continue
        line += ch
        used += w
    return lines + [line] if line else lines


def card_lines(game: Game, name: str) -> list[str]:
    """What ``?CARD`` prints in ``rulekit play``: the card's properties, then
    the text of every skill named by a property (a hero's ability, which the
    rule file writes as a property holding its number) or listed in one."""
    props = game.card_named(name)[0].props
    shown = {k: v for k, v in props.items() if k != "name"}
    out = [f"  {name}: " + ", ".join(f"{k} {_value(v)}" for k, v in shown.items())]
    named = [k for k in shown if k in game.skills]
    named += [x for v in shown.values() if isinstance(v, list) for x in v
              if isinstance(x, str) and x in game.skills and x not in named]
    for skill in named:
        out += skill_lines(game.skills[skill], "    ", parts=False)
    return out


def _value(v) -> str:
    if v is True:
        return "yes"
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return str(v)
