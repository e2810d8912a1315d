"""Paired comparisons, Holm and ranking stability, unit by unit, against hand computations.

The resampled sums are the weights of ``weight_blocks`` times the counts (tested in
``test_intervals.py``); here each figure built on them is recomputed with plain loops from
those sums or, for the permutation test, from the definition p = (1 + as extreme) / (1 + P)
with the same swaps drawn.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.metrics.stats.comparisons import (
    Comparison,
    Difference,
    RankedPair,
    Ranking,
    holm,
    pair_in_content_order,
    paired_comparison,
    paired_comparisons,
    ranking_stability,
    rankings_stability,
    side_first,
    unpaired_difference,
    with_holm,
)
from claimlab.metrics.stats.resampling import in_content_order, resampled_sums


def _a(*values):
    return np.array(values, dtype=np.float64)


def _ratio(n, d):
    return n / d if d > 0 else None


# ------------------------------------------------------------------ the records


def _comparison(**kw):
    base = dict(
        a="A", b="B", metric="coverage", aggregate="micro",
        difference=Difference(-0.041, -0.06, -0.022), p_value=0.001, shared=300, only_a=0,
        only_b=12, level=0.95, resamples=2000, permutations=2000,
    )  # fmt: skip
    return Comparison(**{**base, **kw})


@pytest.mark.parametrize(
    ("kw", "shown"),
    [
        ({}, "-4.1 points [-6.0, -2.2] (300 shared, 0 only A, 12 only B; p 0.001)"),
        ({"p_adjusted": 0.003}, "-4.1 points [-6.0, -2.2] (300 shared, 0 only A, 12 only B; p 0.001, Holm 0.003)"),
        ({"difference": Difference(0.05, None, None), "p_value": None, "reason": "1 shared answer"}, "+5.0 points (300 shared, 0 only A, 12 only B; 1 shared answer)"),
        ({"difference": Difference(0.05, 0.01, None), "p_value": None}, "+5.0 points (300 shared, 0 only A, 12 only B)"),
        ({"difference": Difference(0.05, None, 0.1), "p_value": 0.25}, "+5.0 points (300 shared, 0 only A, 12 only B; p 0.25)"),
        ({"difference": Difference(None, None, None)}, "N/A (300 shared, 0 only A, 12 only B)"),
        ({"undefined": 4}, "-4.1 points [-6.0, -2.2] (300 shared, 0 only A, 12 only B, 4 N/A on one side; p 0.001)"),
    ],
)  # fmt: skip
def test_a_comparison_is_shown_with_its_counts(kw, shown):
    assert _comparison(**kw).display == shown


def test_the_json_contract_of_a_comparison():
    c = _comparison(p_adjusted=0.002, unpaired=Difference(-0.04, -0.08, 0.0))
    assert c.to_dict() == {
        "a": "A", "b": "B", "metric": "coverage", "aggregate": "micro",
        "difference": {"value": -0.041, "low": -0.06, "high": -0.022},
        "p_value": 0.001, "p_adjusted": 0.002, "shared": 300, "only_a": 0, "only_b": 12,
        "undefined": 0, "level": 0.95, "resamples": 2000, "permutations": 2000,
    }  # fmt: skip
    assert _comparison(reason="why").to_dict()["reason"] == "why"
    assert list(_comparison().to_dict())[-1] == "permutations"


# ------------------------------------------------------------------ the paired comparison


def _by_hand(a, b, resamples, permutations, seed, level):
    """The difference, its percentile interval and permutation p-value from the definitions.

    The answers are drawn in content order (the same draws whatever their ids or order).
    """
    an, ad, bn, bd = pair_in_content_order(*a, *b)
    obs = an.sum() / ad.sum() - bn.sum() / bd.sum()
    sums = resampled_sums(np.column_stack([an, ad, bn, bd]), resamples, seed)
    diffs = [
        x[0] / x[1] - x[2] / x[3] for x in sums if x[1] > 0 and x[3] > 0
    ]  # resamples where both have a figure
    alpha = (1 - level) / 2
    flat = max(diffs) - min(diffs) <= 1e-12 * max(1.0, abs(diffs[0]))  # no spread: no interval
    low, high = (None, None) if flat else np.quantile(diffs, [alpha, 1 - alpha])
    rng = np.random.default_rng(seed + 1)
    swaps = rng.integers(0, 2, size=(permutations, an.size), dtype=np.int8)
    extreme = 0
    for row in swaps:
        pa = (
            [bn[i] if s else an[i] for i, s in enumerate(row)],
            [bd[i] if s else ad[i] for i, s in enumerate(row)],
        )
        pb = (
            [an[i] if s else bn[i] for i, s in enumerate(row)],
            [ad[i] if s else bd[i] for i, s in enumerate(row)],
        )
        ra, rb = _ratio(sum(pa[0]), sum(pa[1])), _ratio(sum(pb[0]), sum(pb[1]))
        d = 0.0 if ra is None or rb is None else ra - rb
        extreme += abs(d) >= abs(obs) - 1e-12 * max(1.0, abs(obs))
    return obs, low, high, (1 + extreme) / (1 + permutations)


PAIRS = [
    ((_a(1, 2, 0, 3, 2), _a(2, 2, 1, 4, 2)), (_a(0, 1, 0, 2, 2), _a(2, 2, 1, 4, 2))),
    ((_a(3, 3, 3, 1), _a(3, 4, 3, 2)), (_a(1, 2, 3, 1), _a(3, 4, 3, 2))),
    ((_a(1, 0, 1, 1, 0, 1), _a(1, 1, 1, 1, 1, 1)), (_a(1, 1, 0, 1, 1, 1), _a(1, 1, 1, 1, 1, 1))),
    ((_a(2, 1, 0), _a(2, 1, 0)), (_a(0, 1, 1), _a(1, 1, 1))),  # an answer A has no figure for
    # some swaps leave a side without any denominator: that permutation counts as no difference
    ((_a(1, 0, 1), _a(1, 0, 1)), (_a(0, 0, 0), _a(0, 1, 0))),
]


@pytest.mark.parametrize(("a", "b"), PAIRS)
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_the_paired_comparison_equals_its_definitions(a, b, level):
    c = paired_comparison(a, b, level=level, resamples=300, permutations=200, seed=5)
    obs, low, high, p = _by_hand(a, b, 300, 200, 5, level)
    assert c.difference.value == pytest.approx(obs, abs=1e-12)
    if low is None:  # every resample gives the same difference: never a zero-width interval
        assert (c.difference.low, c.difference.high) == (None, None)
        assert c.reason.startswith("every resample gives")
    else:
        assert (c.difference.low, c.difference.high) == pytest.approx((low, high), abs=1e-12)
        assert c.reason == ""
    assert c.p_value == pytest.approx(p, abs=1e-12)
    assert (c.shared, c.resamples, c.permutations, c.level) == (a[0].size, 300, 200, level)
    assert (c.a, c.b, c.unpaired) == ("A", "B", None)


def test_several_figures_share_one_resampling_and_keep_their_names():
    a, b = PAIRS[0]
    reversed_ = ((a[0][::-1], a[1][::-1]), (b[0][::-1], b[1][::-1]))
    both = paired_comparisons(
        {("m", "micro"): (a, b), ("n", "micro"): reversed_},
        names=("X", "Y"), only=(2, 3), resamples=300, permutations=200, seed=5,
    )  # fmt: skip
    alone = paired_comparison(
        a, b, names=("X", "Y"), metric="m", only=(2, 3), resamples=300, permutations=200, seed=5
    )
    assert both[0] == alone
    assert [(x.metric, x.aggregate, x.a, x.b, x.only_a, x.only_b) for x in both] == [
        ("m", "micro", "X", "Y", 2, 3), ("n", "micro", "X", "Y", 2, 3),
    ]  # fmt: skip
    assert both[1].difference.value == pytest.approx(alone.difference.value)  # same sums
    assert paired_comparisons({}) == []


def test_a_figure_one_side_never_has_is_na_with_no_p_value():
    a = (_a(1, 2, 3), _a(0, 0, 0))
    b = (_a(1, 2, 3), _a(3, 3, 3))
    c = paired_comparison(a, b, resamples=200, permutations=200)
    assert c.difference == Difference(None, None, None) and c.p_value is None
    c = paired_comparison(b, a, resamples=200, permutations=200)
    assert c.difference.value is None and c.p_value is None


def test_identical_sides_differ_by_nothing_with_p_one():
    x = PAIRS[0][0]
    c = paired_comparison(x, x, resamples=200, permutations=200, seed=3)
    assert (c.difference.value, c.difference.low, c.difference.high, c.p_value) == (
        0,
        None,
        None,
        1.0,
    )
    assert "every resample gives +0.0 points" in c.reason  # no zero-width interval


@pytest.mark.parametrize(
    ("n", "resamples", "permutations", "reason", "p"),
    [
        (0, 2000, 2000, "0 shared answers: an interval and a test need 2 or more", None),
        (1, 2000, 2000, "1 shared answer: an interval and a test need 2 or more", None),
        (3, 99, 2000, "an interval needs 100 or more resamples", None),
        (3, 100, 99, "a p-value needs 100 or more permutations", None),
        (3, 100, 100, "", "number"),
    ],
)
def test_too_few_answers_resamples_or_permutations_say_so(n, resamples, permutations, reason, p):
    a = (_a(*[1.0, 0.0, 1.0][:n]), _a(*[1.0] * n))
    b = (_a(*[0.0, 0.0, 1.0][:n]), _a(*[1.0] * n))
    c = paired_comparison(a, b, resamples=resamples, permutations=permutations)
    assert c.reason == reason
    assert (c.p_value is None) == (p is None)
    expected = None if n == 0 else (sum(a[0]) - sum(b[0])) / n
    assert c.difference.value == (pytest.approx(expected) if expected is not None else None)
    if reason.startswith("a p-value") or reason == "":
        assert c.difference.low is not None
    else:
        assert (c.difference.low, c.difference.high) == (None, None)


@pytest.mark.parametrize(
    ("a", "b", "value"),
    [
        ((_a(1), _a(0)), (_a(1), _a(1)), None),
        ((_a(1), _a(1)), (_a(1), _a(0)), None),
        ((_a(0), _a(0)), (_a(0), _a(0)), None),
        ((_a(1), _a(4)), (_a(1), _a(2)), 0.25 - 0.5),
    ],
)
def test_too_few_answers_with_a_side_without_denominator_is_na(a, b, value):
    c = paired_comparison(a, b)
    assert c.reason.startswith("1 shared answer") and c.p_value is None
    assert c.difference == Difference(value, None, None)
    assert (c.shared, c.resamples, c.permutations) == (1, 2000, 2000)


def test_sides_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match="same answers, in the same order"):
        paired_comparison((_a(1, 2), _a(2, 2)), (_a(1), _a(2)))


# ------------------------------------------------------------------ unpaired, for contrast


def test_the_unpaired_difference_resamples_each_side_on_its_own():
    (an, ad), (bn, bd) = PAIRS[0]
    got = unpaired_difference((an, ad), (bn, bd), level=0.9, resamples=300, seed=4)
    first = side_first((an, ad), (bn, bd))  # the side first by values takes the seed
    sa = resampled_sums(in_content_order(np.column_stack([an, ad])), 300, 4 if first else 4 + 7919)
    sb = resampled_sums(in_content_order(np.column_stack([bn, bd])), 300, 4 + 7919 if first else 4)
    diffs = [
        x[0] / x[1] - y[0] / y[1] for x, y in zip(sa, sb, strict=True) if x[1] > 0 and y[1] > 0
    ]
    low, high = np.quantile(diffs, [0.05, 0.95])
    assert got.value == pytest.approx(an.sum() / ad.sum() - bn.sum() / bd.sum())
    assert (got.low, got.high) == pytest.approx((low, high), abs=1e-12)
    assert unpaired_difference((an, ad * 0), (bn, bd)) == Difference(None, None, None)
    assert unpaired_difference((an, ad), (bn, -bd)) == Difference(None, None, None)
    c = paired_comparison(
        (an, ad),
        (bn, bd),
        resamples=300,
        permutations=200,
        seed=2,
        unpaired_from=((an, ad), (bn, bd)),
    )
    assert c.unpaired == unpaired_difference((an, ad), (bn, bd), resamples=300, seed=4)


# ------------------------------------------------------------------ Holm


@pytest.mark.parametrize(
    "p",
    [
        [0.01, 0.04, 0.03],
        [0.5],
        [0.001, 0.2, 0.2, 0.03, 0.9],
        [0.4, 0.3, 0.2, 0.1],
        [0.02, 0.02],
    ],
)
def test_holm_equals_statsmodels(p):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    expected = multitest.multipletests(p, method="holm")[1]
    assert holm(p) == pytest.approx(list(expected), abs=1e-12)


def test_holm_leaves_none_out_of_the_count_and_caps_at_one():
    assert holm([None, 0.01, None, 0.04]) == [None, 0.02, None, 0.04]
    assert holm([0.6, 0.7]) == [1.0, 1.0]
    assert holm([]) == [] and holm([None]) == [None]
    cs = [_comparison(p_value=0.01), _comparison(p_value=None), _comparison(p_value=0.04)]
    assert [c.p_adjusted for c in with_holm(cs)] == [0.02, None, 0.04]


# ------------------------------------------------------------------ ranking stability


def _ranking_by_hand(figures, resamples, seed):
    names = sorted(figures, key=lambda g: (sorted(zip(*figures[g], strict=True)), g))  # values
    cols = in_content_order(np.column_stack([x for g in names for x in figures[g]]))
    sums = resampled_sums(cols, resamples, seed)
    values = {n: _ratio(a.sum(), b.sum()) for n, (a, b) in figures.items()}
    order = sorted((n for n in names if values[n] is not None), key=lambda n: -values[n])
    rows = [{n: _ratio(s[2 * k], s[2 * k + 1]) for k, n in enumerate(names)} for s in sums]

    def holds(row, x, y):
        if row[x] is None or row[y] is None:
            return False
        return row[x] >= row[y] if values[x] == values[y] else row[x] > row[y]

    pairs = list(zip(order, order[1:], strict=False))
    same = sum(all(holds(r, x, y) for x, y in pairs) for r in rows) / resamples
    shares = [sum(holds(r, x, y) for r in rows) / resamples for x, y in pairs]
    return order, same, shares, values


SYSTEMS = {
    "low": (_a(0, 1, 0, 1, 0, 0), _a(1, 1, 1, 1, 1, 1)),
    "high": (_a(1, 1, 1, 0, 1, 1), _a(1, 1, 1, 1, 1, 1)),
    "mid": (_a(1, 0, 1, 1, 0, 1), _a(1, 1, 1, 1, 1, 2)),
    "twin": (_a(0, 1, 1, 1, 1, 1), _a(1, 1, 1, 1, 1, 1)),  # tied with high, not answer by answer
}


def test_ranking_stability_equals_the_shares_counted_by_hand():
    r = ranking_stability(SYSTEMS, resamples=250, seed=6)
    order, same, shares, values = _ranking_by_hand(SYSTEMS, 250, 6)
    assert list(r.order) == order == ["high", "twin", "mid", "low"]
    assert r.same_order == pytest.approx(same)
    assert [p.holds for p in r.pairs] == pytest.approx(shares)
    assert [(p.above, p.below, p.tied) for p in r.pairs] == [
        ("high", "twin", True), ("twin", "mid", False), ("mid", "low", False),
    ]  # fmt: skip
    assert dict(r.values) == pytest.approx(values) and r.resamples == 250
    assert r.pairs[0].holds < 1.0 and r.same_order <= min(p.holds for p in r.pairs)


def test_a_ranking_without_enough_to_resample_has_no_shares():
    one = ranking_stability({"a": SYSTEMS["low"], "gone": (_a(*[1] * 6), _a(*[0] * 6))})
    assert (one.order, one.same_order, one.pairs, one.resamples) == (("a",), None, (), 0)
    single = ranking_stability({"a": (_a(1), _a(2)), "b": (_a(2), _a(2))})
    assert (single.order, single.same_order, single.resamples) == (("b", "a"), None, 0)
    no_draw = ranking_stability({"a": SYSTEMS["low"], "b": SYSTEMS["high"]}, resamples=0)
    assert (no_draw.order, no_draw.same_order) == (("b", "a"), None)
    assert rankings_stability({}) == {}


def test_rankings_of_several_figures_equal_each_ranked_alone():
    both = rankings_stability(
        {"x": {"low": SYSTEMS["low"], "high": SYSTEMS["high"]},
         "y": {"mid": SYSTEMS["mid"], "twin": SYSTEMS["twin"]}},
        resamples=200, seed=1,
    )  # fmt: skip
    x_alone = _ranking_by_hand({"low": SYSTEMS["low"], "high": SYSTEMS["high"]}, 200, 1)
    assert list(both["x"].order) == x_alone[0] and both["x"].same_order == pytest.approx(x_alone[1])
    assert both["y"].order == ("twin", "mid")


def test_the_json_of_a_ranking_keeps_its_order_of_keys():
    pair = RankedPair("a", "b", False, 0.75)
    assert pair.to_dict() == {"above": "a", "below": "b", "tied": False, "holds": 0.75}
    r = Ranking(("a", "b"), 0.75, (pair,), 100, values={"a": 0.5, "b": 0.25})
    r = r.with_about(figure="coverage").with_about(aggregate="micro")
    d = r.to_dict()
    assert list(d) == ["order", "values", "same_order", "pairs", "resamples", "figure", "aggregate"]
    assert d["values"] == {"a": 0.5, "b": 0.25} and d["pairs"] == [pair.to_dict()]
    assert "values" not in Ranking(("a",), None, (), 0).to_dict()


# ------------------------------------------------------------------ the cases a mutant hid in

SECOND = ((_a(0, 1, 2, 1, 1), _a(1, 1, 2, 2, 3)), (_a(1, 1, 0, 0, 1), _a(1, 2, 2, 2, 3)))


def test_each_of_several_figures_equals_that_figure_compared_alone():
    a, b = PAIRS[0]
    kw = dict(resamples=300, permutations=200, seed=5)
    both = paired_comparisons({("m", "micro"): (a, b), ("n", "macro"): SECOND}, **kw)
    assert both[0] == paired_comparison(a, b, metric="m", **kw)
    alone = paired_comparisons({("n", "macro"): SECOND}, **kw)[0]
    assert both[1] == alone
    obs, low, high, p = _by_hand(*SECOND, 300, 200, 5, 0.95)
    assert (alone.difference.value, alone.difference.low, alone.difference.high, alone.p_value) == (
        pytest.approx(obs), pytest.approx(low), pytest.approx(high), pytest.approx(p),
    )  # fmt: skip


def test_a_figure_without_a_value_does_not_stop_the_next_one_s_test():
    none = ((_a(1, 1, 1, 1, 1), _a(0, 0, 0, 0, 0)), SECOND[1])
    kw = dict(resamples=300, permutations=200, seed=5)
    got = paired_comparisons({("x", "micro"): none, ("n", "micro"): SECOND}, **kw)
    assert got[0].p_value is None
    assert got[1] == paired_comparisons({("n", "micro"): SECOND}, **kw)[0]


def test_too_few_answers_for_several_figures_each_keep_their_own_difference():
    one = ((_a(1), _a(4)), (_a(1), _a(2)))
    two = ((_a(3), _a(3)), (_a(0), _a(1)))
    got = paired_comparisons({("a", "micro"): one, ("b", "micro"): two})
    assert [c.difference.value for c in got] == [-0.25, 1.0]
    assert [(c.metric, c.aggregate) for c in got] == [("a", "micro"), ("b", "micro")]


def test_two_shared_answers_are_enough_for_an_interval_and_a_test():
    c = paired_comparison(
        (_a(1, 0), _a(1, 1)), (_a(0, 0), _a(1, 1)), resamples=100, permutations=100
    )
    assert c.reason == "" and c.difference.low is not None and c.p_value is not None


def test_many_answers_draw_the_swaps_in_blocks():
    from claimlab.metrics.stats.resampling import BLOCK_CELLS

    n, permutations = 5000, 2000
    rng = np.random.default_rng(11)
    an, bn = rng.integers(0, 3, n).astype(float), rng.integers(0, 3, n).astype(float)
    ad = bd = np.full(n, 3.0)
    c = paired_comparison((an, ad), (bn, bd), resamples=100, permutations=permutations, seed=10)
    per_block = BLOCK_CELLS // n
    assert per_block < permutations  # more than one block
    an, ad, bn, bd = in_content_order(np.column_stack([an, ad, bn, bd])).T  # drawn by values
    draw = np.random.default_rng(11)
    sizes = [per_block] * (permutations // per_block) + [permutations % per_block]
    swaps = np.vstack([draw.integers(0, 2, size=(k, n), dtype=np.int8) for k in sizes if k])
    obs = an.sum() / ad.sum() - bn.sum() / bd.sum()
    moved = swaps.astype(float) @ (bn - an)
    diffs = (an.sum() + moved) / ad.sum() - (bn.sum() - moved) / bd.sum()
    extreme = int(np.sum(np.abs(diffs) >= abs(obs) - 1e-12))
    assert len(swaps) == permutations
    assert c.p_value == pytest.approx((1 + extreme) / (1 + permutations))


def test_defaults_names_and_the_refusal_in_full():
    a, b = PAIRS[0]
    c = paired_comparison(a, b)
    assert c == paired_comparison(a, b, metric="", resamples=2000, permutations=2000, seed=0)
    assert c != paired_comparison(a, b, seed=1)
    assert (c.metric, c.resamples, c.permutations) == ("", 2000, 2000)
    assert paired_comparisons({("m", "micro"): (a, b)})[0] == paired_comparison(a, b, metric="m")
    u = unpaired_difference(a, b)
    assert (
        u == unpaired_difference(a, b, resamples=2000, seed=0) != unpaired_difference(a, b, seed=1)
    )
    with pytest.raises(
        ValueError, match="^A and B must give counts for the same answers, in the same order$"
    ):
        paired_comparison((_a(1, 2), _a(2, 2)), (_a(1), _a(2)))


def test_the_unpaired_contrast_uses_the_aggregate_and_level_asked_for():
    a, b = PAIRS[0]
    c = paired_comparison(
        a,
        b,
        aggregate="macro",
        level=0.8,
        resamples=300,
        permutations=200,
        seed=2,
        unpaired_from=(a, b),
    )
    assert c.unpaired == unpaired_difference(
        a, b, aggregate="macro", level=0.8, resamples=300, seed=4
    )
    assert c.unpaired != unpaired_difference(
        a, b, aggregate="micro", level=0.8, resamples=300, seed=4
    )
    assert c.unpaired != unpaired_difference(
        a, b, aggregate="macro", level=0.95, resamples=300, seed=4
    )


@pytest.mark.parametrize(("ad", "bd"), [([1, 0], [2, 2]), ([2, 2], [1, 0])])
def test_a_side_whose_denominators_sum_to_one_has_an_unpaired_difference(ad, bd):
    got = unpaired_difference((_a(1, 0), _a(*ad)), (_a(1, 0), _a(*bd)), resamples=200)
    assert got.value is not None


def test_holm_rounds_to_twelve_digits():
    assert holm([0.12345678901234]) == [0.123456789012]


def test_rankings_of_three_figures_each_equal_their_own_ranking():
    groups = {
        "x": {"low": SYSTEMS["low"], "high": SYSTEMS["high"]},
        "y": {"mid": SYSTEMS["mid"]},
        "z": {"twin": SYSTEMS["twin"], "low": SYSTEMS["low"]},
    }
    together = rankings_stability(groups, resamples=150, seed=3)
    for name, figures in groups.items():
        assert together[name] == ranking_stability(figures, resamples=150, seed=3), name
    assert ranking_stability(groups["x"]) == ranking_stability(groups["x"], resamples=2000, seed=0)
    assert (
        rankings_stability(groups)["z"] == rankings_stability(groups, resamples=2000, seed=0)["z"]
    )


def test_a_ranking_over_two_answers_with_a_denominator_of_one():
    r = ranking_stability({"a": (_a(1, 0), _a(1, 0)), "b": (_a(0, 1), _a(1, 2))}, resamples=100)
    assert r.order == ("a", "b") and r.same_order is not None
    assert dict(r.values) == {"a": 1.0, "b": pytest.approx(1 / 3)}
    with pytest.raises(TypeError):
        r.values["a"] = 0.0  # type: ignore[index]
    assert r.to_dict()["same_order"] == r.same_order


def test_a_ranking_says_how_many_resamples_it_held_in_not_only_its_share():
    assert Ranking(("a", "b"), 0.665, (), 200).held == "66.5% (133/200)"
    assert Ranking(("a",), None, (), 0).held == "N/A (0/0)"


_COUNTS = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=2, max_size=25)


@settings(max_examples=60, deadline=None)
@given(_COUNTS, st.data())
def test_a_comparison_of_b_and_a_mirrors_that_of_a_and_b(rows, data):
    """Whatever the sides are called, the same answers are drawn: B - A is A - B negated,
    with the same p-value, and a ranking's shares do not depend on names or their order."""
    a = (_a(*[min(n, d) for n, d in rows]), _a(*[d for _, d in rows]))
    other = data.draw(st.lists(st.integers(0, 5), min_size=len(rows), max_size=len(rows)))
    b = (_a(*[min(n, d) for n, (_, d) in zip(other, rows, strict=True)]), a[1])
    if side_first(a, b) and side_first(b, a):
        return  # both sides hold the same values: A's order them, no exact mirror (the guide)
    ab = paired_comparison(a, b, resamples=200, permutations=200, seed=2)
    ba = paired_comparison(b, a, resamples=200, permutations=200, seed=2)
    assert ab.p_value == ba.p_value and ab.reason.replace("-", "+") == ba.reason.replace("-", "+")
    for x, y in (
        (ab.difference.value, ba.difference.value),
        (ab.difference.low, ba.difference.high),
    ):
        assert (x is None and y is None) or x == pytest.approx(-y, abs=1e-12)
    u_ab, u_ba = unpaired_difference(a, b, resamples=200), unpaired_difference(b, a, resamples=200)
    if side_first(a, b) != side_first(b, a):  # sides of the same values: one draw, not a mirror
        assert (u_ab.low is None) == (u_ba.high is None)
        if u_ab.low is not None:
            assert u_ab.low == pytest.approx(-u_ba.high, abs=1e-12)
    one = ranking_stability({"zeta": a, "alpha": b}, resamples=200, seed=5)
    two = ranking_stability({"b": b, "a": a}, resamples=200, seed=5)
    assert one.same_order == two.same_order


@given(_COUNTS, _COUNTS)
def test_the_side_first_is_the_one_whose_sorted_parts_come_first(a_rows, b_rows):
    n = min(len(a_rows), len(b_rows))
    a = (_a(*[x for x, _ in a_rows[:n]]), _a(*[y for _, y in a_rows[:n]]))
    b = (_a(*[x for x, _ in b_rows[:n]]), _a(*[y for _, y in b_rows[:n]]))
    parts = [sorted(zip(side[0].tolist(), side[1].tolist(), strict=True)) for side in (a, b)]
    assert side_first(a, b) == (parts[0] <= parts[1])
