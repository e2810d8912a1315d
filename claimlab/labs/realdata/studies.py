"""FEVER and WiCE run through the metrics for notebook 03.

Each study is skipped with a message when its data is absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimlab.core.frozen import freeze
from claimlab.io import fever as fever_io
from claimlab.io import wice as wice_io
from claimlab.io.locate import find_data
from claimlab.labs.teaching import data_message
from claimlab.metrics import fever, wice


@dataclass(frozen=True)
class FeverStudy:
    """FEVER gold + predictions scored with the official conventions, and what lies behind them."""

    gold_path: Path
    predictions_path: Path
    limit: int
    pairs: tuple[Any, ...]
    result: fever.FeverResult
    sweep: Mapping[int, Any]
    group_sizes: Mapping[int, int]
    alternatives: Mapping[int, int]
    missing: Mapping[int, int]
    near_misses: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        freeze(self, "sweep", "group_sizes", "alternatives", "missing")

    def to_dict(self) -> dict[str, Any]:
        """JSON form (no per-claim rows)."""
        return {
            "gold": str(self.gold_path),
            "predictions": str(self.predictions_path),
            "limit": self.limit,
            **self.result.to_dict(),
            "sweep_max_evidence": {
                str(k): {
                    "strict_score": r.strict_score,
                    "recall": r.recall.to_dict(),
                    "precision": r.precision,
                }
                for k, r in self.sweep.items()
            },
            "group_sizes": {str(k): v for k, v in self.group_sizes.items()},
            "alternatives_per_claim": {str(k): v for k, v in self.alternatives.items()},
            "fewest_missing": {str(k): v for k, v in self.missing.items()},
        }


def study_fever(
    gold: str, predictions: str, *, limit: int = 0, max_evidence: int = 5
) -> FeverStudy | str:
    """Score FEVER predictions (the first ``limit`` claims, 0 = all); a message string when absent."""
    gp, pp = find_data(gold), find_data(predictions)
    if gp is None:
        return data_message("FEVER gold", gold)
    if pp is None:
        return data_message("FEVER predictions", predictions)
    g = fever_io.load_gold(gp)
    p = fever_io.load_predictions(pp)
    if limit:
        p = p[:limit]
        ids = {x.id for x in p}
        g = [x for x in g if x.id in ids]
    pairs = tuple(fever_io.pair_by_id(g, p, gold_file=str(gp), pred_file=str(pp)))
    result = fever.score_fever(pairs, max_evidence=max_evidence)
    return FeverStudy(
        gold_path=gp,
        predictions_path=pp,
        limit=limit,
        pairs=pairs,
        result=result,
        sweep=fever.sweep_max_evidence(pairs, [1, 2, 3, 4, 5]),
        group_sizes=fever.group_size_counts(g),
        alternatives=fever.alternatives_counts(g),
        missing=fever.missing_premise_counts(result),
        near_misses=tuple(fever.near_misses(result, pairs, limit=5)),
    )


@dataclass(frozen=True)
class WiceStudy:
    """WiCE claims: labels, alternative supporting sets, and lead-k sufficiency."""

    path: Path
    claims: tuple[Any, ...]
    labels: Mapping[str, int]
    empty_groups: int
    empty_group_claims: Mapping[str, int]
    set_sizes: Mapping[int, int]
    alternatives: Mapping[int, int]
    lead_k: Mapping[Any, Any]

    def __post_init__(self) -> None:
        freeze(self, "labels", "empty_group_claims", "set_sizes", "alternatives", "lead_k")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "file": str(self.path),
            "claims": len(self.claims),
            "labels": dict(self.labels),
            "empty_supporting_sets_dropped": self.empty_groups,
            "empty_set_claims_by_label": dict(self.empty_group_claims),
            "set_sizes": {str(k): v for k, v in self.set_sizes.items()},
            "alternatives_per_claim": {str(k): v for k, v in self.alternatives.items()},
            "lead_k": dict(self.lead_k),
        }


def study_wice(path: str) -> WiceStudy | str:
    """Load WiCE (empty supporting sets dropped and counted); a message string when absent."""
    wp = find_data(path)
    if wp is None:
        return data_message("WiCE", path)
    claims = wice_io.load_wice(wp, empty_groups="drop")
    labels: dict[str, int] = {}
    empty_by_label: dict[str, int] = {}
    alts: dict[int, int] = {}
    for c in claims:
        labels[c.label] = labels.get(c.label, 0) + 1
        if c.empty_groups:
            empty_by_label[c.label] = empty_by_label.get(c.label, 0) + 1
        alts[len(c.alternatives)] = alts.get(len(c.alternatives), 0) + 1
    return WiceStudy(
        path=wp,
        claims=tuple(claims),
        labels=labels,
        empty_groups=sum(c.empty_groups for c in claims),
        empty_group_claims=empty_by_label,
        set_sizes=wice.set_size_counts(claims),
        alternatives=dict(sorted(alts.items())),
        lead_k=wice.lead_k_status(claims, [5, 10, 20, None]),
    )
