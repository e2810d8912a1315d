"""Tables written to CSV, JSONL or Parquet, through the one atomic write."""

from __future__ import annotations

from pathlib import Path

from claimlab.io.ledger import _kind
from claimlab.metrics.ledger import LedgerResult, per_answer_ratios
from claimlab.tooling.files import replacing


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
