"""A class opening game 06 at once: waits, refusals, kernels and memory of ``claimlab serve``.

    .venv/bin/python benchmarks/bench_classroom.py [--students 1 10 30 60] [--max-kernels 40] [--warm N]

For each class size a fresh server is started (loopback only) with ``--max-kernels`` and its
default warm pool, waited on until the pool is warm, and then every student asks for the page
at the same moment. Printed per size: served, refused, the median and slowest served wait,
the peak number of kernels and the peak memory of the server and its kernels, and whether any
kernel start failed on a taken port. Two references come first: one student alone on a warm
server, and one student alone with no warm page (``--warm 0``, the page executed on demand).
Each page view is bounded by 120 s; the server is stopped with SIGTERM after each size and any
kernel it left running is reported.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from claimlab.tooling.rush import free_port, rush, start_server, stop_server, wait_for_kernels
from claimlab.tooling.serve import warm_pool

PAGE = "/voila/render/06_decomposition_game.ipynb"
MARKER = "Decomposition game"
GAMES = 2


def one_class(students: int, cap: int, warm: int | None, folder: Path) -> dict[str, object]:
    port = free_port()
    log = folder / f"serve-{students}-{warm}.log"
    args = ["--max-kernels", str(cap), "--cull-idle", "600"]
    if warm is not None:
        args += ["--warm", str(warm)]
    proc = start_server(args, port, log)
    try:
        wait_for_kernels(proc.pid, GAMES * warm_pool(warm, cap, GAMES))
        r = rush(f"http://127.0.0.1:{port}{PAGE}", students, server_pid=proc.pid, marker=MARKER)
    finally:
        left = stop_server(proc)
    waits = sorted(v.seconds for v in r.served)
    return {
        "served": len(r.served),
        "refused": r.refused,
        "other": students - len(r.served) - r.refused,
        "median": statistics.median(waits) if waits else None,
        "slowest": waits[-1] if waits else None,
        "kernels": r.peak_kernels,
        "mb": r.peak_mb,
        "port_taken": "Address already in use" in log.read_text(errors="replace"),
        "left": len(left),
    }


def line(label: str, row: dict[str, object]) -> str:
    def s(x: object) -> str:
        return "-" if x is None else f"{x:.3f} s"

    return (
        f"{label:<28} served {row['served']:>2}  refused {row['refused']:>2}  "
        f"other {row['other']}  median {s(row['median']):>9}  slowest {s(row['slowest']):>9}  "
        f"peak kernels {row['kernels']:>2}  peak {row['mb']:.0f} MB  "
        f"port taken {'yes' if row['port_taken'] else 'no'}  left running {row['left']}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, nargs="+", default=[1, 10, 30, 60])
    ap.add_argument("--max-kernels", type=int, default=40)
    ap.add_argument("--warm", type=int, default=None, help="warm pages per game (the default pool)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cap = args.max_kernels
        pool = warm_pool(args.warm, cap, GAMES)
        print(
            f"claimlab serve --max-kernels {cap} (warm pool: {pool} pages per game"
            f"{', the default' if args.warm is None else ''}), game 06, loopback",
            flush=True,
        )
        print(line("alone, no warm page", one_class(1, cap, 0, folder)), flush=True)
        for n in args.students:
            print(line(f"{n} at once", one_class(n, cap, args.warm, folder)), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
