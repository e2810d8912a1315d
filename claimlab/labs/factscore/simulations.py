"""SIMULATED subjects, estimators and an autorater for notebook 04: made up, and said so."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from claimlab.io.factscore import LabelledResponse, LabelledSentence, relabelled

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from claimlab.metrics.factscore import EstimatorCheck, FactscoreResult


def simulate_estimator(
    responses: Sequence[LabelledResponse], *, flip_share: float, seed: int = 0
) -> list[LabelledResponse]:
    """A SIMULATED estimator: the human labels with ``flip_share`` of S/NS labels flipped at random.

    IR labels and relevance flags are kept. Deterministic for a given seed. Used to show how an
    estimator's error and ranking are judged, not to stand for any real estimator.
    """
    if not 0.0 <= flip_share <= 1.0:
        raise ValueError(f"flip_share must be within 0..1, got {flip_share}")
    rng = random.Random(seed)

    def flip(label: str) -> str:
        if label in ("S", "NS") and rng.random() < flip_share:
            return {"S": "NS", "NS": "S"}[label]
        return label

    return _relabel(responses, flip)


def _simulated_response(i: int, supported: int, unsupported: int) -> LabelledResponse:
    facts = tuple(
        (f"simulated fact {k}", "S" if k < supported else "NS")
        for k in range(supported + unsupported)
    )
    sentence = LabelledSentence("(simulated sentence)", True, tuple(t for t, _ in facts), facts)
    return LabelledResponse(i, f"simulated prompt {i}", ("simulated",), (sentence,))


def simulated_subjects(prompts: int = 10) -> dict[str, list[LabelledResponse]]:
    """SIMULATED subjects that show what FActScore hides (precision, not recall).

    * ``thorough``: answers every prompt with 30 facts, 21 supported (70 %).
    * ``brief``: answers every prompt with 4 facts, all supported.
    * ``abstainer``: answers 2 of the prompts with 12 facts, all supported; abstains on the rest.
    * ``silent``: answers nothing (FActScore N/A, respond 0/N).
    """
    return {
        "thorough": [_simulated_response(i, 21, 9) for i in range(prompts)],
        "brief": [_simulated_response(i, 4, 0) for i in range(prompts)],
        "abstainer": [
            _simulated_response(i, 12, 0)
            if i < 2
            else LabelledResponse(i, f"simulated prompt {i}", ("simulated",), None)
            for i in range(prompts)
        ],
        "silent": [
            LabelledResponse(i, f"simulated prompt {i}", ("simulated",), None)
            for i in range(prompts)
        ],
    }


def simulate_autorater(
    responses: Sequence[LabelledResponse], *, optimism: float, pessimism: float, seed: int = 0
) -> list[LabelledResponse]:
    """A SIMULATED autorater of known bias: NS becomes S with ``optimism``, S becomes NS with ``pessimism``.

    With optimism above pessimism it over-states support, as a lenient autorater does; the
    size of the bias is known, so a bias-correcting estimate can be checked against the
    human figure it should recover. Deterministic for a seed.
    """
    for name, p in (("optimism", optimism), ("pessimism", pessimism)):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{name} must be within 0..1, got {p}")
    rng = random.Random(seed)

    def lean(label: str) -> str:
        if label == "NS" and rng.random() < optimism:
            return "S"
        if label == "S" and rng.random() < pessimism:
            return "NS"
        return label

    return _relabel(responses, lean)


class AutoraterCounts:
    """The per-response (supported, facts) a SIMULATED autorater gives, many seeds, fast.

    The same draws as :func:`simulate_autorater` (one ``random.Random(seed).random()`` per S or
    NS human fact, in file order), so the counts equal those of ``score_factscore`` on its
    relabelled responses, without building them: the facts' labels are read once, each seed
    only draws and counts.
    """

    def __init__(self, responses: Sequence[LabelledResponse], *, policy: str) -> None:
        from claimlab.metrics.factscore import fact_labels

        codes: list[int] = []  # 0: S, 1: NS (each draws once); IR draws nothing
        owner: list[int] = []
        facts = np.zeros(len(responses))
        for i, r in enumerate(responses):
            labels = fact_labels(r, policy)  # type: ignore[arg-type]
            if labels is None:
                continue
            facts[i] = len(labels)
            for sent in r.sentences or ():
                for _, label in sent.human_facts or ():
                    if label in ("S", "NS"):
                        codes.append(0 if label == "S" else 1)
                        owner.append(i)
        self.codes = np.array(codes, dtype=np.int8)
        self.owner = np.array(owner, dtype=np.int64)
        self.facts = facts
        self.n = len(responses)

    def counts(
        self, *, optimism: float, pessimism: float, seed: int
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(supported, facts) per response for this seed, as float arrays."""
        rng = random.Random(seed)
        draws = np.fromiter((rng.random() for _ in range(len(self.codes))), float, len(self.codes))
        supported = np.where(self.codes == 0, draws >= pessimism, draws < optimism)
        # every S under any policy is a human fact's (an IR fact or sentence counts as NS)
        n = np.bincount(self.owner[supported], minlength=self.n).astype(float)
        return n, self.facts.copy()


def _relabel(
    responses: Sequence[LabelledResponse], change: Callable[[str], str]
) -> list[LabelledResponse]:
    """The responses with every human fact label passed through ``change`` (in order)."""
    return relabelled(responses, lambda _topic, _fact, label: change(label))


def estimator_checks(
    chosen: Mapping[str, FactscoreResult],
    subjects: Mapping[str, Sequence[LabelledResponse]],
    *,
    policy: str,
    gamma: int,
    shares: Sequence[float] = (0.05, 0.2, 0.4),
) -> dict[float, EstimatorCheck]:
    """For each share of flipped labels, a SIMULATED estimator checked against the people.

    Each check compares the estimator's FActScores with the human ones (``chosen``): its error
    rate and whether the ranking holds.
    """
    from claimlab.metrics.factscore import check_estimator, score_factscore

    return {
        share: check_estimator(
            dict(chosen),
            {
                name: score_factscore(
                    simulate_estimator(resp, flip_share=share, seed=0),
                    name=name,
                    policy=policy,  # type: ignore[arg-type]
                    gamma=gamma,
                )
                for name, resp in subjects.items()
            },
        )
        for share in shares
    }
