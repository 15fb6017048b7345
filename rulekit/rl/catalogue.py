"""A fixed numbering of every action a game can ever offer (the action catalogue).

Learning code wants one ``Discrete(n)`` action space for a whole game, and a
mask saying which of its ``n`` actions are legal now.  The engine offers a
different list of :class:`~rulekit.Action` at every decision, so the
catalogue numbers them once, from the rule file alone:

- a plain option: one action;
- a player option: one action per seat, counted from the deciding seat
  (``+0`` is the decider, ``+1`` the next seat...), so "the player on my
  left" is the same action whichever seat learns it;
- a number option: one action per number of its declared ``range``;
- a card option picking exactly one card: one action per card it can
  offer;
- a card option picking ``k`` cards: one action per unordered set of ``k``
  cards it can offer, counting only sets whose cards share the option's
  ``same`` property when it declares one (an option of 2 to 4 cards of one
  rank then has a few actions per rank, not every set of the deck).

The cards an option can offer are every card of the game, or, when every
zone its ``from`` takes cards from declares the cards it holds (``one_of``),
only those (``OptionDef.cards_from``): a hand that holds no hero gives no
action to a hero.

Options of one name and one shape (``card``, one card) share their actions
across choices: the observation says which choice is being made, and
"play card 17" then means one thing wherever it is offered.  When the
numbering would exceed ``limit`` actions (a pick of any number of cards),
the catalogue is too large and :class:`CatalogueTooLarge` says which option
is to blame; action feature vectors (:mod:`rulekit.rl.features`) serve
those games.
"""
from __future__ import annotations

import bisect
import itertools
from math import comb

import numpy as np

from ..engine.runtime import Action, Decision
from ..model import Game, OptionDef

#: the largest catalogue built by default: a policy's output layer of this
#: size is still cheap, and every seed game with a catalogue fits well under it
DEFAULT_LIMIT = 100_000


class CatalogueTooLarge(ValueError):
    """The game's actions cannot be numbered within the limit (see the message)."""


def _group_key(value):
    return tuple(value) if isinstance(value, list) else value


class _Slot:
    """The actions of one option shape: ``size`` consecutive indices from ``base``."""

    __slots__ = ("base", "size", "option", "kind", "lo", "hi", "same", "sets", "rank", "choice", "ids", "at")

    def __init__(self, option: str, kind: str, lo: int = 0, hi: int = 0, same: str | None = None,
                 choice: str = ""):
        self.option, self.kind, self.lo, self.hi, self.same = option, kind, lo, hi, same
        self.choice = choice            # the first choice that offers it, for messages
        self.base = self.size = 0
        self.sets: list[tuple[int, ...]] | None = None     # offset -> card set, for set options
        self.rank: dict[tuple[int, ...], int] | None = None  # card set -> offset
        #: a card option: the ids of the cards it numbers, in order (None: every card, offset = id)
        self.ids: tuple[int, ...] | None = None
        self.at: dict[int, int] | None = None               # card id -> offset, when ``ids`` is set

    def label(self) -> str:
        if self.kind == "cards":
            count = str(self.lo) if self.lo == self.hi else f"{self.lo}..{self.hi}"
            return f"{self.option} ({count} cards" + (f" of one {self.same})" if self.same else ")")
        return f"{self.option} ({self.kind})"


def _card_groups(game: Game, same: str | None, ids: tuple[int, ...] | None = None) -> list[list[int]]:
    """The cards ``ids`` (None: every card) in groups of one value of ``same``."""
    cards = game.cards if ids is None else [game.cards[i] for i in ids]
    if same is None:
        return [[c.id for c in cards]]
    groups: dict = {}
    for c in cards:
        groups.setdefault(_group_key(c.props.get(same)), []).append(c.id)
    return list(groups.values())


def _set_count(groups: list[list[int]], lo: int, hi: int, cap: int) -> int:
    """How many sets of ``lo..hi`` cards within one group there are, or a
    number above ``cap`` as soon as that is certain (any set of 10,000
    cards would be a number of 3,011 digits, worked out for nothing)."""
    total = 0
    for g in groups:
        for k in range(lo, min(hi, len(g)) + 1):
            total += comb(len(g), k)
            if total > cap:
                return cap + 1
    return total


def _shape(o: OptionDef) -> tuple:
    """The key of a card option's actions: options of one name and shape share them."""
    return (o.name, "cards", o.min_cards, o.max_cards, o.same if o.max_cards > 1 else None)


def _offered(game: Game) -> dict[tuple, tuple[int, ...] | None]:
    """By card option shape, the ids of the cards its options can offer
    (those of each option's ``cards_from`` together), None: any card."""
    out: dict[tuple, set[int] | None] = {}
    for choice in game.choices.values():
        for o in choice.options:
            if o.kind == "cards":
                key = _shape(o)
                before = out.get(key, set())
                out[key] = None if before is None or o.cards_from is None else before | set(o.cards_from)
    return {k: None if v is None else tuple(sorted(v)) for k, v in out.items()}


def _cards_at(slot: _Slot, offset: int) -> tuple[int, ...]:
    """The card ids of a card option's action ``offset``."""
    if slot.sets is not None:
        return slot.sets[offset]
    return (offset if slot.ids is None else slot.ids[offset],)


class ActionCatalogue:
    """Every action ``game`` can offer with ``players`` seats, numbered ``0..n-1``.

    ``index(decision, action)`` and ``action(decision, index)`` convert
    between the two; ``mask(decision)`` marks the legal indices;
    ``indices(decision)`` gives the index of each of ``decision.options``,
    in order (what an environment computes once per step)."""

    def __init__(self, game: Game, players: int, limit: int = DEFAULT_LIMIT):
        self.game = game
        self.players = players
        self._slots: list[_Slot] = []
        shapes: dict[tuple, _Slot] = {}
        #: choice -> option name -> slot
        self._by_choice: dict[str, dict[str, _Slot]] = {}
        total = 0
        offered = _offered(game)
        for choice in game.choices.values():
            table = self._by_choice[choice.name] = {}
            for o in choice.options:
                if o.kind == "cards":
                    key = _shape(o)
                elif o.kind == "number":
                    if o.numbers is None:
                        raise CatalogueTooLarge(
                            f"{game.name}: the number option '{o.name}' of choice '{choice.name}' "
                            "declares no range (range: LOW..HIGH), so its numbers cannot be counted")
                    key = (o.name, "number", *o.numbers, None)
                else:
                    key = (o.name, o.kind, 0, 0, None)
                slot = shapes.get(key)
                if slot is None:
                    slot = shapes[key] = _Slot(o.name, key[1], key[2], key[3], key[4], choice.name)
                    only = offered.get(key) if o.kind == "cards" else None
                    if only is not None:
                        slot.ids = only
                        slot.at = {cid: i for i, cid in enumerate(only)}
                    slot.base = total
                    slot.size = self._size(slot, limit)
                    total += slot.size
                    self._slots.append(slot)
                table[o.name] = slot
        if total > limit:
            worst = max(self._slots, key=lambda s: s.size)
            size = f"{worst.size:,}" if worst.size <= limit else f"more than {limit:,}"
            raise CatalogueTooLarge(
                f"{game.name} with {players} players: numbering every action needs more than "
                f"{limit:,} indices; option '{worst.option}' of choice '{worst.choice}', {worst.label()}, "
                f"alone has {size}. Use action feature vectors (actions='features') for this game")
        self.n = total
        #: choice -> action -> its index, or ``-1 - base`` for a player
        #: option (its index depends on the decider): filled as met
        self._memo: dict[str, dict[Action, int]] = {name: {} for name in self._by_choice}
        self._bases = [s.base for s in self._slots]
        for slot in self._slots:
            if slot.kind == "cards" and not slot.lo == slot.hi == 1:
                self._number_sets(slot)

    # ---- building ---------------------------------------------------------
    def _size(self, slot: _Slot, cap: int) -> int:
        if slot.kind == "plain":
            return 1
        if slot.kind == "player":
            return self.players
        if slot.kind == "number":
            return slot.hi - slot.lo + 1
        if slot.lo == slot.hi == 1:
            return len(self.game.cards) if slot.ids is None else len(slot.ids)
        return _set_count(_card_groups(self.game, slot.same, slot.ids), slot.lo, slot.hi, cap)

    def _number_sets(self, slot: _Slot) -> None:
        sets: list[tuple[int, ...]] = []
        for group in _card_groups(self.game, slot.same, slot.ids):
            for k in range(slot.lo, slot.hi + 1):
                sets.extend(itertools.combinations(group, k))
        slot.sets = sets
        slot.rank = {s: i for i, s in enumerate(sets)}

    # ---- converting -------------------------------------------------------
    def slot_of(self, choice: str, option: str) -> _Slot:
        try:
            return self._by_choice[choice][option]
        except KeyError:
            raise KeyError(f"{self.game.name}: choice '{choice}' has no option '{option}'") from None

    def index(self, decision: Decision, action: Action) -> int:
        """The catalogue index of ``action``, an answer to ``decision``."""
        slot = self.slot_of(decision.choice, action.option)
        if slot.kind == "player":
            # an Action's player is optional; a player option's actions always name one
            return slot.base + (action.player - decision.player) % self.players  # type: ignore[operator]
        return self._place(slot, action)

    def _place(self, slot: _Slot, action: Action) -> int:
        """The index of ``action`` in ``slot``, not a player option."""
        kind = slot.kind
        if kind == "plain":
            return slot.base
        if kind == "number":
            # an Action's number is optional; a number option's actions always name one
            return slot.base + action.number - slot.lo  # type: ignore[operator]
        if slot.rank is None:
            cid = action.cards[0]
            if slot.at is None:
                return slot.base + cid
            at = slot.at.get(cid)
            if at is None:
                raise KeyError(f"{self.game.name}: card {cid} is not one the catalogue numbers for "
                               f"{slot.label()}")
            return slot.base + at
        try:
            return slot.base + slot.rank[tuple(sorted(action.cards))]
        except KeyError:
            raise KeyError(f"{self.game.name}: cards {action.cards} are not a set the catalogue "
                           f"numbers for {slot.label()}") from None

    def indices(self, decision: Decision) -> list[int]:
        """The index of each of ``decision.options``, in order.  Each action
        met is worked out once per choice and then looked up (an environment
        asks this at every step)."""
        memo = self._memo[decision.choice]
        me, n = decision.player, self.players
        out = []
        for a in decision.options:
            i = memo.get(a)
            if i is None:
                i = memo[a] = self._code(decision.choice, a)
            # i < 0: a player option, whose actions always name a player
            out.append(i if i >= 0 else -1 - i + (a.player - me) % n)  # type: ignore[operator]
        return out

    def _code(self, choice: str, a: Action) -> int:
        """What :meth:`indices` keeps for ``a``: its index, or ``-1 - base`` of its player option."""
        slot = self.slot_of(choice, a.option)
        return -1 - slot.base if slot.kind == "player" else self._place(slot, a)

    def mask(self, decision: Decision) -> np.ndarray:
        """1 at the index of every legal action of ``decision``, else 0 (int8)."""
        out = np.zeros(self.n, dtype=np.int8)
        out[self.indices(decision)] = 1
        return out

    def action(self, decision: Decision, index: int) -> Action:
        """The legal action of ``decision`` that ``index`` numbers; a
        ``ValueError`` says so when that action is not legal now."""
        index = int(index)
        if not 0 <= index < self.n:
            raise ValueError(f"action index {index} is outside the catalogue (0..{self.n - 1})")
        slot = self._slots[bisect.bisect_right(self._bases, index) - 1]
        offset = index - slot.base
        cards: tuple[int, ...] = ()
        player = number = None
        if slot.kind == "player":
            player = (decision.player + offset) % self.players
        elif slot.kind == "number":
            number = slot.lo + offset
        elif slot.kind == "cards":
            cards = _cards_at(slot, offset)
        if self._by_choice[decision.choice].get(slot.option) is slot:
            for a in decision.options:
                if a.option == slot.option and a.player == player and a.number == number \
                        and tuple(sorted(a.cards)) == cards:
                    return a
        raise ValueError(f"action index {index} ({self.describe(index)}) is not legal now: "
                         f"player {decision.player} must answer '{decision.choice}'")

    def describe(self, index: int) -> str:
        """What index ``index`` stands for, in words (for errors and tools)."""
        slot = self._slots[bisect.bisect_right(self._bases, index) - 1]
        offset = index - slot.base
        if slot.kind == "player":
            return f"{slot.option} seat +{offset}"
        if slot.kind == "number":
            return f"{slot.option} {slot.lo + offset}"
        if slot.kind == "cards":
            return f"{slot.option} " + " ".join(self.game.cards[i].name for i in _cards_at(slot, offset))
        return slot.option

    def layout(self) -> list[tuple[str, slice]]:
        """Each option shape and its indices, in order (for documentation and tools)."""
        return [(s.label(), slice(s.base, s.base + s.size)) for s in self._slots]
