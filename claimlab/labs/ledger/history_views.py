"""Tables and the trend figure of the release-history lab (notebook 12), with counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matplotlib.axes import Axes

from claimlab.notebook.display import pandas
from claimlab.notebook.style import PRINT_WIDTH_IN, label, styled


def _figure(run: Any, metric: str) -> Any:
    return next((f for f in run.figures if f.name == metric), None)


def runs_table(runs: Sequence[Any], metric: str) -> Any:
    """One row per run: when, which version and command, its inputs' hashes, the figure."""
    pd = pandas()
    rows = []
    for r in runs:
        f = _figure(r, metric)
        counts = "" if f is None or f.denominator is None else f" ({f.numerator}/{f.denominator})"
        rows.append(
            {
                "run": r.id,
                "time": r.time[:19],
                "claimlab": r.version,
                "command": r.command,
                "inputs (sha256)": ", ".join(h[:12] for _, h in r.inputs),
                metric: "-" if f is None or f.value is None else f"{100 * f.value:.1f}%{counts}",
            }
        )
    return pd.DataFrame(rows).set_index("run")


@styled
def plot_trend(runs: Sequence[Any], metric: str) -> Axes:
    """The figure over runs, each point labelled with its counts."""
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(PRINT_WIDTH_IN, 2.8))
    points = [
        (r.id, f) for r in runs if (f := _figure(r, metric)) is not None and f.value is not None
    ]
    ax.plot([x for x, _ in points], [100 * f.value for _, f in points], marker="o")
    for x, f in points:
        if f.low is not None and f.high is not None:
            ax.vlines(x, 100 * f.low, 100 * f.high, color="0.5")
        text = f"{100 * f.value:.1f}%" + (
            "" if f.denominator is None else f" ({f.numerator}/{f.denominator})"
        )
        ax.annotate(
            text,
            (x, 100 * f.value),
            xytext=(0, 6),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
    ax.set_xticks([x for x, _ in points])
    ax.set_xlabel("run")
    ax.set_ylabel("%")
    ax.set_title(label(f"{metric} over {len(points)} runs (counts at each point)", 90))
    ax.margins(y=0.3)
    return ax


def gate_table(gate: Any) -> Any:
    """The paired gate between two runs: before, now, the drop with its bounds, the verdict."""
    pd = pandas()
    rows = [
        {
            "figure": f"{r.metric} ({r.aggregate})",
            "before": "N/A" if r.baseline is None else f"{100 * r.baseline:.1f}%",
            "now": "N/A" if r.now is None else f"{100 * r.now:.1f}%",
            "drop (points)": "N/A" if r.difference is None else f"{100 * r.difference:+.1f}",
            "interval": "-" if r.low is None else f"[{100 * r.low:+.1f}, {100 * r.high:+.1f}]",
            "margin": f"{100 * r.margin:.1f}",
            "verdict": r.verdict if r.decided else f"{r.verdict} (not decided: {r.reason})",
        }
        for r in gate.rows
    ]
    return pd.DataFrame(rows).set_index("figure")
