"""The effect language, one feature at a time, on tiny games written in tmp_path.

Every test writes a small rule file (six cards: 1H 2H 3H 1S 2S 3S with a
``suit`` and a ``value``; zones ``deck``, ``pile`` and a per-player ``hand``
that holds at most 3 cards), loads it with :func:`rulekit.load_game` and
checks the outcome through the public match API only: variables, player
variables, zones, decisions, the result and the event log.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

import rulekit
from rulekit.testing import prepare

CARDS = """\
cards:
  - name: "{rank}{suit}"
    each:
      suit: [H, S]
      rank:
        - {rank: "1", value: 1}
        - {rank: "2", value: 2}
        - {rank: "3", value: 3}
zones:
  deck: {visibility: hidden}
  pile: {visibility: public}
  hand: {per_player: true, visibility: owner, limit: 3}
"""


def _block(text: str, indent: int) -> str:
    """``text`` as the body of a YAML '|' block scalar at ``indent`` spaces."""
    return textwrap.indent(textwrap.dedent(text).strip("\n") + "\n", " " * indent)


def _scalars(section: str, values: dict | None) -> str:
    if not values:
        return ""
    return f"{section}:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in values.items())


def write_game(tmp_path: Path, effect: str = "pass", *, vars: dict | None = None,
               player_vars: dict | None = None, phases: list[tuple[str, str]] | None = None,
               extra: str = "", players: tuple[int, int] = (1, 3)) -> Path:
    """Write a rule file: the deck above, ``vars``, ``player_vars``, the raw
    YAML ``extra`` (choices, procedures, triggers, heuristics...) and the
    phases (default: one phase 'main' running ``effect``)."""
    phases = phases or [("main", effect)]
    text = (f"name: Lang\nplayers: {{min: {players[0]}, max: {players[1]}}}\n" + CARDS
            + _scalars("vars", vars) + _scalars("player_vars", player_vars)
            + textwrap.dedent(extra).strip("\n") + ("\n" if extra.strip() else "")
            + "turn:\n  phases:\n"
            + "".join(f"    - name: {name}\n      effect: |\n{_block(body, 8)}" for name, body in phases))
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def load(tmp_path: Path, effect: str = "pass", **kw) -> rulekit.Game:
    return rulekit.load_game(write_game(tmp_path, effect, **kw))


def refused(tmp_path: Path, effect: str = "pass", **kw) -> list[rulekit.RuleError]:
    with pytest.raises(rulekit.RuleFileError) as info:
        load(tmp_path, effect, **kw)
    return info.value.errors


def run(tmp_path: Path, effect: str, *, players: int = 2, zones: dict | None = None,
        **kw) -> rulekit.Match:
    """Run ``effect`` once (then win) from a stacked deck; return the finished match."""
    game = load(tmp_path, textwrap.dedent(effect).strip("\n") + '\nwin "done"', **kw)
    m = prepare(game, players=players, zones=zones or {})
    assert m.is_over(), m.decision
    assert m.result()["reason"] == "done", m.result()
    return m


def names(cards) -> list[str]:
    return [c.name for c in cards]


def top_first(m: rulekit.Match, zone: str, player: int | None = None) -> list[str]:
    return [c.name for c in reversed(m.zone(zone, player).cards)]


def legal(m: rulekit.Match) -> list[tuple]:
    """The legal actions as (option, sorted card names, player)."""
    return sorted((a.option, tuple(sorted(m.card(i).name for i in a.cards)), a.player)
                  for a in m.legal_actions())


def action(m: rulekit.Match, option: str, *cards: str, player: int | None = None) -> rulekit.Action:
    for a in m.legal_actions():
        if a.option == option and sorted(m.card(i).name for i in a.cards) == sorted(cards) \
                and a.player == player:
            return a
    raise AssertionError(f"no legal {option} {cards} {player}: {legal(m)}")


DECK = {"deck": ["3S", "1H", "2H"]}   # top first: 3S on top, 2H at the bottom


# ---- expressions ---------------------------------------------------------------------


def test_arithmetic_and_precedence(tmp_path):
    m = run(tmp_path, """
        a = 2 + 3 * 4
        b = (2 + 3) * 4
        c = 10 - 2 - 3
        d = 7 // 2 + 7 % 3
        e = -3 + 10
        f = 2 * -3
        g = -(2 + 3) * 2
        h = 20 // 2 * 3
        i = 2 - -2
        """, vars=dict.fromkeys("abcdefghi", 0))
    assert m.vars == {"a": 14, "b": 20, "c": 5, "d": 4, "e": 7, "f": -6, "g": -10, "h": 30, "i": 4}


def test_comparisons(tmp_path):
    m = run(tmp_path, """
        r1 = 1 < 2
        r2 = 2 <= 2
        r3 = 3 > 4
        r4 = 3 >= 4
        r5 = "a" == "a"
        r6 = 1 != 1
        r7 = "x" in ["x", "y"]
        r8 = "z" not in ["x", "y"]
        r9 = 1 + 1 == 2
        r10 = top(deck) in deck
        r11 = top(deck) in pile
        r12 = 'single' == "single"
        """, zones=DECK, vars={f"r{i}": 0 for i in range(1, 13)})
    assert [m.vars[f"r{i}"] for i in range(1, 13)] == [
        True, True, False, False, True, False, True, True, True, True, False, True]


def test_and_or_not(tmp_path):
    m = run(tmp_path, """
        r1 = true or false and false
        r2 = (true or false) and false
        r3 = not false and false
        r4 = not (false and false)
        r5 = not 1 == 2
        r6 = size(pile) > 0 and top(pile).value > 0
        r7 = size(pile) == 0 or top(pile).value > 0
        """, zones=DECK, vars={f"r{i}": 0 for i in range(1, 8)})
    # "and" binds tighter than "or", "not" looser than comparisons, and both
    # short-circuit (top(pile) is none: reading .value of it is never needed).
    assert [m.vars[f"r{i}"] for i in range(1, 8)] == [True, False, False, True, True, False, True]


def test_ternary(tmp_path):
    m = run(tmp_path, """
        let n = 2
        a = "one" if n == 1 else "two" if n == 2 else "many"
        b = 1 if false or true else 2
        c = (10 if n > 5 else 20) + 1
        """, vars={"a": 0, "b": 0, "c": 0})
    assert m.vars == {"a": "two", "b": 1, "c": 21}


def test_where_filters_with_it(tmp_path):
    m = run(tmp_path, """
        big = size(deck where it.value >= 2)
        hearts = (deck where it.suit == "H").value
        nums = [1, 2, 3, 4] where it > 2
        both = deck where it.suit == "H" and it.value > 1
        """, zones=DECK, vars={"big": 0, "hearts": 0, "nums": 0, "both": 0})
    assert m.vars["big"] == 2
    assert m.vars["hearts"] == [2, 1]          # bottom to top
    assert m.vars["nums"] == [3, 4]
    assert names(m.vars["both"]) == ["2H"]


def test_nested_where(tmp_path):
    # Outer "it" is a player, inner "it" a card of that player's hand.
    m = run(tmp_path, """
        holders = count(players where size(hand(it) where it.value > 1) > 0)
        who = first(players where any(hand(it) where it.suit == "S"))
        """, players=3, zones={"hand(0)": ["1H"], "hand(1)": ["2S"], "hand(2)": ["3H", "1S"]},
             vars={"holders": 0, "who": 0})
    assert m.vars == {"holders": 2, "who": 1}


def test_filters_read_the_locals_around_them(tmp_path):
    """A filter's test may read let and for locals, a procedure's parameters
    and locals (also when the procedure is written in place of its call),
    and any/empty of a filter stop as soon as they know."""
    extra = """
        procedures:
          over:
            params: [limit]
            effect: |
              let low = limit - 1
              found = size(deck where it.value > low)
              none_above = empty(deck where it.value > limit + 5)
        """
    m = run(tmp_path, """
        let least = 2
        big = size(deck where it.value >= least)
        others = size(players where it != current and "L_p0_s L3_x" != "")
        for s in ["H", "S"]:
          if any(deck where it.suit == s and it.value >= least):
            suits += [s]
        call over(2)
        """, zones={"deck": ["3S", "1H", "2H", "1S"]},
        vars={"big": 0, "others": 0, "suits": [], "found": 0, "none_above": False}, extra=extra)
    assert m.vars == {"big": 2, "others": 1, "suits": ["H", "S"], "found": 2, "none_above": True}


def test_choice_options_filter_with_the_choices_parameters(tmp_path):
    """An option's 'where' may read the choice's parameters; options that
    filter the same cards by card properties alone are offered as before."""
    extra = """
        choices:
          pick:
            params: [least]
            options:
              - name: high
                cards: 1
                from: hand(current)
                where: it.value >= least
              - name: heart
                cards: 1
                from: hand(current)
                where: it.suit == "H"
              - name: spade
                cards: 1
                from: hand(current)
                where: it.suit == "S"
        """
    game = load(tmp_path, "choose pick(3)", extra=extra)
    m = prepare(game, players=1, zones={"hand(0)": ["1H", "3H", "2S"]})
    assert legal(m) == [("heart", ("1H",), None), ("heart", ("3H",), None),
                        ("high", ("3H",), None), ("spade", ("2S",), None)]


def test_a_chosen_answer_reads_the_same_in_every_match(tmp_path):
    """Answers are made once per game and player and shared by matches: what
    rules read of them (cards, their properties, who chose) stays right."""
    extra = """
        choices:
          pick:
            options:
              - name: one
                cards: 1
                from: hand(current)
        """
    effect = """
        choose pick
        suits = pick.cards.suit
        total = sum(pick.cards.value)
        by = pick.by
        move pick.cards to pile
        win "done"
        """
    game = load(tmp_path, effect, vars={"suits": [], "total": 0, "by": -1}, extra=extra)
    seen = []
    for seat in (0, 1, 0):
        m = prepare(game, players=2, current=seat, zones={f"hand({seat})": ["2S", "3H"]})
        m.apply(action(m, "one", "2S"))
        seen.append((m.vars["suits"], m.vars["total"], m.vars["by"], top_first(m, "pile")))
    assert seen == [(["S"], 2, 0, ["2S"]), (["S"], 2, 1, ["2S"]), (["S"], 2, 0, ["2S"])]


#: a text the compiler does not know to be one (an entry of a table), to compare card values with
WORD = "tables:\n  word: {a: x}"


def test_a_failing_filter_names_its_statement(tmp_path):
    path = write_game(tmp_path, 'n = size(deck where it.value > word["a"])\nwin "done"', vars={"n": 0}, extra=WORD)
    game = rulekit.load_game(path)
    with pytest.raises(rulekit.RuleRuntimeError) as info:
        prepare(game, players=1, zones=DECK)
    line = path.read_text(encoding="utf-8").splitlines().index('        n = size(deck where it.value > word["a"])') + 1
    assert info.value.where is not None and info.value.where.line == line
    assert "phase 'main'" in str(info.value) and "'>' cannot compare a number with a text" in str(info.value)


@pytest.mark.parametrize("effect", [
    'n = size(deck where it.value > 2 and it.value < "x")',
    'move (deck where it.value > 2 and it.value < "x") to pile\nmove (deck where it.value == 1) to pile',
])
def test_a_card_test_fails_only_for_the_cards_it_is_read_for(tmp_path, effect):
    """A test of card properties that cannot be worked out for some card
    fails when, and only when, a rule reads it for that card.  (Two more
    cards have a text as their value, so a value is not known to be a
    number, and comparing one with a text is no error when the file loads.)"""
    path = write_game(tmp_path, effect + '\nwin "done"', vars={"n": 0})
    path.write_text(path.read_text(encoding="utf-8").replace(
        '- {rank: "3", value: 3}', '- {rank: "3", value: 3}\n        - {rank: "W", value: "wild"}'), encoding="utf-8")
    game = rulekit.load_game(path)
    assert "TB0" in game.code, "the test is worked out for every card as the file loads"
    assert prepare(game, players=1, zones={"deck": ["1H", "2H"]}).is_over()
    with pytest.raises(rulekit.RuleRuntimeError, match="cannot compare a number with a text"):
        prepare(game, players=1, zones={"deck": ["1H", "3S"]})


def test_list_attributes(tmp_path):
    m = run(tmp_path, """
        values = hand(0).value
        suits = hand(0).suit
        total = sum(hand(0).value)
        spade = "S" in hand(0).suit
        heart = "H" in hand(1).suit
        """, zones={"hand(0)": ["3H", "1S"], "hand(1)": ["2S"]},
             vars={"values": 0, "suits": 0, "total": 0, "spade": 0, "heart": 0})
    assert m.vars == {"values": [1, 3], "suits": ["S", "H"], "total": 4, "spade": True,
                      "heart": False}


def test_builtin_functions(tmp_path):
    m = run(tmp_path, """
        r_size = size(deck)
        r_count = count(deck where it.suit == "H")
        r_sum = sum([1, 2, 3])
        r_any = any(pile)
        r_none = size(pile) == 0
        r_any_deck = any(deck)
        r_min_list = min([3, 1, 2])
        r_min_args = min(4, 2, 9)
        r_max = max(deck.value)
        r_max_args = max(0, size(deck) - 5)
        r_top = top(deck).value
        r_top2 = top(deck, 2).value
        r_top_empty = top(pile)
        r_bottom = bottom(deck).value
        r_bottom2 = bottom(deck, 2).value
        r_shuffled = size(shuffled(deck))
        r_shuffled_sum = sum(shuffled(deck).value)
        r_next = next(current)
        r_prev = prev(current)
        r_next_last = next(2)
        r_room = room(hand(0))
        r_limit = limit(hand(0))
        r_first = first([5, 6])
        r_first_empty = first(pile)
        r_unique = unique([1, 2, 1, 3, 2])
        r_unique_suits = unique(deck.suit)
        r_abs = abs(-4)
        """, players=3, zones={**DECK, "hand(0)": ["1S"]},
             vars=dict.fromkeys(["r_size", "r_count", "r_sum", "r_any", "r_none", "r_any_deck",
                                 "r_min_list", "r_min_args", "r_max", "r_max_args", "r_top", "r_top2",
                                 "r_top_empty", "r_bottom", "r_bottom2", "r_shuffled", "r_shuffled_sum",
                                 "r_next", "r_prev", "r_next_last", "r_room", "r_limit", "r_first",
                                 "r_first_empty", "r_unique", "r_unique_suits", "r_abs"], 0))
    assert m.vars == {
        "r_size": 3, "r_count": 2, "r_sum": 6, "r_any": False, "r_none": True, "r_any_deck": True,
        "r_min_list": 1, "r_min_args": 2, "r_max": 3, "r_max_args": 0,
        "r_top": 3, "r_top2": [3, 1], "r_top_empty": None,          # top(z, n): top first
        "r_bottom": 2, "r_bottom2": [2, 1], "r_shuffled": 3, "r_shuffled_sum": 6,
        "r_next": 1, "r_prev": 2, "r_next_last": 0, "r_room": 2, "r_limit": 3,
        "r_first": 5, "r_first_empty": None, "r_unique": [1, 2, 3], "r_unique_suits": ["H", "S"],
        "r_abs": 4,
    }
    assert top_first(m, "deck") == ["3S", "1H", "2H"]     # shuffled() shuffles a copy


def test_join_of_zones_lists_a_card_and_none(tmp_path):
    """join() makes one new list of zones' cards, lists, a single card and
    none (nothing), in argument order; the lists it was given stay as they were."""
    m = run(tmp_path, """
        let hearts = deck where it.suit == "H"
        both = join(deck, hand(0))
        mixed = join(hearts, top(deck), none, [1, 2])
        names = join(deck.suit, ["x"])
        kept = size(hearts)
        """, zones={**DECK, "hand(0)": ["1S"]},
        vars={"both": [], "mixed": [], "names": [], "kept": 0})
    assert names(m.vars["both"]) == ["2H", "1H", "3S", "1S"]     # bottom to top, then the hand
    assert [c if isinstance(c, int) else c.name for c in m.vars["mixed"]] == ["2H", "1H", "3S", 1, 2]
    assert m.vars["names"] == ["H", "H", "S", "x"] and m.vars["kept"] == 2


def test_builtin_empty(tmp_path):
    """empty(list) is the opposite of any(list) (``none`` is the empty value)."""
    m = run(tmp_path, "r1 = empty(pile)\nr2 = empty(deck)", zones=DECK, vars={"r1": 0, "r2": 0})
    assert m.vars == {"r1": True, "r2": False}


def test_none_is_the_empty_value(tmp_path):
    m = run(tmp_path, "r1 = top(pile) == none\nr2 = none", vars={"r1": 0, "r2": 0})
    assert m.vars == {"r1": True, "r2": None}


def test_zone_limit_from_an_expression(tmp_path):
    extra = "tables:\n  size_for: {1: 2, 2: 1}\n"
    path = write_game(tmp_path, 'r = room(hand(current))\nwin "done"', vars={"r": 0}, extra=extra,
                      players=(1, 2))
    text = path.read_text(encoding="utf-8").replace("limit: 3", 'limit: "size_for[player_count]"')
    path.write_text(text, encoding="utf-8")
    game = rulekit.load_game(path)
    assert prepare(game, players=1).vars["r"] == 2
    assert prepare(game, players=2).vars["r"] == 1


# ---- statements -----------------------------------------------------------------------


def test_let_assign_and_compound_assignment(tmp_path):
    m = run(tmp_path, """
        let n = 1
        n += 4
        n -= 2
        total = n * 10
        score -= 5
        score += total
        let word = "a"
        word = word + "b"
        text = word
        """, vars={"total": 0, "score": 0, "text": ""})
    assert m.vars == {"total": 30, "score": 25, "text": "ab"}


def test_compound_assignment_never_changes_a_list_another_name_holds(tmp_path):
    """``a = b`` then ``a += [x]`` leaves ``b`` as it was, and adding to a
    chosen answer's cards leaves the answer (and the same answer in later
    matches) as it was: values in effect text are values."""
    extra = """
        choices:
          pick:
            options:
              - name: card
                cards: 1
                from: deck
        """
    effect = """
        choose pick
        let cs = pick.cards
        cs += [top(deck)]
        a = b
        a += [1]
        seen = size(cs) * 10 + size(pick.cards)
        win "done"
        """
    game = load(tmp_path, effect, vars={"a": [], "b": [], "seen": 0}, extra=extra)
    for _ in range(2):
        m = prepare(game, players=1, zones=DECK)
        m.apply(action(m, "card", "1H"))
        assert m.vars == {"a": [1], "b": [], "seen": 21}
        assert names(m.chosen["pick"].cards) == ["1H"]


def test_player_variables(tmp_path):
    m = run(tmp_path, """
        for p in players:
          p.hp -= p + 1
        current.hp += 10
        total = sum(players.hp)
        mine = current.hp
        """, players=3, vars={"total": 0, "mine": 0}, player_vars={"hp": 3})
    assert m.pvars == [{"hp": 12}, {"hp": 1}, {"hp": 0}]
    assert m.vars == {"total": 13, "mine": 12}
    assert m.view(None)["player_vars"] == [{"hp": 12}, {"hp": 1}, {"hp": 0}]


def test_if_elif_else(tmp_path):
    m = run(tmp_path, """
        for n in [1, 2, 3, 2]:
          if n == 1:
            a += 1
          elif n == 2:
            b += 1
          else:
            c += 1
        if a > 5: a = 100
        """, vars={"a": 0, "b": 0, "c": 0})
    assert m.vars == {"a": 1, "b": 2, "c": 1}


def test_while(tmp_path):
    m = run(tmp_path, """
        let i = 0
        while i < 5:
          i += 1
          total += i
        while size(deck) > 0:
          move top(deck, 1) to pile
        """, zones=DECK, vars={"total": 0})
    assert m.vars["total"] == 15
    assert top_first(m, "pile") == ["2H", "1H", "3S"]   # drawn one at a time
    assert m.zone("deck").cards == []


def test_for_over_cards_and_players(tmp_path):
    m = run(tmp_path, """
        for c in deck:
          total += c.value
          order = order * 10 + c.value
        for p in players:
          move top(deck, 1) to hand(p)
        """, players=2, zones=DECK, vars={"total": 0, "order": 0})
    assert m.vars == {"total": 6, "order": 213}          # bottom to top
    assert top_first(m, "hand", 0) == ["3S"] and top_first(m, "hand", 1) == ["1H"]


def test_procedures_call_procedures(tmp_path):
    extra = """
        procedures:
          outer: |
            calls += 1
            call middle
          middle: |
            calls += 10
            call inner
          inner: |
            calls += 100
        """
    m = run(tmp_path, "call outer\ncall inner", vars={"calls": 0}, extra=extra)
    assert m.vars["calls"] == 211


def test_a_procedure_that_decides_suspends_its_callers(tmp_path):
    extra = """
        choices:
          ask:
            options:
              - name: accept
              - name: decline
        procedures:
          outer: |
            call asker
            after = 1
          asker: |
            choose ask
            answer = ask.option
        """
    game = load(tmp_path, 'call outer\nwin "done"', vars={"answer": "", "after": 0}, extra=extra)
    m = game.new_match(players=1)
    assert m.decision.choice == "ask" and m.vars["after"] == 0
    m.apply({"option": "decline"})
    assert m.vars == {"answer": "decline", "after": 1} and m.is_over()


def test_emit_and_triggers_with_when(tmp_path):
    extra = """
        triggers:
          - "on": scored
            effect: |
              seen += 1
          - "on": scored
            when: score >= 2
            effect: |
              bonus += 1
          - "on": other
            effect: |
              wrong = 1
        """
    m = run(tmp_path, """
        score = 1
        emit scored
        score = 2
        emit scored
        if false:
          emit other
        """, vars={"score": 0, "seen": 0, "bonus": 0, "wrong": 0}, extra=extra)
    assert m.vars == {"score": 2, "seen": 2, "bonus": 1, "wrong": 0}


def test_a_trigger_can_ask_for_a_choice(tmp_path):
    extra = """
        choices:
          ask:
            options:
              - name: accept
              - name: decline
        triggers:
          - "on": ring
            effect: |
              choose ask
              answer = ask.option
        """
    game = load(tmp_path, 'emit ring\nafter = 1\nwin "done"', vars={"answer": "", "after": 0},
                extra=extra)
    m = game.new_match(players=1)
    assert m.decision.choice == "ask"
    m.apply({"option": "accept"})
    assert m.vars == {"answer": "accept", "after": 1}


def test_a_trigger_written_with_a_bare_on_key_loads(tmp_path):
    extra = """
        triggers:
          - on: scored
            effect: |
              seen += 1
        """
    m = run(tmp_path, "emit scored", vars={"seen": 0}, extra=extra)
    assert m.vars["seen"] == 1


def test_goto_a_phase(tmp_path):
    phases = [("one", "x += 1\ngoto three"), ("two", "y += 1"), ("three", 'z += 1\nwin "done"')]
    m = prepare(load(tmp_path, phases=phases, vars={"x": 0, "y": 0, "z": 0}), players=1)
    assert m.vars == {"x": 1, "y": 0, "z": 1}
    assert m.phase == "three"


def test_goto_back_to_an_earlier_phase(tmp_path):
    phases = [("a", "n += 1"), ("b", 'if n < 3:\n  goto a\nwin "done"')]
    m = prepare(load(tmp_path, phases=phases, vars={"n": 0}), players=1)
    assert m.vars["n"] == 3 and m.turn == 1


@pytest.mark.parametrize("effect", ["n += 1\ngoto main", "while true:\n  n += 1\n  goto main"])
def test_a_phase_that_goes_to_itself_forever_is_stopped(tmp_path, effect):
    """A turn that never ends: each goto counts a step (from a loop too)."""
    game = load(tmp_path, effect, vars={"n": 0})
    with pytest.raises(rulekit.StepBudgetExceeded) as info:
        game.new_match(players=1, step_budget=300)
    assert info.value.rule == "phase 'main'" and info.value.where is not None


def test_turns_that_never_decide_are_stopped(tmp_path):
    """Turn after turn with nothing to decide: each turn counts a step."""
    game = load(tmp_path, "n += 1", vars={"n": 0})
    with pytest.raises(rulekit.StepBudgetExceeded) as info:
        game.new_match(players=2, step_budget=300)
    assert info.value.rule == "phase 'main'"


def test_end_turn_and_next_player(tmp_path):
    phases = [("one", """
        turns += 1
        current.went = turns
        if turns == 3:
          win "done"
        if turns == 1:
          next player 2
        end turn
        """), ("two", "reached = 1")]
    game = load(tmp_path, phases=phases, vars={"turns": 0, "reached": 0},
                player_vars={"went": 0})
    m = prepare(game, players=3)
    # Turn 1: seat 0 names seat 2; turn 2: seat 2, then the next seat (0).
    assert [p["went"] for p in m.pvars] == [3, 0, 2]
    assert m.vars["reached"] == 0 and m.turn == 3
    assert [e["player"] for e in m.events("all") if e["event"] == "turn"] == [0, 2, 0]


def test_turns_pass_to_the_next_seat_by_default(tmp_path):
    phases = [("one", 'turns += 1\ncurrent.went += 1\nif turns == 5:\n  win "done"')]
    m = prepare(load(tmp_path, phases=phases, vars={"turns": 0}, player_vars={"went": 0}), players=2)
    assert [p["went"] for p in m.pvars] == [3, 2]


def test_win_and_lose_with_reason(tmp_path):
    won = prepare(load(tmp_path, 'win "all enemies fell"'), players=2)
    assert won.result() == {"outcome": "win", "reason": "all enemies fell", "winners": [0, 1],
                            "stats": {}, "player_stats": {}}
    lost = prepare(load(tmp_path, "lose 'out of time'"), players=2)
    assert lost.result()["outcome"] == "loss" and lost.result()["reason"] == "out of time"
    assert lost.result()["winners"] == []
    plain = prepare(load(tmp_path, "win"), players=1)
    assert plain.result()["outcome"] == "win" and plain.result()["reason"]
    assert plain.decision is None and plain.legal_actions() == []
    with pytest.raises(rulekit.IllegalAction):
        plain.apply(0)


def test_log(tmp_path):
    m = run(tmp_path, 'log "hello there"\nlog \'and again\'')
    notes = [e["text"] for e in m.events("all") if e["event"] == "note"]
    assert notes == ["hello there", "and again"]


def test_log_joins_strings_with_plus(tmp_path):
    """A module writes its notes with its text parameters (see
    test_modules); once they are strings, the note is strings joined."""
    m = run(tmp_path, 'log "the " + \'shield\' + ": no effect"')
    assert [e["text"] for e in m.events("all") if e["event"] == "note"] == ["the shield: no effect"]


@pytest.mark.parametrize("text", ['"n = " + n', '"a" - "b"', "n"])
def test_log_refuses_a_text_computed_in_the_match(tmp_path, text):
    """Every player reads the log: a note is fixed when the file loads, so
    nothing a match computes (a hidden card's name) can reach it."""
    (error,) = refused(tmp_path, f"let n = 1\nlog {text}")
    assert error.message == "log writes a fixed text"
    assert "strings joined with +" in error.expected


def test_stats_read_the_outcome(tmp_path):
    extra = """
        stats:
          points: score * 2
          verdict: "'good' if outcome == 'win' else 'bad'"
          fixed: 7
        """
    m = prepare(load(tmp_path, 'score = 4\nwin "done"', vars={"score": 0}, extra=extra), players=1)
    assert m.result()["stats"] == {"points": 8, "verdict": "good", "fixed": 7}


# ---- choices ------------------------------------------------------------------------------


PICK = """
    choices:
      pick:
        who: current
        prompt: "Pick cards"
        options:
          - name: set
            cards: 1..2
            same: suit
            from: hand(current)
            where: it.value > 1
            require: sum(chosen.value) >= 3
          - name: pass
    """


def test_choose_cards_with_range_same_where_require(tmp_path):
    effect = """
        choose pick
        picked = pick.option
        total = sum(pick.cards.value)
        n = size(pick.cards)
        move pick.cards to pile
        win "done"
        """
    game = load(tmp_path, effect, vars={"picked": "", "total": 0, "n": 0}, extra=PICK)
    m = prepare(game, players=2, zones={"hand(0)": ["1H", "2H", "3H", "2S", "3S"]})
    assert m.decision.player == 0 and m.decision.choice == "pick"
    assert m.decision.prompt == "Pick cards"
    # where: value > 1 drops 1H; same: no mixed suits; require: at least 3 in total.
    assert legal(m) == [("pass", (), None), ("set", ("2H", "3H"), None), ("set", ("2S", "3S"), None),
                        ("set", ("3H",), None), ("set", ("3S",), None)]
    with pytest.raises(rulekit.IllegalAction):
        m.apply(action(m, "pass")._replace(option="set", cards=(0,)))   # 1H alone
    assert m.decision is not None and not m.is_over()                    # unchanged
    m.apply(action(m, "set", "2S", "3S"))
    assert m.vars == {"picked": "set", "total": 5, "n": 2}
    assert sorted(top_first(m, "pile")) == ["2S", "3S"]
    assert sorted(top_first(m, "hand", 0)) == ["1H", "2H", "3H"]


def test_choose_exactly_n_cards(tmp_path):
    extra = """
        choices:
          pick:
            options:
              - name: two
                cards: 2
                from: hand(current)
        """
    game = load(tmp_path, "choose pick", extra=extra)
    m = prepare(game, players=1, zones={"hand(0)": ["1H", "2H", "3H"]})
    assert legal(m) == [("two", ("1H", "2H"), None), ("two", ("1H", "3H"), None),
                        ("two", ("2H", "3H"), None)]


def test_choose_a_player(tmp_path):
    extra = """
        choices:
          target:
            prompt: "Whom?"
            options:
              - name: player
                player: players
                where: it != current
        """
    effect = """
        choose target
        victim = target.player
        how = target.option
        by = target.by
        victim.hp -= 1
        win "done"
        """
    game = load(tmp_path, effect, vars={"victim": -1, "how": "", "by": -1}, player_vars={"hp": 3},
                extra=extra)
    m = prepare(game, players=3, current=1)
    assert m.decision.player == 1
    assert legal(m) == [("player", (), 0), ("player", (), 2)]
    m.apply({"option": "player", "player": 2})
    assert m.vars == {"victim": 2, "how": "player", "by": 1}
    assert [p["hp"] for p in m.pvars] == [3, 3, 2]


def test_plain_options_with_when(tmp_path):
    extra = """
        choices:
          ask:
            options:
              - name: bonus
                when: score > 0
              - name: skip
        """
    game = load(tmp_path, "choose ask\nlast = ask.option", vars={"score": 0, "last": ""}, extra=extra)
    assert legal(prepare(game, players=1)) == [("skip", (), None)]
    m = prepare(game, players=1, vars={"score": 1})
    assert legal(m) == [("bonus", (), None), ("skip", (), None)]
    m.apply({"option": "bonus"})
    assert m.vars["last"] == "bonus"


def test_if_none_runs_when_nothing_is_legal(tmp_path):
    extra = """
        choices:
          play:
            if_none: lose "nothing to play"
            options:
              - name: card
                cards: 1
                from: hand(current)
        """
    game = load(tmp_path, "choose play\nmove play.cards to pile", extra=extra)
    m = prepare(game, players=1)
    assert m.result()["outcome"] == "loss" and m.result()["reason"] == "nothing to play"
    m = prepare(game, players=1, zones={"hand(0)": ["2S"]})
    assert legal(m) == [("card", ("2S",), None)]


def test_can_choose(tmp_path):
    extra = """
        choices:
          play:
            options:
              - name: card
                cards: 1
                from: hand(current)
        """
    effect = 'able = can_choose(play)\nwin "done"'
    game = load(tmp_path, effect, vars={"able": 0}, extra=extra)
    assert prepare(game, players=1).vars["able"] is False
    assert prepare(game, players=1, zones={"hand(0)": ["1H"]}).vars["able"] is True


def test_moves_to_top_and_bottom(tmp_path):
    m = run(tmp_path, """
        move top(deck, 1) to pile
        move bottom(deck) to pile bottom
        move deck to pile top
        """, zones={"deck": ["1H", "2H", "3H"], "pile": ["1S"]})
    assert top_first(m, "pile") == ["2H", "1H", "1S", "3H"]
    assert m.zone("deck").cards == []
    moves = [e for e in m.events("all") if e["event"] == "move" and e["to"] == "pile"]
    assert [e["cards"] for e in moves][-3:] == [["1H"], ["3H"], ["2H"]]


def test_moving_several_cards_deals_them_one_at_a_time(tmp_path):
    m = run(tmp_path, "move top(deck, 2) to pile", zones={"deck": ["1H", "2H", "3H"]})
    assert top_first(m, "pile") == ["2H", "1H"]
    assert top_first(m, "deck") == ["3H"]


def test_moves_where_in_a_row_take_cards_in_statement_order(tmp_path):
    """Several ``move (Z where T) to D`` in a row from one zone run in one
    pass; each card still goes where the first statement that takes it says,
    and each statement logs its own move."""
    m = run(tmp_path, """
        move deck where it.suit == "H" to pile
        move deck where it.value == 1 to pile bottom
        move shuffled(deck where it.value >= 2) to hand(current)
        """, zones={"deck": ["1H", "1S", "2S", "3H", "3S"]})
    assert sorted(top_first(m, "pile")[:2]) == ["1H", "3H"] and top_first(m, "pile")[2] == "1S"
    assert sorted(names(m.zone("hand", 0).cards)) == ["2S", "3S"]
    assert m.zone("deck").cards == []
    moves = [(e["to"], sorted(e["cards"])) for e in m.events("all") if e["event"] == "move"][-3:]
    assert moves == [("pile", ["1H", "3H"]), ("pile", ["1S"]), ("hand(0)", ["2S", "3S"])]
    assert "move_split" in m.game.code


def test_shuffle_keeps_the_cards(tmp_path):
    m = run(tmp_path, "shuffle deck", zones={"deck": ["1H", "2H", "3H", "1S"]})
    assert sorted(top_first(m, "deck")) == ["1H", "1S", "2H", "3H"]


def test_multi_line_heuristic(tmp_path):
    extra = PICK + """
    heuristics:
      pick: |
        (100 if sum(chosen.value) >= 5 else 0)
        + size(chosen)
        - (50 if option == "pass"
              else 0)
    """
    game = load(tmp_path, "choose pick", extra=extra)
    h = game.choices["pick"].heuristic
    assert h is not None
    m = prepare(game, players=1, zones={"hand(0)": ["2S", "3S"]})
    two_s, three_s = (game.card_named(n)[0] for n in ("2S", "3S"))
    assert h(m, [two_s, three_s], "set", None) == 102
    assert h(m, [three_s], "set", None) == 1
    assert h(m, [], "pass", None) == -50


# ---- effect text cannot reach Python ------------------------------------------------------


PAYLOAD = "__import__('os').system('echo hi')"


def test_a_python_looking_string_stays_a_plain_string(tmp_path, capfd):
    effect = f'text = "{PAYLOAD}"\nlog "{PAYLOAD}"\nwin "{PAYLOAD}"'
    extra = f"""
        tables:
          t: {{1: "{PAYLOAD}"}}
        choices:
          ask:
            prompt: "{PAYLOAD}"
            options:
              - name: ok
        """
    game = load(tmp_path, effect, vars={"text": "", "init": PAYLOAD}, extra=extra)
    m = prepare(game, players=1)
    assert m.vars == {"text": PAYLOAD, "init": PAYLOAD}
    assert m.result()["reason"] == PAYLOAD
    assert [e["text"] for e in m.events("all") if e["event"] == "note"] == [PAYLOAD]
    assert game.choices["ask"].prompt == PAYLOAD
    out, err = capfd.readouterr()
    assert "hi" not in out.split() and "hi" not in err.split()


@pytest.mark.parametrize("name", ["__class__", "__builtins__", "__import__", "__name__", "m", "V",
                                  "L_x", "_seq", "eval", "exec", "open", "os", "self", "it",
                                  "chosen"])
def test_python_names_are_unknown_names(tmp_path, name):
    errors = refused(tmp_path, f"let x = 1\nvalue = {name}", vars={"value": 0})
    assert [e.message for e in errors] == [f"unknown name '{name}'"]


@pytest.mark.parametrize("call", ['__import__("os")', 'eval("1")', 'exec("1")', 'open("f")',
                                  'getattr(current, "x")', "type(current)", "len(deck)",
                                  "globals()", "print(1)"])
def test_python_functions_are_unknown_functions(tmp_path, call):
    errors = refused(tmp_path, f"value = {call}", vars={"value": 0})
    assert [e.message for e in errors] == [f"unknown function '{call.split('(')[0]}'"]


def test_dunder_attributes_are_rejected(tmp_path):
    extra = """
        choices:
          ask:
            options:
              - name: ok
        """
    with pytest.raises(rulekit.RuleFileError) as info:
        load(tmp_path, "choose ask\nvalue = ask.__class__", vars={"value": 0}, extra=extra)
    assert "__class__" in str(info.value)


def test_a_trigger_event_name_is_never_code(tmp_path, capfd):
    extra = f"""
        triggers:
          - "on": "x'); {PAYLOAD}; ('"
            effect: |
              pass
        """
    errors = refused(tmp_path, "pass", extra=extra)
    assert [e.message for e in errors] == [f"no effect ever emits event 'x'); {PAYLOAD}; (''"]
    out, err = capfd.readouterr()
    assert "hi" not in out.split() and "hi" not in err.split()


def test_subtrees_lists_every_subtree_once_each_before_its_children():
    from rulekit.lang.parser import parse_effect, subtrees

    tree = parse_effect("for p in players:\n  if p.score > 2 and any(hand(p)):\n    win for p\n")
    every = subtrees(tree)
    assert every[0] is tree and len(every) == len({id(t) for t in every})
    assert {id(t) for t in every} == {id(t) for t in tree.iter_subtrees()}
    at = {id(t): i for i, t in enumerate(every)}
    assert all(at[id(child)] > at[id(t)] for t in every for child in t.children
               if isinstance(child, type(tree)))


def test_a_filter_whose_test_filters_again_through_a_procedure(tmp_path):
    """``A where any(near(it) where ...)``: the outer filter's elements and
    the inner filter's are kept apart (an outlined filter once named its
    elements like the helper the inner one calls)."""
    extra = """
    procedures:
      near:
        params: [c]
        effect: return pile where it.value == c.value + 1
    """
    m = run(tmp_path, """
        let xs = pile where any(near(it) where it.suit == "S")
        vars_out = size(xs)
        """.replace("vars_out", "found"), vars={"found": -1}, extra=extra,
            zones={"pile": ["1H", "2S", "2H", "3H"]})
    assert m.vars["found"] == 1          # 1H (2S above it); 2H's 3H is no spade


def test_a_top_card_moved_to_the_bottom_goes_under_and_a_shuffled_filter_moves_its_cards(tmp_path):
    """``move top(Z, 1) to D bottom`` (a draw, moved in one step) puts the
    card under D's others; ``move shuffled(Z where T) to D`` takes the
    cards that pass out of Z and puts them on D in a random order."""
    m = run(tmp_path, """
        move top(deck, 1) to pile bottom
        move shuffled(deck where it.value >= 2) to pile
        """, zones=(zones := {"deck": ["1H", "2H", "3H", "2S", "3S"], "pile": ["1S"]}))
    assert top_first(m, "pile")[-2:] == ["1S", "1H"]
    assert sorted(top_first(m, "pile")[:4]) == ["2H", "2S", "3H", "3S"]
    assert top_first(m, "deck") == []
    moves = [(e["to"], e["cards"]) for e in m.events("all") if e["event"] == "move"][-2:]
    assert moves[0] == ("pile", ["1H"]) and sorted(moves[1][1]) == ["2H", "2S", "3H", "3S"]
    # in a random order: the match's seed decides it (the same seed, the same order)
    game = m.game
    orders = {tuple(top_first(prepare(game, players=2, seed=seed, zones=zones), "pile")[:4]) for seed in range(8)}
    assert len(orders) > 1, orders


def test_next_prev_and_seats_from_skip_the_eliminated(tmp_path):
    """``next``, ``prev`` and ``seats_from`` go round the players still in
    the game: an eliminated seat is passed over, however many in a row."""
    game = load(tmp_path, """
        eliminate 1
        eliminate 4
        eliminate 3
        a = next(0)
        b = prev(0)
        c = prev(2)
        d = next(2)
        e = seats_from(2)
        win "done"
        """, vars={k: 0 for k in "abcde"}, players=(5, 5))
    m = prepare(game, players=5)
    assert m.result()["reason"] == "done"
    assert [m.vars[k] for k in "abcde"] == [2, 2, 0, 0, [2, 0]]


@pytest.mark.parametrize("text, hint", [
    ("if true:\n\twin )\n", "indent effect text with spaces, not tabs"),            # a tab indents the line
    ("if true:\n  win\t)\n", "see the effect language reference, docs/language.md"),  # a tab elsewhere: no
    ("if x = 1:\n  win\n", "compare with '==', assign with '='"),
    ("if true\n  win\n", "a block statement ends with ':' and its body is indented on the next lines"),
])
def test_a_syntax_error_hints_at_the_likely_slip(text, hint):
    from rulekit.lang.parser import EffectSyntaxError, parse_effect

    with pytest.raises(EffectSyntaxError) as info:
        parse_effect(text)
    assert info.value.hint == hint
