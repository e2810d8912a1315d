"""A ledger's rows parsed at the edge: coerced, encoded as integer codes and checked row by row.

The steps before any counting, each a function of its own and each returning a frozen record:
:func:`coerce_columns` (the required columns, each in one shape: :class:`Columns`), :func:`encode`
(answers, models, statuses and units as integer codes: :class:`Codes`), :func:`check_rows` (every
rule a candidate row must meet, a mask per rule: :class:`RowCheck`) and :func:`apply_on_error`
(stop at the first bad row, or leave the bad rows out and list them: :class:`Kept`). The counting
itself is :func:`claimlab.metrics.ledger.count_ledger`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from claimlab.core.errors import LedgerError
from claimlab.core.vocab import STATUSES, unknown
from claimlab.io.arrays import codes_in, decoded, dictionary_codes, repeats, unique_values
from claimlab.io.ledger import (
    CANDIDATE_COLUMNS,
    CANDIDATE_SCHEMA,
    ROW,
    UNIT_COLUMNS,
    UNIT_SCHEMA,
    as_bool,
    as_id,
    as_string,
    columns_of_empty,
    preserves_column,
    require_columns,
    row_label,
)

NO_MODEL = "(all)"
OnError = Literal["stop", "skip"]


@dataclass(frozen=True)
class Issue:
    """One bad row: where, which field, what."""

    file: str
    row: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {row_label(self.file, self.row)}: {self.field}: {self.message}"


@dataclass(frozen=True)
class Columns:
    """Step 1, read and coerce: the ledger's columns in one shape each (see :mod:`claimlab.io.ledger`)."""

    candidates_file: str
    units_file: str
    rows: np.ndarray  # 1-based file rows of the candidates
    answer: pa.ChunkedArray
    candidate: pa.ChunkedArray
    fingerprint: pa.ChunkedArray
    status: pa.ChunkedArray
    faithful: np.ndarray
    atomic: np.ndarray
    preserves: pa.ChunkedArray
    model: pa.ChunkedArray | None
    unit_answer: pa.ChunkedArray
    unit_id: pa.ChunkedArray
    unit_rows: np.ndarray
    has_model_column: bool
    left_out: np.ndarray | None = None  # rows audited but never counted (optional column)


def coerce_columns(
    candidates: pa.Table,
    units: pa.Table,
    *,
    candidates_file: str = "candidates",
    units_file: str = "units",
    by: str | None = None,
) -> Columns:
    """Check the required columns are there and bring each to one shape.

    Raises:
        LedgerError: a missing column, a value of the wrong type, an empty value.
    """
    src_c, src_u = candidates_file, units_file
    candidates = columns_of_empty(candidates, CANDIDATE_SCHEMA, *([by] if by else []))
    units = columns_of_empty(units, UNIT_SCHEMA)
    require_columns(candidates, CANDIDATE_COLUMNS, src_c)
    require_columns(units, UNIT_COLUMNS, src_u)
    if by is not None and by not in candidates.column_names:
        raise LedgerError("the --by column is not in the candidates table", file=src_c, field=by)
    if ROW not in candidates.column_names:
        candidates = candidates.append_column(
            ROW, pa.array(np.arange(1, candidates.num_rows + 1, dtype=np.int64))
        )
    if ROW not in units.column_names:
        units = units.append_column(ROW, pa.array(np.arange(1, units.num_rows + 1, dtype=np.int64)))
    return Columns(
        candidates_file=src_c,
        units_file=src_u,
        rows=candidates.column(ROW).to_numpy(),
        answer=as_id(candidates, "answer_id", src_c),
        candidate=as_id(candidates, "candidate_id", src_c),
        fingerprint=as_string(candidates, "fingerprint", src_c),
        status=as_string(candidates, "status", src_c),
        faithful=as_bool(candidates, "faithful", src_c),
        atomic=as_bool(candidates, "atomic", src_c),
        preserves=preserves_column(candidates, src_c),
        model=as_id(candidates, by, src_c, group=True) if by else None,
        unit_answer=as_id(units, "answer_id", src_u),
        unit_id=as_id(units, "unit_id", src_u),
        unit_rows=units.column(ROW).to_numpy(),
        has_model_column="model" in candidates.column_names,
        left_out=_left_out(candidates, src_c),
    )


def _left_out(candidates: pa.Table, source: str) -> np.ndarray | None:
    """The optional ``left_out`` column: True where a row gives a reason not to count it.

    Raises:
        LedgerError: a column that is not text.
    """
    if "left_out" not in candidates.column_names:
        return None
    col = candidates.column("left_out")
    if pa.types.is_dictionary(col.type):
        col = col.cast(pa.string())
    if not (pa.types.is_null(col.type) or pa.types.is_string(col.type)
            or pa.types.is_large_string(col.type)):  # fmt: skip
        raise LedgerError(
            "must be text: why a row is audited but not counted (empty: it counts)",
            file=source,
            field="left_out",
        )
    text = pc.fill_null(col.cast(pa.string()), "")
    flags: np.ndarray = pc.greater(pc.utf8_length(text), 0).to_numpy(zero_copy_only=False)
    return flags.astype(bool)


@dataclass(frozen=True)
class Codes:
    """Step 2, encode: every row as integer codes (groups, statuses, units) for array counting."""

    group: np.ndarray  # (model, answer) per candidate row
    answers: pa.Array
    model_names: tuple[str, ...]
    status: np.ndarray  # index into STATUSES, -1 for an unknown status
    unit_answer: np.ndarray
    unit_key: np.ndarray  # (answer, unit) per unit row
    n_units: int
    parent: np.ndarray  # the candidate row of each preserved unit
    preserved_key: np.ndarray  # (answer, unit) per preserved unit
    preserved_known: np.ndarray  # whether that unit is in the units table


def encode(cols: Columns, *, models: Sequence[str] | None = None) -> Codes:
    """Integer codes for answers, models, statuses and units (dictionary columns come for free).

    ``models`` fixes the list of models (default: those in the table), so that a partition of a
    larger ledger scores the same empty selections as the whole would.
    """
    import pandas as pd

    a_c, answers = dictionary_codes(cols.answer)
    a_u = codes_in(decoded(cols.unit_answer), answers)
    if (a_u < 0).any():  # answers with units but no candidate row at all
        extra = unique_values(pc.filter(decoded(cols.unit_answer), pa.array(a_u < 0)))
        a_u = np.where(a_u < 0, codes_in(decoded(cols.unit_answer), extra) + len(answers), a_u)
        answers = pa.concat_arrays([answers.cast(pa.string()), extra.cast(pa.string())])
    n_ans = len(answers)
    if cols.model is not None:
        mc, mdict = dictionary_codes(cols.model)
        if models is not None:
            model_names = sorted(models)
        else:  # the models that occur (a dictionary read from Parquet may hold unused values)
            used = np.flatnonzero(np.bincount(mc, minlength=len(mdict)))
            model_names = sorted(mdict.take(pa.array(used)).to_pylist())
        m_c = codes_in(mdict, pa.array(model_names, type=pa.string()))[mc] if len(mc) else mc
    else:
        m_c = np.zeros(len(a_c), dtype=np.int64)
        model_names = [NO_MODEL]
    st_codes, st_dict = dictionary_codes(cols.status)
    st = codes_in(st_dict, pa.array(list(STATUSES)))[st_codes] if len(st_codes) else st_codes
    unit_codes, units_all = dictionary_codes(
        pa.chunked_array(
            decoded(cols.unit_id).chunks + list(pc.list_flatten(cols.preserves).chunks),
            type=pa.string(),
        )
    )
    n_units = max(len(units_all), 1)
    ukey = a_u * n_units + unit_codes[: len(cols.unit_id)]
    parent = pc.list_parent_indices(cols.preserves).to_numpy()
    fkey = a_c[parent] * n_units + unit_codes[len(cols.unit_id) :]
    # a unit listed twice is refused by check_rows, so the lookup is over the distinct keys
    known = (
        pd.Index(pd.unique(ukey)).get_indexer(fkey) >= 0
        if len(ukey)
        else np.zeros(len(fkey), dtype=bool)
    )
    return Codes(
        group=m_c * n_ans + a_c,
        answers=answers,
        model_names=tuple(model_names),
        status=st,
        unit_answer=a_u,
        unit_key=ukey,
        n_units=n_units,
        parent=parent,
        preserved_key=fkey,
        preserved_known=known,
    )


@dataclass(frozen=True)
class RowCheck:
    """Step 3, check: the rows that fail one rule, and how to say so for a row."""

    field: str
    bad: np.ndarray
    message: Callable[[int], str]


def check_rows(cols: Columns, codes: Codes, *, by: str | None) -> list[RowCheck]:
    """Every rule a candidate row must meet, as a mask per rule.

    Raises:
        LedgerError: a unit listed twice for one answer in the units table (that table has
            no rows to skip).
    """
    udup = repeats(codes.unit_key)
    if udup.any():
        i = int(np.flatnonzero(udup)[0])
        raise LedgerError(
            f"unit {cols.unit_id[i].as_py()!r} listed twice for answer "
            f"{cols.unit_answer[i].as_py()!r}",
            file=cols.units_file,
            record=row_label(cols.units_file, int(cols.unit_rows[i])),
            field="unit_id",
        )
    status, cid, ans = cols.status, cols.candidate, cols.answer
    checks = [
        RowCheck(
            "status",
            codes.status < 0,
            lambda i: unknown("status", status[i].as_py(), STATUSES),
        )
    ]
    cid_codes, cids = dictionary_codes(cid)
    hint = (
        " (the table has a 'model' column: score each decomposer apart with --by model)"
        if by is None and cols.has_model_column
        else ""
    )
    checks.append(
        RowCheck(
            "candidate_id",
            repeats(codes.group * len(cids) + cid_codes),
            lambda i: (
                f"candidate id {cid[i].as_py()!r} appears twice in answer {ans[i].as_py()!r}" + hint
            ),
        )
    )
    units_name = Path(cols.units_file).name
    unknown_units = np.zeros(len(codes.group), dtype=bool)
    unknown_units[codes.parent[~codes.preserved_known]] = True
    flat = pc.list_flatten(cols.preserves)
    first_unknown: dict[int, str] = {}
    for j in np.flatnonzero(~codes.preserved_known)[:1000]:
        first_unknown.setdefault(int(codes.parent[j]), flat[int(j)].as_py())
    checks.append(
        RowCheck(
            "preserves",
            unknown_units,
            lambda i: (
                f"unit {first_unknown.get(i, '?')!r} is not in the units table "
                f"({units_name}) for answer {ans[i].as_py()!r}"
            ),
        )
    )
    return checks


@dataclass(frozen=True)
class Kept:
    """Step 4, apply ``--on-error``: which rows count, and the bad ones reported."""

    keep: np.ndarray
    issues: tuple[Issue, ...]
    skipped: int
    unlisted: Mapping[str, int]


def apply_on_error(
    cols: Columns, checks: Sequence[RowCheck], *, on_error: OnError, listed: int = 20
) -> Kept:
    """Stop at the first bad row in file order, or leave every bad row out and report it.

    Raises:
        LedgerError: with ``on_error="stop"``, naming file, row and field of the first bad row.
    """
    src = cols.candidates_file
    firsts = [(int(np.flatnonzero(c.bad)[0]), c) for c in checks if c.bad.any()]
    if firsts and on_error == "stop":
        i, c = min(firsts, key=lambda t: t[0])
        raise LedgerError(
            c.message(i), file=src, record=row_label(src, int(cols.rows[i])), field=c.field
        )
    bad = np.zeros(len(cols.rows), dtype=bool)
    issues: list[Issue] = []
    unlisted: dict[str, int] = {}
    for c in checks:
        idx = np.flatnonzero(c.bad & ~bad)
        issues += [Issue(src, int(cols.rows[i]), c.field, c.message(int(i))) for i in idx[:listed]]
        if len(idx) > listed:
            unlisted[c.field] = len(idx) - listed
        bad |= c.bad
    issues.sort(key=lambda x: x.row)
    return Kept(~bad, tuple(issues), int(bad.sum()), unlisted)
