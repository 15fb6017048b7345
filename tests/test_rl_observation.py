"""Observations hold what a seat sees and nothing else: permuting what it
cannot see leaves its vector as it was, changing what it sees changes it,
and seats are counted from the observer."""
from __future__ import annotations

import random

import numpy as np
import pytest
from rl_kit import case_id, cases, load, random_decisions
from sanguosha_kit import table

from rulekit.rl import ObservationEncoder, string_vocabulary
from rulekit.testing import prepare


def _hidden_zones(m, seat):
    return [z for z in m.all_zones()
            if z.zdef.visibility == "hidden" or (z.zdef.visibility == "owner" and z.owner != seat)]


def _permute_unseen(m, seat, rng):
    """Deal the cards of every zone ``seat`` cannot see anew among those
    zones (their card variables go with their places, not their cards), and
    deal anew the values of player variables it cannot see; returns how to
    put everything back."""
    zones = _hidden_zones(m, seat)
    saved = [list(z.cards) for z in zones]
    cards = [c for cs in saved for c in cs]
    state = {k: [v[c.id] for c in cards] for k, v in m.cvars.items()}
    pool = cards[:]
    rng.shuffle(pool)
    k = 0
    for z, cs in zip(zones, saved):
        z.cards[:] = pool[k:k + len(cs)]
        for c in z.cards:
            m.loc[c.id] = z
        k += len(cs)
    for name, values in state.items():
        shuffled = values[:]
        rng.shuffle(shuffled)
        for c, v in zip(cards, shuffled):
            m.cvars[name][c.id] = v
    seen = m.view(seat, since=len(m.log))["player_vars"]
    hidden = [(p, name) for p in range(m.n) for name in m.pvars[p] if name not in seen[p]]
    old = [m.pvars[p][name] for p, name in hidden]
    for (p, name), v in zip(hidden, rng.sample(old, len(old))):
        m.pvars[p][name] = v

    def restore():
        for z, cs in zip(zones, saved):
            z.cards[:] = cs
            for c in cs:
                m.loc[c.id] = z
        for name, values in state.items():
            for c, v in zip(cards, values):
                m.cvars[name][c.id] = v
        for (p, name), v in zip(hidden, old):
            m.pvars[p][name] = v
    return restore


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_nothing_a_seat_cannot_see_reaches_its_observation(case):
    """At decisions of random matches, every seat's vector is the same after
    the cards (with their state) and variables it cannot see are dealt anew."""
    path, players = case
    game = load(path)
    enc = ObservationEncoder(game, players)
    rng = random.Random(0)
    checked = changed_hidden = 0
    for step, (m, dec) in enumerate(random_decisions(game, players, range(100), limit=400)):
        if step % 4:
            continue
        for seat in range(players):
            before = enc.observe(m, seat)
            assert before.shape == (enc.size,) and before.dtype == np.float32
            hidden = [c.id for z in _hidden_zones(m, seat) for c in z.cards]
            restore = _permute_unseen(m, seat, rng)
            try:
                changed_hidden += hidden != [c.id for z in _hidden_zones(m, seat) for c in z.cards]
                assert np.array_equal(enc.observe(m, seat), before), \
                    f"seat {seat}'s observation changed with what it cannot see ({dec.choice})"
            finally:
                restore()
            checked += 1
    assert checked > 20 and changed_hidden > 0


def test_swapping_other_hands_and_hidden_roles_changes_nothing_for_the_seat():
    """三国杀: seat 0 (the lord) does not know who is the loyalist and who a
    rebel, nor what the others hold; seat 1 knows its own role."""
    roles = ["主公", "忠臣", "反贼", "反贼", "内奸"]
    swapped = ["主公", "反贼", "忠臣", "反贼", "内奸"]
    hands = {0: ["杀 ♠7"], 1: ["闪 ♦2", "桃 ♥3"], 2: ["杀 ♣8", "无懈可击 ♠J"]}
    other = {0: ["杀 ♠7"], 1: ["杀 ♣8", "无懈可击 ♠J"], 2: ["闪 ♦2", "桃 ♥3"]}
    a = table(5, roles=roles, hands=hands)
    b = table(5, roles=swapped, hands=other)
    enc = ObservationEncoder(a.game, 5)
    assert np.array_equal(enc.observe(a, 0), enc.observe(b, 0))
    assert not np.array_equal(enc.observe(a, 1), enc.observe(b, 1))      # its own hand and role
    layout = dict(enc.observation_layout())
    mine = enc.observe(a, 1)[layout["role(+0)"]]
    assert mine[1 + enc.part_words("role(+0)").index("忠臣")] == 1
    assert enc.observe(a, 0)[layout["role(+1).hidden"]] == 1               # the lord does not see it
    assert enc.observe(a, 0)[layout["role(+0).hidden"]] == 0


def test_what_the_seat_sees_changes_its_observation(regicide):
    base = {"enemy": ["J♠"], "castle": ["J♥", "Q♥"], "tavern": ["2♥", "3♥"],
            "hand(0)": ["5♣", "7♦"], "hand(1)": ["9♠"]}
    enc = ObservationEncoder(regicide, 2)
    layout = dict(enc.observation_layout())
    obs = enc.observe(prepare(regicide, 2, zones=base), 0)
    own = enc.observe(prepare(regicide, 2, zones={**base, "hand(0)": ["5♣", "8♦"]}), 0)
    enemy = enc.observe(prepare(regicide, 2, zones={**base, "enemy": ["J♣"]}), 0)
    dealt = enc.observe(prepare(regicide, 2, zones={**base, "hand(1)": ["9♠", "4♠"]}), 0)
    for other, part in ((own, "hand(+0)"), (enemy, "enemy"), (dealt, "hand(+1).count")):
        differs = {name for name, s in layout.items() if not np.array_equal(obs[s], other[s])}
        assert part in differs, (part, differs)
    assert obs[layout["hand(+1).count"]] == 1 and dealt[layout["hand(+1).count"]] == 2
    assert "hand(+1)" not in layout                      # no place for cards no seat but its owner sees
    ids = np.flatnonzero(obs[layout["hand(+0)"]])
    assert sorted(regicide.cards[i].name for i in ids) == ["5♣", "7♦"]


def test_seats_are_counted_from_the_observer(regicide):
    """Seat 1 at its turn sees exactly what seat 0 sees at its own turn in
    the mirrored deal: the vector does not say which seat it belongs to."""
    common = {"enemy": ["J♠"], "castle": ["J♥"], "tavern": ["2♥", "3♥"]}
    a = prepare(regicide, 2, current=0, zones={**common, "hand(0)": ["5♣", "7♦"], "hand(1)": ["9♠"]})
    b = prepare(regicide, 2, current=1, zones={**common, "hand(1)": ["5♣", "7♦"], "hand(0)": ["9♠"]})
    enc = ObservationEncoder(regicide, 2)
    assert a.decision.player == 0 and b.decision.player == 1
    assert np.array_equal(enc.observe(a, 0), enc.observe(b, 1))
    assert not np.array_equal(enc.observe(a, 0), enc.observe(b, 0))


def test_card_state_of_visible_cards_is_observed_per_card():
    xiake = load(__import__("game_files").game_path("xiake"))
    m = prepare(xiake, 2, zones={"row(1)": ["採藥童子"], "hand(0)": ["卓人清"], "deck(0)": ["韓霜"],
                                 "deck(1)": ["無色"]},
                card_vars={"row(1)": [{"氣血": 3, "位置": 4}]}, phase="play")
    enc = ObservationEncoder(xiake, 2)
    layout = dict(enc.observation_layout())
    obs = enc.observe(m, 0)
    cid = xiake.card_named("採藥童子")[0].id
    assert obs[layout["row(+1)"]][cid] == 1
    assert obs[layout["state.氣血"]][cid] == 3 and obs[layout["state.位置"]][cid] == 4


def test_the_layout_covers_the_vector_once():
    for path, players in cases(1):
        enc = ObservationEncoder(load(path), players)
        spans = [(s.start, s.stop) for _, s in enc.observation_layout()]
        assert spans[0][0] == 0 and spans[-1][1] == enc.size
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
        names = [name for name, _ in enc.observation_layout()]
        assert len(names) == len(set(names))


@pytest.mark.parametrize("case", [c for c in cases(1) if c[1] > 1], ids=case_id)
def test_the_words_of_random_matches_are_in_the_vocabulary(case):
    """Text the views show (identities, generals, factions, skills) is in
    the word list derived from the rule file, so it is one-hot, not "other"."""
    path, players = case
    game = load(path)
    words = set(string_vocabulary(game))
    missing = set()
    for m, dec in random_decisions(game, players, range(3), limit=400):
        view = m.view(dec.player, since=len(m.log))
        values = [*view["vars"].values(), *view["public"].values()]
        values += [v for row in (*view["player_vars"], *view["display"]) for v in row.values()]
        for v in values:
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, str) and x not in words:
                    missing.add(x)
    assert not missing
