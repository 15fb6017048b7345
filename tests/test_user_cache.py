"""The user's cache folder (rulekit.user_cache) and the parser kept in it:
used only when nobody else can write there, and a kept parser that is
stale or damaged is built again, never trusted."""
from __future__ import annotations

import os
import stat

import pytest

from rulekit import user_cache
from rulekit.lang import parser


@pytest.fixture
def folder(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv(user_cache.ENV, str(where))
    return where


def test_the_folder_is_made_private_and_used(folder):
    assert user_cache.cache_dir() == folder
    assert stat.S_IMODE(os.stat(folder).st_mode) & 0o077 == 0


def test_an_empty_setting_keeps_nothing(monkeypatch):
    monkeypatch.setenv(user_cache.ENV, "")
    assert user_cache.cache_dir() is None


def test_without_a_setting_the_folder_is_in_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.delenv(user_cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_cache.cache_dir() == tmp_path / "rulekit"


def test_a_relative_cache_home_is_ignored_and_no_home_means_no_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(user_cache.ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    assert user_cache.cache_dir() == tmp_path / "home" / ".cache" / "rulekit"
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)     # no home folder to be found
    assert user_cache.cache_dir() is None
    assert list(tmp_path.iterdir()) == [tmp_path / "home"]            # nothing made in the working folder


def test_a_folder_others_may_write_in_is_not_used(folder):
    folder.mkdir(mode=0o700)
    folder.chmod(0o777)
    assert user_cache.cache_dir() is None
    folder.chmod(0o755)             # readable by others, writable only by its owner: used
    assert user_cache.cache_dir() == folder


def test_a_link_or_a_file_is_not_used(tmp_path, folder):
    real = tmp_path / "elsewhere"
    real.mkdir(mode=0o700)
    folder.symlink_to(real)
    assert user_cache.cache_dir() is None
    folder.unlink()
    folder.write_text("not a folder")
    assert user_cache.cache_dir() is None


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to give a folder away")
def test_a_folder_of_another_user_is_not_used(folder):
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, -1)
    assert user_cache.cache_dir() is None


def _built(start: str):
    """The parser from ``start`` built now, not the one this process keeps."""
    return parser._parser.__wrapped__(start)


def test_the_parser_is_kept_and_read_back(folder):
    first = _built("script")
    kept = list(folder.glob("effects-script-*.lark"))
    assert len(kept) == 1
    stamp = kept[0].stat().st_mtime_ns
    again = _built("script")
    assert kept[0].stat().st_mtime_ns == stamp            # read back, not written again
    text = "let x = 1\nif x == 1:\n  move top(deck) to hand(current)\n"
    assert again.parse(text) == first.parse(text)


def test_a_damaged_kept_parser_is_built_again(folder):
    """Cut short, emptied, garbage, a byte of what it holds changed (its
    digest then fails), or whole but no parser: each is built anew and kept
    again, whole."""
    _built("expr")
    kept = next(folder.glob("effects-expr-*.lark"))
    good = kept.read_bytes()
    flipped = bytearray(good)
    flipped[-10] ^= 1
    for damage in (b"", good[:100], good[:-1], b"garbage\n" + os.urandom(64), bytes(flipped)):
        kept.write_bytes(damage)
        assert user_cache.read(folder, kept.name) is None
        assert _built("expr").parse("1 + size(hand(current))").data
        assert user_cache.read(folder, kept.name) is not None          # kept again, whole
    user_cache.keep(folder, kept.name, b"whole, but no parser")
    assert user_cache.read(folder, kept.name) == b"whole, but no parser"
    assert _built("expr").parse("1").data
    assert user_cache.read(folder, kept.name) not in (None, b"whole, but no parser")


def test_what_is_kept_is_written_whole_under_its_name_only(folder):
    assert user_cache.cache_dir() == folder              # (made)
    user_cache.keep(folder, "a", b"one")
    user_cache.keep(folder, "a", b"two")                 # replaced at once
    assert user_cache.read(folder, "a") == b"two" and user_cache.read(folder, "b") is None
    assert sorted(p.name for p in folder.iterdir()) == ["a"]     # no temporary file left behind


def test_nothing_is_kept_without_a_folder(monkeypatch):
    monkeypatch.setenv(user_cache.ENV, "")
    user_cache.keep(user_cache.cache_dir(), "a", b"one")
    assert user_cache.read(user_cache.cache_dir(), "a") is None


def test_prune_removes_only_old_files_of_the_family(folder):
    """What an earlier version kept is removed once it has not been written
    for STALE_DAYS; the file just kept, recent ones, other families and
    links stay."""
    folder.mkdir(mode=0o700)
    now = 10 * 365 * 86_400.0
    old = now - (user_cache.STALE_DAYS + 1) * 86_400
    recent = now - (user_cache.STALE_DAYS - 1) * 86_400
    for name, when in (("effects-script-aaa.lark", old), ("effects-script-bbb.lark", recent),
                       ("effects-script-new.lark", old), ("effects-expr-ccc.lark", old), ("other", old)):
        (folder / name).write_bytes(b"x")
        os.utime(folder / name, (when, when))
    (folder / "effects-script-link.lark").symlink_to(folder / "other")
    removed = user_cache.prune(folder, "effects-script-", "effects-script-new.lark", now=now)
    assert removed == ["effects-script-aaa.lark"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "effects-expr-ccc.lark", "effects-script-bbb.lark", "effects-script-link.lark",
        "effects-script-new.lark", "other"]
    assert user_cache.prune(None, "effects-", "x") == []


def test_a_new_parser_removes_the_old_grammars_parser(folder):
    """After an upgrade that changed the grammar, the parser kept for the
    earlier one goes when the new one is kept (if unused for a month)."""
    folder.mkdir(mode=0o700)
    stale, fresh = folder / "effects-expr-0123456789abcdef.lark", folder / "effects-expr-fedcba9876543210.lark"
    for f in (stale, fresh):
        f.write_bytes(b"an earlier grammar's parser")
    long_ago = os.stat(fresh).st_mtime - (user_cache.STALE_DAYS + 1) * 86_400
    os.utime(stale, (long_ago, long_ago))
    _built("expr")
    kept = sorted(p.name for p in folder.glob("effects-expr-*.lark"))
    assert stale.name not in kept and fresh.name in kept and len(kept) == 2
