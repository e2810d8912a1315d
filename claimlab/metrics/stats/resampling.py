"""Resampling answers as clusters: weights drawn in blocks, resampled sums, the figure's parts.

A resample draws N answers with replacement and recomputes each figure from the answers'
counts weighted by how often each was drawn: one matrix product per block of resamples.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

Method = Literal["percentile", "bca"]


METHODS: tuple[Method, ...] = ("percentile", "bca")


Aggregate = Literal["micro", "macro"]


AGGREGATES: tuple[Aggregate, ...] = ("micro", "macro")


Floats = NDArray[np.float64]


BLOCK_CELLS = 8_000_000  # answers x resamples drawn at once: about 64 MB of weights


def check_level(level: float) -> float:
    """A confidence level strictly between 0 and 1."""
    if not (isinstance(level, (int, float)) and 0 < float(level) < 1) or math.isnan(level):
        raise ValueError(f"the level must be between 0 and 1 (e.g. 0.95), got {level!r}")
    return float(level)


def pick_blocks(
    n: int, resamples: int, seed: int, *, cells: int | None = None
) -> Iterator[NDArray[np.int64]]:
    """Blocks of bootstrap draws: per resample, the ``n`` clusters drawn (indexes, with replacement).

    One generator per seed, drawn block after block: a block holds at most ``cells`` draws
    (default ``BLOCK_CELLS``; at least one resample), so memory stays bounded whatever ``n`` and ``resamples`` are, and
    the same seed gives the same draws whatever the block size (numpy's generator continues
    its stream from one call to the next: stacked, the blocks are the one draw of
    ``(resamples, n)``).

    Examples:
        >>> import numpy as np
        >>> whole = np.random.default_rng(7).integers(0, 5, size=(6, 5))
        >>> blocks = list(pick_blocks(5, 6, 7, cells=10))
        >>> [len(b) for b in blocks], bool((np.vstack(blocks) == whole).all())
        ([2, 2, 2], True)
    """
    rng = np.random.default_rng(seed)
    per_block = max(1, min(resamples, (BLOCK_CELLS if cells is None else cells) // max(n, 1)))
    done = 0
    while done < resamples:
        b = min(per_block, resamples - done)
        yield rng.integers(0, n, size=(b, n), dtype=np.int64)
        done += b


KEEP_CELLS = 64_000_000  # draws kept in a process, as one-byte counts: at most 64 MB
_KEPT: OrderedDict[tuple[int, int, int, int], list[NDArray[np.uint8]]] = OrderedDict()


def weight_blocks(n: int, resamples: int, seed: int) -> Iterator[NDArray[np.float64]]:
    """Blocks of bootstrap weights: how often each of ``n`` answers is drawn, per resample.

    The draws of :func:`pick_blocks`, counted per answer. The counts of a seed are kept once
    drawn (one byte each, up to :data:`KEEP_CELLS` in all, the oldest let go first): the
    figures a command resamples with one seed (a comparison's nine) share one draw, and the
    weights are the same numbers as drawn again.
    """
    key = (n, resamples, seed, BLOCK_CELLS)  # the blocks as drawn: their size is part of them
    if key in _KEPT:
        _KEPT.move_to_end(key)
        for small in _KEPT[key]:
            yield small.astype(np.float64)
        return
    keep: list[NDArray[np.uint8]] | None = [] if n * resamples <= KEEP_CELLS else None
    for draws in pick_blocks(n, resamples, seed):
        b = len(draws)
        offsets = (np.arange(b, dtype=np.int64) * n)[:, None]
        counts = np.bincount((draws + offsets).ravel(), minlength=b * n).reshape(b, n)
        if keep is not None:
            keep = keep + [counts.astype(np.uint8)] if counts.max(initial=0) < 256 else None
        yield counts.astype(np.float64)
    if keep is not None:
        _keep(key, keep)


def _keep(key: tuple[int, int, int, int], blocks: list[NDArray[np.uint8]]) -> None:
    """Keep a seed's counts, letting the oldest go while all kept exceed :data:`KEEP_CELLS`."""
    _KEPT[key] = blocks
    while sum(k[0] * k[1] for k in _KEPT) > KEEP_CELLS:
        _KEPT.popitem(last=False)


def macro_parts(num: Floats, den: Floats) -> tuple[Floats, Floats]:
    """A macro mean as a ratio of sums: (r_i where defined, 0 elsewhere), (1 where defined)."""
    defined = den > 0
    r = np.divide(num, den, out=np.zeros_like(num, dtype=np.float64), where=defined)
    return r, defined.astype(np.float64)


def stack_pairs(pairs: Sequence[tuple[Floats, Floats]]) -> Floats:
    """(numerator, denominator) column pairs side by side, in order, as one matrix."""
    return np.column_stack([x for pair in pairs for x in pair])


RESAMPLED: ContextVar[Callable[[int], None] | None] = ContextVar("resampled", default=None)


@contextmanager
def reporting(progress: Callable[[int], None] | None) -> Iterator[None]:
    """Within the block, every block of resamples drawn is reported to ``progress(count)``.

    A command shows a progress line for a long bootstrap this way; the figures are the same.
    """
    token = RESAMPLED.set(progress)
    try:
        yield
    finally:
        RESAMPLED.reset(token)


def in_content_order(rows: Floats) -> Floats:
    """The rows (one per answer) sorted by their values, first column first.

    A seed draws answers by their place in this order, so a figure's interval, p-value and
    ranking depend on what the answers hold, never on their ids or the file's row order:
    renaming or reordering answers changes nothing. Rows holding the same values may come in
    any order: swapping them changes no draw's sums.

    Examples:
        >>> import numpy as np
        >>> in_content_order(np.array([[2.0, 1], [1, 5], [2, 0]])).tolist()
        [[1.0, 5.0], [2.0, 0.0], [2.0, 1.0]]
    """
    if rows.shape[0] < 2 or rows.shape[1] == 0:
        return rows
    return rows[np.lexsort(rows.T[::-1])]


def columns_in_content_order(*columns: Floats) -> tuple[Floats, ...]:
    """Per-answer columns of one figure, their answers put in :func:`in_content_order` together.

    What every resampling reads: a figure's intervals, p-value and ranking are functions of
    its answers' values alone (its sums too, to the last bit: the same values are added in
    the same order).
    """
    if not columns or columns[0].size < 2:
        return columns
    ordered = in_content_order(np.column_stack(columns))
    return tuple(np.ascontiguousarray(ordered[:, k]) for k in range(len(columns)))


def resampled_sums(columns: Floats, resamples: int, seed: int) -> Floats:
    """(resamples x columns) weighted column sums: the bootstrap of every figure at once.

    Callers pass each figure's columns in :func:`columns_in_content_order`.
    """
    n = columns.shape[0]
    report = RESAMPLED.get()
    out = []
    for w in weight_blocks(n, resamples, seed):
        out.append(w @ columns)
        if report is not None:
            report(len(w))
    return np.vstack(out) if out else np.zeros((0, columns.shape[1]))


def ratio_or_nan(top: Floats, bottom: Floats) -> Floats:
    """The ratio element by element: top / bottom, NaN (N/A) where the denominator is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)


def quantile_pair(values: Floats, lo: float, hi: float) -> tuple[float, float]:
    """The ``lo`` and ``hi`` quantiles of ``values`` (numpy's default, linear interpolation)."""
    q = np.quantile(values, [lo, hi])
    return float(q[0]), float(q[1])


MIN_RESAMPLES = 100  # fewer resamples cannot place a 2.5 % quantile: no interval is claimed


def ratio_parts(num: Any, den: Any, aggregate: Aggregate) -> tuple[Floats, Floats]:
    """The (a, b) arrays of a micro ratio or a macro mean of per-answer counts."""
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    if aggregate == "macro":
        return macro_parts(n, d)
    if aggregate != "micro":
        raise ValueError(f"aggregate must be micro or macro, got {aggregate!r}")
    return n, d
