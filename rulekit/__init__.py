"""rulekit: whole card games as data.

A game is a YAML rule file plus effect text in a small language; one generic
engine runs every game.  Start with :func:`load_game`::

    import rulekit
    game = rulekit.load_game("games/my_game.yaml")
    match = game.new_match(players=2, seed=7)
    while not match.is_over():
        match.apply(match.legal_actions()[0])
    print(match.result())
"""
from .engine.match import Match
from .engine.runtime import Action, Decision
from .engine.settled import settled
from .engine.view import ALL as ALL_SEEING
from .errors import IllegalAction, RuleError, RuleFileError, RuleRuntimeError, StepBudgetExceeded
from .loader import load_game, load_game_text
from .model import Game
from .simulation import GameFailed, simulate

__all__ = [
    "ALL_SEEING", "Action", "Decision", "Game", "GameFailed", "IllegalAction", "Match", "RuleError", "RuleFileError",
    "RuleRuntimeError", "StepBudgetExceeded", "load_game", "load_game_text", "settled", "simulate",
]
__version__ = "0.1.0"
