"""Selective answering unit by unit: the records, accuracy, coverage and risk counted by hand."""

import math

import pytest

from claimlab.core.ratio import Ratio
from claimlab.metrics.selective import (
    SCORERS,
    Logistic,
    RiskCoverageRow,
    SelectiveItem,
    SelectiveResult,
    answered_at,
    coverage_curve,
    risk_coverage,
    score_selective,
    selection_scores,
)

ITEMS = [
    SelectiveItem("a", True, True, True, 0.9),
    SelectiveItem("b", True, False, False, 0.4),  # answered with gaps
    SelectiveItem("c", False, None, True, 0.8),  # abstained with complete evidence
    SelectiveItem("d", True, True, False, None),  # answered with gaps, no confidence
    SelectiveItem("e", False, None, False, 0.1),
    SelectiveItem("f", True, False, True, 0.4),
]


def _counts(r):
    return (r.numerator, r.denominator)


def test_find_selective_counts_by_hand():
    got = score_selective(ITEMS)
    assert _counts(got.accuracy) == (2, 4) and _counts(got.coverage) == (4, 6)
    assert got.abstained_with_complete_evidence == ("c",)
    assert got.answered_with_gaps == ("b", "d")
    assert got.to_dict() == {
        "accuracy_on_answered": Ratio(2, 4).to_dict(),
        "answered": Ratio(4, 6).to_dict(),
        "abstained_with_complete_evidence": ["c"],
        "answered_with_gaps": ["b", "d"],
    }


@pytest.mark.parametrize(
    ("items", "accuracy", "coverage"),
    [
        ([], (0, 0), (0, 0)),
        ([SelectiveItem("x", False, None, False)], (0, 0), (0, 1)),  # N/A, not 100%
        ([SelectiveItem("x", True, True, True)], (1, 1), (1, 1)),
        ([SelectiveItem("x", True, False, True)], (0, 1), (1, 1)),
        ([SelectiveItem("x", True, None, True)], (0, 1), (1, 1)),  # unknown is not correct
    ],
)
def test_find_selective_at_its_boundaries(items, accuracy, coverage):
    got = score_selective(items)
    assert _counts(got.accuracy) == accuracy and _counts(got.coverage) == coverage
    assert isinstance(got, SelectiveResult)


@pytest.mark.parametrize(
    ("threshold", "coverage", "accuracy"),
    [
        (0.0, (3, 6), (1, 3)),  # a, b, f (d has no confidence; c and e abstained)
        (0.4, (3, 6), (1, 3)),  # at the threshold counts as answered
        (0.41, (1, 6), (1, 1)),
        (0.9, (1, 6), (1, 1)),
        (0.95, (0, 6), (0, 0)),
    ],
)
def test_risk_coverage_by_hand(threshold, coverage, accuracy):
    (row,) = risk_coverage(ITEMS, [threshold])
    assert row.threshold == threshold
    assert _counts(row.coverage) == coverage and _counts(row.accuracy) == accuracy
    assert _counts(row.risk) == (accuracy[1] - accuracy[0], accuracy[1])
    assert row.to_dict() == {
        "threshold": threshold,
        "coverage": row.coverage.to_dict(),
        "accuracy": row.accuracy.to_dict(),
        "risk": row.risk.to_dict(),
    }


def test_risk_is_errors_among_answered_and_na_without_answers():
    row = RiskCoverageRow(0.5, Ratio(3, 4), Ratio(1, 3))
    assert _counts(row.risk) == (2, 3)
    assert RiskCoverageRow(0.5, Ratio(0, 4), Ratio(0, 0)).risk.value is None
    assert risk_coverage(ITEMS, []) == []


def test_a_logistic_probability_and_its_json():
    m = Logistic(intercept=-1.0, sufficient=2.0, confidence=0.5, items=7)
    assert m.probability(ITEMS[0]) == pytest.approx(1 / (1 + math.exp(-(-1 + 2 + 0.45))))
    assert m.probability(ITEMS[1]) == pytest.approx(1 / (1 + math.exp(-(-1 + 0 + 0.2))))
    assert m.probability(ITEMS[3]) == pytest.approx(1 / (1 + math.exp(-(-1 + 0 + 0))))
    assert Logistic(-800.0, 0.0, 0.0, 1).probability(ITEMS[0]) == 0.0  # no overflow
    assert Logistic(-699.0, 0.0, 0.0, 1).probability(ITEMS[1]) > 0.0
    assert Logistic(800.0, 0.0, 0.0, 1).probability(ITEMS[0]) == 1.0
    assert m.to_dict() == {"intercept": -1.0, "sufficient": 2.0, "confidence": 0.5, "fitted_on": 7}


def test_selection_scores_per_scorer():
    assert SCORERS == ("confidence", "sufficient-then-confidence", "logistic")
    assert selection_scores(ITEMS, "confidence") == [0.9, 0.4, None, None, None, 0.4]
    assert selection_scores(ITEMS, "sufficient-then-confidence") == [
        0.9, None, None, None, None, 0.4,
    ]  # fmt: skip
    m = Logistic(0.0, 1.0, 1.0, 2)
    got = selection_scores(ITEMS, "logistic", m)
    assert got[2:5] == [None, None, None]
    assert got[0] == pytest.approx(m.probability(ITEMS[0]))
    with pytest.raises(ValueError, match="scorer"):
        selection_scores(ITEMS, "logistic")  # no model
    with pytest.raises(ValueError, match="scorer"):
        selection_scores(ITEMS, "random")
    assert selection_scores([ITEMS[2]], "random") == [None]  # never answered: never asked


@pytest.mark.parametrize(
    ("threshold", "coverage", "accuracy", "shown"),
    [
        (None, (0, 6), (0, 0), float("inf")),
        (0.4, (3, 6), (1, 3), 0.4),
        (0.5, (1, 6), (1, 1), 0.5),
        (1.0, (0, 6), (0, 0), 1.0),
    ],
)
def test_answered_at_a_threshold(threshold, coverage, accuracy, shown):
    row = answered_at(ITEMS, selection_scores(ITEMS, "confidence"), threshold)
    assert row.threshold == shown
    assert _counts(row.coverage) == coverage and _counts(row.accuracy) == accuracy


def test_the_coverage_curve_of_the_items():
    rows = coverage_curve(ITEMS, selection_scores(ITEMS, "confidence"))
    assert [(r.threshold, _counts(r.coverage), _counts(r.accuracy)) for r in rows] == [
        (0.9, (1, 6), (1, 1)),
        (0.4, (3, 6), (1, 3)),
    ]
    assert coverage_curve(ITEMS, [None] * 6) == []


def test_an_answer_is_correct_only_with_every_asked_item_accepted():
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.metrics.selective import answer_is_correct
    from tests.conftest import FIXTURES

    fx = load_sufficiency(FIXTURES / "aurora.json")
    both = {"room": "Room A3", "route": "Solar Route"}
    assert answer_is_correct(fx, "room", {"room": "Room A3"})
    assert not answer_is_correct(fx, "room", {"room": "Room B2"})
    assert not answer_is_correct(fx, "room", {})
    assert answer_is_correct(fx, "route_and_room", both)
    assert answer_is_correct(fx, "route_and_room", {**both, "route": "Orbit Building"})
    assert not answer_is_correct(fx, "route_and_room", {"room": "Room A3"})  # route left out


def test_the_scenarios_of_a_sufficiency_file_as_selective_items():
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.metrics.selective import selective_items
    from tests.conftest import FIXTURES

    # answered: the simulated system gave an answer; correct: the key accepts every asked item
    # (Room A3; the route question answered without a route is wrong); complete: the witness
    # core (a whole branch: E1+E2, E3+E4 or E5 alone; E8 is a draft, even with metadata ignored)
    expected = [
        ("missing_link", False, None, False, 0.35),
        ("mixed_branches", True, True, False, 0.62),
        ("solar_e1_e2", True, True, True, 0.91),
        ("orbit_e3_e4", False, None, True, 0.45),
        ("map_e5_room", True, True, True, 0.95),
        ("route_and_room", True, False, False, 0.8),
        ("copy_e1", False, None, False, 0.3),
        ("noise_e6_e7", False, None, False, 0.2),
        ("draft_e8", True, False, False, 0.55),
        ("draft_e8_ignored", True, False, False, 0.55),
    ]
    for name in ("aurora.json", "aurora_th.json"):
        items = selective_items(load_sufficiency(FIXTURES / name))
        assert [
            (i.id, i.answered, i.correct, i.evidence_complete, i.confidence) for i in items
        ] == expected


def test_a_probability_below_the_cut_off_is_zero():
    assert Logistic(-700.0, 0.0, 0.0, 1).probability(ITEMS[4]) == 0.0
    assert Logistic(-700.5, 0.0, 0.0, 1).probability(ITEMS[4]) == 0.0
    assert Logistic(-699.5, 0.0, 0.0, 1).probability(ITEMS[4]) > 0.0


def _fit_items():
    rows = [(True, True, 0.9), (False, False, 0.1), (True, False, 0.0), (False, True, 0.7),
            (True, True, 0.6), (False, False, 0.0), (True, False, 0.4), (True, True, 0.2)]  # fmt: skip
    return [SelectiveItem(f"q{k}", True, c, s, conf) for k, (c, s, conf) in enumerate(rows)]


def test_the_fit_uses_only_items_with_a_correctness_and_a_confidence():
    from sklearn.linear_model import LogisticRegression

    from claimlab.metrics.selective import fit_logistic

    items = _fit_items()
    model = fit_logistic(items)  # the default penalty is 1 (scikit-learn's C = 1)
    ref = LogisticRegression(C=1.0, tol=1e-12, max_iter=10_000).fit(
        [[float(i.evidence_complete), i.confidence] for i in items], [int(i.correct) for i in items]
    )
    assert (model.intercept, model.sufficient, model.confidence) == pytest.approx(
        (ref.intercept_[0], *ref.coef_[0]), abs=1e-6
    )
    extra = [SelectiveItem("u", True, None, True, 0.5), SelectiveItem("v", True, False, True, None)]
    assert fit_logistic(items + extra) == model and model.items == 8


def test_two_items_one_right_one_wrong_are_enough_and_the_refusal_counts():
    from claimlab.metrics.selective import fit_logistic

    two = [SelectiveItem("a", True, True, True, 0.9), SelectiveItem("b", True, False, False, 0.1)]
    assert fit_logistic(two).items == 2
    with pytest.raises(ValueError, match="it has 0 right of 0"):
        fit_logistic([])
    with pytest.raises(ValueError, match="it has 2 right of 2"):
        fit_logistic([two[0], SelectiveItem("c", True, True, False, 0.3)])
    with pytest.raises(ValueError, match="it has 0 right of 1"):
        fit_logistic([two[1]])
