"""Notebook views: tables and figures for one lab step, shown with ``IPython.display``.

Every string that comes from a fixture or a data file reaches HTML escaped: tables go through
pandas (which escapes cell text) and Markdown goes through :func:`md_text`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from claimlab.decomposition import (
    METRIC_LABELS,
    METRICS,
    DecompositionResult,
    explain_mode,
    find_decomposition,
)
from claimlab.fixtures import DecompositionFixture

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|>~-])")


def md_text(text: object) -> str:
    r"""Escape untrusted text for Markdown that is rendered to HTML (tags and Markdown syntax).

    Examples:
        >>> md_text("<img src=x onerror=alert(1)> *bold*")
        '&lt;img src=x onerror=alert\\(1\\)&gt; \\*bold\\*'
    """
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=True))


def md_ids(ids: Iterable[str]) -> str:
    """Comma-separated escaped ids, or a dash."""
    ids = list(ids)
    return ", ".join(md_text(i) for i in ids) if ids else "(none)"


def show(obj: object) -> None:
    """Display an object (imports IPython lazily)."""
    from IPython.display import display

    display(obj)


def show_markdown(text: str) -> None:
    """Display Markdown built by claimlab (untrusted parts already escaped)."""
    from IPython.display import Markdown, display

    display(Markdown(text))


def show_figure(ax) -> None:
    """Display the figure of ``ax`` once and close it (no duplicate inline output)."""
    import matplotlib.pyplot as plt

    fig = ax.figure
    show(fig)
    plt.close(fig)


def units_table(fixture: DecompositionFixture):
    """The original's units with their UTF-16 spans."""
    import pandas as pd

    return pd.DataFrame(
        [
            {"unit": u.id, "start": u.span.start, "end": u.span.end, "text": u.span.text}
            for u in fixture.units
        ]
    ).set_index("unit")


def candidates_table(fixture: DecompositionFixture):
    """All candidates with their labels (both layers)."""
    import pandas as pd

    rows = []
    for c in fixture.candidates:
        rows.append(
            {
                "id": c.id,
                "text": c.text,
                "preserves": ", ".join(c.preserves) or "-",
                "faithful": c.faithful,
                "atomic": c.atomic,
                "errors": ", ".join(c.errors) or "-",
                "status": c.evidence.status,
                "references": ", ".join(c.evidence.references) or "-",
            }
        )
    return pd.DataFrame(rows).set_index("id")


def audit_table(result: DecompositionResult):
    """The audit rows with the two layers under separate column headings."""
    import pandas as pd

    columns = pd.MultiIndex.from_tuples(
        [
            ("selection", "#"),
            ("selection", "id"),
            ("selection", "text"),
            ("selection", "counted"),
            ("original → subclaim", "source spans (UTF-16)"),
            ("original → subclaim", "preserves"),
            ("original → subclaim", "faithful"),
            ("original → subclaim", "atomic"),
            ("original → subclaim", "errors"),
            ("reference → subclaim", "status"),
            ("reference → subclaim", "references"),
        ]
    )
    rows = [
        [
            r.position,
            r.id,
            r.text,
            "yes" if r.counted else f"no (duplicate of {r.duplicate_of})",
            r.source_spans,
            ", ".join(r.preserves) or "-",
            r.faithful,
            r.atomic,
            ", ".join(r.errors) or "-",
            r.status,
            ", ".join(r.references) or "-",
        ]
        for r in result.audit
    ]
    return pd.DataFrame(rows, columns=columns)


def metrics_table(results: dict[str, DecompositionResult]):
    """One row per selection: the four ratios as displays, plus status counts and problems."""
    import pandas as pd

    rows = []
    for name, r in results.items():
        row = {"mode": name, "selection": ", ".join(r.selection) or "(empty)"}
        row.update({METRIC_LABELS[m]: getattr(r, m).display for m in METRICS})
        row["CONTRADICTED"] = r.status_counts["CONTRADICTED"]
        row["NOT_IN_REFERENCE"] = r.status_counts["NOT_IN_REFERENCE"]
        row["missing units"] = ", ".join(r.missing_units) or "-"
        row["duplicates"] = ", ".join(r.duplicates) or "-"
        rows.append(row)
    return pd.DataFrame(rows).set_index("mode")


def show_decomposition_mode(fixture: DecompositionFixture, name: str) -> DecompositionResult:
    """Show one named selection: explanation, audit table and the four-metric figure."""
    from claimlab.plotting import plot_decomposition

    result = find_decomposition(fixture, fixture.mode(name))
    show_markdown(
        f"### Mode `{md_text(name)}`: {md_ids(result.selection)}\n\n" + explain_mode(name, result)
    )
    show(audit_table(result))
    show_figure(plot_decomposition(result, title=f"mode: {name}"))
    return result
