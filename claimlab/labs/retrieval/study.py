"""Retrieval depth: how often the top-k documents a ranker picks make a SUFFICIENT context.

For each question, its documents (the ``document`` of its evidence items: a paragraph; the
item itself when none is named) are ranked by BM25 (``rank-bm25``'s Okapi BM25; Robertson et
al.; words lower-cased, letters and digits) against a query, and the context is every evidence
item of the top-k documents. Queries:

* ``question``: the question's text, as a single-shot retriever would send it;
* ``subquestions``: each hop's sub-question (MuSiQue's decomposition) with the earlier hops'
  answers filled in for ``#1``, ``#2`` (as an iterative retriever that answered each earlier
  hop correctly would ask), the top k of each taken together;
* ``oracle``: every premise of the question's first alternative: the ceiling.

The witness core then says SUFFICIENT or INSUFFICIENT and which premise is missing; per hop,
how often that hop's premise is the one missing shows where a similarity ranker loses the
chain (the bridge hop the question never names).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimlab.core.frozen import freeze
from claimlab.core.ratio import Ratio
from claimlab.core.vocab import unknown
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.metrics.sufficiency import score_fixture_sufficiency

if TYPE_CHECKING:
    from claimlab.io.sufficiency import Question
    from claimlab.metrics.selective import SelectiveItem

QUERIES = ("question", "subquestions", "oracle")
_WORD = re.compile(r"\w+", re.UNICODE)
_REF = re.compile(r"#(\d+)")


def tokens(text: str) -> list[str]:
    """Lower-cased words (letters and digits) of a text."""
    return _WORD.findall(text.lower())


@dataclass(frozen=True)
class QuestionDocs:
    """One question's documents: ids in file order, their texts and evidence ids."""

    names: tuple[str, ...]
    texts: tuple[str, ...]
    members: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze(self, "members")

    def context(self, names: Sequence[str]) -> list[str]:
        """The evidence ids of the named documents, document by document."""
        return [eid for d in names for eid in self.members[d]]


def question_documents(fixture: SufficiencyFixture, question: str) -> QuestionDocs:
    """The documents of a question: its topic's evidence grouped by ``document``."""
    q = fixture.question(question)
    order: dict[str, list[str]] = {}
    texts: dict[str, list[str]] = {}
    for e in fixture.evidence:
        if e.topic != q.topic:
            continue
        doc = e.document or e.id
        if doc not in order:
            order[doc] = []
            texts[doc] = [e.subject]
        order[doc].append(e.id)
        texts[doc].append(e.text)
    names = tuple(order)
    return QuestionDocs(
        names, tuple(" ".join(texts[n]) for n in names), {n: tuple(order[n]) for n in names}
    )


def bm25_scored(docs: QuestionDocs, query: str) -> list[tuple[str, float]]:
    """(document, Okapi BM25 score against ``query``), best first (ties: file order)."""
    from rank_bm25 import BM25Okapi

    if not docs.names:
        return []
    bm25 = BM25Okapi([tokens(t) or [""] for t in docs.texts])
    scores = bm25.get_scores(tokens(query))
    order = sorted(range(len(docs.names)), key=lambda i: (-scores[i], i))
    return [(docs.names[i], float(scores[i])) for i in order]


def bm25_ranking(docs: QuestionDocs, query: str) -> list[str]:
    """The documents best first by Okapi BM25 against ``query`` (ties: file order)."""
    return [name for name, _ in bm25_scored(docs, query)]


def _subqueries(fixture: SufficiencyFixture, question: str) -> list[str]:
    q = fixture.question(question)
    if not q.subquestions:
        return [q.text]
    chain = q.alternatives[0]
    answers = []
    for eid in chain:
        item = fixture.item(eid)
        answers.append(item.object if item else "")
    out = []
    for sub in q.subquestions:
        out.append(
            _REF.sub(
                lambda m: (
                    answers[int(m.group(1)) - 1] if int(m.group(1)) <= len(answers) else m.group(0)
                ),
                sub,
            )
        )
    return out


@dataclass(frozen=True)
class DepthRow:
    """One depth k and one query kind: sufficient questions with the count, and per hop missing."""

    k: int
    query: str
    sufficient: Ratio
    missing_by_hop: tuple[int, ...]
    by_kind: Mapping[str, Ratio]
    hops_total: tuple[int, ...] = ()  # questions with at least h + 1 hops

    def __post_init__(self) -> None:
        freeze(self, "by_kind")

    def missing(self, hop: int) -> Ratio:
        """Questions missing hop ``hop``'s premise (1-based), of those that have that hop."""
        return Ratio(self.missing_by_hop[hop - 1], self.hops_total[hop - 1])

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "k": self.k,
            "query": self.query,
            "sufficient": self.sufficient.to_dict(),
            "missing_by_hop": list(self.missing_by_hop),
            "hops_total": list(self.hops_total),
            "by_kind": {k: r.to_dict() for k, r in self.by_kind.items()},
        }


def _context_at(
    name: str, k: int, q: Question, docs: QuestionDocs, rankings: Mapping[str, list[list[str]]]
) -> list[str]:
    """The context a query kind gives at depth k (each paragraph once, in order).

    The oracle's is the first alternative; the others' the top k of each of their rankings.
    """
    if name == "oracle":
        return list(q.alternatives[0])
    chosen: dict[str, None] = {}
    for ranking in rankings[name]:
        for d in ranking[:k]:
            chosen[d] = None
    return list(docs.context(list(chosen)))


def _depth_row(
    fixture: SufficiencyFixture,
    prepared: Sequence[tuple[Question, QuestionDocs, Mapping[str, list[list[str]]]]],
    name: str,
    k: int,
    hops: int,
    totals: tuple[int, ...],
) -> DepthRow:
    """One query kind at one depth: the sufficient share, misses per hop and per question kind."""
    sufficient = 0
    missing = [0] * hops
    kinds: dict[str, list[int]] = {}
    for q, docs, rankings in prepared:
        context = _context_at(name, k, q, docs, rankings)
        ok = score_fixture_sufficiency(fixture, q.name, context).status == "SUFFICIENT"
        sufficient += ok
        tally = kinds.setdefault(q.kind or "all", [0, 0])
        tally[0] += ok
        tally[1] += 1
        present = set(context)
        for h, eid in enumerate(q.alternatives[0]):
            if eid not in present:
                missing[h] += 1
    return DepthRow(
        k=k if name != "oracle" else 0,
        query=name,
        sufficient=Ratio(sufficient, len(prepared)),
        missing_by_hop=tuple(missing),
        by_kind={kind: Ratio(a, b) for kind, (a, b) in sorted(kinds.items())},
        hops_total=totals,
    )


def depth_study(
    fixture: SufficiencyFixture,
    ks: Sequence[int],
    *,
    queries: Sequence[str] = QUERIES,
) -> list[DepthRow]:
    """The sufficient share at each depth k for each query kind (see the module).

    ``missing_by_hop[h]`` counts the questions whose hop-(h+1) premise (the h-th member of the
    first alternative) is not in the context; questions have as many hops as that alternative
    has members.

    Raises:
        ValueError: a k below 1, or an unknown query kind.
    """
    for k in ks:
        if k < 1:
            raise ValueError(f"every k must be at least 1, got {k}")
    for name in queries:
        if name not in QUERIES:
            raise ValueError(unknown("query kind", name, QUERIES))
    prepared = []
    for q in fixture.questions.values():
        docs = question_documents(fixture, q.name)
        rankings = {
            "question": [bm25_ranking(docs, q.text)],
            "subquestions": [bm25_ranking(docs, s) for s in _subqueries(fixture, q.name)],
        }
        prepared.append((q, docs, rankings))
    hops = max((len(q.alternatives[0]) for q, _, _ in prepared), default=0)
    totals = tuple(
        sum(1 for q, _, _ in prepared if len(q.alternatives[0]) > h) for h in range(hops)
    )
    rows = []
    for name in queries:
        for k in ks if name != "oracle" else ks[:1]:
            rows.append(_depth_row(fixture, prepared, name, k, hops, totals))
    return rows


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)


def squad_normalise(text: str) -> str:
    """Lower case, no punctuation, no articles (a, an, the), single spaces (the SQuAD way).

    Examples:
        >>> squad_normalise("The  G. Stanley Hall!")
        'g stanley hall'
    """
    return " ".join(_ARTICLES.sub(" ", _PUNCT.sub(" ", text.lower())).split())


def _contains(text: str, answer: str) -> bool:
    a = squad_normalise(answer)
    return bool(a) and f" {a} " in f" {squad_normalise(text)} "


@dataclass(frozen=True)
class SelectiveDepth:
    """Selective answering at one depth: the reader alone and the reader gated by sufficiency."""

    k: int
    reader: Any  # SelectiveResult
    gated: Any  # SelectiveResult
    risk_coverage: tuple[Any, ...]
    thresholds: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "k": self.k,
            "reader_alone": self.reader.to_dict(),
            "answer_when_sufficient": self.gated.to_dict(),
            "risk_coverage": [r.to_dict() for r in self.risk_coverage],
        }


def reader_items(fixture: SufficiencyFixture, k: int) -> list[SelectiveItem]:
    """A SIMULATED reader over each question's BM25 top-k context, as selective-answering items.

    The reader answers every question from its top-k paragraphs and is right exactly when they
    hold the answer string (or an alias; SQuAD normalisation): an extractive reader that finds
    the answer whenever it is there, so it cannot say yes or no. Its confidence is the share of
    the softmax of the BM25 scores (as logits) that falls on the top k: how much of the
    ranker's belief the reader reads (0..1, no constant chosen by hand). ``evidence_complete``:
    the top-k context holds a complete witness (SUFFICIENT). Questions without documents are
    left out.
    """
    import math

    from claimlab.metrics.selective import SelectiveItem

    out = []
    for q in fixture.questions.values():
        docs = question_documents(fixture, q.name)
        scored = bm25_scored(docs, q.text)
        if not scored:
            continue
        best = scored[0][1]
        weights = [math.exp(score - best) for _, score in scored]
        confidence = sum(weights[:k]) / sum(weights)
        top = [name for name, _ in scored[:k]]
        text = " ".join(docs.texts[docs.names.index(name)] for name in top)
        accepted = fixture.accepted(q.name, q.asks[0]) if q.asks else ()
        correct = any(_contains(text, a) for a in accepted)
        status = score_fixture_sufficiency(fixture, q.name, docs.context(top)).status
        out.append(SelectiveItem(q.name, True, correct, status == "SUFFICIENT", confidence))
    return out


def selective_study(
    fixture: SufficiencyFixture,
    ks: Sequence[int],
    *,
    thresholds: Sequence[float] = (0.0, 0.25, 0.5, 0.75),
) -> list[SelectiveDepth]:
    """The SIMULATED reader (:func:`reader_items`) alone and answering only when SUFFICIENT.

    Accuracy is judged against the answer key. ``gated``: the same reader answering only when
    the top-k context holds a complete witness. Risk-coverage: the reader answering only above
    a confidence threshold.
    """
    from claimlab.metrics.selective import SelectiveItem, risk_coverage, score_selective

    out = []
    for k in ks:
        reader = reader_items(fixture, k)
        gated = [
            SelectiveItem(
                i.id, i.evidence_complete, i.correct if i.evidence_complete else None,
                i.evidence_complete, i.confidence,
            )
            for i in reader
        ]  # fmt: skip
        out.append(
            SelectiveDepth(
                k,
                score_selective(reader),
                score_selective(gated),
                tuple(risk_coverage(reader, thresholds)),
                tuple(thresholds),
            )
        )
    return out


def load_sources(
    musique: str | Path, hotpotqa: str | Path
) -> tuple[dict[str, tuple[dict[str, Any], SufficiencyFixture]], dict[str, dict[str, Any]]]:
    """Both data sets converted to sufficiency files, where found.

    Returns, per data set found, its converted document and fixture; and per data set what
    notebook 10 records (its size, or why it was skipped).
    """
    from claimlab.io.locate import find_data
    from claimlab.io.multihop import convert_hotpotqa, convert_musique
    from claimlab.io.sufficiency import read_sufficiency
    from claimlab.labs.teaching import data_message

    sources: dict[str, tuple[dict[str, Any], SufficiencyFixture]] = {}
    seen: dict[str, dict[str, Any]] = {}
    for label, value, convert in (
        ("MuSiQue", musique, convert_musique),
        ("HotpotQA", hotpotqa, convert_hotpotqa),
    ):
        path = find_data(value)
        if path is None:
            seen[label] = {"skipped": data_message(label, str(value))}
            continue
        doc = convert(path)
        sources[label] = (doc, read_sufficiency(doc, source=str(path)))
        seen[label] = {
            "questions": len(sources[label][1].questions),
            "evidence": len(doc["evidence"]),
        }
    return sources, seen
