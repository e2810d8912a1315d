"""Showing things in a notebook: tables never typeset as maths, escaped Markdown, figures once.

Every string that comes from a fixture or a data file reaches HTML escaped: tables go through
pandas (which escapes cell text) inside a block MathJax skips, and Markdown goes through
:func:`md_text` (or :func:`md_code` for a code span) inside one too.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from claimlab.core.text import md_code, md_ids, md_text

__all__ = [
    "NO_MATH",
    "md_code",
    "md_ids",
    "md_text",
    "pandas",
    "show",
    "show_figure",
    "show_markdown",
    "show_skip",
    "table",
]

NO_MATH = "tex2jax_ignore mathjax_ignore"  # MathJax 2 and 3: never typeset inside
_SCOPED_STYLE = re.compile(r"<style scoped>.*?</style>\s*", re.DOTALL)


@functools.cache
def _table_class():
    import pandas as pd

    class Table(pd.DataFrame):
        r"""A DataFrame shown with whole cell texts and never typeset as maths.

        Its HTML carries MathJax's ignore classes, so a ``$`` or ``\(`` in a file's text
        stays text in JupyterLab and in handouts; the options apply while rendering only.
        """

        @property
        def _constructor(self):
            return Table

        def _repr_html_(self):
            with pd.option_context("display.max_colwidth", None, "display.html.use_mathjax", False):
                html_text = super()._repr_html_()
            # pandas' own scoped style block: not needed, and no output carries a <style>
            return _SCOPED_STYLE.sub("", html_text or "", count=1)

    return Table


def table(frame: Any) -> Any:
    """Any DataFrame as a table that shows whole cell texts and is never typeset as maths."""
    return _table_class()(frame)


class _Pandas:
    """pandas, with ``DataFrame`` replaced by the table that is never typeset (no global options)."""

    def __getattr__(self, name: str):
        import pandas as pd

        return _table_class() if name == "DataFrame" else getattr(pd, name)


def pandas() -> Any:
    """pandas, its ``DataFrame`` being the table that is never typeset (imported when first used)."""
    return _Pandas()


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


def show_figure(ax) -> None:
    """Display the figure of ``ax`` once and close it (no duplicate inline output)."""
    import matplotlib.pyplot as plt

    from claimlab.notebook.style import house_style

    fig = ax.figure
    with house_style():
        show(fig)
    plt.close(fig)


def show_skip(message: str) -> None:
    """Say that a section is skipped and why."""
    show_markdown(f"**Skipped:** {md_text(message)}")
