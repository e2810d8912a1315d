"""Tables written to CSV, JSONL or Parquet, through the one atomic write."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claimlab.io.files import replacing
from claimlab.io.ledger import table_kind
from claimlab.metrics.ledger import LedgerResult, per_answer_ratios


def write_answers(
    result: LedgerResult,
    path: str | Path,
    *,
    extra: Mapping[str, Mapping[str, Any]] | None = None,
) -> Path:
    """Write the per-answer rows (counts, values, displays) to CSV, JSONL or Parquet atomically.

    The group column is named after the ``--by`` column it came from, and left out without one.
    ``extra`` adds columns: name -> {answer id: value}.
    """
    out = Path(path)
    kind = table_kind(out)
    table = per_answer_ratios(result.counts.table)
    for name, values in (extra or {}).items():
        table[name] = table["answer_id"].astype(str).map(dict(values))
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
