"""What one player may see: zones, variables, the decision and the log.

Secrets must not leak through history (boardgame.io #399): the event log in a
view is redacted with the same visibility rules as the zones.  A card is
shown to a viewer when it is (or was, for a log event) in a zone that viewer
may see: ``public`` zones to everyone, ``owner`` zones to their owner,
``top`` zones only their top card, ``hidden`` zones to nobody.
"""
from __future__ import annotations

import operator
import reprlib
from typing import TYPE_CHECKING, Any, Final, Iterable, Literal, SupportsIndex

from ..errors import RuleRuntimeError
from ..limits import MAX_NESTING, MAX_SHOWN_VALUES, TooLarge, written_size
from ..model import Card, ZoneDef
from .runtime import LogEntry, Zone

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match

#: the viewer of the all-seeing view (``match.view(rulekit.ALL_SEEING)``):
#: every card, every variable, the seed and every decision's options, for
#: tools, tests and replays; never for a player
ALL: Final = "all"
#: who looks: a seat, None for a spectator, or ALL
Viewer = int | Literal["all"] | None


def checked(m: "Match", viewer: object, since: object) -> tuple[Viewer, int]:
    """``viewer`` and ``since`` as a view reads them, or an error that says
    what is accepted.  A view compares the viewer with zone owners, so a
    value that merely equals a seat (``True``, ``1.0``) would be shown that
    seat's cards, and a seat that does not exist would get a spectator's
    view under its own name; a negative ``since`` would count from the end
    of the log.  Integer types other than ``int`` (numpy's) are taken as
    the seat they stand for."""
    seat: Viewer
    if type(viewer) is int and type(since) is int and 0 <= viewer < m.n and since >= 0:
        return viewer, since            # (the usual call, asked at every step by servers)
    if viewer is None or (type(viewer) is str and viewer == ALL):
        seat = ALL if viewer is not None else None
    else:
        if type(viewer) is bool or not isinstance(viewer, SupportsIndex):
            raise TypeError(f"a viewer is a seat number, None (a spectator) or rulekit.ALL_SEEING, "
                            f"not {reprlib.repr(viewer)}")
        seat = operator.index(viewer)
        if not 0 <= seat < m.n:
            raise ValueError(f"there is no seat {seat}: the seats are 0 to {m.n - 1}")
    if type(since) is bool or not isinstance(since, SupportsIndex):
        raise TypeError(f"since is a number of log entries (those already seen), not {reprlib.repr(since)}")
    since = operator.index(since)
    if since < 0:
        raise ValueError(f"since is a number of log entries (those already seen): 0 or more, not {since}")
    return seat, since


def _zone_visible_to(zdef: ZoneDef, owner: int | None, viewer: Viewer) -> bool:
    if viewer == ALL:
        return True
    vis = zdef.visibility
    return vis == "public" or (vis == "owner" and owner is not None and owner == viewer)


def zones_view(m: "Match", viewer: Viewer) -> dict[str, dict[str, Any]]:
    """What ``viewer`` sees of every zone, by name: its count, and its cards
    (top first, or by the zone's ``order_by`` variable) where it may see
    them, or its top card.  (A view is asked for at every step by servers
    and tests, and a large match has over a hundred zones: the visibility
    test is written out here, not called.)"""
    out: dict[str, dict[str, Any]] = {}
    every = viewer == ALL
    states = m.cvars                           # each card's own state, with the card
    pz = m.pz
    for i, z in enumerate(m.gz):               # (m.all_zones(), without a generator's resumptions)
        for zone in (z,) if z is not None else pz[i] or ():
            zc = zone.cards
            zdef = zone.zdef
            vis = zdef.visibility
            if vis == "public" or every or (vis == "owner" and viewer == zone.owner and viewer is not None):
                shown: dict[str, Any]
                if not zc:                         # (most zones of a large game, most of the time)
                    shown = {"count": 0, "cards": [], "ids": []}
                    if states:
                        shown["state"] = []
                    out[zone.name] = shown
                    continue
                key = zdef.order_by
                cards = zc[::-1] if key is None else _ordered(zc, states[key])    # top first, or as declared
                shown = {"count": len(zc), "cards": list(map(_NAME, cards)),
                         "ids": list(map(_ID, cards))}   # two cards of one name: told apart by id
                if states:
                    shown["state"] = [{k: v[c.id] for k, v in states.items()} for c in cards]
                out[zone.name] = shown
            elif vis == "top" and zc:
                out[zone.name] = {"count": len(zc), "top": zc[-1].name, "top_id": zc[-1].id}
            else:
                out[zone.name] = {"count": len(zc)}
    return out


_NAME = operator.attrgetter("name")
_ID = operator.attrgetter("id")


def _ordered(cards: list[Card], values: list[Any]) -> list[Card]:
    """``cards`` by their values of a card variable, lowest first (numbers
    before text, other values last; cards of one value top first)."""
    def key(c: Card) -> tuple[int, Any]:
        v = values[c.id]
        return (0, v) if type(v) in (int, float, bool) else (1, v) if type(v) is str else (2, 0)
    return sorted(cards[::-1], key=key)


def _sources(src: Zone | list[Zone], n: int) -> list[Zone]:
    return src if isinstance(src, list) else [src] * n


def _field_value(v: object, shown: dict[int, bool], viewer: Viewer) -> object:
    """An event's field as a viewer reads it: a card by name where the viewer
    could see it at that moment (else None), a zone by name, a list item by
    item, a number or text as it is."""
    if type(v) is Card:
        return v.name if viewer == ALL or shown.get(v.id) else None
    if type(v) is list or type(v) is tuple:
        return [_field_value(x, shown, viewer) for x in v]
    if type(v) is Zone:
        return v.name
    if v is None or type(v) in (int, str, bool, float):
        return v
    if isinstance(v, dict):
        return {str(k): _field_value(x, shown, viewer) for k, x in v.items()}
    return str(v)


def _shown(values: Iterable[Any], left: int) -> int:
    """``left`` less what ``values`` write out (see rulekit.limits.written_size);
    past MAX_SHOWN_VALUES in all, or a value nested deeper than a rule can
    build one (which JSON could not write), the match cannot be shown."""
    try:
        return written_size(values, left, MAX_NESTING)
    except TooLarge:
        raise RuleRuntimeError(
            f"the match holds more than {MAX_SHOWN_VALUES:,} values to show (MAX_SHOWN_VALUES), or one "
            f"nested more than {MAX_NESTING} deep (MAX_NESTING), counting its variables, card states and "
            "the fields of its log's events, the values inside lists and a text's characters: a rule "
            "stores a long list on many cards or players, or emits one at every step") from None


def _seat_words(p: int) -> str:
    return f"player {p}"


def _visible_now(m: "Match", viewer: Viewer, upto: int) -> dict[int, bool]:
    """Card id -> whether ``viewer`` sees where its last move (before log
    entry ``upto``) put it."""
    shown: dict[int, bool] = {}
    for ev in m.log[:upto]:
        if ev[0] == "move":
            vis = _zone_visible_to(ev[1].zdef, ev[1].owner, viewer)
            for c in ev[2]:
                shown[c.id] = vis
    return shown


def event_dicts(m: "Match", viewer: Viewer = ALL, since: int = 0, narrated: bool = True) -> list[dict[str, Any]]:
    """The log as dicts for ``viewer``, from entry ``since`` on (one dict per
    entry, so a client that has seen ``k`` events asks for ``since=k``);
    ``narrated``: with the rule file's words for each event it narrates."""
    out: list[dict[str, Any]] = []
    entries: list[LogEntry] = m.log[since:]
    if not entries:
        return out
    # where each card is as far as the viewer saw, for events' card fields:
    # worked out only when an event has fields (a view is asked for often)
    every = viewer == ALL
    shown: dict[int, bool] | None = {} if every else None
    fields: list[Any] = []                 # (counted before anything is written out)
    for ev in entries:
        if ev[0] == "event" and ev[2]:
            fields.extend(ev[2].values())
    _shown(fields, MAX_SHOWN_VALUES)
    for i, ev in enumerate(entries, since):
        kind = ev[0]
        if kind == "move":
            _, dest, moved, src = ev
            srcs = _sources(src, len(moved))
            if every:                         # (the whole log, as log_json writes it: every card shown)
                out.append({"event": "move", "to": dest.name, "from": [z.name for z in srcs],
                            "cards": list(map(_NAME, moved)), "ids": list(map(_ID, moved))})
                continue
            dest_vis = _zone_visible_to(dest.zdef, dest.owner, viewer)
            if shown is not None:
                for c in moved:
                    shown[c.id] = dest_vis
            seen = [dest_vis or _zone_visible_to(z.zdef, z.owner, viewer) for z in srcs]
            out.append({"event": "move", "to": dest.name, "from": [z.name for z in srcs],
                        "cards": [c.name if v else None for c, v in zip(moved, seen)],
                        "ids": [c.id if v else None for c, v in zip(moved, seen)]})
        elif kind == "decide":
            _, dec, action, srcs = ev
            player = dec.player
            d: dict[str, Any] = {"event": "decide", "player": player, "choice": dec.choice,
                                 "option": action.option}
            if action.cards:
                ids = [cid if viewer == player or _zone_visible_to(z.zdef, z.owner, viewer) else None
                       for cid, z in zip(action.cards, srcs)]
                if None in ids:
                    _reveal_played(m, i, action.cards, ids, viewer)
                d["cards"] = [None if cid is None else m.cards[cid].name for cid in ids]
                d["ids"] = ids
            if action.player is not None:
                d["target"] = action.player
            if action.number is not None:
                d["number"] = action.number
            out.append(d)
        elif kind == "start":
            # The seed is withheld from players: with the public rule file it
            # would let them replay the setup and learn every hidden card.
            start = {"event": "start", "game": ev[1], "players": ev[2]}
            if viewer == ALL:
                start["seed"] = ev[3]
            out.append(start)
        elif kind == "turn":
            out.append({"event": "turn", "player": ev[1]})
        elif kind == "shuffle":
            out.append({"event": "shuffle", "zone": ev[1]})
        elif kind == "end":
            out.append({"event": "end", "outcome": ev[1], "reason": ev[2]})
        elif kind == "note":
            out.append({"event": "note", "text": ev[1]})
        elif kind == "event":
            d = {"event": "emit", "name": ev[1]}
            if ev[2]:
                if shown is None:
                    shown = _visible_now(m, viewer, i)
                d["fields"] = {k: _field_value(v, shown, viewer) for k, v in ev[2].items() if k != "name"}
            told = m.game.narration.get(ev[1]) if narrated else None
            if told is not None:       # the rule file's words, seats said as "player N"
                d["text"] = told.say(d.get("fields", {}), _seat_words)
            out.append(d)
        elif kind == "eliminate":
            out.append({"event": "eliminate", "player": ev[1]})
        else:  # pragma: no cover - future event kinds are shown as they are
            out.append({"event": kind, "data": [str(x) for x in ev[1:]]})
    return out


def player_vars_view(m: "Match", owner: int, viewer: Viewer) -> dict[str, Any]:
    """Player ``owner``'s variables as ``viewer`` sees them: a variable
    declared ``visibility: owner`` (or ``hidden``) is left out for others
    until its ``shown_when`` holds (e.g. a secret role, once revealed)."""
    values = m.pvars[owner]
    hide = m.game.var_visibility
    if not hide or viewer == ALL:
        return dict(values)
    out = dict(values)                  # (then the few hidden ones taken out: a copy costs less than a loop)
    for k, (visibility, shown_when) in hide.items():
        if k in out and not ((visibility == "owner" and viewer == owner)
                             or (shown_when is not None and shown_when(m, owner))):
            del out[k]
    return out


def display_view(m: "Match", viewer: Viewer) -> list[dict[str, Any]]:
    """The rule file's ``display:`` values about each player, for ``viewer``
    (``None`` for a spectator or the all-seeing view)."""
    shown = m.game.display
    if not shown:
        return []
    who = viewer if isinstance(viewer, int) else None
    return [{name: fn(m, who, p) for name, fn in shown.items()} for p in range(m.n)]


def _reveal_played(m: "Match", at: int, chosen: tuple[int, ...], shown: list[int | None], viewer: Viewer) -> None:
    """A card chosen from a hidden zone (a hand) that the effects then put
    face up (played, used) is shown in the decision too: its id goes into
    ``shown`` when the card's next move after the decision lands in a zone
    ``viewer`` sees.  (Cards that stay hidden, e.g. passed from hand to
    hand, stay hidden.)"""
    wanted = {cid: k for k, cid in enumerate(chosen) if shown[k] is None}
    for ev in m.log[at + 1:]:
        if ev[0] != "move":
            continue
        visible = _zone_visible_to(ev[1].zdef, ev[1].owner, viewer)
        for c in ev[2]:
            k = wanted.pop(c.id, None)
            if k is not None and visible:
                shown[k] = c.id
        if not wanted:
            return


def public_view(m: "Match", viewer: Viewer) -> dict[str, Any]:
    """The rule file's ``public:`` values, as ``viewer`` may see them."""
    shown = m.game.public
    if not shown:
        return {}
    who = viewer if isinstance(viewer, int) else None
    return {name: fn(m, who) for name, fn in shown.items()}


def build_view(m: "Match", viewer: Viewer, since: int = 0, log: bool = True) -> dict[str, Any]:
    zones = zones_view(m, viewer)
    player_vars = [player_vars_view(m, p, viewer) for p in range(m.n)]
    display, public = display_view(m, viewer), public_view(m, viewer)
    # (the values themselves, as a rule built them: so a rule's deepest value is as deep as it may be)
    values = [*m.vars.values(), *public.values()]
    for held in (*player_vars, *display):
        values.extend(held.values())
    if m.cvars:
        for z in zones.values():
            for state in z.get("state", ()):
                values.extend(state.values())
    _shown(values, MAX_SHOWN_VALUES)
    dec = m.decision
    decision = None
    if dec is not None:
        decision = {"player": dec.player, "choice": dec.choice, "prompt": dec.prompt}
        if viewer == dec.player or viewer == ALL:
            decision["options"] = [m.describe_action(a) for a in dec.options]
    return {
        "game": m.game.name,
        "viewer": viewer,
        "turn": m.turn,
        "current": m.current,
        "phase": m.phase,
        "zones": zones,
        "vars": dict(m.vars),
        "player_vars": player_vars,
        "out": [p for p in range(m.n) if m.out[p]],
        "display": display,
        "public": public,
        "decision": decision,
        "result": m.result(),
        "log": event_dicts(m, viewer, since) if log else [],
        "log_size": len(m.log),
    }
