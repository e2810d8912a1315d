"""claimlab against an official scorer: whole process against whole process, on the same input.

    .venv/bin/python benchmarks/bench_official.py --fever-scorer DIR [--sizes 0 100000] [--runs 3]

The official code is not part of claimlab and is not restated here: give the folder that holds
it. For FEVER that is the ``src`` folder of the ``fever-scorer`` source distribution (PyPI), the
one holding ``fever/scorer.py``; the official process reads both files with ``json.loads`` per
line, as its README shows, and calls ``fever_score(predictions, actual)``. A scorer not given is
reported absent, nothing is measured for it.

Sizes: 0 is the shared real file itself (``paper_dev.jsonl`` and its baseline predictions);
another size repeats the real lines with fresh ids up to that many claims. For each size both
processes run ``--runs`` times, alternating; printed: the median CPU seconds (user + system of
the whole process) and wall seconds of each, the ratio claimlab / official, and whether the four
figures agree. Asserts nothing.
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


def fever_row(
    scorer: Path, gold: Path, pred: Path, runs: int
) -> tuple[float, float, float, float, bool]:
    """Both processes ``runs`` times, alternating; medians, ratio and whether they agree."""
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(timed([CLAIMLAB, "fever", str(gold), str(pred), "--json"]))
        theirs.append(
            timed([sys.executable, "-c", OFFICIAL_FEVER, str(scorer), str(gold), str(pred)])
        )
    mine = json.loads(ours[-1][2])
    official = json.loads(theirs[-1][2])
    same = all(abs(mine[k] - v) < 1e-12 for k, v in zip(FIGURES, official, strict=True))
    return (
        statistics.median(c for c, _, _ in ours),
        statistics.median(c for c, _, _ in theirs),
        statistics.median(w for _, w, _ in ours),
        statistics.median(w for _, w, _ in theirs),
        same,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fever-scorer", type=Path, help="folder holding fever/scorer.py")
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--sizes", type=int, nargs="+", default=[0, 100_000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print("claimlab against the official scorer, whole processes, CPU seconds (median):")
    if args.fever_scorer is None or not (args.fever_scorer / "fever" / "scorer.py").is_file():
        print("  fever: official scorer absent (give --fever-scorer DIR holding fever/scorer.py)")
    elif not (args.data / "fever" / "paper_dev.jsonl").is_file():
        print(f"  fever: data absent under {args.data} (give --data)")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            for size in args.sizes:
                gold, pred, n = fever_files(args.data, size, Path(tmp))
                ours, theirs, w_ours, w_theirs, same = fever_row(
                    args.fever_scorer, gold, pred, args.runs
                )
                print(
                    f"  fever, {n:>9,} claims: claimlab {ours:6.2f} s, official {theirs:6.2f} s"
                    f" -> {ours / theirs:.2f}x  (wall {w_ours:.2f} s / {w_theirs:.2f} s)"
                    f"  same four figures: {same}",
                    flush=True,
                )
    for name in ("hotpotqa", "musique", "rag", "meta-eval"):
        print(f"  {name}: official script absent (not on a package registry; not measured)")
    print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
