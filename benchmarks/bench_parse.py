"""Each command against the time to parse its own input: how close it runs to the parse limit.

    .venv/bin/python benchmarks/bench_parse.py [--sizes 1000 10000 100000] [--only NAME ...]

For every size, each command's input is generated (``scale_inputs.py``), parsed once in this
process with the reader the command uses (orjson for JSON, orjson per line for JSON Lines, every
file of a folder, pyarrow for Parquet; the best of three; the cyclic garbage collector paused, as
every claimlab reader pauses it), and then the command runs once in a
fresh process (``--json`` where it has it). Printed per command and size: the command's wall
time, the parse time and their ratio, and the ratio's growth from one size to the next (a ratio
that grows is a command that is not linear). Beside it, the same parse run as a process of its
own (the reader imported, then the input parsed: the least any command reading that input can
cost as a process) and the command's ratio to that, which tells the start-up (imports) from the
work per item. The aims (against the parse in this process): at most 3x at 100,000 for the commands
that read and score, 5x for those that write files, and no growth from 10,000 to 100,000.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale_inputs as gen  # noqa: E402

CLAIMLAB = str(Path(sys.executable).parent / "claimlab")


def parse(paths: list[Path]) -> None:
    """Parse every input as the commands' readers do (a folder: each of its files)."""
    for path in paths:
        if path.is_dir():
            parse(sorted(path.iterdir()))
        elif path.suffix == ".parquet":
            import pyarrow.parquet as pq

            pq.read_table(path)
        elif path.suffix == ".jsonl":
            with path.open("rb") as f:
                [orjson.loads(line) for line in f if line.strip()]
        elif path.suffix in (".json", ""):
            orjson.loads(path.read_bytes())
        elif path.suffix == ".txt":
            path.read_text(encoding="utf-8").split()


def best_parse(paths: list[Path]) -> float:
    """The best of three parses, the cyclic collector paused as every claimlab reader pauses it
    (with it running, parsing 100,000 records costs two to four times as much: each collection
    walks every object parsed so far)."""
    times = []
    for _ in range(3):
        gc.disable()
        started = time.perf_counter()
        parse(paths)
        times.append(time.perf_counter() - started)
        gc.enable()
        gc.collect()
    return min(times)


def process_parse(paths: list[Path]) -> float:
    """The best of three fresh processes that import the reader and parse the inputs (``parse``)."""
    code = (
        "import gc, sys\nfrom pathlib import Path\nimport orjson\ngc.disable()\n"
        + inspect.getsource(parse)
        + "\nparse([Path(p) for p in sys.argv[1:]])\n"
    )
    times = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code, *map(str, paths)], check=True)
        times.append(time.perf_counter() - started)
    return min(times)


def command_wall(args: list[str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run([CLAIMLAB, *args], capture_output=True, text=True)
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1):  # 1: a gate or a check that found something, still run
        raise SystemExit(f"claimlab {' '.join(args[:1])} failed: {proc.stderr[-1000:]}")
    return wall


# name -> (bound, how to make the input at size n in a folder: (command arguments, inputs))
Case = Callable[[Path, int], tuple[list[str], list[Path]]]


def _decomposition(d: Path, n: int) -> tuple[list[str], list[Path]]:
    f = gen.decomposition_file(d, n, max(10, n // 100))
    return ["decomposition", str(f), "--mode", "all", "--json"], [f]


def _sufficiency(d: Path, n: int) -> tuple[list[str], list[Path]]:
    f, context = gen.sufficiency_file(d, n)
    ids = d / "context.txt"
    ids.write_text(context.replace(",", "\n"), encoding="utf-8")
    return ["sufficiency", str(f), "--question", "q", "--context", f"@{ids}", "--json"], [f, ids]


def _rag(d: Path, n: int) -> tuple[list[str], list[Path]]:
    f = gen.rag_file(d, n)
    return ["rag", str(f), "--json"], [f]


def _official(key: str, command: str) -> Case:
    def make(d: Path, n: int) -> tuple[list[str], list[Path]]:
        files = gen.official_files(d, n)
        g, p = files[f"{key}_gold"], files[f"{key}_pred"]
        return [command, str(g), str(p), "--json"], [g, p]

    return make


def _fever(d: Path, n: int) -> tuple[list[str], list[Path]]:
    g, p = gen.fever_files(d, n)
    return ["fever", str(g), str(p), "--json"], [g, p]


def _draft(d: Path, n: int) -> tuple[list[str], list[Path]]:
    f = gen.raw_answers(d, n)
    return ["draft", str(f), "--out", str(d / "drafts")], [f]


def _agreement(d: Path, n: int) -> tuple[list[str], list[Path]]:
    a, b = gen.annotator_folders(d, n)
    return ["agreement", str(a), str(b), "--json"], [a, b]


def _adjudicate(d: Path, n: int) -> tuple[list[str], list[Path]]:
    a, b = gen.annotator_folders(d, n)
    return ["adjudicate", str(a), str(b), "--out", str(d / "gold")], [a, b]


def _ledger(d: Path, n: int) -> tuple[list[str], list[Path]]:
    c, u = gen.ledger_files(d, n)
    return ["ledger", str(c), "--units", str(u), "--by", "model", "--json"], [c, u]


CASES: dict[str, tuple[float, Case]] = {
    "decomposition": (3, _decomposition),
    "sufficiency": (3, _sufficiency),
    "hotpotqa": (3, _official("hotpot", "hotpotqa")),
    "musique": (3, _official("musique", "musique")),
    "rag --json": (3, _rag),
    "fever": (3, _fever),
    "ledger": (3, _ledger),
    "agreement": (5, _agreement),
    "adjudicate": (5, _adjudicate),
    "draft": (5, _draft),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    ap.add_argument("--only", nargs="+", choices=sorted(CASES), default=sorted(CASES))
    args = ap.parse_args()
    print("command against parsing its own input (wall seconds; fresh process for the command)")
    for name in args.only:
        bound, make = CASES[name]
        ratios = []
        for n in args.sizes:
            with tempfile.TemporaryDirectory() as tmp:
                command, inputs = make(Path(tmp), n)
                parsed = best_parse(inputs)
                alone = process_parse(inputs)
                wall = command_wall(command)
            ratios.append(wall / parsed)
            growth = f"  ratio x{ratios[-1] / ratios[-2]:.2f}" if len(ratios) > 1 else ""
            print(
                f"  {name:<14} {n:>8,}: {wall:7.2f} s against {parsed:6.3f} s parse "
                f"-> {wall / parsed:6.1f}x (aim {bound:.0f}x){growth}; a process that only "
                f"parses: {alone:6.3f} s -> {wall / alone:5.1f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
