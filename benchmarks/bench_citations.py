"""Time ``claimlab citations`` at 10,000 and 100,000 claims over as many chunks, end to end.

    .venv/bin/python benchmarks/bench_citations.py [--sizes 10000,100000] [--runs 1]

The input is ``scale_inputs.citation_files``: every claim quotes the chunk after the one it
cites (so every quote is looked for in the other chunks) and is matched to its sentence among
as many sentences as claims. Each run is the whole command in a fresh process with ``--json``
(start, read, check, write), timed as wall time and as the child's CPU time (user + system);
beside it, the time to parse the same two files with the reader the command uses, and the
ratio of the two. The wall time depends on how busy the machine is; the CPU time much less.
Prints figures; asserts nothing.
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
from scale_inputs import citation_files  # noqa: E402

CLAIMLAB = str(Path(sys.executable).parent / "claimlab")
PARSE = (
    "import sys, time; from claimlab.io.reader import read_json; t = time.perf_counter();"
    " [read_json(p) for p in sys.argv[1:]]; print(time.perf_counter() - t)"
)


def run_command(answer: Path, chunks: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``claimlab citations --json`` in a fresh process."""
    before = os.times()
    started = time.perf_counter()
    proc = subprocess.run(
        [CLAIMLAB, "citations", str(answer), "--context", str(chunks), "--json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.perf_counter() - started
    after = os.times()
    if proc.returncode != 0:
        raise SystemExit(f"claimlab citations failed: {proc.stderr}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def parse_seconds(answer: Path, chunks: Path) -> float:
    """Seconds to parse both files with the command's reader (in a fresh process, timed inside)."""
    out = subprocess.run(
        [sys.executable, "-c", PARSE, str(answer), str(chunks)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    print("claimlab citations, N claims over N chunks (fresh process, --json):")
    print(f"  {'N':>8} {'MB':>5} {'wall s':>8} {'cpu s':>7} {'parse s':>8} {'cpu/parse':>9}")
    cpu_at = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            folder = Path(tmp) / str(n)
            folder.mkdir()
            answer, chunks = citation_files(folder, n, n)
            size = (answer.stat().st_size + chunks.stat().st_size) / 2**20
            runs = [run_command(answer, chunks) for _ in range(args.runs)]
            wall = statistics.median(w for w, _ in runs)
            cpu = cpu_at[n] = statistics.median(c for _, c in runs)
            parse = parse_seconds(answer, chunks)
            print(
                f"  {n:>8} {size:>5.0f} {wall:>8.1f} {cpu:>7.1f} {parse:>8.2f} {cpu / parse:>8.0f}x"
            )
    for small, big in zip(sizes, sizes[1:], strict=False):
        growth = cpu_at[big] / cpu_at[small]
        print(
            f"  CPU time from {small:,} to {big:,}: x{growth:.1f} for x{big / small:g} the claims"
        )
    print(f"  load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
