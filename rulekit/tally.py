"""Adding up games as they finish: the numbers of a simulation's report.

A simulation of ten million games must not keep ten million records, and
games played by processes or a cluster finish in any order; yet the report
must be the same as one made game by game in order.  So every figure is
kept as something that only grows by adding — counts, exact sums (whole
numbers, or fractions for the rest, so the order of adding cannot change a
mean's last digit), minima and maxima — and ties in every ordered list are
broken by the value, never by arrival.
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from .written import fmt


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _ranked(counter: Counter) -> dict:
    """Most frequent first; equal counts by their text."""
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0]))))


class Values:
    """One statistic over many games: numbers as count, exact sum, min and
    max; any other value (text, true/false, lists, none) counted by how it
    is written."""

    __slots__ = ("n", "total", "low", "high", "others")

    def __init__(self) -> None:
        self.n = 0
        self.total: Any = 0
        self.low: Any = None
        self.high: Any = None
        self.others: Counter = Counter()

    def add(self, v) -> None:
        if _is_number(v):
            self.n += 1
            self.total += v if type(v) is int else Fraction(v)
            self.low = v if self.low is None or v < self.low else self.low
            self.high = v if self.high is None or v > self.high else self.high
        else:
            self.others[fmt(v)] += 1

    def result(self) -> dict:
        """Numbers: mean, min, max.  Anything else: how many games gave each
        value, most frequent first.  Both, with how many games gave a number
        (``numbers``), when a stat was a number in some games only."""
        out: dict = {}
        if self.n:
            out.update(mean=float(self.total) / self.n, min=self.low, max=self.high)
            if not self.others:
                return out
            out["numbers"] = self.n
        out["counts"] = _ranked(self.others)
        return out


def aggregate(values: list) -> dict:
    v = Values()
    for x in values:
        v.add(x)
    return v.result()


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


class Tally:
    """Every figure of a simulation's report, added game by game in any order."""

    def __init__(self, players: int, agents):
        self.players = players
        names = [n.strip() for n in (agents.split(",") if isinstance(agents, str) else agents) if n.strip()]
        self.seat_agent = [names[p % len(names)] for p in range(players)] if names else []
        self.mixed = len(set(self.seat_agent)) > 1    # then each agent's seats are counted apart too
        self.games = 0
        self.decisions = 0
        self.outcomes: Counter = Counter()
        self.reasons: Counter = Counter()
        self.winners: Counter = Counter()
        self.stats: dict[str, Values] = {}
        self.turns, self.lengths = Values(), Values()
        self.by: dict[str, dict[str, list[int]]] = {}

    def add(self, record: tuple) -> None:
        outcome, reason, won, values, made, per_seat, turn = record
        self.games += 1
        self.decisions += made
        self.turns.add(turn)
        self.lengths.add(made)
        self.outcomes[outcome] += 1
        self.reasons[reason] += 1
        self.winners.update(won)
        for name, value in values.items():
            self.stats.setdefault(name, Values()).add(value)
        for name, seat_values in per_seat.items():
            counts = self.by.setdefault(name, {})
            for seat, value in enumerate(seat_values):
                keys = [fmt(value)] + ([f"{fmt(value)} · {self.seat_agent[seat]}"] if self.mixed else [])
                for key in keys:
                    entry = counts.setdefault(key, [0, 0])
                    entry[0] += 1
                    entry[1] += seat in won

    def report(self, game_name: str, seed: int, agents, options: dict, seconds: float) -> dict:
        games, players, decisions = self.games, self.players, self.decisions
        return {
            "game": game_name,
            "players": players,
            "agents": agents if isinstance(agents, str) else ",".join(agents),
            "seed": seed,
            "options": options,
            "games": games,
            "seconds": round(seconds, 6),
            "decisions": decisions,
            "results": {
                "win_rate": self.outcomes["win"] / games,
                "outcomes": dict(sorted(self.outcomes.items())),
                "reasons": _ranked(self.reasons),
                "winners": {str(p): self.winners[p] for p in range(players)},
            },
            "stats": {name: v.result() for name, v in self.stats.items()},
            # how long the games were: turns, and decisions (every answer asked of a seat)
            "length": {"turns": self.turns.result(), "decisions": self.lengths.result()},
            # by each value of each player stat; with different agents, also by
            # "value · agent" (the win rate of the search agent as each identity)
            "wins_by": {name: {value: win_rate(seats, wins) for value, (seats, wins)
                               in sorted(counts.items(), key=lambda kv: (" · " in kv[0], -kv[1][0], kv[0]))}
                        for name, counts in self.by.items()},
            "games_per_second": games / seconds if seconds > 0 else None,
            "decisions_per_second": decisions / seconds if seconds > 0 else None,
        }
