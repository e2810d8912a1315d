"""RAGChecker's files: its checking output (claims and entailment labels) and its meta-evaluation.

The checking output (Ru et al., 2024; ``results[]``) holds per query the response's claims and
the ground-truth answer's claims, the retrieved chunks, and four sets of checker labels, each
``Entailment``, ``Neutral`` or ``Contradiction``: ``answer2response`` (one per response claim:
is it entailed by the ground-truth answer), ``response2answer`` (one per ground-truth claim: is
it entailed by the response), ``retrieved2response`` (a row per response claim, a column per
chunk) and ``retrieved2answer`` (a row per ground-truth claim, a column per chunk).

The meta-evaluation is two files: people's judgments (two per response pair, in pair order:
``correctness_label``, ``completeness_label``, ``overall_label``, each -2..2, how much better the
second response is) and a checker's scores of each response (``model1``/``model2`` with
``ragchecker: {label: score}``, or any checker's name given).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.frozen import freeze
from claimlab.core.vocab import CheckLabel, unknown
from claimlab.io.reader import Record, bulk_load, describe, read_json, records_of

META_LABELS = ("correctness_label", "completeness_label", "overall_label")
Matrix = tuple[tuple[bool, ...], ...]


@dataclass(frozen=True)
class RagQuery:
    """One query's claims and the checker's labels, as booleans (entailed or not)."""

    query_id: str
    query: str
    response_claims: tuple[str, ...]
    answer_claims: tuple[str, ...]
    chunks: tuple[tuple[str, str], ...]  # (doc_id, text)
    correct: tuple[bool, ...]  # per response claim: entailed by the ground-truth answer
    recalled: tuple[bool, ...]  # per ground-truth claim: entailed by the response
    chunk_response: Matrix  # [response claim][chunk]: the chunk entails the claim
    chunk_answer: Matrix  # [ground-truth claim][chunk]
    published: Mapping[str, float]  # the per-query metrics the file carries, if any

    def __post_init__(self) -> None:
        freeze(self, "published")


@dataclass(frozen=True)
class RagChecking:
    """A checking-output file: its queries and the overall figures it carries, if any."""

    file: str
    queries: tuple[RagQuery, ...]
    published: Mapping[str, float]  # {"precision": 76.4, ...}: percent, as RAGChecker prints

    def __post_init__(self) -> None:
        freeze(self, "published")


def _claim_text(claim: Any) -> str:
    """A claim as text: a string, or a (subject, relation, object) triple joined."""
    if isinstance(claim, str):
        return claim
    return " ".join(str(part) for part in claim)


def _claims(rec: Record, name: str) -> tuple[str, ...]:
    items = rec.get(name, list, want="a list of claims")
    for i, claim in enumerate(items):
        if not isinstance(claim, str) and not (
            isinstance(claim, list) and all(isinstance(p, str) for p in claim)
        ):
            raise rec.error(
                f"a claim is a string or a list of strings, got {describe(claim)}",
                field=f"{name}[{i}]",
            )
    return tuple(_claim_text(c) for c in items)


ENTAILED = {label.value: label is CheckLabel.ENTAILMENT for label in CheckLabel}


def _label(rec: Record, value: Any, field: str) -> bool:
    found = ENTAILED.get(value) if isinstance(value, str) else None
    if found is None:
        raise rec.error(unknown("label", value, CheckLabel), field=field)
    return found


def _entailed(values: list[Any]) -> tuple[bool, ...] | None:
    """A list of labels as booleans (entailed or not); None when one is not a label."""
    try:
        found = tuple(map(ENTAILED.get, values))
    except TypeError:  # a list or an object among the labels
        return None
    return None if None in found else cast(tuple[bool, ...], found)


def _row(rec: Record, values: list[Any], field: str) -> tuple[bool, ...]:
    """A list of labels as booleans (entailed or not), or the error naming the first bad one."""
    found = _entailed(values)
    if found is None:
        for i, v in enumerate(values):
            _label(rec, v, f"{field}[{i}]")
    return cast(tuple[bool, ...], found)  # every None was refused above


def _labels(rec: Record, name: str, rows: int) -> tuple[bool, ...]:
    values = rec.get(name, list, want="a list of labels")
    if len(values) != rows:
        raise rec.error(f"{len(values)} labels for {rows} claims", field=name)
    return _row(rec, values, name)


def _matrix(rec: Record, name: str, rows: int, columns: int) -> Matrix:
    values = rec.get(name, list, want="a list of label rows (a row per claim)")
    if len(values) != rows:
        raise rec.error(f"{len(values)} rows for {rows} claims (a row per claim)", field=name)
    out = []
    for i, row in enumerate(values):
        if not isinstance(row, list) or len(row) != columns:
            got = len(row) if isinstance(row, list) else describe(row)
            raise rec.error(
                f"a row has a label per retrieved chunk: {columns} wanted, got {got}",
                field=f"{name}[{i}]",
            )
        out.append(_row(rec, row, f"{name}[{i}]"))
    return tuple(out)


def _chunks(rec: Record) -> tuple[tuple[str, str], ...]:
    chunks = []
    for i, chunk in rec.items("retrieved_context"):
        doc = chunk.get("doc_id", (str, int), str(i))
        chunks.append((str(doc), chunk.get("text", str)))
    return tuple(chunks)


def _published(rec: Record, name: str) -> dict[str, float]:
    return _published_in(rec.data, name)


def _published_in(obj: dict[str, Any], name: str) -> dict[str, float]:
    """The figures an object carries under ``name``, flat (``{"overall": {...}}`` opened)."""
    data = obj.get(name)
    if not isinstance(data, dict):
        return {}
    flat: dict[str, float] = {}
    for key, value in data.items():
        if isinstance(value, dict):  # {"overall": {...}, "retriever": {...}, ...}
            flat.update({k: float(v) for k, v in value.items() if isinstance(v, (int, float))})
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            flat[key] = float(value)
    return flat


def _query(rec: Record) -> RagQuery:
    response = _claims(rec, "response_claims")
    answer = _claims(rec, "gt_answer_claims")
    chunks = _chunks(rec)
    return RagQuery(
        query_id=str(rec.get("query_id", (str, int))),
        query=rec.get("query", str, ""),
        response_claims=response,
        answer_claims=answer,
        chunks=chunks,
        correct=_labels(rec, "answer2response", len(response)),
        recalled=_labels(rec, "response2answer", len(answer)),
        chunk_response=_matrix(rec, "retrieved2response", len(response), len(chunks)),
        chunk_answer=_matrix(rec, "retrieved2answer", len(answer), len(chunks)),
        published=_published(rec, "metrics"),
    )


def _objects(
    items: list[Any], *, file: str, where: str, id_field: str, what: str, start: int = 0
) -> Any:
    """The objects of a list as Records named ``"<what> <id>"`` (a string or integer id)."""
    for i, rec in records_of(
        items, file=file, where=where, id_field=None, error=ClaimlabInputError, start=start
    ):
        rid = rec.data.get(id_field)
        if isinstance(rid, (str, int)) and not isinstance(rid, bool) and str(rid):
            rec.record = f"{what} {rid}"
        else:
            rec.record = f"{where or 'item'}[{i}]"
        yield i, rec


@bulk_load()  # records without cycles: no collector pass over them
def load_checking(path: str | Path) -> RagChecking:
    """Read a RAGChecker checking-output file into typed queries.

    Raises:
        ClaimlabInputError: naming the file, the query and the field: a label that is not
            Entailment, Neutral or Contradiction, a ragged matrix, a missing field.
    """
    source = str(path)
    top = Record(read_json(path, error=ClaimlabInputError), file=source, error=ClaimlabInputError)
    results = top.get("results", list, want="a list of checked queries")
    queries = []
    seen: set[str] = set()
    for i, obj in enumerate(results):
        q = _query_fast(obj)
        if q is None or q.query_id in seen:  # read again field by field: the error names it
            _, rec = next(
                _objects(
                    [obj], file=source, where="results", id_field="query_id", what="query", start=i
                )
            )
            q = _query(rec)
            if q.query_id in seen:
                raise rec.error("query_id appears twice", field="query_id")
        seen.add(q.query_id)
        queries.append(q)
    return RagChecking(source, tuple(queries), _published(top, "metrics"))


def _query_fast(obj: Any) -> RagQuery | None:
    """A well-formed query, checked with cheap type tests; None on any doubt.

    Then :func:`_query` reads it field by field and names what is wrong (or builds the same
    query).
    """
    if type(obj) is not dict:
        return None
    qid, query = obj.get("query_id"), obj.get("query", "")
    response = _claims_fast(obj.get("response_claims"))
    answer = _claims_fast(obj.get("gt_answer_claims"))
    chunks = _chunks_fast(obj.get("retrieved_context"))
    if type(qid) not in (str, int) or type(query) is not str:
        return None
    if response is None or answer is None or chunks is None:
        return None
    correct = _matrix_fast([obj.get("answer2response")], 1, len(response))
    recalled = _matrix_fast([obj.get("response2answer")], 1, len(answer))
    by_chunk = _matrix_fast(obj.get("retrieved2response"), len(response), len(chunks))
    answer_by_chunk = _matrix_fast(obj.get("retrieved2answer"), len(answer), len(chunks))
    if correct is None or recalled is None or by_chunk is None or answer_by_chunk is None:
        return None
    return RagQuery(
        str(qid), query, response, answer, chunks, correct[0], recalled[0], by_chunk,
        answer_by_chunk, _published_in(obj, "metrics"),
    )  # fmt: skip


def _claims_fast(items: Any) -> tuple[str, ...] | None:
    if type(items) is not list:
        return None
    out = []
    for claim in items:
        if type(claim) is str:
            out.append(claim)
        elif type(claim) is list and all(type(part) is str for part in claim):
            out.append(" ".join(claim))
        else:
            return None
    return tuple(out)


def _chunks_fast(items: Any) -> tuple[tuple[str, str], ...] | None:
    if type(items) is not list:
        return None
    out = []
    for i, chunk in enumerate(items):
        if type(chunk) is not dict:
            return None
        doc, text = chunk.get("doc_id", i), chunk.get("text")
        if type(doc) not in (str, int) or type(text) is not str:
            return None
        out.append((str(doc), text))
    return tuple(out)


def _matrix_fast(values: Any, rows: int, columns: int) -> Matrix | None:
    """Rows of labels as booleans (entailed or not), each of ``columns`` labels; None on doubt."""
    if type(values) is not list or len(values) != rows:
        return None
    out = []
    for row in values:
        flags = _entailed(row) if type(row) is list and len(row) == columns else None
        if flags is None:
            return None
        out.append(flags)
    return tuple(out)


@dataclass(frozen=True)
class JudgedPair:
    """One response pair: two people's judgments and the checker's score of each response."""

    instance_id: str
    dataset: str
    query: str
    people: Mapping[str, tuple[int, int]]  # label -> (first person, second person), -2..2
    checker: Mapping[str, tuple[float | None, float | None]]  # label -> (model1, model2)

    def __post_init__(self) -> None:
        freeze(self, "people", "checker")


def _person(rec: Record) -> dict[str, int]:
    return {label: rec.number(label, minimum=-2, maximum=2, integer=True) for label in META_LABELS}


# a checker's score on any scale it may use (a fraction, a percent, a 1-5 grade, a log-probability)
# lies well inside this; beyond it, a difference of two scores times the percent scale could leave
# the floats (1e308 - -1e308 is infinite) and the correlations would silently turn NaN
SCORE_BOUND = 1e9


def _scores(rec: Record, side: str, checker: str) -> dict[str, float | None]:
    scores = rec.sub(side).sub(checker)
    out: dict[str, float | None] = {}
    for label in META_LABELS:
        value = scores.get(label, (int, float, type(None)))
        if value is not None:
            value = scores.number(label, minimum=-SCORE_BOUND, maximum=SCORE_BOUND)
        out[label] = None if value is None else float(value)
    return out


@bulk_load()  # records without cycles: no collector pass over them
def load_meta_evaluation(
    human: str | Path, scores: str | Path, *, checker: str = "ragchecker"
) -> tuple[JudgedPair, ...]:
    """Pair people's judgments (two per response pair, in order) with a checker's scores.

    Raises:
        ClaimlabInputError: naming file, instance and field: a judgment outside -2..2, a pair
            judged other than twice, an instance in one file and not the other.
    """
    people = _judgments(human)
    pairs = []
    source = str(scores)
    data = read_json(scores, error=ClaimlabInputError)
    if not isinstance(data, list):
        raise ClaimlabInputError("must be a list of response pairs", file=source)
    for _, rec in _objects(data, file=source, where="", id_field="instance_id", what="instance"):
        iid = str(rec.get("instance_id", (int, str)))
        if iid not in people:
            raise rec.error(f"instance {iid} has no judgments in {human}", field="instance_id")
        first, second, query, dataset = people.pop(iid)
        one, two = _scores(rec, "model1", checker), _scores(rec, "model2", checker)
        pairs.append(
            JudgedPair(
                iid,
                dataset,
                query,
                {k: (first[k], second[k]) for k in META_LABELS},
                {k: (one[k], two[k]) for k in META_LABELS},
            )
        )
    if people:
        iid = next(iter(people))
        raise ClaimlabInputError(
            f"instance {iid} is judged but has no scores in {source}", file=str(human)
        )
    return tuple(pairs)


def _judgments(human: str | Path) -> dict[str, tuple[dict[str, int], dict[str, int], str, str]]:
    """Two judgments per instance, in file order: instance -> (first, second, query, dataset)."""
    source = str(human)
    data = read_json(human, error=ClaimlabInputError)
    if not isinstance(data, list):
        raise ClaimlabInputError("must be a list of judgments", file=source)
    found: dict[str, list[Any]] = {}
    for _, rec in _objects(data, file=source, where="", id_field="instance_id", what="instance"):
        iid = str(rec.get("instance_id", (int, str)))
        entry = found.setdefault(iid, [[], rec.get("query", str, ""), rec.get("dataset", str, "")])
        entry[0].append(_person(rec))
        if len(entry[0]) > 2:
            raise rec.error("judged more than twice (two people per pair)", field="instance_id")
    out = {}
    for iid, (judged, query, dataset) in found.items():
        if len(judged) != 2:
            raise ClaimlabInputError(
                f"instance {iid} is judged once; two people per pair are needed",
                file=source,
                field="instance_id",
            )
        out[iid] = (judged[0], judged[1], query, dataset)
    return out


def checker_names(scores: Sequence[Mapping[str, Any]]) -> list[str]:
    """The checkers whose scores a meta-evaluation file carries (beside response and critiques)."""
    side = scores[0].get("model1", {}) if scores else {}
    return (
        sorted(k for k, v in side.items() if isinstance(v, dict)) if isinstance(side, dict) else []
    )


@dataclass(frozen=True)
class ClaimsQuery:
    """One query's claims and texts before any label: what ``rag --check`` checks."""

    query_id: str
    response: str
    gt_answer: str
    response_claims: tuple[str, ...]
    answer_claims: tuple[str, ...]
    chunks: tuple[tuple[str, str], ...]  # (doc_id, text)


@bulk_load()  # records without cycles: no collector pass over them
def load_claims(path: str | Path) -> tuple[Any, tuple[ClaimsQuery, ...]]:
    """Read a RAGChecker file's claims and texts (labels, if any, not read): (document, queries).

    Each of ``results[]`` needs ``query_id``, ``response_claims``, ``gt_answer_claims`` and
    ``retrieved_context``; ``response`` and ``gt_answer`` are the texts the claims are checked
    against (the other side's claims joined when a text is absent).

    Raises:
        ClaimlabInputError: naming the file, the query and the field.
    """
    source = str(path)
    doc = read_json(path, error=ClaimlabInputError)
    top = Record(doc, file=source, error=ClaimlabInputError)
    queries, seen = [], set()
    for _, rec in _objects(
        top.get("results", list, want="a list of queries"),
        file=source,
        where="results",
        id_field="query_id",
        what="query",
    ):
        response, answer = _claims(rec, "response_claims"), _claims(rec, "gt_answer_claims")
        q = ClaimsQuery(
            str(rec.get("query_id", (str, int))),
            rec.get("response", str, " ".join(response)),
            rec.get("gt_answer", str, " ".join(answer)),
            response,
            answer,
            _chunks(rec),
        )
        if q.query_id in seen:
            raise rec.error("query_id appears twice", field="query_id")
        seen.add(q.query_id)
        queries.append(q)
    return doc, tuple(queries)
