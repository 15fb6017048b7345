"""What a display or public value reads is found in its game's own
generated source (rulekit.rl.reads), whatever else was compiled under the
same file name since: a game loaded plain and for change tracking, or two
texts loaded as one name."""
from __future__ import annotations

from game_files import game_path

import rulekit
from rulekit.rl.reads import reads
from rulekit.rl.tracked import load_game as tracked_load

VALUE = """
name: Read
players: {min: 2, max: 2}
cards:
  - {name: Chip, count: 4, props: {value: 1}}
zones:
  deck: {visibility: hidden}
vars:
  score: 0
  other: 0
public:
  shown: "%s + 1"
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        score += 1
        if score == 3:
          win for current "scored"
"""


def test_a_value_reads_its_own_game_after_a_plain_load_of_the_same_file():
    path = game_path("regicide")
    tracked = tracked_load(path)
    rulekit.load_game(path)                 # the same label, other lines
    for name, fn in tracked.public.items():
        fresh = tracked_load(path)
        assert reads(fresh.public[name], fresh.code_label) == reads(fn, tracked.code_label), name


def test_two_texts_under_one_name_each_read_what_they_read():
    first = rulekit.load_game_text(VALUE % "score", "same.yaml")
    second = rulekit.load_game_text(VALUE % "other", "same.yaml")
    assert first.code_label == second.code_label
    assert reads(first.public["shown"], first.code_label).vars == frozenset({"score"})
    assert reads(second.public["shown"], second.code_label).vars == frozenset({"other"})


OWNERS = """
name: Owners
players: {min: 3, max: 3}
cards:
  - {name: Chip, count: 6, props: {value: 1}}
zones:
  deck: {visibility: hidden}
  table: {per_player: true}
  pocket: {per_player: true}
player_vars:
  hp: 3
  skill: 0
procedures:
  reach:
    params: [a, b]
    effect: return size(table(a)) + b.skill
  pockets:
    params: [p]
    effect: |
      let q = p
      return size(pocket(q))
display:
  near: "reach(viewer, player) + player.hp"
  crowd: "pockets(viewer) + size(table(player))"
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        win for current "done"
"""


def test_whose_zones_and_variables_a_value_reads_follows_its_parameters_into_procedures():
    game = rulekit.load_game_text(OWNERS, "owners.yaml")
    near = dict(reads(game.display["near"], game.code_label).owners)
    # table(a) with a = the viewer; b.skill with b = the player; player.hp
    assert near == {("zone", game.zone_by_name["table"].index): frozenset({1}),
                    ("pvar", "skill"): frozenset({2}), ("pvar", "hp"): frozenset({2})}
    crowd = dict(reads(game.display["crowd"], game.code_label).owners)
    # pocket(q) for a q the procedure works out: any seat's pocket may count
    assert crowd == {("zone", game.zone_by_name["pocket"].index): frozenset({None}),
                     ("zone", game.zone_by_name["table"].index): frozenset({2})}


#: VALUE's public value read through a procedure that calls itself (so counts a step a call)
COUNTING = VALUE.replace("public:", """procedures:
  down:
    params: [k]
    effect: |
      if k > 0:
        return down(k - 1)
      return score
public:""") % "down(3)"


def test_a_value_that_counts_steps_reads_only_what_it_reads():
    """A procedure calling itself counts a step a call, and the value puts
    the match's count back: neither is something the value shows, so it
    reads the variable it reads, not everything."""
    game = rulekit.load_game_text(COUNTING, "counting.yaml")
    fn = game.public["shown"]
    assert "m.steps = _steps" in game.code and "m.count(" in game.code
    found = reads(fn, game.code_label)
    assert not found.everything and found.vars == frozenset({"score"})
