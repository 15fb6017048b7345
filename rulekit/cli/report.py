"""``rulekit report FILE``: a balance report — win rates by seat, by each of
the rule file's player stats (identity, hero, deck) and by player count,
each with its 95 % interval, the games' length and the file's stats — as a
self-contained HTML page with plots and a JSON file of the same numbers."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..loader import load_game
from ..report import balance, write_report
from .common import EXIT_OK, CliError, add_many_games, game_options, positive, seats


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="write a balance report (HTML with plots, and JSON)",
                       description="Simulate GAMES games for each player count and write "
                                   "OUT/report.html and OUT/report.json.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--players", "-p", default=None,
                   help="player counts, e.g. 5 or 4,6,8 or 4-10 (default: the game's minimum)")
    p.add_argument("--games", "-g", type=positive, default=200, help="games per player count (default 200)")
    add_many_games(p)
    p.add_argument("--jobs", "-j", type=positive, default=1, help="processes (default 1)")
    p.add_argument("--coverage", action="store_true", help="also list the rules that never ran")
    p.add_argument("--out", default="report", help="folder to write into (default ./report)")
    p.set_defaults(run=run)


def player_counts(text: str | None, lo: int, hi: int) -> list[int]:
    """``5``, ``4,6,8`` or ``4-10``, each within the game's range."""
    if text is None:
        return [lo]
    counts: list[int] = []
    try:
        for part in text.split(","):
            a, _, b = part.strip().partition("-")
            counts += list(range(int(a), int(b) + 1)) if b else [int(a)]
    except ValueError:
        raise CliError(f"--players '{text}' is not a count, a list (4,6,8) or a range (4-10)") from None
    bad = [n for n in counts if not lo <= n <= hi]
    if bad or not counts:
        raise CliError(f"the game is for {lo} to {hi} players, not {bad[0] if bad else text}")
    return sorted(set(counts))


def run(args: argparse.Namespace) -> int:
    game = load_game(args.file)
    counts = player_counts(args.players, game.min_players, game.max_players)
    for n in counts:
        seats(args.agents, n, 0)
    options = game_options(game, args.options)
    data = balance(game, counts, args.games, args.seed, args.agents, options, args.jobs, args.coverage)
    try:
        html_path, json_path = write_report(data, Path(args.out))
    except ImportError as err:
        raise CliError(str(err)) from None
    print(f"wrote {html_path} and {json_path}")
    return EXIT_OK
