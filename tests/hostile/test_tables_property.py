"""A per-item table read back (``--baseline``, ``claimlab diff``) that is no table a run writes.

Each case starts from the table a command wrote itself (``--out``: CSV, JSON Lines or Parquet),
breaks one value the way a hand, a spreadsheet or another tool could (a count that is not a
whole number from 0 to 2**53: infinite, NaN, 10**5000, 2**63, 2**70, negative, a fraction, a
word; an id that is missing, a list or bytes that are not UTF-8; a column named twice)
and gives it back as the baseline of the command that wrote it, and to ``claimlab diff``. The
rule: refused, exit 2, in one line naming the file; never exit 1, a traceback, a silent
reading (2**70 wrapped to a negative count) or a gate verdict over it. A named pipe as the
baseline is read, never waited on: one with no writer reads as an empty file and is refused.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import FIXTURES
from tests.hostile.test_loaders_property import assert_refused_or_fine, run
from tests.labs.test_factscore_fever_gate import factscore_rows, fever_files, jsonl

# a count written in a table's text, each no whole number from 0 to 2**53
BAD_COUNTS = ("Infinity", "-Infinity", "NaN", "1e400", "1" + "0" * 5000, str(2**63), str(2**70),
              "-1", "0.5", '"three"', str(2**53 + 2), "0x10", "1_000", "\uff11")  # fmt: skip
BAD_IDS = ("null", '["a", "b"]', "RAWBYTES")  # "" is an id where the inputs allow it


def _inputs(d: Path) -> dict[str, list[str]]:
    """Each gated command's arguments (its own input, generated or shipped)."""
    gold, pred = fever_files(n=30)
    g, p = jsonl(d / "gold.jsonl", gold), jsonl(d / "pred.jsonl", pred)
    fs = jsonl(d / "facts.jsonl", factscore_rows(n=20))
    return {
        "rag": ["rag", str(FIXTURES / "rag_greenhouse.json")],
        "fever": ["fever", str(g), str(p)],
        "factscore": ["factscore", str(fs)],
    }


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Every command's own table, as JSON Lines rows (the first row kept to break)."""
    d = tmp_path_factory.mktemp("tables")
    out = {}
    for name, args in _inputs(d).items():
        table = d / f"{name}.jsonl"
        code, _, err = run([*args, "--out", table])
        assert code == 0, err
        rows = [json.loads(x) for x in table.read_text(encoding="utf-8").splitlines()]
        out[name] = (args, rows)
    return d, out


def _count_columns(row: dict) -> list[str]:
    return [k for k, v in row.items() if isinstance(v, int) and not isinstance(v, bool)]


def _id_columns(row: dict) -> list[str]:
    return [k for k, v in row.items() if k.endswith("_id") or k in ("id", "prompt", "topic")]


def _jsonl_with(rows: list[dict], column: str, raw: str) -> bytes:
    """The rows as JSON Lines, the first row's ``column`` written as ``raw`` (as it stands)."""
    mark = "\x00MARK\x00"
    first = {**rows[0], column: mark}
    lines = [json.dumps(first), *(json.dumps(r) for r in rows[1:])]
    text = "\n".join(lines) + "\n"
    data = text.encode("utf-8")
    value = b'"a\xffb"' if raw == "RAWBYTES" else raw.encode("utf-8")
    return data.replace(json.dumps(mark).encode("utf-8"), value, 1)


def _csv_with(rows: list[dict], column: str, raw: str) -> bytes:
    """The rows as CSV, the first row's ``column`` written as ``raw`` (unquoted, as text)."""
    names = list(rows[0])

    def cell(v):
        return json.dumps(v) if isinstance(v, str) and ("," in v or '"' in v) else str(v)

    lines = [",".join(names)]
    for i, r in enumerate(rows):
        cells = [cell(r[n]) for n in names]
        if i == 0:
            cells[names.index(column)] = raw.strip('"') if raw != "null" else ""
        lines.append(",".join(cells))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    return data.replace(b"RAWBYTES", b"a\xffb", 1)


GATED = ("rag", "fever", "factscore")
FORMS = ("jsonl", "csv")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    st.sampled_from(GATED),
    st.sampled_from(FORMS),
    st.booleans(),
    st.data(),
)
def test_a_table_with_a_broken_count_or_id_is_refused_in_one_line(written, name, form, count, data):
    d, tables = written
    args, rows = tables[name]
    columns = _count_columns(rows[0]) if count else _id_columns(rows[0])
    column = data.draw(st.sampled_from(columns))
    raw = data.draw(st.sampled_from(BAD_COUNTS if count else BAD_IDS))
    if form == "csv" and not count:
        raw = "RAWBYTES"  # a CSV cell is text: no null (the empty cell is ""), no list
    build = _jsonl_with if form == "jsonl" else _csv_with
    bad = d / f"bad-{name}.{form}"
    bad.write_bytes(build(rows, column, raw))
    runs = [[*args, "--baseline", bad], ["diff", bad, d / f"{name}.jsonl"]]
    seen = [run(r) for r in runs]
    for r, (code, _, _) in zip(runs, seen, strict=True):
        assert assert_refused_or_fine(r, r[0], bad) == code
    if all(code == 2 for code, _, _ in seen):
        return
    # not refused: then the column is one the command does not read (a figure it works out
    # again, as F1 from its two parts): the same outputs as with the column left out
    without = [{k: v for k, v in row.items() if k != column} for row in rows]
    other = [k for k in without[0] if k != column][0]
    bad.write_bytes(build(without, other, json.dumps(without[0][other])))
    assert [run(r) for r in runs] == seen, (name, form, column, raw)


def _parquet(rows: list[dict], path: Path, column: str, values: pa.Array) -> Path:
    table = pa.Table.from_pylist(rows)
    table = table.set_column(table.column_names.index(column), column, values)
    pq.write_table(table, path)
    return path


@pytest.mark.parametrize("name", GATED)
def test_parquet_tables_with_counts_past_int64_ids_as_bytes_or_lists_are_refused(written, name):
    d, tables = written
    args, rows = tables[name]
    n = len(rows)
    count = _count_columns(rows[0])[0]
    key = _id_columns(rows[0])[0]
    cases = {
        "uint64": (count, pa.array([2**64 - 1] * n, type=pa.uint64())),
        "bool": (count, pa.array([True] * n)),
        "inf": (count, pa.array([float("inf")] * n)),
        "bytes": (key, pa.array([b"\xff%d" % i for i in range(n)], type=pa.binary())),
        "list": (key, pa.array([[f"x{i}"] for i in range(n)])),
    }
    for case, (column, values) in cases.items():
        bad = _parquet(rows, d / f"{name}-{case}.parquet", column, values)
        for cmd in ([*args, "--baseline", bad], ["diff", bad, d / f"{name}.jsonl"]):
            assert assert_refused_or_fine(cmd, cmd[0], bad) == 2, (name, case)


@pytest.mark.parametrize("form", ["csv", "jsonl"])
def test_a_column_named_twice_is_refused_naming_it(written, form):
    d, tables = written
    args, rows = tables["rag"]
    names = list(rows[0])
    lines = [",".join([*names, names[1]])] + [
        ",".join(str(r[n]) for n in [*names, names[1]]) for r in rows
    ]
    bad = d / f"twice.{form}"
    if form == "csv":
        bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:  # a composed and a decomposed spelling of one name: one name once read
        key = "qu\u00e9ry"
        bad.write_text("".join(json.dumps({**r, key: 1, "que\u0301ry": 2}) + "\n" for r in rows))
    code, _, err = run([*args, "--baseline", bad])
    assert code == 2 and "twice" in err and bad.name in err, err


def test_a_named_pipe_with_no_writer_is_read_as_empty_not_waited_on(written):
    d, tables = written
    args, _ = tables["rag"]
    fifo = d / "pipe.csv"
    if not fifo.exists():
        os.mkfifo(fifo)
    code, _, err = run([*args, "--baseline", fifo])  # waited on, this would never return
    assert code == 2 and fifo.name in err, err
    code, _, err = run(["diff", fifo, d / "rag.jsonl"])
    assert code == 2 and fifo.name in err, err


@pytest.mark.parametrize("form", ["csv", "jsonl", "parquet"])
def test_a_table_a_command_wrote_is_read_back_even_with_an_empty_id(tmp_path, form):
    """The refusals above never refuse what a command writes: an empty query id is an id."""
    doc = json.loads((FIXTURES / "rag_greenhouse.json").read_text(encoding="utf-8"))
    doc["results"][0]["query_id"] = ""
    source = tmp_path / "rag.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    table = tmp_path / f"queries.{form}"
    assert run(["rag", source, "--out", table])[0] == 0
    code, out, err = run(["rag", source, "--baseline", table])
    assert code == 0 and "PASS" in out, err
    assert run(["diff", table, table])[0] == 0


def test_a_csv_with_bytes_not_utf8_in_any_column_is_refused(written):
    d, tables = written
    args, rows = tables["rag"]
    shown = next(k for k, v in rows[0].items() if isinstance(v, float))  # a figure, not read
    bad = d / "bytes.csv"
    bad.write_bytes(_csv_with(rows, shown, "RAWBYTES"))
    code, _, err = run([*args, "--baseline", bad])
    assert code == 2 and "not UTF-8" in err and shown in err, err


@pytest.mark.parametrize("form", ["csv", "jsonl", "parquet"])
def test_a_table_given_through_a_pipe_with_a_writer_is_read_as_its_file(written, form):
    """``--baseline <(cat TABLE)``: the pipe has no suffix; its bytes tell its kind."""
    import subprocess
    import sys

    d, tables = written
    args, _ = tables["rag"]
    table = d / f"piped.{form}"
    assert run([*args, "--out", table])[0] == 0
    root = Path(__file__).resolve().parents[2]
    code = "import sys; from claimlab.tooling.cli import main; sys.exit(main())"
    proc = subprocess.run(
        ["bash", "-c", f'{sys.executable} -c "{code}" {" ".join(args)} --baseline <(cat {table})'],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stderr


@pytest.mark.parametrize("form", ["csv", "jsonl"])
def test_a_table_with_an_id_longer_than_a_read_block_is_read_back(tmp_path, form):
    doc = json.loads((FIXTURES / "rag_greenhouse.json").read_text(encoding="utf-8"))
    doc["results"][0]["query_id"] = "kimlik-" + "ş" * 1_500_000  # past the readers' 1 MiB blocks
    source = tmp_path / "rag.json"
    source.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    table = tmp_path / f"queries.{form}"
    assert run(["rag", source, "--out", table])[0] == 0
    code, out, err = run(["rag", source, "--baseline", table])
    assert code == 0 and "PASS" in out, err[:300]
