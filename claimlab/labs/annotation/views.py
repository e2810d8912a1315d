"""Tables and figures of the annotation lab (notebook 09): drafts, agreement, adjudication.

Display only: every figure comes from :mod:`claimlab.metrics.agreement`,
:mod:`claimlab.labs.annotation.adjudicate` and :mod:`claimlab.metrics.ledger`; nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from matplotlib.axes import Axes

from claimlab.io.decomposition import DecompositionFixture
from claimlab.metrics.agreement import AgreementReport
from claimlab.metrics.decomposition import METRIC_LABELS
from claimlab.notebook.display import pandas, rows_table
from claimlab.notebook.style import plot_grouped_ratios

if TYPE_CHECKING:
    import os
    from collections.abc import Mapping

    import pandas as pd

    from claimlab.labs.annotation.adjudicate import Adjudication, AnswerResult
    from claimlab.labs.annotation.session import Workspace


def draft_table(fixture: DecompositionFixture) -> pd.DataFrame:
    """One row per candidate: its proposed source span, the alignment score, what is proposed."""
    rows = []
    for c in fixture.candidates:
        rows.append(
            {
                "id": c.id,
                "subclaim": c.text,
                "proposed span": "; ".join(s.text for s in c.source_spans) or "(matched nowhere)",
                "UTF-16": "; ".join(f"{s.start}..{s.end}" for s in c.source_spans) or "-",
                "score": f"{c.alignment.score:g}" if c.alignment is not None else "-",
                "preserves": ", ".join(c.preserves) or "-",
                "state": "confirmed" if not c.review else "proposed",
            }
        )
    return rows_table(
        rows,
        ("id", "subclaim", "proposed span", "UTF-16", "score", "preserves", "state"),
        index="id",
    )


def agreement_table(report: AgreementReport) -> pd.DataFrame:
    """One row per field: items, annotators, alpha, kappa and raw agreement (with counts)."""
    return rows_table(
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
        ],
        ("field", "items", "annotators", "Krippendorff's alpha", "Cohen's kappa", "raw agreement"),
        index="field",
    )


def disagreements_table(report: AgreementReport, *, limit: int = 40) -> pd.DataFrame:
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


def figures_table(report: AgreementReport) -> pd.DataFrame:
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


def ties_table(
    results: Adjudication | list[AnswerResult] | tuple[AnswerResult, ...],
    names: Sequence[str] = (),
) -> pd.DataFrame:
    """The labels the majority did not settle, with each annotator's value and its ``--decide``.

    ``results`` is one :class:`~claimlab.labs.annotation.adjudicate.Adjudication` or the per-answer
    results of a folder.
    """
    pd = pandas()
    many = results if isinstance(results, (list, tuple)) else [results]
    rows = []
    for r in many:
        answer = getattr(getattr(r, "key", None), "label", "")
        for t in r.ties:
            row: dict[str, object] = {"answer": answer, "candidate": t.candidate, "label": t.label}
            for name in names or t.values:
                row[name] = t.values.get(name, "-")
            row["settle with"] = " or ".join(
                f"--decide {t.decide(v)}" for v in dict.fromkeys(t.values.values())
            )
            rows.append(row)
    if not rows:
        rows = [{"answer": "-", "candidate": "-", "label": "no tie: every label settled"}]
    frame = pd.DataFrame(rows)
    if len(many) == 1 or not frame["answer"].any():
        frame = frame.drop(columns="answer")
    return frame.set_index("candidate")


def provenance_table(result: Adjudication | Mapping[str, Any]) -> pd.DataFrame:
    """Per candidate and label: the rule that settled it and the votes (an Adjudication or its file)."""
    pd = pandas()
    doc = result.document if hasattr(result, "document") else result
    rows = []
    for c in doc["candidates"]:
        for label, rec in c.get("provenance", {}).items():
            rows.append(
                {
                    "candidate": c["id"],
                    "label": label,
                    "rule": rec.get("rule", "-") + (f" ({rec['of']})" if rec.get("of") else ""),
                    "votes": "; ".join(f"{k}: {v}" for k, v in rec.get("votes", {}).items()) or "-",
                }
            )
    return pd.DataFrame(rows, columns=["candidate", "label", "rule", "votes"]).set_index(
        "candidate"
    )


def adjudication_heading(
    results: Sequence[AnswerResult], targets: Sequence[str], folder: str | os.PathLike[str]
) -> str:
    """Where the gold files went and whether they are a gold set, as Markdown."""
    from claimlab.core.text import plural
    from claimlab.notebook.display import md_code

    gold = sum(1 for r in results if r.gold)
    where = (
        md_code(targets[0])
        if len(targets) == 1
        else f"{plural(len(targets), 'file')} in {md_code(folder)}"
    )
    if gold == len(results):
        return f"Written to {where}: **a gold set**, every label settled."
    left = len(results) - gold
    return (
        f"Written to {where}: **not yet gold**: {plural(left, 'answer')} still "
        f"{'holds' if left == 1 else 'hold'} ties under review (below)."
    )


def draft_heading(draft: DecompositionFixture) -> str:
    """The file's note and the original answer, escaped, as Markdown."""
    from claimlab.labs import teaching
    from claimlab.notebook.display import md_code, md_text

    parts = [
        teaching.file_note(draft),
        f"**Original** {md_code(draft.original.id)}: " + md_text(draft.original.text),
    ]
    return "\n\n".join(p for p in parts if p)


def copies_table(space: Workspace) -> pd.DataFrame:
    """The annotator's copies of a folder of drafts, each with how far it is."""
    pd = pandas()
    return pd.DataFrame(space.progress_rows(), columns=["file", "answer", "progress"])


def gold_ledger_heading(
    files: Sequence[DecompositionFixture], gold_dir: str | os.PathLike[str]
) -> str:
    """How many gold files were scored, and whether any still holds proposed labels (Markdown)."""
    from claimlab.core.text import plural
    from claimlab.notebook.display import md_code

    drafts = sum(1 for fx in files if fx.is_draft)
    rest = (
        f"; **{plural(drafts, 'file')} with proposed labels** (not gold)."
        if drafts
        else "; every label confirmed."
    )
    return f"{plural(len(files), 'file')} in {md_code(str(gold_dir))}" + rest
