"""Module parameters put into a module's effect text.

A shared module is written against names the game that includes it
supplies (see :mod:`rulekit.modules`)::

    params:
      attack: {doc: the card kind a player attacks with}            # a value
      health: {doc: the player variable that counts life, kind: name}

and the game binds them: ``include: [{file: combat.yaml, with: {attack: strike,
health: life}}]``.  In the module's effect text a *value* parameter read as
an expression becomes that value (``it.kind == attack`` reads ``it.kind ==
"strike"``; a list stands for a list); a *name* parameter is replaced wherever the name is written
(``p.health`` reads ``p.life``), as are the module's own items of that name.
A skill the module declares under the key of a value parameter that stands
for a text is named by that text (see :meth:`Bindings.skill_name`).
The replacement is made on the parse tree, token by token, keeping every
position, so errors still point at what the author wrote; nothing is ever
evaluated.  The files a module includes see its parameters too, so a
module's entry file declares them once for all its parts.
"""
from __future__ import annotations

from typing import Any

import attrs
from lark import Token, Tree


@attrs.frozen
class Bindings:
    """What one module's parameters stand for in the game that includes it."""

    names: dict[str, str] = attrs.field(factory=dict)     # param -> name
    values: dict[str, Any] = attrs.field(factory=dict)    # param -> text, number or a list of them

    def __bool__(self) -> bool:
        return bool(self.names or self.values)

    def rename(self, name: Any) -> Any:
        return self.names.get(name, name) if isinstance(name, str) else name

    def skill_name(self, key: Any) -> Any:
        """The name of a skill the module declares under ``key``.  Effect
        text names a skill as a text (``has(p, "fury")``, ``confirm(p,
        "fury")``), so a module names a skill by a *value* parameter: under
        the parameter's key it declares the skill the game calls by that
        text, and its effect text reads the same parameter as that text
        (``weapon_is(p, crossbow)``).  A name parameter renames a skill as
        it renames any item."""
        value = self.values.get(key) if isinstance(key, str) else None
        return value if isinstance(value, str) else self.rename(key)


def bind(tree: Tree[Token], bindings: Bindings) -> Tree[Token]:
    """``tree`` with the parameters replaced.  Trees are shared by the
    parser's cache, so the original is never changed: the nodes on the way
    to a replaced one are copied, the rest is shared with it (a module's
    text names its parameters in few places, and copying all of it would
    make every load of the game build and collect that much more)."""
    names, values = bindings.names, bindings.values

    def walk(node: Any) -> Any:
        if isinstance(node, Token):
            if node.type == "NAME" and node in names:
                return node.update(value=names[node])
            return node
        if node is None:
            return None
        children = node.children
        if node.data == "name" and str(children[0]) in values:
            token = children[0]
            return _literal(token, values[str(token)], node)
        copied = None
        for i, child in enumerate(children):
            new = walk(child)
            if new is not child:
                if copied is None:
                    copied = list(children)
                copied[i] = new
        return node if copied is None else Tree(node.data, copied, node.meta)

    bound: Tree[Token] = walk(tree)
    return bound


def named_in(text: str, bindings: Bindings) -> bool:
    """Whether ``text`` may name a parameter (it holds one's name): most of
    a module's texts name none, and need no walk of their tree."""
    return any(name in text for name in bindings.names) or any(name in text for name in bindings.values)


def _literal(token: Token, value: Any, node: Tree[Token]) -> Tree[Token]:
    """The tree of a literal ``value`` where ``token`` was written."""
    if isinstance(value, list):
        items = [_literal(token, v, node) for v in value]
        return Tree("list_lit", [Tree("args", items, node.meta) if items else None], node.meta)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return node                        # refused when the module was included
    if isinstance(value, int):
        return Tree("number", [token.update("NUMBER", str(value))], node.meta)
    quote = "'" if '"' in value else '"'
    return Tree("string", [token.update("STRING", quote + value + quote)], node.meta)


def is_value(value: Any) -> bool:
    """A value a parameter may stand for: a text, a number, or a list of them."""
    if isinstance(value, list):
        return all(is_value(v) and not isinstance(v, list) for v in value)
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def inherited(parent: Bindings | None, own: Bindings) -> Bindings:
    """A module's parameters reach the files it includes: what they stand for
    there is the includer's, with the file's own on top."""
    if parent is None or not parent:
        return own
    return Bindings({**parent.names, **own.names}, {**parent.values, **own.values})
