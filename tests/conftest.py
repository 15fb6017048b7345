"""Shared fixtures for the Regicide rule tests, the match API tests and the
property tests.

- ``regicide``: the loaded ``games/regicide.yaml`` (loaded once per session).
- ``deal``: a stacked deck — a match of Regicide starting at step 1 of a
  chosen player's turn, with exactly the named cards in each zone.
- ``act``: answer the pending decision by option and card names, failing
  with the list of legal actions when that answer is not legal.
- ``offered``: is an answer (option and card names) legal right now?
- ``pile``: the card names of a zone, top first (the order ``deal`` takes).
"""
from __future__ import annotations

import gc
import os
import sys
from collections import Counter
from pathlib import Path

import pytest
from game_files import load

import rulekit
from rulekit.testing import prepare

# The suite starts many Python processes: a worker per core and one more,
# the command line in subprocesses, Ray's workers, Python under valgrind.
# Where the environment forbids bytecode caches (PYTHONDONTWRITEBYTECODE, as
# container images often set), each of them compiles rulekit anew and each
# worker has pytest rewrite the asserts of every test module anew: a worker
# then took 12 s to collect the tests instead of 5.  The caches go to the
# checkout's __pycache__ folders, which git ignores.  (Set at the import of this
# file, before pytest starts its workers or imports a test module.)
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# A worker holds every game its tests loaded (hundreds of thousands of objects
# that live until it ends) and plays thousands of matches.  At Python's default
# thresholds (700, 10, 10) the cycle collector walks the young objects every 700
# allocations and all of them every hundred passes or so: in the conformance
# tests 14 s of 64 went to it, 11 s of those to the full passes.  Letting the
# young generation grow to 20,000 objects (and each older one wait 20 passes of
# the one below) leaves the same garbage to collect, less often: the conformance
# tests took 57–65 s instead of 71–79 s (three runs each, one worker).  The same
# reasoning as rulekit.settled, which simulations play in.
gc.set_threshold(20_000, 20, 20)

ROOT = Path(__file__).resolve().parents[1]
REGICIDE = ROOT / "games" / "regicide.yaml"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Spread the tests over the cores by work stealing (``-n auto``): a
    worker that runs out takes tests queued for the other, so a few long
    property runs do not leave one core idle at the end."""
    if getattr(config.option, "dist", "no") == "no" and getattr(config.option, "numprocesses", None):
        config.option.dist = "worksteal"


@pytest.hookimpl(optionalhook=True)        # a hook of pytest-xdist: pytest without it runs too
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` starts one worker more than the cores the process may use.

    Some tests wait rather than compute: on a browser (the web table's
    tests), a Ray cluster starting, valgrind or the command line in a
    subprocess.  With one worker per core such a wait leaves its core idle
    (on two cores the suite kept them busy 86 % of the time); a third worker
    fills it.  ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still sets the number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None                 # xdist's own hook reads it
    from xdist.plugin import pytest_xdist_auto_num_workers as cores  # xdist's count of the cores
    return cores(config) + 1


@pytest.fixture(scope="session")
def regicide() -> rulekit.Game:
    return load(REGICIDE)


def _label(zone: str, player: int | None) -> tuple[str, int | None]:
    if player is None and zone.endswith(")") and "(" in zone:
        name, who = zone[:-1].split("(", 1)
        return name, int(who)
    return zone, player


def pile_of(m: rulekit.Match, zone: str, player: int | None = None) -> list[str]:
    """Card names in ``zone`` (``"tavern"``, ``"hand(1)"`` or ``"hand", 1``), top first."""
    name, who = _label(zone, player)
    return [c.name for c in reversed(m.zone(name, who).cards)]


def legal_descriptions(m: rulekit.Match) -> list[str]:
    return [m.describe_action(a) for a in m.legal_actions()]


def find_action(m: rulekit.Match, option: str, cards=(), player: int | None = None):
    want = Counter(cards)
    for a in m.legal_actions():
        if a.option != option or (player is not None and a.player != player):
            continue
        if Counter(m.card(i).name for i in a.cards) == want:
            return a
    return None


def act_on(m: rulekit.Match, option: str, *cards: str, player: int | None = None):
    """Apply the legal action ``option`` with exactly the cards named ``cards``."""
    dec = m.decision
    a = find_action(m, option, cards, player)
    if a is None:
        where = "the match is over: " + repr(m.result()) if dec is None else (
            f"player {dec.player} must answer {dec.choice!r} in phase {m.phase!r}")
        pytest.fail(f"no legal action {option!r} cards={list(cards)} player={player}; {where}; "
                    f"legal actions: {legal_descriptions(m)}")
    m.apply(a)
    return a


@pytest.fixture
def act():
    return act_on


@pytest.fixture
def offered():
    def _offered(m: rulekit.Match, option: str, *cards: str, player: int | None = None) -> bool:
        return find_action(m, option, cards, player) is not None
    return _offered


@pytest.fixture
def pile():
    return pile_of


@pytest.fixture
def deal(regicide):
    """``deal(players, enemy="J♥", hands=[[...], ...], tavern=[...], ...)``.

    Every zone is named top first; zones not given are empty (their cards
    stay in ``box``).  ``vars`` sets variables (``damage``, ``shield``,
    ``defeated``...) and ``player_vars`` per-seat ones ({seat: {name: value}});
    play starts at step 1 of ``current``'s turn.
    """
    def _deal(players: int = 2, *, enemy: str | None = None, hands=(), castle=(), tavern=(),
              discard=(), table=(), powers=(), used=(), vars=None, player_vars=None,
              current: int = 0,
              phase: str | None = None, seed: int = 0, step_budget: int | None = None):
        zones: dict[str, list[str]] = {}
        if enemy is not None:
            zones["enemy"] = [enemy]
        for label, cards in (("castle", castle), ("tavern", tavern), ("discard", discard),
                             ("table", table), ("powers", powers), ("used", used)):
            if cards:
                zones[label] = list(cards)
        for p, hand in enumerate(hands):
            if hand:
                zones[f"hand({p})"] = list(hand)
        extra = {} if step_budget is None else {"step_budget": step_budget}
        return prepare(regicide, players, zones=zones, vars=vars or {},
                       player_vars=player_vars or {}, current=current, phase=phase, seed=seed,
                       **extra)
    return _deal
