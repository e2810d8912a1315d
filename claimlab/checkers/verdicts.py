"""What a checker reads and answers: an item, a verdict, and RAGChecker's names for the labels.

An item is one claim with the evidence passages it is checked against (``repeat`` counts the
times the same item is asked again, so a checker that samples can tell the asks apart). A
verdict is a label (``SUPPORTED``, ``CONTRADICTED``, ``NOT_IN_REFERENCE``), the checker's
probability when it gives one, and the passages it used (0-based positions in the item's
passages). RAGChecker's labels map one to one: Entailment, Contradiction, Neutral.

An answer a checker returns is read by :func:`parse_verdict`: a label word (either vocabulary)
or an object ``{"label", "probability"?, "used"?}``. Anything else is refused naming the checker,
the item and the field; nothing of that answer is kept.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import describe
from claimlab.core.vocab import CheckLabel, Status

TO_RAGCHECKER: Mapping[Status, CheckLabel] = {
    Status.SUPPORTED: CheckLabel.ENTAILMENT,
    Status.CONTRADICTED: CheckLabel.CONTRADICTION,
    Status.NOT_IN_REFERENCE: CheckLabel.NEUTRAL,
}
FROM_RAGCHECKER: Mapping[CheckLabel, Status] = {v: k for k, v in TO_RAGCHECKER.items()}
_WORDS = {s.value: s for s in Status} | {c.value: FROM_RAGCHECKER[c] for c in CheckLabel}


class CheckerAnswerError(ClaimlabInputError):
    """A checker answered something that is not a verdict (named: checker, item, field)."""


class CheckerFailed(ClaimlabInputError):
    """The checker the user named failed: it raised, or gave no answer after every retry.

    One line, exit 2, naming the checker and the item (or the batch's items) it was asked.
    """


def items_named(ids: Sequence[str]) -> str:
    """The record part of a message about a batch: ``item a``, or ``items a..c (3)``.

    Examples:
        >>> items_named(["a"]), items_named(["a", "b", "c"])
        ('item a', 'items a..c (3)')
    """
    return f"item {ids[0]}" if len(ids) == 1 else f"items {ids[0]}..{ids[-1]} ({len(ids)})"


class CheckerUnavailable(Exception):
    """A call that may succeed when tried again: a timeout, a refused connection, a 5xx."""


@dataclass(frozen=True)
class Item:
    """One claim to check against its evidence passages."""

    id: str
    claim: str
    passages: tuple[str, ...]
    repeat: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON line a ``command:`` checker reads."""
        return {
            "id": self.id,
            "claim": self.claim,
            "passages": list(self.passages),
            "repeat": self.repeat,
        }


@dataclass(frozen=True)
class Verdict:
    """A checker's label for one item, its probability (None when not given), passages used."""

    label: Status
    probability: float | None = None
    used: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the label as its word)."""
        return {"label": self.label.value, "probability": self.probability, "used": list(self.used)}


def to_ragchecker(label: Status) -> CheckLabel:
    """RAGChecker's label for a claimlab label.

    Examples:
        >>> to_ragchecker(Status.NOT_IN_REFERENCE).value
        'Neutral'
    """
    return TO_RAGCHECKER[label]


def from_ragchecker(label: CheckLabel) -> Status:
    """Claimlab's label for a RAGChecker label.

    Examples:
        >>> from_ragchecker(CheckLabel.ENTAILMENT).value
        'SUPPORTED'
    """
    return FROM_RAGCHECKER[label]


def _probability(answer: Mapping[str, Any], fail: Any) -> float | None:
    p = answer.get("probability")
    if p is None:
        return None
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1 or math.isnan(p):
        raise fail(f"a probability is a number from 0 to 1, got {describe(p)}", "probability")
    return float(p)


def _used(answer: Mapping[str, Any], passages: int, fail: Any) -> tuple[int, ...]:
    used = answer.get("used", [])
    if not isinstance(used, list) or not all(
        isinstance(u, int) and not isinstance(u, bool) and 0 <= u < passages for u in used
    ):
        raise fail(f"used lists passage positions 0..{passages - 1}, got {describe(used)}", "used")
    return tuple(used)


def parse_verdict(answer: object, item: Item, checker: str) -> Verdict:
    """A checker's answer for ``item`` as a verdict, or the error naming checker, item, field.

    Examples:
        >>> item = Item("c1", "Paris is in France.", ("Paris is in France.",))
        >>> parse_verdict({"label": "Entailment", "used": [0]}, item, "demo").label.value
        'SUPPORTED'
        >>> parse_verdict("maybe", item, "demo")
        Traceback (most recent call last):
        ...
        claimlab.checkers.verdicts.CheckerAnswerError: checker demo: item c1: label: unknown label 'maybe' (one of SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE, Entailment, Neutral, Contradiction)
    """
    if isinstance(answer, Verdict):
        return answer

    def fail(problem: str, field: str) -> CheckerAnswerError:
        return CheckerAnswerError(
            problem, file=f"checker {checker}", record=f"item {item.id}", field=field
        )

    body = {"label": answer} if isinstance(answer, str) else answer
    if not isinstance(body, Mapping):
        raise fail(f"an answer is a label or an object, got {type(answer).__name__}", "label")
    word = body.get("label")
    if word is None:
        raise fail("no label given", "label")
    label = _WORDS.get(word) if isinstance(word, str) else None
    if label is None:
        raise fail(f"unknown label {describe(word)} (one of {', '.join(_WORDS)})", "label")
    return Verdict(label, _probability(body, fail), _used(body, len(item.passages), fail))
