"""Studies on real public data (FEVER, WiCE) through the same witness core as the fixtures.

Each ``study_*`` returns None, with a clear message from :func:`data_message`, when the data is
absent, so notebooks and tests skip instead of failing on a machine without ``../shared/data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimlab.core.frozen import freeze
from claimlab.io import fever as fever_io
from claimlab.io import wice as wice_io
from claimlab.io.locate import default_data_dir, find_data
from claimlab.metrics import fever, wice


def data_message(label: str, value: str) -> str:
    """What to tell the user when a real-data file is absent."""
    folder = default_data_dir()
    where = (
        f"the working directory, the labs folder and {folder}"
        if folder
        else "the working directory and the labs folder"
    )
    return (
        f"{label}: {value!r} not found (looked in {where}); this part is skipped. Pass your own "
        "path as a parameter, or the data folder with 'claimlab run --data DIR' or CLAIMLAB_DATA."
    )


@dataclass(frozen=True)
class FeverStudy:
    """FEVER gold + predictions scored with the official conventions, and what lies behind them."""

    gold_path: Path
    predictions_path: Path
    limit: int
    pairs: tuple
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
    claims: tuple
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


@dataclass(frozen=True)
class UncertaintyStudy:
    """Three ways to state the uncertainty of the same FActScore figures (notebook 04).

    ``per_claim``: each subject's micro precision with a Wilson interval that treats every
    fact as independent (what a per-claim standard error assumes); ``clustered``: the same
    figure and FActScore itself with prompts resampled (facts are nested in responses);
    ``comparison``: one pair of subjects, paired on shared prompts, with the interval an
    unpaired bootstrap would give beside it; ``ranking``: how often the subjects' order holds.
    """

    per_claim: Mapping[str, Any]
    clustered: Mapping[str, Mapping[str, Any]]
    comparisons: tuple[Any, ...]
    unpaired: Any
    pair: tuple[str, str] | None
    ranking: Mapping[str, Any]

    def __post_init__(self) -> None:
        freeze(self, "per_claim", "clustered", "ranking")


def uncertainty_study(
    results: dict[str, Any],
    *,
    pair: tuple[str, str] | None = None,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> UncertaintyStudy:
    """Per-claim, clustered and paired uncertainty of FActScore results (subject -> result).

    ``pair`` names the two subjects to compare (default: the first two, in name order).
    """
    from claimlab.metrics.uncertainty import (
        aligned_parts,
        factscore_comparisons,
        factscore_intervals,
        factscore_ranking,
        unpaired_difference,
        wilson,
    )

    names = sorted(results)
    per_claim = {n: wilson(results[n].supported, results[n].facts, level) for n in names}
    clustered = {
        n: factscore_intervals(results[n], level=level, resamples=resamples, seed=seed)
        for n in names
    }
    if pair is None and len(names) >= 2:
        pair = (names[0], names[1])
    comparisons: list[Any] = []
    unpaired = None
    ranking: dict[str, Any] = {}
    if pair is not None:
        for n in pair:
            if n not in results:
                raise KeyError(f"no subject {n!r} (there are: {', '.join(names)})")
        comparisons = factscore_comparisons(
            results, [pair], level=level, resamples=resamples, permutations=resamples, seed=seed
        )
        _, parts = aligned_parts(results, list(pair))
        unpaired = unpaired_difference(
            parts[pair[0]]["factscore"],
            parts[pair[1]]["factscore"],
            level=level,
            resamples=resamples,
            seed=seed,
        )
        ranking = factscore_ranking(results, resamples=resamples, seed=seed)
    return UncertaintyStudy(per_claim, clustered, tuple(comparisons), unpaired, pair, ranking)


@dataclass(frozen=True)
class PPIStudy:
    """Prediction-powered FActScore on the human annotations with a SIMULATED biased autorater."""

    truth: float | None
    example: Any
    runs: int
    level: float
    covered: Mapping[str, int]
    mean_width: Mapping[str, float]
    labelled: int
    optimism: float
    pessimism: float

    def __post_init__(self) -> None:
        freeze(self, "covered", "mean_width")


def ppi_study(
    responses: list[Any],
    *,
    labelled: int = 100,
    optimism: float = 0.3,
    pessimism: float = 0.05,
    runs: int = 200,
    level: float = 0.9,
    policy: str = "paper",
    seed: int = 0,
) -> PPIStudy | None:
    """How often each estimate's interval covers the human figure, over repeated simulations.

    Each run: a SIMULATED autorater (optimistic: NS read as S with ``optimism``) labels every
    response; people's labels (the real human annotations) are kept for ``labelled`` responses
    drawn at random; the per-response supported share (FActScore's init score, macro) is
    estimated three ways. The truth is the human figure on every response. At most half of
    the responses are labelled; None when there are too few (fewer than four scored responses
    on either side) for an interval.
    """
    import numpy as np

    from claimlab.labs.simulations import AutoraterCounts
    from claimlab.metrics.factscore import find_factscore
    from claimlab.metrics.uncertainty import prediction_powered

    def counts(result: Any) -> tuple[Any, Any]:
        n = np.array([r.support.numerator if r.support else 0 for r in result.responses], float)
        d = np.array([r.support.denominator if r.support else 0 for r in result.responses], float)
        return n, d

    human = find_factscore(responses, policy=policy, gamma=0)  # type: ignore[arg-type]
    hc = counts(human)
    labelled = min(labelled, len(responses) // 2)
    if human.scored < 8 or labelled < 4:
        return None
    covered = {"ppi": 0, "naive": 0, "human": 0}
    widths: dict[str, list[float]] = {k: [] for k in covered}
    example = None
    autorater = AutoraterCounts(responses, policy=policy)
    for k in range(runs):
        # the counts find_factscore gives on simulate_autorater(..., seed=seed + k), drawn fast
        auto = autorater.counts(optimism=optimism, pessimism=pessimism, seed=seed + k)
        rng = np.random.default_rng(seed + k)
        mask = np.zeros(len(responses), dtype=bool)
        mask[rng.choice(len(responses), size=min(labelled, len(responses)), replace=False)] = True
        try:
            p = prediction_powered(auto, hc, mask, figure="init_score", level=level)
        except ValueError:  # this draw left fewer than two scored responses on a side
            continue
        example = example or p
        for name, est in (("ppi", p.ppi), ("naive", p.naive), ("human", p.human)):
            if est.low is not None and est.high is not None and human.init_score is not None:
                covered[name] += est.low <= human.init_score <= est.high
                widths[name].append(est.high - est.low)
    return PPIStudy(
        truth=human.init_score,
        example=example,
        runs=runs,
        level=level,
        covered=covered,
        mean_width={k: float(np.mean(v)) if v else float("nan") for k, v in widths.items()},
        labelled=labelled,
        optimism=optimism,
        pessimism=pessimism,
    )
