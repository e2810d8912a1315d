"""RAG diagnostics claim by claim: RAGChecker's eleven metrics, as counts.

Metric card (Ru et al., 2024, "RAGChecker: A Fine-grained Framework for Diagnosing
Retrieval-Augmented Generation"; the definitions, counted here). Per query, with the response's
claims R, the ground-truth answer's claims G and the retrieved chunks K; a response claim is
*correct* when the ground-truth answer entails it, a chunk is *relevant* when it entails some
claim of G:

* precision = correct claims of R / |R|; recall = claims of G the response entails / |G|;
  f1 = their harmonic mean (0 when both are 0; N/A when either is);
* claim_recall = claims of G some chunk entails / |G|;
  context_precision = relevant chunks / |K|;
* context_utilization = claims of G some chunk entails and the response entails / claims of G
  some chunk entails;
* noise_sensitivity_in_relevant = incorrect claims of R a relevant chunk entails / |R|;
  noise_sensitivity_in_irrelevant = incorrect claims of R an irrelevant chunk entails and no
  relevant chunk does / |R|;
* hallucination = incorrect claims of R no chunk entails / |R|; self_knowledge = correct
  claims of R no chunk entails / |R|; faithfulness = claims of R some chunk entails / |R|.

Undefined: a ratio with a zero denominator is N/A (RAGChecker writes 0) and the macro mean leaves
that query out, saying how many it left out; micro figures pool the counts of every query.
With no retrieved chunk, claimlab counts by the definitions (every response claim is
unfaithful) where RAGChecker's code writes 0.

Noise sensitivity when the ground truth has no claim (``noise``): RAGChecker's code computes
both noise sensitivities only when the response, the chunks and the ground truth all have
claims, and writes 0 otherwise; with no ground-truth claim no chunk can be judged relevant or
irrelevant, so by default (``"ragchecker"``) no chunk is either and both counts are 0 of |R|.
``"paper"`` takes the paper's words literally: a chunk that entails no claim of G is irrelevant,
also when G is empty, so a wrong claim it entails counts as irrelevant noise.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import and_, not_
from typing import Any, Literal

from claimlab.core.frozen import Plain, freeze
from claimlab.core.ratio import MeanOfDefined, Ratio, macro_mean
from claimlab.core.vocab import RAG_METRICS as RAG_METRICS  # the names: core.vocab lists them
from claimlab.core.vocab import RAG_RATIO_METRICS, unknown
from claimlab.io.ragchecker import RagChecking, RagQuery
from claimlab.io.reader import bulk_load
from claimlab.metrics.diff import Label, Unit
from claimlab.metrics.gate import GateFigure

RATIO_METRICS = RAG_RATIO_METRICS  # the ten ratios (f1 is none): core.vocab lists them

RETRIEVER = ("claim_recall", "context_precision")
GENERATOR = (
    "context_utilization",
    "noise_sensitivity_in_relevant",
    "noise_sensitivity_in_irrelevant",
    "hallucination",
    "self_knowledge",
    "faithfulness",
)
OVERALL = ("precision", "recall", "f1")
NoiseRule = Literal["ragchecker", "paper"]
NOISE_RULES: tuple[NoiseRule, ...] = ("ragchecker", "paper")


@dataclass(frozen=True)
class F1:
    """The harmonic mean of a precision and a recall, with both kept."""

    precision: Ratio
    recall: Ratio

    @property
    def value(self) -> float | None:
        """2PR/(P+R); 0.0 when both are 0; None when either is N/A."""
        p, r = self.precision.value, self.recall.value
        if p is None or r is None:
            return None
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    @property
    def counts(self) -> str:
        """``"P 8/11, R 11/22"``: the counts behind both parts."""
        return f"P {self.precision.counts}, R {self.recall.counts}"

    @property
    def display(self) -> str:
        """``"59.3% (P 8/11, R 11/22)"`` or ``"N/A (P 0/0, R 3/4)"``."""
        v = self.value
        head = "N/A" if v is None else f"{100 * v:.1f}%"
        return f"{head} ({self.counts})"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: value, its whole-number counts (:func:`f1_counts`), both ratios, display."""
        counts = f1_counts(self.precision, self.recall)
        return Plain(  # an F1 of two ratios: finite or None (see Plain)
            value=self.value,
            numerator=counts.numerator,
            denominator=counts.denominator,
            precision=self.precision.to_dict(),
            recall=self.recall.to_dict(),
            display=self.display,
        )


@dataclass(frozen=True)
class QueryFigures:
    """One query's ten ratios and its F1."""

    query_id: str
    ratios: Mapping[str, Ratio]

    def __post_init__(self) -> None:
        freeze(self, "ratios")

    @property
    def f1(self) -> F1:
        """F1 of this query's precision and recall."""
        return F1(self.ratios["precision"], self.ratios["recall"])

    def figure(self, metric: str) -> Ratio | F1:
        """One metric by name (``f1`` included)."""
        return self.f1 if metric == "f1" else self.ratios[metric]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the query id and every metric."""
        return Plain(
            {"query_id": self.query_id, **{m: self.figure(m).to_dict() for m in RAG_METRICS}}
        )


def chunk_relevance(
    q: RagQuery, *, noise: NoiseRule = "ragchecker"
) -> tuple[list[bool], list[bool]]:
    """Per chunk: ``(relevant, irrelevant)``, the one rule both noise sensitivities read.

    A chunk is relevant when it entails a claim of the ground truth. With no ground-truth claim,
    ``"ragchecker"`` judges no chunk either way (RAGChecker's guard), ``"paper"`` calls every
    chunk irrelevant.

    Examples:
        >>> from claimlab.io.ragchecker import RagQuery
        >>> q = RagQuery("q", "", ("r",), (), (("d", "t"),), (False,), (), ((True,),), (), {})
        >>> chunk_relevance(q), chunk_relevance(q, noise="paper")
        (([False], [False]), ([False], [True]))
    """
    if noise not in NOISE_RULES:
        raise ValueError(unknown("noise rule", noise, NOISE_RULES))
    n_k = len(q.chunks)
    relevant = [any(col) for col in zip(*q.chunk_answer, strict=True)] or [False] * n_k
    judged = bool(q.answer_claims) or noise == "paper"
    return relevant, [judged and not r for r in relevant]


# Every ratio metric but context precision counts claims: per metric, the side whose claims it
# counts, the flags a claim must all have for the numerator, and for the denominator (none: every
# claim of that side). Context precision counts chunks (relevant / every chunk). The one rule both
# a query's figures (:func:`query_figures`) and each claim's share of them (:func:`claim_flags`,
# what ``claimlab diff`` weighs a change by) read.
CLAIM_TERMS: Mapping[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "precision": ("response", ("correct",), ()),
    "recall": ("answer", ("entailed",), ()),
    "claim_recall": ("answer", ("retrieved",), ()),
    "context_utilization": ("answer", ("retrieved", "entailed"), ("retrieved",)),
    "noise_sensitivity_in_relevant": ("response", ("wrong", "by_relevant"), ()),
    "noise_sensitivity_in_irrelevant": ("response", ("wrong", "by_irrelevant"), ()),
    "hallucination": ("response", ("wrong", "unfaithful"), ()),
    "self_knowledge": ("response", ("correct", "unfaithful"), ()),
    "faithfulness": ("response", ("faithful",), ()),
}


@dataclass(frozen=True)
class QueryFlags:
    """Per claim and per chunk of one query, the flags the metrics count (see CLAIM_TERMS)."""

    response: Mapping[str, tuple[bool, ...]]  # correct, wrong, faithful, unfaithful, by_*
    answer: Mapping[str, tuple[bool, ...]]  # entailed (by the response), retrieved
    relevant: tuple[bool, ...]  # per chunk


def claim_flags(q: RagQuery, *, noise: NoiseRule = "ragchecker") -> QueryFlags:
    """Every claim's and chunk's flags in one query (the module's definitions, per item)."""
    relevant, irrelevant = chunk_relevance(q, noise=noise)
    faithful = tuple(map(any, q.chunk_response))
    by_relevant = tuple(any(compress(relevant, row)) for row in q.chunk_response)
    by_irrelevant = tuple(
        not rel and any(compress(irrelevant, row))
        for row, rel in zip(q.chunk_response, by_relevant, strict=True)
    )
    # a query built in code is checked as the loader checks a file: one label row per claim
    correct = tuple(c for c, _ in zip(q.correct, q.chunk_response, strict=True))
    entailed = tuple(e for e, _ in zip(q.recalled, q.chunk_answer, strict=True))
    response = {
        "correct": correct,
        "wrong": tuple(map(not_, correct)),
        "faithful": faithful,
        "unfaithful": tuple(map(not_, faithful)),
        "by_relevant": by_relevant,
        "by_irrelevant": by_irrelevant,
    }
    answer = {"entailed": entailed, "retrieved": tuple(map(any, q.chunk_answer))}
    return QueryFlags(response, answer, tuple(relevant))


def _all(flags: Mapping[str, tuple[bool, ...]], names: tuple[str, ...], size: int) -> list[bool]:
    """Per item: whether it has every flag of ``names`` (every item when none is named)."""
    columns = [flags[n] for n in names]
    return [all(c[i] for c in columns) for i in range(size)]


def term_counts(flags: QueryFlags, metric: str) -> tuple[list[bool], list[bool]]:
    """Per claim (per chunk for context precision): in ``metric``'s numerator, denominator."""
    if metric == "context_precision":
        return list(flags.relevant), [True] * len(flags.relevant)
    side, num, den = CLAIM_TERMS[metric]
    items = flags.response if side == "response" else flags.answer
    size = len(next(iter(items.values())))
    return _all(items, num, size), _all(items, den, size)


def _count_all(flags: Mapping[str, tuple[bool, ...]], names: tuple[str, ...], size: int) -> int:
    """How many items have every flag of ``names`` (``sum(_all(...))`` without the list)."""
    if not names:
        return size
    if len(names) == 1:
        return sum(flags[names[0]])
    if len(names) == 2:  # the flags are booleans: "both" is their and
        return sum(map(and_, flags[names[0]], flags[names[1]]))
    return sum(map(all, zip(*(flags[n] for n in names), strict=True)))


def term_totals(flags: QueryFlags, metric: str) -> tuple[int, int]:
    """``metric``'s numerator and denominator in one query: the sums of :func:`term_counts`."""
    if metric == "context_precision":
        return sum(flags.relevant), len(flags.relevant)
    side, num, den = CLAIM_TERMS[metric]
    items = flags.response if side == "response" else flags.answer
    size = len(next(iter(items.values())))
    return _count_all(items, num, size), _count_all(items, den, size)


def query_figures(q: RagQuery, *, noise: NoiseRule = "ragchecker") -> QueryFigures:
    """Count every metric of one query (see the module's definitions)."""
    flags = claim_flags(q, noise=noise)
    return QueryFigures(q.query_id, {m: Ratio(*term_totals(flags, m)) for m in RATIO_METRICS})


@dataclass(frozen=True)
class RagReport:
    """Per-query figures, the macro means (N/A queries left out, counted) and the micro figures."""

    file: str
    per_query: tuple[QueryFigures, ...]
    macro: Mapping[str, MeanOfDefined]
    micro: Mapping[str, Ratio | F1]
    published: Mapping[str, float]
    noise: NoiseRule = "ragchecker"

    def __post_init__(self) -> None:
        freeze(self, "macro", "micro", "published")

    def worst(self, metrics: Sequence[str]) -> str | None:
        """The micro figure of ``metrics`` furthest from its best side (:func:`worst_metric`)."""
        return worst_metric(self.micro, metrics)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``claimlab rag --json`` (SPEC section 7)."""
        return {
            "file": self.file,
            "queries": len(self.per_query),
            "noise_sensitivity_rule": self.noise,
            "macro": {
                m: {
                    "value": v.value,
                    "queries": v.defined,
                    "left_out": v.undefined,
                    "defined": v.defined,
                    "undefined": v.undefined,
                    "display": v.display,
                }
                for m, v in self.macro.items()
            },
            "micro": {m: v.to_dict() for m, v in self.micro.items()},
            "per_query": [q.to_dict() for q in self.per_query],
        }


def _macro_f1(figures: Sequence[QueryFigures]) -> MeanOfDefined:
    values = [v for v in (f.f1.value for f in figures) if v is not None]
    mean = math.fsum(values) / len(values) if values else None  # the same in any query order
    return MeanOfDefined(mean, len(values), len(figures) - len(values))


def _pooled(ratios: Iterable[Ratio]) -> Ratio:
    """The micro figure: the summed counts (``sum`` of the ratios without one per step)."""
    num = den = 0
    for r in ratios:
        num += r.numerator
        den += r.denominator
    return Ratio(num, den)


def score_rag(checking: RagChecking, *, noise: NoiseRule = "ragchecker") -> RagReport:
    """Every query's figures, and the macro and micro figures over the file.

    ``noise`` names the rule for chunks when the ground truth has no claim (see the module).
    """
    with bulk_load():  # a pass over acyclic records: no garbage cycle to collect
        figures = tuple(query_figures(q, noise=noise) for q in checking.queries)
    macro = {m: macro_mean(f.ratios[m] for f in figures) for m in RATIO_METRICS}
    macro["f1"] = _macro_f1(figures)
    pooled = {m: _pooled(f.ratios[m] for f in figures) for m in RATIO_METRICS}
    micro: dict[str, Ratio | F1] = {**pooled, "f1": F1(pooled["precision"], pooled["recall"])}
    order = {m: i for i, m in enumerate(RAG_METRICS)}
    return RagReport(
        checking.file,
        figures,
        dict(sorted(macro.items(), key=lambda kv: order[kv[0]])),
        dict(sorted(micro.items(), key=lambda kv: order[kv[0]])),
        checking.published,
        noise,
    )


# Which way is better for each metric (RAGChecker's arrows): a response claim that is wrong and
# comes from a chunk (noise), or from no chunk (hallucination), is a fault; everything else counts
# what went right.
LOWER_IS_BETTER = frozenset(
    {"noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant", "hallucination"}
)
ARROWS: Mapping[str, str] = {m: ("↓" if m in LOWER_IS_BETTER else "↑") for m in RAG_METRICS}


def better_arrow(metric: str) -> str:
    """``"↑"`` for a metric where higher is better, ``"↓"`` where lower is.

    Examples:
        >>> better_arrow("claim_recall"), better_arrow("hallucination")
        ('↑', '↓')
    """
    if metric not in RAG_METRICS:
        raise ValueError(unknown("RAG metric", metric, RAG_METRICS))
    return ARROWS[metric]


def worst_metric(figures: Mapping[str, Ratio | F1], metrics: Sequence[str]) -> str | None:
    """The metric furthest from its best value (1 when higher is better, 0 when lower is).

    N/A figures are left out; None when every one is N/A; a tie goes to the first named.

    Examples:
        >>> worst_metric({"claim_recall": Ratio(3, 4), "hallucination": Ratio(1, 2)},
        ...              ["claim_recall", "hallucination"])
        'hallucination'
        >>> worst_metric({"claim_recall": Ratio(0, 0)}, ["claim_recall"]) is None
        True
    """
    gaps: list[tuple[float, int, str]] = []
    for m in metrics:
        v = figures[m].value
        if v is not None:
            gaps.append((v if m in LOWER_IS_BETTER else 1 - v, -len(gaps), m))
    return max(gaps)[2] if gaps else None


def f1_counts(precision: Ratio, recall: Ratio) -> Ratio:
    """F1 of ``a/b`` and ``c/d`` as the whole-number ratio ``2ac / (ad + bc)``.

    Equal to :attr:`F1.value`; 0/1 when both parts are 0 (F1 is 0 there), N/A when either is.

    Examples:
        >>> f1_counts(Ratio(8, 11), Ratio(11, 22))
        Ratio(numerator=176, denominator=297)
        >>> f1_counts(Ratio(0, 3), Ratio(0, 2)), f1_counts(Ratio(0, 0), Ratio(1, 2))
        (Ratio(numerator=0, denominator=1), Ratio(numerator=0, denominator=0))
    """
    a, b, c, d = precision.numerator, precision.denominator, recall.numerator, recall.denominator
    if b == 0 or d == 0:
        return Ratio(0, 0)
    den = a * d + b * c
    return Ratio(2 * a * c, den) if den else Ratio(0, 1)


def gate_figures(names: Sequence[str] = RAG_METRICS) -> tuple[GateFigure, ...]:
    """The named metrics as gate figures over :func:`per_query_table`'s count columns.

    Examples:
        >>> [(f.name, f.higher_is_better) for f in gate_figures(["recall", "hallucination"])]
        [('recall', True), ('hallucination', False)]
    """
    for m in names:
        if m not in RAG_METRICS:
            raise ValueError(unknown("RAG metric", m, RAG_METRICS))
    return tuple(
        GateFigure(m, f"{m}_numerator", f"{m}_denominator", m not in LOWER_IS_BETTER) for m in names
    )


def query_counts(q: QueryFigures) -> dict[str, Ratio]:
    """Every metric of one query as a ratio of whole numbers (F1 by :func:`f1_counts`)."""
    out = dict(q.ratios)
    out["f1"] = f1_counts(q.ratios["precision"], q.ratios["recall"])
    return {m: out[m] for m in RAG_METRICS}


PER_QUERY_COLUMNS = ("query_id",) + tuple(
    f"{m}{s}" for m in RAG_METRICS for s in ("_numerator", "_denominator", "")
)


PerQueryRow = dict[str, str | int | float | None]  # a row of :data:`PER_QUERY_COLUMNS`


def per_query_rows(report: RagReport) -> list[PerQueryRow]:
    """The per-query rows (:data:`PER_QUERY_COLUMNS`), without a table library.

    One row per query, in the file's order: ``query_id``, then for every metric
    ``METRIC_numerator``, ``METRIC_denominator`` and ``METRIC`` (None where N/A).
    """
    rows = []
    for q in report.per_query:
        row: PerQueryRow = {"query_id": q.query_id}
        for m, r in query_counts(q).items():
            row[f"{m}_numerator"], row[f"{m}_denominator"], row[m] = (
                r.numerator,
                r.denominator,
                r.value,
            )
        rows.append(row)
    return rows


def per_query_table(report: RagReport) -> Any:
    """The per-query table ``rag --out`` writes.

    :func:`per_query_rows` as a pandas frame (a value empty where N/A).
    """
    import pandas as pd

    return pd.DataFrame(per_query_rows(report), columns=list(PER_QUERY_COLUMNS))


def _keys(names: Sequence[str]) -> list[str]:
    """Names told apart: a name seen before gets its occurrence (``text (2)``)."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} ({seen[n]})")
    return out


def rag_units(queries: Sequence[RagQuery], *, noise: NoiseRule = "ragchecker") -> list[Unit]:
    """Every claim and chunk of the queries as :mod:`claimlab.metrics.diff` units.

    A response claim is labelled ``entailed`` (by the ground-truth answer) and ``chunks`` (the
    doc ids of the chunks that entail it); a ground-truth claim ``entailed`` (by the response)
    and ``chunks``; a chunk ``relevant``. A claim is named by its text within its query, a
    chunk by its doc id; each carries its share of every ratio metric (:data:`CLAIM_TERMS`).
    """
    out: list[Unit] = []
    for q in queries:
        flags = claim_flags(q, noise=noise)
        shares = {m: term_counts(flags, m) for m in RATIO_METRICS}
        docs = _keys([d for d, _ in q.chunks])
        sides = (("response", "response claim", q.response_claims, q.correct, q.chunk_response),
                 ("answer", "ground-truth claim", q.answer_claims, q.recalled, q.chunk_answer))  # fmt: skip
        for side, kind, claims, entailed, rows in sides:
            metrics = [m for m, (s, _, _) in CLAIM_TERMS.items() if s == side]
            for i, (key, text) in enumerate(zip(_keys(claims), claims, strict=True)):
                counts = {m: (int(shares[m][0][i]), int(shares[m][1][i])) for m in metrics}
                labels: dict[str, Label] = {
                    "entailed": entailed[i],
                    "chunks": tuple(compress(docs, rows[i])),
                }
                out.append(Unit(q.query_id, kind, key, text, labels, counts))
        for doc, rel in zip(docs, flags.relevant, strict=True):
            out.append(Unit(q.query_id, "chunk", doc, doc, {"relevant": rel},
                            {"context_precision": (int(rel), 1)}))  # fmt: skip
    return out
