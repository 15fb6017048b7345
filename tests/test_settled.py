"""``rulekit.settled()``: the objects alive when the block starts are left
out of the collector's passes while it runs, and only then; nested blocks
leave it to the outermost.  A simulation plays in such a block."""
from __future__ import annotations

import gc

from game_files import game_path

import rulekit


def test_a_block_freezes_what_is_alive_and_gives_it_back_at_its_end():
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    with rulekit.settled():
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with rulekit.settled():
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen          # the inner block's end unfroze nothing
    assert gc.get_freeze_count() == 0


def test_an_error_in_the_block_still_gives_everything_back():
    before = gc.get_threshold()
    try:
        with rulekit.settled():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_a_block_lets_the_youngest_generation_grow_and_sets_it_back():
    """A match keeps a few thousand objects until it ends; in the block the
    collector waits for YOUNG new objects, not Python's 700, before it
    walks the young ones (the older generations' thresholds are kept)."""
    before = gc.get_threshold()
    gc.set_threshold(700, 11, 12)
    try:
        with rulekit.settled():
            assert gc.get_threshold() == (rulekit.engine.settled.YOUNG, 11, 12)
            with rulekit.settled():
                assert gc.get_threshold() == (rulekit.engine.settled.YOUNG, 11, 12)
            assert gc.get_threshold()[0] == rulekit.engine.settled.YOUNG    # the inner end kept it
        assert gc.get_threshold() == (700, 11, 12)
        gc.set_threshold(50_000, 10, 10)            # a larger threshold is kept,
        with rulekit.settled():
            assert gc.get_threshold() == (50_000, 10, 10)
        gc.set_threshold(0, 10, 10)                 # and a collector turned off stays off
        with rulekit.settled():
            assert gc.get_threshold() == (0, 10, 10)
        assert gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*before)


def test_young_passes_are_rare_in_the_block():
    """Four random games of 8-player 三国杀: at Python's 700 the collector
    passes over the young objects several times a game; in the block, at
    most once in all four (what a finished match kept is freed at once)."""
    game = rulekit.load_game(game_path("sanguosha"))
    passes = []

    def count(phase, info):
        if phase == "start" and info["generation"] == 0:
            passes.append(1)

    def play() -> int:
        gc.collect()                    # (each count starts from an empty young generation)
        passes.clear()
        gc.callbacks.append(count)
        try:
            for seed in range(4):
                m = game.new_match(8, seed=seed, auto_pass=True)
                while m.decision is not None:
                    m.apply(seed % len(m.decision.options))
        finally:
            gc.callbacks.remove(count)
        return len(passes)

    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        outside = play()
        with rulekit.settled():
            inside = play()
    finally:
        gc.set_threshold(*before)
    assert outside >= 8 and inside <= 1, (outside, inside)


def test_a_simulation_plays_settled_and_leaves_nothing_frozen(monkeypatch):
    seen = []
    real = rulekit.Game.new_match

    def watched(self, *args, **kwargs):
        seen.append(gc.get_freeze_count())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(rulekit.Game, "new_match", watched)
    game = rulekit.load_game(game_path("regicide"))
    report = rulekit.simulate(game, 2, 5, seed=3)
    assert report["games"] == 5 and seen and all(count > 0 for count in seen)
    assert gc.get_freeze_count() == 0
