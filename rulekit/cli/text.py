"""How values are written for people: the way a rule file writes them, counts in
words, and the few layouts every command uses."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..model import Game
from ..written import fmt  # noqa: F401  (the commands import it from here)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def player_counts(game: Game) -> str:
    """``2`` or ``1–4``."""
    lo, hi = game.min_players, game.max_players
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def player_range(game: Game) -> str:
    """``1 player``, ``2 players`` or ``1–4 players``."""
    return f"{player_counts(game)} player{'' if game.min_players == game.max_players == 1 else 's'}"


def one_line(text: Any) -> str:
    """The words of ``text`` with every run of whitespace (newlines too) made one space."""
    return " ".join(str(text).split())


def pairs(mapping: Mapping, sep: str = ", ") -> str:
    """``name value`` for each entry, e.g. ``loss 12, win 3``."""
    return sep.join(f"{k} {fmt(v)}" for k, v in mapping.items())


def aligned(rows: Iterable[tuple[str, str]], indent: str = "  ") -> list[str]:
    """Two columns, the names padded so the second column lines up."""
    rows = list(rows)
    width = max((len(name) for name, _ in rows), default=0)
    return [f"{indent}{name:<{width}}  {text}" for name, text in rows]
