"""Arrays an environment hands out are written again only once nobody holds
them (rulekit.rl.recycle): what an agent keeps never changes, what it drops
is reused, and every observation and mask is the one a new array would be."""
from __future__ import annotations

import numpy as np
import pytest
from game_files import game_path
from rl_kit import load

import rulekit.rl as rl
from rulekit.rl.actions import CatalogueActions
from rulekit.rl.recycle import Copies


def _play(env, seed: int, keep: bool):
    """A random match; returns what every step's observation held when it was
    given (copies), and the observations themselves if ``keep``."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    given, kept, ids = [], [], set()
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        given.append((obs["observation"].copy(), obs["action_mask"].copy()))
        ids.add(id(obs["observation"]))
        if keep:
            kept.append(obs)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        del obs
    return given, kept, ids


@pytest.fixture(scope="module")
def sanguosha():
    return load(game_path("sanguosha"))


def test_what_an_agent_keeps_never_changes(sanguosha):
    env = rl.env(sanguosha, players=5)
    given, kept, _ = _play(env, 3, keep=True)
    assert len(kept) > 200
    for (vector, mask), obs in zip(given, kept):
        assert np.array_equal(obs["observation"], vector)
        assert np.array_equal(obs["action_mask"], mask)


def test_what_an_agent_drops_is_reused_and_reads_as_new(sanguosha):
    """The same match played keeping everything and dropping everything
    gives the same observations, the second from a handful of arrays."""
    kept_given, _, kept_ids = _play(rl.env(sanguosha, players=5), 3, keep=True)
    dropped_given, _, dropped_ids = _play(rl.env(sanguosha, players=5), 3, keep=False)
    assert len(kept_ids) == len(kept_given)
    assert len(dropped_ids) <= 3
    assert len(dropped_given) == len(kept_given)
    for (v1, m1), (v2, m2) in zip(kept_given, dropped_given):
        assert np.array_equal(v1, v2) and np.array_equal(m1, m2)


def _actions(n: int = 100, kept: int = 2) -> CatalogueActions:
    class Catalogue:
        pass
    catalogue = Catalogue()
    catalogue.n = n            # type: ignore[attr-defined]
    return CatalogueActions(catalogue, kept)     # type: ignore[arg-type]


def test_a_mask_nobody_holds_is_rewritten_for_the_next_indices():
    actions = _actions()
    first = id(actions._legal((1, 2)).mask)
    actions._legal((3,))
    third = actions._legal((6, 7))           # (1, 2) leaves the kept masks, held by nobody
    assert id(third.mask) == first
    assert np.flatnonzero(third.mask).tolist() == [6, 7]
    assert not third.mask.flags.writeable


@pytest.mark.parametrize("hold", ["mask", "legal", "view"])
def test_a_mask_held_anywhere_is_left_alone(hold):
    actions = _actions()
    legal = actions._legal((1, 2))
    held = {"mask": legal.mask, "legal": legal, "view": legal.mask[1:]}[hold]
    del legal
    actions._legal((3,))
    actions._legal((6, 7))
    mask = held if hold == "mask" else held.mask if hold == "legal" else held.base
    assert np.flatnonzero(mask).tolist() == [1, 2]


def test_a_copy_held_through_a_view_is_left_alone():
    pool = Copies(4, keep=2)
    source = np.arange(4, dtype=np.float32)
    a = pool.copy(memoryview(source))
    head = a[:2]
    del a
    source[:] = 9
    b = pool.copy(memoryview(source))
    assert head.tolist() == [0, 1] and b.tolist() == [9, 9, 9, 9]
    del b
    source[:] = 5
    assert pool.copy(memoryview(source)).tolist() == [5, 5, 5, 5]
