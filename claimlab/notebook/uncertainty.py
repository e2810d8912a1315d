"""Tables and figures of intervals and comparisons (notebooks 04 and 08): display only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib.axes import Axes

from claimlab.notebook.display import pandas
from claimlab.notebook.style import plot_grouped_values


def _interval(iv: Any) -> str:
    return iv.display if iv is not None else "N/A (no denominator: no interval)"


def comparisons_table(comparisons: Sequence[Any]) -> Any:
    """One row per comparison: difference in points, its interval, p, Holm p and the counts.

    The counts are the pairing's: answers paired, those one side lacks, and those left out
    because the figure is N/A (0/0) on one side.
    """
    pd = pandas()
    rows = []
    for c in comparisons:
        d = c.difference
        rows.append(
            {
                "comparison": f"{c.a} − {c.b}",
                "figure": f"{c.metric} ({c.aggregate})",
                "difference": "N/A" if d.value is None else f"{100 * d.value:+.1f} points",
                f"{100 * c.level:g}% paired interval": "-"
                if d.low is None or d.high is None
                else f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}]",
                "p": "-" if c.p_value is None else f"{c.p_value:.3g}",
                "Holm p": "-" if c.p_adjusted is None else f"{c.p_adjusted:.3g}",
                "shared": c.shared,
                "only A": c.only_a,
                "only B": c.only_b,
                "N/A on one side": getattr(c, "undefined", 0),
            }
        )
    return pd.DataFrame(rows).set_index("comparison")


def intervals_table(
    intervals: Mapping[str, Mapping[Any, Any]], *, values: Mapping[str, Mapping[Any, str]]
) -> Any:
    """One row per (group, figure): the figure as displayed and its interval."""
    pd = pandas()
    rows = []
    for group, ivs in intervals.items():
        for key, iv in ivs.items():
            name = " ".join(key) if isinstance(key, tuple) else str(key)
            rows.append(
                {
                    "group": group,
                    "figure": name,
                    "value": values.get(group, {}).get(key, "-"),
                    "interval": _interval(iv),
                }
            )
    return pd.DataFrame(rows).set_index("group")


def _width(iv: Any) -> str:
    return "-" if not iv else f"{100 * (iv.high - iv.low):.1f} points"


def uncertainty_kinds_table(study: Any) -> Any:
    """Per subject: micro precision with a per-claim interval and with a clustered one."""
    pd = pandas()
    rows = []
    for name, per_claim in study.per_claim.items():
        clustered = study.clustered[name]["micro_precision"]
        rows.append(
            {
                "subject": name,
                "per-claim interval (Wilson, facts independent)": _interval(per_claim),
                "per-claim width": _width(per_claim),
                "clustered interval (prompts resampled)": _interval(clustered),
                "clustered width": _width(clustered),
            }
        )
    return pd.DataFrame(rows).set_index("subject")


def plot_figure_with_intervals(
    values: Mapping[str, tuple[float | None, str]],
    intervals: Mapping[str, Any],
    *,
    series: str,
    title: str | None = None,
) -> Axes:
    """One bar per group with its interval as an error bar; counts on every bar, N/A hatched."""
    rows = {name: {series: values[name]} for name in values}
    errors = {
        name: {series: (iv.low, iv.high)}
        for name, iv in intervals.items()
        if iv and values.get(name, (None, ""))[0] is not None
    }
    return plot_grouped_values(rows, title=title, errors=errors)
