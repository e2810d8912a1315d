"""Showing things in a notebook: tables never typeset as maths, escaped Markdown, figures once.

Every string that comes from a fixture or a data file reaches HTML escaped: tables go through
pandas (which escapes cell text) inside a block MathJax skips, and Markdown goes through
:func:`md_text` (or :func:`md_code` for a code span) inside one too.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from claimlab.core.text import md_code, md_ids, md_text

__all__ = [
    "NO_MATH",
    "md_code",
    "md_ids",
    "md_text",
    "pandas",
    "show",
    "show_exercises",
    "show_figure",
    "show_markdown",
    "show_skip",
    "table",
]

NO_MATH = "tex2jax_ignore mathjax_ignore"  # MathJax 2 and 3: never typeset inside
_SCOPED_STYLE = re.compile(r"<style scoped>.*?</style>\s*", re.DOTALL)


WHOLE_WORDS = "word-break: keep-all; overflow-wrap: normal; hyphens: none"  # headers never split
MAX_ROWS = 60  # a longer table shows its first and last rows, with the count between


def _cell(value: Any) -> str:
    """One cell's text: floats to 6 significant digits, missing values as "-", all escaped."""
    import math

    if value is None or (isinstance(value, float) and math.isnan(value)):
        text = "-"
    elif isinstance(value, float):
        text = f"{value:.6g}"
    else:
        text = str(value)
    return _breakable(html.escape(text, quote=False))


_LONG_TOKEN = re.compile(r"\S{25,}")
_JOINTS = re.compile(r"([_/#.,-]+)")


def _breakable(escaped: str) -> str:
    """Let a very long token (a page id, a path) break after its joints, not run off the page."""
    return _LONG_TOKEN.sub(lambda m: _JOINTS.sub(r"\1<wbr>", m.group(0)), escaped)


def _is_text(column: Any) -> bool:
    """A column of words (left-aligned) rather than numbers or flags (right-aligned)."""
    import pandas as pd

    if pd.api.types.is_bool_dtype(column) or pd.api.types.is_numeric_dtype(column):
        return False
    values = [v for v in column if v is not None and not (isinstance(v, float) and v != v)]
    return not all(isinstance(v, (int, float, bool)) for v in values) or not values


def table_html(frame: Any) -> str:
    """A DataFrame as an HTML table for notebooks and handouts.

    One header row (a named index becomes an ordinary first column; a plain 0..n index is not
    shown), headers kept whole (never broken inside a word), words left-aligned and numbers
    right-aligned, every cell escaped, and MathJax's ignore classes on the table.
    """
    import pandas as pd

    named = any(n is not None for n in frame.index.names)
    plain = isinstance(frame.index, pd.RangeIndex) and not named
    data = pd.DataFrame(frame) if plain else pd.DataFrame(frame).reset_index()
    groups = [str(c[0]) if isinstance(c, tuple) and len(c) > 1 else "" for c in data.columns]
    names = [str(c[-1]) if isinstance(c, tuple) else str(c) for c in data.columns]
    text = [_is_text(data.iloc[:, j]) for j in range(data.shape[1])]
    align = ["left" if t else "right" for t in text]
    head = "".join(
        f'<th style="text-align: {a}; {WHOLE_WORDS}">{html.escape(n, quote=False)}</th>'
        for n, a in zip(names, align, strict=True)
    )
    if any(groups):  # two heading levels: the groups over their columns, then the columns
        spans: list[list[Any]] = []
        for g in groups:
            if spans and spans[-1][0] == g:
                spans[-1][1] += 1
            else:
                spans.append([g, 1])
        top = "".join(
            f'<th colspan="{n}" style="text-align: left; {WHOLE_WORDS}">'
            f"{html.escape(g, quote=False)}</th>"
            for g, n in spans
        )
        head = f"{top}</tr><tr>{head}"
    n = len(data)
    shown = (
        list(range(n))
        if n <= MAX_ROWS
        else [*range(MAX_ROWS // 2), -1, *range(n - MAX_ROWS // 2, n)]
    )
    rows = []
    for i in shown:
        if i < 0:
            rows.append(
                f'<tr><td colspan="{len(names)}" style="text-align: left">… '
                f"{n - MAX_ROWS} more rows ({n} in all) …</td></tr>"
            )
            continue
        cells = "".join(
            f'<td style="text-align: {a}">{_cell(v)}</td>'
            for v, a in zip(data.iloc[i].tolist(), align, strict=True)
        )
        rows.append(f"<tr>{cells}</tr>")
    return (
        f'<table class="dataframe claimlab-table {NO_MATH}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


@functools.cache
def _table_class() -> Any:
    import pandas as pd

    class Table(pd.DataFrame):
        r"""A DataFrame shown with whole cell texts and never typeset as maths.

        Its HTML (:func:`table_html`) carries MathJax's ignore classes, so a ``$`` or ``\(``
        in a file's text stays text in JupyterLab and in handouts.
        """

        @property
        def _constructor(self) -> Any:
            return Table

        def _repr_html_(self) -> Any:
            return table_html(self)

    return Table


def table(frame: Any) -> Any:
    """Any DataFrame as a table that shows whole cell texts and is never typeset as maths."""
    return _table_class()(frame)


class _Pandas:
    """pandas, with ``DataFrame`` replaced by the table that is never typeset (no global options)."""

    def __getattr__(self, name: str) -> Any:
        import pandas as pd

        return _table_class() if name == "DataFrame" else getattr(pd, name)


def pandas() -> Any:
    """pandas, its ``DataFrame`` being the table that is never typeset (imported when first used)."""
    return _Pandas()


def rows_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], *, index: str) -> Any:
    """Rows as a table indexed by ``index``, with its columns also when there is no row.

    A table of nothing (a query with no retrieved chunk, a file with no pair) shows its header
    and no row; it never fails for want of the column to index by.

    Examples:
        >>> t = rows_table([], ["chunk", "relevant"], index="chunk")
        >>> (len(t), list(t.columns), t.index.name)
        (0, ['relevant'], 'chunk')
    """
    return pandas().DataFrame(list(rows), columns=list(columns)).set_index(index)


def show(obj: object) -> None:
    """Display an object (imports IPython lazily)."""
    from IPython.display import display

    display(obj)


def show_markdown(text: str) -> None:
    """Display Markdown built by claimlab (untrusted parts already escaped), never typeset.

    The Markdown sits in a block that MathJax (JupyterLab's and the handouts') skips, so a
    backslash or dollar sign from a file's text can never start mathematics.
    """
    from IPython.display import Markdown, display

    display(Markdown(f'<div class="{NO_MATH}">\n\n{text}\n\n</div>'))


PRINT_WIDTH_IN = 7.3  # an A4 page's text width (210 mm less 2 x 12 mm margins)
MIN_FONT_PT = 8.0  # the smallest text a printed figure may carry
FIGURE_PPI = 240  # pixels per inch at the size the figure is shown and printed


def figure_fonts(fig: Any) -> list[float]:
    """The sizes (pt) of every visible, non-empty text in a figure."""
    from matplotlib.text import Text

    return [
        float(t.get_fontsize())
        for t in fig.findobj(Text)
        if t.get_visible() and t.get_text().strip() and t.get_figure() is not None
    ]


def figure_png(fig: Any) -> tuple[bytes, dict[str, Any]]:
    """The figure as a PNG at :data:`FIGURE_PPI`, and the display metadata that keeps its size.

    Shown at its own size (``width`` in CSS pixels of 1/96 inch), the image prints at
    ``FIGURE_PPI`` pixels per inch; the metadata also records the printed width and the
    smallest font, so a test can check that labels are at least :data:`MIN_FONT_PT` on paper.
    """
    import io

    from PIL import Image as PILImage

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=FIGURE_PPI, bbox_inches="tight", pad_inches=0.05)
    data = buf.getvalue()
    px_w, px_h = PILImage.open(io.BytesIO(data)).size
    width_in = px_w / FIGURE_PPI
    fonts = figure_fonts(fig)
    scale = min(1.0, PRINT_WIDTH_IN / width_in) if width_in else 1.0
    meta = {
        "width": round(px_w * 96 / FIGURE_PPI),
        "height": round(px_h * 96 / FIGURE_PPI),
        "claimlab": {
            "width_in": round(width_in, 3),
            "ppi": FIGURE_PPI,
            "min_font_pt": min(fonts) if fonts else None,
            "min_printed_font_pt": round(min(fonts) * scale, 2) if fonts else None,
        },
    }
    return data, meta


FIGURES_ENV = "CLAIMLAB_FIGURES"  # a folder: every figure shown is also written there
_FIGURES_WRITTEN: dict[str, int] = {}  # folder -> figures written so far (one kernel's run)


def figure_file_stem(n: int, title: str) -> str:
    """The file name (without suffix) of a notebook's ``n``-th figure: number, then its title.

    Examples:
        >>> figure_file_stem(3, "Four Toy metrics per selection")
        '03-four-toy-metrics-per-selection'
        >>> figure_file_stem(12, "Kapsam ölçütü / $x$"), figure_file_stem(1, "")
        ('12-kapsam-l-t-x', '01-figure')
    """
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:48].strip("-")
    return f"{n:02d}-{slug or 'figure'}"


def _write_figure_files(fig: Any, ax: Any, png: bytes) -> None:
    """With ``$CLAIMLAB_FIGURES`` set (``claimlab run`` sets it), the figure as PNG and SVG."""
    import io
    import os
    from pathlib import Path

    import matplotlib.pyplot as plt

    folder = os.environ.get(FIGURES_ENV)
    if not folder:
        return
    n = _FIGURES_WRITTEN[folder] = _FIGURES_WRITTEN.get(folder, 0) + 1
    suptitle = getattr(fig, "_suptitle", None)
    title = ax.get_title() or (suptitle.get_text() if suptitle is not None else "")
    stem = Path(folder) / figure_file_stem(n, title)
    stem.with_suffix(".png").write_bytes(png)
    svg = io.StringIO()
    with plt.rc_context({"svg.hashsalt": "claimlab", "svg.fonttype": "none"}):
        fig.savefig(
            svg, format="svg", bbox_inches="tight", pad_inches=0.05, metadata={"Date": None}
        )
    stem.with_suffix(".svg").write_text(svg.getvalue(), encoding="utf-8")


def _layout_once(fig: Any) -> None:
    """Lay the figure out now and keep that layout for every file saved from it.

    Saving with a tight bounding box draws a figure twice, and the PNG and the SVG are saved:
    with its layout engine on, the figure would be laid out four times, to the same result.
    """
    engine = fig.get_layout_engine()
    if engine is None:
        return
    engine.execute(fig)
    try:
        fig.set_layout_engine("none")
    except RuntimeError:  # an engine a colorbar depends on stays (and lays out again)
        pass


def show_figure(ax: Any) -> None:
    """Display the figure of ``ax`` once, as a 240 ppi PNG at its own size, and close it.

    Under ``claimlab run`` the figure is also written as PNG and SVG to the run's
    ``outputs/<stem>/`` (:data:`FIGURES_ENV`), named by its place and title.
    """
    import matplotlib.pyplot as plt
    from IPython.display import display

    from claimlab.notebook.style import house_style, narrow_fonts

    fig = ax.figure
    with house_style():
        narrow_fonts(fig)
        _layout_once(fig)
        data, meta = figure_png(fig)
        _write_figure_files(fig, ax, data)
    plt.close(fig)
    display({"image/png": data, "text/plain": "<figure>"}, raw=True, metadata={"image/png": meta})


def show_exercises(exercises: Any, *, solutions: bool = False, language: str = "en") -> None:
    """Numbered exercises (questions), or their solutions; every text escaped.

    In the student handout each question is followed by space to write the answer. The words
    around them ("Solutions.") are in ``language``.
    """
    from claimlab.notebook.words import WORDS, say

    if not exercises:
        show_markdown(say(WORDS, "exercises.none", language))
        return
    parts = []
    for i, x in enumerate(exercises, 1):
        if solutions:
            parts.append(f"**{i}.** {x.solution or say(WORDS, 'exercises.no_solution', language)}")
        else:
            parts.append(f'**{i}.** {x.question}\n\n<div class="claimlab-answer-space"></div>')
    heading = say(WORDS, "exercises.solutions", language) + "\n\n" if solutions else ""
    show_markdown(heading + "\n\n".join(parts))


def show_skip(message: str) -> None:
    """Say that a section is skipped and why."""
    show_markdown(f"**Skipped:** {md_text(message)}")
