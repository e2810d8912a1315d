"""Tables and figures of the annotation lab (notebook 09): drafts, agreement, adjudication.

Display only: every figure comes from :mod:`claimlab.metrics.agreement`,
:mod:`claimlab.labs.adjudicate` and :mod:`claimlab.metrics.ledger`; nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matplotlib.axes import Axes

from claimlab.io.decomposition import DecompositionFixture
from claimlab.labs.adjudicate import Adjudication
from claimlab.metrics.agreement import AgreementReport
from claimlab.metrics.decomposition import METRIC_LABELS
from claimlab.notebook.display import pandas
from claimlab.notebook.style import plot_grouped_ratios


def draft_table(fixture: DecompositionFixture) -> Any:
    """One row per candidate: its proposed source span, the alignment score, what is proposed."""
    pd = pandas()
    rows = []
    for c in fixture.candidates:
        rows.append(
            {
                "id": c.id,
                "subclaim": c.text,
                "proposed span": "; ".join(s.text for s in c.source_spans) or "(matched nowhere)",
                "UTF-16": "; ".join(f"{s.start}..{s.end}" for s in c.source_spans) or "-",
                "score": f"{c.alignment:g}" if c.alignment is not None else "-",
                "preserves": ", ".join(c.preserves) or "-",
                "state": "confirmed" if not c.review else "proposed",
            }
        )
    if not rows:
        return pd.DataFrame(columns=["id", "subclaim"]).set_index("id")
    return pd.DataFrame(rows).set_index("id")


def agreement_table(report: AgreementReport) -> Any:
    """One row per field: items, annotators, alpha, kappa and raw agreement (with counts)."""
    pd = pandas()
    return pd.DataFrame(
        [
            {
                "field": f.field,
                "items": f.items,
                "annotators": f.annotators,
                "Krippendorff's alpha": f.alpha.display,
                "Cohen's kappa": f.kappa.display,
                "raw agreement": f.raw.display,
            }
            for f in report.fields
        ]
    ).set_index("field")


def disagreements_table(report: AgreementReport, *, limit: int = 40) -> Any:
    """Each item, field and the annotators' values where they differ (first ``limit``)."""
    pd = pandas()
    rows = []
    for d in report.disagreements[:limit]:
        row: dict[str, object] = {"field": d.field, "item": d.item}
        for name, value in zip(report.annotators, d.values, strict=True):
            row[name] = value if value is not None else "-"
        rows.append(row)
    if not rows:
        return pd.DataFrame([{"field": "-", "item": "no disagreement"}]).set_index("field")
    return pd.DataFrame(rows).set_index("field")


def figures_table(report: AgreementReport) -> Any:
    """The four Toy ratios computed from each annotator's labels, side by side."""
    pd = pandas()
    rows = []
    for fig in report.figures:
        row: dict[str, object] = {"annotator": fig.annotator}
        row.update({METRIC_LABELS[m]: r.display for m, r in fig.ratios.items()})
        row["still proposed"] = fig.under_review
        rows.append(row)
    return pd.DataFrame(rows).set_index("annotator")


def plot_annotator_figures(report: AgreementReport, *, title: str | None = None) -> Axes:
    """The four Toy ratios per annotator, n/d on every bar: what the disagreement does to them."""
    rows = {fig.annotator: fig.ratios for fig in report.figures}
    notes = {
        fig.annotator: f"{fig.under_review} still proposed" if fig.under_review else "all confirmed"
        for fig in report.figures
    }
    return plot_grouped_ratios(
        rows,
        series_labels=METRIC_LABELS,
        title=title,
        row_notes=notes,
        xlabel=f"selection: {report.selection}; the same candidates, each annotator's labels",
    )


def ties_table(result: Adjudication, names: Sequence[str] = ()) -> Any:
    """The labels the majority did not settle, with each annotator's value."""
    pd = pandas()
    rows = []
    for t in result.ties:
        row: dict[str, object] = {"candidate": t.candidate, "label": t.label}
        for name in names or t.values:
            row[name] = t.values.get(name, "-")
        rows.append(row)
    for u in result.unit_ties:
        rows.append({"candidate": "-", "label": f"unit {u} (half of the annotators)"})
    if not rows:
        return pd.DataFrame([{"candidate": "-", "label": "no tie: every label settled"}]).set_index(
            "candidate"
        )
    return pd.DataFrame(rows).set_index("candidate")


def provenance_table(result: Adjudication) -> Any:
    """Per candidate and label: the rule that settled it and the votes."""
    pd = pandas()
    rows = []
    for c in result.document["candidates"]:
        for label, rec in c.get("provenance", {}).items():
            rows.append(
                {
                    "candidate": c["id"],
                    "label": label,
                    "rule": rec.get("rule", "-") + (f" ({rec['of']})" if rec.get("of") else ""),
                    "votes": "; ".join(f"{k}: {v}" for k, v in rec.get("votes", {}).items()) or "-",
                }
            )
    return pd.DataFrame(rows).set_index("candidate")
