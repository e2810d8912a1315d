"""Claim ledgers at scale: the decomposition lab's four Toy metrics over many models and answers.

A ledger is two tables (CSV, JSONL or Parquet alike):

* candidates, one row per candidate subclaim: ``answer_id, candidate_id, fingerprint, preserves``
  (unit ids; ``;``-separated in CSV), ``faithful, atomic, status`` (SUPPORTED | CONTRADICTED |
  NOT_IN_REFERENCE), optional ``model`` (the decomposer, for side-by-side comparison);
* units, one row per content unit of an original answer: ``answer_id, unit_id``.

Definitions are the fixture scorer's (:mod:`claimlab.decomposition`), counted with vectorised
array operations: per (model, answer) D = its rows in file order, D* = D unique by fingerprint
(first kept), P = faithful members of D*; preservation |P|/|D*|, coverage |units preserved by
P|/|A|, confirmed support #SUPPORTED in D*/|D*|, raw support #SUPPORTED in D/|D|. An answer of the
units table that a model left without any candidate row is scored as an empty selection
(preservation N/A, coverage 0/|A|), so omitting hard answers cannot raise a model's figures.
Corpus figures are micro (summed counts) and macro (mean over answers where the ratio is
defined), with the number of undefined answers stated.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from claimlab.errors import ClaimlabInputError
from claimlab.fixtures import STATUSES
from claimlab.paths import replacing
from claimlab.ratio import MeanOfDefined, Ratio

CANDIDATE_COLUMNS = (
    "answer_id",
    "candidate_id",
    "fingerprint",
    "preserves",
    "faithful",
    "atomic",
    "status",
)
UNIT_COLUMNS = ("answer_id", "unit_id")
CANDIDATE_SCHEMA = pa.schema(
    [
        ("answer_id", pa.string()),
        ("candidate_id", pa.string()),
        ("fingerprint", pa.string()),
        ("preserves", pa.list_(pa.string())),
        ("faithful", pa.bool_()),
        ("atomic", pa.bool_()),
        ("status", pa.string()),
    ]
)
UNIT_SCHEMA = pa.schema([("answer_id", pa.string()), ("unit_id", pa.string())])
ROW = "_row"
NO_MODEL = "(all)"
OnError = Literal["stop", "skip"]


class LedgerError(ClaimlabInputError):
    """A ledger row or column that cannot be scored."""


def _kind(path: Path) -> str:
    name = path.name.lower()
    for ext, kind in (
        (".parquet", "parquet"),
        (".pq", "parquet"),
        (".csv", "csv"),
        (".jsonl", "jsonl"),
        (".json", "jsonl"),
    ):
        if name.endswith(ext):
            return kind
    raise LedgerError("unknown file type (use .csv, .jsonl or .parquet)", file=str(path))


def row_label(path: str | Path, row: int) -> str:
    """How a row is named in messages: CSV rows carry their line, JSONL lines are lines."""
    kind = _kind(Path(path))
    if kind == "csv":
        return f"row {row} (line {row + 1})"
    if kind == "jsonl":
        return f"line {row}"
    return f"row {row}"


def read_table(path: str | Path, *, columns: Sequence[str] | None = None) -> pa.Table:
    """Read a CSV, JSONL or Parquet table and add a 1-based ``_row`` column.

    Raises:
        LedgerError: unreadable file.
    """
    p = Path(path)
    kind = _kind(p)
    try:
        if kind == "parquet":
            import pyarrow.parquet as pq

            names = set(pq.read_schema(p).names)
            dict_cols = [
                c for c in ("model", "answer_id", "candidate_id", "status", "unit_id") if c in names
            ]
            table = pq.read_table(
                p, columns=list(columns) if columns else None, read_dictionary=dict_cols
            )
        elif kind == "csv":
            table = _read_csv(p)
        else:
            import pyarrow.json as pjson

            _check_first_object(p)
            table = pjson.read_json(p)
        _ = table.column_names  # a header that is not UTF-8 is only found when names are read
    except FileNotFoundError:
        raise LedgerError("file not found", file=str(p)) from None
    except IsADirectoryError:
        raise LedgerError("is a folder, not a file", file=str(p)) from None
    except UnicodeDecodeError as exc:
        raise LedgerError(
            f"not UTF-8 text: byte 0x{exc.object[exc.start]:02x} (save the file as UTF-8)",
            file=str(p),
        ) from None
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise LedgerError(f"cannot read {kind}: {first}", file=str(p)) from None
    return table.append_column(ROW, pa.array(np.arange(1, table.num_rows + 1, dtype=np.int64)))


def _check_first_object(p: Path) -> None:
    """A JSON Lines ledger starts with an object (pyarrow's reader crashes on a first ``null``)."""
    with open(p, "rb") as f:
        head = f.read(1 << 16)
    text = head.lstrip(b"\xef\xbb\xbf")
    stripped = text.lstrip()
    if stripped and not stripped.startswith(b"{"):
        line = text[: len(text) - len(stripped)].count(b"\n") + 1
        got = stripped[:20].split(b"\n")[0].decode("utf-8", "replace")
        raise LedgerError(
            f"must hold one JSON object per line, got {got!r}", file=str(p), record=f"line {line}"
        )


def _read_csv(p: Path) -> pa.Table:
    """Read a CSV ledger; quoted values may hold line breaks.

    The fast parser splits the file into blocks at line breaks, which breaks a quoted value
    holding one ("CSV parser got out of sync"); such a file is read again with line breaks
    allowed inside values (slower, but correct).
    """
    import pyarrow.csv as pcsv

    convert = pcsv.ConvertOptions(
        column_types={
            "answer_id": pa.string(),
            "candidate_id": pa.string(),
            "unit_id": pa.string(),
            "preserves": pa.string(),
            "fingerprint": pa.string(),
            "model": pa.string(),
        },
        strings_can_be_null=False,
    )
    try:
        return pcsv.read_csv(p, convert_options=convert)
    except pa.ArrowInvalid as exc:
        if "out of sync" not in str(exc) and "newline" not in str(exc).lower():
            raise
    return pcsv.read_csv(
        p, convert_options=convert, parse_options=pcsv.ParseOptions(newlines_in_values=True)
    )


@dataclass(frozen=True)
class Issue:
    """One bad row: where, which field, what."""

    file: str
    row: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {row_label(self.file, self.row)}: {self.field}: {self.message}"


def _type(t: pa.DataType) -> str:
    """A column type for a message, shortened (a deeply nested list names itself at length)."""
    text = str(t)
    return text if len(text) <= 60 else text[:57] + "..."


def _require(table: pa.Table, names: Sequence[str], source: str) -> None:
    for name in names:
        if name not in table.column_names:
            raise LedgerError(
                f"missing required column (has: {', '.join(c for c in table.column_names if c != ROW)})",
                file=source,
                field=name,
            )


def _as_string(table: pa.Table, name: str, source: str) -> pa.ChunkedArray:
    col = table.column(name)
    if table.num_rows == 0 or pa.types.is_null(col.type):
        col = col.cast(pa.string()) if pa.types.is_null(col.type) else col
    if pa.types.is_dictionary(col.type):  # as read from Parquet: codes come for free
        if not pa.types.is_string(col.type.value_type):
            col = col.cast(pa.string())
    elif pa.types.is_integer(col.type) or pa.types.is_large_string(col.type):
        col = col.cast(pa.string())
    if not (pa.types.is_string(col.type) or pa.types.is_dictionary(col.type)):
        raise LedgerError(f"must hold strings, found {_type(col.type)}", file=source, field=name)
    if col.null_count:
        row = int(pc.index(pc.is_null(col), True).as_py())
        raise LedgerError("empty value", file=source, record=row_label(source, row + 1), field=name)
    return col


def _as_bool(table: pa.Table, name: str, source: str) -> np.ndarray:
    col = table.column(name)
    if table.num_rows == 0:
        return np.zeros(0, dtype=bool)
    if pa.types.is_string(col.type):
        low = pc.utf8_lower(col)
        ok = pc.is_in(low, pa.array(["true", "false", "1", "0"]))
        if not pc.all(ok).as_py():
            row = int(pc.index(ok, False).as_py())
            raise LedgerError(
                f"must be true or false, got {col[row].as_py()!r}",
                file=source,
                record=row_label(source, row + 1),
                field=name,
            )
        col = pc.is_in(low, pa.array(["true", "1"]))
    elif pa.types.is_integer(col.type):
        ok = pc.is_in(col, pa.array([0, 1], type=col.type))
        if not pc.all(pc.fill_null(ok, True)).as_py():
            row = int(pc.index(pc.fill_null(ok, True), False).as_py())
            raise LedgerError(
                f"must be true or false (or 1 / 0), got {col[row].as_py()!r}",
                file=source,
                record=row_label(source, row + 1),
                field=name,
            )
        col = pc.not_equal(col, 0)
    if not pa.types.is_boolean(col.type):
        raise LedgerError(
            f"must be true or false, found {_type(col.type)}", file=source, field=name
        )
    if col.null_count:
        row = int(pc.index(pc.is_null(col), True).as_py())
        raise LedgerError("empty value", file=source, record=row_label(source, row + 1), field=name)
    return col.to_numpy(zero_copy_only=False).astype(bool)


def _preserves(table: pa.Table, source: str) -> pa.ChunkedArray:
    col = table.column("preserves")
    if pa.types.is_null(col.type):
        col = col.cast(pa.list_(pa.string())) if table.num_rows == 0 else col
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        filled = pc.fill_null(col.cast(pa.string()), "")
        lists = pc.split_pattern(filled, ";")
        # "" means no unit; strip blanks around ids
        flat = pc.utf8_trim_whitespace(pc.list_flatten(lists))
        offsets = (
            lists.combine_chunks().offsets if isinstance(lists, pa.ChunkedArray) else lists.offsets
        )
        arr = pa.ListArray.from_arrays(
            offsets, flat.combine_chunks() if isinstance(flat, pa.ChunkedArray) else flat
        )
        keep = pc.not_equal(pc.list_flatten(arr), "")
        parents = pc.list_parent_indices(arr)
        values = pc.filter(pc.list_flatten(arr), keep)
        parents = pc.filter(parents, keep).to_numpy()
        counts = np.bincount(parents, minlength=len(arr))
        new_offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
        return pa.chunked_array([pa.ListArray.from_arrays(pa.array(new_offsets), values)])
    if pa.types.is_list(col.type) or pa.types.is_large_list(col.type):
        value_type = col.type.value_type
        if pa.types.is_dictionary(value_type):
            value_type = value_type.value_type
        if not (pa.types.is_string(value_type) or pa.types.is_large_string(value_type)):
            raise LedgerError(
                f"must be a list of unit ids, found {_type(col.type)}",
                file=source,
                field="preserves",
            )
        if col.type != pa.list_(pa.string()):  # large lists, large strings: one shape inside
            col = col.cast(pa.list_(pa.string()))
        return pc.fill_null(col, pa.scalar([], type=col.type)) if col.null_count else col
    raise LedgerError(
        f"must be unit ids (a list, or ';'-separated text), found {_type(col.type)}",
        file=source,
        field="preserves",
    )


@dataclass(frozen=True)
class LedgerCounts:
    """Per (model, answer): every count behind the four ratios."""

    table: Any  # pandas.DataFrame
    issues: tuple[Issue, ...]
    skipped_rows: int
    empty_answers: int

    def to_pandas(self):
        """The per-answer counts with the four ratios' values (NaN where undefined)."""
        return self.table


def _repeats(keys: np.ndarray, *, dense_limit: int = 64_000_000) -> np.ndarray:
    """True for every key that already occurred earlier (first occurrences are False).

    Small key ranges are counted first (a bincount), so the usual case without repeats costs a
    few milliseconds; otherwise, or when there are repeats, a hash table finds them.
    """
    if len(keys) and 0 <= keys.min() and keys.max() < dense_limit:
        if not (np.bincount(keys) > 1).any():
            return np.zeros(len(keys), dtype=bool)
    import pandas as pd

    return pd.Series(keys).duplicated().to_numpy()


_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xBF58476D1CE4E5B9)
_K3 = np.uint64(0x94D049BB133111EB)
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _mix(x: np.ndarray) -> np.ndarray:
    """A 64-bit finaliser (the splitmix64 constants), in place on an array."""
    x ^= x >> np.uint64(30)
    x *= _K2
    x ^= x >> np.uint64(27)
    x *= _K3
    x ^= x >> np.uint64(31)
    return x


def _string_hash(arr: pa.Array) -> np.ndarray:
    """A 64-bit hash of every string of a (non-null) string array, eight bytes per step.

    Equal strings always hash equal; callers confirm every match on the strings themselves, so
    a collision can cost time but never change a result.
    """
    n = len(arr)
    offsets = np.frombuffer(
        arr.buffers()[1], dtype=np.int32, count=n + 1, offset=arr.offset * 4
    ).astype(np.int64)
    buf = arr.buffers()[2]
    data = np.frombuffer(buf, dtype=np.uint8) if buf is not None else np.zeros(0, np.uint8)
    padded = np.zeros((len(data) + 7) // 8 * 8 + 16, dtype=np.uint8)
    padded[: len(data)] = data
    words = padded.view(np.uint64)
    start, lens = offsets[:-1], np.diff(offsets)
    h = _mix(lens.astype(np.uint64) * _K1 + _K2)
    n_words = (lens + 7) // 8
    active = np.flatnonzero(n_words > 0)
    j = 0
    while len(active):  # word j of every string that has one (an unaligned 8-byte load)
        every = len(active) == n
        pos = (start if every else start[active]) + 8 * j
        q, shift = pos >> 3, ((pos & 7) * 8).astype(np.uint64)
        w = words[q] >> shift
        w |= np.where(shift > 0, words[q + 1] << ((np.uint64(64) - shift) & np.uint64(63)), 0)
        w &= _LOW_BYTES[np.minimum((lens if every else lens[active]) - 8 * j, 8)]
        if every:
            h = _mix((h ^ w) * _K1)
        else:
            h[active] = _mix((h[active] ^ w) * _K1)
        j += 1
        active = active[n_words[active] > j]
    return h


def _repeats_within(group: np.ndarray, values: pa.ChunkedArray) -> np.ndarray:
    """True for every row whose value already occurred earlier in the same group (exact).

    Each string is hashed; rows are sorted (stably, so file order survives among equals) by
    their group, then by the hash, and a row equal to its predecessor is a repeat of the first
    row of its run. When the rows of every group are contiguous, as ledgers are usually written,
    the sort key uses the run number and the data is nearly sorted already. Every repeat found
    is then compared with its first occurrence, string to string; should any pair differ (a
    hash collision), the whole column is dictionary-encoded instead.
    """
    import pandas as pd

    n = len(group)
    if n and not pa.types.is_dictionary(values.type):
        h = np.concatenate([_string_hash(c) for c in values.chunks if len(c)])
        change = np.empty(n, dtype=bool)
        change[0] = True
        np.not_equal(group[1:], group[:-1], out=change[1:])
        runs = np.cumsum(change) - 1
        distinct = (
            np.count_nonzero(np.bincount(group)) if group.max() <= 4 * n else len(pd.unique(group))
        )
        contiguous = runs[-1] + 1 == distinct
        ids = runs if contiguous else group
        bits = max(int(ids.max()).bit_length(), 1)
        if bits <= 40:  # at least 24 bits of hash beside the group
            key = (ids.astype(np.uint64) << np.uint64(64 - bits)) | (h >> np.uint64(bits))
            order = np.argsort(key, kind="stable")
            ordered = key[order]
            repeat = np.empty(n, dtype=bool)
            repeat[0] = False
            np.equal(ordered[1:], ordered[:-1], out=repeat[1:])
            run_start = np.maximum.accumulate(np.where(repeat, 0, np.arange(n)))
            later, earlier = order[repeat], order[run_start[repeat]]
            if (group[later] == group[earlier]).all() and (
                not len(later) or pc.all(pc.equal(values.take(later), values.take(earlier))).as_py()
            ):
                dup = np.zeros(n, dtype=bool)
                dup[later] = True
                return dup
    codes, dictionary = _encode(values)
    return _repeats(group * len(dictionary) + codes)


def _uniq(values) -> pa.Array:
    u = pc.unique(values)
    return u.combine_chunks() if isinstance(u, pa.ChunkedArray) else u


def _encode(values: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """Integer codes and the string dictionary of a column, in one pass (dictionary columns for free)."""
    if not pa.types.is_dictionary(values.type):
        values = pc.dictionary_encode(values)  # chunk by chunk with one shared memo
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    if not chunks:
        return np.zeros(0, dtype=np.int64), pa.array([], type=pa.string())
    first = chunks[0].dictionary

    def same(d: pa.Array) -> bool:  # the shared memo hands every chunk the same dictionary buffers
        return len(d) == len(first) and all(
            (a is None and b is None)
            or (a is not None and b is not None and a.address == b.address)
            for a, b in zip(d.buffers(), first.buffers(), strict=True)
        )

    if not all(same(c.dictionary) for c in chunks[1:]):
        chunks = values.unify_dictionaries().chunks
        first = chunks[0].dictionary
    codes = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in chunks]).astype(
        np.int64
    )
    return codes, first


def _decoded(values: pa.ChunkedArray) -> pa.ChunkedArray:
    return values.cast(pa.string()) if pa.types.is_dictionary(values.type) else values


def _codes(values: pa.ChunkedArray, dictionary: pa.Array) -> np.ndarray:
    return (
        pc.fill_null(pc.index_in(values, value_set=dictionary), -1)
        .to_numpy(zero_copy_only=False)
        .astype(np.int64)
    )


def count_ledger(
    candidates: pa.Table,
    units: pa.Table,
    *,
    candidates_file: str = "candidates",
    units_file: str = "units",
    by: str | None = None,
    on_error: OnError = "stop",
    models: Sequence[str] | None = None,
) -> LedgerCounts:
    """Count everything behind the four Toy ratios per (model, answer), vectorised.

    ``models`` fixes the list of models (default: those in the table), so that a partition of a
    larger ledger scores the same empty selections as the whole would.

    Raises:
        LedgerError: on the first bad row (``on_error="stop"``), naming file, row and field.
    """
    import pandas as pd

    src_c, src_u = candidates_file, units_file
    _require(candidates, CANDIDATE_COLUMNS, src_c)
    _require(units, UNIT_COLUMNS, src_u)
    if by is not None and by not in candidates.column_names:
        raise LedgerError("the --by column is not in the candidates table", file=src_c, field=by)
    if ROW not in candidates.column_names:
        candidates = candidates.append_column(
            ROW, pa.array(np.arange(1, candidates.num_rows + 1, dtype=np.int64))
        )
    if ROW not in units.column_names:
        units = units.append_column(ROW, pa.array(np.arange(1, units.num_rows + 1, dtype=np.int64)))
    rows = candidates.column(ROW).to_numpy()
    ans_c = _as_string(candidates, "answer_id", src_c)
    cid = _as_string(candidates, "candidate_id", src_c)
    fp = _as_string(candidates, "fingerprint", src_c)
    status = _as_string(candidates, "status", src_c)
    faithful = _as_bool(candidates, "faithful", src_c)
    atomic = _as_bool(candidates, "atomic", src_c)
    del atomic  # checked for type; atomicity is reported per row, not part of the four ratios
    preserves = _preserves(candidates, src_c)
    ans_u = _as_string(units, "answer_id", src_u)
    unit_id = _as_string(units, "unit_id", src_u)
    urows = units.column(ROW).to_numpy()
    model = _as_string(candidates, by, src_c) if by else None

    a_c, answers = _encode(ans_c)
    a_u = _codes(_decoded(ans_u), answers)
    if (a_u < 0).any():  # answers with units but no candidate row at all
        extra = _uniq(pc.filter(_decoded(ans_u), pa.array(a_u < 0)))
        a_u = np.where(a_u < 0, _codes(_decoded(ans_u), extra) + len(answers), a_u)
        answers = pa.concat_arrays([answers.cast(pa.string()), extra.cast(pa.string())])
    n_ans = len(answers)

    # model per row (answers are scored per model)
    if model is not None:
        mc, mdict = _encode(model)
        if models is not None:
            model_names = sorted(models)
        else:  # the models that occur (a dictionary read from Parquet may hold unused values)
            used = np.flatnonzero(np.bincount(mc, minlength=len(mdict)))
            model_names = sorted(mdict.take(pa.array(used)).to_pylist())
        m_c = _codes(mdict, pa.array(model_names, type=pa.string()))[mc] if len(mc) else mc
    else:
        m_c = np.zeros(len(a_c), dtype=np.int64)
        model_names = [NO_MODEL]
    n_models = len(model_names)
    group = m_c * n_ans + a_c  # (model, answer)

    # the costliest step, finding repeated fingerprints within each (model, answer), overlaps
    # with the row checks on a second thread (both mostly run outside the GIL)
    with ThreadPoolExecutor(max_workers=1) as pool:  # joined even when a row check raises
        fp_future = pool.submit(_repeats_within, group, fp)

        issues: list[Issue] = []
        bad = np.zeros(len(a_c), dtype=bool)
        checks: list[tuple[np.ndarray, str, Any]] = []

        def flag(mask: np.ndarray, field: str, message_for) -> None:
            checks.append((mask, field, message_for))

        # units table: duplicate (answer, unit) rows are refused
        unit_codes, units_all = _encode(
            pa.chunked_array(
                _decoded(unit_id).chunks + list(pc.list_flatten(preserves).chunks), type=pa.string()
            )
        )
        u_codes = unit_codes[: len(unit_id)]
        n_units = max(len(units_all), 1)
        ukey = a_u * n_units + u_codes
        udup = _repeats(ukey)
        if udup.any():
            i = int(np.flatnonzero(udup)[0])
            raise LedgerError(
                f"unit {unit_id[i].as_py()!r} listed twice for answer {ans_u[i].as_py()!r}",
                file=src_u,
                record=row_label(src_u, int(urows[i])),
                field="unit_id",
            )

        # status
        st_codes, st_dict = _encode(status)
        st = _codes(st_dict, pa.array(list(STATUSES)))[st_codes] if len(st_codes) else st_codes
        flag(
            st < 0,
            "status",
            lambda i: f"unknown status {status[int(i)].as_py()!r} (one of {', '.join(STATUSES)})",
        )

        # duplicate candidate id within one (model, answer)
        cid_codes, cids = _encode(cid)
        ckey = group * len(cids) + cid_codes
        cdup = _repeats(ckey)
        hint = (
            " (the table has a 'model' column: score each decomposer apart with --by model)"
            if by is None and "model" in candidates.column_names
            else ""
        )
        flag(
            cdup,
            "candidate_id",
            lambda i: (
                f"candidate id {cid[int(i)].as_py()!r} appears twice in answer {ans_c[int(i)].as_py()!r}"
                + hint
            ),
        )

        # every preserved unit must be a unit of the answer
        flat_units = pc.list_flatten(preserves)
        parent = pc.list_parent_indices(preserves).to_numpy()
        fkey = a_c[parent] * n_units + unit_codes[len(unit_id) :]
        known = (
            pd.Index(ukey).get_indexer(fkey) >= 0 if len(ukey) else np.zeros(len(fkey), dtype=bool)
        )
        unknown_rows = np.zeros(len(a_c), dtype=bool)
        unknown_rows[parent[~known]] = True
        first_unknown = {}
        for j in np.flatnonzero(~known)[:1000]:
            first_unknown.setdefault(int(parent[j]), flat_units[int(j)].as_py())
        flag(
            unknown_rows,
            "preserves",
            lambda i: (
                f"unit {first_unknown.get(int(i), '?')!r} is not in the units table for answer {ans_c[int(i)].as_py()!r}"
            ),
        )

        # the first bad row in file order stops the run; --on-error skip drops every bad row
        firsts = [(int(np.flatnonzero(m)[0]), f, fn) for m, f, fn in checks if m.any()]
        if firsts and on_error == "stop":
            i, field, fn = min(firsts, key=lambda t: t[0])
            raise LedgerError(fn(i), file=src_c, record=row_label(src_c, int(rows[i])), field=field)
        for mask, field, fn in checks:
            idx = np.flatnonzero(mask & ~bad)
            for i in idx[:20]:
                issues.append(Issue(src_c, int(rows[i]), field, fn(i)))
            if len(idx) > 20:
                issues.append(
                    Issue(src_c, -1, field, f"... and {len(idx) - 20} more rows like these")
                )
            bad |= mask
        issues.sort(key=lambda x: (x.row < 0, x.row))
        keep = ~bad
        skipped = int(bad.sum())
        # D* by fingerprint within (model, answer), first occurrence in file order
        dup = fp_future.result()
    if not keep.all():  # skipped rows never count, not even as the first occurrence
        dup = np.zeros(len(keep), dtype=bool)
        dup[keep] = _repeats_within(group[keep], fp.filter(pa.array(keep)))
    uniq = keep & ~dup
    size = n_models * n_ans

    # three bincounts give every count: (group, status) over kept rows and over unique rows
    st_safe = np.where(st >= 0, st, 0)
    by_status_raw = np.bincount((group * 3 + st_safe)[keep], minlength=size * 3).reshape(size, 3)
    by_status_uniq = np.bincount((group * 3 + st_safe)[uniq], minlength=size * 3).reshape(size, 3)
    raw_n = by_status_raw.sum(axis=1)
    uniq_n = by_status_uniq.sum(axis=1)
    sup_u, con_u, nir_u = by_status_uniq[:, 0], by_status_uniq[:, 1], by_status_uniq[:, 2]
    sup_raw = by_status_raw[:, 0]
    faithful_n = np.bincount(group[uniq & faithful], minlength=size)
    dup_n = raw_n - uniq_n
    # coverage: distinct (model, answer, unit) among faithful unique rows
    p_rows = (uniq & faithful)[parent] & known
    cover_key = group[parent[p_rows]] * n_units + (fkey[p_rows] % n_units)
    if size * n_units <= 1 << 26:  # a flag per possible (model, answer, unit): no hashing
        seen = np.zeros(size * n_units, dtype=bool)
        seen[cover_key] = True
        cover_key = np.flatnonzero(seen)
    else:
        cover_key = pd.unique(cover_key)
    covered = np.bincount((cover_key // n_units).astype(np.int64), minlength=size)
    units_per_answer = np.bincount(a_u, minlength=n_ans)

    present = raw_n > 0
    if model is None:
        include = present | (units_per_answer > 0)
    else:
        # every answer of the units table for every model; candidate-less answers are empty selections
        include = present | np.tile(units_per_answer > 0, n_models)
    idx = np.flatnonzero(include)
    m_idx, a_idx = idx // n_ans, idx % n_ans
    df = pd.DataFrame(
        {
            "model": pd.Categorical.from_codes(m_idx, categories=model_names),
            "answer_id": answers.take(pa.array(a_idx)).to_pandas(),
            "raw": raw_n[idx],
            "unique": uniq_n[idx],
            "faithful": faithful_n[idx],
            "covered": covered[idx],
            "units": units_per_answer[a_idx],
            "supported_unique": sup_u[idx],
            "contradicted_unique": con_u[idx],
            "not_in_reference_unique": nir_u[idx],
            "supported_raw": sup_raw[idx],
            "duplicates": dup_n[idx],
        }
    )
    df["missing_units"] = df["units"] - df["covered"]
    df = df.sort_values(["model", "answer_id"], ignore_index=True)
    return LedgerCounts(df, tuple(issues), skipped, int((df["raw"] == 0).sum()))


METRIC_NAMES = ("preservation", "coverage", "confirmed_support", "raw_support")
RATIO_DEFS = {
    "preservation": ("faithful", "unique"),
    "coverage": ("covered", "units"),
    "confirmed_support": ("supported_unique", "unique"),
    "raw_support": ("supported_raw", "raw"),
}


@dataclass(frozen=True)
class CorpusFigures:
    """Micro (summed counts) and macro (mean over defined answers) figures for one group."""

    group: str
    answers: int
    empty_answers: int
    micro: dict[str, Ratio]
    macro: dict[str, MeanOfDefined]
    status_counts: dict[str, int]
    duplicates: int
    missing_units: int

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "group": self.group,
            "answers": self.answers,
            "answers_without_candidates": self.empty_answers,
            "micro": {k: v.to_dict() for k, v in self.micro.items()},
            "macro": {k: v.to_dict() for k, v in self.macro.items()},
            "status_counts_unique": self.status_counts,
            "duplicates": self.duplicates,
            "missing_units": self.missing_units,
        }


def corpus_figures(table, *, group: str) -> CorpusFigures:
    """Micro and macro figures from per-answer counts."""
    micro = {}
    macro = {}
    for name, (num, den) in RATIO_DEFS.items():
        n = int(table[num].sum())
        d = int(table[den].sum())
        micro[name] = Ratio(n, d)
        dens = table[den].to_numpy()
        defined = dens > 0
        vals = table[num].to_numpy()[defined] / dens[defined]
        macro[name] = MeanOfDefined(
            float(vals.mean()) if defined.any() else None, int(defined.sum()), int((~defined).sum())
        )
    return CorpusFigures(
        group=group,
        answers=len(table),
        empty_answers=int((table["raw"] == 0).sum()),
        micro=micro,
        macro=macro,
        status_counts={
            "SUPPORTED": int(table["supported_unique"].sum()),
            "CONTRADICTED": int(table["contradicted_unique"].sum()),
            "NOT_IN_REFERENCE": int(table["not_in_reference_unique"].sum()),
        },
        duplicates=int(table["duplicates"].sum()),
        missing_units=int(table["missing_units"].sum()),
    )


def per_answer_ratios(table):
    """Add value and display columns for the four ratios (NaN / "N/A (0/0)" where undefined)."""
    out = table.copy()
    for name, (num, den) in RATIO_DEFS.items():
        n, d = out[num].to_numpy(), out[den].to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name] = np.where(d > 0, n / np.where(d > 0, d, 1), np.nan)
        disp = np.where(
            d > 0, np.char.mod("%.1f%%", 100 * np.nan_to_num(out[name].to_numpy())), "N/A"
        )
        out[f"{name}_display"] = np.char.add(
            np.char.add(disp, " ("),
            np.char.add(np.char.add(n.astype(str), "/"), np.char.add(d.astype(str), ")")),
        )
    return out


@dataclass(frozen=True)
class LedgerResult:
    """Per-answer counts, corpus figures overall and per group, and what was skipped."""

    counts: LedgerCounts
    corpus: CorpusFigures
    groups: dict[str, CorpusFigures]
    by: str | None = None  # the candidates column the groups come from

    def to_dict(self) -> dict:
        """JSON form (corpus figures; per-answer rows go to ``--out``)."""
        return {
            "corpus": self.corpus.to_dict(),
            "by_group": {k: v.to_dict() for k, v in self.groups.items()},
            "skipped_rows": self.counts.skipped_rows,
            "issues": [str(i) for i in self.counts.issues],
        }


def summarise(counts: LedgerCounts, *, by: str | None) -> LedgerResult:
    """Corpus figures overall and per model."""
    table = counts.table
    groups = {}
    if by is not None:
        for name, sub in table.groupby("model", observed=True):
            groups[str(name)] = corpus_figures(sub, group=str(name))
    return LedgerResult(counts, corpus_figures(table, group="all"), groups, by)


def score_ledger(
    candidates: str | Path,
    units: str | Path,
    *,
    by: str | None = None,
    on_error: OnError = "stop",
    progress: bool = False,
) -> LedgerResult:
    """Read both tables and score them (see the module's definitions)."""
    from tqdm import tqdm

    steps = tqdm(total=3, desc="ledger", unit="step", disable=not progress)
    steps.set_postfix_str("reading candidates")
    cand = read_table(candidates)
    steps.update()
    steps.set_postfix_str("reading units")
    unit_table = read_table(units)
    steps.update()
    steps.set_postfix_str("scoring")
    counts = count_ledger(
        cand,
        unit_table,
        candidates_file=str(candidates),
        units_file=str(units),
        by=by,
        on_error=on_error,
    )
    steps.update()
    steps.close()
    return summarise(counts, by=by)


def write_answers(result: LedgerResult, path: str | Path) -> Path:
    """Write the per-answer rows (counts, values, displays) to CSV, JSONL or Parquet atomically.

    The group column is named after the ``--by`` column it came from, and left out without one.
    """
    out = Path(path)
    kind = _kind(out)
    table = per_answer_ratios(result.counts.table)
    if result.by is None:
        table = table.drop(columns="model")
    elif result.by != "model":
        table = table.rename(columns={"model": result.by})
    with replacing(out) as tmp:
        if kind == "csv":
            table.to_csv(tmp, index=False)
        elif kind == "jsonl":
            table.to_json(tmp, orient="records", lines=True, force_ascii=False)
        else:
            table.to_parquet(tmp, index=False)
    return out


def fixture_from_rows(rows: Sequence[dict], unit_ids: Sequence[str]):
    """One answer's ledger rows as an in-memory decomposition fixture (for the lab's own scorer).

    ``rows`` are dicts with the candidates columns, in file order; the fixture scorer then scores
    ``[row["candidate_id"] for row in rows]`` with the same definitions the ledger scorer counts.
    """
    from claimlab.fixtures import Candidate, DecompositionFixture, Evidence, Original, Span, Unit

    return DecompositionFixture(
        "ledger rows",
        Original("answer", "ledger", ""),
        tuple(Unit(u, Span(0, 0, "")) for u in unit_ids),
        (),
        tuple(
            Candidate(
                id=r["candidate_id"],
                text="",
                entity="",
                version="",
                predicate="",
                qualifiers=(),
                source_spans=(),
                fingerprint=r["fingerprint"],
                preserves=tuple(r["preserves"]),
                faithful=r["faithful"],
                atomic=r["atomic"],
                errors=(),
                evidence=Evidence(r["status"], ()),
            )
            for r in rows
        ),
    )


# --- partition-wise scoring (Dask) -----------------------------------------------------------


def empty_candidates(by: str | None = None) -> pa.Table:
    """A zero-row candidates table with the ledger's column types."""
    fields = [*((f.name, f.type) for f in CANDIDATE_SCHEMA), (ROW, pa.int64())]
    if by:
        fields.append((by, pa.string()))
    return pa.table({n: pa.array([], type=t) for n, t in fields})


def count_partition(
    part, units_table: pa.Table, *, by: str | None, models: Sequence[str] | None
) -> Any:
    """Score one pandas partition (all rows of each of its answers) against the units table.

    Rows are put back in file order (``_row``) first: a shuffle need not keep it, and the first
    of two duplicates is the one that counts.
    """
    part = part.sort_values(ROW, kind="stable")
    cand = pa.Table.from_pandas(part, preserve_index=False) if len(part) else empty_candidates(by)
    answers = pc.unique(cand.column("answer_id"))
    sub_units = units_table.filter(pc.is_in(units_table.column("answer_id"), value_set=answers))
    return count_ledger(cand, sub_units, by=by, on_error="stop", models=models).table


def with_row_numbers(ddf):
    """Add ``_row``, 1-based row numbers in file order across all partitions.

    Messages name rows by it, and it decides which of two duplicates comes first.
    """
    ddf = ddf.assign(**{ROW: 1})
    return ddf.assign(**{ROW: ddf[ROW].cumsum()})


def score_ledger_dask(ddf, units_table: pa.Table, *, by: str | None = None) -> LedgerResult:
    """Score a Dask DataFrame partition-wise; the same definitions as :func:`score_ledger`.

    Dask turns object columns into text, so ``preserves`` must be ``;``-separated unit ids here
    (as in CSV). The frame is shuffled on ``answer_id`` so every answer sits in one partition; each partition
    is counted by :func:`count_ledger`, and corpus figures come from the summed counts. Answers of
    the units table without any candidate row are added as empty selections.
    """
    import pandas as pd

    if ROW not in ddf.columns:
        raise LedgerError(
            "add row numbers in file order first: ddf = with_row_numbers(ddf)", field=ROW
        )
    sample = ddf["preserves"].head(20)
    if any(isinstance(v, str) and v.startswith("[") for v in sample):
        raise LedgerError(
            "looks like a list turned into text; in a Dask frame keep unit ids ';'-separated",
            field="preserves",
        )
    models = sorted(ddf[by].unique().compute().tolist()) if by else None
    meta = count_ledger(empty_candidates(by), units_table.slice(0, 0), by=by, models=models).table
    shuffled = ddf.shuffle(on="answer_id")
    per_answer = shuffled.map_partitions(
        count_partition, units_table, by=by, models=models, meta=meta
    ).compute()
    seen = pa.array(per_answer["answer_id"].unique().tolist(), type=pa.string())
    rest = units_table.filter(pc.invert(pc.is_in(units_table.column("answer_id"), value_set=seen)))
    if rest.num_rows:
        extra = count_ledger(empty_candidates(by), rest, by=by, models=models).table
        per_answer = pd.concat([per_answer, extra], ignore_index=True)
    per_answer = per_answer.sort_values(["model", "answer_id"], ignore_index=True)
    return summarise(LedgerCounts(per_answer, (), 0, int((per_answer["raw"] == 0).sum())), by=by)


# --- FActScore's human annotations as a ledger ------------------------------------------------


def factscore_ledger(responses, *, policy: str = "exclude") -> tuple[pa.Table, pa.Table]:
    """FActScore's human-labelled responses as a claim ledger (candidates, units).

    Each responding response is an answer (``<line>:<topic>``), its sentences are the units
    (``S1``, ``S2``, ...) and each human-labelled atomic fact is a candidate that preserves its
    sentence, fingerprinted by its text: S is SUPPORTED, NS is NOT_IN_REFERENCE (the knowledge
    source does not support it; FActScore does not tell contradiction apart). IR facts follow
    ``policy`` as in :mod:`claimlab.factscore`: ``exclude`` leaves them out, ``unsupported``
    counts them as NOT_IN_REFERENCE, ``paper`` also adds the model facts of sentences marked not
    relevant. Abstentions are left out, as FActScore leaves them out of its mean.

    Scored without ``--by``, the macro raw support of the ledger is FActScore's ``init_score``
    under the same policy; the ledger adds what the score leaves unsaid: coverage (the share of
    sentences with a checked fact) and repeated facts.
    """
    from claimlab.factscore import POLICIES

    if policy not in POLICIES:
        raise ValueError(
            f"unknown irrelevant-fact policy {policy!r} (one of {', '.join(POLICIES)})"
        )
    status_of = {"S": "SUPPORTED", "NS": "NOT_IN_REFERENCE", "IR": "NOT_IN_REFERENCE"}
    cand: dict[str, list] = {k: [] for k in CANDIDATE_COLUMNS}
    unit_rows: dict[str, list] = {"answer_id": [], "unit_id": []}
    for r in responses:
        if r.sentences is None:
            continue
        answer = f"{r.line}:{r.topic}"
        k = 0
        for j, sentence in enumerate(r.sentences, start=1):
            unit = f"S{j}"
            unit_rows["answer_id"].append(answer)
            unit_rows["unit_id"].append(unit)
            facts = list(sentence.human_facts or ())
            if policy == "paper" and not sentence.relevant and sentence.human_facts is None:
                facts = [(text, "IR") for text in sentence.model_facts]
            for text, label in facts:
                if label == "IR" and policy == "exclude":
                    continue
                k += 1
                for column, value in zip(
                    CANDIDATE_COLUMNS,
                    (answer, f"F{k}", text, [unit], True, True, status_of[label]),
                    strict=True,
                ):
                    cand[column].append(value)
    candidates = pa.table(
        {c: pa.array(cand[c], type=CANDIDATE_SCHEMA.field(c).type) for c in CANDIDATE_COLUMNS}
    )
    return candidates, pa.table(unit_rows, schema=UNIT_SCHEMA)


def factscore_ledgers(subjects, *, policy: str = "exclude") -> dict[str, CorpusFigures]:
    """Each subject's FActScore responses scored as a ledger of its own (corpus figures)."""
    out = {}
    for name, responses in subjects.items():
        candidates, units = factscore_ledger(responses, policy=policy)
        out[name] = summarise(count_ledger(candidates, units), by=None).corpus
    return out


# --- a demo ledger ------------------------------------------------------------------------------


def demo_ledger(answers: int = 400, *, seed: int = 0) -> tuple[pa.Table, pa.Table]:
    """A SIMULATED ledger of three decomposers over the same answers, each with a known habit.

    * ``faithful``: keeps every unit, some claims unsupported or contradicted, a few duplicates;
    * ``drops-hard``: leaves out the claims it cannot support: support looks perfect, coverage falls;
    * ``adds-claims``: adds supported claims the answers never made (unfaithful, no unit).
    Each answer has 3-7 units; a few answers are left out by ``drops-hard`` entirely.
    """
    rng = np.random.default_rng(seed)
    rows: dict[str, list] = {k: [] for k in ("model", *CANDIDATE_COLUMNS)}
    unit_rows: dict[str, list] = {"answer_id": [], "unit_id": []}

    def add(model, a, c, fp, pres, faithful, status):
        for k, v in zip(rows, (model, a, c, fp, pres, faithful, True, status), strict=True):
            rows[k].append(v)

    for i in range(answers):
        a = f"answer-{i:04d}"
        k = int(rng.integers(3, 8))
        units = [f"U{j}" for j in range(1, k + 1)]
        unit_rows["answer_id"] += [a] * k
        unit_rows["unit_id"] += units
        truth = rng.choice(STATUSES, size=k, p=[0.65, 0.15, 0.2])
        for j, (u, st) in enumerate(zip(units, truth, strict=True)):
            add("faithful", a, f"C{j}", f"{a}/{u}", [u], True, st)
        if rng.random() < 0.2:
            add("faithful", a, "Cdup", f"{a}/U1", ["U1"], True, truth[0])
        if rng.random() > 0.05:  # drops-hard skips a few answers entirely
            for j, (u, st) in enumerate(zip(units, truth, strict=True)):
                if st == "SUPPORTED":
                    add("drops-hard", a, f"C{j}", f"{a}/{u}", [u], True, st)
        for j, (u, st) in enumerate(zip(units, truth, strict=True)):
            add("adds-claims", a, f"C{j}", f"{a}/{u}", [u], True, st)
        for x in range(int(rng.integers(0, 4))):
            add("adds-claims", a, f"X{x}", f"{a}/extra{x}", [], False, "SUPPORTED")
    cand = pa.table({**rows, "preserves": pa.array(rows["preserves"], type=pa.list_(pa.string()))})
    return cand, pa.table(unit_rows)


def write_demo_ledger(
    folder: str | Path, *, answers: int = 400, seed: int = 0
) -> tuple[Path, Path]:
    """Write the demo ledger as Parquet files in ``folder``; returns (candidates, units)."""
    import pyarrow.parquet as pq

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    cand, units = demo_ledger(answers, seed=seed)
    cp, up = out / "demo_candidates.parquet", out / "demo_units.parquet"
    pq.write_table(cand, cp)
    pq.write_table(units, up)
    return cp, up


def perfect_support_low_coverage(
    result: LedgerResult, *, coverage_below: float = 0.6, limit: int = 10
):
    """Answers whose confirmed support is 100 % while coverage is below a share: dropped claims."""
    t = per_answer_ratios(result.counts.table)
    hit = t[(t["confirmed_support"] == 1.0) & (t["coverage"] < coverage_below)]
    cols = ["model", "answer_id", "confirmed_support_display", "coverage_display", "missing_units"]
    return hit[cols].head(limit).reset_index(drop=True), int(len(hit))
