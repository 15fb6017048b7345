"""Every ability of the 俠客 duel's heroes, in a prepared situation: a hero
with the ability (and none other, where the set has one) is summoned, fights
or dies, and what its text says is checked with its own number X."""
from __future__ import annotations

from xiake_kit import act, attack, hero, legal, life, names_in, place_of, plain, prop, stat, summon, table


def X(name: str, ability: str) -> int:
    return prop(name, ability)


def vanilla(n: int) -> list[str]:
    return [plain(i) for i in range(n)]


# ---- when a card is played ------------------------------------------------------
def test_chengzhang_grows_when_its_controller_summons_another_card():
    g = hero("成長")
    new = plain(cost=lambda c: c <= 3)
    m = table(rows={0: [(g, 1)]}, hands={0: [new]})
    before = stat(m, g)
    summon(m, new, 5)
    x = X(g, "成長")
    assert stat(m, g) == (before[0] + x, before[1] + x)
    assert stat(m, new) == (prop(new, "attack"), prop(new, "health"))


def test_chengzhang_not_for_its_own_summoning():
    g = hero("成長")
    m = table(hands={0: [g]})
    summon(m, g, 1)
    assert stat(m, g) == (prop(g, "attack"), prop(g, "health"))


def test_the_seeds_renqingxuan():
    m = table(hands={0: ["任清璇"]})
    assert (prop("任清璇", "cost"), prop("任清璇", "attack"), prop("任清璇", "health"),
            prop("任清璇", "成長")) == (3, 2, 2, 1)
    summon(m, "任清璇", 2)
    assert stat(m, "任清璇") == (2, 2)


# ---- read by the rules ----------------------------------------------------------
def test_tuxi_attacks_in_the_turn_it_is_summoned():
    t = hero("突襲", cost=lambda c: c <= 10)
    m = table(hands={0: [t]}, points={0: 10})
    summon(m, t, 1)
    act(m, "end")
    assert "hero " + t in legal(m)
    n = plain(cost=lambda c: c <= 10)
    m = table(hands={0: [n]}, points={0: 10})
    summon(m, n, 1)
    act(m, "end")
    assert legal(m) == ["end"]


def test_lianji_attacks_twice():
    h = hero("連擊")
    m = table(rows={0: [(h, 1, {"攻擊": 1})]}, phase="battle")
    attack(m, h)
    attack(m, h)
    assert life(m, 1) == 18 and legal(m) == ["end"]


def test_shouhu_attacks_must_choose_a_guard():
    g, other, a = hero("守護"), plain(0), plain(1)
    m = table(rows={0: [(a, 1, {"攻擊": 1})], 1: [(g, 1), (other, 5)]}, phase="battle")
    act(m, "hero", a)
    assert legal(m) == ["hero " + g]


def test_yanhu_its_neighbours_cannot_be_chosen():
    y, left, far, a = hero("掩護"), plain(0), plain(1), plain(2)
    m = table(rows={0: [(a, 1, {"攻擊": 1})], 1: [(left, 3), (y, 4), (far, 8)]}, phase="battle")
    act(m, "hero", a)
    assert sorted(legal(m)) == sorted(["hero " + y, "hero " + far])


def test_guwu_its_neighbours_hit_harder_while_it_is_on_the_row():
    g, a = hero("鼓舞"), plain(0)
    m = table(rows={0: [(a, 2, {"攻擊": 1}), (g, 3)]}, phase="battle")
    attack(m, a)
    assert life(m, 1) == 20 - 1 - X(g, "鼓舞")
    m = table(rows={0: [(a, 1, {"攻擊": 1}), (g, 3)]}, phase="battle")   # a gap: no neighbour
    attack(m, a)
    assert life(m, 1) == 19


def test_kuangbao_hits_harder_when_attacking():
    k, t = hero("狂暴"), plain(0)
    m = table(rows={0: [(k, 1, {"攻擊": 1, "氣血": 9})], 1: [(t, 1, {"攻擊": 0, "氣血": 20})]},
              phase="battle")
    attack(m, k, t)
    assert stat(m, t)[1] == 20 - 1 - X(k, "狂暴")


def test_fanzhen_the_attacker_takes_more():
    f, a = hero("反震"), plain(0)
    m = table(rows={0: [(a, 1, {"攻擊": 0, "氣血": 20})], 1: [(f, 1, {"攻擊": 1, "氣血": 20})]},
              phase="battle")
    attack(m, a, f)
    assert stat(m, a)[1] == 20 - 1 - X(f, "反震")


def test_judu_a_hero_it_damages_dies():
    j, t = hero("劇毒"), plain(0)
    m = table(rows={0: [(j, 1, {"攻擊": 1, "氣血": 9})], 1: [(t, 1, {"攻擊": 0, "氣血": 20})]},
              phase="battle")
    attack(m, j, t)
    assert names_in(m, "grave", 1) == [t]


def test_judu_kills_its_attacker_too_but_not_without_damage():
    j, a = hero("劇毒"), plain(0)
    m = table(rows={0: [(a, 1, {"攻擊": 1, "氣血": 20})], 1: [(j, 1, {"攻擊": 1, "氣血": 20})]},
              phase="battle")
    attack(m, a, j)
    assert names_in(m, "grave", 0) == [a]
    m = table(rows={0: [(a, 1, {"攻擊": 1, "氣血": 20})], 1: [(j, 1, {"攻擊": 0, "氣血": 20})]},
              phase="battle")
    attack(m, a, j)
    assert names_in(m, "grave", 0) == []


def test_tiebi_takes_less_from_fights():
    t, a = hero("鐵壁"), plain(0)
    x = X(t, "鐵壁")
    m = table(rows={0: [(a, 1, {"攻擊": x + 2, "氣血": 20})], 1: [(t, 1, {"攻擊": 0, "氣血": 20})]},
              phase="battle")
    attack(m, a, t)
    assert stat(m, t)[1] == 18


# ---- on summon ------------------------------------------------------------------
def test_liaoshang_its_neighbours_gain_qixue():
    h, left, right, far = hero("療傷"), plain(0), plain(1), plain(2)
    m = table(rows={0: [(left, 4), (right, 6), (far, 9)]}, hands={0: [h]})
    summon(m, h, 5)
    x = X(h, "療傷")
    assert [stat(m, n)[1] for n in (left, right, far)] == [
        prop(left, "health") + x, prop(right, "health") + x, prop(far, "health")]


def test_jiezhen_grows_for_each_neighbour_of_its_menpai():
    h = hero("結陣")
    same = [n for n in (plain(i) for i in range(40)) if prop(n, "faction") == prop(h, "faction")][:2]
    other = next(n for n in (plain(i) for i in range(40)) if prop(n, "faction") != prop(h, "faction"))
    m = table(rows={0: [(same[0], 2), (other, 4)]}, hands={0: [h]})
    summon(m, h, 3)
    x = X(h, "結陣")
    assert stat(m, h) == (prop(h, "attack") + x, prop(h, "health") + x)


def test_jili_the_others_hit_harder_until_the_end_of_the_turn():
    h, a = hero("激勵"), plain(0)
    m = table(rows={0: [(a, 8, {"攻擊": 1})]}, hands={0: [h]})
    summon(m, h, 1)
    act(m, "end")
    attack(m, a)
    assert life(m, 1) == 20 - 1 - X(h, "激勵")
    act(m, "end")                        # the turn ends: the bonus with it
    assert m.cvars["臨時"][m.game.card_named(a)[0].id] == 0


def test_chuangong_draws():
    h = hero("傳功")
    deck = [plain(i) for i in range(5)]
    m = table(hands={0: [h]}, decks={0: deck})
    summon(m, h, 1)
    assert sorted(names_in(m, "hand", 0)) == sorted(deck[:X(h, "傳功")])


def test_xixing_gains_points_at_once():
    h = hero("吸星")
    m = table(hands={0: [h]}, points={0: prop(h, "cost")})
    summon(m, h, 1)
    assert m.pvars[0]["points"] == min(10, X(h, "吸星"))


def test_anqi_hits_a_hero_or_the_player():
    h, t = hero("暗器"), plain(0)
    m = table(rows={1: [(t, 1, {"氣血": 20})]}, hands={0: [h]})
    summon(m, h, 1)
    assert m.decision.choice == "aim"
    act(m, "hero", t)
    assert stat(m, t)[1] == 20 - X(h, "暗器")
    assert f"暗器：{t}（player 1）受到 {X(h, '暗器')} 點傷害" in [e.get("text") for e in m.view(1)["log"]]
    m = table(rows={1: [(t, 1, {"氣血": 20})]}, hands={0: [h]})
    summon(m, h, 1)
    act(m, "player", player=1)
    assert life(m, 1) == 20 - X(h, "暗器")


def test_qungong_hits_every_enemy_hero():
    h, a, b = hero("群攻"), plain(0), plain(1)
    m = table(rows={1: [(a, 1, {"氣血": 20}), (b, 7, {"氣血": 1})]}, hands={0: [h]})
    summon(m, h, 1)
    assert stat(m, a)[1] == 20 - X(h, "群攻") and names_in(m, "grave", 1) == [b]
    texts = [e.get("text") for e in m.view(1)["log"]]
    assert all(f"群攻：{x}（player 1）受到 {X(h, '群攻')} 點傷害" in texts for x in (a, b))


def test_dianxue_its_target_cannot_attack_in_its_next_turn():
    h, t = hero("點穴"), plain(0)
    m = table(rows={1: [(t, 1)]}, hands={0: [h]})
    summon(m, h, 1)
    act(m, "hero", t)
    act(m, "end")
    act(m, "end")                                          # 0's battle; 1's turn begins
    act(m, "end") if m.decision.choice == "play" else None
    assert m.current == 1 and m.decision.choice == "attack" and legal(m) == ["end"]
    act(m, "end")                                          # that turn over: free again
    assert m.cvars["定身"][m.game.card_named(t)[0].id] is False


def test_huagong_its_target_loses_attack_until_its_next_turn_ends():
    h, t, d = hero("化功"), plain(0), plain(1)
    m = table(rows={0: [(d, 9, {"攻擊": 0, "氣血": 20})], 1: [(t, 1, {"攻擊": 5, "氣血": 20})]},
              hands={0: [h]})
    summon(m, h, 1)
    act(m, "hero", t)
    act(m, "end")
    act(m, "end")                                          # 0's battle phase: nothing to attack with
    act(m, "end")                                          # 1's play phase
    attack(m, t, d)
    assert stat(m, d)[1] == 20 - max(0, 5 - X(h, "化功"))
    act(m, "end")                                          # 1's turn ends: so does 化功
    assert m.cvars["減攻"][m.game.card_named(t)[0].id] == 0


def test_fengyin_removes_a_cheap_enemy_hero_from_the_game():
    h = hero("封印")
    cheap = plain(cost=lambda c: c <= X(h, "封印"))
    dear = plain(cost=lambda c: c > X(h, "封印"))
    m = table(rows={1: [(cheap, 1), (dear, 2)]}, hands={0: [h]})
    summon(m, h, 1)
    assert legal(m) == ["hero " + cheap]
    act(m, "hero", cheap)
    assert names_in(m, "removed") == [cheap] and names_in(m, "grave", 1) == []


def test_liaoshang_at_the_end_of_the_row_has_one_neighbour():
    h, left, far = hero("療傷"), plain(0), plain(1)
    m = table(rows={0: [(left, 9), (far, 1)]}, hands={0: [h]})
    summon(m, h, 10)
    assert stat(m, left)[1] == prop(left, "health") + X(h, "療傷")
    assert stat(m, far)[1] == prop(far, "health")


# ---- on death -------------------------------------------------------------------
def test_yizhi_its_neighbours_gain_attack_for_good():
    y, n, a = hero("遺志"), plain(0), plain(1)
    m = table(rows={0: [(a, 1, {"攻擊": 9, "氣血": 20})], 1: [(y, 3, {"攻擊": 0, "氣血": 1}), (n, 4)]},
              phase="battle")
    attack(m, a, y)
    assert stat(m, n)[0] == prop(n, "attack") + X(y, "遺志")


def _dying(h: str, **rows) -> dict:
    """Rows where player 0's strong hero attacks the weak hero ``h`` of player 1."""
    return {0: [(plain(0), 1, {"攻擊": 9, "氣血": 20})], 1: [(h, 3, {"攻擊": 0, "氣血": 1}), *rows.get("more", [])]}


def test_huihun_brings_a_hero_back_once_it_has_gone_to_the_graveyard_itself():
    """能在其進入墳場後，從墳場中召喚其它俠客卡片回到場上: the hero dies, then
    another hero of its owner's 墳場 comes back, with its printed numbers."""
    h = hero("回魂")
    back = plain(1, cost=lambda c: c <= X(h, "回魂"))
    m = table(rows=_dying(h), graves={1: [back]}, phase="battle")
    attack(m, plain(0), h)
    assert m.decision.player == 1 and legal(m) == ["hero " + back]
    act(m, "hero", back)
    act(m, "place", number=5)
    assert names_in(m, "row", 1) == [back] and names_in(m, "grave", 1) == [h]
    assert stat(m, back) == (prop(back, "attack"), prop(back, "health")) and place_of(m, back) == 5
    assert f"{back}（player 1）從墳場回到場上（位置 5）" in [e.get("text") for e in m.view(0)["log"]]


def test_huihun_does_nothing_on_summon_and_never_brings_itself_back():
    h = hero("回魂")
    back = plain(1, cost=lambda c: c <= X(h, "回魂"))
    m = table(hands={0: [h]}, graves={0: [back]})
    summon(m, h, 1)
    assert m.decision.choice == "play" and names_in(m, "grave", 0) == [back]
    m = table(rows=_dying(h), phase="battle")
    attack(m, plain(0), h)
    assert m.decision.player == 0 and names_in(m, "grave", 1) == [h]      # nothing asked of player 1


def test_huihun_never_brings_back_a_card_of_the_removal_area_or_a_dearer_hero():
    """卡牌一旦放置在此區後，本場遊戲無法再度使用: only the 墳場 is searched,
    for heroes of cost X or less.  (The hero dies attacking, in its owner's turn.)"""
    h = hero("回魂")
    gone = plain(1, cost=lambda c: c <= X(h, "回魂"))
    dear = plain(2, cost=lambda c: c > X(h, "回魂"))
    m = table(rows={0: [(h, 3, {"攻擊": 0, "氣血": 1})], 1: [(plain(0), 1, {"攻擊": 9, "氣血": 20})]},
              hands={0: [gone]}, graves={0: [dear]})
    act(m, "discard", gone)
    act(m, "end")
    attack(m, h, plain(0))
    assert names_in(m, "removed") == [gone] and names_in(m, "grave", 0) == [dear, h]
    assert m.decision.choice != "pick"


def test_huihun_fills_the_place_it_left_in_a_full_row():
    """場上能放置的俠客卡片上限依舊為10張: the row was full, the hero's own
    place is the free one."""
    h = hero("回魂")
    back = plain(20, cost=lambda c: c <= X(h, "回魂"))
    others = [(plain(i + 1), i + 1) for i in range(9)]
    m = table(rows={0: _dying(h)[0], 1: [*others, (h, 10, {"攻擊": 0, "氣血": 1})]}, graves={1: [back]},
              phase="battle")
    attack(m, plain(0), h)
    act(m, "hero", back)
    assert m.decision.choice == "place" and [a.number for a in m.decision.options] == [10]
    act(m, "place", number=10)
    assert len(names_in(m, "row", 1)) == 10 and place_of(m, back) == 10


def test_yiyan_its_controller_draws():
    y, a = hero("遺言"), plain(0)
    deck = [plain(i + 1) for i in range(4)]
    m = table(rows={0: [(a, 1, {"攻擊": 9, "氣血": 20})], 1: [(y, 3, {"攻擊": 0, "氣血": 1})]},
              decks={1: deck}, phase="battle")
    attack(m, a, y)
    assert sorted(names_in(m, "hand", 1)) == sorted(deck[:X(y, "遺言")])
