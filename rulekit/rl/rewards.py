"""Rewards from a match's result, and the hook for shaped rewards.

At the end of a match every seat still an agent gets, by default:

- outcome ``win`` (``win`` or ``win for``): ``+1`` for each winner, ``-1``
  for every other seat.  In a co-operative game the players still in are
  the winners, so everyone gets ``+1``;
- outcome ``loss`` (``lose``, nobody wins): ``-1`` for everyone in a
  co-operative game (the table lost together), ``0`` in any other game
  (nobody won, nobody beat anyone).

A game is co-operative when its rules end matches only with a bare ``win``
(everybody still in wins) and never ``win for`` someone; an environment
takes ``cooperative=`` to say otherwise.

A reward hook shapes rewards between those ends: a callable
``hook(match, events, agent) -> float`` called after every step for every
agent, where ``events`` are the log entries since the previous step as
``match.events(seat, since=...)`` gives them to that seat (redacted as its
view is) and ``agent`` is the agent's name (``"player_3"``).  What it
returns is added to that agent's reward for the step.
"""
from __future__ import annotations

import re
from typing import Callable

from ..model import Game

#: hook(match, events since the last step as the seat sees them, agent name) -> reward to add
RewardHook = Callable[[object, list, str], float]

#: a statement of effect text (one per line): ``win "reason"`` or ``win for WHO "reason"``
_BARE_WIN = re.compile(r"(?m)^\s*win\s+[\"']")
_WIN_FOR = re.compile(r"(?m)^\s*win\s+for\b")
#: keys whose text is prose for people, not effect text
_PROSE = frozenset({"doc", "description", "text", "prompt"})


def _texts(value, out: list) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in _PROSE:
                _texts(v, out)
    elif isinstance(value, list):
        for v in value:
            _texts(v, out)


def is_cooperative(game: Game) -> bool:
    """Whether every way the rules win is a bare ``win`` (see the module)."""
    texts: list[str] = []
    _texts(game.source, texts)
    text = "\n".join(texts)
    return bool(_BARE_WIN.search(text)) and not _WIN_FOR.search(text)


def outcome_rewards(result: dict, players: int, cooperative: bool) -> list[float]:
    """The reward of each seat for a finished match's ``result``."""
    if result["outcome"] == "win":
        winners = set(result["winners"])
        return [1.0 if p in winners else -1.0 for p in range(players)]
    return [-1.0 if cooperative else 0.0] * players
