"""Playing many matches and reporting on them: ``rulekit simulate`` and
:func:`simulate` for library users.

Games can be played in several processes (``jobs``).  The loaded game is
not sent to them (its effects are compiled functions): where processes are
forked they inherit it, elsewhere each loads the rule file.  Every game is
decided by its seed, and records are gathered in game order, so the report
is the same however many processes play it.
"""
from __future__ import annotations

import math
import multiprocessing
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Sequence

from .agents import make_agents
from .coverage import Hits
from .coverage import report as coverage_report
from .errors import RuleRuntimeError, StepBudgetExceeded
from .loader import load_game
from .model import Game
from .progress import Progress
from .written import fmt


def simulate(game: Game, players: int, games: int, seed: int = 0,
             agents: str | Sequence[str] = "random", options: dict | None = None, jobs: int = 1,
             progress: Progress | None = None, coverage: bool = False) -> dict:
    """Play ``games`` matches of ``game`` (match i seeded ``seed + i``, with
    the match ``options``) with ``agents`` (see :func:`rulekit.agents.make_agents`)
    and return the report: outcomes, wins by seat, the rule file's ``stats``
    aggregated, decisions and timings.  ``jobs`` > 1 plays them in that many
    processes: each game is the same as in one (its seed says everything)
    and the records are gathered in game order, so the report differs only
    in its timings.  A game that fails raises :class:`GameFailed`; a bad
    agent name or option raises ``ValueError`` before any game is played.
    ``coverage``: the report also says how often each rule ran, and which
    never did (:mod:`rulekit.coverage`; slower, so only when asked)."""
    if type(games) is not int or games < 1 or type(jobs) is not int or jobs < 1:
        raise ValueError(f"games and jobs must be whole numbers of at least 1, not {games!r} and {jobs!r}")
    if type(players) is not int or not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.name} is for {game.min_players} to {game.max_players} players, "
                         f"not {players!r}")
    options = game.match_options(options)
    make_agents(agents, players, 0)
    start = time.perf_counter()
    play = play_in_processes if jobs > 1 and games > 1 else play_here
    hits = Hits() if coverage else None
    records, failure = play(game, players, games, seed, agents, options, progress, jobs, hits)
    seconds = time.perf_counter() - start
    if failure is not None:
        raise GameFailed(*failure)
    out = report(game, players, games, seed, agents, options, records, seconds)
    if hits is not None:
        out["coverage"] = coverage_report(game, hits)
    return out


class GameFailed(Exception):
    """Game ``index`` (0-based; seeded ``seed``) of a simulation failed: a
    rule raised an error or ran past the step budget (``reason`` says which)."""

    def __init__(self, index: int, seed: int, reason: str):
        super().__init__(f"game {index + 1} (seed {seed}) failed: {reason}")
        self.index, self.seed, self.reason = index, seed, reason


def play_games(game: Game, players: int, first: int, count: int, seed: int, agents,
               options: dict, hits: Hits | None = None) -> tuple[list[tuple], tuple | None]:
    """Games ``first`` .. ``first + count - 1``: for each, (outcome, reason,
    winners, stats, decisions); the games stop at the first that fails, which
    is returned as (game index, seed, message).  With ``hits``, the rules
    each game ran are counted there."""
    if hits is not None:
        with hits.tracing(game):
            return _play_games(game, players, first, count, seed, agents, options, hits)
    return _play_games(game, players, first, count, seed, agents, options, None)


def _play_games(game, players, first, count, seed, agents, options, hits):
    records = []
    for i in range(first, first + count):
        s = seed + i
        try:
            # nobody watches the others' decisions: a seat with nothing to
            # answer a window with need not be asked
            match = game.new_match(players, seed=s, options=options, auto_pass=True)
            by_seat = make_agents(agents, players, s)
            dec = match.decision
            while dec is not None:
                match.apply(by_seat[dec.player].act(match, dec))
                dec = match.decision
        except (StepBudgetExceeded, RuleRuntimeError) as err:
            return records, (i, s, str(err))
        result = match.result()
        if hits is not None:
            hits.record(match)
        records.append((result["outcome"], result["reason"], result["winners"], result["stats"],
                        len(match.actions), result["player_stats"], match.turn))
    return records, None


def play_here(game, players, games, seed, agents, options, progress, _jobs, hits=None):
    """Every game in this process, a few at a time between progress updates."""
    records: list[tuple] = []
    for first in range(0, games, _CHUNK):
        done, failure = play_games(game, players, first, min(_CHUNK, games - first), seed, agents, options,
                                   hits)
        records += done
        if failure is not None:
            return records, failure
        if progress is not None:
            progress.update(len(records))
    return records, None


_CHUNK = 16          # games between progress updates in one process
_WORKER: dict = {}   # in a worker process: the game and how to play it (see _start_worker)


def play_in_processes(game, players, games, seed, agents, options, progress, jobs, hits=None):
    """The games split into runs of consecutive games, played by ``jobs``
    processes.  Where processes can be forked they inherit the loaded game;
    elsewhere each loads the rule file again, so the game must come from
    one (``load_game``)."""
    forking = "fork" in multiprocessing.get_all_start_methods()
    if not forking and not Path(game.file).is_file():
        raise ValueError(f"jobs > 1 needs the game loaded from a rule file here, not from {game.file}")
    ctx = multiprocessing.get_context("fork" if forking else "spawn")
    size = max(1, min(1000, games // (jobs * 8)))
    runs = [(first, min(size, games - first)) for first in range(0, games, size)]
    settings = dict(game=game if forking else None, file=game.file, players=players, seed=seed,
                    agents=agents, options=options, coverage=hits is not None)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_start_worker,
                             initargs=(settings,)) as pool:
        futures = [pool.submit(_play_run, first, count) for first, count in runs]
        done = 0
        for future in as_completed(futures):
            done += len(future.result()[0])
            if progress is not None:
                progress.update(done)
        results = [f.result() for f in futures]
    records: list[tuple] = []
    for done_run, failure, run_hits in results:   # in game order: the first failure is the one to report
        records += done_run
        if hits is not None:
            hits.merge(run_hits)
        if failure is not None:
            return records, failure
    return records, None


def _start_worker(settings: dict) -> None:
    if settings["game"] is None:
        settings["game"] = load_game(settings["file"])
    _WORKER.update(settings)


def _play_run(first: int, count: int) -> tuple[list[tuple], tuple | None, Hits | None]:
    w = _WORKER
    hits = Hits() if w["coverage"] else None
    records, failure = play_games(w["game"], w["players"], first, count, w["seed"], w["agents"],
                                  w["options"], hits)
    return records, failure, hits


def report(game: Game, players: int, games: int, seed: int, agents, options: dict,
           records: list[tuple], seconds: float) -> dict:
    """The report of :func:`simulate` from the games' records, in game order."""
    outcomes: Counter = Counter()
    reasons: Counter = Counter()
    winners: Counter = Counter()
    stats: dict[str, list] = {}
    by: dict[str, dict] = {}
    names = [n.strip() for n in (agents.split(",") if isinstance(agents, str) else agents) if n.strip()]
    seat_agent = [names[p % len(names)] for p in range(players)] if names else []
    mixed = len(set(seat_agent)) > 1      # then each agent's seats are counted apart too
    decisions = 0
    turns, lengths = [], []
    for outcome, reason, won, values, made, per_seat, turn in records:
        turns.append(turn)
        lengths.append(made)
        outcomes[outcome] += 1
        reasons[reason] += 1
        winners.update(won)
        for name, value in values.items():
            stats.setdefault(name, []).append(value)
        decisions += made
        for name, seat_values in per_seat.items():
            counts = by.setdefault(name, {})
            for seat, value in enumerate(seat_values):
                keys = [fmt(value)] + ([f"{fmt(value)} · {seat_agent[seat]}"] if mixed else [])
                for key in keys:
                    entry = counts.setdefault(key, [0, 0])
                    entry[0] += 1
                    entry[1] += seat in won
    return {
        "game": game.name,
        "players": players,
        "agents": agents if isinstance(agents, str) else ",".join(agents),
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
        # how long the games were: turns, and decisions (every answer asked of a seat)
        "length": {"turns": aggregate(turns), "decisions": aggregate(lengths)},
        # by each value of each player stat; with different agents, also by
        # "value · agent" (the win rate of the search agent as each identity)
        "wins_by": {name: {value: win_rate(seats, wins) for value, (seats, wins)
                           in sorted(counts.items(), key=lambda kv: (" · " in kv[0], -kv[1][0], kv[0]))}
                    for name, counts in by.items()},
        "games_per_second": games / seconds if seconds > 0 else None,
        "decisions_per_second": decisions / seconds if seconds > 0 else None,
    }


def win_rate(seats: int, wins: int) -> dict:
    """How often ``seats`` seats holding one value won: the rate and its 95 %
    confidence interval (Wilson's, which stays inside 0..1 and is sound for
    the small counts a rare hero gets)."""
    z = 1.959964
    if seats == 0:
        return {"seats": 0, "wins": 0, "rate": None, "ci95": None}
    p = wins / seats
    denom = 1 + z * z / seats
    centre = (p + z * z / (2 * seats)) / denom
    half = z * math.sqrt(p * (1 - p) / seats + z * z / (4 * seats * seats)) / denom
    # the bounds hold the rate itself, which rounding could push just outside at 0 or 1
    return {"seats": seats, "wins": wins, "rate": p,
            "ci95": [max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))]}


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
