"""Copies of a match at the cost of its state, not of its history.

A match waits for a decision inside a stack of Python generators (the
compiled effects), and a suspended generator cannot be copied.  Between
turns, though, nothing is suspended: the whole match is its data.  So a
match that is asked to copy itself (``Match.clone``, search, learning
environments) records a checkpoint of that data as each phase begins (a
phase's effect text starts with nothing suspended either), and a copy is
made from the last checkpoint: the data is copied, the turn is resumed at
that phase, and only the decisions since are played again to rebuild the
suspended stack.  A copy therefore costs the state plus part of a turn,
whatever the length of the match; the match's own speed is unchanged until
it is first copied (recording is off until then).  Any earlier checkpoint
would do as well, only slower: a copy keeps the one it was made from.

What the checkpoint holds is every field of the match that the rules change:
the cards of every zone, the variables of the match, the players and the
cards, the answers kept for effect text, the random generator's state, whose
turn and which phase, the step count, and how long the log and the list of
actions were.  The log's entries and the actions are never changed once
written, so a copy shares them up to the checkpoint and appends its own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..model import Card
from .runtime import Action, LogEntry, Zone

if TYPE_CHECKING:  # pragma: no cover
    from .match import Match


class Checkpoint(NamedTuple):
    """A match's data as a phase began (see the module's docstring)."""

    zones: tuple[list[Card], ...]     # the cards of every live zone, in all_zones() order
    limits: tuple[int, ...]           # each zone's card limit, once worked out
    vars: dict[str, Any]
    pvars: tuple[dict[str, Any], ...]
    cvars: dict[str, list[Any]]
    chosen: dict[str, Any]
    dirty: dict[str, bool]
    rng: tuple[Any, ...]
    players: list[int]
    out: list[bool]
    current: int
    next_player: int | None
    phase: str | None
    turn: int
    steps: int
    first_phase: int                  # the flow's first phase: -1 - i resumes the turn at phase i
    log_len: int
    actions_len: int


class Redeals(NamedTuple):
    """What a copy drawn by ``Match.resample`` was dealt, so that a copy of
    it is that sample too.  Its seed and actions make the match it was drawn
    from: a copy of it starts from ``base`` (the checkpoint its turn began
    from; None: from the start), plays its decisions again up to each deal
    and puts that deal's data in (each a :class:`Checkpoint` taken just
    after it), then plays the decisions since the last.  Once the sample
    records a checkpoint of its own, its copies start from that instead."""

    base: Checkpoint | None
    deals: tuple[Checkpoint, ...]


def fresh_value(v: object) -> object:
    """A value a match may own: a list is copied, so matches (and a match and
    its checkpoint) never share one."""
    return list(v) if type(v) is list else v


def fresh_vars(values: dict[str, Any]) -> dict[str, Any]:
    """A variables dict of the match's own: list values copied too (effect
    text makes a new list when it changes one, but a checkpoint restored
    twice, or starting values used by every match, must not be shared)."""
    for v in values.values():
        if type(v) is list:
            return {k: fresh_value(v) for k, v in values.items()}
    return values.copy()


def take(m: "Match", first_phase: int) -> Checkpoint:
    zones = tuple(m.all_zones())
    return Checkpoint(
        zones=tuple(list(z.cards) for z in zones), limits=tuple(z.lim for z in zones),
        vars=fresh_vars(m.vars), pvars=tuple(fresh_vars(pv) for pv in m.pvars),
        cvars={k: [fresh_value(x) for x in v] for k, v in m.cvars.items()},
        chosen=dict(m.chosen), dirty=dict(m.dirty), rng=m.rng.getstate(),
        players=list(m.players), out=list(m.out), current=m.current, next_player=m.next_player,
        phase=m.phase, turn=m.turn, steps=m.steps, first_phase=first_phase,
        log_len=len(m.log), actions_len=len(m.actions))


def restore(m: "Match", ck: Checkpoint, log: list[LogEntry], actions: list[Action]) -> None:
    """Put ``ck`` into ``m``, a new match of the same game, players, seed and
    options whose own flow has not started: its zones, variables and the rest
    become the checkpoint's (copied, so the checkpoint can be used again), its
    log and actions the first entries of ``log`` and ``actions``."""
    box = m.gz[0]
    assert box is not None, "zone 0 is the box, a shared zone"
    loc: list[Zone] = [box] * len(m.cards)       # every card is in one of the zones (set below)
    m.loc = loc
    for zone, cards, lim in zip(m.all_zones(), ck.zones, ck.limits):
        zone.cards = list(cards)
        zone.lim = lim
        for c in cards:
            loc[c.id] = zone
    m.vars = fresh_vars(ck.vars)
    m.pvars = [fresh_vars(pv) for pv in ck.pvars]
    m.cvars = {k: [fresh_value(x) for x in v] for k, v in ck.cvars.items()}
    m.kept = {}                     # (answers of the variables replaced: see rulekit.lang.pass_kept)
    m.chosen = dict(ck.chosen)
    m.dirty = dict(ck.dirty)
    m.rng.setstate(ck.rng)
    m.players = list(ck.players)
    m.out = list(ck.out)
    m._pos = None
    m._dist = {}
    m._seats_from = {}
    m.current, m.next_player, m.phase = ck.current, ck.next_player, ck.phase
    m.turn, m.steps = ck.turn, ck.steps
    m.log = log[:ck.log_len]
    m.actions = actions[:ck.actions_len]


def put_deal(m: "Match", deal: Checkpoint) -> None:
    """Put ``deal`` (taken just after a resample dealt a copy) into ``m``, a
    match stopped at the same decision of the same turn.  Unlike
    :func:`restore` this changes the match's lists and dicts in place: the
    suspended code of its turn holds them (``V = m.vars`` at a function's
    start), as it held the sample's, which the deal changed in place."""
    loc = m.loc
    for zone, cards in zip(m.all_zones(), deal.zones):
        zone.cards[:] = cards
        for c in cards:
            loc[c.id] = zone
    _refill(m.vars, deal.vars)
    for pv, values in zip(m.pvars, deal.pvars):
        _refill(pv, values)
    for name, by_card in deal.cvars.items():
        m.cvars[name][:] = [fresh_value(x) for x in by_card]
    _refill(m.chosen, deal.chosen)
    _refill(m.dirty, deal.dirty)
    m.kept.clear()                  # (answers of the variables as they were: see rulekit.lang.pass_kept)
    m.rng.setstate(deal.rng)


def _refill(values: dict[str, Any], given: dict[str, Any]) -> None:
    values.clear()
    values.update(fresh_vars(given))
