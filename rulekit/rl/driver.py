"""One match played through fixed-size observations and actions: what the
PettingZoo and Gymnasium environments share.

The driver owns the match, the observation encoder and the action adapter;
it turns a ``Discrete`` index into a move, builds each seat's observation
dict, and says what a step did (the seats it eliminated, the rewards at the
end, an illegal index).  The environments only add their APIs' bookkeeping.
"""
from __future__ import annotations

import copy
import operator
from os import PathLike
from typing import Any, Iterable, SupportsIndex, cast

import gymnasium
import numpy as np

from ..engine import arguments
from ..engine.match import Match
from ..engine.runtime import Decision
from ..errors import IllegalAction
from ..limits import MAX_INTEGER
from ..model import Game
from .actions import Legal, make_actions
from .incremental import SeatObservations
from .observation import ObservationEncoder
from .recycle import Copies
from .rewards import RewardHook, is_cooperative, outcome_rewards
from .tracked import load_game

#: what an illegal index does: end the match (the mover gets -1, the others
#: 0: PettingZoo's convention for its classic games) or raise IllegalAction
ILLEGAL = ("terminate", "raise")


def as_game(path_or_game: object) -> Game:
    if isinstance(path_or_game, Game):
        return path_or_game
    if isinstance(path_or_game, (str, PathLike)):
        return load_game(path_or_game)           # compiled with change tracking
    raise TypeError(f"a rule file's path or a loaded rulekit.Game, not {type(path_or_game).__name__}")


def env_seed(seed: object) -> int | None:
    """An environment's seed (None: drawn): a whole number 0 or more, since
    numpy's generator, which draws the next matches' seeds, takes no other."""
    if seed is None:
        return None
    number = arguments.seed(seed)
    if number < 0:
        raise ValueError(f"an environment's seed is 0 or more (numpy's generator takes no other), not {number}")
    return number


class Driver:
    """See the module.  ``match`` is the live match (read it, never apply to it)."""

    def __init__(self, game: Game, players: int, *, options: dict[str, Any] | None = None, actions: str = "auto",
                 max_actions: int | None = None, reward_hook: RewardHook | None = None,
                 cooperative: bool | None = None, illegal: str = "terminate", auto_pass: bool = False,
                 kept_masks: int = 32, recycle: bool = True):
        players = arguments.players(game.name, game.min_players, game.max_players, players)
        max_actions = arguments.optional_count("max_actions", max_actions)
        cooperative = arguments.optional_flag("cooperative", cooperative)
        auto_pass = arguments.flag("auto_pass", auto_pass)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.game = game
        self.players = players
        #: the keywords it was made with, for a pickle (see __reduce__)
        self._made_with = dict(options=options, actions=actions, max_actions=max_actions, reward_hook=reward_hook,
                               cooperative=cooperative, illegal=illegal, auto_pass=auto_pass,
                               kept_masks=kept_masks, recycle=recycle)
        self.options = game.match_options(options)
        self.actions = make_actions(game, players, actions, options=self.options, max_actions=max_actions,
                                    kept_masks=kept_masks)
        self.encoder = ObservationEncoder(game, players)
        #: the observation vectors handed out, written again once nobody holds them (None: a new
        #: array at every observation, see :mod:`rulekit.rl.recycle`)
        self._vectors = Copies(self.encoder.size) if recycle else None
        self.reward_hook = reward_hook
        self.cooperative = is_cooperative(game) if cooperative is None else cooperative
        self.illegal = illegal
        self.auto_pass = auto_pass
        self.match: Match | None = None         # from the first reset() on
        self._legal: tuple[Decision, Legal] | None = None    # the pending decision and what it allows
        self._seen: SeatObservations | None = None
        self.spaces = self._spaces()
        #: what a seat that does not decide gets: shared, so read-only
        self._no_mask = _read_only(np.zeros((self.actions.n,), dtype=np.int8))
        self._no_features = (_read_only(np.zeros((self.actions.features.k, self.actions.features.width),
                                                 dtype=np.int8))
                             if self.actions.mode == "features" else None)

    def _spaces(self) -> gymnasium.spaces.Dict:
        parts: dict[str, gymnasium.spaces.Space[Any]] = {
            "observation": gymnasium.spaces.Box(-MAX_INTEGER, MAX_INTEGER, (self.encoder.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.actions.n,), np.int8),
        }
        if self.actions.mode == "features":
            f = self.actions.features
            parts["action_features"] = gymnasium.spaces.Box(0, 1, (f.k, f.width), np.int8)
        return gymnasium.spaces.Dict(parts)

    # ---- the match ------------------------------------------------------------
    def reset(self, seed: int) -> None:
        if self.match is not None:
            self.match.close()
        self.match = self.game.new_match(self.players, seed=seed, options=self.options,
                                         auto_pass=self.auto_pass)
        self._legal = None
        self._seen = SeatObservations(self.encoder, self.match)

    def __copy__(self) -> "Driver":
        """A shallow copy, sharing everything (what ``__deepcopy__`` starts from;
        a pickle, by ``__reduce__``, makes the parts again instead)."""
        new = Driver.__new__(Driver)
        new.__dict__.update(self.__dict__)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """A driver pickles as what it was made with and its match (itself
        pickled as its game and ``save()``): its encoder, catalogue and the
        arrays it hands out (which hold memoryviews and the game's compiled
        functions) are made again, and its observations written afresh."""
        return (_driver_again, (self.game, self.players, self._made_with, self.match))

    def __deepcopy__(self, memo: dict[int, Any]) -> "Driver":
        """A driver that plays on from the same state, apart from this one
        (``copy.deepcopy`` of an environment, for search over environments):
        the match is cloned (at the cost of its state, see
        :meth:`rulekit.Match.clone`) and its observations written afresh;
        the rule file, the action catalogue, the encoder and the spaces,
        which never change, are shared."""
        new = copy.copy(self)
        memo[id(self)] = new
        new.reward_hook = copy.deepcopy(self.reward_hook, memo)
        new._legal = None
        if self.match is not None:
            new.match = copy.deepcopy(self.match, memo)
            new._seen = SeatObservations(self.encoder, new.match)
        return new

    def live(self) -> Match:
        """The match being played: there is one once :meth:`reset` has run."""
        m = self.match
        if m is None:
            raise RuntimeError("no match yet: call reset() first")
        return m

    def legal(self) -> Legal | None:
        """What the pending decision allows (worked out once per decision)."""
        dec = self.live().decision
        return None if dec is None else self._allowed(dec)

    def _allowed(self, dec: Decision) -> Legal:
        """What ``dec``, the pending decision, allows: worked out at its
        first asking (the agent observing it) and kept for its step."""
        known = self._legal
        if known is None or known[0] is not dec:
            known = self._legal = (dec, self.actions.legal(dec))
        return known[1]

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """``seat``'s observation dict: the mask (and features) are its own
        only while it decides, zeros otherwise.  The vector is kept up to
        date per seat (:mod:`rulekit.rl.incremental`) and copied out: an agent
        may keep what it was given (an array nobody holds any more is written
        again: :mod:`rulekit.rl.recycle`).  The mask and features are read-only
        arrays never written again (the decision's own, one kept for the
        same legal indices, or zeros): handed out as they are."""
        seen = self._seen
        if seen is None:
            raise RuntimeError("no match yet: call reset() first")
        vectors = self._vectors
        vector = seen.observe(seat).copy() if vectors is None else vectors.copy(seen.cells(seat))
        dec = seen.match.decision
        if dec is None or dec.player != seat:
            if self._no_features is None:
                return {"observation": vector, "action_mask": self._no_mask}
            return {"observation": vector, "action_mask": self._no_mask, "action_features": self._no_features}
        known = self._legal             # (what _allowed() keeps, read in place: this runs at every step)
        legal = known[1] if known is not None and known[0] is dec else self._allowed(dec)
        if legal.features is None:
            return {"observation": vector, "action_mask": legal.mask}
        return {"observation": vector, "action_mask": legal.mask, "action_features": legal.features}

    def step(self, index: object) -> str | None:
        """Apply the move at ``index`` (an integer of any type: anything else
        is refused); return why it was refused (the match is then closed) or
        None.  With ``illegal="raise"`` a refused index raises
        :class:`~rulekit.IllegalAction` and nothing changes."""
        m = self.match
        if m is None:
            m = self.live()             # (raises: no match yet)
        dec = m.decision
        known = self._legal             # (what _allowed() keeps, read in place: this runs at every step)
        legal = None if dec is None else known[1] if known is not None and known[0] is dec else self._allowed(dec)
        if type(index) is int:
            k = index
        elif type(index) is bool:
            k = -1
        else:
            try:                        # numpy's integers; a float or a text is no index (1.5 is not 1)
                k = operator.index(cast(SupportsIndex, index))    # (or TypeError, below)
            except TypeError:
                k = -1
        position = None
        if legal is not None and 0 <= k < self.actions.n:
            positions = legal.positions
            if positions is None:
                position = k if legal.mask[k] else None
            elif positions[0] == k:         # (a lone option, two steps in three)
                position = 0
            elif k in positions:            # (the decision's options' indices: a few, read as they are)
                position = positions.index(k)
        if position is None:
            what = (f"action {k} ({self.actions.describe(k)})" if 0 <= k < self.actions.n
                    else f"action {index!r} (not an index from 0 to {self.actions.n - 1})")
            why = f"{what} is not legal now" + (f": player {dec.player} must answer '{dec.choice}'" if dec else "")
            if self.illegal == "raise":
                raise IllegalAction(why)
            m.close()
            return why
        m.apply(position)
        return None

    def final_rewards(self) -> list[float]:
        result = self.live().result()
        if result is None:
            raise RuntimeError("the match is not over: it has no final rewards yet")
        return outcome_rewards(result, self.players, self.cooperative)

    def shaped(self, since: int, agents: Iterable[str]) -> dict[str, float]:
        """The reward hook's values for ``agents`` (names) for the log from ``since`` on
        (none without a reward hook)."""
        hook, m = self.reward_hook, self.live()
        if hook is None:
            return {}
        out = {}
        for agent in agents:
            seat = seat_of(agent)
            out[agent] = float(hook(m, m.events(seat, since=since), agent))
        return out


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


def _driver_again(game: Game, players: int, made_with: dict[str, Any], match: Match | None) -> Driver:
    """A pickled driver: made again as it was, playing ``match``."""
    driver = Driver(game, players, **made_with)
    if match is not None:
        driver.match = match
        driver._seen = SeatObservations(driver.encoder, match)
    return driver
