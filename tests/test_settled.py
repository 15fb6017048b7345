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
    try:
        with rulekit.settled():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.get_freeze_count() == 0


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
