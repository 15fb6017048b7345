"""``rulekit simulate FILE``: play many matches with agents and report outcomes,
the rule file's stats aggregated over all matches, and speed."""
from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed

from ..agents import make_agents
from ..errors import RuleRuntimeError, StepBudgetExceeded
from ..loader import load_game
from ..model import Game
from ..progress import Progress
from .common import (EXIT_OK, EXIT_RULES, CliError, add_agents, add_file_and_players, add_options,
                     add_seed, game_and_players, game_options, options_argv, options_text, positive,
                     seats)
from .text import aligned, fmt, pairs, plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many games with agents and report results",
                       description="Play GAMES games (game i uses seed SEED+i) and report outcomes, "
                                   "stats and speed.")
    add_file_and_players(p)
    p.add_argument("--games", "-g", type=positive, default=100, help="number of games (default 100)")
    add_seed(p, "the first game")
    add_agents(p, "random", "agent for every seat, or one per seat comma-separated")
    add_options(p, "every game")
    p.add_argument("--jobs", "-j", type=positive, default=1,
                   help="play the games in this many processes (default 1); the results are "
                        "the same, only faster on a machine with that many cores")
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
                          options=options, replay=options_argv(args.options), jobs=args.jobs)
    finally:
        progress.close()
    if args.json:
        print(json.dumps(report, ensure_ascii=False, sort_keys=False))
    else:
        print(format_report(report))
    return EXIT_OK


def simulate(game: Game, players: int, games: int, seed: int, agents: str,
             progress: Progress | None = None, options: dict | None = None, replay: str = "",
             jobs: int = 1) -> dict:
    """Play ``games`` matches (match i seeded ``seed + i``, with the match
    ``options``) and aggregate the results.  ``replay`` is the ``--option``
    text the hint for reproducing a failed game repeats.  ``jobs`` > 1 plays
    them in that many processes: every game is the same as in one process
    (its seed says everything), and the results are gathered in game order,
    so the report differs only in its timings."""
    options = game.match_options(options)
    start = time.perf_counter()
    play = play_in_processes if jobs > 1 and games > 1 else play_here
    records, failure = play(game, players, games, seed, agents, options, progress, jobs)
    seconds = time.perf_counter() - start
    if failure is not None:
        i, s, message = failure
        raise CliError(f"game {i + 1} (seed {s}) failed: {message}\n"
                       f"    hint: reproduce it alone with: rulekit simulate {game.file} --players {players} "
                       f"--games 1 --seed {s} --agents {agents}{replay}", EXIT_RULES)
    return report(game, players, games, seed, agents, options, records, seconds)


def play_games(game: Game, players: int, first: int, count: int, seed: int, agents: str,
               options: dict) -> tuple[list[tuple], tuple | None]:
    """Games ``first`` .. ``first + count - 1``: for each, (outcome, reason,
    winners, stats, decisions); the games stop at the first that fails, which
    is returned as (game index, seed, message)."""
    records = []
    for i in range(first, first + count):
        s = seed + i
        try:
            match = game.new_match(players, seed=s, options=options)
            by_seat = make_agents(agents, players, s)
            dec = match.decision
            while dec is not None:
                match.apply(by_seat[dec.player].act(match, dec))
                dec = match.decision
        except (StepBudgetExceeded, RuleRuntimeError) as err:
            return records, (i, s, str(err))
        result = match.result()
        records.append((result["outcome"], result["reason"], result["winners"], result["stats"],
                        len(match.actions)))
    return records, None


def play_here(game, players, games, seed, agents, options, progress, _jobs):
    """Every game in this process, a few at a time between progress updates."""
    records: list[tuple] = []
    for first in range(0, games, _CHUNK):
        done, failure = play_games(game, players, first, min(_CHUNK, games - first), seed, agents, options)
        records += done
        if failure is not None:
            return records, failure
        if progress is not None:
            progress.update(len(records))
    return records, None


_CHUNK = 16          # games between progress updates in one process
_WORKER: dict = {}   # in a worker process: the game and how to play it


def play_in_processes(game, players, games, seed, agents, options, progress, jobs):
    """The games split into runs of consecutive games, played by ``jobs``
    processes.  Where processes can be forked they inherit the loaded game;
    elsewhere each loads the rule file again."""
    forking = "fork" in multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if forking else "spawn")
    size = max(1, min(1000, games // (jobs * 8)))
    runs = [(first, min(size, games - first)) for first in range(0, games, size)]
    _WORKER.update(game=game if forking else None, file=game.file, players=players, seed=seed,
                   agents=agents, options=options)
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_start_worker,
                                 initargs=(dict(_WORKER),)) as pool:
            futures = [pool.submit(_play_run, first, count) for first, count in runs]
            done = 0
            for future in as_completed(futures):
                done += len(future.result()[0])
                if progress is not None:
                    progress.update(done)
            results = [f.result() for f in futures]
    finally:
        _WORKER.clear()
    records: list[tuple] = []
    for done_run, failure in results:        # in game order: the first failure is the one to report
        records += done_run
        if failure is not None:
            return records, failure
    return records, None


def _start_worker(settings: dict) -> None:
    if settings["game"] is None:
        settings["game"] = load_game(settings["file"])
    _WORKER.update(settings)


def _play_run(first: int, count: int) -> tuple[list[tuple], tuple | None]:
    w = _WORKER
    return play_games(w["game"], w["players"], first, count, w["seed"], w["agents"], w["options"])


def report(game: Game, players: int, games: int, seed: int, agents: str, options: dict,
           records: list[tuple], seconds: float) -> dict:
    """The report of :func:`simulate` from the games' records, in game order."""
    outcomes: Counter = Counter()
    reasons: Counter = Counter()
    winners: Counter = Counter()
    stats: dict[str, list] = {}
    decisions = 0
    for outcome, reason, won, values, made in records:
        outcomes[outcome] += 1
        reasons[reason] += 1
        winners.update(won)
        for name, value in values.items():
            stats.setdefault(name, []).append(value)
        decisions += made
    return {
        "game": game.name,
        "players": players,
        "agents": agents,
        "seed": seed,
        "options": options,
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
    """Numbers: mean, min, max.  Anything else (text, true/false, lists, none):
    how many games gave each value, most frequent first.  A stat that is a
    number in some games and not in others (e.g. none when it did not apply)
    gets both: the figures of the numbers, how many games gave one
    (``numbers``), and the counts of the other values."""
    numbers = [v for v in values if _is_number(v)]
    others = [v for v in values if not _is_number(v)]
    out: dict = {}
    if numbers:
        out.update(mean=sum(numbers) / len(numbers), min=min(numbers), max=max(numbers))
        if not others:
            return out
        out["numbers"] = len(numbers)
    out["counts"] = dict(Counter(fmt(v) for v in others).most_common())
    return out


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


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
    if r["stats"]:
        out.append("stats:")
        out += aligned((name, _stat_text(agg, games)) for name, agg in r["stats"].items())
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
