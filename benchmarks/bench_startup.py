"""Start-up: ``claimlab --help`` and one-record commands against ``python -c "import orjson"``.

    .venv/bin/python benchmarks/bench_startup.py [--runs 21]

Each command runs in a fresh process, interleaved with the reference (so both see the same
load), ``--runs`` times; the script prints each one's median wall time and the ratio of the
medians (the aim: within 2x of the reference). The one-record inputs are written to a
temporary folder: a FEVER gold line and its prediction, the shipped context-lab fixture's
seed answer for ``citations``, and each case of ``bench_parse.py`` generated at two items (its
outputs removed before each run). Prints figures; asserts nothing. What each command imports:
``python -X importtime .venv/bin/claimlab --help``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_parse  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
REFERENCE = [sys.executable, "-c", "import orjson"]


def fever_files(folder: Path) -> tuple[Path, Path]:
    """One FEVER claim with its gold evidence, and one prediction of it."""
    gold, pred = folder / "gold.jsonl", folder / "pred.jsonl"
    evidence = [[[1, 2, "Paris", 0]]]
    gold.write_text(
        json.dumps({"id": 1, "label": "SUPPORTS", "claim": "c", "evidence": evidence}) + "\n"
    )
    predicted = {"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": [["Paris", 0]]}
    pred.write_text(json.dumps(predicted) + "\n")
    return gold, pred


def wall(command: list[str]) -> float:
    if "--out" in command:  # a writing command starts from no output, as its first run
        out = Path(command[command.index("--out") + 1])
        shutil.rmtree(out) if out.is_dir() else out.unlink(missing_ok=True)
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    claimlab = str(BIN / "claimlab")
    fixture = str(ROOT / "fixtures" / "leave_policy_en.json")
    with tempfile.TemporaryDirectory() as tmp:
        gold, pred = fever_files(Path(tmp))
        commands = {
            "claimlab --help": [claimlab, "--help"],
            "claimlab fever (one claim)": [claimlab, "fever", str(gold), str(pred), "--json"],
            "claimlab citations (one answer)": [
                claimlab,
                "citations",
                fixture,
                "--name",
                "seed",
                "--context",
                fixture,
                "--json",
            ],  # fmt: skip
        }
        for name, (_, make) in bench_parse.CASES.items():
            folder = Path(tmp) / name.replace(" ", "_")
            folder.mkdir()
            words, _ = make(folder, 2)  # two: a MuSiQue question and its unanswerable twin
            commands[f"claimlab {name} (two items)"] = [claimlab, *words]
        for command in commands.values():  # warm the file cache once
            wall(command)
        times: dict[str, list[float]] = {name: [] for name in ["reference", *commands]}
        for _ in range(args.runs):
            for name, command in commands.items():
                times["reference"].append(wall(REFERENCE))
                times[name].append(wall(command))
    ref = statistics.median(times.pop("reference"))
    print(f"start-up, median of {args.runs} fresh processes, interleaved with the reference:")
    reference = 'python -c "import orjson"'
    print(f"  {reference:<34} {ref * 1000:7.0f} ms")
    for name, ts in times.items():
        median = statistics.median(ts)
        print(f"  {name:<34} {median * 1000:7.0f} ms   {median / ref:4.1f}x the reference")
    print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
