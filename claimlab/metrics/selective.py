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
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.metrics.sufficiency import find_fixture_sufficiency


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
        result = find_fixture_sufficiency(
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


def find_selective(items: Sequence[SelectiveItem]) -> SelectiveResult:
    """Accuracy on answered questions with answered/total; N/A when nothing is answered.

    Examples:
        >>> r = find_selective([SelectiveItem("question-1", False, None, True)])
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
