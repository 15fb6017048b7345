"""三国杀 identity mode: the rulebook (seeds/003) — identities, generals, HP,
the turn, dying, death, rewards and penalties, the end of the game, distance,
无懈可击 chains and the delayed tricks — one scenario each."""
from __future__ import annotations

from collections import Counter

import pytest
from sanguosha_kit import act, cards_in, game, hp, table, use

import rulekit

# Identities from the rulebook's table: players -> (主公, 忠臣, 反贼, 内奸).
STANDARD = {4: (1, 1, 1, 1), 5: (1, 1, 2, 1), 6: (1, 1, 3, 1), 7: (1, 2, 3, 1),
            8: (1, 2, 4, 1), 9: (1, 3, 4, 1), 10: (1, 3, 4, 2)}
TWO_RENEGADES = {6: (1, 1, 2, 2), 8: (1, 2, 3, 2)}
LORDS = {"曹操", "刘备", "孙权"}



# ---- helpers -----------------------------------------------------------------
def new(n: int, seed: int = 0, **options) -> rulekit.Match:
    return game().new_match(n, seed=seed, options=options or None)


def role_counts(m) -> tuple[int, int, int, int]:
    c = Counter(m.pvars[p]["role"] for p in range(m.n))
    return c["主公"], c["忠臣"], c["反贼"], c["内奸"]


def lord_of(m) -> int:
    return next(p for p in range(m.n) if m.pvars[p]["role"] == "主公")


def seed_with_lord_not_at(n: int, seat: int = 0, **options) -> rulekit.Match:
    for s in range(100):
        m = new(n, s, **options)
        if lord_of(m) != seat:
            return m
    raise AssertionError("no seed puts the lord elsewhere")


def choose_all_generals(m, pick=lambda m: m.legal_actions()[0]):
    """Answer every pick_general decision (the first offered general by default)."""
    while m.decision is not None and m.decision.choice == "pick_general":
        m.apply(pick(m))


def slash_targets(m) -> set[int]:
    """Who the current player could use the 杀 in hand on (answers the play choice and backs out)."""
    probe = m.clone()
    act(probe, "use", [c for c in cards_in(probe, "hand", probe.current) if c.startswith("杀")][:1])
    assert probe.decision.choice == "target"
    return {a.player for a in probe.legal_actions()}


def askers(m, choice: str, answer) -> list[int]:
    """Answer ``choice`` decisions with ``answer(m)`` while they come; who was asked, in order."""
    who = []
    while m.decision is not None and m.decision.choice == choice:
        who.append(m.decision.player)
        answer(m)
    return who


def kill(m, killer: int, victim: int, slash: str = "杀 ♠7"):
    """``killer`` (the current player, in the play phase) uses 杀 on ``victim`` at 1 HP; nobody saves."""
    use(m, slash, target=victim)
    while m.decision is not None and m.decision.choice in ("respond", "peach"):
        act(m, "pass")


def end_result(m):
    r = m.result()
    assert r is not None, f"not over: {m.decision and (m.decision.player, m.decision.choice)}"
    return sorted(r["winners"]), m.vars["winner"]


# ---- identities ------------------------------------------------------------------
@pytest.mark.parametrize("n", sorted(STANDARD))
def test_identities_dealt_per_player_count(n):
    """决定身份: as many identity cards as players, from the rulebook's table."""
    for s in range(5):
        assert role_counts(new(n, s)) == STANDARD[n]


@pytest.mark.parametrize("n", sorted(TWO_RENEGADES))
def test_two_renegades_option(n):
    """决定身份: 6 players may play 1/1/2/2 and 8 players 1/2/3/2 (two 内奸)."""
    for s in range(5):
        assert role_counts(new(n, s, roles="two_renegades")) == TWO_RENEGADES[n]


@pytest.mark.parametrize("n", [4, 5, 7, 9, 10])
def test_two_renegades_option_changes_only_six_and_eight(n):
    """The 1-1-2-2 / 1-2-3-2 rows exist only for 6 and 8 players: other counts deal the usual table."""
    assert role_counts(new(n, 1, roles="two_renegades")) == STANDARD[n]


def test_identities_are_dealt_at_random():
    """随机分给每个玩家一张身份牌: the lord is not always the same seat."""
    assert len({lord_of(new(5, s)) for s in range(20)}) > 1


def test_lord_identity_revealed_others_hidden():
    """抽到主公身份的玩家需立即亮出身份; the others keep theirs hidden."""
    m = new(6, 3, generals=False)
    lord = lord_of(m)
    for p in range(6):
        assert m.pvars[p]["role_shown"] == (p == lord)


def test_lord_starts():
    """进行游戏时,由主公开始: the lord plays the first turn."""
    m = seed_with_lord_not_at(5, 0, generals=False)
    lord = lord_of(m)
    turns = [e["player"] for e in m.events() if e["event"] == "turn"]
    assert turns == [lord]
    assert m.current == lord and m.decision.player == lord


def test_others_identities_hidden_in_views():
    """Others' identities stay hidden: a view shows one's own role and the lord's, no one else's."""
    m = new(5, 2, generals=False)
    lord = lord_of(m)
    for viewer in range(5):
        pv = m.view(viewer)["player_vars"]
        for p in range(5):
            if p == viewer or p == lord:
                assert pv[p]["role"] == m.pvars[p]["role"]
            else:
                assert "role" not in pv[p]


def test_dead_players_identity_visible_to_all():
    """武将死亡后…亮出身份牌: a dead player's identity is seen by everyone."""
    m = table(5, hands={0: ["杀 ♠7"]}, hp={2: 1}, equips={0: ["雌雄双股剑 ♠2"]},
              deck=["杀 ♣2", "杀 ♣3", "杀 ♣4"])
    assert "role" not in m.view(3)["player_vars"][2]
    kill(m, 0, 2)
    assert 2 not in m.players
    for viewer in (1, 3, 4, None):
        assert m.view(viewer)["player_vars"][2]["role"] == "反贼"


# ---- generals ----------------------------------------------------------------------
def test_lord_offered_three_lords_and_two_more():
    """挑选武将: the lord gets 曹操, 刘备, 孙权 and 2 other random generals, and chooses first."""
    m = seed_with_lord_not_at(5, 0)
    lord = lord_of(m)
    d = m.decision
    assert (d.player, d.choice) == (lord, "pick_general")
    names = [m.card(a.cards[0]).name for a in m.legal_actions()]
    assert len(names) == 5 and LORDS <= set(names)


def test_lord_general_shown_at_once():
    """由主公玩家挑选一个武将扮演,并将选好的武将牌展示给其他玩家."""
    m = new(5, 1)
    lord = lord_of(m)
    act(m, "general", "刘备")
    other = (lord + 1) % 5
    assert m.view(other)["zones"][f"general({lord})"]["cards"] == ["刘备"]


@pytest.mark.parametrize("n,k", [(5, 3), (8, 3), (9, 3), (10, 2)])
def test_others_offered_three_generals(n, k):
    """随机发给其余每位玩家各3张(10人游戏时每人发2张), none the lord's general."""
    m = new(n, 4)
    lord = lord_of(m)
    act(m, "general", "孙权")
    offered = []
    while m.decision is not None and m.decision.choice == "pick_general":
        names = [m.card(a.cards[0]).name for a in m.legal_actions()]
        assert len(names) == k and "孙权" not in names
        offered += names
        m.apply(m.legal_actions()[0])
    assert len(offered) == len(set(offered)) == k * (n - 1)
    assert m.decision.player == lord


def test_picked_generals_face_down_until_all_chose():
    """每人从3张牌里挑选一张扣在自己面前,待所有玩家都挑选好后同时亮出."""
    m = new(5, 1)
    lord = lord_of(m)
    m.apply(m.legal_actions()[0])
    first = m.decision.player
    name = m.card(m.legal_actions()[0].cards[0]).name
    m.apply(m.legal_actions()[0])
    other = next(p for p in range(5) if p not in (first, lord))
    assert m.view(first)["zones"][f"picked({first})"]["cards"] == [name]
    assert "cards" not in m.view(other)["zones"][f"picked({first})"]
    assert m.view(other)["zones"][f"picked({first})"]["count"] == 1
    assert cards_in(m, "general", first) == []
    choose_all_generals(m)
    assert cards_in(m, "general", first) == [name]
    assert m.view(other)["zones"][f"general({first})"]["cards"] == [name]
    assert all(len(cards_in(m, "general", p)) == 1 for p in range(5))


def test_hp_from_general_plus_one_for_lord():
    """体力上限 from the general; 主公在其体力上限的基础上再增加一点."""
    m = new(5, 1)
    lord = lord_of(m)
    choose_all_generals(m)
    for p in range(5):
        g = game().cards[m.zone("general", p).cards[0].id]
        base = g.props["hp"]
        want = base + 1 if p == lord else base
        assert (m.pvars[p]["max_hp"], m.pvars[p]["hp"]) == (want, want)


def test_four_player_lord_gets_no_extra_hp():
    """四人游戏时不再额外增加: the lord's HP is the general's with 4 players."""
    m = new(4, 1)
    lord = lord_of(m)
    act(m, "general", "刘备")
    choose_all_generals(m)
    assert (m.pvars[lord]["max_hp"], m.pvars[lord]["hp"]) == (4, 4)


@pytest.mark.parametrize("n,lord_hp", [(4, 4), (5, 5), (8, 5)])
def test_no_generals_four_hp_lord_five(n, lord_hp):
    """Without generals everyone has 4 HP; the lord 5 with more than 4 players."""
    m = new(n, 2, generals=False)
    lord = lord_of(m)
    for p in range(n):
        want = lord_hp if p == lord else 4
        assert (m.pvars[p]["max_hp"], m.pvars[p]["hp"]) == (want, want)


def test_no_generals_means_no_general_and_no_choice():
    """generals: false — nobody chooses a general; the lord's turn begins at once."""
    m = new(5, 2, generals=False)
    assert all(cards_in(m, "general", p) == [] for p in range(5))
    assert m.decision.choice == "play"
    assert {a.option for a in m.legal_actions()} <= {"use", "end"}     # no skill offered


@pytest.mark.parametrize("n", [4, 7, 10])
def test_four_starting_cards_each(n):
    """随机分给每个玩家4张,此为起始手牌; then the lord's first turn draws 2."""
    m = new(n, 5, generals=False)
    lord = lord_of(m)
    for p in range(n):
        assert len(cards_in(m, "hand", p)) == (6 if p == lord else 4)
    assert len(cards_in(m, "deck")) == 108 - 4 * n - 2


def test_deck_without_ex_cards_has_104():
    """ex_cards: false plays the 104 standard cards."""
    m = new(4, 0, generals=False, ex_cards=False)
    held = sum(len(cards_in(m, "hand", p)) for p in range(4))
    assert held + len(cards_in(m, "deck")) == 104


# ---- the turn ------------------------------------------------------------------------
def test_six_phases_in_order():
    """回合开始, 判定, 摸牌, 出牌, 弃牌, 回合结束 — in this order."""
    assert [ph.name for ph in game().phases] == ["start", "judge", "draw", "play", "discard", "finish"]


def test_turn_runs_through_the_phases():
    """A turn: start (观星), judge (乐不思蜀, 无懈可击 asked), draw 2, play, discard, then the next turn."""
    m = table(5, generals={0: "诸葛亮"}, phase="start", judging={0: ["乐不思蜀 ♠6"]},
              hands={0: ["杀 ♠7", "杀 ♠8", "杀 ♠9"], 2: ["无懈可击 ♠J"]}, hp={0: 3},
              deck=["闪 ♥2", "桃 ♥3", "杀 ♣2", "杀 ♣3", "杀 ♣4", "杀 ♣5"])
    seen = []
    assert (m.phase, m.decision.args) == ("start", (0, "观星"))
    act(m, "no")
    assert (m.phase, m.decision.choice, m.decision.player) == ("judge", "nullify", 2)
    act(m, "pass")
    assert m.phase == "play"
    assert sorted(cards_in(m, "hand", 0)) == sorted(["杀 ♠7", "杀 ♠8", "杀 ♠9", "桃 ♥3", "杀 ♣2"])
    act(m, "end")
    while m.decision.choice == "discard_one":
        seen.append(m.phase)
        m.apply(m.legal_actions()[0])
    assert seen == ["discard", "discard"]
    assert m.current == 1 and m.phase == "play"


def test_finish_phase_after_discard():
    """回合结束阶段 comes after the discard phase (闭月 is asked there)."""
    m = table(5, generals={0: "貂蝉"}, hands={0: ["杀 ♠7", "杀 ♠8"]}, hp={0: 1},
              deck=["闪 ♦2", "杀 ♣2", "杀 ♣3"])
    act(m, "end")
    assert (m.phase, m.decision.choice) == ("discard", "discard_one")
    act(m, "card", "杀 ♠7")
    assert (m.phase, m.decision.args) == ("finish", (0, "闭月"))
    act(m, "yes")
    assert sorted(cards_in(m, "hand", 0)) == ["杀 ♠8", "闪 ♦2"]
    assert m.current == 1


def test_draw_phase_draws_two_from_the_top():
    """摸牌阶段: 你从牌堆顶摸两张牌."""
    m = table(5, phase="draw", hands={0: ["杀 ♠7"]}, deck=["闪 ♦2", "桃 ♥3", "杀 ♣2"])
    assert m.phase == "play"
    assert sorted(cards_in(m, "hand", 0)) == sorted(["杀 ♠7", "闪 ♦2", "桃 ♥3"])
    assert cards_in(m, "deck") == ["杀 ♣2"]


def test_discard_down_to_current_hp_one_at_a_time():
    """弃牌阶段: the hand limit is the current HP; each card over it is discarded, one at a time."""
    hand = ["杀 ♠7", "杀 ♠8", "杀 ♠9", "闪 ♦2", "闪 ♦3"]
    m = table(5, hands={0: hand}, hp={0: 2}, max_hp={0: 4}, deck=["杀 ♣2", "杀 ♣3"])
    act(m, "end")
    for card in ["杀 ♠7", "杀 ♠8", "闪 ♦2"]:
        assert (m.decision.choice, m.decision.player) == ("discard_one", 0)
        assert len(m.legal_actions()) == len(cards_in(m, "hand", 0))
        act(m, "card", card)
    assert sorted(cards_in(m, "hand", 0)) == ["杀 ♠9", "闪 ♦3"]
    assert sorted(cards_in(m, "discard")) == sorted(["杀 ♠7", "杀 ♠8", "闪 ♦2"])
    assert m.current == 1


def test_no_discard_when_hand_within_hp():
    """Nothing is discarded when the hand does not exceed the current HP."""
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8", "杀 ♠9"]}, hp={0: 3}, deck=["杀 ♣2", "杀 ♣3"])
    act(m, "end")
    assert m.current == 1
    assert len(cards_in(m, "hand", 0)) == 3 and cards_in(m, "discard") == []


def test_deck_refilled_from_discard_pile_when_empty():
    """牌堆没牌时,立即将弃牌堆洗混后形成新的摸牌堆."""
    m = table(5, phase="draw", hands={0: []}, deck=["桃 ♥3"], discard=["杀 ♣2", "杀 ♣3", "杀 ♣4"])
    hand = cards_in(m, "hand", 0)
    assert len(hand) == 2 and "桃 ♥3" in hand
    assert cards_in(m, "discard") == []
    assert sorted(cards_in(m, "deck") + [c for c in hand if c != "桃 ♥3"]) == ["杀 ♣2", "杀 ♣3", "杀 ♣4"]


def test_a_deck_emptied_by_a_draw_is_refilled_when_a_card_is_next_needed():
    """Reading of 牌堆没牌时,立即将弃牌堆洗混: "当需要摸牌或将要对牌堆产生影响时"
    (when a card must be drawn or the deck is acted on) the empty deck is
    refilled; a draw that takes the last card leaves the discard pile where
    it is until then."""
    m = table(5, phase="draw", hands={0: ["杀 ♠7"]}, deck=["闪 ♦2", "闪 ♦3"], discard=["桃 ♥3"])
    assert m.phase == "play" and cards_in(m, "deck") == [] and cards_in(m, "discard") == ["桃 ♥3"]


def test_judgement_refills_an_empty_deck():
    """The refill also happens when a judgement needs the deck (乐不思蜀 with an empty deck)."""
    m = table(5, phase="judge", judging={0: ["乐不思蜀 ♠6"]}, discard=["桃 ♥3"])
    # the only card to judge by is the ♥ 桃 from the discard pile: the play phase is not skipped
    assert m.phase == "play" and m.current == 0
    # (both cards then went back into the deck and were drawn in the draw phase)
    assert sorted(cards_in(m, "hand", 0)) == ["乐不思蜀 ♠6", "桃 ♥3"]


# ---- dying -----------------------------------------------------------------------------
def test_dying_saved_by_a_third_players_peach():
    """濒死: every player from the current one is asked for 桃; a third player's 桃 saves."""
    m = table(5, hands={0: ["杀 ♠7"], 1: [], 2: ["桃 ♥3"], 3: ["桃 ♥4"]}, hp={1: 1})
    use(m, "杀 ♠7", target=1)
    assert (m.decision.choice, m.decision.player, m.decision.args) == ("peach", 2, (2, 1))
    act(m, "pass")
    assert (m.decision.choice, m.decision.player) == ("peach", 3)
    act(m, "card", "桃 ♥4")
    assert hp(m, 1) == 1 and 1 in m.players
    assert cards_in(m, "hand", 2) == ["桃 ♥3"]
    assert m.decision.choice == "play" and m.decision.player == 0


def test_dying_asks_from_the_current_player_in_seat_order():
    """The 桃 round starts at the current player (here the attacker) and goes round the table."""
    m = table(5, current=3, hands={3: ["杀 ♠7", "桃 ♥3"], 0: ["桃 ♥4"], 2: ["桃 ♥6"], 4: ["桃 ♥7"]},
              hp={2: 1})
    use(m, "杀 ♠7", target=2)
    assert askers(m, "peach", lambda m: act(m, "pass")) == [3, 4, 0, 2]
    assert 2 not in m.players


def test_dying_player_may_save_themselves():
    """除非自己或他人在此时用【桃】来挽救: the dying player's own 桃."""
    m = table(5, hands={0: ["杀 ♠7"], 1: ["桃 ♥3"]}, hp={1: 1})
    use(m, "杀 ♠7", target=1)
    assert m.decision.player == 1
    act(m, "card", "桃 ♥3")
    assert hp(m, 1) == 1 and 1 in m.players


def test_dying_asks_again_until_saved():
    """Each 桃 restores 1 HP; at -1 HP two are needed, the same player asked again."""
    m = table(5, phase="judge", current=1, judging={1: ["闪电 ♠A"]}, hp={1: 2},
              hands={2: ["桃 ♥3", "桃 ♥4"]}, deck=["绝影 ♠5", "杀 ♣2", "杀 ♣3"])
    assert hp(m, 1) == -1
    assert askers(m, "peach", lambda m: m.apply(m.legal_actions()[0])) == [2, 2]
    assert hp(m, 1) == 1 and cards_in(m, "hand", 2) == []


def test_dying_nobody_saves():
    """否则该武将死亡: nobody uses 桃, the player dies."""
    m = table(5, hands={0: ["杀 ♠7"], 3: ["桃 ♥3"]}, hp={1: 1})
    use(m, "杀 ♠7", target=1)
    assert askers(m, "peach", lambda m: act(m, "pass")) == [3]
    assert 1 not in m.players and m.out[1]
    assert m.pvars[1]["role_shown"]


# ---- death ------------------------------------------------------------------------------
def test_death_discards_every_card_of_the_dead():
    """弃置该武将所有牌及判定区里的牌: hand, equipment and judgement area go to the discard pile."""
    m = table(5, current=2, hands={2: ["杀 ♠7"], 1: ["闪 ♦2", "桃 ♥3"]}, hp={1: 1},
              equips={1: ["八卦阵 ♠2", "赤兔 ♥5", "的卢 ♣5", "青釭剑 ♠6"], 2: ["雌雄双股剑 ♠2"]},
              judging={1: ["乐不思蜀 ♠6", "闪电 ♠A"]})
    use(m, "杀 ♠7", target=1)
    act(m, "no")                       # 八卦阵
    act(m, "pass")                     # 闪
    act(m, "pass")                     # 桃
    assert 1 not in m.players
    for z in ("hand", "weapon", "armor", "plus_horse", "minus_horse", "judging"):
        assert cards_in(m, z, 1) == []
    assert sorted(cards_in(m, "discard")) == sorted(
        ["杀 ♠7", "闪 ♦2", "桃 ♥3", "八卦阵 ♠2", "赤兔 ♥5", "的卢 ♣5", "青釭剑 ♠6", "乐不思蜀 ♠6", "闪电 ♠A"])


def test_distance_shrinks_when_a_seat_leaves():
    """A dead player's seat leaves the circle: the players beside it are now 1 apart."""
    m = table(5, roles=["主公", "反贼", "忠臣", "反贼", "内奸"], hands={0: ["杀 ♠7", "杀 ♠8"]}, hp={1: 1},
              equips={0: ["诸葛连弩 ♣A"]}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"])
    assert slash_targets(m) == {1, 4}
    kill(m, 0, 1)
    assert 1 not in m.players
    assert slash_targets(m) == {2, 4}


def test_turns_skip_a_dead_seat():
    """After a death the turn passes over the dead player's seat."""
    m = table(5, hands={0: ["杀 ♠7"]}, hp={1: 1}, deck=["杀 ♣2", "杀 ♣3", "杀 ♣4", "杀 ♣5"])
    kill(m, 0, 1)
    act(m, "end")
    assert m.current == 2


def test_killing_a_rebel_draws_three():
    """任何人杀死一名反贼,立即摸三张牌."""
    m = table(5, hands={0: ["杀 ♠7"]}, hp={2: 1}, equips={0: ["雌雄双股剑 ♠2"]}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"])
    kill(m, 0, 2)
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦2", "闪 ♦3", "闪 ♦4"]
    assert cards_in(m, "deck") == ["闪 ♦5"]


def test_rebel_killing_a_rebel_draws_three():
    """即凶手也是反贼: a rebel who kills a rebel draws 3 too."""
    m = table(5, current=2, hands={2: ["杀 ♠7"]}, hp={3: 1}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"])
    kill(m, 2, 3)
    assert sorted(cards_in(m, "hand", 2)) == ["闪 ♦2", "闪 ♦3", "闪 ♦4"]


@pytest.mark.parametrize("victim", [1, 4])
def test_killing_a_loyalist_or_renegade_draws_nothing(victim):
    """Only a dead 反贼 rewards the killer."""
    m = table(5, current=3, hands={3: ["杀 ♠7"]}, hp={victim: 1}, equips={3: ["雌雄双股剑 ♠2"]},
              deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"])
    kill(m, 3, victim)
    assert victim not in m.players
    assert cards_in(m, "hand", 3) == [] and len(cards_in(m, "deck")) == 3


def test_rebel_killed_without_a_source_rewards_no_one():
    """A rebel killed by 闪电 (no damage source): nobody draws 3."""
    m = table(5, phase="judge", current=2, judging={2: ["闪电 ♠A"]}, hp={2: 3},
              deck=["绝影 ♠5", "闪 ♦2", "闪 ♦3", "闪 ♦4", "闪 ♦5"])
    assert 2 not in m.players
    assert sum(len(cards_in(m, "hand", p)) for p in m.players) == 2   # only player 3's draw phase


def test_lord_killing_a_loyalist_discards_hand_and_equipment():
    """若主公杀死了忠臣,主公需要立即弃掉所有手牌和已装备的牌 (not the judgement area)."""
    m = table(5, hands={0: ["杀 ♠7", "闪 ♦2", "桃 ♥3"]}, hp={1: 1},
              equips={0: ["青釭剑 ♠6", "赤兔 ♥5"]}, judging={0: ["闪电 ♠A"]})
    kill(m, 0, 1)
    assert cards_in(m, "hand", 0) == [] and cards_in(m, "weapon", 0) == [] and cards_in(m, "minus_horse", 0) == []
    assert cards_in(m, "judging", 0) == ["闪电 ♠A"]
    assert {"闪 ♦2", "桃 ♥3", "青釭剑 ♠6", "赤兔 ♥5"} <= set(cards_in(m, "discard"))


def test_other_killing_a_loyalist_keeps_cards():
    """The penalty is the lord's only: a rebel killing a loyalist keeps their cards."""
    m = table(5, current=2, hands={2: ["杀 ♠7", "闪 ♦2"]}, hp={1: 1}, equips={2: ["赤兔 ♥5"]})
    kill(m, 2, 1)
    assert cards_in(m, "hand", 2) == ["闪 ♦2"] and cards_in(m, "minus_horse", 2) == ["赤兔 ♥5"]


# ---- the end of the game ---------------------------------------------------------------------
def test_renegade_wins_when_last_standing():
    """主公被杀,有且仅有一名内奸存活: the 内奸 wins."""
    m = table(4, current=3, out=[1, 2], hands={3: ["杀 ♠7"]}, hp={0: 1})
    kill(m, 3, 0)
    assert end_result(m) == ([3], "内奸")


def test_rebels_win_when_lord_dies_dead_ones_too():
    """主公被杀 otherwise: 反贼获胜 (不论反贼角色死活)."""
    m = table(5, current=3, out=[2], hands={3: ["杀 ♠7"]}, hp={0: 1}, equips={3: ["雌雄双股剑 ♠2"]})
    kill(m, 3, 0)
    assert end_result(m) == ([2, 3], "反贼")


def test_rebels_win_when_renegade_kills_lord_with_others_alive():
    """A 内奸 who kills the lord while others live does not win: the 反贼 do."""
    m = table(5, current=4, hands={4: ["杀 ♠7"]}, hp={0: 1})
    kill(m, 4, 0)
    assert end_result(m) == ([2, 3], "反贼")


def test_rebels_win_when_lord_dies_with_only_renegade_and_loyalist():
    """Renegade alive but not alone (a 忠臣 lives): the 反贼 win, though all dead."""
    m = table(5, current=4, out=[2, 3], hands={4: ["杀 ♠7"]}, hp={0: 1})
    kill(m, 4, 0)
    assert end_result(m) == ([2, 3], "反贼")


def test_two_renegades_alive_lord_dies_rebels_win():
    """有且仅有一名内奸存活: with two 内奸 alive the lord's death is the 反贼's win."""
    roles = ["主公", "忠臣", "反贼", "反贼", "内奸", "内奸"]
    m = table(6, roles=roles, current=4, out=[1, 2, 3], hands={4: ["杀 ♠7"]}, hp={0: 1},
              equips={4: ["雌雄双股剑 ♠2"]})
    kill(m, 4, 0)
    assert end_result(m) == ([2, 3], "反贼")


def test_lord_and_loyalists_win_dead_ones_too():
    """所有的反贼和内奸都已死亡: 主公和忠臣(不论死活)都获胜."""
    m = table(5, out=[1, 2, 4], hands={0: ["杀 ♠7"]}, hp={3: 1}, equips={0: ["雌雄双股剑 ♠2"]})
    kill(m, 0, 3)
    assert end_result(m) == ([0, 1], "主公")


def test_loyalist_kills_last_renegade_lord_side_wins():
    """The last of the 反贼 and 内奸 killed by a 忠臣: the lord's side wins."""
    m = table(5, current=1, out=[2, 3], hands={1: ["杀 ♠7"]}, hp={4: 1}, equips={1: ["雌雄双股剑 ♠2"]})
    kill(m, 1, 4)
    assert end_result(m) == ([0, 1], "主公")


def test_not_over_while_a_renegade_lives():
    """Every 反贼 dead but the 内奸 alive: the game goes on."""
    m = table(5, out=[3], hands={0: ["杀 ♠7"]}, hp={2: 1}, equips={0: ["雌雄双股剑 ♠2"]}, deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"])
    kill(m, 0, 2)
    assert m.result() is None and m.vars["winner"] == "none"
    assert m.decision.choice == "play"
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦2", "闪 ♦3", "闪 ♦4"]   # the reward still comes


def test_game_ends_the_moment_it_is_won():
    """游戏立即结束: no more decisions, though the turn had more to do."""
    m = table(5, out=[1, 2, 4], hands={0: ["杀 ♠7", "杀 ♠8", "桃 ♥3"]}, hp={3: 1},
              deck=["闪 ♦2", "闪 ♦3", "闪 ♦4"])
    kill(m, 0, 3)
    assert m.decision is None and m.is_over()
    assert m.phase == "play"


def test_game_ends_mid_turn_on_lords_death_by_lightning():
    """The lord killed by 闪电 in his judge phase: the game ends before his draw phase."""
    m = table(5, phase="judge", judging={0: ["闪电 ♠A"]}, hp={0: 3}, deck=["杀 ♠9", "闪 ♦2", "闪 ♦3"])
    assert end_result(m) == ([2, 3], "反贼")
    assert cards_in(m, "hand", 0) == [] and cards_in(m, "deck") == ["闪 ♦2", "闪 ♦3"]


def test_current_player_dying_ends_their_turn():
    """When the current player dies (losing a 决斗), their turn ends; the next living player's starts."""
    m = table(5, current=2, hands={2: ["决斗 ♠A", "闪 ♦2", "闪 ♦3"], 3: ["杀 ♠7"]}, hp={2: 1},
              deck=["桃 ♥3", "桃 ♥4", "桃 ♥6", "杀 ♣2", "杀 ♣3"])
    use(m, "决斗 ♠A", target=3)
    act(m, "card", "杀 ♠7")            # 3 plays 杀; 2 has none and takes 1 damage
    assert 2 not in m.players
    # player 3 killed a rebel: draws 3, then plays their own turn (draws 2)
    assert m.current == 3 and m.phase == "play"
    assert sorted(cards_in(m, "hand", 3)) == sorted(["桃 ♥3", "桃 ♥4", "桃 ♥6", "杀 ♣2", "杀 ♣3"])
    assert cards_in(m, "hand", 2) == [] and cards_in(m, "processing") == []


def test_current_player_killed_by_lightning_skips_rest_of_turn():
    """闪电 kills the current player in the judge phase: no draw phase, next player's turn."""
    m = table(5, phase="judge", current=1, judging={1: ["闪电 ♠A"]}, hp={1: 3},
              deck=["八卦阵 ♠2", "闪 ♦2", "闪 ♦3", "闪 ♦4"])
    assert 1 not in m.players
    assert m.current == 2 and m.phase == "play"
    assert cards_in(m, "hand", 1) == [] and sorted(cards_in(m, "hand", 2)) == ["闪 ♦2", "闪 ♦3"]


# ---- distance and attack range ----------------------------------------------------------------
def test_attack_range_one_without_weapon():
    """No weapon: attack range 1 — only the two neighbours (6 players)."""
    m = table(6, hands={0: ["杀 ♠7"]})
    assert slash_targets(m) == {1, 5}


def test_distance_the_shorter_way_round():
    """距离: the shorter way round the table (range 2 reaches seats 1, 2, 4, 5 of 6; range 3 all)."""
    m = table(6, hands={0: ["杀 ♠7"]}, equips={0: ["雌雄双股剑 ♠2"]})
    assert slash_targets(m) == {1, 2, 4, 5}
    m = table(6, hands={0: ["杀 ♠7"]}, equips={0: ["青龙偃月刀 ♠5"]})
    assert slash_targets(m) == {1, 2, 3, 4, 5}


def test_the_distance_to_oneself_is_always_zero():
    """自己和自己的距离永远是0, whatever horses and skills say of others."""
    m = table(6, hands={0: ["杀 ♠7"]}, equips={0: ["赤兔 ♥5", "的卢 ♣5"]})
    distance = m.game.procedures["distance"].run
    assert [distance(m, p, p) for p in range(6)] == [0] * 6
    assert distance(m, 0, 3) == 3 - 1 and distance(m, 3, 0) == 3 + 1


def test_minus_horse_shortens_distance():
    """-1 马: others are 1 nearer to you."""
    m = table(6, hands={0: ["杀 ♠7"]}, equips={0: ["赤兔 ♥5"]})
    assert slash_targets(m) == {1, 2, 4, 5}


def test_plus_horse_lengthens_distance():
    """+1 马: you are 1 farther from others."""
    m = table(6, hands={0: ["杀 ♠7"]}, equips={1: ["的卢 ♣5"]})
    assert slash_targets(m) == {5}


def test_horses_cancel_out():
    """-1 马 against +1 马: the distance stays 1."""
    m = table(6, hands={0: ["杀 ♠7"]}, equips={0: ["赤兔 ♥5"], 1: ["的卢 ♣5"]})
    assert slash_targets(m) == {1, 2, 4, 5}


def test_minus_horse_counts_for_tricks_too():
    """Distance with a -1 马 also governs 顺手牵羊 (distance 1): seat 2 of 6 comes within reach."""
    m = table(6, hands={0: ["顺手牵羊 ♠3"], 1: ["闪 ♦2"], 2: ["闪 ♦3"], 3: ["闪 ♦4"]})
    act(m, "use", "顺手牵羊 ♠3")
    assert {a.player for a in m.legal_actions()} == {1}
    m = table(6, hands={0: ["顺手牵羊 ♠3"], 1: ["闪 ♦2"], 2: ["闪 ♦3"], 3: ["闪 ♦4"]}, equips={0: ["赤兔 ♥5"]})
    act(m, "use", "顺手牵羊 ♠3")
    assert {a.player for a in m.legal_actions()} == {1, 2}


# ---- 无懈可击 ------------------------------------------------------------------------------------
def test_nullification_cancels_a_trick():
    """无懈可击 cancels the trick: 无中生有 draws nothing."""
    m = table(5, hands={0: ["无中生有 ♥7"], 2: ["无懈可击 ♠J"]}, deck=["闪 ♦2", "闪 ♦3"])
    use(m, "无中生有 ♥7")
    assert m.decision.choice == "nullify" and m.decision.player == 2
    act(m, "card", "无懈可击 ♠J")
    assert cards_in(m, "hand", 0) == [] and len(cards_in(m, "deck")) == 2


def test_nullification_of_a_nullification():
    """A second 无懈可击 cancels the first: the trick takes effect."""
    m = table(5, hands={0: ["无中生有 ♥7"], 2: ["无懈可击 ♠J"], 3: ["无懈可击 ♣Q"]}, deck=["闪 ♦2", "闪 ♦3"])
    use(m, "无中生有 ♥7")
    act(m, "card", "无懈可击 ♠J")
    assert m.decision.player == 3 and m.decision.args[1] == "无懈可击"
    act(m, "card", "无懈可击 ♣Q")
    assert sorted(cards_in(m, "hand", 0)) == ["闪 ♦2", "闪 ♦3"]


def test_nullification_chain_of_three_cancels_the_trick():
    """A nullifies the trick, B nullifies A's, C nullifies B's: the trick is cancelled."""
    m = table(5, hands={0: ["无中生有 ♥7"], 1: ["无懈可击 ♠J"], 2: ["无懈可击 ♣Q"], 3: ["无懈可击 ♣K"]},
              deck=["闪 ♦2", "闪 ♦3"])
    use(m, "无中生有 ♥7")
    for p, card in [(1, "无懈可击 ♠J"), (2, "无懈可击 ♣Q"), (3, "无懈可击 ♣K")]:
        assert (m.decision.choice, m.decision.player) == ("nullify", p)
        act(m, "card", card)
    assert cards_in(m, "hand", 0) == [] and len(cards_in(m, "deck")) == 2
    assert sorted(cards_in(m, "discard")) == ["无中生有 ♥7", "无懈可击 ♠J", "无懈可击 ♣K", "无懈可击 ♣Q"]


def test_nullification_asked_in_seat_order_from_current():
    """Everyone holding 无懈可击 may answer, from the current player round the table."""
    m = table(5, current=2, hands={2: ["无中生有 ♥7"], 0: ["无懈可击 ♠J"], 4: ["无懈可击 ♣Q"],
                                   3: ["无懈可击 ♣K"]}, deck=["闪 ♦2", "闪 ♦3"])
    use(m, "无中生有 ♥7")
    assert askers(m, "nullify", lambda m: act(m, "pass")) == [3, 4, 0]
    assert len(cards_in(m, "hand", 2)) == 2


# ---- 闪电 and 乐不思蜀 -----------------------------------------------------------------------------
def test_lightning_moves_on_when_it_misses():
    """闪电 not hitting (♥): it moves to the next player's judgement area."""
    m = table(5, phase="judge", judging={0: ["闪电 ♠A"]}, deck=["桃 ♥3", "闪 ♦2", "闪 ♦3"])
    assert cards_in(m, "judging", 0) == [] and cards_in(m, "judging", 1) == ["闪电 ♠A"]
    assert hp(m, 0) == 4 and m.phase == "play"


def test_lightning_travels_round_the_table():
    """Turn after turn, a missing 闪电 goes round every seat and comes back."""
    # per turn: a judgement (never ♠), then 2 draws
    deck = ["桃 ♥3", "闪 ♦2", "闪 ♦3", "桃 ♥4", "闪 ♦4", "闪 ♦5", "桃 ♥6", "闪 ♦6", "闪 ♦7",
            "桃 ♥7", "闪 ♦8", "闪 ♦9", "桃 ♥8", "闪 ♦10", "杀 ♣2"]
    m = table(4, phase="judge", judging={0: ["闪电 ♠A"]}, hp={0: 9, 1: 9, 2: 9, 3: 9}, max_hp={0: 9, 1: 9, 2: 9, 3: 9},
              deck=deck)
    holders = []
    for _ in range(4):
        holders.append(next(p for p in range(4) if cards_in(m, "judging", p)))
        assert m.phase == "play"
        act(m, "end")
    holders.append(next(p for p in range(4) if cards_in(m, "judging", p)))
    assert holders == [1, 2, 3, 0, 1]
    assert all(hp(m, p) == 9 for p in range(4))


def test_lightning_skips_a_player_already_holding_one():
    """闪电 moves to the next player who can hold it (no two 闪电 in one judgement area)."""
    m = table(5, phase="judge", judging={0: ["闪电 ♠A"], 1: ["闪电 ♥Q"]}, deck=["桃 ♥3", "闪 ♦2", "闪 ♦3"])
    assert cards_in(m, "judging", 2) == ["闪电 ♠A"] and cards_in(m, "judging", 1) == ["闪电 ♥Q"]


@pytest.mark.parametrize("judge", ["八卦阵 ♠2", "杀 ♠9", "绝影 ♠5"])
def test_lightning_hits_on_spade_two_to_nine(judge):
    """闪电: ♠2-9 — 3 damage to the holder, and 闪电 is discarded."""
    m = table(5, phase="judge", current=1, judging={1: ["闪电 ♠A"]}, deck=[judge, "闪 ♦2", "闪 ♦3"])
    assert hp(m, 1) == 1
    assert sorted(cards_in(m, "discard")) == sorted([judge, "闪电 ♠A"])
    assert all(cards_in(m, "judging", p) == [] for p in range(5))


@pytest.mark.parametrize("judge", ["决斗 ♠A", "杀 ♠10", "过河拆桥 ♠Q", "杀 ♣2"])
def test_lightning_misses_outside_spade_two_to_nine(judge):
    """♠A, ♠10-K and other suits do not hit: 闪电 moves on."""
    m = table(5, phase="judge", current=1, judging={1: ["闪电 ♠A"]}, deck=[judge, "闪 ♦2", "闪 ♦3"])
    assert hp(m, 1) == 4 and cards_in(m, "judging", 2) == ["闪电 ♠A"]


def test_nullified_lightning_still_moves_on():
    """A 闪电 cancelled by 无懈可击 is not judged, but still passes to the next player."""
    m = table(5, phase="judge", current=1, judging={1: ["闪电 ♠A"]}, hands={3: ["无懈可击 ♠J"]},
              deck=["绝影 ♠5", "闪 ♦2", "闪 ♦3"])
    act(m, "card", "无懈可击 ♠J")
    assert hp(m, 1) == 4 and cards_in(m, "judging", 2) == ["闪电 ♠A"]
    assert sorted(cards_in(m, "hand", 1)) == ["绝影 ♠5", "闪 ♦2"]


def test_indulgence_skips_the_play_phase():
    """乐不思蜀: unless the judgement is ♥, the play phase is skipped; then it is discarded."""
    m = table(5, phase="judge", hands={0: ["杀 ♠7", "杀 ♠8"]}, hp={0: 3}, judging={0: ["乐不思蜀 ♠6"]},
              deck=["闪 ♦2", "桃 ♥3", "闪 ♦3", "杀 ♣2", "杀 ♣3"])
    # no play decision: the discard phase comes straight after the draw
    assert (m.phase, m.decision.choice, m.decision.player) == ("discard", "discard_one", 0)
    assert sorted(cards_in(m, "discard")) == ["乐不思蜀 ♠6", "闪 ♦2"]
    act(m, "card", "杀 ♠7")
    assert m.current == 1 and m.phase == "play"


def test_indulgence_with_heart_lets_the_player_play():
    """乐不思蜀 judged ♥: no effect, the play phase happens."""
    m = table(5, phase="judge", hands={0: ["杀 ♠7"]}, judging={0: ["乐不思蜀 ♠6"]},
              deck=["桃 ♥3", "闪 ♦2", "闪 ♦3"])
    assert (m.phase, m.decision.choice) == ("play", "play")
    assert cards_in(m, "judging", 0) == [] and sorted(cards_in(m, "discard")) == ["乐不思蜀 ♠6", "桃 ♥3"]


def test_delayed_tricks_judged_last_placed_first():
    """从最后一个施加给你的锦囊开始判定: 乐不思蜀 placed after 闪电 is judged first."""
    m = table(5, phase="judge", current=1, judging={1: ["闪电 ♠A", "乐不思蜀 ♠6"]},
              hp={1: 1},
              deck=["绝影 ♠5", "桃 ♥3", "闪 ♦2", "闪 ♦3"])
    # 乐不思蜀 gets ♠5 (play skipped), 闪电 gets ♥3 (moves on)
    assert hp(m, 1) == 1 and cards_in(m, "judging", 2) == ["闪电 ♠A"]
    assert (m.phase, m.decision.choice, m.decision.player) == ("discard", "discard_one", 1)


# random games (every one ends, no card lost or doubled, a winner, an identical replay): played in
# test_conformance.py for every player count, and with the match options in test_sanguosha_properties.py
