"""FActScore's uncertainty and prediction-powered studies for notebook 04."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claimlab.core.frozen import freeze
from claimlab.labs.factscore.simulations import AutoraterCounts

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from claimlab.io.factscore import LabelledResponse
    from claimlab.metrics.factscore import FactRevisions, FactscoreResult, PositionBucket
    from claimlab.metrics.stats.prediction_powered import PredictionPowered


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
    ranking: Any  # a Ranking, None without a pair to compare

    def __post_init__(self) -> None:
        freeze(self, "per_claim", "clustered")


def uncertainty_study(
    results: dict[str, FactscoreResult],
    *,
    pair: tuple[str, str] | None = None,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> UncertaintyStudy:
    """Per-claim, clustered and paired uncertainty of FActScore results (subject -> result).

    ``pair`` names the two subjects to compare (default: the first two, in name order).
    """
    from claimlab.metrics.stats.comparisons import unpaired_difference
    from claimlab.metrics.stats.intervals import wilson
    from claimlab.metrics.uncertainty import (
        aligned_parts,
        factscore_comparisons,
        factscore_intervals,
        factscore_ranking,
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
    ranking = None
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


def _support_counts(result: FactscoreResult) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each response's supported facts and scored facts (0 and 0 where it has none)."""
    import numpy as np

    n = np.array([r.support.numerator if r.support else 0 for r in result.responses], float)
    d = np.array([r.support.denominator if r.support else 0 for r in result.responses], float)
    return n, d


def _tally(
    p: PredictionPowered,
    truth: float | None,
    covered: dict[str, int],
    widths: dict[str, list[float]],
) -> None:
    """Count whether each estimate's interval covers the truth, and keep its width."""
    for name, est in (("ppi", p.ppi), ("naive", p.naive), ("human", p.human)):
        if est.low is not None and est.high is not None and truth is not None:
            covered[name] += est.low <= truth <= est.high
            widths[name].append(est.high - est.low)


def ppi_study(
    responses: list[LabelledResponse],
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

    from claimlab.metrics.factscore import score_factscore
    from claimlab.metrics.stats.prediction_powered import prediction_powered

    human = score_factscore(responses, policy=policy, gamma=0)  # type: ignore[arg-type]
    hc = _support_counts(human)
    labelled = min(labelled, len(responses) // 2)
    if human.scored < 8 or labelled < 4:
        return None
    covered = {"ppi": 0, "naive": 0, "human": 0}
    widths: dict[str, list[float]] = {k: [] for k in covered}
    example = None
    autorater = AutoraterCounts(responses, policy=policy)
    for k in range(runs):
        # the counts score_factscore gives on simulate_autorater(..., seed=seed + k), drawn fast
        auto = autorater.counts(optimism=optimism, pessimism=pessimism, seed=seed + k)
        rng = np.random.default_rng(seed + k)
        mask = np.zeros(len(responses), dtype=bool)
        mask[rng.choice(len(responses), size=min(labelled, len(responses)), replace=False)] = True
        try:
            p = prediction_powered(auto, hc, mask, figure="init_score", level=level)
        except ValueError:  # this draw left fewer than two scored responses on a side
            continue
        example = example or p
        _tally(p, human.init_score, covered, widths)
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


def uncertainty_record(study: UncertaintyStudy) -> dict[str, Any]:
    """What notebook 04 records of the uncertainty study (comparisons, ranking, intervals)."""
    return {
        "comparisons": [c.to_dict() for c in study.comparisons],
        "unpaired": study.unpaired.to_dict(),
        "ranking": study.ranking.to_dict() if study.ranking else {},
        "clustered": {
            n: {f: (iv.to_dict() if iv else None) for f, iv in v.items()}
            for n, v in study.clustered.items()
        },
        "per_claim": {n: (iv.to_dict() if iv else None) for n, iv in study.per_claim.items()},
    }


def ppi_record(ppi: PPIStudy) -> dict[str, Any]:
    """What notebook 04 records of the prediction-powered study."""
    return {
        "truth": ppi.truth,
        "covered": ppi.covered,
        "runs": ppi.runs,
        "mean_width": ppi.mean_width,
        "example": ppi.example.to_dict() if ppi.example is not None else None,
    }


def rarity_gap_record(rarity: Mapping[str, Mapping[str, FactscoreResult]]) -> dict[str, Any]:
    """Per subject and rarity bucket: FActScore, abstentions counted as 0, the respond ratio."""
    return {
        name: {
            b: {
                "factscore": r.factscore,
                "abstentions_as_zero": r.abstentions_as_zero,
                "respond": r.respond.to_dict(),
            }
            for b, r in buckets.items()
        }
        for name, buckets in rarity.items()
    }


def position_record(
    positions: Mapping[str, Sequence[PositionBucket]], revisions: Mapping[str, FactRevisions]
) -> dict[str, Any]:
    """Unsupported facts by position and the annotators' revisions, per subject."""
    return {
        "error_by_position": {n: [b.to_dict() for b in v] for n, v in positions.items()},
        "fact_revisions": {n: r.to_dict() for n, r in revisions.items()},
    }
