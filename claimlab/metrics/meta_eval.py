"""How far an automatic checker can be trusted: its agreement with people's pairwise preferences.

Metric card (RAGChecker's meta-evaluation, Ru et al., 2024, section 4.3; the computation is
restated here, not copied). For each response pair and each label (correctness, completeness,
overall), the checker's *score difference* is its score of the second response minus its score
of the first; a pair without a score takes the median difference (counted in ``filled``). The
differences are set on people's -2..2 scale by a linear map (which changes no correlation),
each is lined up with both people's judgments of its pair, and the Pearson and Spearman
correlations of the lined-up values are reported in percent, as the paper prints them. People
against people: the first person's judgments against the second's, over the pairs.

Beyond the paper: each correlation gets a percentile interval from resampling *response pairs*
(a pair's two judgments stay together: they are not independent); the two people's agreement as
a quadratic-weighted Cohen's kappa (the labels are ordered); and whether the checker is
significantly below the people's own agreement: the interval of (people vs people) minus
(checker vs people), computed on the same resamples, lies above 0. An input too small for an
interval (fewer than 3 pairs or 100 resamples, or resamples that do not vary) gets none, with
the reason, and the comparison with the people is undecided (None), never a one-point
interval. Resamples are drawn in blocks, so memory grows with the block, not with pairs x
resamples.

Spearman's correlation ranks the differences, so differences that are equal in exact
arithmetic but not in floating point (0.75 - 0.5 and 0.5 - 0.25) break ties, and which ones
break depends on the scale the scores are on. RAGChecker reports its metrics in percent, and the
paper's figures are those of differences of percentages: ``scale`` (default 100) sets the scores
on that scale before subtracting; with ``scale=1`` the released fractions give 46.95 and 58.11
for the correctness and completeness Spearman figures where the paper prints 46.94 and 58.09.
``tie_decimals`` rounds the differences to merge the near-ties instead (exact-arithmetic ranks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from claimlab.core.frozen import freeze
from claimlab.io.ragchecker import META_LABELS, JudgedPair
from claimlab.metrics.stats.intervals import NoInterval, no_spread, too_small
from claimlab.metrics.stats.resampling import pick_blocks

Floats = NDArray[np.float64]

MIN_PAIRS = 3  # a resample of one distinct pair has no correlation: 2 pairs vary in no resample
PAIR_CELLS = 1_000_000  # resamples x pairs correlated at once: about 150 MB of working arrays


@dataclass(frozen=True)
class Correlation:
    """A correlation in percent with its interval, or the reason it has none."""

    value: float | None
    low: float | None = None
    high: float | None = None
    reason: str | None = None  # why there is no interval (None when there is one)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: value, low, high (percent), and ``ci_reason`` when there is no interval."""
        out: dict[str, Any] = {"value": self.value, "low": self.low, "high": self.high}
        if self.reason is not None:
            out["ci_reason"] = self.reason
        return out

    @property
    def display(self) -> str:
        """``"49.66 [43.10, 55.90]"``, ``"49.66 (no interval)"`` or ``"N/A"``."""
        if self.value is None:
            return "N/A"
        if self.low is None or self.high is None:
            return f"{self.value:.2f} (no interval)"
        return f"{self.value:.2f} [{self.low:.2f}, {self.high:.2f}]"


@dataclass(frozen=True)
class LabelAgreement:
    """One label: checker vs people, people vs people, their kappa and the gap."""

    label: str
    pearson: Correlation
    spearman: Correlation
    human_pearson: Correlation
    human_spearman: Correlation
    human_kappa: float | None
    gap_pearson: Correlation  # people-vs-people minus checker-vs-people
    gap_spearman: Correlation
    filled: int

    @property
    def below_people(self) -> dict[str, bool | None]:
        """Per correlation: whether the checker is significantly below the people's agreement.

        None (undecided) when the gap has no interval: too small an input claims nothing.
        """
        return {
            name: None if gap.low is None else gap.low > 0
            for name, gap in (("pearson", self.gap_pearson), ("spearman", self.gap_spearman))
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON form (SPEC section 7), with the additions named."""
        return {
            "pearson": self.pearson.to_dict(),
            "spearman": self.spearman.to_dict(),
            "human_human": {
                "pearson": self.human_pearson.to_dict(),
                "spearman": self.human_spearman.to_dict(),
                "quadratic_kappa": self.human_kappa,
            },
            "gap": {"pearson": self.gap_pearson.to_dict(), "spearman": self.gap_spearman.to_dict()},
            "significantly_below_people": self.below_people,
            "filled_with_median": self.filled,
        }


@dataclass(frozen=True)
class MetaEvaluation:
    """Every label's agreement figures, and how they were computed."""

    instances: int
    judgments: int
    labels: Mapping[str, LabelAgreement]
    level: float
    resamples: int
    seed: int
    scale: float = 100.0

    def __post_init__(self) -> None:
        freeze(self, "labels")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``claimlab meta-eval --json``."""
        return {
            "instances": self.instances,
            "judgments": self.judgments,
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
            "scale": self.scale,
            "labels": {k: v.to_dict() for k, v in self.labels.items()},
        }


def pearson_rows(x: Floats, y: Floats) -> Floats:
    """Pearson's r of each row of ``x`` with the same row of ``y`` (NaN where one is constant)."""
    if x.shape[-1] == 0:  # rows of no value: no correlation
        return np.full(x.shape[:-1], np.nan)
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    den = np.sqrt((xc * xc).sum(axis=-1) * (yc * yc).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        out: Floats = np.where(den > 0, (xc * yc).sum(axis=-1) / np.where(den > 0, den, 1), np.nan)
    return out


def spearman_rows(x: Floats, y: Floats) -> Floats:
    """Spearman's rho row by row: Pearson's r of the average ranks (ties share their rank)."""
    return pearson_rows(average_ranks(x), average_ranks(y))


def average_ranks(values: Floats) -> Floats:
    """Each value's average rank (1-based, ties sharing the mean of their ranks) within its row."""
    rows = np.atleast_2d(values)
    distinct, codes = np.unique(rows, return_inverse=True)
    return ranks_of_codes(codes.reshape(rows.shape), len(distinct)).reshape(np.shape(values))


def ranks_of_codes(codes: NDArray[np.int64], k: int) -> Floats:
    """Average ranks row by row from codes 0..k-1 that sort as the values do.

    A row's ranks come from a count per code: a thousand resamples of 200,000 coded values cost
    counting, not sorting (the values are coded once, before resampling).
    """
    rows = np.atleast_2d(codes)
    n_rows = rows.shape[0]
    offsets = (np.arange(n_rows) * k)[:, None]
    counts = np.bincount((rows + offsets).ravel(), minlength=n_rows * k).reshape(n_rows, k)
    mean_rank = np.cumsum(counts, axis=1) - (counts - 1) / 2
    ranks: Floats = np.take_along_axis(mean_rank, rows, axis=1)
    return ranks


def quadratic_kappa(a: Sequence[int], b: Sequence[int]) -> float | None:
    """Cohen's kappa with quadratic weights over the ordered labels both annotators used.

    None when the expected disagreement is 0 (both gave one and the same label throughout).
    """
    cats = sorted(set(a) | set(b))
    k, n = len(cats), len(a)
    index = {c: i for i, c in enumerate(cats)}
    observed = np.zeros((k, k))
    for x, y in zip(a, b, strict=True):
        observed[index[x], index[y]] += 1
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / n
    i, j = np.indices((k, k))
    weights = (i - j) ** 2
    den = float((weights * expected).sum())
    return None if den == 0 else 1 - float((weights * observed).sum()) / den


def score_differences(
    pairs: Sequence[JudgedPair],
    label: str,
    *,
    tie_decimals: int | None = None,
    scale: float = 100.0,
) -> tuple[Floats, int]:
    """The checker's second-minus-first differences, missing ones filled with the median.

    Each score is multiplied by ``scale`` before subtracting, and ``tie_decimals`` rounds the
    raw differences (see the module on ties).
    """
    raw = [
        np.nan if one is None or two is None else two * scale - one * scale
        for one, two in (p.checker[label] for p in pairs)
    ]
    delta = np.array(raw, dtype=np.float64)
    if tie_decimals is not None:
        delta = np.round(delta, tie_decimals)
    missing = np.isnan(delta)
    if missing.all():
        return delta, int(missing.sum())
    delta[missing] = np.median(delta[~missing])
    lo, hi = delta.min(), delta.max()
    if hi > lo:  # people's -2..2 scale (a linear map: no correlation changes)
        delta = ((delta - lo) / (hi - lo) - 0.5) * 4
    return delta, int(missing.sum())


def _interval(value: float, draws: Floats, level: float, short: NoInterval | None) -> Correlation:
    """A correlation's percentile interval from its resamples (NaN: no correlation), or why not."""
    if np.isnan(value):
        return Correlation(None, reason="no correlation: one side does not vary (or no pair)")
    shown = round(float(value), 4)
    if short is not None:
        return Correlation(shown, reason=short.reason)
    defined = draws[~np.isnan(draws)]
    flat = no_spread(defined, f"{value:.2f}", what="response pairs")
    if flat is not None:
        return Correlation(shown, reason=flat.reason)
    lo, hi = np.quantile(defined, [(1 - level) / 2, (1 + level) / 2])
    return Correlation(shown, round(float(lo), 4), round(float(hi), 4))


@dataclass(frozen=True)
class _Coded:
    """One label's values, with the codes its ranks are counted from (coded once, not per block)."""

    delta: Floats  # the checker's differences, one per pair
    people: Floats  # (pairs, 2): both people's judgments
    delta_codes: NDArray[np.int64]
    delta_kinds: int
    people_codes: NDArray[np.int64]  # (pairs, 2)
    people_kinds: int
    filled: int


def _coded(pairs: Sequence[JudgedPair], label: str, ties: int | None, scale: float) -> _Coded:
    delta, filled = score_differences(pairs, label, tie_decimals=ties, scale=scale)
    people = np.array([p.people[label] for p in pairs], dtype=np.float64).reshape(len(pairs), 2)
    dx, cx = np.unique(delta, return_inverse=True)
    dp, cp = np.unique(people, return_inverse=True)
    return _Coded(delta, people, cx.reshape(-1), len(dx), cp.reshape(people.shape), len(dp), filled)


def resampled_correlations(c: _Coded, picks: NDArray[np.int64]) -> Floats:
    """Per resample (a row of ``picks``): the four correlations, in percent (NaN: undefined).

    Columns: checker Pearson, checker Spearman, people Pearson, people Spearman. A pair's two
    judgments stay together.
    """
    b, n = picks.shape
    xs = np.repeat(c.delta[picks], 2, axis=1)
    ys = c.people[picks].reshape(b, 2 * n)
    rx = ranks_of_codes(np.repeat(c.delta_codes[picks], 2, axis=1), c.delta_kinds)
    ry = ranks_of_codes(c.people_codes[picks].reshape(b, 2 * n), c.people_kinds)
    first, second = c.people_codes[picks, 0], c.people_codes[picks, 1]
    h_s = pearson_rows(
        ranks_of_codes(first, c.people_kinds), ranks_of_codes(second, c.people_kinds)
    )
    h_p = pearson_rows(c.people[picks, 0], c.people[picks, 1])
    return 100.0 * np.column_stack([pearson_rows(xs, ys), pearson_rows(rx, ry), h_p, h_s])


def _label(
    label: str, c: _Coded, draws: Floats, level: float, short: NoInterval | None
) -> LabelAgreement:
    """One label's figures from its coded values and its resampled correlations."""
    x, y, people = np.repeat(c.delta, 2), c.people.reshape(-1), c.people
    pct = 100.0
    p, s = pct * float(pearson_rows(x, y)), pct * float(spearman_rows(x, y))
    hp = pct * float(pearson_rows(people[:, 0], people[:, 1]))
    hs = pct * float(spearman_rows(people[:, 0], people[:, 1]))
    checker_p, checker_s, human_p, human_s = draws.T
    return LabelAgreement(
        label,
        _interval(p, checker_p, level, short),
        _interval(s, checker_s, level, short),
        _interval(hp, human_p, level, short),
        _interval(hs, human_s, level, short),
        quadratic_kappa([int(v) for v in people[:, 0]], [int(v) for v in people[:, 1]]),
        _interval(hp - p, human_p - checker_p, level, short),
        _interval(hs - s, human_s - checker_s, level, short),
        c.filled,
    )


def score_meta_evaluation(
    pairs: Sequence[JudgedPair],
    *,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    tie_decimals: int | None = None,
    scale: float = 100.0,
    labels: Sequence[str] = META_LABELS,
    block_cells: int = PAIR_CELLS,
) -> MetaEvaluation:
    """Checker against people and people against people, per label, with intervals.

    ``scale`` and ``tie_decimals``: see the module on ties. Intervals need at least
    ``MIN_PAIRS`` pairs and 100 resamples; with fewer, each figure says why it has none and the
    comparison with the people is undecided. Resamples are drawn and correlated in blocks of
    at most ``block_cells`` pairs (memory bounded by the block, the same figures whatever its
    size).

    Examples:
        >>> from claimlab.io.ragchecker import JudgedPair
        >>> two = [JudgedPair(str(i), "d", "q", {"overall_label": j}, {"overall_label": s})
        ...        for i, j, s in [(0, (1, 2), (0.1, 0.9)), (1, (-1, -1), (0.8, 0.2))]]
        >>> a = score_meta_evaluation(two, labels=["overall_label"]).labels["overall_label"]
        >>> a.pearson.display, a.pearson.reason, a.below_people["pearson"]
        ('96.22 (no interval)', 'only 2 response pairs: an interval needs 3 or more', None)
    """
    n = len(pairs)
    short = too_small(n, resamples, what="response pairs", needs=MIN_PAIRS)
    size = resamples if short is None else 0
    coded = {label: _coded(pairs, label, tie_decimals, scale) for label in labels}
    parts: dict[str, list[Floats]] = {label: [np.zeros((0, 4))] for label in labels}
    for picks in pick_blocks(n, size, seed, cells=block_cells):
        for label in labels:
            parts[label].append(resampled_correlations(coded[label], picks))
    return MetaEvaluation(
        instances=n,
        judgments=2 * n,
        labels={
            label: _label(label, coded[label], np.vstack(parts[label]), level, short)
            for label in labels
        },
        level=level,
        resamples=size,
        seed=seed,
        scale=scale,
    )
