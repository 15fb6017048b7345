"""Broken rule files never crash rulekit: a mutated rule file either loads or
is refused with RuleFileError, and a mutant that loads either plays or stops
with one of rulekit's own errors, naming the rule — never a Python traceback.

The mutations (deleted, doubled, swapped or cut lines; tokens replaced or
inserted) are drawn from fixed seeds, so a failure here always reproduces.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
import rulekit.testing
from rulekit.errors import RuleFileError, RuleRuntimeError, StepBudgetExceeded

SOURCE = (Path(__file__).resolve().parent.parent / "games" / "regicide.yaml").read_text(encoding="utf-8")
LINES = SOURCE.split("\n")
#: the mechanisms game: parameters, events, triggers per player, eliminations, hidden variables
MECHANISMS = (Path(__file__).resolve().parent / "games" / "mechanisms.yaml").read_text(encoding="utf-8")
MECH_TOKENS = ["return", "eliminate", "emit", "as", "event.", "owner", "event.amount", "call ask(",
               "params:", "[p]", "each_player:", "skip_if_only:", "reset:", "initial:", "visibility:",
               "shown_when:", "display:", "join(", "seats_from(", "seat_distance(", "phase",
               "all_players", "event.target", "ev.", "choose respond(", "distance(", "hurt(t)"]
TOKENS = ["move", "to", "top", "bottom", "if", "else:", "while", "for", "in", "let", "choose", "call",
          "hand", "hand(current)", "tavern", "damage", "(", ")", ":", "==", "=", "+=", "where",
          "it.value", "x", "1", "-1", '"a"', "players", "current", "none", "true", "size(", "sum(",
          "]", "[", "{", "}", "- ", "  ", "\t", "'", '"', "&a", "*a", "!!python/object", "|", ">",
          "#", "999999", "next player", "end turn", "goto", "win", "lose"]


def mutant(seed: int, lines: list[str] = LINES, extra: list[str] = ()) -> str:
    rng = random.Random(seed)
    tokens_pool = TOKENS + list(extra)
    lines = list(lines)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        op = rng.randrange(6)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op in (2, 3):
            tokens = lines[i].split(" ")
            j = rng.randrange(len(tokens) + (op == 3))
            if op == 2:
                tokens[j] = rng.choice(tokens_pool)
            else:
                tokens.insert(j, rng.choice(tokens_pool))
            lines[i] = " ".join(tokens)
        elif op == 4:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        else:
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
    return "\n".join(lines)


@pytest.mark.parametrize("source", ["regicide", "mechanisms"])
@pytest.mark.parametrize("block", range(6))
def test_mutated_rule_files_are_refused_or_play_without_crashing(block, source):
    loaded = 0
    for seed in range(block * 60, block * 60 + 60):
        text = mutant(seed) if source == "regicide" else mutant(seed, MECHANISMS.split("\n"), MECH_TOKENS)
        try:
            game = rulekit.load_game_text(text, "mutant.yaml")
        except RuleFileError as err:
            assert err.errors and all(str(e).startswith("mutant.yaml") for e in err.errors)
            continue
        loaded += 1
        for players in range(game.min_players, min(game.max_players, 4) + 1):
            rng = random.Random(seed)
            try:
                m = game.new_match(players=players, seed=seed, step_budget=20_000)
                for _ in range(200):
                    if m.decision is None:
                        break
                    m.apply(m.decision.options[rng.randrange(len(m.decision.options))])
            except (RuleRuntimeError, StepBudgetExceeded) as err:
                assert str(err)
            except ValueError as err:       # a mutant that changed the player counts or options
                assert "players" in str(err) or "option" in str(err)
    assert loaded < 60


def test_a_type_error_in_effect_text_names_the_statement():
    text = SOURCE.replace("        damage += n\n", '        damage += "n"\n')
    game = rulekit.load_game_text(text, "typo.yaml")
    line = next(i for i, l in enumerate(text.split("\n"), 1) if 'damage += "n"' in l)
    m = rulekit.testing.prepare(game, 2, zones={"enemy": ["J♠"], "hand(0)": ["5♥"], "hand(1)": ["2♣"]})
    with pytest.raises(RuleRuntimeError) as info:
        m.apply(next(a for a in m.legal_actions() if a.option == "card"))
    assert str(info.value).startswith(f"typo.yaml:{line}:9: the rule failed: ")
    assert "(in phase 'strike')" in str(info.value)
    assert m.decision is None


def test_an_inconsistent_dedent_is_a_syntax_error_at_that_line():
    text = SOURCE.replace("      choose solo_power\n", "      choose solo_power\n     pass\n")
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(text, "dedent.yaml")
    assert "this line's indentation matches no enclosing block" in str(info.value)


def _game_with_effect(effect: str) -> str:
    body = "\n".join("        " + line for line in effect.split("\n"))
    return ("name: Deep\nplayers: {min: 1, max: 1}\ncards: [{name: C}]\n"
            "zones: {d: {visibility: hidden}}\nvars: {v: 0}\n"
            f"turn:\n  phases:\n    - name: p\n      effect: |\n{body}\n")


def test_a_thousand_term_sum_is_refused_not_a_crash():
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(_game_with_effect("v = " + " + ".join(["1"] * 1000) + "\nwin"), "deep.yaml")
    assert "the expression is nested more than 100 deep" in str(info.value)


def test_blocks_nested_too_deep_are_refused_at_the_eleventh_block():
    effect = "\n".join("  " * i + "if true:" for i in range(12)) + "\n" + "  " * 12 + "win"
    with pytest.raises(RuleFileError) as info:
        rulekit.load_game_text(_game_with_effect(effect), "deep.yaml")
    assert "deep.yaml:20:29:" in str(info.value)   # the 11th if
    assert "blocks are nested more than 10 deep" in str(info.value)


def test_ten_nested_blocks_still_compile_and_run():
    effect = "\n".join("  " * i + "if true:" for i in range(10)) + "\n" + "  " * 10 + "win"
    game = rulekit.load_game_text(_game_with_effect(effect), "ok.yaml")
    assert game.new_match(players=1).result()["outcome"] == "win"
