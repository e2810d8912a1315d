"""Adjudication: several annotators' files of one draft become one gold file, with provenance.

Rules:
    * the **files** are taken in the order of their annotators' names, so the result never
      depends on the order they were given in; the candidates are the union over the files;
    * a **unit** (by its UTF-16 span; a span one file lists twice counts once) is kept when
      more than half of the files mark it; at a tie it is kept but proposed again (``review:
      ["span"]``): a tie like a label's, settled by ``UNIT.unit=keep`` or ``UNIT.unit=drop``;
      a unit every file still proposes (under ``review`` in each) stays proposed:
      adjudication never makes gold of what no annotator confirmed;
    * each **label** of a candidate is the majority of the annotators who confirmed that
      candidate (``faithful``, ``atomic``, ``errors`` as a set, ``evidence`` as status and
      references, ``preserves`` unit by unit over the kept units, ``source_spans`` as spans);
      a tie, or no annotator at all, leaves the label under review;
    * the adjudicator's **decisions** settle ties (or overrule a majority) and are recorded as
      theirs, with their name and the time; every tie is printed with the ``--decide`` that
      settles it, each value written as a decision takes it (:func:`decision_value`);
    * a **preference** (``--prefer ANNOTATOR``, for every candidate or one) settles the ties
      no decision settles with that annotator's value; it never overrules a majority;
    * every label keeps its provenance: the rule (unanimous, majority, tie, decided,
      preferred, none), each annotator's value, and who decided or was preferred.

A candidate whose every label was settled is confirmed "by adjudication"; the file is a
gold set only when nothing is left under review. Ids are compared after NFC normalisation.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, cast

import orjson

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.core.frozen import Picklable, freeze
from claimlab.core.parallel import chunked
from claimlab.core.spans import utf16_slice
from claimlab.core.text import clip, nfc, same_claim_key
from claimlab.core.vocab import EMPTY, ERROR_KINDS, LABEL_VALUES, REVIEW_FIELDS, STATUSES, unknown
from claimlab.io.annotations import (
    AnnotatedFile,
    AnnotationSet,
    AnswerKey,
    answers_of,
    load_scanned,
    set_names,
)
from claimlab.io.decomposition import DecompositionFixture, candidate_problems, read_decomposition
from claimlab.io.reader import bulk_load
from claimlab.labs.annotation.session import now

LABELS = ("source_spans", "preserves", "faithful", "atomic", "errors", "evidence")


@dataclass(frozen=True)
class Tie(Picklable):
    """A label the majority did not settle: what each annotator chose (as decision values)."""

    candidate: str
    label: str
    values: Mapping[str, Any]
    answer: str = ""

    def __post_init__(self) -> None:
        freeze(self, "values")

    def decide(self, value: str) -> str:
        """The ``--decide`` argument that settles this tie with ``value``."""
        where = f"{self.answer}:" if self.answer else ""
        return f"{where}{self.candidate}.{self.label}={value}"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            **({"answer": self.answer} if self.answer else {}),
            "candidate": self.candidate,
            "label": self.label,
            "values": dict(self.values),
            "decide": [self.decide(v) for v in dict.fromkeys(self.values.values())],
        }


@dataclass(frozen=True)
class Adjudication:
    """The merged document, the ties left for a person, and the decisions applied."""

    document: dict[str, Any]
    ties: tuple[Tie, ...]
    decided: tuple[str, ...]
    unit_ties: tuple[str, ...]

    @property
    def gold(self) -> bool:
        """Nothing left under review."""
        doc = self.document
        return not any(c.get("review") for c in doc["candidates"]) and not any(
            u.get("review") for u in doc["units"]
        )


def _copy(value: Any) -> Any:
    """A copy of a JSON value (what files hold): a round trip through orjson, no memo to keep.

    Plain values need no copy, and a list of plain values a new list.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return orjson.loads(orjson.dumps(value))


def _same(value: Any) -> Any:
    return value


def decision_value(label: str, value: Any) -> str:
    """A label's value written as ``--decide`` takes it back.

    Examples:
        >>> decision_value("errors", [])
        'none'
        >>> decision_value("evidence", {"status": "SUPPORTED", "references": ["R8", "R9"]})
        'SUPPORTED:R8,R9'
        >>> decision_value("source_spans", [{"start": 12, "end": 40, "text": "..."}])
        '12..40'
    """
    if label in ("faithful", "atomic"):
        return "true" if value else "false"
    if label == "evidence":
        refs = ",".join(value["references"])
        return f"{value['status']}:{refs}" if refs else str(value["status"])
    if label == "source_spans":
        return ";".join(f"{s['start']}..{s['end']}" for s in value) or EMPTY
    return ",".join(str(v) for v in value) or EMPTY


def _items(value: str) -> list[str]:
    return [] if value in ("", "-", EMPTY) else [v.strip() for v in value.split(",") if v.strip()]


def _spans(value: str, cid: str) -> list[tuple[int, int]]:
    out = []
    for part in [] if value in ("", "-", EMPTY) else value.split(";"):
        a, sep, b = part.strip().partition("..")
        if not sep or not a.isdigit() or not b.isdigit() or int(a) > int(b):
            raise FixtureError(
                f"a span reads START..END in UTF-16 units (12..40), got {part!r}",
                record=cid,
                field="--decide",
            )
        out.append((int(a), int(b)))
    return out


def parse_decision(text: str) -> tuple[str, str, Any]:
    """A decision ``CID.LABEL=VALUE`` as ``(candidate, label, value)`` (see :data:`LABEL_VALUES`).

    ``S3.faithful=false``, ``S3.errors=qualifier,entity``, ``S3.errors=none``,
    ``S3.evidence=SUPPORTED:R9``, ``S3.preserves=U10,U11``, ``S3.source_spans=12..40``;
    a unit tie: ``UNIT.unit=keep`` or ``UNIT.unit=drop``.

    Raises:
        FixtureError: naming the decision that cannot be read.
    """
    head, sep, value = text.partition("=")
    cid, dot, label = head.rpartition(".")
    if not sep or not dot or not cid:
        raise FixtureError(
            f"a decision reads CANDIDATE.LABEL=VALUE, got {text!r}", field="--decide"
        )
    if label == "unit":  # a unit marked by half of the annotators: kept or dropped
        if value not in UNIT_CHOICES:
            raise FixtureError(
                f"a unit is decided keep or drop, got {value!r}", record=cid, field="--decide"
            )
        return cid, label, value
    if label not in LABEL_VALUES:
        raise FixtureError(
            f"unknown label {label!r} (decide {', '.join(LABEL_VALUES)}, or unit)",
            record=cid,
            field="--decide",
        )
    if label in ("faithful", "atomic"):
        if value not in ("true", "false"):
            raise FixtureError(
                f"{label} is true or false, got {value!r}", record=cid, field="--decide"
            )
        return cid, label, value == "true"
    if label == "errors":
        for e in _items(value):
            if e not in ERROR_KINDS:
                raise FixtureError(
                    f"unknown error kind {e!r} (one of {', '.join(ERROR_KINDS)}, or {EMPTY})",
                    record=cid,
                    field="--decide",
                )
        return cid, label, _items(value)
    if label == "evidence":
        status, _, refs = value.partition(":")
        if status not in STATUSES:
            raise FixtureError(
                unknown("status", status, STATUSES),
                record=cid,
                field="--decide",
            )
        return cid, label, {"status": status, "references": _items(refs)}
    if label == "source_spans":
        return cid, label, _spans(value, cid)
    return cid, label, _items(value)


# ------------------------------------------------------------------------------ one answer


def _ordered(
    documents: Sequence[Mapping[str, Any]], fixtures: Sequence[DecompositionFixture]
) -> tuple[list[Mapping[str, Any]], list[DecompositionFixture], tuple[str, ...]]:
    """The files in the order of their annotators' names (then sources), and the names."""
    from claimlab.metrics.agreement import annotator_names  # numpy: not for `--help`

    names = annotator_names(fixtures)
    order = sorted(range(len(fixtures)), key=lambda i: (names[i], fixtures[i].source))
    return (
        [documents[i] for i in order],
        [fixtures[i] for i in order],
        tuple(names[i] for i in order),
    )


UNIT_CHOICES = ("keep", "drop")


def _merge_units(
    documents: Sequence[Mapping[str, Any]],
    names: Sequence[str] = (),
    decided: Mapping[str, str] | None = None,
    prefer: str = "",
) -> tuple[list[dict[str, Any]], list[Tie], dict[tuple[int, int], str], list[str]]:
    """Units kept by more than half of the files (at half: a tie, kept and proposed again).

    ``decided`` (``keep`` or ``drop`` by the unit's id as the ties name it) settles a tie or
    drops a kept unit; the marking of the annotator named by ``prefer`` settles a tie no
    decision settles.
    A kept unit that no file confirmed (each file lists it still under ``review``) stays
    proposed (``review: ["span"]``): adjudication never makes gold of what nobody confirmed.
    Returns the kept units, the ties, the kept spans' ids and the units settled.
    """
    votes, confirmed, unit_doc, marked = _unit_votes(documents)
    left = dict(decided or {})
    half = len(documents) / 2
    kept: list[dict[str, Any]] = []
    ties: list[Tie] = []
    settled: list[str] = []
    used: set[str] = set()
    for sp in sorted(sp for sp in votes if votes[sp] >= half):
        u = unit_doc[sp]  # a new dict of plain values, made above
        k = 1
        while u["id"] in used:
            u["id"], k = f"U{len(votes) + k}", k + 1
        used.add(u["id"])
        choice = left.pop(nfc(u["id"]), None)
        who = {n: UNIT_CHOICES[sp not in marked[i]] for i, n in enumerate(names)}
        if choice is not None:
            settled.append(f"{u['id']}.unit")
        elif votes[sp] == half and prefer in who:
            choice = who[prefer]
            settled.append(f"{u['id']}.unit ({prefer}'s)")
        if choice == "drop":
            continue
        if choice is None and votes[sp] == half:
            u["review"] = ["span"]
            ties.append(Tie(u["id"], "unit", who))
        elif choice is None and not confirmed[sp]:
            u["review"] = ["span"]  # every file still proposes it
        kept.append(u)
    if left:
        raise FixtureError(
            f"unknown unit id (half or more of the files mark: {', '.join(sorted(used)[:12])})",
            record=next(iter(left)),
            field="--decide",
        )
    return kept, ties, {(u["span"]["start"], u["span"]["end"]): u["id"] for u in kept}, settled


def _unit_votes(
    documents: Sequence[Mapping[str, Any]],
) -> tuple[
    Counter[tuple[int, int]], Counter[tuple[int, int]], dict[tuple[int, int], dict[str, Any]],
    list[set[tuple[int, int]]],
]:  # fmt: skip
    """Per span: how many files mark it, how many confirm it, its first listing; each file's spans.

    A span listed twice in one file votes once.
    """
    votes: Counter[tuple[int, int]] = Counter()
    confirmed: Counter[tuple[int, int]] = Counter()
    unit_doc: dict[tuple[int, int], dict[str, Any]] = {}
    marked: list[set[tuple[int, int]]] = []
    for doc in documents:
        spans = {(u["span"]["start"], u["span"]["end"]): u for u in reversed(doc["units"])}
        for sp, u in spans.items():
            votes[sp] += 1
            unit_doc.setdefault(sp, {"id": u["id"], "span": dict(u["span"])})
        confirmed.update(_confirmed_spans(doc["units"]))
        marked.append(set(spans))
    return votes, confirmed, unit_doc, marked


def _confirmed_spans(units: Sequence[Mapping[str, Any]]) -> set[tuple[int, int]]:
    """The spans of a file's units that a person confirmed (a listing not under review)."""
    return {(u["span"]["start"], u["span"]["end"]) for u in units if not u.get("review")}


def _candidate_union(
    documents: Sequence[Mapping[str, Any]],
    dup: Callable[[Any], Any] = _copy,
    names: Sequence[str] = (),
    answer: str = "",
    sources: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """Every candidate of any file, each once (by NFC id), its text from the first file holding it.

    Raises:
        FixtureError: one id holding two claims: its text differs between two files beyond
            spelling (case, spaces, NFC, Turkish i's), so the files annotate different drafts
            or a claim one annotator added reuses an id.
    """
    seen: dict[str, dict[str, Any]] = {}
    whose: dict[str, int] = {}
    for k, doc in enumerate(documents):
        for c in doc["candidates"]:
            cid = nfc(c["id"])
            first = seen.setdefault(cid, c)
            whose.setdefault(cid, k)
            if first is not c and same_claim_key(first["text"]) != same_claim_key(c["text"]):
                a, b = (names[i] if i < len(names) else f"file {i + 1}" for i in (whose[cid], k))
                where = f" ({sources[whose[cid]]})" if whose[cid] < len(sources) else ""
                raise FixtureError(
                    f"{a}'s file{where} reads {clip(first['text'], 60)!r} and {b}'s "
                    f"{clip(c['text'], 60)!r} under one id: one id, one claim (a claim an "
                    "annotator added needs an id of its own)",
                    file=sources[k] if k < len(sources) else None,
                    record=f"{answer}:{c['id']}" if answer else c["id"],
                    field="text",
                )
    return [dup(c) for c in seen.values()]


def _vote(
    label: str,
    c: Mapping[str, Any],
    spans: Mapping[str, tuple[int, int]],
    gold: Mapping[tuple[int, int], str],
) -> Any:
    """One annotator's value of one label, in the merged file's terms."""
    if label == "preserves":
        return sorted({gold[spans[u]] for u in c["preserves"] if spans.get(u) in gold})
    if label == "evidence":
        ev = c["evidence"]
        return {"status": ev["status"], "references": sorted(ev["references"])}
    if label == "source_spans":
        return [
            {"start": s["start"], "end": s["end"], "text": s["text"]} for s in c["source_spans"]
        ]
    if label == "errors":
        return sorted(c["errors"])
    return c[label]


@dataclass(frozen=True)
class _File:
    """One annotator's file as adjudication reads it: unit spans, confirmed candidates by id."""

    name: str
    spans: Mapping[str, tuple[int, int]]
    confirmed: Mapping[str, Mapping[str, Any]]

    @classmethod
    def of(cls, name: str, doc: Mapping[str, Any]) -> _File:
        spans = {u["id"]: (u["span"]["start"], u["span"]["end"]) for u in doc["units"]}
        mine = {nfc(c["id"]): c for c in doc["candidates"] if not c.get("review")}
        return cls(name, spans, mine)


def _votes(
    cid: str, files: Sequence[_File], gold: Mapping[tuple[int, int], str]
) -> dict[str, dict[str, Any]]:
    """Per label, each annotator's value (only annotators who confirmed the candidate)."""
    out: dict[str, dict[str, Any]] = {}
    for f in files:
        c = f.confirmed.get(cid)
        if c is not None:
            for label in LABELS:
                out.setdefault(label, {})[f.name] = _vote(label, c, f.spans, gold)
    return out


def _agreed(
    cid: str, files: Sequence[_File], gold: Mapping[tuple[int, int], str]
) -> dict[str, Any] | None:
    """Each label's one value when every file confirmed the candidate with the same labels.

    For files that list the same units (see :func:`_same_layout`): the usual case, read once.
    None otherwise (:func:`_votes` then gives each annotator's value).
    """
    first = files[0].confirmed.get(cid)
    if first is None:
        return None
    for f in files[1:]:
        c = f.confirmed.get(cid)
        if c is None or not (c is first or all(c[k] == first[k] for k in LABELS)):
            return None
    return {k: _vote(k, first, files[0].spans, gold) for k in LABELS}


@dataclass
class _Merge:
    """What merging one candidate gives: its provenance, labels left, ties, decisions."""

    provenance: dict[str, Any]
    review: list[str]
    ties: list[Tie]
    decided: list[str]


def _settle(
    cand: dict[str, Any],
    votes: Mapping[str, Mapping[str, Any]],
    wanted: Mapping[str, Any],
    *,
    by: str,
    at: str,
    answer: str,
    prefer: str = "",
) -> _Merge:
    """Each label by decision, else by majority, else by ``prefer`` (a tie), else under review."""
    out = _Merge({}, [], [], [])
    for label in LABELS:
        given = votes.get(label, {})
        if label in wanted:
            record: dict[str, Any] = {
                "votes": {k: decision_value(label, v) for k, v in given.items()}
            }
            cand[label] = wanted[label]
            record.update(rule="decided", by=by, at=at, value=decision_value(label, wanted[label]))
            out.decided.append(f"{cand['id']}.{label}")
        elif not given:
            record = {"votes": {}, "rule": "none"}
            out.review.append(label)
        else:
            record = _majority(cand, label, given, out, answer)
            if record["rule"] == "tie" and prefer in given:
                _prefer(cand, label, given, record, out, prefer=prefer, by=by, at=at)
        out.provenance[label] = record
    return out


def _prefer(
    cand: dict[str, Any],
    label: str,
    given: Mapping[str, Any],
    record: dict[str, Any],
    out: _Merge,
    *,
    prefer: str,
    by: str,
    at: str,
) -> None:
    """Settle a tie with the preferred annotator's value (``--prefer``), recorded as such."""
    cand[label] = given[prefer]
    record.update(rule="preferred", preferred=prefer, by=by, at=at, value=record["votes"][prefer])
    out.review.remove(label)
    out.ties.pop()
    out.decided.append(f"{cand['id']}.{label} ({prefer}'s)")


def _all_gave(cand: dict[str, Any], label: str, value: Any, names: Iterable[str]) -> dict[str, Any]:
    """Set a label every annotator in ``names`` gave alike; its provenance record."""
    cand[label] = value
    voters = dict.fromkeys(names, decision_value(label, value))
    return {"votes": voters, "rule": "unanimous", "of": f"{len(voters)} of {len(voters)}"}


def _unanimous(cand: dict[str, Any], agreed: Mapping[str, Any], names: Sequence[str]) -> _Merge:
    """Every label as every annotator gave it (see :func:`_agreed`), as :func:`_settle` says."""
    out = _Merge({}, [], [], [])
    for label, value in agreed.items():
        out.provenance[label] = _all_gave(cand, label, value, names)
    return out


def _majority(
    cand: dict[str, Any], label: str, given: Mapping[str, Any], out: _Merge, answer: str
) -> dict[str, Any]:
    """One label by the majority of the votes given (each a fresh value, see :func:`_vote`)."""
    values = list(given.values())
    first, n = values[0], len(values)
    if all(v is first or v == first for v in values):  # the usual case: everyone agrees
        return _all_gave(cand, label, first, given)
    record: dict[str, Any] = {"votes": {k: decision_value(label, v) for k, v in given.items()}}
    tally = _tally(record["votes"].values())
    (top, most), *rest = tally
    if rest and rest[0][1] == most:
        record["rule"] = "tie"
        out.review.append(label)
        out.ties.append(Tie(cand["id"], label, dict(record["votes"]), answer))
    else:
        cand[label] = next(v for k, v in given.items() if record["votes"][k] == top)
        record["rule"] = "unanimous" if len(tally) == 1 else "majority"
        record["of"] = f"{most} of {n}"
    return record


def _tally(votes: Iterable[str]) -> list[tuple[str, int]]:
    """Each value with its votes, most first (ties in order of first vote), as Counter gives."""
    values = list(votes)
    first = values[0]
    if all(v is first or v == first for v in values):  # the usual case: everyone agrees
        return [(first, len(values))]
    return Counter(values).most_common()


def _decisions(
    decisions: Sequence[tuple[str, str, Any]],
    cids: Sequence[str],
    gold: Mapping[tuple[int, int], str],
    text: str,
) -> dict[str, dict[str, Any]]:
    """The decisions by NFC candidate id and label, each value in the merged file's terms.

    Raises:
        FixtureError: an unknown candidate or unit, or a span outside the answer.
    """
    wanted: dict[str, dict[str, Any]] = {}
    units = list(gold.values())
    for cid, label, value in decisions:
        key = nfc(cid)
        if key not in cids:
            shown = ", ".join(cids[:12]) + (f", ... ({len(cids)} in all)" if len(cids) > 12 else "")
            raise FixtureError(
                f"unknown candidate id (known: {shown})", record=cid, field="--decide"
            )
        if label == "preserves":
            for uid in value:
                if uid not in units:
                    raise FixtureError(
                        f"unknown unit id {uid!r} in the merged units ({', '.join(units)})",
                        record=cid,
                        field="--decide",
                    )
        if label == "source_spans":
            value = [_span_of(text, s, e, cid) for s, e in value]
        wanted.setdefault(key, {})[label] = value
    return wanted


def _span_of(text: str, start: int, end: int, cid: str) -> dict[str, Any]:
    try:
        return {"start": start, "end": end, "text": utf16_slice(text, start, end)}
    except ValueError as exc:
        raise FixtureError(f"{exc} of the answer", record=cid, field="--decide") from None


def adjudicate(
    documents: Sequence[Mapping[str, Any]],
    fixtures: Sequence[DecompositionFixture],
    *,
    decisions: Sequence[tuple[str, str, Any]] = (),
    by: str = "adjudicator",
    clock: Callable[[], str] = now,
    answer: str = "",
    prefer: Mapping[str, str] | None = None,
) -> Adjudication:
    """Merge annotators' files of one answer by majority (see the module's rules).

    ``answer`` names the answer in the ties (``A/answer-7``) when several are adjudicated at once;
    ``prefer`` whose value settles a tie, by candidate id (``""``: every candidate).

    Raises:
        FixtureError: fewer than two files, files of different answers, or a decision that
            names an unknown candidate or unit.
    """
    if len(fixtures) < 2:
        raise FixtureError("adjudication needs two or more annotators' files")
    from claimlab.metrics.agreement import check_same_answer  # numpy: not for `--help`

    check_same_answer(fixtures)
    documents, fixtures, names = _ordered(documents, fixtures)
    sources = [fx.source for fx in fixtures]
    return merge_documents(
        documents,
        sources,
        names,
        decisions=decisions,
        by=by,
        at=clock(),
        answer=answer,
        prefer=prefer,
    )


def merge_documents(
    documents: Sequence[Mapping[str, Any]],
    sources: Sequence[str],
    names: Sequence[str],
    *,
    decisions: Sequence[tuple[str, str, Any]] = (),
    by: str = "adjudicator",
    at: str = "",
    answer: str = "",
    owned: bool = False,
    prefer: Mapping[str, str] | None = None,
) -> Adjudication:
    """Merge checked files of one answer, already in their annotators' order (see adjudicate).

    ``owned``: the documents are the caller's to give away (just read), so the merged file
    takes their parts as they are instead of copies. ``prefer``: whose value settles a tie,
    by NFC candidate id, ``""`` for every candidate (a decision still comes first).
    """
    dup = _same if owned else _copy
    on_units = {nfc(i): v for i, label, v in decisions if label == "unit"}
    decisions = [d for d in decisions if d[1] != "unit"]
    everyone = (prefer or {}).get("", "")
    kept_units, unit_ties, gold, settled = _merge_units(documents, names, on_units, everyone)
    unit_ties = [Tie(t.candidate, t.label, t.values, answer) for t in unit_ties]
    files = [_File.of(n, d) for n, d in zip(names, documents, strict=True)]
    bases = _candidate_union(documents, dup, names, answer, sources)
    text = documents[0]["original"]["text"]
    wanted = _decisions(decisions, [nfc(c["id"]) for c in bases], gold, text)
    ties: list[Tie] = list(unit_ties)
    decided: list[str] = settled
    same = _same_layout(documents, kept_units)
    for cand in bases:
        cid = nfc(cand["id"])
        agreed = _agreed(cid, files, gold) if same and cid not in wanted else None
        if agreed is not None:
            votes, merge = agreed, _unanimous(cand, agreed, names)
        else:
            votes = _votes(cid, files, gold)
            who = (prefer or {}).get(cid, (prefer or {}).get("", ""))
            merge = _settle(
                cand, votes, wanted.get(cid, {}), by=by, at=at, answer=answer, prefer=who
            )
        ties += merge.ties
        decided += merge.decided
        if "preserves" in merge.review or "preserves" not in votes:
            cand["preserves"] = [u for u in cand.get("preserves", []) if u in gold.values()]
        cand["review"] = [str(f) for f in REVIEW_FIELDS if f in merge.review]
        cand.pop("confirmed", None)
        if not cand["review"]:
            who = f"adjudication ({by})" if merge.decided else "adjudication"
            cand["confirmed"] = {"by": who, "at": at}
        cand["provenance"] = merge.provenance
    merged = _document(documents[0], kept_units, bases, names, sources, by=by, at=at, dup=dup)
    back = _recheck(merged, plain=same and not wanted)
    ties += [Tie(c["id"], "faithful", c["provenance"]["faithful"]["votes"], answer) for c in back]
    _note(merged, names, by)
    return Adjudication(merged, tuple(ties), tuple(decided), tuple(t.candidate for t in unit_ties))


def _document(
    base: Mapping[str, Any],
    units: list[dict[str, Any]],
    candidates: list[dict[str, Any]],
    names: Sequence[str],
    sources: Sequence[str],
    *,
    by: str,
    at: str,
    dup: Callable[[Any], Any] = _copy,
) -> dict[str, Any]:
    """The merged file: the first file's answer and references, the merged units and labels."""
    merged = {k: dup(v) for k, v in base.items() if k not in ("units", "candidates")}
    merged["units"] = units
    merged["candidates"] = candidates
    ids = {nfc(c["id"]) for c in candidates}
    for name, chosen in list(merged.get("modes", {}).items()):  # every mode keeps its known ids
        merged["modes"][name] = [i for i in chosen if nfc(i) in ids]
    merged.pop("annotation", None)
    merged["adjudication"] = {
        "by": by,
        "at": at,
        "annotators": list(names),
        "files": list(sources),
        "rule": "majority of the annotators who confirmed a candidate; ties left for a person",
    }
    return merged


def _note(merged: dict[str, Any], names: Sequence[str], by: str) -> None:
    """The merged file's note: a gold set only when nothing is left under review."""
    settled = not any(c["review"] for c in merged["candidates"]) and not any(
        u.get("review") for u in merged["units"]
    )
    merged["note"] = f"Adjudicated from {len(names)} annotators ({', '.join(names)}) by {by}. " + (
        "Every label settled: a gold set."
        if settled
        else "Some labels are still under review (ties): not yet a gold set."
    )


def _unit_layout(units: Sequence[Mapping[str, Any]]) -> list[tuple[str, int, int]]:
    return [(u["id"], u["span"]["start"], u["span"]["end"]) for u in units]


def _same_layout(
    documents: Sequence[Mapping[str, Any]], units: Sequence[Mapping[str, Any]]
) -> bool:
    """Every file holds the same candidate ids and the same units, as the merged file does.

    The merged file then refers only to what the first file refers to, which its reader
    checked: only the merged labels need checking against each other.
    """
    merged = _unit_layout(units)
    first = [c["id"] for c in documents[0]["candidates"]]
    return all(
        [c["id"] for c in d["candidates"]] == first and _unit_layout(d["units"]) == merged
        for d in documents
    )


class _SpanView(NamedTuple):
    start: int
    end: int


class _EvidenceView(NamedTuple):
    status: str
    references: list[str]


class _LabelsView(NamedTuple):
    """A merged candidate's labels as :func:`candidate_problems` reads them."""

    faithful: bool
    errors: list[str]
    preserves: list[str]
    source_spans: list[_SpanView]
    evidence: _EvidenceView


def _contradicts(cand: Mapping[str, Any], units: Mapping[str, _SpanView]) -> bool:
    ev = cand["evidence"]
    view = _LabelsView(
        cand["faithful"],
        cand["errors"],
        cand["preserves"],
        [_SpanView(s["start"], s["end"]) for s in cand["source_spans"]],
        _EvidenceView(ev["status"], ev["references"]),
    )
    return bool(candidate_problems(cast(Any, view), cast(Any, units)))


def _recheck(merged: dict[str, Any], *, plain: bool = False) -> list[dict[str, Any]]:
    """Settled candidates whose merged labels contradict each other go back to review.

    Their ``faithful`` is proposed again (deciding it settles them) and its provenance says
    why. The merged file is then read again in full unless it is ``plain`` (see
    :func:`_same_layout`, and no decision) and nothing went back.
    """
    units = {u["id"]: _SpanView(u["span"]["start"], u["span"]["end"]) for u in merged["units"]}
    back = [c for c in merged["candidates"] if not c["review"] and _contradicts(c, units)]
    for cand in back:
        cand["review"] = [str(REVIEW_FIELDS[2])]
        cand.pop("confirmed", None)
        cand["provenance"]["faithful"].update(
            rule="contradiction",
            problem="the majorities of its labels contradict each other",
        )
    if back or not plain:
        read_decomposition(merged, source="adjudicated file")
    return back


# ------------------------------------------------------------------------------ many answers


def split_decision(text: str, answers: Sequence[str]) -> tuple[str, str]:
    """``ANSWER:CID.LABEL=VALUE`` as (answer, the rest); the answer is one of ``answers``.

    Ids may hold colons, so the answer is the longest known one the text starts with; with
    one answer the prefix may be left out.

    Raises:
        FixtureError: an answer that is not among them, or none given with several answers.
    """
    head = text.partition("=")[0]
    known = sorted((a for a in answers if head.startswith(a + ":")), key=len, reverse=True)
    if known:
        return known[0], text[len(known[0]) + 1 :]
    if len(answers) == 1:
        return answers[0], text
    shown = ", ".join(list(answers)[:8]) + (", ..." if len(answers) > 8 else "")
    named = head.rpartition(".")[0].rpartition(":")[0]
    if named:  # an answer was named, but none of these
        raise FixtureError(
            f"no answer {named!r} among those adjudicated (answers: {shown})", field="--decide"
        )
    raise FixtureError(
        f"name the answer: ANSWER:CANDIDATE.LABEL=VALUE (answers: {shown}), got {text!r}",
        field="--decide",
    )


@dataclass(frozen=True)
class AnswerResult:
    """What adjudicating one answer gave (its gold file is written where the caller said)."""

    key: AnswerKey
    gold: bool
    ties: tuple[Tie, ...]
    decided: tuple[str, ...]
    unit_ties: tuple[str, ...]
    unconfirmed: tuple[str, ...] = ()  # candidates no annotator confirmed: no vote at all
    unconfirmed_units: tuple[str, ...] = ()  # kept units no annotator confirmed: still proposed


def _wanted(
    decisions: Sequence[str], labels: Sequence[str]
) -> dict[str, list[tuple[str, str, Any]]]:
    """The ``--decide`` values by answer (parsed; each names an answer, or the only one)."""
    wanted: dict[str, list[tuple[str, str, Any]]] = {}
    for text in decisions:
        answer, rest = split_decision(text, labels)
        wanted.setdefault(answer, []).append(parse_decision(rest))
    return wanted


def preferences(
    values: Sequence[str], answers: Sequence[str], names: Sequence[str]
) -> dict[str, dict[str, str]]:
    """``--prefer`` values by answer, then candidate: whose value settles a tie.

    ``ANNOTATOR`` for every tie (answer ``""``, candidate ``""``), or
    ``[ANSWER:]CID=ANNOTATOR`` for one candidate's ties (the answer may be left out when there
    is one). A candidate's own preference comes before the one for all.

    Raises:
        FixtureError: an annotator who is not among those given, or an unknown answer.
    """
    out: dict[str, dict[str, str]] = {}
    for text in values:
        if "=" in text:
            answer, rest = split_decision(text, answers)
            cid, _, who = rest.partition("=")
            if not cid:
                raise FixtureError(
                    f"--prefer reads ANNOTATOR or [ANSWER:]CANDIDATE=ANNOTATOR, got {text!r}",
                    field="--prefer",
                )
            where = (answer, nfc(cid))
        else:
            where, who = ("", ""), text
        if nfc(who) not in names:
            raise FixtureError(
                f"--prefer names {who!r}, who is not among the annotators ({', '.join(names)})",
                field="--prefer",
            )
        out.setdefault(where[0], {})[where[1]] = nfc(who)
    return out


def decisions_template(results: Sequence[AnswerResult]) -> str:
    """Every tie as lines to edit for ``--decide @FILE``: each choice commented out.

    A person removes the ``#`` before the value they choose (one per tie); a tie with no
    line chosen stays under review, so nothing is decided by leaving the file as written.
    """
    lines = [
        "# claimlab adjudicate: the ties, one block each. Remove the '#' before the value you",
        "# choose (one per tie), then run: claimlab adjudicate ... --decide @THIS_FILE",
    ]
    for r in results:
        for t in r.ties:
            votes = ", ".join(f"{k}={v}" for k, v in t.values.items())
            at = f"{t.answer}: " if t.answer else ""
            lines.append("")
            lines.append(f"# {at}{t.candidate}.{t.label}: {votes}")
            lines += [f"# {t.decide(v)}" for v in dict.fromkeys(t.values.values())]
    return "\n".join(lines) + "\n"


def _check_two_annotators(
    groups: Sequence[tuple[AnswerKey, list[AnnotatedFile | None]]], names: Sequence[str]
) -> None:
    """Refuse answers only one annotator annotated, all of them named.

    The first with its file, then how many more and the next ones (up to 10).
    """
    alone = []
    for key, files in groups:
        given = [(n, f) for n, f in zip(names, files, strict=True) if f is not None]
        if len(given) < 2:
            alone.append((key, given[0]))
    if alone:
        (key, (who, first)), rest = alone[0], [k.label for k, _ in alone[1:]]
        more = (
            f"; {len(rest)} more answer{'s' if len(rest) > 1 else ''} too: {', '.join(rest[:10])}"
            + (f" and {len(rest) - 10} more" if len(rest) > 10 else "")
            if rest
            else ""
        )
        raise FixtureError(
            f"answer {key.label} is annotated by {who} only: adjudication needs two or more "
            f"annotators for every answer (add the others' files, or leave it out){more}",
            file=first.path,
        )


def adjudicate_sets(
    sets: Sequence[AnnotationSet],
    write: Callable[[int, dict[str, Any]], None],
    *,
    decisions: Sequence[str] = (),
    by: str = "adjudicator",
    clock: Callable[[], str] = now,
    progress: Callable[[int], None] | None = None,
    groups: Sequence[tuple[AnswerKey, list[AnnotatedFile | None]]] | None = None,
    prefer: Sequence[str] = (),
) -> list[AnswerResult]:
    """Adjudicate every answer of several annotators' folders, on every core.

    ``write(k, document)`` receives answer k's merged document (answers in key order); it runs
    in the worker that merged it. ``groups``: :func:`answers_of` the sets, if already known.
    ``prefer``: ``--prefer`` values (see :func:`preferences`).

    Raises:
        FixtureError: an answer only one annotator annotated, or a decision that cannot be
            applied (naming it).
    """
    groups = list(answers_of(sets)) if groups is None else groups
    names = set_names(sets)
    wanted = _wanted(decisions, [k.label for k, _ in groups])
    preferred = preferences(prefer, [k.label for k, _ in groups], names)
    _check_two_annotators(groups, names)
    at = clock()

    def work(start: int, stop: int) -> list[AnswerResult]:
        out = []
        for k in range(start, stop):
            key, files = groups[k]
            given = [(n, f) for n, f in zip(names, files, strict=True) if f is not None]
            r = merge_documents(
                [load_scanned(f) for _, f in given],
                [f.path for _, f in given],
                [n for n, _ in given],
                decisions=wanted.get(key.label, ()),
                by=by,
                at=at,
                answer=key.label if len(groups) > 1 else "",
                owned=True,
                prefer={**preferred.get("", {}), **preferred.get(key.label, {})},
            )
            try:
                write(k, r.document)
            except ClaimlabInputError as err:  # a value kept from the files, too deep to write
                if err.file is not None:
                    raise
                sources = " / ".join(str(f.path) for _, f in given)
                raise ClaimlabInputError(err.problem, file=sources, field=err.field) from None
            out.append(_answer_result(key, r))
        return out

    results: list[AnswerResult] = []
    for part in chunked(work, len(groups), chunk=1000):
        results += part
        if progress is not None:
            progress(len(part))
    return results


def _answer_result(key: AnswerKey, r: Adjudication) -> AnswerResult:
    """One answer's result: its verdicts, the candidates no rule settled, units left to review."""
    nobody = tuple(
        c["id"]
        for c in r.document["candidates"]
        if any(rec.get("rule") == "none" for rec in c["provenance"].values())
    )
    units = tuple(
        u["id"] for u in r.document["units"] if u.get("review") and u["id"] not in r.unit_ties
    )
    return AnswerResult(key, r.gold, r.ties, r.decided, r.unit_ties, nobody, units)


def gold_targets(out: str | Path, keys: Sequence[AnswerKey]) -> list[str]:
    """Where each answer's gold file goes: ``OUT/[DECOMPOSER/]ANSWER.json``, or OUT for one.

    Raises:
        FixtureError: a ``.json`` file named for several answers.
    """
    from claimlab.io.files import file_names

    out = os.fspath(out)
    if Path(out).suffix == ".json" and not os.path.isdir(out):
        if len(keys) != 1:
            raise FixtureError(
                f"names one file but there are {len(keys)} answers: give a folder",
                file=out,
                field="--out",
            )
        return [out]
    by_decomposer: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        by_decomposer.setdefault(k.decomposer, []).append(i)
    targets = [out] * len(keys)  # strings, not paths: 100,000 of them stay cheap
    for decomposer, idx in by_decomposer.items():
        folder = (
            os.path.join(out, file_names([decomposer])[0][: -len(".json")]) if decomposer else out
        )
        for i, name in zip(idx, file_names([keys[i].answer for i in idx]), strict=True):
            targets[i] = os.path.join(folder, name)
    return targets


def _no_progress(desc: str, total: int | None = None) -> Callable[[int], None]:
    return lambda n: None


def adjudicate_paths(
    paths: Sequence[str | Path],
    out: str | Path,
    *,
    decisions: Sequence[str] = (),
    by: str = "adjudicator",
    clock: Callable[[], str] = now,
    progress: Callable[[str, int | None], Callable[[int], None]] | None = None,
    prefer: Sequence[str] = (),
) -> tuple[list[AnswerResult], list[str]]:
    """Adjudicate annotators' files or folders into ``out`` (one gold file per answer).

    ``prefer``: whose value settles the ties no decision settles (see :func:`preferences`).

    Every gold file is written, or none (the files are staged and renamed together).

    Raises:
        FixtureError: a refused file or decision (see :func:`claimlab.io.annotations.scan_sets`
            and :func:`adjudicate_sets`).
    """
    from claimlab.io.annotations import scan_sets
    from claimlab.io.files import Staging, json_text

    step = progress or _no_progress
    with bulk_load():  # 100,000s of records and none in a cycle: no collector passes over them
        sets = scan_sets(paths, progress=step("reading files", None))
        groups = list(answers_of(sets))
        targets = gold_targets(out, [k for k, _ in groups])
        staging = Staging(targets)
        try:
            results = adjudicate_sets(
                sets,
                lambda k, doc: staging.write(k, json_text(doc)),
                decisions=decisions,
                by=by,
                clock=clock,
                progress=step("adjudicating", len(groups)),
                groups=groups,
                prefer=prefer,
            )
            staging.commit()
        finally:
            staging.discard()
    return results, targets
