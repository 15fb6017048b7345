"""The runtime: matches, decisions, options, views."""
from .match import Match
from .runtime import Action, Decision

__all__ = ["Match", "Action", "Decision"]
