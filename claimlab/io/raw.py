"""A decomposer's raw output: answers and the subclaims split from them (``claimlab draft``'s input).

JSON Lines, one answer per line::

    {"id": str, "answer": str, "subclaims": [str, ...],
     "version": str,                                   # optional, default "draft"
     "units": [str | {"start": int, "end": int}],      # optional: the answer's units
     "references": [{"id", "title", "version", "text"}],  # optional
     "labels": [{...} | null, ...]}                    # optional, one per subclaim

A unit given as a string is found in the answer (after the previous unit); offsets are UTF-16
code units, end exclusive. ``labels`` carry what another tool already said about a subclaim
(an autorater's ``status``, say): any of ``status``, ``references``, ``faithful``, ``atomic``,
``errors``, ``entity``, ``version``, ``predicate``, ``qualifiers``, ``fingerprint``. They are
proposals like every other label of a draft; an unknown key is refused (a typo would
otherwise be lost without a word).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from claimlab.core.errors import FixtureError
from claimlab.core.spans import utf16_len, utf16_offset, utf16_slice
from claimlab.core.vocab import ERROR_KINDS, STATUSES, unknown
from claimlab.io.reader import Record, bulk_load, check_unique, describe, iter_jsonl

# the answer and what is found in it by offset or by text stay as written (see
# claimlab.io.decomposition.AS_WRITTEN); ids, labels and names are read in NFC
AS_WRITTEN = frozenset({"answer", "units", "subclaims", "text"})

LABEL_FIELDS = (
    "status",
    "references",
    "faithful",
    "atomic",
    "errors",
    "entity",
    "version",
    "predicate",
    "qualifiers",
    "fingerprint",
)
_LABEL_TYPES: dict[str, str] = {
    "status": "str",
    "references": "list",
    "faithful": "bool",
    "atomic": "bool",
    "errors": "list",
    "entity": "str",
    "version": "str",
    "predicate": "str",
    "qualifiers": "list",
    "fingerprint": "str",
}


@dataclass(frozen=True)
class RawReference:
    """A reference document given with an answer."""

    id: str
    title: str
    version: str
    text: str


@dataclass(frozen=True)
class RawAnswer:
    """One answer as a decomposer left it.

    ``units`` are UTF-16 ``(start, end)`` pairs, or None when the line gives none.
    """

    id: str
    line: int
    answer: str
    version: str
    subclaims: tuple[str, ...]
    units: tuple[tuple[int, int], ...] | None
    references: tuple[RawReference, ...]
    labels: tuple[Mapping[str, Any], ...]


def _units(rec: Record, answer: str) -> tuple[tuple[int, int], ...] | None:
    if "units" not in rec.data:
        return None
    n = utf16_len(answer)
    out: list[tuple[int, int]] = []
    after = 0  # code point index: a unit given as text is looked for after the previous one
    for j, item in enumerate(rec.get("units", list)):
        where = f"units[{j}]"
        if isinstance(item, str):
            if not item.strip():
                raise rec.error("a unit must hold some text", field=where)
            i = answer.find(item, after)
            if i < 0:
                i = answer.find(item)
            if i < 0:
                raise rec.error(f"{describe(item)} does not occur in the answer", field=where)
            start, end = utf16_offset(answer, i), utf16_offset(answer, i + len(item))
            after = i + len(item)
        else:
            u = Record(item, file=rec.file, record=rec.record, path=where)
            start = u.get("start", int)
            end = u.get("end", int)
            if not 0 <= start < end <= n:
                raise u.error(
                    f"span {start}..{end} is not inside the answer (0..{n} UTF-16 units, "
                    "end exclusive, start < end)",
                    field=f"{where}.start",
                )
            try:
                utf16_slice(answer, start, end)
            except ValueError as exc:
                raise u.error(str(exc), field=where) from None
        out.append((start, end))
    return tuple(out)


def _labels(rec: Record, count: int) -> tuple[Mapping[str, Any], ...]:
    if rec.data.get("labels") is None:
        return tuple(MappingProxyType({}) for _ in range(count))
    raw = rec.get("labels", list)
    if len(raw) != count:
        raise rec.error(
            f"has {len(raw)} entries but there are {count} subclaims (one per subclaim, or null)",
            field="labels",
        )
    out: list[Mapping[str, Any]] = []
    for j, item in enumerate(raw):
        if item is None:
            out.append(MappingProxyType({}))
            continue
        lab = Record(item, file=rec.file, record=rec.record, path=f"labels[{j}]")
        for key in lab.data:
            if key not in _LABEL_TYPES:
                raise lab.error(
                    f"unknown label (one of {', '.join(LABEL_FIELDS)})", field=lab.field(key)
                )
        got: dict[str, Any] = {}
        for key, kind in _LABEL_TYPES.items():
            if key not in lab.data:
                continue
            if kind == "str":
                got[key] = lab.get(key, str)
            elif kind == "bool":
                got[key] = lab.get(key, bool)
            else:
                got[key] = lab.str_list(key)
        if "status" in got and got["status"] not in STATUSES:
            raise lab.error(
                unknown("status", got["status"], STATUSES),
                field=lab.field("status"),
            )
        for k, e in enumerate(got.get("errors", ())):
            if e not in ERROR_KINDS:
                raise lab.error(
                    unknown("error kind", e, ERROR_KINDS),
                    field=lab.field(f"errors[{k}]"),
                )
        out.append(MappingProxyType(got))
    return tuple(out)


@bulk_load()  # records without cycles: no collector pass over them
def load_raw_answers(path: str | Path) -> list[RawAnswer]:
    """Read a raw decomposer output file (see the module's format).

    Raises:
        FixtureError: naming the file, the record id (or line) and the field.
    """
    source = str(path)
    answers = [
        _raw_answer(value, n, source) for n, value in iter_jsonl(path, as_written=AS_WRITTEN)
    ]
    seen: set[str] = set()
    for a in answers:  # ids are read in NFC: one typed composed or decomposed is one id
        if a.id in seen:
            raise FixtureError(
                "duplicate id (ids must be unique, compared in one Unicode spelling: NFC)",
                file=source,
                record=a.id,
                field="id",
            )
        seen.add(a.id)
    if not answers:
        raise FixtureError("holds no answer (one JSON object per line)", file=source)
    return answers


def _raw_answer(value: object, n: int, source: str) -> RawAnswer:
    """One line's answer, every field checked (naming the record and field)."""
    if not isinstance(value, dict):
        raise FixtureError(
            f"must be an object, got {describe(value)}", file=source, record=f"line {n}"
        )
    rid = value.get("id")
    if not isinstance(rid, str) or not rid:
        raise FixtureError(
            f"must be a non-empty string, got {describe(rid)}",
            file=source,
            record=f"line {n}",
            field="id",
        )
    rec = Record(value, file=source, record=rid)
    answer = rec.get("answer", str)
    subclaims = rec.str_list("subclaims")
    for j, text in enumerate(subclaims):
        if not text.strip():
            raise rec.error("a subclaim must hold some text", field=f"subclaims[{j}]")
    references = _references(rec, source, rid)
    labels = _labels(rec, len(subclaims))
    known_refs = {r.id for r in references}
    for j, lab in enumerate(labels):
        for k, ref in enumerate(lab.get("references", ())):
            if ref not in known_refs:
                raise rec.error(
                    f"unknown reference id {ref!r}", field=f"labels[{j}].references[{k}]"
                )
    return RawAnswer(
        id=rid,
        line=n,
        answer=answer,
        version=rec.get("version", str, "draft"),
        subclaims=subclaims,
        units=_units(rec, answer),
        references=references,
        labels=labels,
    )


def _references(rec: Record, source: str, rid: str) -> tuple[RawReference, ...]:
    references = tuple(
        RawReference(
            r.get("id", str),
            r.get("title", str, ""),
            r.get("version", str, ""),
            r.get("text", str),
        )
        for _, r in (rec.records("references") if "references" in rec.data else ())
    )
    check_unique([r.id for r in references], file=source, field=f"{rid}.references")
    return references
