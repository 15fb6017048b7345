"""Strings that are names: checked at load time like any other name.

Effect text names skills, card kinds, kingdoms... with string literals
(``has(p, "flight")``, ``it.kind == "attack"``), and a misspelled string is no
syntax error: the test is simply never true.  Two things tell the compiler
that a string is meant as a name:

* it is compared with a card property (``==``, ``!=``, ``in [...]``, or
  ``"x" in CARD.prop`` for a property that is a list).  Card properties are
  fixed when the file loads, so a string no card has as that property can
  never match: an error, with the closest value as a suggestion;
* a number compared with a card property that is a text on every card
  (``it.rank == 8`` where ranks are ``"8"``) can never match either, and
  ``sum(CARDS.rank)`` of such a property could only fail;
* it is compared with a chosen answer's option (``play.option == "card"``):
  it must be one of that choice's options;
* it is given for a parameter declared ``{name: p, one_of: SET}``, where SET
  is an entry of the ``names:`` section (a list of names, and / or every
  value of some card properties); or compared with such a parameter inside
  the procedure or choice.

The base of the expression writer (:mod:`rulekit.lang.gen_expressions`).  The checks run
while the code is written, once per comparison or call; they add nothing to
the generated code.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lark import Token, Tree

from .expr_ir import Builtin, sum_of_cards
from .gen_base import CHOSEN_FIELDS, GenBase, Node, subtree, unquote
from .names import suggest

#: how many of the allowed names an error lists
_SHOWN = 12


def _string(node: Node | None) -> Token | None:
    """The STRING token of a string literal, else None."""
    if isinstance(node, Tree) and node.data == "string":
        tok = node.children[0]
        return tok if isinstance(tok, Token) else None
    return None


#: names are often one or two characters (a CJK name): one wrong in two is still close
_CUTOFF = 0.5


def listed(values: Iterable[object]) -> str:
    shown = list(map(str, values))
    more = f", ... ({len(shown)} in all)" if len(shown) > _SHOWN else ""
    return ", ".join(shown[:_SHOWN]) + more


def _sum_hint(prop_values: dict[str, dict[Any, Any]]) -> str:
    numbers = [p for p, values in prop_values.items() if values and all(
        isinstance(v, (int, float)) for v in values)]
    what = f"a property that is a number ({listed(numbers)})" if numbers else "a property that is a number"
    return f"sum {what}, or count the cards with size(...)"


class NameChecks(GenBase):
    """The checks of strings meant as names (see the module's docstring)."""

    def check_compared(self, node: Tree[Token]) -> None:
        """``SUBJECT == "text"`` (or ``!=``), ``SUBJECT in ["a", "b"]`` and
        ``"text" in SUBJECT``, where SUBJECT is a card property or a parameter
        declared to take a name: each string must be one of its values."""
        if node.data == "compare_op":
            left, op, right = node.children
            if str(op) in ("==", "!="):
                for subject, other in ((left, right), (right, left)):
                    tok = _string(other)
                    if tok is not None:
                        self._check_name(subject, tok, within=False)
                    elif isinstance(other, Tree) and other.data == "number":
                        self._check_number(subject, other.children[0])
            return
        item, container = node.children
        tok = _string(item)
        if tok is not None:
            self._check_name(container, tok, within=True)
        elif isinstance(container, Tree) and container.data == "list_lit" and container.children[0] is not None:
            for element in subtree(container.children[0]).children:
                tok = _string(element)
                if tok is not None:
                    self._check_name(item, tok, within=False)

    def check_name_args(self, kind: str, name: str, arg_nodes: list[Node]) -> None:
        """A string given for a parameter declared ``one_of`` a ``names:`` entry
        (``kind`` is "procedure" or "choice")."""
        sets = self.names.param_sets.get((kind, name))
        if not sets:
            return
        for set_name, arg in zip(sets, arg_nodes):
            tok = _string(arg)
            if set_name is not None and tok is not None:
                self._check_in_set(set_name, tok)

    # ---- the checks ---------------------------------------------------------------
    def _check_name(self, subject: Node, tok: Token, within: bool) -> None:
        choice = self._chosen_option(subject)
        if choice is not None:
            options = self.names.choice_options[choice]
            text = unquote(tok)
            if not within and text not in options:
                self.error(tok, f"choice '{choice}' has no option '{text}'",
                           f"one of its options: {listed(sorted(options))}",
                           suggest(text, options, _CUTOFF) or "an answer's option is always one of its choice's")
            return
        prop = self._card_prop(subject)
        if prop is not None:
            if within and prop not in self.names.list_props:
                return          # "x" in it.name: a substring test, not a name
            text = unquote(tok)
            values = self.names.prop_values.get(prop, {})
            if text not in values:
                is_list = prop in self.names.list_props
                self.error(tok, f"no card has '{text}' in its {prop}" if is_list
                           else f"no card has {prop} '{text}'",
                           f"a value some card has as '{prop}': {listed(values)}",
                           suggest(text, [v for v in values if isinstance(v, str)], _CUTOFF)
                           or "card properties are fixed when the file loads, so this can never match")
            return
        if not within and isinstance(subject, Tree) and subject.data == "name":
            name = str(subject.children[0])
            set_name = self.declared_params.get(name)
            if set_name is not None and name not in self.cx.rebound:   # not set to something else
                self._check_in_set(set_name, tok)

    def _check_number(self, subject: Node, tok: Node) -> None:
        """A number compared with a card property every card has as a text
        (``it.rank == 8`` where the ranks are ``"8"``...): never true."""
        prop = self._card_prop(subject)
        if prop is None or not isinstance(tok, Token) or prop in self.names.list_props:
            return
        values = self.names.prop_values.get(prop, {})
        if values and all(isinstance(v, str) for v in values):
            text = str(tok)
            quoted = listed(f'"{v}"' for v in values)
            self.error(tok, f"no card has {prop} {text}: every {prop} is a text",
                       f"a value some card has as '{prop}', a text: {quoted}",
                       f'write "{text}"' if text in values else
                       "card properties are fixed when the file loads, so this can never match")

    def _check_summed(self, node: Builtin, arg: Node) -> None:
        """``sum(CARDS.PROP)`` of a property no card has as a number (the
        ranks "A", "2"...): it could only fail, so the file is refused."""
        summed = sum_of_cards(node)
        if summed is None or not summed.card_prop or summed.attr in self.names.list_props:
            return
        prop = summed.attr
        values = self.names.prop_values.get(prop, {})
        if values and not any(isinstance(v, (int, float)) for v in values):
            quoted = listed(f'"{v}"' if isinstance(v, str) else str(v) for v in values)
            self.error(arg, f"sum of card property '{prop}', which no card has as a number",
                       f"a card property whose values are numbers ('{prop}' is {quoted})",
                       _sum_hint(self.names.prop_values))

    def _check_in_set(self, set_name: str, tok: Token) -> None:
        names = self.names.name_sets.get(set_name)
        text = unquote(tok)
        if names is None or text in names:
            return
        self.error(tok, f"no {set_name} is called '{text}'",
                   f"one of the names of '{set_name}' (under names:): {listed(names)}",
                   suggest(text, names, _CUTOFF) or f"check the spelling, or add it to names: {set_name}")

    def _chosen_option(self, subject: Node) -> str | None:
        """The choice whose answer's option ``subject`` reads (``CHOICE.option``), if it does."""
        if not (isinstance(subject, Tree) and subject.data == "attr" and str(subject.children[1]) == "option"):
            return None
        base = subject.children[0]
        if not (isinstance(base, Tree) and base.data == "name"):
            return None
        name = str(base.children[0])
        if name in self.cx.locals or name not in self.names.choice_options:
            return None
        return name

    def _card_prop(self, subject: Node) -> str | None:
        """The card property ``subject`` reads (``X.prop``), when it surely
        is one: a name that is also a player variable, a chosen answer's or
        an event's field counts only on a card (``it`` over cards)."""
        if not (isinstance(subject, Tree) and subject.data == "attr"):
            return None
        base, attr_tok = subject.children
        attr = str(attr_tok)
        if attr not in self.card_props:
            return None
        base_name = str(base.children[0]) if isinstance(base, Tree) and base.data == "name" else None
        base_kind = self.cx.local_kinds.get(base_name) if base_name in self.cx.locals else None
        if base_kind == "card":
            return attr
        if (attr in self.names.player_vars or attr in CHOSEN_FIELDS or attr in self.names.event_fields
                or base_kind in ("int", "event") or (base_name in self.names.choices
                                                      and base_name not in self.cx.locals)):
            return None
        return attr
