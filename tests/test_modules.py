"""Rule files as modules (see :mod:`rulekit.modules`): ``include``,
``extends`` and ``override``, the game's tree, clashes, cycles, module
parameters, and errors that point into the module that holds the rule.

Every test writes a small game into ``tmp_path`` and checks what the loaded
game does or which error it reports, at which file, line and column.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import rulekit
from rulekit import Match, StepBudgetExceeded, limits
from rulekit.errors import RuleFileError, RuleRuntimeError

#: a whole small game: two points (one a turn) win it
BASE = """\
name: Base
players: {min: 2, max: 2}
tables:
  deal: {2: 2}
cards:
  - {name: a, count: 6}
zones:
  deck: {}
  hand: {per_player: true}
vars: {score: 0}
procedures:
  bump: |
    score += 1
setup: |
  move box to deck
turn:
  phases:
    - name: draw
      effect: |
        move top(deck, deal[player_count]) to hand(current)
    - name: score
      effect: |
        call bump
        if score >= 2:
          win for players "two points"
"""

#: BASE without the procedure its last phase calls, for a module to give
NO_BUMP = BASE.replace("procedures:\n  bump: |\n    score += 1\n", "")


def write(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``root``; the first one's path."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root / next(iter(files))


def refused(path: Path) -> RuleFileError:
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(path)
    return info.value


def only_error(path: Path):
    errors = refused(path).errors
    assert len(errors) == 1, "\n".join(map(str, errors))
    return errors[0]


def at(path: Path, needle: str) -> tuple[int, int]:
    """1-based line and column of the first ``needle`` in the file."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in {path}")


def position(error) -> tuple[str, int, int]:
    return Path(error.where.file).name, error.where.line, error.where.column


def play(game: rulekit.Game) -> Match:
    m = game.new_match(2, seed=1)
    assert m.decision is None        # these games decide nothing: they end at once
    return m


# ---- include ----------------------------------------------------------------------------------

def test_an_included_file_adds_its_items(tmp_path):
    game = write(tmp_path, {"game.yaml": "include: rules/bump.yaml\n" + NO_BUMP,
                            "rules/bump.yaml": "procedures:\n  bump: 'score += 2'\n"})
    m = play(rulekit.load_game(game))
    assert m.vars["score"] == 2 and m.result()["reason"] == "two points" and m.turn == 1


def test_an_included_folder_is_every_yaml_file_in_it_in_name_order(tmp_path):
    game = write(tmp_path, {"game.yaml": "include: [parts]\n" + NO_BUMP,
                            "parts/b.yaml": "vars: {second: 2}\n",
                            "parts/a.yaml": "vars: {first: 1}\nprocedures:\n  bump: 'score += 1'\n",
                            "parts/notes.txt": "not: a rule file\n"})
    loaded = rulekit.load_game(game)
    assert list(loaded.vars) == ["first", "second", "score"]   # the folder's files, then the game's own


def test_an_included_folder_with_game_yaml_means_that_file(tmp_path):
    game = write(tmp_path, {"main.yaml": "include: [sub]\n" + NO_BUMP,
                            "sub/game.yaml": "procedures:\n  bump: 'score += 1'\n",
                            "sub/other.yaml": "vars: {never: 0}\n"})
    assert "never" not in rulekit.load_game(game).vars


def test_an_included_folder_without_yaml_files_is_an_error(tmp_path):
    game = write(tmp_path, {"game.yaml": "include: [empty]\n" + BASE, "empty/readme.txt": "nothing\n"})
    error = only_error(game)
    assert position(error) == ("game.yaml", *at(game, "empty"))
    assert "the folder 'empty' holds no .yaml file" in error.message


def test_a_folder_game_reads_its_game_yaml_and_its_tree_is_the_folders_parent(tmp_path):
    write(tmp_path, {"games/mine/game.yaml": "include: ../modules/bump.yaml\n" + NO_BUMP,
                     "games/modules/bump.yaml": "module: scoring\nprocedures:\n  bump: 'score += 2'\n"})
    game = rulekit.load_game(tmp_path / "games" / "mine")
    assert game.name == "Base" and play(game).vars["score"] == 2
    # one level further up is outside the tree (games/)
    write(tmp_path, {"games/mine/game.yaml": "include: ../../bump.yaml\n" + NO_BUMP, "bump.yaml": ""})
    error = only_error(tmp_path / "games" / "mine")
    assert "'../../bump.yaml' is outside the game's tree" in error.message
    assert position(error) == ("game.yaml", 1, 10)


def test_a_game_given_as_text_finds_its_modules_relative_to_its_file_name(tmp_path):
    write(tmp_path, {"rules/bump.yaml": "procedures:\n  bump: 'score += 2'\n"})
    game = rulekit.load_game_text("include: rules/bump.yaml\n" + NO_BUMP, str(tmp_path / "g.yaml"))
    assert play(game).vars["score"] == 2


# ---- extends and override ---------------------------------------------------------------------

VARIANT = """\
extends: base.yaml
name: Variant
override:
  tables:
    deal: {2: 1}
  procedures:
    bump: |
      score += 2
  turn:
    phases:
      - name: score
        effect: |
          call bump
          if score >= 4:
            win for players "four points"
  setup: |
    move box to deck
    shuffle deck
  cards:
    - {name: b, count: 5}
"""


def test_extends_and_override_replace_a_table_a_procedure_a_phase_the_setup_and_the_cards(tmp_path):
    write(tmp_path, {"base.yaml": BASE, "variant.yaml": VARIANT})
    base = play(rulekit.load_game(tmp_path / "base.yaml"))
    assert (base.vars["score"], base.result()["reason"], base.turn) == (2, "two points", 2)
    assert [len(base.zone("hand", p).cards) for p in (0, 1)] == [2, 2]

    game = rulekit.load_game(tmp_path / "variant.yaml")
    assert game.name == "Variant" and game.tables["deal"] == {2: 1}
    assert [p.name for p in game.phases] == ["draw", "score"]        # replaced in its place
    assert {c.name for c in game.cards} == {"b"} and len(game.cards) == 5
    m = play(game)
    assert (m.vars["score"], m.result()["reason"], m.turn) == (4, "four points", 2)
    assert [len(m.zone("hand", p).cards) for p in (0, 1)] == [1, 1]
    assert '"event":"shuffle"' in m.log_json()
    # positions: the replaced items point into the variant, the rest into the base
    assert game.rule_where("procedure 'bump'").file.endswith("variant.yaml")
    assert game.phases[1].where.file.endswith("variant.yaml")
    assert game.phases[0].where.file.endswith("base.yaml")


def test_a_base_extended_is_unchanged_when_loaded_again(tmp_path):
    write(tmp_path, {"base.yaml": BASE, "variant.yaml": VARIANT})
    rulekit.load_game(tmp_path / "variant.yaml")
    assert rulekit.load_game(tmp_path / "base.yaml").tables["deal"] == {2: 2}


@pytest.mark.parametrize("override, needle, message, hint", [
    ("procedures:\n    bumpp: 'score += 2'", "bumpp", "there is no procedure 'bumpp' to override",
     "did you mean 'bump'?"),
    ("tables:\n    dael: {2: 1}", "dael", "there is no table 'dael' to override", "did you mean 'deal'?"),
    ("vars:\n    level: 3", "level", "there is no variable 'level' to override",
     "to add a new variable, write it under 'vars:' instead"),
    ("turn:\n    phases:\n      - {name: scor, effect: win}", "{name", "there is no phase 'scor' to override",
     "did you mean 'score'?"),
    ("setpu: 'move box to deck'", "setpu", "no 'setpu' to override", "did you mean 'setup'?"),
])
def test_overriding_what_does_not_exist_is_an_error_with_a_suggestion(tmp_path, override, needle, message,
                                                                      hint):
    write(tmp_path, {"base.yaml": BASE, "v.yaml": f"extends: base.yaml\noverride:\n  {override}\n"})
    error = only_error(tmp_path / "v.yaml")
    assert position(error) == ("v.yaml", *at(tmp_path / "v.yaml", needle))
    assert error.message == message and error.hint == hint


@pytest.mark.parametrize("variant, needle, message", [
    ("override: 3\n", "3", "'override' holds the sections whose items it replaces"),
    ("override:\n  include: [x.yaml]\n", "include", "'include' cannot be overridden"),
    ("override:\n  triggers: []\n", "triggers", "no triggers to override"),
    ("override:\n  turn:\n    ends: 3\n", "ends: 3", "no 'turn: ends' to override"),
    ("override:\n  turn:\n    phases:\n      - {effect: win}\n", "{effect",
     "an overriding phase names the phase it replaces: {name: ..., effect: ...}"),
    ("include: 3\n", "3", "'include' names a file by its relative path"),
    ("include: notes.txt\n", "notes.txt", "'notes.txt' is not a rule file"),
])
def test_a_variant_written_wrong_is_told_where_and_what(tmp_path, variant, needle, message):
    """What a variant's module keys may hold: each mistake is one error, at
    its place in the variant, saying what the key is for."""
    write(tmp_path, {"base.yaml": BASE, "v.yaml": "extends: base.yaml\n" + variant, "notes.txt": "notes\n"})
    error = only_error(tmp_path / "v.yaml")
    assert error.message == message, str(error)
    assert position(error) == ("v.yaml", *at(tmp_path / "v.yaml", needle))


@pytest.mark.parametrize("head, needle, message", [
    ("module: the bump\nparams: [size]\n", "[size]", "'params' declares the module's parameters by name"),
    ("module: 3\n", "3", "'module' holds a text: what this module is for"),
])
def test_a_module_head_written_wrong_is_told_in_the_module(tmp_path, head, needle, message):
    write(tmp_path, {"base.yaml": NO_BUMP + "include: [bump.yaml]\n",
                     "bump.yaml": head + "procedures:\n  bump: 'score += 1'\n"})
    error = only_error(tmp_path / "base.yaml")
    assert error.message == message, str(error)
    assert position(error) == ("bump.yaml", *at(tmp_path / "bump.yaml", needle))


def test_an_error_in_an_overriding_rule_points_into_the_variant(tmp_path):
    write(tmp_path, {"base.yaml": BASE, "v.yaml": VARIANT.replace("score += 2", "score += bonus")})
    error = only_error(tmp_path / "v.yaml")
    assert position(error) == ("v.yaml", *at(tmp_path / "v.yaml", "bonus"))
    assert error.message == "unknown name 'bonus'" and error.source == "      score += bonus"


def test_a_clash_is_reported_at_the_second_definition_naming_the_first(tmp_path):
    write(tmp_path, {"base.yaml": BASE, "extra.yaml": "vars: {level: 1}\nprocedures:\n  bump: 'score += 3'\n",
                     "v.yaml": "extends: base.yaml\ninclude: extra.yaml\n"})
    error = only_error(tmp_path / "v.yaml")
    line, col = at(tmp_path / "base.yaml", "bump:")
    assert position(error) == ("extra.yaml", *at(tmp_path / "extra.yaml", "bump"))
    assert error.message == f"procedure 'bump' is defined twice: first at {tmp_path / 'base.yaml'}:{line}:{col}"
    assert "put this one under 'override:'" in error.hint
    assert error.source == "  bump: 'score += 3'"                 # the module's own line is shown
    assert "extra.yaml:3:3: error: procedure 'bump' is defined twice" in str(refused(tmp_path / "v.yaml"))


def test_a_phase_or_a_single_value_given_twice_clashes(tmp_path):
    write(tmp_path, {"base.yaml": BASE,
                     "v.yaml": "extends: base.yaml\nsetup: 'move box to deck'\n"
                               "turn:\n  phases:\n    - {name: draw, effect: win}\n"})
    errors = refused(tmp_path / "v.yaml").errors
    assert [(position(e), e.message.split(":")[0]) for e in errors] == [
        (("v.yaml", 2, 1), "'setup' is defined twice"),
        (("v.yaml", *at(tmp_path / "v.yaml", "{name")), "phase 'draw' is defined twice")]
    assert all(str(tmp_path / "base.yaml") in e.message for e in errors)


def test_files_that_include_each_other_are_refused_with_the_chain(tmp_path):
    write(tmp_path, {"a.yaml": "include: b.yaml\n" + BASE, "b.yaml": "include: [c.yaml]\n",
                     "c.yaml": "include: [a.yaml]\n"})
    error = only_error(tmp_path / "a.yaml")
    assert position(error) == ("c.yaml", 1, 11)
    assert error.message == "the files include each other in a cycle: a.yaml → b.yaml → c.yaml → a.yaml"


def test_a_file_that_extends_itself_is_a_cycle(tmp_path):
    write(tmp_path, {"a.yaml": "extends: a.yaml\n" + BASE})
    assert only_error(tmp_path / "a.yaml").message.endswith("a cycle: a.yaml → a.yaml")


def test_a_module_reached_twice_is_read_once(tmp_path):
    write(tmp_path, {"game.yaml": "include: [left.yaml, right.yaml]\n" + NO_BUMP,
                     "left.yaml": "include: shared.yaml\nprocedures:\n  bump: call add(1)\n",
                     "right.yaml": "include: shared.yaml\nvars: {other: 0}\n",
                     "shared.yaml": "procedures:\n  add:\n    params: [n]\n    effect: score += n\n"})
    game = rulekit.load_game(tmp_path / "game.yaml")
    assert set(game.procedures) == {"add", "bump"}
    assert play(game).vars["score"] == 2


# ---- paths ------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, message", [
    ("/etc/passwd", "'/etc/passwd' is not a relative path written with '/'"),
    ("~/rules.yaml", "'~/rules.yaml' is not a relative path written with '/'"),
    ("rules\\\\bump.yaml", "'rules\\bump.yaml' is not a relative path written with '/'"),
    ("C:/rules.yaml", "'C:/rules.yaml' is not a relative path written with '/'"),
    ("../outside.yaml", "'../outside.yaml' is outside the game's tree"),
    ("rules/../../outside.yaml", "'rules/../../outside.yaml' is outside the game's tree"),
])
def test_paths_that_leave_the_tree_or_are_not_relative_are_refused(tmp_path, path, message):
    write(tmp_path, {"g/main.yaml": f'include: "{path}"\n' + NO_BUMP, "outside.yaml": "vars: {x: 0}\n",
                     "g/rules/bump.yaml": "procedures:\n  bump: 'score += 1'\n"})
    error = only_error(tmp_path / "g" / "main.yaml")       # the tree is g/, the folder of the game
    assert position(error) == ("main.yaml", 1, 10)
    assert error.message.startswith(message)


@pytest.mark.parametrize("include, shown", [("link.yaml", "link.yaml"), ("parts", "parts/link.yaml"),
                                             ("box", "box/game.yaml")])
def test_a_link_that_leads_out_of_the_tree_is_refused(tmp_path, include, shown):
    write(tmp_path, {"g/main.yaml": f"include: {include}\n" + BASE, "secret.yaml": "vars: {secret: 1}\n",
                     "g/parts/fine.yaml": "vars: {fine: 1}\n", "g/box/readme.txt": ""})
    for link in ("g/link.yaml", "g/parts/link.yaml", "g/box/game.yaml"):
        try:
            (tmp_path / link).symlink_to(tmp_path / "secret.yaml")
        except OSError:                      # pragma: no cover - a system without links
            pytest.skip("no symbolic links here")
    error = only_error(tmp_path / "g" / "main.yaml")
    assert position(error) == ("main.yaml", 1, 10)
    assert error.message.startswith(f"'{shown}' is outside the game's tree")


def test_a_missing_file_is_an_error_with_a_suggestion(tmp_path):
    write(tmp_path, {"game.yaml": "include: [rules/bmp.yaml]\n" + NO_BUMP,
                     "rules/bump.yaml": "procedures:\n  bump: 'score += 1'\n"})
    error = only_error(tmp_path / "game.yaml")
    assert position(error) == ("game.yaml", 1, 11)
    assert error.message == "no file 'rules/bmp.yaml'" and error.hint == "did you mean 'bump.yaml'?"


# ---- errors inside a module ---------------------------------------------------------------------

MODULE_WITH_ERRORS = """\
module: broken things
procedures:
  bump: |
    score += (1
  other: |
    scor += 1
zones:
  pile: {visibility: sideways}
"""


def test_errors_in_a_module_point_into_it_with_its_source_line(tmp_path):
    write(tmp_path, {"game.yaml": "include: rules/m.yaml\n" + NO_BUMP, "rules/m.yaml": MODULE_WITH_ERRORS})
    err = refused(tmp_path / "game.yaml")
    module = tmp_path / "rules" / "m.yaml"
    got = [(position(e), e.message, e.source) for e in err.errors]
    assert got == [
        (("m.yaml", 4, 15), "syntax error in effect text: unexpected end of text", "    score += (1"),
        (("m.yaml", *at(module, "scor +")), "cannot assign to unknown variable 'scor'", "    scor += 1"),
        (("m.yaml", *at(module, "sideways")), "'visibility' in zone 'pile': 'sideways' is not allowed",
         "  pile: {visibility: sideways}")]
    assert err.errors[1].hint == "did you mean 'score'?"
    shown = str(err)
    assert f"{module}:6:5: error: cannot assign" in shown and "    6 |     scor += 1\n" in shown


def test_a_module_broken_as_yaml_is_reported_in_it(tmp_path):
    write(tmp_path, {"game.yaml": "include: m.yaml\n" + BASE, "m.yaml": "vars: {x: 1\n"})
    error = refused(tmp_path / "game.yaml").errors[0]
    assert Path(error.where.file).name == "m.yaml" and error.where.line >= 1


def test_a_rule_that_fails_while_running_names_its_module(tmp_path):
    write(tmp_path, {"game.yaml": "include: rules/m.yaml\n" + NO_BUMP,
                     "rules/m.yaml": "procedures:\n  bump: |\n    let t = \"x\"\n    score += t\n"})
    game = rulekit.load_game(tmp_path / "game.yaml")
    with pytest.raises(RuleRuntimeError) as info:
        game.new_match(2, seed=1)
    assert position(info.value) == ("m.yaml", 4, 5) and info.value.rule == "procedure 'bump'"
    assert str(info.value).startswith(f"{tmp_path / 'rules' / 'm.yaml'}:4:5: the rule failed")


def test_a_rule_of_a_module_that_never_ends_names_its_module(tmp_path):
    write(tmp_path, {"game.yaml": "include: rules/m.yaml\n" + NO_BUMP,
                     "rules/m.yaml": "procedures:\n  bump: |\n    while true:\n      score += 1\n"})
    game = rulekit.load_game(tmp_path / "game.yaml")
    with pytest.raises(StepBudgetExceeded) as info:
        Match(game, 2, 1, step_budget=500)
    assert info.value.rule == "procedure 'bump'"
    assert (Path(info.value.where.file).name, info.value.where.line) == ("m.yaml", 2)   # bump: |


# ---- module parameters ------------------------------------------------------------------------

COMBAT = """\
module: hitting
params:
  attack: {doc: the card kind that hits}
  health: {doc: the player variable of life, kind: name, default: hp}
player_vars:
  health: 3
procedures:
  hit:
    params: [p, card]
    effect: |
      if card.kind == attack:
        p.health -= 1
"""

DUEL = """\
name: Duel
players: {min: 2, max: 2}
include: [{file: mods/combat.yaml, with: WITH}]
cards:
  - {name: Strike, count: 4, props: {kind: strike}}
  - {name: Block, count: 4, props: {kind: block}}
zones:
  deck: {}
setup: |
  move box where it.kind == "strike" to deck
turn:
  phases:
    - name: main
      effect: |
        call hit(next(current), top(deck))
        move top(deck, 1) to box
        if size(deck) == 0:
          win for [current] "last strike"
"""


def duel(tmp_path: Path, given: str, game: str = DUEL) -> Path:
    return write(tmp_path, {"g.yaml": game.replace("WITH", given), "mods/combat.yaml": COMBAT})


def test_module_parameters_give_a_value_and_rename_a_player_variable(tmp_path):
    game = rulekit.load_game(duel(tmp_path, "{attack: strike, health: 内力}"))
    assert game.player_vars == {"内力": 3}
    m = play(game)
    assert [m.pvars[p]["内力"] for p in (0, 1)] == [1, 1]      # four strikes, two each


def test_a_value_parameter_changes_what_the_module_does(tmp_path):
    m = play(rulekit.load_game(duel(tmp_path, "{attack: block}")))
    assert [m.pvars[p]["hp"] for p in (0, 1)] == [3, 3]        # the default name; strikes do not hit now


def test_a_name_parameter_reaches_a_variable_the_game_declares(tmp_path):
    mine = DUEL.replace("zones:", "player_vars: {life: 5}\nzones:")
    module = COMBAT.replace("player_vars:\n  health: 3\n", "")
    write(tmp_path, {"g.yaml": mine.replace("WITH", "{attack: strike, health: life}"),
                     "mods/combat.yaml": module})
    m = play(rulekit.load_game(tmp_path / "g.yaml"))
    assert [m.pvars[p]["life"] for p in (0, 1)] == [3, 3]


def test_a_required_parameter_left_out_is_an_error_at_the_include(tmp_path):
    error = only_error(duel(tmp_path, "{health: 内力}"))
    assert position(error) == ("g.yaml", 3, 11)
    assert error.message.endswith("combat.yaml' needs a value for its parameter 'attack' (the card kind that hits)")
    assert error.expected == "with: {attack: ...}"


def test_an_unknown_parameter_is_an_error_with_a_suggestion(tmp_path):
    path = duel(tmp_path, "{attack: strike, healt: 内力}")
    error = only_error(path)
    assert position(error) == ("g.yaml", *at(path, "healt"))
    assert error.message.endswith("combat.yaml' has no parameter 'healt'")
    assert error.hint == "did you mean 'health'?"


STEP = "params:\n  step: {doc: points a turn, default: 1}\nprocedures:\n  bump: score += step\n"


def test_a_parameter_with_a_default_may_be_left_out(tmp_path):
    write(tmp_path, {"g.yaml": "include: [m.yaml]\n" + NO_BUMP, "m.yaml": STEP,
                     "h.yaml": "include: [{file: m.yaml, with: {step: 2}}]\n" + NO_BUMP})
    assert play(rulekit.load_game(tmp_path / "g.yaml")).turn == 2
    assert play(rulekit.load_game(tmp_path / "h.yaml")).turn == 1


def test_a_misspelt_key_of_an_include_entry_is_an_error_with_a_suggestion(tmp_path):
    path = write(tmp_path, {"g.yaml": "include: [{file: m.yaml, wiht: {step: 2}}]\n" + NO_BUMP, "m.yaml": STEP})
    error = only_error(path)
    assert position(error) == ("g.yaml", *at(path, "wiht"))
    assert error.message == "'wiht' is not a key of an 'include' entry" and error.hint == "did you mean 'with'?"


@pytest.mark.parametrize("given, message", [
    ("{attack: strike, health: 'not a name'}", "parameter 'health' is a name, not 'not a name'"),
    ("{attack: {a: strike}}", "parameter 'attack' is a text, a number or a list of them, not {'a': 'strike'}"),
    ("{attack: [[strike]]}", "parameter 'attack' is a text, a number or a list of them, not [['strike']]"),
])
def test_a_parameter_of_the_wrong_kind_is_an_error(tmp_path, given, message):
    assert only_error(duel(tmp_path, given)).message == message


def test_a_module_included_twice_with_other_parameters_is_an_error(tmp_path):
    twice = DUEL.replace("include: [{file: mods/combat.yaml, with: WITH}]",
                         "include: [{file: mods/combat.yaml, with: {attack: strike}},\n"
                         "          {file: mods/combat.yaml, with: {attack: block}}]")
    path = duel(tmp_path, "", twice)
    error = only_error(path)
    assert position(error) == ("g.yaml", *at(path, "with: {attack: block}"))
    assert error.message == "'mods/combat.yaml' is already included with other parameters"


SKILL_MODULE = """\
params:
  scored: {doc: the event of a point, kind: name, default: scored}
  ask: {doc: the choice the skill answers, kind: name}
triggers:
  - {on: scored, effect: heard += 1}
skills:
  ear:
    text: Hears every point.
    options:
      ask: {effect: call gain(1)}
    triggers:
      - {on: scored, effect: heard += 10}
    procedures:
      gain:
        params: [n]
        effect: score += n
"""

EAR_GAME = """\
name: Ears
players: {min: 2, max: 2}
include: [{file: m.yaml, with: {scored: pointed, ask: act}}]
cards: [{name: c, count: 4}]
zones: {deck: {}}
vars: {score: 0, heard: 0}
setup: move box to deck
choices:
  act:
    options: [{name: pass}]
turn:
  phases:
    - name: main
      effect: |
        choose act
        emit pointed()
        if score >= 2:
          win for players "done"
"""


def test_the_names_a_skill_of_a_module_writes_are_its_parameters_too(tmp_path):
    write(tmp_path, {"g.yaml": EAR_GAME, "m.yaml": SKILL_MODULE})
    game = rulekit.load_game(tmp_path / "g.yaml")
    assert game.skills["ear"].options == (("act", "ear"),) and game.skills["ear"].procedures == ("gain",)
    m = game.new_match(2, seed=0)
    for _ in range(2):
        m.apply(next(a for a in m.legal_actions() if a.option == "ear"))
    assert (m.vars["score"], m.vars["heard"], m.result()["reason"]) == (2, 22, "done")


def test_binding_copies_only_the_way_to_a_parameter():
    """The parser's trees are shared (remembered by text): binding leaves
    the original as it was and shares every part that names no parameter."""
    from rulekit.lang.bindings import Bindings, bind, named_in
    from rulekit.lang.parser import parse_effect

    text = "if card.kind == attack:\n  p.health -= 1\nelse:\n  score += 1\n"
    tree = parse_effect(text)
    shown = tree.pretty()
    bindings = Bindings({"health": "life"}, {"attack": "strike"})
    bound = bind(tree, bindings)
    assert tree.pretty() == shown and bound is not tree
    assert '"strike"' in bound.pretty() and "life" in bound.pretty()
    if_stmt, bound_if = tree.children[0], bound.children[0]
    assert bound_if.children[-1] is if_stmt.children[-1]        # the else branch names none: shared
    assert named_in(text, bindings) and not named_in("score += 1", bindings)


WEAPON_MODULE = """\
module: a weapon's ability, for any game that has the weapon
params:
  sword: {doc: the weapon that scores two}
skills:
  sword:
    text: {table: card_text}
    kind: equipment
    options:
      act:
        when: any(hand(current) where it.kind == sword)
        effect: |
          score += 2
          log sword + " scores two"
"""

WEAPON_GAME = """\
name: Blades
players: {min: 2, max: 2}
include: [{file: m.yaml, with: {sword: 倚天剑}}]
cards: [{name: 倚天剑, count: 2, props: {kind: 倚天剑}}]
zones: {deck: {}, hand: {per_player: true}}
vars: {score: 0}
tables:
  card_text: {倚天剑: 锁定技，你的【杀】无视目标角色的防具。}
setup: move box to deck
choices:
  act:
    options: [{name: pass}]
turn:
  phases:
    - name: main
      effect: |
        move top(deck, 1) to hand(current)
        choose act
        if score >= 2:
          win for players "done"
"""


def test_a_skill_under_a_value_parameter_is_named_and_described_by_the_game(tmp_path):
    """A skill is named by a text in effect text, so a module declares it
    under a value parameter: the game's name for it names the skill, its
    option and its note, and the game's table gives its words."""
    write(tmp_path, {"g.yaml": WEAPON_GAME, "m.yaml": WEAPON_MODULE})
    game = rulekit.load_game(tmp_path / "g.yaml")
    assert list(game.skills) == ["倚天剑"] and game.skills["倚天剑"].options == (("act", "倚天剑"),)
    assert game.skills["倚天剑"].text == "锁定技，你的【杀】无视目标角色的防具。"
    m = game.new_match(2, seed=0)
    m.apply(next(a for a in m.legal_actions() if a.option == "倚天剑"))
    assert m.result()["reason"] == "done"
    assert [e["text"] for e in m.events() if e["event"] == "note"] == ["倚天剑 scores two"]


@pytest.mark.parametrize("tables, message, hint", [
    ("tables:\n  card_texts: {倚天剑: x}\n", "skill '倚天剑' takes its text from table 'card_text', "
     "which the game does not have", "did you mean 'card_texts'?"),
    ("tables:\n  card_text: {青釭剑: x}\n", "table 'card_text' has no text for skill '倚天剑'", ""),
])
def test_a_skill_text_from_a_table_the_game_lacks_is_an_error_in_the_module(tmp_path, tables, message, hint):
    game = WEAPON_GAME.replace("tables:\n  card_text: {倚天剑: 锁定技，你的【杀】无视目标角色的防具。}\n", tables)
    path = write(tmp_path, {"g.yaml": game, "m.yaml": WEAPON_MODULE})
    error = only_error(path)
    assert position(error) == ("m.yaml", *at(tmp_path / "m.yaml", "card_text"))
    assert error.message == message and hint in error.hint


# ---- limits -----------------------------------------------------------------------------------

def test_a_game_reading_more_than_max_modules_files_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_MODULES", 4)
    files = {"game.yaml": "include: [many]\n" + BASE}
    files.update({f"many/m{i}.yaml": f"vars: {{v{i}: 0}}\n" for i in range(6)})
    write(tmp_path, files)
    error = only_error(tmp_path / "game.yaml")
    assert position(error) == ("game.yaml", 1, 11)
    assert error.message == "the game reads more than 4 files (MAX_MODULES)"
    monkeypatch.setattr(limits, "MAX_MODULES", 7)
    assert len(rulekit.load_game(tmp_path / "game.yaml").vars) == 7


def test_a_list_parameter_reaches_the_parts_of_a_module(tmp_path):
    """A module's entry file declares its parameters once; the files it
    includes use them too, and a parameter may stand for a list."""
    (tmp_path / "mod").mkdir()
    (tmp_path / "mod.yaml").write_text(
        "module: entry\nparams:\n  good: {doc: the kinds that score}\ninclude: [mod/part.yaml]\n",
        encoding="utf-8")
    (tmp_path / "mod" / "part.yaml").write_text(
        "procedures:\n  scores:\n    params: [c]\n    effect: return c.kind in good\n", encoding="utf-8")
    (tmp_path / "g.yaml").write_text("""\
name: G
players: {min: 1, max: 1}
include: [{file: mod.yaml, with: {good: [gem, coin]}}]
cards:
  - {name: gem, props: {kind: gem}}
  - {name: coin, props: {kind: coin}}
  - {name: rock, props: {kind: rock}}
zones: {deck: {}}
vars: {n: 0}
setup: |
  move box to deck
  for c in deck:
    if scores(c):
      n += 1
turn:
  phases:
    - {name: main, effect: "win for players \\"done\\""}
stats: {n: n}
""", encoding="utf-8")
    game = rulekit.load_game(tmp_path / "g.yaml")
    m = game.new_match(1, seed=1)
    assert m.is_over() and m.view(None)["vars"]["n"] == 2


def test_a_module_loaded_as_a_game_says_to_load_a_game_that_includes_it(tmp_path):
    (tmp_path / "m.yaml").write_text("module: shared rules\nvars: {x: 1}\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(tmp_path / "m.yaml")
    (error,) = info.value.errors
    assert "is a module, not a game" in error.message and (error.where.line, error.where.column) == (1, 1)
    assert "validate or load that game" in error.hint


def test_a_path_the_file_system_refuses_is_an_error_at_its_place(tmp_path):
    """A name longer than the file system allows (or a loop of links) is an
    error at the include, never an OSError."""
    (tmp_path / "g.yaml").write_text(f'name: G\ninclude: ["{"a" * 5000}.yaml"]\n', encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(tmp_path / "g.yaml")
    (error,) = info.value.errors
    assert error.message.startswith("cannot use the path 'aaa") and (error.where.line, error.where.column) == (2, 11)
    assert len(str(info.value).split("\n")[1]) < 200        # the source line is shown cut


def test_two_modules_side_by_side_cannot_override_one_item(tmp_path):
    """Two included files that override the same hook would silently undo
    each other (two skills changing one rule): an error naming both; a file
    that includes the first may override it again."""
    (tmp_path / "base.yaml").write_text("procedures:\n  bonus:\n    params: [p]\n    effect: return 0\n",
                                        encoding="utf-8")
    for name, value in (("a", 1), ("b", 2)):
        (tmp_path / f"{name}.yaml").write_text(
            f"override:\n  procedures:\n    bonus:\n      params: [p]\n      effect: return {value}\n",
            encoding="utf-8")
    game = ("name: G\nplayers: {min: 1, max: 1}\ncards: [{name: c}]\nzones: {deck: {}}\n"
            "turn: {phases: [{name: main, effect: 'win for players \"x\"'}]}\n")
    (tmp_path / "g.yaml").write_text("include: [base.yaml, a.yaml, b.yaml]\n" + game, encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(tmp_path / "g.yaml")
    (error,) = info.value.errors
    assert error.where.file.endswith("b.yaml") and "overridden twice" in error.message
    assert "a.yaml:3:5" in error.message
    (tmp_path / "c.yaml").write_text("include: [a.yaml]\n" + (tmp_path / "b.yaml").read_text(), encoding="utf-8")
    (tmp_path / "g2.yaml").write_text("include: [base.yaml, c.yaml]\n" + game, encoding="utf-8")
    assert rulekit.load_game(tmp_path / "g2.yaml")


# ---- a names entry made of a module's parameters -------------------------------------------

TEAMS = """\
module: teams
params:
  home: {doc: the first team}
  away: {doc: the second team}
names:
  team: {params: [home, away]}
player_vars:
  side: {initial: "", one_of: team}
"""


def test_a_module_names_entry_holds_the_values_the_game_gave_its_parameters(tmp_path):
    path = write(tmp_path, {"g.yaml": "include: [{file: m.yaml, with: {home: red, away: blue}}]\n" + BASE,
                            "m.yaml": TEAMS})
    game = rulekit.load_game(path)
    assert game.var_sets[("player_vars", "side")] == ("red", "blue")


def test_a_names_entry_naming_no_parameter_of_its_module_is_an_error(tmp_path):
    path = write(tmp_path, {"g.yaml": "include: [{file: m.yaml, with: {home: red, away: blue}}]\n" + BASE,
                            "m.yaml": TEAMS.replace("[home, away]", "[home, awya]")})
    error = only_error(path)
    assert position(error) == ("m.yaml", *at(path.parent / "m.yaml", "awya"))
    assert "'awya' is not a parameter" in error.message and "away" in error.hint
