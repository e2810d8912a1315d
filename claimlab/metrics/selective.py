"""Selective answering: answer only when the evidence is complete, and count both ways of failing.

Metric card:
    accuracy on answered = correct / answered (N/A when nothing is answered, never perfect);
    coverage = answered / total; reported apart: answered with gaps (evidence incomplete) and
    abstained with complete evidence. Risk-coverage: at a confidence threshold t an item is
    answered when it has an answer and a confidence >= t.
    Reference: the sufficiency lab's source notes (selective answering).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.core.ratio import Ratio
from claimlab.core.vocab import unknown
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.metrics.sufficiency import score_fixture_sufficiency


def answer_is_correct(
    fixture: SufficiencyFixture, question: str, answer: Mapping[str, str]
) -> bool:
    """Whether an answer names every item the question asks with a value the key accepts.

    An answer that leaves an asked item out is not correct, however right the rest is.
    """
    q = fixture.question(question)
    return all(answer.get(item) in fixture.accepted(question, item) for item in q.asks)


def selective_items(fixture: SufficiencyFixture) -> list[SelectiveItem]:
    """The fixture's scenarios as selective-answering items (simulated system vs. computed evidence).

    ``evidence_complete`` comes from the witness core; ``correct`` checks the simulated answer
    against the file's answer key for **every** item the question asks.
    """
    items = []
    for sc in fixture.scenarios.values():
        result = score_fixture_sufficiency(
            fixture, sc.question, sc.context, ignore_metadata=sc.ignore_metadata
        )
        correct = (
            answer_is_correct(fixture, sc.question, sc.system_answer)
            if sc.system_answer is not None
            else None
        )
        items.append(
            SelectiveItem(sc.name, sc.answered, correct, result.sufficient, sc.system_confidence)
        )
    return items


@dataclass(frozen=True)
class SelectiveItem:
    """One question: whether it was answered, whether correctly, and whether evidence was complete."""

    id: str
    answered: bool
    correct: bool | None
    evidence_complete: bool
    confidence: float | None = None


@dataclass(frozen=True)
class SelectiveResult:
    """Accuracy on answered, coverage (answered/total), and the two kinds of mismatch apart."""

    accuracy: Ratio
    coverage: Ratio
    abstained_with_complete_evidence: tuple[str, ...]
    answered_with_gaps: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "accuracy_on_answered": self.accuracy.to_dict(),
            "answered": self.coverage.to_dict(),
            "abstained_with_complete_evidence": list(self.abstained_with_complete_evidence),
            "answered_with_gaps": list(self.answered_with_gaps),
        }


def score_selective(items: Sequence[SelectiveItem]) -> SelectiveResult:
    """Accuracy on answered questions with answered/total; N/A when nothing is answered.

    Examples:
        >>> r = score_selective([SelectiveItem("question-1", False, None, True)])
        >>> r.accuracy.display, r.coverage.display, r.abstained_with_complete_evidence
        ('N/A (0/0)', '0.0% (0/1)', ('question-1',))
    """
    answered = [i for i in items if i.answered]
    correct = sum(1 for i in answered if i.correct)
    return SelectiveResult(
        accuracy=Ratio(correct, len(answered)),
        coverage=Ratio(len(answered), len(items)),
        abstained_with_complete_evidence=tuple(
            i.id for i in items if not i.answered and i.evidence_complete
        ),
        answered_with_gaps=tuple(i.id for i in answered if not i.evidence_complete),
    )


@dataclass(frozen=True)
class RiskCoverageRow:
    """At one confidence threshold: answered/total, accuracy on answered and risk."""

    threshold: float
    coverage: Ratio
    accuracy: Ratio

    @property
    def risk(self) -> Ratio:
        """Errors among answered."""
        return Ratio(self.accuracy.denominator - self.accuracy.numerator, self.accuracy.denominator)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "threshold": self.threshold,
            "coverage": self.coverage.to_dict(),
            "accuracy": self.accuracy.to_dict(),
            "risk": self.risk.to_dict(),
        }


def risk_coverage(
    items: Sequence[SelectiveItem], thresholds: Sequence[float]
) -> list[RiskCoverageRow]:
    """Answer only when ``confidence >= threshold``; one row per threshold.

    An item is answered at threshold ``t`` when it has an answer and its confidence is at least
    ``t``; items without a confidence are never answered. A threshold above every confidence gives
    coverage 0/N and accuracy N/A (0/0), not 100%.

    Examples:
        >>> items = [SelectiveItem("a", True, True, True, 0.9), SelectiveItem("b", True, False, False, 0.4)]
        >>> [(r.coverage.counts, r.accuracy.display) for r in risk_coverage(items, [0.0, 0.5, 0.95])]
        [('2/2', '50.0% (1/2)'), ('1/2', '100.0% (1/1)'), ('0/2', 'N/A (0/0)')]
    """
    rows = []
    for t in thresholds:
        answered = [
            i for i in items if i.answered and i.confidence is not None and i.confidence >= t
        ]
        correct = sum(1 for i in answered if i.correct)
        rows.append(
            RiskCoverageRow(t, Ratio(len(answered), len(items)), Ratio(correct, len(answered)))
        )
    return rows


# --- Sufficient Context: abstain by sufficiency and confidence ---------------------------------
#
# Joren et al. (2025), "Sufficient Context: A New Lens on Retrieval Augmented Generation
# Systems" (ICLR): abstain unless the context is sufficient, or combine the sufficiency signal
# with the model's confidence in a logistic regression fitted on a calibration split, and
# answer when its probability of a right answer clears a threshold. Kamath, Jia and Liang
# (2020), "Selective Question Answering under Domain Shift" (ACL): a threshold chosen on one
# data set is judged on another, where the accuracy it promised drops.

SCORERS = ("confidence", "sufficient-then-confidence", "logistic")


@dataclass(frozen=True)
class Logistic:
    """``P(right) = 1 / (1 + exp(-(intercept + w_sufficient * s + w_confidence * c)))``."""

    intercept: float
    sufficient: float
    confidence: float
    items: int

    def probability(self, item: SelectiveItem) -> float:
        """The fitted probability that the answer to ``item`` is right."""
        import math

        z = self.intercept + self.sufficient * float(item.evidence_complete)
        z += self.confidence * float(item.confidence or 0.0)
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "intercept": self.intercept,
            "sufficient": self.sufficient,
            "confidence": self.confidence,
            "fitted_on": self.items,
        }


def fits_on(item: SelectiveItem) -> bool:
    """Whether an item takes part in a fit: answered, with a known correctness and a confidence.

    Examples:
        >>> fits_on(SelectiveItem("q", True, True, False, 0.7))
        True
        >>> fits_on(SelectiveItem("q", False, True, False, 0.7))  # not answered: left out
        False
    """
    return item.answered and item.correct is not None and item.confidence is not None


def fit_logistic(items: Sequence[SelectiveItem], *, penalty: float = 1.0) -> Logistic:
    """Fit P(right | sufficient, confidence) by Newton's method with a squared (ridge) penalty.

    Minimises ``sum(log loss) + penalty / 2 * (w_s**2 + w_c**2)`` (the intercept unpenalised):
    scikit-learn's ``LogisticRegression(C=1 / penalty)``. The penalty keeps the weights finite
    when sufficiency alone separates right from wrong. Only answered items with a known
    correctness and a confidence take part.

    Raises:
        ValueError: fewer than two usable items, or every one right (or every one wrong).
    """
    import numpy as np

    usable = [i for i in items if fits_on(i)]
    y = np.array([float(bool(i.correct)) for i in usable])
    if len(usable) < 2 or y.min() == y.max():
        raise ValueError(
            f"a calibration split needs right and wrong answers to fit on; it has "
            f"{int(y.sum()) if len(usable) else 0} right of {len(usable)}"
        )
    x = np.array([[1.0, float(i.evidence_complete), float(i.confidence or 0.0)] for i in usable])
    ridge = np.diag([0.0, penalty, penalty])
    w = np.zeros(3)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + ridge @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge + 1e-12 * np.eye(3)
        step = np.linalg.solve(hessian, gradient)
        w = w - step
        if float(np.abs(step).max()) < 1e-12:
            break
    return Logistic(float(w[0]), float(w[1]), float(w[2]), len(usable))


def selection_scores(
    items: Sequence[SelectiveItem], scorer: str, model: Logistic | None = None
) -> list[float | None]:
    """Each item's score for answering (higher answers first); None never answers.

    ``confidence``: the confidence alone. ``sufficient-then-confidence``: abstain unless the
    evidence is complete, then by confidence. ``logistic``: the fitted probability.
    """
    out: list[float | None] = []
    for i in items:
        if not i.answered or i.confidence is None:
            out.append(None)
        elif scorer == "confidence":
            out.append(i.confidence)
        elif scorer == "sufficient-then-confidence":
            out.append(i.confidence if i.evidence_complete else None)
        elif scorer == "logistic" and model is not None:
            out.append(model.probability(i))
        else:
            raise ValueError(unknown("scorer", scorer, SCORERS))
    return out


def answered_at(
    items: Sequence[SelectiveItem], scores: Sequence[float | None], threshold: float | None
) -> RiskCoverageRow:
    """Answer the items whose score is at least ``threshold`` (None: abstain on all)."""
    answered = correct = 0
    for item, score in zip(items, scores, strict=True):
        if threshold is not None and score is not None and score >= threshold:
            answered += 1
            correct += bool(item.correct)
    t = float("inf") if threshold is None else threshold
    return RiskCoverageRow(t, Ratio(answered, len(items)), Ratio(correct, answered))


def coverage_curve(
    items: Sequence[SelectiveItem], scores: Sequence[float | None]
) -> list[RiskCoverageRow]:
    """One row per distinct score, highest first: the whole coverage-accuracy curve.

    Examples:
        >>> items = [SelectiveItem("a", True, True, True, 0.9), SelectiveItem("b", True, False, False, 0.4)]
        >>> [(r.coverage.counts, r.accuracy.counts) for r in coverage_curve(items, [0.9, 0.4])]
        [('1/2', '1/1'), ('2/2', '1/2')]
    """
    ranked = sorted(
        ((s, bool(i.correct)) for i, s in zip(items, scores, strict=True) if s is not None),
        key=lambda p: -p[0],
    )
    rows: list[RiskCoverageRow] = []
    answered = correct = 0
    for k, (score, right) in enumerate(ranked):
        answered += 1
        correct += right
        if k + 1 == len(ranked) or ranked[k + 1][0] != score:
            rows.append(
                RiskCoverageRow(score, Ratio(answered, len(items)), Ratio(correct, answered))
            )
    return rows


def choose_threshold(rows: Sequence[RiskCoverageRow], target: float) -> float | None:
    """The threshold answering most while accuracy on answered is at least ``target``.

    None when no threshold reaches the target (then nothing is answered, accuracy N/A).
    """
    best: RiskCoverageRow | None = None
    for r in rows:
        if r.accuracy.value is not None and r.accuracy.value >= target:
            if best is None or r.coverage.numerator > best.coverage.numerator:
                best = r
    return None if best is None else best.threshold
