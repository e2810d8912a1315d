"""Time claimlab's FEVER scoring: end to end at 199,980 claims, then the scoring alone.

First, end to end on the real 9,999 claims repeated 20 times with fresh ids (199,980 claims):
read and check both files, pair by id, score. Then the scoring alone, in memory, on the 9,999
claims, with and without every claim's details, and reading both files. The official scorer is
not restated here: ``bench_official.py`` runs it, from a folder the user gives, beside claimlab.

Prints figures; asserts nothing. Usage: .venv/bin/python benchmarks/bench_fever.py [DATA_DIR]
"""

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from claimlab.io.fever import load_gold, load_predictions, pair_by_id
from claimlab.metrics.fever import score_fever

DATA = (
    Path(sys.argv[1])
    if len(sys.argv) > 1
    else Path(__file__).resolve().parents[2] / "shared" / "data"
)
GOLD = DATA / "fever" / "paper_dev.jsonl"
PRED = DATA / "fever" / "fever_scorer_tests_baseline_predictions.jsonl"


def claimlab_end_to_end(gold_file, pred_file, max_evidence=5):
    """Read and check both files, pair by id, score; the four official figures."""
    pairs = pair_by_id(load_gold(gold_file), load_predictions(pred_file))
    r = score_fever(pairs, max_evidence=max_evidence)
    r.to_dict()  # every figure and count the command prints
    return r.strict_score, r.label_accuracy, r.precision, r.recall.value


def repeated_files(folder, copies=20):
    """The real gold and predictions, each line repeated ``copies`` times with fresh ids."""
    gold = [json.loads(x) for x in GOLD.read_text(encoding="utf-8").splitlines() if x.strip()]
    pred = [json.loads(x) for x in PRED.read_text(encoding="utf-8").splitlines() if x.strip()]
    g_file, p_file = folder / "gold.jsonl", folder / "pred.jsonl"
    with open(g_file, "w", encoding="utf-8") as g, open(p_file, "w", encoding="utf-8") as p:
        for c in range(copies):
            for a, b in zip(gold, pred, strict=True):
                offset = c * 10_000_000
                g.write(json.dumps({**a, "id": a["id"] + offset}) + "\n")
                p.write(json.dumps({**b, "id": b["id"] + offset}) + "\n")
    return g_file, p_file, len(gold) * copies


def end_to_end(repeat=3):
    with tempfile.TemporaryDirectory() as tmp:
        g_file, p_file, n = repeated_files(Path(tmp))
        ours = []
        for _ in range(repeat):
            t = time.perf_counter()
            claimlab_end_to_end(g_file, p_file)
            ours.append(time.perf_counter() - t)
        size = (g_file.stat().st_size + p_file.stat().st_size) >> 20
    print(f"end to end, {n} claims ({size} MB of JSON Lines), median of {repeat} runs:")
    print(f"  claimlab read, check, pair by id and score: {statistics.median(ours):6.2f} s")
    print("  (against the official scorer itself: benchmarks/bench_official.py)")


def best_of(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main():
    if not GOLD.exists() or not PRED.exists():
        print(f"FEVER data not found under {DATA}; nothing to measure")
        return
    end_to_end()
    print()
    gold, preds = load_gold(GOLD), load_predictions(PRED)
    pairs = pair_by_id(gold, preds)
    ours_min, ours_med = best_of(lambda: score_fever(pairs, max_evidence=5))
    details_min, _ = best_of(lambda: score_fever(pairs, max_evidence=5).claims)
    load_min, _ = best_of(lambda: pair_by_id(load_gold(GOLD), load_predictions(PRED)), repeat=3)
    print(f"scoring alone, in memory, claims: {len(pairs)}")
    print(
        f"claimlab score_fever (official figures): best {ours_min * 1000:.1f} ms, median {ours_med * 1000:.1f} ms"
    )
    print(
        f"claimlab figures + every claim's witness details (groups complete, sentences missing): best {details_min * 1000:.1f} ms"
    )
    print(f"claimlab load + validate + pair both files: best {load_min * 1000:.1f} ms")


if __name__ == "__main__":
    main()
