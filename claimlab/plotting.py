"""Plots that show counts and N/A: every bar is labelled n/d; an undefined ratio is a hatched bar.

Imported lazily (never by the metric modules), so ``import claimlab`` stays light.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from claimlab.ratio import Ratio
from claimlab.text import terminal

NA_STYLE = {"facecolor": "white", "edgecolor": "#777777", "hatch": "//", "linewidth": 1.0}
COLORS = {
    "coverage_answered": "#8172B3",
    "accuracy": "#C44E52",
    "preservation": "#4C72B0",
    "coverage": "#55A868",
    "confirmed_support": "#C44E52",
    "raw_support": "#DD8452",
}
DEFAULT_COLOR = "#4C72B0"
P = ParamSpec("P")
R = TypeVar("R")


HOUSE_STYLE = {
    "font.family": "DejaVu Sans",
    "svg.hashsalt": "claimlab",
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.autolayout": True,
    # a file's text is never mathematics: a "$" in an id or a model name is a dollar sign
    "text.parse_math": False,
    "text.usetex": False,
}


@contextmanager
def house_style() -> Iterator[None]:
    """Deterministic, readable defaults for the figures made inside (nothing changed outside)."""
    with plt.rc_context(HOUSE_STYLE):
        yield


def label(text: object, limit: int = 32) -> str:
    r"""A label from a file's text for a figure: control characters visible, each line shortened.

    Examples:
        >>> label("a\x1bb"), label("x" * 40, 10)
        ('a\\x1bb', 'xxxxxxxxx…')
    """
    lines = terminal(text).split("\n")
    return "\n".join(line if len(line) <= limit else line[: limit - 1] + "…" for line in lines)


def visible_text(ax: Axes) -> None:
    r"""Show every control character in the figure's texts as an escape (``\x1b``).

    Titles, tick labels, legends and bar labels may hold ids and names from a file; a
    control character has no glyph and an escape sequence must not reach a terminal-like
    renderer, so each is drawn as its escape instead. Line breaks stay.
    """
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter

    for axes in ax.figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            fmt = axis.get_major_formatter()
            if isinstance(fmt, FixedFormatter):  # tick labels are drawn from it later
                fmt.seq = [label(x) for x in fmt.seq]
    titles = {id(a.title) for a in ax.figure.axes}
    for t in ax.figure.findobj(Text):
        s = t.get_text()
        safe = label(s, 110 if id(t) in titles else 60)
        if safe != s:
            t.set_text(safe)


def styled(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a plotting function inside :func:`house_style`; its texts made visible."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with house_style():
            ax = fn(*args, **kwargs)
            if isinstance(ax, Axes):
                visible_text(ax)
            return ax

    return wrapper


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


@styled
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


@styled
def plot_grouped_values(
    rows: Mapping[str, Mapping[str, tuple[float | None, str]]],
    *,
    series_labels: Mapping[str, str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    row_notes: Mapping[str, str] | None = None,
    na_label: str = "N/A (0/0)",
) -> Axes:
    """Grouped bars of values in 0..1: one group per row, one bar per series.

    Each cell is ``(value, label)``; the label (counts) is written on the bar. A value of None
    is a hatched full-height bar labelled ``na_label``, never a zero-height bar.
    """
    row_names = list(rows)
    series: Sequence[str] = list(next(iter(rows.values()))) if rows else []
    if ax is None:
        _, ax = plt.subplots(figsize=(max(7, 1.6 * len(row_names)), 4.2))
    k = max(len(series), 1)
    width = 0.8 / k
    palette = ["#4C72B0", "#55A868", "#C44E52", "#DD8452", "#8172B3", "#937860"]
    colors = {s: COLORS.get(s, palette[j % len(palette)]) for j, s in enumerate(series)}
    above = []  # labels standing on top of their bars
    for i, row in enumerate(row_names):
        for j, s in enumerate(series):
            x = i - 0.4 + width * (j + 0.5)
            value, cell_label = rows[row][s]
            if value is None:
                ax.bar(x, 1.0, width=width, **NA_STYLE)
                ax.text(
                    x,
                    0.5,
                    label(cell_label or na_label),
                    rotation=90,
                    ha="center",
                    va="center",
                    fontsize=7,
                )
            else:
                ax.bar(x, value, width=width, color=colors[s])
                above.append(
                    ax.text(
                        x,
                        value + 0.015,
                        label(cell_label),
                        rotation=90,
                        ha="center",
                        va="bottom",
                        fontsize=7,
                    )
                )
    ax.set_xticks(range(len(row_names)))
    # texts are made visible before _make_room_above measures them (a glyph-less control
    # character would be measured, and warned about, first)
    ticks = [label(f"{r}\n{(row_notes or {}).get(r, '')}".strip()) for r in row_names]
    ax.set_xticklabels(ticks, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_yticklabels(["0%", "25%", "50%", "75%", "100%"])
    handles = [Patch(color=colors[s], label=label((series_labels or {}).get(s, s))) for s in series]
    handles.append(Patch(**NA_STYLE, label=na_label))
    ax.legend(  # above the axes, so no bar or label can run into it
        handles=handles,
        loc="lower center",
        ncol=len(handles),
        fontsize=8,
        frameon=False,
        bbox_to_anchor=(0.5, 1.0),
    )
    _make_room_above(ax, above)
    if title:
        ax.set_title(title, fontsize=11, pad=24)
    return ax


def _make_room_above(ax: Axes, labels: Sequence, *, margin: float = 0.02) -> None:
    """Raise the top of the y axis until every label standing on a bar ends inside the axes.

    A label's height is fixed in points while its foot sits at a data value, so one rendering
    gives each label's share of the axes height, and the top follows from it.
    """
    if not labels:
        return
    renderer = ax.figure.canvas.get_renderer()
    axes_height = ax.get_window_extent(renderer).height
    bottom, top = ax.get_ylim()
    needed = top
    for text in labels:
        share = text.get_window_extent(renderer).height / axes_height
        foot = text.get_position()[1]
        if share < 1 - margin:
            needed = max(needed, bottom + (foot - bottom) / (1 - margin - share))
    ax.set_ylim(bottom, needed)


@styled
def plot_grouped_ratios(
    rows: Mapping[str, Mapping[str, Ratio]],
    *,
    series_labels: Mapping[str, str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    row_notes: Mapping[str, str] | None = None,
) -> Axes:
    """Grouped bars of Ratios: every bar carries its n/d; undefined ones are hatched N/A bars."""
    values = {
        row: {
            s: (r.value, r.counts if r.value is not None else f"N/A ({r.counts})")
            for s, r in cells.items()
        }
        for row, cells in rows.items()
    }
    return plot_grouped_values(
        values, series_labels=series_labels, ax=ax, title=title, row_notes=row_notes
    )


@styled
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


@styled
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


PRESENT = {"facecolor": "#55A868", "edgecolor": "#2d6b3c", "linewidth": 1.2}
MISSING = {"facecolor": "white", "edgecolor": "#C44E52", "linewidth": 1.2, "linestyle": "--"}


@styled
def plot_chains(
    fixture, question: str, result, *, title: str | None = None, ax: Axes | None = None
) -> Axes:
    """One row per alternative: members present (filled), missing (dashed), link errors in red.

    Rejected context items and unsafe candidates are listed under the chains.
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    rows = result.branches
    if ax is None:
        _, ax = plt.subplots(
            figsize=(
                9,
                1.1
                + 0.9 * len(rows)
                + 0.25 * (len(result.rejected) + len(result.unsafe_candidates)),
            )
        )
    w, h, gap = 3.3, 0.55, 0.7
    for r, b in enumerate(rows):
        y = -r
        status = "complete witness" if b.complete else f"missing {len(b.missing)}"
        ax.text(
            -0.3,
            y,
            status,
            ha="right",
            va="center",
            fontsize=9,
            color="#2d6b3c" if b.complete else "#C44E52",
        )
        for i, m in enumerate(b.alternative):
            x = i * (w + gap)
            e = fixture.item(m)
            style = PRESENT if m in b.present else MISSING
            ax.add_patch(FancyBboxPatch((x, y - h / 2), w, h, boxstyle="round,pad=0.02", **style))
            label = f"{m}: {e.subject} → {e.object}" if e else m
            if len(label) > 40:
                label = label[:39] + "…"
            ax.text(
                x + w / 2,
                y,
                label,
                ha="center",
                va="center",
                fontsize=7.5,
                color="white" if m in b.present else "#333333",
            )
            if i + 1 < len(b.alternative):
                ax.add_patch(
                    FancyArrowPatch(
                        (x + w, y),
                        (x + w + gap, y),
                        arrowstyle="-|>",
                        mutation_scale=10,
                        color="#555555",
                    )
                )
        if b.link_errors:
            x = len(b.alternative) * (w + gap)
            msg = "; ".join(
                f"✗ {le.left}→{le.right}: {le.left_end} ≠ {le.right_start}" for le in b.link_errors
            )
            ax.text(x - gap / 2, y, msg, ha="left", va="center", fontsize=7.5, color="#C44E52")
    y = -len(rows) + 0.2
    notes = [(f"rejected {r.id} ({r.reason})", "#777777") for r in result.rejected]
    notes += [
        (f"⚠ UNSAFE CANDIDATE {u.id}: fails metadata rules, never a witness", "#b8860b")
        for u in result.unsafe_candidates
    ]
    for text, color in notes:
        ax.text(-0.3, y, text, ha="left", va="center", fontsize=8, color=color)
        y -= 0.3
    ax.set_xlim(-2.4, 3 * (w + gap) + 3.5)
    ax.set_ylim(min(y, -len(rows) + 0.5) - 0.2, 0.7)
    ax.axis("off")
    ctx = ", ".join(_context_labels(result))
    ax.set_title(
        title
        or f"{question}: {result.status} · context {ctx} ({result.context_raw} raw / {result.context_unique} unique)",
        fontsize=10,
    )
    legend = [Patch(**PRESENT, label="in context"), Patch(**MISSING, label="missing premise")]
    ax.legend(handles=legend, loc="upper right", fontsize=7, frameon=False)
    return ax


def _context_labels(result) -> list[str]:
    """Context ids for a caption (unique, in the order given)."""
    return [str(c) for c in result.context] or ["(empty)"]


@styled
def plot_risk_coverage(rows, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Coverage and accuracy on answered per threshold, each bar with n/d; N/A hatched."""
    data = {f"≥ {r.threshold:g}": {"coverage": r.coverage, "accuracy": r.accuracy} for r in rows}
    ax = plot_grouped_ratios(
        data,
        series_labels={"coverage": "answered / total", "accuracy": "accuracy on answered"},
        ax=ax,
        title=title or "Selective answering: coverage and accuracy per confidence threshold",
    )
    ax.set_xlabel("confidence threshold", fontsize=9)
    return ax


@styled
def plot_count_bars(
    counts: Mapping,
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "",
    highlight=None,
) -> Axes:
    """A distribution as bars, each labelled with its count and share of the total."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.2))
    keys = list(counts)
    total = sum(counts.values())
    for i, k in enumerate(keys):
        v = counts[k]
        color = "#C44E52" if highlight is not None and k == highlight else DEFAULT_COLOR
        ax.bar(i, v, color=color)
        ax.text(
            i,
            v,
            f"{v}/{total}",
            ha="center",
            va="bottom",
            fontsize=7,
            rotation=90 if len(keys) > 8 else 0,
        )
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([str(k) for k in keys], fontsize=8)
    ax.set_ylabel("count")
    ax.set_xlabel(xlabel)
    ax.margins(y=0.2)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


@styled
def plot_factscore_table(
    results: Mapping[str, Mapping[str, object]], *, title: str, value: str = "factscore"
) -> Axes:
    """FActScore per subject (rows) and setting (series); each bar says n scored and respond n/N.

    ``results[row][series]`` is a FactscoreResult; N/A when no response could be scored.
    """
    rows = {}
    for row, cells in results.items():
        rows[row] = {}
        for series, r in cells.items():
            v = getattr(r, value)
            if v is None:
                rows[row][series] = (None, f"N/A · respond {r.respond.counts}")
            else:
                rows[row][series] = (v, f"{100 * v:.1f} · n={r.scored} · resp {r.respond.counts}")
    ax = plot_grouped_values(rows, title=title, na_label="N/A (no scored response)")
    ax.set_ylabel("FActScore")
    return ax


@styled
def plot_penalty_curve(gamma: int = 10, *, max_facts: int = 20, ax: Axes | None = None) -> Axes:
    """The length-penalty multiplier against the number of facts, with the pinned points marked."""
    from claimlab.factscore import length_penalty

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.4))
    ns = list(range(1, max_facts + 1))
    ax.plot(ns, [length_penalty(n, gamma) for n in ns], marker="o", color="#4C72B0")
    for n in (1, gamma - 1, gamma, gamma + 1):
        if 1 <= n <= max_facts:
            v = length_penalty(n, gamma)
            ax.annotate(
                f"n={n}: ×{v:.4g}", (n, v), textcoords="offset points", xytext=(4, 8), fontsize=8
            )
    ax.axvline(gamma, color="#999999", linestyle=":", linewidth=1)
    ax.set_xlabel("atomic facts in the response (n)")
    ax.set_ylabel("multiplier exp(1 − γ/n)")
    ax.set_title(
        f"Length penalty, γ = {gamma}: only responses with fewer than γ facts are scaled",
        fontsize=10,
    )
    ax.set_ylim(-0.05, 1.15)
    return ax


@styled
def plot_score_vs_init(
    results: Mapping[str, object], *, title: str = "score (penalised) vs init_score"
) -> Axes:
    """Per subject: init_score and the penalised score side by side, with n scored on each bar."""
    rows = {}
    for name, r in results.items():
        rows[name] = {}
        for key, v in (
            ("init_score (no penalty)", r.init_score),
            (f"score (γ = {r.gamma})", r.factscore),
        ):
            rows[name][key] = (v, "N/A" if v is None else f"{100 * v:.1f} · n={r.scored}")
    ax = plot_grouped_values(rows, title=title, na_label="N/A (no scored response)")
    ax.set_ylabel("FActScore")
    return ax


@styled
def plot_packing(result, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Chunks by rank: cumulative tokens as bars (kept filled, dropped hatched), both budgets drawn."""
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.8))
    kept = set(result.kept)
    total = 0
    limit_t = result.tokens_used.limit
    limit_c = result.chunks_used.limit
    for rank, cid in enumerate(result.ranking, 1):
        t = result.tokens[cid]
        style = (
            {"color": "#55A868"}
            if cid in kept
            else {"facecolor": "white", "edgecolor": "#C44E52", "hatch": "//"}
        )
        ax.bar(rank, t, bottom=total, width=0.7, **style)
        ax.text(rank, total + t / 2, f"{t}", ha="center", va="center", fontsize=7)
        total += t
    ax.axhline(limit_t, color="#C44E52", linestyle="--", linewidth=1)
    ax.text(0.55, limit_t, f" token budget {limit_t}", va="bottom", fontsize=8, color="#C44E52")
    ax.axvline(limit_c + 0.5, color="#4C72B0", linestyle=":", linewidth=1)
    ax.text(
        limit_c + 0.55,
        ax.get_ylim()[1] * 0.02,
        f"chunk budget {limit_c}",
        rotation=90,
        va="bottom",
        fontsize=8,
        color="#4C72B0",
    )
    ax.set_xticks(range(1, len(result.ranking) + 1))
    ax.set_xticklabels(
        [f"#{i}\n{cid.split('#')[-1]}" for i, cid in enumerate(result.ranking, 1)], fontsize=7
    )
    ax.set_ylabel("cumulative tokens")
    ax.legend(
        handles=[
            Patch(color="#55A868", label=f"kept ({result.chunks_used.display} chunks)"),
            Patch(facecolor="white", edgecolor="#C44E52", hatch="//", label="dropped whole"),
        ],
        loc="upper left",
        fontsize=8,
        frameon=False,
    )
    ax.set_title(
        title or f"Packing by relevance rank: tokens {result.tokens_used.display}", fontsize=10
    )
    return ax


@styled
def plot_calibration(
    items, calibration, fixed: Sequence[float] = (), *, ax: Axes | None = None
) -> Axes:
    """Precision and recall of 'score >= t' over thresholds; calibrated and fixed thresholds marked."""
    from claimlab.context_budget import threshold_counts

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.6))
    ts = sorted({s for s, _ in items} | set(fixed))
    counts = [threshold_counts(items, t) for t in ts]  # (precision, recall) per threshold
    prec = [p.value for p, _ in counts]
    rec = [r.value for _, r in counts]
    ax.plot(
        ts,
        [v if v is not None else float("nan") for v in prec],
        marker="o",
        label="precision (passed that are relevant)",
        color="#C44E52",
    )
    ax.plot(
        ts,
        [v if v is not None else float("nan") for v in rec],
        marker="s",
        label="recall (relevant that pass)",
        color="#4C72B0",
    )
    for t, (p, _) in zip(ts, counts, strict=True):
        if p.value is None:
            ax.text(
                t,
                0.5,
                "precision N/A (0/0)",
                rotation=90,
                ha="center",
                va="center",
                fontsize=7,
                color="#777777",
            )
    if calibration.threshold is not None:
        ax.axvline(calibration.threshold, color="#55A868", linewidth=2)
        ax.text(
            calibration.threshold,
            1.07,
            f"calibrated {calibration.threshold:g}",
            ha="center",
            fontsize=8,
            color="#55A868",
        )
    for f in fixed:
        ax.axvline(f, color="#777777", linestyle="--", linewidth=1)
        ax.text(f, -0.12, f"fixed {f:g}", ha="center", fontsize=8, color="#555555")
    ax.set_ylim(-0.18, 1.15)
    ax.set_xlabel("relevance threshold (raw retriever score)")
    ax.legend(fontsize=8, loc="lower left", frameon=False)
    ax.set_title(
        f"Threshold calibrated on {len(items)} labelled candidates (target precision {calibration.target_precision:g})",
        fontsize=10,
    )
    return ax


@styled
def plot_ledger_models(
    groups: Mapping[str, object], *, kind: str = "micro", title: str | None = None
) -> Axes:
    """Per model: the four Toy ratios (micro, n/d on each bar; macro with its defined count)."""
    from claimlab.ledger import METRIC_NAMES

    rows = {}
    for name, g in groups.items():
        rows[name] = {}
        for m in METRIC_NAMES:
            if kind == "micro":
                r = g.micro[m]
                rows[name][m] = (r.value, r.counts if r.value is not None else f"N/A ({r.counts})")
            else:
                mm = g.macro[m]
                rows[name][m] = (mm.value, f"{mm.defined} def., {mm.undefined} N/A")
    ax = plot_grouped_values(rows, title=title or f"Toy metrics per decomposer ({kind})")
    return ax


@styled
def plot_coverage_distribution(table, *, ax: Axes | None = None) -> Axes:
    """Histogram of per-answer coverage per model; answers with no unit (N/A) counted in the legend."""
    import numpy as np

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.6))
    bins = np.linspace(0, 1, 11)
    for name, sub in table.groupby("model", observed=True):
        d = sub["units"].to_numpy()
        vals = sub["covered"].to_numpy()[d > 0] / d[d > 0]
        na = int((d == 0).sum())
        ax.hist(
            vals,
            bins=bins,
            histtype="step",
            linewidth=1.8,
            label=f"{name} (n={len(vals)}, N/A {na})",
        )
    ax.set_xlabel("per-answer Toy Original Coverage")
    ax.set_ylabel("answers")
    ax.legend(fontsize=8, frameon=False)
    ax.set_title("Distribution of per-answer coverage", fontsize=10)
    return ax
