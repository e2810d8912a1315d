"""``rag --check``: RAGChecker's four label sets filled by a checker, from claims and chunks.

Per query, every response claim is checked against the ground-truth answer
(``answer2response``) and against each retrieved chunk (``retrieved2response``), every
ground-truth claim against the response (``response2answer``) and each chunk
(``retrieved2answer``); SUPPORTED, CONTRADICTED and NOT_IN_REFERENCE are written as
Entailment, Contradiction and Neutral. The file written is the input with those four sets
replaced and a ``checker`` object (which checker, its version, parameters, cache, calls).
When the input carried labels of its own, each set's agreement with them is reported.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.checkers.people import AgainstPeople, against_people, corrected_by_people
from claimlab.checkers.verdicts import Item, to_ragchecker
from claimlab.core.frozen import freeze
from claimlab.core.vocab import CheckLabel, Status
from claimlab.io.ragchecker import ClaimsQuery
from claimlab.metrics.rag import RAG_METRICS, RagReport

LABEL_SETS = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer")
Slot = tuple[int, str, int, int | None]  # (query, label set, claim, chunk or None)


def check_items(queries: Sequence[ClaimsQuery]) -> tuple[list[Item], list[Slot]]:
    """Every (claim, evidence) pair of the four sets, and where each label goes."""
    items: list[Item] = []
    slots: list[Slot] = []

    def add(q: int, name: str, n: int, chunk: int | None, claim: str, text: str) -> None:
        where = f"{name}[{n}]" if chunk is None else f"{name}[{n}][{chunk}]"
        items.append(Item(f"{queries[q].query_id}:{where}", claim, (text,)))
        slots.append((q, name, n, chunk))

    for q, query in enumerate(queries):
        for n, claim in enumerate(query.response_claims):
            add(q, "answer2response", n, None, claim, query.gt_answer)
            for c, (_, text) in enumerate(query.chunks):
                add(q, "retrieved2response", n, c, claim, text)
        for n, claim in enumerate(query.answer_claims):
            add(q, "response2answer", n, None, claim, query.response)
            for c, (_, text) in enumerate(query.chunks):
                add(q, "retrieved2answer", n, c, claim, text)
    return items, slots


def filled(
    doc: Any,
    queries: Sequence[ClaimsQuery],
    slots: Sequence[Slot],
    labels: Sequence[Status],
    checker: Mapping[str, Any],
) -> dict[str, Any]:
    """A copy of the document with the four label sets written from ``labels``."""
    out = copy.deepcopy(doc)
    results = out["results"]
    for q, query in enumerate(queries):
        rows = {"response": len(query.response_claims), "answer": len(query.answer_claims)}
        for name in LABEL_SETS:
            side = "response" if name.endswith("response") else "answer"
            flat = name.startswith(("answer2", "response2"))
            results[q][name] = (
                [None] * rows[side]
                if flat
                else [[None] * len(query.chunks) for _ in range(rows[side])]
            )
    for (q, name, n, chunk), label in zip(slots, labels, strict=True):
        word = to_ragchecker(label).value
        if chunk is None:
            results[q][name][n] = word
        else:
            results[q][name][n][chunk] = word
    out["checker"] = dict(checker)
    return dict(out)


@dataclass(frozen=True)
class SetAgreement:
    """Per label set, the checker's labels against the ones the input file carried."""

    sets: Mapping[str, AgainstPeople]

    def __post_init__(self) -> None:
        freeze(self, "sets")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {name: a.to_dict() for name, a in self.sets.items()}


def _word(value: object) -> str | None:
    known = {label.value for label in CheckLabel}
    return value if isinstance(value, str) and value in known else None


def _given(doc: Any, slot: Slot) -> str | None:
    q, name, n, chunk = slot
    try:
        value = doc["results"][q][name][n]
        return _word(value if chunk is None else value[chunk])
    except (KeyError, IndexError, TypeError):
        return None


def set_agreement(doc: Any, slots: Sequence[Slot], labels: Sequence[Status]) -> SetAgreement:
    """The checker's labels against the input's own, set by set (a label it lacks left out)."""
    sets = {}
    for name in LABEL_SETS:
        mine = [(s, lab) for s, lab in zip(slots, labels, strict=True) if s[1] == name]
        sets[name] = against_people(
            [to_ragchecker(lab).value for _, lab in mine], [_given(doc, s) for s, _ in mine]
        )
    return SetAgreement(sets)


def corrected_figures(
    on_file: RagReport, on_checker: RagReport, *, share: float, seed: int, level: float = 0.9
) -> dict[str, Any]:
    """Each micro figure from the checker's labels, corrected by the file's labels on a sample.

    The file's own labels play the people's part: a seeded share of the queries (by a hash of
    the query id, :func:`~claimlab.metrics.stats.prediction_powered.is_labelled`) is
    "labelled", and each figure is the checker's on every query, corrected by the checker's
    error on those (prediction-powered, Angelopoulos et al. 2023; a ratio of sums, so F1 is
    left out). A figure with fewer than two labelled or unlabelled queries is N/A with the
    reason.
    """
    ids = [q.query_id for q in on_file.per_query]
    if ids != [q.query_id for q in on_checker.per_query]:
        raise ValueError("the two reports score different queries")
    out = {
        m: corrected_by_people(
            _counts(on_checker, m),
            _counts(on_file, m),
            ids,
            figure=m,
            share=share,
            seed=seed,
            level=level,
        )  # fmt: skip
        for m in RAG_METRICS
        if m != "f1"
    }
    return {"share": share, "seed": seed, "level": level, "figures": out}


def _counts(report: RagReport, metric: str) -> tuple[list[int], list[int]]:
    """Per query, the metric's numerator and denominator."""
    ratios = [q.ratios[metric] for q in report.per_query]
    return [r.numerator for r in ratios], [r.denominator for r in ratios]
