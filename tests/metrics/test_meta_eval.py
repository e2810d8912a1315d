"""The meta-evaluation: RAGChecker's published correlations, scipy and sklearn as references."""

import numpy as np
import pytest
from scipy import stats

from claimlab.io.ragchecker import META_LABELS, JudgedPair, load_meta_evaluation
from claimlab.metrics.meta_eval import (
    meta_evaluate,
    pearson_rows,
    quadratic_kappa,
    score_differences,
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
    result = meta_evaluate(real_pairs, resamples=200)
    assert (result.instances, result.judgments, result.scale) == (280, 560, 100.0)
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
    result = meta_evaluate(real_pairs, resamples=0, scale=scale, tie_decimals=ties)
    spearman = {k: v.spearman.value for k, v in result.labels.items()}
    assert spearman["correctness_label"] == pytest.approx(correctness, abs=1e-4)
    assert spearman["completeness_label"] == pytest.approx(completeness, abs=1e-4)
    assert result.labels["overall_label"].pearson.value == pytest.approx(61.9251, abs=1e-4)


@pytest.mark.realdata
def test_the_checker_is_significantly_below_the_people_and_kappa_matches_sklearn(real_pairs):
    from sklearn.metrics import cohen_kappa_score

    result = meta_evaluate(real_pairs, resamples=500, seed=3)
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
    a = meta_evaluate(pairs).labels["overall_label"]
    assert a.pearson.value is None and a.pearson.low is None  # one pair: no correlation
    two = [pair(0, (1, 2), 0.1, 0.9), pair(1, (-1, -1), 0.8, 0.2)]
    b = meta_evaluate(two, resamples=50).labels["overall_label"]
    assert b.pearson.value is not None and b.pearson.low is None
