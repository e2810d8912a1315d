"""Claim ledgers as Arrow tables: read from CSV, JSONL or Parquet, and coerced column by column.

A ledger is two tables: candidates (``answer_id, candidate_id, fingerprint, preserves,
faithful, atomic, status``, optional ``model``) and units (``answer_id, unit_id``). Reading
adds a 1-based ``_row`` column; each column is then coerced to one shape (strings, possibly
dictionary-encoded; booleans; lists of unit ids) with a one-line error naming file, row and
field for the first value that does not fit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from claimlab.core.errors import LedgerError
from claimlab.core.text import clip, nfc
from claimlab.io.decomposition import DecompositionFixture, load_decomposition
from claimlab.io.reader import deeper_than, describe, is_plain_file, iter_jsonl, read_bytes

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


def table_kind(path: Path) -> str:
    """parquet, jsonl or csv: the kind of table a path names, from its extension."""
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


_PIPED: dict[str, bytes] = {}  # a pipe's bytes, by its name: a pipe reads once


def _piped(path: Path) -> bytes:
    """The bytes of a file that is no regular file (a pipe), read once in this process.

    A command may read a table twice (its kind, then its rows): a pipe gives its bytes once.
    """
    key = str(path)
    if key not in _PIPED:
        _PIPED[key] = read_bytes(path, error=LedgerError)
    return _PIPED[key]


def _kind_of_bytes(path: Path, data: bytes) -> str:
    """A pipe's table kind: by its name when it has one, else by its bytes.

    (``<(...)`` of a shell is ``/dev/fd/63``): Parquet's magic, a JSON object first, or CSV.
    """
    try:
        return table_kind(path)
    except LedgerError:
        pass
    if data.startswith(b"PAR1"):
        return "parquet"
    return "jsonl" if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") else "csv"


def row_label(path: str | Path, row: int) -> str:
    """How a row is named in messages: CSV rows carry their line, JSONL lines are lines.

    A table that was never a file (scored in memory) names its rows by number.
    """
    try:
        kind = table_kind(Path(path))
    except LedgerError:
        kind = "table"
    if kind == "csv":
        return f"row {row} (line {row + 1})"
    if kind == "jsonl":
        return f"line {row}"
    return f"row {row}"


def load_table(
    path: str | Path, *, columns: Sequence[str] | None = None, text: Sequence[str] = ()
) -> pa.Table:
    """Read a CSV, JSONL or Parquet table and add a 1-based ``_row`` column.

    The id columns (:data:`TEXT_COLUMNS`, and ``text``: the keys a caller pairs by) of a CSV
    file are read as text as written: ``007`` stays ``007``, never the number 7.

    Raises:
        LedgerError: unreadable file.
    """
    p = Path(path)
    # a regular file is read by path; anything else (a named pipe) through the reader that
    # neither waits for a writer nor reads a device (:func:`claimlab.io.reader.read_bytes`)
    where: Any = p if is_plain_file(p) or not p.exists() else None
    data = b"" if where is not None else _piped(p)
    kind = table_kind(p) if where is not None else _kind_of_bytes(p, data)
    try:
        if where is None:
            where = pa.BufferReader(data)
        elif kind == "jsonl":
            data = p.read_bytes()
        table = _read_kind(p, kind, where, data, columns, text)
        _ = table.column_names  # a header that is not UTF-8 is only found when names are read
        _check_text(table, kind, str(p))
    except FileNotFoundError:
        raise LedgerError("file not found", file=str(p)) from None
    except IsADirectoryError:
        raise LedgerError("is a folder, not a file", file=str(p)) from None
    except UnicodeDecodeError as exc:
        raise LedgerError(
            f"not UTF-8 text: byte 0x{exc.object[exc.start]:02x} (save the file as UTF-8)",
            file=str(p),
        ) from None
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OSError) as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise LedgerError(f"cannot read {kind}: {first}", file=str(p)) from None
    table = nfc_table(table)
    _refuse_repeated_column(table, str(p))
    return table.append_column(ROW, pa.array(np.arange(1, table.num_rows + 1, dtype=np.int64)))


def _read_kind(
    p: Path, kind: str, where: Any, data: bytes, columns: Sequence[str] | None, text: Sequence[str]
) -> pa.Table:
    """The table as its kind's reader reads it (``where``: the path, or the bytes held)."""
    if kind == "parquet":
        import pyarrow.parquet as pq

        names = set(pq.read_schema(where).names)
        dict_cols = [
            c for c in ("model", "answer_id", "candidate_id", "status", "unit_id") if c in names
        ]
        return pq.read_table(
            where, columns=list(columns) if columns else None, read_dictionary=dict_cols
        )
    if kind == "csv":
        return _read_csv(where, text)
    import pyarrow.json as pjson

    _check_first_object(p, data)  # read once: checked here, then parsed from memory
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n"):  # no line at all: the empty table
        return pa.table({})
    if _may_nest(data):  # pyarrow's reader recurses without a bound: a deep line ends it
        return _read_jsonl_rows(p, data)
    try:
        table = pjson.read_json(pa.BufferReader(data))
    except pa.ArrowInvalid as exc:  # a line longer than a block (1 MiB): the file as one block
        if "straddl" not in str(exc):
            raise
        whole = pjson.ReadOptions(block_size=len(data) + 1)
        table = pjson.read_json(pa.BufferReader(data), read_options=whole)
    try:
        table.validate()
    except pa.ArrowInvalid:  # the fast reader can build a broken list column
        table = _read_jsonl_rows(p, data)
    return table


def _check_text(table: pa.Table, kind: str, source: str) -> None:
    """Every text of the table is UTF-8.

    The JSON and Parquet readers leave text bytes as they are, and a later step would fail on
    them without naming the file; the CSV reader reads a column of such bytes as bytes.

    Raises:
        LedgerError: naming the file and the first column holding such a text.
    """
    for name, col in zip(table.column_names, table.columns, strict=True):
        try:
            if kind == "csv":  # text that is not UTF-8 is read as bytes: CSV has no others
                if pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type):
                    raise pa.ArrowInvalid(name)
                continue
            col.validate(full=True)
        except pa.ArrowInvalid:
            raise LedgerError(
                "not UTF-8 text: a value holds bytes that are not UTF-8 (save the file as UTF-8)",
                file=source,
                field=name,
            ) from None


def _refuse_repeated_column(table: pa.Table, source: str) -> None:
    """Refuse a column named twice (once its names are in NFC): which one is meant is unknown."""
    seen: set[str] = set()
    for name in table.column_names:
        if name in seen:
            raise LedgerError(
                "this column is named twice in the header: which one holds the values is unknown",
                file=source,
                field=name,
            )
        seen.add(name)


def nfc_table(table: pa.Table) -> pa.Table:
    """A table with every text (column names, strings, lists of strings) in NFC.

    The tables' side of :func:`claimlab.io.reader.nfc_json`: an answer, candidate or unit id,
    a status or a model written composed in one row and decomposed in another is one value.
    A column already in one spelling is kept as it is (checked in C).
    """
    for i, name in enumerate(table.column_names):
        col = table.column(i)
        fixed = _nfc_column(col)
        if fixed is not col:
            table = table.set_column(i, name, fixed)
    names = [nfc(n) for n in table.column_names]
    return table if names == table.column_names else table.rename_columns(names)


def _nfc_column(col: pa.ChunkedArray) -> pa.ChunkedArray:
    """The column in NFC, or the very same column when nothing in it changes."""
    t = col.type
    if pa.types.is_dictionary(t) and _is_text(t.value_type):
        plain = col.cast(t.value_type)
        fixed = _nfc_column(plain)
        return col if fixed is plain else fixed.dictionary_encode()
    if _is_text(t):
        if pc.all(pc.string_is_ascii(col)).as_py() is not False:
            return col
        normal = pc.utf8_normalize(col, form="NFC")
        return col if pc.all(pc.equal(normal, col)).as_py() is not False else normal
    if (pa.types.is_list(t) or pa.types.is_large_list(t)) and _is_text(t.value_type):
        chunks = []
        for c in col.chunks:
            values = _nfc_column(pa.chunked_array([c.values], type=t.value_type))
            if values.chunks[0] is c.values or values.chunks[0].equals(c.values):
                chunks.append(c)
                continue
            chunks.append(type(c).from_arrays(c.offsets, values.combine_chunks(), mask=c.is_null()))
        return (
            col
            if all(a is b for a, b in zip(chunks, col.chunks, strict=True))
            else pa.chunked_array(chunks, type=t)
        )
    return col


def _is_text(t: pa.DataType) -> bool:
    return bool(pa.types.is_string(t) or pa.types.is_large_string(t))


def _read_jsonl_rows(p: Path, data: bytes) -> pa.Table:
    """A JSON Lines ledger read line by line, for what the fast reader cannot build.

    pyarrow's JSON reader builds an invalid list column from a list that starts with null and
    goes on with a string (``[null, "id"]``); read this way, the null reaches the checks and is
    reported with its line.
    """
    rows = []
    for n, value in iter_jsonl(p, data=data):
        if not isinstance(value, dict):
            raise LedgerError(
                f"must hold one JSON object per line, got {describe(value)}",
                file=str(p),
                record=f"line {n}",
            )
        if deeper_than(value, ROW_DEPTH):
            raise LedgerError(
                f"a ledger row holds texts, flags and lists of ids: a value here nests deeper "
                f"than {ROW_DEPTH} levels",
                file=str(p),
                record=f"line {n}",
            )
        rows.append(value)
    return pa.Table.from_pylist(rows)


ROW_DEPTH = 32  # a ledger row's values are flat; deeper nesting is no ledger


def _may_nest(data: bytes) -> bool:
    """Whether a line of the file opens more than :data:`ROW_DEPTH` lists or objects."""
    if data.count(b"[") + data.count(b"{") <= ROW_DEPTH:
        return False
    return max(line.count(b"[") + line.count(b"{") for line in data.split(b"\n")) > ROW_DEPTH


def _check_first_object(p: Path, data: bytes) -> None:
    """A JSON Lines ledger starts with an object (pyarrow's reader crashes on a first ``null``)."""
    text = data[: 1 << 16].lstrip(b"\xef\xbb\xbf")
    stripped = text.lstrip()
    if stripped and not stripped.startswith(b"{"):
        line = text[: len(text) - len(stripped)].count(b"\n") + 1
        got = stripped[:20].split(b"\n")[0].decode("utf-8", "replace")
        raise LedgerError(
            f"must hold one JSON object per line, got {got!r}", file=str(p), record=f"line {line}"
        )


TEXT_COLUMNS = ("answer_id", "candidate_id", "unit_id", "preserves", "fingerprint", "model")


def _read_csv(p: Any, text: Sequence[str] = ()) -> pa.Table:
    """Read a CSV ledger; quoted values may hold line breaks.

    The fast parser splits the file into blocks at line breaks, which breaks a quoted value
    holding one: depending on where the block ends, the parser reports "CSV parser got out of
    sync" or a row with too few columns. A file the fast parser refuses is therefore read again
    with line breaks allowed inside values, as one block (slower, but correct: a value longer
    than a block straddles two); only what that second reading refuses is an error of the file.
    """
    import pyarrow.csv as pcsv

    convert = pcsv.ConvertOptions(
        column_types=dict.fromkeys([*TEXT_COLUMNS, *text], pa.string()),
        strings_can_be_null=False,
    )
    try:
        return pcsv.read_csv(p, convert_options=convert)
    except pa.ArrowInvalid:
        if isinstance(p, pa.NativeFile):  # a pipe's bytes, held in memory: read them again
            p.seek(0)
    size = p.size() if isinstance(p, pa.NativeFile) else Path(p).stat().st_size
    return pcsv.read_csv(
        p,
        read_options=pcsv.ReadOptions(block_size=min(max(size + 1, 1 << 20), 2**31 - 1)),
        convert_options=convert,
        parse_options=pcsv.ParseOptions(newlines_in_values=True),
    )


def _type(t: pa.DataType) -> str:
    """A column type for a message, shortened (a deeply nested list names itself at length)."""
    return clip(str(t))


def require_columns(table: pa.Table, names: Sequence[str], source: str) -> None:
    """Refuse a table without one of ``names``, naming the file and the missing column."""
    for name in names:
        if name not in table.column_names:
            raise LedgerError(
                f"missing required column (has: {', '.join(c for c in table.column_names if c != ROW)})",
                file=source,
                field=name,
            )


def as_string(table: pa.Table, name: str, source: str) -> pa.ChunkedArray:
    """A column as non-empty strings (dictionary-encoded kept), or an error naming the first bad row."""
    col = table.column(name)
    if table.num_rows == 0 or pa.types.is_null(col.type):
        col = col.cast(pa.string()) if pa.types.is_null(col.type) else col
    try:
        if pa.types.is_dictionary(col.type):  # as read from Parquet: codes come for free
            if not pa.types.is_string(col.type.value_type):
                col = col.cast(pa.string())
        elif pa.types.is_integer(col.type) or pa.types.is_large_string(col.type):
            col = col.cast(pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):  # bytes that are no text, a list
        raise LedgerError(
            f"must hold strings, found {_type(col.type)}", file=source, field=name
        ) from None
    if not (pa.types.is_string(col.type) or pa.types.is_dictionary(col.type)):
        raise LedgerError(f"must hold strings, found {_type(col.type)}", file=source, field=name)
    if col.null_count:
        row = int(pc.index(pc.is_null(col), True).as_py())
        raise LedgerError("empty value", file=source, record=row_label(source, row + 1), field=name)
    return col


def _nfc(col: pa.ChunkedArray) -> pa.ChunkedArray:
    """Strings in Unicode NFC, so an id typed with composed or combining characters is one id."""
    if pa.types.is_dictionary(col.type):
        chunks = []
        for chunk in col.chunks:
            d = chunk.dictionary
            if not pc.all(pc.string_is_ascii(d)).as_py():
                chunk = pa.DictionaryArray.from_arrays(chunk.indices, pc.utf8_normalize(d, "NFC"))
            chunks.append(chunk)
        return pa.chunked_array(chunks, type=col.type) if chunks else col
    if len(col) == 0 or pc.all(pc.string_is_ascii(col)).as_py():
        return col
    return pc.utf8_normalize(col, "NFC")


def as_id(table: pa.Table, name: str, source: str, *, group: bool = False) -> pa.ChunkedArray:
    """An id column: strings, none empty where it names a group, in NFC (see :func:`_nfc`)."""
    col = _nfc(as_string(table, name, source))
    if group and len(col):
        plain = col.cast(pa.string()) if pa.types.is_dictionary(col.type) else col
        empty = pc.equal(pc.utf8_length(plain), 0)
        if pc.any(empty).as_py():
            row = int(pc.index(empty, True).as_py())
            raise LedgerError(
                "empty name: every row names its group (an empty cell would be a group named '')",
                file=source,
                record=row_label(source, row + 1),
                field=name,
            )
    return col


def as_bool(table: pa.Table, name: str, source: str) -> np.ndarray:
    """A column as booleans (true/false, 1/0 and the like), or an error naming the first bad row."""
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
    values: np.ndarray = col.to_numpy(zero_copy_only=False).astype(bool)
    return values


def preserves_column(table: pa.Table, source: str) -> pa.ChunkedArray:
    """The ``preserves`` column as lists of NFC unit ids (``;``-separated strings split)."""
    col = table.column("preserves")
    if pa.types.is_null(col.type):  # every row null: none preserves a unit, as null reads
        col = col.cast(pa.list_(pa.string()))
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
        values = _nfc(pa.chunked_array([values])).combine_chunks()
        return pa.chunked_array([pa.ListArray.from_arrays(pa.array(new_offsets), values)])
    if pa.types.is_list(col.type) or pa.types.is_large_list(col.type):
        value_type = col.type.value_type
        if pa.types.is_dictionary(value_type):
            value_type = value_type.value_type
        if pa.types.is_null(value_type):  # every list empty (a decomposer of introduced claims)
            col, value_type = col.cast(pa.list_(pa.string())), pa.string()
        if not (pa.types.is_string(value_type) or pa.types.is_large_string(value_type)):
            raise LedgerError(
                f"must be a list of unit ids, found {_type(col.type)}",
                file=source,
                field="preserves",
            )
        if col.type != pa.list_(pa.string()):  # large lists, large strings: one shape inside
            col = col.cast(pa.list_(pa.string()))
        flat = pc.list_flatten(col)
        if flat.null_count:  # a null inside a list names no unit
            at = int(pc.index(pc.is_null(flat), True).as_py())
            row = int(pc.list_parent_indices(col)[at].as_py())
            raise LedgerError(
                "a unit id in the list is empty (null)",
                file=source,
                record=row_label(source, row + 1),
                field="preserves",
            )
        col = pc.fill_null(col, pa.scalar([], type=col.type)) if col.null_count else col
        return _nfc_lists(col)
    raise LedgerError(
        f"must be unit ids (a list, or ';'-separated text), found {_type(col.type)}",
        file=source,
        field="preserves",
    )


def _nfc_lists(col: pa.ChunkedArray) -> pa.ChunkedArray:
    """Lists of ids with every id in NFC."""
    flat = pc.list_flatten(col)
    if len(flat) == 0 or pc.all(pc.string_is_ascii(flat)).as_py():
        return col
    chunks = []
    for chunk in col.chunks:
        values = pc.utf8_normalize(chunk.values, "NFC")
        chunks.append(pa.ListArray.from_arrays(chunk.offsets, values, mask=chunk.is_null()))
    return pa.chunked_array(chunks, type=col.type)


def decomposition_folder(folder: str | Path) -> list[DecompositionFixture]:
    """Every decomposition file of a folder (drafts or gold; sub-folders too), one answer each.

    Raises:
        LedgerError: not a folder, no file in it, or two files for one answer.
        FixtureError: a file that does not load (naming file, record and field).
    """
    from claimlab.io.annotations import decomposition_files

    d = Path(folder)
    if not d.is_dir():
        raise LedgerError("is not a folder of decomposition files", file=str(d))
    files = decomposition_files(d)
    if not files:
        raise LedgerError("holds no decomposition file (*.json)", file=str(d))
    out = []
    seen: dict[str, str] = {}
    for p in files:
        fx = load_decomposition(p)
        aid = nfc(fx.original.id)
        if aid in seen:
            raise LedgerError(
                f"annotates the same answer as {seen[aid]}: give a folder with one file per "
                "answer (an adjudicated or confirmed copy of each)",
                file=str(p),
                record=aid,
                field="original.id",
            )
        seen[aid] = str(p)
        out.append(fx)
    return out


def folder_spec(spec: str) -> tuple[str, Path]:
    """``NAME=DIR`` or ``DIR`` (named after the folder): the decomposer and its folder.

    Raises:
        LedgerError: an empty name.
    """
    name, sep, folder = spec.partition("=")
    if not sep or not folder or Path(spec).is_dir():
        path = Path(spec)
        name = path.resolve().name
    else:
        path = Path(folder)
    name = nfc(name.strip())
    if not name:
        raise LedgerError("the decomposer's name is empty (give NAME=DIR)", file=spec)
    return name, path


def decomposition_folders(
    specs: Sequence[str],
) -> list[tuple[str, list[DecompositionFixture]]]:
    """Each ``NAME=DIR`` (or ``DIR``) as one decomposer's files, in the order given.

    Raises:
        LedgerError: a name or a folder given twice, or a folder that does not load.
    """
    out: list[tuple[str, list[DecompositionFixture]]] = []
    folders: dict[Path, str] = {}
    for spec in specs:
        name, path = folder_spec(spec)
        if name in (n for n, _ in out):
            raise LedgerError(
                f"names the decomposer {name!r} twice: give each folder its own name (NAME=DIR)",
                file=spec,
            )
        real = path.resolve()
        if real in folders:
            raise LedgerError(f"is the same folder as {folders[real]}", file=str(path))
        folders[real] = spec
        out.append((name, decomposition_folder(path)))
    return out


def _shared_units(
    named: Sequence[tuple[str, Sequence[DecompositionFixture]]],
) -> dict[str, tuple[DecompositionFixture, dict[tuple[int, int], str]]]:
    """Per answer, the file whose unit ids count, and its unit id of each span.

    Decomposers of one answer are compared on the same units: their files must mark the same
    unit spans (the ids may differ; they are read by span).

    Raises:
        LedgerError: two decomposers' files of one answer with different unit spans.
    """
    first: dict[str, tuple[DecompositionFixture, dict[tuple[int, int], str]]] = {}
    for _, fixtures in sorted(named, key=lambda t: t[0]):
        for fx in fixtures:
            aid = nfc(fx.original.id)
            spans: dict[tuple[int, int], str] = {}
            for u in fx.units:
                spans.setdefault((u.span.start, u.span.end), u.id)
            if aid not in first:
                first[aid] = (fx, spans)
                continue
            other, known = first[aid]
            if set(spans) != set(known):
                odd = sorted(set(spans) ^ set(known))[0]
                raise LedgerError(
                    f"marks other units than {other.source} for the same answer (unit span "
                    f"{odd[0]}..{odd[1]} is in one only): decomposers are compared on the same "
                    "units",
                    file=fx.source,
                    record=aid,
                    field="units",
                )
    return first


def _candidate_rows(
    fx: DecompositionFixture,
    units_of: Mapping[str, tuple[DecompositionFixture, Mapping[tuple[int, int], str]]],
    select: Callable[[DecompositionFixture], Sequence[str]] | None,
) -> list[tuple[Any, ...]]:
    """One file's scored candidates as ledger rows (units named as the answer's first file)."""
    aid = nfc(fx.original.id)
    first, canon = units_of[aid]
    unit_of = (
        {u.id: u.id for u in fx.units}
        if fx is first
        else {u.id: canon[(u.span.start, u.span.end)] for u in fx.units}
    )
    chosen = fx.candidates if select is None else [fx.candidate(i) for i in select(fx)]
    return [
        (
            aid,
            nfc(c.id),
            c.fingerprint,
            [unit_of.get(u, u) for u in fx.counted_units(c)],
            c.faithful,
            c.atomic,
            str(c.evidence.status),
            fx.source,
            ";".join(c.review),
            fx.left_out(c) or "",  # ambiguous or untagged background: audited, never counted
        )
        for c in chosen
    ]


def tables_from_decompositions(
    fixtures: Sequence[DecompositionFixture],
    *,
    models: Sequence[tuple[str, Sequence[DecompositionFixture]]] | None = None,
    select: Callable[[DecompositionFixture], Sequence[str]] | None = None,
) -> tuple[pa.Table, pa.Table]:
    """The candidates and units ledger tables of decomposition files (every candidate, in order).

    Adds ``file`` and ``proposed`` (the labels still under review, ``;``-joined; empty when a
    person confirmed them) and ``left_out`` (why a candidate is audited but never counted: an
    ambiguous mapping or untagged background from outside the original; empty when it counts)
    to the candidates table. As in ``claimlab decomposition``, a candidate's ``preserves``
    lists only the units a source span of it backs. With ``models`` (each decomposer's name and
    files) the table gains a ``model`` column and ``fixtures`` is ignored; answers are paired
    across decomposers by their NFC id, units by their spans. ``select`` gives the candidate
    ids of each file that are scored, in their order (default: every candidate, in file order).
    """
    named = list(models) if models is not None else [("", fixtures)]
    units_of = _shared_units(named)
    cols = (
        *CANDIDATE_COLUMNS,
        "file",
        "proposed",
        "left_out",
        *(("model",) if models is not None else ()),
    )
    cand: dict[str, list[Any]] = {k: [] for k in cols}
    for model, files in named:
        for fx in files:
            for row in _candidate_rows(fx, units_of, select):
                for k, v in zip(
                    cols, (*row, *((model,) if models is not None else ())), strict=True
                ):
                    cand[k].append(v)
    units: dict[str, list[Any]] = {k: [] for k in UNIT_COLUMNS}
    for aid, (first, _) in units_of.items():
        for u in first.units:
            units["answer_id"].append(aid)
            units["unit_id"].append(u.id)
    schema = (
        CANDIDATE_SCHEMA.append(pa.field("file", pa.string()))
        .append(pa.field("proposed", pa.string()))
        .append(pa.field("left_out", pa.string()))
    )
    if models is not None:
        schema = schema.append(pa.field("model", pa.string()))
    ct = pa.table(cand, schema=schema)
    ut = pa.table(units, schema=UNIT_SCHEMA)
    ct = ct.append_column(ROW, pa.array(np.arange(1, ct.num_rows + 1, dtype=np.int64)))
    ut = ut.append_column(ROW, pa.array(np.arange(1, ut.num_rows + 1, dtype=np.int64)))
    return ct, ut


def _check_ratios(frame: Any, ratios: Sequence[tuple[str, str]], source: str) -> None:
    """Raise on the first row whose numerator is past its denominator (a LedgerError)."""
    for num, den in ratios:
        past = (frame[num] > frame[den]).to_numpy()
        if past.any():
            i = int(past.nonzero()[0][0])
            raise LedgerError(
                f"{frame[num].iloc[i]} is more than its denominator {den} "
                f"({frame[den].iloc[i]}): a count past its denominator",
                file=source,
                record=row_label(source, int(frame[ROW].iloc[i])),
                field=num,
            )


MAX_COUNT = 2**53  # the largest count every reader holds exactly (a float's whole numbers)
DECIMAL = r"\+?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # a count written as text


def columns_of_empty(table: pa.Table, schema: pa.Schema, *texts: str) -> pa.Table:
    """A table of no rows and no columns (an empty JSON Lines file) given the schema's columns.

    Such a file is the empty table: a release whose every answer lost all its candidates,
    written as JSON Lines, names no column to read. ``texts``: more text columns to give it
    (the ``--by`` column). Any other table is returned as it is.
    """
    if table.num_rows or [c for c in table.column_names if c != ROW]:
        return table
    for field in schema:
        table = table.append_column(field, pa.array([], field.type))
    for name in texts:
        table = table.append_column(name, pa.array([], pa.string()))
    return table


def _empty_columns(table: pa.Table, keys: Sequence[str], counts: Sequence[str]) -> pa.Table:
    """The columns asked for, empty, in a table of no rows and no columns.

    What ``--out`` writes as JSON Lines for a run of no items: read back as the empty run it is.
    """
    for name in dict.fromkeys([*keys, *counts]):
        table = table.append_column(name, pa.array([], pa.string() if name in keys else pa.int64()))
    return table


def _key_columns(table: pa.Table, keys: Sequence[str], source: str) -> pa.Table:
    """The key columns as texts (a whole number read as its digits), or the error.

    A missing id, a list or bytes that are not UTF-8 are refused (:func:`as_string`); an
    empty text is an id as the commands' own inputs allow it, so a table a command wrote is
    always read back.
    """
    for k in keys:
        table = table.set_column(table.column_names.index(k), k, as_string(table, k, source))
    return table


def _count_column(frame: Any, name: str, source: str) -> Any:
    """A count column as int64: whole numbers from 0 to :data:`MAX_COUNT`, or the error.

    Infinite, NaN, past 2**53 (2**70 would wrap to a negative count), negative, fractional or
    not a number: refused, naming the first such row.
    """
    import pandas as pd

    raw = frame[name]
    if raw.dtype == bool:  # true/false is no count
        raw = pd.Series("", index=raw.index, dtype=object)
    elif raw.dtype == object:  # text: decimal digits only (not 0x10, 1_000, full-width 1)
        text = raw.astype(str).str.strip()
        raw = raw.where(text.str.fullmatch(DECIMAL, na=False), "")
    col = pd.to_numeric(raw, errors="coerce")
    with np.errstate(invalid="ignore"):
        bad = col.isna() | ~np.isfinite(col) | (col < 0) | (col > MAX_COUNT)
        bad |= col != col.round()
    if bad.any():
        i = int(bad.to_numpy().nonzero()[0][0])
        got = frame[name].iloc[i]
        got = got.item() if isinstance(got, np.generic) else got  # inf, not np.float64(inf)
        raise LedgerError(
            f"must be a whole number from 0 to 2**53, got {describe(got)}",
            file=source,
            record=row_label(source, int(frame[ROW].iloc[i])),
            field=name,
        )
    return col.astype("int64")


def load_answers(
    path: str | Path,
    *,
    keys: Sequence[str],
    counts: Sequence[str] = (),
    ratios: Sequence[tuple[str, str]] = (),
    optional: Sequence[str] = (),
) -> Any:
    """An earlier run's per-answer table (``claimlab ledger --out``) as pandas, checked.

    ``keys`` pair the answers (``answer_id``, and the ``--by`` column); ``counts`` (and both
    columns of each ``(numerator, denominator)`` of ``ratios``, and the ``optional`` counts the
    table has) must be whole numbers of 0 or more, no numerator past its denominator, each key
    given once.

    Raises:
        LedgerError: a missing column, a count that is not a whole number of 0 or more, a
            numerator past its denominator, a key given twice; naming file, row and field.
    """
    source = str(path)
    wanted = [*counts, *(c for pair in ratios for c in pair)]
    # a CSV's counts read as written (its reader takes 0x10 for 16), then checked as decimals
    table = load_table(path, text=[*keys, *wanted, *optional])
    if not table.num_rows and table.column_names == [ROW]:  # an empty JSON Lines file
        table = _empty_columns(table, keys, wanted)
    present = [c for c in optional if c in table.column_names]
    counts = list(dict.fromkeys([*counts, *(c for pair in ratios for c in pair), *present]))
    require_columns(table, [*keys, *counts], source)
    table = _key_columns(table, keys, source)
    frame = table.select([*keys, *counts, ROW]).to_pandas()
    for name in counts:
        frame[name] = _count_column(frame, name, source)
    _check_ratios(frame, ratios, source)
    for k in keys:
        frame[k] = frame[k].astype(str)
    dup = frame.duplicated(list(keys))
    if dup.any():
        i = int(dup.to_numpy().nonzero()[0][0])
        raise LedgerError(
            "this answer appears twice in the table",
            file=source,
            record=row_label(source, int(frame[ROW].iloc[i])),
            field=keys[-1],
        )
    return frame.drop(columns=ROW)
