"""A real offline estimator of FActScore: a lexical checker that needs no model, and its report.

The checker (an autorater, not a metric): for each atomic fact of a response, the passages of the
response's topic are ranked by Okapi BM25 against the fact; the fact is judged supported (S)
when at least ``threshold`` of its content words (lower-cased words, a short English stop list
left out) occur in the ``top`` best passages, else not supported (NS). Facts people marked
irrelevant (IR) stay IR: the checker judges support, not relevance. It judges the same facts the
people labelled, so its error is the judge's alone.

Passages: a file of ``{"topic", "text"}`` lines (``--knowledge``: e.g. the subjects' Wikipedia
paragraphs, as FActScore retrieves them). Without one, a stand-in pooled from the data itself:
for each topic, the facts of the *other* systems' responses that people found supported (never
the judged system's own). It is no Wikipedia: a fact no other system stated, true or not, finds
no support there, so a system that says more than the others is underestimated.

The report (:func:`estimator_report`): per system the people's FActScore and the estimate,
their difference (the paper's error rate, ER), whether the systems keep their ranking, the
fact-level agreement with the people, and a prediction-powered FActScore (without the length
penalty: the mean over responses of their share of supported facts) that corrects the checker
with the people's labels of a seeded share of responses (Angelopoulos et al., 2023). A checker's
own labels, in FActScore's labelled format, go in the same place (``auto``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.checkers.lexical import LexicalChecker, Ranked, supported
from claimlab.checkers.lexical import content_words as content_words  # the one definition
from claimlab.checkers.people import AgainstPeople, against_people
from claimlab.checkers.verdicts import Item
from claimlab.core.errors import ClaimlabInputError
from claimlab.core.frozen import freeze
from claimlab.core.ratio import Ratio
from claimlab.core.vocab import Status
from claimlab.io.factscore import LabelledResponse, relabelled
from claimlab.metrics.factscore import (
    EstimatorCheck,
    FactscoreResult,
    Policy,
    check_estimator,
    fact_labels,
    score_factscore,
)
from claimlab.metrics.stats.prediction_powered import (
    PredictionPowered,
    is_labelled,
    prediction_powered,
)


class TopicIndex:
    """The passages of every topic, each ranked by BM25 on demand (built once per topic)."""

    def __init__(self, passages: Mapping[str, Sequence[str]]) -> None:
        self.passages = {t: tuple(p) for t, p in passages.items()}
        self._built: dict[str, Ranked] = {}

    def without_passages(self, topics: Sequence[str]) -> list[str]:
        """The topics (of those given) with no passage holding a content word to check against."""
        return [t for t in topics if not any(content_words(p) for p in self.passages.get(t, ()))]

    def best(self, topic: str, text: str, top: int) -> list[set[str]]:
        """The content words of the ``top`` passages of ``topic`` best for ``text``."""
        if topic not in self._built:
            self._built[topic] = Ranked(self.passages.get(topic) or ())
        ranked = self._built[topic]
        return [ranked.sets[i] for i in ranked.best(text, top)]


def judge(fact: str, best: Sequence[set[str]], threshold: float) -> str:
    """S when at least ``threshold`` of the fact's content words are in the best passages."""
    return "S" if supported(fact, best, threshold) else "NS"


def fact_items(
    name: str, responses: Sequence[LabelledResponse], passages: Mapping[str, Sequence[str]]
) -> list[Item]:
    """Every fact people labelled S or NS as an item: ``NAME:LINE:SENTENCE:FACT``, topic's passages.

    The order is the order :func:`relabel_from` reads the labels back in.
    """
    shared = {t: tuple(p) for t, p in passages.items()}
    items = []
    for r in responses:
        for si, s in enumerate(r.sentences or ()):
            for fi, (fact, label) in enumerate(s.human_facts or ()):
                if label != "IR":
                    ref = f"{name}:{r.line}:{si}:{fi}"
                    items.append(Item(ref, fact, shared.get(r.topic, ())))
    return items


def relabel_from(
    responses: Sequence[LabelledResponse], labels: Sequence[Status]
) -> list[LabelledResponse]:
    """The responses with the S/NS facts labelled, in :func:`fact_items`' order (IR kept).

    SUPPORTED is S; CONTRADICTED and NOT_IN_REFERENCE are NS.
    """
    left = iter(labels)

    def check(topic: str, fact: str, label: str) -> str:
        return label if label == "IR" else ("S" if next(left) is Status.SUPPORTED else "NS")

    return relabelled(responses, check)


def relabel(
    responses: Sequence[LabelledResponse], index: TopicIndex, *, threshold: float, top: int
) -> list[LabelledResponse]:
    """The responses with every S/NS fact label replaced by the lexical checker's (IR kept)."""
    checker = LexicalChecker(threshold=threshold, top=top)
    items = fact_items("", responses, index.passages)
    return relabel_from(responses, [checker.one(i).label for i in items])


def pooled_passages(
    subjects: Mapping[str, Sequence[LabelledResponse]], leave_out: str
) -> dict[str, list[str]]:
    """Per topic, the facts of the other systems' responses that people found supported."""
    out: dict[str, list[str]] = {}
    for name, responses in subjects.items():
        if name == leave_out:
            continue
        for r in responses:
            for s in r.sentences or ():
                out.setdefault(r.topic, []).extend(
                    text for text, label in s.human_facts or () if label == "S"
                )
    return out


def checked_labels(
    human: Mapping[str, Sequence[LabelledResponse]],
    knowledge: Mapping[str, Sequence[str]] | None,
    *,
    retrieve: int | None = None,
) -> tuple[list[Item], Callable[[Sequence[Status]], dict[str, list[LabelledResponse]]]]:
    """Every system's S/NS facts as items, and how to turn their labels back into files.

    The passages are ``knowledge`` or, per system, the pooled ones (:func:`pooled_passages`);
    with ``retrieve``, only that many of them, the best by BM25 for the fact, in rank order
    (as FActScore retrieves before it asks a model; the lexical checker ranks them itself).
    """
    items: list[Item] = []
    spans = []
    for name, responses in human.items():
        passages = knowledge if knowledge is not None else pooled_passages(human, name)
        found = fact_items(name, responses, passages)
        if retrieve is not None:
            found = retrieved(found, retrieve)
        spans.append((name, len(items), len(items) + len(found)))
        items.extend(found)

    def back(labels: Sequence[Status]) -> dict[str, list[LabelledResponse]]:
        return {n: relabel_from(human[n], labels[lo:hi]) for n, lo, hi in spans}

    return items, back


def retrieved(items: Sequence[Item], top: int) -> list[Item]:
    """Each item with only its ``top`` passages best by BM25 for its claim, best first."""
    ranked: dict[tuple[str, ...], Ranked] = {}
    out = []
    for item in items:
        if item.passages not in ranked:
            ranked[item.passages] = Ranked(item.passages)
        index = ranked[item.passages]
        best = tuple(item.passages[i] for i in index.best(item.claim, top))
        out.append(Item(item.id, item.claim, best, item.repeat))
    return out


@dataclass(frozen=True)
class SystemEstimate:
    """One system: the people's FActScore, the checker's, their agreement and the correction."""

    name: str
    human: FactscoreResult
    estimated: FactscoreResult
    agreement: Ratio  # facts (S or NS to the people) on which the checker agrees with them
    ppi: PredictionPowered | None
    ppi_reason: str = ""
    people: AgainstPeople | None = None  # kappa and the confusion table on the same facts

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "name": self.name,
            "human": self.human.factscore,
            "estimated": self.estimated.factscore,
            "human_without_length_penalty": self.human.init_score,
            "estimated_without_length_penalty": self.estimated.init_score,
            "error_rate_points": None
            if self.human.factscore is None or self.estimated.factscore is None
            else round(100 * (self.estimated.factscore - self.human.factscore), 2),
            "fact_agreement": self.agreement.to_dict(),
            "against_people": None if self.people is None else self.people.to_dict(),
            "prediction_powered": None if self.ppi is None else self.ppi.to_dict(),
            "prediction_powered_reason": self.ppi_reason,
        }


@dataclass(frozen=True)
class EstimatorReport:
    """Every system's estimate, the ranking check, and how the checker was run."""

    systems: tuple[SystemEstimate, ...]
    check: EstimatorCheck
    checker: Mapping[str, Any]

    def __post_init__(self) -> None:
        freeze(self, "checker")

    def to_dict(self) -> dict[str, Any]:
        """JSON form of ``claimlab fact-estimate --json``."""
        return {
            "checker": dict(self.checker),
            "systems": [s.to_dict() for s in self.systems],
            "ranking": self.check.to_dict(),
        }


def _fact_pairs(
    human: Sequence[LabelledResponse], auto: Sequence[LabelledResponse]
) -> list[tuple[str, str]]:
    """(people's label, checker's label) of every fact the people labelled S or NS."""
    out = []
    for h, a in zip(human, auto, strict=True):
        for hs, as_ in zip(h.sentences or (), a.sentences or (), strict=True):
            for (_, hl), (_, al) in zip(hs.human_facts or (), as_.human_facts or (), strict=True):
                if hl != "IR":
                    out.append((hl, al))
    return out


def _counts(responses: Sequence[LabelledResponse], policy: Policy) -> list[tuple[int, int] | None]:
    out: list[tuple[int, int] | None] = []
    for r in responses:
        labels = fact_labels(r, policy)
        out.append(None if labels is None else (labels.count("S"), len(labels)))
    return out


def _ppi(
    human: Sequence[LabelledResponse],
    auto: Sequence[LabelledResponse],
    *,
    policy: Policy,
    share: float,
    seed: int,
    level: float,
) -> tuple[PredictionPowered | None, str]:
    """FActScore without the length penalty, prediction-powered; None with the reason."""
    rows = [
        (h, a, is_labelled(r.topic, share, seed))
        for h, a, r in zip(_counts(human, policy), _counts(auto, policy), human, strict=True)
        if h is not None and a is not None
    ]
    try:
        result = prediction_powered(
            ([a[0] for _, a, _ in rows], [a[1] for _, a, _ in rows]),
            ([h[0] for h, _, _ in rows], [h[1] for h, _, _ in rows]),
            [lab for _, _, lab in rows],
            figure="factscore_without_length_penalty",
            aggregate="macro",
            level=level,
        )
    except ValueError as err:  # fewer than two responses labelled, or unlabelled
        return None, str(err)
    return result, ""


def _checked_index(
    name: str,
    responses: Sequence[LabelledResponse],
    passages: Mapping[str, Sequence[str]],
    source: str,
) -> tuple[TopicIndex, int]:
    """The checker's passages for one system and how many of its judged topics have none.

    Raises:
        ClaimlabInputError: when none of the topics it must judge has a passage: every fact
            would be "not supported" for want of anything to read, a zero that says nothing.
    """
    index = TopicIndex(passages)
    judged = sorted(
        {
            r.topic
            for r in responses
            for s in r.sentences or ()
            for _, label in s.human_facts or ()
            if label != "IR"
        }
    )
    bare = index.without_passages(judged)
    if judged and len(bare) == len(judged):
        raise ClaimlabInputError(
            f"the knowledge source ({source}) has no passage on any of its {len(judged)} "
            "topics: nothing to check its facts against (give --knowledge PASSAGES on these "
            "topics, or two systems or more)",
            record=name,
        )
    return index, len(bare)


def estimator_report(
    human: Mapping[str, Sequence[LabelledResponse]],
    auto: Mapping[str, Sequence[LabelledResponse]] | None = None,
    *,
    knowledge: Mapping[str, Sequence[str]] | None = None,
    threshold: float = 0.6,
    top: int = 5,
    policy: Policy = "paper",
    gamma: int = 10,
    share: float = 0.25,
    seed: int = 0,
    level: float = 0.9,
    checker_info: Mapping[str, Any] | None = None,
) -> EstimatorReport:
    """The checker (or the given ``auto`` labels) against the people, system by system.

    ``checker_info`` describes where ``auto`` came from (a checker's identity, cache, calls).
    """
    systems, humans, estimates, bare = [], {}, {}, {}
    source = "given passages" if knowledge is not None else "pooled: other systems' supported facts"
    for name, responses in human.items():
        if auto is not None:
            labelled = list(auto[name])
        else:
            passages = knowledge if knowledge is not None else pooled_passages(human, name)
            index, bare[name] = _checked_index(name, responses, passages, source)
            labelled = relabel(responses, index, threshold=threshold, top=top)
        humans[name] = score_factscore(responses, name=name, policy=policy, gamma=gamma)
        estimates[name] = score_factscore(labelled, name=name, policy=policy, gamma=gamma)
        ppi, reason = _ppi(responses, labelled, policy=policy, share=share, seed=seed, level=level)
        pairs = _fact_pairs(responses, labelled)
        people = against_people([a for _, a in pairs], [h for h, _ in pairs])
        systems.append(
            SystemEstimate(
                name, humans[name], estimates[name], people.agreement, ppi, reason, people
            )
        )
    checker: dict[str, Any] = (
        {"kind": "given labels", **(checker_info or {})}
        if auto is not None
        else {
            "kind": "lexical",
            "knowledge": source,
            "threshold": threshold,
            "top": top,
            "topics_without_passages": bare,
        }
    )
    checker.update(policy=policy, gamma=gamma, labelled_share=share, seed=seed, level=level)
    return EstimatorReport(tuple(systems), check_estimator(humans, estimates), checker)


def offline_report(
    human: Mapping[str, Sequence[LabelledResponse]], *, policy: Policy = "paper", gamma: int = 10
) -> tuple[EstimatorReport | None, str]:
    """The offline checker's report, or ``None`` and why it cannot be made (for a notebook).

    A knowledge source with nothing on a system's topics is refused by ``estimator_report``; a
    notebook on a user's file shows that sentence instead of stopping.
    """
    try:
        return estimator_report(human, policy=policy, gamma=gamma), ""
    except ClaimlabInputError as refused:
        return None, str(refused)
