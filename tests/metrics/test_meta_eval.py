"""The meta-evaluation: RAGChecker's published correlations, scipy and sklearn as references."""

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from claimlab.io.ragchecker import META_LABELS, JudgedPair, load_meta_evaluation
from claimlab.metrics.meta_eval import (
    MIN_PAIRS,
    pearson_rows,
    quadratic_kappa,
    score_differences,
    score_meta_evaluation,
    spearman_rows,
)
from tests.conftest import require_data

# RAGChecker's paper (Ru et al., 2024, Table 2): checker vs people, and people vs people,
# Pearson / Spearman in percent
PUBLISHED = {
    "correctness_label": ((49.66, 46.94), (63.67, 59.19)),
    "completeness_label": ((60.67, 58.09), (71.91, 68.36)),
    "overall_label": ((61.93, 60.90), (70.09, 68.89)),
}


@pytest.fixture(scope="module")
def real_pairs():
    return load_meta_evaluation(
        require_data("ragchecker", "human_labeled_data.json"),
        require_data("ragchecker", "baseline_ragchecker.json"),
    )


@pytest.mark.realdata
def test_the_published_figures_within_a_hundredth(real_pairs):
    result = score_meta_evaluation(real_pairs, resamples=200)
    assert (result.instances, result.judgments, result.scale) == (280, 560, 100.0)
    # the default scale is RAGChecker's percent: its own near-ties (see the next test)
    assert result.labels["completeness_label"].spearman.value == pytest.approx(58.0879, abs=1e-4)
    for label, ((p, s), (hp, hs)) in PUBLISHED.items():
        a = result.labels[label]
        assert a.pearson.value == pytest.approx(p, abs=0.01)
        assert a.spearman.value == pytest.approx(s, abs=0.01)
        assert a.human_pearson.value == pytest.approx(hp, abs=0.01)
        assert a.human_spearman.value == pytest.approx(hs, abs=0.01)
        for c in (a.pearson, a.spearman, a.human_pearson, a.human_spearman):
            assert c.low < c.value < c.high


# Spearman ranks the score differences, and differences equal in exact arithmetic break ties
# in a float's last bits, differently on each scale: the paper's figures are those of
# percentages (RAGChecker's scale). The released fractions (scale 1) give 46.95 / 58.11, and
# merging the near-ties (exact-arithmetic ranks) 46.93 / 58.08. Pearson is the same on each.
SPEARMAN_BY_SCALE = [
    (100.0, None, 46.9395, 58.0879),
    (1.0, None, 46.9476, 58.1062),
    (100.0, 10, 46.9254, 58.0822),
    (1.0, 12, 46.9254, 58.0822),
]


@pytest.mark.realdata
@pytest.mark.parametrize("scale, ties, correctness, completeness", SPEARMAN_BY_SCALE)
def test_near_ties_depend_on_the_scale(real_pairs, scale, ties, correctness, completeness):
    result = score_meta_evaluation(real_pairs, resamples=0, scale=scale, tie_decimals=ties)
    spearman = {k: v.spearman.value for k, v in result.labels.items()}
    assert spearman["correctness_label"] == pytest.approx(correctness, abs=1e-4)
    assert spearman["completeness_label"] == pytest.approx(completeness, abs=1e-4)
    assert result.labels["overall_label"].pearson.value == pytest.approx(61.9251, abs=1e-4)


@pytest.mark.realdata
def test_the_checker_is_significantly_below_the_people_and_kappa_matches_sklearn(real_pairs):
    from sklearn.metrics import cohen_kappa_score

    result = score_meta_evaluation(real_pairs, resamples=500, seed=3)
    for label in META_LABELS:
        a = result.labels[label]
        first = [p.people[label][0] for p in real_pairs]
        second = [p.people[label][1] for p in real_pairs]
        assert a.human_kappa == pytest.approx(cohen_kappa_score(first, second, weights="quadratic"))
        assert a.below_people == {"pearson": True, "spearman": True}
        assert a.gap_pearson.value == pytest.approx(
            a.human_pearson.value - a.pearson.value, abs=1e-3
        )


def test_row_correlations_match_scipy():
    rng = np.random.default_rng(0)
    x = rng.integers(-2, 3, size=(5, 40)).astype(float)
    y = x + rng.normal(size=(5, 40))
    for i in range(5):
        assert pearson_rows(x, y)[i] == pytest.approx(stats.pearsonr(x[i], y[i])[0])
        assert spearman_rows(x, y)[i] == pytest.approx(stats.spearmanr(x[i], y[i])[0])
    assert np.isnan(pearson_rows(np.ones(4), np.arange(4.0)))  # a constant row: N/A


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([0, 1, 2, 2, 1], [0, 2, 2, 1, 1]),
        ([-2, -1, 0, 1, 2], [2, 1, 0, -1, -2]),
        ([1, 1, 2], [1, 1, 2]),
    ],
)
def test_quadratic_kappa_matches_sklearn(a, b):
    from sklearn.metrics import cohen_kappa_score

    assert quadratic_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b, weights="quadratic"))


def test_quadratic_kappa_is_na_when_one_label_throughout():
    assert quadratic_kappa([1, 1, 1], [1, 1, 1]) is None


def pair(i, people, one, two):
    return JudgedPair(
        str(i), "d", "q", {k: people for k in META_LABELS}, {k: (one, two) for k in META_LABELS}
    )


def test_a_missing_score_takes_the_median_and_is_counted():
    pairs = [pair(0, (1, 1), 0.2, 0.6), pair(1, (0, 0), None, 0.5), pair(2, (-1, -2), 0.9, 0.1)]
    delta, filled = score_differences(pairs, "overall_label")
    assert filled == 1
    # differences 0.4, (missing), -0.8; the median of the known ones, -0.2, fills the gap;
    # then -0.8..0.4 maps linearly onto -2..2
    assert delta.tolist() == pytest.approx([2.0, 0.0, -2.0])


def test_too_few_pairs_or_resamples_give_no_interval():
    pairs = [pair(0, (1, 2), 0.1, 0.9)]
    a = score_meta_evaluation(pairs).labels["overall_label"]
    assert a.pearson.value is None and a.pearson.low is None  # one pair: no correlation
    two = [pair(0, (1, 2), 0.1, 0.9), pair(1, (-1, -1), 0.8, 0.2)]
    b = score_meta_evaluation(two, resamples=50).labels["overall_label"]
    assert b.pearson.value is not None and b.pearson.low is None


def random_pairs(n, seed=5):
    """``n`` response pairs with judgments that follow the checker's difference, plus noise."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        one, two = (round(float(v), 3) for v in rng.random(2))
        first = int(np.clip(round(4 * (two - one) + rng.normal()), -2, 2))
        second = int(np.clip(round(4 * (two - one) + rng.normal()), -2, 2))
        out.append(pair(i, (first, second), one, two))
    return out


@pytest.mark.parametrize("block_cells", [1, 7 * 40 + 3, 10**9])
def test_intervals_and_gaps_are_the_percentiles_of_the_resampled_pairs_by_hand(block_cells):
    """Every interval recomputed with scipy on the same resamples of response pairs (a pair's
    two judgments stay together), drawn at once as a (resamples x pairs) array; the gap is
    people minus checker on each resample. Drawn in blocks (one resample, 7, all), the same."""
    pairs = random_pairs(40)
    result = score_meta_evaluation(
        pairs, resamples=200, seed=11, level=0.9, block_cells=block_cells
    )
    a = result.labels["overall_label"]
    delta, _ = score_differences(pairs, "overall_label")
    people = np.array([p.people["overall_label"] for p in pairs], dtype=float)
    picks = np.random.default_rng(11).integers(0, 40, size=(200, 40))
    checker, human = [], []
    for row in picks:
        x, y = np.repeat(delta[row], 2), people[row].reshape(-1)
        checker.append(100 * stats.pearsonr(x, y)[0])
        human.append(100 * stats.pearsonr(people[row, 0], people[row, 1])[0])
    checker, human = np.array(checker), np.array(human)
    low, high = np.quantile(checker, [0.05, 0.95])
    assert (a.pearson.low, a.pearson.high) == (round(low, 4), round(high, 4))
    value = 100 * stats.pearsonr(np.repeat(delta, 2), people.reshape(-1))[0]
    assert a.pearson.value == round(value, 4)
    gap_low, gap_high = np.quantile(human - checker, [0.05, 0.95])
    assert (a.gap_pearson.low, a.gap_pearson.high) == (round(gap_low, 4), round(gap_high, 4))
    assert a.gap_spearman.value == pytest.approx(
        a.human_spearman.value - a.spearman.value, abs=1e-3
    )
    assert a.label == "overall_label" and a.filled == 0
    assert (result.level, result.resamples, result.seed, result.scale) == (0.9, 200, 11, 100.0)


@pytest.mark.parametrize(
    ("n", "resamples", "interval"),
    [(2, 100, False), (2, 99, False), (1, 2000, False), (3, 100, True), (3, 99, False)],
)
def test_an_interval_needs_three_pairs_and_a_hundred_resamples(n, resamples, interval):
    pairs = [pair(0, (1, 2), 0.1, 0.9), pair(1, (-1, -1), 0.8, 0.2), pair(2, (0, 1), 0.3, 0.5)]
    result = score_meta_evaluation(pairs[:n], resamples=resamples)
    assert result.resamples == (resamples if interval else 0)
    got = result.labels["overall_label"].human_pearson
    assert (got.low is not None) == interval


def test_no_pair_at_all_is_na_everywhere():
    result = score_meta_evaluation([], resamples=500)
    assert (result.instances, result.judgments, result.resamples) == (0, 0, 0)
    a = result.labels["overall_label"]
    assert a.pearson.value is None and a.human_kappa is None
    assert a.to_dict()["pearson"] == {
        "value": None, "low": None, "high": None,
        "ci_reason": "no correlation: one side does not vary (or no pair)",
    }  # fmt: skip
    assert a.below_people == {"pearson": None, "spearman": None}


def test_the_json_form_names_every_figure():
    pairs = random_pairs(12)
    pairs[3] = pair(3, (1, 1), None, 0.7)  # a missing score: filled with the median, counted
    result = score_meta_evaluation(pairs, resamples=100, seed=2)
    d = result.to_dict()
    assert {k: d[k] for k in ("instances", "judgments", "level", "resamples", "seed", "scale")} == {
        "instances": 12, "judgments": 24, "level": 0.95, "resamples": 100, "seed": 2,
        "scale": 100.0,
    }  # fmt: skip
    a = result.labels["correctness_label"]
    assert d["labels"]["correctness_label"] == {
        "pearson": a.pearson.to_dict(),
        "spearman": a.spearman.to_dict(),
        "human_human": {
            "pearson": a.human_pearson.to_dict(),
            "spearman": a.human_spearman.to_dict(),
            "quadratic_kappa": a.human_kappa,
        },
        "gap": {"pearson": a.gap_pearson.to_dict(), "spearman": a.gap_spearman.to_dict()},
        "significantly_below_people": a.below_people,
        "filled_with_median": 1,
    }
    assert a.pearson.to_dict() == {
        "value": a.pearson.value, "low": a.pearson.low, "high": a.pearson.high
    }  # fmt: skip
    assert list(d["labels"]) == list(META_LABELS)
    with pytest.raises(TypeError):
        result.labels["overall_label"] = a


def test_ranks_with_ties_equal_scipy_and_small_variances_still_correlate():
    rows = np.array([[3.0, 1.0, 3.0, 2.0, 3.0], [5.0, 5.0, 1.0, 1.0, 0.0]])
    from claimlab.metrics.meta_eval import average_ranks

    for row, got in zip(rows, average_ranks(rows), strict=True):
        assert got.tolist() == stats.rankdata(row).tolist()
    assert average_ranks(rows[0]).tolist() == stats.rankdata(rows[0]).tolist()  # one row
    # values that vary by hundredths: the product of their spreads is below 1, still defined
    assert pearson_rows(np.array([0.0, 0.01, 0.02]), np.array([0.0, 0.02, 0.01]))[()] == (
        pytest.approx(stats.pearsonr([0, 0.01, 0.02], [0, 0.02, 0.01])[0])
    )


def test_equal_differences_are_left_as_they_are_and_give_no_correlation():
    pairs = [pair(0, (1, 2), 0.1, 0.3), pair(1, (-1, 0), 0.5, 0.7), pair(2, (0, 0), 0.2, 0.4)]
    delta, filled = score_differences(pairs, "overall_label", tie_decimals=9)
    assert np.allclose(delta, 20.0) and filled == 0  # 100 x 0.2, no -2..2 map of a constant
    assert score_meta_evaluation(pairs, resamples=0).labels["overall_label"].pearson.value is None


# --- too small for an interval: no interval, a reason, no claim against the people ----------

TWO = [pair(0, (1, 2), 0.1, 0.9), pair(1, (-1, -1), 0.8, 0.2)]
AGREE = [pair(0, (1, 1), 0.1, 0.9), pair(1, (-1, -1), 0.8, 0.2), pair(2, (0, 0), 0.3, 0.5)]

# (pairs, resamples, the reason of the checker's Pearson, the reason of the people's Pearson,
# the reason of the Spearman gap: None where there is an interval)
TOO_SMALL = [
    ([], 2000, "no correlation", "no correlation", "no correlation"),
    (TWO[:1], 2000, "no correlation", "no correlation", "no correlation"),
    (TWO, 2000, "only 2 response pairs: an interval needs 3", "only 2 response pairs", "only 2"),
    (AGREE, 99, "99 resamples: an interval needs 100 or more", "99 resamples", "99 resamples"),
    # the people agree on every pair and the checker ranks as they do: each resample gives
    # 100 (people) and a gap of 0 (Spearman): no spread, no interval, no claim
    (AGREE, 500, None, "every resample gives 100.00: the response pairs do not vary",
     "every resample gives 0.00"),
]  # fmt: skip


@pytest.mark.parametrize(("pairs", "resamples", "checker", "people", "gap"), TOO_SMALL)
def test_too_small_an_input_has_no_interval_and_claims_nothing(
    pairs, resamples, checker, people, gap
):
    a = score_meta_evaluation(pairs, resamples=resamples, seed=1).labels["overall_label"]
    for figure, why in ((a.pearson, checker), (a.human_pearson, people), (a.gap_spearman, gap)):
        if why is None:
            assert figure.low < figure.high and figure.reason is None
        else:
            assert figure.low is None and figure.high is None and figure.reason.startswith(why)
            assert figure.to_dict()["ci_reason"] == figure.reason
    assert a.below_people["spearman"] is None  # the gap has no interval: undecided


def test_two_pairs_print_no_interval_and_no_verdict(tmp_path):
    """The issue's case: meta-eval on 2 pairs printed a "95% interval" of one point and
    "significantly below the people"."""
    import json

    from tests.conftest import run_cli

    labels = ("correctness_label", "completeness_label", "overall_label")
    judged = [(0, 1), (0, 2), (1, -1), (1, -1)]
    human = [{"instance_id": i, **{k: v for k in labels}} for i, v in judged]
    scores = [
        {"instance_id": i, "model1": {"ragchecker": dict.fromkeys(labels, one)},
         "model2": {"ragchecker": dict.fromkeys(labels, two)}}
        for i, (one, two) in enumerate([(0.1, 0.9), (0.8, 0.2)])
    ]  # fmt: skip
    (tmp_path / "h.json").write_text(json.dumps(human))
    (tmp_path / "s.json").write_text(json.dumps(scores))
    text = run_cli("meta-eval", tmp_path / "h.json", tmp_path / "s.json", check=True).stdout
    assert "Pearson 96.22 (no interval)" in text and "[" not in text
    assert text.startswith("2 response pairs, 4 judgments; not resampled: no intervals")
    assert "significantly below" not in text
    assert "undecided against the people's own agreement (pearson, spearman: no interval)" in text
    assert "no interval: only 2 response pairs: an interval needs 3 or more" in text
    data = json.loads(
        run_cli("meta-eval", tmp_path / "h.json", tmp_path / "s.json", "--json").stdout
    )
    overall = data["labels"]["overall_label"]
    assert overall["significantly_below_people"] == {"pearson": None, "spearman": None}
    assert overall["pearson"]["low"] is None and data["resamples"] == 0


@st.composite
def judged_pairs(draw, most=8):
    n = draw(st.integers(0, most))
    out = []
    for i in range(n):
        people = draw(st.tuples(st.integers(-2, 2), st.integers(-2, 2)))
        one = draw(st.sampled_from([None, 0.0, 0.25, 0.5, 1.0]))
        two = draw(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]))
        out.append(pair(i, people, one, two))
    return out


@settings(max_examples=60, deadline=None)
@given(pairs=judged_pairs(), resamples=st.sampled_from([0, 99, 100, 150]))
def test_an_interval_is_never_one_point_and_a_claim_needs_one(pairs, resamples):
    """Whatever the input: a figure has a proper interval (low < high) or none with a reason;
    below MIN_PAIRS pairs none at all; the comparison with the people is decided exactly when
    its gap has an interval."""
    result = score_meta_evaluation(pairs, resamples=resamples, seed=3)
    for a in result.labels.values():
        gaps = {"pearson": a.gap_pearson, "spearman": a.gap_spearman}
        figures = [a.pearson, a.spearman, a.human_pearson, a.human_spearman, *gaps.values()]
        for c in figures:
            if c.low is None:
                assert c.high is None and c.reason
            else:
                assert c.low < c.high and c.reason is None and c.value is not None
                assert len(pairs) >= MIN_PAIRS and resamples >= 100
        assert {k: v is None for k, v in a.below_people.items()} == {
            k: g.low is None for k, g in gaps.items()
        }


@settings(max_examples=30, deadline=None)
@given(
    pairs=judged_pairs(most=12),
    resamples=st.integers(100, 160),
    cells=st.integers(1, 2000),
    seed=st.integers(0, 50),
)
def test_drawn_in_blocks_the_figures_are_the_same_exactly(pairs, resamples, cells, seed):
    whole = score_meta_evaluation(pairs, resamples=resamples, seed=seed, block_cells=10**9)
    assert score_meta_evaluation(pairs, resamples=resamples, seed=seed, block_cells=cells) == whole


def _peak(pairs, resamples, cells):
    tracemalloc.start()
    try:
        score_meta_evaluation(
            pairs, resamples=resamples, seed=0, labels=["overall_label"], block_cells=cells
        )
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_grows_with_the_block_not_with_pairs_times_resamples():
    """A moderate input (3,000 pairs): doubling the resamples leaves the peak as it is; a block
    four times larger raises it. (Before blocks, 400 resamples held 400 x 6,000 values at once.)"""
    pairs = random_pairs(3000)
    small = _peak(pairs, 200, 30_000)  # 10 resamples a block
    twice = _peak(pairs, 400, 30_000)
    larger = _peak(pairs, 200, 120_000)  # 40 resamples a block
    assert twice < 1.2 * small, (small, twice)
    assert larger > 2 * small, (small, larger)


@settings(max_examples=40, deadline=None)
@given(
    scores=st.lists(
        st.tuples(
            st.floats(allow_nan=False, allow_infinity=False),
            st.floats(allow_nan=False, allow_infinity=False),
        ),
        min_size=3,
        max_size=6,
    )
)
def test_a_score_of_any_magnitude_is_refused_or_gives_finite_figures(tmp_path_factory, scores):
    """Invariant: whatever number a checker's file holds, the reader refuses it naming file,
    instance and field, or every figure is a finite number or N/A with a reason (never a NaN
    shown as a correlation, never a float overflow warning)."""
    import json
    import warnings

    from claimlab.core.errors import ClaimlabInputError

    d = tmp_path_factory.mktemp("scores")
    human = [
        {"instance_id": i // 2, **dict.fromkeys(META_LABELS, (i % 5) - 2)}
        for i in range(2 * len(scores))
    ]
    rows = [
        {"instance_id": i, "model1": {"ragchecker": dict.fromkeys(META_LABELS, one)},
         "model2": {"ragchecker": dict.fromkeys(META_LABELS, two)}}
        for i, (one, two) in enumerate(scores)
    ]  # fmt: skip
    (d / "h.json").write_text(json.dumps(human))
    (d / "s.json").write_text(json.dumps(rows))
    try:
        pairs = load_meta_evaluation(d / "h.json", d / "s.json")
    except ClaimlabInputError as e:
        assert "s.json" in str(e) and "instance" in str(e) and "_label" in str(e)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        result = score_meta_evaluation(pairs, resamples=0, seed=1)
    for a in result.labels.values():
        for c in (a.pearson, a.spearman):
            assert (c.value is None and c.reason) or np.isfinite(c.value)
