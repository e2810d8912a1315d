"""Every command's output before and after a change: byte for byte, apart from timings.

    .venv/bin/python benchmarks/bench_outputs.py --before REV [--size 10000] [--only NAME ...]

Each case of ``bench_parse.py`` runs on a generated input of ``--size`` items, and the reading
commands run on the shipped fixtures and the shared real data (when ``../shared/data`` is
there): once with the code at ``REV`` (checked out in a temporary git worktree) and once with
this checkout, each in a fresh process on the same inputs. Compared: the exit status, standard
output and error, and every file a command writes; in JSON, keys that hold a time
(:data:`TIMING_KEYS`, and a moment written in ISO 8601) are left out. Prints one line per case
and a total; exits 1 when any case differs. The speed changes of issue 46 are held to it:
faster, and the same outputs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_parse  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("CLAIMLAB_DATA", ROOT.parent / "shared" / "data"))
TIMING_KEYS = frozenset({"seconds", "elapsed", "elapsed_seconds", "wall_seconds", "started"})
RUN = "import sys; from claimlab.tooling.cli import main; sys.exit(main())"


def run(code: Path, args: list[str], cwd: Path) -> dict[str, object]:
    """One command with the package at ``code``: exit status, output, error."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    proc = subprocess.run(
        [sys.executable, "-c", RUN, *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    return {"status": proc.returncode, "out": _untimed(proc.stdout), "err": proc.stderr}


def _untimed(text: str) -> object:
    """JSON without its timing keys; any other text as it is."""
    try:
        data = json.loads(text)
    except ValueError:
        return text

    def drop(value: object) -> object:
        if isinstance(value, dict):
            return {k: drop(v) for k, v in value.items() if not _a_time(k, v)}
        if isinstance(value, list):
            return [drop(v) for v in value]
        return value

    return drop(data)


def _a_time(key: str, value: object) -> bool:
    """Whether a JSON key holds a time: a duration, or a moment written as ISO 8601."""
    if key in TIMING_KEYS:
        return True
    if key in ("at", "time", "when") and isinstance(value, str):
        try:
            datetime.fromisoformat(value)
        except ValueError:
            return False
        return True
    return False


def written(folder: Path) -> dict[str, object]:
    """Every file under ``folder`` (a command's output folder), by relative path."""
    if not folder.exists():
        return {}
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): _untimed(p.read_text("utf-8", "replace")) for p in files}


def compare(before: Path, name: str, args: list[str], out: Path | None, cwd: Path) -> bool:
    """Run one case on both sides; print whether they agree."""
    sides = []
    for code in (before, ROOT):
        if out is not None and out.exists():
            shutil.rmtree(out)
        result = run(code, args, cwd)
        result["files"] = written(out) if out is not None else {}
        sides.append(result)
    same = sides[0] == sides[1]
    diff = [k for k in sides[0] if sides[0][k] != sides[1][k]]
    status = sides[1]["status"]
    print(f"  {name:<52} exit {status}  {'identical' if same else 'DIFFERS in ' + ', '.join(diff)}")
    return same


def generated_cases(
    size: int, only: list[str], tmp: Path
) -> list[tuple[str, list[str], Path | None]]:
    """bench_parse.py's cases at ``size``: (name, arguments, output folder or None)."""
    cases = []
    for name in only:
        folder = tmp / name.replace(" ", "_")
        folder.mkdir()
        args, _ = bench_parse.CASES[name][1](folder, size)
        out = Path(args[args.index("--out") + 1]) if "--out" in args else None
        cases.append((f"{name} ({size:,} generated)", args, out))
        if name == "ledger":  # and resampled: intervals and a paired comparison, one seed
            ci = ["--ci", "0.95", "--compare", "A", "B", "--bootstrap", "200",
                  "--permutations", "200"]  # fmt: skip
            cases.append((f"ledger --ci --compare ({size:,} generated)", [*args, *ci], None))
    return cases


def _fixture_cases(f: Path) -> list[tuple[str, list[str], Path | None]]:
    """A shipped fixture's own cases: each mode of a decomposition file (and Core selection by
    entity), each scenario of a sufficiency file and each question over all its evidence."""
    doc = json.loads(f.read_text(encoding="utf-8"))
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt == "claimlab/decomposition@1":
        modes = [["--mode", m] for m in doc["modes"]]
        modes.append(["--mode", next(iter(doc["modes"])), "--select-core", "--by-entity"])
        return [(f"decomposition {f.name} {' '.join(m[1:])}",
                 ["decomposition", str(f), *m, "--json"], None) for m in modes]  # fmt: skip
    if fmt == "claimlab/sufficiency@1":
        every = ",".join(e["id"] for e in doc["evidence"])
        asks = [(q, every, f"{q} over all") for q in doc["questions"]]
        asks += [(s["question"], ",".join(s["context"]) or every, name)
                 for name, s in doc.get("scenarios", {}).items()]  # fmt: skip
        return [(f"sufficiency {f.name} {label}",
                 ["sufficiency", str(f), "--question", q, "--context", ctx, "--json"], None)
                for q, ctx, label in asks]  # fmt: skip
    return []


def shipped_cases() -> list[tuple[str, list[str], Path | None]]:
    """The reading commands on the shipped fixtures and, when present, the real data."""
    fx = ROOT / "fixtures"
    cases = [case for f in sorted(fx.glob("*.json")) for case in _fixture_cases(f)]
    cases.append(("rag rag_greenhouse.json", ["rag", str(fx / "rag_greenhouse.json"),
                                             "--json", "--per-query"], None))  # fmt: skip
    rag = DATA / "ragchecker"
    if rag.is_dir():
        cases.append(
            (
                "rag (RAGChecker's checking output)",
                ["rag", str(rag / "checking_outputs.json"), "--json", "--per-query"],
                None,
            )
        )
        cases.append(("meta-eval (RAGChecker's 280 pairs)",
                      ["meta-eval", str(rag / "human_labeled_data.json"),
                       str(rag / "baseline_ragchecker.json"), "--json", "--bootstrap", "200"],
                      None))  # fmt: skip
    fever = DATA / "fever"
    if fever.is_dir():
        cases.append(("fever (the shared 9,999 claims)",
                      ["fever", str(fever / "paper_dev.jsonl"),
                       str(fever / "fever_scorer_tests_baseline_predictions.jsonl"), "--json"],
                      None))  # fmt: skip
    fs = DATA / "factscore"
    if fs.is_dir():
        subjects = [str(f) for f in sorted(fs.glob("*.jsonl"))]
        cases.append(("factscore (the three human-labelled systems)",
                      ["factscore", *subjects, "--json"], None))  # fmt: skip
        cases.append(("factscore --ci --compare all (the same)",
                      ["factscore", *subjects, "--json", "--ci", "0.95", "--bootstrap", "200",
                       "--compare", "all", "--permutations", "200"], None))  # fmt: skip
    return cases


def worktree(rev: str, where: Path) -> Path:
    """``rev`` checked out (detached) in a temporary worktree of this repository."""
    path = where / "before"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path),
                    rev], check=True)  # fmt: skip
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the revision to compare with (e.g. HEAD~3)")
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument("--only", nargs="*", choices=sorted(bench_parse.CASES),
                    default=sorted(bench_parse.CASES))  # fmt: skip
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = worktree(args.before, Path(tmp))
        try:
            work = Path(tmp) / "inputs"
            work.mkdir()
            cases = [*shipped_cases(), *generated_cases(args.size, args.only, work)]
            print(f"every command at {args.before} against this checkout, same inputs:")
            same = sum(compare(before, *case, cwd=work) for case in cases)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                           check=False)  # fmt: skip
    print(f"{same} of {len(cases)} cases identical")
    sys.exit(0 if same == len(cases) else 1)


if __name__ == "__main__":
    main()
