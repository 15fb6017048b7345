"""``rulekit show-code FILE [RULE]``: the Python a rule's effect text became.

Effect text is compiled to one Python module per game (see
:mod:`rulekit.lang.codegen`); when a rule does not do what its author
meant, reading what it became answers questions no error message can
(which filter runs first, what a procedure written in place looks like).
Each line is shown with the position in the rule file of the statement it
was written from, read from the game's origins table.

A rule is found by its name as the rule file writes it (``blocked``,
``play``, a skill's or an event's name for its triggers), by its name in
error messages (``procedure 'blocked'``) or by its function's name
(``proc_blocked``).  A name shared by several rules (a choice and a phase
both called ``play``) shows all of them.
"""
from __future__ import annotations

import argparse
import os
import re

from ..errors import Where, char_width
from ..lang.names import suggest
from ..loader import load_game
from ..model import Game
from .common import EXIT_OK, CliError

#: code wider than this gets its positions two spaces after it
_CODE_WIDTH = 88


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("show-code", help="the Python a rule's effect text is compiled to",
                       description="Print the generated Python of one rule (a procedure, trigger, phase, "
                                   "choice, heuristic...), each line with its position in the rule file. "
                                   "Without RULE, list the rules it can show.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("rule", metavar="RULE", nargs="?",
                   help="a rule's name as the file writes it, e.g. a procedure, a phase, a skill")
    p.add_argument("--all", action="store_true", help="print the whole generated module")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.file)
    listing = CodeListing(game, args.file)
    if args.all:
        print(listing.everything())
    elif args.rule is None:
        print(listing.catalogue())
    else:
        print(listing.show(args.rule))
    return EXIT_OK


class CodeListing:
    """The generated module of ``game`` (loaded from ``path``) cut into its
    rules.  Positions name files as errors do, or relative to the folder
    ``relative_to`` (a listing that reads the same wherever it is made)."""

    def __init__(self, game: Game, path: str, relative_to: str | None = None):
        self.game, self.path, self.base = game, path, relative_to
        self.lines = game.code.split("\n")
        self.functions = _functions(self.lines)          # (name, first line, last line), 1-based
        #: rule -> [(function, first, last, in_place)]: the lines written from the rule
        self.units: dict[str, list[tuple[str, int, int, bool]]] = {}
        for name, first, last in self.functions:
            self._cut(name, first, last)

    # ---- cutting the module into rules ----------------------------------------
    def rule_at(self, line: int) -> str:
        return self.game.code_origins.get(line, (None, ""))[1]

    def _cut(self, name: str, first: int, last: int) -> None:
        own = self.rule_at(first)
        kind = self.game.code_names.get(name, ("", ()))[0]
        if kind == "turn":      # the phases: the lines from each phase's first to its last
            phases: dict[str, list[int]] = {}
            for line in range(first, last + 1):
                rule = self.rule_at(line)
                if rule.startswith("phase "):
                    phases.setdefault(rule, [line, line])[1] = line
            for rule, (start, end) in phases.items():
                self.units.setdefault(rule, []).append((name, start, end, False))
        if own:
            self.units.setdefault(own, []).append((name, first, last, False))
        line = first
        while line <= last:      # procedures written in place of their calls
            rule = self.rule_at(line)
            end = line
            while end < last and self.rule_at(end + 1) == rule:
                end += 1
            if rule and rule != own and not rule.startswith("phase "):
                self.units.setdefault(rule, []).append((name, line, end, True))
            line = end + 1

    def aliases(self) -> dict[str, set[str]]:
        """What a person may type for each rule: its quoted name(s), its label
        (with or without the quotes, which a shell makes awkward), its
        functions' names, and for a trigger its skill's and its event's name."""
        out: dict[str, set[str]] = {}
        for rule, pieces in self.units.items():
            names = out.setdefault(rule, {rule})
            quoted = re.findall(r"'([^']*)'", rule)
            names.update(quoted)
            names.add(rule.replace("'", ""))       # the label as typed without quotes: choice play
            if rule.startswith("option ") and len(quoted) == 2:
                names.add(f"{quoted[1]}.{quoted[0]}")
            for fname, _, _, in_place in pieces:
                if in_place:
                    continue
                names.add(fname)
                kind, key = self.game.code_names.get(fname, ("", ()))
                if kind in ("trigger", "when") and key:
                    names.add(str(key[0]))
        for skill in self.game.skills.values():     # a skill's name: every part of it
            parts = [f"option '{o}' of choice '{c}'" for c, o in skill.options]
            parts += [f"procedure '{p}'" for p in skill.procedures]
            for rule in parts:
                if rule in out:
                    out[rule].add(skill.name)
        return out

    def find(self, text: str) -> list[str]:
        """The rules ``text`` names (a CliError that teaches when none)."""
        aliases = self.aliases()
        found = [rule for rule, names in aliases.items() if text in names]
        if found:
            return sorted(found, key=self._order)
        every = sorted({n for names in aliases.values() for n in names})
        hint = suggest(text, every) or f"`rulekit show-code {self._path()}` lists the rules"
        raise CliError(f"no rule called '{text}' in {self._path()}\n"
                       "    expected: a procedure, choice, phase or heuristic as the file names it, "
                       "a skill or event (its triggers), or a name listed by show-code\n"
                       f"    hint: {hint}")

    # ---- writing -----------------------------------------------------------------
    def show(self, text: str) -> str:
        return "\n\n".join(self.rule_code(rule) for rule in self.find(text))

    def rule_code(self, rule: str) -> str:
        """Every piece of generated code written from ``rule``, with positions."""
        out = []
        where = self.game.rule_where(rule)
        for fname, first, last, in_place in self.units.get(rule, ()):
            if in_place:
                calls = self.game.code_calls.get(first, ())
                at = f", called at {self.rel(calls[-1][0])}" if calls and calls[-1][0] else ""
                head = f"# {rule}: written in place in {fname}{at}"
            else:
                head = f"# {rule}" + (f"  ({self.rel(where)})" if where else "")
                if self.rule_at(first) != rule:
                    head += f": lines of {fname}"
            out.append(head + "\n" + self.numbered(first, last, rule))
        return "\n\n".join(out)

    def numbered(self, first: int, last: int, rule: str) -> str:
        """Lines ``first``..``last`` of the module, each with its position."""
        rows = []
        for line in range(first, last + 1):
            where, line_rule = self.game.code_origins.get(line, (None, ""))
            note = self.rel(where) if where is not None else ""
            if line_rule and line_rule != rule and note:
                note += f"  ({line_rule})"
            rows.append((self.lines[line - 1], note))
        width = min(_CODE_WIDTH, max(_width(code) for code, _ in rows))
        return "\n".join(code + (" " * max(2, width - _width(code) + 2) + "# " + note if note else "")
                         for code, note in rows)

    def catalogue(self) -> str:
        rules = sorted(self.units, key=self._order)
        wheres = {rule: self.rel(w) if (w := self.game.rule_where(rule)) else "" for rule in rules}
        width = max((_width(r) for r in rules), default=0)
        at = max((len(w) for w in wheres.values()), default=0)
        rows = []
        for rule in rules:
            fnames = sorted({f for f, _, _, in_place in self.units[rule] if not in_place}) or ["(in place)"]
            pad = " " * (width - _width(rule))
            rows.append(f"  {rule}{pad}  {wheres[rule]:<{at}}  {', '.join(fnames)}")
        return (f"{self.game.name}: the rules whose Python `rulekit show-code {self._path()} RULE` shows\n"
                + "\n".join(rows))

    def everything(self) -> str:
        return "\n\n".join(self.numbered(first, last, self.rule_at(first)) for _, first, last in self.functions)

    def rel(self, where: Where) -> str:
        """``where``, its file relative to ``relative_to`` if given."""
        file = os.path.relpath(where.file, self.base) if self.base else where.file
        return str(Where(file.replace(os.sep, "/"), where.line, where.column))

    def _order(self, rule: str) -> tuple:
        where = self.game.rule_where(rule)
        return (where is None, (where.file, where.line, where.column) if where else (), rule)

    def _path(self) -> str:
        return self.path


def _functions(lines: list[str]) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every function of the module: each
    starts with ``def`` at the margin and ends before a blank line."""
    out = []
    for i, text in enumerate(lines):
        found = re.match(r"def (\w+)\(", text)
        if found:
            end = i
            while end + 1 < len(lines) and lines[end + 1].strip():
                end += 1
            out.append((found.group(1), i + 1, end + 1))
    return out


def _width(text: str) -> int:
    return sum(char_width(ch) for ch in text)
