"""``rulekit validate FILE...``: load each rule file and report every problem."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import RuleFileError
from ..loader import load_game
from ..model import Game
from ..modules import GAME_FILE, is_module
from ..testing import smoke
from ..yamlsafe import decode_rule_file, load_yaml, read_rule_file
from .common import EXIT_OK, EXIT_RULES, EXIT_USAGE, CliError, add_options, game_options, options_text
from .findings import FORMATS, FileFindings, write, write_text
from .text import player_range, plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check rule files and report every error",
                       description="Load each rule file and report every problem with file:line:col.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--play", type=int, default=0, metavar="N",
                   help="also play N random games per player count, checking that every game "
                        "ends, no card is lost and replays agree")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text: errors as compilers show them (the default); json: one JSON document "
                        "on standard output, every file and every error with its parts; github: "
                        "GitHub Actions workflow commands, shown beside the lines they name")
    add_options(p, "the games --play plays")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Every file is checked, even after a broken one, so one run reports them all.
    ``--option`` settings are checked against every file (and used by the
    games of ``--play``); a file without such an option is a usage error (2).
    As text, each file's findings are written as soon as it is checked."""
    status = EXIT_OK
    found: list[FileFindings] = []
    for path in games_in(args.files):
        findings = FileFindings(path)
        found.append(findings)
        status = max(status, check(path, args, findings))
        if args.format == "text":
            write_text(findings)
    if args.format != "text":
        write(found, args.format)
    return status


def games_in(paths: list[str]) -> list[str]:
    """The paths, each folder that is no game (it holds no ``game.yaml``)
    replaced by the games it holds: its rule files that are no module (a
    module is checked with the games that include it) and its folders that
    hold a ``game.yaml``, in name order.  A folder holding none stays, to be
    reported as it is."""
    out: list[str] = []
    for path in paths:
        folder = Path(path)
        if not folder.is_dir() or (folder / GAME_FILE).is_file():
            out.append(path)
            continue
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            entries = []
        held = [str(p) for p in entries if (p / GAME_FILE).is_file()
                or p.is_file() and p.suffix in (".yaml", ".yml") and not _is_module(p)]
        out.extend(held or [path])
    return out


def _is_module(path: Path) -> bool:
    """The file reads as a module (see :func:`rulekit.modules.is_module`); a
    file that cannot be read is taken for a game, to be reported when checked
    (reading it again then is no second parse: see ``yamlsafe.load_yaml``)."""
    try:
        return is_module(load_yaml(decode_rule_file(read_rule_file(path, str(path)), str(path)), str(path)).data)
    except (OSError, RuleFileError):
        return False


def check(path: str, args: argparse.Namespace, findings: FileFindings) -> int:
    """Load (and with ``--play``, play) one file, noting what is wrong in ``findings``."""
    try:
        game = load_game(path)
    except RuleFileError as err:
        findings.errors = list(err.errors)
        findings.verdict = f"{path}: {plural(len(err.errors), 'error')}"
        return EXIT_RULES
    try:
        options = game_options(game, args.options)
    except CliError as err:
        findings.problems.append(str(err))
        findings.usage = True
        return EXIT_USAGE
    with_options = f" with {options_text(options)}" if args.options else ""
    if args.play > 0:
        problems = smoke(game, args.play, options=options)
        if problems:
            findings.problems += [f"error in play{with_options}: {problem}" for problem in problems]
            findings.verdict = (f"{path}: loads, but {plural(len(problems), 'random game')} failed"
                                f"{' (stopped after 10)' if len(problems) >= 10 else ''}")
            return EXIT_RULES
    played = (f"; {args.play} random games per player count played cleanly{with_options}"
              if args.play > 0 else "")
    findings.summary = summary(game) + played
    return EXIT_OK


def summary(game: Game) -> str:
    """One line: name, players and the size of each part of the rules."""
    return ", ".join([
        game.name, player_range(game), plural(len(game.cards), "card"),
        plural(len(game.zones), "zone"), plural(len(game.phases), "phase"),
        plural(len(game.choices), "choice"), plural(len(game.procedures), "procedure"),
    ] + ([plural(len(game.options), "option")] if game.options else []))
