"""What a match is started with, checked before anything runs.

A wrong argument to ``Match`` (or ``Game.new_match``) or a damaged saved
record would otherwise surface later and elsewhere: a text step budget as
a rule file's failure ("'>' cannot compare a number with a text", at the
setup's line), a seed of ``None`` as a match that ``save()``/``restore()``
cannot replay, a numpy integer as a save that ``json`` refuses.  Each
check here says what is taken instead.  Integer types other than ``int``
(numpy's) are taken as the number they stand for; ``True`` is not a number
here.
"""
from __future__ import annotations

import operator
import reprlib
from collections.abc import Mapping
from typing import Any, SupportsIndex


def _whole(value: object) -> int | None:
    """``value`` as an int, or None when it is not a whole number."""
    if type(value) is int:
        return value
    if type(value) is bool or not isinstance(value, SupportsIndex):
        return None
    return operator.index(value)


def players(game: str, low: int, high: int, value: object) -> int:
    number = _whole(value)
    if number is None or not low <= number <= high:
        raise ValueError(f"{game} is for {low} to {high} players, not {reprlib.repr(value)}")
    return number


def seed(value: object) -> int:
    """A match's seed: the same game, seed and actions give the same match."""
    number = _whole(value)
    if number is None:
        hint = " (for a seed of its own, draw one: random.randrange(2**32))" if value is None else ""
        raise TypeError(f"a match's seed is a whole number, not {reprlib.repr(value)}{hint}")
    return number


def step_budget(value: object) -> int:
    """The most steps the rules may take before the match is stopped."""
    number = _whole(value)
    if number is None or number < 1:
        raise ValueError(f"step_budget is a whole number of steps, 1 or more, not {reprlib.repr(value)}")
    return number


def optional_count(name: str, value: object) -> int | None:
    """A limit that may be left out (None): a whole number, 1 or more."""
    if value is None:
        return None
    number = _whole(value)
    if number is None or number < 1:
        raise ValueError(f"{name} is a whole number, 1 or more (or None for no limit), not {reprlib.repr(value)}")
    return number


def optional_flag(name: str, value: object) -> bool | None:
    return None if value is None else flag(name, value)


def flag(name: str, value: object) -> bool:
    if type(value) is not bool:
        raise TypeError(f"{name} is True or False, not {reprlib.repr(value)}")
    return value


def options(value: object) -> dict[str, Any] | None:
    """The game's options chosen for the match (their values are the game's to check)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"options are a mapping of option name to value, not {reprlib.repr(value)}")
    return dict(value)


def saved(game_name: str, record: object, rules: str | None = None) -> tuple[dict[str, Any], list[Any]]:
    """The arguments of the match a ``Match.save()`` record describes, and
    its actions; ValueError when it is not such a record, is another game's,
    or was saved under other rule files than those whose digest is ``rules``
    (a record without one, written before saves carried it, is taken)."""
    if not isinstance(record, Mapping):
        raise ValueError(f"a saved match is the mapping Match.save() gives, not {reprlib.repr(record)}")
    missing = [k for k in ("players", "seed", "actions") if k not in record]
    if missing:
        raise ValueError(f"not a saved match: it has no {', '.join(map(repr, missing))}")
    name = record.get("game", game_name)
    if name != game_name:
        raise ValueError(f"this match was saved from {reprlib.repr(name)}, not from {game_name!r}")
    same_rules(game_name, record, rules)
    actions = record["actions"]
    if not isinstance(actions, list):
        raise ValueError(f"a saved match's actions are a list, not {reprlib.repr(actions)}")
    prepared = record.get("prepared")
    if prepared is not None and not isinstance(prepared, Mapping):
        raise ValueError(f"a saved match's prepared state is a mapping, not {reprlib.repr(prepared)}")
    return ({"players": record["players"], "seed": record["seed"],
             "step_budget": record.get("step_budget", None), "prepared": prepared,
             "options": record.get("options"), "auto_pass": record.get("auto_pass", False)}, actions)


def same_rules(game_name: str, record: Mapping[str, Any], rules: str | None) -> None:
    """ValueError when a saved match's ``rules`` (a digest of the rule files
    it was played under) are not ``rules``: replayed under the files as they
    are now, its actions would make another match.  A record without them
    (written before saves carried them), or a game without a digest, passes."""
    if rules is not None and record.get("rules", rules) != rules:
        raise ValueError(f"this match was saved under other rule files of {game_name!r}: they changed since, "
                         "and its actions would replay as another match (restore it with the files it was "
                         "played under)")
