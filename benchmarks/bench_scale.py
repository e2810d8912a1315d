"""Time the three inputs that once took quadratic time, end to end through the command line.

    .venv/bin/python benchmarks/bench_scale.py

Prints the wall time of each command (a fresh process: reading the file, checking it and
scoring), and the size of its input. The target for each is under 20 s on the project's
2-core machine.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_inputs import citation_files, decomposition_file, sufficiency_file  # noqa: E402

CLAIMLAB = str(Path(sys.executable).parent / "claimlab")


def timed(label: str, args: list[str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run([CLAIMLAB, *args], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{label} failed: {proc.stderr}")
    print(f"  {label:<58} {seconds:6.2f} s")
    return seconds


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        d = decomposition_file(folder)
        s, context = sufficiency_file(folder)
        ids = folder / "context.txt"  # 30,000 ids: longer than one command-line argument may be
        ids.write_text(context.replace(",", "\n"), encoding="utf-8")
        a, c = citation_files(folder)
        print("inputs that once took quadratic time (fresh process each, read + check + score):")
        timed(
            f"decomposition: 100,000 candidates, all selected ({d.stat().st_size >> 20} MB)",
            ["decomposition", str(d), "--mode", "all", "--json"],
        )
        timed(
            "sufficiency: 20,000 alternatives, 30,000 context ids",
            ["sufficiency", str(s), "--question", "q", "--context", f"@{ids}", "--json"],
        )
        timed(
            "citations: 3,000 claims over 3,000 sent chunks",
            ["citations", str(a), "--context", str(c), "--json"],
        )
        timed(
            "decomposition --select-core --by-entity: 100,000 candidates",
            ["decomposition", str(d), "--mode", "all", "--select-core", "--by-entity", "--json"],
        )
        # citations at 10,000 and 100,000: benchmarks/bench_citations.py


if __name__ == "__main__":
    main()
