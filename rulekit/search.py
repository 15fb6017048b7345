"""A search agent for any rule file: information-set Monte-Carlo tree search.

The agent does not see the cards it must not see, so it cannot search the
real match.  Each iteration it plays out a *determinization* instead: a copy
in which what it cannot know is dealt again at random, consistently with
what it has seen (``Match.resample``).  One tree is grown over all of them
(single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): an edge is an
action, a child is chosen by UCB1 among the actions legal in *this*
determinization, and each child counts how often it was available, so a
move that is rarely possible is not penalised for being rarely tried.
Below the tree, the playout is uniformly random to the end of the match
(or to ``max_playout`` decisions, scored as nobody winning) or, with
``playout="heuristic"``, played by the rule file's heuristic (a better
evaluator where random play says little about a position, at the cost of
scoring every option of every playout decision), which then also guides the
tree: the move it favours is tried first and keeps a bias that fades as
results come in; a seat's
reward is 1 when it is among the winners, else half its ``progress`` when
the rule file declares that player stat (a number from 0 to 100: how far a
lost game got, for games whose random playouts are rarely won).

Budget: ``iterations`` per decision, or ``seconds`` (whichever ends first
when both are given).  As an agent name: ``mcts``, ``mcts:500``,
``mcts:2s``, ``mcts:40:heuristic``.  A decision with one legal action is answered at once.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any

from .agents import HeuristicAgent
from .engine.runtime import Action, Decision

#: how a playout below the tree chooses: uniformly, or by the rule file's heuristic
PLAYOUTS = ("random", "heuristic")


class _Node:
    __slots__ = ("children", "visits", "wins", "avail", "top")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0       # times this edge was taken
        self.wins = 0.0       # reward of the seat that took it
        self.avail = 0        # times it was legal when its parent was reached
        self.top = 0          # times, of those, the heuristic scored it highest (guided search)


class MCTSAgent:
    """ISMCTS with a budget: ``MCTSAgent(seed, iterations=200)`` or
    ``MCTSAgent(seed, seconds=0.5)``; as an agent name, ``mcts`` (200
    iterations), ``mcts:500``, ``mcts:2s`` or ``mcts:40:heuristic`` (heuristic
    playouts)."""

    name = "mcts"
    #: weight of the heuristic's favour in a guided search (rewards are 0 to 1)
    BIAS = 8.0

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 seconds: float | None = None, exploration: float = 0.7, max_playout: int = 2000,
                 playout: str = "random"):
        if playout not in PLAYOUTS:
            raise ValueError(f"unknown playout '{playout}'; choose from: {', '.join(PLAYOUTS)}")
        self.rng = random.Random(seed)
        self.playout = playout
        self._guide = HeuristicAgent()
        self._guide.rng = self.rng         # one stream of random draws: a seed reproduces the search
        self.iterations = iterations if iterations is not None or seconds is not None else 200
        self.seconds = seconds
        self.c = exploration
        self.max_playout = max_playout

    def act(self, match: Any, decision: Decision) -> Action:
        if len(decision.options) == 1:
            return decision.options[0]
        root = _Node()
        seat = decision.player
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        done = 0
        while (self.iterations is None or done < self.iterations) and (
                deadline is None or time.perf_counter() < deadline):
            self._iterate(match, seat, root)
            done += 1
        legal = set(decision.options)
        best = max((a for a in root.children if a in legal),
                   key=lambda a: (root.children[a].visits, root.children[a].wins), default=None)
        return best if best is not None else decision.options[0]

    def _iterate(self, match: Any, seat: int, root: _Node) -> None:
        m = match.resample(seat, self.rng)
        m.auto_pass = True             # nobody watches a playout: pass-only windows answer themselves
        path: list[tuple[_Node, int]] = []
        node = root
        # selection and expansion
        while m.decision is not None:
            dec = m.decision
            options = dec.options
            untried = [a for a in options if a not in node.children]
            best = self._favoured(m, dec) if self.playout == "heuristic" else ()
            for a in options:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
                    child.top += a in best
            if untried:
                first = [a for a in untried if a in best] or untried
                a = first[self.rng.randrange(len(first))]
                child = node.children[a] = _Node()
                child.avail, child.top = 1, int(a in best)
                path.append((child, dec.player))
                m.apply(a)
                break
            a = self._select(node, options)
            child = node.children[a]
            path.append((child, dec.player))
            m.apply(a)
            node = child
        rewards = self._playout(m)
        for child, who in path:
            child.visits += 1
            child.wins += rewards.get(who, 0.0)

    def _favoured(self, m: Any, dec: Decision) -> frozenset:
        """The options the rule file's heuristic scores highest here."""
        scores = self._guide.scores(m, dec)
        if scores is None:
            return frozenset()
        top = max(scores)
        return frozenset(a for a, s in zip(dec.options, scores) if s == top)

    def _select(self, node: _Node, options: list) -> Action:
        """UCB1 over the available children; in a guided search, plus a
        progressive bias towards what the heuristic favours, fading as the
        child's own results accumulate (Chaslot et al. 2008): with few
        iterations the search keeps to the heuristic's move unless
        playouts clearly say otherwise."""
        c, bias, best, best_score = self.c, self.BIAS, options[0], -1.0
        for a in options:
            ch = node.children[a]
            score = ch.wins / ch.visits + c * math.sqrt(math.log(max(ch.avail, 1)) / ch.visits) \
                + bias * ch.top / (ch.avail * (ch.visits + 1)) if ch.visits else float("inf")
            if score > best_score:
                best, best_score = a, score
        return best

    def _playout(self, m: Any) -> dict[int, float]:
        """Play to the end (at random or by the heuristic): each seat's reward."""
        rng, left = self.rng, self.max_playout
        dec = m.decision
        if self.playout == "heuristic":
            act = self._guide.act
            while dec is not None and left > 0:
                m.apply(act(m, dec))
                dec = m.decision
                left -= 1
        while dec is not None and left > 0:
            m.apply(rng.randrange(len(dec.options)))
            dec = m.decision
            left -= 1
        result = m.result()
        if result is None:
            m.close()
            return {}
        progress = result["player_stats"].get("progress")
        rewards = {} if progress is None else {
            p: 0.5 * min(1.0, max(0.0, v / 100)) for p, v in enumerate(progress)
            if isinstance(v, (int, float))}
        for p in result["winners"]:
            rewards[p] = 1.0
        return rewards


def mcts_agent(seed: int, budget: str | None = None) -> MCTSAgent:
    """The agent named ``mcts``, ``mcts:N`` (iterations), ``mcts:Ts`` (seconds),
    each optionally followed by ``:heuristic`` or ``:random`` (the playout)."""
    budget, _, playout = (budget or "").partition(":")
    playout = playout or "random"
    if playout not in PLAYOUTS:
        raise ValueError(f"mcts playout '{playout}' is unknown; choose from: {', '.join(PLAYOUTS)} "
                         "(e.g. mcts:40:heuristic)")
    if budget == "":
        return MCTSAgent(seed, playout=playout)
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if 0 < seconds < math.inf:      # (inf never decides, nan never compares)
                return MCTSAgent(seed, seconds=seconds, playout=playout)
        elif int(budget) > 0:
            return MCTSAgent(seed, iterations=int(budget), playout=playout)
    except ValueError:
        pass
    raise ValueError(f"mcts budget '{budget}' is neither a number of iterations (mcts:200) "
                     "nor seconds (mcts:0.5s)")
