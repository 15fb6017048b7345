"""Loading a game again reuses what did not change: a rule file's text is
not parsed again, nor its compiled module compiled again; each load still
gets a game of its own (its own functions, tables and memos), which plays
exactly as a first load's."""
from __future__ import annotations

import random
import sys

import pytest
from game_files import ROOT

import rulekit
from rulekit.lang import codegen

LAST_CARD = ROOT / "docs" / "examples" / "last_card.yaml"


def _log(game: rulekit.Game, seed: int) -> str:
    m = game.new_match(3, seed=seed)
    rng = random.Random(seed)
    while m.decision is not None:
        m.apply(rng.randrange(len(m.decision.options)))
    return m.log_json()


def test_a_game_loaded_again_shares_its_compiled_code_not_its_functions():
    first = rulekit.load_game(LAST_CARD)
    compiled = codegen._compiled.cache_info().misses
    again = rulekit.load_game(LAST_CARD)
    assert codegen._compiled.cache_info().misses == compiled     # nothing compiled the second time
    a, b = first.procedures, again.procedures
    assert a.keys() == b.keys() and a
    for name in a:
        assert a[name].run is not b[name].run and a[name].run.__code__ is b[name].run.__code__
    assert first.flow.run.__globals__ is not again.flow.run.__globals__
    assert [_log(first, s) for s in range(5)] == [_log(again, s) for s in range(5)]


def test_a_changed_rule_is_compiled_anew_and_only_it():
    text = LAST_CARD.read_text(encoding="utf-8")
    before = rulekit.load_game_text(text, "last_card.yaml")
    line = "  move top(deck, 1) to pile\n"
    assert line in text
    compiled = codegen._compiled.cache_info().misses
    changed = rulekit.load_game_text(text.replace(line, "  move top(deck, 2) to pile\n"), "last_card.yaml")
    assert changed.setup.run.__code__ is not before.setup.run.__code__
    # only the changed rule's function was compiled again: every procedure's code is shared
    assert codegen._compiled.cache_info().misses == compiled + 1
    assert all(changed.procedures[k].run.__code__ is p.run.__code__ for k, p in before.procedures.items())
    assert len(changed.new_match(2, seed=1).zone("pile").cards) == 2
    assert len(before.new_match(2, seed=1).zone("pile").cards) == 1


def test_a_function_compiled_once_reports_its_place_after_an_edit_above_it():
    """An edit that adds a function above a rule moves the rule's code down
    the module without changing its text: the code is not compiled again but
    renumbered, and an error in it still names the rule file's lines."""
    from test_debuggable_rules import BOOM, _at

    text = BOOM.format(outer_params="k", outer_args="(1)")
    first = rulekit.load_game_text(text, "boom.yaml")
    edited = text.replace("let y = 1", "let y = size(players where it == current)")    # a filter: a function of its own
    compiled = codegen._compiled.cache_info().misses
    game = rulekit.load_game_text(edited, "boom.yaml")
    assert codegen._compiled.cache_info().misses == compiled + 2          # the filter, and 'outer' that calls it
    before, after = first.procedures["inner"].run.__code__, game.procedures["inner"].run.__code__
    assert after.co_firstlineno > before.co_firstlineno and after.co_code == before.co_code
    with pytest.raises(rulekit.RuleRuntimeError) as caught:
        game.new_match(2, seed=1)
    assert [(rule, str(where)) for rule, where in caught.value.chain] == [
        ("phase 'draw'", _at(edited, "emit drawn")),
        ("trigger on 'drawn' #0", _at(edited, "call outer(1)")),
        ("procedure 'outer'", _at(edited, "call inner(y)")),
        ("procedure 'inner'", _at(edited, "x = 1 // (size(deck) - size(deck))")),
    ]


def _texts(code) -> list[str]:
    """The text constants of ``code`` and of the code objects it holds."""
    out: list[str] = []
    for c in code.co_consts:
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, (tuple, frozenset)):
            out.extend(x for x in c if isinstance(x, str))
        elif hasattr(c, "co_consts"):
            out.extend(_texts(c))
    return out


@pytest.mark.parametrize("load", ["first", "again"])
def test_the_rule_files_texts_and_the_compiled_rules_texts_are_one_object_each(load):
    """Texts are interned, in the data read from a rule file (first read or
    from the read cache) and in the compiled rules' constants: a card's
    ``kind`` and the same text in effect text are one object, which makes
    ``==`` between them a pointer test.  Python interns by itself only
    texts that look like ASCII names, which these are not."""
    path = ROOT / "games" / "sanguosha"
    game = rulekit.load_game(path)
    if load == "again":
        game = rulekit.load_game(path)
    kinds = {c.props["kind"] for c in game.cards if "kind" in c.props}
    written = [t for p in game.procedures.values() for t in _texts(p.run.__code__)]
    both = [t for t in written if t in kinds and not t.isascii()]
    assert both, "the procedures compare cards' kinds with texts written in them"
    for c in game.cards:
        for value in c.props.values():
            if isinstance(value, str):
                assert value is sys.intern(value), (c.name, value)
    for t in written:
        assert t is sys.intern(t), t


def test_parsed_trees_name_their_nodes_by_plain_interned_texts():
    """The loader tests node names tens of thousands of times a load; lark
    names nodes by Tokens, whose ``==`` runs Python code, so the parser
    gives every node a plain interned text instead (once, as it parses)."""
    from rulekit.lang.parser import parse_effect, subtrees

    tree = parse_effect("if x == 1:\n  call draw(current, 2)\nelse:\n  return size(hand(current))\n")
    names = [node.data for node in subtrees(tree)]
    assert "call_stmt" in names and "if_stmt" in names
    for name in names:
        assert type(name) is str and name is sys.intern(name), repr(name)


def _uses(game: rulekit.Game) -> None:
    """What a program does with a game: matches played by agents, copies,
    samples, views, a simulation, a search, a learning environment."""
    from rulekit.agents import make_agents
    m = game.new_match(3, seed=1)
    m.play(make_agents("heuristic", 3, 1))
    m.view(0)
    m.clone()
    s = game.new_match(2, seed=2)
    s.apply(0)
    s.resample(0, random.Random(1)).clone()
    game.new_match(2, seed=3).play(make_agents("mcts:3", 2, 3))
    rulekit.simulate(game, 2, 3)
    try:
        import rulekit.rl as rl
    except ImportError:           # (the rl extra)
        return
    env = rl.env(game, players=2)
    env.reset(seed=1)
    for _ in env.agent_iter(max_iter=10):
        obs, _, done, cut, _ = env.last()
        env.step(None if done or cut else int(obs["action_mask"].nonzero()[0][0]))


def test_a_game_the_program_lets_go_is_freed():
    """What rulekit works out once for a game is kept on the game, not in a
    cache of its own that would keep every game loaded alive (a tool that
    loads each edit of a file, a fuzzer that loads thousands of variants)."""
    import gc
    import weakref
    game = rulekit.load_game_text(LAST_CARD.read_text(encoding="utf-8"), str(LAST_CARD))
    _uses(game)
    gone = weakref.ref(game)
    del game
    gc.collect()
    assert gone() is None, [type(r).__name__ for r in gc.get_referrers(gone())]
