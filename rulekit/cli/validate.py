"""``rulekit validate FILE...``: load each rule file and report every problem."""
from __future__ import annotations

import argparse
import sys

from ..errors import RuleFileError
from ..loader import load_game
from ..model import Game
from ..testing import smoke
from .common import EXIT_OK, EXIT_RULES, EXIT_USAGE, CliError, add_options, error, game_options, options_text
from .text import player_range, plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check rule files and report every error",
                       description="Load each rule file and report every problem with file:line:col.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--play", type=int, default=0, metavar="N",
                   help="also play N random games per player count, checking that every game "
                        "ends, no card is lost and replays agree")
    add_options(p, "the games --play plays")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Every file is checked, even after a broken one, so one run reports them all.
    ``--option`` settings are checked against every file (and used by the
    games of ``--play``); a file without such an option is a usage error (2)."""
    status = EXIT_OK
    for path in args.files:
        try:
            game = load_game(path)
        except RuleFileError as err:
            print(str(err), file=sys.stderr)
            print(f"{path}: {plural(len(err.errors), 'error')}", file=sys.stderr)
            status = max(status, EXIT_RULES)
            continue
        try:
            options = game_options(game, args.options)
        except CliError as err:
            error(f"{path}: {err}")
            status = max(status, EXIT_USAGE)
            continue
        with_options = f" with {options_text(options)}" if args.options else ""
        if args.play > 0:
            problems = smoke(game, args.play, options=options)
            if problems:
                for problem in problems:
                    print(f"{path}: error in play{with_options}: {problem}", file=sys.stderr)
                print(f"{path}: loads, but {plural(len(problems), 'random game')} failed"
                      f"{' (stopped after 10)' if len(problems) >= 10 else ''}", file=sys.stderr)
                status = max(status, EXIT_RULES)
                continue
        played = (f"; {args.play} random games per player count played cleanly{with_options}"
                  if args.play > 0 else "")
        print(f"{path}: ok — {summary(game)}{played}")
    return status


def summary(game: Game) -> str:
    """One line: name, players and the size of each part of the rules."""
    return ", ".join([
        game.name, player_range(game), plural(len(game.cards), "card"),
        plural(len(game.zones), "zone"), plural(len(game.phases), "phase"),
        plural(len(game.choices), "choice"), plural(len(game.procedures), "procedure"),
    ] + ([plural(len(game.options), "option")] if game.options else []))
