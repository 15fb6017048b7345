"""What parts of a match a rule file's ``display``/``public`` expression reads.

The kept observations (:mod:`rulekit.rl.incremental`) know what a step
changed: the zones the log's moves named, the variables written.  A
``display`` value is an expression over the match, compiled to Python;
evaluating every one for every seat at every step is most of what
observing costs.  :func:`reads` finds, from the compiled code, what an
expression can read: which zones (by their place in the file), which
player and match variables (by name), card variables, who is still in (the
seats' order, distances) and the turn (its number, phase, current player).  The value is then
evaluated again only when one of those changed.

The analysis is conservative: anything it does not recognise — the match
passed to a helper it does not know, a match attribute outside the list
below (the chosen answers, the decision, the log), a zone or variable
picked by a computed index or name — makes the expression read
*everything*, and it is evaluated at every observation as before.
"""
from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import tokenize
from typing import Any, NamedTuple, TypeGuard

#: match attributes that change only when a player is out (who is still in,
#: the distances between seats), and those of the turn
_SEATS = frozenset({"players", "out", "n", "all_seats", "seat_distance"})
_TURN = frozenset({"current", "turn", "phase"})
#: match attributes that never change during a match
_FIXED = frozenset({"cards", "options"})
#: the step count and what counts it (a reader puts the count back, see
#: CodeGen.expression): no value depends on them
_STEPS = frozenset({"steps", "budget", "count", "over_budget"})
#: helpers given the match that read one variable named by their third argument
_VAR_HELPERS = {"_ga": "pvars", "_gal": "pvars", "_pv": "pvars", "_cv": "cvars"}


#: one thing a value may read, or a change may touch: ``("zone", place)``,
#: ``("pvar", name)``, ``("var", name)`` (None: any), ``"cvars"``, ``"seats"``, ``"turn"``
Token = tuple[str, int | str | None] | str


class Reads(NamedTuple):
    """What an expression reads; ``everything`` overrides the rest."""

    everything: bool = False
    zones: frozenset[int | None] = frozenset()   # zone places (``ZoneDef.index``); None in it: any zone
    pvars: frozenset[str | None] = frozenset()   # player variable names; None: any
    vars: frozenset[str | None] = frozenset()    # match variable names; None: any
    cvars: bool = False
    seats: bool = False                  # who is still in
    turn: bool = False                   # the turn's number, phase and current player
    #: whose zone or variable is read, by token (``("zone", place)`` or
    #: ``("pvar", name)``): the place among the expression's own parameters
    #: of the one that names the owner (1: the viewer, 2: the player of a
    #: display value), None where anything else does (a loop's seat, a
    #: computed one)
    owners: tuple[tuple[Token, frozenset[int | None]], ...] = ()


EVERYTHING = Reads(everything=True)


@functools.lru_cache(maxsize=1024)
def reads(fn, code_label: str) -> Reads:
    """What ``fn`` (a compiled expression: its first parameter the match)
    and the compiled functions it calls read (see the module)."""
    found = _Found()
    code = getattr(fn, "__code__", None)
    params = code.co_varnames[1:code.co_argcount] if code is not None else ()
    try:
        _visit(fn, code_label, found, set(), {name: i for i, name in enumerate(params, 1)})
    except _Unknown:
        return EVERYTHING
    return Reads(False, frozenset(found.zones), frozenset(found.pvars), frozenset(found.vars),
                 found.cvars, found.seats, found.turn,
                 tuple(sorted(((t, frozenset(r)) for t, r in found.owners.items()), key=repr)))


def owners(r: Reads) -> dict[Token, frozenset[int | None]]:
    """``r``'s owners by token (see :class:`Reads`): a token missing, or
    None among its places, means any owner's change may matter."""
    return dict(r.owners)


def tokens(r: Reads) -> frozenset[Token] | None:
    """``r`` as a set of tokens, to meet the set of what changed in one
    ``isdisjoint``: ``("zone", place)``, ``("pvar", name)``, ``("var", name)``
    (a ``None`` place or name: any, and every change of that kind carries
    one too), ``"cvars"``, ``"seats"``, ``"turn"``; None: everything."""
    if r.everything:
        return None
    out: set[Token] = {("zone", z) for z in r.zones}
    out |= {("pvar", k) for k in r.pvars} | {("var", k) for k in r.vars}
    out |= {flag for flag, on in (("cvars", r.cvars), ("seats", r.seats), ("turn", r.turn)) if on}
    return frozenset(out)


class _Unknown(Exception):
    """Something the analysis does not follow: the expression reads everything."""


class _Found:
    def __init__(self) -> None:
        self.zones: set[int | None] = set()
        self.pvars: set[str | None] = set()
        self.vars: set[str | None] = set()
        self.cvars = False
        self.seats = False
        self.turn = False
        self.owners: dict[Token, set[int | None]] = {}

    def owned(self, token: Token, role: int | None) -> None:
        self.owners.setdefault(token, set()).add(role)


@functools.lru_cache(maxsize=8)
def _lines(source: str) -> list[str]:
    return source.splitlines(True)


def _visit(fn, label: str, found: _Found, seen: set, binding: dict[str, int | None]) -> None:
    """Visit compiled function ``fn``; ``binding`` gives, for each of its
    parameters, which of the outermost expression's parameters it is (None:
    not known to be one): a procedure called with the viewer reads the
    viewer's zones."""
    code = getattr(fn, "__code__", None)
    if code is None or code.co_filename != label or code.co_argcount < 1:
        raise _Unknown
    key = (code, tuple(sorted(binding.items())))
    if key in seen:
        return
    seen.add(key)
    # the module's own source, not linecache's copy under the label: a game
    # compiled again (plain and for change tracking) has the same label
    source = fn.__globals__.get("__source__")
    if not isinstance(source, str):
        raise _Unknown
    try:
        block = inspect.getblock(_lines(source)[code.co_firstlineno - 1:])
        tree = ast.parse(textwrap.dedent("".join(block)))
    except (IndexError, TypeError, SyntaxError, tokenize.TokenError):
        raise _Unknown from None
    func = tree.body[0]
    if not isinstance(func, ast.FunctionDef):
        raise _Unknown
    match = func.args.args[0].arg
    hoisted: dict[str, str] = {}          # local name -> match attribute (PZ = m.pz)
    stored: dict[str, int] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stored[node.id] = stored.get(node.id, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and _is_attr_of(node.value, match):
            hoisted[node.targets[0].id] = node.value.attr
    if any(stored[name] != 1 for name in hoisted):
        raise _Unknown                      # a hoisted local given another value too
    roles = {name: role for name, role in binding.items() if name not in stored}   # (a parameter set anew: unknown)
    parents = {child: node for node in ast.walk(func) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id == match:
                _match_use(node, parents, fn, label, found, seen, roles)
            elif node.id in hoisted:
                _attr_use(hoisted[node.id], node, parents, found, roles)
            elif node.id in fn.__globals__:
                target = fn.__globals__[node.id]
                if getattr(getattr(target, "__code__", None), "co_filename", None) == label:
                    _visit(target, label, found, seen, _bound(target, node, parents, roles))
        elif isinstance(node, ast.Name) and node.id == match:
            raise _Unknown                  # the match's name rebound


def _bound(target, node, parents, roles: dict[str, int | None]) -> dict[str, int | None]:
    """What the parameters of compiled function ``target``, named at
    ``node``, are: where it is called with plain arguments, each is the
    outermost parameter its argument is (or None); anywhere else, none is known."""
    call = parents.get(node)
    code = target.__code__
    names = code.co_varnames[:code.co_argcount]
    if not isinstance(call, ast.Call) or call.func is not node or call.keywords \
            or any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) != len(names):
        return {}
    return {name: _role(arg, roles) for name, arg in zip(names[1:], call.args[1:])}


def _role(node, roles: dict[str, int | None]) -> int | None:
    """Which outermost parameter the expression ``node`` is (None: not known to be one)."""
    return roles.get(node.id) if isinstance(node, ast.Name) else None


def _is_attr_of(node: Any, match: str) -> TypeGuard[ast.Attribute]:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == match


def _match_use(node, parents, fn, label: str, found: _Found, seen: set, roles: dict[str, int | None]) -> None:
    """The match's name where it is read: an attribute, or an argument."""
    parent = parents.get(node)
    if isinstance(parent, ast.Attribute) and parent.value is node:
        holder = parents.get(parent)
        if isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name):
            return                          # a hoist (PZ = m.pz): followed where the local is read
        _attr_use(parent.attr, parent, parents, found, roles)
        return
    if isinstance(parent, ast.Call) and node in parent.args and isinstance(parent.func, ast.Name):
        callee = fn.__globals__.get(parent.func.id)
        if getattr(getattr(callee, "__code__", None), "co_filename", None) == label \
                and parent.args.index(node) == 0:
            return                          # a compiled function: visited where its name is read
        kind = _VAR_HELPERS.get(parent.func.id)
        if kind is not None and parent.args.index(node) == 0 and len(parent.args) >= 3:
            name = parent.args[2]
            value = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
            if kind == "cvars":
                found.cvars = True
            else:
                found.pvars.add(value)
                found.owned(("pvar", value), _role(parent.args[1], roles))
            return
    raise _Unknown


def _attr_use(attr: str, node, parents, found: _Found, roles: dict[str, int | None]) -> None:
    """``m.ATTR`` (or its hoisted local) read at ``node``."""
    if attr in _FIXED or attr in _STEPS:
        return
    if attr in _SEATS:
        found.seats = True
        return
    if attr in _TURN:
        found.turn = True
        return
    if attr == "cvars":
        found.cvars = True
        return
    index = _const_index(node, parents)
    if attr in ("pz", "gz"):
        found.zones.add(index if type(index) is int else None)
        if attr == "pz" and type(index) is int:      # PZ[k][owner]
            inner = parents.get(node)
            outer = parents.get(inner)
            whose = outer.slice if isinstance(outer, ast.Subscript) and outer.value is inner else None
            found.owned(("zone", index), None if whose is None else _role(whose, roles))
    elif attr == "vars":
        found.vars.add(index if type(index) is str else None)
    elif attr == "pvars":
        inner = parents.get(node)             # m.pvars[p]['name']
        name = _const_index(inner, parents) if isinstance(inner, ast.Subscript) and inner.value is node else None
        found.pvars.add(name if type(name) is str else None)
        if type(name) is str:
            assert isinstance(inner, ast.Subscript)
            found.owned(("pvar", name), _role(inner.slice, roles))
    else:
        raise _Unknown


def _const_index(node, parents):
    """The constant of ``node[CONST]`` where ``node`` is subscripted so, else None."""
    parent = parents.get(node)
    if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.slice, ast.Constant):
        return parent.slice.value
    return None
