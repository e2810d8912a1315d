"""Prediction-powered inference (Angelopoulos et al., 2023).

A mean or a ratio of means from many autorated items, corrected by the people's labels of
a few.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from claimlab.metrics.stats.resampling import Aggregate, Floats, check_level, macro_parts


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
        if self.value is None:
            return f"N/A (n = {self.n})"
        if self.low is None or self.high is None:
            return f"{100 * self.value:.1f}% (no interval; n = {self.n})"
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


def is_labelled(key: str, share: float, seed: int) -> bool:
    """Whether people's labels of an item (a topic, a query) are used: a seeded hash of its key.

    The same key is labelled (or not) for every system, and whatever the order of the items,
    so all systems are corrected on the same items.

    Examples:
        >>> is_labelled("topic-x", 1.0, 0), is_labelled("topic-x", 0.0, 0)
        (True, False)
    """
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


def _mean_ci(values: Floats, z: float) -> Estimate:
    n = values.size
    if n == 0:
        return Estimate(None, None, None, 0)
    m = float(values.mean())
    if n < 2:
        return Estimate(m, None, None, n)
    se = float(values.std(ddof=1)) / math.sqrt(n)
    return _estimate(m, se, z, n)


def _estimate(value: float, se: float, z: float, n: int) -> Estimate:
    """The normal interval value ± z·se; none when se is 0 (never a zero-width interval)."""
    if se <= 0:
        return Estimate(value, None, None, n)
    return Estimate(value, value - z * se, value + z * se, n)


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
    return _estimate(theta, se, z, n)


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
        ppi = _estimate(theta, (hi - theta) / z, z, int(y.size + yu.size))
        naive, people = _mean_ci(ra[defined], z), _mean_ci(y, z)
        counts = (int(y.size), int(yu.size))
    elif aggregate == "micro":
        m_theta, m_lo, m_hi = ppi_ratio(
            (hn[lab], hd[lab]), (an[lab], ad[lab]), (an[~lab], ad[~lab]), level=level
        )
        ppi = (
            Estimate(None, None, None, int(an.size))
            if m_theta is None or m_hi is None
            else _estimate(m_theta, (m_hi - m_theta) / z, z, int(an.size))
        )
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
