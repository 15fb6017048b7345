"""``rulekit profile FILE``: which rules a simulation spends its time in.

Plays games as ``rulekit simulate`` does while sampling which rule is
running (see :mod:`rulekit.profiling`), and lists the rules by the share of
the time spent in their own lines, with the share spent in them and in
what they called, and where each is written.
"""
from __future__ import annotations

import argparse
import json

from ..profiling import Profile, profile
from ..simulation import GameFailed
from .common import (
    EXIT_OK,
    add_file_and_players,
    add_many_games,
    game_and_players,
    game_options,
    options_argv,
    positive,
    seats,
)
from .simulate import game_failed
from .text import plural

#: fewer samples than this give shares a few per cent apart from run to run
FEW = 300

#: what each part of rulekit is, in a report
_PART_NAMES = {"rules": "the rules' own lines", "engine": "the engine (moves, log, decisions)",
               "agents": "the agents' own code", "driver": "playing the games (starting, results)"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("profile", help="which rules a simulation spends its time in",
                       description="Play GAMES games as `rulekit simulate` does, sampling which rule is "
                                   "running, and list the rules by their share of the time, with "
                                   "their place in the rule file.")
    add_file_and_players(p)
    p.add_argument("--games", "-g", type=positive, default=50, help="number of games (default 50)")
    add_many_games(p)
    p.add_argument("--top", "-n", type=positive, default=20, help="rules to list (default 20)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game, players = game_and_players(args)
    seats(args.agents, players, 0)
    options = game_options(game, args.options)
    try:
        found = profile(game, players, args.games, args.seed, args.agents, options)
    except GameFailed as err:
        raise game_failed(err, game, players, args.agents, options_argv(args.options)) from None
    if args.json:
        print(json.dumps(found.as_dict(), ensure_ascii=False))
    else:
        print(format_profile(found, args.top))
    return EXIT_OK


def format_profile(p: Profile, top: int = 20) -> str:
    """The profile as text: the parts of rulekit, then the rules by own share."""
    out = [f"{p.game}: {plural(p.games, 'game')}, {plural(p.players, 'player')}, agents {p.agents}: "
           f"{p.seconds:.2f} s, {plural(p.samples, 'sample')} of what was running"]
    if p.samples < FEW:
        out.append(f"  (few samples, so the shares are rough: more games, --games {p.games * 10}, "
                   "make them steadier)")
    out.append("where the time goes:")
    out += [f"  {100 * p.parts[part]:5.1f} %  {_PART_NAMES[part]}" for part in _PART_NAMES]
    if not p.rules:
        out.append("no rule was running when a sample was taken: play more games (--games)")
        return "\n".join(out)
    out += ["", "the rules by the time in their own lines (own), and in them and what they call (all):",
            "    own     all  rule"]
    width = max(len(r.rule) for r in p.rules[:top])
    for r in p.rules[:top]:
        where = f"  {r.where}" if r.where is not None else ""
        out.append(f"  {100 * r.own:5.1f} % {100 * r.all:5.1f} %  {r.rule:<{width}}{where}")
    if len(p.rules) > top:
        out.append(f"  ... and {plural(len(p.rules) - top, 'rule')} more (--top)")
    return "\n".join(out)
