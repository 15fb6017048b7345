"""The 俠客 duel's rules from the seed (游戏规则参考二), each set up and
checked: the deal, the draw, summoning into places on a row of ten, paying
and keeping 召喚點數, the forced and the voluntary discard, the five-card
hand, waiting a turn to attack, fights (the seed's 4/3 against 2/2
example), attacks on the player, and both ways to lose."""
from __future__ import annotations

import pytest
from xiake_kit import act, attack, game, legal, life, names_in, place_of, plain, prop, stat, summon, table


def cheap(n: int, **props) -> list[str]:
    """``n`` vanilla heroes of cost 1 or 2."""
    return [plain(i, cost=lambda c: c <= 2) for i in range(n)]


# ---- the deal -------------------------------------------------------------------
@pytest.mark.parametrize("deal, unused", [(60, 30), (75, 0)])
def test_each_player_gets_60_cards_of_150_or_all_as_an_option(deal, unused):
    m = game().new_match(2, seed=4, options={"deal": deal} if deal != 60 else None)
    assert len(m.game.cards) == 150
    assert [len(m.zone("deck", p)) + len(m.zone("hand", p)) for p in (0, 1)] == [deal, deal]
    assert len(m.zone("unused")) == unused


def test_five_cards_20_life_and_10_points_each_and_a_random_first_player():
    firsts = set()
    for seed in range(12):
        m = game().new_match(2, seed=seed)
        assert [len(m.zone("hand", p)) for p in (0, 1)][1 - m.current] == 5
        assert [m.pvars[p]["life"] for p in (0, 1)] == [20, 20]
        assert [m.pvars[p]["points"] for p in (0, 1)] == [10, 10]      # 10, and at most 10 after the draw
        firsts.add(m.current)
    assert firsts == {0, 1}


def test_the_draw_phase_draws_one_and_gains_one_point_up_to_10():
    top = plain(5)
    m = table(phase="draw", decks={0: [top] + cheap(3)}, points={0: 6})
    assert names_in(m, "hand", 0) == [top] and m.pvars[0]["points"] == 7
    m = table(phase="draw", points={0: 10})
    assert m.pvars[0]["points"] == 10


def test_who_must_draw_from_an_empty_deck_loses():
    m = table(phase="draw", decks={0: []})
    assert m.result()["winners"] == [1] and m.result()["reason"] == "抽牌時牌庫已無牌可抽"


# ---- summoning --------------------------------------------------------------------
def test_summoning_pays_the_cost_and_takes_a_chosen_free_place():
    a, b = cheap(2)
    m = table(hands={0: [a, b]}, rows={0: [(plain(4), 3)]}, points={0: 5})
    act(m, "summon", a)
    assert sorted(x.number for x in m.legal_actions()) == [1, 2, 4, 5, 6, 7, 8, 9, 10]
    act(m, "place", number=7)
    assert place_of(m, a) == 7 and m.pvars[0]["points"] == 5 - prop(a, "cost")
    summon(m, b, 1)                                   # any number a turn, while points last
    assert names_in(m, "row", 0)[-2:] == [a, b] and stat(m, b) == (prop(b, "attack"), prop(b, "health"))


def test_a_hero_costing_more_than_the_points_left_cannot_be_summoned():
    dear = plain(cost=lambda c: c >= 5)
    m = table(hands={0: [dear]}, points={0: prop(dear, "cost") - 1})
    assert "summon " + dear not in legal(m)


def test_at_most_ten_heroes_on_a_row():
    row = [(plain(i), i + 1) for i in range(10)]
    extra = plain(10)
    m = table(rows={0: row}, hands={0: [extra]}, points={0: 10})
    assert not any(x.startswith("summon") for x in legal(m))


# ---- discards ---------------------------------------------------------------------
def test_forced_discard_down_to_five_one_point_each_usable_next_turn():
    dear = [plain(i, cost=lambda c: c >= 6) for i in range(7)]
    m = table(hands={0: dear}, points={0: 2})
    assert m.decision.choice == "shed"
    act(m, "card", dear[0])
    act(m, "card", dear[1])
    assert len(names_in(m, "hand", 0)) == 5 and names_in(m, "removed") == dear[:2]
    assert m.pvars[0]["points"] == 2 and m.pvars[0]["pending"] == 2     # not this turn
    act(m, "end")
    act(m, "end")                                                       # battle: nothing to do
    assert m.pvars[0]["points"] == 4 and m.current == 1


def test_voluntary_discard_of_one_card_gains_its_cost_next_turn():
    a, b = plain(0, cost=lambda c: c >= 4), plain(1, cost=lambda c: c >= 4)
    m = table(hands={0: [a, b]}, points={0: 3})
    act(m, "discard", a)
    assert names_in(m, "removed") == [a] and m.pvars[0]["points"] == 3
    assert not any(x.startswith("discard") for x in legal(m))        # one a turn
    act(m, "end")
    act(m, "end")
    assert m.pvars[0]["points"] == min(10, 3 + prop(a, "cost"))


def test_no_voluntary_discard_with_more_than_five_cards():
    m = table(hands={0: cheap(6)}, points={0: 10})
    assert not any(x.startswith("discard") for x in legal(m))


def test_ending_the_phase_with_more_than_five_cards_discards_down_to_five():
    m = table(hands={0: cheap(7)}, points={0: 10})
    act(m, "end")
    act(m, "card", names_in(m, "hand", 0)[0])
    act(m, "card", names_in(m, "hand", 0)[0])
    assert len(names_in(m, "hand", 0)) == 5 and m.pvars[0]["pending"] == 2


# ---- attacks ----------------------------------------------------------------------
def test_a_hero_summoned_this_turn_waits_until_the_next_turn():
    new, old = plain(0), plain(1)
    m = table(rows={0: [(new, 1, {"入場": 3}), (old, 2)]}, phase="battle", round=3)
    assert legal(m) == ["hero " + old, "end"]


def test_the_seeds_example_4_3_attacks_2_2():
    """A(4/3) attacks B(2/2): A ends 4/1, B at 0 goes to the graveyard."""
    a, b = plain(0), plain(1)
    m = table(rows={0: [(a, 1, {"攻擊": 4, "氣血": 3})], 1: [(b, 5, {"攻擊": 2, "氣血": 2})]},
              phase="battle")
    attack(m, a, b)
    assert stat(m, a) == (4, 1)
    assert names_in(m, "grave", 1) == [b] and names_in(m, "row", 1) == []
    assert life(m, 1) == 20                                 # the row was not empty


def test_several_heroes_on_one_target_in_the_chosen_order():
    a, b, t = plain(0), plain(1), plain(2)
    m = table(rows={0: [(a, 1, {"攻擊": 2, "氣血": 5}), (b, 2, {"攻擊": 2, "氣血": 5})],
                    1: [(t, 1, {"攻擊": 3, "氣血": 4})]}, phase="battle")
    attack(m, b, t)
    assert stat(m, t) == (3, 2) and stat(m, b) == (2, 2)
    attack(m, a, t)
    assert names_in(m, "grave", 1) == [t] and stat(m, a) == (2, 2)


def test_with_heroes_on_the_row_the_player_cannot_be_hit_and_with_none_takes_the_blow():
    a, t = plain(0), plain(1)
    m = table(rows={0: [(a, 1, {"攻擊": 3, "氣血": 9})], 1: [(t, 1, {"攻擊": 0, "氣血": 1})]},
              phase="battle")
    assert m.decision.choice == "attack"
    attack(m, a, t)
    assert life(m, 1) == 20
    m = table(rows={0: [(a, 1, {"攻擊": 3})]}, phase="battle")
    attack(m, a)                                             # the row is empty: no target asked
    assert life(m, 1) == 17 and m.decision.choice == "attack"


def test_both_fighters_at_0_or_less_go_to_their_graveyards_together():
    a, b = plain(0), plain(1)
    m = table(rows={0: [(a, 1, {"攻擊": 3, "氣血": 2})], 1: [(b, 10, {"攻擊": 2, "氣血": 3})]},
              phase="battle")
    attack(m, a, b)
    assert names_in(m, "grave", 0) == [a] and names_in(m, "grave", 1) == [b]
    assert life(m, 0) == life(m, 1) == 20


def test_once_the_last_defender_falls_the_next_attacks_hit_the_player():
    a, b, t = plain(0), plain(1), plain(2)
    m = table(rows={0: [(a, 1, {"攻擊": 5, "氣血": 9}), (b, 2, {"攻擊": 4})],
                    1: [(t, 1, {"攻擊": 1, "氣血": 2})]}, phase="battle")
    attack(m, a, t)
    assert names_in(m, "row", 1) == []
    attack(m, b)                                              # no target asked: the player
    assert life(m, 1) == 16


def test_one_attack_a_turn_for_each_hero():
    a = plain(0)
    m = table(rows={0: [(a, 1, {"攻擊": 1})]}, phase="battle")
    attack(m, a)
    assert legal(m) == ["end"]


def test_a_player_at_zero_life_loses_at_once():
    a = plain(0)
    m = table(rows={0: [(a, 1, {"攻擊": 5})]}, phase="battle", life={1: 5})
    attack(m, a)
    assert m.result()["winners"] == [0] and m.result()["reason"] == "生命力歸0"


def test_a_hero_keeps_its_place_and_leaves_a_gap():
    a, b, c = plain(0), plain(1), plain(2)
    m = table(rows={0: [(a, 1), (b, 2, {"氣血": 1}), (c, 3)], 1: [(plain(3), 1, {"攻擊": 5})]},
              current=1, phase="battle")
    attack(m, plain(3), b)
    assert names_in(m, "grave", 0) == [b]
    assert (place_of(m, a), place_of(m, c)) == (1, 3)      # nobody moves into the gap


def test_turns_alternate_and_what_lasts_a_turn_ends():
    m = table(phase="end", rows={0: [(plain(0), 1, {"臨時": 2, "出手": 1})]})
    assert m.current == 1 and m.cvars["臨時"][m.zone("row", 0).cards[0].id] == 0


# ---- what each player may know ------------------------------------------------------
def test_nobody_is_shown_the_menpai_most_of_a_deck_belongs_to():
    """牌庫 and the other's 手牌 are face down: no view tells which 門派 most of a
    player's dealt cards belong to (the statistics still read it)."""
    for seed in range(4):
        m = game().new_match(2, seed=seed)
        for viewer in (0, 1, None):
            assert all("main_faction" not in v for v in m.view(viewer)["player_vars"])
        assert all(m.pvars[p]["main_faction"] for p in (0, 1))


def test_who_drew_into_more_than_five_cards_has_no_voluntary_discard_that_turn():
    """被動 (more than 5 cards after the draw, nothing affordable): down to 5 at 1
    point each; 主動 is for a player with at most 5 cards after the draw, so
    none follows the forced discard in the same turn."""
    dear = [plain(i, cost=lambda c: c >= 6) for i in range(6)]
    m = table(phase="draw", hands={0: dear}, decks={0: [plain(6, cost=lambda c: c >= 6)] + cheap(3)},
              points={0: 1})
    assert m.decision.choice == "shed"
    act(m, "card", dear[0])
    act(m, "card", dear[1])
    assert len(names_in(m, "hand", 0)) == 5
    assert not any(x.startswith("discard") for x in legal(m))
    act(m, "end")
    act(m, "end")
    assert m.pvars[0]["points"] == 2 + 2


def test_who_drew_into_five_cards_may_discard_one_for_its_cost():
    a = plain(0, cost=lambda c: c >= 6)
    m = table(phase="draw", hands={0: cheap(4)}, decks={0: [a, plain(1, cost=lambda c: c >= 6)]},
              points={0: 1})
    act(m, "discard", a)
    assert m.pvars[0]["pending"] == prop(a, "cost")


def test_the_log_tells_where_a_hero_is_put_and_the_place_prompt_names_it():
    """A hero's place is for good (卡牌放入場上後即不能再更改位置): the other
    player reads it in the log, and the question says which hero is placed."""
    a = plain(0)
    m = table(hands={0: [a]})
    act(m, "summon", a)
    assert a in m.view(1)["decision"]["prompt"]
    act(m, "place", number=4)
    texts = [e.get("text") for e in m.view(1)["log"]]
    assert "player 0 召喚 " + a + "（位置 4）" in texts


def test_a_hero_leaving_the_row_leaves_its_counters_behind():
    """The coins on a hero tell its changes on the row; in the 墳場 or the 移除區
    it is a card as printed, with nothing left of its fights."""
    a, b = plain(0), plain(1)
    m = table(rows={0: [(a, 1, {"攻擊": 4, "氣血": 3})], 1: [(b, 5, {"攻擊": 2, "氣血": 2, "出手": 1})]},
              phase="battle")
    attack(m, a, b)
    state = m.view(0)["zones"]["grave(1)"]["state"][0]
    assert (state["攻擊"], state["氣血"], state["位置"], state["出手"]) == (0, 0, 0, 0)
