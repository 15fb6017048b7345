"""What the commands share: exit statuses, the user-facing error, and the options
that pick a game, its player count, seed and agents."""
from __future__ import annotations

import argparse
import sys

from ..agents import AGENTS, make_agents
from ..loader import load_game
from ..model import Game
from .text import player_range

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class CliError(Exception):
    """A failure to report to the user as one message, with an exit status."""

    def __init__(self, message: str, status: int = EXIT_USAGE):
        super().__init__(message)
        self.status = status


def error(message: str) -> None:
    print(f"rulekit: error: {message}", file=sys.stderr)


# ---- options -----------------------------------------------------------------

def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_file_and_players(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--players", "-p", type=positive, default=None,
                   help="number of players (default: the game's minimum)")


def add_seed(p: argparse.ArgumentParser, of: str) -> None:
    p.add_argument("--seed", "-s", type=int, default=0, help=f"seed of {of} (default 0)")


def add_agents(p: argparse.ArgumentParser, default: str, what: str) -> None:
    p.add_argument("--agents", "-a", default=default,
                   help=f"{what} ({', '.join(AGENTS)}; default {default})")


# ---- from options to a game --------------------------------------------------

def game_and_players(args: argparse.Namespace) -> tuple[Game, int]:
    """The game in ``args.file`` (a RuleFileError is reported by main()) and the
    player count asked for, or the game's minimum."""
    game = load_game(args.file)
    n = game.min_players if args.players is None else args.players
    if not game.min_players <= n <= game.max_players:
        raise CliError(f"{game.name} is for {player_range(game)}, not {n}: "
                       f"use --players {game.min_players}"
                       + (f" to {game.max_players}" if game.max_players != game.min_players else ""))
    return game, n


def seats(agents: str, players: int, seed: int) -> list:
    """One agent a seat; an unknown agent name is the user's mistake, not a crash."""
    try:
        return make_agents(agents, players, seed)
    except ValueError as err:
        raise CliError(str(err)) from None

