"""Time the RAG and multi-hop scoring commands at 10,000 and 100,000 items (linear, or not).

    .venv/bin/python benchmarks/bench_rag.py [--sizes 10000 100000]

Each command runs in a fresh process, as a user runs it (reading, checking, scoring, printing
JSON); the figure printed is its wall time and, from the second size on, the time ratio to the
first against the size ratio: a linear command keeps the two close.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_inputs import meta_files, official_files, rag_file  # noqa: E402

EXE = str(Path(sys.executable).parent / "claimlab")


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([EXE, *args, "--json"], check=True, capture_output=True)
    return time.perf_counter() - started


def commands(folder: Path, n: int) -> dict[str, list[str]]:
    rag = rag_file(folder, n)
    human, scores = meta_files(folder, n)
    files = official_files(folder, n)
    return {
        f"rag ({n} queries)": ["rag", str(rag)],
        f"meta-eval ({n} pairs, 200 resamples)": [
            "meta-eval",
            str(human),
            str(scores),
            "--bootstrap",
            "200",
        ],
        f"hotpotqa ({n} questions)": [
            "hotpotqa",
            str(files["hotpot_gold"]),
            str(files["hotpot_pred"]),
        ],
        f"musique ({n} records: {n // 2} questions, each twice)": [
            "musique",
            str(files["musique_gold"]),
            str(files["musique_pred"]),
        ],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = ap.parse_args()
    first: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            folder = Path(tmp) / str(n)
            folder.mkdir()
            for i, (name, cmd) in enumerate(commands(folder, n).items()):
                seconds = timed(cmd)
                key = str(i)
                ratio = ""
                if key in first:
                    ratio = f"   x{seconds / first[key]:.1f} the time for x{n / args.sizes[0]:.0f} the items"
                else:
                    first[key] = seconds
                print(f"{name:<45} {seconds:6.2f} s{ratio}", flush=True)


if __name__ == "__main__":
    main()
