"""Prediction-powered inference, unit by unit: each estimate against a hand computation.

The oracle here is the textbook formula written out with the standard library's ``statistics``
(``variance`` divides by n - 1, ``pvariance`` by n), never the module's own helpers.
"""

import dataclasses
import math
import statistics as st
from statistics import NormalDist

import numpy as np
import pytest

from claimlab.metrics.stats.prediction_powered import (
    Estimate,
    PredictionPowered,
    _mean_ci,
    _ratio_ci,
    ppi_mean,
    ppi_ratio,
    prediction_powered,
)


def _z(level):
    return NormalDist().inv_cdf(0.5 + level / 2)


def _a(*values):
    return np.array(values, dtype=np.float64)


# ------------------------------------------------------------------ the records


@pytest.mark.parametrize(
    ("estimate", "shown"),
    [
        (Estimate(0.612, 0.58, 0.643, 300), "61.2% [58.0%, 64.3%] (n = 300)"),
        (Estimate(1.0, 0.95, 1.0, 2), "100.0% [95.0%, 100.0%] (n = 2)"),
        (Estimate(None, None, None, 0), "N/A (n = 0)"),
        (Estimate(0.5, None, None, 1), "50.0% (no interval; n = 1)"),  # the value is known
        (Estimate(0.5, 0.4, None, 3), "50.0% (no interval; n = 3)"),
        (Estimate(0.5, None, 0.6, 3), "50.0% (no interval; n = 3)"),
    ],
)
def test_an_estimate_is_shown_with_its_interval_and_n_or_as_na(estimate, shown):
    assert estimate.display == shown
    assert estimate.to_dict() == dataclasses.asdict(estimate)  # every field, by name


def test_the_json_of_a_prediction_powered_figure():
    e = [Estimate(0.5, 0.4, 0.6, k) for k in (10, 11, 12)]
    p = PredictionPowered("coverage", 0.9, e[0], e[1], e[2], 3, 7, "micro")
    assert p.to_dict() == {
        "figure": "coverage",
        "aggregate": "micro",
        "level": 0.9,
        "ppi": e[0].to_dict(),
        "naive_autorater": e[1].to_dict(),
        "human_only": e[2].to_dict(),
        "labelled": 3,
        "unlabelled": 7,
    }
    assert PredictionPowered("f", 0.9, *e, 1, 2).aggregate == "macro"


# ------------------------------------------------------------------ a mean and a ratio alone


@pytest.mark.parametrize(
    ("values", "z", "expected"),
    [
        ([], 1.0, (None, None, None, 0)),
        ([0.25], 1.0, (0.25, None, None, 1)),
        ([0.0, 1.0], 1.0, (0.5, 0.0, 1.0, 2)),  # sd (n - 1) 0.7071, se 0.5
        ([1.0, 2.0, 3.0, 4.0], 2.0, (2.5, 2.5 - 2 * 0.6454972, 2.5 + 2 * 0.6454972, 4)),
        ([0.3, 0.3, 0.3], 1.96, (0.3, None, None, 3)),  # no spread: never a zero-width interval
    ],
)
def test_a_mean_with_its_normal_interval(values, z, expected):
    got = _mean_ci(_a(*values), z)
    assert got.n == expected[3]
    for g, e in zip((got.value, got.low, got.high), expected[:3], strict=True):
        assert g == pytest.approx(e, abs=1e-6) if e is not None else g is None


@pytest.mark.parametrize(
    ("num", "den", "z", "expected"),
    [
        ([], [], 1.0, (None, None, None, 0)),
        ([0.0, 0.0], [0.0, 0.0], 1.0, (None, None, None, 2)),  # 0/0: N/A, not 0%
        ([1.0, 1.0], [-1.0, 0.0], 1.0, (None, None, None, 2)),
        ([3.0], [4.0], 1.0, (0.75, None, None, 1)),
        # theta 6/8; g = (num - theta den) / mean(den) = (-0.1875, 0.1875, 0): sd 0.1875
        ([1.0, 2.0, 3.0], [2.0, 2.0, 4.0], 1.0, (0.75, 0.75 - 0.1875 / 3**0.5, 0.75 + 0.1875 / 3**0.5, 3)),
        ([1.0, 2.0, 3.0], [2.0, 2.0, 4.0], 2.0, (0.75, 0.75 - 0.375 / 3**0.5, 0.75 + 0.375 / 3**0.5, 3)),
    ],
)  # fmt: skip
def test_a_ratio_of_sums_with_the_delta_method_interval(num, den, z, expected):
    got = _ratio_ci(_a(*num), _a(*den), z)
    assert got.n == expected[3]
    for g, e in zip((got.value, got.low, got.high), expected[:3], strict=True):
        assert g == pytest.approx(e, abs=1e-9) if e is not None else g is None


# ------------------------------------------------------------------ the prediction-powered mean


def _ppi_mean_by_hand(y, yhat, yu, level, ddof):
    var = st.variance if ddof == 1 else st.pvariance
    rect = [a - b for a, b in zip(yhat, y, strict=True)]
    theta = st.fmean(yu) - st.fmean(rect)
    se = math.sqrt(var(yu) / len(yu) + var(rect) / len(y))
    return theta, theta - _z(level) * se, theta + _z(level) * se


CASES = [
    ([1.0, 0.0, 1.0], [1.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0]),
    ([0.2, 0.4], [0.3, 0.9], [0.5, 0.7]),
    ([0.0, 0.5, 1.0, 0.25], [0.0, 0.5, 1.0, 0.25], [0.1, 0.2, 0.9]),  # a perfect autorater
    ([1.0, 1.0], [0.0, 0.0], [0.0, 0.0, 0.0]),  # a pessimist: corrected all the way up
]


@pytest.mark.parametrize(("y", "yhat", "yu"), CASES)
@pytest.mark.parametrize("level", [0.5, 0.9, 0.95])
@pytest.mark.parametrize("ddof", [0, 1])
def test_the_prediction_powered_mean_equals_the_formula(y, yhat, yu, level, ddof):
    got = ppi_mean(_a(*y), _a(*yhat), _a(*yu), level=level, ddof=ddof)
    assert got == pytest.approx(_ppi_mean_by_hand(y, yhat, yu, level, ddof), abs=1e-12)


def test_ddof_1_is_wider_than_ddof_0_by_the_textbook_factor():
    y, yhat, yu = _a(0.0, 1.0), _a(1.0, 1.0), _a(0.0, 1.0)
    t0, lo0, hi0 = ppi_mean(y, yhat, yu, ddof=0)
    t1, lo1, hi1 = ppi_mean(y, yhat, yu, ddof=1)
    assert t0 == t1 == 0.0  # mean(yu) 0.5 minus mean error 0.5
    assert (hi1 - lo1) / (hi0 - lo0) == pytest.approx(math.sqrt(2))


@pytest.mark.parametrize(("n", "big_n"), [(1, 5), (5, 1), (0, 5), (1, 1)])
def test_fewer_than_two_answers_on_a_side_is_refused(n, big_n):
    with pytest.raises(ValueError, match="two or more answers on each side"):
        ppi_mean(np.ones(n), np.ones(n), np.ones(big_n))
    with pytest.raises(ValueError, match="two or more answers on each side"):
        ppi_ratio((np.ones(n), np.ones(n)), (np.ones(n), np.ones(n)), (np.ones(big_n),) * 2)


def test_two_answers_on_each_side_are_enough():
    theta, lo, hi = ppi_mean(_a(0.0, 1.0), _a(0.0, 1.0), _a(0.0, 1.0))
    assert (theta, lo < theta < hi) == (0.5, True)


@pytest.mark.parametrize("level", [0, 1, -0.5, 1.5, float("nan"), "0.9"])
def test_a_level_outside_zero_and_one_is_refused(level):
    with pytest.raises(ValueError, match="level"):
        ppi_mean(_a(0.0, 1.0), _a(0.0, 1.0), _a(0.0, 1.0), level=level)


# ------------------------------------------------------------------ the prediction-powered ratio


def _ppi_ratio_by_hand(human, auto, unlabelled, level):
    (yn, yd), (hn, hd), (un, ud) = human, auto, unlabelled
    mu_n = st.fmean(un) - st.fmean([a - b for a, b in zip(hn, yn, strict=True)])
    mu_d = st.fmean(ud) - st.fmean([a - b for a, b in zip(hd, yd, strict=True)])
    theta = mu_n / mu_d
    g_u = [(a - theta * b) / mu_d for a, b in zip(un, ud, strict=True)]
    g = [
        ((a - theta * b) - (c - theta * d)) / mu_d
        for a, b, c, d in zip(hn, hd, yn, yd, strict=True)
    ]
    se = math.sqrt(st.variance(g_u) / len(un) + st.variance(g) / len(yn))
    return theta, theta - _z(level) * se, theta + _z(level) * se


RATIO_CASES = [
    # people, the autorater on the same answers, the autorater on the others
    (([1.0, 2.0], [2.0, 4.0]), ([2.0, 2.0], [2.0, 4.0]), ([3.0, 1.0, 2.0], [4.0, 2.0, 2.0])),
    (([0.0, 3.0, 1.0], [1.0, 3.0, 2.0]), ([1.0, 3.0, 2.0], [2.0, 3.0, 2.0]), ([2.0, 5.0], [3.0, 5.0])),
    (([2.0, 0.0], [2.0, 1.0]), ([2.0, 0.0], [2.0, 1.0]), ([1.0, 1.0, 4.0], [3.0, 1.0, 5.0])),
]  # fmt: skip


@pytest.mark.parametrize(("human", "auto", "unlabelled"), RATIO_CASES)
@pytest.mark.parametrize("level", [0.8, 0.95])
def test_the_prediction_powered_ratio_equals_the_formula(human, auto, unlabelled, level):
    arrays = [tuple(_a(*x) for x in pair) for pair in (human, auto, unlabelled)]
    got = ppi_ratio(*arrays, level=level)
    assert got == pytest.approx(_ppi_ratio_by_hand(human, auto, unlabelled, level), abs=1e-12)


def test_with_a_perfect_autorater_the_ratio_is_the_autorater_s_own():
    human = (_a(1.0, 2.0), _a(2.0, 2.0))
    theta, lo, hi = ppi_ratio(human, human, (_a(1.0, 3.0, 2.0), _a(2.0, 4.0, 2.0)))
    assert theta == pytest.approx(6 / 8) and lo < theta < hi


@pytest.mark.parametrize(
    ("ud", "hd", "yd"),
    [
        ([1.0, 1.0], [1.0, 1.0], [0.0, 0.0]),  # corrected denominator exactly 0
        ([0.0, 0.0], [1.0, 1.0], [0.0, 0.0]),  # below 0
    ],
)
def test_a_corrected_denominator_of_zero_or_less_gives_no_figure(ud, hd, yd):
    ones = _a(1.0, 1.0)
    got = ppi_ratio((ones, _a(*yd)), (ones, _a(*hd)), (ones, _a(*ud)))
    assert got == (None, None, None)


# ------------------------------------------------------------------ the whole figure


def test_macro_prediction_powered_equals_the_formula_over_the_defined_answers():
    auto = ([1, 2, 0, 3, 2, 1, 1], [2, 2, 1, 4, 2, 2, 4])
    human = ([1, 1, 0, 2, 0, 0, 0], [2, 2, 1, 4, 0, 0, 0])
    labelled = [True, True, True, False, True, False, False]
    got = prediction_powered(auto, human, labelled, aggregate="macro", level=0.9)
    y, yhat = [0.5, 0.5, 0.0], [0.5, 1.0, 0.0]  # answer 4 (people's 0/0) is not defined
    yu = [0.75, 0.5, 0.25]
    assert (got.labelled, got.unlabelled, got.ppi.n) == (3, 3, 6)
    assert (got.ppi.value, got.ppi.low, got.ppi.high) == pytest.approx(
        _ppi_mean_by_hand(y, yhat, yu, 0.9, 1), abs=1e-12
    )
    assert got.naive.value == pytest.approx(st.fmean(yhat + yu))
    assert got.naive.n == 6 and got.human.n == 3
    assert got.human.value == pytest.approx(st.fmean(y))


def test_micro_prediction_powered_corrects_sums_of_the_labelled_and_unlabelled_answers():
    auto = ([1, 2, 0, 3, 2, 1], [2, 2, 1, 4, 2, 3])
    human = ([1, 1, 0, 2, 0, 0], [2, 2, 1, 4, 0, 0])
    labelled = [True, True, False, True, False, False]
    got = prediction_powered(auto, human, labelled, aggregate="micro", level=0.95)
    lab = [0, 1, 3]
    rest = [2, 4, 5]
    pick = lambda xs, idx: [float(xs[i]) for i in idx]  # noqa: E731
    expected = _ppi_ratio_by_hand(
        (pick(human[0], lab), pick(human[1], lab)),
        (pick(auto[0], lab), pick(auto[1], lab)),
        (pick(auto[0], rest), pick(auto[1], rest)),
        0.95,
    )
    assert (got.ppi.value, got.ppi.low, got.ppi.high) == pytest.approx(expected, abs=1e-12)
    assert (got.labelled, got.unlabelled, got.ppi.n) == (3, 3, 6)
    assert got.naive == _ratio_ci(_a(*auto[0]), _a(*auto[1]), _z(0.95))
    assert got.naive.value == pytest.approx(9 / 14)
    assert got.human.value == pytest.approx(4 / 8) and got.human.n == 3


def test_an_unknown_aggregate_is_refused():
    with pytest.raises(ValueError, match="micro or macro"):
        prediction_powered(([1, 1], [1, 1]), ([1, 1], [1, 1]), [True, False], aggregate="median")


# ------------------------------------------------------------------ the cases a mutant hid in


def test_a_denominator_of_one_and_two_answers_have_figures():
    assert _ratio_ci(_a(0.5), _a(1.0), 1.0) == Estimate(0.5, None, None, 1)
    two = _ratio_ci(_a(1.0, 0.0), _a(1.0, 1.0), 1.0)
    assert two.value == 0.5 and two.low is not None and two.low < 0.5 < two.high
    theta, lo, hi = ppi_ratio(
        (_a(1.0, 0.0), _a(0.5, 0.5)), (_a(1.0, 0.0), _a(0.5, 0.5)), (_a(0.2, 0.4), _a(0.5, 0.5))
    )  # a corrected denominator of 0.5 is a denominator
    assert theta == pytest.approx(0.6) and lo < theta < hi


def test_the_refusal_reads_in_full():
    message = "^prediction-powered inference needs two or more answers on each side$"
    with pytest.raises(ValueError, match=message):
        ppi_mean(np.ones(1), np.ones(1), np.ones(3))
    with pytest.raises(ValueError, match=message):
        ppi_ratio((np.ones(3),) * 2, (np.ones(3),) * 2, (np.ones(1),) * 2)


def test_the_whole_figure_keeps_its_name_level_counts_and_takes_0_1_labels():
    auto = ([1, 2, 0, 3, 2, 1, 1], [2, 2, 1, 4, 2, 2, 4])
    human = ([1, 1, 0, 2, 0, 0, 0], [2, 2, 1, 4, 1, 1, 1])
    flags = [True, True, True, False, False, False, False]
    for aggregate in ("macro", "micro"):
        got = prediction_powered(auto, human, flags, aggregate=aggregate, level=0.8)
        assert (got.figure, got.aggregate, got.level) == ("", aggregate, 0.8)
        assert (got.labelled, got.unlabelled) == (3, 4)
        as_ints = prediction_powered(
            auto, human, [int(f) for f in flags], aggregate=aggregate, level=0.8
        )
        assert as_ints == got
    macro = prediction_powered(auto, human, flags, aggregate="macro", level=0.8)
    y, yhat, yu = [0.5, 0.5, 0.0], [0.5, 1.0, 0.0], [0.75, 1.0, 0.5, 0.25]
    assert (macro.ppi.value, macro.ppi.low, macro.ppi.high) == pytest.approx(
        _ppi_mean_by_hand(y, yhat, yu, 0.8, 1), abs=1e-12
    )
