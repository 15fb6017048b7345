"""Every rule file the project ships, found on disk, so that a game added
later is checked by the conformance, hidden-information and fuzz suites
without a test of its own.

A game is a ``.yaml`` file in ``games/`` or ``docs/examples/``, or a folder
in ``games/`` holding a ``game.yaml``.
"""
from __future__ import annotations

import functools
from pathlib import Path

import rulekit

ROOT = Path(__file__).resolve().parents[1]


def game_files() -> list[Path]:
    found = [*ROOT.glob("games/*.yaml"), *ROOT.glob("games/*/game.yaml"),
             *ROOT.glob("docs/examples/*.yaml")]
    return sorted(found)


def game_id(path: Path) -> str:
    """A short test id: the file's stem, or the folder's name for a folder game."""
    return path.parent.name if path.name == "game.yaml" else path.stem


def game_path(name: str) -> Path:
    """games/NAME: a folder game, else the file games/NAME.yaml."""
    folder = ROOT / "games" / name
    return folder if folder.is_dir() else folder.with_suffix(".yaml")


@functools.cache
def load(path: Path) -> rulekit.Game:
    """A game loaded once per test process (each xdist worker), shared by
    the suites that play it and never change it: loading the largest games
    takes a good part of a second."""
    return rulekit.load_game(path)
