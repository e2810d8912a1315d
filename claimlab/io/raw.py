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

The format is declared once, :class:`RawLine` (with :class:`RawReference` and
:class:`RawLabel`): from it come the types, the defaults, the first problem's file, record and
field (:mod:`claimlab.io.declared`) and the JSON Schema of a line; the reader adds the checks
that span fields. As in every format of claimlab's, null for an optional field is the same as
absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

import msgspec

from claimlab.core.errors import FixtureError
from claimlab.core.spans import utf16_len, utf16_offset, utf16_slice
from claimlab.core.vocab import ErrorKind, Status
from claimlab.io.declared import described, read_named
from claimlab.io.reader import Record, bulk_load, check_unique, describe, iter_jsonl

# the answer and what is found in it by offset or by text stay as written (see
# claimlab.io.decomposition.AS_WRITTEN); ids, labels and names are read in NFC
AS_WRITTEN = frozenset({"answer", "units", "subclaims", "text"})

Id = Annotated[str, msgspec.Meta(min_length=1)]  # a record id: a non-empty string
# a unit: a text found in the answer, or its UTF-16 offsets (resolved by the reader: _units)
Unit = Annotated[
    Any,
    described(
        {
            "anyOf": [
                {"type": "string", "minLength": 1},
                {
                    "type": "object",
                    "properties": {
                        "start": {"type": "integer", "minimum": 0},
                        "end": {"type": "integer", "minimum": 1},
                    },
                    "required": ["start", "end"],
                },
            ]
        }
    ),
]


@dataclass(frozen=True, kw_only=True)
class RawReference:
    """A reference document given with an answer."""

    id: Id
    title: str = ""
    version: str = ""
    text: str


@dataclass(frozen=True, kw_only=True)
class RawLabel:
    """What another tool already said about a subclaim (each field optional; null = absent)."""

    status: Status | None = None
    references: tuple[str, ...] | None = None
    faithful: bool | None = None
    atomic: bool | None = None
    errors: tuple[ErrorKind, ...] | None = field(default=None, metadata={"what": "error kind"})
    entity: str | None = None
    version: str | None = None
    predicate: str | None = None
    qualifiers: tuple[str, ...] | None = None
    fingerprint: str | None = None


@dataclass(frozen=True, kw_only=True)
class RawLine:
    """One line of a raw file as it is written: the format's declaration.

    ``units`` items are a text found in the answer or ``{"start", "end"}`` UTF-16 offsets
    (resolved by the reader, which also checks what spans fields: one label per subclaim, known
    reference ids, unique ids, no unknown label).
    """

    id: Id
    answer: str
    subclaims: tuple[str, ...] = field(metadata={"texts": True})
    references: tuple[RawReference, ...] = ()
    labels: tuple[RawLabel | None, ...] | None = None
    version: str = "draft"
    units: tuple[Unit, ...] | None = None


LABEL_FIELDS = tuple(f for f in RawLabel.__dataclass_fields__)


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


def _units(rec: Record, line: RawLine) -> tuple[tuple[int, int], ...] | None:
    """The units' UTF-16 offsets: a text found in the answer, or offsets inside it."""
    if line.units is None:
        return None
    answer = line.answer
    n = utf16_len(answer)
    out: list[tuple[int, int]] = []
    after = 0  # code point index: a unit given as text is looked for after the previous one
    for j, item in enumerate(line.units):
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
        elif not isinstance(item, dict):  # neither form: say both
            raise rec.error(
                f'must be a text found in the answer or {{"start", "end"}} offsets, got '
                f"{describe(item)}",
                field=where,
            )
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


def _labels(rec: Record, line: RawLine) -> tuple[Mapping[str, Any], ...]:
    """One mapping per subclaim of what its label gives (empty where the line gives none)."""
    count = len(line.subclaims)
    if line.labels is None:
        return tuple(MappingProxyType({}) for _ in range(count))
    if len(line.labels) != count:
        raise rec.error(
            f"has {len(line.labels)} entries but there are {count} subclaims (one per "
            "subclaim, or null)",
            field="labels",
        )
    for j, item in enumerate(rec.data["labels"]):
        for key in item or ():
            if key not in LABEL_FIELDS:
                raise rec.error(
                    f"unknown label (one of {', '.join(LABEL_FIELDS)})", field=f"labels[{j}].{key}"
                )
    known_refs = {r.id for r in line.references}
    for j, lab in enumerate(line.labels):
        for k, ref in enumerate((lab and lab.references) or ()):
            if ref not in known_refs:
                raise rec.error(
                    f"unknown reference id {ref!r}", field=f"labels[{j}].references[{k}]"
                )
    return tuple(_given(item) for item in rec.data["labels"])


def _given(label: dict[str, Any] | None) -> Mapping[str, Any]:
    """A label's given fields as the file gives them (checked), lists as tuples, nulls left out."""
    return MappingProxyType(
        {
            k: tuple(v) if isinstance(v, list) else v
            for k, v in (label or {}).items()
            if v is not None
        }
    )


@bulk_load()  # records without cycles: no collector pass over them
def load_raw_answers(path: str | Path) -> list[RawAnswer]:
    """Read a raw decomposer output file (see the module's format).

    Raises:
        FixtureError: naming the file, the record id (or line) and the field.
    """
    source = str(path)
    lines = list(iter_jsonl(path, as_written=AS_WRITTEN))
    ids = [_line_id(value, n, source) for n, value in lines]
    values = [value for _, value in lines]
    declared = read_named(RawLine, values, ids, file=source)
    seen: set[str] = set()
    answers = []
    for (n, value), line in zip(lines, declared, strict=True):
        if line.id in seen:  # ids are read in NFC: one typed composed or decomposed is one id
            raise FixtureError(
                "duplicate id (ids must be unique, compared in one Unicode spelling: NFC)",
                file=source,
                record=line.id,
                field="id",
            )
        seen.add(line.id)
        answers.append(_raw_answer(Record(value, file=source, record=line.id), n, line))
    if not answers:
        raise FixtureError("holds no answer (one JSON object per line)", file=source)
    return answers


def read_raw_answer(value: object, *, source: str, line: int = 1) -> RawAnswer:
    """One parsed line as an answer: every check of the file but ids unique across lines.

    Raises:
        FixtureError: naming ``source``, the record id (or the line) and the field.
    """
    rid = _line_id(value, line, source)
    (declared,) = read_named(RawLine, [value], [rid], file=source)
    return _raw_answer(Record(value, file=source, record=rid), line, declared)


def _line_id(value: object, n: int, source: str) -> str:
    """A line's id: the line must be an object with a non-empty string id (else named by n)."""
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
    return rid


def _raw_answer(rec: Record, n: int, line: RawLine) -> RawAnswer:
    """One line's answer: the checks that span its fields (unique references, labels, units)."""
    check_unique([r.id for r in line.references], file=rec.file, field=f"{line.id}.references")
    labels = _labels(rec, line)
    return RawAnswer(
        id=line.id,
        line=n,
        answer=line.answer,
        version=line.version,
        subclaims=line.subclaims,
        units=_units(rec, line),
        references=line.references,
        labels=labels,
    )
