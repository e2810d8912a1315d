"""Ledger scoring speed and memory, from 100k to 10M candidate rows (prints figures, asserts nothing).

Usage: .venv/bin/python benchmarks/bench_ledger.py [--sizes 100000,1000000,10000000]
       [--loop-rows 1000000] [--repeats 5] [--formats-rows 1000000]

For each size a synthetic ledger (three decomposers each splitting every original answer into
about 33 candidates, so 10M rows make about 300,000 (decomposer, answer) pairs; 1-8 units per answer;
~6 % duplicate fingerprints) is written as Parquet, then scored in a fresh process that reports wall
time and peak resident memory. First, on the `--loop-rows` ledger, the vectorised scorer (timed
`--repeats` times, median) is compared with a per-answer Python loop over the fixture scorer (one
run) on the same in-memory tables, and the counts of both are compared answer by answer. Last,
one `--formats-rows` ledger is scored from CSV, JSONL and Parquet.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

ROWS_PER_ANSWER = 33.3
STATUSES = ["SUPPORTED", "CONTRADICTED", "NOT_IN_REFERENCE"]


def make_ledger(rows: int, seed: int = 0):
    """About ``rows`` candidates: three decomposers each split every one of rows/100 original answers."""
    rng = np.random.default_rng(seed)
    n_pairs = max(3, int(rows / ROWS_PER_ANSWER) // 3 * 3)  # (model, answer) pairs
    n_orig = n_pairs // 3
    counts = rng.integers(20, 47, size=n_pairs)
    counts = np.maximum(1, np.round(counts * rows / counts.sum()).astype(np.int64))
    n = int(counts.sum())
    pair = np.repeat(np.arange(n_pairs), counts)
    orig, model_idx = pair // 3, pair % 3
    pos = np.arange(n) - np.repeat(np.cumsum(counts) - counts, counts)
    answer_ids = pa.array([f"a{i:07d}" for i in range(n_orig)])
    units_per_answer = rng.integers(1, 9, size=n_orig)
    a_col = answer_ids.take(pa.array(orig))
    cand_ids = pa.array([f"C{k}" for k in range(int(counts.max()))]).take(pa.array(pos))
    fp_num = np.where(
        rng.random(n) < 0.06, np.maximum(pos - 1, 0), pos
    )  # ~6% repeat the previous claim
    fp = pc.binary_join_element_wise(
        a_col, pc.cast(pa.array(model_idx * 1000 + fp_num), pa.string()), "-"
    )
    k = rng.integers(0, 3, size=n)  # 0-2 preserved units
    k = np.minimum(k, units_per_answer[orig])
    offsets = np.concatenate([[0], np.cumsum(k)]).astype(np.int32)
    unit_pick = (rng.random(int(k.sum())) * np.repeat(units_per_answer[orig], k)).astype(np.int64)
    unit_names = pa.array([f"U{j}" for j in range(1, 9)])
    preserves = pa.ListArray.from_arrays(pa.array(offsets), unit_names.take(pa.array(unit_pick)))
    model = pa.array(["model-a", "model-b", "model-c"]).take(pa.array(model_idx))
    cand = pa.table(
        {
            "model": model,
            "answer_id": a_col,
            "candidate_id": cand_ids,
            "fingerprint": fp,
            "preserves": preserves,
            "faithful": pa.array(rng.random(n) < 0.85),
            "atomic": pa.array(rng.random(n) < 0.9),
            "status": pa.array(STATUSES).take(pa.array(rng.choice(3, size=n, p=[0.6, 0.15, 0.25]))),
        }
    )
    u_ans = np.repeat(np.arange(n_orig), units_per_answer)
    u_pos = np.arange(len(u_ans)) - np.repeat(
        np.cumsum(units_per_answer) - units_per_answer, units_per_answer
    )
    units = pa.table(
        {"answer_id": answer_ids.take(pa.array(u_ans)), "unit_id": unit_names.take(pa.array(u_pos))}
    )
    return cand, units


def score_in_child(cand_path: Path, units_path: Path) -> dict:
    # peak = VmHWM of the child's own address space (ru_maxrss would carry over this process's
    # peak across fork and exec)
    code = (
        "import json, re, time\n"
        "t = time.perf_counter()\n"
        "from claimlab.metrics.ledger import score_ledger\n"
        "import pandas, pyarrow.parquet, tqdm\n"
        "imports = time.perf_counter() - t\n"
        f"r = score_ledger({str(cand_path)!r}, {str(units_path)!r}, by='model')\n"
        "wall = time.perf_counter() - t\n"
        "hwm = int(re.search(r'VmHWM:\\s+(\\d+) kB', open('/proc/self/status').read()).group(1))\n"
        "print(json.dumps({'wall': wall, 'imports': imports, 'peak_mb': hwm / 1024,"
        " 'answers': r.corpus.answers, 'coverage': r.corpus.micro['coverage'].display}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def loop_over_fixture_scorer(cand: pa.Table, units: pa.Table) -> tuple[dict, float]:
    """The straightforward way: group rows per (model, answer), build a fixture, call the lab scorer.

    Returns the results per (model, answer) and the seconds spent turning the tables into
    Python rows and groups (the rest of the time is building fixtures and scoring them).
    """
    from claimlab.metrics.decomposition import score_decomposition
    from claimlab.metrics.ledger import fixture_from_rows

    t = time.perf_counter()
    unit_map: dict[str, list[str]] = {}
    for a, u in zip(
        units.column("answer_id").to_pylist(), units.column("unit_id").to_pylist(), strict=True
    ):
        unit_map.setdefault(a, []).append(u)
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in cand.to_pylist():
        groups.setdefault((row["model"], row["answer_id"]), []).append(row)
    converting = time.perf_counter() - t
    results = {}
    for key, rows in groups.items():
        fx = fixture_from_rows(rows, unit_map.get(key[1], []))
        results[key] = score_decomposition(fx, [r["candidate_id"] for r in rows])
    return results, converting


def same_counts(table, results: dict) -> int:
    """How many answers the vectorised table and the loop's results disagree on (any count)."""
    from claimlab.metrics.ledger import RATIO_DEFS

    differ = 0
    for rec in table.to_dict("records"):
        ref = results.get((rec["model"], rec["answer_id"]))
        if ref is None:  # an answer that model left without rows: the loop never sees it
            differ += rec["raw"] != 0
            continue
        for name, (num, den) in RATIO_DEFS.items():
            r = getattr(ref, name)
            if (rec[num], rec[den]) != (r.numerator, r.denominator):
                differ += 1
                break
    return differ


def compare_with_loop(rows: int, tmp: Path, repeats: int) -> None:
    """Vectorised scorer against the per-answer loop, on the same tables read from Parquet."""
    from claimlab.io.ledger import load_table
    from claimlab.metrics.ledger import count_ledger, summarise

    cand, units = make_ledger(rows, seed=1)
    pq.write_table(cand, tmp / "loop_cand.parquet")
    pq.write_table(units, tmp / "loop_units.parquet")
    # both sides start from the same tables as read from Parquet (id columns dictionary-encoded)
    cand, units = load_table(tmp / "loop_cand.parquet"), load_table(tmp / "loop_units.parquet")
    summarise(count_ledger(cand, units, by="model"), by="model")  # warm-up
    fast = []
    for _ in range(repeats):
        t = time.perf_counter()
        result = summarise(count_ledger(cand, units, by="model"), by="model")
        fast.append(time.perf_counter() - t)
    t = time.perf_counter()
    loop, converting = loop_over_fixture_scorer(cand, units)
    slow = time.perf_counter() - t
    median = float(np.median(fast))
    differ = same_counts(result.counts.table, loop)
    print(
        f"speed-up on the same {cand.num_rows} rows in memory ({len(loop)} answers):\n"
        f"  vectorised scorer  median {median:.3f} s of {repeats} runs (min {min(fast):.3f}, max {max(fast):.3f})\n"
        f"  per-answer loop over the fixture scorer  {slow:.2f} s (one run; {converting:.2f} s of it"
        f" turning the tables into Python rows and groups)\n"
        f"  ratio {slow / median:.0f}x (median; {slow / max(fast):.0f}x against the slowest run;"
        f" {(slow - converting) / median:.0f}x counting only the loop's fixtures and scoring)\n"
        f"  answers whose counts differ between the two: {differ}"
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100000,1000000,3000000,10000000")
    ap.add_argument("--loop-rows", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5, help="timed runs of the vectorised scorer")
    ap.add_argument(
        "--formats-rows", type=int, default=1_000_000, help="one ledger in CSV, JSONL and Parquet"
    )
    ap.add_argument(
        "--hash-rows",
        type=int,
        default=1_000_000,
        help="repeated fingerprints found by the hand-written hash and by library facilities",
    )
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="claimlab-bench-") as folder:
        tmp = Path(folder)
        if args.loop_rows:
            compare_with_loop(args.loop_rows, tmp, args.repeats)
        if sizes:
            growth(sizes, tmp)
        if args.formats_rows:
            formats(args.formats_rows, tmp)
    if args.hash_rows:
        hash_choices(args.hash_rows, args.repeats)


def formats(rows: int, tmp: Path) -> None:
    """The same ledger read from CSV (units ';'-joined), JSONL and Parquet, fresh processes."""
    import pyarrow.csv as pcsv

    cand, units = make_ledger(rows, seed=2)
    joined = cand.set_column(
        cand.column_names.index("preserves"),
        "preserves",
        pc.binary_join(cand.column("preserves"), ";"),
    )
    paths = {}
    for kind in ("csv", "jsonl", "parquet"):
        cp, up = tmp / f"formats_cand.{kind}", tmp / f"formats_units.{kind}"
        if kind == "csv":
            pcsv.write_csv(joined, cp)
            pcsv.write_csv(units, up)
        elif kind == "jsonl":
            for table, path in ((cand, cp), (units, up)):
                table.to_pandas().to_json(path, orient="records", lines=True)
        else:
            pq.write_table(cand, cp)
            pq.write_table(units, up)
        paths[kind] = (cp, up)
    print(f"\nthe same {cand.num_rows} rows by file format (fresh process each):")
    print(f"{'format':>8} {'size MB':>8} {'score s':>8} {'peak MB':>8}  corpus coverage (micro)")
    for kind, (cp, up) in paths.items():
        r = score_in_child(cp, up)
        size = (cp.stat().st_size + up.stat().st_size) / 2**20
        print(
            f"{kind:>8} {size:>8.0f} {r['wall'] - r['imports']:>8.2f} {r['peak_mb']:>8.0f}  {r['coverage']}"
        )


def hash_choices(rows: int, repeats: int) -> None:
    """Finding fingerprints repeated within each (decomposer, answer): three ways, same answer.

    The fingerprint column as a CSV or JSONL ledger delivers it (plain strings, not
    dictionary-encoded). The hand-written 64-bit hash is kept only while it beats both library
    facilities: pyarrow's dictionary encoding (integer codes, then a hash table on the codes) and
    pandas' hash table over (group, string) pairs.
    """
    import pandas as pd

    from claimlab.io.arrays import dictionary_codes, repeats_within
    from claimlab.io.arrays import repeats as find_repeats

    cand, _ = make_ledger(rows, seed=2)
    pair = pc.binary_join_element_wise(cand["model"], cand["answer_id"], "|")
    group = pc.dictionary_encode(pair).combine_chunks().indices.to_numpy().astype(np.int64)
    values = cand["fingerprint"]

    def by_dictionary():
        codes, dictionary = dictionary_codes(values)
        return find_repeats(group * len(dictionary) + codes)

    def by_pandas():
        frame = pd.DataFrame({"g": group, "v": values.to_pandas()})
        return frame.duplicated().to_numpy()

    ways = {
        "hand-written 64-bit hash + sort (kept)": lambda: repeats_within(group, values),
        "pyarrow dictionary_encode + codes": by_dictionary,
        "pandas duplicated over (group, string)": by_pandas,
    }
    results, times = {}, {}
    for name, fn in ways.items():
        fn()
        runs = []
        for _ in range(repeats):
            t = time.perf_counter()
            results[name] = fn()
            runs.append(time.perf_counter() - t)
        times[name] = float(np.median(runs))
    first = next(iter(results.values()))
    agree = all(np.array_equal(first, r) for r in results.values())
    print(
        f"\nrepeated fingerprints within (decomposer, answer), {len(group)} plain string rows,"
        f" median of {repeats}:"
    )
    for name, t in times.items():
        print(f"  {name:<42} {t:.3f} s")
    print(f"  repeats found: {int(first.sum())}; all three agree: {agree}")


def growth(sizes: list[int], tmp: Path) -> None:
    """Wall time and peak memory of scoring ledgers of each size from Parquet, fresh processes."""
    print(
        f"\n{'rows':>10} {'answers*':>9} {'generate s':>10} {'import s':>8} {'score s':>8} {'peak MB':>8}  corpus coverage (micro)"
    )
    for rows in sizes:
        t = time.perf_counter()
        cand, units = make_ledger(rows)
        cp, up = tmp / f"cand_{rows}.parquet", tmp / f"units_{rows}.parquet"
        pq.write_table(cand, cp)
        pq.write_table(units, up)
        gen = time.perf_counter() - t
        del cand, units
        r = score_in_child(cp, up)
        print(
            f"{rows:>10} {r['answers']:>9} {gen:>10.1f} {r['imports']:>8.2f} {r['wall'] - r['imports']:>8.2f} {r['peak_mb']:>8.0f}  {r['coverage']}"
        )
    print(
        "(answers* = scored (decomposer, answer) pairs; import s = a fresh process importing claimlab,\n"
        " pandas and pyarrow; score s = then reading both Parquet files, validating and scoring;\n"
        " peak MB = that process's peak resident memory, VmHWM)"
    )


if __name__ == "__main__":
    main()
