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

``--every G`` adds, per class size N, N students arriving one every G seconds instead of at once
(the first at once): a class coming in while the server refills its warm pool. Each line gives
its slowest wait against one student's on a warm page (the median of 5, each alone on an idle
server, its pool full). Last,
the floor of those ratios: the server's cheapest page (a static file, no kernel, no template)
asked by 1 and by 10 at once.
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
CHEAPEST = "/voila/static/voila.js"  # a static file: no kernel, no template
GAMES = 2


def server_args(cap: int, warm: int | None) -> list[str]:
    """``claimlab serve``'s options for a class: the cap, and the warm pool unless the default."""
    args = ["--max-kernels", str(cap), "--cull-idle", "600"]
    return args if warm is None else [*args, "--warm", str(warm)]


def one_warm_page(cap: int, warm: int | None, folder: Path) -> float:
    """One student's wait on a warm page: the median of 5, each alone on an idle server."""
    port = free_port()
    proc = start_server(server_args(cap, warm), port, folder / "serve-one.log")
    waits = []
    try:
        url = f"http://127.0.0.1:{port}{PAGE}"
        for taken in range(5):  # each page taken is made again before the next student
            wait_for_kernels(proc.pid, GAMES * warm_pool(warm, cap, GAMES) + taken)
            r = rush(url, 1, server_pid=proc.pid, marker=MARKER)
            waits += [v.seconds for v in r.served]
    finally:
        stop_server(proc)
    return statistics.median(waits)


def one_class(
    students: int, cap: int, warm: int | None, folder: Path, every: float = 0.0
) -> dict[str, object]:
    port = free_port()
    log = folder / f"serve-{students}-{warm}-{every}.log"
    proc = start_server(server_args(cap, warm), port, log)
    try:
        wait_for_kernels(proc.pid, GAMES * warm_pool(warm, cap, GAMES))
        url = f"http://127.0.0.1:{port}{PAGE}"
        r = rush(url, students, server_pid=proc.pid, marker=MARKER, every=every)
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


def line(label: str, row: dict[str, object], one: float | None = None) -> str:
    def s(x: object) -> str:
        return "-" if x is None else f"{x:.3f} s"

    slowest = row["slowest"]
    times = f"  {slowest / one:.1f}x one warm page" if one and isinstance(slowest, float) else ""
    return (
        f"{label:<30} served {row['served']:>2}  refused {row['refused']:>2}  "
        f"other {row['other']}  median {s(row['median']):>9}  slowest {s(row['slowest']):>9}  "
        f"peak kernels {row['kernels']:>2}  peak {row['mb']:.0f} MB  "
        f"port taken {'yes' if row['port_taken'] else 'no'}  left running {row['left']}{times}"
    )


def floor(folder: Path) -> str:
    """The server's cheapest page (a static file) asked by 1 and by 10 at once: the ratios' floor."""
    port = free_port()
    proc = start_server(["--warm", "0"], port, folder / "serve-floor.log")
    try:
        url = f"http://127.0.0.1:{port}{CHEAPEST}"
        slowest = []
        for n in (1, 10):
            waits = [rush(url, n, server_pid=proc.pid, marker="") for _ in range(5)]
            slowest.append(statistics.median(max(v.seconds for v in w.served) for w in waits))
    finally:
        stop_server(proc)
    return (
        f"the server's cheapest page ({CHEAPEST}, median of 5): 1 alone {slowest[0] * 1000:.1f} ms,"
        f" slowest of 10 at once {slowest[1] * 1000:.1f} ms: {slowest[1] / slowest[0]:.1f}x"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, nargs="+", default=[1, 10, 30, 60])
    ap.add_argument(
        "--every", type=float, nargs="*", default=[], help="seconds between arrivals (also)"
    )
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
        one = one_warm_page(cap, args.warm, folder) if pool else None
        if one is not None:
            print(f"one student on a warm page (median of 5, each alone): {one:.4f} s")
        for n in args.students:
            row = one_class(n, cap, args.warm, folder)
            print(line(f"{n} at once", row, one), flush=True)
            for gap in args.every:
                row = one_class(n, cap, args.warm, folder, every=gap)
                print(line(f"{n} arriving every {gap:g} s", row, one), flush=True)
        print(floor(folder), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
