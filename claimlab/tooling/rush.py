"""A class opening the games at once: page views against a classroom server, measured.

Used by ``benchmarks/bench_classroom.py`` and the classroom tests, and by a teacher who wants
to know, before the lesson, what the machine holds: every student asks for the page at the same
moment (a barrier), each wait is timed to the last byte of the page or to the refusal, and the
server's kernels and memory are sampled while it lasts.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

KERNEL_MARK = "ipykernel_launcher"


@dataclass(frozen=True)
class Visit:
    """One student's page view: the HTTP status (0: no answer) and the seconds waited."""

    status: int
    seconds: float
    page: bool  # a served page that holds the game (not an error page)
    reason: str = ""  # an error's reason, as its page shows it ("The classroom is full ...")


@dataclass(frozen=True)
class Rush:
    """What a rush of page views gave: the visits, and the server's peaks while it lasted."""

    visits: tuple[Visit, ...]
    peak_kernels: int
    peak_mb: float

    @property
    def served(self) -> list[Visit]:
        """The visits answered with the game."""
        return [v for v in self.visits if v.status == 200 and v.page]

    @property
    def refused(self) -> int:
        """The visits told the classroom is full (HTTP 503)."""
        return sum(v.status == 503 for v in self.visits)


def free_port() -> int:
    """A loopback port free at this moment (for a server started next)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kernels_of(pid: int, *, forks: bool = False) -> list[Any]:
    """The kernel processes started by the server ``pid`` (psutil processes).

    A kernel is a child of the server; a process a kernel forks carries the same command line
    for a moment (until it runs another program) and is no kernel, so it is counted only with
    ``forks`` (what is left running after the server stopped).
    """
    try:
        children = psutil.Process(pid).children(recursive=forks)
    except psutil.NoSuchProcess:
        return []
    out = []
    for p in children:
        try:
            if any(KERNEL_MARK in part for part in p.cmdline()):
                out.append(p)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return out


def memory_mb(pid: int) -> float:
    """Resident memory of the server and every process under it, in MB."""
    try:
        procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total / 2**20


def _visit(
    url: str, barrier: threading.Barrier, timeout: float, marker: str, delay: float = 0.0
) -> Visit:
    barrier.wait()
    if delay:
        time.sleep(delay)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            body = r.read().decode("utf-8", "replace")
            status = r.status
    except urllib.error.HTTPError as exc:
        exc.read()
        return Visit(exc.code, time.perf_counter() - started, False, str(exc.reason))
    except OSError:
        return Visit(0, time.perf_counter() - started, False)
    return Visit(status, time.perf_counter() - started, marker in body)


def rush(
    url: str,
    students: int,
    *,
    server_pid: int,
    marker: str,
    timeout: float = 120.0,
    every: float = 0.0,
) -> Rush:
    """``students`` page views of ``url`` at the same moment; the server sampled meanwhile.

    With ``every`` seconds, they arrive one after another instead (the first at once): a
    class coming in while the server refills its warm pool.
    """
    barrier = threading.Barrier(students)
    done = threading.Event()
    kernels_peak, mb_peak = [0], [0.0]

    def sample() -> None:
        while not done.is_set():
            kernels_peak[0] = max(kernels_peak[0], len(kernels_of(server_pid)))
            mb_peak[0] = max(mb_peak[0], memory_mb(server_pid))
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        with ThreadPoolExecutor(max_workers=students) as pool:
            futures = [
                pool.submit(_visit, url, barrier, timeout, marker, i * every)
                for i in range(students)
            ]
            visits = tuple(f.result() for f in futures)
    finally:
        done.set()
        sampler.join()
    return Rush(visits, kernels_peak[0], mb_peak[0])


def start_server(
    args: Sequence[str], port: int, log: Path, env: Mapping[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """``claimlab serve --port PORT ARGS``, its output in ``log``; returns once it answers."""
    exe = Path(sys.executable).parent / "claimlab"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(port), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=None if env is None else dict(env),
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"claimlab serve exited: {log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return proc
        except urllib.error.HTTPError:
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("claimlab serve did not answer within 60 s")


def wait_for_kernels(pid: int, n: int, timeout: float = 120.0) -> int:
    """Wait until the server runs ``n`` kernels (its warm pool), the server and all idle.

    Idle: the warm pages executed in their kernels and rendered by the server, under 5% of a
    core together for a second. Returns how many kernels the server runs.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(kernels_of(pid)) < n:
        time.sleep(0.2)
    quiet = 0
    while time.monotonic() < deadline and quiet < 2:
        watched = [psutil.Process(pid), *kernels_of(pid)]
        for p in watched:
            _cpu(p)  # starts the measuring interval
        time.sleep(0.5)
        busy = sum(_cpu(p) for p in watched)
        quiet = quiet + 1 if busy < 5.0 else 0
    return len(kernels_of(pid))


def _cpu(process: Any) -> float:
    try:
        return float(process.cpu_percent(None))
    except psutil.NoSuchProcess:
        return 0.0


def stop_server(proc: subprocess.Popen[bytes], timeout: float = 30.0) -> list[int]:
    """SIGTERM the server and wait; returns the pids of kernels it left running (none)."""
    kernels = [p.pid for p in kernels_of(proc.pid, forks=True)]
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 10
    left = [pid for pid in kernels if alive(pid)]
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = [pid for pid in left if alive(pid)]
    return left


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie its parent has not reaped yet has ended)."""
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False
