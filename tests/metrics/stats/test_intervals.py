"""Intervals and resampling, unit by unit: each against a hand computation or a reference library.

Wilson against statsmodels; percentile and BCa recomputed here from the same resampled values
with the textbook formulas (Efron and Tibshirani, 1993, ch. 14), written out with loops.
"""

import dataclasses
import math
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.metrics.stats import MIN_CLUSTERS
from claimlab.metrics.stats.intervals import (
    Interval,
    NoInterval,
    _acceleration,
    _below,
    _not_enough,
    bootstrap_intervals,
    interval_from,
    interval_or_reason,
    wilson,
)
from claimlab.metrics.stats.resampling import (
    MIN_RESAMPLES,
    columns_in_content_order,
    macro_parts,
    quantile_pair,
    ratio_or_nan,
    ratio_parts,
    resampled_sums,
    stack_pairs,
    weight_blocks,
)


def _a(*values):
    return np.array(values, dtype=np.float64)


# ------------------------------------------------------------------ the records


@pytest.mark.parametrize(
    ("interval", "shown"),
    [
        (Interval(0.512, 0.634, 0.95, "BCa", 2000, 300, 12), "[51.2%, 63.4%] (95% BCa; 2000 resamples of 300 answers, 12 undefined)"),
        (Interval(0.1, 0.2, 0.9, "percentile", 500, 40), "[10.0%, 20.0%] (90% percentile; 500 resamples of 40 answers)"),
        (Interval(0.0, 1.0, 0.95, "Wilson", 0, 7), "[0.0%, 100.0%] (95% Wilson; 7 independent items)"),
        (Interval(0.3, 0.4, 0.95, "BCa", 100, 3, 0, 5), "[30.0%, 40.0%] (95% BCa; 100 resamples of 3 answers; 5 resamples without a figure)"),
        (Interval(0.3, 0.4, 0.99, "BCa", 100, 3, 1, 5), "[30.0%, 40.0%] (99% BCa; 100 resamples of 3 answers, 1 undefined; 5 resamples without a figure)"),
    ],
)  # fmt: skip
def test_an_interval_says_what_it_rests_on(interval, shown):
    assert interval.display == shown
    assert interval.to_dict() == dataclasses.asdict(interval)  # every field, by name


def test_no_interval_is_falsy_null_in_json_and_says_why():
    none = NoInterval("only 1 answer")
    assert not none and bool(none) is False
    assert none.display == "N/A: no interval (only 1 answer)"
    assert none.to_dict() is None
    iv = Interval(0.1, 0.2, 0.95, "BCa", 100, 3)
    assert interval_or_reason(iv) == {"ci": iv.to_dict()}
    assert interval_or_reason(none) == {"ci": None, "ci_reason": "only 1 answer"}
    assert interval_or_reason(None) == {"ci": None, "ci_reason": "no denominator"}


# ------------------------------------------------------------------ Wilson


@pytest.mark.parametrize("n", [1, 2, 5, 17, 300])
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_wilson_equals_statsmodels(n, level):
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    for k in sorted({0, 1, n // 2, n - 1, n}):
        if k < 0:
            continue
        w = wilson(k, n, level)
        lo, hi = proportion.proportion_confint(k, n, alpha=1 - level, method="wilson")
        assert (w.low, w.high) == pytest.approx((lo, hi), abs=1e-12), (k, n)
        assert (w.level, w.method, w.resamples, w.clusters) == (level, "Wilson", 0, n)


def test_wilson_by_hand_and_its_edges():
    z = NormalDist().inv_cdf(0.975)
    p, n = 3 / 5, 5
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    w = wilson(3, 5)
    assert (w.low, w.high) == pytest.approx((centre - half, centre + half), abs=1e-15)
    assert wilson(0, 4).low == 0.0 and wilson(4, 4).high == 1.0  # kept inside [0, 1]
    assert wilson(0, 0) is None and wilson(0, -1) is None
    with pytest.raises(ValueError, match="level"):
        wilson(1, 2, 1.0)


# ------------------------------------------------------------------ when there is no interval


@pytest.mark.parametrize(
    ("total_b", "defined", "resamples", "reason"),
    [
        (0.0, 5, 2000, "no denominator: the figure is N/A"),
        (-1.0, 5, 2000, "no denominator: the figure is N/A"),
        (3.0, 1, 2000, f"only 1 answer with a figure: an interval needs {MIN_CLUSTERS} or more"),
        (3.0, 0, 2000, f"only 0 answer with a figure: an interval needs {MIN_CLUSTERS} or more"),
        (3.0, 2, MIN_RESAMPLES - 1, f"{MIN_RESAMPLES - 1} resamples: an interval needs {MIN_RESAMPLES} or more (--bootstrap)"),
        (3.0, 2, MIN_RESAMPLES, None),
        (0.5, MIN_CLUSTERS, 10_000, None),
    ],
)  # fmt: skip
def test_not_enough_to_claim_an_interval(total_b, defined, resamples, reason):
    got = _not_enough(total_b, defined, resamples)
    assert (got.reason if got is not None else None) == reason


def test_the_thresholds_are_two_answers_and_a_hundred_resamples():
    assert (MIN_CLUSTERS, MIN_RESAMPLES) == (2, 100)


# ------------------------------------------------------------------ BCa's parts


@pytest.mark.parametrize(
    ("values", "estimate", "share"),
    [
        ([0.1, 0.2, 0.3, 0.4], 0.25, 2 / 4),
        ([0.1, 0.2, 0.3, 0.4], 0.2, 1.5 / 4),  # at the estimate: half
        ([0.2, 0.2, 0.2, 0.5], 0.2, 1.5 / 4),
        ([0.1, 0.2, 0.3, 0.4], 0.0, 1 / 8),  # none below: kept at 1 / (2 n)
        ([0.1, 0.2, 0.3, 0.4], 1.0, 7 / 8),  # all below: kept at 1 - 1 / (2 n)
        ([0.1 + 0.2, 0.5], 0.3, 0.5 / 2),  # 0.30000000000000004 is at 0.3
        ([-2.0, -1.0, 1.0], -1.0, 1.5 / 3),
    ],
)
def test_the_share_below_the_estimate_counts_ties_as_half(values, estimate, share):
    assert _below(_a(*values), estimate) == pytest.approx(share, abs=1e-15)


def _acceleration_by_hand(a, b):
    """Jackknife of sum(a) / sum(b): leave each answer out (Efron and Tibshirani, eq. 14.15)."""
    jack = []
    for i in range(len(a)):
        den = sum(b) - b[i]
        if den > 0:
            jack.append((sum(a) - a[i]) / den)
    mean = sum(jack) / len(jack)
    num = sum((mean - t) ** 3 for t in jack)
    den = sum((mean - t) ** 2 for t in jack) ** 1.5
    return num / (6 * den) if den > 0 else 0.0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([1, 2, 0, 3], [2, 2, 1, 4]),
        ([1, 0, 0, 0, 5], [1, 1, 1, 1, 6]),
        ([2, 1], [2, 1]),  # every leave-one-out ratio is 1: no spread, acceleration 0
        ([1, 0, 2], [1, 0, 3]),  # an answer without a denominator
        ([3, 0], [3, 0]),  # leaving the only defined answer out leaves no ratio
        ([1, 0, 2], [3, 0, 0]),  # leaving the answer with every denominator out: skipped
    ],
)
def test_the_acceleration_is_the_jackknife_skewness(a, b):
    assert _acceleration(_a(*a), _a(*b)) == pytest.approx(_acceleration_by_hand(a, b), abs=1e-15)


def _bca_by_hand(a, b, stars, level):
    nd = NormalDist()
    est = sum(a) / sum(b)
    below = sum(1.0 for s in stars if s < est) + 0.5 * sum(1.0 for s in stars if s == est)
    z0 = nd.inv_cdf(below / len(stars))
    acc = _acceleration_by_hand(a, b)
    alpha = (1 - level) / 2
    cuts = []
    for za in (nd.inv_cdf(alpha), nd.inv_cdf(1 - alpha)):
        cuts.append(nd.cdf(z0 + (z0 + za) / (1 - acc * (z0 + za))))
    return tuple(float(np.quantile(stars, c)) for c in cuts)


STARS = np.random.default_rng(0).normal(0.6, 0.08, 120)  # distinct values: every cut matters


@pytest.mark.parametrize("level", [0.8, 0.95])
def test_percentile_and_bca_from_the_resampled_values(level):
    a, b = [1.0, 2.0, 0.0, 3.0], [2.0, 2.0, 1.0, 4.0]
    pct = interval_from(_a(*a), _a(*b), STARS, level=level, method="percentile")
    q = np.quantile(STARS, [(1 - level) / 2, 1 - (1 - level) / 2])
    assert (pct.low, pct.high) == (float(q[0]), float(q[1]))
    assert (pct.method, pct.level, pct.resamples, pct.clusters) == ("percentile", level, 120, 4)
    bca = interval_from(_a(*a), _a(*b), STARS, level=level, method="bca")
    assert (bca.low, bca.high) == pytest.approx(_bca_by_hand(a, b, STARS, level), abs=1e-12)
    assert (bca.method, bca.level) == ("BCa", level) and bca.low != pct.low


def test_undefined_answers_and_resamples_are_counted():
    stars = STARS.copy()
    stars[:7] = np.nan
    iv = interval_from(_a(1, 0, 2, 1), _a(2, 0, 3, 0), stars, level=0.9, method="percentile")
    assert (iv.resamples, iv.clusters, iv.undefined_clusters, iv.undefined_resamples) == (
        120, 4, 2, 7,
    )  # fmt: skip
    q = np.quantile(STARS[7:], [0.05, 0.95])
    assert (iv.low, iv.high) == (float(q[0]), float(q[1]))


@pytest.mark.parametrize(
    ("stars", "reason"),
    [
        (np.full(200, 0.5), "every resample gives 50.0%: the answers do not vary"),
        (np.full(200, 0.5) + np.arange(200) * 1e-15, "every resample gives 50.0%"),
        (np.full(200, np.nan), "every resample gives 50.0%"),
    ],
)
def test_resamples_without_spread_give_no_interval(stars, reason):
    got = interval_from(_a(1, 1), _a(2, 2), stars, level=0.95, method="bca")
    assert isinstance(got, NoInterval) and got.reason.startswith(reason)


def test_a_little_spread_is_an_interval_and_an_unknown_method_is_refused():
    stars = np.full(200, 0.5)
    stars[0] = 0.6
    got = interval_from(_a(1, 1), _a(2, 2), stars, level=0.95, method="percentile")
    assert isinstance(got, Interval)
    with pytest.raises(ValueError, match="method must be one of percentile, bca"):
        interval_from(_a(1, 1), _a(2, 2), stars, level=0.95, method="normal")  # type: ignore[arg-type]


def test_interval_from_checks_before_it_resamples():
    assert interval_from(_a(1, 1), _a(0, 0), STARS, level=0.9, method="bca").reason.startswith(
        "no denominator"
    )
    one = interval_from(_a(1, 1), _a(2, 0), STARS, level=0.9, method="bca")
    assert one.reason.startswith("only 1 answer with a figure")
    few = interval_from(_a(1, 1), _a(2, 2), STARS[:99], level=0.9, method="bca")
    assert few.reason.startswith("99 resamples")


# ------------------------------------------------------------------ several figures at once


def test_bootstrap_intervals_equal_interval_from_on_the_same_resamples():
    num, den = _a(1, 2, 0, 3, 5), _a(2, 2, 1, 4, 5)
    r, d = macro_parts(num, den)
    figures = {"micro": (num, den), "macro": (r, d)}
    got = bootstrap_intervals(figures, level=0.9, resamples=300, seed=4, method="bca")
    ordered = [columns_in_content_order(a, b) for a, b in figures.values()]  # each by its values
    sums = resampled_sums(stack_pairs(ordered), 300, 4)
    for k, name in enumerate(figures):
        stars = ratio_or_nan(sums[:, 2 * k], sums[:, 2 * k + 1])
        a, b = ordered[k]
        assert got[name] == interval_from(a, b, stars, level=0.9, method="bca")
    assert list(got) == ["micro", "macro"]


@pytest.mark.parametrize(
    ("figures", "resamples", "reason"),
    [
        ({"f": ([], [])}, 2000, "no answer: the figure is N/A"),
        ({"f": ([1.0], [2.0])}, 2000, "only 1 answer with a figure: an interval needs 2 or more"),
        ({"f": ([1.0, 1.0], [2.0, 0.0])}, 99, "only 1 answer with a figure"),
        ({"f": ([1.0, 1.0], [2.0, 2.0])}, 99, "99 resamples: an interval needs 100 or more"),
        ({"f": ([1.0, 1.0], [0.0, 0.0])}, 99, "no denominator"),
        ({"f": ([1.0], [0.0])}, 2000, "no denominator"),
    ],
)
def test_bootstrap_intervals_say_why_there_is_none(figures, resamples, reason):
    n = len(figures["f"][0])
    got = bootstrap_intervals({**figures, "g": ([1.0] * n, [1.0] * n)}, resamples=resamples)
    assert list(got) == ["f", "g"] and got["f"].reason.startswith(reason)


def test_bootstrap_intervals_refuse_no_resample_and_a_bad_level():
    with pytest.raises(ValueError, match="resamples must be at least 1, got 0"):
        bootstrap_intervals({"f": ([1.0, 2.0], [2.0, 2.0])}, resamples=0)
    assert bootstrap_intervals({"f": ([1.0, 2.0], [2.0, 2.0])}, resamples=1)["f"].reason
    with pytest.raises(ValueError, match="level"):
        bootstrap_intervals({"f": ([1.0, 2.0], [2.0, 2.0])}, level=95)
    assert bootstrap_intervals({}) == {}


# ------------------------------------------------------------------ resampling


def test_weights_draw_each_answer_n_times_in_all_and_blocks_do_not_change_them():
    blocks = list(weight_blocks(7, 50, seed=3))
    w = np.vstack(blocks)
    assert w.shape == (50, 7) and (w.sum(axis=1) == 7).all() and w.min() >= 0
    import claimlab.metrics.stats.resampling as rs

    saved = rs.BLOCK_CELLS
    try:
        rs.BLOCK_CELLS = 7 * 3  # three resamples per block
        small = list(weight_blocks(7, 50, seed=3))
    finally:
        rs.BLOCK_CELLS = saved
    assert [len(b) for b in small] == [3] * 16 + [2]
    assert (np.vstack(small) == w).all()
    assert not (np.vstack(list(weight_blocks(7, 50, seed=4))) == w).all()
    assert list(weight_blocks(7, 0, seed=3)) == []


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 60), st.integers(0, 40), st.integers(0, 2**32 - 1), st.integers(1, 200))
def test_weights_kept_from_a_draw_are_the_weights_drawn_again(n, resamples, seed, block):
    """The counts a seed's draw leaves are kept; the weights given again are the same numbers,
    block for block, as a draw made anew (nothing kept), and the kept stay within budget."""
    import claimlab.metrics.stats.resampling as rs

    saved = rs.BLOCK_CELLS, rs.KEEP_CELLS
    try:
        rs.BLOCK_CELLS, rs.KEEP_CELLS = block, 500
        first = list(weight_blocks(n, resamples, seed))
        again = list(weight_blocks(n, resamples, seed))
        rs._KEPT.clear()
        anew = list(weight_blocks(n, resamples, seed))
        assert sum(k[0] * k[1] for k in rs._KEPT) <= rs.KEEP_CELLS
    finally:
        rs.BLOCK_CELLS, rs.KEEP_CELLS = saved
        rs._KEPT.clear()
    for blocks in (again, anew):
        assert [b.shape for b in blocks] == [b.shape for b in first]
        assert all(
            b.dtype == np.float64 and (b == a).all() for a, b in zip(first, blocks, strict=True)
        )


def test_resampled_sums_are_the_weights_times_the_columns():
    cols = stack_pairs([(_a(1, 2, 3), _a(1, 1, 1)), (_a(0, 1, 0), _a(2, 2, 2))])
    assert cols.tolist() == [[1, 1, 0, 2], [2, 1, 1, 2], [3, 1, 0, 2]]
    w = np.vstack(list(weight_blocks(3, 10, seed=0)))
    assert (resampled_sums(cols, 10, 0) == w @ cols).all()
    assert resampled_sums(cols, 0, 0).shape == (0, 4)
    seen = []
    from claimlab.metrics.stats.resampling import reporting

    with reporting(seen.append):
        resampled_sums(cols, 10, 0)
    assert sum(seen) == 10
    resampled_sums(cols, 10, 0)
    assert sum(seen) == 10  # reported only within the block


@pytest.mark.parametrize(
    ("num", "den", "expected"),
    [
        ([1, 2, 0], [2, 0, 4], [0.5, None, 0.0]),
        ([0], [0], [None]),
        ([3], [-1], [None]),
    ],
)
def test_ratio_or_nan_and_macro_parts(num, den, expected):
    got = ratio_or_nan(_a(*num), _a(*den))
    assert [None if math.isnan(x) else x for x in got] == expected
    r, d = macro_parts(_a(*num), _a(*den))
    assert r.tolist() == [0.0 if e is None else e for e in expected]
    assert d.tolist() == [0.0 if e is None else 1.0 for e in expected]


def test_ratio_parts_and_quantiles():
    assert [x.tolist() for x in ratio_parts([1, 2], [2, 0], "micro")] == [[1, 2], [2, 0]]
    assert [x.tolist() for x in ratio_parts([1, 2], [2, 0], "macro")] == [[0.5, 0], [1, 0]]
    with pytest.raises(ValueError, match="micro or macro, got 'mean'"):
        ratio_parts([1], [1], "mean")  # type: ignore[arg-type]
    assert quantile_pair(_a(0, 1, 2, 3, 4), 0.25, 0.9) == (1.0, 3.6)


@pytest.mark.parametrize("level", [0, 1, 0.0, 1.0, -0.1, 1.1, float("nan"), "0.9", None, True])
def test_check_level_refuses_anything_but_a_number_strictly_between_0_and_1(level):
    from claimlab.metrics.stats.resampling import check_level

    with pytest.raises(ValueError, match=r"the level must be between 0 and 1 \(e\.g\. 0\.95\)"):
        check_level(level)


@pytest.mark.parametrize("level", [0.5, 0.95, 1e-9, 1 - 1e-9])
def test_check_level_gives_the_level_as_a_float(level):
    from claimlab.metrics.stats.resampling import check_level

    got = check_level(level)
    assert got == level and type(got) is float


def test_counts_given_as_whole_numbers_give_float_ratio_parts():
    r, d = macro_parts(np.array([1, 2, 0]), np.array([2, 0, 4]))
    assert r.dtype == np.float64 and d.dtype == np.float64
    assert r.tolist() == [0.5, 0.0, 0.0] and d.tolist() == [1.0, 0.0, 1.0]
    for aggregate in ("micro", "macro"):
        a, b = ratio_parts([1, 3], [2, 4], aggregate)
        assert a.dtype == np.float64 and b.dtype == np.float64
    assert [x.tolist() for x in ratio_parts([1, 3], [2, 4], "macro")] == [[0.5, 0.75], [1, 1]]
    got = ratio_or_nan(np.array([1, 3, 2]), np.array([4, 0, -1]))
    assert got[0] == 0.25 and np.isnan(got[1]) and np.isnan(got[2])


def test_weights_blocks_of_one_resample_and_one_answer():
    import claimlab.metrics.stats.resampling as rs

    saved = rs.BLOCK_CELLS
    try:
        rs.BLOCK_CELLS = 3  # fewer cells than answers: still one resample a block
        blocks = list(weight_blocks(7, 4, seed=2))
    finally:
        rs.BLOCK_CELLS = saved
    assert [b.shape for b in blocks] == [(1, 7)] * 4
    assert (np.vstack(blocks) == np.vstack(list(weight_blocks(7, 4, seed=2)))).all()
    one = np.vstack(list(weight_blocks(1, 5, seed=0)))
    assert one.tolist() == [[1]] * 5  # one answer is drawn once in every resample


# ------------------------------------------------------------------ the cases a mutant hid in


def test_wilson_s_upper_end_is_kept_at_one_where_rounding_would_pass_it():
    assert wilson(399, 399, 0.95).high == 1.0  # 1.0000000000000002 before the cap


@pytest.mark.parametrize(
    ("values", "estimate", "share"),
    [
        ([1000.0 + 1e-10, 1000.0 + 1e-10, 2000.0], 1000.0, 1 / 3),  # within 1e-12 x 1000: ties
        ([0.5 + 1.5e-12, 0.0], 0.5, 1 / 2),  # 1.5e-12 from 0.5 is above it, not a tie
    ],
)
def test_the_tie_tolerance_scales_with_the_estimate(values, estimate, share):
    assert _below(_a(*values), estimate) == pytest.approx(share, abs=1e-15)


@pytest.mark.parametrize(
    ("stars", "spread"),
    [
        (np.array([0.5] + [np.nan] * 199), False),  # one defined resample
        (1000.0 + np.arange(200) * 1e-13, False),  # 2e-11 apart at 1000: rounding, no spread
        (0.5 + np.arange(200) % 2 * 1.5e-12, True),  # 1.5e-12 apart at 0.5: a spread
    ],
)
def test_what_counts_as_no_spread(stars, spread):
    got = interval_from(_a(1, 1), _a(2, 2), stars, level=0.95, method="percentile")
    assert isinstance(got, Interval) is spread
    if not spread:
        shown = f"{100 * 0.5:.1f}%"
        assert got.reason == (
            f"every resample gives {shown}: the answers do not vary, so the bootstrap shows no spread"
        )


def test_bootstrap_intervals_defaults_and_the_smallest_case_that_gets_one():
    figures = {"f": (_a(1, 2, 0, 3, 5, 1, 7, 2), _a(2, 2, 1, 4, 9, 3, 8, 5))}
    default = bootstrap_intervals(figures)["f"]
    assert default.resamples == 2000 and default == bootstrap_intervals(figures, seed=0)["f"]
    assert default != bootstrap_intervals(figures, seed=1)["f"]
    two = bootstrap_intervals({"f": (_a(1, 0), _a(1, 1))}, resamples=100)
    assert isinstance(two["f"], Interval) and (two["f"].clusters, two["f"].resamples) == (2, 100)
    few = bootstrap_intervals({"f": (_a(1, 0), _a(1, 1))}, resamples=99)
    assert few["f"].reason.startswith("99 resamples")


def test_the_same_seed_draws_the_same_weights_release_after_release():
    # pinned: a change in how answers are drawn changes every published interval
    assert np.vstack(list(weight_blocks(5, 3, seed=0))).tolist() == [
        [0, 2, 1, 1, 1], [4, 0, 0, 0, 1], [0, 0, 1, 2, 2],
    ]  # fmt: skip
    first = np.vstack(list(weight_blocks(100, 1, seed=0)))[0, :20].tolist()
    assert first == [3, 1, 2, 1, 2, 0, 0, 2, 3, 0, 0, 0, 1, 1, 0, 0, 0, 2, 0, 0]


@pytest.mark.parametrize(
    ("num", "den", "ratio"), [([1.0], [1.0], 1.0), ([1.0], [0.5], 2.0), ([0.3], [0.25], 1.2)]
)
def test_denominators_of_one_or_less_are_denominators(num, den, ratio):
    assert ratio_or_nan(_a(*num), _a(*den))[0] == pytest.approx(ratio)
    r, d = macro_parts(_a(*num), _a(*den))
    assert r[0] == pytest.approx(ratio) and d[0] == 1.0
