"""What the compiler knows while it writes one generated function.

A rule file becomes one module of many functions.  What belongs to the
module (its names, constants, tables, the functions written so far) lives
on the writer (:class:`rulekit.lang.gen_base.GenBase`) for the whole file;
what belongs to the function being written lives here, made afresh for
each function, so nothing of one function's locals, loops or position can
leak into the next, and a reader sees in one place what is reset per
function.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from .ir import Function, Stmt

if TYPE_CHECKING:
    from ..errors import Where
    from .pass_facts import Fact


@attrs.define(eq=False)
class FnContext:
    """The function being written and where the writer is inside it."""

    fn: Function
    rule: str                       # the rule being written (for budgets and errors)
    #: the block being built (the function's body, or a nested block)
    out: list[Stmt] = attrs.field()
    locals: set[str] = attrs.field(factory=set)             # effect-text names bound here
    comp_vars: set[str] = attrs.field(factory=set)          # bound by a comprehension or a parameter
    local_kinds: dict[str, str] = attrs.field(factory=dict)  # locals whose kind is known ("it" over a zone)
    prefix: str = "L_"              # prefix of let/for locals (differs in text written in place)
    assigned: set[str] = attrs.field(factory=set)   # names set by let or assignment: they get no kind
    rebound: set[str] = attrs.field(factory=set)    # names the text sets (a parameter too)
    can_yield: bool = False         # the function may stop for a decision
    can_return: bool = False        # ... and may 'return' (procedures and triggers)
    in_flow: bool = False           # writing the turn flow: goto / end turn jump directly
    loop_depth: int = 0             # while/for loops around the statement being written
    origin: Where | None = None     # position of the statement being written
    #: the calls, outermost first, of the procedures being written in
    #: place of them: ((Where of the call, rule it is in), ...)
    via: tuple[tuple[Where | None, str], ...] = ()
    #: per filter being written: (the locals, the hoisted fields its test reads)
    watch: list[tuple[set[str], set[str]]] = attrs.field(factory=list)
    #: a choice's pools of cards: (source, test) -> the list that holds them
    pools: dict[tuple[str, str], str] = attrs.field(factory=dict)
    pools_read: set[str] = attrs.field(factory=set)     # ... and those a later option took
    error_path: tuple[Any, ...] = ()    # key of the choice being written, for error positions
    #: what the ``if`` tests around the statement being written decided (see pass_facts)
    facts: dict[str, Fact] = attrs.field(factory=dict)
    #: blocks around the statement being written, and the depth of the text's own top level
    #: (the statements every run of it passes through, in order): see Statements.note_number
    depth: int = 0
    scope_depth: int = 1
    #: locals that hold a number the text bounds, by Python name, with the largest size
    number_locals: dict[str, int] = attrs.field(factory=dict)
    #: locals a ``for`` or ``emit ... as`` binds too: never such numbers, whatever a ``let`` sets
    never_numbers: set[str] = attrs.field(factory=set)

    @out.default
    def _body(self) -> list[Stmt]:
        return self.fn.body
