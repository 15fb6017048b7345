"""Compiled rules can be debugged: the generated functions are named after
their rules, every generated line knows where in the rule file it came
from, ``rulekit show-code`` prints what a rule became, and a rule that
fails while running says which rules were running, outermost first.

Snapshots of the code of a few rules are in tests/snapshots/; after a
change to the compiler, look at the difference and rewrite them with
``UPDATE_SNAPSHOTS=1 python -m pytest tests/test_debuggable_rules.py``.
"""
from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from game_files import ROOT, game_files, game_id, game_path

import rulekit
from rulekit.cli import main
from rulekit.cli.show_code import CodeListing
from rulekit.lang import match_interface, runtime_helpers
from rulekit.lang import names as names_module
from rulekit.lang.fn_names import FunctionNames, identifier

LAST_CARD = ROOT / "docs" / "examples" / "last_card.yaml"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


def functions(game: rulekit.Game) -> list[str]:
    return re.findall(r"^def (\w+)\(", game.code, re.M)


# ---- names --------------------------------------------------------------------------

def test_functions_are_named_after_their_rules():
    names = set(functions(rulekit.load_game(LAST_CARD)))
    assert {"proc_refill", "proc_blocked", "choice_play", "heur_play", "setup", "turn", "first",
            "stat_cards_in_pile"} <= names
    assert not [n for n in names if re.fullmatch(r"[A-Z]+\d+", n)]      # no P17, O0, T0


def test_a_trigger_is_named_after_its_skill_and_index():
    game = rulekit.load_game(game_path("sanguosha"))
    (trigger,) = [t for ts in game.triggers.values() for t in ts if "连营" in t.script.run.__name__]
    index = int(trigger.script.rule.rsplit("#", 1)[1])
    assert trigger.script.run.__name__ == f"trig_连营_{index}"
    assert game.procedures["draw"].run.__name__ == "proc_draw"


@pytest.mark.parametrize("text, piece", [
    ("draw two!", "draw_two"), ("杀", "杀"), ("ＡＢ", "AB"), ("ﬁre", "fire"), ("-", "_"), ("a  b", "a_b")])
def test_a_name_becomes_an_identifier_python_reads_as_written(text, piece):
    assert identifier(text) == piece
    name = f"opt_{piece}"
    assert name.isidentifier()
    namespace: dict = {}
    exec(f"def {name}(): pass", namespace)       # Python keeps (NFKC) names as they are written
    assert name in namespace


def test_names_alike_get_a_suffix_and_a_key_keeps_its_name():
    names = FunctionNames(reserved=("proc_x",))
    assert names.name("option", "c", "a b") == "opt_c_a_b"
    assert names.name("option", "c", "a-b") == "opt_c_a_b_2"
    assert names.name("option", "c", "a b") == "opt_c_a_b"
    assert names.name("procedure", "x") == "proc_x_2"
    assert names.fresh("action", "a") != names.fresh("action", "a")


OPTIONS = """\
name: Options
players: {min: 2, max: 2}
cards:
  - {name: a, count: 4}
zones:
  deck: {}
  hand: {per_player: true}
choices:
  act:
    options:
      - {name: draw_one, effect: "move top(deck, 1) to hand(current)"}
      - {name: more, effect: "choose act_draw"}
  act_draw:
    options:
      - {name: one, effect: "move top(deck, 1) to hand(current)"}
setup: |
  move box to deck
turn:
  phases:
    - name: main
      effect: |
        if size(deck) == 0:
          win for current "empty"
        choose act
"""


def test_rules_whose_names_join_alike_get_distinct_functions_and_the_game_plays():
    # option draw_one of act, option one of act_draw: both opt_act_draw_one as written
    game = rulekit.load_game_text(OPTIONS, "options.yaml")
    assert {"opt_act_draw_one", "opt_act_draw_one_2", "opt_act_more"} <= set(functions(game))
    m = game.new_match(2, seed=1)
    while m.decision is not None:
        m.apply(len(m.decision.options) - 1)
    assert m.result()["reason"] == "empty"


def test_names_are_the_same_on_every_load_whatever_the_string_hashing():
    script = ("import re, rulekit; g = rulekit.load_game(r'%s'); "
              "print(re.findall(r'^def (\\w+)', g.code, re.M))" % game_path("sanguosha"))
    outs = {subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1


# ---- the call chain of a rule that fails ---------------------------------------------

BOOM = """\
name: Boom
players: {{min: 2, max: 2}}
cards:
  - {{name: a, count: 4}}
zones:
  deck: {{}}
  hand: {{per_player: true}}
vars:
  x: 0
procedures:
  outer:
    params: [{outer_params}]
    effect: |
      let y = 1
      call inner(y)
  inner:
    params: [n]
    effect: |
      let z = n
      x = 1 // (size(deck) - size(deck))
triggers:
  - on: drawn
    effect: |
      call outer{outer_args}
setup: |
  move box to deck
turn:
  phases:
    - name: draw
      effect: |
        move top(deck, 1) to hand(current)
        emit drawn
        end turn
"""


def _at(text: str, statement: str) -> str:
    """file:line:col of the statement ``statement`` in ``text``."""
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() == statement:
            return f"boom.yaml:{n}:{len(line) - len(line.lstrip()) + 1}"
    raise AssertionError(statement)


# 'outer' without parameters is written in place of its call; with one, it is called
@pytest.mark.parametrize("outer_params, outer_args", [("", ""), ("k", "(1)")])
def test_a_failing_rule_reports_the_rules_running_outermost_first(outer_params, outer_args):
    text = BOOM.format(outer_params=outer_params, outer_args=outer_args)
    game = rulekit.load_game_text(text, "boom.yaml")
    with pytest.raises(rulekit.RuleRuntimeError) as caught:
        game.new_match(2, seed=1)
    err = caught.value
    assert [(rule, str(where)) for rule, where in err.chain] == [
        ("phase 'draw'", _at(text, "emit drawn")),
        ("trigger on 'drawn' #0", _at(text, f"call outer{outer_args}")),
        ("procedure 'outer'", _at(text, "call inner(y)")),
        ("procedure 'inner'", _at(text, "x = 1 // (size(deck) - size(deck))")),
    ]
    assert err.rule == "procedure 'inner'" and str(err.where) == _at(text, "x = 1 // (size(deck) - size(deck))")
    assert isinstance(err.__cause__, ZeroDivisionError)
    shown = str(err)
    assert shown.index("phase 'draw'") < shown.index("trigger on") < shown.index("procedure 'outer'")


def test_the_command_line_shows_the_chain_and_no_traceback(tmp_path, capsys):
    path = tmp_path / "boom.yaml"
    path.write_text(BOOM.format(outer_params="", outer_args=""), encoding="utf-8")
    assert main(["simulate", str(path), "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "call chain, outermost first" in err and "trigger on 'drawn' #0" in err
    assert "Traceback" not in err and "ZeroDivisionError" not in err


RECURSIVE = """name: Deep
players: {min: 1, max: 1}
cards: [{name: C}]
zones: {deck: {visibility: hidden}}
procedures:
  down:
    params: [n]
    effect: |
      if n > 0:
        call %s(n - 1)
  across:
    params: [n]
    effect: |
      call down(n)
turn:
  phases:
    - name: p
      effect: |
        call down(100000)
        win
"""


def test_a_recursion_too_deep_says_so_and_its_chain_is_shown_short():
    """Python's stack ends a thousand calls deep: the error says so in the
    rule file's terms, and the chain shows a step repeated in a row once
    (with how many times) and of a longer chain its two ends.  The whole
    chain stays on the error, for a program."""
    game = rulekit.load_game_text(RECURSIVE % "down", "deep.yaml")
    with pytest.raises(rulekit.RuleRuntimeError) as caught:
        game.new_match(1)
    err = caught.value
    assert "deeper than Python's stack allows" in err.message and "written as a loop" in err.message
    assert isinstance(err.__cause__, RecursionError)
    shown = str(err).split("\n")
    assert len(shown) == 4 and re.search(r"procedure 'down'  deep\.yaml:10:9  \(\d+ times in a row\)$", shown[3])
    assert len(err.chain) > 100
    game = rulekit.load_game_text(RECURSIVE % "across", "deep.yaml")
    with pytest.raises(rulekit.RuleRuntimeError) as caught:
        game.new_match(1)
    shown = str(caught.value).split("\n")
    assert len(shown) == 2 + 10 + 1 + 10 and re.fullmatch(r" +\.\.\. \d+ more steps \.\.\.", shown[12])
    assert shown[2].strip().startswith("phase 'p'") and shown[3].strip().startswith("procedure 'down'")


# ---- show-code ----------------------------------------------------------------------

def test_show_code_lists_the_rules_and_prints_one_with_its_positions(capsys):
    assert main(["show-code", str(LAST_CARD)]) == 0
    listing = capsys.readouterr().out
    for rule in ("procedure 'blocked'", "phase 'play'", "heuristic 'play'", "choice 'play'"):
        assert rule in listing
    assert main(["show-code", str(LAST_CARD), "refill"]) == 0
    code = capsys.readouterr().out
    assert "def proc_refill(m):" in code
    assert re.search(r"m\.shuffle\(GZ\[\d+\]\) +# .*last_card\.yaml:54:5", code)
    assert "written in place in turn, called at" in code


def test_every_line_of_a_rule_shows_where_it_was_written():
    listing = CodeListing(rulekit.load_game(LAST_CARD), str(LAST_CARD), str(ROOT))
    body = listing.show("blocked").split("def proc_blocked(m):", 1)[1].split("\n\n", 1)[0]
    lines = [line for line in body.splitlines() if line.strip() and not line.strip().startswith("PZ =")]
    assert lines and all("# docs/examples/last_card.yaml:" in line for line in lines)


def test_show_code_takes_a_rules_label_with_or_without_its_quotes(capsys):
    for label in ("procedure 'blocked'", "procedure blocked"):
        assert main(["show-code", str(LAST_CARD), label]) == 0
        assert "def proc_blocked(m):" in capsys.readouterr().out
    assert main(["show-code", str(LAST_CARD), "choice play"]) == 0
    shown = capsys.readouterr().out
    assert "# choice 'play'" in shown and "# phase 'play'" not in shown


def test_show_code_teaches_on_an_unknown_rule(capsys):
    assert main(["show-code", str(LAST_CARD), "blokced"]) == 2
    err = capsys.readouterr().err
    assert "no rule called 'blokced'" in err and "did you mean 'blocked'?" in err


@pytest.mark.parametrize("game, rule", [
    ("docs/examples/last_card.yaml", "blocked"),
    ("docs/examples/last_card.yaml", "play"),
    ("docs/examples/last_card.yaml", "refill"),
    ("games/sanguosha", "连营"),
])
def test_generated_code_matches_its_snapshot(game, rule):
    path = ROOT / game
    shown = CodeListing(rulekit.load_game(path), str(path), str(ROOT)).show(rule) + "\n"
    snapshot = SNAPSHOTS / f"{Path(game).stem}.{rule}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        snapshot.parent.mkdir(exist_ok=True)
        snapshot.write_text(shown, encoding="utf-8")
    assert snapshot.exists(), f"no snapshot {snapshot.name}: run with UPDATE_SNAPSHOTS=1 to write it"
    assert shown == snapshot.read_text(encoding="utf-8"), (
        f"the code of {rule} changed: if that is meant, rerun with UPDATE_SNAPSHOTS=1")


# ---- what generated code may use of a match ------------------------------------------

MATCH_READ = re.compile(r"\bm\.(\w+)")


@pytest.mark.parametrize("path", game_files(), ids=game_id)
def test_generated_code_uses_only_the_declared_interface_of_match(path):
    game = rulekit.load_game(path)
    used = set(MATCH_READ.findall(game.code))
    assert used <= match_interface.members(), f"not in rulekit/lang/match_interface.py: {used - match_interface.members()}"


def test_the_helpers_of_generated_code_use_only_the_interface_and_match_has_all_of_it():
    for module in (runtime_helpers, names_module):
        used = set(MATCH_READ.findall(inspect.getsource(module)))
        assert used <= match_interface.members(), (module.__name__, used - match_interface.members())
    m = rulekit.load_game(LAST_CARD).new_match(2, seed=1)
    assert [name for name in sorted(match_interface.members()) if not hasattr(m, name)] == []
