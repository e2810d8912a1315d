"""FActScore: factual precision over atomic facts, with the counts it is usually reported without.

Metric card (Min et al., "FActScore: Fine-grained Atomic Evaluation of Factual Precision in Long
Form Text Generation", EMNLP 2023; conventions of the public implementation):
    Per responding response r with facts F_r: s(r) = #supported(F_r) / |F_r| (``init_score``).
    Length penalty (gamma, default 10; 0 turns it off): when 0 < |F_r| < gamma the response's
    score is multiplied by exp(1 - gamma / |F_r|).
    FActScore = mean of the penalised s(r) over responding responses; ``init_score`` = mean of
    the unpenalised ones. Reported beside it: respond ratio (responding / all prompts) and facts
    per responding response (total facts / responding).
    Undefined: a responding response with no fact under the chosen policy has no score (counted
    as undefined, never 0 or 1); with nobody responding FActScore is N/A and the respond ratio
    is 0/N.
    Irrelevant facts (label IR) follow an explicit policy, always reported:
      ``exclude``      IR facts leave the denominator;
      ``unsupported``  IR facts count as not supported;
      ``paper``        as ``unsupported``, and a sentence marked not relevant contributes its
                       model facts as IR (the convention behind the paper's human figures).
    FActScore is precision, not recall: abstaining or answering briefly can raise it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claimlab.core.frozen import freeze
from claimlab.core.ratio import Ratio, macro_mean
from claimlab.core.vocab import (
    FACTSCORE_GAMMA,
    FACTSCORE_GATED,
    FACTSCORE_POLICIES,
    FactscorePolicy,
    unknown,
)
from claimlab.io.factscore import LabelledResponse

Policy = FactscorePolicy
POLICIES: tuple[Policy, ...] = FACTSCORE_POLICIES
DEFAULT_GAMMA = FACTSCORE_GAMMA

if TYPE_CHECKING:  # the gate (and numpy) load when a run is gated
    from claimlab.metrics.gate import GateFigure


def length_penalty(n_facts: int, gamma: int = DEFAULT_GAMMA) -> float:
    """The public implementation's multiplier: exp(1 - gamma / n) when 0 < n < gamma, else 1.

    Examples:
        >>> round(length_penalty(9), 6), length_penalty(10), length_penalty(11), length_penalty(3, 0)
        (0.894839, 1.0, 1.0, 1.0)
        >>> length_penalty(1) == math.exp(-9)
        True
    """
    if gamma < 0:
        raise ValueError(f"gamma must be >= 0, got {gamma}")
    if gamma == 0 or n_facts <= 0 or n_facts >= gamma:
        return 1.0
    return math.exp(1 - gamma / n_facts)


def fact_labels(response: LabelledResponse, policy: Policy) -> list[str] | None:
    """The response's fact labels under ``policy`` as ``S`` / ``NS`` (IR resolved); None if it abstained."""
    if policy not in POLICIES:
        raise ValueError(unknown("irrelevant-fact policy", policy, POLICIES))
    if response.sentences is None:
        return None
    labels: list[str] = []
    for s in response.sentences:
        raw = [label for _, label in s.human_facts or ()]
        if policy == "paper" and not s.relevant and s.human_facts is None:
            raw = ["IR"] * len(s.model_facts)
        for label in raw:
            if label == "IR":
                if policy == "exclude":
                    continue
                labels.append("NS")
            else:
                labels.append(label)
    return labels


@dataclass(frozen=True)
class ResponseScore:
    """One prompt's result: abstained, or supported/facts with the unpenalised and penalised score."""

    topic: str
    category: tuple[str, ...]
    responded: bool
    support: Ratio | None
    penalty: float | None

    @property
    def init_score(self) -> float | None:
        """Supported share, None when abstained or without facts."""
        return None if self.support is None else self.support.value

    @property
    def score(self) -> float | None:
        """The penalised score."""
        v = self.init_score
        return None if v is None else v * (self.penalty or 1.0)


@dataclass(frozen=True)
class FactscoreResult:
    """FActScore with everything needed to read it: policy, gamma, abstention and length."""

    name: str
    policy: Policy
    gamma: int
    factscore: float | None
    init_score: float | None
    respond: Ratio
    scored: int
    undefined: int
    facts: int
    supported: int
    responses: tuple[ResponseScore, ...]

    @property
    def abstentions_as_zero(self) -> float | None:
        """The mean over *every* prompt, an abstention (or a response without facts) as 0.

        Not FActScore, which averages over responses only; reported beside it because a figure
        drawn this way mixes precision with the respond ratio (it is FActScore times the share
        of prompts scored). N/A with no prompt.
        """
        n = self.respond.denominator
        if n == 0:
            return None
        return math.fsum(r.score for r in self.responses if r.score is not None) / n

    @property
    def facts_per_response(self) -> float | None:
        """Mean facts per responding response (None when nobody responded)."""
        return self.facts / self.respond.numerator if self.respond.numerator else None

    @property
    def display(self) -> str:
        """``"42.6 (182 scored; respond 99.5% (182/183); 25.7 facts/response)"``."""
        if self.factscore is None:
            return f"N/A (no scored response; respond {self.respond})"
        fpr = self.facts_per_response
        return (
            f"{100 * self.factscore:.1f} ({self.scored} scored"
            + (f", {self.undefined} without facts" if self.undefined else "")
            + f"; respond {self.respond}; {fpr:.1f} facts/response)"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form (no per-response rows)."""
        return {
            "name": self.name,
            "policy": self.policy,
            "gamma": self.gamma,
            "factscore": self.factscore,
            "init_score": self.init_score,
            "respond_ratio": self.respond.to_dict(),
            "facts_per_response": self.facts_per_response,
            "counts": {
                "prompts": self.respond.denominator,
                "responding": self.respond.numerator,
                "scored": self.scored,
                "responding_without_facts": self.undefined,
                "facts": self.facts,
                "supported": self.supported,
                "micro_precision": Ratio(self.supported, self.facts).to_dict(),
            },
            "display": self.display,
        }


def score_response(
    response: LabelledResponse, *, policy: Policy, gamma: int = DEFAULT_GAMMA
) -> ResponseScore:
    """Score one response under a policy."""
    labels = fact_labels(response, policy)
    if labels is None:
        return ResponseScore(response.topic, response.category, False, None, None)
    n = len(labels)
    support = Ratio(labels.count("S"), n)
    return ResponseScore(response.topic, response.category, True, support, length_penalty(n, gamma))


def aggregate(
    name: str, scores: Sequence[ResponseScore], *, policy: Policy, gamma: int
) -> FactscoreResult:
    """Mean over responding responses with a defined score; counts kept for everything else."""
    responding = [s for s in scores if s.responded]
    defined = [s for s in responding if s.init_score is not None]
    facts = sum(s.support.denominator for s in responding if s.support is not None)
    supported = sum(s.support.numerator for s in responding if s.support is not None)
    scored = [(s.score, s.init_score) for s in defined]
    fs = math.fsum(v for v, _ in scored if v is not None) / len(defined) if defined else None
    init = math.fsum(v for _, v in scored if v is not None) / len(defined) if defined else None
    return FactscoreResult(
        name=name,
        policy=policy,
        gamma=gamma,
        factscore=fs,
        init_score=init,
        respond=Ratio(len(responding), len(scores)),
        scored=len(defined),
        undefined=len(responding) - len(defined),
        facts=facts,
        supported=supported,
        responses=tuple(scores),
    )


def score_factscore(
    responses: Sequence[LabelledResponse],
    *,
    name: str = "",
    policy: Policy,
    gamma: int = DEFAULT_GAMMA,
) -> FactscoreResult:
    """FActScore of labelled responses under an explicit irrelevant-fact policy.

    Examples:
        >>> from claimlab.io.factscore import LabelledResponse, LabelledSentence
        >>> s = LabelledSentence("x", True, ("a", "b"), (("a", "S"), ("b", "NS")))
        >>> r = score_factscore([LabelledResponse(1, "t", (), (s,)), LabelledResponse(2, "u", (), None)],
        ...                    policy="exclude", gamma=0)
        >>> r.factscore, r.respond.display, r.facts_per_response
        (0.5, '50.0% (1/2)', 2.0)
        >>> score_factscore([LabelledResponse(1, "t", (), None)], policy="paper").display
        'N/A (no scored response; respond 0.0% (0/1))'
    """
    scores = [score_response(r, policy=policy, gamma=gamma) for r in responses]
    return aggregate(name, scores, policy=policy, gamma=gamma)


def by_category(
    responses: Sequence[LabelledResponse],
    *,
    policy: Policy,
    gamma: int = DEFAULT_GAMMA,
    level: int = 0,
) -> dict[str, FactscoreResult]:
    """FActScore per value of ``cat[level]`` (entity rarity at level 0), each with its counts."""
    buckets: dict[str, list[LabelledResponse]] = {}
    for r in responses:
        key = r.category[level] if len(r.category) > level else "(none)"
        buckets.setdefault(key, []).append(r)
    return {k: score_factscore(v, name=k, policy=policy, gamma=gamma) for k, v in buckets.items()}


RARITY_ORDER = ("very rare", "rare", "medium", "freq", "very freq")


@dataclass(frozen=True)
class EstimatorCheck:
    """How an estimator compares with human FActScores: error per subject and the ranking."""

    human: Mapping[str, float | None]
    estimated: Mapping[str, float | None]
    error: Mapping[str, float | None]
    human_ranking: tuple[str, ...]
    estimated_ranking: tuple[str, ...]

    def __post_init__(self) -> None:
        freeze(self, "human", "estimated", "error")

    @property
    def ranked(self) -> tuple[str, ...]:
        """The subjects with a FActScore on both sides: the only ones a ranking can order."""
        return tuple(
            k for k in self.human if self.human[k] is not None and self.estimated[k] is not None
        )

    @property
    def ranking_kept(self) -> bool | None:
        """Whether the estimator orders the ranked subjects as the humans do.

        None (N/A, see :attr:`ranking_reason`) with fewer than two ranked subjects: one
        subject, or subjects whose FActScore is N/A, keep no ranking and lose none.
        """
        ranked = set(self.ranked)
        if len(ranked) < 2:
            return None
        human = [k for k in self.human_ranking if k in ranked]
        return human == [k for k in self.estimated_ranking if k in ranked]

    @property
    def ranking_reason(self) -> str:
        """Why :attr:`ranking_kept` is N/A ("" when it is decided)."""
        n = len(self.ranked)
        if n >= 2:
            return ""
        return (
            f"a ranking needs two subjects with a FActScore on both sides, got {n} "
            f"of {len(self.human)}"
        )

    @property
    def ranking_verdict(self) -> str:
        """``"kept"``, ``"NOT kept"`` or ``"N/A: <reason>"``, as printed."""
        kept = self.ranking_kept
        return f"N/A: {self.ranking_reason}" if kept is None else ("kept" if kept else "NOT kept")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "human": dict(self.human),
            "estimated": dict(self.estimated),
            "error_rate": dict(self.error),
            "human_ranking": list(self.human_ranking),
            "estimated_ranking": list(self.estimated_ranking),
            "ranking_kept": self.ranking_kept,
            "ranking_reason": self.ranking_reason,
        }


def check_estimator(
    human: dict[str, FactscoreResult], estimated: dict[str, FactscoreResult]
) -> EstimatorCheck:
    """Error rate |estimated - human| per subject model and whether the ranking is kept.

    Subjects whose FActScore is N/A on either side have error None, are ranked last and are
    left out of ``ranking_kept``, which is N/A (None, with its reason) below two subjects.

    Examples:
        >>> from types import SimpleNamespace as S
        >>> one = check_estimator({"a": S(factscore=0.5)}, {"a": S(factscore=0.0)})
        >>> one.ranking_kept is None, one.ranking_verdict
        (True, 'N/A: a ranking needs two subjects with a FActScore on both sides, got 1 of 1')
    """
    h = {k: v.factscore for k, v in human.items()}
    e = {k: estimated[k].factscore for k in human}
    err: dict[str, float | None] = {}
    for k in human:
        hk, ek = h[k], e[k]
        err[k] = None if hk is None or ek is None else abs(ek - hk)

    def ranking(values: dict[str, float | None]) -> tuple[str, ...]:
        return tuple(sorted(values, key=lambda k: (values[k] is None, -(values[k] or 0.0), k)))

    return EstimatorCheck(h, e, err, ranking(h), ranking(e))


@dataclass(frozen=True)
class ClaimPrecision:
    """Claim-level precision: true / (true + false), with unknown counted apart."""

    true: int
    false: int
    unknown: int
    responses_all_unknown: int
    responses: int
    response_precision: tuple[Ratio, ...]

    @property
    def precision(self) -> Ratio:
        """True among decided claims; N/A when every claim is unknown."""
        return Ratio(self.true, self.true + self.false)

    @property
    def decided(self) -> Ratio:
        """Decided claims among all claims."""
        return Ratio(self.true + self.false, self.true + self.false + self.unknown)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "precision": self.precision.to_dict(),
            "decided": self.decided.to_dict(),
            "counts": {"true": self.true, "false": self.false, "unknown": self.unknown},
            "responses": self.responses,
            "responses_all_unknown": self.responses_all_unknown,
            "macro_precision_over_responses": macro_mean(self.response_precision).to_dict(),
        }


def claim_precision(labels_per_response: Iterable[Sequence[object]]) -> ClaimPrecision:
    """Claim-level precision over responses, each a list of labels True / False / "unknown".

    Examples:
        >>> c = claim_precision([[True, False, "unknown"], ["unknown"]])
        >>> c.precision.display, c.unknown, c.responses_all_unknown
        ('50.0% (1/2)', 2, 1)
        >>> claim_precision([["unknown"]]).precision.display
        'N/A (0/0)'
    """
    t = f = u = all_unknown = n = 0
    per = []
    for labels in labels_per_response:
        n += 1
        rt = sum(1 for x in labels if x is True)
        rf = sum(1 for x in labels if x is False)
        ru = len(labels) - rt - rf
        t, f, u = t + rt, f + rf, u + ru
        all_unknown += rt + rf == 0
        per.append(Ratio(rt, rt + rf))
    return ClaimPrecision(t, f, u, all_unknown, n, tuple(per))


@dataclass(frozen=True)
class PositionBucket:
    """Facts whose relative position in the generation falls in ``[low, high)``."""

    low: float
    high: float
    unsupported: Ratio

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"low": self.low, "high": self.high, "unsupported": self.unsupported.to_dict()}


def error_by_position(
    responses: Sequence[LabelledResponse], *, policy: Policy, buckets: int = 5
) -> tuple[PositionBucket, ...]:
    """The share of unsupported facts by the fact's relative position in its generation.

    Metric card: the facts of a responding response, in order (sentence by sentence, each
    sentence's facts in order), labelled under ``policy``; fact i of n sits at (i + 0.5) / n and
    falls in one of ``buckets`` equal buckets of 0..1. Per bucket: not supported / facts (N/A for
    an empty bucket). The FActScore paper reports that later facts are less often supported.

    Examples:
        >>> from claimlab.io.factscore import LabelledResponse, LabelledSentence
        >>> s = LabelledSentence("x", True, ("a", "b"), (("a", "S"), ("b", "NS")))
        >>> [b.unsupported.counts for b in error_by_position([LabelledResponse(1, "t", (), (s,))], policy="exclude", buckets=2)]
        ['0/1', '1/1']
    """
    if buckets < 1:
        raise ValueError(f"buckets must be at least 1, got {buckets}")
    bad = [0] * buckets
    total = [0] * buckets
    for r in responses:
        labels = fact_labels(r, policy)
        if not labels:
            continue
        n = len(labels)
        for i, lab in enumerate(labels):
            b = min(buckets - 1, int((i + 0.5) / n * buckets))
            total[b] += 1
            bad[b] += lab != "S"
    return tuple(
        PositionBucket(k / buckets, (k + 1) / buckets, Ratio(bad[k], total[k]))
        for k in range(buckets)
    )


@dataclass(frozen=True)
class FactRevisions:
    """The model's atomic facts against the annotators' revised facts, sentence by sentence."""

    sentences: int
    model_facts: int
    human_facts: int
    kept_verbatim: int
    more_after_revision: int  # sentences whose annotators split a fact or added one
    fewer_after_revision: int  # sentences whose annotators merged facts or dropped one
    same_count: int

    @property
    def kept_share(self) -> Ratio:
        """Human facts that are a model fact word for word, of all human facts."""
        return Ratio(self.kept_verbatim, self.human_facts)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "sentences": self.sentences,
            "model_facts": self.model_facts,
            "human_facts": self.human_facts,
            "kept_verbatim": self.kept_share.to_dict(),
            "sentences_more_facts_after_revision": self.more_after_revision,
            "sentences_fewer_facts_after_revision": self.fewer_after_revision,
            "sentences_same_count": self.same_count,
        }


def fact_revisions(responses: Sequence[LabelledResponse]) -> FactRevisions:
    """Compare each sentence's model facts with the human-revised facts of the same sentence.

    Metric card: over sentences that have human facts: facts on each side; human facts equal,
    word for word, to a model fact of the same sentence (``kept_verbatim``, the rest were
    rewritten); and sentences with more human facts (a fact split, or one added), fewer (facts
    merged, or one dropped), or as many. A real decomposition compared with its revision.
    """
    sentences = model = human = kept = more = fewer = same = 0
    for r in responses:
        for s in r.sentences or ():
            if s.human_facts is None:
                continue
            sentences += 1
            texts = {t.strip() for t in s.model_facts}
            model += len(s.model_facts)
            human += len(s.human_facts)
            kept += sum(1 for t, _ in s.human_facts if t.strip() in texts)
            diff = len(s.human_facts) - len(s.model_facts)
            more += diff > 0
            fewer += diff < 0
            same += diff == 0
    return FactRevisions(sentences, model, human, kept, more, fewer, same)


@dataclass(frozen=True)
class RevisionAudit:
    """What a revision did to the sentences an audit labelled (Factcheck-GPT's revisions)."""

    responses: int
    revised: int
    false_sentences: int
    false_kept: int
    clean_sentences: int
    clean_kept: int

    @property
    def false_revised(self) -> Ratio:
        """Sentences with a false claim that the revision no longer holds word for word."""
        return Ratio(self.false_sentences - self.false_kept, self.false_sentences)

    @property
    def clean_kept_share(self) -> Ratio:
        """Sentences without a false claim that the revision keeps word for word."""
        return Ratio(self.clean_kept, self.clean_sentences)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "responses": self.responses,
            "with_a_revision": self.revised,
            "false_sentences_revised": self.false_revised.to_dict(),
            "clean_sentences_kept": self.clean_kept_share.to_dict(),
        }


def revision_audit(responses: Sequence[Any]) -> RevisionAudit:
    """Re-audit revisions: were the sentences with a false claim changed, and the rest kept?

    Metric card: over responses with a revision; a sentence with at least one claim labelled
    false should not survive word for word (``false_revised``); a sentence with claims but none
    false may (``clean_kept``). Sentences whose claims are all unknown, or that have no claim,
    are not counted. A kept sentence is one whose text occurs in the revision as it is.
    """
    resp = revised = false_s = false_k = clean_s = clean_k = 0
    for r in responses:
        resp += 1
        if not r.revised.strip():
            continue
        revised += 1
        for text, labels in r.sentences:
            kept = text.strip() in r.revised
            if any(lab is False for lab in labels):
                false_s += 1
                false_k += kept
            elif any(lab is True for lab in labels):
                clean_s += 1
                clean_k += kept
    return RevisionAudit(resp, revised, false_s, false_k, clean_s, clean_k)


# What the release gate holds of FActScore: each prompt's counts. The length-penalised score is
# no ratio of two counts, so the gate holds its parts: the supported share of facts (micro:
# pooled facts; macro: the mean over responding prompts with facts, which is ``init_score``)
# and the respond ratio.
GATED = FACTSCORE_GATED


def gate_figures(names: Sequence[str] = GATED) -> tuple[GateFigure, ...]:
    """The named figures as gate figures over :func:`per_prompt_table`'s count columns.

    Examples:
        >>> [(f.name, f.numerator) for f in gate_figures()]
        [('support', 'support_numerator'), ('respond_ratio', 'respond_ratio_numerator')]
    """
    for m in names:
        if m not in GATED:
            raise ValueError(unknown("FActScore gate figure", m, GATED))
    from claimlab.metrics.gate import GateFigure

    return tuple(GateFigure(m, f"{m}_numerator", f"{m}_denominator") for m in names)


def per_prompt_table(results: Sequence[FactscoreResult]) -> Any:
    """The per-prompt table ``factscore --out`` writes: one row per subject and prompt.

    ``subject`` (the file's name), ``prompt`` (its topic; a topic given again gets its
    occurrence, ``topic (2)``), ``support_numerator``/``support_denominator`` (supported facts
    of its facts; 0/0 when it abstained or has none), ``respond_ratio_numerator`` (1 when it
    responded) of ``respond_ratio_denominator`` (1), and ``init_score``, ``score``,
    ``penalty`` (empty where N/A).
    """
    import pandas as pd

    rows = []
    for r in results:
        seen: dict[str, int] = {}
        for s in r.responses:
            seen[s.topic] = seen.get(s.topic, 0) + 1
            prompt = s.topic if seen[s.topic] == 1 else f"{s.topic} ({seen[s.topic]})"
            sup = s.support or Ratio(0, 0)
            rows.append({"subject": r.name, "prompt": prompt,
                         "support_numerator": sup.numerator, "support_denominator": sup.denominator,
                         "respond_ratio_numerator": int(s.responded), "respond_ratio_denominator": 1,
                         "init_score": s.init_score, "score": s.score, "penalty": s.penalty})  # fmt: skip
    columns = ["subject", "prompt", "support_numerator", "support_denominator",
               "respond_ratio_numerator", "respond_ratio_denominator", "init_score", "score",
               "penalty"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)
