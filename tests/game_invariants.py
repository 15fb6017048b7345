"""What a game's own rulebook adds to the conformance suite's checks.

The conformance suite (``tests/test_conformance.py``) plays random games of
every game shipped and checks what every rule file must satisfy; a game
listed here is also checked, on the same games, against its rulebook:

- ``start(m, players)``: the match as dealt;
- ``step(m, players)``: after every action (and before the first);
- ``end(m, players, result)``: the match over.

A game not listed gets the generic checks only.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from rulekit import Match


class Rulebook(NamedTuple):
    start: Callable[[Match, int], None]
    step: Callable[[Match, int], None]
    end: Callable[[Match, int, dict], None]


# ---- Regicide ------------------------------------------------------------------------------

HAND_SIZE = {1: 8, 2: 7, 3: 6, 4: 5}
TAVERN_JESTERS = {1: 0, 2: 0, 3: 1, 4: 2}
HEALTH = {"J": 20, "Q": 30, "K": 40}


def regicide_start(m: Match, players: int) -> None:
    """Jesters in play: both solo powers, or the tavern's for the player count."""
    jesters = sum(1 for c in m.cards if c.name == "Jester" and m.loc[c.id] is not m.zone("box"))
    assert jesters == (2 if players == 1 else TAVERN_JESTERS[players])


def regicide_step(m: Match, players: int) -> None:
    """No hand over its maximum size, 12 royals between castle, current enemy
    and defeated, the current enemy alive, decisions the current player's,
    legal actions distinct.  (Every card in one zone: the suite checks that
    for every game.)"""
    if m.decision is None:
        assert m.is_over()
        return
    dec = m.decision
    assert dec.player == m.current
    assert dec.options, "a decision with no legal action"
    assert len(set(dec.options)) == len(dec.options), "duplicate legal actions"
    limit = HAND_SIZE[players]
    for p in range(players):
        assert len(m.zone("hand", p).cards) <= limit
    enemy = m.zone("enemy").cards
    assert len(enemy) == 1
    assert len(m.zone("castle").cards) + 1 + m.vars["defeated"] == 12
    assert 0 <= m.vars["damage"] < HEALTH[enemy[0].props["rank"]]
    assert m.vars["shield"] >= 0
    if players == 1:
        assert len(m.zone("powers").cards) + len(m.zone("used").cards) == 2


def regicide_end(m: Match, players: int, result: dict) -> None:
    """The stats agree with the table; a win is all 12 royals defeated, by
    everyone; solo, the medal counts the jesters used."""
    assert result["outcome"] in ("win", "loss")
    assert result["stats"]["enemies_defeated"] == m.vars["defeated"]
    if result["outcome"] == "win":
        assert m.vars["defeated"] == 12 and result["winners"] == list(range(players))
    else:
        assert result["winners"] == []
    if players == 1:
        medal = {0: "gold", 1: "silver", 2: "bronze"}[len(m.zone("used").cards)]
        assert result["stats"]["medal"] == (medal if result["outcome"] == "win" else "none")


# ---- 三国杀 ---------------------------------------------------------------------------------


def sanguosha_end(m: Match, players: int, result: dict) -> None:
    """Every game ends with a side that won: the lord's, the rebels' or the renegade's."""
    assert result["winners"], result
    assert m.vars["winner"] in ("主公", "反贼", "内奸")


def _nothing(m: Match, players: int, result: dict | None = None) -> None:
    pass


#: the checks of a game not listed
GENERIC = Rulebook(_nothing, _nothing, _nothing)
RULEBOOKS = {
    "regicide": Rulebook(regicide_start, regicide_step, regicide_end),
    "sanguosha": Rulebook(_nothing, _nothing, sanguosha_end),
}
