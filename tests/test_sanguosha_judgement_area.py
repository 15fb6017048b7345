"""三国杀: the judgement area (判定区) and the order of its judgements.

Rulebook (seeds/003), 判定阶段: 「若你的面前横置有两种或更多的延时类锦囊，你从最后
一个施加给你的锦囊开始判定(早放置的最后判定)」 — the delayed trick placed last
is judged first.  games/sanguosha keeps the judgement area as one zone
per player, ``judging(p)``, whose order is the order of placement (the last
placed on top); the judge phase judges from the top down, and each kind's
effect is its row of the ``delayed_*`` tables.

The standard deck has two kinds of delayed trick (乐不思蜀, 闪电) and a
judgement area holds at most one of each, so it never holds three.  To check
the order with three, the tests load the rule file with a third kind added
as data only — one card and one row in each ``delayed_*`` table, no rule
text changed — and judge every order of placement.  The third kind, 天雷,
is made up for the test: on a ♣ judge card it deals 1 damage; it is then
discarded.
"""
from __future__ import annotations

import itertools

import pytest
from sanguosha_kit import SGS_FILE, cards_in, hp, table

import rulekit

FILLER = ["闪 ♦3", "闪 ♦4", "闪 ♦5", "闪 ♦6", "闪 ♦7", "闪 ♦8"]
THIRD = "天雷 ♣K"
THIRD_ROW = {"delayed_suits": "♣", "delayed_low": 1, "delayed_high": 13,
             "delayed_damage": 1, "delayed_loss": 0, "delayed_skips_play": False, "delayed_moves_on": False}


VARIANT = """\
# 三国杀 with a third delayed trick, 天雷, added as data only.
extends: sanguosha
name: 三国杀 with 天雷
cards:
  - {name: "天雷 ♣K", props: {kind: 天雷, type: delayed, suit: "♣", rank: "K", number: 13, color: black, set: std}}
override:
  card_total: 134
  tables:
%s
"""


@pytest.fixture(scope="module")
def three_kinds() -> rulekit.Game:
    """games/sanguosha extended by a file beside it: one card and one row of
    each delayed_* table (the rows are replaced whole, with 天雷 added)."""
    game = rulekit.load_game(SGS_FILE)
    rows = []
    for table_name, value in THIRD_ROW.items():
        row = {**game.tables[table_name], "天雷": value}
        rows.append(f"    {table_name}: {{" + ", ".join(f"{k}: {_yaml(v)}" for k, v in row.items()) + "}")
    text = VARIANT % "\n".join(rows)
    return rulekit.load_game_text(text, str(SGS_FILE.parent / "sanguosha+天雷.yaml"))


def _yaml(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else \
        (str(value) if isinstance(value, int) else f'"{value}"')


def judged_tricks(m) -> list[str]:
    """The delayed tricks in the order they were taken up to be judged."""
    return [name for e in m.events() if e.get("event") == "move" and e.get("to") == "processing"
            for name in e["cards"] if name in ("乐不思蜀 ♠6", "闪电 ♠A", "闪 ♦2", THIRD)]


def moves_to(m, card: str) -> list[str]:
    """The zones ``card`` was moved to (the first: where the prepared state put it)."""
    return [e["to"] for e in m.events() if e.get("event") == "move" and card in e.get("cards", ())]


def judge_phase(rules, placed: list[str], deck: list[str], **kw):
    """Seat 0's judge phase with ``placed`` in its judgement area, first placed first."""
    return table(5, judging={0: placed}, deck=deck + FILLER, phase="judge", hands={0: []},
                 rules=rules, **kw)


# ---- the two kinds of the standard deck, both orders --------------------------------------

@pytest.mark.parametrize("placed", [["乐不思蜀 ♠6", "闪电 ♠A"], ["闪电 ♠A", "乐不思蜀 ♠6"]])
def test_two_kinds_judged_last_placed_first(placed):
    """Whatever the order of placement, the last placed is judged first.  The
    first judge card (♠5) hits either kind, the second (♥3) neither."""
    m = judge_phase(None, placed, ["绝影 ♠5", "桃 ♥3"])
    assert judged_tricks(m)[:2] == placed[::-1]
    if placed[-1] == "闪电 ♠A":   # struck by ♠5; 乐不思蜀 on ♥3 does nothing
        assert hp(m, 0) == 1 and (m.current, m.phase) == (0, "play")
    else:                          # play skipped on ♠5; 闪电 on ♥3 moves on
        assert hp(m, 0) == 4 and m.current != 0
        assert moves_to(m, "闪电 ♠A")[1:3] == ["processing", "judging(1)"]


def test_judgement_area_keeps_placement_order_not_kind_order():
    """The zone's own order records placement: placing 闪电 and then 乐不思蜀
    leaves 乐不思蜀 on top (cards_in lists the top first)."""
    m = table(5, judging={1: ["闪电 ♠A", "乐不思蜀 ♠6"]})
    assert cards_in(m, "judging", 1) == ["乐不思蜀 ♠6", "闪电 ♠A"]


# ---- three kinds ----------------------------------------------------------------------------

def test_variant_adds_a_third_kind_as_data_only(three_kinds):
    assert three_kinds.tables["delayed_damage"]["天雷"] == 1
    assert len(three_kinds.card_named(THIRD)) == 1


@pytest.mark.parametrize("placed", list(itertools.permutations(["乐不思蜀 ♠6", "闪电 ♠A", THIRD])))
def test_three_kinds_judged_last_placed_first_in_every_order(three_kinds, placed):
    """Three delayed tricks: judged from the last placed to the first placed."""
    m = judge_phase(three_kinds, list(placed), ["桃 ♥3", "桃 ♥4", "桃 ♥6"])
    assert judged_tricks(m) == list(placed)[::-1]
    assert hp(m, 0) == 4                     # three ♥ judge cards: nothing hits


def test_three_kinds_each_takes_its_own_effect(three_kinds):
    """Placed 乐不思蜀, 闪电, 天雷: 天雷 is judged first (♣8: 1 damage), then
    闪电 (♥3: moves on), then 乐不思蜀 (♠5: the play phase is skipped)."""
    m = judge_phase(three_kinds, ["乐不思蜀 ♠6", "闪电 ♠A", THIRD], ["杀 ♣8", "桃 ♥3", "绝影 ♠5"])
    assert judged_tricks(m)[:3] == [THIRD, "闪电 ♠A", "乐不思蜀 ♠6"]
    assert hp(m, 0) == 3
    assert m.current != 0                    # play skipped, the turn went on
    assert {THIRD, "乐不思蜀 ♠6"} <= set(cards_in(m, "discard"))
    assert "闪电 ♠A" not in cards_in(m, "discard")
