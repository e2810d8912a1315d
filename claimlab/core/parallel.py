"""Work on many independent items split over the machine's cores, results in order.

``chunked(work, n)`` runs ``work(start, stop)`` for consecutive chunks of ``range(n)`` and
yields each chunk's list of results in order. With more than one chunk and more than one core
the chunks run in worker processes forked from this one: they see this process's memory as it
was (the items already read), so only the chunk bounds travel to them and only the results come
back; a worker ends with the process that forked it, even one killed with SIGKILL. Elsewhere
(one core, a platform without ``fork``, or few items) the chunks run here. Standard library
only.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
_WORK: Callable[[int, int], Any] | None = None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _can_fork() -> bool:
    """Whether worker processes can be forked here.

    Asked only when there are chunks to share: a small input never loads multiprocessing.
    """
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _die_with(parent: int) -> None:
    """In a worker: end when the process that forked it ends, even killed with SIGKILL.

    On Linux the kernel sends the worker SIGKILL when its parent dies (``PR_SET_PDEATHSIG``);
    a parent already gone when the worker starts is seen by its parent id. Elsewhere a
    worker ends as the pool shuts down.
    """
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(1)


def _call(start: int, stop: int) -> Any:
    if _WORK is None:  # pragma: no cover - only a worker forked by chunked() calls this
        raise RuntimeError("no work was given to this worker")
    gc.disable()  # a worker builds many small acyclic records and exits: no cycles to collect
    return _WORK(start, stop)


def chunked(
    work: Callable[[int, int], list[T]],
    n: int,
    *,
    chunk: int = 2000,
    workers: int | None = None,
) -> Iterator[list[T]]:
    """``work(start, stop)`` over consecutive chunks of ``range(n)``, results in order.

    Examples:
        >>> [x for part in chunked(lambda a, b: list(range(a, b)), 5, chunk=2) for x in part]
        [0, 1, 2, 3, 4]
    """
    global _WORK
    bounds = [(a, min(a + chunk, n)) for a in range(0, n, chunk)]
    procs = min(workers if workers is not None else cores(), len(bounds))
    if procs < 2 or not _can_fork():
        for a, b in bounds:
            was = gc.isenabled()
            gc.disable()
            try:
                part = work(a, b)
            finally:
                if was:
                    gc.enable()
            yield part
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _WORK = work
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(
            max_workers=procs, mp_context=context, initializer=_die_with, initargs=(os.getpid(),)
        ) as pool:
            futures = [pool.submit(_call, a, b) for a, b in bounds]
            try:
                for f in futures:
                    yield f.result()
            finally:
                for f in futures:
                    f.cancel()
    finally:
        _WORK = None
