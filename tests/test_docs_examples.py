"""The rule files in docs/examples load, play cleanly and do what the
authoring guide (docs/authoring.md) says they do."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import rulekit
from rulekit.testing import prepare, smoke

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


@pytest.fixture(scope="module")
def last_card():
    return rulekit.load_game(EXAMPLES / "last_card.yaml")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_plays_cleanly(path):
    assert smoke(rulekit.load_game(path), games=30) == []


def offered(m) -> set[str]:
    return {m.describe_action(a) for a in m.legal_actions()}


def test_guide_example_eights_are_wild(last_card):
    m = prepare(last_card, players=2, zones={"pile": ["7♥"], "hand(0)": ["8♠", "2♣"], "deck": ["K♦"]})
    assert offered(m) == {"card 8♠", "draw"}


def test_matching_suit_or_rank(last_card):
    m = prepare(last_card, players=2, zones={"pile": ["7♥"], "hand(0)": ["2♥", "7♣", "9♠"],
                                             "deck": ["K♦"]})
    assert offered(m) == {"card 2♥", "card 7♣", "draw"}


def test_emptying_the_hand_wins_for_that_player_only(last_card):
    m = prepare(last_card, players=3, current=1,
                zones={"pile": ["7♥"], "hand(1)": ["7♣"], "hand(0)": ["2♠"], "hand(2)": ["3♠"]})
    m.apply(next(a for a in m.legal_actions() if a.option == "card"))
    assert m.result()["winners"] == [1]
    assert m.result()["reason"] == "emptied their hand first"


def test_drawing_from_an_empty_deck_reshuffles_the_pile_but_its_top(last_card):
    m = prepare(last_card, players=2, zones={"pile": ["7♥", "2♣", "3♣"], "hand(0)": ["9♠"],
                                             "hand(1)": ["4♦"]})
    m.apply(next(a for a in m.legal_actions() if a.option == "draw"))
    assert [c.name for c in m.zone("pile").cards] == ["7♥"]
    assert len(m.zone("hand", 0).cards) == 2 and len(m.zone("deck").cards) == 1


def test_blocked_game_is_won_by_the_fewest_cards(last_card):
    """Nothing to draw and nobody can play: every player passes once, then
    the fewest cards left win (all tied players)."""
    m = prepare(last_card, players=3, zones={"pile": ["7♥"], "hand(0)": ["2♠", "3♠"],
                                             "hand(1)": ["4♠"], "hand(2)": ["5♠"]})
    for _ in range(3):
        assert offered(m) == {"pass"}
        m.apply(m.legal_actions()[0])
    assert m.result()["winners"] == [1, 2]


def test_the_readme_example_rule_file_loads_and_plays():
    """The rule file shown in README.md ("Writing a game") is a real game."""
    readme = (EXAMPLES.parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Writing a game", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    game = rulekit.load_game_text(block, "README.md")
    assert len(game.cards) == 6
    assert smoke(game, games=20) == []


def test_the_readme_forms_for_bigger_games_work():
    """The second rule-file block of README.md ("Bigger games use a few more
    forms") works when added to the first one, and does what the text says."""
    readme = (EXAMPLES.parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in readme.split("## Writing a game", 1)[1].split("```yaml")[1:3]]
    data, extra = (yaml.safe_load(b) for b in blocks)
    # plain YAML reads the key 'on' as true; rulekit's loader does not
    extra["triggers"] = [{("on" if k is True else k): v for k, v in t.items()} for t in extra["triggers"]]
    for key, value in extra.items():
        if isinstance(value, dict):
            data.setdefault(key, {}).update(value)
        else:
            data.setdefault(key, []).extend(value)
    del data["card_total"]
    game = rulekit.load_game_text(yaml.safe_dump(data, allow_unicode=True), "README.md")
    assert game.new_match(3).options == {"start_hp": 2, "thorns": False}
    assert game.vars["order"] == [] and game.cards[-1].props["tags"] == ["attack", "basic"]

    m = prepare(game, 4, zones={"hand(0)": ["Hit"], "deck": ["Joker"]}, player_vars={p: {"hp": 2} for p in range(4)},
                options={"thorns": True}, out=[2])
    hurt = game.procedures["hurt"].run       # never decides: a plain function
    assert hurt(m, 0, 1) == 1 and m.pvars[0]["hp"] == 1      # holding a card: no thorns
    assert hurt(m, 1, 1) == 2 and m.pvars[1]["hp"] == 0      # empty hand: one more
    assert m.players == [0, 3] and m.out == [False, True, True, False]
    assert "team" in m.view(0)["player_vars"][1] and "team" not in m.view(0)["player_vars"][3]
    m.apply(next(a for a in m.legal_actions() if a.option == "pass"))
    assert m.current == 3                                     # seats 1 and 2 are skipped


# ---- modules, variants and skills (docs/authoring.md, sections 7 and 8) -------------------------

GUIDE = EXAMPLES.parent / "authoring.md"


def guide_blocks() -> list[str]:
    return [b.split("```", 1)[0] for b in GUIDE.read_text(encoding="utf-8").split("```yaml\n")[1:]]


def guide_files() -> dict[str, str]:
    """The guide's YAML blocks that begin with ``# file: PATH``: the files of its worked example."""
    return {b.split("\n", 1)[0][len("# file: "):]: b for b in guide_blocks() if b.startswith("# file: ")}


def test_the_guide_shows_the_house_variant_as_it_is():
    house = (EXAMPLES.parents[1] / "games" / "regicide_house.yaml").read_text(encoding="utf-8")
    assert house in guide_blocks()


@pytest.fixture
def duel(tmp_path):
    files = guide_files()
    assert set(files) == {"games/duel/game.yaml", "games/duel/skills.yaml", "games/modules/combat.yaml"}
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    return rulekit.load_game(tmp_path / "games" / "duel")


def test_the_guides_game_in_several_files_plays_cleanly(duel):
    assert duel.name == "Duel" and smoke(duel, games=30) == []
    assert duel.player_vars == {"life": 3, "skills": []}          # the module's 'health', named by the game
    assert list(duel.skills) == ["fury", "second_wind"] and duel.skills["fury"].options == (("act", "fury"),)


def test_the_guides_skills_do_what_their_text_says(duel):
    m = prepare(duel, 2, current=1, zones={"hand(1)": ["Strike", "Strike"], "deck": ["Guard", "Strike", "Guard"]},
                player_vars={0: {"skills": ["second_wind"], "life": 3}, 1: {"skills": ["fury"], "life": 3}})
    assert [a.option for a in m.legal_actions()][0] == "fury"          # the marker puts skills first
    m.apply(next(a for a in m.legal_actions() if a.option == "fury"))  # two strikes at once: its effect
    assert m.pvars[0]["life"] == 1 and [c.name for c in m.zone("discard").cards] == ["Strike", "Strike"]
    # player 1 drew the Guard; second wind drew the Strike; player 0's turn draws the last Guard
    assert m.decision.player == 0 and sorted(c.name for c in m.zone("hand", 0).cards) == ["Guard", "Strike"]
