"""Unit tests of ``metrics/ledger_dask.py``, in process (Dask's own scheduler, no cluster).

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


def test_without_groups_and_with_every_answer_scored():
    rows = [r for r in ROWS if r["model"] == "m1"]
    cand, units = _tables(rows, UNITS[:3])
    got = LD.score_ledger_dask(_frame(cand.drop_columns(["model"]), 2), units)
    single = count_ledger(cand.drop_columns(["model"]), units)
    pd.testing.assert_frame_equal(_plain(got.counts.table), _plain(single.table))
    assert got.groups == {} and got.counts.empty_answers == 0


def test_a_frame_without_row_numbers_is_refused_saying_how_to_add_them():
    cand, units = _tables()
    with pytest.raises(LedgerError, match=r"with_row_numbers\(ddf\)") as e:
        LD.score_ledger_dask(_frame(cand, 2, numbered=False), units, by="model")
    assert e.value.field == ROW


@pytest.mark.parametrize("preserves", ["['U1']", "[]"])
def test_a_list_turned_into_text_is_refused(preserves):
    cand, units = _tables()
    df = _frame(cand, 1).compute()
    df.loc[2, "preserves"] = preserves
    with pytest.raises(LedgerError, match="looks like a list turned into text") as e:
        LD.score_ledger_dask(dd.from_pandas(df, npartitions=2, sort=False), units, by="model")
    assert e.value.field == "preserves"
