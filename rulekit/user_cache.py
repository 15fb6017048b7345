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

A file kept for something that has since changed (the parser of an
earlier grammar, after an upgrade) is removed when its successor is kept,
once it has not been written for ``STALE_DAYS`` (:func:`prune`): two
copies of rulekit in use side by side each keep theirs, and one removed
too early is only built and kept again.

A file is written whole or not at all (to a temporary name, then renamed),
so processes that start together (a test run's workers) never read one
half written, and it carries a digest of what it holds, checked before
anything is read from it: a file damaged on the disk, or cut short by a
full disk, is treated as missing and built again.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
import time
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


#: a kept file of a family not written for this many days is removed when another of it is kept
STALE_DAYS = 30

#: what a kept file starts with, then the hex SHA-256 of what it holds and a line break
MAGIC = b"rulekit kept 1\n"
#: a kept file larger than this is not read (what rulekit keeps is a few tens of kilobytes)
MAX_KEPT = 16 * 2**20


def read(folder: Path | None, name: str) -> bytes | None:
    """What was kept under ``name`` in ``folder`` (:func:`cache_dir`), or
    ``None``: no folder, no such file, or a file that is not whole (its
    digest does not match)."""
    if folder is None:
        return None
    try:
        with open(folder / name, "rb") as handle:
            data = handle.read(MAX_KEPT + 1)
    except OSError:
        return None
    head = len(MAGIC) + 65
    if len(data) > MAX_KEPT or not data.startswith(MAGIC) or data[head - 1:head] != b"\n":
        return None
    payload = data[head:]
    if hashlib.sha256(payload).hexdigest().encode("ascii") != data[len(MAGIC):head - 1]:
        return None
    return payload


def keep(folder: Path | None, name: str, payload: bytes) -> None:
    """Keep ``payload`` under ``name`` in ``folder`` (:func:`cache_dir`) for
    later processes, replacing what was there at once; nothing when there
    is no folder or it cannot be written (a full disk, a read-only home)."""
    if folder is None:
        return
    data = MAGIC + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".kept-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, folder / name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError:
        pass


def prune(folder: Path | None, prefix: str, keeping: str, now: float | None = None) -> list[str]:
    """Remove the files of ``folder`` named ``prefix…`` other than
    ``keeping`` that were last written over ``STALE_DAYS`` ago (what an
    earlier version kept for something since changed); return their names.
    Nothing else is touched: not a file of another family, not a link, not
    one written recently (another copy of rulekit may still read it)."""
    if folder is None:
        return []
    cutoff = (time.time() if now is None else now) - STALE_DAYS * 86_400
    removed = []
    try:
        with os.scandir(folder) as found:
            entries = list(found)
    except OSError:
        return []
    for entry in entries:
        if not entry.name.startswith(prefix) or entry.name == keeping:
            continue
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            continue
    return sorted(removed)
