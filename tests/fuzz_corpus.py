"""The fuzzer's corpus: the mutants of every game file that the suite tries,
chosen by the code of rulekit they reach.

Random mutants mostly repeat each other: of a few thousand, most reach only
code that others reached already.  As fuzzers do with their corpora
(``afl-cmin``, libFuzzer's ``-merge``), this script tries a wide window of
seeds for every file of every shipped game (and of :func:`line_mutant`'s
line edits of the two single files it fuzzes), records for each mutant the
branches of ``rulekit/`` it took (coverage.py, one dynamic context per
mutant), and keeps a small set of seeds that together take every branch any
of them took, with every operator of :func:`hostile_mutant` on every file
and, for every file, a mutant refused and (where one loads) a mutant that
loads.  The choice is greedy, by new branches per second of loading.

    python tests/fuzz_corpus.py                  # rewrite tests/fuzz_corpus.json
    python tests/fuzz_corpus.py --mutants 2000   # from a wider window

Each file's seeds are kept with the SHA-256 of the text they were chosen
for: a file changed since (or added) is fuzzed with the window of seeds the
suite tried before the corpus (``RULEKIT_FUZZ_MUTANTS`` mutants a game,
split by size), until this script is run again.  A change to rulekit itself
leaves the corpus valid but lets it drift from "every branch": run the
script again after a change to the loader, the composer or the compiler.
It takes about seven minutes on two cores.
"""
from __future__ import annotations

import argparse
import hashlib
import heapq
import json
import os
import pickle
import shutil
import sqlite3
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = HERE / "fuzz_corpus.json"


def file_key(file: Path) -> str:
    """A game file's name in the corpus: its path from the checkout."""
    return file.resolve().relative_to(ROOT).as_posix()


def line_key(source: str) -> str:
    """The corpus's name for the line edits of one single file (``LINE_SOURCES``)."""
    return f"lines:{source}"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_corpus() -> dict[str, dict]:
    """The corpus by file key: ``{"sha256": ..., "seeds": [...]}``."""
    if not CORPUS.exists():
        return {}
    return json.loads(CORPUS.read_text(encoding="utf-8"))["files"]


def _measure(cases: Iterator[tuple[str, int, int, Callable[[], str]]], data_file: str) -> dict:
    """Run each case (file key, seed, operator, the check of its mutant) in
    its own coverage context, "key|seed"; returns per context the key, the
    seed, the operator, the outcome and the seconds the check took."""
    import coverage
    cov = coverage.Coverage(branch=True, source=[str(ROOT / "rulekit")], data_file=data_file)
    out: dict[str, tuple[str, int, int, str, float]] = {}
    cov.start()
    try:
        for key, seed, op, check in cases:
            context = f"{key}|{seed}"
            cov.switch_context(context)
            start = time.process_time()
            outcome = check()
            out[context] = (key, seed, op, outcome, time.process_time() - start)
    finally:
        cov.stop()
        cov.save()
    return out


def _file_cases(pairs: list[tuple[str, str]], mutants: int) -> Iterator[tuple[str, int, int, Callable[[], str]]]:
    """The window of mutants of each (game, file), each written in a copy of
    the game's tree as the suite's test does (and the file put back)."""
    import test_fuzz_rule_files as fz
    with tempfile.TemporaryDirectory() as tmp:
        copies: dict[Path, Path] = {}

        def copy_of(tree: Path) -> Path:
            if tree not in copies:
                copies[tree] = Path(tmp) / f"tree{len(copies)}"
                shutil.copytree(tree, copies[tree], ignore=shutil.ignore_patterns("__pycache__"))
            return copies[tree]

        for game_s, file_s in pairs:
            game, file = Path(game_s), Path(file_s)
            copy, target, loaded = fz.mutation_site(game, file, copy_of)
            source, key = file.read_bytes(), file_key(file)
            try:
                for seed in range(fz.window_of(game, file, mutants)):
                    target.write_bytes(fz.hostile_mutant(source, seed))   # (checked before the next is written)
                    yield key, seed, seed % fz.OPERATORS, lambda s=seed, g=loaded, t=copy: fz.check_game(g, s, t)
            finally:
                target.write_bytes(source)


def _line_cases(mutants: int) -> Iterator[tuple[str, int, int, Callable[[], str]]]:
    """The line-edit mutants of the single files (``LINE_SOURCES``), read from their text."""
    import test_fuzz_rule_files as fz
    for source in fz.LINE_SOURCES:
        for seed in range(mutants):
            data = fz.line_mutant(source, seed).encode("utf-8")
            yield line_key(source), seed, 0, lambda data=data, seed=seed: fz.check_mutant(data, seed)


def _try_files(pairs: list[tuple[str, str]], mutants: int, data_file: str) -> dict:
    return _measure(_file_cases(pairs, mutants), data_file)


def _try_lines(mutants: int, data_file: str) -> dict:
    return _measure(_line_cases(mutants), data_file)


def _branches(data_file: str) -> dict[str, set[tuple[str, int, int]]]:
    """Per context, the (file, from, to) arcs it took, from coverage's database."""
    db = sqlite3.connect(data_file)
    contexts = dict(db.execute("select id, context from context"))
    files = {i: sys.intern(path) for i, path in db.execute("select id, path from file")}
    taken: dict[str, set[tuple[str, int, int]]] = {}
    for ctx, fid, a, b in db.execute("select context_id, file_id, fromno, tono from arc"):
        taken.setdefault(contexts[ctx], set()).add((files[fid], a, b))
    db.close()
    return taken


def choose(tried: dict, taken: dict[str, set]) -> tuple[dict[str, list[int]], int, int]:
    """Greedy set cover: the seeds that take every branch taken, every
    operator on every file, and each file's outcomes; by new features per
    second (lazily: a mutant's gain only falls as others are chosen, so
    the best of a heap whose gain is still current is the best of all).
    Returns the seeds by file key, the features and how many are left."""
    feats: dict[str, frozenset] = {}
    for ctx, (key, _seed, op, outcome, _secs) in tried.items():
        feats[ctx] = frozenset(taken.get(ctx, ())) | {("op", key, op), ("outcome", key, outcome)}
    wanted = set().union(*feats.values())
    left = set(wanted)

    def score(ctx: str, gain: int) -> tuple[float, int]:
        return (-gain / (tried[ctx][4] + 0.005), tried[ctx][1])

    heap = [(*score(c, len(f)), c) for c, f in feats.items()]
    heapq.heapify(heap)
    chosen: dict[str, list[int]] = {}
    while left and heap:
        _, _, ctx = heapq.heappop(heap)
        gain = len(feats[ctx] & left)
        if not gain:
            continue
        now = (*score(ctx, gain), ctx)
        if heap and now > heap[0]:           # another may be better now: look again later
            heapq.heappush(heap, now)
            continue
        left -= feats[ctx]
        chosen.setdefault(tried[ctx][0], []).append(tried[ctx][1])
    return {k: sorted(v) for k, v in sorted(chosen.items())}, len(wanted), len(left)


def _trials(pairs: list[tuple[str, str]], mutants: int, jobs: int) -> tuple[dict, dict[str, set]]:
    """Every mutant of the windows tried, in ``jobs`` processes: what
    :func:`_measure` says of each, and the branches each took."""
    parts = [pairs[i::jobs] for i in range(jobs)]
    with tempfile.TemporaryDirectory() as tmp:
        files = [str(Path(tmp) / f"cov{i}") for i in range(len(parts) + 1)]
        with ProcessPoolExecutor(jobs) as pool:
            running = [pool.submit(_try_files, part, mutants, f) for part, f in zip(parts, files)]
            running.append(pool.submit(_try_lines, mutants, files[-1]))
            results = [r.result() for r in running]
        taken: dict[str, set] = {}
        for f in files:
            taken.update(_branches(f))
    return {k: v for r in results for k, v in r.items()}, taken


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=900, help="mutants a game in the window tried (default 900)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--trials", help="keep the mutants' branches in this file, or read them from it when it exists")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import test_fuzz_rule_files as fz
    pairs = [(str(g), str(f)) for g, f in fz.RULE_FILES]
    if args.trials and Path(args.trials).exists():
        with open(args.trials, "rb") as f:
            tried, taken = pickle.load(f)
    else:
        tried, taken = _trials(pairs, args.mutants, args.jobs)
        if args.trials:
            with open(args.trials, "wb") as f:
                pickle.dump((tried, taken), f)
    seeds, features, uncovered = choose(tried, taken)
    texts = {file_key(Path(f)): Path(f).read_bytes() for _g, f in pairs}
    texts.update({line_key(source): text.encode() for source, (text, _) in fz.LINE_SOURCES.items()})
    entries = {k: {"sha256": digest(text), "seeds": seeds.get(k, [])} for k, text in texts.items()}
    before = sum(fz.window_of(Path(g), Path(f), fz.MUTANTS) for g, f in pairs) + fz.LINE_WINDOW * len(fz.LINE_SOURCES)
    secs = {c: v[4] for c, v in tried.items()}
    kept = sum(secs[f"{k}|{s}"] for k, v in seeds.items() for s in v)
    built = {"mutants_a_game": args.mutants, "mutants_tried": len(tried), "features": features}
    rows = ",\n".join(f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v)}" for k, v in entries.items())
    CORPUS.write_text(f'{{\n "built_with": {json.dumps(built)},\n "files": {{\n{rows}\n }}\n}}\n', encoding="utf-8")
    print(f"{len(tried)} mutants tried ({sum(secs.values()):.1f} s traced), {features} features "
          f"(branches of rulekit, operators and outcomes by file), {uncovered} left uncovered; "
          f"kept {sum(len(v) for v in seeds.values())} mutants ({kept:.1f} s traced) "
          f"where the windows of {fz.MUTANTS} a game and {fz.LINE_WINDOW} a single file have {before}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
