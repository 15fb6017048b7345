"""The action catalogue numbers every action a game can ever offer, once:
each legal action of any decision has exactly one index, no two share one,
and every index the mask lets through is a legal action."""
from __future__ import annotations

import numpy as np
import pytest
from rl_kit import ANY_NUMBER, case_id, cases, load, random_decisions

import rulekit
from rulekit.rl import ActionCatalogue, CatalogueTooLarge
from rulekit.testing import prepare


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_every_legal_action_has_exactly_one_index(case):
    path, players = case
    game = load(path)
    cat = ActionCatalogue(game, players)
    seen = 0
    for _, dec in random_decisions(game, players, range(10_000), limit=1500):
        idx = cat.indices(dec)
        assert len(set(idx)) == len(idx), f"two legal actions share an index in {dec.choice}"
        assert all(0 <= i < cat.n for i in idx)
        mask = cat.mask(dec)
        assert mask.dtype == np.int8 and mask.shape == (cat.n,)
        assert sorted(np.flatnonzero(mask)) == sorted(idx)
        for a, i in zip(dec.options, idx):
            assert cat.index(dec, a) == i
            assert cat.action(dec, i) == a          # every masked-in index maps back to its action
        seen += 1
    assert seen == 1500


def test_an_index_not_masked_in_is_refused(regicide):
    cat = ActionCatalogue(regicide, 2)
    dec = regicide.new_match(2, seed=3).decision
    outside = next(i for i in range(cat.n) if not cat.mask(dec)[i])
    with pytest.raises(ValueError, match="not legal now"):
        cat.action(dec, outside)
    with pytest.raises(ValueError, match="outside the catalogue"):
        cat.action(dec, cat.n)


def test_players_are_numbered_from_the_deciding_seat(regicide):
    """A jester lets the current player name who goes next: the player on
    their left is index +1 whichever seat decides."""
    cat = ActionCatalogue(regicide, 4)
    base = cat.slot_of("next_up", "player").base
    for seat in range(4):
        m = prepare(regicide, 4, current=seat, zones={f"hand({seat})": ["Jester"], "enemy": ["J♠"],
                                                      "castle": ["J♥"], "tavern": ["2♥"]})
        m.apply(next(a for a in m.legal_actions() if a.option == "jester"))
        dec = m.decision
        assert dec.choice == "next_up" and dec.player == seat
        left = next(a for a in dec.options if a.player == (seat + 1) % 4)
        assert cat.index(dec, left) == base + 1
        assert cat.action(dec, base) == next(a for a in dec.options if a.player == seat)


def test_a_number_option_has_an_index_per_number_of_its_range():
    xiake = load(rulekit.__file__.replace("rulekit/__init__.py", "games/xiake"))
    cat = ActionCatalogue(xiake, 2)
    slot = cat.slot_of("place", "place")
    assert slot.size == 10 and cat.describe(slot.base) == "place 1" and cat.describe(slot.base + 9) == "place 10"


def test_sets_of_cards_sharing_a_property_are_numbered_within_each_group(regicide):
    """Regicide's combo is 2 to 4 cards of one rank: 11 sets per rank of
    four cards (6 + 4 + 1) and the two jesters' one, not every set of the deck."""
    cat = ActionCatalogue(regicide, 1)
    assert cat.slot_of("attack", "combo").size == 13 * 11 + 1
    assert cat.slot_of("attack", "companion").size == 54 * 53 // 2     # two cards, no shared property
    assert cat.slot_of("pay", "discard").size == 54                      # another name: its own actions


def test_one_name_and_shape_shares_its_actions_across_choices():
    sgs = load(rulekit.__file__.replace("rulekit/__init__.py", "games/sanguosha"))
    cat = ActionCatalogue(sgs, 5)
    assert cat.slot_of("respond", "card") is cat.slot_of("nullify", "card") is cat.slot_of("peach", "card")
    assert cat.slot_of("respond", "pass") is cat.slot_of("nullify", "pass")

def test_a_pick_of_any_number_of_cards_is_too_large_and_says_which_option():
    game = rulekit.load_game_text(ANY_NUMBER, "shed.yaml")
    with pytest.raises(CatalogueTooLarge, match=r"Shed any with 2 players.*option 'shed' of choice 'play', "
                                                r"shed \(1\.\.30 cards\)"):
        ActionCatalogue(game, 2)


def test_the_limit_is_a_parameter(regicide):
    assert ActionCatalogue(regicide, 2, limit=1742).n == 1742
    with pytest.raises(CatalogueTooLarge):
        ActionCatalogue(regicide, 2, limit=1741)
