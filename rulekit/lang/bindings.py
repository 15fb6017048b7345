"""Module parameters put into a module's effect text.

A shared module is written against names the game that includes it
supplies (see :mod:`rulekit.modules`)::

    params:
      attack: {doc: the card kind a player attacks with}            # a value
      health: {doc: the player variable that counts life, kind: name}

and the game binds them: ``include: [{file: combat.yaml, with: {attack: strike,
health: life}}]``.  In the module's effect text a *value* parameter read as
an expression becomes that value (``it.kind == attack`` reads ``it.kind ==
"strike"``); a *name* parameter is replaced wherever the name is written
(``p.health`` reads ``p.life``), as are the module's own items of that name.
The replacement is made on the parse tree, token by token, keeping every
position, so errors still point at what the author wrote; nothing is ever
evaluated.
"""
from __future__ import annotations

from typing import Any

import attrs
from lark import Token, Tree


@attrs.frozen
class Bindings:
    """What one module's parameters stand for in the game that includes it."""

    names: dict[str, str] = attrs.field(factory=dict)     # param -> name
    values: dict[str, Any] = attrs.field(factory=dict)    # param -> text or number

    def __bool__(self) -> bool:
        return bool(self.names or self.values)

    def rename(self, name: Any) -> Any:
        return self.names.get(name, name) if isinstance(name, str) else name


def bind(tree: Tree, bindings: Bindings) -> Tree:
    """A copy of ``tree`` with the parameters replaced (trees are shared by
    the parser's cache, so the original is never changed)."""
    def walk(node: Any) -> Any:
        if isinstance(node, Token):
            if node.type == "NAME" and node in bindings.names:
                return node.update(value=bindings.names[node])
            return node
        if node is None:
            return None
        if node.data == "name" and str(node.children[0]) in bindings.values:
            token = node.children[0]
            value = bindings.values[str(token)]
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                return node                        # refused when the module was included
            if isinstance(value, int):
                return Tree("number", [token.update("NUMBER", str(value))], node.meta)
            quote = "'" if '"' in value else '"'
            return Tree("string", [token.update("STRING", quote + value + quote)], node.meta)
        return Tree(node.data, [walk(c) for c in node.children], node.meta)

    return walk(tree)
