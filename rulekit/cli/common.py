"""What the commands share: exit statuses, the user-facing error, and the options
that pick a game, its player count, seed and agents."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..agents import AGENTS, make_agents
from ..lang.names import suggest
from ..loader import load_game
from ..model import Game
from .text import fmt, player_range

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


def option_setting(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` as given to ``--option`` (the value is typed once the game is known)."""
    name, eq, value = text.partition("=")
    name = name.strip()
    if not eq or not name:
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=VALUE, e.g. --option variant=short")
    return name, value.strip()


def add_options(p: argparse.ArgumentParser, what: str = "the match") -> None:
    p.add_argument("--option", "-o", dest="options", metavar="NAME=VALUE", type=option_setting,
                   action="append", default=[],
                   help=f"set an option of the game for {what} (repeatable; `rulekit describe` "
                        "lists the options)")


def add_agents(p: argparse.ArgumentParser, default: str, what: str) -> None:
    p.add_argument("--agents", "-a", default=default,
                   help=f"{what} ({', '.join(AGENTS)}; default {default})")


def add_many_games(p: argparse.ArgumentParser) -> None:
    """What every command that plays many games takes: the first game's
    seed (game i uses seed+i), the agents and the game's options."""
    add_seed(p, "the first game")
    add_agents(p, "random", "agent for every seat, or one per seat comma-separated")
    add_options(p, "every game")


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


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def game_options(game: Game, settings: list[tuple[str, str]]) -> dict[str, Any]:
    """The match options ``--option NAME=VALUE`` asks for, each VALUE read as
    the type of the option's default (true/false, a number or text); a name
    the game does not have or a value it does not allow is a :class:`CliError`.
    The last setting of a name counts."""
    chosen: dict[str, Any] = {}
    for name, text in settings:
        spec = game.options.get(name)
        if spec is None:
            known = ", ".join(game.options)
            hint = suggest(name, game.options)
            raise CliError(f"{game.name} has no option '{name}'"
                           + (f" (its options: {known})" if known else " (it has no options)")
                           + (f"\n    hint: {hint}" if hint else ""))
        chosen[name] = _option_value(name, spec, text)
    try:
        return game.match_options(chosen)
    except ValueError as err:  # a value the option does not allow
        raise CliError(str(err)) from None


def _option_value(name: str, spec: dict, text: str) -> Any:
    default, allowed = spec["default"], spec.get("values")
    choices = f": choose one of {', '.join(fmt(v) for v in allowed)}" if allowed else ""
    kind = type(default)
    value: Any
    if kind is bool:
        word = text.lower()
        if word not in _TRUE + _FALSE:
            raise CliError(f"option '{name}' is true or false, not '{text}' "
                           f"(write {name}=true or {name}=false; yes/no and 1/0 work too)")
        value = word in _TRUE
    elif kind is int:
        try:
            value = int(text)
        except ValueError:
            raise CliError(f"option '{name}' is a whole number, not '{text}'{choices}") from None
    elif kind is float:
        try:
            value = float(text)
        except ValueError:
            raise CliError(f"option '{name}' is a number, not '{text}'{choices}") from None
    else:
        value = text
    return value      # whether it is allowed is the engine's check (Game.match_options)


def options_text(options: dict[str, Any]) -> str:
    """``start_hp=2, thorns=false``: the options of a match as --option would set them."""
    return ", ".join(f"{k}={fmt(v)}" for k, v in options.items())


def options_argv(settings: list[tuple[str, str]]) -> str:
    """The ``--option`` flags that repeat ``settings`` on a command line."""
    return "".join(f" --option {name}={value}" for name, value in settings)
