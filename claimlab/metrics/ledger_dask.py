"""The ledger scored partition-wise on a Dask cluster, with the single-machine definitions.

Answers are shuffled so each sits in one partition; every partition is counted by
:func:`claimlab.metrics.ledger.count_ledger`, and corpus figures come from the summed counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from claimlab.core.errors import LedgerError
from claimlab.io.ledger import CANDIDATE_SCHEMA, ROW
from claimlab.metrics.ledger import LedgerCounts, LedgerResult, count_ledger, summarise


def empty_candidates(by: str | None = None) -> pa.Table:
    """A zero-row candidates table with the ledger's column types."""
    fields = [*((f.name, f.type) for f in CANDIDATE_SCHEMA), (ROW, pa.int64())]
    if by:
        fields.append((by, pa.string()))
    return pa.table({n: pa.array([], type=t) for n, t in fields})


def count_partition(
    part: Any, units_table: pa.Table, *, by: str | None, models: Sequence[str] | None
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


def with_row_numbers(ddf: Any) -> Any:
    """Add ``_row``, 1-based row numbers in file order across all partitions.

    Messages name rows by it, and it decides which of two duplicates comes first.
    """
    ddf = ddf.assign(**{ROW: 1})
    return ddf.assign(**{ROW: ddf[ROW].cumsum()})


def score_ledger_dask(ddf: Any, units_table: pa.Table, *, by: str | None = None) -> LedgerResult:
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
    sample = ddf["preserves"].head(20, npartitions=-1)  # the first 20 rows, however split
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
