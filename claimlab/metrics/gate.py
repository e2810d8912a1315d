"""A release gate: did this run lose a figure against an earlier one, beyond noise and a margin?

Metric card. Both runs' per-answer tables (the ``--out`` of ``claimlab ledger``) are paired by
answer (and by group, when the runs were scored ``--by`` a column); per figure, the difference is
*baseline minus now* on the shared answers (a drop is positive), micro (summed counts) by
default. Its one-sided lower bound at ``level`` is the lower end of the paired bootstrap's
two-sided interval at ``2 * level - 1`` (answers resampled together in both runs; see
:func:`claimlab.metrics.stats.comparisons.paired_comparison`). The verdict is REGRESSED when that
lower bound lies above ``margin``, else PASS. Answers in one run only are counted, never
paired; with fewer than two shared answers (or a figure undefined on one side) the gate cannot
decide and says so: PASS, ``decided`` false, with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from claimlab.core.text import plural
from claimlab.core.vocab import TOY_METRICS
from claimlab.metrics.ledger import RATIO_DEFS
from claimlab.metrics.stats.comparisons import paired_comparison
from claimlab.metrics.stats.resampling import Aggregate

PASS, REGRESSED = "PASS", "REGRESSED"


@dataclass(frozen=True)
class GateRow:
    """One figure's verdict."""

    metric: str
    aggregate: str
    baseline: float | None
    now: float | None
    difference: float | None  # baseline - now: a drop is positive
    low: float | None  # the one-sided lower bound of the drop
    high: float | None  # the two-sided interval's upper end, shown beside it
    margin: float
    verdict: str
    decided: bool
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``gate`` (SPEC section 7)."""
        return {
            "metric": self.metric,
            "aggregate": self.aggregate,
            "baseline": self.baseline,
            "now": self.now,
            "difference": {"value": self.difference, "low": self.low, "high": self.high},
            "margin": self.margin,
            "verdict": self.verdict,
            "decided": self.decided,
            **({"reason": self.reason} if self.reason else {}),
        }


@dataclass(frozen=True)
class Gate:
    """Every gated figure, and how the two runs were paired."""

    rows: tuple[GateRow, ...]
    shared: int
    only_baseline: int
    only_now: int
    level: float
    margin: float

    @property
    def regressed(self) -> bool:
        """Whether any figure is REGRESSED (the command then exits 1)."""
        return any(r.verdict == REGRESSED for r in self.rows)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the rows, and the pairing counts."""
        return {
            "gate": [r.to_dict() for r in self.rows],
            "shared": self.shared,
            "only_baseline": self.only_baseline,
            "only_now": self.only_now,
            "level": self.level,
            "margin": self.margin,
            "regressed": self.regressed,
        }


def _ratio(num: np.ndarray, den: np.ndarray, aggregate: str) -> float | None:
    if aggregate == "micro":
        return float(num.sum() / den.sum()) if den.sum() > 0 else None
    defined = den > 0
    return float((num[defined] / den[defined]).mean()) if defined.any() else None


def _row(
    metric: str,
    base: tuple[np.ndarray, np.ndarray],
    now: tuple[np.ndarray, np.ndarray],
    *,
    aggregate: Aggregate,
    margin: float,
    level: float,
    resamples: int,
    seed: int,
) -> GateRow:
    before, after = _ratio(*base, aggregate), _ratio(*now, aggregate)
    if len(base[0]) < 2 or before is None or after is None:
        reason = (
            f"{plural(len(base[0]), 'shared answer')}: too few to decide (2 or more are needed)"
            if len(base[0]) < 2
            else "the figure is N/A (0/0) in one of the runs"
        )
        diff = None if before is None or after is None else before - after
        return GateRow(
            metric, aggregate, before, after, diff, None, None, margin, PASS, False, reason
        )
    c = paired_comparison(
        base, now, aggregate=aggregate, level=2 * level - 1, resamples=resamples,
        permutations=100, seed=seed, metric=metric,
    )  # fmt: skip
    d = c.difference
    decided = d.low is not None
    verdict = REGRESSED if decided and d.low is not None and d.low > margin else PASS
    return GateRow(
        metric, aggregate, before, after, d.value, d.low, d.high, margin, verdict, decided, c.reason
    )


def release_gate(
    baseline: Any,
    now: Any,
    *,
    keys: Sequence[str] = ("answer_id",),
    metrics: Sequence[str] = TOY_METRICS,
    aggregate: Aggregate = "micro",
    margin: float = 0.0,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Gate:
    """Gate ``now`` against ``baseline`` (pandas per-answer tables with the ledger's counts)."""
    key = list(keys)
    b_all = baseline.drop_duplicates(key).set_index(key)
    n_all = now.drop_duplicates(key).set_index(key)
    shared = b_all.index.intersection(n_all.index, sort=False)
    b, n_ = b_all.loc[shared], n_all.loc[shared]
    rows = []
    for metric in metrics:
        num, den = RATIO_DEFS[metric]
        pair_b = (b[num].to_numpy(np.float64), b[den].to_numpy(np.float64))
        pair_n = (n_[num].to_numpy(np.float64), n_[den].to_numpy(np.float64))
        rows.append(
            _row(
                metric,
                pair_b,
                pair_n,
                aggregate=aggregate,
                margin=margin,
                level=level,
                resamples=resamples,
                seed=seed,
            )  # fmt: skip
        )
    return Gate(
        tuple(rows),
        len(shared),
        len(b_all) - len(shared),
        len(n_all) - len(shared),
        level,
        margin,
    )


def count_columns(metrics: Sequence[str] = TOY_METRICS) -> Mapping[str, tuple[str, str]]:
    """The numerator and denominator columns each gated figure needs in a per-answer table."""
    return {m: RATIO_DEFS[m] for m in metrics}
