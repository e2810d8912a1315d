"""Selective answering with Sufficient Context: the logistic fit, the curves, the chosen threshold,
the split, and the study on real data (held out and shifted)."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.metrics.selective import (
    SelectiveItem,
    answered_at,
    choose_threshold,
    coverage_curve,
    fit_logistic,
    selection_scores,
)


def _items(rows):
    """(id, correct, sufficient, confidence) rows as answered items."""
    return [SelectiveItem(i, True, c, s, conf) for i, c, s, conf in rows]


ROWS = [
    ("q1", True, True, 0.9),
    ("q2", True, True, 0.4),
    ("q3", False, False, 0.8),
    ("q4", True, False, 0.3),
    ("q5", False, False, 0.2),
    ("q6", False, True, 0.1),
]


def test_coverage_curve_counts_by_hand():
    items = _items(ROWS)
    rows = coverage_curve(items, selection_scores(items, "confidence"))
    # by confidence: q1 right, q3 wrong, q2 right, q4 right, q5 wrong, q6 wrong
    assert [(r.coverage.counts, r.accuracy.counts) for r in rows] == [
        ("1/6", "1/1"),
        ("2/6", "1/2"),
        ("3/6", "2/3"),
        ("4/6", "3/4"),
        ("5/6", "3/5"),
        ("6/6", "3/6"),
    ]
    gated = coverage_curve(items, selection_scores(items, "sufficient-then-confidence"))
    # only the sufficient answer: q1 right, q2 right, q6 wrong
    assert [(r.coverage.counts, r.accuracy.counts) for r in gated] == [
        ("1/6", "1/1"),
        ("2/6", "2/2"),
        ("3/6", "2/3"),
    ]


def test_ties_in_score_are_one_point_of_the_curve():
    items = _items([("a", True, True, 0.5), ("b", False, True, 0.5), ("c", True, True, 0.1)])
    rows = coverage_curve(items, [0.5, 0.5, 0.1])
    assert [(r.threshold, r.coverage.counts, r.accuracy.counts) for r in rows] == [
        (0.5, "2/3", "1/2"),
        (0.1, "3/3", "2/3"),
    ]


@pytest.mark.parametrize(
    ("target", "threshold", "answered"),
    [
        (1.0, 0.9, "1/6"),  # only the first answer is all right
        (0.75, 0.3, "4/6"),  # 3/4 at confidence 0.3; 3/5 below it is under the target
        (0.5, 0.1, "6/6"),  # 3/6 meets 50%
        (0.0, 0.1, "6/6"),
    ],
)
def test_the_threshold_answers_most_while_meeting_the_target(target, threshold, answered):
    items = _items(ROWS)
    scores = selection_scores(items, "confidence")
    t = choose_threshold(coverage_curve(items, scores), target)
    assert t == threshold
    assert answered_at(items, scores, t).coverage.counts == answered


def test_no_threshold_meets_the_target_then_nothing_is_answered_and_accuracy_is_na():
    items = _items([("a", False, False, 0.9), ("b", False, True, 0.2)])
    scores = selection_scores(items, "confidence")
    t = choose_threshold(coverage_curve(items, scores), 0.5)
    assert t is None
    row = answered_at(items, scores, t)
    assert row.coverage.display == "0.0% (0/2)" and row.accuracy.display == "N/A (0/0)"
    assert answered_at([], [], 0.5).coverage.display == "N/A (0/0)"


def test_items_without_a_confidence_or_not_answered_are_never_answered():
    items = [
        SelectiveItem("a", True, True, True, None),
        SelectiveItem("b", False, None, True, 0.9),
        SelectiveItem("c", True, True, True, 0.5),
    ]
    assert selection_scores(items, "confidence") == [None, None, 0.5]
    with pytest.raises(ValueError, match="unknown scorer"):
        selection_scores(items, "votes")
    with pytest.raises(ValueError, match="unknown scorer"):
        selection_scores(items, "logistic")  # no model fitted


def _random_items(rng, n):
    out = []
    for k in range(n):
        sufficient = rng.random() < 0.5
        confidence = rng.random()
        p = 1 / (1 + math.exp(-(-1.0 + 2.0 * sufficient + 1.5 * confidence)))
        out.append(SelectiveItem(f"q{k}", True, rng.random() < p, sufficient, confidence))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("penalty", [1.0, 0.1])
def test_the_logistic_fit_matches_scikit_learn(seed, penalty):
    from sklearn.linear_model import LogisticRegression

    items = _random_items(random.Random(seed), 120)
    model = fit_logistic(items, penalty=penalty)
    x = [[float(i.evidence_complete), i.confidence] for i in items]
    y = [int(i.correct) for i in items]
    ref = LogisticRegression(C=1 / penalty, tol=1e-12, max_iter=10_000).fit(x, y)
    assert model.intercept == pytest.approx(ref.intercept_[0], abs=1e-5)
    assert model.sufficient == pytest.approx(ref.coef_[0][0], abs=1e-5)
    assert model.confidence == pytest.approx(ref.coef_[0][1], abs=1e-5)
    assert model.items == 120
    probs = ref.predict_proba(x)[:, 1]
    assert [model.probability(i) for i in items] == pytest.approx(list(probs), abs=1e-6)


def test_a_split_separated_by_sufficiency_still_gives_finite_weights():
    items = _items([(f"q{k}", k % 2 == 0, k % 2 == 0, 0.5) for k in range(20)])
    model = fit_logistic(items)
    assert math.isfinite(model.sufficient) and model.sufficient > 0
    assert model.probability(items[0]) > 0.5 > model.probability(items[1])


@pytest.mark.parametrize(
    "rows",
    [
        [],
        [("a", True, True, 0.9)],
        [("a", True, True, 0.9), ("b", True, False, 0.1)],  # all right: nothing to tell apart
    ],
)
def test_a_calibration_split_without_right_and_wrong_is_refused(rows):
    with pytest.raises(ValueError, match="right and wrong"):
        fit_logistic(_items(rows))


def test_the_split_depends_on_the_ids_and_the_seed_not_the_order():
    from claimlab.labs.retrieval.selective import split_items

    items = _random_items(random.Random(5), 200)
    cal, held = split_items(items, seed=3)
    cal2, held2 = split_items(list(reversed(items)), seed=3)
    assert {i.id for i in cal} == {i.id for i in cal2} and {i.id for i in held} == {
        i.id for i in held2
    }
    assert len(cal) + len(held) == 200 and 70 < len(cal) < 130
    other, _ = split_items(items, seed=4)
    assert {i.id for i in other} != {i.id for i in cal}


@pytest.mark.realdata
def test_sufficient_context_on_real_data_held_out_and_shifted():
    from claimlab.io.multihop import convert_hotpotqa, convert_musique
    from claimlab.io.sufficiency import read_sufficiency
    from claimlab.labs.retrieval.selective import sufficient_context_studies
    from tests.conftest import require_data

    sources = {}
    for name, parts, convert in (
        ("MuSiQue", ("musique", "hipporag_musique_ans_train_100.json"), convert_musique),
        ("HotpotQA", ("hotpotqa", "hipporag_hotpotqa_train_100_distractor.json"), convert_hotpotqa),
    ):
        path = require_data(*parts)
        sources[name] = read_sufficiency(convert(path), source=str(path))
    studies = sufficient_context_studies(sources, k=5, target=0.8, seed=0)
    for name, study in studies.items():
        assert not isinstance(study, str), study
        assert study.shifted_to == ("HotpotQA" if name == "MuSiQue" else "MuSiQue")
        for m in study.methods:
            cal = m.at_threshold["calibration"]
            if m.threshold is not None:
                assert cal.accuracy.value >= 0.8  # the target holds where it was chosen
            for split in ("held-out", "shifted"):
                print(
                    f"calibrated on {name}, {m.scorer:27} {split:9}: answered "
                    f"{m.at_threshold[split].coverage.display}, accuracy "
                    f"{m.at_threshold[split].accuracy.display}, drop {m.drop(split)}"
                )
        # abstaining unless SUFFICIENT keeps its promise held out better than confidence alone
        conf, gate = study.method("confidence"), study.method("sufficient-then-confidence")
        assert gate.at_threshold["held-out"].accuracy.value >= 0.8
        assert (conf.drop("held-out") or 0) > (gate.drop("held-out") or 0)


# --- fit_logistic fits answered items only (its docstring's rule) -------------------------------

# (case, items, fitted_on): an unanswered item keeps its correctness and confidence on record,
# yet takes no part in the fit
FIT_ON = [
    ("en: one unanswered item left out",
     [("a", True, True, True, 0.9), ("b", True, False, False, 0.2), ("c", False, True, True, 0.8)], 2),
    ("tr: yanıtlanmamış iki soru dışarıda",
     [("ş", True, True, True, 0.9), ("ğ", True, False, False, 0.2), ("ü", False, False, True, 0.1),
      ("ö", False, True, False, 0.7)], 2),
    ("unknown correctness or confidence left out",
     [("a", True, True, True, 0.9), ("b", True, False, False, 0.2), ("c", True, None, True, 0.5),
      ("d", True, True, False, None)], 2),
]  # fmt: skip


@pytest.mark.parametrize(("case", "rows", "fitted_on"), FIT_ON, ids=[c[0] for c in FIT_ON])
def test_fit_logistic_counts_answered_items_only(case, rows, fitted_on):
    items = [SelectiveItem(i, a, c, s, conf) for i, a, c, s, conf in rows]
    model = fit_logistic(items)
    assert model.items == fitted_on
    assert model == fit_logistic([i for i in items if i.answered])


def test_unanswered_items_cannot_make_a_split_fittable():
    items = [SelectiveItem("a", True, True, True, 0.9), SelectiveItem("b", False, False, True, 0.1)]
    with pytest.raises(ValueError, match="1 right of 1"):
        fit_logistic(items)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), extra=st.integers(1, 20))
def test_adding_unanswered_items_never_changes_the_fit(seed, extra):
    """Invariant: the fitted weights depend on answered items only."""
    rng = random.Random(seed)
    items = _random_items(rng, 40)
    unanswered = [
        SelectiveItem(f"u{k}", False, rng.random() < 0.5, rng.random() < 0.5, rng.random())
        for k in range(extra)
    ]
    mixed = items + unanswered
    rng.shuffle(mixed)
    a, b = fit_logistic(mixed), fit_logistic(items)
    assert a.items == b.items == 40
    assert (a.intercept, a.sufficient, a.confidence) == pytest.approx(
        (b.intercept, b.sufficient, b.confidence), rel=1e-9, abs=1e-12
    )
