"""``rag --per-query --format lines|table|csv``: every query's figures, read or piped."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.tooling.cli import main
from tests.conftest import FIXTURES
from tests.labs.rag.test_rag_gate import greenhouse, write
from tests.scratch import scratch_dir

EXAMPLE = FIXTURES / "rag_greenhouse.json"


def run(capsys, *args):
    capsys.readouterr()
    code = main(["rag", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_table_has_a_row_per_query_and_every_cell_its_counts(capsys):
    code, out, _ = run(capsys, EXAMPLE, "--per-query", "--format", "table")
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("per query ("))
    head, *rows = lines[start + 1 :]
    assert code == 0 and head.split()[:3] == ["query", "Prec", "↑"] and "Hallu ↓" in head
    assert [r.split()[0] for r in rows] == ["gh-q1", "gh-q2"]
    # gh-q1: precision 1 of 2 response claims; F1 as its whole-number ratio 2ac/(ad+bc) = 2/4
    assert rows[0].split()[1:7] == ["50.0%", "1/2", "50.0%", "1/2", "50.0%", "2/4"]
    assert all(len(r.split()) == 1 + 2 * 11 for r in rows)


def test_csv_prints_the_table_out_writes_and_nothing_else(capsys, tmp_path):
    table = tmp_path / "q.csv"
    assert main(["rag", str(EXAMPLE), "--out", str(table), "--json"]) == 0
    code, out, _ = run(capsys, EXAMPLE, "--per-query", "--format", "csv")
    assert code == 0 and out == table.read_text(encoding="utf-8")


def test_lines_stay_the_default(capsys):
    _, default, _ = run(capsys, EXAMPLE, "--per-query")
    _, lines, _ = run(capsys, EXAMPLE, "--per-query", "--format", "lines")
    assert default == lines and "query gh-q1:" in lines


def test_format_without_per_query_or_csv_with_json_is_refused(capsys):
    code, _, err = run(capsys, EXAMPLE, "--format", "table")
    assert code == 2 and "give --per-query" in err and err.count("\n") == 1
    code, _, err = run(capsys, EXAMPLE, "--per-query", "--format", "csv", "--json")
    assert code == 2 and "drop --json" in err


def test_a_query_id_with_control_characters_is_shown_not_obeyed(capsys, tmp_path):
    doc, _ = greenhouse(n=3)
    doc["results"][0]["query_id"] = "\x1b[2Jwipe"
    path = write(tmp_path / "h.json", json.loads(json.dumps(doc)))
    for fmt in ("table", "csv", "lines"):
        code, out, _ = run(capsys, path, "--per-query", "--format", fmt)
        assert code == 0 and "\x1b" not in out and "\\x1b[2Jwipe" in out


def test_a_query_with_no_claim_shows_na_with_its_zero_counts():
    from claimlab.io.ragchecker import RagChecking, RagQuery
    from claimlab.labs.rag.views import query_table_lines
    from claimlab.metrics.rag import per_query_rows, score_rag

    empty = RagQuery("q0", "", (), (), (), (), (), (), (), {})
    lines = list(query_table_lines(per_query_rows(score_rag(RagChecking("f", (empty,), {})))))
    assert lines[-1].split() == ["q0", *["N/A", "0/0"] * 11]


_ids = st.text(
    alphabet=st.sampled_from(list("ab,\"\n\r ;x'\\é่한") + ["\x1b", "\u2028"]), max_size=6
)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(0, 10**6), st.lists(_ids, min_size=7, max_size=7), st.data())
def test_the_csv_printed_without_a_table_library_is_the_tables_own(n, seed, ids, data):
    """``--format csv`` writes the rows with the standard library: the very text pandas
    writes for the per-query table, whatever the ids hold (commas, quotes, line breaks) and
    whatever is N/A (a query with no claim of a kind)."""
    import dataclasses

    from claimlab.io.ragchecker import RagChecking, RagQuery, load_checking
    from claimlab.labs.rag.views import per_query_csv, query_table_lines
    from claimlab.metrics.rag import per_query_rows, per_query_table, score_rag

    doc, _ = greenhouse(n=n, seed=seed)
    checking = load_checking(write(scratch_dir("rag-csv-") / "h.json", doc))
    queries = [
        dataclasses.replace(q, query_id=f"{ids[k]}{k}") for k, q in enumerate(checking.queries)
    ]
    if data.draw(st.booleans()):  # a query with no claim at all: every figure N/A
        queries.append(RagQuery(ids[-1] + "-empty", "", (), (), (), (), (), (), (), {}))
    report = score_rag(RagChecking("f", tuple(queries), {}))
    rows = per_query_rows(report)
    assert per_query_csv(rows) == per_query_table(report).to_csv(index=False)
    table_rows = per_query_table(report).to_dict("records")
    assert list(query_table_lines(rows)) == list(query_table_lines(table_rows))
