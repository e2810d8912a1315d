"""Plots that show counts and N/A: every bar is labelled n/d; an undefined ratio is a hatched bar.

Imported lazily (never by the metric modules), so ``import claimlab`` stays light.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from claimlab.ratio import Ratio

NA_STYLE = {"facecolor": "white", "edgecolor": "#777777", "hatch": "//", "linewidth": 1.0}
COLORS = {
    "preservation": "#4C72B0",
    "coverage": "#55A868",
    "confirmed_support": "#C44E52",
    "raw_support": "#DD8452",
}
DEFAULT_COLOR = "#4C72B0"


def use_house_style() -> None:
    """Deterministic, readable defaults (fixed font family, fixed hash salt, no timestamps)."""
    plt.rcParams.update(
        {
            "font.family": "DejaVu Sans",
            "svg.hashsalt": "claimlab",
            "figure.dpi": 100,
            "savefig.dpi": 100,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "figure.autolayout": True,
        }
    )


def _bar(ax: Axes, x: float, r: Ratio, *, width: float, color: str, label_fmt: str = "pct") -> None:
    if r.value is None:
        ax.bar(x, 1.0, width=width, **NA_STYLE)
        ax.text(x, 0.5, "N/A\n(0/0)", ha="center", va="center", fontsize=9, color="#333333")
        return
    ax.bar(x, r.value, width=width, color=color)
    text = f"{100 * r.value:.0f}%\n{r.counts}" if label_fmt == "pct" else r.counts
    inside = r.value > 0.25
    ax.text(
        x,
        r.value / 2 if inside else r.value + 0.02,
        text,
        ha="center",
        va="center" if inside else "bottom",
        fontsize=9,
        color="white" if inside else "#222222",
    )


def plot_ratios(
    ratios: Mapping[str, Ratio],
    *,
    labels: Mapping[str, str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    note: str | None = None,
) -> Axes:
    """Bar chart of named ratios, each bar labelled with its percentage and n/d.

    Args:
        ratios: Name -> Ratio, in display order.
        labels: Optional display names.
        ax: Axes to draw on; a new figure when omitted.
        title: Axes title.
        note: Text shown under the bars (e.g. status counts beside support).

    Returns:
        The Axes drawn on.
    """
    use_house_style()
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.4))
    names = list(ratios)
    for i, name in enumerate(names):
        _bar(ax, i, ratios[name], width=0.65, color=COLORS.get(name, DEFAULT_COLOR))
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([(labels or {}).get(n, n) for n in names], fontsize=9)
    ax.set_ylim(0, 1.12)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_yticklabels(["0%", "25%", "50%", "75%", "100%"])
    if any(r.value is None for r in ratios.values()):
        ax.legend(
            handles=[Patch(**NA_STYLE, label="N/A: zero denominator")],
            loc="upper right",
            fontsize=8,
        )
    if title:
        ax.set_title(title, fontsize=11)
    if note:
        ax.set_xlabel(note, fontsize=9)
    return ax


def plot_grouped_ratios(
    rows: Mapping[str, Mapping[str, Ratio]],
    *,
    series_labels: Mapping[str, str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    row_notes: Mapping[str, str] | None = None,
) -> Axes:
    """Grouped bars: one group per row (e.g. a mode), one bar per series (e.g. a metric).

    Every bar carries its n/d; undefined values are hatched bars labelled N/A.
    """
    use_house_style()
    row_names = list(rows)
    series: Sequence[str] = list(next(iter(rows.values()))) if rows else []
    if ax is None:
        _, ax = plt.subplots(figsize=(max(7, 1.6 * len(row_names)), 4.2))
    k = max(len(series), 1)
    width = 0.8 / k
    for i, row in enumerate(row_names):
        for j, s in enumerate(series):
            x = i - 0.4 + width * (j + 0.5)
            r = rows[row][s]
            if r.value is None:
                ax.bar(x, 1.0, width=width, **NA_STYLE)
                ax.text(x, 0.5, "N/A (0/0)", rotation=90, ha="center", va="center", fontsize=7)
            else:
                ax.bar(x, r.value, width=width, color=COLORS.get(s, DEFAULT_COLOR))
                ax.text(
                    x, r.value + 0.015, r.counts, rotation=90, ha="center", va="bottom", fontsize=7
                )
    ax.set_xticks(range(len(row_names)))
    ticks = [f"{r}\n{(row_notes or {}).get(r, '')}".strip() for r in row_names]
    ax.set_xticklabels(ticks, fontsize=8)
    ax.set_ylim(0, 1.25)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_yticklabels(["0%", "25%", "50%", "75%", "100%"])
    handles = [
        Patch(color=COLORS.get(s, DEFAULT_COLOR), label=(series_labels or {}).get(s, s))
        for s in series
    ]
    handles.append(Patch(**NA_STYLE, label="N/A (0/0)"))
    ax.legend(
        handles=handles,
        loc="upper center",
        ncol=len(handles),
        fontsize=8,
        frameon=False,
        bbox_to_anchor=(0.5, 1.0),
    )
    if title:
        ax.set_title(title, fontsize=11, pad=18)
    return ax


def plot_decomposition(result, *, title: str | None = None, ax: Axes | None = None) -> Axes:
    """The four Toy metrics of one selection, with CONTRADICTED / NOT_IN_REFERENCE beside support."""
    from claimlab.decomposition import METRIC_LABELS

    sc = result.status_counts
    note = (
        f"status over the unique selection: SUPPORTED {sc['SUPPORTED']} · "
        f"CONTRADICTED {sc['CONTRADICTED']} · NOT_IN_REFERENCE {sc['NOT_IN_REFERENCE']}"
    )
    labels = {k: v.replace("Toy ", "Toy\n") for k, v in METRIC_LABELS.items()}
    return plot_ratios(result.ratios(), labels=labels, ax=ax, title=title, note=note)


def plot_mode_comparison(results: Mapping, *, title: str | None = None) -> Axes:
    """All selections side by side: four metrics per mode, n/d on every bar."""
    from claimlab.decomposition import METRIC_LABELS

    rows = {name: r.ratios() for name, r in results.items()}
    notes = {
        name: f"C{r.status_counts['CONTRADICTED']} N{r.status_counts['NOT_IN_REFERENCE']}"
        for name, r in results.items()
    }
    ax = plot_grouped_ratios(rows, series_labels=METRIC_LABELS, title=title, row_notes=notes)
    ax.set_xlabel(
        "under each mode: C = CONTRADICTED count, N = NOT_IN_REFERENCE count (unique selection)",
        fontsize=8,
    )
    return ax
