"""Answers of pure procedures that read only variables, kept from one
decision to the next until one of those variables is written
(rulekit.lang.pass_kept): which procedures keep them, and that no answer
outlives a write, a reset, an elimination or a match restored."""
from __future__ import annotations

import pytest
from game_files import game_files, game_id

import rulekit
from rulekit.agents import HeuristicAgent, make_agents
from rulekit.lang import pass_kept
from rulekit.lang.names import Names
from rulekit.lang.parser import parse_effect

GAME = """\
name: Kept
players: {min: 3, max: 3}
cards:
  - name: "c{n}"
    each:
      n: [1, 2, 3]
zones:
  hand: {per_player: true, visibility: owner}
player_vars:
  mood: 0
  tired: {initial: 0, reset: phase}
vars:
  pokes: 0
procedures:
  liked:
    params: [p]
    effect: return players where it != p and it.mood + pokes // 100 == 0
  rested:
    params: [p]
    effect: return any(players where it == p and it.tired == 0)
  handed:
    params: [p]
    effect: return players where size(hand(it)) > 0
choices:
  poke:
    who: current
    prompt: "Poke a player"
    options:
      - name: seat
        player: "players where it != current"
heuristics:
  poke: "(1 if player in liked(current) else 0 - player) + (10 if rested(current) else 0)"
setup: |
  move box to hand(0)
turn:
  phases:
    - name: tire
      effect: |
        current.tired = 1
        choose poke
    - name: poke
      effect: |
        choose poke
        let poked = poke.player
        poked.mood = 1 - poked.mood
        pokes += 1
    - name: again
      effect: |
        choose poke
        if pokes == 6:
          win "done"
"""


def load(tmp_path) -> rulekit.Game:
    path = tmp_path / "kept.yaml"
    path.write_text(GAME, encoding="utf-8")
    return rulekit.load_game(path)


def test_which_procedures_keep_their_answers(tmp_path):
    game = load(tmp_path)
    code = game.code

    def function(name: str) -> str:
        start = code.index(f"def {name}(")
        return code[start:code.index("\ndef ", start + 1)]
    assert "_mc = m.kept" in function("proc_liked") and "_mc = m.kept" in function("proc_rested")
    assert "_mc = m.memo" in function("proc_handed") and "m.kept" not in function("proc_handed")  # a zone
    # every write of what they read empties the kept answers (the reset of tired is the engine's)
    assert code.count("m.kept.clear()") == 3


def test_no_kept_answer_outlives_a_write_a_reset_or_the_decision_it_was_asked_in(tmp_path):
    """The heuristic's scores at every decision are those it gives with
    nothing remembered: a poke changes a mood (and the count of pokes)
    before the turn's last decision, and between its first two only the
    phase's reset sets the tiredness written before the first back."""
    game = load(tmp_path)
    m = game.new_match(3, seed=0)
    agent = HeuristicAgent(0)
    played = []
    while m.decision is not None:
        dec = m.decision
        scores = agent.scores(m, dec)
        assert m.memo is None and m.kept      # (asked with nothing remembered below)
        fresh = [game.choices["poke"].heuristic(m, [], a.option, a.player) for a in dec.options]
        assert scores == fresh, (len(played), scores, fresh)
        played.append(scores)
        m.apply(agent.act(m, dec))
    assert len(played) == 18 and {max(s) > 9 for s in played} == {True, False}


def test_a_match_restored_or_resampled_keeps_no_answer_of_before(tmp_path):
    game = load(tmp_path)
    m = game.new_match(3, seed=0, copyable=True)
    agent = HeuristicAgent(0)
    agent.scores(m, m.decision)
    assert m.kept
    copy = m.clone()
    assert not copy.kept
    m.apply(agent.act(m, m.decision))
    assert not m.kept         # a mood was written


def test_plan_follows_calls_and_leaves_out_what_reads_more_than_variables():
    """Kept: a procedure reading variables, itself or through what it calls
    (b, not remembered itself, is followed); not kept: one reading a zone,
    whose turn it is, or calling one that does."""
    texts = {"a": "return b(p) + pokes", "b": "return p.mood", "c": "return size(hand(p))",
             "d": "return current.mood", "e": "return a(p) + c(p)", "f": "return seats_from(p)"}
    names = Names(zones={"hand": None}, vars=frozenset({"pokes"}), player_vars=frozenset({"mood", "tired"}),
                  tables={}, choices=frozenset(), procedures=frozenset(texts), phases={})
    kept, watched = pass_kept.plan({k: parse_effect(v, "script") for k, v in texts.items()},
                                   {"a", "c", "d", "e", "f"}, names)
    assert kept == {"a", "f"}
    assert watched == {("match", "pokes"), ("player", "mood"), ("match", "players")}


@pytest.mark.parametrize("path", game_files(), ids=game_id)
def test_heuristic_play_is_the_same_with_answers_kept_or_not(path, monkeypatch):
    """Every shipped game, played by its heuristic: the same log whether
    answers are kept from one decision to the next or not."""
    logs = []
    for keep in (True, False):
        if not keep:
            monkeypatch.setattr(pass_kept, "plan", lambda texts, memoized, names: (set(), set()))
        game = rulekit.load_game(path)
        for seed in range(2):
            m = game.new_match(game.max_players, seed=seed)
            m.play(make_agents("heuristic", m.n, seed))
            logs.append(m.log_json())
    assert logs[:2] == logs[2:]
