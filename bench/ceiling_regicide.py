"""Regicide compiled by hand for a leaner runtime, keeping the engine's duties.

Written as a ceiling ("how fast could a compiled Regicide run?"), it turned
out not to be one: the engine now runs faster than this yardstick, whose
comprehensions cost more than the loops the engine's compiler writes (see
the README's benchmark section).  It stays as a second, independent form of
the same rules that plays exactly the engine's games.

A yardstick for the runtime, not part of it: the rules of
``games/regicide.yaml`` written by hand for a leaner runtime, in which cards
are integers, card properties are per-card tables and the whole game is one
generator.  It still does what the
engine must do and the plain hand-written game (``handwritten_regicide.py``)
does not:

- stop at every decision with a :class:`rulekit.Decision` whose options are
  :class:`rulekit.Action` objects, and resume on ``apply(action)`` (an action or its index);
- check that an applied action was offered, and record it;
- log every move (with its cards and both zones), shuffle, turn and decision;
- keep the card -> zone index, and count steps against a budget;
- keep the game's variables in a dict, as effect text sees them.

    python bench/ceiling_regicide.py [--games 2000] [--rounds 3]

prints this yardstick against the hand-written game, next to the same
statistics (decisions per game, enemies defeated) for both, and the ratio
once more with the yardstick driven without ``apply`` (answers sent straight
into its generator).  It makes the same random draws as the engine (same setup order, same option order), so it
plays exactly the engine's games; ``tests/test_bench.py`` checks that.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import handwritten_regicide as hw  # noqa: E402
from bench_regicide import engine_round, hand_round  # noqa: E402

from rulekit.engine.runtime import Action, Decision  # noqa: E402

_tn = tuple.__new__
RANK, VALUE = hw.RANK, hw.VALUE
SUIT = [("hearts", "diamonds", "clubs", "spades")[hw.SUIT[c]] if c < 52 else "none" for c in range(54)]
KIND = ["companion" if r == 1 else "number" if r <= 10 else "royal" for r in RANK[:52]] + ["jester"] * 2
ATTACK = [{11: 10, 12: 15, 13: 20}.get(r, 0) for r in RANK]
HEALTH = [{11: 20, 12: 30, 13: 40}.get(r, 0) for r in RANK]
HAND = {1: 8, 2: 7, 3: 6, 4: 5}
JESTERS = {1: 0, 2: 0, 3: 1, 4: 2}
BOX, CASTLE, ENEMY, TAVERN, DISCARD, TABLE, POWERS, USED, HANDS = range(9)

PLAY = [Action("jester" if KIND[c] == "jester" else "card", (c,)) for c in range(54)]
PAY = [Action("pay", (c,)) for c in range(54)]
NEXT = [Action("next", (), p) for p in range(4)]
YIELD, USE, DECLINE = Action("yield"), Action("use"), Action("decline")
PAIRS: dict = {}
COMBOS: dict = {}


class GameOver(Exception):
    pass


class Match:
    def __init__(self, n: int, seed: int):
        self.n, self.rng = n, random.Random(seed)
        self.zones: list[list[int]] = [list(range(54))] + [[] for _ in range(8 + n)]
        self.loc = [BOX] * 54
        self.vars = {"damage": 0, "shield": 0, "blocked_shield": 0, "immune": True,
                     "defeated": 0, "owed": 0}
        self.yielded = [False] * n
        self.log: list[tuple] = [("start", n, seed)]
        self.actions: list[Action] = []
        self.steps, self.budget, self.current = 0, 1_000_000, 0
        self.decision: Decision | None = None
        self.outcome: str | None = None
        self._flow = self._run()
        self._resume(None)

    # ---- the runtime: moves, decisions ----------------------------------------
    def move(self, cards: list, dest: int, bottom: bool = False) -> None:
        zones, loc = self.zones, self.loc
        src = loc[cards[0]]
        for c in cards:
            zones[loc[c]].remove(c)
            loc[c] = dest
        if bottom:
            zones[dest][0:0] = cards
        else:
            zones[dest].extend(cards)
        self.log.append(("move", dest, cards, src))

    def move_top(self, src: int, k: int, dest: int, bottom: bool = False) -> None:
        zc = self.zones[src]
        if k <= 0 or not zc:
            return
        cards = zc[: -k - 1: -1]
        del zc[-k:]
        for c in cards:
            self.loc[c] = dest
        if bottom:
            self.zones[dest][0:0] = cards
        else:
            self.zones[dest].extend(cards)
        self.log.append(("move", dest, cards, src))

    def shuffle(self, z: int) -> None:
        self.rng.shuffle(self.zones[z])
        self.log.append(("shuffle", z))

    def tick(self, k: int = 1) -> None:
        self.steps += k
        if self.steps > self.budget:
            raise RuntimeError("step budget")

    def apply(self, action: Action) -> None:
        d = self.decision
        if type(action) is int and d is not None and 0 <= action < len(d.options):
            action = d.options[action]        # an index, as the engine takes it
        elif d is None or action not in d.options:
            raise ValueError(f"not legal now: {action}")
        self.actions.append(action)
        self.log.append(("decide", d.player, d.choice, action,
                         [self.loc[i] for i in action.cards] if action.cards else None))
        self._resume(action)

    def _resume(self, action) -> None:
        try:
            self.decision = self._flow.send(action)
        except StopIteration:
            self.decision = None

    def _run(self):
        try:
            yield from self._game()
        except GameOver as over:
            self.log.append(("end",) + over.args)
            self.outcome = over.args[0]

    def result(self) -> dict:
        return {"outcome": self.outcome, "stats": {"enemies_defeated": self.vars["defeated"]}}

    # ---- the rules ---------------------------------------------------------------
    def _attack_options(self) -> Decision | None:
        cur = self.current
        hand = self.zones[HANDS + cur]
        others = [c for c in hand if KIND[c] != "jester"]
        out = [PLAY[c] for c in others]           # the file's option order: cards,
        seen = set()
        for a in hand:
            if KIND[a] != "companion":
                continue
            for b in others:
                if a == b:
                    continue
                ids = (a, b) if a < b else (b, a)
                if ids not in seen:
                    seen.add(ids)
                    act = PAIRS.get(ids)
                    if act is None:
                        act = PAIRS[ids] = Action("companion", ids)
                    out.append(act)
        by: dict = {}
        for c in hand:
            if KIND[c] == "number":
                by.setdefault(RANK[c], []).append(c)
        for grp in by.values():                   # ... companions, combos,
            for k in range(2, min(4, len(grp)) + 1):
                for ids in combinations(grp, k):
                    if sum([VALUE[c] for c in ids]) <= 10:
                        act = COMBOS.get(ids)
                        if act is None:
                            act = COMBOS[ids] = Action("combo", ids)
                        out.append(act)
        out += [PLAY[c] for c in hand if KIND[c] == "jester"]   # ... jesters, yield
        if any(not self.yielded[p] for p in range(self.n) if p != cur):
            out.append(YIELD)
        return _tn(Decision, (cur, "attack", "attack", out, ())) if out else None

    def _solo_power(self):
        # offered again after a use, as long as a power is left
        while self.n == 1 and self.zones[POWERS]:
            a = yield _tn(Decision, (self.current, "solo_power", "solo_power", [USE, DECLINE], ()))
            if a is not USE:
                return
            self.move_top(POWERS, 1, USED)
            hand = HANDS + self.current
            if self.zones[hand]:
                self.move(self.zones[hand][:], DISCARD)
            self.move_top(TAVERN, 8, hand)

    def _game(self):
        n, zones, V, log = self.n, self.zones, self.vars, self.log
        # setup: one pass over the box, as the engine's move_split does
        piles: list[list[int]] = [[], [], [], []]
        kept = []
        for c in zones[BOX]:
            k = KIND[c]
            i = 0 if k in ("number", "companion") else 4 - (RANK[c] - 10) if k == "royal" else -1
            (kept if i < 0 else piles[i]).append(c)
        zones[BOX][:] = kept
        for pile, dest, shuffle in zip(piles, (TAVERN, CASTLE, CASTLE, CASTLE), (False, True, True, True)):
            if shuffle:
                self.rng.shuffle(pile)
            for c in pile:
                self.loc[c] = dest
            zones[dest].extend(pile)
            log.append(("move", dest, pile, BOX))
        if n == 1:
            self.move(zones[BOX][:], POWERS)
        elif JESTERS[n]:
            self.move(zones[BOX][: -JESTERS[n] - 1: -1], TAVERN)
        self.shuffle(TAVERN)
        self.move_top(CASTLE, 1, ENEMY)
        for p in range(n):
            self.tick()
            self.move_top(TAVERN, HAND[n] - len(zones[HANDS + p]), HANDS + p)
        while True:
            cur = self.current
            log.append(("turn", cur))
            nxt = (cur + 1) % n
            self.tick(2)
            yield from self._solo_power()
            d = self._attack_options()
            if d is None:
                raise GameOver("loss", "a player can neither play a card nor yield")
            a = yield d
            self.yielded[cur] = a is YIELD
            if a is not YIELD:
                cards = list(a.cards)
                self.move(cards, TABLE)
                if a.option == "jester":
                    V["immune"] = False
                    V["shield"] += V["blocked_shield"]
                    V["blocked_shield"] = 0
                    a = yield _tn(Decision, (cur, "next_up", "next_up", NEXT[:n], ()))
                    self.current = a.player
                    continue
                self.tick()
                value = sum([VALUE[c] for c in cards])
                suits = [SUIT[c] for c in cards]
                enemy = zones[ENEMY][-1]
                blocked = SUIT[enemy] if V["immune"] else "none"
                if "hearts" in suits and blocked != "hearts":
                    self.shuffle(DISCARD)
                    self.move_top(DISCARD, value, TAVERN, True)
                if "diamonds" in suits and blocked != "diamonds":
                    drawn = full = 0
                    p = cur
                    while drawn < value and zones[TAVERN] and full < n:
                        self.tick()
                        if HAND[n] > len(zones[HANDS + p]):
                            self.move_top(TAVERN, 1, HANDS + p)
                            drawn += 1
                            full = 0
                        else:
                            full += 1
                        p = (p + 1) % n
                if "spades" in suits:
                    V["shield" if blocked != "spades" else "blocked_shield"] += value
                self.tick()
                if "clubs" in suits and blocked != "clubs":
                    value *= 2
                V["damage"] += value
                if V["damage"] >= HEALTH[enemy]:
                    V["defeated"] += 1
                    self.move([enemy], TAVERN if V["damage"] == HEALTH[enemy] else DISCARD)
                    if zones[TABLE]:
                        self.move(zones[TABLE][:], DISCARD)
                    V["damage"] = V["shield"] = V["blocked_shield"] = 0
                    V["immune"] = True
                    if not zones[CASTLE]:
                        raise GameOver("win", "the last king has fallen")
                    self.move_top(CASTLE, 1, ENEMY)
                    continue
            self.tick(2)
            yield from self._solo_power()
            hand = HANDS + cur
            hit = max(0, ATTACK[zones[ENEMY][-1]] - V["shield"])
            if hit > 0:
                if sum([VALUE[c] for c in zones[hand]]) < hit:
                    raise GameOver("loss", "a player could not survive the enemy's attack")
                V["owed"] = hit
                while V["owed"] > 0:
                    self.tick()
                    a = yield _tn(Decision, (cur, "pay", "pay", [PAY[c] for c in zones[hand]], ()))
                    V["owed"] -= VALUE[a.cards[0]]
                    self.move([a.cards[0]], DISCARD)
                V["owed"] = 0
            self.current = nxt


class CeilingGame:
    """Starts yardstick matches the way ``rulekit.Game.new_match`` starts
    engine matches, so both are timed by the same loop."""

    def new_match(self, players: int, seed: int) -> Match:
        return Match(players, seed)


def ceiling_round(players: int, games: int, seed: int) -> tuple[float, int, int]:
    """(seconds, decisions, enemies defeated), timed like the engine's games."""
    return engine_round(CeilingGame(), players, games, seed)


def unchecked_round(players: int, games: int, seed: int) -> tuple[float, int, int]:
    """The yardstick driven without ``apply``: answers go straight into its
    generator, unchecked and unrecorded.  Not a way to run games (nothing
    refuses an illegal answer); it measures what the driving protocol
    itself costs, which no compiled form of the rules can remove."""
    rng = random.Random(seed)
    decisions = defeated = 0
    start = time.perf_counter()
    for i in range(games):
        m = Match(players, seed + i)
        dec, send = m.decision, m._flow.send
        try:
            while dec is not None:
                opts = dec.options
                decisions += 1
                dec = send(opts[rng.randrange(len(opts))])
        except StopIteration:
            pass
        defeated += m.vars["defeated"]
    return time.perf_counter() - start, decisions, defeated


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{args.games} uniform-random games per player count, best of {args.rounds} rounds")
    print("players | ceiling games/s  dec/game defeated | hand games/s  dec/game defeated | ratio"
          " | ratio without apply")
    for n in (1, 2, 3, 4):
        c = min((ceiling_round(n, args.games, args.seed) for _ in range(args.rounds)), key=lambda r: r[0])
        h = min((hand_round(n, args.games, args.seed) for _ in range(args.rounds)), key=lambda r: r[0])
        u = min((unchecked_round(n, args.games, args.seed) for _ in range(args.rounds)), key=lambda r: r[0])
        g = args.games
        print(f"{n:7d} | {g / c[0]:15,.0f} {c[1] / g:9.1f} {c[2] / g:8.2f} | "
              f"{g / h[0]:12,.0f} {h[1] / g:9.1f} {h[2] / g:8.2f} | {h[0] / c[0]:5.2f} | {h[0] / u[0]:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
