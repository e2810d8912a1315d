"""Speed of intervals and paired comparisons on large ledgers (prints figures, asserts nothing).

Usage: .venv/bin/python benchmarks/bench_uncertainty.py [--rows 10000000] [--resamples 2000]
       [--shared 150000] [--coverage-runs 400]

1. The ledger of bench_ledger.py (``--rows`` candidate rows; 10M rows are about 300,000
   (decomposer, answer) pairs over 100,000 original answers) is scored, then every corpus
   figure (four metrics, micro and macro; the corpus and each decomposer) gets ``--resamples``
   cluster-bootstrap resamples with BCa intervals. Wall time and peak memory of that step.
2. The paired comparison of two decomposers on ``--shared`` shared answers: eight figures,
   ``--resamples`` resamples and as many permutations.
3. Coverage: ``--coverage-runs`` simulated ledgers with a known true difference; how often the
   95 % paired interval covers it, and the mean width of the paired and unpaired intervals.
"""

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_ledger import make_ledger  # noqa: E402

from claimlab.metrics.ledger import score_tables  # noqa: E402
from claimlab.metrics.stats.comparisons import paired_comparison
from claimlab.metrics.uncertainty import ledger_comparisons, ledger_intervals


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def intervals(rows: int, resamples: int) -> None:
    t = time.perf_counter()
    cand, units = make_ledger(rows)
    made = time.perf_counter() - t
    t = time.perf_counter()
    result = score_tables(cand, units, by="model")
    scored = time.perf_counter() - t
    table = result.counts.table
    del cand, units
    t = time.perf_counter()
    out = {"all": ledger_intervals(table, resamples=resamples, seed=1)}
    for name, sub in table.groupby("model", observed=True):
        out[str(name)] = ledger_intervals(sub, resamples=resamples, seed=1)
    wall = time.perf_counter() - t
    figures = sum(len(v) for v in out.values())
    print(
        f"intervals: {rows:,} rows ({len(table):,} decomposer-answer pairs, "
        f"{table['answer_id'].nunique():,} answers): ledger made in {made:.1f} s, scored in "
        f"{scored:.1f} s; {figures} figures x {resamples} resamples (BCa) in {wall:.1f} s; "
        f"peak memory of the process {peak_mb():,.0f} MB"
    )
    iv = out["all"][("micro", "coverage")]
    print(f"  corpus micro coverage {result.corpus.micro['coverage'].display} {iv.display}")


def comparison(shared: int, resamples: int) -> None:
    rows = int(shared * 3 * 33.3)  # three decomposers over `shared` answers
    cand, units = make_ledger(rows, seed=2)
    table = score_tables(cand, units, by="model").counts.table
    del cand, units
    n = table["answer_id"].nunique()
    t = time.perf_counter()
    comps = ledger_comparisons(
        table, [("model-a", "model-b")], resamples=resamples, permutations=resamples, seed=3
    )
    wall = time.perf_counter() - t
    print(
        f"paired comparison: two decomposers on {n:,} shared answers, {len(comps)} figures, "
        f"{resamples} resamples and {resamples} permutations in {wall:.1f} s; "
        f"peak memory {peak_mb():,.0f} MB"
    )
    c = comps[2]
    print(f"  {c.a} - {c.b} {c.metric} {c.aggregate}: {c.display}")


def coverage(runs: int) -> None:
    rng = np.random.default_rng(20261201)
    covered, pw, uw = 0, [], []
    truth = 0.1 * 4 / 6
    t = time.perf_counter()
    for k in range(runs):
        m = 1 + rng.poisson(4, 200)
        p = rng.beta(4, 2, 200)
        a = (rng.binomial(m, p).astype(float), m.astype(float))
        b = (rng.binomial(m, 0.9 * p).astype(float), m.astype(float))
        c = paired_comparison(a, b, resamples=1000, permutations=1, seed=k, unpaired_from=(a, b))
        covered += c.difference.low <= truth <= c.difference.high
        pw.append(c.difference.high - c.difference.low)
        uw.append(c.unpaired.high - c.unpaired.low)
    print(
        f"coverage (seed 20261201): the 95% paired interval covered the true difference "
        f"{truth:.4f} in {covered}/{runs} = {covered / runs:.1%} simulated ledgers of 200 "
        f"answers; mean width paired {np.mean(pw):.4f}, unpaired {np.mean(uw):.4f} "
        f"({time.perf_counter() - t:.1f} s)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--shared", type=int, default=150_000)
    ap.add_argument("--coverage-runs", type=int, default=400)
    args = ap.parse_args()
    intervals(args.rows, args.resamples)
    comparison(args.shared, args.resamples)
    coverage(args.coverage_runs)


if __name__ == "__main__":
    main()
