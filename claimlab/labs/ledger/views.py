"""Tables and figures of the ledger lab (notebook 08)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from claimlab.core.vocab import status_line
from claimlab.metrics.ledger import METRIC_NAMES, CorpusFigures
from claimlab.notebook.display import pandas
from claimlab.notebook.style import plot_grouped_values, styled

if TYPE_CHECKING:
    import pandas as pd


def ledger_table(groups: Mapping[str, CorpusFigures]) -> pd.DataFrame:
    """One column per group: answers, micro and macro displays of the four ratios, status counts.

    Groups are columns (there are few decomposers and many measures), so the table stays narrow
    enough for a printed page.
    """
    pd = pandas()

    columns = {}
    for name, g in groups.items():
        col = {"answers": str(g.answers), "without candidates": str(g.empty_answers)}
        for m in METRIC_NAMES:
            col[f"{m}: micro"] = g.micro[m].display
            col[f"{m}: macro"] = g.macro[m].display
        col["status (unique)"] = status_line(g.status_counts)
        col["duplicates"] = str(g.duplicates)
        col["missing units"] = str(g.missing_units)
        col["non-atomic (unique)"] = str(g.non_atomic)
        columns[str(name)] = col
    table = pd.DataFrame(columns)
    table.index.name = "measure"
    return table


@styled
def plot_ledger_models(
    groups: Mapping[str, CorpusFigures],
    *,
    kind: str = "micro",
    title: str | None = None,
    intervals: Mapping[str, Mapping[tuple[str, str], Any]] | None = None,
) -> Axes:
    """Per model: the four Toy ratios (micro, n/d on each bar; macro with its defined count).

    ``intervals`` (group -> (aggregate, metric) -> interval or None) adds error bars.
    """
    rows: dict[str, dict[str, tuple[float | None, str]]] = {}
    for name, g in groups.items():
        rows[name] = {}
        for m in METRIC_NAMES:
            if kind == "micro":
                r = g.micro[m]
                rows[name][m] = (r.value, r.counts if r.value is not None else f"N/A ({r.counts})")
            else:
                mm = g.macro[m]
                rows[name][m] = (mm.value, f"{mm.defined} def., {mm.undefined} N/A")
    errors = {
        name: {
            m: (iv.low, iv.high)
            for (aggregate, m), iv in (intervals or {}).get(name, {}).items()
            if aggregate == kind and iv
        }
        for name in groups
    }
    ax = plot_grouped_values(
        rows, title=title or f"Toy metrics per decomposer ({kind})", errors=errors
    )
    return ax


@styled
def plot_coverage_distribution(table: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Histogram of per-answer coverage per model; answers with no unit (N/A) counted in the legend."""
    import numpy as np

    if ax is None:
        _, ax = plt.subplots(figsize=(7.2, 3.6))
    bins = np.linspace(0, 1, 11)
    for name, sub in table.groupby("model", observed=True):
        d = sub["units"].to_numpy()
        vals = sub["covered"].to_numpy()[d > 0] / d[d > 0]
        na = int((d == 0).sum())
        ax.hist(
            vals,
            bins=list(bins),
            histtype="step",
            linewidth=1.8,
            label=f"{name} (n={len(vals)}, N/A {na})",
        )
    ax.set_xlabel("per-answer Toy Original Coverage")
    ax.set_ylabel("answers")
    ax.legend(fontsize=8, frameon=False)
    ax.set_title("Distribution of per-answer coverage", fontsize=10)
    return ax
