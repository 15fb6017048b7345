"""Writing a choice's enumerator: the function that lists every legal action.

Built on the expression writer (see :mod:`rulekit.lang.codegen` for
why effect text becomes Python).  It builds the enumerator as intermediate
form (:mod:`rulekit.lang.ir`), like every other function.  An enumerator filters the source cards once
per option (sharing identical pools between options), then builds actions:
single cards and seats come from per-option memos of shared Action objects.
"""
from __future__ import annotations

from typing import Any, TypeAlias

from ..engine.runtime import Action
from ..limits import MAX_OPTIONS
from . import runtime_helpers, work
from .expr_ir import Expr, zones_of
from .gen_base import Node
from .gen_expressions import Expressions, elem_of
from .gen_windows import window_of
from .ir import Assign, Code, Continue, Do, EmptyLists, For, If, Origin, Return, Stmt, every_block
from .templates import TemplateError, split_template

#: the parsed text of one option, by key: a tree, or a list of trees (``parts``)
Parsed: TypeAlias = "dict[str, Any]"


class _Keyed(dict[str, Any]):
    """The parsed expressions of one option; reading one sets the error path,
    so an error is reported at the key it came from."""

    def __init__(self, trees: Parsed, gen: Choices, base: tuple[Any, ...]) -> None:
        super().__init__(trees)
        self.gen, self.base = gen, base

    def __getitem__(self, key: str) -> Any:
        self.gen.cx.error_path = self.base + (key,)
        return super().__getitem__(key)


def _prompt_pieces(prompt: str, params: tuple[str, ...]) -> tuple[str, tuple[str | int, ...]]:
    """(template, pieces) of a Decision: a prompt without placeholders is its
    own text (braces unescaped) and has no pieces.  The loader has checked
    the prompt; one that does not split is shown as written."""
    try:
        pieces = split_template(prompt, params)
    except TemplateError:
        return prompt, ()
    if all(type(p) is str for p in pieces):
        return "".join(map(str, pieces)), ()
    return prompt, pieces


#: what a card option's ``from`` gives when it surely gives no cards
_NOT_CARDS = {"int": "a number or a player", "bool": "true or false", "seats": "players"}


class Choices(Expressions):
    """The writer of choices' enumerators, built on the expression writer."""

    def choice(self, cname: str, spec: dict[str, Any], parsed: dict[Any, Any], rule: str,
               ranges: dict[int, tuple[int, int]]) -> None:
        """The enumerator ``O_i(m)``: the Decision with every legal action, or
        None.  ``ranges[i]`` is (fewest, most) cards for card options, the
        (lowest, highest) number for number options."""
        params = self.names.choice_params.get(cname, ())
        self.begin_function(self.choice_fn[cname], params, rule, set())
        self.cx.pools = {}
        self.cx.pools_read = set()
        self.choosing = cname
        self.assign("out", "[]")
        self._fuse_pools(spec, parsed)
        always = False                  # an option is offered whatever happens
        skip = self.names.choice_skip.get(cname)
        skip_acts: list[str] = []       # a window's skip answer, offered whatever happens (see gen_windows)
        for i, opt in enumerate(spec["options"]):
            trees = _Keyed(parsed[i], self, ("options", i))
            when = self.expr(trees["when"]).src if "when" in trees else None
            top, self.cx.out = self.cx.out, []
            first = when is None        # always run: its pools may serve later options
            name = repr(opt["name"])
            if "cards" in opt or "parts" in opt:
                self._card_option(opt, trees, name, first, ranges[i])
            elif "player" in opt or "number" in opt:
                kind = "player" if "player" in opt else "number"
                src = self.seq_of(self.expr(trees[kind], wants=(f"'{kind}' of option {opt['name']!r}",
                                                                "list" if kind == "player" else "several")))
                act = self._action_table(kind, opt["name"])
                each: list[Stmt] = []
                here = self.here()
                if kind == "number":       # the declared range holds every number offered
                    lo, hi = ranges[i]
                    each.append(If([(f"type(L_it) is not _int or not {lo} <= L_it <= {hi}",
                                     [Do(f"_bad_number({opt['name']!r}, L_it, {lo}, {hi}, {rule!r})",
                                         origin=here)])], one_line=True, origin=here))
                offer = Do(f"out.append({act}[L_it])", origin=here)
                if "where" in trees:
                    each.append(If([(self.expr(trees["where"], extra={"it"}).src, [offer])], origin=here))
                else:
                    each.append(offer)
                self.add(For("L_it", src, each, origin=here))
            else:
                act = self.const(Action(opt["name"]), "action", opt["name"])
                self.do(f"out.append({act})")
                always = always or when is None
                if opt["name"] == skip and when is None:
                    skip_acts.append(act)
            body, self.cx.out = self.cx.out, top
            if when is None:
                self.cx.out.extend(body)
            else:
                self.add(If([(when, body)], origin=self.here()))
        if not always:                  # (an option offered whatever happens: never empty)
            self.add(If([("not out", [Return("None", origin=self.here())])], one_line=True, origin=self.here()))
        _drop_unread_pools(self.function.body, self.cx.pools_read)
        self.cx.error_path = ("who",)
        who = self.expr(parsed["who"], wants=("'who'", "player")) if "who" in parsed else Code("m.current", "int")
        if who.kind != "int":           # (a seat a match may not have: said before any agent is asked)
            who = Code(f"_asked(m, {who}, {cname!r})")
        self.cx.error_path = ()
        args = "(" + "".join(f"L_{p}, " for p in params) + ")"
        prompt, shown = _prompt_pieces(spec.get("prompt", cname), params)
        window = window_of(spec, parsed, ranges, params, dict(self.declared_params), skip, skip_acts,
                           prompt, shown)
        if window is not None:
            self.windows[cname] = window
        self.add(Return(f"_tn(_Decision, ({who}, {cname!r}, {prompt!r}, out, {args}, {shown!r}))",
                        origin=self.here()))
        self.end_function()

    def _shared_pool(self, key: tuple[str, str]) -> str:
        """The pool an earlier option kept of the same cards (noted as read:
        the copies nothing reads are left out when the choice is written)."""
        name = self.cx.pools[key]
        self.cx.pools_read.add(name)
        return name

    def _fuse_pools(self, spec: dict[str, Any], parsed: dict[Any, Any]) -> None:
        """Fill in one pass every pool that options always need (no ``when``)
        and that filter the same cards by tests of card properties alone:
        a hand filtered four ways is read once, not four times, and no
        comprehension is made per pool.  The options then take their pools
        from ``self.cx.pools`` as when one option shares another's."""
        by_src: dict[str, list[Code]] = {}
        for i, opt in enumerate(spec["options"]):
            if "when" in opt or "from" not in opt or not ("cards" in opt or "parts" in opt):
                continue
            trees = _Keyed(parsed[i], self, ("options", i))
            if self.elem_kind(trees["from"]) != "card":
                continue
            src = self.seq(trees["from"])
            if "where" in trees:
                preds = [self.filter_test(trees["where"], "card")]
            elif "parts" in opt:
                preds = [self.filter_test(t, "card") for t in trees["parts"]]
            else:
                continue
            tabled = by_src.setdefault(src, [])
            tabled.extend(p for p in preds if p.table is not None and p not in tabled)
        self.cx.error_path = ()
        here = self.here()
        for src, preds in by_src.items():
            if len(preds) < 2:
                continue
            names = []
            for pred in preds:
                self.cx.pools[(src, pred.src)] = f"_pool{len(self.cx.pools)}"
                names.append(self.cx.pools[(src, pred.src)])
            self.add(EmptyLists(names, origin=here))
            each: list[Stmt] = [Assign("_i", "_c.id", origin=here)]
            for pred, name in zip(preds, names):
                each.append(If([(f"{pred.table}[_i]", [Do(f"{name}.append(_c)", origin=here)])],
                               one_line=True, origin=here))
            self.add(For("_c", src, each, origin=here))

    def _note_zones(self, option: str, tree: Expr | None) -> None:
        """Note where the option's cards can only come from (``tree``: its
        ``from:``, with any other option of its name in the choice): an
        action catalogue numbers only the cards those zones may hold."""
        zones = None if tree is None else zones_of(tree)
        key = (self.choosing, option)
        self.option_sources.setdefault(key, []).append(tree)
        if key in self.option_zones:
            before = self.option_zones[key]
            zones = None if before is None or zones is None else before | zones
        self.option_zones[key] = zones

    def param_option_zones(self) -> dict[tuple[str, str], frozenset[int]]:
        """The card options that the zones of their ``from:`` alone leave
        open, with the zones their cards can only come from, once the whole
        file is written: a parameter of the choice gives what every
        ``choose`` of it passes (a choice of "one of these cards" called with
        a player's hand offers only what hands may hold; a choice nobody
        calls, nothing), a procedure's result what its ``return``
        statements give.  An option is left out where anything it reads may
        hold any card."""
        done: dict[str, frozenset[int] | None] = {}

        def proc(name: str) -> frozenset[int] | None:
            if name not in done:
                done[name] = None           # (a procedure that calls itself: anything, while it is open)
                done[name] = union(self.proc_returns.get(name) or [None], None)
            return done[name]

        def union(trees: list[Any], params: dict[str, frozenset[int] | None] | None) -> frozenset[int] | None:
            found: set[int] = set()
            for tree in trees:
                zones = None if tree is None else zones_of(tree, params, proc)
                if zones is None:
                    return None
                found |= zones
            return frozenset(found)

        out = {}
        for (choice, option), trees in self.option_sources.items():
            if self.option_zones.get((choice, option)) is not None:
                continue                    # (known from its zones alone)
            params = {p: union(self.choice_args.get((choice, p), []), None)
                      for p in self.names.choice_params.get(choice, ())}
            zones = union(trees, params)
            if zones is not None:
                out[(choice, option)] = zones
        return out

    def _card_option(self, opt: dict[str, Any], trees: _Keyed, name: str, first: bool,
                     count: tuple[int, int]) -> None:
        """``first``: the option always runs (no ``when``), so the pools it
        fills may serve the options after it."""
        lo, hi = count
        tree = self.known_tree(trees["from"]) if "from" in trees else None     # (for the code and the zones)
        self._note_zones(opt["name"], tree)
        source = None if tree is None else self.lower(tree)
        if source is not None and source.kind in _NOT_CARDS:
            self.error(trees["from"], f"'from' gives {_NOT_CARDS[source.kind]}, not cards",
                       "cards to pick from: a zone (hand(current)), a filter of one, a list of cards",
                       "a player's cards are in the player's zones: write e.g. hand(current)"
                       if source.kind in ("int", "seats") else "")
        src = "()" if source is None else self.seq_of(source)
        bounded = tree is None or work.bounded(tree, self.work)       # (a longer list counts steps: see work)
        elem = "any" if source is None else elem_of(source.kind)
        pred = self.filter_test(trees["where"], elem) if "where" in trees else None
        key = (src, "True" if pred is None else pred.src)
        # the most cards a pool of the option may hold: a zone holds at most every card of the game
        most = self.card_count if source is not None and source.kind == "zone" else None
        if "parts" in opt and pred is None:
            self._parts_option(trees["parts"], elem, self._require(trees, elem), name, first,
                               trees.base, src, bounded, most)
            return
        if first and key in self.cx.pools:       # the same cards as an earlier option
            self.assign("pool", self._shared_pool(key))
        else:
            self.assign("pool", f"list({src})" if pred is None else self.where_list(src, pred, bounded=bounded).src)
            if first:
                self.cx.pools[key] = f"_pool{len(self.cx.pools)}"
                self.assign(self.cx.pools[key], "pool")
        require = self._require(trees, elem)
        if "parts" in opt:
            parts = trees["parts"]
            self._parts_option(parts, elem, require, name, first, trees.base, bounded=bounded, most=most)
            return
        here = self.here()
        if lo == hi == 1 and require is None and opt.get("same") is None:
            act = self._action_table("card", opt["name"])
            # a loop, not a comprehension: see runtime_helpers._sumt
            self.add(For("c", "pool", [Do(f"out.append({act}[c.id])", origin=here)], one_line=True, origin=here))
            return
        memo = self._action_table("cards", opt["name"])
        if opt.get("same"):
            key_table = self.prop_table(opt["same"])
            self.assign("by", "{}")
            self.add(For("c", "pool", [Do(f"by.setdefault({key_table}[c.id], []).append(c)", origin=here)],
                         origin=here))
            groups = "by.values()"
        else:
            groups = "(pool,)"
        each: list[Stmt] = []
        if require is not None:
            each.append(_skip_unless(f"not ({require})", here))
        each.append(Assign("ids", "tuple(_map(_ID, L_chosen))", origin=here))
        within = runtime_helpers.sets_within(lo, hi)
        each.extend(self._memo_append(memo))
        self.add(For("grp", groups, [
            _skip_unless(f"len(grp) < {lo}", here),
            # (counted only for a group large enough for its sets to pass the limit, if one may be)
            *([] if most is not None and most <= within else
              [If([(f"len(grp) > {within}", [Do(f"_sets(len(grp), {lo}, {hi})", origin=here)])],
                  origin=here, one_line=True)]),
            For("k", f"range({lo}, min({hi}, len(grp)) + 1)", [
                For("L_chosen", "_combinations(grp, k)", each, origin=here)], origin=here)], origin=here))

    def _action_table(self, kind: str, option: str) -> str:
        """A memo of Action objects for one option (actions are immutable, so
        one object per card or seat serves every match): its ``get``."""
        if kind == "card":     # one per card, made when the module is built: a list by id
            name = self.const(None, "card_actions", option)
            self.card_actions[name] = option
            return name
        return self.const(runtime_helpers.ActionMemo(option, kind), "memo", option)

    def _require(self, trees: _Keyed, elem: str) -> str | None:
        if "require" not in trees:
            return None
        return self.expr(trees["require"], extra={"chosen"},
                         kinds={"chosen": "cards" if elem == "card" else "list"}).src

    def _parts_option(self, parts: list[Node], elem: str, require: str | None, name: str, first: bool,
                      base: tuple[Any, ...] = (), src: str | None = None, bounded: bool = True,
                      most: int | None = None) -> None:
        """One distinct card per part; each set of cards is offered once.
        With ``src`` (no ``where``), each part's cards are a pool of their own,
        shared with other options that filter the same cards the same way.
        ``bounded``: the cards are a zone's (see work.bounded); ``most``: the
        most cards a part may hold, when known."""
        lists = []
        for i, part in enumerate(parts):
            self.cx.error_path = base + ("parts", i)
            pred = self.filter_test(part, elem)
            self.cx.error_path = ()
            if src is None:
                self.assign(f"_p{i}", self.where_list("pool", pred, bounded=bounded).src)
            elif first and (src, pred.src) in self.cx.pools:
                self.assign(f"_p{i}", self._shared_pool((src, pred.src)))
            else:
                self.assign(f"_p{i}", self.where_list(src, pred, bounded=bounded).src)
                if first:
                    self.cx.pools[(src, pred.src)] = f"_pool{len(self.cx.pools)}"
                    self.assign(self.cx.pools[(src, pred.src)], f"_p{i}")
            lists.append(f"_p{i}")
        k = len(parts)
        memo = self._action_table("cards", name.strip("'\""))
        self.assign("seen", "set()")
        here = self.here()
        # (counted only when the product of the parts' sizes is past the limit: a test, not a
        # call; none when the parts cannot hold that many)
        sizes = [f"len({p})" for p in lists]
        if most is None or most ** k > MAX_OPTIONS:
            self.add(If([(f"{' * '.join(sizes)} > {MAX_OPTIONS}", [Do(f"_picks({', '.join(sizes)})", origin=here)])],
                        origin=here, one_line=True))
        if k == 2 and require is None:
            self.add(For("a", "_p0", [For("b", "_p1", [
                _skip_unless("a is b", here),
                Assign("ids", "(a.id, b.id) if a.id < b.id else (b.id, a.id)", origin=here),
                _skip_unless("ids in seen", here),
                Do("seen.add(ids)", origin=here),
                *self._memo_append(memo)], origin=here)], origin=here))
            return
        each: list[Stmt] = [
            Assign("ids", "tuple(sorted([c.id for c in L_chosen]))", origin=here),
            _skip_unless(f"ids in seen or len(set(ids)) < {k}", here),
            Do("seen.add(ids)", origin=here)]
        if require is not None:
            each.append(_skip_unless(f"not ({require})", here))
        each.extend(self._memo_append(memo))
        self.add(For("L_chosen", f"_product({', '.join(lists)})", each, origin=here))

    def _memo_append(self, memo: str) -> list[Stmt]:
        """Append the shared Action for the card ids in ``ids``."""
        here = self.here()
        return [Assign("_act", f"{memo}.get(ids)", origin=here),
                If([("_act is None", [Assign("_act", f"{memo}.add(ids)", origin=here)])], one_line=True,
                   origin=here),
                Do("out.append(_act)", origin=here)]


def _skip_unless(cond: str, origin: Origin) -> If:
    """``if COND: continue`` (COND says the element is skipped)."""
    return If([(cond, [Continue(origin=origin)])], one_line=True, origin=origin)


def _drop_unread_pools(body: list[Stmt], read: set[str]) -> None:
    """Leave out the copies of a pool (``_poolN = ...``) kept for a later
    option that turned out to offer other cards: nothing reads them."""
    for block in every_block(body):
        kept = [s for s in block if not (
            isinstance(s, Assign) and s.target.startswith("_pool") and s.target not in read)]
        if kept:
            block[:] = kept
