"""Reading what a browser sends over its websocket (see docs/web.md, "Protocol").

Everything a client sends is checked here, before it reaches a match: its
size, that it is JSON, its type and the shape of an action.  A message that
fails is answered with an error naming what was wrong (:class:`Refused`),
and nothing else happens.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .limits import MAX_MESSAGE_BYTES

#: the error codes a client may receive
CODES = ("malformed", "token", "illegal", "stale", "not_your_turn", "rate", "too_large")
_ACTION_KEYS = {"option", "cards", "player", "number"}


class Refused(Exception):
    """A message the server will not act on: sent back as ``{"type": "error", "code", "message"}``."""

    def __init__(self, code: str, message: str):
        assert code in CODES
        super().__init__(message)
        self.code = code

    def reply(self) -> dict[str, Any]:
        return error(self.code, str(self))


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


@dataclass(frozen=True)
class Hello:
    token: str


@dataclass(frozen=True)
class Act:
    action: dict[str, Any]
    step: int


def read(frame: str | bytes | None) -> Hello | Act:
    """The message in one websocket frame, or :class:`Refused`."""
    if not isinstance(frame, str):
        raise Refused("malformed", "send JSON text frames, not binary ones")
    if len(frame) > MAX_MESSAGE_BYTES or len(frame.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise Refused("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    try:
        msg = json.loads(frame)
    except (ValueError, RecursionError):
        raise Refused("malformed", "the message is not JSON") from None
    if not isinstance(msg, dict):
        raise Refused("malformed", 'a message is a JSON object such as {"type": "hello", "token": "..."}')
    kind = msg.get("type")
    if kind == "hello":
        token = msg.get("token")
        if not isinstance(token, str) or not token:
            raise Refused("malformed", '"hello" needs "token": the seat\'s token as text')
        return Hello(token)
    if kind == "act":
        step = msg.get("step")
        if type(step) is not int:
            raise Refused("malformed", '"act" needs "step": the step of the state the action was chosen in')
        return Act(action(msg.get("action")), step)
    raise Refused("malformed", f"unknown message type {kind!r}: a client sends \"hello\" or \"act\"")


def action(value: Any) -> dict[str, Any]:
    """An action's JSON form, checked for shape only (whether it is legal is
    the match's to say): ``option`` text, ``cards`` a list of card ids,
    ``player`` and ``number`` whole numbers, nothing else."""
    if not isinstance(value, dict):
        raise Refused("malformed", '"action" is an object such as {"option": "card", "cards": [12]}')
    extra = set(value) - _ACTION_KEYS
    if extra:
        raise Refused("malformed", f"an action has no field {sorted(extra)[0]!r} "
                                   "(its fields: option, cards, player, number)")
    if not isinstance(value.get("option"), str):
        raise Refused("malformed", 'an action needs "option": the name of the option, as text')
    cards = value.get("cards", [])
    if not isinstance(cards, list) or not all(_whole(c) for c in cards):
        raise Refused("malformed", '"cards" is a list of card ids (whole numbers)')
    for key in ("player", "number"):
        if value.get(key) is not None and not _whole(value[key]):
            raise Refused("malformed", f'"{key}" is a whole number')
    return value


def _whole(v: Any) -> bool:
    return type(v) is int
