"""Tables and figures of the retrieval depth study (notebook 10): display only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from matplotlib.axes import Axes

from claimlab.notebook.display import pandas
from claimlab.notebook.style import plot_grouped_ratios

QUERY_LABELS = {
    "question": "the question",
    "subquestions": "its sub-questions",
    "oracle": "oracle (every premise)",
}


def depth_table(rows: Sequence[Any]) -> Any:
    """One row per depth: the sufficient share with counts for each query kind."""
    pd = pandas()
    table: dict[str, dict[str, str]] = {}
    for r in rows:
        key = "oracle" if r.query == "oracle" else f"top {r.k}"
        table.setdefault(key, {})[QUERY_LABELS[r.query]] = r.sufficient.display
    frame = pd.DataFrame(table).T.fillna("-")
    frame.index.name = "context"
    return frame


def _per_depth(rows: Sequence[Any], query: str, cells: Callable[[Any], dict[str, str]]) -> Any:
    """One row per depth of the ``query`` kind: its context and the ``cells`` of that row."""
    out = [{"context": f"top {r.k}", **cells(r)} for r in rows if r.query == query]
    return pandas().DataFrame(out).set_index("context")


def hop_table(rows: Sequence[Any], *, query: str = "question") -> Any:
    """Per depth: how often each hop's premise is missing (of the questions with that hop)."""
    return _per_depth(
        rows,
        query,
        lambda r: {
            f"hop {h} missing": r.missing(h).display for h in range(1, len(r.missing_by_hop) + 1)
        },
    )


def kind_table(rows: Sequence[Any], *, query: str = "question") -> Any:
    """Per depth and question kind (bridge, comparison, 2hop, ...): the sufficient share."""
    return _per_depth(
        rows, query, lambda r: {kind: ratio.display for kind, ratio in r.by_kind.items()}
    )


def plot_depth(rows: Sequence[Any], *, title: str | None = None) -> Axes:
    """Sufficient share per depth, one bar per query kind, counts on every bar."""
    grouped: dict[str, dict[str, Any]] = {}
    oracle = [r for r in rows if r.query == "oracle"]
    for r in rows:
        if r.query == "oracle":
            continue
        grouped.setdefault(f"top {r.k}", {})[r.query] = r.sufficient
    for name in grouped.values():
        if oracle:
            name["oracle"] = oracle[0].sufficient
    return plot_grouped_ratios(grouped, series_labels=QUERY_LABELS, title=title)


def cases_table(summaries: dict[str, Any]) -> Any:
    """Per source: how many premise-cut cases of each kind, and how many behaved as stated."""
    pd = pandas()
    rows = []
    for source, (cases, failures) in summaries.items():
        counts: dict[str, int] = {}
        for c in cases["cases"]:
            counts[c["kind"]] = counts.get(c["kind"], 0) + 1
        rows.append(
            {
                "source": source,
                **counts,
                "behaved as stated": f"{len(cases['cases']) - len(failures)} of {len(cases['cases'])}",
            }
        )
    return pd.DataFrame(rows).set_index("source").fillna(0)


def selective_table(rows: Sequence[Any]) -> Any:
    """Per depth: the reader alone and the reader answering only with a complete witness."""
    pd = pandas()
    out = []
    for s in rows:
        out.append(
            {
                "context": f"top {s.k}",
                "reader: accuracy on answered": s.reader.accuracy.display,
                "reader: answered": s.reader.coverage.display,
                "reader: answered with gaps": len(s.reader.answered_with_gaps),
                "when SUFFICIENT: accuracy": s.gated.accuracy.display,
                "when SUFFICIENT: answered": s.gated.coverage.display,
                "abstained with complete evidence": len(s.gated.abstained_with_complete_evidence),
            }
        )
    return pd.DataFrame(out).set_index("context")
