"""The identity-mode module's own mechanisms (games/modules/identity/), each
set up in 三国杀 (which includes the module) or in a variant of it written
beside it: 翻面, the five damage timings, losing life, 拼点."""
from __future__ import annotations

import pytest
from sanguosha_kit import SGS_FILE, act, cards_in, hp, table, use

import rulekit

DECK = ["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6", "闪 ♦7", "闪 ♦8", "闪 ♦9", "闪 ♦10"]


def notes(m: rulekit.Match) -> list[str]:
    return [e["text"] for e in m.events() if e.get("event") == "note"]


def test_a_face_down_hero_turns_face_up_and_its_turn_is_skipped():
    """翻面: when the turn of a face-down hero is about to begin, it is turned
    face up and the player skips that turn; the next player plays."""
    m = table(5, phase="finish", current=0, deck=DECK, player_vars={1: {"face_down": True}})
    while m.decision is not None and m.current == 0:
        act(m, "pass") if any(a.option == "pass" for a in m.legal_actions()) else act(m, "no")
    assert m.current == 2 and m.pvars[1]["face_down"] is False
    assert "the hero is turned face up; the turn is skipped" in notes(m)
    assert cards_in(m, "hand", 1) == []              # player 1 drew nothing: no turn


VARIANT = """\
extends: sanguosha
name: 三国杀, with the damage timings written in the log and a 拼点 skill
triggers:
  - {on: causing_damage, effect: 'log "造成伤害时"'}
  - {on: taking_damage, effect: 'log "受到伤害时"'}
  - {on: dealt_damage, effect: 'log "造成伤害后"'}
  - {on: damaged, effect: 'log "受到伤害后"'}
  - {on: lost_life, effect: 'log "失去体力"'}
skills:
  比试:
    text: 出牌阶段，你可以与一名有手牌的其他角色拼点：若你赢，你摸两张牌。
    kind: active
    options:
      play:
        when: has(current, "比试") and any(hand(current)) and any(players where it != current and any(hand(it)))
        effect: |
          choose pick_player(current, "比试", players where it != current and any(hand(it)))
          let w = call pindian(current, pick_player.player)
          if w == current:
            call draw(current, 2)
override:
  tables:
    harmful: {杀: 1}
"""


@pytest.fixture(scope="module")
def variant() -> rulekit.Game:
    return rulekit.load_game_text(VARIANT, str(SGS_FILE.parent / "sanguosha+timings.yaml"))


def test_the_damage_timings_come_in_the_rulebook_order(variant):
    """造成伤害时, 受到伤害时, then the life is reduced, then 造成伤害后, 受到伤害后."""
    m = table(5, rules=variant, generals={0: "刘备", 1: "关羽"}, hands={0: ["杀 ♠7"]}, hp={1: 3})
    use(m, "杀 ♠7", 1)
    assert hp(m, 1) == 2
    assert notes(m) == ["造成伤害时", "受到伤害时", "造成伤害后", "受到伤害后"]


def test_losing_life_is_not_damage(variant):
    """失去体力 has no source: no damage timing happens, only the loss."""
    m = table(5, rules=variant, generals={0: "黄盖"}, deck=DECK)
    act(m, "苦肉")
    assert hp(m, 0) == 3 and notes(m) == ["失去体力"]


def test_pindian_the_higher_number_wins_and_the_cards_are_discarded(variant):
    m = table(5, rules=variant, generals={0: "曹操"}, hands={0: ["杀 ♦K"], 1: ["闪 ♦2"]}, deck=DECK,
              player_vars={0: {"skills": ["比试"]}})
    act(m, "比试")
    act(m, "player", player=1)
    act(m, "card", ["杀 ♦K"])
    # the other player chooses without seeing the first card: it lies face down
    view = m.view(1)
    assert m.decision.player == 1 and "杀 ♦K" not in str(view["zones"])
    act(m, "card", ["闪 ♦2"])
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦3", "闪 ♦4"]          # the winner drew 2
    assert {"杀 ♦K", "闪 ♦2"} <= set(cards_in(m, "discard"))


def test_pindian_a_tie_wins_for_nobody(variant):
    m = table(5, rules=variant, generals={0: "曹操"}, hands={0: ["杀 ♠7"], 1: ["闪 ♦7"]}, deck=DECK[:3],
              player_vars={0: {"skills": ["比试"]}})
    act(m, "比试")
    act(m, "player", player=1)
    act(m, "card", ["杀 ♠7"])
    act(m, "card", ["闪 ♦7"])
    assert cards_in(m, "hand", 0) == [] and m.decision.choice == "play"
