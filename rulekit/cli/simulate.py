"""``rulekit simulate FILE``: play many matches with agents and report outcomes,
the rule file's stats aggregated over all matches, and speed."""
from __future__ import annotations

import argparse
import json

from .. import simulation
from ..model import Game
from ..progress import Progress
from ..simulation import GameFailed
from .common import (
    EXIT_OK,
    EXIT_RULES,
    CliError,
    add_file_and_players,
    add_many_games,
    game_and_players,
    game_options,
    options_argv,
    options_text,
    positive,
    seats,
)
from .text import aligned, fmt, pairs, plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many games with agents and report results",
                       description="Play GAMES games (game i uses seed SEED+i) and report outcomes, "
                                   "stats and speed.")
    add_file_and_players(p)
    p.add_argument("--games", "-g", type=positive, default=100, help="number of games (default 100)")
    add_many_games(p)
    p.add_argument("--jobs", "-j", type=positive, default=1,
                   help="play the games in this many processes (default 1); the results are "
                        "the same, only faster on a machine with that many cores")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or Ray tasks (pip install 'rulekit[cluster]'): "
                        "a local Ray of --jobs CPUs, or the cluster at --address")
    p.add_argument("--address", default=None,
                   help="with --backend ray: the cluster's address (ray start --head prints it; "
                        "'auto' finds one started on this machine)")
    p.add_argument("--coverage", action="store_true",
                   help="also count how often each rule ran and list the rules that never did "
                        "(with their file:line); slower")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game, players = game_and_players(args)
    seats(args.agents, players, 0)  # a bad agent name fails before any game is played
    options = game_options(game, args.options)  # so does a bad --option
    progress = Progress(args.games, "simulating", enabled=not args.no_progress)
    try:
        report = simulate(game, players, args.games, args.seed, args.agents, progress,
                          options=options, replay=options_argv(args.options), jobs=args.jobs,
                          coverage=args.coverage, backend=args.backend, address=args.address)
    finally:
        progress.close()
    if args.json:
        print(json.dumps(report, ensure_ascii=False, sort_keys=False))
    else:
        print(format_report(report))
    return EXIT_OK


def simulate(game: Game, players: int, games: int, seed: int, agents: str,
             progress: Progress | None = None, options: dict | None = None, replay: str = "",
             jobs: int = 1, coverage: bool = False, backend: str = "local",
             address: str | None = None) -> dict:
    """:func:`rulekit.simulation.simulate`, with a failing game reported as a
    :class:`CliError` whose hint is the command that replays it alone
    (``replay`` is the ``--option`` text it repeats)."""
    try:
        return simulation.simulate(game, players, games, seed, agents, options, jobs, progress,
                                   coverage=coverage, backend=backend, address=address)
    except ImportError as err:            # the ray backend without Ray installed
        raise CliError(str(err)) from None
    except GameFailed as err:
        raise game_failed(err, game, players, agents, replay) from None


def game_failed(err: GameFailed, game: Game, players: int, agents: str, replay: str = "") -> CliError:
    """A failing game as the command line reports it: with the command that
    replays it alone (``replay``: the ``--option`` text it repeats)."""
    return CliError(f"{err}\n"
                    f"    hint: reproduce it alone with: rulekit simulate {game.file} --players {players} "
                    f"--games 1 --seed {err.seed} --agents {agents}{replay}", EXIT_RULES)


def format_report(r: dict) -> str:
    """The report of :func:`simulate` as text."""
    res, games = r["results"], r["games"]
    wins = res["outcomes"].get("win", 0)
    out = [
        f"{r['game']}: {plural(games, 'game')}, {plural(r['players'], 'player')}, "
        f"agents {r['agents']}, seeds {r['seed']}..{r['seed'] + games - 1}",
    ]
    if r.get("options"):
        out.append("options:   " + options_text(r["options"]))
    together = all(res["winners"].get(str(p), 0) == wins for p in range(r["players"]))
    if together:          # co-operative (or solo): everybody wins or nobody does
        out.append(f"win rate:  {res['win_rate']:.2%} ({wins} of {games})")
    else:                 # competitive: who won is in the wins by seat and the stats
        out.append(f"decided:   {res['win_rate']:.2%} ({wins} of {games} games had winners; "
                   "see the wins by seat)")
    out.append("outcomes:  " + pairs(res["outcomes"]))
    out.append("reasons:")
    out += [f"  {n:>7}  {reason}" for reason, n in res["reasons"].items()]
    out += _winner_lines(res["winners"], wins, games, _seat_agents(r["agents"], r["players"]))
    for name, rows in r.get("wins_by", {}).items():
        out += _wins_by_lines(name, rows)
    if r["stats"]:
        out.append("stats:")
        out += aligned((name, _stat_text(agg, games)) for name, agg in r["stats"].items())
    if "coverage" in r:
        out += coverage_lines(r["coverage"])
    if "retried" in r:
        out.append(f"ray:       {plural(r['retried'], 'task')} submitted again after its worker died")
    gps, dps = r["games_per_second"], r["decisions_per_second"]
    speed = f"{gps:,.0f} games/s, {dps:,.0f} decisions/s" if gps is not None else "too fast to time"
    out.append(f"speed:     {r['seconds']:.2f} s for {r['decisions']:,} decisions — {speed}")
    return "\n".join(out)


def _winner_lines(winners: dict[str, int], wins: int, games: int, agents: list[str]) -> list[str]:
    """Wins by seat, with each seat's agent and share of the games; one line
    when every won game was won by all the players together (co-operative)."""
    counts = [winners.get(str(p), 0) for p in range(len(agents))]
    if not any(counts) or len(counts) == 1:    # one player: the win rate says it all
        return []
    if all(n == wins for n in counts):
        return [f"winners:   all players together, in each of the {plural(wins, 'won game')}"]
    labels = [f"player {p} ({agent})" for p, agent in enumerate(agents)]
    width = max(len(label) for label in labels)
    digits = len(str(max(counts)))
    out = ["wins by seat:"]
    out += [f"  {label:<{width}}  {n:>{digits}}  {n / games:6.1%}" for label, n in zip(labels, counts)]
    if sum(counts) > wins:
        out.append("  (a shared win counts for each of its winners)")
    return out


def _wins_by_lines(name: str, rows: dict) -> list[str]:
    """Wins by one of the rule file's player stats: for each value, the
    seats that held it, their wins, the rate and its 95 % interval."""
    width = max(len(v) for v in rows) if rows else 0
    digits = len(str(max((e["seats"] for e in rows.values()), default=0)))
    out = [f"wins by {name}:  (seats, wins, rate, 95% interval)"]
    for value, e in rows.items():
        lo, hi = e["ci95"]
        out.append(f"  {value:<{width}}  {e['seats']:>{digits}}  {e['wins']:>{digits}}  {e['rate']:6.1%}"
                   f"  [{lo:.1%}, {hi:.1%}]")
    return out


def _seat_agents(spec: str, players: int) -> list[str]:
    """The agent of each seat, as make_agents() gives them out (names cycled)."""
    names = [n.strip() for n in str(spec).split(",") if n.strip()] or ["?"]
    return [names[p % len(names)] for p in range(players)]


def _stat_text(agg: dict, games: int) -> str:
    parts = []
    if "mean" in agg:
        parts.append(f"mean {agg['mean']:.3f}  min {fmt(agg['min'])}  max {fmt(agg['max'])}")
        if "numbers" in agg:
            parts[-1] += f"  (in {plural(agg['numbers'], 'game')})"
    if "counts" in agg:
        parts.append(", ".join(f"{value} {n} ({n / games:.0%})" for value, n in agg["counts"].items()))
    return ";  ".join(parts)


def coverage_lines(c: dict) -> list[str]:
    """The rules that ran (how many of each kind), then every rule that never
    ran with where it is written, and how many could not be counted."""
    out = ["rule coverage (ran / declared): " + ", ".join(f"{k} {v}" for k, v in c["summary"].items())]
    sections = c["sections"]
    for kind, names in c["never"].items():
        if names:
            out.append(f"  never ran, {kind}:")
            out += [f"    {name}  {sections[kind][name]['where']}".rstrip() for name in names]
    if c["not_counted"]:
        out.append(f"  not counted ({len(c['not_counted'])}: procedures written into their callers, "
                   "skills read where their rule is written)")
    return out
