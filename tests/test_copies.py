"""Copies at the cost of the state, and hidden-information sampling.

``clone()`` restarts the current turn from the checkpoint taken as it began
and plays only that turn's decisions again; ``resample(player, rng)`` deals
again what the player cannot know.  Both are checked on every game file:
a copy behaves exactly as the match it copies, a sample looks the same to
the player, conserves the cards, and puts each unknown card in every place
it could be."""
from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

import pytest
from game_files import game_files, game_id

import rulekit
from rulekit.engine.runtime import Zone
from rulekit.testing import check_conservation, prepare

FILES = game_files()
ROWS = Path(__file__).parent / "games" / "rows.yaml"


def _players(g: rulekit.Game) -> int:
    return min(g.max_players, max(g.min_players, 5))


def _walk(m: rulekit.Match, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if m.decision is None:
            return
        m.apply(rng.randrange(len(m.decision.options)))


def _state(m: rulekit.Match) -> tuple:
    dec = m.decision
    # (a zone among a decision's arguments is the match's own: its name and cards say which)
    asked = dec and (dec.player, dec.choice, dec.options, tuple(
        (a.name, list(a.cards)) if isinstance(a, Zone) else a for a in dec.args))
    return (m.log_json(), [list(z.cards) for z in m.all_zones()], m.pvars, m.vars, m.cvars,
            asked, m.result())


@pytest.mark.parametrize("path", FILES, ids=game_id)
def test_a_copy_continues_exactly_as_the_match(path):
    g = rulekit.load_game(path)
    for seed in range(3):
        m = g.new_match(_players(g), seed=seed)
        rng = random.Random(seed)
        copies = []
        while m.decision is not None and len(m.actions) < 400:
            if rng.random() < 0.08:
                copies.append((m.clone(), len(m.actions)))
            m.apply(rng.randrange(len(m.decision.options)))
        for c, at in copies:
            for a in m.actions[at:]:
                c.apply(a)
            assert _state(c) == _state(m)


def test_a_copy_plays_again_only_the_current_turn(monkeypatch):
    g = rulekit.load_game(ROOT_GAMES / "sanguosha")
    m = g.new_match(8, seed=3, copyable=True)
    _walk(m, random.Random(1), 600)
    since_turn = len(m.actions) - m._ckpt.actions_len
    applied = []
    real_apply = rulekit.Match.apply
    monkeypatch.setattr(rulekit.Match, "apply", lambda self, a: (applied.append(a), real_apply(self, a)))
    c = m.clone()
    assert len(applied) == since_turn < len(m.actions) // 10
    assert _state(c) == _state(m)


def test_a_match_not_started_copyable_replays_once_then_copies_from_its_checkpoint(monkeypatch):
    g = rulekit.load_game(ROWS)
    m = g.new_match(2, seed=4)
    _walk(m, random.Random(2), 9)
    first = m.clone()                     # played again from the start, and now recording
    assert m.copyable and m._ckpt is not None and _state(first) == _state(m)
    applied = []
    real_apply = rulekit.Match.apply
    monkeypatch.setattr(rulekit.Match, "apply", lambda self, a: (applied.append(a), real_apply(self, a)))
    again = m.clone()
    assert len(applied) == len(m.actions) - m._ckpt.actions_len and _state(again) == _state(m)


ROOT_GAMES = Path(__file__).resolve().parents[1] / "games"


# ---- resample -----------------------------------------------------------------------
def _midgames(g: rulekit.Game, steps) -> list[tuple[int, rulekit.Match]]:
    """(seed, match) for seeds 0 and 1: random play ``steps(seed)`` decisions in, still going."""
    out = []
    for seed in range(2):
        m = g.new_match(_players(g), seed=seed)
        _walk(m, random.Random(seed), steps(seed))
        if m.decision is not None:
            out.append((seed, m))
    return out


@pytest.mark.parametrize("path", FILES, ids=game_id)
def test_a_sample_looks_the_same_to_the_player_and_plays_on(path):
    for _, m in _midgames(rulekit.load_game(path), lambda seed: 60 + 40 * seed):
        seat = m.decision.player
        seen = json.dumps(m.view(seat), ensure_ascii=False, sort_keys=True, default=str)
        for k in range(8):
            s = m.resample(seat, random.Random(k))
            check_conservation(s)
            assert all(z.allow is None or c.id in z.allow for z in s.all_zones() for c in z.cards)
            assert json.dumps(s.view(seat), ensure_ascii=False, sort_keys=True, default=str) == seen
            _walk(s, random.Random(k), 200)          # a sample is a match that plays on
            check_conservation(s)


@pytest.mark.parametrize("path", FILES, ids=game_id)
def test_a_copy_of_a_sample_is_that_sample_not_the_match_it_was_drawn_from(path):
    """Determinized search samples the hidden cards once and copies the
    sample for each playout: every copy (and deepcopy, and a copy of a copy,
    and a sample of a sample) must be the sample, played on the same, or the
    search would play the real cards it must not know."""
    for seed, m in _midgames(rulekit.load_game(path), lambda seed: 50 + 30 * seed):
        seat = m.decision.player
        s = m.resample(seat, random.Random(seed))
        s2 = s.resample(seat, random.Random(seed + 1))
        copies = [s.clone(), __import__("copy").deepcopy(s)]
        copies.append(copies[0].clone())
        for sample, its in ((s, copies), (s2, [s2.clone()])):
            rng = random.Random(seed)
            for c in its:
                assert _state(c) == _state(sample)
            for _ in range(60):                  # into later phases and turns too
                if sample.decision is None:
                    break
                k = rng.randrange(len(sample.decision.options))
                for x in (sample, *its):
                    x.apply(k)
            for c in its:
                assert _state(c) == _state(sample)
            if sample.decision is not None:
                assert _state(sample.clone()) == _state(sample)     # from a checkpoint taken since


def test_a_copy_of_a_closed_match_is_closed():
    g = rulekit.load_game(ROWS)
    m = g.new_match(2, seed=1)
    _walk(m, random.Random(1), 5)
    m.close()
    for c in (m.clone(), __import__("copy").deepcopy(m)):
        assert c.decision is None and c.log_json() == m.log_json()
        with pytest.raises(rulekit.IllegalAction, match="the match is over"):
            c.apply(0)


def test_a_sample_cannot_be_saved_as_its_seed_and_actions():
    """A sample's deal is not what its seed and actions make: save() would
    restore the real one, so it refuses."""
    g = rulekit.load_game(ROWS)
    m = g.new_match(2, seed=1)
    s = m.resample(0, random.Random(1))
    with pytest.raises(ValueError, match="a resampled copy cannot be saved or pickled"):
        s.save()
    assert rulekit.Match.restore(g, m.save()).log_json() == m.log_json()


def test_every_unknown_card_lands_in_every_place_it_could_be():
    """Rows: player 1's hand and the deck are unknown to player 0 — each of
    those cards is sometimes in the hand, sometimes in the deck; player 0's
    own hand and the rows never change."""
    g = rulekit.load_game(ROWS)
    m = g.new_match(2, seed=1)
    while m.decision.player != 0 or m.decision.choice != "play":
        m.apply(0)
    unknown = {c.name + str(c.id) for z in (m.zone("hand", 1), m.zone("deck")) for c in z.cards}
    mine = list(m.zone("hand", 0).cards)
    where = defaultdict(set)
    rng = random.Random(7)
    for _ in range(300):
        s = m.resample(0, rng)
        assert list(s.zone("hand", 0).cards) == mine
        assert len(s.zone("hand", 1)) == len(m.zone("hand", 1))
        for zone in ("deck", "hand(1)"):
            z = s.zone("deck") if zone == "deck" else s.zone("hand", 1)
            for c in z.cards:
                where[c.name + str(c.id)].add(zone)
    assert set(where) == unknown and all(v == {"deck", "hand(1)"} for v in where.values())


GIVE = """\
name: Give
players: {min: 2, max: 2}
cards:
  - {name: C, count: 8}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
choices:
  give:
    who: current
    options:
      - {name: card, cards: 1, from: hand(current)}
      - {name: stop}
setup: |
  move box to deck
  shuffle deck
  for p in players:
    move top(deck, 3) to hand(p)
turn:
  phases:
    - name: main
      effect: |
        choose give
        if give.option == "stop":
          win "stopped"
        move give.cards to hand((current + 1) % 2)
"""


def test_a_card_the_player_gave_away_stays_where_it_went(tmp_path):
    path = tmp_path / "give.yaml"
    path.write_text(GIVE, encoding="utf-8")
    g = rulekit.load_game(path)
    m = g.new_match(2, seed=3)
    given = m.zone("hand", 0).cards[-1]
    m.apply(next(a for a in m.legal_actions() if a.cards == (given.id,)))
    rng = random.Random(1)
    moved = set()
    for _ in range(100):
        s = m.resample(0, rng)
        assert given in s.zone("hand", 1).cards          # player 0 saw it go there
        moved |= {c.id for c in s.zone("hand", 1).cards} - {c.id for c in m.zone("hand", 1).cards}
    assert moved                                          # the others did move


def test_secret_roles_are_dealt_again_among_the_seats_that_hide_them():
    g = rulekit.load_game(ROOT_GAMES / "sanguosha")
    m = g.new_match(5, seed=2)
    _walk(m, random.Random(3), 40)
    seat = m.decision.player
    roles = sorted(m.pvars[p]["role"] for p in range(5))
    hidden = [p for p in range(5) if p != seat and not m.pvars[p]["role_shown"]]
    got = defaultdict(set)
    rng = random.Random(5)
    for _ in range(200):
        s = m.resample(seat, rng)
        assert sorted(s.pvars[p]["role"] for p in range(5)) == roles
        assert s.pvars[seat]["role"] == m.pvars[seat]["role"]
        for p in range(5):
            if p not in hidden:
                assert s.pvars[p]["role"] == m.pvars[p]["role"]
            got[p].add(s.pvars[p]["role"])
    pool = {m.pvars[p]["role"] for p in hidden}
    assert all(got[p] == pool for p in hidden)


def test_resample_needs_a_seat():
    g = rulekit.load_game(ROWS)
    m = prepare(g, 2, zones={"hand(0)": ["Wolf"], "deck": ["Bear"]}, phase="main")
    with pytest.raises(ValueError, match="resample needs a seat from 0 to 1"):
        m.resample(2)
