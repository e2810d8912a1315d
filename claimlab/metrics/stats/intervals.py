"""Intervals over cluster resamples, or none with the reason.

Percentile and BCa over cluster resamples, Wilson's score interval; no interval with the
reason below two clusters or 100 resamples, or where the resamples show no spread.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from claimlab.metrics.stats import MIN_CLUSTERS
from claimlab.metrics.stats.resampling import (
    METHODS,
    MIN_RESAMPLES,
    Floats,
    Method,
    check_level,
    columns_in_content_order,
    quantile_pair,
    ratio_or_nan,
    resampled_sums,
    stack_pairs,
)


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
    return too_small(defined, resamples)


def too_small(
    clusters: int,
    resamples: int,
    *,
    what: str = "answer with a figure",
    needs: int = MIN_CLUSTERS,
) -> NoInterval | None:
    """Why an input is too small for an interval: too few clusters or resamples (else None).

    ``clusters`` counts what is resampled (answers with a figure, response pairs, ...), named
    by ``what``; ``needs`` is the fewest a figure's resamples can vary with.

    Examples:
        >>> too_small(1, 2000).reason
        'only 1 answer with a figure: an interval needs 2 or more'
        >>> too_small(2, 2000, what="response pairs", needs=3).reason
        'only 2 response pairs: an interval needs 3 or more'
        >>> too_small(5, 50).reason
        '50 resamples: an interval needs 100 or more (--bootstrap)'
        >>> too_small(5, 2000) is None
        True
    """
    if clusters < needs:
        return NoInterval(f"only {clusters} {what}: an interval needs {needs} or more")
    if resamples < MIN_RESAMPLES:
        return NoInterval(
            f"{resamples} resamples: an interval needs {MIN_RESAMPLES} or more (--bootstrap)"
        )
    return None


def no_spread(defined: Floats, shown: str, *, what: str = "answers") -> NoInterval | None:
    """Why resampled values give no interval: all the same, or none defined (else None).

    ``shown`` is the figure as the reason prints it; ``what`` names the resampled clusters.
    """
    if defined.size == 0 or np.all(
        np.abs(defined - defined[0]) <= 1e-12 * max(1.0, abs(defined[0]))
    ):
        return NoInterval(
            f"every resample gives {shown}: the {what} do not vary, so the bootstrap shows no "
            "spread"
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
    flat = no_spread(ok, f"{100 * estimate:.1f}%")
    if flat is not None:
        return flat
    alpha = (1 - level) / 2
    if method == "percentile":
        lo, hi = quantile_pair(ok, alpha, 1 - alpha)
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
    lo, hi = quantile_pair(ok, out[0], out[1])
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
    pairs: list[tuple[Floats, Floats]] = []
    for a, b in figures.values():  # each figure's answers by their values: ids and rows aside
        ordered = columns_in_content_order(np.asarray(a, np.float64), np.asarray(b, np.float64))
        pairs.append((ordered[0], ordered[1]))
    if not pairs or pairs[0][0].size == 0:
        return {name: NoInterval("no answer: the figure is N/A") for name in names}
    if resamples < MIN_RESAMPLES or pairs[0][0].size < MIN_CLUSTERS:
        # fewer than two answers have fewer than two figures: _not_enough always says why
        # (a NoInterval is falsy, so the reasons are told apart from None, never by `or`)
        reasons = {
            name: _not_enough(float(b.sum()), int(np.sum(b > 0)), resamples)
            for name, (_, b) in zip(names, pairs, strict=True)
        }
        return {name: why for name, why in reasons.items() if why is not None}
    sums = resampled_sums(stack_pairs(pairs), resamples, seed)
    out: dict[str, Interval | NoInterval] = {}
    for k, (name, (a, b)) in enumerate(zip(names, pairs, strict=True)):
        stars = ratio_or_nan(sums[:, 2 * k], sums[:, 2 * k + 1])
        out[name] = interval_from(a, b, stars, level=level, method=method)
    return out
