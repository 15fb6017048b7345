"""The fuzzer's corpus (tests/fuzz_corpus.py): the seeds kept cover what the
window they were chosen from covers, every operator reaches every file, and
a file changed since falls back to the window."""
from __future__ import annotations

from pathlib import Path

import fuzz_corpus
import test_fuzz_rule_files as fz


def test_the_cover_keeps_every_feature_and_prefers_the_cheap_mutant():
    tried = {"f|0": ("f", 0, 0, "refused", 0.5),     # one slow mutant with everything
             "f|1": ("f", 1, 0, "refused", 0.01),    # two fast ones that together have it too
             "f|2": ("f", 2, 0, "refused", 0.01),
             "f|3": ("f", 3, 1, "loaded", 0.01)}     # the only one of its operator and outcome
    taken = {"f|0": {(1, 1, 2), (1, 2, 3)}, "f|1": {(1, 1, 2)}, "f|2": {(1, 2, 3)}, "f|3": {(1, 1, 2)}}
    seeds, features, left = fuzz_corpus.choose(tried, taken)
    assert seeds == {"f": [1, 2, 3]} and left == 0
    assert features == 2 + 2 + 2          # two arcs, two operators, two outcomes


def test_the_shipped_corpus_reaches_every_file_with_every_operator():
    """(Every game file, and the single files of the line-edit mutants.)"""
    corpus = fuzz_corpus.read_corpus()
    for _game, file in fz.RULE_FILES:
        kept = corpus.get(fuzz_corpus.file_key(file))
        assert kept is not None, f"{file} is not in tests/fuzz_corpus.json: run python tests/fuzz_corpus.py"
        assert {seed % fz.OPERATORS for seed in kept["seeds"]} == set(range(fz.OPERATORS)), file
    for source in fz.LINE_SOURCES:
        assert corpus[fuzz_corpus.line_key(source)]["seeds"], source


def test_a_file_changed_since_the_corpus_was_chosen_gets_the_window():
    game, file = fz.RULE_FILES[0]
    window = list(range(fz.FIRST_SEED, fz.FIRST_SEED + fz.window_of(game, file)))
    assert fz.seeds_of(game, file, Path(file).read_bytes() + b"\n# changed\n") == window


def test_the_corpus_seeds_of_an_unchanged_file_are_tried(monkeypatch):
    game, file = fz.RULE_FILES[0]
    monkeypatch.setattr(fz, "WINDOW", False)           # (as without RULEKIT_FUZZ_MUTANTS)
    monkeypatch.setitem(fz.CORPUS, fuzz_corpus.file_key(file),
                        {"sha256": fuzz_corpus.digest(Path(file).read_bytes()), "seeds": [5, 17]})
    assert fz.seeds_of(game, file, Path(file).read_bytes()) == [5, 17]
    monkeypatch.setitem(fz.CORPUS, fuzz_corpus.line_key("regicide"), {"sha256": "0" * 64, "seeds": [3]})
    assert fz.line_seeds("regicide") == list(range(fz.LINE_WINDOW))     # chosen for another text
