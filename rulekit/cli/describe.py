"""``rulekit describe FILE``: a readable summary of a rule file, taken from the
loaded game (and, for effect text, from the file as written)."""
from __future__ import annotations

import argparse
import textwrap
from collections import Counter
from typing import Any, Sequence

from ..loader import load_game
from ..model import Game
from .common import EXIT_OK, CliError
from .skill_text import find_skill, skill_lines, skills_summary
from .text import aligned, fmt, one_line, pairs, player_counts, plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("describe", help="print a readable summary of a game",
                       description="Summarise a rule file: players, cards, zones, choices, skills, "
                                   "phases.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--skill", metavar="NAME", help="print only this skill: its kinds, its text and its parts")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.file)            # RuleFileError is reported by main()
    if args.skill is None:
        print(describe(game))
        return EXIT_OK
    skill = find_skill(game, args.skill)
    if isinstance(skill, str):
        raise CliError(skill)
    print("\n".join(skill_lines(skill)))
    return EXIT_OK


def describe(game: Game) -> str:
    """A readable summary of the whole rule file, taken from the loaded game."""
    src = game.source
    out: list[str] = [game.name, "=" * len(game.name)]
    if game.description:
        out += textwrap.wrap(one_line(game.description), 78)
    out += ["", f"players: {player_counts(game)}", ""]
    if game.options:
        out += [f"options ({len(game.options)}; set with --option NAME=VALUE):"]
        out += aligned((name, _option_text(spec)) for name, spec in game.options.items())
        out.append("")
    out += _describe_cards(game)
    out += ["", f"zones ({len(game.zones)}):"]
    out += aligned((z.name, _zone_traits(z, src.get("zones", {}).get(z.name, {}))) for z in game.zones)
    if game.tables:
        out += ["", "tables:"]
        for name, table in game.tables.items():
            out.append(f"  {name}: " + ", ".join(f"{fmt(k)} → {fmt(v)}" for k, v in table.items()))
    if game.vars or game.player_vars:
        out += ["", "vars:"]
        out += [f"  {k} = {fmt(v)}{_var_traits(src.get('vars', {}).get(k), False)}"
                for k, v in game.vars.items()]
        out += [f"  {k} = {fmt(v)}{_var_traits(src.get('player_vars', {}).get(k), True)}"
                for k, v in game.player_vars.items()]
    out += ["", f"choices ({len(game.choices)}):"]
    for name, choice in game.choices.items():
        out += _describe_choice(name, choice, src)
    if game.skills:
        out += [""] + skills_summary(game)
    if game.procedures:
        out += ["", f"procedures ({len(game.procedures)}):"]
        for name in game.procedures:
            spec = src.get("procedures", {}).get(name, "")
            if not isinstance(spec, dict):
                spec = {"effect": spec}
            params = _params(spec)
            doc = f" — {one_line(spec['doc'])}" if spec.get("doc") else ""
            out += [f"  {name}{params}:{doc}"] + _code(spec.get("effect", ""))
    if src.get("setup"):
        out += ["", "setup:"] + _code(src["setup"])
    turn = src.get("turn", {})
    first = f"; first player: {turn['first']}" if "first" in turn else ""
    out += ["", f"phases of a turn ({len(game.phases)}{first}):"]
    phase_src = {p.get("name"): p for p in turn.get("phases", [])}
    for i, phase in enumerate(game.phases, 1):
        doc = f" — {phase.doc}" if phase.doc else ""
        out += [f"  {i}. {phase.name}{doc}"] + _code(phase_src.get(phase.name, {}).get("effect", ""))
    triggers = src.get("triggers") or []
    if triggers:
        out += ["", f"triggers ({len(triggers)}):"]
        for t in triggers:
            each = " for each player (as owner)" if t.get("each_player") else ""
            when = f" when {one_line(t['when'])}" if t.get("when") else ""
            out += [f"  on {t.get('on')}{each}{when}:"] + _code(t.get("effect", ""))
    if src.get("stats"):
        out += ["", "stats (recorded at the end of every match):"]
        out += [f"  {k} = {v}" for k, v in src["stats"].items()]
    return "\n".join(out)


def _option_text(spec: dict) -> str:
    """``one of 1, 2, 3 (default 2) — doc``."""
    if spec.get("values"):
        text = "one of " + ", ".join(fmt(v) for v in spec["values"])
    else:
        text = _TYPE_WORDS.get(type(spec["default"]), "a value")
    text += f" (default {fmt(spec['default'])})"
    return text + (f" — {one_line(spec['doc'])}" if spec.get("doc") else "")


_TYPE_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


def _var_traits(spec: Any, per_player: bool) -> str:
    """What the long form of a variable adds: resets, who sees it, its doc."""
    traits = ["each player"] if per_player else []
    if isinstance(spec, dict):
        if spec.get("reset"):
            traits.append(f"reset every {spec['reset']}")
        visibility = spec.get("visibility", "public")
        if visibility == "owner":
            traits.append("seen only by its owner")
        elif visibility == "hidden":
            traits.append("seen by nobody")
        if visibility != "public" and spec.get("shown_when"):
            traits.append(f"shown to all when {one_line(spec['shown_when'])}")
    doc = f" — {one_line(spec['doc'])}" if isinstance(spec, dict) and spec.get("doc") else ""
    return (f"  ({'; '.join(traits)})" if traits else "") + doc


def _zone_traits(zone: Any, spec: dict) -> str:
    traits = [zone.visibility] + (["per player"] if zone.per_player else [])
    if spec.get("limit") is not None:
        traits.append(f"limit {spec['limit']}")
    if zone.allowed is not None:
        traits.append(f"only {zone.one_of} ({len(zone.allowed)} cards)")
    doc = f" — {zone.doc}" if zone.doc else ""
    return f"{', '.join(traits)}{doc}"


def _code(text: Any, indent: str = "      ") -> list[str]:
    lines = str(text).rstrip().splitlines()
    return [indent + line if line.strip() else "" for line in lines]


def _params(spec: dict) -> str:
    """``(p, skill: one of skill)``: a procedure's or choice's parameters."""
    if not spec.get("params"):
        return ""
    return "(" + ", ".join(p if isinstance(p, str) else f"{p['name']}: one of {p['one_of']}"
                           for p in spec["params"]) + ")"


def _describe_choice(name: str, choice: Any, src: dict) -> list[str]:
    spec = src.get("choices", {}).get(name, {})
    who = spec.get("who", "current")
    heuristic = src.get("heuristics", {}).get(name)
    params = _params(spec)
    out = [f"  {name}{params} (who: {who}): {choice.prompt}"]
    if spec.get("doc"):
        out += textwrap.wrap(spec["doc"], 76, initial_indent="    ", subsequent_indent="    ")
    for o in spec.get("options", []):
        parts = []
        if "cards" in o:
            parts.append(f"{o['cards']} card{'' if o['cards'] == 1 else 's'}"
                         + (f" from {o['from']}" if o.get("from") else ""))
        if "parts" in o:
            parts.append(f"one card for each of: {' | '.join(o['parts'])}"
                         + (f" from {o['from']}" if o.get("from") else ""))
        if "player" in o:
            parts.append(f"a player from {o['player']}")
        for key in ("where", "same", "require", "when"):
            if o.get(key) is not None:
                parts.append(f"{key} {o[key]}")
        line = f"    - {o['name']}" + (": " + "; ".join(parts) if parts else "")
        out.append(line)
        if o.get("doc"):
            out.append(f"        {o['doc']}")
    if spec.get("if_none"):
        out.append(f"    if none is legal: {one_line(spec['if_none'])}")
    if heuristic:
        out.append(f"    heuristic: {one_line(heuristic)}")
    return out


def _describe_cards(game: Game) -> list[str]:
    cards = game.cards
    names = Counter(c.name for c in cards)
    out = [f"cards: {len(cards)} ({plural(len(names), 'distinct name')})"]
    props: list[str] = []
    for c in cards:
        props += [p for p in c.props if p not in props]
    # a property that only repeats each card's name (card.name) says nothing new here
    props = [p for p in props if not all(c.props.get(p) == c.name for c in cards)]
    # group by a property every card has (one that only some cards have makes a "none" heap)
    group = _grouping_prop(cards, [p for p in props if all(p in c.props for c in cards)] or props)
    if group is None:
        out.append("  " + _compact_names(cards))
    else:
        out.append(f"  by {group}:")
        groups: dict[str, list] = {}
        for c in cards:
            groups.setdefault(fmt(c.props.get(group)), []).append(c)
        for value, members in groups.items():
            line = f"    {value} ({len(members)}): {_compact_names(members)}"
            out += textwrap.wrap(line, 78, subsequent_indent="        ")
    if props:
        out.append("  properties:")
        for p in props:
            out.append(f"    {p}: {_prop_summary(cards, p)}")
    return out


def _grouping_prop(cards: Sequence, props: list[str]) -> str | None:
    """The property that splits the cards into the most groups, 2 to 8 of them:
    the one a reader would sort a physical deck by."""
    best, best_n = None, 1
    for p in props:
        n = len({fmt(c.props.get(p)) for c in cards})
        if best_n < n <= 8:
            best, best_n = p, n
    return best


def _compact_names(cards: Sequence) -> str:
    """Names in deck order, each once, with ``×N`` where a name repeats."""
    counts = Counter(c.name for c in cards)
    return " ".join(n if counts[n] == 1 else f"{n} ×{counts[n]}" for n in counts)


def _prop_summary(cards: Sequence, prop: str) -> str:
    values = [c.props[prop] for c in cards if prop in c.props]
    on = "" if len(values) == len(cards) else f" (on {len(values)} cards)"
    if values and all(isinstance(v, list) for v in values):
        items = Counter(fmt(x) for v in values for x in v)
        empty = sum(1 for v in values if not v)
        return ("lists, cards with " + (pairs(items) if items else "nothing")
                + (f"; empty on {empty}" if empty else "") + on)
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if numbers and len(numbers) == len(values):
        lo, hi = min(numbers), max(numbers)
        return (f"{fmt(lo)}" if lo == hi else f"{fmt(lo)}..{fmt(hi)}") + on
    counts = Counter(fmt(v) for v in values)
    if len(counts) <= 6:
        return pairs(counts) + on
    shown = ", ".join(list(counts)[:8])
    return f"{len(counts)} values ({shown}{', …' if len(counts) > 8 else ''}){on}"
