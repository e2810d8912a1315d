"""Tables and figures of the sufficiency lab (notebooks 02 and 07)."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from claimlab.metrics.sufficiency import SufficiencyResult
from claimlab.notebook.display import (
    md_code,
    md_ids,
    md_text,
    pandas,
    show,
    show_figure,
    show_markdown,
)
from claimlab.notebook.style import PRINT_WIDTH_IN, label, plot_grouped_ratios, styled


def evidence_table(fixture: Any) -> Any:
    """The evidence records with their relation and metadata."""
    pd = pandas()

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


def branches_table(result: Any) -> Any:
    """Per alternative: complete?, present, missing premises, link errors."""
    pd = pandas()

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


def rejected_table(result: Any) -> Any:
    """Rejected items and unsafe candidates with their reasons (empty frame when none)."""
    pd = pandas()

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


def findings_table(result: Any) -> Any:
    """What the version 3 rules found: conflicts, unmet conditions, each asked item, what next."""
    pd = pandas()
    rows = []
    for c in result.conflicts:
        values = "; ".join(f"{v} ({', '.join(ids)})" for v, ids in c.values.items())
        about = f"the {c.item} of {c.subject}" if c.item else c.subject
        rows.append({"finding": "CONFLICT", "about": f"{about} {c.relation}", "detail": values})
    for u in result.conditions_unmet:
        rows.append(
            {
                "finding": "condition not met",
                "about": u.id,
                "detail": "only if " + "; ".join(u.conditions),
            }
        )
    for item, a in result.items.items():
        detail = f"{a.value} (from {', '.join(a.by)})" if a.value else (", ".join(a.by) or "-")
        rows.append({"finding": f"asked item: {a.status}", "about": item, "detail": detail})
    for n in result.next_search:
        rows.append(
            {
                "finding": "search next",
                "about": n.missing,
                "detail": f"what {n.subject!r} {n.relation}",
            }
        )
    return pd.DataFrame(rows, columns=["finding", "about", "detail"])


def show_sufficiency(
    fixture: Any,
    question: str,
    context: Any,
    result: SufficiencyResult,
    *,
    ignore_metadata: bool = False,
    heading: str = "",
    note: str = "",
) -> None:
    """Show one sufficiency result: heading, status, chain figure, branch and rejection tables."""
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
    show(findings_table(result))
    if result.rejected or result.unsafe_candidates or result.unknown:
        show(rejected_table(result))


def show_scenarios(fixture: Any, results: dict[str, SufficiencyResult]) -> None:
    """Show every scenario's result (see :func:`claimlab.labs.sufficiency.lesson.scenario_results`)."""
    for name, result in results.items():
        sc = fixture.scenarios[name]
        show_sufficiency(
            fixture,
            sc.question,
            sc.context,
            result,
            ignore_metadata=sc.ignore_metadata,
            heading=name,
            note=sc.note,
        )
    if not results:
        show_markdown("*This file has no scenarios.*")


def selective_table(items: Any) -> Any:
    """Selective-answering items with evidence completeness computed by the witness core."""
    pd = pandas()

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


def risk_coverage_table(rows: Any) -> Any:
    """Threshold, answered/total, accuracy and risk on answered, as displays."""
    pd = pandas()

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


PRESENT: dict[str, Any] = {"facecolor": "#55A868", "edgecolor": "#2d6b3c", "linewidth": 1.2}
CONFLICTING: dict[str, Any] = {
    "facecolor": "#b35900",
    "edgecolor": "#5c2e00",
    "linewidth": 2.0,
    "hatch": "//",
}


MISSING: dict[str, Any] = {
    "facecolor": "white",
    "edgecolor": "#C44E52",
    "linewidth": 1.2,
    "linestyle": "--",
}


@styled
def plot_chains(
    fixture: Any, question: str, result: Any, *, title: str | None = None, ax: Axes | None = None
) -> Axes:
    """One row per alternative: members present (filled), missing (dashed), link errors in red.

    Each box shows the record's id and its relation; a link error is written under its row;
    rejected context items and unsafe candidates are listed under the chains. The figure
    keeps the page's width whatever the chains' length, with every text at 8 pt or more.
    """
    import textwrap

    rows = result.branches
    longest = max((len(b.alternative) for b in rows), default=1)
    step = 1.45 if any(b.link_errors for b in rows) else 1.1
    conflicting = {i for c in result.conflicts for ids in c.values.values() for i in ids}
    notes = _chain_notes(result)
    if ax is None:
        _, ax = plt.subplots(
            figsize=(PRINT_WIDTH_IN, 1.3 + 0.62 * step * len(rows) + 0.22 * len(notes))
        )
    for r, b in enumerate(rows):
        _chain_row(ax, fixture, b, -r * step, conflicting)
    y = -len(rows) * step + 0.35
    for text, color in notes:
        ax.text(-2.2, y, label(text, 90), ha="left", va="center", fontsize=8, color=color)
        y -= 0.4
    ax.set_xlim(-2.3, max(longest, 3) * (_BOX_W + _GAP))
    ax.set_ylim(min(y, -len(rows) * step + 0.6) - 0.1, 0.8)
    ax.axis("off")
    ctx = ", ".join(_context_labels(result))
    heading = title or (
        f"{question}: {result.status} · context {ctx} "
        f"({result.context_raw} raw / {result.context_unique} unique)"
    )
    ax.set_title(textwrap.fill(label(heading, 160), 80), fontsize=10)
    legend = [Patch(**PRESENT, label="in context"), Patch(**MISSING, label="missing premise")]
    if conflicting:
        legend.append(Patch(**CONFLICTING, label="a side of a conflict"))
    ax.legend(
        handles=legend, loc="upper left", bbox_to_anchor=(0.0, 0.0), ncol=2, fontsize=8,
        frameon=False,
    )  # fmt: skip
    return ax


_BOX_W, _BOX_H, _GAP = 3.3, 0.9, 0.6  # a chain member's box, and the arrow between two


def _chain_notes(result: Any) -> list[tuple[str, str]]:
    """The lines under the chains, with their colours.

    Conflicts, unmet conditions, rejected items and unsafe candidates, in that order.
    """
    notes = [
        (
            "⚡ CONFLICT: "
            + f"{c.subject} {c.relation}: "
            + " vs ".join(f"{v} ({', '.join(ids)})" for v, ids in c.values.items()),
            "#b35900",
        )
        for c in result.conflicts
    ]
    notes += [
        (f"◆ {u.id} holds only if {'; '.join(u.conditions)} (not met)", "#6a3d9a")
        for u in result.conditions_unmet
    ]
    notes += [(f"rejected {r.id} ({r.reason})", "#777777") for r in result.rejected]
    notes += [
        (f"⚠ UNSAFE CANDIDATE {u.id}: fails metadata rules, never a witness", "#b8860b")
        for u in result.unsafe_candidates
    ]
    return notes


def _chain_row(ax: Axes, fixture: Any, b: Any, y: float, conflicting: set[str]) -> None:
    """One alternative at height y: its status, a box per member, arrows, its link errors."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    w, h, gap = _BOX_W, _BOX_H, _GAP
    status = "complete\nwitness" if b.complete else f"missing {len(b.missing)}"
    color = "#2d6b3c" if b.complete else "#C44E52"
    ax.text(-0.25, y, status, ha="right", va="center", fontsize=8, color=color)
    for i, m in enumerate(b.alternative):
        x = i * (w + gap)
        e = fixture.item(m)
        style = PRESENT if m in b.present else MISSING
        if m in conflicting and m in b.present:
            style = CONFLICTING
        ax.add_patch(FancyBboxPatch((x, y - h / 2), w, h, boxstyle="round,pad=0.02", **style))
        text = label(m, 18) + (f"\n{label(e.subject, 24)}\n→ {label(e.object, 22)}" if e else "")
        ink = "white" if m in b.present else "#333333"
        ax.text(x + w / 2, y, text, ha="center", va="center", fontsize=8, color=ink)
        if i + 1 < len(b.alternative):
            arrow = FancyArrowPatch(
                (x + w, y), (x + w + gap, y), arrowstyle="-|>", mutation_scale=10, color="#555555"
            )
            ax.add_patch(arrow)
    if b.link_errors:
        msg = "; ".join(
            f"✗ {le.left}→{le.right}: {le.left_end} ≠ {le.right_start}" for le in b.link_errors
        )
        ax.text(
            0, y - h / 2 - 0.12, label(msg, 90), ha="left", va="top", fontsize=8, color="#C44E52"
        )


def _context_labels(result: Any) -> list[str]:
    """Context ids for a caption (unique, in the order given)."""
    return [str(c) for c in result.context] or ["(empty)"]


@styled
def plot_risk_coverage(rows: Any, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Coverage and accuracy on answered per threshold, each bar with n/d; N/A hatched."""
    data = {f"≥ {r.threshold:g}": {"coverage": r.coverage, "accuracy": r.accuracy} for r in rows}
    ax = plot_grouped_ratios(
        data,
        series_labels={"coverage": "answered / total", "accuracy": "accuracy on answered"},
        ax=ax,
        title=title or "Selective answering: coverage and accuracy per confidence threshold",
        xlabel="confidence threshold",
    )
    return ax


def show_round(game: Any, script: Any, *, solver: bool = False) -> tuple[list[Any], dict[str, Any]]:
    """Play ``script`` in ``game`` and show how the round ended; (log, outcome) for the records."""
    from claimlab.labs.play import play_script

    log = play_script(game, script)
    outcome = (
        game.last_submit.to_dict()
        if game.last_submit
        else {
            "won": False,
            "reasons": [{"code": "NOT_SUBMITTED", "message": "the script never submitted"}],
            "witness": None,
            "spent": game.spent,
        }
    )
    reported = " by reporting the conflict" if script and list(script[-1])[-1:] == [True] else ""
    show_markdown(
        f"Round {md_code(game.scenario)}"
        + (" (the solver's round)" if solver else "")
        + f": **{'WON' if outcome['won'] else 'not won'}**{reported} with {outcome['spent']} of "
        + f"{game.budget} units spent, citing {md_ids(outcome['witness'] or [])} · "
        + (
            " · ".join(md_text(r["code"] + ": " + r["message"]) for r in outcome["reasons"])
            or "every rule met"
        )
    )
    return log, outcome
