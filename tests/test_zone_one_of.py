"""A zone declared ``one_of: SET`` holds only the cards SET names.

The loader gives the zone the set and the ids of those cards; every move
into the zone that brings another card is a rule error at the statement
that made it (the match is reported, as any rule error is); a prepared
state and a resampled match respect it too; and the observation has an
entry per card the zone may hold, the kept encoder entry for entry the
full one.  See docs/authoring.md, "Zones and variables".
"""
from __future__ import annotations

import random
import re

import numpy as np
import pytest
from game_files import game_path

import rulekit
from rulekit.cli import main
from rulekit.errors import IllegalAction, RuleFileError, RuleRuntimeError
from rulekit.rl import ObservationEncoder
from rulekit.rl.incremental import SeatObservations
from rulekit.simulation import GameFailed, simulate
from rulekit.testing import check_conservation, prepare

# Gems go to a vault, one per turn; a tray shows the top of the gems and
# rocks laid there.  The last statement of the phase is replaced by each case.
GAME = """\
name: Vaults
players: {min: 2, max: 3}
names:
  gems: {card_names: {kind: gem}}
cards:
  - {name: "Gem {n}", each: {n: [1, 2, 3, 4, 5, 6]}, props: {kind: gem}}
  - {name: "Rock {n}", each: {n: [1, 2, 3, 4, 5, 6]}, props: {kind: rock}}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  vault: {per_player: true, visibility: owner, one_of: gems}
  shelf: {one_of: gems}
  tray: {visibility: top, one_of: gems}
  heap: {}
procedures:
  stash:
    params: [p, card]
    effect: move card to vault(p)
choices:
  keep:
    who: current
    options:
      - {name: card, cards: 1, from: "hand(current) where it.kind == 'gem'"}
      - {name: done}
setup: |
  move box to deck
  shuffle deck
  move first(deck where it.kind == "gem") to vault(1)
  for p in players:
    move top(deck, 3) to hand(p)
turn:
  phases:
    - name: main
      effect: |
        if empty(deck):
          win "done"
        move top(deck, 1) to hand(current)
        choose keep
        if keep.option == "card":
          call stash(current, first(keep.cards))
        move hand(current) where it.kind == "rock" to heap
        move top(heap, 1) to heap
"""
TAIL = '        move top(heap, 1) to heap\n'
STASH_LINE = GAME.splitlines().index("    effect: move card to vault(p)") + 1


def load(text: str = GAME) -> rulekit.Game:
    return rulekit.load_game_text(text, "vaults.yaml")


def with_line(line: str) -> str:
    return GAME.replace(TAIL, f"        {line}\n")


def play(game: rulekit.Game, players: int, seed: int) -> rulekit.Match:
    m = game.new_match(players, seed=seed)
    rng = random.Random(seed)
    while m.decision is not None:
        m.apply(rng.randrange(len(m.decision.options)))
        check_conservation(m)
    return m


# ---- the rule model ------------------------------------------------------------------


def test_the_zone_gets_its_set_and_the_ids_of_its_cards():
    g = load()
    vault = g.zone_by_name["vault"]
    gems = tuple(c.id for c in g.cards if c.props["kind"] == "gem")
    assert (vault.one_of, vault.names, vault.allowed) == ("gems", tuple(f"Gem {n}" for n in range(1, 7)), gems)
    assert g.zone_by_name["heap"].allowed is None and g.zone_by_name["heap"].one_of is None


def test_an_unknown_set_is_reported_where_it_is_written():
    with pytest.raises(RuleFileError) as info:
        load(GAME.replace("visibility: owner, one_of: gems}", "visibility: owner, one_of: gem}"))
    (e,) = info.value.errors
    assert (e.where.line, e.where.column) == (11, 56)       # the name written after vault's one_of
    assert e.message == "no entry 'gem' under names:" and "did you mean 'gems'?" in e.hint


# ---- the engine refuses any other card -------------------------------------------------


def test_the_rules_that_follow_it_play_on():
    g = load()
    for seed in range(20):
        m = play(g, 2 + seed % 2, seed)
        assert m.result() is not None
        assert all(c.props["kind"] == "gem" for p in range(m.n) for c in m.zone("vault", p).cards)


@pytest.mark.parametrize("line, card", [
    ('move first(heap) to vault(current)', "Rock"),                   # one card (move_one)
    ('move top(deck, 1) to shelf', None),                             # a draw (move_top1)
    ('move top(deck, 3) to shelf', None),                             # a packet (_place)
    ('move heap to tray', "Rock"),                                    # a whole zone
    ('move deck where it.kind == "rock" to shelf', "Rock"),           # the cards a test picks
])
def test_a_card_it_may_not_hold_is_a_rule_error(line, card):
    g = load(with_line(line))
    failed = []
    for seed in range(30):
        try:
            play(g, 2, seed)
        except RuleRuntimeError as err:
            failed.append(err)
    assert failed, "some random match must put a rock there"
    err = failed[0]
    assert "cannot go to zone" in err.message and "Rock" in err.message
    assert "names entry 'gems' (Gem 1, Gem 2, Gem 3, Gem 4, Gem 5, Gem 6)" in err.message
    assert card is None or card in err.message
    assert err.rule == "phase 'main'" and err.where is not None and err.where.line == GAME.count("\n")


@pytest.mark.parametrize("line", [
    'move top(deck, 3) to shelf',                                     # a packet from the top
    'move heap to tray',                                              # a whole zone
    'move deck where it.kind == "rock" to shelf',                     # the cards a test picks
    'move [first(deck), first(heap)] to shelf',                       # a list from two zones
])
def test_a_refused_move_leaves_every_card_where_it_was(line):
    """The match stops with the rule error, and what it shows (a view, a
    saved log) still has every card in exactly one zone: the move was
    refused before any card left its zone."""
    g = load(with_line(line))
    refused = 0
    for seed in range(30):
        m = g.new_match(2, seed=seed)
        rng = random.Random(seed)
        while m.decision is not None:
            try:
                m.apply(rng.randrange(len(m.decision.options)))
            except RuleRuntimeError as err:     # (or a move of nothing, from an empty zone)
                refused += "cannot go to zone" in err.message
                break
        check_conservation(m)
    assert refused


def test_a_card_named_twice_in_one_move_is_refused_before_it_moves():
    g = load(with_line('move [first(deck), first(deck)] to heap'))
    m = g.new_match(2, seed=1)
    with pytest.raises(RuleRuntimeError, match="a card cannot move twice in one move") as info:
        while m.decision is not None:
            m.apply(0)
    check_conservation(m)
    assert info.value.rule == "phase 'main'" and info.value.where.line == GAME.count("\n")   # the statement


def test_the_error_names_the_rules_that_called_the_move():
    g = load(with_line('call stash(current, first(heap))'))
    with pytest.raises(RuleRuntimeError) as info:
        for seed in range(30):
            play(g, 2, seed)
    err = info.value
    assert [rule for rule, _ in err.chain] == ["phase 'main'", "procedure 'stash'"]
    assert err.rule == "procedure 'stash'" and err.where.line == STASH_LINE
    assert "card 'Rock" in err.message and "zone 'vault(" in err.message


def test_a_simulation_reports_the_failed_match():
    g = load(with_line('move top(deck, 3) to shelf'))
    with pytest.raises(GameFailed, match=r"game 1 \(seed 0\) failed: .*cannot go to zone 'shelf'"):
        simulate(g, 2, 3)


def test_a_prepared_state_is_refused():
    g = load()
    with pytest.raises(IllegalAction, match="zone 'vault\\(0\\)' holds only cards of names entry 'gems', "
                                            "not 'Rock 1'"):
        prepare(g, 2, zones={"vault(0)": ["Gem 1", "Rock 1"]}, phase="main")
    m = prepare(g, 2, zones={"vault(0)": ["Gem 1"], "deck": ["Rock 1"]}, phase="main")
    assert [c.name for c in m.zone("vault", 0).cards] == ["Gem 1"]


def test_the_shipped_equipment_slots_hold_only_their_kind():
    g = rulekit.load_game(game_path("sanguosha"))
    for slot in ("weapon", "armor", "plus_horse", "minus_horse"):
        allowed = g.zone_by_name[slot].allowed
        assert allowed and {g.cards[i].props.get("slot") for i in allowed} == {slot}
        assert len(allowed) == sum(c.props.get("slot") == slot for c in g.cards)
    for zone in ("general", "offer", "picked", "general_pile"):
        assert [g.cards[i].props.get("type") for i in g.zone_by_name[zone].allowed] == ["general"] * 25
    game_cards = tuple(c.id for c in g.cards if c.props.get("type") != "general")
    for zone in ("deck", "discard", "processing", "judgement", "revealed", "hand", "judging", "peek", "face_down_card"):
        assert g.zone_by_name[zone].allowed == game_cards and len(game_cards) == 108, zone
    with pytest.raises(IllegalAction, match="weapon"):
        prepare(g, 4, zones={"weapon(0)": [next(c.name for c in g.cards if c.props.get("kind") == "杀")]})
    with pytest.raises(IllegalAction, match="hand"):
        prepare(g, 4, zones={"hand(0)": [next(c.name for c in g.cards if c.props.get("type") == "general")]})


# ---- resampling deals a card only where it may be -----------------------------------------


def test_the_conservation_check_finds_a_card_where_it_may_not_be():
    """(What a copy or a sample dealt wrongly would leave: the engine itself
    never moves a rock there.)"""
    m = load().new_match(2, seed=4)
    check_conservation(m)
    vault = m.zone("vault", 1)
    rock = next(c for c in m.cards if c.props["kind"] == "rock")
    home = m.loc[rock.id]
    gem = vault.cards[0]
    home.cards[home.cards.index(rock)], vault.cards[0] = gem, rock       # swapped, every card still once
    m.loc[rock.id], m.loc[gem.id] = vault, home
    with pytest.raises(AssertionError, match=rf"vault\(1\) holds \['{rock.name}'\], not cards of names entry 'gems'"):
        check_conservation(m)


def test_a_sample_deals_a_zone_only_cards_it_may_hold():
    """Player 0 did not see which gem went to vault(1), nor player 1's hand:
    vault(1), hand(1) and the deck exchange their unknown cards, and the
    vault gets some gem or other, never a rock."""
    g = load()
    m = g.new_match(2, seed=4)
    vault = m.zone("vault", 1)
    kept = set()
    rng = random.Random(2)
    for _ in range(200):
        s = m.resample(0, rng)
        check_conservation(s)
        assert all(c.props["kind"] == "gem" for c in s.zone("vault", 1).cards)
        kept.add(s.zone("vault", 1).cards[0].id)
        assert len(s.zone("hand", 1)) == len(m.zone("hand", 1))
    unseen = {c.id for c in g.cards if c.props["kind"] == "gem"} - {c.id for c in m.zone("hand", 0).cards}
    assert kept == unseen and len(unseen) > 1 and vault.cards[0].id in unseen


# ---- the observation --------------------------------------------------------------------


def test_a_zone_part_has_an_entry_per_card_it_may_hold():
    g = load()
    enc = ObservationEncoder(g, 2)
    parts = dict(enc.observation_layout())
    gems = g.zone_by_name["vault"].allowed
    for name in ("vault(+0)", "shelf", "tray.top"):
        assert parts[name].stop - parts[name].start == 6
        assert enc.part_cards(name) == gems
    assert parts["heap"].stop - parts["heap"].start == len(g.cards)
    assert enc.part_cards("heap") == tuple(range(len(g.cards)))
    m = prepare(g, 2, zones={"vault(0)": ["Gem 5"], "tray": ["Gem 2", "Gem 6"]}, phase="main")
    vec = enc.observe(m, 0)
    vault, tray = parts["vault(+0)"], parts["tray.top"]
    assert [enc.part_cards("vault(+0)")[i] for i in np.flatnonzero(vec[vault])] == [m.zone("vault", 0).cards[0].id]
    assert [g.cards[enc.part_cards("tray.top")[i]].name for i in np.flatnonzero(vec[tray])] == ["Gem 2"]


def test_the_kept_observation_is_the_full_one():
    g = load(GAME.replace("choose keep", 'choose keep\n        move top(deck, 1) to heap\n'
                          '        move heap where it.kind == "gem" to tray'))
    enc = ObservationEncoder(g, 3)
    compared = 0
    for seed in range(40):
        m = g.new_match(3, seed=seed)
        kept = SeatObservations(enc, m)
        rng = random.Random(seed)
        while m.decision is not None:
            for seat in range(3):
                assert np.array_equal(kept.observe(seat), enc.observe(m, seat))
                compared += 1
            m.apply(rng.randrange(len(m.decision.options)))
    assert compared > 100       # (every seat at every decision)


def test_describe_says_what_a_zone_holds(capsys, tmp_path):
    path = tmp_path / "vaults.yaml"
    path.write_text(GAME, encoding="utf-8")
    assert main(["describe", str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^  vault\s+owner, per player, only gems \(6 cards\)$", out, re.M)
    assert re.search(r"^  heap\s+public$", out, re.M)


def test_a_rule_error_from_the_command_line_is_reported_not_a_traceback(capsys, tmp_path):
    path = tmp_path / "vaults.yaml"
    path.write_text(with_line('move top(deck, 3) to shelf'), encoding="utf-8")
    code = main(["simulate", str(path), "--players", "2", "--games", "3"])
    out, err = capsys.readouterr()
    assert code != 0 and "Traceback" not in out + err
    assert "cannot go to zone 'shelf'" in out + err
