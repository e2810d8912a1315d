"""The gold-set round trip at scale, each command in a fresh process (prints figures, asserts nothing).

    .venv/bin/python benchmarks/bench_gold.py [--answers 100000] [--candidates 100000] [--runs 1]

1. ``claimlab draft`` of ``--answers`` raw answers (three sentences, four subclaims each) into a
   new folder: one draft file per answer.
2. ``claimlab agreement`` and ``claimlab adjudicate`` of two annotators' folders of
   ``--answers`` confirmed files each (paired by answer; one in ten answers disagree).
3. The same two commands on one answer with ``--candidates`` candidates over 1,000 units
   (10^8 preserves items).
4. ``claimlab ledger --ci 0.95 --compare A B`` on two decomposers over ``--answers`` answers
   (Parquet; 2,000 resamples and permutations).

Each line gives the wall time (the median of ``--runs``), the peak memory of the command and
its CPU time (user + system: the system share of ``draft`` and ``adjudicate`` is mostly the
disk taking 100,000 new files). Each run writes into a new folder, so no run waits on the
deletion of the last one's files.
The target for each is under 20 s on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_inputs import (  # noqa: E402
    annotated_big_file,
    annotator_folders,
    ledger_files,
    raw_answers,
)

CLAIMLAB = str(Path(sys.executable).parent / "claimlab")


def timed(label: str, args: list[str], runs: int, before=None) -> None:
    """Run ``claimlab ARGS`` ``runs`` times: the median wall time, peak memory and CPU time.

    ``before(k)`` runs before run k (untimed) and may return arguments to add to it (a new
    output folder each run, so that no run waits on the deletion of the one before).
    """
    seconds, peak, user, system = [], 0.0, [], []
    for k in range(runs):
        extra = before(k) if before is not None else None
        started = time.perf_counter()
        proc = subprocess.Popen(
            [CLAIMLAB, *args, *(extra or [])],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        _, status, usage = os.wait4(proc.pid, 0)  # this command's own peak memory and CPU
        seconds.append(time.perf_counter() - started)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{label} failed: {proc.stderr.read() if proc.stderr else ''}")
        peak = max(peak, usage.ru_maxrss / 1024)
        user.append(usage.ru_utime)
        system.append(usage.ru_stime)
    spread = f" (runs {', '.join(f'{s:.1f}' for s in seconds)})" if runs > 1 else ""
    cpu = f"cpu {statistics.median(user):.0f}+{statistics.median(system):.0f} s"
    print(
        f"  {label:<62} {statistics.median(seconds):6.1f} s  peak {peak:,.0f} MB  {cpu}{spread}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--answers", type=int, default=100_000)
    ap.add_argument("--candidates", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    n = args.answers
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        raw = raw_answers(folder, n)
        ana, ben = annotator_folders(folder, n)
        big_a, big_b = annotated_big_file(folder, args.candidates)
        cand, units = ledger_files(folder, n)
        drafts, gold = folder / "drafts", folder / "gold"
        print(f"the gold-set round trip at scale ({n:,} answers; fresh process each):")
        timed(
            f"draft: {n:,} answers into a new folder",
            ["draft", str(raw)],
            args.runs,
            before=lambda k: ["--out", str(drafts / str(k))],
        )
        timed(
            f"agreement: 2 annotators' folders of {n:,} files",
            ["agreement", str(ana), str(ben)],
            args.runs,
        )
        timed(
            f"adjudicate: 2 annotators' folders of {n:,} files",
            ["adjudicate", str(ana), str(ben)],
            args.runs,
            before=lambda k: ["--out", str(gold / str(k))],
        )
        timed(
            f"agreement: one answer, {args.candidates:,} candidates",
            ["agreement", str(big_a), str(big_b)],
            args.runs,
        )
        timed(
            f"adjudicate: one answer, {args.candidates:,} candidates",
            ["adjudicate", str(big_a), str(big_b), "--out", str(folder / "big.gold.json")],
            args.runs,
        )
        timed(
            f"ledger --ci 0.95 --compare A B: {n:,} answers x 2 decomposers",
            ["ledger", str(cand), "--units", str(units), "--by", "model", "--ci", "0.95",
             "--compare", "A", "B"],
            args.runs,
        )  # fmt: skip


if __name__ == "__main__":
    main()
