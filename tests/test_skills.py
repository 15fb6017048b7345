"""Skills (see :mod:`rulekit.skills`): a named ability written in one block,
whose options go into their choices (at the ``- skills`` marker, else at
the end) and run their own ``effect`` when chosen, whose triggers and
procedures join the game's, and whose name is checked wherever effect text
or a card names it.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.errors import RuleFileError
from rulekit.testing import prepare, smoke

GAME = (Path(__file__).parent / "games" / "skills.yaml").read_text(encoding="utf-8")


def load(text: str = GAME) -> rulekit.Game:
    return rulekit.load_game_text(text, "skills.yaml")


def errors(text: str) -> list:
    with pytest.raises(RuleFileError) as info:
        load(text)
    return info.value.errors


def at(text: str, needle: str) -> tuple[int, int]:
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(needle)


@pytest.fixture(scope="module")
def game() -> rulekit.Game:
    return load()


def start(game: rulekit.Game, skills: list[str]) -> rulekit.Match:
    return prepare(game, 2, zones={"hand(0)": ["c", "c"], "deck": ["c", "c"]},
                   player_vars={0: {"skills": skills}, 1: {"skills": []}})


def answer(m: rulekit.Match, option: str, **kw):
    action = next(a for a in m.legal_actions() if a.option == option
                  and all(getattr(a, k) == v for k, v in kw.items()))
    m.apply(action)


# ---- options ----------------------------------------------------------------------------------

def test_skill_options_go_at_the_marker_in_declaration_order(game):
    assert [o["name"] for o in game.source["choices"]["play"]["options"]] == ["use", "double", "steal", "end"]
    m = start(game, ["double", "steal"])
    assert [a.option for a in m.legal_actions()] == ["use", "use", "double", "double", "steal", "end"]


def test_skill_options_go_at_the_end_without_a_marker():
    g = load(GAME.replace("      - skills\n", ""))
    assert [o["name"] for o in g.source["choices"]["play"]["options"]] == ["use", "end", "double", "steal"]


def test_a_skill_option_is_offered_only_when_its_condition_holds(game):
    assert {a.option for a in start(game, []).legal_actions()} == {"use", "end"}


def test_a_skill_option_runs_its_effect_right_after_the_choice(game):
    m = start(game, ["double"])
    answer(m, "double")
    assert m.vars["score"] == 5 and m.vars["seen"] == 5       # run before the phase goes on
    assert (m.vars["last"], m.vars["picked"]) == ("double", 1)
    assert [c.name for c in m.zone("pile").cards] == ["c"] and len(m.zone("hand", 0).cards) == 1


def test_a_skill_option_that_picks_a_player_sees_the_player(game):
    m = start(game, ["steal"])
    answer(m, "steal", player=1)
    assert m.vars["victim"] == 1 and m.vars["score"] == 0


def test_a_limited_skill_is_offered_while_its_condition_holds(game):
    m = prepare(game, 2, zones={"hand(0)": ["c"]}, vars={"victim": 1},
                player_vars={0: {"skills": ["steal"]}, 1: {"skills": []}})
    assert {a.option for a in m.legal_actions()} == {"use", "end"}


def test_a_skill_option_whose_effect_decides_stops_the_match_there(game):
    text = GAME.replace("effect: victim = player", "effect: |\n            choose play(player, 0)\n"
                        "            victim = player")
    m = prepare(load(text), 2, zones={"hand(0)": ["c"], "hand(1)": ["c"]},
                player_vars={0: {"skills": ["steal"]}, 1: {"skills": []}})
    answer(m, "steal", player=1)
    assert (m.decision.player, m.decision.args, m.vars["victim"]) == (1, (1, 0), -1)
    answer(m, "use")                   # player 1 answers; then the skill goes on
    assert (m.vars["victim"], m.vars["score"], m.vars["seen"]) == (1, 1, 1)


def test_an_option_of_the_game_with_an_effect_runs_it_too(game):
    m = start(game, ["double"])
    answer(m, "use")
    assert m.vars["score"] == 1 and m.vars["seen"] == 1 and m.vars["last"] == ""


# ---- triggers and procedures -------------------------------------------------------------------

def test_a_skills_triggers_and_procedures_join_the_game(game):
    assert "cheers" in game.procedures
    m = start(game, ["double", "cheer"])
    answer(m, "double")
    assert m.vars["score"] == 6                              # 2 + 3, and cheer's trigger
    m = start(game, ["double"])
    answer(m, "double")
    assert m.vars["score"] == 5                              # the trigger's condition is the procedure


# ---- Game.skills -------------------------------------------------------------------------------

def test_game_skills_holds_each_skill_as_declared(game):
    assert list(game.skills) == ["double", "steal", "cheer"]
    double, steal, cheer = game.skills.values()
    assert double.text == "Play a card for twice the points, and the bonus." and double.kinds == ("active",)
    assert double.options == (("play", "double"),) and double.triggers == 0 and double.procedures == ()
    assert steal.kinds == ("active", "limited") and steal.options == (("play", "steal"),)
    assert cheer.options == () and cheer.triggers == 1 and cheer.procedures == ("cheers",)
    assert (cheer.where.file, cheer.where.line) == ("skills.yaml", at(GAME, "text: 每当")[0])
    assert "options" not in game.source["skills"]["double"]     # what is left is the description


# ---- names checked -----------------------------------------------------------------------------

def test_an_undeclared_skill_named_in_effect_text_is_an_error_with_a_suggestion():
    text = GAME.replace('has(who, "double")', 'has(who, "dubble")')
    [error] = errors(text)
    assert (error.where.line, error.where.column) == at(text, '"dubble"')
    assert error.message == "no skill is called 'dubble'" and error.hint == "did you mean 'double'?"


def test_a_card_listing_an_undeclared_skill_is_an_error_at_that_card():
    text = GAME.replace("skills: [double, steal]}", "skills: [double, steel]}")
    [error] = errors(text)
    assert (error.where.line, error.where.column) == at(text, "steel")
    assert error.message == "card 'hero' has skills 'steel', which is not declared under skills:"
    assert error.hint == "did you mean 'steal'?"


def test_a_skill_option_for_a_choice_the_game_does_not_have_is_an_error_with_a_suggestion():
    text = GAME.replace("    options:\n      play:\n        - name: steal", "    options:\n      pley:\n        - name: steal")
    [error] = errors(text)
    assert (error.where.line, error.where.column) == at(text, "pley")
    assert error.message == "skill 'steal' adds an option to choice 'pley', which the game does not have"
    assert error.hint == "did you mean 'play'?"


def test_an_error_in_a_skill_effect_points_into_the_skill():
    text = GAME.replace("victim = player", "victm = player")
    [error] = errors(text)
    assert (error.where.line, error.where.column) == at(text, "victm")
    assert "unknown variable 'victm'" in error.message


def test_a_skill_in_a_module_points_into_the_module(tmp_path: Path):
    body, skills = GAME.split("skills:\n  double:")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "double.yaml").write_text("skills:\n  double:" + skills.replace("2 * sum", "2 * summ"),
                                                      encoding="utf-8")
    (tmp_path / "game.yaml").write_text("include: skills/double.yaml\n" + body, encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game(tmp_path / "game.yaml")
    [error] = info.value.errors
    module = (tmp_path / "skills" / "double.yaml").read_text(encoding="utf-8")
    assert (Path(error.where.file).name, error.where.line, error.where.column) == \
        ("double.yaml", *at(module, "summ"))


def test_the_game_of_skills_plays_cleanly(game):
    assert smoke(game, games=30) == []
