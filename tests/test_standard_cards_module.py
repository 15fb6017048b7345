"""The standard cards module (games/modules/standard_cards.yaml) in a game
that names its cards otherwise.

三国杀 includes the module with its own names; this small game includes it
with the names of 武林杀's cards (杀, 闪, 包子, 论剑, 金刚护体, 拆招, 妙手空空...,
the weapons 峨眉刺, 倚天剑... and the armour 金丝甲, 软猬甲) and counts life in
a player variable of its own (neili), to show that the module's rules hold
under any names: the attack answered and not, the duel, the dismantle and the
steal, the chain of cancelling, the equipment abilities named and described
as the game names them.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import rulekit
from rulekit.testing import prepare, smoke

GAMES = Path(__file__).resolve().parents[1] / "games"

#: kind -> (type, slot or None, range or None)
KINDS = {
    "杀": ("basic", None, None), "闪": ("basic", None, None), "包子": ("basic", None, None),
    "论剑": ("trick", None, None), "金刚护体": ("trick", None, None), "拆招": ("trick", None, None),
    "妙手空空": ("trick", None, None), "闭关修炼": ("trick", None, None), "狮子吼": ("trick", None, None),
    "暴雨梨花": ("trick", None, None), "武林大会": ("trick", None, None), "群英宴": ("trick", None, None),
    "移花接木": ("trick", None, None), "点穴": ("delayed", None, None), "走火入魔": ("delayed", None, None),
    "峨眉刺": ("equip", "weapon", 1), "倚天剑": ("equip", "weapon", 2), "玄铁重剑": ("equip", "weapon", 2),
    "鸳鸯刀": ("equip", "weapon", 2), "打狗棒": ("equip", "weapon", 3), "九节鞭": ("equip", "weapon", 3),
    "屠龙刀": ("equip", "weapon", 3), "霸王枪": ("equip", "weapon", 4), "射雕弓": ("equip", "weapon", 5),
    "金丝甲": ("equip", "armor", None), "软猬甲": ("equip", "armor", None),
    "梯云纵": ("equip", "plus_horse", None), "神行百变": ("equip", "minus_horse", None),
}
SUITS = {"♠": "black", "♥": "red", "♣": "black", "♦": "red"}


#: the cards of the game: every kind at least once, as "<kind> <suit><number>"
DECK = ["杀 ♠2", "杀 ♥2", "闪 ♥3", "闪 ♦2", "包子 ♥3", "包子 ♥4", "论剑 ♠3", "金刚护体 ♠6",
        "金刚护体 ♥6", "拆招 ♠4", "拆招 ♣4", "妙手空空 ♠5", "闭关修炼 ♥7", "狮子吼 ♠7", "暴雨梨花 ♥1",
        "武林大会 ♥1", "群英宴 ♥3", "移花接木 ♣12", "点穴 ♠6", "走火入魔 ♠1", "峨眉刺 ♠2", "倚天剑 ♠3",
        "玄铁重剑 ♠2", "鸳鸯刀 ♠5", "打狗棒 ♠5", "九节鞭 ♠7", "屠龙刀 ♦5", "霸王枪 ♦12", "射雕弓 ♥5",
        "金丝甲 ♠9", "软猬甲 ♣9", "梯云纵 ♠5", "神行百变 ♥5"]


def _card(name: str) -> str:
    kind, rest = name.split()
    suit, number = rest[0], int(rest[1:])
    ctype, slot, reach = KINDS[kind]
    props = f"kind: {kind}, type: {ctype}, suit: \"{suit}\", number: {number}, color: {SUITS[suit]}"
    props += f", slot: {slot}" if slot else ""
    props += f", range: {reach}" if reach else ""
    return f'  - {{name: "{name}", props: {{{props}}}}}'


CARDS = "\n".join(map(_card, DECK))

GAME = f"""\
name: 武林 (the standard cards under other names)
players: {{min: 4, max: 6}}
include:
  - file: modules/identity.yaml
    with: {{lord_role: 盟主, loyal_role: 护法, rebel_role: 反贼, renegade_role: 内奸,
           attack_kind: 杀, dodge_kind: 闪, save_kinds: [包子], cancel_kind: 金刚护体,
           health: neili, max_health: max_neili}}
  - file: modules/standard_cards.yaml
    with: {{attack_kind: 杀, dodge_kind: 闪, heal_kind: 包子, cancel_kind: 金刚护体, duel_kind: 论剑,
           dismantle_kind: 拆招, steal_kind: 妙手空空, draw_kind: 闭关修炼, all_attack_kind: 狮子吼,
           all_dodge_kind: 暴雨梨花, all_heal_kind: 武林大会, harvest_kind: 群英宴, borrow_kind: 移花接木,
           delayed_other_kind: 点穴, delayed_self_kind: 走火入魔,
           rapid_weapon: 峨眉刺, piercing_weapon: 倚天剑, disarming_weapon: 玄铁重剑, paired_weapon: 鸳鸯刀,
           pursuing_weapon: 打狗棒, two_card_weapon: 九节鞭, crushing_weapon: 屠龙刀, sweeping_weapon: 霸王枪,
           unhorsing_weapon: 射雕弓, judging_armor: 金丝甲, warding_armor: 软猬甲}}
names:
  skill: {{section: skills}}
  kind: {{card_props: kind}}
  skill_or_kind: {{union: [skill, kind]}}
  hero: {{card_names: {{type: hero}}}}
cards:
{CARDS}
  - {{name: 少侠, props: {{type: hero, gender: male, hp: 4, skills: [], lord_skills: []}}}}
  - {{name: 女侠, props: {{type: hero, gender: female, hp: 4, skills: [], lord_skills: []}}}}
tables:
  slot: {{峨眉刺: weapon, 倚天剑: weapon, 玄铁重剑: weapon, 鸳鸯刀: weapon, 打狗棒: weapon, 九节鞭: weapon,
         屠龙刀: weapon, 霸王枪: weapon, 射雕弓: weapon, 金丝甲: armor, 软猬甲: armor,
         梯云纵: plus_horse, 神行百变: minus_horse}}
  card_text:
    峨眉刺: 锁定技,出牌阶段,你使用【杀】无次数限制。
    倚天剑: 锁定技,你使用的【杀】无视目标角色的护具。
    玄铁重剑: 当你使用【杀】对目标角色造成伤害时,若其有牌,你可以防止此伤害,改为依次弃置其两张牌。
    鸳鸯刀: 当你使用【杀】指定一名异性角色为目标后,你可以令其选择一项:弃置一张手牌,或令你摸一张牌。
    打狗棒: 当你使用的【杀】被【闪】抵消后,你可以对相同的目标再使用一张【杀】。
    九节鞭: 你可以将两张手牌当【杀】使用或打出。
    屠龙刀: 当你使用的【杀】被【闪】抵消后,你可以弃置两张牌,令此【杀】依然对目标角色造成伤害。
    霸王枪: 当你使用【杀】时,若此【杀】是你最后的手牌,你可以额外选择至多两个目标。
    射雕弓: 当你使用【杀】对目标角色造成伤害时,你可以弃置其装备区里的一张轻功牌。
    金丝甲: 当你需要使用或打出一张【闪】时,你可以进行判定:若结果为红色,视为你使用或打出了一张【闪】。
    软猬甲: 锁定技,黑色【杀】对你无效。
  # what the identity module's heuristic agent reads
  use_value: {{包子: 9, 闭关修炼: 8, 杀: 5, 妙手空空: 5, 点穴: 5, 拆招: 4, 论剑: 4}}
  play_kind: {{杀: target, 论剑: target, 拆招: target, 妙手空空: target, 点穴: target, 移花接木: target,
              狮子吼: all_others, 暴雨梨花: all_others, 武林大会: all_heal}}
  converts: {{九节鞭: 杀}}
  delayed_suits:      {{点穴: "♠♣♦", 走火入魔: "♠"}}
  delayed_low:        {{点穴: 1, 走火入魔: 2}}
  delayed_high:       {{点穴: 13, 走火入魔: 9}}
  delayed_damage:     {{点穴: 0, 走火入魔: 0}}
  delayed_loss:       {{点穴: 0, 走火入魔: 3}}
  delayed_skips_play: {{点穴: true, 走火入魔: false}}
  delayed_moves_on:   {{点穴: false, 走火入魔: true}}
procedures:
  gender:
    params: [p]
    effect: |
      let g = top(general(p))
      return none if g == none else g.gender
setup: |
  move box where it.type != "hero" to deck
  shuffle deck
  call deal_identities
  for p in players:
    p.max_neili = 4
    p.neili = 4
  for p in players:
    call draw(p, 4)
"""


@pytest.fixture(scope="module")
def game() -> rulekit.Game:
    return rulekit.load_game_text(GAME, str(GAMES / "wulin_standard_cards.yaml"))


def table(game, *, hands=None, equips=None, judging=None, deck=(), neili=None, heroes=None,
          current=0, phase="play"):
    """Four players at ``phase`` of ``current``'s turn, seat 0 the lord;
    ``hands`` / ``equips`` / ``judging``: seat -> card names; ``deck``: top
    first; ``heroes``: seat -> hero (少侠 is male, 女侠 female)."""
    zones = {f"hand({p})": list(cards) for p, cards in (hands or {}).items()}
    zones.update({f"general({p})": [name] for p, name in (heroes or {}).items()})
    for p, cards in (equips or {}).items():
        for name in cards:
            zones[f"{game.tables['slot'][name.split()[0]]}({p})"] = [name]
    for p, cards in (judging or {}).items():
        zones[f"judging({p})"] = list(cards)
    zones["deck"] = list(deck)
    roles = ["盟主", "护法", "反贼", "内奸"]
    pv = {p: {"role": roles[p], "role_shown": p == 0, "neili": (neili or {}).get(p, 4), "max_neili": 4}
          for p in range(4)}
    return prepare(game, 4, zones=zones, player_vars=pv, current=current, phase=phase, auto_pass=True)


def act(m, option, cards=(), player=None, seat=None):
    """Answer the pending decision (asked of ``seat``, when given) by option
    name, card names and the player it picks."""
    assert seat is None or m.decision.player == seat, (m.decision.choice, m.decision.player)
    want = Counter([cards] if isinstance(cards, str) else cards)
    for a in m.legal_actions():
        if a.option == option and (player is None or a.player == player) and \
                (not want or Counter(m.card(i).name for i in a.cards) == want):
            m.apply(a)
            return
    raise AssertionError(f"{option} {cards} {player} is not legal at {m.decision.choice}: "
                         f"{[m.describe_action(a) for a in m.legal_actions()]}")


def neili(m, p):
    return m.pvars[p]["neili"]


def cards_in(m, zone, p=None):
    return sorted(c.name for c in m.zone(zone, p).cards)


# ---- the module under the game's names ------------------------------------------------------

def test_the_abilities_are_the_games_skills_with_the_games_texts(game):
    assert list(game.skills) == ["峨眉刺", "倚天剑", "玄铁重剑", "鸳鸯刀", "打狗棒", "九节鞭", "屠龙刀",
                                 "霸王枪", "射雕弓", "金丝甲", "软猬甲"]
    assert game.skills["软猬甲"].text == "锁定技,黑色【杀】对你无效。"
    assert game.skills["九节鞭"].options == (("play", "九节鞭"), ("respond", "九节鞭"))
    assert game.skills["霸王枪"].procedures == ("sweep",)
    assert "neili" in game.player_vars and "hp" not in game.player_vars


def test_the_game_under_other_names_plays_cleanly(game):
    """Uniform random games: no card lost, no choice left without an answer,
    every game replayed alike."""
    assert smoke(game, games=10, players=[4, 5]) == []


# ---- 杀 and 闪 --------------------------------------------------------------------------------

def test_an_attack_not_answered_deals_1(game):
    m = table(game, hands={0: ["杀 ♠2"], 1: ["包子 ♥3"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)                       # seat 1 holds no 闪: not asked
    assert neili(m, 1) == 3 and cards_in(m, "discard") == ["杀 ♠2"]


def test_an_attack_answered_with_a_dodge_deals_nothing(game):
    m = table(game, hands={0: ["杀 ♠2"], 1: ["闪 ♥3"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    act(m, "card", "闪 ♥3", seat=1)
    assert neili(m, 1) == 4 and cards_in(m, "discard") == ["杀 ♠2", "闪 ♥3"]


def test_one_attack_a_phase_unless_the_rapid_weapon(game):
    m = table(game, hands={0: ["杀 ♠2", "杀 ♥2"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    assert not any(a.option == "use" for a in m.legal_actions())       # 杀 ♥2 is not usable now
    m = table(game, hands={0: ["杀 ♠2", "杀 ♥2"]}, equips={0: ["峨眉刺 ♠2"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    act(m, "use", "杀 ♥2")                                             # 峨眉刺: no limit


def test_the_warding_armor_voids_a_black_attack_and_says_so_in_the_games_words(game):
    m = table(game, hands={0: ["杀 ♠2"]}, equips={1: ["软猬甲 ♣9"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    assert neili(m, 1) == 4
    assert [e["text"] for e in m.events() if e["event"] == "note"] == ["软猬甲: a black 杀 has no effect"]
    m = table(game, hands={0: ["杀 ♠2"]}, equips={0: ["倚天剑 ♠3"], 1: ["软猬甲 ♣9"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    assert neili(m, 1) == 3                          # 倚天剑 ignores the armour


# ---- 论剑 ------------------------------------------------------------------------------------

def test_the_duel_the_first_without_an_attack_takes_1(game):
    m = table(game, hands={0: ["论剑 ♠3", "杀 ♠2"], 1: ["杀 ♥2"]})
    act(m, "use", "论剑 ♠3")
    act(m, "player", player=1)
    act(m, "card", "杀 ♥2", seat=1)                  # the target plays first
    act(m, "card", "杀 ♠2", seat=0)                  # seat 1 has no more 杀: not asked
    assert (neili(m, 0), neili(m, 1)) == (4, 3) and m.decision.choice == "play"


# ---- 拆招, 妙手空空 and the cancel chain -------------------------------------------------------

def test_the_dismantle_discards_a_card_of_the_target(game):
    m = table(game, hands={0: ["拆招 ♠4"]}, equips={2: ["金丝甲 ♠9"]})
    act(m, "use", "拆招 ♠4")
    act(m, "player", player=2)
    act(m, "card", "金丝甲 ♠9")
    assert cards_in(m, "armor", 2) == [] and cards_in(m, "discard") == ["拆招 ♠4", "金丝甲 ♠9"]


def test_the_steal_reaches_distance_1_only_and_takes_the_card(game):
    m = table(game, hands={0: ["妙手空空 ♠5"], 1: ["闪 ♥3"], 2: ["闪 ♦2"], 3: ["包子 ♥4"]})
    act(m, "use", "妙手空空 ♠5")
    assert {a.player for a in m.legal_actions()} == {1, 3}              # seat 2 is at distance 2
    act(m, "player", player=1)
    act(m, "hand")
    assert cards_in(m, "hand", 0) == ["闪 ♥3"]


def test_a_cancel_stops_the_trick_and_a_cancel_of_the_cancel_lets_it_through(game):
    hands = {0: ["拆招 ♠4", "金刚护体 ♥6"], 1: ["闪 ♥3"], 2: ["金刚护体 ♠6"]}
    m = table(game, hands=hands)
    act(m, "use", "拆招 ♠4")
    act(m, "player", player=1)
    act(m, "pass", seat=0)                           # seat by seat from the current player
    act(m, "card", "金刚护体 ♠6", seat=2)             # cancels the dismantle...
    act(m, "card", "金刚护体 ♥6", seat=0)             # ...and seat 0 cancels the cancel
    assert m.decision.choice == "take_card"           # so the dismantle takes effect
    act(m, "hand")
    assert cards_in(m, "hand", 1) == []
    m = table(game, hands=hands)
    act(m, "use", "拆招 ♠4")
    act(m, "player", player=1)
    act(m, "pass", seat=0)
    act(m, "card", "金刚护体 ♠6", seat=2)
    act(m, "pass", seat=0)                            # nobody cancels the cancel
    assert cards_in(m, "hand", 1) == ["闪 ♥3"] and m.decision.choice == "play"


# ---- equipment abilities ------------------------------------------------------------------

def test_the_two_card_weapon_uses_two_hand_cards_as_an_attack(game):
    m = table(game, hands={0: ["闪 ♥3", "包子 ♥4"]}, equips={0: ["九节鞭 ♠7"]})
    act(m, "九节鞭", ["闪 ♥3", "包子 ♥4"])
    act(m, "player", player=1)
    assert neili(m, 1) == 3 and sorted(cards_in(m, "discard")) == ["包子 ♥4", "闪 ♥3"]


def test_the_judging_armor_answers_on_red(game):
    m = table(game, hands={0: ["杀 ♠2"]}, equips={1: ["金丝甲 ♠9"]}, deck=["包子 ♥4"])
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    act(m, "yes")                                     # 金丝甲: judge 包子 ♥4, red
    assert neili(m, 1) == 4 and m.decision.choice == "play"


def test_the_paired_weapon_asks_a_player_of_the_other_gender(game):
    m = table(game, hands={0: ["杀 ♠2"], 1: ["闪 ♥3"]}, equips={0: ["鸳鸯刀 ♠5"]},
              heroes={0: "少侠", 1: "女侠"}, deck=["拆招 ♣4"])
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    act(m, "yes")
    assert m.decision.choice == "swords" and m.decision.player == 1
    assert "鸳鸯刀" in m.decision.prompt
    act(m, "let_draw")
    assert cards_in(m, "hand", 0) == ["拆招 ♣4"]


# ---- hooks ------------------------------------------------------------------------------------

def test_a_game_overrides_a_hook_to_change_the_cards(game):
    """answers_needed is a hook: a game whose skill asks for two dodges
    overrides it (三国杀's 无双 does), here for every attack of seat 0."""
    twice = rulekit.load_game_text(GAME + """\
override:
  procedures:
    answers_needed:
      params: [p, {name: kind, one_of: kind}]
      effect: return 2 if p == 0 else 1
""", str(GAMES / "wulin_standard_cards.yaml"))
    m = table(twice, hands={0: ["杀 ♠2"], 1: ["闪 ♥3", "闪 ♦2"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    act(m, "card", "闪 ♥3", seat=1)
    act(m, "card", "闪 ♦2", seat=1)                  # a second 闪 is asked for
    assert neili(m, 1) == 4
    m = table(twice, hands={0: ["杀 ♠2"], 1: ["闪 ♥3"]})
    act(m, "use", "杀 ♠2")
    act(m, "player", player=1)
    act(m, "card", "闪 ♥3", seat=1)                  # one is not enough
    assert neili(m, 1) == 3
