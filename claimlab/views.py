"""Notebook views: tables and figures for one lab step, shown with ``IPython.display``.

Every string that comes from a fixture or a data file reaches HTML escaped: tables go through
pandas (which escapes cell text) and Markdown goes through :func:`md_text` (or
:func:`md_code` for a code span).
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from typing import Any

from claimlab.decomposition import (
    METRIC_LABELS,
    METRICS,
    DecompositionResult,
    explain_mode,
    find_decomposition,
)
from claimlab.fixtures import DecompositionFixture
from claimlab.text import md_code, md_ids, md_text  # noqa: F401  (views.md_* for notebooks)

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


def _pd() -> Any:
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

    from claimlab.plotting import house_style

    fig = ax.figure
    with house_style():
        show(fig)
    plt.close(fig)


def units_table(fixture: DecompositionFixture):
    """The original's units with their UTF-16 spans."""
    pd = _pd()

    return pd.DataFrame(
        [
            {"unit": u.id, "start": u.span.start, "end": u.span.end, "text": u.span.text}
            for u in fixture.units
        ]
    ).set_index("unit")


def candidates_table(fixture: DecompositionFixture):
    """All candidates with their labels (both layers)."""
    pd = _pd()

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
    pd = _pd()

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
    table = pd.DataFrame(rows, columns=columns).set_index(("selection", "#"))
    table.index.name = "#"  # the position in the selection, not a second row number
    return table


def metrics_table(results: dict[str, DecompositionResult]):
    """One row per selection: the four ratios as displays, plus status counts and problems."""
    pd = _pd()

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


def show_decomposition_mode(
    fixture: DecompositionFixture, name: str, selection: Sequence[str] | None = None
) -> DecompositionResult:
    """Show one named selection: explanation, audit table and the four-metric figure."""
    from claimlab.plotting import plot_decomposition

    ids = fixture.mode(name) if selection is None else selection
    result = find_decomposition(fixture, ids)
    show_markdown(
        f"### Mode {md_code(name)}: {md_ids(result.selection)}\n\n" + explain_mode(name, result)
    )
    show(audit_table(result))
    show_figure(plot_decomposition(result, title=f"mode: {name}"))
    return result


# --- sufficiency ---------------------------------------------------------------------------


def evidence_table(fixture):
    """The evidence records with their relation and metadata."""
    pd = _pd()

    return pd.DataFrame(
        [
            {
                "id": e.id,
                "text": e.text,
                "relation": f"{e.subject} —{e.relation}→ {e.object}",
                "status": e.status,
                "current": e.current,
                "topic": e.topic,
            }
            for e in fixture.evidence
        ]
    ).set_index("id")


def branches_table(result):
    """Per alternative: complete?, present, missing premises, link errors."""
    pd = _pd()

    return pd.DataFrame(
        [
            {
                "alternative": "{" + ", ".join(b.alternative) + "}",
                "complete witness": "yes" if b.complete else "no",
                "present": ", ".join(b.present) or "-",
                "missing premises": ", ".join(b.missing) or "-",
                "link errors": "; ".join(e.explanation for e in b.link_errors) or "-",
            }
            for b in result.branches
        ]
    )


def rejected_table(result):
    """Rejected items and unsafe candidates with their reasons (empty frame when none)."""
    pd = _pd()

    rows = [
        {"id": r.id, "kind": "rejected", "reason": r.reason, "detail": r.detail}
        for r in result.rejected
    ]
    rows += [
        {
            "id": u.id,
            "kind": "UNSAFE CANDIDATE (never a witness)",
            "reason": u.reason,
            "detail": u.detail,
        }
        for u in result.unsafe_candidates
    ]
    rows += [
        {
            "id": i,
            "kind": "unknown",
            "reason": "cannot be mapped",
            "detail": "not a record of this fixture",
        }
        for i in result.unknown
    ]
    return pd.DataFrame(rows, columns=["id", "kind", "reason", "detail"])


def show_sufficiency(
    fixture,
    question: str,
    context,
    *,
    ignore_metadata: bool = False,
    heading: str = "",
    note: str = "",
):
    """Show one sufficiency check: heading, status, chain figure, branch and rejection tables."""
    from claimlab.plotting import plot_chains
    from claimlab.sufficiency import find_fixture_sufficiency

    result = find_fixture_sufficiency(
        fixture, question, list(context), ignore_metadata=ignore_metadata
    )
    q = fixture.question(question)
    mode = " · **metadata rules ignored (demo)**" if ignore_metadata else ""
    text = f"### {md_text(heading)}\n\n" if heading else ""
    if note:
        text += md_text(note) + "\n\n"
    text += (
        f"Question {md_code(question)}: {md_text(q.text)} · context {md_ids(context)} "
        f"({result.context_raw} raw, {result.context_unique} unique){mode}\n\n"
        f"**{result.status}**: {md_text(result.explanation)}"
    )
    show_markdown(text)
    show_figure(plot_chains(fixture, question, result))
    show(branches_table(result))
    if result.rejected or result.unsafe_candidates or result.unknown:
        show(rejected_table(result))
    return result


def selective_table(items):
    """Selective-answering items with evidence completeness computed by the witness core."""
    pd = _pd()

    return pd.DataFrame(
        [
            {
                "scenario": i.id,
                "answered": i.answered,
                "correct": "-" if i.correct is None else i.correct,
                "evidence complete": i.evidence_complete,
                "confidence": i.confidence,
                "kind": (
                    "answered with gaps"
                    if i.answered and not i.evidence_complete
                    else "abstained with complete evidence"
                    if not i.answered and i.evidence_complete
                    else "-"
                ),
            }
            for i in items
        ]
    ).set_index("scenario")


def risk_coverage_table(rows):
    """Threshold, answered/total, accuracy and risk on answered, as displays."""
    pd = _pd()

    return pd.DataFrame(
        [
            {
                "threshold": r.threshold,
                "answered / total": r.coverage.display,
                "accuracy on answered": r.accuracy.display,
                "risk on answered": r.risk.display,
            }
            for r in rows
        ]
    ).set_index("threshold")


# --- real data -----------------------------------------------------------------------------


def fever_table(result):
    """The five official figures with their counts."""
    pd = _pd()

    c = result.to_dict()["counts"]

    def na(value):
        return "N/A" if value is None else value

    rows = [
        ("strict score (FEVER score)", result.strict_score, result.strict.display),
        ("label accuracy", result.label_accuracy, result.label.display),
        (
            "evidence precision (macro)",
            result.precision,
            f"mean over {c['verifiable']} verifiable claims",
        ),
        ("evidence recall (macro)", result.recall.value, result.recall.display),
        ("evidence F1", result.f1, "harmonic mean of the two above"),
    ]
    rows = [(name, na(value), counts) for name, value, counts in rows]
    return pd.DataFrame(rows, columns=["figure", "value", "counts"]).set_index("figure")


def show_fever_study(study) -> None:
    """Everything the real-data notebook shows about FEVER, or the reason it is skipped."""
    from claimlab.fever import near_misses
    from claimlab.plotting import plot_count_bars

    if isinstance(study, str):
        show_markdown(f"**Skipped:** {md_text(study)}")
        return
    pd = _pd()

    r = study.result
    show_markdown(
        f"**{len(r.claims)} claims** from {md_code(study.predictions_path.name)} scored against "
        f"{md_code(study.gold_path.name)} (paired by id; first {r.max_evidence} predicted sentences)."
    )
    show(fever_table(r))
    c = r.to_dict()["counts"]
    show_markdown(
        f"Beyond the official figures: **{c['one_sentence_away']} of {c['verifiable']}** verifiable "
        "claims are one predicted sentence away from a complete gold group."
    )
    show(
        pd.DataFrame(
            [
                {
                    "max evidence": k,
                    "strict score": f"{x.strict_score:.4f} ({x.strict.counts})",
                    "recall": x.recall.display,
                    "precision": "N/A" if x.precision is None else f"{x.precision:.4f}",
                }
                for k, x in study.sweep.items()
            ]
        ).set_index("max evidence")
    )
    show_figure(
        plot_count_bars(
            study.group_sizes,
            title="Sentences per gold evidence group",
            xlabel="sentences in the group",
        )
    )
    show_figure(
        plot_count_bars(
            study.alternatives,
            title="Alternative gold groups per verifiable claim",
            xlabel="alternative groups",
        )
    )
    show_figure(
        plot_count_bars(
            study.missing,
            title="Fewest sentences missing from any gold group (0 = witness found)",
            xlabel="missing sentences",
            highlight=1,
        )
    )
    show_markdown("**Near misses**: claims one sentence away from a witness (first five).")
    show(pd.DataFrame(near_misses(r, study.pairs, limit=5)))


def show_wice_study(study) -> None:
    """WiCE through the witness core, or the reason it is skipped."""
    from claimlab.plotting import plot_count_bars

    if isinstance(study, str):
        show_markdown(f"**Skipped:** {md_text(study)}")
        return
    pd = _pd()

    labels = ", ".join(f"{md_text(k)} {v}" for k, v in study.labels.items())
    empty = ", ".join(f"{md_text(k)} {v}" for k, v in study.empty_group_claims.items()) or "none"
    show_markdown(
        f"**{len(study.claims)} WiCE claims** ({labels}). The release lists an **empty supporting "
        f"set** {study.empty_groups} times (claims by label: {empty}); a scorer testing `all(...)` "
        "over an empty set would call those claims fully supported by no sentence. They are left "
        "out here and counted."
    )
    show_figure(
        plot_count_bars(
            study.alternatives,
            title="Alternative supporting sets per claim",
            xlabel="alternative sets",
        )
    )
    show_figure(
        plot_count_bars(
            study.set_sizes, title="Sentences per supporting set", xlabel="sentences in the set"
        )
    )
    show_markdown(
        "Sufficiency when the context is the first *k* sentences of the evidence article:"
    )
    show(pd.DataFrame(study.lead_k).T)


# --- FActScore -----------------------------------------------------------------------------


def factscore_table(results):
    """Rows of FactscoreResult: value, init_score, respond, facts/response, counts, policy, gamma."""
    pd = _pd()

    def pct(v):
        return "N/A" if v is None else f"{100 * v:.1f}"

    rows = []
    for key, r in results.items():
        fpr = r.facts_per_response
        rows.append(
            {
                "subject": key if isinstance(key, str) else " · ".join(map(str, key)),
                "FActScore": pct(r.factscore),
                "init_score": pct(r.init_score),
                "respond": r.respond.display,
                "scored": r.scored,
                "responding without facts": r.undefined,
                "facts/response": "N/A" if fpr is None else f"{fpr:.1f}",
                "supported/facts": f"{r.supported}/{r.facts}",
                "policy": r.policy,
                "gamma": r.gamma,
            }
        )
    return pd.DataFrame(rows).set_index("subject")


def factscore_ledger_table(subjects, ledgers, *, policy: str):
    """One column per subject: FActScore's init_score beside the responses scored as a ledger."""
    from claimlab.factscore import find_factscore

    pd = _pd()
    columns = {}
    for name, corpus in ledgers.items():
        fs = find_factscore(subjects[name], name=name, policy=policy, gamma=0)
        raw = corpus.macro["raw_support"]
        columns[name] = {
            "FActScore init_score": "N/A"
            if fs.init_score is None
            else f"{100 * fs.init_score:.1f}",
            "ledger raw support (macro)": raw.display,
            "ledger raw support (micro)": corpus.micro["raw_support"].display,
            "sentences with a checked fact (coverage, micro)": corpus.micro["coverage"].display,
            "repeated facts": str(corpus.duplicates),
            "responding responses": str(corpus.answers),
        }
    table = pd.DataFrame(columns)
    table.index.name = "measure"
    return table


def show_skip(message: str) -> None:
    """Say that a section is skipped and why."""
    show_markdown(f"**Skipped:** {md_text(message)}")


def estimator_table(checks):
    """One row per flip share: error per subject and whether the ranking is kept."""
    pd = _pd()

    rows = []
    for share, c in checks.items():
        row = {"flipped share (SIMULATED)": share}
        for k, e in c.error.items():
            row[f"error {k}"] = "N/A" if e is None else f"{100 * e:.1f} pts"
        row["human ranking"] = " > ".join(c.human_ranking)
        row["estimated ranking"] = " > ".join(c.estimated_ranking)
        row["ranking kept"] = c.ranking_kept
        rows.append(row)
    return pd.DataFrame(rows).set_index("flipped share (SIMULATED)")


# --- context budget and citations -----------------------------------------------------------


def chunks_table(chunks, result=None):
    """Chunks with score, rank, tokens and (after packing) kept/dropped with the reason."""
    pd = _pd()

    dropped = {d.id: d.reason for d in result.dropped} if result else {}
    ranks = {cid: i for i, cid in enumerate(result.ranking, 1)} if result else {}
    rows = []
    for c in chunks:
        row = {
            "id": c.id,
            "document": c.document,
            "version": c.version,
            "score": c.score,
            "text": c.text,
        }
        if result:
            row["rank"] = ranks[c.id]
            row["tokens"] = result.tokens[c.id]
            row["packed"] = "kept" if c.id in result.kept else "dropped"
            row["reason"] = dropped.get(c.id, "-")
        rows.append(row)
    df = pd.DataFrame(rows).set_index("id")
    return df.sort_values("rank") if result else df


def show_prompt(prompt: str) -> None:
    """Show the rendered prompt as preformatted, escaped text."""
    from IPython.display import HTML

    show(
        HTML(
            f"<pre class='{NO_MATH}' style='white-space: pre-wrap; font-size: 85%'>"
            f"{html.escape(prompt)}</pre>"
        )
    )


def citations_table(reports):
    """One row per named answer: verdict and the problem codes with explanations."""
    pd = _pd()

    rows = []
    for name, rep in reports.items():
        rows.append(
            {
                "answer": name,
                "verdict": rep.verdict,
                "problems": "; ".join(f"{p.code}: {p.explanation}" for p in rep.problems) or "-",
            }
        )
    return pd.DataFrame(rows).set_index("answer")


def thresholds_table(lab, calibration):
    """Fixed raw thresholds beside the calibrated one: precision, recall, and queries abstained."""
    pd = _pd()

    from claimlab.context_budget import threshold_counts

    rows = []
    candidates = [(f"fixed {t:g}", t) for t in lab.fixed_thresholds]
    if calibration.threshold is not None:
        candidates.append((f"calibrated {calibration.threshold:g}", calibration.threshold))
    for name, t in candidates:
        p, r = threshold_counts(lab.calibration_items, t)
        abstained = [q.id for q in lab.queries if not any(s >= t for s, _ in q.candidates)]
        rows.append(
            {
                "threshold": name,
                "precision": p.display,
                "recall": r.display,
                "queries abstained": f"{len(abstained)}/{len(lab.queries)}: "
                + (", ".join(abstained) or "-"),
            }
        )
    return pd.DataFrame(rows).set_index("threshold")


def score_ranges_table(lab):
    """Per evaluation query: the range of raw scores and where its relevant candidates sit."""
    pd = _pd()

    rows = []
    for q in lab.queries:
        scores = [s for s, _ in q.candidates]
        rel = [s for s, r in q.candidates if r]
        rows.append(
            {
                "query": q.id,
                "score range": f"{min(scores):.2f}–{max(scores):.2f}",
                "relevant candidates": len(rel),
                "lowest relevant score": f"{min(rel):.2f}" if rel else "-",
            }
        )
    return pd.DataFrame(rows).set_index("query")


def ledger_table(groups):
    """One column per group: answers, micro and macro displays of the four ratios, status counts.

    Groups are columns (there are few decomposers and many measures), so the table stays narrow
    enough for a printed page.
    """
    pd = _pd()

    from claimlab.ledger import METRIC_NAMES

    columns = {}
    for name, g in groups.items():
        col = {"answers": str(g.answers), "without candidates": str(g.empty_answers)}
        for m in METRIC_NAMES:
            col[f"{m}: micro"] = g.micro[m].display
            col[f"{m}: macro"] = g.macro[m].display
        col["SUPPORTED · CONTRADICTED · NOT_IN_REFERENCE (unique)"] = " · ".join(
            str(g.status_counts[k]) for k in ("SUPPORTED", "CONTRADICTED", "NOT_IN_REFERENCE")
        )
        col["duplicates"] = str(g.duplicates)
        col["missing units"] = str(g.missing_units)
        columns[str(name)] = col
    table = pd.DataFrame(columns)
    table.index.name = "measure"
    return table
