"""Learning environments for any rule file, with no code per game (needs
the ``rl`` extra: ``pip install 'rulekit[rl]'``).  See docs/rl.md.

- :func:`env`: a PettingZoo AEC environment; :class:`GymEnv`: a Gymnasium
  environment for one player;
- :class:`ActionCatalogue`: every action a game can offer, numbered once;
  :class:`ActionFeatures`: legal actions as feature vectors, when the
  catalogue is too large;
- :class:`ObservationEncoder`: a seat's view as a vector, with its layout;
- :func:`load_game`: a rule file compiled for the environments (each
  variable its code writes noted, so observations are kept up to date cheaply).

The core of rulekit never imports this package, so it needs no numpy.
"""
from .aec import RulekitEnv, env
from .catalogue import ActionCatalogue, CatalogueTooLarge
from .features import ActionFeatures, TooManyActions
from .gym_env import GymEnv
from .observation import ObservationEncoder
from .rewards import is_cooperative, outcome_rewards
from .tracked import load_game
from .vocabulary import string_vocabulary

__all__ = ["ActionCatalogue", "ActionFeatures", "CatalogueTooLarge", "GymEnv", "ObservationEncoder", "RulekitEnv",
           "TooManyActions", "env", "is_cooperative", "load_game", "outcome_rewards", "string_vocabulary"]
