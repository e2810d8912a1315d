"""Plots that show counts and N/A: every bar is labelled n/d; an undefined ratio is a hatched bar.

Never imported by the metric modules, and matplotlib is imported only when a figure is drawn: a
module of views decorated with :func:`styled` imports light, so a command printing its terminal
lines (``claimlab rag``, ``meta-eval``) loads no figure library.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from claimlab.core.ratio import Ratio
from claimlab.core.text import terminal

if TYPE_CHECKING:
    from matplotlib.axes import Axes

NA_STYLE: dict[str, Any] = {
    "facecolor": "white",
    "edgecolor": "#777777",
    "hatch": "//",
    "linewidth": 1.0,
}
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


# Per-glyph fallback, in order (matplotlib >= 3.6 takes a list of families): Latin, Turkish and
# Greek from DejaVu Sans; Thai from Noto Sans Thai (TLWG's Loma if absent); Korean from Nanum
# Gothic; pictographs and emoji from the monochrome symbol fonts (a colour bitmap font such as
# Noto Color Emoji cannot be drawn by matplotlib). Families that are not installed are left out.
FONT_FALLBACK = (
    "DejaVu Sans",
    "Noto Sans",
    "Noto Sans Thai",
    "Loma",
    "NanumGothic",
    "NanumBarunGothic",
    "Noto Sans Symbols2",
    "Noto Sans Symbols",
    "Symbola",
)


@functools.cache
def font_families() -> tuple[str, ...]:
    """The installed families of :data:`FONT_FALLBACK`, in its order (DejaVu Sans always)."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return tuple(f for f in FONT_FALLBACK if f in installed or f == "DejaVu Sans")


@functools.cache
def _coverage() -> tuple[tuple[str, frozenset[int]], ...]:
    """Each family of :func:`font_families`, in order, with the code points it has glyphs for."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    out = []
    for family in font_families():
        path = font_manager.findfont(
            font_manager.FontProperties(family=family), fallback_to_default=False
        )
        out.append((family, frozenset(FT2Font(path).get_charmap())))
    return tuple(out)


@functools.cache
def _drawable() -> frozenset[int]:
    """Every code point some family of :func:`font_families` has a glyph for."""
    return frozenset().union(*(points for _, points in _coverage()))


def families_for(text: str) -> list[str]:
    """The families of the fallback list that draw ``text``, in the list's order.

    For each character, the first family that has its glyph (and the list's first always).
    Matplotlib draws each character with the first family of a text's list that has it, and
    looks every family of the list up for each text it measures; a text given only the
    families it uses is drawn the same, with a fraction of the look-ups.

    Examples:
        >>> families_for("ok")
        ['DejaVu Sans']
    """
    coverage = _coverage()
    used = {0}
    for ch in set(text):
        for i, (_, points) in enumerate(coverage):
            if ord(ch) in points:
                used.add(i)
                break
    return [coverage[i][0] for i in sorted(used)]


def narrow_fonts(fig: Any) -> None:
    """Give each text of ``fig`` drawn in the house families the ones it uses.

    See :func:`families_for`; a text given other families keeps them.
    """
    from matplotlib.text import Text

    house = list(font_families())
    for t in fig.findobj(Text):
        if t.get_fontfamily() == house:
            t.set_fontfamily(families_for(t.get_text()))


def drawable(text: str) -> str:
    r"""``text`` with every character no installed font can draw made visible as ``[U+XXXX]``.

    A format character or a combining mark without a glyph (a variation selector, a zero-width
    joiner) is dropped: it has nothing to show. Never an empty box in a figure.

    Examples:
        >>> drawable("ok \U000f0000 \U000e0001")  # private use: no font; a tag: dropped
        'ok [U+F0000] '
    """
    import unicodedata

    have = _drawable()
    if all(ord(ch) in have or ch in "\n\t " for ch in text):
        return text
    out = []
    for ch in text:
        if ord(ch) in have or ch in "\n\t ":
            out.append(ch)
        elif unicodedata.category(ch) not in ("Cf", "Mn"):
            out.append(f"[U+{ord(ch):04X}]")
    return "".join(out)


HOUSE_STYLE: dict[str, Any] = {
    "font.family": list(FONT_FALLBACK),
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
    import matplotlib.pyplot as plt

    rc: dict[str, Any] = {**HOUSE_STYLE, "font.family": list(font_families())}
    with plt.rc_context(rc):  # type: ignore[arg-type]
        yield


def label(text: object, limit: int = 32) -> str:
    r"""A label from a file's text for a figure: control characters visible, each line shortened.

    Examples:
        >>> label("a\x1bb"), label("x" * 40, 10)
        ('a\\x1bb', 'xxxxxxxxx…')
    """
    lines = drawable(terminal(text)).split("\n")
    return "\n".join(line if len(line) <= limit else line[: limit - 1] + "…" for line in lines)


def visible_text(ax: Axes) -> None:
    r"""Show every control character in the figure's texts as an escape (``\x1b``).

    Titles, tick labels, legends and bar labels may hold ids and names from a file; a
    control character has no glyph and an escape sequence must not reach a terminal-like
    renderer, so each is drawn as its escape instead. Line breaks stay.
    """
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter, FuncFormatter

    for axes in ax.figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            fmt = axis.get_major_formatter()
            if isinstance(fmt, FixedFormatter):  # tick labels are drawn from it later
                fmt.seq = [label(x) for x in fmt.seq]
            elif isinstance(fmt, FuncFormatter):  # set_ticklabels' own formatter (matplotlib 3.9+)
                axis.set_major_formatter(FuncFormatter(_visible_ticks(fmt)))
    titles = {id(t) for a in ax.figure.axes for t in (a.title, a.xaxis.label, a.yaxis.label)}
    extra = (getattr(ax.figure, "_suptitle", None), getattr(ax.figure, "_supxlabel", None))
    titles |= {id(t) for t in extra if t is not None}
    for t in ax.figure.findobj(Text):
        s = t.get_text()
        safe = label(s, 110 if id(t) in titles else 60)
        if safe != s:
            t.set_text(safe)


def _visible_ticks(fmt: Any) -> Callable[[Any, Any], str]:
    """A tick formatter's labels passed through :func:`label`."""

    def visible(x: Any, pos: Any) -> str:
        return label(fmt(x, pos))

    return visible


def styled(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a plotting function inside :func:`house_style`; its texts made visible."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from matplotlib.axes import Axes

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
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    if ax is None:
        _, ax = plt.subplots(figsize=(PRINT_WIDTH_IN, 2.9))
    names = list(ratios)
    for i, name in enumerate(names):
        _bar(ax, i, ratios[name], width=0.65, color=COLORS.get(name, DEFAULT_COLOR))
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([(labels or {}).get(n, n) for n in names], fontsize=9)
    ax.set_ylim(0, 1.12)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_yticklabels(["0%", "25%", "50%", "75%", "100%"], fontsize=9)
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


PRINT_WIDTH_IN = 7.2  # no figure is wider than an A4 page's text (so none is shrunk in print)
PANELS_FROM = 5  # from this many groups on, one panel per series instead of grouped columns
PALETTE = ["#4C72B0", "#55A868", "#C44E52", "#DD8452", "#8172B3", "#937860"]


@styled
def plot_grouped_values(
    rows: Mapping[str, Mapping[str, tuple[float | None, str]]],
    *,
    series_labels: Mapping[str, str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    row_notes: Mapping[str, str] | None = None,
    na_label: str = "N/A (0/0)",
    xlabel: str | None = None,
    ylabel: str | None = None,
    errors: Mapping[str, Mapping[str, tuple[float, float] | None]] | None = None,
) -> Axes:
    """Grouped bars of values in 0..1: one group per row, one bar per series.

    ``errors`` gives an interval ``(low, high)`` per row and series, drawn as an error bar
    (the counts stay on the bar; an N/A bar has none).

    Each cell is ``(value, label)``; the label (counts) is written on or beside the bar. A
    value of None is a hatched full-length bar labelled ``na_label``, never a zero-length bar.
    Up to four groups are drawn as columns; from five on (and without ``ax``), one panel per
    series with a horizontal bar per group, so the figure keeps the page's width and every
    label stays at 8 pt or more. Returns the (first) Axes.
    """
    import matplotlib.pyplot as plt

    row_names = list(rows)
    series: Sequence[str] = list(next(iter(rows.values()))) if rows else []
    colors = {s: COLORS.get(s, PALETTE[j % len(PALETTE)]) for j, s in enumerate(series)}
    notes = row_notes or {}
    if ax is None and len(row_names) >= PANELS_FROM and series:
        return _panels(
            rows, row_names, series, colors, series_labels, title, notes, na_label, xlabel, errors
        )
    if ax is None:
        _, ax = plt.subplots(figsize=(PRINT_WIDTH_IN, 4.2))
    above = _column_bars(ax, rows, row_names, series, colors, na_label, errors)
    ax.set_xticks(range(len(row_names)))
    # made visible before _make_room_above measures them (a glyph-less control character: warned)
    ticks = [label(f"{r}\n{notes.get(r, '')}".strip()) for r in row_names]
    ax.set_xticklabels(ticks, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"], fontsize=8)
    handles = _legend_handles(series, colors, series_labels, na_label)
    ax.legend(  # above the axes, so no bar or label can run into it
        handles=handles,
        loc="lower center",
        ncol=min(len(handles), 3),
        fontsize=8,
        frameon=False,
        bbox_to_anchor=(0.5, 1.0),
    )
    _make_room_above(ax, above)
    if title:
        ax.set_title(title, fontsize=11, pad=24 + 12 * ((len(handles) - 1) // 3))
    if xlabel:
        ax.set_xlabel(xlabel, fontsize=8)
    if ylabel:
        ax.set_ylabel(ylabel, fontsize=9)
    return ax


def _legend_handles(
    series: Sequence[str],
    colors: Mapping[str, str],
    series_labels: Mapping[str, str] | None,
    na_label: str,
) -> list[Any]:
    """One legend entry per series in its colour, then the N/A bar's."""
    from matplotlib.patches import Patch

    handles = [Patch(color=colors[s], label=label((series_labels or {}).get(s, s))) for s in series]
    return [*handles, Patch(**NA_STYLE, label=na_label)]


def _column_bars(
    ax: Axes,
    rows: Mapping[str, Mapping[str, tuple[float | None, str]]],
    row_names: Sequence[str],
    series: Sequence[str],
    colors: Mapping[str, str],
    na_label: str,
    errors: Mapping[str, Mapping[str, tuple[float, float] | None]] | None,
) -> list[Any]:
    """A bar per row and series, its counts written on it; returns the labels standing above."""
    width = 0.8 / max(len(series), 1)
    above = []
    for i, row in enumerate(row_names):
        for j, s in enumerate(series):
            x = i - 0.4 + width * (j + 0.5)
            value, cell_label = rows[row][s]
            if value is None:
                ax.bar(x, 1.0, width=width, **NA_STYLE)
                text = label(cell_label or na_label)
                ax.text(x, 0.5, text, rotation=90, ha="center", va="center", fontsize=8)
                continue
            ax.bar(x, value, width=width, color=colors[s])
            top = _error_bar(ax, x, value, (errors or {}).get(row, {}).get(s), vertical=True)
            above.append(
                ax.text(
                    x, top + 0.015, label(cell_label), rotation=90, ha="center", va="bottom",
                    fontsize=8,
                )
            )  # fmt: skip
    return above


def _error_bar(
    ax: Axes, at: float, value: float, span: tuple[float, float] | None, *, vertical: bool
) -> float:
    """Draw an interval as an error bar on a bar; returns where the bar's label may start."""
    if span is None:
        return value
    lo, hi = span
    err = [[max(0.0, value - lo)], [max(0.0, hi - value)]]
    style: dict[str, Any] = dict(fmt="none", ecolor="#222222", elinewidth=1.0, capsize=3)
    if vertical:
        ax.errorbar(at, value, yerr=err, **style)
    else:
        ax.errorbar(value, at, xerr=err, **style)
    return max(value, hi)


def _panels(
    rows: Any,
    row_names: Any,
    series: Any,
    colors: Any,
    series_labels: Any,
    title: Any,
    notes: Any,
    na_label: Any,
    xlabel: Any,
    errors: Any = None,
) -> Axes:
    """One panel per series, a horizontal bar per group, its label beside the bar."""
    import matplotlib.pyplot as plt

    cols = min(len(series), 4)  # one row of panels sharing the group labels
    nrows = (len(series) + cols - 1) // cols
    panel_h = (0.36 if notes else 0.26) * len(row_names) + 0.7
    height = panel_h * nrows + (0.6 if title else 0.2) + (0.3 if xlabel else 0)
    fig, axes = plt.subplots(
        nrows, cols, figsize=(PRINT_WIDTH_IN, height), squeeze=False, sharey=True
    )
    ticks = [label(f"{r}\n{notes[r]}" if notes.get(r) else r, 28) for r in row_names]
    for j, s in enumerate(series):
        ax = axes[j // cols][j % cols]
        for i, row in enumerate(row_names):
            y = len(row_names) - 1 - i
            value, cell_label = rows[row][s]
            if value is None:
                ax.barh(y, 1.0, height=0.7, **NA_STYLE)
                ax.text(
                    0.5,
                    y,
                    label(cell_label or na_label, 30),
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="#333333",
                )
            else:
                ax.barh(y, value, height=0.7, color=colors[s])
                end = _error_bar(ax, y, value, (errors or {}).get(row, {}).get(s), vertical=False)
                ax.text(end + 0.02, y, label(cell_label, 30), ha="left", va="center", fontsize=8)
        ax.set_xlim(0, 1.6 if cols > 2 else 1.45)
        ax.set_xticks([0, 1.0] if cols > 2 else [0, 0.5, 1.0])
        ax.set_xticklabels(["0%", "100%"] if cols > 2 else ["0%", "50%", "100%"], fontsize=8)
        ax.set_yticks(range(len(row_names)))
        ax.set_yticklabels(list(reversed(ticks)), fontsize=8)
        ax.set_title(label((series_labels or {}).get(s, s)), fontsize=9)
    for j in range(len(series), nrows * cols):
        axes[j // cols][j % cols].axis("off")
    if title:
        fig.suptitle(title, fontsize=11)
    if xlabel:
        fig.supxlabel(xlabel, fontsize=8)
    first: Axes = axes[0][0]
    return first


def _make_room_above(ax: Axes, labels: Sequence[Any], *, margin: float = 0.02) -> None:
    """Raise the top of the y axis until every label standing on a bar ends inside the axes.

    A label's height is fixed in points while its foot sits at a data value, so one rendering
    gives each label's share of the axes height, and the top follows from it.
    """
    if not labels:
        return
    renderer = ax.figure.canvas.get_renderer()  # type: ignore[attr-defined]
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
    xlabel: str | None = None,
    ylabel: str | None = None,
    intervals: Mapping[str, Mapping[str, Any]] | None = None,
) -> Axes:
    """Grouped bars of Ratios: every bar carries its n/d; undefined ones are hatched N/A bars.

    ``intervals`` (row -> series -> an interval with ``low`` and ``high``, or None) adds error
    bars.
    """
    values = {
        row: {
            s: (r.value, r.counts if r.value is not None else f"N/A ({r.counts})")
            for s, r in cells.items()
        }
        for row, cells in rows.items()
    }
    errors = {
        row: {s: (iv.low, iv.high) for s, iv in cells.items() if iv}
        for row, cells in (intervals or {}).items()
    }
    return plot_grouped_values(
        values,
        series_labels=series_labels,
        ax=ax,
        title=title,
        row_notes=row_notes,
        xlabel=xlabel,
        ylabel=ylabel,
        errors=errors,
    )
