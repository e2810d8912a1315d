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
    find_selective,
    risk_coverage,
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
    got = find_selective(ITEMS)
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
    got = find_selective(items)
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
