"""Uncertainty: cluster-bootstrap intervals, paired comparisons with permutation tests, Holm.

Metric card:
    Every corpus figure here is a ratio of weighted sums over answers (clusters): a micro
    ratio sum(n_i) / sum(d_i); a macro mean sum(r_i [d_i > 0]) / sum([d_i > 0]) with r_i =
    n_i / d_i. Claims are nested in answers, so answers are resampled, never claims: a resample
    draws N answers with replacement, and each figure is recomputed from the answers' counts
    weighted by how often each was drawn (one matrix product per block of resamples, never a
    Python loop over them).
    Intervals (Efron & Tibshirani 1993): percentile (the level's quantiles of the resampled
    figures) and BCa (bias-corrected and accelerated; acceleration from the jackknife over
    answers, in closed form for a ratio of sums). A resample whose denominator is 0 has no
    figure and is counted apart. Wilson's score interval (Wilson 1927) where items are
    independent (one answer's ratio, the respond ratio of prompts).
    Paired comparison of A and B on the answers both scored: the difference of the figure, its
    paired bootstrap interval (the same answers drawn for both sides) and a paired permutation
    test (each answer's A and B counts swapped at random; p = (1 + #|diff*| >= |diff|) /
    (1 + P)). Answers only one side scored are counted (``only_a``, ``only_b``), never imputed.
    Several comparisons: Holm's step-down adjustment (Holm 1979).
    Undefined: a figure with no denominator is N/A and has no interval.
    Reproducible: the same ``seed`` gives the same intervals and p-values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

Method = Literal["percentile", "bca"]
METHODS: tuple[Method, ...] = ("percentile", "bca")
Aggregate = Literal["micro", "macro"]
AGGREGATES: tuple[Aggregate, ...] = ("micro", "macro")
Floats = NDArray[np.float64]
BLOCK_CELLS = 8_000_000  # answers x resamples drawn at once: about 64 MB of weights


@dataclass(frozen=True)
class Interval:
    """A confidence interval with what it rests on."""

    low: float
    high: float
    level: float
    method: str
    resamples: int
    clusters: int
    undefined_clusters: int = 0  # answers without the figure (a 0 denominator)
    undefined_resamples: int = 0  # resamples without a figure (every drawn answer undefined)

    @property
    def display(self) -> str:
        """``[51.2%, 63.4%] (95% BCa; 2000 resamples of 300 answers, 12 undefined)``."""
        how = (
            f"{self.resamples} resamples of {self.clusters} answers"
            if self.resamples
            else f"{self.clusters} independent items"
        )
        if self.undefined_clusters:
            how += f", {self.undefined_clusters} undefined"
        if self.undefined_resamples:
            how += f"; {self.undefined_resamples} resamples without a figure"
        return (
            f"[{100 * self.low:.1f}%, {100 * self.high:.1f}%] "
            f"({100 * self.level:g}% {self.method}; {how})"
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract: ``{low, high, level, method, resamples, clusters}`` (+ undefined)."""
        return {
            "low": self.low,
            "high": self.high,
            "level": self.level,
            "method": self.method,
            "resamples": self.resamples,
            "clusters": self.clusters,
            "undefined_clusters": self.undefined_clusters,
            "undefined_resamples": self.undefined_resamples,
        }


def check_level(level: float) -> float:
    """A confidence level strictly between 0 and 1."""
    if not (isinstance(level, (int, float)) and 0 < float(level) < 1) or math.isnan(level):
        raise ValueError(f"the level must be between 0 and 1 (e.g. 0.95), got {level!r}")
    return float(level)


def wilson(successes: int, n: int, level: float = 0.95) -> Interval | None:
    """Wilson's score interval for k successes of n independent items (None when n = 0).

    Examples:
        >>> w = wilson(3, 5)
        >>> round(w.low, 4), round(w.high, 4)
        (0.2307, 0.8824)
        >>> wilson(0, 0) is None
        True
    """
    level = check_level(level)
    if n <= 0:
        return None
    z = NormalDist().inv_cdf(0.5 + level / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(max(0.0, centre - half), min(1.0, centre + half), level, "Wilson", 0, n)


def weight_blocks(n: int, resamples: int, seed: int) -> Iterator[NDArray[np.float64]]:
    """Blocks of bootstrap weights: how often each of ``n`` answers is drawn, per resample.

    One generator per seed, blocks sized so that memory stays bounded on any ledger; the same
    seed gives the same weights whatever the block size.
    """
    rng = np.random.default_rng(seed)
    per_block = max(1, min(resamples, BLOCK_CELLS // max(n, 1)))
    done = 0
    while done < resamples:
        b = min(per_block, resamples - done)
        draws = rng.integers(0, n, size=(b, n), dtype=np.int64 if n > 2**31 - 1 else np.int32)
        offsets = (np.arange(b, dtype=np.int64) * n)[:, None]
        counts = np.bincount((draws + offsets).ravel(), minlength=b * n).reshape(b, n)
        yield counts.astype(np.float64)
        done += b


def macro_parts(num: Floats, den: Floats) -> tuple[Floats, Floats]:
    """A macro mean as a ratio of sums: (r_i where defined, 0 elsewhere), (1 where defined)."""
    defined = den > 0
    r = np.divide(num, den, out=np.zeros_like(num, dtype=np.float64), where=defined)
    return r, defined.astype(np.float64)


def _parts(num: Any, den: Any, aggregate: Aggregate) -> tuple[Floats, Floats]:
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    if aggregate == "macro":
        return macro_parts(n, d)
    if aggregate != "micro":
        raise ValueError(f"aggregate must be micro or macro, got {aggregate!r}")
    return n, d


def _stack(pairs: Sequence[tuple[Floats, Floats]]) -> Floats:
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


def resampled_sums(columns: Floats, resamples: int, seed: int) -> Floats:
    """(resamples x columns) weighted column sums: the bootstrap of every figure at once."""
    n = columns.shape[0]
    report = RESAMPLED.get()
    out = []
    for w in weight_blocks(n, resamples, seed):
        out.append(w @ columns)
        if report is not None:
            report(len(w))
    return np.vstack(out) if out else np.zeros((0, columns.shape[1]))


def _ratio(top: Floats, bottom: Floats) -> Floats:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)


def _quantiles(values: Floats, lo: float, hi: float) -> tuple[float, float]:
    q = np.quantile(values, [lo, hi])
    return float(q[0]), float(q[1])


MIN_RESAMPLES = 100  # fewer resamples cannot place a 2.5 % quantile: no interval is claimed
MIN_CLUSTERS = 2  # one answer cannot show how answers vary


@dataclass(frozen=True)
class NoInterval:
    """Why a figure has no interval (it is never a zero-width one presented as a 95 % interval).

    Falsy, so ``iv or fallback`` and ``if iv`` read as "no interval"; in JSON ``ci`` is null
    and ``ci_reason`` says why.
    """

    reason: str

    def __bool__(self) -> bool:
        return False

    @property
    def display(self) -> str:
        """``N/A: no interval (only 1 answer: ...)``."""
        return f"N/A: no interval ({self.reason})"

    def to_dict(self) -> None:
        """JSON form: null (the reason goes beside it as ``ci_reason``)."""
        return None


def interval_or_reason(iv: Interval | NoInterval | None) -> dict[str, Any]:
    """``{"ci": ..., "ci_reason": ...}`` for a JSON figure."""
    if isinstance(iv, Interval):
        return {"ci": iv.to_dict()}
    return {"ci": None, "ci_reason": iv.reason if iv is not None else "no denominator"}


def _not_enough(total_b: float, defined: int, resamples: int) -> NoInterval | None:
    if total_b <= 0:
        return NoInterval("no denominator: the figure is N/A")
    if defined < MIN_CLUSTERS:
        return NoInterval(
            f"only {defined} answer with a figure: an interval needs {MIN_CLUSTERS} or more"
        )
    if resamples < MIN_RESAMPLES:
        return NoInterval(
            f"{resamples} resamples: an interval needs {MIN_RESAMPLES} or more (--bootstrap)"
        )
    return None


def _below(ok: Floats, estimate: float) -> float:
    """The share of resamples below the estimate, a resample at the estimate counting as half.

    "At the estimate" allows for the rounding of sums (1e-12 relative), as the textbook's
    ties are exact values; the share is kept inside (0, 1) so its normal quantile is finite.
    """
    tol = 1e-12 * max(1.0, abs(estimate))
    share = (np.sum(ok < estimate - tol) + 0.5 * np.sum(np.abs(ok - estimate) <= tol)) / ok.size
    return float(min(max(share, 1 / (2 * ok.size)), 1 - 1 / (2 * ok.size)))


def _acceleration(a: Floats, b: Floats) -> float:
    """BCa's acceleration from the jackknife over answers (closed form for a ratio of sums)."""
    total_b = float(b.sum())
    jb = total_b - b
    keep = jb > 0
    jack = (float(a.sum()) - a[keep]) / jb[keep]
    diff = jack.mean() - jack
    den = float(np.sum(diff**2)) ** 1.5
    return float(np.sum(diff**3)) / (6 * den) if den > 0 else 0.0


def interval_from(
    a: Floats,
    b: Floats,
    stars: Floats,
    *,
    level: float,
    method: Method,
) -> Interval | NoInterval:
    """The interval of sum(a) / sum(b) from its resampled values ``stars`` (NaN: undefined)."""
    total_b = float(b.sum())
    short = _not_enough(total_b, int(np.sum(b > 0)), int(stars.size))
    if short is not None:
        return short
    estimate = float(a.sum()) / total_b
    ok = stars[~np.isnan(stars)]
    counts = dict(
        resamples=int(stars.size),
        clusters=int(a.size),
        undefined_clusters=int(np.sum(b <= 0)),
        undefined_resamples=int(stars.size - ok.size),
    )
    if ok.size == 0 or np.all(np.abs(ok - ok[0]) <= 1e-12 * max(1.0, abs(ok[0]))):
        shown = f"{100 * estimate:.1f}%"
        return NoInterval(
            f"every resample gives {shown}: the answers do not vary, so the bootstrap shows no "
            "spread"
        )
    alpha = (1 - level) / 2
    if method == "percentile":
        lo, hi = _quantiles(ok, alpha, 1 - alpha)
        return Interval(lo, hi, level, "percentile", **counts)
    if method != "bca":
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    nd = NormalDist()
    z0 = nd.inv_cdf(_below(ok, estimate))
    accel = _acceleration(a, b)
    out = []
    for z_alpha in (nd.inv_cdf(alpha), nd.inv_cdf(1 - alpha)):
        shifted = z0 + (z0 + z_alpha) / (1 - accel * (z0 + z_alpha))
        out.append(nd.cdf(shifted))
    lo, hi = _quantiles(ok, out[0], out[1])
    return Interval(lo, hi, level, "BCa", **counts)


def bootstrap_intervals(
    figures: dict[str, tuple[Any, Any]],
    *,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    method: Method = "bca",
) -> dict[str, Interval | NoInterval]:
    """Intervals for several ratio-of-sums figures over the same answers (one resampling).

    ``figures`` maps a name to ``(a, b)``: per-answer arrays whose sums' ratio is the figure
    (use :func:`macro_parts` for a macro mean).

    Examples:
        >>> num, den = np.array([1, 2, 0, 3.0]), np.array([2, 2, 1, 4.0])
        >>> out = bootstrap_intervals({"micro": (num, den)}, resamples=500, seed=1)
        >>> iv = out["micro"]
        >>> iv.low < 6 / 9 < iv.high, iv.resamples, iv.clusters
        (True, 500, 4)
    """
    level = check_level(level)
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    names = list(figures)
    pairs = [(np.asarray(a, np.float64), np.asarray(b, np.float64)) for a, b in figures.values()]
    if not pairs or pairs[0][0].size == 0:
        return {name: NoInterval("no answer: the figure is N/A") for name in names}
    if resamples < MIN_RESAMPLES or pairs[0][0].size < MIN_CLUSTERS:
        return {
            name: _not_enough(float(b.sum()), int(np.sum(b > 0)), resamples)
            or NoInterval("only 1 answer: an interval needs 2 or more")
            for name, (a, b) in zip(names, pairs, strict=True)
        }
    sums = resampled_sums(_stack(pairs), resamples, seed)
    out: dict[str, Interval | NoInterval] = {}
    for k, (name, (a, b)) in enumerate(zip(names, pairs, strict=True)):
        stars = _ratio(sums[:, 2 * k], sums[:, 2 * k + 1])
        out[name] = interval_from(a, b, stars, level=level, method=method)
    return out


def ratio_parts(num: Any, den: Any, aggregate: Aggregate) -> tuple[Floats, Floats]:
    """The (a, b) arrays of a micro ratio or a macro mean of per-answer counts."""
    return _parts(num, den, aggregate)


@dataclass(frozen=True)
class Difference:
    """A - B with its interval."""

    value: float | None
    low: float | None
    high: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Comparison:
    """One figure of A against B on their shared answers (see the metric card)."""

    a: str
    b: str
    metric: str
    aggregate: str
    difference: Difference
    p_value: float | None
    shared: int
    only_a: int
    only_b: int
    level: float
    resamples: int
    permutations: int
    p_adjusted: float | None = None
    unpaired: Difference | None = None
    reason: str = ""  # why there is no interval or p-value (too few shared answers)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``--compare``."""
        return {
            "a": self.a,
            "b": self.b,
            "metric": self.metric,
            "aggregate": self.aggregate,
            "difference": self.difference.to_dict(),
            "p_value": self.p_value,
            "p_adjusted": self.p_adjusted,
            "shared": self.shared,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "level": self.level,
            "resamples": self.resamples,
            "permutations": self.permutations,
            **({"reason": self.reason} if self.reason else {}),
        }

    @property
    def display(self) -> str:
        """``-4.1 points [-6.0, -2.2] (p 0.001; 300 shared, 0 only A, 12 only B)``."""
        d = self.difference
        counts = f"{self.shared} shared, {self.only_a} only {self.a}, {self.only_b} only {self.b}"
        if d.value is None:
            return f"N/A ({counts})"
        ci = (
            "" if d.low is None or d.high is None else f" [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        )
        p = "" if self.p_value is None else f"; p {self.p_value:.3g}"
        if self.p_adjusted is not None:
            p += f", Holm {self.p_adjusted:.3g}"
        why = f"; {self.reason}" if self.reason else ""
        return f"{100 * d.value:+.1f} points{ci} ({counts}{p}{why})"


def paired_comparison(
    a: tuple[Any, Any],
    b: tuple[Any, Any],
    *,
    names: tuple[str, str] = ("A", "B"),
    metric: str = "",
    aggregate: Aggregate = "micro",
    only: tuple[int, int] = (0, 0),
    level: float = 0.95,
    resamples: int = 2000,
    permutations: int = 2000,
    seed: int = 0,
    unpaired_from: tuple[tuple[Any, Any], tuple[Any, Any]] | None = None,
) -> Comparison:
    """A's figure minus B's on the shared answers, paired interval and permutation p-value.

    ``a`` and ``b`` are per-answer (numerator, denominator) counts in the same answer order.
    ``unpaired_from`` (A's and B's counts over all their answers) adds the interval an unpaired
    bootstrap would give, for contrast.

    Examples:
        >>> x = (np.array([1, 2, 3.0]), np.array([2, 2, 4.0]))
        >>> c = paired_comparison(x, x, resamples=200, permutations=200, seed=3)
        >>> c.difference.value, c.p_value, c.shared
        (0.0, 1.0, 3)
    """
    (c,) = paired_comparisons(
        {(metric, aggregate): (_parts(*a, aggregate), _parts(*b, aggregate))},
        names=names,
        only=only,
        level=level,
        resamples=resamples,
        permutations=permutations,
        seed=seed,
    )
    if unpaired_from is None:
        return c
    unpaired = unpaired_difference(
        *unpaired_from, aggregate=aggregate, level=level, resamples=resamples, seed=seed + 2
    )
    from dataclasses import replace

    return replace(c, unpaired=unpaired)


def paired_comparisons(
    figures: dict[tuple[str, str], tuple[tuple[Floats, Floats], tuple[Floats, Floats]]],
    *,
    names: tuple[str, str] = ("A", "B"),
    only: tuple[int, int] = (0, 0),
    level: float = 0.95,
    resamples: int = 2000,
    permutations: int = 2000,
    seed: int = 0,
) -> list[Comparison]:
    """Several figures of A against B on the same shared answers, with one resampling.

    ``figures`` maps ``(metric, aggregate)`` to A's and B's ``(a, b)`` ratio parts (see
    :func:`ratio_parts`). The same answers are drawn for every figure and both sides, and the
    same swaps serve every figure's permutation test: one matrix product each, however many
    figures. Fewer than 2 shared answers or 100 resamples give the difference alone, with the
    reason; fewer than 100 permutations give no p-value.
    """
    level = check_level(level)
    keys = list(figures)
    cols: list[Floats] = []
    for (an, ad), (bn, bd) in figures.values():
        if an.size != bn.size:
            raise ValueError("A and B must give counts for the same answers, in the same order")
        cols += [an, ad, bn, bd]
    n = cols[0].size if cols else 0
    common: dict[str, Any] = dict(
        a=names[0],
        b=names[1],
        shared=n,
        only_a=only[0],
        only_b=only[1],
        level=level,
        resamples=resamples,
        permutations=permutations,
    )
    if n < MIN_CLUSTERS or resamples < MIN_RESAMPLES:
        return _too_few(keys, cols, n, resamples, permutations, common)
    matrix = np.column_stack(cols)
    totals = matrix.sum(axis=0)
    observed = _observed(totals, len(keys))
    sums = resampled_sums(matrix, resamples, seed)
    p_values, reason = _p_values(cols, totals, observed, permutations, seed + 1)
    alpha = (1 - level) / 2
    out = []
    for k, (metric, aggregate) in enumerate(keys):
        diff = _difference(sums, k, float(observed[k]), alpha)
        out.append(
            Comparison(
                metric=metric, aggregate=aggregate, difference=diff,
                p_value=None if diff.value is None else p_values[k], reason=reason, **common,
            )
        )  # fmt: skip
    return out


def _p_values(
    cols: list[Floats], totals: Floats, observed: Floats, permutations: int, seed: int
) -> tuple[list[float | None], str]:
    """Each figure's permutation p-value (the same swaps for all), or None with the reason."""
    if permutations < MIN_RESAMPLES:
        return [None] * len(observed), f"a p-value needs {MIN_RESAMPLES} or more permutations"
    extreme = _permutation_extremes(cols, totals, observed, permutations, seed)
    return [(1 + int(e)) / (1 + permutations) for e in extreme], ""


def _difference(sums: Floats, k: int, observed: float, alpha: float) -> Difference:
    """Figure k's observed difference A - B with its percentile interval over the resamples."""
    if np.isnan(observed):
        return Difference(None, None, None)
    diffs = _ratio(sums[:, 4 * k], sums[:, 4 * k + 1]) - _ratio(
        sums[:, 4 * k + 2], sums[:, 4 * k + 3]
    )
    ok = diffs[~np.isnan(diffs)]
    low, high = _quantiles(ok, alpha, 1 - alpha) if ok.size else (None, None)
    return Difference(observed, low, high)


def _observed(totals: Floats, figures: int) -> Floats:
    """A's figure minus B's for every figure (NaN where either has no denominator)."""
    observed = np.full(figures, np.nan)
    for k in range(figures):
        sa_n, sa_d, sb_n, sb_d = totals[4 * k : 4 * k + 4]
        if sa_d > 0 and sb_d > 0:
            observed[k] = sa_n / sa_d - sb_n / sb_d
    return observed


def _permutation_extremes(
    cols: Sequence[Floats], totals: Floats, observed: Floats, permutations: int, seed: int
) -> NDArray[np.int64]:
    """For each figure, how many random swaps of A and B give a difference as large.

    Swapping A and B on an answer moves (B - A) into A's sums there; the same swaps serve
    every figure, one matrix product per block of permutations.
    """
    figures, n = len(observed), cols[0].size
    rng = np.random.default_rng(seed)
    deltas = np.column_stack(
        [
            col
            for k in range(figures)
            for col in (cols[4 * k + 2] - cols[4 * k], cols[4 * k + 3] - cols[4 * k + 1])
        ]
    )
    extreme = np.zeros(figures, dtype=np.int64)
    per_block = max(1, min(permutations, BLOCK_CELLS // max(n, 1)))
    done = 0
    while done < permutations:
        size = min(per_block, permutations - done)
        swap = rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)
        moved = swap @ deltas
        for k in range(figures):
            if np.isnan(observed[k]):
                continue
            sa_n, sa_d, sb_n, sb_d = totals[4 * k : 4 * k + 4]
            mn, md = moved[:, 2 * k], moved[:, 2 * k + 1]
            diff = _ratio(sa_n + mn, sa_d + md) - _ratio(sb_n - mn, sb_d - md)
            tol = 1e-12 * max(1.0, abs(observed[k]))
            extreme[k] += int(
                np.sum(np.abs(np.nan_to_num(diff, nan=0.0)) >= abs(observed[k]) - tol)
            )
        done += size
    return extreme


def _too_few(
    keys: Sequence[tuple[str, str]],
    cols: Sequence[Floats],
    n: int,
    resamples: int,
    permutations: int,
    common: dict[str, Any],
) -> list[Comparison]:
    """Comparisons with the observed difference only: too few shared answers or resamples."""
    if n < MIN_CLUSTERS:
        reason = f"{n} shared answer{'' if n == 1 else 's'}: an interval and a test need 2 or more"
    else:
        reason = f"an interval needs {MIN_RESAMPLES} or more resamples"
    out = []
    for k, (metric, aggregate) in enumerate(keys):
        an, ad, bn, bd = (float(c.sum()) for c in cols[4 * k : 4 * k + 4])
        value = an / ad - bn / bd if ad > 0 and bd > 0 else None
        out.append(
            Comparison(
                metric=metric,
                aggregate=aggregate,
                difference=Difference(value, None, None),
                p_value=None,
                reason=reason,
                **common,
            )
        )
    return out


def unpaired_difference(
    a: tuple[Any, Any],
    b: tuple[Any, Any],
    *,
    aggregate: Aggregate = "micro",
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Difference:
    """A - B with A's and B's answers resampled independently (ignores that they are shared)."""
    level = check_level(level)
    an, ad = _parts(*a, aggregate)
    bn, bd = _parts(*b, aggregate)
    if ad.sum() <= 0 or bd.sum() <= 0:
        return Difference(None, None, None)
    sa = resampled_sums(np.column_stack([an, ad]), resamples, seed)
    sb = resampled_sums(np.column_stack([bn, bd]), resamples, seed + 7919)
    diffs = _ratio(sa[:, 0], sa[:, 1]) - _ratio(sb[:, 0], sb[:, 1])
    ok = diffs[~np.isnan(diffs)]
    alpha = (1 - level) / 2
    lo, hi = _quantiles(ok, alpha, 1 - alpha)
    return Difference(float(an.sum() / ad.sum() - bn.sum() / bd.sum()), lo, hi)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (None stays None and is not counted).

    Examples:
        >>> holm([0.01, 0.04, 0.03])
        [0.03, 0.06, 0.06]
        >>> holm([None, 0.5])
        [None, 0.5]
    """
    idx = [i for i, p in enumerate(p_values) if p is not None]
    m = len(idx)
    order = sorted(idx, key=lambda i: p_values[i])  # type: ignore[arg-type, return-value]
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        p = p_values[i]
        assert p is not None
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = round(running, 12)
    return out


def with_holm(comparisons: Sequence[Comparison]) -> list[Comparison]:
    """The comparisons with Holm-adjusted p-values over all of them."""
    from dataclasses import replace

    adjusted = holm([c.p_value for c in comparisons])
    return [replace(c, p_adjusted=p) for c, p in zip(comparisons, adjusted, strict=True)]


def ranking_stability(
    figures: dict[str, tuple[Any, Any]],
    *,
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Any]:
    """How often the order of several systems holds when their shared answers are resampled.

    ``figures`` maps each system to (a, b) per-answer arrays over the same answers. Returns
    the observed order (best first), the share of resamples with exactly that order, and for
    each adjacent pair the share in which the first stays above the second.
    """
    return rankings_stability({"": figures}, resamples=resamples, seed=seed)[""]


def rankings_stability(
    by_figure: dict[str, dict[str, tuple[Any, Any]]],
    *,
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, dict[str, Any]]:
    """:func:`ranking_stability` of several figures over the same answers, in one resampling."""
    cols: list[tuple[Floats, Floats]] = []
    for figures in by_figure.values():
        cols += [
            (np.asarray(a, np.float64), np.asarray(b, np.float64)) for a, b in figures.values()
        ]
    n = cols[0][0].size if cols else 0
    sums = resampled_sums(_stack(cols), resamples, seed) if n and resamples else None
    out, at = {}, 0
    for name, figures in by_figure.items():
        pairs = cols[at : at + len(figures)]
        part = None if sums is None else sums[:, 2 * at : 2 * (at + len(figures))]
        out[name] = _ranking(list(figures), pairs, part, resamples)
        at += len(figures)
    return out


def _ranking(
    names: list[str], pairs: list[tuple[Floats, Floats]], sums: Floats | None, resamples: int
) -> dict[str, Any]:
    values = {
        n: (a.sum() / b.sum() if b.sum() > 0 else np.nan)
        for n, (a, b) in zip(names, pairs, strict=True)
    }
    order = sorted((n for n in names if not np.isnan(values[n])), key=lambda n: -values[n])
    if len(order) < 2 or sums is None or pairs[0][0].size < MIN_CLUSTERS:
        return {"order": order, "same_order": None, "pairs": [], "resamples": 0}
    stars = np.column_stack([_ratio(sums[:, 2 * k], sums[:, 2 * k + 1]) for k in range(len(names))])
    col = {n: k for k, n in enumerate(names)}
    ranked = stars[:, [col[n] for n in order]]
    # an observed tie (two systems both at 100 %, say) holds while they stay tied or in order
    tied = np.array([values[x] == values[y] for x, y in zip(order, order[1:], strict=False)])
    steps = np.diff(ranked, axis=1)
    same = np.all(np.where(tied, steps <= 0, steps < 0), axis=1)
    pair_rows = []
    for k, (first, second) in enumerate(zip(order, order[1:], strict=False)):
        a, b = stars[:, col[first]], stars[:, col[second]]
        above = a >= b if tied[k] else a > b
        pair_rows.append(
            {"above": first, "below": second, "tied": bool(tied[k]), "holds": float(above.mean())}
        )
    return {
        "order": order,
        "values": {n: float(values[n]) for n in order},
        "same_order": float(same.mean()),
        "pairs": pair_rows,
        "resamples": resamples,
    }


# ------------------------------------------------------------------------------ ledgers

LEDGER_METRICS = ("preservation", "coverage", "confirmed_support", "raw_support")


def _ledger_defs() -> dict[str, tuple[str, str]]:
    from claimlab.metrics.ledger import RATIO_DEFS

    return dict(RATIO_DEFS)


def _ledger_figures(table: Any, codes: Any = None) -> tuple[Any, dict[str, tuple[Any, Any]]]:
    """Per-answer ratio parts of every figure of a ledger group (answers in sorted order)."""
    ids = table["answer_id"].to_numpy().astype(str)
    found, clusters = np.unique(ids, return_inverse=True)
    n_clusters = len(found)

    def per_answer(values: Floats) -> Floats:
        return np.bincount(clusters, weights=values, minlength=n_clusters).astype(np.float64)

    figures: dict[str, tuple[Any, Any]] = {}
    for metric, (num, den) in _ledger_defs().items():
        n, d = table[num].to_numpy(np.float64), table[den].to_numpy(np.float64)
        figures[f"micro/{metric}"] = (per_answer(n), per_answer(d))
        r, defined = macro_parts(n, d)
        figures[f"macro/{metric}"] = (per_answer(r), per_answer(defined))
    return found, figures


def ledger_intervals(
    table: Any,
    *,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    method: Method = "bca",
) -> dict[tuple[str, str], Interval | NoInterval]:
    """Every corpus figure of one ledger group: ``{(aggregate, metric): interval}``.

    ``table`` is the per-answer table of :func:`claimlab.metrics.ledger.count_ledger` (one row
    per decomposer and answer). The clusters are the original answers: when several
    decomposers split the same answer (the whole corpus), its rows are resampled together.
    """
    _, figures = _ledger_figures(table)
    out = bootstrap_intervals(figures, level=level, resamples=resamples, seed=seed, method=method)
    return {tuple(k.split("/")): v for k, v in out.items()}  # type: ignore[misc]


def ledger_group_intervals(
    table: Any,
    *,
    by_group: bool,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    method: Method = "bca",
) -> dict[str | None, dict[tuple[str, str], Interval | NoInterval]]:
    """:func:`ledger_intervals` of the corpus (None) and of each group (``model``), at once.

    Groups over the same answers as the corpus (the ledger scores every answer for every
    decomposer) share one resampling: the same weights each would draw on its own, so the
    intervals are those of separate calls, computed once.
    """
    parts: dict[str | None, tuple[Any, dict[str, tuple[Any, Any]]]] = {None: _ledger_figures(table)}
    for name, sub in table.groupby("model", observed=True) if by_group else ():
        parts[str(name)] = _ledger_figures(sub)
    same = [g for g, (ids, _) in parts.items() if np.array_equal(ids, parts[None][0])]
    shared = {f"{i}|{k}": v for i, g in enumerate(same) for k, v in parts[g][1].items()}
    done = bootstrap_intervals(shared, level=level, resamples=resamples, seed=seed, method=method)
    out: dict[str | None, dict[tuple[str, str], Interval | NoInterval]] = {}
    for i, g in enumerate(same):
        out[g] = {tuple(k.split("/")): done[f"{i}|{k}"] for k in parts[g][1]}  # type: ignore[misc]
    for g, (_, figures) in parts.items():
        if g not in out:
            one = bootstrap_intervals(
                figures, level=level, resamples=resamples, seed=seed, method=method
            )
            out[g] = {tuple(k.split("/")): v for k, v in one.items()}  # type: ignore[misc]
    return out


def scored_by_group(table: Any) -> dict[str, Any]:
    """Per group (``model``), the answers it scored, indexed by answer id.

    An answer a group gave no candidate row for was not scored by it: the ledger counts it as
    an empty selection, but comparisons and rankings leave it out and count it apart.
    """
    return {
        str(k): g[g["raw"] > 0].set_index("answer_id")
        for k, g in table.groupby("model", observed=True)
    }


def ledger_comparisons(
    table: Any,
    pairs: Sequence[tuple[str, str]],
    *,
    level: float = 0.95,
    resamples: int = 2000,
    permutations: int = 2000,
    seed: int = 0,
) -> list[Comparison]:
    """Paired comparisons of groups (``model`` values) on the answers both scored, Holm-adjusted.

    An answer is scored by a side when that side has a candidate row for it. Every pair gives
    eight comparisons (four metrics, micro and macro); Holm's adjustment runs over all of them.
    """
    defs = _ledger_defs()
    groups = scored_by_group(table)
    out: list[Comparison] = []
    for a, b in pairs:
        for name in (a, b):
            if name not in groups:
                known = ", ".join(sorted(groups)) or "none"
                raise KeyError(f"no group {name!r} in the ledger (groups: {known})")
        ga, gb = groups[a], groups[b]
        shared = ga.index.intersection(gb.index, sort=False)
        sa, sb = ga.loc[shared], gb.loc[shared]
        only = (int(len(ga) - len(shared)), int(len(gb) - len(shared)))
        figures: dict[tuple[str, str], tuple[tuple[Floats, Floats], tuple[Floats, Floats]]] = {}
        for metric, (num, den) in defs.items():
            for aggregate in AGGREGATES:
                figures[(metric, aggregate)] = (
                    _parts(sa[num].to_numpy(np.float64), sa[den].to_numpy(np.float64), aggregate),
                    _parts(sb[num].to_numpy(np.float64), sb[den].to_numpy(np.float64), aggregate),
                )
        out += paired_comparisons(
            figures,
            names=(a, b),
            only=only,
            level=level,
            resamples=resamples,
            permutations=permutations,
            seed=seed,
        )
    return with_holm(out)


# ------------------------------------------------------------------------------ FActScore

FACTSCORE_FIGURES = ("factscore", "init_score", "micro_precision", "respond_ratio")


def _prompt_keys(result: Any) -> list[str]:
    """One key per prompt: its topic (a repeated topic gets its occurrence number)."""
    seen: dict[str, int] = {}
    keys = []
    for r in result.responses:
        k = seen.get(r.topic, 0)
        seen[r.topic] = k + 1
        keys.append(r.topic if k == 0 else f"{r.topic} #{k + 1}")
    return keys


def factscore_parts(result: Any) -> dict[str, tuple[Floats, Floats]]:
    """A FActScore result's figures as per-prompt ratio parts (prompts are the clusters).

    ``factscore`` and ``init_score``: the mean over scored responses (a prompt without a
    scored response adds nothing to either sum); ``micro_precision``: supported facts over all
    facts; ``respond_ratio``: responding prompts over prompts.
    """
    rs = result.responses
    score = np.array([r.score if r.score is not None else 0.0 for r in rs], dtype=np.float64)
    init = np.array([r.init_score if r.init_score is not None else 0.0 for r in rs], np.float64)
    defined = np.array([r.init_score is not None for r in rs], dtype=np.float64)
    sup = np.array([r.support.numerator if r.support else 0 for r in rs], dtype=np.float64)
    facts = np.array([r.support.denominator if r.support else 0 for r in rs], dtype=np.float64)
    responded = np.array([r.responded for r in rs], dtype=np.float64)
    return {
        "factscore": (score * defined, defined),
        "init_score": (init * defined, defined),
        "micro_precision": (sup, facts),
        "respond_ratio": (responded, np.ones(len(rs))),
    }


def factscore_intervals(
    result: Any,
    *,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    method: Method = "bca",
) -> dict[str, Interval | NoInterval | None]:
    """Intervals of a FActScore result's figures.

    A cluster bootstrap over prompts; Wilson for the respond ratio (one independent item per
    prompt).
    """
    parts = factscore_parts(result)
    respond = parts.pop("respond_ratio")
    out: dict[str, Interval | NoInterval | None] = dict(
        bootstrap_intervals(parts, level=level, resamples=resamples, seed=seed, method=method)
    )
    out["respond_ratio"] = wilson(int(respond[0].sum()), int(respond[1].sum()), level)
    return out


def aligned_parts(
    results: dict[str, Any], names: Sequence[str]
) -> tuple[list[str], dict[str, dict[str, tuple[Floats, Floats]]]]:
    """The prompts every named result has, and each result's parts on them, in one order."""
    keys = {n: _prompt_keys(results[n]) for n in names}
    shared = [k for k in keys[names[0]] if all(k in set(keys[n]) for n in names[1:])]
    out = {}
    for n in names:
        index = {k: i for i, k in enumerate(keys[n])}
        take = np.array([index[k] for k in shared], dtype=np.int64)
        out[n] = {f: (a[take], b[take]) for f, (a, b) in factscore_parts(results[n]).items()}
    return shared, out


def factscore_comparisons(
    results: dict[str, Any],
    pairs: Sequence[tuple[str, str]],
    *,
    level: float = 0.95,
    resamples: int = 2000,
    permutations: int = 2000,
    seed: int = 0,
) -> list[Comparison]:
    """Paired comparisons of FActScore subjects on their shared prompts, Holm-adjusted.

    A prompt is shared when both files hold it (by topic); each side's figure is its own
    FActScore over the shared prompts it answered with facts, as the metric defines it.
    """
    out: list[Comparison] = []
    for a, b in pairs:
        shared, parts = aligned_parts(results, [a, b])
        only = (len(results[a].responses) - len(shared), len(results[b].responses) - len(shared))
        figures = {
            (f, "macro" if f in ("factscore", "init_score") else "micro"): (
                parts[a][f],
                parts[b][f],
            )
            for f in FACTSCORE_FIGURES
        }
        out += paired_comparisons(
            figures,
            names=(a, b),
            only=only,
            level=level,
            resamples=resamples,
            permutations=permutations,
            seed=seed,
        )
    return with_holm(out)


def factscore_ranking(
    results: dict[str, Any], *, figure: str = "factscore", resamples: int = 2000, seed: int = 0
) -> dict[str, Any]:
    """How often the order of the subjects by a figure holds when shared prompts are resampled."""
    names = list(results)
    shared, parts = aligned_parts(results, names)
    out = ranking_stability({n: parts[n][figure] for n in names}, resamples=resamples, seed=seed)
    out["prompts"] = len(shared)
    out["figure"] = figure
    return out


# ------------------------------------------------------------------------------ prediction-powered


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval (None where undefined) and the sample behind it."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    @property
    def display(self) -> str:
        """``61.2% [58.0%, 64.3%] (n = 300)``."""
        if self.value is None or self.low is None or self.high is None:
            return f"N/A (n = {self.n})"
        return f"{100 * self.value:.1f}% [{100 * self.low:.1f}%, {100 * self.high:.1f}%] (n = {self.n})"


@dataclass(frozen=True)
class PredictionPowered:
    """Prediction-powered inference beside the two estimates it improves on.

    ``ppi``: the autorater's mean on every answer, corrected by its mean error on the answers
    people labelled; ``naive``: the autorater alone on every answer (biased when the
    autorater is); ``human``: the people alone on the answers they labelled (unbiased, wide).
    """

    figure: str
    level: float
    ppi: Estimate
    naive: Estimate
    human: Estimate
    labelled: int
    unlabelled: int
    aggregate: str = "macro"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "figure": self.figure,
            "aggregate": self.aggregate,
            "level": self.level,
            "ppi": self.ppi.to_dict(),
            "naive_autorater": self.naive.to_dict(),
            "human_only": self.human.to_dict(),
            "labelled": self.labelled,
            "unlabelled": self.unlabelled,
        }


def _mean_ci(values: Floats, z: float) -> Estimate:
    n = values.size
    if n == 0:
        return Estimate(None, None, None, 0)
    m = float(values.mean())
    if n < 2:
        return Estimate(m, None, None, n)
    se = float(values.std(ddof=1)) / math.sqrt(n)
    return Estimate(m, m - z * se, m + z * se, n)


def _ratio_ci(num: Floats, den: Floats, z: float) -> Estimate:
    """sum(num) / sum(den) with the ratio estimator's normal interval (delta method)."""
    n = num.size
    if n == 0 or den.sum() <= 0:
        return Estimate(None, None, None, n)
    theta = float(num.sum() / den.sum())
    if n < 2:
        return Estimate(theta, None, None, n)
    g = (num - theta * den) / den.mean()
    se = float(g.std(ddof=1)) / math.sqrt(n)
    return Estimate(theta, theta - z * se, theta + z * se, n)


def ppi_mean(
    y: Floats,
    yhat: Floats,
    yhat_unlabelled: Floats,
    *,
    level: float = 0.9,
    ddof: int = 1,
) -> tuple[float, float, float]:
    """The prediction-powered mean and its normal interval (Angelopoulos et al., Science 2023).

    theta = mean(yhat_unlabelled) - mean(yhat - y); its variance is var(yhat_unlabelled) / N +
    var(yhat - y) / n (the classic estimator, lambda = 1). The variances divide by N - 1 and
    n - 1 (``ddof=1``, unbiased); ``ppi_py.ppi_mean_ci(..., lam=1)`` divides by N and n, which
    ``ddof=0`` reproduces exactly (the two differ by a factor sqrt(n / (n - 1)) in width).
    """
    level = check_level(level)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    n, big_n = y.size, yhat_unlabelled.size
    if n < 2 or big_n < 2:
        raise ValueError("prediction-powered inference needs two or more answers on each side")
    rect = yhat - y
    theta = float(yhat_unlabelled.mean() - rect.mean())
    se = math.sqrt(float(yhat_unlabelled.var(ddof=ddof)) / big_n + float(rect.var(ddof=ddof)) / n)
    return theta, theta - z * se, theta + z * se


def ppi_ratio(
    human: tuple[Floats, Floats],
    auto: tuple[Floats, Floats],
    auto_unlabelled: tuple[Floats, Floats],
    *,
    level: float = 0.9,
) -> tuple[float | None, float | None, float | None]:
    """A prediction-powered ratio of sums: numerators and denominators corrected together.

    Each sum's mean is estimated as a prediction-powered mean, mu_N = mean(N^_u) - mean(N^ - N)
    and mu_D likewise; theta = mu_N / mu_D (the ratio estimator). Its interval is normal with
    the delta method's variance: var(g_u) / N_u + var(g) / n, with g_u = (N^_u - theta D^_u) /
    mu_D and g = ((N^ - theta D^) - (N - theta D)) / mu_D (ddof 1). With a perfect autorater
    the correction is 0 and theta is the autorater's ratio; it never divides numerators from
    one set of answers by denominators from another.
    """
    level = check_level(level)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    (yn, yd), (hn, hd), (un, ud) = human, auto, auto_unlabelled
    if yn.size < 2 or un.size < 2:
        raise ValueError("prediction-powered inference needs two or more answers on each side")
    mu_n = float(un.mean() - (hn - yn).mean())
    mu_d = float(ud.mean() - (hd - yd).mean())
    if mu_d <= 0:
        return None, None, None
    theta = mu_n / mu_d
    g_u = (un - theta * ud) / mu_d
    g = ((hn - theta * hd) - (yn - theta * yd)) / mu_d
    se = math.sqrt(float(g_u.var(ddof=1)) / un.size + float(g.var(ddof=1)) / yn.size)
    return theta, theta - z * se, theta + z * se


def prediction_powered(
    auto: tuple[Any, Any],
    human: tuple[Any, Any],
    labelled: Any,
    *,
    figure: str = "",
    aggregate: Aggregate = "macro",
    level: float = 0.9,
) -> PredictionPowered:
    """A figure from an autorater's labels on every answer and people's labels on some.

    ``auto`` and ``human`` are per-answer (numerator, denominator) counts over the same answers
    (the human counts matter only where ``labelled`` is true). ``macro``: the mean of per-answer
    ratios over answers with a denominator (:func:`ppi_mean`); ``micro``: summed numerators
    over summed denominators, both corrected by people's labels (:func:`ppi_ratio`).
    """
    level = check_level(level)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    an, ad = np.asarray(auto[0], np.float64), np.asarray(auto[1], np.float64)
    hn, hd = np.asarray(human[0], np.float64), np.asarray(human[1], np.float64)
    lab = np.asarray(labelled, dtype=bool)
    if aggregate == "macro":
        defined = (ad > 0) & (~lab | (hd > 0))
        ra, _ = macro_parts(an, ad)
        rh, _ = macro_parts(hn, hd)
        y, yhat, yu = rh[lab & defined], ra[lab & defined], ra[~lab & defined]
        theta, lo, hi = ppi_mean(y, yhat, yu, level=level)
        ppi = Estimate(theta, lo, hi, int(y.size + yu.size))
        naive, people = _mean_ci(ra[defined], z), _mean_ci(y, z)
        counts = (int(y.size), int(yu.size))
    elif aggregate == "micro":
        m_theta, m_lo, m_hi = ppi_ratio(
            (hn[lab], hd[lab]), (an[lab], ad[lab]), (an[~lab], ad[~lab]), level=level
        )
        ppi = Estimate(m_theta, m_lo, m_hi, int(an.size))
        naive, people = _ratio_ci(an, ad, z), _ratio_ci(hn[lab], hd[lab], z)
        counts = (int(lab.sum()), int((~lab).sum()))
    else:
        raise ValueError(f"aggregate must be micro or macro, got {aggregate!r}")
    return PredictionPowered(
        figure=figure,
        aggregate=aggregate,
        level=level,
        ppi=ppi,
        naive=naive,
        human=people,
        labelled=counts[0],
        unlabelled=counts[1],
    )


def ledger_ranking(
    table: Any,
    *,
    metric: str = "coverage",
    aggregate: Aggregate = "micro",
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Any]:
    """How often the decomposers' order by one figure holds under resampling.

    The answers every decomposer scored are resampled (an answer a decomposer gave no row for
    is left out, as in a comparison).
    """
    return ledger_rankings(
        table, metrics=(metric,), aggregate=aggregate, resamples=resamples, seed=seed
    )[0]


def ledger_rankings(
    table: Any,
    *,
    metrics: Sequence[str] = LEDGER_METRICS,
    aggregate: Aggregate = "micro",
    resamples: int = 2000,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """:func:`ledger_ranking` of several metrics, with one resampling of the shared answers."""
    groups = scored_by_group(table)
    if len(groups) < 2:
        return [
            {"order": list(groups), "same_order": None, "pairs": [], "resamples": 0, "metric": m}
            for m in metrics
        ]
    shared = None
    for g in groups.values():
        shared = g.index if shared is None else shared.intersection(g.index, sort=False)
    by_figure = {}
    for metric in metrics:
        num, den = _ledger_defs()[metric]
        by_figure[metric] = {
            name: _parts(
                g.loc[shared, num].to_numpy(np.float64),
                g.loc[shared, den].to_numpy(np.float64),
                aggregate,
            )
            for name, g in groups.items()
        }
    ranked = rankings_stability(by_figure, resamples=resamples, seed=seed)
    answers = int(len(shared)) if shared is not None else 0
    return [dict(ranked[m], metric=m, aggregate=aggregate, answers=answers) for m in metrics]


def ledger_prediction_powered(
    auto: Any, human: Any, *, level: float = 0.95
) -> list[PredictionPowered]:
    """Every figure of a ledger labelled by an autorater, corrected by people's labels on some.

    ``auto`` and ``human`` are per-answer tables (:func:`claimlab.metrics.ledger.count_ledger`)
    over the same units; an answer is labelled by people when the human table has a
    candidate row for it. One decomposer: the tables must not be split by model.

    Raises:
        ValueError: fewer than two labelled or unlabelled answers.
    """
    a = auto.set_index("answer_id")
    h = human.set_index("answer_id").reindex(a.index)
    labelled = (h["raw"].fillna(0) > 0).to_numpy()
    out = []
    for metric, (num, den) in _ledger_defs().items():
        an, ad = a[num].to_numpy(np.float64), a[den].to_numpy(np.float64)
        hn = h[num].fillna(0).to_numpy(np.float64)
        hd = h[den].fillna(0).to_numpy(np.float64)
        for aggregate in AGGREGATES:
            out.append(
                prediction_powered(
                    (an, ad), (hn, hd), labelled, figure=metric, aggregate=aggregate, level=level
                )
            )
    return out
