"""Tables and the trend figure of the release-history lab (notebook 12), with counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from matplotlib.axes import Axes

from claimlab.core.ratio import points
from claimlab.io.store import select_metric
from claimlab.notebook.display import pandas
from claimlab.notebook.style import PRINT_WIDTH_IN, label, styled

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.io.store import Run
    from claimlab.metrics.diff import RunDiff


def runs_table(runs: Sequence[Run], metric: str) -> pd.DataFrame:
    """One row per run: when, which version and command, its inputs' hashes, the figure.

    The figure is shown as it was printed: value, counts and interval.

    Raises:
        ClaimlabInputError: ``metric`` names no figure of the runs (the known names listed).
    """
    pd = pandas()
    chosen = select_metric(runs, metric)
    rows = []
    for r in chosen:
        row = {
            "run": r.id,
            "release": r.release,
            "time": r.time[:19],
            "claimlab": r.version,
            "command": r.command,
            "inputs (sha256)": ", ".join(h[:12] for _, h in r.inputs),
        }
        for f in r.figures:
            row[f.name] = f.display
        rows.append(row)
    return pd.DataFrame(rows).set_index("run").fillna("-")


@styled
def plot_trend(runs: Sequence[Run], metric: str) -> Axes:
    """The figure over runs: each point with its interval as an error bar and its counts.

    Every figure whose name is ``metric`` (or ends with it) is one line; the runs are integer
    ticks labelled ``#id`` and the release. Names are drawn as text, never as mathematics.

    Raises:
        ClaimlabInputError: ``metric`` names no figure of the runs (the known names listed).
    """
    import matplotlib.pyplot as plt

    chosen = [r for r in select_metric(runs, metric) if r.figures]
    _, ax = plt.subplots(figsize=(PRINT_WIDTH_IN, 2.8))
    names = sorted({f.name for r in chosen for f in r.figures})
    for name in names:
        points = [(r.id, f) for r in chosen for f in r.figures if f.name == name]
        _series(ax, name, [(x, f) for x, f in points if f.value is not None])
    ax.set_xticks([r.id for r in chosen], [label(f"#{r.id}\n{r.release}", 14) for r in chosen])
    ax.set_xlabel("run (release)")
    ax.set_ylabel("%")
    ax.set_title(
        label(f"{metric} over {len(chosen)} runs (counts at each point, bars: intervals)", 90)
    )
    if len(names) > 1:
        ax.legend(fontsize=7)
    ax.margins(y=0.3)
    return ax


def _series(ax: Axes, name: str, points: Sequence[tuple[int, Any]]) -> None:
    """One figure's line, its intervals as error bars and its counts beside each point."""
    xs = [x for x, _ in points]
    ys = [100 * f.value for _, f in points]
    low = [0.0 if f.low is None else max(0.0, 100 * (f.value - f.low)) for _, f in points]
    high = [0.0 if f.high is None else max(0.0, 100 * (f.high - f.value)) for _, f in points]
    ax.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=3, label=label(name, 60))
    for x, f in points:
        ax.annotate(
            f"{100 * f.value:.1f}% {f.counts}".strip(),
            (x, 100 * f.value),
            xytext=(0, 6),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )


def gate_table(gate: Any) -> pd.DataFrame:
    """The paired gate between two runs: before, now, the drop with its bounds, the verdict."""
    pd = pandas()
    rows = [
        {
            "figure": r.title,
            "before": "N/A" if r.baseline is None else f"{100 * r.baseline:.1f}%",
            "now": "N/A" if r.now is None else f"{100 * r.now:.1f}%",
            "drop (points)": points(r.difference),
            "interval": "-" if r.low is None else f"[{100 * r.low:+.1f}, {100 * r.high:+.1f}]",
            "margin": f"{100 * r.margin:.1f}",
            "verdict": r.verdict if r.decided else f"{r.verdict} (not decided: {r.reason})",
        }
        for r in gate.rows
    ]
    return pd.DataFrame(rows).set_index("figure")


def changes_table(diff: RunDiff, *, examples: int = 3) -> pd.DataFrame:
    """What changed between two runs: one row per group, largest effect first, with examples.

    The effect is the figure's drop (points) with only that group's changes applied; the texts
    are the store's, shown as data.
    """
    from claimlab.notebook.diff import example_line

    pd = pandas()
    rows = [
        {
            "what moved": g.name,
            "changes": g.count,
            "items": g.items,
            f"effect on {diff.figure} (points)": "N/A"
            if g.effect is None
            else f"{100 * g.effect:+.1f}",
            "for example": "; ".join(example_line(c) for c in g.changes[:examples])
            + (f" (and {g.count - examples} more)" if g.count > examples else ""),
        }
        for g in diff.groups
    ]
    columns = ["what moved", "changes", "items", f"effect on {diff.figure} (points)", "for example"]
    return pd.DataFrame(rows, columns=columns).set_index("what moved")


def changes_heading(diff: RunDiff) -> str:
    """The diff in one line of Markdown (escaped): changes, groups, the figure before and after."""
    from claimlab.core.text import md_text
    from claimlab.notebook.diff import heading

    return md_text(heading(diff))
