"""三国杀 identity mode: the rulebook's rules (seeds/003), one scenario each."""
from __future__ import annotations

from sanguosha_kit import act, can, cards_in, hp, table, use


def test_slash_hits_without_a_dodge():
    m = table(5, hands={0: ["杀 ♠7"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert hp(m, 1) == 3
    assert cards_in(m, "discard") == ["杀 ♠7"]


def test_slash_dodged_by_jink():
    m = table(5, hands={0: ["杀 ♠7"], 1: ["闪 ♦2"]})
    use(m, "杀 ♠7", target=1)
    act(m, "card", "闪 ♦2")
    assert hp(m, 1) == 4
    assert sorted(cards_in(m, "discard")) == ["杀 ♠7", "闪 ♦2"]


def test_one_slash_per_play_phase():
    m = table(5, hands={0: ["杀 ♠7", "杀 ♠8"], 1: []})
    use(m, "杀 ♠7", target=1)
    assert not can(m, "use", ["杀 ♠8"])
