"""Adjudication: several annotators' files of one draft become one gold file, with provenance.

Rules:
    * a **unit** (by its UTF-16 span) is kept when more than half of the files mark it; at a
      tie it is kept but proposed again (``review: ["span"]``) for the adjudicator;
    * each **label** of a candidate is the majority of the annotators who confirmed that
      candidate (``faithful``, ``atomic``, ``errors`` as a set, ``evidence`` as status and
      references, ``preserves`` unit by unit over the kept units, ``source_spans`` as spans);
      a tie, or no annotator at all, leaves the label under review;
    * the adjudicator's **decisions** settle ties (or overrule a majority) and are recorded as
      theirs, with their name and the time;
    * every label keeps its provenance: the rule (unanimous, majority, tie, decided, none),
      each annotator's value, and who decided.

A candidate whose every label was settled is confirmed "by adjudication"; the file is a
gold set only when nothing is left under review.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.core.errors import FixtureError
from claimlab.core.frozen import freeze
from claimlab.core.vocab import ERROR_KINDS, REVIEW_FIELDS, STATUSES
from claimlab.io.decomposition import DecompositionFixture, candidate_problems, read_decomposition
from claimlab.labs.annotation import now
from claimlab.metrics.agreement import annotator_names, check_same_answer

LABELS = ("source_spans", "preserves", "faithful", "atomic", "errors", "evidence")


@dataclass(frozen=True)
class Tie:
    """A label the majority did not settle: what each annotator chose."""

    candidate: str
    label: str
    values: Mapping[str, Any]

    def __post_init__(self) -> None:
        freeze(self, "values")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"candidate": self.candidate, "label": self.label, "values": dict(self.values)}


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


def _key(value: Any) -> str:
    """A value as a hashable, printable vote."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_key(v) for v in value) or "-"
    if isinstance(value, dict):
        return ";".join(f"{k}={_key(v)}" for k, v in sorted(value.items()))
    return str(value)


def parse_decision(text: str) -> tuple[str, str, Any]:
    """A decision ``CID.LABEL=VALUE`` as ``(candidate, label, value)``.

    ``S3.faithful=false``, ``S3.errors=qualifier,entity``, ``S3.evidence=SUPPORTED:R9``,
    ``S3.preserves=U10,U11``.

    Raises:
        FixtureError: naming the decision that cannot be read.
    """
    head, sep, value = text.partition("=")
    cid, dot, label = head.rpartition(".")
    if not sep or not dot or not cid:
        raise FixtureError(
            f"a decision reads CANDIDATE.LABEL=VALUE, got {text!r}", field="--decide"
        )
    items = [v for v in value.split(",") if v] if value not in ("", "-") else []
    if label in ("faithful", "atomic"):
        if value not in ("true", "false"):
            raise FixtureError(
                f"{label} is true or false, got {value!r}", record=cid, field="--decide"
            )
        return cid, label, value == "true"
    if label == "errors":
        for e in items:
            if e not in ERROR_KINDS:
                raise FixtureError(
                    f"unknown error kind {e!r} (one of {', '.join(ERROR_KINDS)})",
                    record=cid,
                    field="--decide",
                )
        return cid, label, items
    if label == "evidence":
        status, _, refs = value.partition(":")
        if status not in STATUSES:
            raise FixtureError(
                f"unknown status {status!r} (one of {', '.join(STATUSES)})",
                record=cid,
                field="--decide",
            )
        return cid, label, {"status": status, "references": [r for r in refs.split(",") if r]}
    if label == "preserves":
        return cid, label, items
    raise FixtureError(
        f"unknown label {label!r} (decide faithful, atomic, errors, evidence or preserves)",
        record=cid,
        field="--decide",
    )


def adjudicate(
    documents: Sequence[Mapping[str, Any]],
    fixtures: Sequence[DecompositionFixture],
    *,
    decisions: Sequence[tuple[str, str, Any]] = (),
    by: str = "adjudicator",
    clock: Any = now,
) -> Adjudication:
    """Merge annotators' files by majority (see the module's rules).

    Raises:
        FixtureError: fewer than two files, files of different answers, or a decision that
            names an unknown candidate or unit.
    """
    if len(fixtures) < 2:
        raise FixtureError("adjudication needs two or more annotators' files")
    check_same_answer(fixtures)
    names = annotator_names(fixtures)
    at = clock()
    half = len(fixtures) / 2

    # units, by span
    votes: Counter[tuple[int, int]] = Counter()
    unit_doc: dict[tuple[int, int], dict[str, Any]] = {}
    for doc in documents:
        for u in doc["units"]:
            sp = (u["span"]["start"], u["span"]["end"])
            votes[sp] += 1
            unit_doc.setdefault(sp, {"id": u["id"], "span": dict(u["span"])})
    kept_units: list[dict[str, Any]] = []
    unit_ties: list[str] = []
    used_ids: set[str] = set()
    for sp in sorted(votes):
        if votes[sp] < half:
            continue
        u = copy.deepcopy(unit_doc[sp])
        k = 1
        while u["id"] in used_ids:
            u["id"], k = f"U{len(votes) + k}", k + 1
        used_ids.add(u["id"])
        if votes[sp] == half:
            u["review"] = ["span"]
            unit_ties.append(u["id"])
        kept_units.append(u)
    gold_by_span = {(u["span"]["start"], u["span"]["end"]): u["id"] for u in kept_units}

    by_file = []
    for doc in documents:
        spans = {u["id"]: (u["span"]["start"], u["span"]["end"]) for u in doc["units"]}
        cands = {c["id"]: c for c in doc["candidates"] if not c.get("review")}
        by_file.append((spans, cands))

    wanted: dict[tuple[str, str], Any] = {}
    all_ids = [c["id"] for c in documents[0]["candidates"]]
    for cid, label, value in decisions:
        if cid not in all_ids:
            raise FixtureError(
                f"unknown candidate id (known: {', '.join(all_ids)})", record=cid, field="--decide"
            )
        if label == "preserves":
            for uid in value:
                if uid not in gold_by_span.values():
                    raise FixtureError(
                        f"unknown unit id {uid!r} in the merged units ({', '.join(gold_by_span.values())})",
                        record=cid,
                        field="--decide",
                    )
        wanted[(cid, label)] = value

    merged = copy.deepcopy(dict(documents[0]))
    merged["units"] = kept_units
    ties: list[Tie] = []
    decided: list[str] = []
    out_cands = []
    for base in merged["candidates"]:
        cid = base["id"]
        votes_by_label: dict[str, dict[str, Any]] = {}
        for name, (spans, cands) in zip(names, by_file, strict=True):
            c = cands.get(cid)
            if c is None:
                continue
            for label in LABELS:
                if label == "preserves":
                    value = sorted(
                        gold_by_span[spans[u]]
                        for u in c["preserves"]
                        if spans.get(u) in gold_by_span
                    )
                elif label == "evidence":
                    value = {
                        "status": c["evidence"]["status"],
                        "references": sorted(c["evidence"]["references"]),
                    }
                elif label == "source_spans":
                    value = [
                        {"start": s["start"], "end": s["end"], "text": s["text"]}
                        for s in c["source_spans"]
                    ]
                elif label == "errors":
                    value = sorted(c["errors"])
                else:
                    value = c[label]
                votes_by_label.setdefault(label, {})[name] = value
        provenance: dict[str, Any] = {}
        review: list[str] = []
        cand = copy.deepcopy(base)
        for label in LABELS:
            given = votes_by_label.get(label, {})
            record: dict[str, Any] = {"votes": {k: _key(v) for k, v in given.items()}}
            if (cid, label) in wanted:
                cand[label] = wanted[(cid, label)]
                record.update(rule="decided", by=by, at=at, value=_key(wanted[(cid, label)]))
                decided.append(f"{cid}.{label}")
            elif not given:
                record["rule"] = "none"
                review.append(label)
            else:
                tally = Counter(_key(v) for v in given.values())
                (top, n), *rest = tally.most_common()
                if rest and rest[0][1] == n:
                    record["rule"] = "tie"
                    review.append(label)
                    ties.append(Tie(cid, label, {k: _key(v) for k, v in given.items()}))
                else:
                    winner = next(v for v in given.values() if _key(v) == top)
                    cand[label] = copy.deepcopy(winner)
                    record["rule"] = "unanimous" if len(tally) == 1 else "majority"
                    record["of"] = f"{n} of {len(given)}"
            provenance[label] = record
        if "preserves" in review or "preserves" not in votes_by_label:
            cand["preserves"] = [p for p in cand.get("preserves", []) if p in gold_by_span.values()]
        cand["review"] = [str(f) for f in REVIEW_FIELDS if f in review]
        cand.pop("confirmed", None)
        if not cand["review"]:
            cand["confirmed"] = {
                "by": f"adjudication ({by})" if decided else "adjudication",
                "at": at,
            }
        cand["provenance"] = provenance
        out_cands.append(cand)
    merged["candidates"] = out_cands
    merged.pop("annotation", None)
    merged["adjudication"] = {
        "by": by,
        "at": at,
        "annotators": list(names),
        "files": [fx.source for fx in fixtures],
        "rule": "majority of the annotators who confirmed a candidate; ties left for a person",
    }
    merged["note"] = (
        f"Adjudicated from {len(fixtures)} annotators ({', '.join(names)}) by {by}. "
        + (
            "Every label settled: a gold set."
            if not any(c["review"] for c in out_cands) and not unit_ties
            else "Some labels are still under review (ties): not yet a gold set."
        )
    )
    fx = read_decomposition(merged, source="adjudicated file")
    # a settled candidate whose merged labels contradict each other goes back to review
    unit_spans = {u.id: u.span for u in fx.units}
    bad = False
    for c, cand in zip(fx.candidates, out_cands, strict=True):
        if not c.review and candidate_problems(c, unit_spans):
            cand["review"] = [str(REVIEW_FIELDS[2])]
            cand.pop("confirmed", None)
            bad = True
    if bad:
        read_decomposition(merged, source="adjudicated file")
    return Adjudication(merged, tuple(ties), tuple(decided), tuple(unit_ties))
