"""How time grows, never seconds: the one check every scale test uses.

A case runs at n/10 and at n; the time at n may be at most :data:`GROWTH` times the time at
n/10 (linear work gives about 10, n log n about 13, quadratic 100). Both times are measured in
the same test, so a busy machine slows both; the figures themselves are the benchmarks'.
"""

import time

GROWTH = 30.0  # generous: linear is ~10, quadratic 100


def grows_linearly(what, prepare, work, n, *, folder, repeats=1):
    """Time ``work(prepare(size, dir))`` at n // 10 and at n; return the result at n.

    Inputs are prepared outside the timing, each size in its own folder. With ``repeats`` (for
    work without side effects that takes a fraction of a second, run in this process), each
    size's time is the best of that many runs of this process's CPU time: a pause of the
    machine, or the other test worker's load, in one run of 10 ms would otherwise read as
    growth (a full suite once read x30.8 from 0.03 s at n/10 where a quiet machine reads x18).
    """
    clock = time.process_time if repeats > 1 else time.perf_counter
    seconds = {}
    result = None
    for size in (n // 10, n):
        where = folder / f"n{size}"
        where.mkdir(parents=True, exist_ok=True)
        inputs = prepare(size, where)
        times = []
        for _ in range(repeats):
            started = clock()
            result = work(inputs)
            times.append(clock() - started)
        seconds[size] = min(times)
    growth = seconds[n] / max(seconds[n // 10], 1e-9)  # a ratio of two times, never seconds
    assert growth <= GROWTH, (
        f"{what}: x{growth:.1f} from n={n // 10} to n={n} ({seconds[n // 10]:.2f} s -> "
        f"{seconds[n]:.1f} s): grows faster than linear (allowed x{GROWTH:.0f})"
    )
    return result
