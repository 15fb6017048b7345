"""Playing many matches and reporting on them: ``rulekit simulate`` and
:func:`simulate` for library users.

Games can be played in several processes (``jobs``).  The loaded game is
not sent to them (its effects are compiled functions): where processes are
forked they inherit it, elsewhere each loads the rule file.  Every game is
decided by its seed, and records are gathered in game order, so the report
is the same however many processes play it.
"""
from __future__ import annotations

import itertools
import multiprocessing
import reprlib
import sys
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Sequence

from .agents import make_agents
from .coverage import Hits
from .coverage import report as coverage_report
from .engine import arguments
from .engine.settled import settled
from .errors import RuleRuntimeError, StepBudgetExceeded
from .model import Game
from .progress import Progress
from .tally import Tally


def simulate(game: Game, players: int, games: int, seed: int = 0,
             agents: str | Sequence[str] = "random", options: dict[str, Any] | None = None, jobs: int = 1,
             progress: Progress | None = None, coverage: bool = False, backend: str = "local",
             address: str | None = None, _fault_file: str | None = None) -> dict[str, Any]:
    """Play ``games`` matches of ``game`` (match i seeded ``seed + i``, with
    the match ``options``) with ``agents`` (see :func:`rulekit.agents.make_agents`)
    and return the report: outcomes, wins by seat, the rule file's ``stats``
    aggregated, decisions and timings.  ``jobs`` > 1 plays them in that many
    processes: each game is the same as in one (its seed says everything)
    and the records are gathered in game order, so the report differs only
    in its timings.  A game that fails raises :class:`GameFailed`; a bad
    agent name or option raises ``ValueError`` before any game is played.
    ``coverage``: the report also says how often each rule ran, and which
    never did (:mod:`rulekit.coverage`; slower, so only when asked).
    ``backend="ray"`` plays them as Ray tasks (:mod:`rulekit.cluster`), on a
    local Ray of ``jobs`` CPUs or the cluster at ``address``: the same report,
    with ``"retried"`` saying how many tasks were submitted again."""
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}: local or ray")
    if type(jobs) is not int or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    options = checked(game, players, games, agents, options, seed)
    start = time.perf_counter()
    play = play_in_processes if jobs > 1 and games > 1 else play_here
    hits = Hits() if coverage else None
    if hits is not None and backend == "local" and play is play_here and sys.gettrace() is not None:
        # rule coverage counts with a trace function of its own, and Python (before 3.12's
        # sys.monitoring) runs one at a time in a thread
        warnings.warn(
            "rule coverage replaces the trace function already set (a debugger's, or a coverage tool's "
            "such as coverage.py) while the games are played here, and sets it back afterwards: that "
            "tool sees nothing of the games and may miss lines of the code that called simulate "
            "(jobs > 1 plays them in other processes)", RuntimeWarning, stacklevel=2)
    tally = Tally(players, agents)
    retried = None
    if backend == "ray":
        from .cluster import play_on_ray

        failure, retried = play_on_ray(game, players, games, seed, agents, options, progress, jobs, hits,
                                       tally, address, fault_file=_fault_file)
    else:
        failure = play(game, players, games, seed, agents, options, progress, jobs, hits, tally)
    seconds = time.perf_counter() - start
    if failure is not None:
        raise GameFailed(*failure)
    out = tally.report(game.name, seed, agents, options, seconds)
    if retried is not None:
        out["retried"] = retried
    if hits is not None:
        out["coverage"] = coverage_report(game, hits)
    return out


def checked(game: Game, players: int, games: int, agents: str | Sequence[str],
            options: dict | None, seed: int) -> dict[str, Any]:
    """The match options of a run of ``games`` games, once its arguments are
    known to be good (``ValueError`` or ``TypeError`` saying which is not,
    before a game is played)."""
    arguments.seed(seed)          # (game i is seeded seed + i)
    if not isinstance(agents, str) and not (isinstance(agents, Sequence) and all(
            isinstance(a, str) for a in agents)):
        raise TypeError(f"agents are a name ('random', 'heuristic,random') or a list of names, "
                        f"not {reprlib.repr(agents)}")
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    arguments.players(game.name, game.min_players, game.max_players, players)
    make_agents(agents, players, 0)
    return game.match_options(options)


class GameFailed(Exception):
    """Game ``index`` (0-based; seeded ``seed``) of a simulation failed: a
    rule raised an error or ran past the step budget (``reason`` says which)."""

    def __init__(self, index: int, seed: int, reason: str):
        super().__init__(f"game {index + 1} (seed {seed}) failed: {reason}")
        self.index, self.seed, self.reason = index, seed, reason


def play_games(game: Game, players: int, first: int, count: int, seed: int, agents,
               options: dict[str, Any] | None, hits: Hits | None = None) -> tuple[list[tuple], tuple | None]:
    """Games ``first`` .. ``first + count - 1``: for each, (outcome, reason,
    winners, stats, decisions); the games stop at the first that fails, which
    is returned as (game index, seed, message).  With ``hits``, the rules
    each game ran are counted there."""
    with settled():         # the loaded game is left out of the collector's passes
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


#: a failed game: (its index, its seed, what went wrong)
Failure = tuple[int, int, str]


def play_here(game: Game, players: int, games: int, seed: int, agents: str | Sequence[str],
              options: dict[str, Any] | None, progress: Progress | None, _jobs: int, hits: Hits | None,
              tally: Tally) -> Failure | None:
    """Every game in this process, a few at a time between progress updates;
    each game's record goes into ``tally``.  The failure, if a game failed."""
    done = 0
    for first in range(0, games, _CHUNK):
        records, failure = play_games(game, players, first, min(_CHUNK, games - first), seed, agents,
                                      options, hits)
        for r in records:
            tally.add(r)
        done += len(records)
        if failure is not None:
            return failure
        if progress is not None:
            progress.update(done)
    return None


_CHUNK = 16          # games between progress updates in one process
_WORKER: dict = {}   # in a worker process: the game and how to play it (see _start_worker)


def play_in_processes(game: Game, players: int, games: int, seed: int, agents: str | Sequence[str],
                      options: dict[str, Any] | None, progress: Progress | None, jobs: int, hits: Hits | None,
                      tally: Tally) -> Failure | None:
    """The games split into runs of consecutive games, played by ``jobs``
    processes.  Where processes can be forked they inherit the loaded game;
    elsewhere the game is pickled to them, and each loads it again (from its
    files, or its text: see ``Game.__reduce__``)."""
    forking = "fork" in multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if forking else "spawn")
    size = max(1, min(1000, games // (jobs * 8)))
    runs = [(first, min(size, games - first)) for first in range(0, games, size)]
    settings = dict(game=game, players=players, seed=seed, agents=agents, options=options,
                    coverage=hits is not None)
    failures: list[Failure] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_start_worker,
                             initargs=(settings,)) as pool:
        # a few runs in flight per process, each added up and let go as it
        # finishes: memory does not grow with the number of games
        todo = iter(runs)
        pending = {pool.submit(_play_run, *run) for run in itertools.islice(todo, jobs * 4)}
        done = 0
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                records, failure, run_hits = future.result()
                done += take(records, failure, run_hits, tally, hits, failures)
                nxt = next(todo, None)
                if nxt is not None:
                    pending.add(pool.submit(_play_run, *nxt))
            if progress is not None:
                progress.update(done)
    return min(failures) if failures else None


def take(records: list, failure, run_hits, tally, hits, failures: list) -> int:
    """A finished run's games into ``tally`` (and its coverage into ``hits``,
    its failure into ``failures``); how many games it played."""
    for r in records:
        tally.add(r)
    if hits is not None and run_hits is not None:
        hits.merge(run_hits)
    if failure is not None:
        failures.append(failure)
    return len(records)


def _start_worker(settings: dict) -> None:
    _WORKER.update(settings)


def _play_run(first: int, count: int) -> tuple[list[tuple], tuple | None, Hits | None]:
    w = _WORKER
    hits = Hits() if w["coverage"] else None
    records, failure = play_games(w["game"], w["players"], first, count, w["seed"], w["agents"],
                                  w["options"], hits)
    return records, failure, hits
