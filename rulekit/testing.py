"""Helpers for testing rule files (public: game authors use them too).

- :func:`prepare` starts a match from given zone contents — a stacked deck —
  so a test can build any situation of the rulebook directly.
- :func:`check_conservation` asserts that every card is in exactly one zone.
- :func:`play_random` plays a match to the end with uniformly random choices,
  checking conservation after every step if asked.
"""
from __future__ import annotations

import random
from collections import Counter

from .engine.match import DEFAULT_STEP_BUDGET, Match
from .model import Game


def prepare(game: Game, players: int, *, zones: dict[str, list[str]] | None = None,
            vars: dict | None = None, player_vars: dict | None = None, current: int = 0,
            phase: str | None = None, seed: int = 0, step_budget: int = DEFAULT_STEP_BUDGET,
            options: dict | None = None, out: list[int] | None = None,
            auto_pass: bool = False, card_vars: dict[str, list[dict]] | None = None) -> Match:
    """A match whose zones hold exactly the named cards (top first), skipping setup.

    ``zones`` maps zone labels (``"deck"``, ``"hand(0)"``) to card names,
    top card first; cards not named stay in ``box``.  ``vars`` and
    ``player_vars`` override starting values; play starts at ``phase`` (the
    first phase by default) of ``current``'s turn.  ``options`` are the
    match options; ``out`` lists seats already eliminated; ``auto_pass``
    answers pass-only response windows without asking (see ``Match``);
    ``card_vars`` gives the state of a zone's cards, in the order ``zones``
    lists them (``{"row(0)": [{"health": 2}]}``).
    """
    prepared = {"zones": zones or {}, "vars": vars or {},
                "player_vars": {str(k): v for k, v in (player_vars or {}).items()},
                "current": current, "phase": phase, "out": list(out or [])}
    if card_vars:
        prepared["card_vars"] = card_vars
    return Match(game, players, seed, step_budget=step_budget, prepared=prepared, options=options,
                 auto_pass=auto_pass)


def check_conservation(m: Match) -> None:
    """Every card is in exactly one zone, and the card → zone index agrees.

    One pass writes, for each card seen, the zone it was seen in: with as
    many sightings as the game has cards, that list equals the match's own
    card → zone index exactly when no card is lost, none is seen twice (a
    second sighting leaves another card unseen) and the index is right.
    (Cheap enough to run after every action of thousands of games.)
    And every card is in a zone that may hold it (a zone declared
    ``one_of: SET`` holds only cards SET names): the engine refuses any
    other move, so this catches a copy or a sample dealt wrongly."""
    seen: list = [None] * len(m.cards)
    total = 0
    pz = m.pz
    for i, z in enumerate(m.gz):
        for zone in (z,) if z is not None else pz[i] or ():
            cards = zone.cards
            if not cards:
                continue
            total += len(cards)
            allow = zone.allow
            if allow is None:
                for c in cards:
                    seen[c.id] = zone
                continue
            for c in cards:         # (tested in the same pass: most zones of a large game declare theirs)
                cid = c.id
                seen[cid] = zone
                if cid not in allow:
                    wrong = [c.name for c in cards if c.id not in allow]
                    raise AssertionError(f"{zone.name} holds {wrong}, not cards of names entry "
                                         f"'{zone.zdef.one_of}'")
    if total != len(m.cards) or seen != m.loc:
        _conservation_failure(m)


def _conservation_failure(m: Match) -> None:
    """Say exactly what went wrong (the slow way, only on failure)."""
    seen: Counter = Counter()
    for z in m.all_zones():
        for c in z.cards:
            seen[c.id] += 1
            assert m.loc[c.id] is z, f"{c.name} is in {z.name} but indexed in {m.loc[c.id].name}"
    missing = [c.name for c in m.cards if seen[c.id] == 0]
    doubled = [m.cards[i].name for i, n in seen.items() if n > 1]
    assert not missing and not doubled, f"lost: {missing}, duplicated: {doubled}"


def play_random(m: Match, seed: int = 0, check: bool = False) -> dict | None:
    """Play ``m`` to the end choosing uniformly at random; return the result.

    With ``check``, :func:`check_conservation` runs at the start and after
    every action that moved or shuffled a card: a zone changes only by a
    move or a shuffle, and the engine logs each (the conformance suite
    tests that premise), so after any other action the zones are as the
    last check found them."""
    rng = random.Random(seed)
    if check:
        check_conservation(m)
    while m.decision is not None:
        options = m.decision.options
        at = len(m.log)
        m.apply(options[rng.randrange(len(options))])
        if check and moved_since(m, at):
            check_conservation(m)
    return m.result()


def moved_since(m: Match, at: int) -> bool:
    """Whether the log from entry ``at`` on moved or shuffled a card: the
    only ways a zone changes, each logged, so the zones are as they were
    at ``at`` when not."""
    return any(ev[0] == "move" or ev[0] == "shuffle" for ev in m.log[at:])


def smoke(game: Game, games: int, players: list[int] | None = None,
          step_budget: int = DEFAULT_STEP_BUDGET, options: dict | None = None) -> list[str]:
    """Play ``games`` uniformly random matches for each player count (with
    the match ``options``, the defaults when not given) and return what went
    wrong (empty when all is well).

    Loading catches what can be seen in the text; this catches what only
    shows in play: a choice left with no legal option, a rule that never
    ends (the step budget), a card lost or duplicated, a replay that differs.
    Each problem names the player count and seed that reproduce it.
    """
    from .errors import RuleRuntimeError, StepBudgetExceeded

    problems = []
    for n in players or range(game.min_players, game.max_players + 1):
        for seed in range(games):
            m = None
            try:
                m = Match(game, n, seed, step_budget=step_budget, options=options)
                play_random(m, seed=seed, check=True)
                if Match.restore(game, m.save()).log_json() != m.log_json():
                    problems.append(f"players={n} seed={seed}: replaying the actions gave another log")
            except (RuleRuntimeError, StepBudgetExceeded) as err:
                problems.append(f"players={n} seed={seed}: {err}")
            except AssertionError as err:
                problems.append(f"players={n} seed={seed}: cards not conserved: {err}")
            if len(problems) >= 10:
                return problems
    return problems
