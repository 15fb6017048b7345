"""The passes over the compiler's intermediate form (rulekit.lang.passes and pass_*),
each on a small hand-made function, and the printer that writes it."""
from __future__ import annotations

from rulekit.lang import ir, printer
from rulekit.lang import pass_changes as changes
from rulekit.lang import pass_kept as kept
from rulekit.lang import pass_memo as memo
from rulekit.lang import pass_splits as splits
from rulekit.lang import pass_steps as steps
from rulekit.lang.ir import Assign, Code, Do, For, Function, If, MoveSplit, MoveWhere, Return, Stmt, Tick, Try
from rulekit.lang.passes import PASSES, ModuleTables

AT = (None, "setup", ())


def source(body: list[Stmt]) -> str:
    return printer.function(Function("f", (), "setup", body))[0]


def zone(i: int) -> Code:
    return Code(f"GZ[{i}]", "zone", shared=True)


def move(table: str, dest: Code, src: Code | None = None, shuffle: bool = False) -> MoveWhere:
    return MoveWhere(src or zone(0), table, dest, False, shuffle, origin=AT)


# ---- step counting ---------------------------------------------------------------
def test_two_counts_in_a_row_of_one_rule_become_one_count_of_two():
    fn = Function("f", (), "r", [Tick(1, "r", origin=AT), Tick(1, "r", origin=AT), Tick(1, "r", origin=AT),
                                 Do("g(m)", origin=AT), Tick(1, "r", origin=AT)])
    steps.run(fn, ModuleTables())
    assert [type(s).__name__ for s in fn.body] == ["Tick", "Do", "Tick"]
    assert [s.steps for s in fn.body if isinstance(s, Tick)] == [3, 1]


def test_counts_of_different_rules_or_blocks_stay_apart():
    inner = [Tick(1, "r", origin=AT)]
    fn = Function("f", (), "r", [Tick(1, "r", origin=AT), Tick(1, "q", origin=AT),
                                 For("x", "xs", inner, origin=AT)])
    steps.run(fn, ModuleTables())
    assert [s.steps for s in fn.body if isinstance(s, Tick)] == [1, 1]
    assert inner == [Tick(1, "r", origin=AT)]


def test_counts_inside_nested_blocks_are_merged_too():
    inner: list[Stmt] = [Tick(1, "r", origin=AT), Tick(1, "r", origin=AT)]
    fn = Function("f", (), "r", [If([("c", inner)], origin=AT)])
    steps.run(fn, ModuleTables())
    assert inner == [Tick(2, "r", origin=AT)]


# ---- dealing one pile into several -------------------------------------------------
def test_moves_from_one_shared_zone_in_a_row_become_one_split():
    tables = ModuleTables()
    fn = Function("f", (), "setup", [move("TB0", zone(1)), move("TB1", zone(2), shuffle=True),
                                      move("TB2", zone(2))])
    splits.run(fn, tables)
    (split,) = fn.body
    assert isinstance(split, MoveSplit)
    assert tables.split_tables == {split.table: ("TB0", "TB1", "TB2")}
    assert source(fn.body).splitlines()[1] == (
        f"    m.move_split(GZ[0], {split.table}, ((GZ[1], False, False), (GZ[2], False, True), "
        "(GZ[2], False, False),))")


def test_a_move_back_to_the_zone_dealt_from_is_never_joined():
    tables = ModuleTables()
    fn = Function("f", (), "setup", [move("TB0", zone(1)), move("TB1", zone(0)), move("TB2", zone(2))])
    splits.run(fn, tables)
    assert all(isinstance(s, MoveWhere) for s in fn.body) and not tables.split_tables


def test_moves_apart_from_another_zone_or_not_to_a_zone_are_not_joined():
    tables = ModuleTables()
    not_a_zone = Code("_as_zone(L_x, 'setup')")
    per_player = Code("PZ[1][m.current]", "zone")
    fn = Function("f", (), "setup", [
        move("TB0", zone(1)), Do("g(m)", origin=AT), move("TB1", zone(2)),     # a statement between
        move("TB2", zone(2), src=zone(3)),                                     # another zone
        move("TB3", not_a_zone, src=zone(3)),                                  # not a zone read directly
        move("TB4", zone(1), src=per_player), move("TB5", zone(2), src=per_player)])   # not a shared zone
    splits.run(fn, tables)
    assert not any(isinstance(s, MoveSplit) for s in fn.body) and not tables.split_tables


def test_every_pass_is_listed_once():
    assert PASSES == (steps.run, splits.run, memo.run, kept.run, changes.run)


# ---- printing ------------------------------------------------------------------
def test_the_printer_writes_one_line_forms_counts_and_origins():
    here = (None, "r", ())
    body: list[Stmt] = [
        Tick(2, "r", origin=here),
        If([("not out", [Do("stop()", origin=here)])], one_line=True, origin=here),
        If([("a", [Assign("x", "1", origin=here)]), ("b", [Assign("x", "2", origin=here)])],
           [Assign("x", "3", "+=", origin=here)], origin=here)]
    text, origins = printer.function(Function("f", ("p",), "r", body, {"V"}))
    assert text == ("def f(m, L_p):\n    V = m.vars\n    m.steps += 2\n"
                    "    if m.steps > m.budget: m.over_budget('r')\n    if not out: stop()\n"
                    "    if a:\n        x = 1\n    elif b:\n        x = 2\n    else:\n        x += 3\n")
    assert len(origins) == len(text.splitlines())


def test_a_try_with_handlers_and_a_finally_is_printed_and_walked_whole():
    """``Try.final`` (what a reader of the rules writes to put the step count
    back) is printed after the handlers, and the passes reach inside it."""
    here = (None, "r", ())
    final: list[Stmt] = [Tick(1, "r", origin=here), Tick(1, "r", origin=here)]
    body: list[Stmt] = [Try([Return("x", origin=here)], [("E", [Do("g()", origin=here)])], final, origin=here)]
    fn = Function("f", (), "r", body)
    steps.run(fn, ModuleTables())
    assert final == [Tick(2, "r", origin=here)]
    assert final in ir.every_block(body)
    text, origins = printer.function(fn)
    assert text == ("def f(m):\n    try:\n        return x\n    except E:\n        g()\n    finally:\n"
                    "        m.steps += 2\n        if m.steps > m.budget: m.over_budget('r')\n")
    assert len(origins) == len(text.splitlines())


# ---- answers kept until a write ------------------------------------------------------
def test_a_write_of_a_variable_a_kept_answer_reads_empties_the_kept_answers():
    tables = ModuleTables(kept_watch={("player", "mood")})
    owner = Code("L_p", "int", plain=True, local=True)
    inner: list[Stmt] = [ir.SetVar("player", "mood", "1", owner, origin=AT)]
    fn = Function("f", (), "r", [ir.SetVar("player", "hp", "2", owner, origin=AT),
                                 If([("c", inner)], one_line=True, origin=AT)])
    kept.run(fn, tables)
    assert [type(s).__name__ for s in fn.body] == ["SetVar", "If"]
    assert [type(s).__name__ for s in inner] == ["SetVar", "Do"] and inner[1].call == "m.kept.clear()"
    # the one-line if, whose body is now two statements, is printed on lines of its own
    assert "    if c:\n        m.pvars[L_p]['mood'] = 1\n        m.kept.clear()\n" in source(fn.body)


def test_a_one_line_if_or_for_whose_body_is_not_one_simple_statement_is_printed_on_lines_of_its_own():
    """A pass may add to the body of a one-line ``if`` or ``for``: the
    printer writes it on one line only while it holds one simple statement."""
    one = [Do("g(m)", origin=AT)]
    assert "    if c: g(m)\n" in source([If([("c", list(one))], one_line=True, origin=AT)])
    assert "    for x in xs: g(m)\n" in source([For("x", "xs", list(one), one_line=True, origin=AT)])
    two = [*one, Do("h(m)", origin=AT)]
    assert "    if c:\n        g(m)\n        h(m)\n" in source([If([("c", list(two))], one_line=True, origin=AT)])
    assert "    for x in xs:\n        g(m)\n        h(m)\n" in source([For("x", "xs", list(two), one_line=True,
                                                                       origin=AT)])
    counted = [Tick(1, "r", origin=AT)]
    assert "    if c:\n        m.steps += 1\n" in source([If([("c", counted)], one_line=True, origin=AT)])
