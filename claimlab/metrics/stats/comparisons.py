"""Paired comparisons of two sides on the answers both scored.

The difference with its paired bootstrap interval, a permutation test, Holm's adjustment,
the unpaired interval beside it, and how stable a ranking is.

Metric card of the pairing (:func:`pair_items`, the one rule every comparison, ranking and gate
uses): two sides' per-item counts ``(numerator, denominator)`` of one figure, keyed by item id,
are paired on every item both sides hold whose denominator is above 0 on both sides. An item one
side does not hold is counted as *only A* / *only B*; an item both hold whose figure is N/A
(0/0) on one side (or both) is counted as *undefined*; nothing else is left out. The paired
difference is then A's figure minus B's, each computed over exactly the paired items (micro: the
summed counts; macro: the mean of per-item ratios), so it equals the difference of the two
figures over the items the pairing reports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from claimlab.core.frozen import freeze
from claimlab.metrics.stats import MIN_CLUSTERS
from claimlab.metrics.stats.intervals import no_spread
from claimlab.metrics.stats.resampling import (
    BLOCK_CELLS,
    MIN_RESAMPLES,
    Aggregate,
    Floats,
    check_level,
    columns_in_content_order,
    quantile_pair,
    ratio_or_nan,
    ratio_parts,
    resampled_sums,
    stack_pairs,
)


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
    undefined: int = 0  # items both sides hold, left out: the figure is N/A (0/0) on one side

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
            "undefined": self.undefined,
            "level": self.level,
            "resamples": self.resamples,
            "permutations": self.permutations,
            **({"reason": self.reason} if self.reason else {}),
        }

    @property
    def display(self) -> str:
        """``-4.1 points [-6.0, -2.2] (p 0.001; 300 shared, 0 only A, 12 only B)``.

        Items both sides hold but left out because the figure is N/A (0/0) on one side are
        named after the counts (``, 1 N/A on one side``) when there are any.
        """
        d = self.difference
        counts = f"{self.shared} shared, {self.only_a} only {self.a}, {self.only_b} only {self.b}"
        if self.undefined:
            counts += f", {self.undefined} N/A on one side"
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


@dataclass(frozen=True)
class Pairing:
    """Two sides' counts of one figure on the items where it is defined on both (see the card).

    ``a`` and ``b`` are per-item ``(numerator, denominator)`` arrays in the order of ``ids``;
    ``only_a`` / ``only_b`` count the items one side does not hold, ``undefined`` the items both
    hold whose figure is N/A (0/0) on at least one side.
    """

    ids: tuple[Any, ...]
    a: tuple[Floats, Floats]
    b: tuple[Floats, Floats]
    only_a: int
    only_b: int
    undefined: int

    @property
    def shared(self) -> int:
        """How many items are paired."""
        return len(self.ids)


def pair_items(a: Any, b: Any, numerator: str, denominator: str) -> Pairing:
    """Pair two sides' per-item counts of one figure: the one pairing rule (see the card).

    ``a`` and ``b`` are pandas frames indexed by item id (one row per item; a key of several
    columns is a MultiIndex) holding the ``numerator`` and ``denominator`` columns. Items are
    paired in ``a``'s order.

    Examples:
        >>> import pandas as pd
        >>> a = pd.DataFrame({"n": [1, 2, 0], "d": [2, 2, 2]}, index=["x", "y", "z"])
        >>> b = pd.DataFrame({"n": [1, 0, 0], "d": [2, 0, 2]}, index=["x", "y", "w"])
        >>> p = pair_items(a, b, "n", "d")
        >>> p.ids, p.only_a, p.only_b, p.undefined
        (('x',), 1, 1, 1)
    """
    both = a.index.intersection(b.index, sort=False)
    da = a.loc[both, denominator].to_numpy(np.float64)
    db = b.loc[both, denominator].to_numpy(np.float64)
    defined = (da > 0) & (db > 0)
    keep = both[defined]
    return Pairing(
        ids=tuple(keep),
        a=(a.loc[keep, numerator].to_numpy(np.float64), da[defined]),
        b=(b.loc[keep, numerator].to_numpy(np.float64), db[defined]),
        only_a=int(len(a.index) - len(both)),
        only_b=int(len(b.index) - len(both)),
        undefined=int((~defined).sum()),
    )


def paired_comparison(
    a: tuple[Any, Any],
    b: tuple[Any, Any],
    *,
    names: tuple[str, str] = ("A", "B"),
    metric: str = "",
    aggregate: Aggregate = "micro",
    only: tuple[int, int] = (0, 0),
    undefined: int = 0,
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
        {(metric, aggregate): (ratio_parts(*a, aggregate), ratio_parts(*b, aggregate))},
        names=names,
        only=only,
        undefined=undefined,
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
    undefined: int = 0,
    level: float = 0.95,
    resamples: int = 2000,
    permutations: int = 2000,
    seed: int = 0,
) -> list[Comparison]:
    """Several figures of A against B on the same shared answers, with one resampling.

    ``figures`` maps ``(metric, aggregate)`` to A's and B's ``(a, b)`` ratio parts (see
    :func:`ratio_parts`). The same answers are drawn for every figure and both sides, and the
    same swaps serve every figure's permutation test: one matrix product each, however many
    figures. ``only`` and ``undefined`` are the counts of the pairing (:class:`Pairing`) the
    parts come from. Fewer than 2 shared answers or 100 resamples give the difference alone, with the
    reason; fewer than 100 permutations give no p-value.
    """
    level = check_level(level)
    keys = list(figures)
    cols: list[Floats] = []
    for (an, ad), (bn, bd) in figures.values():
        if an.size != bn.size:
            raise ValueError("A and B must give counts for the same answers, in the same order")
        cols += pair_in_content_order(an, ad, bn, bd)  # by values, not ids, rows or names
    n = cols[0].size if cols else 0
    common: dict[str, Any] = dict(
        a=names[0],
        b=names[1],
        shared=n,
        only_a=only[0],
        only_b=only[1],
        undefined=undefined,
        level=level,
        resamples=resamples,
        permutations=permutations,
    )
    if n < MIN_CLUSTERS or resamples < MIN_RESAMPLES:
        return _too_few(keys, cols, n, common)
    matrix = np.column_stack(cols)
    totals = matrix.sum(axis=0)
    observed = _observed(totals, len(keys))
    sums = resampled_sums(matrix, resamples, seed)
    p_values, reason = _p_values(cols, totals, observed, permutations, seed + 1)
    alpha = (1 - level) / 2
    out = []
    for k, (metric, aggregate) in enumerate(keys):
        diff, flat = _difference(sums, k, float(observed[k]), alpha)
        why = "; ".join(r for r in (flat, reason) if r)
        out.append(
            Comparison(
                metric=metric, aggregate=aggregate, difference=diff,
                p_value=None if diff.value is None else p_values[k], reason=why, **common,
            )
        )  # fmt: skip
    return out


def side_first(a: tuple[Any, Any], b: tuple[Any, Any]) -> bool:
    """Whether side ``a`` orders a pair's answers (by values, not by name).

    A side whose per-answer parts, sorted, come first orders the answers (then the other's
    break ties): a comparison of A and B and one of B and A draw the same answers in the same
    order, so the one is the other mirrored (the same p-value, the bounds negated), whatever
    the sides are called.
    """
    ra, rb = _sorted_rows(a), _sorted_rows(b)
    if ra.shape != rb.shape:  # an unpaired comparison: sides of their own answers
        return bool(ra.tolist() <= rb.tolist())
    differ = np.flatnonzero((ra != rb).any(axis=1))
    if not differ.size:
        return True
    here: list[float] = ra[differ[0]].tolist()
    there: list[float] = rb[differ[0]].tolist()
    return here <= there


def _sorted_rows(side: tuple[Any, Any]) -> Floats:
    """A side's (numerator, denominator) rows sorted, numerator first.

    What the side holds, whatever its name or the order of its answers.
    """
    rows = np.column_stack([np.asarray(side[0], np.float64), np.asarray(side[1], np.float64)])
    return rows[np.lexsort((rows[:, 1], rows[:, 0]))] if len(rows) else rows


def pair_in_content_order(an: Floats, ad: Floats, bn: Floats, bd: Floats) -> tuple[Floats, ...]:
    """A pair's four columns (A's parts, B's), their answers in the order side_first says.

    Where both sides hold the same values (on other answers), A's order them: the comparison
    does not depend on the answers' ids or order, but B - A is then not exactly A - B mirrored
    (no order of such answers can be both).
    """
    if side_first((an, ad), (bn, bd)):
        return columns_in_content_order(an, ad, bn, bd)
    b_n, b_d, a_n, a_d = columns_in_content_order(bn, bd, an, ad)
    return a_n, a_d, b_n, b_d


def _p_values(
    cols: list[Floats], totals: Floats, observed: Floats, permutations: int, seed: int
) -> tuple[list[float | None], str]:
    """Each figure's permutation p-value (the same swaps for all), or None with the reason."""
    if permutations < MIN_RESAMPLES:
        return [None] * len(observed), f"a p-value needs {MIN_RESAMPLES} or more permutations"
    extreme = _permutation_extremes(cols, totals, observed, permutations, seed)
    return [(1 + int(e)) / (1 + permutations) for e in extreme], ""


def _difference(sums: Floats, k: int, observed: float, alpha: float) -> tuple[Difference, str]:
    """Figure k's observed difference A - B with its percentile interval over the resamples.

    When the resamples show no spread (every one gives the same difference, or none is
    defined) there is no interval, and the reason says why (:func:`no_interval`).
    """
    if np.isnan(observed):
        return Difference(None, None, None), ""
    diffs = ratio_or_nan(sums[:, 4 * k], sums[:, 4 * k + 1]) - ratio_or_nan(
        sums[:, 4 * k + 2], sums[:, 4 * k + 3]
    )
    ok = diffs[~np.isnan(diffs)]
    flat = no_interval(ok, observed)
    if flat:
        return Difference(observed, None, None), flat
    low, high = quantile_pair(ok, alpha, 1 - alpha)
    return Difference(observed, low, high), ""


def no_interval(resampled: Floats, observed: float) -> str:
    """Why resampled differences give no interval (the shared :func:`no_spread` rule), or "".

    Examples:
        >>> no_interval(np.array([0.5, 0.5, 0.5]), 0.5)[:33]
        'every resample gives +50.0 points'
        >>> no_interval(np.array([0.5, 0.25]), 0.5)
        ''
    """
    flat = no_spread(resampled, f"{100 * observed:+.1f} points", what="shared answers")
    return flat.reason if flat is not None else ""


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
            diff = ratio_or_nan(sa_n + mn, sa_d + md) - ratio_or_nan(sb_n - mn, sb_d - md)
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
    an, ad = columns_in_content_order(*ratio_parts(*a, aggregate))
    bn, bd = columns_in_content_order(*ratio_parts(*b, aggregate))
    if ad.sum() <= 0 or bd.sum() <= 0:
        return Difference(None, None, None)
    # the side first by values draws with the seed, the other with the next: B - A mirrors A - B
    first, second = (seed, seed + 7919) if side_first((an, ad), (bn, bd)) else (seed + 7919, seed)
    sa = resampled_sums(np.column_stack([an, ad]), resamples, first)
    sb = resampled_sums(np.column_stack([bn, bd]), resamples, second)
    diffs = ratio_or_nan(sa[:, 0], sa[:, 1]) - ratio_or_nan(sb[:, 0], sb[:, 1])
    ok = diffs[~np.isnan(diffs)]
    value = float(an.sum() / ad.sum() - bn.sum() / bd.sum())
    if no_interval(ok, value):
        return Difference(value, None, None)
    alpha = (1 - level) / 2
    lo, hi = quantile_pair(ok, alpha, 1 - alpha)
    return Difference(value, lo, hi)


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


@dataclass(frozen=True)
class RankedPair:
    """Two neighbours of an order: how often the first stays above (or tied with) the second."""

    above: str
    below: str
    tied: bool  # tied in the data: holding means staying tied or in this order
    holds: float  # the share of resamples in which it holds

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"above": self.above, "below": self.below, "tied": self.tied, "holds": self.holds}


@dataclass(frozen=True)
class Ranking:
    """An order of systems by a figure and how stable it is when the answers are resampled.

    ``same_order`` is None (with no resamples) where fewer than two systems have a figure or
    too few answers are shared. ``about`` says what is ranked (a figure and its prompts, or a
    metric, its aggregate and the answers), in the order JSON shows it.
    """

    order: tuple[str, ...]
    same_order: float | None
    pairs: tuple[RankedPair, ...]
    resamples: int
    values: Mapping[str, float] | None = None
    about: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze(self, *(["values"] if self.values is not None else []), "about")

    @property
    def held(self) -> str:
        """In how many resamples the order held, with its share: ``66.5% (133/200)``."""
        if self.same_order is None:
            return f"N/A (0/{self.resamples})"
        from claimlab.core.ratio import Ratio

        return Ratio(round(self.same_order * self.resamples), self.resamples).display

    def with_about(self, **about: Any) -> Ranking:
        """The same ranking, saying more about what it ranks."""
        return replace(self, about={**self.about, **about})

    def to_dict(self) -> dict[str, Any]:
        """JSON form: order, values, same_order, pairs, resamples, then what it ranks."""
        out: dict[str, Any] = {"order": list(self.order)}
        if self.values is not None:
            out["values"] = dict(self.values)
        out.update(
            same_order=self.same_order,
            pairs=[p.to_dict() for p in self.pairs],
            resamples=self.resamples,
        )
        out.update(self.about)
        return out


def ranking_stability(
    figures: dict[str, tuple[Any, Any]],
    *,
    resamples: int = 2000,
    seed: int = 0,
) -> Ranking:
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
) -> dict[str, Ranking]:
    """:func:`ranking_stability` of several figures over the same answers, in one resampling."""
    cols: list[tuple[Floats, Floats]] = []
    ordered: dict[str, list[str]] = {}
    for name, figures in by_figure.items():  # groups by their values, then their answers
        groups = sorted(figures, key=lambda g: (_sorted_rows(figures[g]).tolist(), g))
        flat = columns_in_content_order(
            *(np.asarray(x, np.float64) for g in groups for x in figures[g])
        )
        cols += [(flat[2 * k], flat[2 * k + 1]) for k in range(len(groups))]
        ordered[name] = groups
    n = cols[0][0].size if cols else 0
    sums = resampled_sums(stack_pairs(cols), resamples, seed) if n and resamples else None
    out, at = {}, 0
    for name, groups in ordered.items():
        pairs = cols[at : at + len(groups)]
        part = None if sums is None else sums[:, 2 * at : 2 * (at + len(groups))]
        out[name] = _ranking(groups, pairs, part, resamples)
        at += len(groups)
    return out


def _ranking(
    names: list[str], pairs: list[tuple[Floats, Floats]], sums: Floats | None, resamples: int
) -> Ranking:
    values = {
        n: (a.sum() / b.sum() if b.sum() > 0 else np.nan)
        for n, (a, b) in zip(names, pairs, strict=True)
    }
    order = sorted((n for n in names if not np.isnan(values[n])), key=lambda n: -values[n])
    if len(order) < 2 or sums is None or pairs[0][0].size < MIN_CLUSTERS:
        return Ranking(tuple(order), None, (), 0)
    stars = np.column_stack(
        [ratio_or_nan(sums[:, 2 * k], sums[:, 2 * k + 1]) for k in range(len(names))]
    )
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
        pair_rows.append(RankedPair(first, second, bool(tied[k]), float(above.mean())))
    return Ranking(
        tuple(order),
        float(same.mean()),
        tuple(pair_rows),
        resamples,
        values={n: float(values[n]) for n in order},
    )
