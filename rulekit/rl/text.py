"""The table as text, for an environment's ``render()``: what ``rulekit
play`` shows a person, from the deciding seat (its options included) or,
once the match is over, the result."""
from __future__ import annotations

from ..cli.show import options_lines, result_lines, view_lines
from ..engine.match import Match


def _who(p: int | None) -> str:
    return f"player_{p}"


def render_text(match: Match, seat: int | None) -> str:
    if match.decision is None:
        if match.result() is None:
            return "(the match was closed)"
        lines = view_lines(match, 0, _who) + result_lines(match, _who)
    else:
        lines = view_lines(match, seat, _who) + [f"{_who(seat)} decides:"] + options_lines(match)
    return "\n".join(lines)


def render(mode: str | None, match: Match, seat: int | None) -> str | None:
    """``render()`` of an environment: the text for ``"ansi"``, printed for
    ``"human"``, nothing without a render mode."""
    if mode is None:
        return None
    text = render_text(match, seat)
    if mode == "human":
        print(text)
        return None
    return text
