"""The conformance suite: what every rule file must satisfy, checked for
every game the project ships (``tests/game_files.py`` finds them, so a new
game gets this suite without writing a test).

For every game and every player count it allows:

- it loads, and ``rulekit validate`` passes;
- ``GAMES`` uniformly random games end (win or loss) with every card in
  exactly one zone after every action (checked after each action that
  moved or shuffled a card; a tenth of the games check every action and
  that an action which logged neither changed no zone);
- the same seed and actions give a byte-identical log, again and from
  ``save()`` / ``restore()``; a match saved in the middle of a game and
  restored (or cloned) plays on to the same log;
- no seat's view of the start shows the seed (what views hide during
  play is the hidden-information suite's, ``tests/test_hidden_information.py``);
- an illegal action is refused with ``IllegalAction`` and changes nothing;
- a tiny step budget stops a match with ``StepBudgetExceeded`` naming a
  rule of the file, and nothing else.

A game's own rulebook adds its checks on the same games
(``tests/game_invariants.py``: Regicide's invariants after every action,
三国杀's winning side), so no other suite needs to play them again.
"""
from __future__ import annotations

import random

import pytest
from game_files import game_files, game_id, load
from game_invariants import GENERIC, RULEBOOKS, Rulebook

from rulekit import Action, IllegalAction, Match, StepBudgetExceeded
from rulekit.cli import main
from rulekit.testing import check_conservation, moved_since

GAMES = 100
FILES = game_files()


def _counts(path) -> list[int]:
    g = load(path)
    return list(range(g.min_players, g.max_players + 1))


CASES = [pytest.param(path, n, id=f"{game_id(path)}-{n}p") for path in FILES for n in _counts(path)]


def play(m: Match, rng: random.Random, rules: Rulebook = GENERIC, every: bool = False) -> list[Action]:
    """Play ``m`` to its end at random, checking after every action that
    every card is in one zone and the game's own invariants hold.

    A zone changes only by a move or a shuffle, each of which the engine
    logs: after an action that logged neither, the zones are as the last
    check found them, so the check is skipped.  With ``every`` it runs
    after every action all the same, and the zones after an action that
    logged no move or shuffle are compared with those before it: the
    premise itself is tested (on a tenth of the games)."""
    rules.start(m, m.n)
    check_conservation(m)
    rules.step(m, m.n)
    while m.decision is not None:
        at = len(m.log)
        before = [z.cards[:] for z in m.all_zones()] if every else None
        m.apply(rng.randrange(len(m.decision.options)))
        moved = moved_since(m, at)
        if moved or every:
            check_conservation(m)
        if before is not None and not moved:
            assert [z.cards for z in m.all_zones()] == before, (
                f"action {len(m.actions)} changed a zone without logging a move or a shuffle")
        rules.step(m, m.n)
    result = m.result()
    assert result["outcome"] in ("win", "loss")
    rules.end(m, m.n, result)
    return list(m.actions)


def test_loads_and_validates(capsys):
    for path in FILES:
        assert main(["validate", str(path)]) == 0, capsys.readouterr()


@pytest.mark.parametrize("path,players", CASES)
def test_random_games_end_conserve_cards_replay_and_hide(path, players):
    game = load(path)
    rules = RULEBOOKS.get(game_id(path), GENERIC)
    for seed in range(GAMES):
        m = game.new_match(players, seed=seed)
        if seed == 0:      # the start event withholds the seed from every seat
            assert all("seed" not in m.view(p)["log"][0] for p in range(players))
        actions = play(m, random.Random(seed), rules=rules, every=seed % 10 == 0)
        if seed % 10 == 0:
            log = m.log_json()
            assert Match.restore(game, m.save()).log_json() == log
            _check_replay_and_mid_game_copies(game, players, seed, actions, log)


def _check_replay_and_mid_game_copies(game, players: int, seed: int, actions: list, log: str) -> None:
    """The same seed and actions give the same log; and a match saved,
    restored and cloned in the middle of the game plays on to that log (the
    replay itself goes on to the end, as one of the copies)."""
    cut = random.Random(seed).randrange(len(actions) + 1)
    again = game.new_match(players, seed=seed)
    for a in actions[:cut]:
        again.apply(a)
    copies = [Match.restore(game, again.save()), again.clone(), again]
    for c in copies:
        for a in actions[cut:]:
            c.apply(a)
        assert c.log_json() == log, f"seed {seed}: the same actions, copied after {cut} of them, gave another log"


@pytest.mark.parametrize("path", FILES, ids=game_id)
def test_illegal_actions_are_refused_and_change_nothing(path):
    game = load(path)
    for seed in range(5):
        m = game.new_match(game.max_players, seed=seed)
        rng = random.Random(seed)
        while m.decision is not None:
            dec = m.decision
            before = (len(m.log), m.log[-1], len(m.actions))
            wrong = [len(dec.options), -1, Action("no such option"),
                     Action(dec.options[0].option, (len(game.cards),)),
                     {"option": dec.options[0].option, "player": m.n}]
            if not dec.options[0].cards:
                wrong.append(Action(dec.options[0].option, (0, 0)))
            for action in wrong:
                with pytest.raises(IllegalAction):
                    m.apply(action)
                assert (len(m.log), m.log[-1], len(m.actions)) == before and m.decision is dec
            m.apply(rng.randrange(len(dec.options)))
        again = game.new_match(game.max_players, seed=seed)
        for a in m.actions:
            again.apply(a)
        assert again.log_json() == m.log_json(), "a refused action left a trace in the log"


@pytest.mark.parametrize("path", FILES, ids=game_id)
def test_a_tiny_step_budget_stops_the_match_naming_a_rule(path):
    game = load(path)
    stopped = 0
    for seed in range(10):
        try:
            m = Match(game, game.max_players, seed, step_budget=2)
            rng = random.Random(seed)
            while m.decision is not None:
                m.apply(rng.randrange(len(m.decision.options)))
        except StepBudgetExceeded as err:
            stopped += 1
            assert err.rule and err.budget == 2
            # the message names the rule as it is called, e.g. "phase 'play' (file:line:col) ran past"
            assert str(err).startswith(f"{err.rule} ({err.where}) ran past" if err.where else
                                       f"{err.rule} ran past"), str(err)
            assert err.where is None or err.where.file in game.files
    assert stopped, "no match ran past a budget of 2 steps"


@pytest.mark.parametrize("path", FILES, ids=game_id)
def test_a_budget_that_runs_out_in_play_stops_the_match_at_an_answer(path):
    """A budget of 2 runs out in the setup, before the first decision; this
    one lasts a few steps past it, so it runs out in a rule an answer set
    going: ``apply`` raises the error, naming that rule, and the match is
    over (asked nothing more, refusing any answer)."""
    game = load(path)
    for seed in range(5):
        setup = Match(game, game.max_players, seed).steps       # what the setup takes
        m = Match(game, game.max_players, seed, step_budget=setup + 1 + seed)
        rng = random.Random(seed)
        with pytest.raises(StepBudgetExceeded) as info:
            while m.decision is not None:
                m.apply(rng.randrange(len(m.decision.options)))
        err = info.value
        assert err.budget == setup + 1 + seed and m.steps > err.budget
        assert str(err).startswith(f"{err.rule} ({err.where}) ran past"), str(err)
        assert err.where is not None and err.where.file in game.files
        assert m.decision is None and m.result() is None
        with pytest.raises(IllegalAction):
            m.apply(0)


def test_a_zone_changed_without_a_logged_move_is_found():
    """The premise that lets :func:`play` skip the check after an action
    that logged no move or shuffle is itself checked, on a tenth of the
    games: here an action that silently moves a card (index and all, so
    the conservation check alone would pass) is caught."""
    game = load(FILES[0])

    class SilentlyMoving:
        """The match, but each action also moves a card without a log entry."""

        def __init__(self, m: Match):
            self.m = m

        def __getattr__(self, name):
            return getattr(self.m, name)

        def apply(self, action) -> None:
            m = self.m
            m.apply(action)
            src = next(z for z in m.all_zones() if len(z.cards) > 1)
            dest = next(z for z in m.all_zones() if z is not src)
            card = src.cards.pop()
            dest.cards.append(card)
            m.loc[card.id] = dest

    m = game.new_match(game.min_players, seed=1)
    play(m, random.Random(1), every=True)           # (the game itself passes)
    with pytest.raises(AssertionError, match="without logging a move"):
        play(SilentlyMoving(game.new_match(game.min_players, seed=1)), random.Random(1), every=True)


def test_the_conservation_check_finds_a_lost_a_doubled_and_a_misfiled_card():
    game = load(FILES[0])
    for corrupt in ("lose", "double", "misfile", "double in place, another lost", "indexed the other way"):
        m = game.new_match(game.min_players, seed=1)
        zones = [z for z in m.all_zones() if z.cards]
        first, other = zones[0], next(z for z in m.all_zones() if z is not zones[0])
        card = first.cards[-1]
        if corrupt == "lose":
            first.cards.pop()
        elif corrupt == "double":
            other.cards.append(card)
        elif corrupt == "misfile":
            first.cards.pop()
            other.cards.append(card)      # moved, but the index still says it is in ``first``
        elif corrupt.startswith("double in place"):
            first.cards.append(first.cards[0])      # as many cards as the game has, one of them twice
            lost = next(z for z in m.all_zones() if z.cards and z is not first)
            lost.cards.pop()
        else:
            elsewhere = next(z for z in m.all_zones() if z.cards and z is not first).cards[-1]
            m.loc[card.id], m.loc[elsewhere.id] = m.loc[elsewhere.id], m.loc[card.id]
        with pytest.raises(AssertionError):
            check_conservation(m)
