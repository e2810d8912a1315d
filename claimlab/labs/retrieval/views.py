"""Tables and figures of the retrieval depth study (notebook 10): display only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from matplotlib.axes import Axes

from claimlab.notebook.display import pandas, rows_table
from claimlab.notebook.style import PALETTE, label, plot_grouped_ratios, styled

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.labs.retrieval.selective import SufficientContextStudy
    from claimlab.labs.retrieval.study import DepthRow, SelectiveDepth
    from claimlab.metrics.multihop_scores import OfficialScores

QUERY_LABELS = {
    "question": "the question",
    "subquestions": "its sub-questions",
    "oracle": "oracle (every premise)",
}


def depth_table(rows: Sequence[DepthRow]) -> pd.DataFrame:
    """One row per depth: the sufficient share with counts for each query kind."""
    pd = pandas()
    table: dict[str, dict[str, str]] = {}
    for r in rows:
        key = "oracle" if r.query == "oracle" else f"top {r.k}"
        table.setdefault(key, {})[QUERY_LABELS[r.query]] = r.sufficient.display
    frame = pd.DataFrame(table).T.fillna("-")
    frame.index.name = "context"
    return frame


def _per_depth(
    rows: Sequence[DepthRow], query: str, cells: Callable[[DepthRow], dict[str, str]]
) -> pd.DataFrame:
    """One row per depth of the ``query`` kind: its context and the ``cells`` of that row."""
    out = [{"context": f"top {r.k}", **cells(r)} for r in rows if r.query == query]
    return pandas().DataFrame(out).set_index("context")


def hop_table(rows: Sequence[DepthRow], *, query: str = "question") -> pd.DataFrame:
    """Per depth: how often each hop's premise is missing (of the questions with that hop)."""
    return _per_depth(
        rows,
        query,
        lambda r: {
            f"hop {h} missing": r.missing(h).display for h in range(1, len(r.missing_by_hop) + 1)
        },
    )


def kind_table(rows: Sequence[DepthRow], *, query: str = "question") -> pd.DataFrame:
    """Per depth and question kind (bridge, comparison, 2hop, ...): the sufficient share."""
    return _per_depth(
        rows, query, lambda r: {kind: ratio.display for kind, ratio in r.by_kind.items()}
    )


def plot_depth(rows: Sequence[DepthRow], *, title: str | None = None) -> Axes:
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


def cases_table(summaries: dict[str, Any]) -> pd.DataFrame:
    """Cases per kind (rows) and source (columns), the last row how many behaved as stated.

    Kinds are rows, so a long kind name is never split across a printed header.
    """
    pd = pandas()
    columns: dict[str, dict[str, Any]] = {}
    kinds: list[str] = []
    for source, (cases, failures) in summaries.items():
        counts: dict[str, Any] = {}
        for c in cases["cases"]:
            counts[c["kind"]] = counts.get(c["kind"], 0) + 1
            if c["kind"] not in kinds:
                kinds.append(c["kind"])
        total = len(cases["cases"])
        counts["behaved as stated"] = f"{total - len(failures)} of {total}"
        columns[source] = counts
    index = [*kinds, "behaved as stated"]
    table = {s: [c.get(k, 0) for k in index] for s, c in columns.items()}
    return pd.DataFrame(table, index=pd.Index(index, name="kind of case"))


def selective_table(rows: Sequence[SelectiveDepth]) -> pd.DataFrame:
    """Per depth: the reader alone and the reader answering only with a complete witness."""
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
    return rows_table(
        out,
        (
            "context",
            "reader: accuracy on answered",
            "reader: answered",
            "reader: answered with gaps",
            "when SUFFICIENT: accuracy",
            "when SUFFICIENT: answered",
            "abstained with complete evidence",
        ),
        index="context",
    )


SCORER_LABELS = {
    "confidence": "confidence alone",
    "sufficient-then-confidence": "abstain unless SUFFICIENT",
    "logistic": "logistic (sufficiency + confidence)",
}
# a wide line under a thin one: where two ways of abstaining agree, both stay visible
LINES: dict[str, dict[str, Any]] = {
    "confidence": {"linewidth": 1.4, "zorder": 3},
    "sufficient-then-confidence": {"linewidth": 3.2, "zorder": 2, "alpha": 0.8},
    "logistic": {"linewidth": 1.2, "zorder": 4},
}
SPLIT_LABELS = {"calibration": "calibration", "held-out": "held out", "shifted": "other data set"}


def sufficient_context_table(study: SufficientContextStudy) -> pd.DataFrame:
    """Per way of abstaining and split: the threshold, answered/total, accuracy and the drop."""
    pd = pandas()
    out = []
    for m in study.methods:
        for split, row in m.at_threshold.items():
            drop = m.drop(split) if split != "calibration" else None
            out.append(
                {
                    "abstain by": SCORER_LABELS[m.scorer],
                    "split": SPLIT_LABELS[split] + (
                        f" ({study.shifted_to})" if split == "shifted" else ""
                    ),
                    "threshold": "none reaches the target" if m.threshold is None
                    else f"{m.threshold:.3f}",
                    "answered": row.coverage.display,
                    "accuracy on answered": row.accuracy.display,
                    "drop from calibration": "-" if split == "calibration"
                    else ("N/A" if drop is None else f"{drop:+.1f} points"),
                }
            )  # fmt: skip
    return pd.DataFrame(out).set_index(["abstain by", "split"])


@styled
def plot_coverage_accuracy(study: SufficientContextStudy, *, title: str | None = None) -> Axes:
    """One panel per split: accuracy on answered against coverage for each way of abstaining.

    The point each threshold chosen on calibration lands on is marked with its counts; the
    target accuracy is a dashed line; a split where nothing is answered says N/A.
    """
    import matplotlib.pyplot as plt

    splits = list(study.sizes)
    fig, axes = plt.subplots(1, len(splits), figsize=(7.2, 4.2), sharey=True, squeeze=False)
    for ax, split in zip(axes[0], splits, strict=True):
        _coverage_panel(ax, study, split)
    axes[0][0].set_ylabel("accuracy on answered")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(
        title
        or f"Thresholds chosen on {label(study.calibrated_on)} for "
        f"{100 * study.target:.0f}% accuracy (dashed)",
        fontsize=10,
    )
    fig.subplots_adjust(bottom=0.34, top=0.8, wspace=0.12)
    fig.set_layout_engine("none")
    first: Axes = axes[0][0]
    return first


def _coverage_panel(ax: Axes, study: Any, split: str) -> None:
    """One split's curves, the chosen points and, under the axis, their counts in colour."""
    for n, (colour, m) in enumerate(zip(PALETTE, study.methods, strict=False)):
        rows = m.curves[split]
        ax.plot(
            [r.coverage.value for r in rows],
            [r.accuracy.value for r in rows],
            color=colour, label=SCORER_LABELS[m.scorer], **LINES.get(m.scorer, {}),
        )  # fmt: skip
        chosen = m.at_threshold[split]
        if chosen.accuracy.value is not None:
            ax.plot([chosen.coverage.value], [chosen.accuracy.value], "o", color=colour)
        if chosen.accuracy.value is None:
            note = f"● none answered of {chosen.coverage.denominator}: N/A"
        else:
            note = f"● {chosen.accuracy.counts} right of {chosen.coverage.counts}"
        ax.text(0.0, -0.3 - 0.1 * n, note, transform=ax.transAxes, fontsize=8, color=colour)
    ax.axhline(study.target, color="#777777", linestyle="--", linewidth=0.8)
    name = study.shifted_to if split == "shifted" else study.calibrated_on
    ax.set_title(f"{SPLIT_LABELS[split]}\n{label(name)} (n={study.sizes[split]})", fontsize=9)
    ax.set_xlim(0, 1.02)
    ax.set_xticks([0.0, 0.5, 1.0], ["0", "0.5", "1"])
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("answered / total", fontsize=8)


def official_table(scores: Mapping[str, OfficialScores]) -> pd.DataFrame:
    """The lexical reader's official figures per data set, each with its count."""
    pd = pandas()
    rows: dict[str, dict[str, str]] = {}
    for data_set, s in scores.items():
        if isinstance(s, str):
            continue
        for name, mean in s.figures.items():
            rows.setdefault(name, {})[data_set] = mean.display
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("figure")
