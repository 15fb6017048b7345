"""The passes over expression trees (rulekit.lang.pass_tables,
pass_inline, pass_hoist, pass_facts, pass_invariant), each on trees made
by hand, and the printer picking the Python form from what a part is after
a pass."""
from __future__ import annotations

from game_files import game_path, load

import rulekit
from rulekit.lang import pass_facts, pass_hoist, pass_inline, pass_invariant, pass_tables
from rulekit.lang.expr_ir import (
    Attr,
    Builtin,
    CardVar,
    Index,
    Inlined,
    Lit,
    Local,
    Op,
    ProcCall,
    Where,
    ZoneOf,
)

IT = Local("it", "L_it", "card")
HAND = Lit("GZ[0]", "zone", shared=True, hoist="GZ")
HEARTS = Lit("'hearts'", "str", plain=True, fixed=True)
NONE_LIT = Lit("None", plain=True, fixed=True)


def suit_is_hearts(base=IT):
    return Op("binary", "==", (Attr(base, "suit", card_prop=True), HEARTS), "bool")


# ---- tables ----------------------------------------------------------------------
def test_a_test_of_card_properties_and_constants_is_tabled():
    where = Where(HAND, suit_is_hearts(), "card")
    assert pass_tables.run(where) == Where(HAND, suit_is_hearts(), "card", tabled=True)


def test_a_test_of_card_variables_of_match_state_or_of_a_call_is_not_tabled():
    score = Lit("V['score']", "any", hoist="V")
    for test in (Op("binary", "==", (CardVar(IT, "worn"), HEARTS), "bool"),     # a card's state changes
                 Op("binary", "<", (Attr(IT, "rank", card_prop=True), score), "bool"),
                 ProcCall("red", "proc_red", (IT,)),
                 Builtin("size", (HAND,))):
        assert pass_tables.run(Where(HAND, test, "card")).tabled is False, test


def test_a_test_written_in_place_from_a_procedure_of_card_properties_is_tabled():
    """Tables run after inlining: ``deck where is_red(it)`` reads only the
    card's properties once ``is_red``'s expression is written in place."""
    where = Where(HAND, Inlined(suit_is_hearts()), "card")
    assert pass_tables.run(where).tabled is True


def test_only_filters_over_cards_are_tabled_and_nested_ones_too():
    seats = Lit("m.players", "seats")
    assert pass_tables.run(Where(seats, suit_is_hearts(), "int")).tabled is False
    inner = Where(HAND, suit_is_hearts(), "card")
    outer = Builtin("size", (inner,))
    assert pass_tables.run(outer).args[0].tabled is True


# ---- inlining --------------------------------------------------------------------
P = Local("p", "L_p", "any")
HP_OF = (("p",), Attr(P, "hp", player_var=True, player_only=True))       # return p.hp


def callees(table):
    return lambda name: table.get(name)


def test_a_call_with_plain_arguments_becomes_the_expression_with_the_arguments_put_in():
    current = Lit("m.current", "int", plain=True)
    call = ProcCall("hp_of", "proc_hp_of", (current,))
    out = pass_inline.run(call, callees({"hp_of": HP_OF}))
    assert out == Inlined(Attr(current, "hp", player_var=True, player_only=True))
    assert out.kind == "any"


def test_a_call_with_an_argument_that_is_not_plain_stays_a_call():
    size = Builtin("size", (HAND,))             # computed: written in place it could be computed twice
    call = ProcCall("hp_of", "proc_hp_of", (size,))
    assert pass_inline.run(call, callees({"hp_of": HP_OF})) == call
    other = ProcCall("draw", "proc_draw", (P,))     # not an expression procedure
    assert pass_inline.run(other, callees({"hp_of": HP_OF})) == other


def test_calls_inside_a_written_in_expression_are_written_in_place_in_turn():
    x = Local("x", "L_x", "int")
    twice = (("n",), Op("binary", "+", (Local("n", "L_n"), Local("n", "L_n")), "int"))
    outer = (("q",), ProcCall("twice", "proc_twice", (Local("q", "L_q"),)))
    out = pass_inline.run(ProcCall("outer", "proc_outer", (x,)),
                          callees({"twice": twice, "outer": outer}))
    assert out == Inlined(Inlined(Op("binary", "+", (x, x), "int")))
    # ... but not inside an expression of eight parameters or more (the code's growth is bounded)
    many = tuple(f"a{i}" for i in range(8))
    wide = (many, ProcCall("twice", "proc_twice", (Local("a0", "L_a0"),)))
    out = pass_inline.run(ProcCall("wide", "proc_wide", (x,) * 8), callees({"twice": twice, "wide": wide}))
    assert out == Inlined(ProcCall("twice", "proc_twice", (x,)))


def test_an_expression_already_written_in_place_is_left_as_it_is():
    done = Inlined(ProcCall("hp_of", "proc_hp_of", (P,)))
    assert pass_inline.run(done, callees({"hp_of": HP_OF})) is done


# ---- the printer reads the kinds after the passes ---------------------------------
GAME = """\
name: Kinds
players: {min: 2, max: 2}
cards:
  - {name: a, count: 4, props: {kind: a, power: 2}}
zones:
  deck: {}
  hand: {per_player: true}
player_vars: {hp: 3}
procedures:
  hp_of:
    params: [x]
    effect: return x.hp
  power_of:
    params: [x]
    effect: return x.power
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        if any(deck where power_of(it) == 2) and hp_of(current) == 3:
          win for [current] "read"
        win for players "not read"
"""


def test_a_parameter_read_is_printed_for_what_the_argument_is():
    """``x.hp`` and ``x.power`` of a parameter of unknown kind are generic
    reads in the procedures; written in place with a seat and a card (a
    filter's ``it``), they are the seat's variable and the card's property,
    read directly; and the filter, now a test of card properties alone, is
    read from a table."""
    game = rulekit.load_game_text(GAME, "kinds.yaml")
    flow = game.code[game.code.index("def turn"):]
    assert "(len(_filt(TB0, GZ[1].cards)) > 0) and ((m.pvars[m.current]['hp']) == 3)" in flow
    assert "proc_hp_of(" not in flow and "proc_power_of(" not in flow
    assert game.new_match(2, seed=0).result()["reason"] == "read"


def test_a_kind_is_worked_out_again_only_where_a_call_feeds_it():
    """The writer asks for a part's kind after inlining (to report errors
    and pick a filter's element kind) only when a call is on the parts the
    kind is read from: an operator's kind is fixed, a read of a call's
    answer is not."""
    call = ProcCall("hp_of", "proc_hp_of", (P,))
    assert pass_inline.kind_may_change(Attr(call, "hp")) is True
    assert pass_inline.kind_may_change(Builtin("size", (call,))) is True
    assert pass_inline.kind_may_change(Op("binary", "+", (call, call), "int")) is False
    assert pass_inline.kind_may_change(Attr(IT, "suit", card_prop=True)) is False


LOOPS = """\
name: Loops
players: {min: 2, max: 2}
cards:
  - {name: a, count: 4, props: {kind: a, power: 2}}
zones:
  deck: {}
player_vars: {hp: 3, seen: 0}
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        for x in deck:
          current.seen = current.seen + x.power
        for x in [current]:
          current.seen = current.seen + x.hp
        win for [current] "counted"
"""


def test_a_loop_over_a_zone_reads_its_cards_directly_and_a_later_loop_forgets_that():
    """``for x in deck`` binds cards: ``x.power`` is the card's property,
    read directly.  The same name looped over a list of anything later is
    of no known kind again: ``x.hp`` there reads a seat's variable."""
    game = rulekit.load_game_text(LOOPS, "loops.yaml")
    assert "L_p0_x.props.get('power')" in game.code
    assert "_pv(m, L_p0_x, 'hp', \"phase 'main'\")" in game.code   # the second loop's read tests what x is
    m = game.new_match(2, seed=0)
    assert m.result()["reason"] == "counted" and m.pvars[0]["seen"] == 4 * 2 + 3


JOINS = """\
name: Joins
players: {min: 2, max: 2}
cards:
  - {name: a, count: 6, props: {kind: a}}
zones:
  deck: {}
  hand: {per_player: true}
  table: {per_player: true}
player_vars: {kept: 0, held: 0, odd: 0, total: 0}
procedures:
  mine:
    params: [p]
    effect: return join(hand(p), table(p), [])
  count_mine:
    params: [p, cards]
    effect: return size(cards where it in mine(p))
setup: |
  move box to deck
  move top(deck) to hand(0)
  move top(deck) to table(0)
  move top(deck) to hand(1)
turn:
  phases:
    - name: main
      effect: |
        current.kept = call count_mine(current, join(hand(0), hand(1), table(0)))
        current.total = size(mine(current))
        current.held = 1 if top(deck) in mine(current) else 0
        current.odd = 1 if 3 in mine(current) or none in mine(current) else 0
        win for [current] "counted"
"""


def test_a_card_in_a_join_of_zones_is_where_the_card_lies_and_a_join_size_a_sum():
    """``CARD in join(ZONE, ...)`` asks the card's zone (no list is built)
    and ``size(join(...))`` adds the parts' sizes; a value that may not be a
    card (a filter over a parameter's cards, a number) is tested for being
    one first, and is in no zone."""
    game = rulekit.load_game_text(JOINS, "joins.yaml")
    assert "type(L_it) is _Card and m.loc[L_it.id] in (" in game.code
    assert "[*" not in game.code.split("def turn")[0].split("def where_proc_count_mine")[1]
    assert "(len(PZ[2][m.current].cards) + len(PZ[3][m.current].cards))" in game.code
    m = game.new_match(2, seed=0)
    assert m.result()["reason"] == "counted"
    assert m.pvars[0] == {"kept": 2, "total": 2, "held": 0, "odd": 0}


# ---- reads of a pile's top card, once a filter -------------------------------------
PILE = Lit("GZ[1]", "zone", shared=True, hoist="GZ")


def test_a_filter_reads_a_shared_piles_top_card_once_and_nothing_that_may_fail():
    """``it.suit == top(pile).suit or it.rank == top(pile).rank``: the two
    reads of the top card become locals worked out before the loop (a read
    made twice, one local); the top card of a player's zone, a filter inside
    the test, and what reads ``it`` stay where they are."""
    top_suit = Attr(Builtin("top", (PILE,)), "suit", card_prop=True)
    top_rank = Attr(Builtin("top", (PILE,)), "rank", card_prop=True)
    same = lambda prop, top: Op("binary", "==", (Attr(IT, prop, card_prop=True), top), "bool")  # noqa: E731
    test = Op("binary", "or", (same("suit", top_suit), Op("binary", "or", (same("rank", top_rank),
                                                                            same("suit", top_suit)), "any")), "any")
    out, taken = pass_hoist.run(test)
    assert taken == [("_h0", top_suit), ("_h1", top_rank)]
    h0, h1 = Local("_h0", "_h0"), Local("_h1", "_h1")
    assert out == Op("binary", "or", (same("suit", h0), Op("binary", "or", (same("rank", h1), same("suit", h0)),
                                                           "any")), "any")
    assert pass_hoist.run(Op("binary", "==", (IT, Builtin("top", (PILE,))), "bool"))[1] == [
        ("_h0", Builtin("top", (PILE,)))]
    players_top = Attr(Builtin("top", (ZoneOf(3, P),)), "suit", card_prop=True)
    inner = Where(HAND, same("suit", top_suit), "card")
    for kept in (same("suit", players_top), Builtin("any", (inner,)), suit_is_hearts()):
        assert pass_hoist.run(kept) == (kept, [])


LAST = """\
name: Last
players: {min: 2, max: 2}
cards:
  - {name: a, count: 3, props: {suit: x}}
  - {name: b, count: 3, props: {suit: y}}
zones:
  deck: {}
  pile: {}
  hand: {per_player: true}
player_vars: {matched: 0}
setup: |
  move box to deck
  move top(deck, 2) to hand(0)
turn:
  phases:
    - name: main
      effect: |
        current.matched = size(hand(0) where it.suit == top(pile).suit)
        move top(deck, 1) to pile
        current.matched += 10 * size(hand(0) where it.suit == top(pile).suit)
        win for current "done"
"""


def test_the_filter_function_works_the_read_out_before_its_loop_and_counts_the_same():
    game = rulekit.load_game_text(LAST, "last.yaml")
    fn = game.code[game.code.index("def where_turn"):]
    fn = fn[:fn.index("return _out")]
    assert fn.index("_h0 = (prop_suit[GZ[") < fn.index("for L_it in _elems")
    assert "it.suit == _h0" not in fn and "== _h0)" in fn
    m = game.new_match(2, seed=3)
    hand = [c.props["suit"] for c in m.zone("hand", 0).cards]
    top = m.zone("pile").cards[-1].props["suit"]
    # an empty pile first: its top card is none, which no card's suit equals
    assert m.pvars[m.current]["matched"] == 10 * hand.count(top)


# ---- facts of the 'if' tests around an expression ----------------------------------
KIND = Local("kind", "L_kind", "any")


def text(value: str) -> Lit:
    return Lit(repr(value), "str", plain=True, fixed=True)


def kind_is(value: str, op: str = "==") -> Op:
    return Op("binary", op, (KIND, text(value)), "bool")


def test_a_comparison_the_facts_decide_is_put_in_and_what_it_makes_moot_dropped():
    """Inside ``if kind == "attack"``: ``kind == "duel"`` is false, so
    ``kind == "duel" and X`` is false and ``(kind == "attack" or kind ==
    "duel") and X`` is X; a comparison of a name the facts say nothing of
    stays."""
    facts = {}
    pass_facts.learn(facts, "L_kind", "attack", holds=True)
    hp = Attr(P, "hp", player_var=True)
    low = Op("binary", "<", (hp, Lit("2", "int", plain=True, fixed=True)), "bool")
    either = Op("binary", "or", (kind_is("attack"), kind_is("duel")), "any")
    assert pass_facts.run(Op("binary", "and", (either, low), "any"), facts) == low
    assert pass_facts.run(Op("binary", "and", (kind_is("duel"), low), "any"), facts) == pass_facts.FALSE
    assert pass_facts.run(kind_is("duel", "!="), facts) == pass_facts.TRUE
    other = Op("binary", "==", (P, text("attack")), "bool")
    assert pass_facts.run(other, facts) is other
    listed = Op("in", "in", (KIND, Op("list", "", (text("duel"), text("attack")), "list")), "bool")
    assert pass_facts.run(listed, facts) == pass_facts.TRUE


def test_what_a_branch_ruled_out_is_false_and_a_part_with_a_call_is_never_dropped():
    """After ``if kind == "attack": return``, ``kind == "attack"`` is false;
    ``X and false`` is false only when X merely reads (a call may decide or
    fail), and ``X or false`` is X whatever X is."""
    facts = {}
    pass_facts.learn(facts, "L_kind", "attack", holds=False)
    skilled = Op("in", "in", (text("flight"), Attr(P, "skills", player_var=True)), "bool")
    assert pass_facts.run(Op("binary", "and", (skilled, kind_is("attack")), "any"), facts) == pass_facts.FALSE
    asked = ProcCall("ask", "proc_ask", (P,), yields=False)
    called = Op("binary", "==", (asked, text("yes")), "bool")
    kept = Op("binary", "and", (called, pass_facts.FALSE), "any")
    assert pass_facts.run(Op("binary", "and", (called, kind_is("attack")), "any"), facts) == kept
    assert pass_facts.run(Op("binary", "or", (called, kind_is("attack")), "any"), facts) == called
    assert pass_facts.run(kind_is("duel"), facts) == kind_is("duel")     # not known either way


def number(value: int) -> Lit:
    return Lit(str(value), "int", plain=True, number=value, fixed=True)


def test_comparisons_of_texts_alone_are_decided_when_a_text_is_put_in():
    """A procedure written in place with text for its parameter compares
    text with text (``"duel" == "attack"``): decided as the argument is put
    in, a list of texts too, and what the answer makes moot dropped."""
    skilled = Op("in", "in", (text("flight"), Attr(P, "skills", player_var=True)), "bool")
    either = Op("binary", "or", (kind_is("attack"), kind_is("duel")), "any")
    guarded = Op("binary", "and", (either, skilled), "any")
    assert pass_inline.substitute(guarded, {"kind": text("poke")}) == pass_facts.FALSE
    assert pass_inline.substitute(guarded, {"kind": text("duel")}) == skilled
    assert pass_inline.substitute(kind_is("a", "!="), {"kind": text("b")}) == pass_facts.TRUE
    listed = Op("in", "not in", (KIND, Op("list", "", (text("duel"), text("attack")), "list")), "bool")
    assert pass_inline.substitute(listed, {"kind": text("attack")}) == pass_facts.FALSE
    negated = Op("not", "not", (kind_is("duel"),), "bool")
    assert pass_inline.substitute(negated, {"kind": text("poke")}) == pass_facts.TRUE
    # a list that is not all texts, or a name the argument does not replace, is left to play
    mixed = Op("in", "in", (KIND, Op("list", "", (text("a"), P), "list")), "bool")
    assert pass_inline.substitute(mixed, {"kind": text("a")}) == Op(
        "in", "in", (text("a"), Op("list", "", (text("a"), P), "list")), "bool")
    untouched = kind_is("duel")
    assert pass_inline.substitute(untouched, {"other": text("duel")}) is untouched
    assert pass_facts.folded(kind_is("duel")) == kind_is("duel")


def test_whole_numbers_are_worked_out_but_never_a_division_or_a_huge_product():
    """``1 + extra(p)`` with a hook that says 0 is 1; comparisons of numbers
    are decided.  A division is left for play (by zero it must fail there,
    with the rule named), and so is a product too large to be written."""
    n = Local("n", "L_n", "any")
    plus = Op("binary", "+", (number(1), n), "int")
    assert pass_inline.substitute(plus, {"n": number(0)}) == number(1)
    assert pass_facts.folded(Op("binary", "-", (number(1), number(3)), "int")).number == -2
    assert pass_facts.folded(Op("binary", "<", (number(1), number(3)), "bool")) == pass_facts.TRUE
    nested = Op("binary", "*", (plus, number(4)), "int")
    assert pass_inline.substitute(nested, {"n": number(4)}) == number(20)
    for kept in (Op("binary", "//", (number(1), number(0)), "int"),
                 Op("binary", "%", (number(1), number(0)), "int"),
                 Op("binary", "*", (number(10 ** 18), number(10 ** 18)), "int")):
        assert pass_facts.folded(kept) is kept


HOOKS = """\
name: Hooks
players: {min: 2, max: 2}
cards:
  - {name: a, count: 2}
zones:
  deck: {}
player_vars: {got: 0, used: 0, ward: false}
procedures:
  extra:
    params: [p]
    effect: return 0
  shielded:
    params: [p, kind]
    effect: return (kind == "stab" or kind == "cut") and p.ward
  may_use:
    params: [p]
    effect: return p.used < 1 + extra(p) and not shielded(p, "poke")
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        current.got = 1 if may_use(current) else 2
        win for [current] "done"
"""


def test_a_hook_written_in_place_with_constants_leaves_no_constant_test():
    """The code of a procedure whose hooks are written in place with text
    and numbers reads only what play decides, and plays as before."""
    game = rulekit.load_game_text(HOOKS, "hooks.yaml")
    code = game.code[game.code.index("def proc_may_use"):game.code.index("def setup")]
    assert "'poke' ==" not in code and "(0)" not in code and "ward" not in code
    assert "< 1)" in code
    m = game.new_match(2, seed=0)
    assert m.pvars[0]["got"] == 1


BRANCHES = """\
name: Branches
players: {min: 2, max: 2}
cards:
  - {name: a, count: 2, props: {kind: a}}
zones:
  deck: {}
player_vars: {got: 0}
procedures:
  weight:
    params: [kind]
    effect: |
      if kind == "big":
        return 10 if kind == "big" else 1
      let n = kind
      if kind == "small":
        log "small"
      if n == "x":
        return 7
      return 3 if kind == "big" else 4 if kind == "small" else 2
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        current.got = weight("big") * 100 + weight("small") * 10 + weight("x")
        win for [current] "weighed"
"""


def test_an_if_tells_its_branch_and_a_returning_branch_what_follows():
    """``kind == "big"`` is true inside its branch and false after it (the
    branch returns); a branch that does not return teaches what follows
    nothing; a name set by ``let`` gives no facts."""
    game = rulekit.load_game_text(BRANCHES, "branches.yaml")
    code = game.code[game.code.index("def proc_weight"):game.code.index("def setup")]
    assert "return 10\n" in code                       # 10 if kind == "big" else 1, in the branch
    assert "return (4 if (L_kind == 'small') else 2)" in code     # 3 if kind == "big": never
    assert "(L_n == 'x')" in code
    m = game.new_match(2, seed=0)
    assert m.pvars[0]["got"] == 10 * 100 + 4 * 10 + 7 and m.result()["reason"] == "weighed"


# ---- the current player's variables, bound once -----------------------------------
TURNS = """\
name: Turns
players: {min: 3, max: 3}
cards:
  - {name: a, count: 3}
zones:
  deck: {}
vars: {turns: 0}
player_vars: {mark: 0, seen: 0, skills: []}
setup: |
  move box to deck
  for p in players:
    p.mark = 10 * (p + 1)
    p.skills = ["x"] if p == 1 else ["y"]
procedures:
  marked:
    params: [n]
    effect: |
      if "x" in current.skills:
        return current.mark + n
      return current.mark
turn:
  phases:
    - name: main
      effect: |
        current.seen = call marked(current.mark)
        turns += 1
        if turns == 3:
          win
"""


def test_a_function_reads_the_current_players_variables_through_one_lookup_the_flow_each_time():
    """Where the current player stays the same for the whole function (a
    procedure, a choice, a trigger), its variables are looked up once,
    ``CP = m.pvars[m.current]``; the flow goes from turn to turn, so its
    phases read them each time (a lookup bound once would read the first
    player's in every turn)."""
    game = rulekit.load_game_text(TURNS, "turns.yaml")
    code = game.code
    proc = code[code.index("def proc_marked"):]
    proc = proc[:proc.index("\ndef ")]
    body = proc.split("\n", 1)[1]
    assert body.startswith("    CP = m.pvars[m.current]\n") and "m.pvars" not in body.split("\n", 1)[1]
    assert "CP['skills']" in body and "CP['mark']" in body
    flow = code[code.index("def turn("):]
    assert "CP" not in flow and "m.pvars[m.current]['mark']" in flow
    m = game.new_match(3, seed=0)
    assert [pv["seen"] for pv in m.pvars] == [10, 40, 30]


# ---- a heuristic's parts that are the same for every option, or read twice for one ---
CHOSEN = Local("chosen", "L_chosen", "cards")
OPTION = Local("option", "L_option", "any")
PER_OPTION = frozenset({"L_chosen", "L_option", "L_player"})
NUMBERS = {"value": 10, "health": 40}
CURRENT = Lit("m.current", "int", plain=True)


def total(cards, prop="value"):
    return Builtin("sum", (Attr(cards, prop, card_prop=True),))


def plus(a, b):
    return Op("binary", "+", (a, b), "any")


def test_a_score_reads_what_is_the_same_for_every_option_once_and_a_part_read_twice_once_an_option():
    """Regicide's attack score: the enemy's health and the sum of the hand
    are the same for every option (worked out before the loop, a part read
    twice one local); ``sum(chosen.value)``, read twice, once at the start
    of each option's turn.  What may fail (a sum of a property that is not
    a number on every card, of another player's zone) or reads the option
    once stays where it is, and so does a filter."""
    health = Attr(Builtin("top", (PILE,)), "health", card_prop=True)
    hand = total(ZoneOf(6, CURRENT))
    mine = total(CHOSEN)
    score = plus(plus(Op("binary", ">=", (mine, health), "bool"), plus(hand, health)), plus(mine, hand))
    out, before, each = pass_invariant.run(score, PER_OPTION, NUMBERS)
    assert before == [("_v0", health), ("_v1", hand)] and each == [("_c0", mine)]
    v0, v1, c0 = Local("_v0", "_v0", "any"), Local("_v1", "_v1", "int"), Local("_c0", "_c0", "int")
    assert out == plus(plus(Op("binary", ">=", (c0, v0), "bool"), plus(v1, v0)), plus(c0, v1))
    # read once for the option: left where it is
    once = plus(mine, Op("binary", "==", (OPTION, HEARTS), "bool"))
    assert pass_invariant.run(once, PER_OPTION, NUMBERS) == (once, [], [])
    for kept in (total(ZoneOf(6, CURRENT), "suit"),                         # not a number on every card
                 Attr(Builtin("top", (PILE,)), "owner"),                   # not a card's: read for what it is
                 total(ZoneOf(6, Local("p", "L_p", "any"))),                # a zone of a player that may be none
                 Builtin("any", (Where(HAND, suit_is_hearts(), "card"),))):  # a filter: written apart
        assert pass_invariant.run(plus(kept, kept), PER_OPTION, NUMBERS) == (plus(kept, kept), [], [])


def test_the_scores_loop_works_out_the_parts_before_the_loop_and_at_each_options_start():
    """The generated ``scores_attack`` of Regicide (that it scores as the
    heuristic asked option by option does, at every decision of heuristic
    games of every shipped game: tests/test_agents.py)."""
    game = load(game_path("regicide"))
    code = game.code[game.code.index("def scores_attack"):]
    code = code[:code.index("\ndef ")]
    assert code.index("_v1 = _sumt(sum_value, PZ[6][m.current].cards)") < code.index("for _so in")
    assert code.index("L_chosen = ") < code.index("_c0 = _sumt(sum_value, L_chosen)") < code.index("_out.append")
    assert code.count("_sumt(") == 2 and "_sub(" not in code and "_add(" not in code


def test_a_table_entry_the_test_has_just_found_is_read_without_a_check():
    """``T[K] if K in T else ...``: the entry is there, so its read needs no
    check; a read of another key, of another table, one inside a filter (its
    ``it`` is its own) and the part after ``else`` keep theirs."""
    table, other = Lit("tbl_worth", plain=True, fixed=True), Lit("tbl_keep", plain=True, fixed=True)
    kind = Local("kind", "L_kind")
    tables = {"tbl_worth", "tbl_keep"}.__contains__
    found = Op("in", "in", (kind, table), "bool")
    read = Index(table, kind)
    assert pass_facts.known_entries(Op("ternary", "if", (read, found, read), "any"),
                                    lambda lit: tables(lit.src)).args == (Index(table, kind, checked=True), found, read)
    for kept in (Index(table, Local("x", "L_x")), Index(other, kind),
                 Where(HAND, Op("binary", "==", (Index(table, IT), HEARTS), "bool"), "card")):
        node = Op("ternary", "if", (kept, Op("in", "in", (IT if isinstance(kept, Where) else kind, table), "bool"),
                                    NONE_LIT), "any")
        assert pass_facts.known_entries(node, lambda lit: tables(lit.src)) is node
    # not a table (a list, a variable): `in` says nothing of its entries
    assert pass_facts.known_entries(Op("ternary", "if", (read, found, read), "any"), lambda lit: False).args[0] == read
    game = load(game_path("sanguosha"))
    score = game.code[game.code.index("def proc_play_score"):]
    assert "(tbl_play_kind[L_kind] if (L_kind in tbl_play_kind) else 'none')" in score


FIRST = """\
name: First
players: {min: 2, max: 2}
cards:
  - {name: a, count: 2, props: {kind: x}}
  - {name: b, count: 2, props: {kind: y}}
zones:
  deck: {}
  hand: {per_player: true}
player_vars: {got: []}
procedures:
  kind_of:
    params: [cards]
    effect: return first(cards).kind
setup: |
  move box to deck
  move top(deck, 2) to hand(0)
turn:
  phases:
    - name: main
      effect: |
        current.got = [kind_of(hand(0) where it.kind == "y"), kind_of([]), kind_of(hand(0)), kind_of(deck)]
        win
"""


def test_the_first_cards_property_of_a_parameter_is_read_in_place_when_it_is_a_list_of_cards():
    """``first(cards).kind`` of a parameter (given an answer's cards, a
    filter's list, a zone...): a list whose first element is a card is read
    in place, anything else as before (an empty list gives none, a zone its
    bottom card's)."""
    game = rulekit.load_game_text(FIRST, "first.yaml")
    proc = game.code[game.code.index("def proc_kind_of"):]
    assert "(L_cards[0].props.get('kind') if type(L_cards) is list and L_cards and" in proc
    m = game.new_match(2, seed=1)
    hand = [c.props["kind"] for c in m.zone("hand", 0).cards]
    deck = m.zone("deck").cards
    assert m.pvars[0]["got"] == ["y" if "y" in hand else None, None, hand[0], deck[0].props["kind"]]
