"""Hostile or broken rule files and malformed actions are refused cleanly.

Each case here once ended in a Python traceback, a gigabyte of memory or a
minute of time.  Now a rule file over a limit of :mod:`rulekit.limits` is a
RuleFileError naming the limit, at its file:line:column; a malformed action
is IllegalAction and leaves the match as it was.
"""
from __future__ import annotations

import copy
import textwrap
from pathlib import Path

import pytest

import rulekit
import rulekit.errors
from rulekit import limits
from rulekit.engine.runtime import Action
from rulekit.errors import IllegalAction, RuleFileError

ROOT = Path(__file__).resolve().parent.parent


def game_text(effect: str = "win", head: str = "", players: str = "{min: 1, max: 1}",
              cards: str = "[{name: C}]") -> str:
    body = "\n".join("        " + line for line in effect.split("\n"))
    return (f"name: Hostile\nplayers: {players}\ncards: {cards}\n"
            f"zones: {{d: {{visibility: hidden}}}}\nvars: {{v: 0}}\n{head}"
            f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n")


def refused(text: str, file: str = "h.yaml") -> RuleFileError:
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text, file)
    for error in info.value.errors:
        assert error.where.file == file
    return info.value


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


# ---- 1. huge integers ----------------------------------------------------------------------


def test_an_integer_literal_of_4301_digits_in_effect_text_is_refused_at_its_position():
    text = game_text("v = " + "9" * 4301 + "\nwin")
    err = refused(text)
    assert str(err).startswith(f"h.yaml:{line_of(text, 'v = 9')}:13: ")
    assert "larger than the limit of 1,000,000,000,000,000 (MAX_INTEGER)" in str(err)


def test_the_largest_allowed_integer_still_loads_and_one_more_is_refused():
    assert rulekit.load_game_text(game_text(f"v = {limits.MAX_INTEGER}\nwin"))
    assert rulekit.load_game_text(game_text(f"v = 000{limits.MAX_INTEGER}\nwin"))
    assert "MAX_INTEGER" in str(refused(game_text(f"v = {limits.MAX_INTEGER + 1}\nwin")))


def test_a_huge_integer_in_the_yaml_is_refused_at_its_position():
    err = refused(game_text(head="tables: {t: {1: " + "7" * 5000 + "}}\n"))
    assert str(err).startswith("h.yaml:6:17: ") and "MAX_INTEGER" in str(err)
    err = refused(game_text(head="tables: {t: {1: -10000000000000000}}\n"))
    assert str(err).startswith("h.yaml:6:17: ") and "MAX_INTEGER" in str(err)


# ---- 2. control characters and bytes that are not UTF-8 ----------------------------------


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\ufffe"])
def test_a_control_character_is_refused_at_its_position(char):
    text = game_text("v = 1\nwin").replace("v = 1", "v = " + char + "1")
    err = refused(text)
    assert str(err).startswith(f"h.yaml:{line_of(text, 'v = ')}:13: error: invalid character U+")


def test_a_control_character_in_the_first_line_is_refused_too():
    assert str(refused("\x00name: x\n")).startswith("h.yaml:1:1: error: invalid character U+0000")


@pytest.mark.parametrize("written, char", [
    (r'"X\e[2J"', "U+001B"),            # ESC: an escape sequence that clears the screen
    (r'"X\x9b31m"', "U+009B"),          # the one-character CSI of C1
    (r'"X\a"', "U+0007"),               # BEL
    (r'"X\rY"', "U+000D"),              # a carriage return writes over what was shown
    (r'"X\0"', "U+0000"),
    ('"A\u202eB"', "U+202E"),            # a right-to-left override, written raw in the file
])
def test_a_text_that_would_drive_the_terminal_is_refused_at_its_position(written, char):
    """YAML refuses control characters written in the file, but a double-quoted
    escape writes them into the text: a card's name, a prompt or a key shown to
    a person, or quoted by an error, must not hold one."""
    for text in (game_text(cards="[{name: %s}]" % written),                  # a value
                 game_text(head="%s: 1\n" % written)):                      # a key
        err = refused(text)
        line = line_of(text, written)
        said = str(err)
        assert f"h.yaml:{line}:" in said and f"holds {char}" in said, said
        assert not rulekit.errors.UNSAFE_TEXT.search(said), said      # the message quotes it escaped


def test_a_tab_and_a_line_break_written_in_double_quotes_are_still_text():
    game = rulekit.load_game_text(game_text(cards=r'[{name: "two\tparts"}, {name: "two\nlines"}]'))
    assert [c.name for c in game.cards] == ["two\tparts", "two\nlines"]


def test_validate_shows_nothing_of_a_hostile_text_raw(tmp_path, capsys):
    from rulekit.cli import main
    path = tmp_path / "h.yaml"
    path.write_text(game_text(cards=r'[{name: "\e]0;owned\a\e[2J"}]'), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr()
    assert "\x1b" not in out.out + out.err and "\x07" not in out.out + out.err
    assert "holds U+001B" in out.err


def test_a_byte_that_is_not_utf8_is_reported_at_its_line_and_column(tmp_path):
    path = tmp_path / "bad.yaml"
    data = game_text("v = 1\nwin").encode("utf-8").replace(b"v = 1", b"v = \xff1")
    path.write_bytes(data)
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(path)
    line = data.split(b"\n").index(b"        v = \xff1") + 1
    assert str(info.value).startswith(f"{path}:{line}:13: error: byte 0xff is not UTF-8 text")


def test_a_cut_multibyte_character_is_reported_after_the_text_before_it(tmp_path):
    path = tmp_path / "cut.yaml"
    path.write_bytes("name: 三国\n".encode("utf-8")[:-2])       # the last character cut in half
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(path)
    assert str(info.value).startswith(f"{path}:1:8: error: byte 0xe5 is not UTF-8 text")


# ---- 3 and 4. a billion seats, a hundred billion cards --------------------------------------


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="pipes are POSIX")
def test_a_pipe_given_as_a_rule_file_is_refused_not_waited_on(tmp_path):
    """Opening a pipe waits for a writer: the loader stats the path first."""
    import os
    pipe = tmp_path / "game.yaml"
    os.mkfifo(pipe)
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(tmp_path)
    assert info.value.errors[0].message == "cannot read the rule file: it is a pipe"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_that_never_ends_is_refused_not_read():
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game("/dev/zero")
    assert info.value.errors[0].message == "cannot read the rule file: it is a device"


def test_a_file_is_read_no_further_than_the_size_limit(tmp_path, monkeypatch):
    """A file that grows after its size was taken (or says 0, as /proc's
    do) is read up to the limit and refused, not read to its end."""
    from rulekit import yamlsafe
    big = tmp_path / "big.yaml"
    big.write_bytes(b"name: x\n" + b"#" * (limits.MAX_FILE_BYTES + 10))
    monkeypatch.setattr(yamlsafe, "_check_size", lambda size, file: None)      # as if it had said: small
    asked = []

    class Recording:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def read(self, n=-1):
            asked.append(n)
            return self.handle.read(n)
    monkeypatch.setattr(yamlsafe, "open", lambda path, mode: Recording(open(path, mode)), raising=False)
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(big)
    assert asked == [limits.MAX_FILE_BYTES + 1]
    assert info.value.errors[0].message == (f"the file has more than the limit of {limits.MAX_FILE_BYTES} "
                                            "bytes (MAX_FILE_BYTES)")


def test_a_billion_players_is_refused_before_any_seat_is_made():
    err = refused(game_text(players="{min: 1, max: 1000000000}"))
    assert str(err).startswith("h.yaml:2:24: ")
    assert "is more than the limit of 100 players (MAX_PLAYERS)" in str(err)


def test_a_hundred_billion_cards_are_refused_before_any_card_is_made():
    err = refused(game_text(cards="[{name: C, count: 100000000000}]"))
    assert str(err).startswith("h.yaml:3:26: ")
    assert "more than the limit of 10,000 cards (MAX_CARDS)" in str(err)


def test_cards_multiplied_out_by_each_count_against_the_limit():
    values = "[" + ", ".join(map(str, range(30))) + "]"
    cards = f"[{{name: '{{a}}{{b}}{{c}}', each: {{a: {values}, b: {values}, c: {values}}}}}]"
    err = refused(game_text(cards=cards))
    assert "at entry 1, which makes 27,000" in str(err) and "MAX_CARDS" in str(err)


def test_a_deck_at_the_card_limit_loads():
    game = rulekit.load_game_text(game_text(cards=f"[{{name: C, count: {limits.MAX_CARDS}}}]"))
    assert len(game.cards) == limits.MAX_CARDS


@pytest.mark.parametrize("count", ['"1..' + "9" * 4301 + '"', '"1..10001"', "10001"])
def test_a_card_option_picking_more_cards_than_the_limit_is_refused(count):
    text = prompt_game("Pick").replace("- {name: ok}", f"- {{name: ok, cards: {count}, from: d}}")
    err = refused(text)
    assert str(err).startswith("h.yaml:12:") and "(MAX_CARDS)" in str(err)


# ---- 5. prompts are filled by name only ------------------------------------------------------


def prompt_game(prompt: str, params: str = "[who]") -> str:
    return textwrap.dedent(f"""\
        name: Prompts
        players: {{min: 2, max: 2}}
        cards: [{{name: C}}]
        zones: {{d: {{visibility: hidden}}}}
        vars: {{trump: 0}}
        choices:
          ask:
            params: {params}
            who: who
            prompt: "{prompt}"
            options:
              - {{name: ok}}
        turn:
          phases:
            - name: p
              effect: |
                choose ask(current)
                win
        """)


@pytest.mark.parametrize("placeholder", ["{who:>1000000000}", "{who.__class__.__mro__}",
                                         "{who!r}", "{who[0]}", "{0}", "{}", "{ who }"])
def test_a_placeholder_that_is_not_a_plain_name_is_refused_at_its_position(placeholder):
    err = refused(prompt_game("Player " + placeholder))
    assert str(err).startswith("h.yaml:10:21: ")
    assert "is not a plain parameter name" in str(err)


@pytest.mark.parametrize("prompt, column, message", [
    ("Player {who", 21, "is never closed"),
    ("a } b", 16, "a single '}'"),
    ("{{ok}} then {x", 26, "is never closed"),
])
def test_unbalanced_braces_are_refused_at_their_position(prompt, column, message):
    err = refused(prompt_game(prompt))
    assert str(err).startswith(f"h.yaml:10:{column}: ") and message in str(err)


def test_a_placeholder_that_names_a_variable_not_a_parameter_is_refused_with_a_hint():
    err = refused(prompt_game("Player {who}: trump is {trump}"))
    assert str(err).startswith("h.yaml:10:37: ")
    assert "the placeholder '{trump}' names no parameter of the choice" in str(err)
    err = refused(prompt_game("Player {whom}"))
    assert "did you mean 'who'?" in str(err)


def test_a_prompt_is_filled_by_name_and_braces_are_escaped():
    game = rulekit.load_game_text(prompt_game("{{Player}} {who}, {{{who}}}: {{x}}"))
    m = game.new_match(players=2, seed=0)
    assert m.decision.prompt == "{Player} 0, {0}: {x}"
    assert m.view(0)["decision"]["prompt"] == "{Player} 0, {0}: {x}"


def test_a_parameter_named_in_chinese_fills_its_placeholder():
    """Names may be Chinese (the schema's identifiers), placeholders too."""
    game = rulekit.load_game_text(prompt_game("玩家 {谁}", params="[谁]").replace("who: who", "who: 谁"))
    assert game.new_match(players=2, seed=0).decision.prompt == "玩家 0"


def test_a_prompt_without_placeholders_shows_its_braces_unescaped():
    game = rulekit.load_game_text(prompt_game("Pick {{one}}"))
    assert game.new_match(players=2, seed=0).decision.prompt == "Pick {one}"


def test_filling_a_prompt_does_not_use_str_format(monkeypatch):
    """A prompt whose argument text looks like a format spec is shown as it is."""
    game = rulekit.load_game_text(prompt_game("Player {who} ({who})"))
    m = game.new_match(players=2, seed=0)
    dec = m.decision._replace(args=("{0:>99999999}",))
    assert dec.prompt == "Player {0:>99999999} ({0:>99999999})"


# ---- 6. malformed actions --------------------------------------------------------------------


@pytest.fixture(scope="module")
def regicide():
    return rulekit.load_game(ROOT / "games" / "regicide.yaml")


def card_match(regicide):
    m = regicide.new_match(players=2, seed=3)
    assert any(a.cards for a in m.decision.options)
    return m


def snapshot(m):
    return (copy.deepcopy(m.decision), list(m.actions), len(m.log), [z.name for z in m.loc],
            copy.deepcopy(m.vars), copy.deepcopy(m.pvars), m.steps)


MALFORMED = [
    Action("card", "12"), Action("card", None), Action("card", (None,)), Action("card", (1.5,)),
    Action("card", ("1",)), Action("card", (True,)), Action("card", [[1]]), Action("card", {1: 2}),
    Action("card", (), "0"), Action("card", (), 1.0), Action("card", (), True), Action(None),
    Action(3, (1,)), Action(("card",)), ("card", "12"), ("card", None, None), ("card", (), [0]),
    (), ("a", (), None, 1), "card", None, 1.5, True, b"card", {"cards": [1]},
    {"option": 1}, {"option": "card", "cards": "12"}, {"option": "card", "cards": [1.5]},
    {"option": "card", "cards": None}, {"option": "card", "player": "1"},
    {"option": "card", "player": [1]}, {"option": "card", "extra": 1}, {"option": None},
    {"option": "card", "cards": [10 ** 30]}, Action("card", (-1,)), Action("card", (10 ** 30,)),
    Action("x" * 100_000), -1, 10 ** 30,
]


@pytest.mark.parametrize("action", MALFORMED, ids=lambda a: repr(a)[:40])
def test_a_malformed_action_is_illegal_and_leaves_the_match_unchanged(regicide, action):
    m = card_match(regicide)
    before = snapshot(m)
    with pytest.raises(IllegalAction) as info:
        m.apply(action)
    assert len(str(info.value)) < 1_000 + len(str(getattr(action, "option", "")))
    assert snapshot(m) == before
    m.apply(m.decision.options[0])          # and the match goes on


@pytest.mark.parametrize("saved", [{"option": "card", "cards": None}, {"cards": [1]}, "card", None,
                                   {"option": "card", "cards": "12"}, {"option": "card", "player": "0"}])
def test_a_saved_match_with_a_malformed_action_is_refused_as_illegal(regicide, saved):
    m = card_match(regicide)
    record = m.save()
    record["actions"].append(saved)
    with pytest.raises(IllegalAction):
        type(m).restore(regicide, record)


def test_the_json_form_of_an_offered_action_is_still_accepted(regicide):
    m = card_match(regicide)
    action = next(a for a in m.decision.options if a.cards)
    m.apply(action.to_json())
    assert m.actions[-1] == action


# ---- 7. limits on size, and load time in proportion to it ----------------------------------


def test_a_file_over_the_size_limit_is_refused_at_once():
    err = refused("name: x\n" + "# " + "x" * limits.MAX_FILE_BYTES + "\n")
    assert f"more than the limit of {limits.MAX_FILE_BYTES} bytes (MAX_FILE_BYTES)" in str(err)


def test_a_table_of_100000_keys_is_refused_quickly():
    err = refused(game_text(head="tables:\n  t: {" + ", ".join(f"{i}: 1" for i in range(100_000)) + "}\n"))
    assert "MAX_FILE_BYTES" in str(err)
    err = refused(game_text(head="tables:\n  t: {" + ", ".join(f"{i}: 1" for i in range(1_001)) + "}\n"))
    assert str(err).startswith("h.yaml:7:6: ") and "1,001 keys" in str(err) and "MAX_TABLE_KEYS" in str(err)


def test_one_text_over_the_text_limit_is_refused_at_that_text():
    text = game_text("\n".join(["v = v + 1"] * 6000) + "\nwin")
    err = refused(text)
    assert str(err).startswith("h.yaml:9:15: ")       # the block scalar of the phase
    assert "(MAX_TEXT_CHARS)" in str(err)


def test_thirty_thousand_statements_are_refused_at_once():
    text = game_text("\n".join(["v = v + 1"] * 30_000) + "\nwin")
    err = refused(text)
    assert "MAX_FILE_BYTES" in str(err)


def many_phases(phases: int, statements: int) -> str:
    body = "".join(f"    - name: p{i}\n      effect: |\n" + "        v = v + 1\n" * statements
                   for i in range(phases))
    return ("name: Big\nplayers: {min: 1, max: 1}\ncards: [{name: C}]\n"
            f"zones: {{d: {{visibility: hidden}}}}\nvars: {{v: 0}}\nturn:\n  phases:\n{body}"
            "    - name: end\n      effect: win\n")


def test_all_the_text_of_a_file_is_limited_in_lines():
    err = refused(many_phases(11, 1_000))
    assert str(err).startswith("h.yaml:1:1: ") and "(MAX_TEXT_LINES)" in str(err)


@pytest.mark.parametrize("style", ["|", ">"])
def test_effect_text_positions_are_found_in_linear_time(style, monkeypatch):
    """Mapping a position inside a long effect text to the file once re-split
    the whole text for every statement: 30,000 statements took 40 s to load.
    Now the layout of a block is worked out once."""
    from rulekit.yamlsafe import LoadedYaml, load_yaml
    statements = 2_500
    loaded = load_yaml(f"e: {style}\n" + "  v = v + 1\n" * statements, "t.yaml")
    layouts = []
    work_out = LoadedYaml._block_layout

    def counted(self, first, value):
        layouts.append(len(value))
        return work_out(self, first, value)

    monkeypatch.setattr(LoadedYaml, "_block_layout", counted)
    for line in range(1, statements + 1):
        where = loaded.text_where(("e",), line, 3)
    assert len(layouts) == 1                          # once, not once per statement
    if style == "|":
        assert (where.line, where.column) == (statements + 1, 5)


def test_a_file_just_under_the_limits_loads_in_reasonable_time():
    text = many_phases(9, 1_000)
    assert len(text.encode()) < limits.MAX_FILE_BYTES
    game = rulekit.load_game_text(text)
    assert len(game.phases) == 10


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{a: ", "}")])
def test_yaml_nested_past_the_limit_is_refused_at_the_level_past_it(opener, closer):
    depth = 1_000
    err = refused("name: " + opener * depth + "1" + closer * depth + "\n")
    assert "(MAX_NESTING)" in str(err)
    column = 7 + len(opener) * (limits.MAX_NESTING - 1)    # the top-level mapping is level 1
    assert str(err).startswith(f"h.yaml:1:{column}: ")


def test_yaml_nested_to_the_limit_is_read():
    depth = limits.MAX_NESTING - 1
    from rulekit.yamlsafe import load_yaml
    assert load_yaml("a: " + "[" * depth + "1" + "]" * depth + "\n", "t.yaml").data["a"]


def test_the_limits_are_in_the_schema_too():
    from rulekit.structure import schema
    s = schema()
    assert s["properties"]["players"]["properties"]["max"]["maximum"] == limits.MAX_PLAYERS
    assert s["$defs"]["card"]["properties"]["count"]["maximum"] == limits.MAX_CARDS


def test_an_action_equal_to_an_offered_one_with_other_number_types_plays_the_offered_one():
    """``Action("card", (1.0,))`` equals the offered ``Action("card", (1,))``:
    it is taken as the offered action, so the match records and plays exactly
    that one (before, the float indexed the zones and left the match changed)."""
    import random

    import rulekit
    from rulekit import Action

    game = rulekit.load_game(Path(__file__).resolve().parents[1] / "games" / "regicide.yaml")
    m = game.new_match(2, seed=4)
    offered = next(a for a in m.decision.options if len(a.cards) == 1)
    twin = game.new_match(2, seed=4)
    twin.apply(Action(offered.option, (float(offered.cards[0]),), offered.player))
    m.apply(offered)
    assert twin.actions[-1] is offered and twin.log_json() == m.log_json()
    rng = random.Random(1)
    while m.decision is not None:
        a = m.decision.options[rng.randrange(len(m.decision.options))]
        m.apply(a)
        twin.apply(Action(a.option, tuple(float(c) for c in a.cards), a.player))
    assert twin.log_json() == m.log_json()


# ---- values that grow while a match runs ----------------------------------------------------

def _growing(effect: str) -> tuple[str, rulekit.Game]:
    body = "\n".join("        " + line for line in effect.split("\n"))
    text = ("name: Growing\nplayers: {min: 1, max: 1}\ncards: [{name: C}]\n"
            "zones: {d: {visibility: hidden}}\nvars: {v: 2, l: [1], s: 'ab'}\n"
            "player_vars: {pv: [1]}\n"
            f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n")
    return text, rulekit.load_game_text(text, "grow.yaml")


@pytest.mark.parametrize("effect,message", [
    ("while true:\n  v = v * v", "4294967296 * 4294967296 is beyond ±10^15 (MAX_INTEGER), the largest number "
                                  "a rule may hold"),
    ("while true:\n  v += v", "562949953421312 + 562949953421312 is beyond ±10^15 (MAX_INTEGER)"),
    # a sum or difference with a difference, or a negation: a number all the same, and doubling
    ("while true:\n  v = v + (v - 0)", "562949953421312 + 562949953421312 is beyond ±10^15 (MAX_INTEGER)"),
    ("while true:\n  v += v - 0", "562949953421312 + 562949953421312 is beyond ±10^15 (MAX_INTEGER)"),
    ("while true:\n  v = v - (0 - v)", "562949953421312 - -562949953421312 is beyond ±10^15 (MAX_INTEGER)"),
    ("while true:\n  v -= 0 - v", "562949953421312 - -562949953421312 is beyond ±10^15 (MAX_INTEGER)"),
    ("while true:\n  v = v + -(-v)", "562949953421312 + 562949953421312 is beyond ±10^15 (MAX_INTEGER)"),
    ("while true:\n  current.pv = [v]\n  v = v - (0 - v)", "562949953421312 - -562949953421312"),
    ("while true:\n  l = l + l", "'+' would build a list of 131072 elements, more than 100000 (MAX_BUILT_ITEMS)"),
    ("while true:\n  l += l", "'+' would build a list of 131072 elements"),
    ("while true:\n  current.pv += current.pv", "'+' would build a list of 131072 elements"),
    ("let x = [1]\nwhile true:\n  x += x", "'+' would build a list of 131072 elements"),
    ("while true:\n  s = s + s", "'+' would build a text of 131072 characters, more than 100000 (MAX_BUILT_ITEMS)"),
    ("while true:\n  l = join(l, l)", "join() would build a list of more than 100000 elements (MAX_BUILT_ITEMS)"),
    ("while true:\n  l = l * 2", "'*' would build a list of 131072 elements"),
    ("let x = [1] * 1000000", "'*' would build a list of 1000000 elements"),
    # (a local, which the checks of types when the file loads do not follow: see tests/test_type_checks.py)
    ("let f = '%999999999d'\nlet x = f % 1", "'%' cannot take a text and a number"),   # Python's formatting, a gigabyte
    ("while true:\n  l = v * l", "'*' would build a list of 131072 elements"),  # the number first
    ("let x = 1000000 * s", "'*' would build a text of 2000000 characters"),
    ("let t = s\nlet x = t * s", "'*' cannot take a text and a text"),
])
def test_a_value_that_would_grow_without_end_stops_its_rule_at_the_statement(effect, message):
    """Within the step budget, a value that doubles at every step (squares,
    for a product) fills any memory long before the budget runs out: the
    rule fails where it grows, as any rule error does."""
    text, game = _growing(effect + "\nwin")
    with pytest.raises(rulekit.RuleRuntimeError) as info:
        game.new_match(1)
    error = info.value
    assert message in str(error)
    assert error.where.file == "grow.yaml"
    assert text.split("\n")[error.where.line - 1].strip() == effect.split("\n")[-1].strip()


@pytest.mark.parametrize("effect", [
    "let x = 'ab' * 3\nif x != 'ababab':\n  lose 'wrong'",
    # a number read from the match times a list or a text, either way round
    "let x = v * l\nlet y = s * v\nlet z = v * s\nif x != [1, 1] or y != 'abab' or z != y:\n  lose 'wrong'",
    "let x = ['a'] * 3 + ['b']\nv = size(x) * 1000 + v % 7 + 999999999999998\nif v != 10**0 * 999999999999998 + 4002:\n"
    "  lose 'wrong'",
    "l += [2]\ns += 'c'\ncurrent.pv += current.pv\nif l != [1, 2] or s != 'abc' or size(current.pv) != 2:\n"
    "  lose 'wrong'",
])
def test_ordinary_arithmetic_and_joins_are_unchanged(effect):
    _, game = _growing(effect.replace("10**0 * ", "") + "\nwin")
    assert game.new_match(1).result()["outcome"] == "win"


def test_sums_of_sizes_and_numbers_stay_python_arithmetic():
    """The checked helpers cost a call: a sum or difference with one side a
    number the text bounds (a literal, a size, arithmetic of those) is
    written as Python's own; one with a number read from the match is
    checked, though it is surely a number (v + -(-v) doubles v)."""
    _, game = _growing("let x = size(l) + 1\nv = v + 1\nv += 2\nv = v + -1\nv = v * v\nl = l + l\n"
                       "v = v + -(-v)\nv = v - (size(l) - 1)\nv -= 3\nv = v - v\nv -= v\nwin")
    code = game.code
    assert "(_B_size(m, V['l']) + 1)" in code and "(V['v'] + 1)" in code and "V['v'] + (2)" in code
    assert "(V['v'] + (-1))" in code and "(V['v'] - (_B_size(m, V['l']) - 1))" in code
    assert "V['v'] - (3)" in code
    assert "_mul(V['v'], V['v'])" in code and "_add(V['l'], V['l'])" in code
    assert "_add(V['v'], (-(-V['v'])))" in code and "_sub(V['v'], V['v'])" in code


def test_a_product_of_numbers_written_in_the_text_is_held_to_the_limit_too():
    """Each factor is within ±10^15, but a product of them is not: 512
    factors grouped in pairs make a number of 7,680 digits, which no view
    could write out.  A product is Python's own only when the text bounds
    it within the limit (a size times a small number, say)."""
    factors = "999999999999999"
    for _ in range(9):
        factors = f"({factors} * {factors})"
    for effect in (f"v = {factors}", "v = 1000000000000000 * 1000000000000000"):
        _, game = _growing(effect + "\nwin")
        with pytest.raises(rulekit.RuleRuntimeError, match=r"is beyond ±10\^15 \(MAX_INTEGER\)"):
            game.new_match(1)
    _, game = _growing("v = size(l) * 1000 + 3 * 4\nv = v * 2\nwin")
    assert "(_B_size(m, V['l']) * 1000)" in game.code and "_mul(V['v'], 2)" in game.code
    assert game.new_match(1).result()["outcome"] == "win"


def _with_cards(effect: str, cards: str) -> rulekit.Game:
    body = "\n".join("        " + line for line in effect.split("\n"))
    text = ("name: Props\nplayers: {min: 1, max: 1}\n"
            f"cards: {cards}\n"
            "zones: {d: {visibility: public}}\nvars: {v: 2, l: [1]}\n"
            "setup: |\n  move box to d\n"
            f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n")
    return rulekit.load_game_text(text, "props.yaml")


def test_a_card_property_that_is_a_number_on_every_card_is_a_number_the_text_bounds():
    """A card's properties are the file's data and never change: one that is
    a whole number on every card holding it grows nothing, so a sum or
    difference with it, or a sum of it over cards, is Python's own; where
    some card holds it as text or a list, it is checked as before."""
    # the top card is B: v = 7 - 2, then 12; s = 2 * 9 + 12; then v = 12 + 2 + 7
    effect = ("v = top(d).attack - v\nv += top(d).attack\nlet s = 2 * sum(d.attack) + v\n"
              "for c in d:\n  v = v + c.attack\nif v != 21 or s != 30:\n  lose 'wrong'\nwin")
    game = _with_cards(effect, "[{name: A, props: {attack: 2}}, {name: B, props: {attack: 7}}]")
    code = game.code
    assert "_sub(" not in code and "_add(" not in code and "_mul(" not in code, code
    assert game.new_match(1).result()["outcome"] == "win"
    # some card holds the property as text: each sum and difference is checked
    game = _with_cards(effect.replace("\nwin", "\nlose 'never'").replace("if v != ", "if v == "),
                       "[{name: A, props: {attack: 2}}, {name: B, props: {attack: 'seven'}}]")
    assert "_sub(" in game.code and "_add(" in game.code and "_mul(" in game.code
    with pytest.raises(rulekit.RuleRuntimeError, match="'-' cannot take a text and a number"):
        game.new_match(1)


def test_a_card_number_added_in_a_loop_grows_by_a_bounded_amount_a_step():
    """With a number property, ``v += top(d).attack`` is Python's ``+``:
    the sum grows by at most the largest value a step, which the step
    budget bounds; ``v += v`` is still held to the limit."""
    game = _with_cards("while true:\n  v += top(d).attack\n  v += v", "[{name: A, props: {attack: 999}}]")
    with pytest.raises(rulekit.RuleRuntimeError, match=r"is beyond ±10\^15 \(MAX_INTEGER\)"):
        game.new_match(1)


@pytest.mark.parametrize("lo,hi", [(1, 1), (2, 2), (2, 4), (3, 3), (1, 20), (5, 9), (1, 10_000), (5_000, 10_000),
                                   (10_000, 10_000)])
def test_a_group_of_cards_needs_its_sets_counted_only_past_the_size_where_they_can_exceed_the_limit(lo, hi):
    """The count of every set of ``lo`` to ``hi`` of n cards is made only
    for a group larger than ``sets_within(lo, hi)``: up to it, the sets are
    within MAX_OPTIONS, and one more card takes them past it."""
    from math import comb

    from rulekit.lang.runtime_helpers import sets_within

    def total(n):
        return sum(comb(n, k) for k in range(lo, min(hi, n) + 1))
    most = sets_within(lo, hi)      # (worked out when the file loads: quick even for the widest range)
    assert total(most) <= limits.MAX_OPTIONS < total(most + 1)


@pytest.mark.parametrize("count", ['"1..10000"', '"5000..10000"', "10000"])
def test_a_card_option_of_the_widest_range_loads(count):
    """The size past which an option's sets are counted is worked out as
    the file loads, stopping as soon as a count passes the limit."""
    text = prompt_game("Pick").replace("- {name: ok}", f"- {{name: ok, cards: {count}, from: d}}")
    assert rulekit.load_game_text(text, "h.yaml")


def test_a_local_set_to_a_number_the_text_bounds_is_one_until_a_loop_or_another_value_sets_it():
    """``let n = size(l) + 1``, then ``n = 2 * n`` in a branch, leave ``n``
    a number the text bounds (each runs at most once a run of the text), so
    ``v += n`` is Python's own; a loop that sets ``n``, or an assignment of
    a variable's value, makes it unknown from there on."""
    _, game = _growing("let n = size(l) + 1\nif v > 0:\n  n = 2 * n\nv += n\nlet k = 1\nwhile k < 4:\n"
                       "  k = k + k\nv += k\nlet j = 3\nj = v\nv += j\nif v != 2 + 4 + 4 + 10:\n  lose 'wrong'\nwin")
    code = game.code
    assert "(2 * L_p0_n)" in code and "V['v'] + (L_p0_n)" in code, code
    assert "_add(L_p0_k, L_p0_k)" in code and "_add(V['v'], L_p0_k)" in code
    assert "_add(V['v'], L_p0_j)" in code
    assert game.new_match(1).result()["outcome"] == "win"


@pytest.mark.parametrize("effect", [
    "let n = 1\nwhile true:\n  n = 2 * n",                   # doubled in a loop
    "let n = 1\nwhile true:\n  v += n\n  n = n + n",        # read, then doubled, in a loop
    "let n = 2\nwhile true:\n  if v < 0:\n    let n = 2\n  n = n * n\n  v = n",   # a let in the loop too
])
def test_a_local_doubled_in_a_loop_is_held_to_the_limit(effect):
    _, game = _growing(effect + "\nwin")
    with pytest.raises(rulekit.RuleRuntimeError, match=r"is beyond ±10\^15 \(MAX_INTEGER\)"):
        game.new_match(1)


def test_a_local_kept_from_the_last_run_of_a_phase_is_not_taken_for_a_bounded_number():
    """A phase runs again in the same function, where its locals keep their
    values: a ``let`` in a branch does not make ``n`` known, so doubling it
    at the top level is checked, and stops at the limit turn after turn."""
    text = ("name: Turns\nplayers: {min: 1, max: 1}\ncards: [{name: C}]\n"
            "zones: {d: {visibility: hidden}}\nvars: {v: 0}\n"
            "turn:\n  phases:\n    - name: p\n      effect: |\n"
            "        if v == 0:\n          let n = 1\n        n = 2 * n\n        v += n\n"
            "        if v < 0:\n          win\n")
    game = rulekit.load_game_text(text, "turns.yaml")
    assert "_mul(2, L_p0_n)" in game.code and "_add(V['v'], L_p0_n)" in game.code
    with pytest.raises(rulekit.RuleRuntimeError, match=r"is beyond ±10\^15 \(MAX_INTEGER\)"):
        game.new_match(1)


def test_a_procedure_written_in_place_in_a_loop_knows_its_own_locals_from_its_top():
    """A procedure written in place of its call runs from its first line
    every time round the caller's loop: its ``let`` sets its local afresh."""
    text = ("name: Calls\nplayers: {min: 1, max: 1}\ncards: [{name: C}]\n"
            "zones: {d: {visibility: hidden}}\nvars: {v: 0}\n"
            "procedures:\n  step:\n    effect: |\n      let k = 1\n      k = 2 * k\n      v += k\n"
            "turn:\n  phases:\n    - name: p\n      effect: |\n"
            "        while v < 20:\n          call step\n        if v == 20:\n          win\n        lose 'wrong'\n")
    game = rulekit.load_game_text(text, "calls.yaml")
    assert "_add(" not in game.code and "_mul(" not in game.code, game.code
    assert game.new_match(1).result()["outcome"] == "win"


def test_a_loop_test_reads_a_local_its_body_sets_as_unknown():
    """A ``while`` test runs after the body too: a local the body sets is
    checked in the test as well (a product of it is the match's number)."""
    _, game = _growing("let n = 2\nwhile n * n > 0 and v < 10:\n  n = n + n\n  v += 1\nwin")
    assert "_mul(L_p0_n, L_p0_n)" in game.code and "_add(L_p0_n, L_p0_n)" in game.code, game.code
    assert game.new_match(1).result()["outcome"] == "win"


def test_a_local_a_for_loop_binds_too_is_never_taken_for_a_bounded_number():
    """``let x = 1`` and then ``for x in [l]``: the loop puts lists in
    ``x``, so a join of it is weighed and stops at the limit."""
    _, game = _growing("let x = 1\nwhile true:\n  for x in [l]:\n    l = x + x\nwin")
    assert "_add(L_p0_x, L_p0_x)" in game.code, game.code
    with pytest.raises(rulekit.RuleRuntimeError, match=r"'\+' would build a list of 131072 elements"):
        game.new_match(1)
