"""Broken rule files are reported well.

Every file in ``tests/broken/`` except ``valid_base.yaml`` is that small,
valid game with one defect, or with several (``several_*``: defects in
several stages at once, all reported in one run); its header comment says
which.  For each file
this checks the exact ``file:line:column: error: message`` lines the loader
reports, that the position points at the defect itself (``at``: the text
found at that line and column), and that an ``expected:`` or ``hint:`` line
helps where one is useful.

Positions were checked by reading each file.  A case marked ``xfail`` is a
loader bug or an unhelpful message: the test states what *should* be
reported, and its reason says what is reported today.
"""
from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

import rulekit

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "tests" / "broken"
REL = "tests/broken"


class Case(NamedTuple):
    name: str
    #: every error, in order: "LINE:COL: error: MESSAGE" (a str is matched
    #: exactly, a compiled pattern with fullmatch)
    errors: list
    #: the text found at the first error's line and column (the defect itself)
    at: str
    expected: str = ""   # a substring of the first error's "expected:" line
    hint: str = ""       # a substring of the first error's "hint:" line
    xfail: str = ""      # why the loader does not report this yet
    #: with xfail: only the position is wrong; message, expected and hint are right
    position_only: bool = False


UNKNOWN_NAME_EXPECTED = ("a variable, table, zone, choice, a name bound by let/for, "
                         "or one of: current, player_count, players")

CASES = [
    # ---- YAML level ------------------------------------------------------------
    Case("yaml_tab_indent",
         ["16:1: error: invalid YAML: found character '\\t' that cannot start any token "
          "(while scanning for the next token)"],
         at="\tdiscard", hint="indent with spaces, not tabs"),
    Case("yaml_bad_indent",
         ["16:4: error: invalid YAML: expected <block end>, but found '<block mapping start>' "
          "(while parsing a block mapping at line 15, column 3)"],
         at="discard:", hint="check the indentation"),
    Case("alias_bomb",
         ["7:8: error: anchors and aliases are not allowed in rule files (anchor '&a')",
          "8:9: error: anchors and aliases are not allowed in rule files (anchor '&b')",
          "8:13: error: anchors and aliases are not allowed in rule files (alias '*a')",
          "9:10: error: anchors and aliases are not allowed in rule files (alias '*b')"],
         at="&a [", hint="write the repeated value out in full"),
    Case("python_tag",
         ["4:14: error: the tag '!!python/object/apply:os.system' is not allowed in rule files"],
         at="!!python/object/apply:os.system",
         expected="no tag, or one of !!str", hint="remove the tag"),
    Case("duplicate_key",
         ["17:3: error: duplicate key 'deck'"],
         at="deck: {visibility: public}", hint="already defined at line 15"),
    # ---- structure (JSON Schema) -----------------------------------------------
    Case("missing_turn",
         ["3:1: error: missing required key 'turn' in the top level"],
         at="name: Tiny", hint="add e.g. 'turn: {first: 0, phases: [{name: play, effect: choose play}]}'"),
    Case("unknown_top_key",
         ["19:1: error: unknown key 'choises' in the top level"],
         at="choises:", expected="choices", hint="did you mean 'choices'?"),
    Case("players_max_string",
         ["3:24: error: 'max' in 'players': expected an integer, got a string ('three')"],
         at='"three"', expected="an integer"),
    Case("bad_visibility",
         ["14:22: error: 'visibility' in zone 'deck': 'hiden' is not allowed"],
         at="hiden}", expected="one of: public, hidden, owner, top", hint="did you mean 'hidden'?"),
    Case("cards_range_form",
         ["25:16: error: 'cards' in option 1 of choice 'play': '1-2' is not a range"],
         at="1-2", expected="a range like '2..4'", hint="or a range like '2..4'"),
    Case("players_min_gt_max",
         ["3:24: error: 'players': max (2) is smaller than min (3)"],
         at="2}", expected="max of at least 3", hint="swap the two numbers"),
    # ---- effect text: syntax ---------------------------------------------------
    Case("effect_if_missing_colon",
         ["42:22: error: syntax error in effect text: unexpected end of line"],
         at="", expected="':'", hint="a block statement ends with ':'"),
    Case("effect_single_equals",
         ["39:24: error: syntax error in effect text: unexpected '='"],
         at='= "card":', hint="compare with '=='"),
    Case("effect_unbalanced_paren",
         ["43:35: error: syntax error in effect text: unexpected ':'"],
         at=":", expected="')'"),
    Case("effect_unclosed_paren_multiline",
         ["40:23: error: syntax error in effect text: '(' is never closed"],
         at="(play.cards.value"),
    # ---- effect text: names ----------------------------------------------------
    Case("unknown_zone",
         ["41:30: error: unknown name 'discrad'"],
         at="discrad", expected=UNKNOWN_NAME_EXPECTED, hint="did you mean 'discard'?"),
    Case("unknown_var_assigned",
         ["40:11: error: cannot assign to unknown variable 'scroe'"],
         at="scroe +=", expected="a variable declared under vars", hint="did you mean 'score'?"),
    Case("unknown_var_read",
         ["42:12: error: unknown name 'scroe'"],
         at="scroe >= 3", expected=UNKNOWN_NAME_EXPECTED, hint="did you mean 'score'?"),
    Case("unknown_choice",
         ["38:16: error: unknown choice 'plya'"],
         at="plya", expected="a name declared under choices", hint="did you mean 'play'?"),
    Case("unknown_procedure",
         ["43:16: error: unknown procedure 'score_up'"],
         at="score_up", expected="a name declared under procedures"),
    Case("unknown_phase",
         ["45:16: error: unknown phase 'ply'"],
         at="ply", expected="the name of a phase under turn", hint="did you mean 'play'?"),
    Case("unknown_function",
         ["44:12: error: unknown function 'length'"],
         at="length(", expected="a built-in (abs, any, bottom, count"),
    Case("function_arity",
         ["44:12: error: size() takes 1 argument(s), got 2"],
         at="size(hand(current), 1)", expected="number of cards in a zone"),
    Case("per_player_zone_no_player",
         ["44:17: error: zone 'hand' belongs to each player"],
         at="hand)", expected="hand(player)", hint="write hand(current) or hand(p)"),
    Case("table_missing_player_count",
         ["17:55: error: table 'hand_size' has no entry for 2 player(s)"],
         at="hand_size[player_count]", expected="keys 1 to 2 (players.min to players.max)",
         hint="add the missing player counts", position_only=True),
    Case("option_when_unknown_name",
         ["29:15: error: unknown name 'scroe'"],
         at="scroe < 3", hint="did you mean 'score'?",
         position_only=True),
    Case("stat_unknown_name",
         ["46:11: error: unknown name 'scroe'"],
         at="scroe", hint="did you mean 'score'?",
         position_only=True),
    Case("stat_multiline_plain",
         ["48:5: error: unknown name 'scroe'"],
         at="scroe", hint="did you mean 'score'?",
         position_only=True),
    Case("heuristic_leading_blank_line",
         ["50:5: error: unknown name 'scroe'"],
         at="scroe", hint="did you mean 'score'?",
         position_only=True),
    Case("player_var_read_unknown",
         ["44:20: error: unknown player variable 'hpp'"],
         at="hpp <= 0", expected="a name declared under player_vars", hint="did you mean 'hp'?"),
    Case("zone_as_player_var",
         ["27:23: error: unknown player variable 'hand'"],
         at="hand", expected="a name declared under player_vars",
         hint="'hand' is a zone each player has: write hand(current)"),
    Case("number_for_text_prop",
         ["42:44: error: no card has rank 1: every rank is a text"],
         at="1", expected='a value some card has as \'rank\', a text: "1", "2"', hint='write "1"'),
    Case("text_added_to_number",
         ["41:17: error: '+' cannot take a number and a text"],
         at="+=", expected="two numbers, two texts or two lists",
         hint="texts and numbers do not mix: add numbers to numbers, join texts to texts"),
    Case("sum_of_text_prop",
         ["40:24: error: sum of card property 'rank', which no card has as a number"],
         at="play.cards.rank", expected="""a card property whose values are numbers ('rank' is "1", "2")""",
         hint="sum a property that is a number (value), or count the cards with size(...)"),
    Case("over_indented_line",
         ["41:13: error: syntax error in effect text: this line is indented more than the line above, "
          "which opens no block"],
         at="move play.cards", expected="the indentation of the line above (only a line ending in ':' opens "
         "an indented block)", hint="indent it as the line above"),
    Case("from_a_player",
         ["27:15: error: 'from' gives a number or a player, not cards"],
         at="current", expected="cards to pick from: a zone (hand(current)), a filter of one, a list of cards",
         hint="a player's cards are in the player's zones: write e.g. hand(current)"),
    Case("option_name_typo",
         ["39:27: error: choice 'play' has no option 'cards'"],
         at='"cards"', expected="one of its options: card, pass", hint="did you mean 'card'?"),
    Case("param_unknown_prop",
         ["32:22: error: unknown property 'colour'"],
         at="colour", expected="a card property (name, rank, suit, value), a player variable"),
    Case("chosen_field_typo",
         ["40:29: error: a chosen answer has no field 'cardz'"],
         at="cardz", hint="cards"),
    # ---- the rest of the model -------------------------------------------------
    Case("var_one_of_unknown",
         ["21:30: error: no entry 'suits' under names:"],
         at="suits}", expected="an entry of the names: section", hint="did you mean 'suit_names'?"),
    Case("zone_one_of_unknown",
         ["16:41: error: no entry 'heart' under names:"],
         at="heart}", expected="an entry of the names: section", hint="did you mean 'hearts'?"),
    Case("display_one_of_unknown",
         ["51:44: error: no entry 'suits' under names:"],
         at="suits}", expected="an entry of the names: section", hint="did you mean 'suit_names'?"),
    Case("card_names_unknown_prop",
         ["20:25: error: no card has a property 'colour'"],
         at="colour", expected="a card property: name, rank, suit, value"),
    Case("var_initial_not_one_of",
         ["21:19: error: player variable 'suit' starts at 'D', which is not a name of names entry 'suit_names'"],
         at="D, one_of", expected="one of: H, S", hint="add it to names: suit_names"),
    Case("cards_range_reversed",
         ["26:16: error: card count range '2..1' is empty or starts below 1"],
         at="2..1", expected="N or LOW..HIGH with 1 <= LOW <= HIGH"),
    Case("card_name_unknown_prop",
         ["8:11: error: card name template uses unknown property 'colour'"],
         at='"{rank}{colour}"', expected="one of: rank, suit, value"),
    Case("card_total_mismatch",
         ["6:13: error: the cards add up to 4, but card_total says 5"],
         at="5", expected="5 cards from the entries under cards",
         hint="the entries make entry 1 ('{rank}{suit}'): 4"),
    Case("same_unknown_prop",
         ["27:15: error: no card has a property 'colour'"],
         at="colour", expected="a card property: name, rank, suit, value"),
    Case("loop_card_unknown_prop",
         ["47:16: error: no card has a property 'valu'"],
         at="valu > 1", expected="a card property: name, rank, suit, value", hint="did you mean 'value'?"),
    Case("cards_without_from",
         ["24:9: error: option 'card' picks cards but says not where from"],
         at="name: card", expected="a 'from' key naming a zone or list"),
    Case("duplicate_option_name",
         ["29:15: error: option 'pass' is declared twice in choice 'play'"],
         at="pass"),
    Case("trigger_never_emitted",
         ["49:11: error: no effect ever emits event 'scored'"],
         at="scored", expected="an event named by some 'emit' statement",
         hint="did you mean 'score'?"),
    Case("trigger_on_unquoted",
         ["49:9: error: no effect ever emits event 'scored'"],
         at="scored", hint="did you mean 'score'?"),
    Case("heuristic_unknown_choice",
         ["46:3: error: heuristic for unknown choice 'ply'"],
         at="ply:", expected="the name of a choice", hint="did you mean 'play'?"),
    Case("zone_box_reserved",
         ["17:3: error: zone name 'box' is reserved"],
         at="box:", expected="another name", hint="use it without declaring it"),
    # ---- several defects in one file --------------------------------------------
    Case("several_defects",
         ["30:15: error: no card has a property 'colour'",
          "36:19: error: syntax error in effect text: unexpected end of line",
          "42:16: error: unknown choice 'plya'",
          "44:11: error: cannot assign to unknown variable 'scroe'",
          "51:3: error: heuristic for unknown choice 'ply'"],
         at="colour"),
    Case("several_structure_defects",
         ["5:24: error: 'max' in 'players': expected an integer, got a string ('two')",
          "16:22: error: 'visibility' in zone 'deck': 'secret' is not allowed",
          "28:9: error: unknown key 'form' in option 1 of choice 'play'"],
         at='"two"', expected="an integer"),
    # ---- defects in several stages at once: structure, syntax and names -----------
    Case("several_stages",
         ["21:22: error: 'visibility' in zone 'deck': 'hiden' is not allowed",
          "33:9: error: unknown key 'form' in option 1 of choice 'play'",
          "40:27: error: no card has rank '3'",
          "45:19: error: syntax error in effect text: unexpected end of line",
          "53:11: error: cannot assign to unknown variable 'scroe'",
          "61:11: error: stat 'rounds': expected a string or an integer, got a list"],
         at="hiden}", expected="one of: public, hidden, owner, top", hint="did you mean 'hidden'?"),
    Case("several_stages_sections",
         ["10:24: error: 'max' in 'players': expected an integer, got a string ('two')",
          "21:5: error: unknown key 'prop' in card entry 2",
          "29:3: error: 'choices': expected a mapping, got a list",
          "33:15: error: unknown name 'dek'",
          "43:22: error: syntax error in effect text: unexpected end of line"],
         at='"two"', expected="an integer"),
]


def _params():
    for case in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        yield pytest.param(case, id=case.name, marks=marks)


def _rel(name: str) -> str:
    return f"{REL}/{name}.yaml"


def _errors(name: str) -> list[rulekit.RuleError]:
    """Load ``tests/broken/NAME.yaml`` (by its path relative to the project)."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        rulekit.load_game(_rel(name))
    except rulekit.RuleFileError as err:
        return err.errors
    finally:
        os.chdir(cwd)
    pytest.fail(f"{_rel(name)} loaded without an error")


def _matches(expected, line: str) -> bool:
    if isinstance(expected, re.Pattern):
        return expected.fullmatch(line) is not None
    return expected == line


def _header(e: rulekit.RuleError) -> str:
    return e.format().splitlines()[0]


# ---- the table ------------------------------------------------------------------


def test_every_broken_file_is_in_the_table():
    on_disk = {p.stem for p in BROKEN.glob("*.yaml")} - {"valid_base"}
    assert on_disk == {c.name for c in CASES}
    assert len(on_disk) >= 20


def test_the_base_game_is_valid():
    """Each broken file is this game with one defect, so the rest of it is fine."""
    game = rulekit.load_game(BROKEN / "valid_base.yaml")
    assert game.name == "Tiny"
    m = game.new_match(players=2, seed=1)
    assert m.decision is not None and m.decision.choice == "play"


def test_every_broken_file_says_what_is_wrong():
    for path in BROKEN.glob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("#"), path.name
        if path.stem != "valid_base":
            assert first.startswith("# DEFECT"), path.name


@pytest.mark.parametrize("case", list(_params()))
def test_reported_errors(case: Case):
    """The exact file:line:col: error: message lines, all of them, in order."""
    got = [_header(e) for e in _errors(case.name)]
    want = [e if isinstance(e, re.Pattern) else f"{_rel(case.name)}:{e}" for e in case.errors]
    prefixed = [re.compile(re.escape(_rel(case.name) + ":") + w.pattern) if isinstance(w, re.Pattern)
                else w for w in want]
    assert len(got) == len(prefixed), "\n".join(got)
    for g, w in zip(got, prefixed):
        assert _matches(w, g), f"\n got: {g}\nwant: {w if isinstance(w, str) else w.pattern}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_first_error_points_at_the_defect(case: Case):
    """The table's first line:column is where ``at`` starts in the file (``at=""``:
    the end of that line).  This checks the table against the files; that the
    loader reports those positions is test_reported_errors."""
    first = case.errors[0]
    text = first.pattern if isinstance(first, re.Pattern) else first
    line, column = (int(x) for x in re.match(r"(\d+):(\d+):", text).groups())
    source = (BROKEN / f"{case.name}.yaml").read_text(encoding="utf-8").split("\n")
    rest = source[line - 1][column - 1:]
    assert column - 1 <= len(source[line - 1])
    assert rest.startswith(case.at) if case.at else rest == "", (
        f"{case.name}: {line}:{column} is {rest!r}, not {case.at!r}")


def _right_message(case: Case) -> bool:
    return not case.xfail or case.position_only


@pytest.mark.parametrize("case", [c for c in CASES if _right_message(c)], ids=lambda c: c.name)
def test_messages(case: Case):
    """The messages alone (also for the cases whose only fault is the position)."""
    got = [e.message for e in _errors(case.name)]
    want = [e.split(": error: ", 1)[1] for e in case.errors]
    assert got == want


@pytest.mark.parametrize("case", [c for c in CASES if (c.expected or c.hint) and _right_message(c)],
                         ids=lambda c: c.name)
def test_expected_and_hint_lines(case: Case):
    first = _errors(case.name)[0]
    lines = first.format().splitlines()
    if case.expected:
        assert case.expected in first.expected
        assert f"    expected: {first.expected}" in lines
    if case.hint:
        assert case.hint in first.hint
        assert f"    hint: {first.hint}" in lines


def test_card_name_error_position_and_message():
    """Apart from being repeated, the card-name error is right (see the xfail case)."""
    errors = _errors("card_name_unknown_prop")
    assert _header(errors[0]) == (f"{REL}/card_name_unknown_prop.yaml:8:11: error: "
                                  "card name template uses unknown property 'colour'")


def test_unclosed_paren_on_the_same_line_names_the_missing_bracket():
    e = _errors("effect_unbalanced_paren")[0]
    assert "')'" in e.expected


def test_generic_syntax_hint_points_somewhere_that_exists():
    e = _errors("effect_unbalanced_paren")[0]
    for word in re.findall(r"\b[\w/]+\.md\b", e.hint):
        assert (ROOT / word).exists(), word


# ---- always a RuleFileError --------------------------------------------------------


@pytest.mark.parametrize("path", sorted(p.name for p in BROKEN.glob("*.yaml") if p.stem != "valid_base"))
def test_load_game_raises_rule_file_error_only(path: str):
    """A broken file raises RuleFileError (never KeyError, TypeError, ...), and
    every error in it has a position in that file, and a message."""
    try:
        game = rulekit.load_game(BROKEN / path)
    except rulekit.RuleFileError as err:
        assert err.errors
        for e in err.errors:
            assert isinstance(e, rulekit.RuleError)
            assert e.where.file == str(BROKEN / path)
            assert e.where.line >= 1 and e.where.column >= 1
            assert e.message
        assert str(err) == "\n".join(e.format() for e in err.errors)
        return
    except Exception as other:  # noqa: BLE001
        pytest.fail(f"{path}: {type(other).__name__}: {other}")
    # Loaded: only the files whose defect the loader cannot see yet (xfail above).
    assert path[:-5] in {c.name for c in CASES if c.xfail}, f"{path} loaded: {game.name}"


def test_load_game_text_reports_the_given_file_name():
    text = (BROKEN / "unknown_choice.yaml").read_text(encoding="utf-8")
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game_text(text, "my/game.yaml")
    assert str(info.value).splitlines()[0] == "my/game.yaml:38:16: error: unknown choice 'plya'"


def test_missing_file_is_a_rule_file_error(tmp_path):
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(tmp_path / "nope.yaml")
    assert str(info.value).startswith(f"{tmp_path / 'nope.yaml'}: error: cannot read the rule file")


def test_a_missing_file_names_the_nearest_one_beside_it(tmp_path):
    (tmp_path / "regicide.yaml").write_text("name: X\n", encoding="utf-8")
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(tmp_path / "regicid.yaml")
    error = info.value.errors[0]
    assert error.message == f"cannot read the rule file: there is nothing called regicid.yaml in {tmp_path}"
    assert error.hint == "did you mean 'regicide.yaml'?"
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(tmp_path / "no_such_folder" / "x.yaml")
    assert info.value.errors[0].message.endswith(f"there is no folder {tmp_path / 'no_such_folder'}")


def test_a_folder_without_game_yaml_lists_the_rule_files_it_holds(tmp_path):
    (tmp_path / "cards.yaml").write_text("name: X\n", encoding="utf-8")
    (tmp_path / "duel").mkdir()
    (tmp_path / "duel" / "game.yaml").write_text("name: X\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(tmp_path)
    error = info.value.errors[0]
    assert error.message == f"cannot read the rule file: {tmp_path} is a folder without game.yaml"
    assert error.expected == "a rule file (NAME.yaml), or a game's folder holding game.yaml"
    assert error.hint == f"the rule files in {tmp_path}: cards.yaml, duel/"


# ---- several defects at once ----------------------------------------------------------


def test_several_independent_defects_are_all_reported_in_one_run():
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(BROKEN / "several_defects.yaml")
    messages = [e.message for e in info.value.errors]
    assert len(messages) == 5
    assert any("syntax error" in m for m in messages)          # setup
    assert "no card has a property 'colour'" in messages       # option 'card'
    assert "unknown choice 'plya'" in messages                 # phase 'play'
    assert "cannot assign to unknown variable 'scroe'" in messages
    assert "heuristic for unknown choice 'ply'" in messages
    lines = [e.where.line for e in info.value.errors]
    assert lines == sorted(lines)


def test_several_structure_defects_are_all_reported_in_one_run():
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(BROKEN / "several_structure_defects.yaml")
    assert len(info.value.errors) == 3


def test_alias_bomb_is_refused_before_expanding():
    """Refused while reading (a billion-laughs file would never finish if its
    aliases were expanded first)."""
    with pytest.raises(rulekit.RuleFileError) as info:
        rulekit.load_game(BROKEN / "alias_bomb.yaml")
    assert "anchors and aliases are not allowed" in str(info.value)


def test_python_tag_runs_nothing(capfd):
    with pytest.raises(rulekit.RuleFileError):
        rulekit.load_game(BROKEN / "python_tag.yaml")
    out, err = capfd.readouterr()
    assert "pwned" not in out + err


# ---- the command line ----------------------------------------------------------------


def _cli_available() -> bool:
    try:
        importlib.import_module("rulekit.cli")
    except ImportError:
        return False
    return True


cli = pytest.mark.skipif(not _cli_available(), reason="rulekit.cli is not available")


def _validate(*names: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulekit", "validate", *names], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


@pytest.fixture(scope="module")
def validate_all() -> str:
    """One ``validate`` run over every broken file the loader reports correctly."""
    run = _validate(*(_rel(c.name) for c in CASES if not c.xfail))
    assert run.returncode == 1
    return run.stdout + run.stderr


@cli
@pytest.mark.parametrize("case", [c for c in CASES if not c.xfail], ids=lambda c: c.name)
def test_cli_validate_reports_the_errors(case: Case, validate_all: str):
    assert "Traceback" not in validate_all
    for want in case.errors:
        assert f"{_rel(case.name)}:{want}" in validate_all


@cli
@pytest.mark.parametrize("name", ["yaml_tab_indent", "alias_bomb", "python_tag", "missing_turn",
                                  "effect_single_equals", "unknown_var_read", "several_defects"])
def test_cli_validate_one_broken_file_exits_1(name: str):
    run = _validate(_rel(name))
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert "Traceback" not in output
    case = next(c for c in CASES if c.name == name)
    assert f"{_rel(name)}:{case.errors[0]}" in output


@cli
def test_cli_validate_several_files_and_a_good_one():
    run = _validate(_rel("unknown_choice"), _rel("valid_base"), _rel("bad_visibility"))
    output = run.stdout + run.stderr
    assert run.returncode == 1
    assert "Traceback" not in output
    assert f"{REL}/unknown_choice.yaml:38:16: error: unknown choice 'plya'" in output
    assert f"{REL}/bad_visibility.yaml:14:22: error: 'visibility' in zone 'deck'" in output
    assert "valid_base.yaml" in output


@cli
def test_cli_validate_a_good_file_exits_0():
    run = _validate(_rel("valid_base"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr
