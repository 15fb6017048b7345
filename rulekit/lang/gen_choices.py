"""Writing a choice's enumerator: the function that lists every legal action.

Part of :class:`rulekit.lang.codegen.CodeGen` (a mixin): see that module for
why effect text becomes Python.  An enumerator filters the source cards once
per option (sharing identical pools between options), then builds actions:
single cards and seats come from per-option memos of shared Action objects.
"""
from __future__ import annotations

from . import runtime_helpers
from .fn_names import TABLED as _TABLED
from .templates import TemplateError, split_template


class _Keyed(dict):
    """The parsed expressions of one option; reading one sets the error path,
    so an error is reported at the key it came from."""

    def __init__(self, trees: dict, gen: "ChoicesMixin", base: tuple):
        super().__init__(trees)
        self.gen, self.base = gen, base

    def __getitem__(self, key):
        self.gen.error_path = self.base + (key,)
        return super().__getitem__(key)


def _prompt_pieces(prompt: str, params: tuple) -> tuple[str, tuple]:
    """(template, pieces) of a Decision: a prompt without placeholders is its
    own text (braces unescaped) and has no pieces.  The loader has checked
    the prompt; one that does not split is shown as written."""
    try:
        pieces = split_template(prompt, params)
    except TemplateError:
        return prompt, ()
    if all(type(p) is str for p in pieces):
        return "".join(pieces), ()
    return prompt, pieces


class ChoicesMixin:
    def choice(self, cname: str, spec: dict, parsed: dict, rule: str, ranges: dict) -> None:
        """The enumerator ``O_i(m)``: the Decision with every legal action, or
        None.  ``ranges[i]`` is (fewest, most) cards for card options, the
        (lowest, highest) number for number options."""
        params = self.names.choice_params.get(cname, ())
        self._begin(self.choice_fn[cname], params, rule, set())
        self.pools = {}
        self.emit(1, "out = []")
        self._fuse_pools(spec, parsed)
        for i, opt in enumerate(spec["options"]):
            trees = _Keyed(parsed[i], self, ("options", i))
            depth = 1
            if "when" in trees:
                self.emit(1, f"if {self.expr(trees['when'])[0]}:")
                depth = 2
            name = repr(opt["name"])
            if "cards" in opt or "parts" in opt:
                self._card_option(opt, trees, name, depth, ranges[i])
            elif "player" in opt or "number" in opt:
                kind = "player" if "player" in opt else "number"
                src = self._seq(trees[kind])
                self.emit(depth, f"for L_it in {src}:")
                act = self._action_table(kind, opt["name"])
                if kind == "number":       # the declared range holds every number offered
                    lo, hi = ranges[i]
                    self.emit(depth + 1, f"if type(L_it) is not _int or not {lo} <= L_it <= {hi}: "
                                         f"_bad_number({opt['name']!r}, L_it, {lo}, {hi}, {rule!r})")
                if "where" in trees:
                    self.emit(depth + 1, f"if {self.expr(trees['where'], extra={'it'})[0]}:")
                    self.emit(depth + 2, f"out.append({act}[L_it])")
                else:
                    self.emit(depth + 1, f"out.append({act}[L_it])")
            else:
                act = self.const(runtime_helpers.Action(opt["name"]), "action", opt["name"])
                self.emit(depth, f"out.append({act})")
        self.emit(1, "if not out: return None")
        self.error_path = ("who",)
        who = self.expr(parsed["who"])[0] if "who" in parsed else "m.current"
        self.error_path = ()
        args = "(" + "".join(f"L_{p}, " for p in params) + ")"
        prompt, shown = _prompt_pieces(spec.get("prompt", cname), params)
        self.emit(1, f"return _tn(_Decision, ({who}, {cname!r}, {prompt!r}, out, {args}, {shown!r}))")
        self._end()

    def _fuse_pools(self, spec: dict, parsed: dict) -> None:
        """Fill in one pass every pool that options always need (no ``when``)
        and that filter the same cards by tests of card properties alone:
        a hand filtered four ways is read once, not four times, and no
        comprehension is made per pool.  The options then take their pools
        from ``self.pools`` as when one option shares another's."""
        by_src: dict[str, list[str]] = {}
        for i, opt in enumerate(spec["options"]):
            if "when" in opt or "from" not in opt or not ("cards" in opt or "parts" in opt):
                continue
            trees = _Keyed(parsed[i], self, ("options", i))
            if self._elem_kind(trees["from"]) != "card":
                continue
            src = self._seq(trees["from"])
            if "where" in trees:
                preds = [self._filter(trees["where"], "card")]
            elif "parts" in opt:
                preds = [self._filter(t, "card") for t in trees["parts"]]
            else:
                continue
            tabled = by_src.setdefault(src, [])
            tabled.extend(p for p in preds if _TABLED.fullmatch(p) and p not in tabled)
        self.error_path = ()
        for src, preds in by_src.items():
            if len(preds) < 2:
                continue
            names = []
            for pred in preds:
                self.pools[(src, pred)] = f"_pool{len(self.pools)}"
                names.append(self.pools[(src, pred)])
            self.emit(1, "; ".join(f"{n} = []" for n in names))
            self.emit(1, f"for _c in {src}:")
            self.emit(2, "_i = _c.id")
            for pred, name in zip(preds, names):
                self.emit(2, f"if {pred.replace('[L_it.id]', '[_i]')}: {name}.append(_c)")

    def _card_option(self, opt: dict, trees: dict, name: str, depth: int,
                     count: tuple[int, int]) -> None:
        lo, hi = count
        src = self._seq(trees["from"]) if "from" in trees else "()"
        elem = self._elem_kind(trees["from"]) if "from" in trees else "any"
        pred = self._filter(trees["where"], elem) if "where" in trees else "True"
        key = (src, pred)
        if "parts" in opt and pred == "True":
            self._parts_option(trees["parts"], elem, self._require(trees, elem), name, depth,
                               trees.base, src)
            return
        if depth == 1 and key in self.pools:       # the same cards as an earlier option
            self.emit(depth, f"pool = {self.pools[key]}")
        else:
            self.emit(depth, f"pool = list({src})" if pred == "True"
                      else f"pool = {self.where_list(src, pred)}")
            if depth == 1:
                self.pools[key] = f"_pool{len(self.pools)}"
                self.emit(depth, f"{self.pools[key]} = pool")
        require = self._require(trees, elem)
        if "parts" in opt:
            parts = trees["parts"]
            self._parts_option(parts, elem, require, name, depth, trees.base)
            return
        if lo == hi == 1 and require is None and opt.get("same") is None:
            act = self._action_table("card", opt["name"])
            # a loop, not a comprehension: see runtime_helpers._sumt
            self.emit(depth, f"for c in pool: out.append({act}[c.id])")
            return
        memo = self._action_table("cards", opt["name"])
        if opt.get("same"):
            key = self.prop_table(opt["same"])
            self.emit(depth, "by = {}")
            self.emit(depth, "for c in pool:")
            self.emit(depth + 1, f"by.setdefault({key}[c.id], []).append(c)")
            self.emit(depth, "for grp in by.values():")
        else:
            self.emit(depth, "for grp in (pool,):")
        self.emit(depth + 1, f"if len(grp) < {lo}: continue")
        self.emit(depth + 1, f"for k in range({lo}, min({hi}, len(grp)) + 1):")
        self.emit(depth + 2, "for L_chosen in _combinations(grp, k):")
        d = depth + 3
        if require is not None:
            self.emit(d, f"if not ({require}): continue")
        self.emit(d, "ids = tuple(_map(_ID, L_chosen))")
        self._emit_memo_append(memo, d)

    def _action_table(self, kind: str, option: str) -> str:
        """A memo of Action objects for one option (actions are immutable, so
        one object per card or seat serves every match): its ``get``."""
        if kind == "card":     # one per card, made when the module is built: a list by id
            name = self.const(None, "card_actions", option)
            self.card_actions[name] = option
            return name
        return self.const(runtime_helpers.ActionMemo(option, kind), "memo", option)

    def _require(self, trees, elem: str) -> str | None:
        if "require" not in trees:
            return None
        return self.expr(trees["require"], extra={"chosen"},
                         kinds={"chosen": "cards" if elem == "card" else "list"})[0]

    def _parts_option(self, parts: list, elem: str, require: str | None, name: str, depth: int,
                      base: tuple = (), src: str | None = None):
        """One distinct card per part; each set of cards is offered once.
        With ``src`` (no ``where``), each part's cards are a pool of their own,
        shared with other options that filter the same cards the same way."""
        lists = []
        for i, tree in enumerate(parts):
            self.error_path = base + ("parts", i)
            pred = self._filter(tree, elem)
            self.error_path = ()
            if src is None:
                self.emit(depth, f"_p{i} = {self.where_list('pool', pred)}")
            elif depth == 1 and (src, pred) in self.pools:
                self.emit(depth, f"_p{i} = {self.pools[(src, pred)]}")
            else:
                self.emit(depth, f"_p{i} = {self.where_list(src, pred)}")
                if depth == 1:
                    self.pools[(src, pred)] = f"_pool{len(self.pools)}"
                    self.emit(depth, f"{self.pools[(src, pred)]} = _p{i}")
            lists.append(f"_p{i}")
        k = len(parts)
        memo = self._action_table("cards", name.strip("'\""))
        self.emit(depth, "seen = set()")
        if k == 2 and require is None:
            self.emit(depth, "for a in _p0:")
            self.emit(depth + 1, "for b in _p1:")
            self.emit(depth + 2, "if a is b: continue")
            self.emit(depth + 2, "ids = (a.id, b.id) if a.id < b.id else (b.id, a.id)")
            self.emit(depth + 2, "if ids in seen: continue")
            self.emit(depth + 2, "seen.add(ids)")
            self._emit_memo_append(memo, depth + 2)
            return
        self.emit(depth, f"for L_chosen in _product({', '.join(lists)}):")
        self.emit(depth + 1, "ids = tuple(sorted([c.id for c in L_chosen]))")
        self.emit(depth + 1, f"if ids in seen or len(set(ids)) < {k}: continue")
        self.emit(depth + 1, "seen.add(ids)")
        if require is not None:
            self.emit(depth + 1, f"if not ({require}): continue")
        self._emit_memo_append(memo, depth + 1)

    def _emit_memo_append(self, memo: str, depth: int) -> None:
        """Append the shared Action for the card ids in ``ids``."""
        self.emit(depth, f"_act = {memo}.get(ids)")
        self.emit(depth, f"if _act is None: _act = {memo}.add(ids)")
        self.emit(depth, "out.append(_act)")

