"""A Gymnasium environment for a game played alone (a solitaire, a
co-operative game's solo rules): the same observations, actions and
rewards as the PettingZoo environment (:mod:`rulekit.rl.aec`), through
``gymnasium.Env``'s API.

``reset(seed=s)`` plays the match ``game.new_match(1, seed=s)``; a reset
without a seed draws the match's seed from the environment's generator,
which ``reset(seed=s)`` seeds (so a run of resets is repeatable).  An
action the mask does not allow ends the episode with reward ``-1`` and
``info["illegal"]`` saying why (``illegal="raise"`` raises instead).
"""
from __future__ import annotations

from os import PathLike
from typing import Any

import gymnasium
import numpy as np

from ..engine import arguments
from ..engine.match import Match
from ..model import Game
from .driver import Driver, agent_name, as_game, env_seed
from .rewards import RewardHook
from .text import render


class GymEnv(gymnasium.Env):
    """See the module; the keywords are those of :func:`rulekit.rl.env`."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, path_or_game: Game | str | PathLike[str], players: int = 1, *,
                 options: dict[str, Any] | None = None, actions: str = "auto",
                 render_mode: str | None = None, reward_hook: RewardHook | None = None,
                 cooperative: bool | None = None, illegal: str = "terminate", auto_pass: bool = False,
                 max_actions: int | None = None, max_steps: int | None = None) -> None:
        game = as_game(path_or_game)
        if players != 1:
            raise ValueError(f"GymEnv plays one seat alone; {game.name} with {players} players needs "
                             "rulekit.rl.env(...) (PettingZoo), where every seat is an agent")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.driver = Driver(game, 1, options=options, actions=actions, max_actions=max_actions,
                             reward_hook=reward_hook, cooperative=cooperative, illegal=illegal,
                             auto_pass=auto_pass, kept_masks=0, recycle=False)   # (Gymnasium: new arrays each step)
        self.game = game
        self.render_mode = render_mode
        self.max_steps = arguments.optional_count("max_steps", max_steps)
        self.observation_space = self.driver.spaces
        self.action_space = gymnasium.spaces.Discrete(self.driver.actions.n)

    @property
    def match(self) -> Match:
        """The match being played (read it; acting on it bypasses the
        environment); RuntimeError before the first :meth:`reset`."""
        return self.driver.live()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        seed = env_seed(seed)
        super().reset(seed=seed)
        self.driver.reset(seed if seed is not None else int(self.np_random.integers(2**31)))
        self._log_at = len(self.match.log)
        self.steps = 0
        return self.driver.observation(0), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        refused = self.driver.step(action)
        self.steps += 1
        m = self.match
        info: dict[str, Any] = {}
        reward = 0.0
        if refused is not None:
            reward, info = -1.0, {"illegal": refused}
        elif m.decision is None:
            reward = self.driver.final_rewards()[0]
            result = m.result()
            if result is not None:
                info = {"outcome": result["outcome"], "winners": list(result["winners"])}
        if self.driver.reward_hook is not None and refused is None:
            reward += self.driver.shaped(self._log_at, [agent_name(0)])[agent_name(0)]
        self._log_at = len(m.log)
        truncated = self.max_steps is not None and self.steps >= self.max_steps and m.decision is not None
        if truncated:
            m.close()
        return self.driver.observation(0), reward, m.decision is None and not truncated, truncated, info

    def render(self) -> str | None:
        return render(self.render_mode, self.match, 0)

    def close(self) -> None:
        if self.driver.match is not None:
            self.driver.match.close()
