"""Tables and figures of the context-budget and citations lab (notebook 05)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from claimlab.core.ratio import Ratio
from claimlab.metrics.context_budget import Calibration, ThresholdRow
from claimlab.notebook.display import NO_MATH, pandas, rows_table, show
from claimlab.notebook.style import styled

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.io.context_lab import Chunk, ContextLab
    from claimlab.metrics.citations import CitationReport
    from claimlab.metrics.context_budget import HeldOutCalibration, PackResult


def chunks_table(chunks: Sequence[Chunk], result: PackResult | None = None) -> pd.DataFrame:
    """Chunks with score, rank, tokens and (after packing) kept/dropped with the reason."""
    pd = pandas()

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


def citations_table(reports: Mapping[str, CitationReport]) -> pd.DataFrame:
    """One row per named answer: verdict and the problem codes with explanations."""
    rows = []
    for name, rep in reports.items():
        rows.append(
            {
                "answer": name,
                "verdict": rep.verdict,
                "problems": "; ".join(f"{p.code}: {p.explanation}" for p in rep.problems) or "-",
            }
        )
    return rows_table(rows, ("answer", "verdict", "problems"), index="answer")


def thresholds_table(rows: Sequence[ThresholdRow]) -> pd.DataFrame:
    """Fixed raw thresholds beside the calibrated one: precision, recall, and queries abstained."""
    return rows_table(
        [
            {
                "threshold": r.name,
                "precision": r.precision.display,
                "recall": r.recall.display,
                "queries abstained": f"{len(r.abstained)}/{r.queries}: "
                + (", ".join(r.abstained) or "-"),
            }
            for r in rows
        ],
        ("threshold", "precision", "recall", "queries abstained"),
        index="threshold",
    )


def held_out_table(held: HeldOutCalibration) -> pd.DataFrame:
    """The calibrated threshold on the queries it was chosen on and on held-out ones, with counts."""
    pd = pandas()
    t = held.calibration.threshold
    rows = [
        {
            "queries": f"calibration (chosen here): {len(held.calibration_queries)}",
            "threshold": "none meets the target" if t is None else f"{t:g}",
            "precision": held.calibration.precision.display,
            "recall": held.calibration.recall.display,
        },
        {
            "queries": f"held out (reported here): {len(held.held_out_queries)}",
            "threshold": "-" if t is None else f"{t:g}",
            "precision": held.held_out_precision.display,
            "recall": held.held_out_recall.display,
        },
    ]
    return pd.DataFrame(rows).set_index("queries")


def gate_note(gated: PackResult, best: float | None) -> str:
    """What packing with the calibrated threshold decided, with the counts (Markdown)."""
    from claimlab.notebook.display import md_ids

    t = gated.threshold
    if t is None:
        return "No threshold could be calibrated: **abstain, do not call the model**."
    below = [d.id for d in gated.dropped if "below the threshold" in d.reason]
    head = f"Threshold **{t:g}** (best score here {best:g}): " if best is not None else ""
    if gated.abstain:
        return head + "no chunk reaches it: **abstain, do not call the model**."
    return (
        head
        + f"**go ahead** with {len(gated.kept)} chunk(s) ({md_ids(gated.kept)}); "
        + f"{len(below)} scored below it and are never sent"
        + (f" ({md_ids(below)})." if below else ".")
    )


def score_ranges_table(lab: ContextLab) -> pd.DataFrame:
    """Per evaluation query: the range of raw scores and where its relevant candidates sit."""
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
    return rows_table(
        rows,
        ("query", "score range", "relevant candidates", "lowest relevant score"),
        index="query",
    )


@styled
def plot_packing(result: PackResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Chunks by rank: cumulative tokens as bars (kept filled, dropped hatched), both budgets drawn."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7.2, 3.8))
    kept = set(result.kept)
    total = 0
    limit_t = result.tokens_used.limit
    limit_c = result.chunks_used.limit
    for rank, cid in enumerate(result.ranking, 1):
        t = result.tokens[cid]
        style: dict[str, Any] = (
            {"color": "#55A868"}
            if cid in kept
            else {"facecolor": "white", "edgecolor": "#C44E52", "hatch": "//"}
        )
        ax.bar(rank, t, bottom=total, width=0.7, **style)
        ax.text(rank, total + t / 2, f"{t}", ha="center", va="center", fontsize=8)
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
        [f"#{i}\n{cid.split('#')[-1]}" for i, cid in enumerate(result.ranking, 1)], fontsize=8
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
def _mark_thresholds(ax: Axes, calibrated: float | None, fixed: Sequence[float]) -> None:
    """A line for the calibrated threshold and a dashed one for each fixed threshold."""
    if calibrated is not None:
        ax.axvline(calibrated, color="#55A868", linewidth=2)
        ax.text(
            calibrated, 1.07, f"calibrated {calibrated:g}", ha="center", fontsize=8, color="#55A868"
        )
    for f in fixed:
        ax.axvline(f, color="#777777", linestyle="--", linewidth=1)
        ax.text(f, -0.12, f"fixed {f:g}", ha="center", fontsize=8, color="#555555")


def plot_calibration(
    sweep: Sequence[tuple[float, Ratio, Ratio]],
    calibration: Calibration,
    fixed: Sequence[float] = (),
    *,
    ax: Axes | None = None,
) -> Axes:
    """Precision and recall of 'score >= t' over thresholds; calibrated and fixed thresholds marked.

    ``sweep`` is :func:`claimlab.metrics.context_budget.threshold_sweep`'s rows.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7.2, 3.6))
    ts = [t for t, _, _ in sweep]
    counts = [(p, r) for _, p, r in sweep]
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
                fontsize=8,
                color="#777777",
            )
    _mark_thresholds(ax, calibration.threshold, fixed)
    ax.set_ylim(-0.18, 1.15)
    ax.set_xlabel("relevance threshold (raw retriever score)")
    ax.legend(fontsize=8, loc="lower left", frameon=False)
    ax.set_title(
        f"Threshold calibrated on {calibration.candidates} labelled candidates "
        f"(target precision {calibration.target_precision:g})",
        fontsize=10,
    )
    return ax
