"""claimlab against an official scorer: whole process against whole process, on the same input.

    .venv/bin/python benchmarks/bench_official.py --fever-scorer DIR \
        [--ragchecker DIR --ragchecker-python PY] [--sizes 0 100000] [--runs 3]

The official code is not part of claimlab and is not restated here: give the folder that holds
it. For FEVER that is the ``src`` folder of the ``fever-scorer`` source distribution (PyPI), the
one holding ``fever/scorer.py``; the official process reads both files with ``json.loads`` per
line, as its README shows, and calls ``fever_score(predictions, actual)``. For RAGChecker it is
the folder holding ``ragchecker/evaluator.py`` (the ``ragchecker`` wheel, PyPI, unpacked), run
by a Python that has RAGChecker's own needs (numpy, dataclasses-json, loguru); the process
scores the file as RAGChecker's command line does (``RAGResults.from_json``, then
``evaluate(results, "all_metrics")``). A scorer not given is reported absent, nothing is
measured for it.

Sizes: 0 is the shared real file itself (FEVER's ``paper_dev.jsonl`` and its baseline
predictions; RAGChecker's ``checking_outputs.json``); another size repeats the real records with
fresh ids up to that many. For each size both processes run ``--runs`` times, alternating;
printed: the median CPU seconds (user + system of the whole process) and wall seconds of each,
the ratio claimlab / official, and whether the figures agree. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLAIMLAB = str(Path(sys.executable).parent / "claimlab")
FIGURES = ("strict_score", "label_accuracy", "precision", "recall")
OFFICIAL_FEVER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from fever.scorer import fever_score
with open(sys.argv[3], encoding="utf-8") as f:
    predictions = [json.loads(line) for line in f]
with open(sys.argv[2], encoding="utf-8") as f:
    actual = [json.loads(line) for line in f]
strict, accuracy, precision, recall, f1 = fever_score(predictions, actual, max_evidence=5)
print(json.dumps([strict, accuracy, precision, recall]))
"""

# RAGChecker's own scoring, as its command line scores a file (``ragchecker/cli.py``: the results
# read with ``RAGResults.from_json``, then ``RAGChecker.evaluate(results, metrics)``). evaluate()
# calls the claim extractor and the checker (refchecker, an LLM) only for a check missing from
# the file; a checking output has every check, so they are never called: their names are given
# stand-ins so the module imports without the LLM stack, and the instance is made without its
# constructor (which would start them). Every line of scoring is RAGChecker's own.
OFFICIAL_RAG = """
import json, sys, types
sys.path.insert(0, sys.argv[1])
for name in ("refchecker", "refchecker.extractor", "refchecker.checker"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["refchecker.extractor"].LLMExtractor = None
for name in ("LLMChecker", "NLIChecker", "AlignScoreChecker"):
    setattr(sys.modules["refchecker.checker"], name, None)
from ragchecker.container import RAGResults
from ragchecker.evaluator import RAGChecker
with open(sys.argv[2], encoding="utf-8") as f:
    results = RAGResults.from_json(f.read())
RAGChecker.__new__(RAGChecker).evaluate(results, metrics="all_metrics")
print(json.dumps(results.metrics))
"""


def timed(command: list[str]) -> tuple[float, float, str]:
    """(CPU seconds of the process, wall seconds, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.stdout


def fever_files(data: Path, size: int, folder: Path) -> tuple[Path, Path, int]:
    """The real gold and predictions (size 0), or their lines repeated with fresh ids."""
    gold, pred = (
        data / "fever" / "paper_dev.jsonl",
        data / "fever" / ("fever_scorer_tests_baseline_predictions.jsonl"),
    )
    if size == 0:
        return gold, pred, sum(1 for line in gold.open(encoding="utf-8") if line.strip())
    g_rows = [json.loads(x) for x in gold.read_text(encoding="utf-8").splitlines() if x.strip()]
    p_rows = [json.loads(x) for x in pred.read_text(encoding="utf-8").splitlines() if x.strip()]
    g_file, p_file = folder / f"gold-{size}.jsonl", folder / f"pred-{size}.jsonl"
    with g_file.open("w", encoding="utf-8") as g, p_file.open("w", encoding="utf-8") as p:
        for i in range(size):
            copy, k = divmod(i, len(g_rows))
            offset = copy * 10_000_000
            g.write(json.dumps({**g_rows[k], "id": g_rows[k]["id"] + offset}) + "\n")
            p.write(json.dumps({**p_rows[k], "id": p_rows[k]["id"] + offset}) + "\n")
    return g_file, p_file, size


def side_by_side(ours: list[str], theirs: list[str], runs: int, name: str, n: str) -> Any:
    """Both processes ``runs`` times, alternating; their medians and ratio printed in one line
    (``name`` the official side, ``n`` the size); returns the last output of each, parsed."""
    mine, official = [], []
    for _ in range(runs):
        mine.append(timed(ours))
        official.append(timed(theirs))
    cpu = [statistics.median(c for c, _, _ in side) for side in (mine, official)]
    wall = [statistics.median(w for _, w, _ in side) for side in (mine, official)]
    print(
        f"  {n}: claimlab {cpu[0]:6.2f} s, {name} {cpu[1]:6.2f} s -> {cpu[0] / cpu[1]:.2f}x"
        f"  (wall {wall[0]:.2f} s / {wall[1]:.2f} s)",
        end="",
    )
    return json.loads(mine[-1][2]), json.loads(official[-1][2])


def fever_row(scorer: Path, gold: Path, pred: Path, runs: int, n: int) -> None:
    """claimlab fever and the official scorer on the same files; whether the figures agree."""
    mine, official = side_by_side(
        [CLAIMLAB, "fever", str(gold), str(pred), "--json"],
        [sys.executable, "-c", OFFICIAL_FEVER, str(scorer), str(gold), str(pred)],
        runs, "official", f"fever, {n:>9,} claims",
    )  # fmt: skip
    same = all(abs(mine[k] - v) < 1e-12 for k, v in zip(FIGURES, official, strict=True))
    print(f"  same four figures: {same}", flush=True)


def rag_file(data: Path, size: int, folder: Path) -> tuple[Path, int]:
    """The shared checking output (size 0), or its results repeated with fresh query ids.

    Both sides read the same file, written without the stored metrics: the shared file's
    overall ones are grouped under names an older RAGChecker wrote (``overall``, not 0.1.9's
    ``overall_metrics``, which evaluate() cannot add to), and a result's stored metric would be
    taken as it is instead of computed.
    """
    real = json.loads((data / "ragchecker" / "checking_outputs.json").read_text("utf-8"))
    rows = [{k: v for k, v in r.items() if k != "metrics"} for r in real["results"]]
    n = size or len(rows)
    results = []
    for i in range(n):
        copy, k = divmod(i, len(rows))
        qid = rows[k]["query_id"] if size == 0 else f"{rows[k]['query_id']}#{copy}"
        results.append({**rows[k], "query_id": qid})
    path = folder / f"rag-{n}.json"
    path.write_text(json.dumps({"results": results}, ensure_ascii=False), encoding="utf-8")
    return path, n


def rag_row(package: Path, python: str, path: Path, runs: int, n: int) -> None:
    """claimlab rag and RAGChecker's scoring on the same file; whether the eleven figures agree
    (RAGChecker gives each as a percentage rounded to one decimal)."""
    mine, official = side_by_side(
        [CLAIMLAB, "rag", str(path), "--json"],
        [python, "-c", OFFICIAL_RAG, str(package), str(path)],
        runs, "RAGChecker", f"rag, {n:>9,} queries",
    )  # fmt: skip
    same = all(
        mine["macro"][k]["value"] is not None and round(mine["macro"][k]["value"] * 100, 1) == v
        for group in official.values()
        for k, v in group.items()
    )
    print(f"  same eleven figures: {same}", flush=True)


def fever_rows(args: argparse.Namespace) -> None:
    """claimlab fever against the official FEVER scorer at each size, or why not."""
    if args.fever_scorer is None or not (args.fever_scorer / "fever" / "scorer.py").is_file():
        print("  fever: official scorer absent (give --fever-scorer DIR holding fever/scorer.py)")
        return
    if not (args.data / "fever" / "paper_dev.jsonl").is_file():
        print(f"  fever: data absent under {args.data} (give --data)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            gold, pred, n = fever_files(args.data, size, Path(tmp))
            fever_row(args.fever_scorer, gold, pred, args.runs, n)


def rag_rows(args: argparse.Namespace) -> None:
    """claimlab rag against RAGChecker's own scoring at each size, or why not."""
    if args.ragchecker is None or not (args.ragchecker / "ragchecker" / "evaluator.py").is_file():
        print("  rag: RAGChecker absent (give --ragchecker DIR holding ragchecker/evaluator.py)")
        return
    if not (args.data / "ragchecker" / "checking_outputs.json").is_file():
        print(f"  rag: data absent under {args.data} (give --data)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            path, n = rag_file(args.data, size, Path(tmp))
            rag_row(args.ragchecker, args.ragchecker_python, path, args.runs, n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fever-scorer", type=Path, help="folder holding fever/scorer.py")
    ap.add_argument("--ragchecker", type=Path, help="folder holding ragchecker/evaluator.py")
    ap.add_argument(
        "--ragchecker-python",
        default=sys.executable,
        help="a Python with RAGChecker's own needs: numpy, dataclasses-json, loguru",
    )
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--sizes", type=int, nargs="+", default=[0, 100_000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print("claimlab against the official scorer, whole processes, CPU seconds (median):")
    fever_rows(args)
    rag_rows(args)
    for name in ("hotpotqa", "musique", "meta-eval"):
        print(f"  {name}: official script absent (not on a package registry; not measured)")
    print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
