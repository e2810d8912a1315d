"""The per-answer table written to CSV, JSONL or Parquet.

The gate's reports live in :mod:`claimlab.notebook.gate`, shared with every gated command.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claimlab.io.ledger import table_kind
from claimlab.metrics.ledger import LedgerResult, per_answer_ratios
from claimlab.notebook.gate import gate_junit, gate_line, gate_summary, write_table

__all__ = ["gate_junit", "gate_line", "gate_summary", "write_answers"]


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
    table_kind(Path(path))  # an unknown suffix is refused before anything is computed
    table = per_answer_ratios(result.counts.table)
    for name, values in (extra or {}).items():
        table[name] = table["answer_id"].astype(str).map(dict(values))
    if result.by is None:
        table = table.drop(columns="model")
    elif result.by != "model":
        table = table.rename(columns={"model": result.by})
    return write_table(table, path)
