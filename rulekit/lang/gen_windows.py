"""Writing a response window's commonest answer in place: a seat that can only pass.

A choice declared with ``skip_if_only: OPTION`` is a response window.  In a
simulation (``auto_pass=True``) a seat whose only legal answer is OPTION
gives it without being asked, and the answer is logged like any other.
Most seats in most windows hold nothing to answer with (everyone is asked
whether to cancel every trick), so listing their answers (a call of the
choice's enumerator, a list, a Decision that nobody is asked) would be most
of a window's work.  Where the window's other options are of simple
shapes (cards from somewhere, with a test and a ``when``; answers with a
``when``), ``choose`` first tests in place whether any of them is offered:
a loop over the option's cards reading the per-card table of its test.
Only a seat with something to answer with is listed in full.

The test changes nothing but speed.  It offers nothing the enumerator
would not.  Its arguments are plain (read twice, they are worth the same).
It calls no procedure but a pure one in a ``when``, and the steps such a
call counts are taken back when the seat's answers are listed after all
(the enumerator counts them again).  Whatever fails in it (a card its
tabled test failed on when the file loaded, a value of the wrong kind)
sends the seat to the enumerator, which fails where the rule is written,
as without the test.
"""
from __future__ import annotations

from typing import Any, TypeAlias

import attrs

from . import pass_inline, pass_tables
from .expr_ir import Builtin, Expr, Lit, Op, ProcCall, Where, children
from .fn_names import test_set
from .gen_base import ANSWER, Node
from .gen_expressions import Expressions, elem_of
from .ir import Assign, Break, Do, For, If, Stmt, Try

#: a window's ``who`` and other options as trees: (source, test, when, fewest) each
WindowTrees: TypeAlias = "tuple[Expr | None, list[tuple[Expr | None, Expr | None, Expr | None, int]]]"


@attrs.frozen
class WindowOption:
    """An option of a window other than its skip answer: cards ``source``
    (None: an answer without cards) filtered by ``test``, at least
    ``fewest`` of them, offered when ``when`` holds."""

    source: Node | None
    test: Node | None
    when: Node | None
    fewest: int


@attrs.frozen
class Window:
    """What a window's ``choose`` needs to answer a seat that can only give
    the skip answer: the choice's parameters and ``who``, its other options,
    the constant holding the skip answer's Action, and its prompt."""

    params: tuple[str, ...]
    declared: dict[str, str]
    who: Node | None
    options: tuple[WindowOption, ...]
    skip: str
    prompt: str
    shown: tuple[str | int, ...]


def window_of(spec: dict[str, Any], parsed: dict[Any, Any], ranges: dict[int, tuple[int, int]],
              params: tuple[str, ...], declared: dict[str, str], skip: str | None, skip_acts: list[str],
              prompt: str, shown: tuple[str | int, ...]) -> Window | None:
    """The window a choice is, when ``choose`` may answer it in place: its
    ``skip_if_only`` answer ``skip`` offered whatever happens (``skip_acts``:
    the constants of the unconditional options of that name) and the other
    options all of shapes the in-place test takes (see :func:`_option`)."""
    if skip is None or len(skip_acts) != 1:
        return None
    others = [_option(opt, parsed[i], ranges.get(i, (1, 1))[0])
              for i, opt in enumerate(spec["options"]) if opt["name"] != skip]
    if len(others) != len(spec["options"]) - 1 or any(o is None for o in others):
        return None
    return Window(params, declared, parsed.get("who"), tuple(o for o in others if o is not None),
                  skip_acts[0], prompt, shown)


def _option(opt: dict[str, Any], parsed: dict[str, Any], fewest: int) -> WindowOption | None:
    """The option as the in-place test reads it, or None when it is of a
    shape the test does not take (players, numbers, parts, ``require``,
    ``same``, or cards from nowhere)."""
    if "player" in opt or "number" in opt or "parts" in opt or "require" in opt or opt.get("same"):
        return None
    if "cards" not in opt:
        return WindowOption(None, None, parsed.get("when"), 0)
    if fewest < 1 or "from" not in parsed:
        return None
    return WindowOption(parsed.get("from"), parsed.get("where"), parsed.get("when"), fewest)


def _calls(node: Expr | None, pure: frozenset[str] = frozenset()) -> bool:
    """Does ``node`` call a procedure, other than those in ``pure``?"""
    if node is None:
        return False
    if isinstance(node, ProcCall) and node.name not in pure:
        return True
    return any(_calls(c, pure) for c in children(node))


class Windows(Expressions):
    """The writer of a window's in-place answer, built on the expression writer."""

    def alone_answer(self, name: str, args: list[Expr]) -> list[Stmt] | None:
        """Statements that set ``_d`` to the Decision of a seat that can only
        give the window's skip answer (in a simulation), else to None; then,
        for such a seat, give that answer and log it.  None when the window
        cannot be tested in place (see the module's docstring)."""
        window = self.windows.get(name)
        if window is None or not all(a.plain for a in args):
            return None
        trees = self._window_trees(name, window)
        if trees is None:
            return None
        given = dict(zip(window.params, args))

        def put(tree: Expr | None) -> Expr | None:
            return None if tree is None else self.settle(pass_inline.substitute(tree, given))
        who = put(trees[0])
        options = [(put(source), put(test), put(when), fewest) for source, test, when, fewest in trees[1]]
        # settled, and checked before anything is written: no procedure is called, but a pure one in a when
        if _calls(who) or any(_calls(source) or _calls(test) or _calls(when, self.pure_procs)
                              for source, test, when, _ in options):
            return None
        here = self.here()
        tests: list[Stmt] = []
        for source, test, when, fewest in options:
            found = self._offered(source, test, fewest)
            guard = [] if not tests else ["_wo"]          # (the first is tested whatever happens)
            guard += [] if when is None else [f"({self.lower(when).src})"]
            tests.extend(found if not guard else [If([(" and ".join(guard), found)], origin=here)])
        values = "(" + "".join(f"{self.lower(a).src}, " for a in args) + ")"
        # the one option, a tuple shared by every such decision: a list made for each would be
        # kept, like the decision, in the match's log, for the collector to go through
        alone = self.alone_options.get(name)
        if alone is None:
            alone = self.alone_options[name] = self.const((self.ns[window.skip],), "value", "alone", name)
        asked = "m.current" if who is None else self.lower(who).src
        if who is not None and who.kind != "int":     # (as the choice's own function does: Choices.choice)
            asked = f"_asked(m, {asked}, {name!r})"
        decision = (f"_tn(_Decision, ({asked}, {name!r}, "
                    f"{window.prompt!r}, {alone}, {values}, {window.shown!r}))")
        self.hoist("CH")
        # the steps a pure procedure counted here are counted again by the
        # enumerator (for a seat with something to answer with): not twice
        counts = any(_calls(when) for _, _, when, _ in options)
        save = [Assign("_ws", "m.steps", origin=here)] if counts else []
        restore = [If([("_d is None", [Assign("m.steps", "_ws", origin=here)])], one_line=True,
                      origin=here)] if counts else []
        return [
            Assign("_d", "None", origin=here),
            If([("m.auto_pass", [*save, Try([
                Assign("_wo", "True", origin=here),
                *tests,
                If([("_wo", [Assign("_d", decision, origin=here)])], one_line=True, origin=here)],
                [("_Failed", [Assign("_d", "None", origin=here)])], origin=here), *restore])], origin=here),
        ]

    def alone_given(self, name: str) -> list[Stmt]:
        """The skip answer given by a seat that had nothing else (``_d`` set)."""
        here = self.here()
        return [Assign("_a", self.windows[name].skip, origin=here),
                Do("m.log.append(('decide', _d, _a, None))", origin=here),
                Assign(f"CH[{name!r}]", ANSWER, origin=here)]

    def _offered(self, source: Expr | None, test: Expr | None, fewest: int) -> list[Stmt]:
        """Statements that set ``_wo`` to False when the option (settled:
        the window's arguments in place) is offered, its ``when`` aside."""
        here = self.here()
        found: list[Stmt] = [Assign("_wo", "False", origin=here)]
        if source is None:                      # an answer without cards: offered
            return found
        elem = elem_of(self.kind_of(source))
        cards = self.seq_of(self.lower(source))
        if test is None:
            return [If([(f"len({cards}) >= {fewest}", found)], origin=here)]
        if elem != "card" or not pass_tables.tabled(test, elem):
            # the filter written as usual (a function of its own), asked for its size
            each = Where(source, test, elem)
            size = (Builtin("any", (each,)) if fewest == 1 else
                    Op("binary", ">=", (Builtin("size", (each,)), Lit(str(fewest), "int", True, fewest)), "bool"))
            return [If([(self.lower(size).src, found)], origin=here)]
        table = self.lower_test(test, True).table
        assert table is not None
        if fewest == 1:
            # one call asks whether any card passes; a test that fails on some card is read
            # card by card, to fail as it would
            by_card: list[Stmt] = [For("_wc", cards, [If([(f"{table}[_wc.id]", [*found, Break(origin=here)])],
                                                          origin=here)], origin=here)]
            passing = test_set(table)
            return [If([(f"{passing} is not None", [
                If([(f"not {passing}.isdisjoint({cards})", found)], one_line=True, origin=here)])],
                by_card, origin=here)]
        return [Assign("_wn", "0", origin=here),
                For("_wc", cards, [If([(f"{table}[_wc.id]", [Assign("_wn", "_wn + 1", origin=here)])],
                                      one_line=True, origin=here)], origin=here),
                If([(f"_wn >= {fewest}", found)], origin=here)]

    def _window_trees(self, name: str, window: Window) -> WindowTrees | None:
        """The window's ``who`` and options as expression trees over its
        parameters, built once in a function of their own (as a procedure
        written in place is, see Expressions.callee); None if any fails."""
        if name in self.window_trees:
            return self.window_trees[name]
        saved = self.declared_params
        self.declared_params = window.declared
        try:
            with self.apart(window.params, name) as dropped:
                who = None if window.who is None else self.tree(window.who)
                options: list[tuple[Expr | None, Expr | None, Expr | None, int]] = []
                for opt in window.options:
                    source = None if opt.source is None else self.tree(opt.source)
                    elem = "any" if source is None else elem_of(self.kind_of(source))
                    test = None if opt.test is None else self.tree(opt.test, extra={"it"}, kinds={"it": elem})
                    when = None if opt.when is None else self.tree(opt.when)
                    options.append((source, test, when, opt.fewest))
        finally:
            self.declared_params = saved
        built: WindowTrees | None = None if dropped else (who, options)
        self.window_trees[name] = built
        return built
