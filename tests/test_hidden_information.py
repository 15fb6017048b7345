"""A player learns nothing it must not see: properties over random games of
every rule file.

- **Response windows** (choices declared ``skip_if_only``): by default every
  seat a window names is asked, even one whose only answer is to pass, so
  the decisions the others can observe, and their answers in the log, do
  not depend on what the asked seat holds.  Every answer in the log was a
  decision someone was asked.
- **Views**: at every decision, every seat that does not decide (three of
  them, drawn anew each time, in a game of more than four) sees no
  card of a zone it cannot see (of a ``top`` zone, only the top card), and
  of the decision only who decides what; permuting the cards a seat cannot
  see (the others' hands, the draw pile, what lies under a pile's shown top
  card) among the places they are leaves that seat's view exactly as it
  was: nothing in it (the decision, its prompt, the variables, the rule
  file's ``display`` values) is derived from them.
"""
from __future__ import annotations

import random

import pytest
from game_files import ROOT, game_files, game_id, load

import rulekit
from rulekit.engine.match import Match
from rulekit.engine.runtime import Zone

#: every game, the test game of the engine's mechanisms (its windows name a card option too), and
#: one whose pile shows only its top card (no shipped game has such a zone)
FILES = [*game_files(), ROOT / "tests" / "games" / "mechanisms.yaml", ROOT / "tests" / "games" / "top_pile.yaml"]
GAMES_PER_COUNT = 4
#: the seats (not deciding) whose view is checked at each decision: all of them in a game of up to
#: four players, else this many drawn anew at each decision (ten seats' views cost ten times one
#: seat's; over a game's hundreds of decisions each seat is still checked at a great many)
VIEWERS_PER_DECISION = 3


@pytest.fixture(scope="module", params=FILES, ids=game_id)
def game(request) -> rulekit.Game:
    return load(request.param)


def _counts(game: rulekit.Game) -> list[int]:
    return sorted({game.min_players, min(game.min_players + 1, game.max_players), game.max_players})


def _hidden_from(m: Match, viewer: int) -> list[tuple[Zone, int]]:
    """The zones with cards ``viewer`` may not see, each with how many of
    its cards, from the bottom, are out of sight: all of them, or all but
    the top one of a zone that shows its top card."""
    out = []
    for z in m.all_zones():
        vis = z.zdef.visibility
        if vis == "hidden" or (vis == "owner" and z.owner != viewer):
            out.append((z, len(z.cards)))
        elif vis == "top" and len(z.cards) > 1:
            out.append((z, len(z.cards) - 1))
    return out


def _view_after_permuting(m: Match, viewer: int, rng: random.Random) -> dict:
    """``viewer``'s view (without the log, which records the past) with the
    cards hidden from it (a top card shown stays where it is) dealt anew
    among the places they were, each keeping its size; the match is put
    back as it was afterwards."""
    zones = _hidden_from(m, viewer)
    saved = [list(z.cards) for z, _ in zones]
    pool = [c for (_, unseen), cards in zip(zones, saved) for c in cards[:unseen]]
    rng.shuffle(pool)
    k = 0
    for (z, unseen), cards in zip(zones, saved):
        z.cards[:] = pool[k:k + unseen] + cards[unseen:]
        for c in z.cards:
            m.loc[c.id] = z
        k += unseen
    try:
        return m.view(viewer, since=len(m.log))
    finally:
        for (z, _), cards in zip(zones, saved):
            z.cards[:] = cards
            for c in cards:
                m.loc[c.id] = z


def zone_facts(m: Match) -> list[tuple[str, int, str, int | None, int | None]]:
    """Every zone's name, size, visibility, owner and top card's id: what
    :func:`check_zones_hidden` compares each seat's view with (taken once a
    decision, for all the seats)."""
    return [(z.name, len(z.cards), z.zdef.visibility, z.owner, z.cards[-1].id if z.cards else None)
            for z in m.all_zones()]


def check_zones_hidden(facts: list, viewer: int, view: dict) -> None:
    """``view`` (``viewer``'s) holds no card of a zone hidden from it (of a
    ``top`` zone, only the top card), and every zone's true size (``facts``:
    :func:`zone_facts` of the match)."""
    zones = view["zones"]
    for name, count, vis, owner, top in facts:
        shown = zones[name]
        assert shown["count"] == count
        if vis in ("hidden", "top") or (vis == "owner" and owner != viewer):
            assert "cards" not in shown and "ids" not in shown, (name, viewer)
            if vis == "top" and count:
                assert shown["top_id"] == top


#: (game, player count): one test each, so that a long game's counts run on several workers at once
CASES = [pytest.param(path, n, id=f"{game_id(path)}-{n}p") for path in FILES for n in _counts(load(path))]


@pytest.mark.parametrize("path,n", CASES)
def test_every_answer_in_the_log_was_asked_and_views_hide_the_unseen(path, n):
    game = load(path)
    windows = {name for name, c in game.choices.items() if c.window is not None}
    asked_with_only_pass = asked_with_more = 0
    for seed in range(GAMES_PER_COUNT):
        m = game.new_match(n, seed=seed)
        rng, checks = random.Random(seed), random.Random(f"views {seed}")   # the play's, the checks'
        while m.decision is not None:
            dec = m.decision
            if dec.choice in windows:
                only = len(dec.options) == 1 and dec.options[0].option == game.choices[dec.choice].window
                asked_with_only_pass += only
                asked_with_more += not only
            facts = zone_facts(m)
            viewers = [v for v in range(n) if v != dec.player]
            if len(viewers) > VIEWERS_PER_DECISION:
                viewers = checks.sample(viewers, VIEWERS_PER_DECISION)
            for viewer in viewers:
                seen = m.view(viewer, since=len(m.log))
                assert set(seen["decision"]) == {"player", "choice", "prompt"}, seen["decision"]
                check_zones_hidden(facts, viewer, seen)
                if checks.random() < 0.2:   # the permutation is the slow part: a sample of decisions
                    assert _view_after_permuting(m, viewer, checks) == seen, (
                        f"{game.name}, {n} players, seed {seed}: the view of player {viewer} "
                        f"depends on cards it cannot see")
            m.apply(rng.randrange(len(dec.options)))
        decided = sum(1 for ev in m.log if ev[0] == "decide")
        assert decided == len(m.actions), (
            f"{game.name}, {n} players, seed {seed}: {decided - len(m.actions)} answers in the log "
            "were given without asking: the others can tell who had something to answer with")
    if windows:
        # both kinds of window were seen, and neither was skipped
        assert asked_with_only_pass and asked_with_more, (asked_with_only_pass, asked_with_more)


def test_auto_pass_answers_windows_without_asking_and_logs_them_alike(game):
    """A simulation (``auto_pass=True``) is not asked what only has one
    answer, and its log records that answer just as an answer given."""
    windows = {name for name, c in game.choices.items() if c.window is not None}
    if not windows:
        pytest.skip(f"{game.name} has no response windows")
    n = game.max_players
    for seed in range(GAMES_PER_COUNT):
        m = game.new_match(n, seed=seed, auto_pass=True)
        rng = random.Random(seed)
        while m.decision is not None:
            dec = m.decision
            window = game.choices[dec.choice].window
            assert window is None or [o.option for o in dec.options] != [window]
            m.apply(rng.randrange(len(dec.options)))
        decided = [ev for ev in m.log if ev[0] == "decide"]
        assert len(decided) > len(m.actions)
        assert Match.restore(game, m.save()).log_json() == m.log_json()


def test_the_terminal_answers_a_window_the_person_can_only_pass(capsys, monkeypatch):
    """``rulekit play`` asks nobody twice: the match asks the person's seat
    even when it can only pass (so the agents learn nothing), and the
    terminal answers for the person, saying so, without a question."""
    import io
    import sys

    from rulekit.cli import main

    sgs = str(ROOT / "games" / "sanguosha")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    code = main(["play", sgs, "-p", "5", "-s", "4"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("you have nothing to answer with, so you pass") > 0
