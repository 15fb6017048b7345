"""What one seat's browser is sent: its own view of a match and, when the
decision is its own, the actions it may take.

Built only from :meth:`Match.view` for that seat and the seat's own legal
actions, so nothing a seat must not see can reach its browser.
"""
from __future__ import annotations

from typing import Any

from ..engine.match import Match


def table_state(match: Match, seat: int) -> dict[str, Any]:
    """The state a seat's table draws: ``view`` (the seat's view), ``step``
    (actions applied so far: a client echoes it to refuse stale clicks),
    ``yours`` and, when the decision is this seat's, ``actions`` (each its
    JSON form and its text)."""
    view = match.view(seat, log=True)
    dec = match.decision
    yours = dec is not None and dec.player == seat
    actions = ([{"action": a.to_json(), "text": match.describe_action(a)} for a in dec.options]
               if yours and dec is not None else [])
    return {"seat": seat, "step": len(match.actions), "yours": yours, "actions": actions,
            "view": view, "result": match.result()}
