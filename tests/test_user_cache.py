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
    _built("expr")
    kept = next(folder.glob("effects-expr-*.lark"))
    for damage in (b"", kept.read_bytes()[:100], b"garbage\n" + os.urandom(64)):
        kept.write_bytes(damage)
        assert _built("expr").parse("1 + size(hand(current))").data
        assert kept.read_bytes() != damage                  # and kept again, whole
