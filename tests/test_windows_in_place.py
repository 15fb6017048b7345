"""A response window (``skip_if_only:``) answered in place: in a simulation
(``auto_pass=True``) a seat that can only pass is answered by a test written
into the ``choose`` itself, without listing its answers.  That must change
nothing but speed: the same log as listing the answers gives, the same
steps counted, the same failure at the same place.
"""
from __future__ import annotations

import random

import pytest
from game_files import game_files, game_id, load

import rulekit
import rulekit.testing
from rulekit.cli import main
from rulekit.errors import RuleRuntimeError

# A window of every shape the in-place test takes: one card by a tabled
# test, two cards when a procedure (which counts steps) says so, an answer
# without cards under a condition, and the skip answer.
WINDOW_GAME = """\
name: Windows
players: {min: 2, max: 4}
cards:
  - {name: Low, count: 14, props: {value: 1, kind: plain}}
  - {name: High, count: 4, props: {value: 9, kind: plain}}
  - {name: Cancel, count: 3, props: {value: 5, kind: cancel}}
EXTRA
zones:
  deck: {visibility: hidden}
  discard: {}
  hand: {per_player: true, visibility: owner}
vars: {rounds: 0}
player_vars: {luck: 0}
choices:
  play:
    who: current
    options:
      - {name: card, cards: 1, from: hand(current)}
      - {name: stop}
  cancel:
    params: [p, asker]
    who: p
    skip_if_only: pass
    prompt: "Player {p}: cancel player {asker}'s card?"
    options:
      - {name: card, cards: 1, from: hand(p), where: it.kind == "cancel"}
      - {name: two, cards: 2, from: hand(p), where: it.value > 5, when: lucky(p)}
      - {name: wish, when: lucky(p) and size(hand(p)) > 4}
      - {name: pass}
procedures:
  lucky:          # (its loop counts a step a card)
    params: [p]
    effect: |
      let n = 0
      for c in hand(p):
        n += 1
      return p.luck % 4 > 1 and n > 1
setup: |
  move box to deck
  shuffle deck
  for p in players:
    move top(deck, 3) to hand(p)
turn:
  phases:
    - name: play
      effect: |
        rounds += 1
        if rounds > 40:
          win
        if size(deck) == 0:
          move discard to deck
          shuffle deck
        move top(deck, 1) to hand(current)
        choose play
        if play.option == "card":
          current.luck += 1
          move play.cards to discard
          for q in seats_from(current):
            if q != current:
              choose cancel(q, current)
              if cancel.option != "pass":
                q.luck += 1
                move cancel.cards to discard
"""


def _game(tmp_path, extra: str = "") -> tuple[rulekit.Game, str]:
    path = tmp_path / "windows.yaml"
    path.write_text(WINDOW_GAME.replace("EXTRA\n", extra), encoding="utf-8")
    return rulekit.load_game(path), str(path)


def _play_both_ways(game: rulekit.Game, players: int, seed: int) -> tuple[rulekit.Match, rulekit.Match, int]:
    """The same game played twice: answered in place (``auto_pass``), and
    with every window listed and its only answer given by the driver.
    Returns both matches and how many windows were answered in place."""
    windows = {name for name, c in game.choices.items() if c.window is not None}
    fast = game.new_match(players, seed=seed, auto_pass=True)
    rng = random.Random(seed)
    while fast.decision is not None:
        fast.apply(rng.randrange(len(fast.decision.options)))
    listed = game.new_match(players, seed=seed)
    rng = random.Random(seed)
    alone = 0
    while listed.decision is not None:
        dec = listed.decision
        only = dec.choice in windows and len(dec.options) == 1 and \
            dec.options[0].option == game.choices[dec.choice].window
        alone += only
        listed.apply(0 if only else rng.randrange(len(dec.options)))
    return fast, listed, alone


def test_the_choose_of_a_window_tests_in_place_and_saves_the_steps_it_counts(tmp_path, capsys):
    _, path = _game(tmp_path)
    assert main(["show-code", path, "play"]) == 0
    code = capsys.readouterr().out
    assert "_wo = True" in code and "for _wc in PZ[" in code      # the cards, read from the table
    assert ".isdisjoint(PZ[" in code                               # one card: asked of the passing set
    assert "_wn >= 2" in code                                       # two cards: counted
    assert "_ws = m.steps" in code and "m.steps = _ws" in code       # lucky() counts steps: put back


@pytest.mark.parametrize("players", [2, 3, 4])
def test_answers_in_place_log_and_count_what_listing_the_answers_gives(tmp_path, players):
    game, _ = _game(tmp_path)
    asked = alone = 0
    for seed in range(25):
        fast, listed, alone_here = _play_both_ways(game, players, seed)
        assert fast.log_json() == listed.log_json(), f"seed {seed}: answered in place, another game"
        assert fast.steps == listed.steps, f"seed {seed}: another count of steps"
        alone += alone_here
        asked += sum(1 for d in (e[1] for e in listed.log if e[0] == "decide")
                     if d.choice == "cancel" and len(d.options) > 1)
    assert alone > 100 and asked > 10, (alone, asked)     # both ways of a window were taken


GAMES_WITH_WINDOWS = [p for p in game_files() if any(c.window is not None for c in load(p).choices.values())]


def test_seats_answered_in_place_share_one_tuple_of_options(tmp_path):
    """A decision answered in place offers its one answer in a tuple that
    every such decision of the window shares: the match's log keeps the
    decisions, and a list made for each would be kept with it."""
    game, _ = _game(tmp_path)
    fast, listed, alone = _play_both_ways(game, 3, 1)
    windows = {name: c.window for name, c in game.choices.items() if c.window is not None}
    answered = [e[1] for e in fast.log if e[0] == "decide" and e[1].choice in windows and len(e[1].options) == 1
                and e[1].options[0].option == windows[e[1].choice]]
    assert len(answered) == alone > 1
    assert len({id(d.options) for d in answered}) == len({d.choice for d in answered})
    assert all(type(d.options) is tuple for d in answered)


@pytest.mark.parametrize("path", GAMES_WITH_WINDOWS, ids=game_id)
def test_every_game_answers_its_windows_in_place_as_listing_does(path):
    game = load(path)
    for players in {game.min_players, game.max_players}:
        for seed in range(4):
            fast, listed, alone = _play_both_ways(game, players, seed)
            assert alone > 0
            assert fast.log_json() == listed.log_json(), f"{players} players, seed {seed}"
            assert fast.steps == listed.steps, f"{players} players, seed {seed}"


def test_a_test_that_fails_in_place_fails_as_listing_the_answers_does(tmp_path):
    """A card whose test failed when the table was made (a text compared
    with a number) fails in the in-place test too: the seat's answers are
    then listed, and the rule fails in the choice, with the same words and
    place as without the test."""
    game, _ = _game(tmp_path, "  - {name: Odd, count: 1, props: {value: x, kind: plain}}\n")
    said = []
    for auto_pass in (True, False):
        m = rulekit.testing.prepare(game, 2, zones={"hand(0)": ["Low"], "hand(1)": ["Odd", "Low"],
                                                    "deck": ["Low", "Low"]},
                                    player_vars={1: {"luck": 2}}, auto_pass=auto_pass)
        with pytest.raises(RuleRuntimeError) as info:
            m.apply(next(a for a in m.legal_actions() if a.option == "card"))
        said.append(str(info.value))
    assert said[0] == said[1]
    assert "(in choice 'cancel')" in said[0] and "'>' cannot compare a text with a number" in said[0]
    # the set of the cards that pass a test is made only for a test that fails on no card
    sets = {k: v for k, v in game.choices["cancel"].enumerate.__globals__.items() if k.startswith("TBS")}
    assert None in sets.values() and any(type(v) is frozenset for v in sets.values()), sets
