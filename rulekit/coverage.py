"""Rule coverage: which rules of a file a simulation ran, and which never.

A rule that never runs in thousands of games is likely dead or broken (a
condition that cannot hold, a misspelt event).  ``simulate(...,
coverage=True)`` (``rulekit simulate --coverage``) counts, over all games:
how often each choice's options were taken, each card chosen, and each
procedure, trigger, phase and skill ran; the report lists what never ran,
with its file:line.

How it is counted: the answers come from the matches' own records; the rules
that ran come from the lines of the generated code that ran (a trace hook,
installed only while a simulation asks for coverage, so it costs nothing
otherwise), mapped back to the rule file's lines.  A procedure the compiler
wrote into its callers still counts, through the file lines of its text.
"""
from __future__ import annotations

import sys
from collections import Counter
from contextlib import contextmanager
from typing import Any, Iterator

from .model import Game


class Hits:
    """What some games ran: generated code lines, options taken, cards chosen."""

    def __init__(self) -> None:
        self.lines: Counter = Counter()      # line of the generated code -> times run
        self.options: Counter = Counter()    # (choice, option) -> times taken
        self.cards: Counter = Counter()      # card name -> times chosen

    def merge(self, other: "Hits") -> None:
        self.lines.update(other.lines)
        self.options.update(other.options)
        self.cards.update(other.cards)

    def record(self, match: Any) -> None:
        """A finished match's answers."""
        cards = match.cards
        for ev in match.log:
            if ev[0] == "decide":
                dec, action = ev[1], ev[2]
                self.options[(dec.choice, action.option)] += 1
                for cid in action.cards:
                    self.cards[cards[cid].name] += 1

    @contextmanager
    def tracing(self, game: Game) -> Iterator[None]:
        """Count the generated code's lines run inside the block."""
        label, lines = game.code_label, self.lines

        def line(frame, event, arg):
            if event == "line":
                lines[frame.f_lineno] += 1
            return line

        def call(frame, event, arg):
            return line if frame.f_code.co_filename == label else None

        old = sys.gettrace()
        sys.settrace(call)
        try:
            yield
        finally:
            sys.settrace(old)


def _spans(game: Game) -> list[tuple[str, str, int, int]]:
    """(rule, file, first line, last line) of every procedure, trigger and
    phase whose text the file holds (the text's own lines)."""
    src = game.source
    texts: dict[str, str] = {}
    for name, spec in src.get("procedures", {}).items():
        texts[f"procedure '{name}'"] = spec if isinstance(spec, str) else spec.get("effect", "")
    for i, spec in enumerate(src.get("triggers", [])):
        texts[f"trigger on '{spec['on']}' #{i}"] = spec.get("effect", "")
    for spec in src.get("turn", {}).get("phases", []):
        texts[f"phase '{spec['name']}'"] = spec.get("effect", "")
    out = []
    for rule, text in texts.items():
        where = game.rule_positions.get(rule)
        if where is not None:
            out.append((rule, where.file, where.line, where.line + str(text).count("\n")))
    return out


def report(game: Game, hits: Hits) -> dict:
    """Counts by kind of rule, and what never ran with where it is written."""
    ran_rules: Counter = Counter()
    ran_lines: Counter = Counter()            # (file, line) of the rule file -> times run
    for gen_line, n in hits.lines.items():
        where, rule = game.code_origins.get(gen_line, (None, ""))
        if rule:
            ran_rules[rule] += n
        if where is not None:
            ran_lines[(where.file, where.line)] += n
    by_file: dict[str, list[tuple[int, int]]] = {}
    for (file, line), n in ran_lines.items():
        by_file.setdefault(file, []).append((line, n))
    rules: dict[str, dict] = {}
    for rule, file, first, last in _spans(game):
        # the most-run line of its text: how often it ran, inlined into callers or not
        count = max([n for line, n in by_file.get(file, ()) if first <= line <= last] + [0])
        kind = rule.split(" ", 1)[0]
        rules.setdefault(kind, {})[rule] = {"count": count, "where": f"{file}:{first}"}
    options = {f"{c}: {o.name}": {"count": hits.options[(c, o.name)], "where": _where(game, f"choice '{c}'")}
               for c, ch in game.choices.items() for o in ch.options}
    skills = {}
    for name, skill in game.skills.items():
        count = sum(hits.options[(c, o)] for c, o in skill.options)
        count += sum(rules.get("procedure", {}).get(f"procedure '{p}'", {}).get("count", 0)
                     for p in skill.procedures)
        if skill.triggers and skill.where is not None:
            count += _triggers_in(rules.get("trigger", {}), game, skill)
        skills[name] = {"count": count, "where": f"{skill.where.file}:{skill.where.line}" if skill.where else ""}
    names = sorted({c.name for c in game.cards})
    cards = {n: {"count": hits.cards[n], "where": ""} for n in names}
    sections = {"procedures": rules.get("procedure", {}), "triggers": rules.get("trigger", {}),
                "phases": rules.get("phase", {}), "options": options, "skills": skills, "cards": cards}
    # Not every rule can be seen to run: a procedure written into its callers
    # runs as part of them, and a skill with no parts of its own (a locked
    # skill, an equipment ability) is read where its rule is written.  Those
    # that show no run are listed apart, not as never run.
    unseen = {f"procedure '{p}'" for p in game.inlined}
    unseen |= {n for n, sk in game.skills.items() if not (sk.options or sk.triggers or sk.procedures)}
    never = {k: sorted(name for name, e in v.items() if e["count"] == 0 and name not in unseen)
             for k, v in sections.items()}
    uncounted = sorted(name for v in sections.values() for name, e in v.items()
                       if e["count"] == 0 and name in unseen)
    return {"sections": sections, "never": never, "not_counted": uncounted,
            "summary": {k: f"{sum(1 for e in v.values() if e['count'])}/{len(v)}" for k, v in sections.items()}}


def _where(game: Game, rule: str) -> str:
    w = game.rule_positions.get(rule)
    return f"{w.file}:{w.line}" if w is not None else ""


def _triggers_in(triggers: dict, game: Game, skill) -> int:
    """Runs of the triggers written inside a skill's block: those after its
    position in its file and before the next skill's there."""
    here = skill.where
    later = [s.where.line for s in game.skills.values()
             if s.where is not None and s.where.file == here.file and s.where.line > here.line]
    end = min(later) if later else 1 << 30
    total = 0
    for entry in triggers.values():
        file, line = entry["where"].rsplit(":", 1)
        if file == here.file and here.line < int(line) < end:
            total += entry["count"]
    return total
