"""Time claimlab's FEVER scoring beside the official scorer's way of reading and scoring.

First, end to end on the real 9,999 claims repeated 20 times with fresh ids (199,980 claims):
claimlab (read and check both files, pair by id, score) against a baseline that reads and
scores the way the official scorer does (``json.loads`` per line, paired by position, a
per-claim loop with list membership). Then the scoring alone, in memory, on the 9,999 claims.

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


def strictly_correct(gold, pred, max_evidence):
    if gold["label"] == "NOT ENOUGH INFO":
        return gold["label"] == pred["predicted_label"]
    if gold["label"] != pred["predicted_label"]:
        return False
    predicted = pred["predicted_evidence"][:max_evidence]
    for group in gold["evidence"]:
        if all([[e[2], e[3]] in predicted for e in group]):
            return True
    return False


def claim_precision(gold, pred, max_evidence):
    if gold["label"] == "NOT ENOUGH INFO":
        return None
    all_evidence = [[e[2], e[3]] for group in gold["evidence"] for e in group if e[3] is not None]
    predicted = pred["predicted_evidence"][:max_evidence]
    if not predicted:
        return 1.0
    return sum(1 for p in predicted if p in all_evidence) / len(predicted)


def claim_recall(gold, pred, max_evidence):
    if gold["label"] == "NOT ENOUGH INFO":
        return None
    predicted = pred["predicted_evidence"][:max_evidence]
    for group in gold["evidence"]:
        if all([[e[2], e[3]] in predicted for e in group]):
            return 1.0
    return 0.0


def straightforward_loop(gold_rows, pred_rows, max_evidence=5):
    """Per claim, three checks with list membership, the way the conventions read."""
    by_id = {g["id"]: g for g in gold_rows}
    strict = correct = 0
    precisions, recalls = [], []
    for pred in pred_rows:
        gold = by_id[pred["id"]]
        correct += gold["label"] == pred["predicted_label"]
        strict += strictly_correct(gold, pred, max_evidence)
        p = claim_precision(gold, pred, max_evidence)
        r = claim_recall(gold, pred, max_evidence)
        if p is not None:
            precisions.append(p)
            recalls.append(r)
    n = len(pred_rows)
    return strict / n, correct / n, sum(precisions) / len(precisions), sum(recalls) / len(recalls)


def fused_loop(gold_rows, pred_rows, max_evidence=5):
    """One hand-fused pass computing only the four scores (no per-claim details)."""
    by_id = {g["id"]: g for g in gold_rows}
    strict = correct = 0
    prec = prec_hits = rec = rec_hits = 0.0
    for p in pred_rows:
        g = by_id[p["id"]]
        predicted = p["predicted_evidence"][:max_evidence]
        ok = g["label"] == p["predicted_label"]
        correct += ok
        if g["label"] == "NOT ENOUGH INFO":
            strict += ok
            continue
        all_evi = [[e[2], e[3]] for grp in g["evidence"] for e in grp if e[3] is not None]
        hits = sum(1 for s in predicted if s in all_evi)
        prec += hits / len(predicted) if predicted else 1.0
        prec_hits += 1
        found = any(all([e[2], e[3]] in predicted for e in grp) for grp in g["evidence"])
        rec += found
        rec_hits += 1
        strict += ok and found
    n = len(pred_rows)
    return strict / n, correct / n, prec / prec_hits, rec / rec_hits


def official_style(gold_file, pred_file, max_evidence=5):
    """Read and score the way the official scorer does: json.loads per line, pairing by
    position, three checks a claim with list membership."""
    with open(pred_file, encoding="utf-8") as f:
        predictions = [json.loads(line) for line in f]
    with open(gold_file, encoding="utf-8") as f:
        actual = [json.loads(line) for line in f]
    strict = correct = 0
    precision = precision_hits = recall = recall_hits = 0.0
    for i, instance in enumerate(predictions):
        instance["evidence"] = actual[i]["evidence"]
        instance["label"] = actual[i]["label"]
        predicted = instance["predicted_evidence"][:max_evidence]
        label_ok = instance["label"].upper() == instance["predicted_label"].upper()
        correct += label_ok
        if instance["label"].upper() == "NOT ENOUGH INFO":
            strict += label_ok
            continue
        gold = [[e[2], e[3]] for group in instance["evidence"] for e in group if e[3] is not None]
        hits = sum(1.0 for p in predicted if p in gold)
        precision += hits / len(predicted) if predicted else 1.0
        precision_hits += 1
        found = any(
            all([[e[2], e[3]] in predicted for e in group]) for group in instance["evidence"]
        )
        recall += found
        recall_hits += 1
        strict += label_ok and found
    n = len(predictions)
    return strict / n, correct / n, precision / precision_hits, recall / recall_hits


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
        ours, base = [], []
        for _ in range(repeat):  # alternate, so both see the same machine
            t = time.perf_counter()
            a = claimlab_end_to_end(g_file, p_file)
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            b = official_style(g_file, p_file)
            base.append(time.perf_counter() - t)
        same = all(abs(x - y) < 1e-12 for x, y in zip(a, b, strict=True))
        size = (g_file.stat().st_size + p_file.stat().st_size) >> 20
    mo, mb = statistics.median(ours), statistics.median(base)
    print(f"end to end, {n} claims ({size} MB of JSON Lines), median of {repeat} runs each:")
    print(f"  official-style read and score (json.loads per line, per-claim loop): {mb:6.2f} s")
    print(f"  claimlab read, check, pair by id and score:                         {mo:6.2f} s")
    print(f"  ratio claimlab / official-style: {mo / mb:.2f} (target at most 0.50)")
    print(f"  same four figures: {same}")


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
    gold_rows = [json.loads(x) for x in GOLD.read_text().splitlines() if x.strip()]
    pred_rows = [json.loads(x) for x in PRED.read_text().splitlines() if x.strip()]
    gold, preds = load_gold(GOLD), load_predictions(PRED)
    pairs = pair_by_id(gold, preds)
    ours_min, ours_med = best_of(lambda: score_fever(pairs, max_evidence=5))
    loop_min, loop_med = best_of(lambda: straightforward_loop(gold_rows, pred_rows))
    fused_min, fused_med = best_of(lambda: fused_loop(gold_rows, pred_rows))
    ref = score_fever(pairs, max_evidence=5)
    loop = straightforward_loop(gold_rows, pred_rows)
    fused = fused_loop(gold_rows, pred_rows)
    ours = (ref.strict_score, ref.label_accuracy, ref.precision, ref.recall.value)
    same = all(abs(a - b) < 1e-12 for a, b in zip(ours, loop, strict=True)) and all(
        abs(a - b) < 1e-12 for a, b in zip(ours, fused, strict=True)
    )
    details_min, _ = best_of(lambda: score_fever(pairs, max_evidence=5).claims)
    load_min, _ = best_of(lambda: pair_by_id(load_gold(GOLD), load_predictions(PRED)), repeat=3)
    print(f"scoring alone, in memory, claims: {len(pairs)}")
    print(
        f"claimlab score_fever (official figures): best {ours_min * 1000:.1f} ms, median {ours_med * 1000:.1f} ms"
    )
    print(
        f"straightforward per-claim loop (three checks a claim):  best {loop_min * 1000:.1f} ms, median {loop_med * 1000:.1f} ms"
    )
    print(
        f"hand-fused single pass (four scores, no details):       best {fused_min * 1000:.1f} ms, median {fused_med * 1000:.1f} ms"
    )
    print(f"ratio straightforward loop / claimlab (best of 5): {loop_min / ours_min:.2f}x")
    print(f"ratio hand-fused pass / claimlab (best of 5):      {fused_min / ours_min:.2f}x")
    print(f"all three agree on the four scores: {same}")
    print(
        f"claimlab figures + every claim's witness details (groups complete, sentences missing): best {details_min * 1000:.1f} ms"
    )
    print(f"claimlab load + validate + pair both files: best {load_min * 1000:.1f} ms")


if __name__ == "__main__":
    main()
