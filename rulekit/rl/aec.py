"""A PettingZoo AEC environment for any rule file.

Agents are ``player_0 … player_{n-1}``, one per seat.  The engine decides
whose turn it is: ``agent_selection`` is always the seat of
``match.decision`` (a response window asks seats out of turn order, a
rule may name who plays next), never a fixed rotation.  Each agent's
observation is ``{"observation", "action_mask"}`` (and ``"action_features"``
in features mode, see :mod:`rulekit.rl.actions`); its action a ``Discrete``
index.  A seat the rules eliminate (``match.out``) is terminated at once,
as PettingZoo expects of an agent that leaves, with the rewards it has so
far (``out_seats="terminate"``); with ``out_seats="wait"`` it stays among
the agents, never selected, until the match ends, and is then terminated
with the others and its share of the outcome (a side can win after one of
its seats is out).  The others are terminated when the match ends, with the
rewards of :mod:`rulekit.rl.rewards`, or truncated after ``max_steps``
steps (a policy that never attacks can keep a match going until the
engine's step budget stops it with an error).  Either way, once a match
ends ``outcome_rewards`` (the environment's, and in the agents' last
``infos``) gives every seat's final reward, the seats gone before too.
"""
from __future__ import annotations

from os import PathLike
from typing import Any, SupportsIndex

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from ..engine import arguments
from ..engine.match import Match
from ..model import Game
from .driver import Driver, agent_name, as_game, env_seed, seat_of
from .rewards import RewardHook
from .text import render

#: what becomes of an agent whose seat is out of the match: terminated at
#: once, or kept (never selected) until the match ends and paid out then
OUT_SEATS = ("terminate", "wait")


class RulekitEnv(AECEnv):
    """See the module and :func:`rulekit.rl.env`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "rulekit_v0", "is_parallelizable": False}

    def __init__(self, game: Game, players: int, *, options: dict[str, Any] | None = None, actions: str = "auto",
                 seed: int | None = None, render_mode: str | None = None,
                 reward_hook: RewardHook | None = None, cooperative: bool | None = None,
                 illegal: str = "terminate", auto_pass: bool = False, max_actions: int | None = None,
                 max_steps: int | None = None, out_seats: str = "terminate", recycle: bool = True) -> None:
        super().__init__()
        if out_seats not in OUT_SEATS:
            raise ValueError(f"out_seats must be one of {', '.join(OUT_SEATS)}, not {out_seats!r}")
        self.out_seats = out_seats
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.driver = Driver(game, players, options=options, actions=actions, max_actions=max_actions,
                             reward_hook=reward_hook, cooperative=cooperative, illegal=illegal,
                             auto_pass=auto_pass, recycle=recycle)
        self.game = game
        self.render_mode = render_mode
        self.max_steps = arguments.optional_count("max_steps", max_steps)
        seed = env_seed(seed)
        self.possible_agents = [agent_name(p) for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self.driver.spaces for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.driver.actions.n) for a in self.possible_agents}
        self._seeds = np.random.default_rng(seed)
        self._next_seed = seed
        self.agents: list[str] = []
        #: every seat's final reward (agent -> reward) once a match has ended, else None
        self.outcome_rewards: dict[str, float] | None = None

    def __str__(self) -> str:
        return f"rulekit_v0({self.game.name}, {len(self.possible_agents)} players)"

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self.action_spaces[agent]

    @property
    def match(self) -> Match:
        """The match being played (read it; acting on it bypasses the
        environment); RuntimeError before the first :meth:`reset`."""
        return self.driver.live()

    # ---- the API ----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match.  ``seed`` is the match's seed (``reset(seed=7)`` plays
        ``game.new_match(n, seed=7)``); without one, the next seed is drawn
        from the environment's generator (seeded by the constructor's
        ``seed``).  ``options`` is accepted for the API and not read: match
        options are given to the constructor."""
        seed = env_seed(seed)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            match_seed = seed
        elif self._next_seed is not None:
            match_seed = self._next_seed
        else:
            match_seed = int(self._seeds.integers(2**31))
        self._next_seed = None
        self.driver.reset(match_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._paid = False          # a reward may be non-zero (else clearing them is skipped)
        self.steps = 0
        self.outcome_rewards = None
        self._log_at = len(self.match.log)
        self._out_seen: list[bool] | None = None
        self._after_move(moved=False)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.driver.observation(self._seat[agent])

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``: the selected agent's observation, reward,
        flags and info; the observation asked of the driver in place (this
        runs at every step)."""
        agent = self.agent_selection
        return (self.driver.observation(self._seat[agent]) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: SupportsIndex | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._paid:              # (most steps pay nothing: every reward is still 0)
            self._clear_rewards()
            self._paid = False
        refused = self.driver.step(action)
        self.steps += 1
        if refused is not None:
            self._paid = True
            for a in self.agents:
                self.rewards[a] = -1.0 if a == agent else 0.0
                self.terminations[a] = True
            self.infos[agent] = {"illegal": refused}
        elif self.max_steps is not None and self.steps >= self.max_steps and self.match.decision is not None:
            self.match.close()                      # cut short: truncated, not ended
            for a in self.agents:
                self.truncations[a] = True
        self._after_move()

    def _after_move(self, moved: bool = True) -> None:
        """Terminate the seats that left, pay out a finished match, select
        the next decider (a terminated agent first, as PettingZoo's dead
        steps expect).  A step that ends nothing, puts no seat out and pays
        nothing (most of them) only selects the decider: this runs at every
        step."""
        driver = self.driver
        m = driver.match
        assert m is not None
        dec = m.decision
        hook = driver.reward_hook is not None and moved
        if dec is not None and moved and not hook and (self.out_seats != "terminate" or m.out == self._out_seen):
            self.agent_selection = self.possible_agents[dec.player]
            return                   # (most steps: the match goes on, nobody left, nothing paid)
        terms = self.terminations
        seat = self._seat
        live = None
        if dec is None or hook or (self.out_seats == "terminate" and m.out != self._out_seen):
            live = [a for a in self.agents if not terms[a]]
            self._out_seen = list(m.out)        # (a seat out since: terminated below, once)
        if self.out_seats == "terminate" and live is not None:
            for a in live:
                if m.out[seat[a]]:
                    terms[a] = True
        if dec is None:
            result = m.result()
            if result is not None:
                final = self.driver.final_rewards()
                self.outcome_rewards = {agent_name(p): r for p, r in enumerate(final)}
                for a in live or ():              # (a finished match: live was listed above)
                    self.rewards[a] += final[seat[a]]
                    self.infos[a] = {"outcome": result["outcome"], "winners": list(result["winners"]),
                                     "outcome_rewards": dict(self.outcome_rewards)}
            for a in self.agents:
                if not self.truncations[a]:
                    terms[a] = True
        else:
            self.agent_selection = self.possible_agents[dec.player]
        if hook:
            for a, r in self.driver.shaped(self._log_at, live or ()).items():
                self.rewards[a] += r
        self._log_at = len(m.log)
        if live is None and moved:
            return                   # nobody left, nothing paid: no rewards to add, no dead step
        self._paid = True
        self._accumulate_rewards()
        if dec is None:
            self.agent_selection = self.agents[0] if self.agents else self.agent_selection
        self._deads_step_first()

    def render(self) -> str | None:
        seat = seat_of(self.agent_selection) if self.match.decision is not None else None
        return render(self.render_mode, self.match, seat)

    def close(self) -> None:
        if self.driver.match is not None:
            self.driver.match.close()


def env(path_or_game: Game | str | PathLike[str], players: int | None = None, **kwargs: Any) -> RulekitEnv:
    """A PettingZoo AEC environment for a rule file (a path or a loaded
    ``rulekit.Game``) with ``players`` seats (default: the fewest the game
    allows).  Keywords: ``options`` (match options), ``actions``
    (``"auto"``, ``"catalogue"`` or ``"features"``), ``seed``,
    ``render_mode`` (``"ansi"``, ``"human"``), ``reward_hook``,
    ``cooperative``, ``illegal`` (``"terminate"`` or ``"raise"``),
    ``auto_pass``, ``max_actions`` (``K`` in features mode), ``max_steps``
    (truncate a match after that many steps), ``out_seats`` (``"terminate"``
    or ``"wait"``: see the module), ``recycle`` (False: a new observation
    array at every step, though nobody holds the last one: see
    :mod:`rulekit.rl.recycle`).  See docs/rl.md."""
    game = as_game(path_or_game)
    return RulekitEnv(game, game.min_players if players is None else players, **kwargs)
