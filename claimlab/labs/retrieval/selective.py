"""Selective answering with Sufficient Context, judged on a held-out split and on another data set.

The SIMULATED reader of :func:`claimlab.labs.retrieval.reader_items` answers every question of
a multi-hop file from its BM25 top-k context, with a confidence; the witness core says whether
that context is SUFFICIENT. Three ways to decide when to abstain
(:data:`claimlab.metrics.selective.SCORERS`):

* ``confidence``: the reader's confidence alone;
* ``sufficient-then-confidence``: abstain unless the context is sufficient, then by confidence;
* ``logistic``: a logistic regression of right/wrong on sufficiency and confidence, fitted on
  the calibration split (Joren et al. 2025, Sufficient Context).

The questions of the calibration data set are split in two by a seeded hash of their ids:
the *calibration* half fits the regression and picks, for each way, the threshold that answers
most while accuracy on answered stays at the target; the *held-out* half and the *other* data
set (a domain shift, as in Kamath et al. 2020) are then answered with that threshold, and the
accuracy it promised is compared with the one it gets (the drop). Accuracy on answered is N/A
when nothing is answered.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.retrieval.study import reader_items
from claimlab.metrics.selective import (
    SCORERS,
    Logistic,
    RiskCoverageRow,
    SelectiveItem,
    answered_at,
    choose_threshold,
    coverage_curve,
    fit_logistic,
    selection_scores,
)

SPLITS = ("calibration", "held-out", "shifted")


def split_items(
    items: Sequence[SelectiveItem], *, seed: int = 0
) -> tuple[list[SelectiveItem], list[SelectiveItem]]:
    """(calibration, held-out): each item to one half by a seeded hash of its id, file order kept.

    The split depends on the ids and the seed only, never on the order of the file.
    """
    calibration: list[SelectiveItem] = []
    held_out: list[SelectiveItem] = []
    for item in items:
        digest = hashlib.sha256(f"{seed}\x1f{item.id}".encode()).digest()
        (calibration if digest[0] % 2 == 0 else held_out).append(item)
    return calibration, held_out


@dataclass(frozen=True)
class MethodFigures:
    """One way of abstaining: its threshold (chosen on calibration) and how it does on each split."""

    scorer: str
    threshold: float | None
    at_threshold: Mapping[str, RiskCoverageRow]
    curves: Mapping[str, tuple[RiskCoverageRow, ...]]

    def drop(self, split: str) -> float | None:
        """Calibration accuracy minus the accuracy on ``split``, in points (None when N/A)."""
        a = self.at_threshold["calibration"].accuracy.value
        b = self.at_threshold[split].accuracy.value if split in self.at_threshold else None
        return None if a is None or b is None else round(100 * (a - b), 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "scorer": self.scorer,
            "threshold": self.threshold,
            "at_threshold": {k: r.to_dict() for k, r in self.at_threshold.items()},
            "drop_points": {k: self.drop(k) for k in self.at_threshold if k != "calibration"},
            "curves": {k: [r.to_dict() for r in rows] for k, rows in self.curves.items()},
        }


@dataclass(frozen=True)
class SufficientContextStudy:
    """The three ways of abstaining, calibrated on one data set, judged held out and shifted."""

    calibrated_on: str
    shifted_to: str | None
    k: int
    target: float
    sizes: Mapping[str, int]
    model: Logistic
    methods: tuple[MethodFigures, ...]

    def method(self, scorer: str) -> MethodFigures:
        """The figures of one scorer."""
        return next(m for m in self.methods if m.scorer == scorer)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "calibrated_on": self.calibrated_on,
            "shifted_to": self.shifted_to,
            "k": self.k,
            "target_accuracy": self.target,
            "questions": dict(self.sizes),
            "logistic": self.model.to_dict(),
            "methods": [m.to_dict() for m in self.methods],
        }


def _method(
    scorer: str, splits: Mapping[str, list[SelectiveItem]], model: Logistic, target: float
) -> MethodFigures:
    scores = {k: selection_scores(items, scorer, model) for k, items in splits.items()}
    curves = {k: tuple(coverage_curve(splits[k], scores[k])) for k in splits}
    threshold = choose_threshold(curves["calibration"], target)
    return MethodFigures(
        scorer,
        threshold,
        {k: answered_at(splits[k], scores[k], threshold) for k in splits},
        curves,
    )


def sufficient_context_study(
    sources: Mapping[str, SufficiencyFixture],
    calibrate_on: str,
    *,
    k: int = 5,
    target: float = 0.8,
    seed: int = 0,
) -> SufficientContextStudy:
    """Calibrate on half of ``sources[calibrate_on]``; judge on the other half and on the next source.

    The shifted set is the first other source (None when there is only one).

    Raises:
        ValueError: an unknown source, a k below 1, a target outside 0..1, or a calibration
            half without both right and wrong answers.
    """
    if calibrate_on not in sources:
        raise ValueError(f"no source {calibrate_on!r} (have {', '.join(sources) or 'none'})")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if not 0.0 <= target <= 1.0:
        raise ValueError(f"the target accuracy must be within 0..1, got {target}")
    calibration, held_out = split_items(reader_items(sources[calibrate_on], k), seed=seed)
    splits = {"calibration": calibration, "held-out": held_out}
    shifted_to = next((name for name in sources if name != calibrate_on), None)
    if shifted_to is not None:
        splits["shifted"] = reader_items(sources[shifted_to], k)
    model = fit_logistic(calibration)
    return SufficientContextStudy(
        calibrate_on,
        shifted_to,
        k,
        target,
        {name: len(items) for name, items in splits.items()},
        model,
        tuple(_method(s, splits, model, target) for s in SCORERS),
    )


def sufficient_context_studies(
    sources: Mapping[str, SufficiencyFixture], *, k: int = 5, target: float = 0.8, seed: int = 0
) -> dict[str, SufficientContextStudy | str]:
    """Each source calibrated in turn (the next one shifted); a string says why one cannot be.

    A source too small for a calibration half with right and wrong answers gives the reason,
    not an error, so a notebook on a user's tiny file still runs.
    """
    out: dict[str, SufficientContextStudy | str] = {}
    for name in sources:
        try:
            out[name] = sufficient_context_study(sources, name, k=k, target=target, seed=seed)
        except ValueError as exc:
            out[name] = f"{name}: not calibrated: {exc}"
    return out
