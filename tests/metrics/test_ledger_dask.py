"""Unit tests of ``metrics/ledger_dask.py``, in process (Dask's synchronous scheduler).

The partition-wise scorer must give exactly the single-machine counts; each of its steps
(an empty table's columns, a partition put back in file order, row numbers across partitions,
answers without candidates, the refusals) is checked on its own. The two-worker cluster runs
of the same scorer are in ``test_ledger.py`` (slow).
"""

import pandas as pd
import pyarrow as pa
import pytest

from claimlab.core.errors import LedgerError
from claimlab.io.ledger import CANDIDATE_SCHEMA, ROW, UNIT_SCHEMA
from claimlab.metrics.ledger import count_ledger, summarise

dd = pytest.importorskip("dask.dataframe")
LD = pytest.importorskip("claimlab.metrics.ledger_dask")

SCHEMA = pa.schema([("model", pa.string()), *CANDIDATE_SCHEMA])


@pytest.fixture(autouse=True)
def one_thread():
    """Dask's synchronous scheduler: no thread pool (these tests may run in a forked process)."""
    import dask

    with dask.config.set(scheduler="synchronous"):
        yield


def _row(model, answer, cid, fp, preserves, faithful=True, status="SUPPORTED"):
    return {"model": model, "answer_id": answer, "candidate_id": cid, "fingerprint": fp,
            "preserves": preserves, "faithful": faithful, "atomic": True, "status": status}  # fmt: skip


ROWS = [
    _row("m1", "x", "C1", "f1", ["U1"], status="CONTRADICTED"),
    _row("m2", "y", "C1", "g", ["V1"]),
    _row("m1", "x", "C2", "f1", ["U2"]),  # a repeat of C1's fingerprint: C1 counts, not C2
    _row("m1", "y", "C1", "g", [], faithful=False),
    _row("m2", "x", "C1", "f9", ["U1", "U2"]),
    _row("m1", "x", "C3", "f3", ["U2"]),
]
UNITS = [("x", "U1"), ("x", "U2"), ("y", "V1"), ("w", "W1")]  # w: no candidate row at all


def _tables(rows=ROWS, units=UNITS):
    cand = pa.Table.from_pylist(rows, schema=SCHEMA)
    unit_table = pa.Table.from_pylist(
        [{"answer_id": a, "unit_id": u} for a, u in units], schema=UNIT_SCHEMA
    )
    return cand, unit_table


def _frame(cand, npartitions, numbered=True):
    df = cand.to_pandas()
    df["preserves"] = df["preserves"].map(";".join)
    ddf = dd.from_pandas(df, npartitions=npartitions, sort=False)
    return LD.with_row_numbers(ddf) if numbered else ddf


def _plain(table):
    return table.assign(
        model=table["model"].astype(str).astype(object),
        answer_id=table["answer_id"].astype(str).astype(object),
    ).reset_index(drop=True)


def test_an_empty_candidates_table_has_the_ledgers_columns_and_the_group_column():
    t = LD.empty_candidates()
    assert t.num_rows == 0
    assert t.schema == pa.schema([*CANDIDATE_SCHEMA, (ROW, pa.int64())])
    grouped = LD.empty_candidates("model")
    assert grouped.schema.names == [*CANDIDATE_SCHEMA.names, ROW, "model"]
    assert grouped.schema.field("model").type == pa.string()


def test_row_numbers_run_from_one_in_file_order_across_partitions():
    cand, _ = _tables()
    numbered = _frame(cand, 3).compute()
    assert numbered[ROW].tolist() == [1, 2, 3, 4, 5, 6]
    assert numbered["candidate_id"].tolist() == [r["candidate_id"] for r in ROWS]


def test_a_partition_is_counted_in_file_order_whatever_order_it_arrives_in():
    cand, units = _tables()
    part = _frame(cand, 1).compute()
    shuffled = part.iloc[::-1]  # C3 before C2 before C1: C1 must still be the one that counts
    got = LD.count_partition(shuffled, units, by="model", models=["m1", "m2"])
    single = count_ledger(cand, units, by="model", models=["m1", "m2"]).table
    mine = single[single["answer_id"].isin(["x", "y"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(_plain(got), _plain(mine))
    x = got[(got["model"] == "m1") & (got["answer_id"] == "x")].iloc[0]
    assert (x["raw"], x["unique"], x["supported_unique"], x["duplicates"]) == (3, 2, 1, 1)


def test_an_empty_partition_gives_no_rows_with_the_ledgers_columns():
    cand, units = _tables()
    empty = _frame(cand, 1).compute().iloc[0:0]
    got = LD.count_partition(empty, units, by="model", models=["m1", "m2"])
    assert len(got) == 0
    assert list(got.columns) == list(count_ledger(cand, units, by="model").table.columns)


@pytest.mark.parametrize("npartitions", [1, 2, 4])
def test_partition_wise_counts_equal_the_single_machine_counts(npartitions):
    cand, units = _tables()
    single = count_ledger(cand, units, by="model")
    got = LD.score_ledger_dask(_frame(cand, npartitions), units, by="model")
    pd.testing.assert_frame_equal(_plain(got.counts.table), _plain(single.table))
    assert got.to_dict()["by_group"] == summarise(single, by="model").to_dict()["by_group"]
    assert got.to_dict()["corpus"] == summarise(single, by="model").to_dict()["corpus"]
    t = got.counts.table
    answers = set(zip(t["model"].astype(str), t["answer_id"], strict=True))
    assert ("m1", "w") in answers and ("m2", "w") in answers  # empty selections, added
    assert got.counts.empty_answers == 2 and got.by == "model"
    assert list(got.counts.table.index) == list(range(len(single.table)))
    assert (got.counts.skipped_rows, got.counts.issues) == (0, ())
    assert got.to_dict()["skipped_rows"] == 0


@pytest.mark.parametrize("npartitions", [1, 3, 5])
def test_a_partition_without_one_decomposers_rows_still_scores_its_answers_for_it(npartitions):
    """m2 has rows for answer x only: every other answer is an empty selection for m2, in
    whichever partition it sits (the decomposers are named before the partitions are counted)."""
    rows = [*ROWS, *(_row("m1", f"v{k}", "C1", f"v{k}", [f"Q{k}"]) for k in range(6))]
    rows = [r for r in rows if not (r["model"] == "m2" and r["answer_id"] != "x")]
    units = [*UNITS, *((f"v{k}", f"Q{k}") for k in range(6))]
    cand, unit_table = _tables(rows, units)
    single = count_ledger(cand, unit_table, by="model")
    got = LD.score_ledger_dask(_frame(cand, npartitions), unit_table, by="model")
    pd.testing.assert_frame_equal(_plain(got.counts.table), _plain(single.table))
    m2 = got.counts.table[got.counts.table["model"] == "m2"]
    assert sorted(m2["answer_id"]) == sorted({a for a, _ in units})


def test_a_partition_counted_alone_knows_every_decomposer():
    cand, units = _tables([r for r in ROWS if r["model"] == "m1"])
    part = _frame(cand, 1).compute()
    got = LD.count_partition(part, units, by="model", models=["m1", "m2"])
    assert sorted(got.loc[got["model"] == "m2", "answer_id"]) == ["x", "y"]
    assert got.loc[got["model"] == "m2", "raw"].tolist() == [0, 0]


def test_a_bad_row_in_a_partition_stops_the_run_naming_it():
    rows = [*ROWS[:3], _row("m1", "y", "C9", "q", [], status="MAYBE"), *ROWS[3:]]
    cand, units = _tables(rows)
    with pytest.raises(LedgerError, match="status") as e:
        LD.score_ledger_dask(_frame(cand, 2), units, by="model")
    assert "row 4" in str(e.value)


def test_without_groups_and_with_every_answer_scored():
    rows = [r for r in ROWS if r["model"] == "m1"]
    cand, units = _tables(rows, UNITS[:3])
    got = LD.score_ledger_dask(_frame(cand.drop_columns(["model"]), 2), units)
    single = count_ledger(cand.drop_columns(["model"]), units)
    pd.testing.assert_frame_equal(_plain(got.counts.table), _plain(single.table))
    assert got.groups == {} and got.counts.empty_answers == 0


def test_a_frame_without_row_numbers_is_refused_saying_how_to_add_them():
    cand, units = _tables()
    with pytest.raises(LedgerError) as e:
        LD.score_ledger_dask(_frame(cand, 2, numbered=False), units, by="model")
    assert str(e.value) == (
        "_row: add row numbers in file order first: ddf = with_row_numbers(ddf)"
    )
    assert e.value.field == ROW


@pytest.mark.parametrize(("preserves", "at"), [("['U1']", 2), ("[]", 8), ("['U1']", 19)])
def test_a_list_turned_into_text_in_the_first_20_rows_is_refused(preserves, at):
    """Row ``at`` (0-based) of 24, the frame split in parts of 3 rows: the check reads the
    first 20 rows across the parts, not the first part's or the first five."""
    rows = [_row("m1", f"a{k:02d}", "C1", f"f{k}", []) for k in range(24)]
    cand, units = _tables(rows, [(f"a{k:02d}", "U1") for k in range(24)])
    df = _frame(cand, 1).compute()
    df.loc[at, "preserves"] = preserves
    ddf = dd.from_pandas(df, npartitions=8, sort=False)
    with pytest.raises(LedgerError) as e:
        LD.score_ledger_dask(ddf, units, by="model")
    assert str(e.value) == (
        "preserves: looks like a list turned into text; in a Dask frame keep unit ids ';'-separated"
    )
    assert e.value.field == "preserves"


def test_a_frame_without_rows_scores_nothing():
    """No candidate row names no decomposer: there is nobody to score the units' answers for."""
    cand, units = _tables([], UNITS)
    got = LD.score_ledger_dask(_frame(cand, 1), units, by="model")
    assert len(got.counts.table) == 0 and got.groups == {}
    assert got.corpus.answers == 0 and got.corpus.micro["coverage"].denominator == 0
