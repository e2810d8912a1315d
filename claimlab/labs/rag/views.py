"""Tables, figures and terminal lines of the RAG diagnostics lab (notebook 11).

Every figure shows its counts; a query's text, claims and chunks are a file's data and reach a
table only as cell text (escaped by the display floor) and a plot only through
:func:`~claimlab.notebook.style.label`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, cast

from claimlab.core.ratio import percent
from claimlab.metrics.rag import (
    ARROWS,
    GENERATOR,
    OVERALL,
    RAG_METRICS,
    RETRIEVER,
)
from claimlab.notebook.display import pandas, rows_table
from claimlab.notebook.style import plot_grouped_values, styled

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from claimlab.io.ragchecker import JudgedPair, RagQuery
    from claimlab.labs.rag.study import CheckerStudy, MetaStudy, RagStudy
    from claimlab.metrics.meta_eval import LabelAgreement, MetaEvaluation
    from claimlab.metrics.rag import PerQueryRow, RagReport

PARTS = {"overall": OVERALL, "retriever": RETRIEVER, "generator": GENERATOR}


def report_lines(
    report: RagReport,
    *,
    per_query: bool = False,
    table: Sequence[PerQueryRow] | None = None,
) -> Iterator[str]:
    """What ``claimlab rag`` prints: each part's figures, macro and micro, with counts.

    Each metric carries an arrow for its better side (↑ higher, ↓ lower); the worst retriever
    and generator metric (micro, furthest from its best value) is named after its part.
    """
    n = len(report.per_query)
    yield f"{report.file}: {n} queries"
    for part, metrics in PARTS.items():
        yield f"{part}:"
        for m in metrics:
            macro, micro = report.macro[m], report.micro[m]
            left = f"; {macro.undefined} N/A left out" if macro.undefined else ""
            yield (
                f"  {ARROWS[m]} {m:<32} macro {percent(macro.value):>5} (mean of "
                f"{macro.defined} queries{left})   micro {micro.display}"
            )
        if part != "overall":
            worst = report.worst(metrics)
            named = "none defined" if worst is None else f"{worst} {report.micro[worst].display}"
            yield f"  worst {part} metric (micro): {named}"
    if per_query and table is not None:  # --format table: one row per query
        yield from query_table_lines(table)
    elif per_query:
        for q in report.per_query:
            yield f"query {q.query_id}:"
            for m in RAG_METRICS:
                yield f"  {m:<32} {q.figure(m).display}"


# RAGChecker's abbreviations, for a table one line per query
ABBREVIATIONS = {
    "precision": "Prec", "recall": "Rec", "f1": "F1", "claim_recall": "CR",
    "context_precision": "CP", "context_utilization": "CU",
    "noise_sensitivity_in_relevant": "NS(I)", "noise_sensitivity_in_irrelevant": "NS(II)",
    "hallucination": "Hallu", "self_knowledge": "SK", "faithfulness": "Faith",
}  # fmt: skip


def _cell(num: int, den: int) -> str:
    """``66.7% 2/3`` or ``N/A 0/0``: a query's figure with its counts, in a narrow cell."""
    return f"{'N/A' if den == 0 else f'{100 * num / den:.1f}%'} {num}/{den}"


def query_table_lines(records: Sequence[PerQueryRow]) -> Iterator[str]:
    """The per-query rows (:func:`claimlab.metrics.rag.per_query_rows`) as aligned lines.

    One row per query, a column per metric headed by RAGChecker's abbreviation and its better
    side; each cell the figure with its counts (F1 as its whole-number ratio); a legend first.
    """
    yield "per query (" + "; ".join(f"{a} {ARROWS[m]} {m}" for m, a in ABBREVIATIONS.items()) + "):"
    rows = [[str(r["query_id"])]
            + [_cell(_count(r[f"{m}_numerator"]), _count(r[f"{m}_denominator"])) for m in RAG_METRICS]
            for r in records]  # fmt: skip
    head = ["query"] + [f"{ABBREVIATIONS[m]} {ARROWS[m]}" for m in RAG_METRICS]
    widths = [max(len(c) for c in column) for column in zip(head, *rows, strict=True)]
    for row in [head, *rows]:
        yield "  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True)))  # fmt: skip


def _count(value: object) -> int:
    """A row's count (a row's values are typed together)."""
    return cast(int, value)


def per_query_csv(rows: Sequence[PerQueryRow]) -> str:
    """The per-query rows as CSV text, without loading a table library for it.

    The rows are :func:`claimlab.metrics.rag.per_query_rows`'s; the text is the one the table
    writes (a header, one line per query, an N/A value empty).
    """
    import csv
    import io

    from claimlab.metrics.rag import PER_QUERY_COLUMNS

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PER_QUERY_COLUMNS)
    writer.writerows(["" if row[c] is None else row[c] for c in PER_QUERY_COLUMNS] for row in rows)
    return out.getvalue()


METRIC_COLUMNS = (
    "part",
    "metric",
    "macro %",
    "queries (N/A left out)",
    "micro (pooled claims)",
    "in the file",
)
CHUNK_COLUMNS = (
    "chunk",
    "relevant",
    "ground-truth claims it entails",
    "response claims it entails",
    "text",
)
PAIR_COLUMNS = (
    "pair",
    "data set",
    "query",
    "people (1st, 2nd)",
    "checker: 1st response",
    "checker: 2nd response",
)
META_COLUMNS = (
    "label",
    "checker Pearson",
    "checker Spearman",
    "people Pearson",
    "people Spearman",
    "people kappa (quadratic)",
    "gap (Pearson)",
)


def metric_table(report: RagReport) -> pd.DataFrame:
    """Every metric: the macro mean (queries used, left out), the micro figure, the file's own."""
    rows = []
    for part, metrics in PARTS.items():
        for m in metrics:
            macro = report.macro[m]
            published = report.published.get(m)
            rows.append(
                {
                    "part": part,
                    "metric": m,
                    "macro %": percent(macro.value),
                    "queries (N/A left out)": f"{macro.defined} ({macro.undefined})",
                    "micro (pooled claims)": report.micro[m].display,
                    "in the file": "-" if published is None else f"{published:.1f}",
                }
            )
    return pandas().DataFrame(rows, columns=list(METRIC_COLUMNS)).set_index(["part", "metric"])


def per_query_table(report: RagReport) -> pd.DataFrame:
    """One row per query, one column per metric, each with its counts."""
    rows = [
        {"query": q.query_id, **{m: q.figure(m).display for m in RAG_METRICS}}
        for q in report.per_query
    ]
    return rows_table(rows, ["query", *RAG_METRICS], index="query")


SHORT = {
    "noise_sensitivity_in_relevant": "noise: relevant chunks",
    "noise_sensitivity_in_irrelevant": "noise: irrelevant chunks",
    "context_utilization": "context utilisation",
}


def _short(metric: str) -> str:
    return SHORT.get(metric, metric.replace("_", " "))


@styled
def plot_part(report: RagReport, part: str, *, title: str | None = None) -> Axes:
    """One part's metrics (overall, retriever or generator): macro and micro bars with counts."""
    rows = {}
    for m in PARTS[part]:
        macro, micro = report.macro[m], report.micro[m]
        queries = f"mean of {macro.defined} queries" + (
            f", {macro.undefined} N/A" if macro.undefined else ""
        )
        rows[_short(m)] = {
            "macro": (macro.value, f"{percent(macro.value)}% ({queries})"),
            "micro": (micro.value, f"{percent(micro.value)}% ({micro.counts})"),
        }
    return plot_grouped_values(
        rows,
        series_labels={"macro": "macro (mean over queries)", "micro": "micro (pooled claims)"},
        title=title or f"{part}: macro and micro, with counts",
    )


def claim_table(query: RagQuery, *, side: str = "response") -> pd.DataFrame:
    """A query's claims, one row each: correct (or recalled) and which chunks entail it."""
    pd = pandas()
    if side == "response":
        claims, verdicts, matrix, what = (
            query.response_claims,
            query.correct,
            query.chunk_response,
            "correct",
        )
    else:
        claims, verdicts, matrix, what = (
            query.answer_claims,
            query.recalled,
            query.chunk_answer,
            "in the response",
        )
    names = [doc for doc, _ in query.chunks]
    rows = [
        {
            "claim": text,
            what: "yes" if ok else "no",
            "entailed by chunks": ", ".join(names[j] for j, v in enumerate(row) if v) or "none",
        }
        for text, ok, row in zip(claims, verdicts, matrix, strict=True)
    ]
    return pd.DataFrame(
        rows,
        columns=["claim", what, "entailed by chunks"],
        index=pd.RangeIndex(1, len(rows) + 1, name="#"),
    )


def chunk_table(query: RagQuery) -> pd.DataFrame:
    """A query's chunks: relevant (entails a ground-truth claim) or not, and how many claims each entails.

    A query with no retrieved chunk gives the table's header and no row.
    """
    rows = []
    for j, (doc, text) in enumerate(query.chunks):
        gt = sum(row[j] for row in query.chunk_answer)
        resp = sum(row[j] for row in query.chunk_response)
        rows.append(
            {
                "chunk": doc,
                "relevant": "yes" if gt else "no",
                "ground-truth claims it entails": gt,
                "response claims it entails": resp,
                "text": text,
            }
        )
    return rows_table(rows, CHUNK_COLUMNS, index="chunk")


def meta_lines(result: MetaEvaluation, *, checker: str) -> Iterator[str]:
    """What ``claimlab meta-eval`` prints: per label, checker and people, with intervals."""
    pct = round(100 * result.level)
    counted = f"{result.instances} response pairs, {result.judgments} judgments"
    if result.resamples:
        yield (
            f"{counted}; {pct}% intervals from {result.resamples} resamples of response pairs "
            f"(seed {result.seed})"
        )
    else:
        yield f"{counted}; not resampled: no intervals"
    for label, a in result.labels.items():
        kappa = "N/A" if a.human_kappa is None else f"{a.human_kappa:.3f}"
        yield f"{label}:"
        yield f"  {checker} vs people   Pearson {a.pearson.display}   Spearman {a.spearman.display}"
        yield f"  people vs people   Pearson {a.human_pearson.display}   Spearman {a.human_spearman.display}"
        yield f"  people's quadratic-weighted kappa {kappa}; the checker is {below_verdict(a)}"
        figures = (a.pearson, a.spearman, a.human_pearson, a.human_spearman)
        for why in dict.fromkeys(c.reason for c in figures if c.reason):
            yield f"  no interval: {why}"
        if a.filled:
            yield f"  {a.filled} pairs without a score took the median difference"


def below_verdict(agreement: LabelAgreement) -> str:
    """Whether the checker is significantly below the people, undecided where no interval says."""
    below = agreement.below_people
    yes = [k for k, v in below.items() if v]
    unknown = [k for k, v in below.items() if v is None]
    parts = []
    if yes:
        parts.append(f"significantly below the people's own agreement ({', '.join(yes)})")
    if unknown:
        parts.append(
            f"undecided against the people's own agreement ({', '.join(unknown)}: no interval)"
        )
    return "; ".join(parts) or "not significantly below the people's own agreement"


def meta_table(result: MetaEvaluation) -> pd.DataFrame:
    """Per label: checker vs people and people vs people, each with its interval."""
    rows = []
    for label, a in result.labels.items():
        rows.append(
            {
                "label": label,
                "checker Pearson": a.pearson.display,
                "checker Spearman": a.spearman.display,
                "people Pearson": a.human_pearson.display,
                "people Spearman": a.human_spearman.display,
                "people kappa (quadratic)": "N/A"
                if a.human_kappa is None
                else f"{a.human_kappa:.3f}",
                "gap (Pearson)": a.gap_pearson.display,
            }
        )
    return rows_table(rows, META_COLUMNS, index="label")


def pairs_table(
    pairs: Sequence[JudgedPair], *, label: str = "overall_label", limit: int = 8
) -> pd.DataFrame:
    """The first response pairs: data set, query, both people's judgments, the checker's scores."""
    rows = []
    for p in pairs[:limit]:
        one, two = p.checker[label]
        rows.append(
            {
                "pair": p.instance_id,
                "data set": p.dataset,
                "query": p.query,
                "people (1st, 2nd)": f"{p.people[label][0]:+d}, {p.people[label][1]:+d}",
                "checker: 1st response": "N/A" if one is None else f"{one:.3f}",
                "checker: 2nd response": "N/A" if two is None else f"{two:.3f}",
            }
        )
    return rows_table(rows, PAIR_COLUMNS, index="pair")


@styled
def plot_preferences(pairs: Sequence[JudgedPair], *, label: str = "overall_label") -> Axes:
    """The checker's score difference (2nd - 1st response) against each person's judgment."""
    import matplotlib.pyplot as plt
    import numpy as np

    from claimlab.notebook.style import PRINT_WIDTH_IN

    _, ax = plt.subplots(figsize=(PRINT_WIDTH_IN, 3.0))
    by_judgment: dict[int, list[float]] = {v: [] for v in range(-2, 3)}
    for p in pairs:
        one, two = p.checker[label]
        if one is None or two is None:
            continue
        for judged in p.people[label]:
            by_judgment[judged].append(two - one)
    keys = sorted(by_judgment)
    ax.boxplot([by_judgment[k] or [np.nan] for k in keys], positions=range(len(keys)))
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{k:+d}\n(n={len(by_judgment[k])})" for k in keys])
    ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel("a person's judgment: how much better the 2nd response is")
    ax.set_ylabel("checker: 2nd - 1st score")
    ax.set_title(f"{label}: the checker's differences by people's judgments (counts below)")
    return ax


def show_metrics(study: RagStudy | str) -> None:
    """The eleven metrics as a table and one figure per part, or why the section is skipped."""
    from claimlab.notebook.display import md_code, show, show_figure, show_markdown, show_skip

    if isinstance(study, str):
        show_skip(study)
        return
    report = study.report
    show_markdown(
        f"**{len(report.per_query)} queries** from {md_code(report.file)}; the file's own overall "
        "figures (percent, as RAGChecker prints them) beside claimlab's."
    )
    show(metric_table(report))
    for part in PARTS:
        show_figure(plot_part(report, part))


def show_walkthrough(study: RagStudy | str, *, limit: int) -> None:
    """The first ``limit`` queries claim by claim: which chunk entails which claim."""
    from claimlab.notebook.display import md_text, show, show_markdown

    if isinstance(study, str):
        return
    figures = {f.query_id: f for f in study.report.per_query}
    for q in study.checking.queries[:limit]:
        show_markdown(f"### Query {md_text(q.query_id)}: {md_text(q.query)}")
        show_markdown("**The response's claims** (correct: the ground-truth answer entails it)")
        show(claim_table(q, side="response"))
        show_markdown("**The ground-truth answer's claims** (in the response: it entails them)")
        show(claim_table(q, side="answer"))
        if not q.chunks:
            show_markdown("**No chunk was retrieved for this query**: no claim is entailed by one.")
        show(chunk_table(q))
        f = figures[q.query_id]
        show_markdown(" · ".join(f"{m} {f.figure(m).display}" for m in RAG_METRICS))


def show_meta(meta: MetaStudy | str, *, label: str) -> None:
    """The response pairs, the people's preferences and the checker's agreement with them."""
    from claimlab.notebook.display import show, show_figure, show_markdown, show_skip

    if isinstance(meta, str):
        show_skip(meta)
        return
    r = meta.result
    show_markdown(
        f"**{r.instances} response pairs**, {r.judgments} judgments (two people per pair); "
        f"{round(100 * r.level)}% intervals from {r.resamples} resamples of response pairs."
    )
    show(pairs_table(meta.pairs, label=label))
    show(meta_table(r))
    show_figure(plot_preferences(meta.pairs, label=label))


def agreement_table(study: CheckerStudy) -> pd.DataFrame:
    """Per label set: the checker's agreement with the file's labels (counts), kappa, left out."""
    rows = [
        {
            "label set": name,
            "agreement": a.agreement.display,
            "Cohen's kappa": a.kappa.display,
            "left out (one side unlabelled)": a.left_out,
        }
        for name, a in study.agreement.sets.items()
    ]
    columns = ["label set", "agreement", "Cohen's kappa", "left out (one side unlabelled)"]
    return rows_table(rows, columns, index="label set")


def error_table(study: CheckerStudy) -> pd.DataFrame:
    """Every micro figure from the file's labels and from the checker's, and the difference."""
    rows = []
    for m in RAG_METRICS:
        mine, theirs = study.on_checker.micro[m], study.on_file.micro[m]
        gap = (
            "N/A"
            if mine.value is None or theirs.value is None
            else f"{100 * (mine.value - theirs.value):+.1f} points"
        )
        rows.append(
            {"metric": m, "file's labels": theirs.display, "checker's": mine.display, "error": gap}
        )
    return rows_table(rows, ["metric", "file's labels", "checker's", "error"], index="metric")


def confusion_table(study: CheckerStudy, label_set: str) -> pd.DataFrame:
    """One set's confusion table: the file's label (rows) against the checker's (columns)."""
    table = study.agreement.sets[label_set].confusion
    labels = sorted({*table, *(c for row in table.values() for c in row)})
    rows = [{"file's label": p, **{c: table.get(p, {}).get(c, 0) for c in labels}} for p in labels]
    return rows_table(rows, ["file's label", *labels], index="file's label")


def show_checker(study: CheckerStudy | str) -> None:
    """A checker against the file's labels: agreement per set, confusion, each figure's error."""
    from claimlab.notebook.display import md_text, show, show_markdown, show_skip

    if isinstance(study, str):
        show_skip(study)
        return
    run = study.checker
    show_markdown(
        f"Checker **{md_text(run['name'])}** (version {md_text(run['version'] or '-')}): "
        f"{run['calls']} calls. Its labels against the ones the file carries, set by set:"
    )
    show(agreement_table(study))
    show_markdown("Where they differ, on the response's claims against the ground-truth answer:")
    show(confusion_table(study, "answer2response"))
    show_markdown("Each figure scored from the file's labels and from the checker's (micro):")
    show(error_table(study))
