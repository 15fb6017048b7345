"""The environments keep each seat's observation up to date instead of
rebuilding it (rulekit.rl.incremental): at every decision of random matches
of every game, whichever seats observe and however long since they last
did, the kept vector is the full encoder's, entry for entry; and so it is
on copies of a match (clone, save/restore, resample)."""
from __future__ import annotations

import random

import numpy as np
import pytest
from game_files import game_path
from rl_kit import STIRRED_TOP, case_id, cases, load

import rulekit
from rulekit.engine.match import Match
from rulekit.rl import ObservationEncoder
from rulekit.rl.incremental import SeatObservations
from rulekit.rl.reads import reads
from rulekit.rl.shown import reads_viewer
from rulekit.rl.tracked import is_tracked


def _differs(enc, kept, full) -> list[str]:
    bad = np.flatnonzero(kept != full)
    return sorted({name for name, s in enc.observation_layout() for i in bad if s.start <= i < s.stop})


def _follow(enc, m, rng, limit: int) -> int:
    """Play ``m`` at random, comparing at each decision the kept vector of
    the deciding seat and of a random few others with the full encoder's;
    returns how many decisions were played."""
    kept = SeatObservations(enc, m)
    n = enc.players
    steps = 0
    while m.decision is not None and steps < limit:
        seats = {m.decision.player} | {s for s in range(n) if rng.random() < 0.3}
        for seat in sorted(seats):
            got = kept.observe(seat)
            full = enc.observe(m, seat)
            assert np.array_equal(got, full), \
                f"seat {seat}, decision {len(m.actions)} ('{m.decision.choice}'): {_differs(enc, got, full)}"
        m.apply(rng.randrange(len(m.decision.options)))
        steps += 1
    return steps


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_the_kept_observation_is_the_full_one_at_every_decision(case):
    path, players = case
    game = load(path)
    enc = ObservationEncoder(game, players)
    steps = 0
    for seed in range(40):
        if steps >= 1500:
            break
        steps += _follow(enc, game.new_match(players, seed=seed), random.Random(seed), 1500 - steps)
    assert steps > 300


@pytest.mark.parametrize("case", cases(1), ids=case_id)
def test_copies_of_a_match_are_observed_as_the_full_encoder_does(case):
    """A match copied mid-game (clone, save and restore, resample for a
    seat) is a new match to follow: its kept vectors start from it."""
    path, players = case
    game = load(path)
    enc = ObservationEncoder(game, players)
    rng = random.Random(1)
    copied = 0
    for seed in range(6):
        m = game.new_match(players, seed=seed)
        _follow(enc, m, rng, rng.randrange(5, 60))
        if m.decision is None:
            continue
        for copy in (m.clone(), Match.restore(game, m.save()), m.resample(m.decision.player, random.Random(seed))):
            _follow(enc, copy, rng, 40)
            copied += 1
        _follow(enc, m, rng, 40)            # the original goes on as it was
    assert copied


def test_a_shuffle_shows_a_new_top_card():
    """No card moves when a pile is shuffled, yet its shown top card changes:
    the log's shuffles are followed too."""
    game = rulekit.load_game_text(STIRRED_TOP, "stirred.yaml")
    enc = ObservationEncoder(game, 2)
    steps = sum(_follow(enc, game.new_match(2, seed=seed), random.Random(seed), 200) for seed in range(20))
    assert steps > 100


DISPLAYED = STIRRED_TOP + """
display:
  held: "size(hand(player))"
  shown: "top(deck).name if size(deck) > 0 else '-'"
  now: "current"
"""


def test_a_value_is_worked_out_again_when_what_it_reads_changes():
    """What a display value reads is found in its compiled code: the zones
    it counts, the turn; a chosen answer is not followed, so a value
    reading one is worked out at every observation; kept vectors stay the
    full encoder's."""
    game = rulekit.load_game_text(DISPLAYED, "displayed.yaml")
    answered = rulekit.load_game_text(DISPLAYED + '  answer: "play.option"\n', "answered.yaml")
    read = {k: reads(fn, game.code_label) for k, fn in game.display.items()}
    zone = {z.name: z.index for z in game.zones}
    assert read["held"].zones == {zone["hand"]} and not (read["held"].turn or read["held"].everything)
    assert read["shown"].zones == {zone["deck"]}
    assert read["now"].turn and not read["now"].zones
    assert reads(answered.display["answer"], answered.code_label).everything
    sanguosha = load(game_path("sanguosha"))
    distance = reads(sanguosha.display["distance"], sanguosha.code_label)
    horses = {sanguosha.zone_by_name[z].index for z in ("plus_horse", "minus_horse")}
    assert distance.zones == horses and distance.seats and "skills" in distance.pvars
    enc = ObservationEncoder(game, 2)
    assert sum(_follow(enc, game.new_match(2, seed=seed), random.Random(seed), 200) for seed in range(10)) > 50


@pytest.mark.parametrize("name", ["sanguosha", "xiake"])
def test_a_game_loaded_the_plain_way_is_followed_by_comparing(name):
    """``rulekit.load_game`` compiles no change notes: the kept vectors
    then find what changed by comparing the variables, and are still the
    full encoder's.  The notes add no words to the observation's vocabulary."""
    game = rulekit.load_game(game_path(name))
    assert not is_tracked(game) and is_tracked(load(game_path(name)))
    enc = ObservationEncoder(game, game.min_players)
    assert enc.vocab == ObservationEncoder(load(game_path(name)), game.min_players).vocab
    steps = sum(_follow(enc, game.new_match(game.min_players, seed=seed), random.Random(seed), 150)
                for seed in range(3))
    assert steps > 100


def test_a_display_value_that_never_reads_its_viewer_is_worked_out_once_per_player():
    """A display value whose code does not name its viewer is the same for
    every seat: it is evaluated once per player and written into every
    seat's row; one that names it is evaluated per seat.  Either way the
    kept vectors are the full encoder's."""
    sanguosha = load(game_path("sanguosha"))
    assert not reads_viewer(sanguosha.display["hp"]) and not reads_viewer(sanguosha.display["general"])
    assert reads_viewer(sanguosha.display["distance"]) and reads_viewer(sanguosha.display["identity"])
    game = rulekit.load_game_text(DISPLAYED + '  mine: "size(hand(viewer)) + size(hand(player))"\n', "viewed.yaml")
    assert not reads_viewer(game.display["held"]) and reads_viewer(game.display["mine"])
    enc = ObservationEncoder(game, 2)
    assert sum(_follow(enc, game.new_match(2, seed=seed), random.Random(seed), 200) for seed in range(10)) > 50
