"""Pass: what an ``if`` has already decided is not asked again inside it.

A procedure that treats each kind of card in its own branch
(``if kind == "attack": return ...``) often asks, in that branch, a
procedure written for every kind (``immune(t, kind)``), which once written
in place tests ``kind`` against each kind again.  Inside the branch the
answer is known: ``kind == "attack"`` is true, ``kind == "duel"`` false,
and after an ``if kind == "attack": ... return`` every later
``kind == "attack"`` is false.  The statement writer notes these *facts*
(:class:`Facts`) for a parameter the text never sets, and this pass puts
the known answers in and drops what they make moot:
``true and X`` is ``X``, ``false or X`` is ``X``, ``X and false`` is
false when X is a true/false value that reads only names and properties.

Only comparisons of a name with text are decided (text equals text only
when it is the same text, so the known answer is the one the comparison
would give); a fact is never taken for a name that is set anywhere in the
function, so it holds wherever the test that made it holds.

The same folding needs no facts where a procedure written in place was
given text for a parameter (``immune(t, "duel")`` tests ``"duel" ==
"attack"``): a comparison of two texts, or a text's place in a list of
texts, is decided wherever it stands, and so are sums, differences,
products and comparisons of two whole numbers (``1 + extra_attacks(p)``
with a hook that says 0).
"""
from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable

import attrs

from .expr_ir import Attr, Chosen, Expr, Index, Inlined, Lit, Local, Op, Where, children, map_parts, unwrapped

TRUE = Lit("True", "bool", plain=True, fixed=True)
FALSE = Lit("False", "bool", plain=True, fixed=True)


@attrs.frozen
class Fact:
    """What is known of one name: the text it equals, or texts it does not."""

    equals: str | None = None
    not_equal: frozenset[str] = frozenset()


#: by a local's Python name
Facts = dict[str, Fact]


def text_of(node: Expr) -> str | None:
    """The text of a string literal, else None."""
    node = unwrapped(node)
    if isinstance(node, Lit) and node.kind == "str" and node.fixed:
        return _text(node.src)
    return None


@functools.lru_cache(maxsize=4096)
def _text(src: str) -> str | None:
    """The text a string literal's source stands for (the same few are asked often)."""
    try:
        value = ast.literal_eval(src)
    except (ValueError, SyntaxError):
        return None
    return value if type(value) is str else None


def _compared(cond: Expr, ops: tuple[str, ...]) -> tuple[Local, str] | None:
    """(the name, the text) of ``NAME OP "text"`` (either way round) for an OP of ``ops``."""
    if isinstance(cond, Op) and cond.form == "binary" and cond.op in ops:
        a, b = (unwrapped(x) for x in cond.args)
        for name, text in ((a, text_of(b)), (b, text_of(a))):
            if isinstance(name, Local) and text is not None:
                return name, text
    return None


def tested(cond: Expr) -> tuple[Local, str] | None:
    """(the name, the text) of a condition ``NAME == "text"`` (either way round)."""
    return _compared(cond, ("==",))


def learn(facts: Facts, name: str, text: str, holds: bool) -> None:
    """Note that ``name == text`` holds (or does not)."""
    known = facts.get(name, Fact())
    facts[name] = (Fact(text, known.not_equal) if holds
                   else Fact(known.equals, known.not_equal | {text}))


def _const(node: Expr) -> bool | None:
    node = unwrapped(node)
    if isinstance(node, Lit) and node.fixed and node.src in ("True", "False"):
        return node.src == "True"
    return None


def _boolean(node: Expr) -> bool:
    """Is the value true or false itself (not a value read as one)?"""
    node = unwrapped(node)
    if node.kind == "bool":
        return True
    return isinstance(node, Op) and node.form == "binary" and node.op in ("and", "or") and all(
        _boolean(a) for a in node.args)


def _reads_only(node: Expr) -> bool:
    """Does working ``node`` out only read (no call, no built-in)?  Such a
    part may be left out when the answer does not depend on it."""
    if isinstance(node, (Lit, Local, Chosen)):
        return True
    if isinstance(node, (Attr, Op, Inlined)):
        return all(_reads_only(c) for c in children(node))
    return False


def number_of(node: Expr) -> int | None:
    """The value of a whole-number literal, else None."""
    node = unwrapped(node)
    return node.number if isinstance(node, Lit) and node.fixed and node.kind == "int" else None


#: what the folding of two whole numbers may work out (never a division: by zero it must fail in play)
_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul,
               "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
               "==": operator.eq, "!=": operator.ne}


#: the largest number folded (what is larger is written as it was)
_LARGE = 1 << 62


def _numbers(node: Op) -> Expr | None:
    """``a OP b`` of two whole-number literals worked out, else None."""
    fn = _ARITHMETIC.get(node.op) if node.form == "binary" else None
    if fn is None:
        return None
    a, b = number_of(node.args[0]), number_of(node.args[1])
    if a is None or b is None:
        return None
    value = fn(a, b)
    if type(value) is bool:
        return TRUE if value else FALSE
    if not -_LARGE < value < _LARGE:      # (a product of huge numbers is left for play to work out)
        return None
    return Lit(str(value) if value >= 0 else f"({value})", "int", plain=True, number=value, fixed=True)


def _literal(node: Op) -> bool | None:
    """The answer of ``"x" == "y"``, ``!=``, ``"x" in ["y", ...]`` (texts only), else None."""
    if node.form not in ("binary", "in") or node.op not in ("==", "!=", "in", "not in"):
        return None
    if node.form == "binary":
        right = text_of(node.args[1])
        left = text_of(node.args[0]) if right is not None else None
        return None if left is None else (left == right) is (node.op == "==")
    listed = unwrapped(node.args[1])
    if not (isinstance(listed, Op) and listed.form == "list"):
        return None
    left = text_of(node.args[0])
    if left is None:
        return None
    texts = [text_of(a) for a in listed.args]
    return None if any(t is None for t in texts) else (left in texts) is (node.op == "in")


def _decided(node: Op, facts: Facts) -> bool | None:
    """The answer of ``NAME == "x"``, ``!=``, ``in [...]`` the facts give."""
    if node.form == "binary" and node.op in ("==", "!="):
        found = _compared(node, ("==", "!="))
        if found is None or found[0].py not in facts:
            return None
        fact, text = facts[found[0].py], found[1]
        same = (fact.equals == text if fact.equals is not None
                else False if text in fact.not_equal else None)
        return None if same is None else same if node.op == "==" else not same
    if node.form == "in":
        local, listed = unwrapped(node.args[0]), node.args[1]
        if not (isinstance(local, Local) and local.py in facts and isinstance(listed, Op) and listed.form == "list"):
            return None
        texts = [text_of(a) for a in listed.args]
        fact = facts[local.py]
        if any(t is None for t in texts):
            return None
        if fact.equals is not None:
            inside = fact.equals in texts
        elif all(t in fact.not_equal for t in texts):
            inside = False
        else:
            return None
        return inside if node.op == "in" else not inside
    return None


def _simplified(node: Op) -> Expr:
    """``node`` with constant parts of ``and`` / ``or`` / ``not`` / ``X if
    C else Y`` folded (each kept part's value as Python would give it)."""
    if node.form == "not":
        c = _const(node.args[0])
        return node if c is None else FALSE if c else TRUE
    if node.form == "ternary":
        c = _const(node.args[1])
        return node if c is None else node.args[0] if c else node.args[2]
    if not (node.form == "binary" and node.op in ("and", "or")):
        return node
    a, b = node.args
    ca, cb = _const(a), _const(b)
    stop = node.op == "or"            # the answer that ends an 'or' (true) or an 'and' (false)
    if ca is not None:
        return (TRUE if stop else FALSE) if ca is stop else b
    if cb is not None and _boolean(a):
        if cb is not stop:
            return a                      # X and true, X or false: X
        if _reads_only(a):
            return TRUE if stop else FALSE
    return node


def folded(node: Expr) -> Expr:
    """``node`` worked out as far as its parts alone decide (texts compared
    with texts, whole numbers, constant parts of ``and`` / ``or`` / ``not``):
    what :mod:`rulekit.lang.pass_inline` asks of an operator whose parts it
    has just replaced."""
    if not isinstance(node, Op):
        return node
    known = _literal(node)
    if known is not None:
        return TRUE if known else FALSE
    return _numbers(node) or _simplified(node)


def known_entries(node: Op, is_table: Callable[[Lit], bool]) -> Op:
    """``TABLE[KEY] if KEY in TABLE else ...``: the first part reads an entry
    the test has just found, so the read cannot fail and is written without
    the check a table read needs otherwise (an entry missing is a rule
    error).  Only for a key that is a local or a constant (it holds the
    same value in the test and in the part: an expression sets nothing),
    and not inside a filter, whose ``it`` is its own."""
    then, cond, other = node.args
    test = unwrapped(cond)
    if not (isinstance(test, Op) and test.form == "in" and test.op == "in"):
        return node
    key, table = (unwrapped(a) for a in test.args)
    if not (isinstance(key, (Local, Lit)) and key.plain and isinstance(table, Lit) and is_table(table)):
        return node

    def mark(part: Expr) -> Expr:
        if isinstance(part, Where):
            return part
        if (isinstance(part, Index) and not part.checked and unwrapped(part.base) == table
                and unwrapped(part.key) == key):
            return Index(part.base, part.key, checked=True)
        return map_parts(part, mark)

    found = mark(then)
    return node if found is then else attrs.evolve(node, args=(found, cond, other))


def run(node: Expr, facts: Facts) -> Expr:
    """``node`` with the comparisons the facts decide put in, and folded."""
    if not facts:
        return node
    node = map_parts(node, lambda part: run(part, facts))
    if isinstance(node, Op):
        known = _decided(node, facts)
        if known is not None:
            return TRUE if known else FALSE
    return folded(node)         # (and what the parts alone decide)
