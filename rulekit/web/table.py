"""What one seat's browser is sent: its own view of a match and, when the
decision is its own, the actions it may take, laid out for drawing.

Built only from :meth:`Match.view` for that seat and the seat's own legal
actions, so nothing a seat must not see can reach its browser.  The one
exception is the end of a match: then every player's hidden variables (a
secret role) are shown to all, as the terminal shows them.  The same code
draws every rule file: it reads zones, ``display:``, ``public:`` and the
log, never a game's names.
"""
from __future__ import annotations

from typing import Any, Literal

from ..cli.show import only_pass, told_events
from ..engine.match import Match
from ..engine.view import ALL
from .faces import zone_faces

#: display values that say nothing about a player (no distance to oneself, a hidden role)
_BLANK = ("-", "?", "")


def table_state(match: Match, seat: int | Literal["all"], log: bool = True) -> dict[str, Any]:
    """The state a seat's table draws (``seat`` may be ``"all"``, the
    all-seeing view, for replays).  Required by the protocol: ``seat``,
    ``step`` (actions applied so far: a client echoes it so that stale
    clicks are refused), ``yours``, ``actions`` (each its JSON form and its
    text, only when the decision is this seat's), ``view`` (the seat's view,
    its raw log left out: ``log`` holds it told), ``result``.  For drawing:
    ``seats``, ``mine`` (the seat's own hidden zones: its hand), ``shared``
    zones, ``info`` (the rule file's public values), ``decision``,
    ``pickable`` cards, ``log`` lines (left out with ``log=False``: a
    server sends a socket only the lines it has not had, :class:`ToldLog`)
    and ``end``."""
    game = match.game
    view = match.view(seat, log=False)
    dec = match.decision
    yours = dec is not None and dec.player == seat
    actions = [_action(match, a) for a in dec.options] if yours and dec is not None else []
    seats, mine = _seats(match, view, seat)
    decision = None
    if dec is not None:
        decision = {"player": dec.player, "choice": dec.choice, "prompt": view["decision"]["prompt"],
                    "yours": yours, "only_pass": yours and only_pass(game, dec)}
        if seat == ALL:
            decision["options"] = view["decision"]["options"]
    return {
        "seat": seat, "step": len(match.actions), "yours": yours, "actions": actions,
        "view": view, "result": match.result(),
        "game": game.name, "players": match.n, "turn": view["turn"], "phase": view["phase"],
        "current": view["current"], "seats": seats, "mine": mine,
        "shared": _shared(match, view),
        "info": view["public"] or view["vars"],
        "decision": decision,
        "pickable": sorted({c for a in actions for c in a["action"].get("cards", ())}),
        **({"log": log_lines(match, seat)} if log else {}),
        "end": end_screen(match, seat),
    }


def _who(seat):
    return lambda p: f"player {p} (you)" if p == seat else f"player {p}"


def _action(match: Match, a) -> dict:
    """An action as a button: its JSON form, its text, and ``label``, the
    text without its cards (the cards are clicked first, then the label)."""
    label = [] if a.option == "player" and a.player is not None else [a.option]
    if a.player is not None:
        label.append(f"player {a.player}")
    if a.number is not None:
        label.append(str(a.number))
    return {"action": a.to_json(), "text": match.describe_action(a), "label": " ".join(label)}


def _zone(match: Match, name: str, zdef, info: dict) -> dict:
    out = {"name": zdef.name, "key": name, "count": info["count"], "visibility": zdef.visibility}
    cards = zone_faces(match.game, info)
    if cards is not None:
        out["cards"] = cards
    return out


def _seats(match: Match, view: dict, seat) -> tuple[list[dict], list[dict]]:
    """One entry a player: its name, a title (the first word the rule
    file's ``display:`` gives about it, e.g. a hero's name), its status
    values (``display:`` or else its variables; ``max`` beside a value
    when ``max_NAME`` is displayed too), its zones that the seat sees by
    card and the counts of those it does not.  And the seat's own hidden
    zones (its hand), which the table draws at the bottom."""
    display = view["display"]
    dec = view["decision"]
    seats: list[dict] = []
    for p in range(match.n):
        values = display[p] if display else _vars(match, view["player_vars"][p])
        title_key = next((k for k, v in values.items() if isinstance(v, str) and v not in _BLANK), None)
        status = [{"name": k, "value": v, **({"max": values[f"max_{k}"]} if f"max_{k}" in values else {})}
                  for k, v in values.items()
                  if k != title_key and not (k.startswith("max_") and k[4:] in values)]
        if seat == ALL:        # the all-seeing view (a replay) shows every secret too
            status += [{"name": k, "value": view["player_vars"][p].get(k)} for k in match.game.var_visibility
                       if k not in values]
        seats.append({"seat": p, "name": f"player {p}", "title": values.get(title_key, ""),
                      "you": p == seat, "current": p == view["current"],
                      "deciding": dec is not None and dec["player"] == p, "out": p in view["out"],
                      "status": status, "zones": [], "counts": []})
    mine: list[dict] = []
    for z in match.all_zones():
        if z.owner is None:
            continue
        info = view["zones"][z.name]
        zone = _zone(match, z.name, z.zdef, info)
        if z.owner == seat and z.zdef.visibility == "owner":
            if info["count"] or not mine:
                mine.append(zone)         # the hand, even empty, and the seat's other hidden zones in use
        elif "cards" in zone:
            if info["count"]:
                seats[z.owner]["zones"].append(zone)
        elif info["count"]:
            seats[z.owner]["counts"].append({"name": z.zdef.name, "count": info["count"]})
    return seats, mine


def _vars(match: Match, values: dict) -> dict:
    """A player's variables in the order the file declares them, one kept
    from this seat as None."""
    names = list(match.game.player_vars) + [k for k in values if k not in match.game.player_vars]
    return {k: values.get(k) for k in names}


def _shared(match: Match, view: dict) -> list[dict]:
    """The zones nobody owns, but the box (where cards not in play wait)."""
    box = match.game.zones[0].name
    return [_zone(match, z.name, z.zdef, view["zones"][z.name])
            for z in match.all_zones() if z.owner is None and z.name != box]


def log_lines(match: Match, seat, since: int = 0) -> list[dict]:
    """The seat's log told as the terminal tells it (decisions, turns,
    narrated events; seats passing on one response window in one line):
    ``{"text", "kind", "player"}`` each, ``kind`` the event's kind and
    ``player`` the seat it is about, where there is one."""
    return [line for _, _, line in _told(match, seat, since)]


def _told(match: Match, seat, since: int) -> list[tuple[int, bool, dict]]:
    """The told lines of the events from ``since`` on, each with the index
    of the event it begins at and whether it is settled: a decision whose
    cards the seat did not see may name them later, once they are shown."""
    events = match.events(seat, since)
    for k, ev in enumerate(events, since):
        ev["at"] = k
    game = match.game
    who = _who(seat)

    def narrate(ev: dict) -> str:
        return game.narration[ev["name"]].say(ev.get("fields", {}), who)

    out = []
    for ev, text in told_events(game, events, who, narrate):
        line: dict[str, Any] = {"text": text, "kind": ev["event"]}
        player = ev.get("player", (ev.get("fields") or {}).get("player"))
        if type(player) is int:
            line["player"] = player
        out.append((ev["at"], None not in ev.get("ids", ()), line))
    return out


class ToldLog:
    """One seat's told log (:func:`log_lines`), kept up to date by telling
    again only from the first line that may have changed, so that a state
    after an action costs about the lines of that action, not the whole
    match's.  Two kinds of line change after they are told: the last one
    may grow (a run of seats passing on one window is one line), and a
    decision whose cards the seat did not see names those the next move of
    which puts them face up (:func:`rulekit.engine.view._reveal_played`):
    such a line is open until each of its cards has moved again."""

    def __init__(self, seat: int | str):
        self.seat = seat
        self.lines: list[dict] = []
        self._starts: list[int] = []     # the event each line begins at
        self._open: dict[int, set] = {}  # open line -> the ids of its cards that have not moved since
        self._events = 0                 # the events told so far

    def update(self, match: Match) -> int:
        """Tell what is new; the index of the first line that is new or
        changed (``len(lines)`` when nothing changed)."""
        log = match.log
        if len(log) == self._events:
            return len(self.lines)
        moved = {c.id for ev in log[self._events:] if ev[0] == "move" for c in ev[2]}
        settled = [i for i, waiting in self._open.items() if waiting & moved]
        keep = min(settled + [max(0, len(self.lines) - 1)])
        since = self._starts[keep] if self.lines else 0
        told = _told(match, self.seat, since)
        first = keep
        while first - keep < len(told) and first < len(self.lines) and told[first - keep][2] == self.lines[first]:
            first += 1
        del self.lines[keep:], self._starts[keep:]
        self._open = {i: waiting - moved for i, waiting in self._open.items() if i < keep and not waiting & moved}
        for at, settled_line, line in told:
            if not settled_line:         # the cards chosen at that decision, still to move
                waiting = {c for c in log[at][2].cards}
                for ev in log[at + 1:]:
                    if ev[0] == "move":
                        waiting -= {c.id for c in ev[2]}
                if waiting:
                    self._open[len(self.lines)] = waiting
            self._starts.append(at)
            self.lines.append(line)
        self._events = len(log)
        return first


def end_screen(match: Match, seat) -> dict | None:
    """Once the match is over: its result in words, and every player's
    hidden variables, now shown to all; None before."""
    result = match.result()
    if result is None:
        return None
    who = _who(seat)
    secrets = list(match.game.var_visibility)
    return {"outcome": result["outcome"], "reason": result["reason"], "turns": match.turn,
            "winners": result["winners"], "winners_text": ", ".join(who(p) for p in result["winners"]) or "nobody",
            "you_won": isinstance(seat, int) and seat in result["winners"],
            "secrets": [{"seat": p, "values": {k: match.pvars[p].get(k) for k in secrets}}
                        for p in range(match.n)] if secrets else [],
            "stats": result.get("stats") or {}, "player_stats": result.get("player_stats") or {}}
