"""The folder where rulekit keeps what it can build again, to build it once.

Today that is the effect-language parser: lark's analysis of the grammar
(its LALR tables) takes about a sixth of a second for each of the parser's
two start rules, in every new process that loads a game — each command
line run, each test worker, each Ray worker.  Read back from a file it
takes a hundredth (see :mod:`rulekit.lang.parser`).

What is kept there is read back with ``pickle``, which runs code, so the
folder is used only when nobody else can write in it: it must belong to
the user running rulekit and be writable by nobody else, as Python's own
``__pycache__`` folders are trusted only because the user owns them.  The
folder is ``$RULEKIT_CACHE_DIR`` when that is set (set it empty to keep
nothing), else ``rulekit`` in ``$XDG_CACHE_HOME`` or in ``~/.cache``.  A
folder that cannot be made, or is not private, means nothing is kept:
everything is built in memory as before, only more slowly.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

#: the environment variable naming the folder (empty: keep nothing)
ENV = "RULEKIT_CACHE_DIR"


def cache_dir() -> Path | None:
    """The private folder to keep built things in, made if need be, or
    ``None`` when there is none that is safe to read back from."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        if not chosen:
            return None
        folder = Path(chosen)
    else:
        # (a relative XDG_CACHE_HOME is to be ignored, says the XDG spec; a home folder
        # that cannot be found leaves "~" as it is, which would be a folder named "~" here)
        base = os.environ.get("XDG_CACHE_HOME", "")
        if not os.path.isabs(base):
            base = os.path.join(os.path.expanduser("~"), ".cache")
        if not os.path.isabs(base):
            return None
        folder = Path(base) / "rulekit"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.stat(folder, follow_symlinks=False)
    except (OSError, RuntimeError):      # (RuntimeError: no home folder to expand ~ to)
        return None
    return folder if _private(info) else None


def _private(info: os.stat_result) -> bool:
    """A real folder (not a link to one) of this user that nobody else may write in."""
    owner = getattr(os, "getuid", None)
    return (stat.S_ISDIR(info.st_mode)
            and (owner is None or info.st_uid == owner())
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))
