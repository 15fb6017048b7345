"""A card option can only offer the cards of the zones its ``from:`` takes
them from; when each of those zones declares the cards it holds
(``one_of``), the option knows them (``OptionDef.cards_from``) and an
action catalogue numbers only those.  ``names:`` entries may leave out the
names of others (``except:``), so "every card but the heroes" is written
once.  See docs/authoring.md, "Zones and variables", and docs/rl.md.
"""
from __future__ import annotations

import random
from math import comb

import pytest

import rulekit
from rulekit import Action
from rulekit.errors import RuleFileError, RuleRuntimeError
from rulekit.rl import ActionCatalogue

# Three heroes sit in crowns, six coins go round the hands; the table takes
# anything.  Each option of `act` reads its cards from other zones.
GAME = """\
name: Sources
players: {min: 2, max: 2}
names:
  heroes: {card_names: {kind: hero}}
  playing: {card_names: {}, except: [heroes]}
cards:
  - {name: "Hero {n}", each: {n: [1, 2, 3]}, props: {kind: hero, value: 0}}
  - {name: "Coin {n}", each: {n: [1, 2, 3, 4, 5, 6]}, props: {kind: coin, value: 1}}
zones:
  deck: {visibility: hidden, one_of: playing}
  pile: {visibility: hidden, one_of: heroes}
  hand: {per_player: true, visibility: owner, one_of: playing}
  crown: {per_player: true, one_of: heroes}
  table: {}
procedures:
  mine:
    params: [p]
    effect: return join(hand(p), crown(p))
choices:
  act:
    who: current
    options:
      - {name: coin, cards: 1, from: hand(current)}
      - {name: pair, cards: 2, from: "hand(current) where it.value == 1"}
      - {name: any, cards: 1, from: "join(hand(current), table)"}
      - {name: mine, cards: 1, from: mine(current)}
      - {name: pass}
setup: |
  move box where it.kind == "hero" to pile
  move box to deck
  shuffle deck
  for p in players:
    move top(deck, 2) to hand(p)
    move top(pile, 1) to crown(p)
turn:
  phases:
    - name: main
      effect: |
        if empty(deck):
          win "done"
        move top(deck, 1) to hand(current)
        choose act
        if act.option != "pass":
          move act.cards to table
          move table where it.kind == "hero" to crown(current)
"""


def load(text: str = GAME) -> rulekit.Game:
    return rulekit.load_game_text(text, "sources.yaml")


def ids(game: rulekit.Game, kind: str | None = None) -> tuple[int, ...]:
    return tuple(c.id for c in game.cards if kind is None or c.props["kind"] == kind)


def test_except_leaves_out_the_names_of_another_entry():
    g = load()
    assert g.zone_by_name["hand"].names == tuple(f"Coin {n}" for n in range(1, 7))
    assert g.zone_by_name["crown"].allowed == ids(g, "hero")


def test_an_unknown_entry_after_except_is_reported_where_it_is_written():
    text = GAME.replace("except: [heroes]", "except: [heros]")
    with pytest.raises(RuleFileError) as info:
        load(text)
    (e,) = info.value.errors
    line = text.splitlines()[4]
    assert (e.where.line, e.where.column) == (5, line.index("heros") + 1)
    assert "'heros' is not an entry of names:" in e.message and "did you mean 'heroes'?" in e.hint


def test_an_option_knows_the_cards_its_zones_hold():
    options = {o.name: o for o in load().choices["act"].options}
    g = load()
    assert options["coin"].cards_from == ids(g, "coin")              # a zone that declares them
    assert options["pair"].cards_from == ids(g, "coin")              # a filter of it
    assert options["any"].cards_from is None                         # joined with a zone of any card
    assert options["mine"].cards_from == ids(g)                      # a procedure's zones, together
    assert options["pass"].cards_from is None


def test_the_catalogue_numbers_only_those_cards():
    g = load()
    cat = ActionCatalogue(g, 2)
    sizes = {name: cat.slot_of("act", name).size for name in ("coin", "pair", "any", "mine", "pass")}
    assert sizes == {"coin": 6, "pair": comb(6, 2), "any": 9, "mine": 9, "pass": 1}
    assert cat.n == sum(sizes.values())
    coin = cat.slot_of("act", "coin")
    assert [cat.describe(coin.base + i) for i in range(6)] == [f"coin Coin {n}" for n in range(1, 7)]
    played = 0
    for seed in range(30):
        m = g.new_match(2, seed=seed)
        rng = random.Random(seed)
        while m.decision is not None:
            dec = m.decision
            idx = cat.indices(dec)
            assert len(set(idx)) == len(idx) and all(0 <= i < cat.n for i in idx)
            assert [cat.action(dec, i) for i in idx] == list(dec.options)
            played += len(idx)
            m.apply(rng.randrange(len(dec.options)))
    assert played > 200


def test_a_card_the_option_cannot_offer_has_no_index():
    g = load()
    cat = ActionCatalogue(g, 2)
    m = g.new_match(2, seed=1)
    hero = ids(g, "hero")[0]
    with pytest.raises(KeyError, match=f"card {hero} is not one the catalogue numbers for coin"):
        cat.index(m.decision, Action("coin", (hero,)))


def test_options_of_one_name_share_the_cards_any_of_them_can_offer():
    sweep = "  sweep:\n    who: current\n    options:\n      - {name: coin, cards: 1, from: table}\nsetup: |"
    g = load(GAME.replace("setup: |", sweep))
    cat = ActionCatalogue(g, 2)
    assert cat.slot_of("sweep", "coin") is cat.slot_of("act", "coin")
    assert cat.slot_of("act", "coin").size == 9 and cat.slot_of("act", "coin").ids is None


def test_a_rule_that_puts_a_hero_in_a_hand_is_an_error_not_a_new_action():
    g = load(GAME.replace('          move table where it.kind == "hero" to crown(current)\n',
                          '          move table where it.kind == "hero" to hand(current)\n'))
    failed = []
    for seed in range(30):
        m = g.new_match(2, seed=seed)
        rng = random.Random(seed)
        try:
            while m.decision is not None:
                m.apply(rng.randrange(len(m.decision.options)))
        except RuleRuntimeError as err:
            failed.append(err)
    assert failed and all("cannot go to zone 'hand(" in e.message for e in failed)


def test_the_shipped_identity_games_number_no_general_in_a_hand():
    from game_files import game_path
    g = rulekit.load_game(game_path("sanguosha"))
    cat = ActionCatalogue(g, 8)
    generals = {c.id for c in g.cards if c.props.get("type") == "general"}
    use = cat.slot_of("play", "use")
    assert use.size == 108 and not generals & set(use.ids or ())
    assert cat.slot_of("play", "丈八蛇矛").size == comb(108, 2)
    assert cat.slot_of("pick_general", "general").size == 25


# `give` offers a card of the cards it is given; every `choose` of it passes
# a hand (or, below, a zone that may hold anything); `unused` is never asked.
PASSED = GAME.replace("""      - {name: pass}
setup:""", """      - {name: pass}
  give:
    params: [p, pool]
    who: p
    options:
      - {name: card, cards: 1, from: "pool where it.value == 1"}
  unused:
    params: [p, pool]
    who: p
    options:
      - {name: card, cards: 1, from: pool}
setup:""").replace("""        choose act
""", """        choose act
        if size(hand(current)) > 2:
          choose give(current, hand(current))
          move give.cards to hand(next(current))
""")


def option(game: rulekit.Game, choice: str, name: str):
    return next(o for o in game.choices[choice].options if o.name == name)


def test_an_option_offering_a_parameters_cards_knows_the_zones_every_choose_passes():
    """Reading: a choice's option that offers the cards of its parameter can
    only offer what the arguments of its calls can hold."""
    g = load(PASSED)
    assert option(g, "give", "card").cards_from == ids(g, "coin")
    assert option(g, "unused", "card").cards_from == ()          # never asked: offers nothing
    m = g.new_match(2, seed=3)
    rng = random.Random(3)
    while m.decision is not None:           # the cards it offers are among those it knows
        if m.decision.choice == "give":
            assert {c for a in m.decision.options for c in a.cards} <= set(ids(g, "coin"))
        m.apply(rng.randrange(len(m.decision.options)))
    slots = dict(ActionCatalogue(g, 2).layout())
    assert slots["card (1 cards)"] == slice(40, 46)        # the six coins, not every card


def test_an_option_offering_a_procedures_result_knows_the_zones_its_returns_give():
    text = PASSED.replace("""  mine:
    params: [p]""", """  spare:
    params: [p]
    effect: |
      if empty(hand(p)):
        return []
      return hand(p) where it.value == 1
  mine:
    params: [p]""").replace("""      - {name: pass}
  give:""", """      - {name: pass}
      - {name: spare, cards: 1, from: spare(current)}
  give:""")
    g = load(text)
    assert option(g, "act", "spare").cards_from == ids(g, "coin")
    assert "spare" not in g.inlined            # (a result followed through its returns, not written in place)


def test_one_choose_passing_what_may_hold_anything_leaves_the_option_open():
    text = PASSED.replace("""          move give.cards to hand(next(current))
""", """          move give.cards to hand(next(current))
        if any(table):
          choose give(current, table)
""")
    g = load(text)
    assert option(g, "give", "card").cards_from is None
