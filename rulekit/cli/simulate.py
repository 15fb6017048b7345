"""``rulekit simulate FILE``: play many matches with agents and report outcomes,
the rule file's stats aggregated over all matches, and speed."""
from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from ..errors import RuleRuntimeError, StepBudgetExceeded
from ..model import Game
from ..progress import Progress
from .common import (EXIT_OK, EXIT_RULES, CliError, add_agents, add_file_and_players, add_seed,
                     game_and_players, positive, seats)
from .text import aligned, fmt, pairs, plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many games with agents and report results",
                       description="Play GAMES games (game i uses seed SEED+i) and report outcomes, "
                                   "stats and speed.")
    add_file_and_players(p)
    p.add_argument("--games", "-g", type=positive, default=100, help="number of games (default 100)")
    add_seed(p, "the first game")
    add_agents(p, "random", "agent for every seat, or one per seat comma-separated")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game, players = game_and_players(args)
    seats(args.agents, players, 0)  # a bad agent name fails before any game is played
    progress = Progress(args.games, "simulating", enabled=not args.no_progress)
    try:
        report = simulate(game, players, args.games, args.seed, args.agents, progress)
    finally:
        progress.close()
    if args.json:
        print(json.dumps(report, ensure_ascii=False, sort_keys=False))
    else:
        print(format_report(report))
    return EXIT_OK


def simulate(game: Game, players: int, games: int, seed: int, agents: str,
             progress: Progress | None = None) -> dict:
    """Play ``games`` matches (match i seeded ``seed + i``) and aggregate the results."""
    outcomes: Counter = Counter()
    reasons: Counter = Counter()
    winners: Counter = Counter()
    stats: dict[str, list] = {}
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        s = seed + i
        try:
            match = game.new_match(players, seed=s)
            by_seat = seats(agents, players, s)
            while True:
                dec = match.decision
                if dec is None:
                    break
                match.apply(by_seat[dec.player].act(match, dec))
        except (StepBudgetExceeded, RuleRuntimeError) as err:
            raise CliError(f"game {i + 1} (seed {s}) failed: {err}\n"
                           f"    hint: reproduce it alone with: rulekit simulate {game.file} --players {players} "
                           f"--games 1 --seed {s} --agents {agents}", EXIT_RULES) from None
        decisions += len(match.actions)
        result = match.result()
        outcomes[result["outcome"]] += 1
        reasons[result["reason"]] += 1
        winners.update(result["winners"])
        for name, value in result["stats"].items():
            stats.setdefault(name, []).append(value)
        if progress is not None:
            progress.update(i + 1)
    seconds = time.perf_counter() - start
    return {
        "game": game.name,
        "players": players,
        "agents": agents,
        "seed": seed,
        "games": games,
        "seconds": round(seconds, 6),
        "decisions": decisions,
        "results": {
            "win_rate": outcomes["win"] / games,
            "outcomes": dict(sorted(outcomes.items())),
            "reasons": dict(reasons.most_common()),
            "winners": {str(p): winners[p] for p in range(players)},
        },
        "stats": {name: aggregate(values) for name, values in stats.items()},
        "games_per_second": games / seconds if seconds > 0 else None,
        "decisions_per_second": decisions / seconds if seconds > 0 else None,
    }


def aggregate(values: list) -> dict:
    """Numbers: mean, min, max.  Anything else (text, true/false): counts."""
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}
    return {"counts": dict(Counter(fmt(v) for v in values).most_common())}


def format_report(r: dict) -> str:
    """The report of :func:`simulate` as text."""
    res = r["results"]
    wins = res["outcomes"].get("win", 0)
    out = [
        f"{r['game']}: {plural(r['games'], 'game')}, {plural(r['players'], 'player')}, "
        f"agents {r['agents']}, seeds {r['seed']}..{r['seed'] + r['games'] - 1}",
        f"win rate:  {res['win_rate']:.2%} ({wins} of {r['games']})",
        "outcomes:  " + pairs(res["outcomes"]),
    ]
    out.append("reasons:")
    out += [f"  {n:>7}  {reason}" for reason, n in res["reasons"].items()]
    if any(res["winners"].values()):
        out.append("winners:   " + ", ".join(f"player {p} {n}" for p, n in res["winners"].items()))
    if r["stats"]:
        out.append("stats:")
        out += aligned((name, _stat_text(agg)) for name, agg in r["stats"].items())
    gps, dps = r["games_per_second"], r["decisions_per_second"]
    speed = f"{gps:,.0f} games/s, {dps:,.0f} decisions/s" if gps is not None else "too fast to time"
    out.append(f"speed:     {r['seconds']:.2f} s for {r['decisions']:,} decisions — {speed}")
    return "\n".join(out)


def _stat_text(agg: dict) -> str:
    if "counts" in agg:
        return pairs(agg["counts"])
    return f"mean {agg['mean']:.3f}  min {fmt(agg['min'])}  max {fmt(agg['max'])}"
