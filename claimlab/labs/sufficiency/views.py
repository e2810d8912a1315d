"""Tables and figures of the sufficiency lab (notebooks 02 and 07)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from claimlab.labs.sufficiency.explain import (
    explanation,
    link_text,
    reason_word,
    rejection_detail,
    word,
)
from claimlab.metrics.sufficiency import SufficiencyResult
from claimlab.notebook.display import (
    md_code,
    md_ids,
    md_text,
    pandas,
    rows_table,
    show,
    show_figure,
    show_markdown,
)
from claimlab.notebook.style import PRINT_WIDTH_IN, label, plot_grouped_ratios, styled

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.io.sufficiency import SufficiencyFixture
    from claimlab.labs.sufficiency.game import SufficiencyGame
    from claimlab.metrics.selective import RiskCoverageRow, SelectiveItem, SelectiveResult
    from claimlab.metrics.sufficiency import Branch, Rejection

EVIDENCE_COLUMNS = ("id", "text", "relation", "status", "current", "topic")


def _columns(keys: tuple[str, ...], language: str) -> tuple[str, ...]:
    """Column headers in ``language``; a key the catalogues do not hold is its own header."""
    return tuple(word(f"col.{k}", language) for k in keys)


def evidence_table(fixture: SufficiencyFixture, *, language: str = "en") -> pd.DataFrame:
    """The evidence records with their relation and metadata."""
    columns = _columns(EVIDENCE_COLUMNS, language)
    rows = [
        dict(
            zip(
                columns,
                (
                    e.id,
                    e.text,
                    f"{e.subject} —{e.relation}→ {e.object}",
                    e.status,
                    e.current,
                    e.topic,
                ),
                strict=True,
            )
        )
        for e in fixture.evidence
    ]
    return rows_table(rows, columns, index=columns[0])


BRANCH_COLUMNS = ("alternative", "complete_witness", "present", "missing_premises", "link_errors")


def branches_table(result: SufficiencyResult, *, language: str = "en") -> pd.DataFrame:
    """Per alternative: complete?, present, missing premises, link errors."""
    pd = pandas()
    columns = _columns(BRANCH_COLUMNS, language)

    def cells(b: Branch) -> tuple[str, ...]:
        return (
            "{" + ", ".join(b.alternative) + "}",
            word("cell.yes" if b.complete else "cell.no", language),
            ", ".join(b.present) or "-",
            ", ".join(b.missing) or "-",
            "; ".join(link_text(e, language) for e in b.link_errors) or "-",
        )

    return pd.DataFrame([dict(zip(columns, cells(b), strict=True)) for b in result.branches])


def rejected_table(
    result: SufficiencyResult,
    *,
    fixture: SufficiencyFixture | None = None,
    question: str = "",
    language: str = "en",
) -> pd.DataFrame:
    """Rejected items and unsafe candidates with their reasons (empty frame when none).

    With the ``fixture`` and ``question`` checked, each detail is worded in ``language``.
    """
    pd = pandas()
    columns = _columns(("id", "kind", "reason", "detail"), language)

    def row(r: Rejection, kind: str) -> dict[str, str]:
        detail = rejection_detail(r, fixture, question, language)
        cells = (r.id, word(kind, language), reason_word(r.reason, language), detail)
        return dict(zip(columns, cells, strict=True))

    rows = [row(r, "cell.rejected") for r in result.rejected]
    rows += [row(u, "cell.unsafe") for u in result.unsafe_candidates]
    unknown = [word(k, language) for k in ("cell.unknown", "cell.cannot_map", "cell.not_a_record")]
    rows += [dict(zip(columns, (i, *unknown), strict=True)) for i in result.unknown]
    return pd.DataFrame(rows, columns=list(columns))


def findings_table(result: SufficiencyResult, *, language: str = "en") -> pd.DataFrame:
    """What the version 3 rules found: conflicts, unmet conditions, each asked item, what next."""
    pd = pandas()
    columns = _columns(("finding", "about", "detail"), language)
    rows: list[tuple[str, str, str]] = []
    for c in result.conflicts:
        values = "; ".join(f"{v} ({', '.join(ids)})" for v, ids in c.values.items())
        of = {"item": c.item, "subject": c.subject}
        about = word("conflict.of", language, of) if c.item else c.subject
        rows.append(("CONFLICT", f"{about} {c.relation}", values))
    for u in result.conditions_unmet:
        only = word("cell.only_if", language, {"conditions": "; ".join(u.conditions)})
        rows.append((word("cell.condition_not_met", language), u.id, only))
    for item, a in result.items.items():
        by = ", ".join(a.by)
        detail = (
            word("cell.value_from", language, {"value": a.value, "ids": by})
            if a.value
            else (by or "-")
        )
        rows.append((word("cell.asked_item", language, {"status": a.status}), item, detail))
    for n in result.next_search:
        what = word("cell.what", language, {"subject": repr(n.subject), "relation": n.relation})
        rows.append((word("cell.search_next", language), n.missing, what))
    return pd.DataFrame([dict(zip(columns, r, strict=True)) for r in rows], columns=list(columns))


def show_sufficiency(
    fixture: SufficiencyFixture,
    question: str,
    context: Sequence[str],
    result: SufficiencyResult,
    *,
    ignore_metadata: bool = False,
    heading: str = "",
    note: str = "",
    language: str = "en",
) -> None:
    """Show one sufficiency result: heading, status, chain figure, branch and rejection tables."""
    q = fixture.question(question)
    values = {
        "question": md_code(question),
        "text": md_text(q.text),
        "context": md_ids(context),
        "raw": result.context_raw,
        "unique": result.context_unique,
        "mode": word("check.ignored", language) if ignore_metadata else "",
    }
    text = f"### {md_text(heading)}\n\n" if heading else ""
    if note:
        text += md_text(note) + "\n\n"
    text += (
        word("check", language, values)
        + f"\n\n**{result.status}**: {md_text(explanation(result, language))}"
    )
    show_markdown(text)
    show_figure(plot_chains(fixture, question, result, language=language))
    show(branches_table(result, language=language))
    show(findings_table(result, language=language))
    if result.rejected or result.unsafe_candidates or result.unknown:
        show(rejected_table(result, fixture=fixture, question=question, language=language))


def show_scenarios(
    fixture: SufficiencyFixture, results: dict[str, SufficiencyResult], *, language: str = "en"
) -> None:
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
            language=language,
        )
    if not results:
        show_markdown(word("no_scenarios", language))


SELECTIVE_COLUMNS = (
    "scenario", "answered", "correct", "evidence complete", "confidence", "kind",
)  # fmt: skip
RISK_COLUMNS = ("threshold", "answered / total", "accuracy on answered", "risk on answered")
_SELECTIVE_KEYS = (
    "scenario", "answered", "correct", "evidence_complete", "confidence", "kind",
)  # fmt: skip
_RISK_KEYS = ("threshold", "answered_total", "accuracy", "risk")


def selective_table(items: Iterable[SelectiveItem], *, language: str = "en") -> pd.DataFrame:
    """Selective-answering items with evidence completeness computed by the witness core.

    A file with no scenario gives the table's header and no row.
    """
    columns = _columns(_SELECTIVE_KEYS, language)

    def kind(i: SelectiveItem) -> str:
        if i.answered and not i.evidence_complete:
            return word("cell.with_gaps", language)
        if not i.answered and i.evidence_complete:
            return word("cell.abstained", language)
        return "-"

    rows = [
        dict(
            zip(
                columns,
                (
                    i.id,
                    i.answered,
                    "-" if i.correct is None else i.correct,
                    i.evidence_complete,
                    i.confidence,
                    kind(i),
                ),
                strict=True,
            )
        )
        for i in items
    ]
    return rows_table(rows, columns, index=columns[0])


def selective_summary(selective: SelectiveResult, *, language: str = "en") -> str:
    """Accuracy on answered next to answered/total, and the two mismatches' ids, as Markdown."""
    values = {
        "accuracy": selective.accuracy,
        "coverage": selective.coverage,
        "gaps": md_ids(selective.answered_with_gaps),
        "abstained": md_ids(selective.abstained_with_complete_evidence),
    }
    return word("selective", language, values)


def risk_coverage_table(rows: Iterable[RiskCoverageRow], *, language: str = "en") -> pd.DataFrame:
    """Threshold, answered/total, accuracy and risk on answered, as displays (header when empty)."""
    columns = _columns(_RISK_KEYS, language)
    table = [
        dict(
            zip(
                columns,
                (r.threshold, r.coverage.display, r.accuracy.display, r.risk.display),
                strict=True,
            )
        )
        for r in rows
    ]
    return rows_table(table, columns, index=columns[0])


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
    fixture: SufficiencyFixture,
    question: str,
    result: SufficiencyResult,
    *,
    title: str | None = None,
    ax: Axes | None = None,
    language: str = "en",
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
    notes = _chain_notes(result, language)
    if ax is None:
        _, ax = plt.subplots(
            figsize=(PRINT_WIDTH_IN, 1.3 + 0.62 * step * len(rows) + 0.22 * len(notes))
        )
    for r, b in enumerate(rows):
        _chain_row(ax, fixture, b, -r * step, conflicting, language)
    y = -len(rows) * step + 0.35
    for text, color in notes:
        ax.text(-2.2, y, label(text, 90), ha="left", va="center", fontsize=8, color=color)
        y -= 0.4
    ax.set_xlim(-2.3, max(longest, 3) * (_BOX_W + _GAP))
    ax.set_ylim(min(y, -len(rows) * step + 0.6) - 0.1, 0.8)
    ax.axis("off")
    values = {
        "question": question,
        "status": result.status,
        "context": ", ".join(str(c) for c in result.context) or word("cell.empty", language),
        "raw": result.context_raw,
        "unique": result.context_unique,
    }
    heading = title or word("plot.chains", language, values)
    ax.set_title(textwrap.fill(label(heading, 160), 80), fontsize=10)
    legend = [
        Patch(**PRESENT, label=word("plot.in_context", language)),
        Patch(**MISSING, label=word("plot.missing_premise", language)),
    ]
    if conflicting:
        legend.append(Patch(**CONFLICTING, label=word("plot.conflict_side", language)))
    ax.legend(
        handles=legend, loc="upper left", bbox_to_anchor=(0.0, 0.0), ncol=2, fontsize=8,
        frameon=False,
    )  # fmt: skip
    return ax


_BOX_W, _BOX_H, _GAP = 3.3, 0.9, 0.6  # a chain member's box, and the arrow between two


def _chain_notes(result: SufficiencyResult, language: str = "en") -> list[tuple[str, str]]:
    """The lines under the chains, with their colours.

    Conflicts, unmet conditions, rejected items and unsafe candidates, in that order.
    """
    vs = word("plot.vs", language)
    notes = [
        (
            "⚡ CONFLICT: "
            + f"{c.subject} {c.relation}: "
            + vs.join(f"{v} ({', '.join(ids)})" for v, ids in c.values.items()),
            "#b35900",
        )
        for c in result.conflicts
    ]
    notes += [
        (
            word("plot.unmet", language, {"id": u.id, "conditions": "; ".join(u.conditions)}),
            "#6a3d9a",
        )
        for u in result.conditions_unmet
    ]
    notes += [
        (
            word(
                "plot.rejected", language, {"id": r.id, "reason": reason_word(r.reason, language)}
            ),
            "#777777",
        )
        for r in result.rejected
    ]
    notes += [
        (word("plot.unsafe", language, {"id": u.id}), "#b8860b") for u in result.unsafe_candidates
    ]
    return notes


def _chain_row(
    ax: Axes,
    fixture: SufficiencyFixture,
    b: Branch,
    y: float,
    conflicting: set[str],
    language: str = "en",
) -> None:
    """One alternative at height y: its status, a box per member, arrows, its link errors."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    w, h, gap = _BOX_W, _BOX_H, _GAP
    status = (
        word("plot.complete", language)
        if b.complete
        else word("plot.missing", language, {"n": len(b.missing)})
    )
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


@styled
def plot_risk_coverage(
    rows: Iterable[RiskCoverageRow],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    language: str = "en",
) -> Axes:
    """Coverage and accuracy on answered per threshold, each bar with n/d; N/A hatched."""
    data = {f"≥ {r.threshold:g}": {"coverage": r.coverage, "accuracy": r.accuracy} for r in rows}
    ax = plot_grouped_ratios(
        data,
        series_labels={
            "coverage": word("col.answered_total", language),
            "accuracy": word("col.accuracy", language),
        },
        ax=ax,
        title=title or word("plot.risk_title", language),
        xlabel=word("plot.threshold", language),
    )
    return ax


def show_round(
    game: SufficiencyGame,
    script: Sequence[Sequence[object]],
    *,
    solver: bool = False,
    language: str = "en",
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play ``script`` in ``game`` and show how the round ended; (log, outcome) for the records."""
    from claimlab.labs.play import play_script

    log = play_script(game, script)
    outcome: dict[str, Any] = (
        game.last_submit.to_dict()
        if game.last_submit
        else {
            "won": False,
            "reasons": [{"code": "NOT_SUBMITTED", "message": "the script never submitted"}],
            "witness": None,
            "spent": game.spent,
        }
    )
    reported = script and list(script[-1])[-1:] == [True]
    reasons = " · ".join(md_text(r["code"] + ": " + r["message"]) for r in outcome["reasons"])
    values = {
        "name": md_code(game.scenario),
        "solver": word("round.solver", language) if solver else "",
        "verdict": word("round.won" if outcome["won"] else "round.not_won", language),
        "reported": word("round.reported", language) if reported else "",
        "spent": outcome["spent"],
        "budget": game.budget,
        "ids": md_ids(outcome["witness"] or []),
        "reasons": reasons or word("round.all_met", language),
    }
    show_markdown(word("round", language, values))
    return log, outcome
