"""Simulations on a Ray cluster (the ``cluster`` extra: ``pip install 'rulekit[cluster]'``).

``simulate(..., backend="ray", address=None)`` plays the games as Ray tasks,
each a run of consecutive games: on a Ray started here with ``jobs`` CPUs
when no address is given, or on the cluster at ``address`` (one started with
``ray start --head``; ``"auto"`` finds it).  Every game is seeded from the run
seed and its index, and the games are added up as runs finish
(:mod:`rulekit.tally`), so the report is the one a local run gives and ten
million games take no more memory than a thousand.  A task whose worker
dies is submitted again (up to ``retries`` times); the report says how many
were (``"retried"``).

The game is pickled to the workers, and each loads it again (see
``Game.__reduce__``): a game loaded from text carries its text, one loaded
from files is loaded from the same path, so on a cluster of several
machines its files must be at that path on every one (a shared folder, or
Ray's ``runtime_env`` with a ``working_dir``), saying what they said here.
"""
from __future__ import annotations

import os
from typing import Any

_GAMES: dict[Any, Any] = {}     # in a worker: the games it has loaded, by origin (kept for its next tasks)


def _run(settings: dict, first: int, count: int):
    """One run of games in a Ray worker: (records, failure, hits)."""
    from .coverage import Hits
    from .simulation import play_games

    fault = settings.get("fault_file")
    if fault:                     # tests: the one task that removes the file dies
        try:
            os.remove(fault)      # (two tasks that both saw it raced to remove it)
        except FileNotFoundError:
            pass
        else:
            os._exit(1)
    game = settings["game"]              # (unpickled: loaded again, or the one this worker holds)
    _GAMES[game.origin] = game
    hits = Hits() if settings["coverage"] else None
    records, failure = play_games(game, settings["players"], first, count, settings["seed"],
                                  settings["agents"], settings["options"], hits)
    return records, failure, hits


def play_on_ray(game, players: int, games: int, seed: int, agents, options: dict, progress, jobs: int,
                hits, tally, address: str | None = None, retries: int = 3,
                fault_file: str | None = None) -> tuple[tuple | None, int]:
    """The games as Ray tasks, added into ``tally`` as they finish: (the first
    failure in game order or None, how many tasks were submitted again)."""
    try:
        import ray
        from ray.exceptions import RayError, RayTaskError
    except ImportError as err:
        raise ImportError("the ray backend needs Ray: pip install 'rulekit[cluster]'") from err
    from .simulation import take

    settings = dict(game=game, players=players, seed=seed, agents=agents,
                    options=options, coverage=hits is not None, fault_file=fault_file)
    started = not ray.is_initialized()
    if started:
        if address is None:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    task = ray.remote(max_retries=0)(_run)
    try:
        size = max(1, min(1000, games // (max(jobs, 1) * 8)))
        pending = {}
        for first in range(0, games, size):
            count = min(size, games - first)
            pending[task.remote(settings, first, count)] = (first, count, 0)
        failures: list = []
        done = retried = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            first, count, tries = pending.pop(ready[0])
            try:
                records, failure, run_hits = ray.get(ready[0])
            except RayTaskError:
                raise                                 # the rules failed: not a lost worker
            except RayError:
                if tries >= retries:
                    raise
                retried += 1
                pending[task.remote(settings, first, count)] = (first, count, tries + 1)
                continue
            done += take(records, failure, run_hits, tally, hits, failures)
            if progress is not None:
                progress.update(done)
        return (min(failures) if failures else None), retried
    finally:
        if started:
            ray.shutdown()
