"""Broken rule files never crash rulekit: a mutated rule file either loads or
is refused with RuleFileError, and a mutant that loads either plays or stops
with one of rulekit's own errors, naming the rule — never a Python traceback.

The mutations (deleted, doubled, swapped or cut lines; tokens replaced or
inserted) are drawn from fixed seeds, so a failure here always reproduces.
"""
from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path
from typing import Callable

import fuzz_corpus
import pytest
from game_files import game_files, game_id, load

import rulekit
import rulekit.testing
from rulekit.errors import LINE_BREAK, RuleFileError, RuleRuntimeError, StepBudgetExceeded
from rulekit.yamlsafe import decode_rule_file

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


#: the two single files fuzzed with :func:`mutant`'s line edits: their texts and extra tokens
LINE_SOURCES = {"regicide": (SOURCE, []), "mechanisms": (MECHANISMS, MECH_TOKENS)}
#: the seeds of :func:`mutant` a file is fuzzed with when the corpus has none for its text
LINE_WINDOW = 360


def line_mutant(source: str, seed: int) -> str:
    text, extra = LINE_SOURCES[source]
    return mutant(seed, text.split("\n"), extra)


def line_seeds(source: str) -> list[int]:
    """The corpus's seeds of :func:`line_mutant` for ``source`` (chosen for
    its very text by tests/fuzz_corpus.py), else the window of LINE_WINDOW."""
    kept = corpus_seeds(fuzz_corpus.line_key(source), LINE_SOURCES[source][0].encode())
    return kept if kept is not None else list(range(LINE_WINDOW))


def corpus_seeds(key: str, text: bytes) -> list[int] | None:
    """The corpus's seeds under ``key`` when they were chosen for ``text``
    and no window is asked for, else None."""
    kept = CORPUS.get(key)
    if WINDOW or kept is None or kept["sha256"] != fuzz_corpus.digest(text):
        return None
    return kept["seeds"]


@pytest.mark.parametrize("source", list(LINE_SOURCES))
def test_mutated_rule_files_are_refused_or_play_without_crashing(source):
    outcomes = [check_mutant(line_mutant(source, seed).encode("utf-8"), seed) for seed in line_seeds(source)]
    assert "refused" in outcomes


# ---- every game file, with operators aimed at hostile input ----------------------------------

ROOT = Path(__file__).resolve().parent.parent
#: every game shipped, found by glob so that a new game is fuzzed too
GAME_FILES = game_files()
#: the window of seeds a file is fuzzed with when the corpus has no seeds for its text (a file
#: added or changed since tests/fuzz_corpus.py last chose them), or when RULEKIT_FUZZ_MUTANTS
#: or RULEKIT_FUZZ_FIRST_SEED is set: MUTANTS of each game, split between its files by size,
#: with at least MIN_PER_FILE of every file (a run of consecutive seeds starts a mutant with each
#: of the OPERATORS in turn, see :func:`hostile_mutant`, so each kind of damage reaches each
#: file, however small).  A mutant costs a load of the whole game (~0.05 s of CPU for the
#: largest); a long run takes thousands (RULEKIT_FUZZ_MUTANTS=5000), RULEKIT_FUZZ_FIRST_SEED
#: moves the window.  Error paths the fuzzer found once are kept as tests of their own
#: (tests/test_fuzz_findings.py), so they do not depend on the window.
WINDOW = "RULEKIT_FUZZ_MUTANTS" in os.environ or "RULEKIT_FUZZ_FIRST_SEED" in os.environ
MUTANTS = int(os.environ.get("RULEKIT_FUZZ_MUTANTS", "300"))
FIRST_SEED = int(os.environ.get("RULEKIT_FUZZ_FIRST_SEED", "0"))
OPERATORS = 12
MIN_PER_FILE = OPERATORS


def window_of(game: Path, file: Path, mutants: int = MUTANTS) -> int:
    """The mutants of one file of a game in a window: the game's ``mutants``
    split between its files by size, and never fewer than MIN_PER_FILE."""
    files = [Path(f) for f in files_of(game)]
    total = sum(f.stat().st_size for f in files)
    return max(MIN_PER_FILE, mutants * file.stat().st_size // max(total, 1))


def seeds_of(game: Path, file: Path, source: bytes) -> list[int]:
    """The seeds of the mutants the suite tries of ``file``: the corpus's,
    chosen for this very text by tests/fuzz_corpus.py (the branches of
    rulekit the window of 900 mutants a game takes, every operator on
    every file), else the window."""
    kept = corpus_seeds(fuzz_corpus.file_key(file), source)
    return kept if kept is not None else list(range(FIRST_SEED, FIRST_SEED + window_of(game, file)))


def files_of(game: Path) -> tuple[str, ...]:
    """The files a shipped game reads (the game loaded once per test process)."""
    return tuple(load(game).files)


HOSTILE_TOKENS = [
    "\x00", "\x07", "\x1b", "\x7f", "\u2028", "\ufeff", "\ufffe", "\t", "\r", "\x85",
    "9" * 4301, "1" * 17, "-" + "9" * 30, "1e999", ".nan", "0x" + "f" * 40, "1_000_000_000_000_000_000",
    "1:" * 40 + "1", "!!int", "!!float", "!!binary", "!!python/name:os.system", "&x", "*x", "<<: ",
    "{who:>1000000000}", "{p.__class__.__mro__}", "{0}", "{}", "{{", "}}", "{p!r}", "{nope}", "{p[0]}",
    "[" * 60, "{a: " * 60, "(" * 200, "not " * 200, "- " * 60, "?", "%YAML 1.1", "---", "...",
    "count: 100000000000", "max: 1000000000", "each: {a: [1, 2, 3], b: [1, 2, 3]}",
]


def hostile_mutant(source: bytes, seed: int) -> bytes:
    """A mutant of a rule file: one to three edits, line edits as in
    :func:`mutant` plus edits that hostile files make (control characters,
    bytes that are not UTF-8, huge numbers, format specs in prompts, deep
    nesting, giant counts).  The first edit's operator is ``seed`` modulo
    OPERATORS, the others' random."""
    rng = random.Random(seed)
    lines = source.split(b"\n")
    for edit in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        # the seed picks the first operator (every operator in every run of OPERATORS seeds)
        op = seed % OPERATORS if edit == 0 else rng.randrange(OPERATORS)
        line = lines[i]
        if op == 0:
            del lines[i]
            if not lines:
                lines = [b""]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op in (2, 3):                    # a token replaced or inserted
            tokens = line.split(b" ")
            j = rng.randrange(len(tokens) + (op == 3))
            token = rng.choice(TOKENS + MECH_TOKENS + HOSTILE_TOKENS).encode("utf-8")
            if op == 2:
                tokens[j] = token
            else:
                tokens.insert(j, token)
            lines[i] = b" ".join(tokens)
        elif op == 4:
            lines[i] = line[: rng.randrange(len(line) + 1)]
        elif op == 5:
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
        elif op == 6:                         # one byte: any value, often not UTF-8 or a control
            j = rng.randrange(len(line) + 1)
            lines[i] = line[:j] + bytes([rng.randrange(256)]) + line[j + rng.randrange(2):]
        elif op == 7:                         # a number made huge
            lines[i] = re.sub(rb"\d+", lambda m: rng.choice([b"9" * rng.choice((16, 20, 4301)),
                                                              b"1000000000", b"100000000000"]), line, count=1)
        elif op == 8:                         # a placeholder of a prompt given a format spec
            fill = rng.choice([b":>1000000000", b".__class__", b"!r", b"[0]", b"x", b":", b""])
            lines[i] = re.sub(rb"\{(\w+)\}", lambda m, fill=fill: b"{" + m.group(1) + fill + b"}", line, count=1) \
                if b"{" in line else line + b" {" + fill + b"}"
        elif op == 9:                         # deep nesting in YAML or in effect text
            depth = rng.choice((5, 49, 60, 300))
            opener, closer = rng.choice([(b"[", b"]"), (b"{a: ", b"}"), (b"(", b")")])
            j = rng.randrange(len(line) + 1)
            lines[i] = line[:j] + opener * depth + b"1" + closer * rng.choice((0, depth)) + line[j:]
        elif op == 10:                        # a line repeated many times (long texts, many keys)
            lines[i:i + 1] = [line] * rng.choice((20, 200))
        else:                                 # an indentation changed
            lines[i] = b" " * rng.choice((1, 2, 4)) + line if rng.random() < 0.5 else line.lstrip(b" ")
    return b"\n".join(lines)


def check_mutant(data: bytes, seed: int, file: str = "mutant.yaml", tree: Path | None = None) -> str:
    """Load a mutant and, if it loads, play a couple of random games: every
    failure must be a RuleFileError pointing inside the file (or inside a
    module of ``tree`` the mutant reads, unchanged on disk: a variant whose
    override breaks a rule of the game it extends), or rulekit's own runtime
    error.  Returns "refused" or "loaded"."""
    try:
        game = rulekit.load_game_text(decode_rule_file(data, file), file, tree)
    except RuleFileError as err:
        assert err.errors
        for e in err.errors:
            if e.where.file == file:
                text = data.decode("utf-8", "replace")
            else:
                assert tree is not None and tree in Path(e.where.file).resolve().parents, str(e)
                text = Path(e.where.file).read_text(encoding="utf-8")
            assert 1 <= e.where.line <= line_count(text) and e.where.column >= 1, str(e)
        return "refused"
    return play_a_little(game, seed)


def line_count(text: str) -> int:
    """The lines of a text as YAML counts them: \r, NEL, LS and PS break
    lines too, as rulekit's positions do (``rulekit.errors.LINE_BREAK``)."""
    return len(LINE_BREAK.findall(text)) + 1


def play_a_little(game: rulekit.Game, seed: int) -> str:
    """Play a couple of random games of a mutant that loaded: only rulekit's
    own runtime errors may come out."""
    low = game.min_players
    for players in {low, min(game.max_players, low + 2)}:
        rng = random.Random(seed)
        try:
            m = game.new_match(players=players, seed=seed, step_budget=5_000)
            for _ in range(60):
                if m.decision is None:
                    break
                m.apply(rng.randrange(len(m.decision.options)))
            if m.decision is not None:
                m.view(m.decision.player)
        except (RuleRuntimeError, StepBudgetExceeded) as err:
            assert str(err)
        except ValueError as err:       # a mutant that changed the player counts or options
            assert "players" in str(err) or "option" in str(err)
    return "loaded"


def rule_files() -> list[tuple[Path, Path]]:
    """(a game, one file it reads) for every file of every game shipped,
    each file once (a module several games include, with the first)."""
    out, seen = [], set()
    for game in GAME_FILES:
        for file in files_of(game):
            real = Path(file).resolve()
            if real not in seen:
                seen.add(real)
                out.append((game, real))
    return out


RULE_FILES = rule_files()
CORPUS = fuzz_corpus.read_corpus()


def _rule_file_id(pair) -> str:
    game, file = pair
    return file.stem if file.parent == game.parent else f"{game_id(game)}:{file.stem}"


@pytest.fixture(scope="session")
def tree_copies(tmp_path_factory):
    """One copy of each game's tree per test process, shared by the tests
    that mutate its files (each puts its file back): the unchanged files
    keep their names and texts, so loading a mutant reparses only the
    mutated file (see :func:`rulekit.yamlsafe.load_yaml`)."""
    copies: dict[Path, Path] = {}

    def copy_of(tree: Path) -> Path:
        if tree not in copies:
            copy = tmp_path_factory.mktemp("tree") / "tree"
            shutil.copytree(tree, copy, ignore=shutil.ignore_patterns("__pycache__"))
            copies[tree] = copy
        return copies[tree]
    return copy_of


@pytest.mark.parametrize("pair", RULE_FILES, ids=_rule_file_id)
def test_mutants_of_every_game_file_are_refused_with_a_position_or_play(pair, tree_copies):
    """Each file of a game mutated in a copy of the game's tree, the game loaded."""
    game, file = pair
    copy, target, loaded = mutation_site(game, file, tree_copies)
    source = file.read_bytes()
    assert target.read_bytes() == source, "a test before this one left a mutant in the shared copy"
    outcomes = []
    try:
        for seed in seeds_of(game, file, source):
            target.write_bytes(hostile_mutant(source, seed))
            outcomes.append(check_game(loaded, seed, copy))
    finally:
        target.write_bytes(source)
    assert "refused" in outcomes    # (the corpus keeps a refused mutant of every file; a window's
                                    # MIN_PER_FILE mutants cannot all be harmless)


def mutation_site(game: Path, file: Path, copy_of: Callable[[Path], Path]) -> tuple[Path, Path, Path]:
    """Where mutants of ``file`` are written in the copy ``copy_of`` makes of
    ``game``'s tree, and what is loaded to read them: the copy, the file in
    it, and the game in it (a folder game by its folder)."""
    tree = (game.parent.parent if game.name == "game.yaml" else game.parent).resolve()
    copy = copy_of(tree)
    target, loaded = copy / file.relative_to(tree), copy / game.resolve().relative_to(tree)
    return copy, target, loaded.parent if loaded.name == "game.yaml" else loaded


def check_game(game: Path, seed: int, tree: Path) -> str:
    """Load a game whose module was mutated: every error points into a file
    of the tree, at a line that file has."""
    try:
        loaded = rulekit.load_game(game)
    except RuleFileError as err:
        assert err.errors
        lines: dict[str, int] = {}          # (a mutant's errors are often many, in one or two files)
        for e in err.errors:
            if e.where.file not in lines:
                file = Path(e.where.file)
                assert file.resolve().is_relative_to(tree.resolve()), str(e)
                lines[e.where.file] = line_count(file.read_bytes().decode("utf-8", "replace"))
            assert 1 <= e.where.line <= lines[e.where.file] and e.where.column >= 1, str(e)
        return "refused"
    return play_a_little(loaded, seed)


def test_the_fuzzer_sees_every_game_file():
    names = {game_id(p) for p in GAME_FILES}
    assert {"regicide", "sanguosha", "last_card"} <= names


def test_a_type_error_in_effect_text_names_the_statement():
    text = SOURCE.replace("        damage += n\n", '        damage += first(["n"])\n')
    game = rulekit.load_game_text(text, "typo.yaml")
    line = next(i for i, row in enumerate(text.split("\n"), 1) if 'damage += first(["n"])' in row)
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
