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
