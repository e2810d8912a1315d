"""Tables and figures of the decomposition lab (notebooks 01 and 06)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from claimlab.core.vocab import status_line
from claimlab.io.decomposition import DecompositionFixture
from claimlab.labs.decomposition.explain import explain_mode
from claimlab.metrics.decomposition import (
    METRIC_LABELS,
    METRICS,
    DecompositionResult,
)
from claimlab.notebook.display import (
    md_code,
    md_ids,
    pandas,
    rows_table,
    show,
    show_figure,
    show_markdown,
)
from claimlab.notebook.style import NA_STYLE, label, plot_grouped_ratios, plot_ratios, styled

_SPAN = re.compile(r"\d+\.\.\d+")  # the offsets of a span: its text is in the row already


def units_table(fixture: DecompositionFixture) -> Any:
    """The original's units with their UTF-16 spans."""
    pd = pandas()

    return pd.DataFrame(
        [
            {"unit": u.id, "start": u.span.start, "end": u.span.end, "text": u.span.text}
            for u in fixture.units
        ],
        columns=["unit", "start", "end", "text"],
    ).set_index("unit")


def candidates_table(fixture: DecompositionFixture) -> Any:
    """All candidates with their labels (both layers)."""
    pd = pandas()

    rows = []
    draft = fixture.is_draft
    for c in fixture.candidates:
        row: dict[str, object] = {
            "id": c.id,
            "text": c.text,
            "preserves": ", ".join(c.preserves) or "-",
            "faithful": c.faithful,
            "atomic": c.atomic,
            "errors": ", ".join(c.errors) or "-",
            "status": c.evidence.status,
            "references": ", ".join(c.evidence.references) or "-",
        }
        if draft:
            row["proposed (not confirmed)"] = ", ".join(c.review) or "-"
        rows.append(row)
    if not rows:
        return pd.DataFrame(columns=["id", "text"]).set_index("id")
    return pd.DataFrame(rows).set_index("id")


def audit_table(result: DecompositionResult) -> Any:
    """The audit rows with the two layers under separate column headings."""
    pd = pandas()

    columns = pd.MultiIndex.from_tuples(
        [
            ("selection", "#"),
            ("selection", "id"),
            ("selection", "text"),
            ("selection", "counted"),
            ("original → subclaim", "spans (UTF-16)"),
            ("original → subclaim", "preserves"),
            ("original → subclaim", "faithful"),
            ("original → subclaim", "atomic"),
            ("original → subclaim", "errors"),
            ("reference → subclaim", "status"),
            ("reference → subclaim", "references"),
            *([("draft", "proposed")] if result.proposed else []),
        ]
    )
    rows = [
        [
            r.position,
            r.id,
            r.text,
            "yes" if r.counted else f"no ({r.reason})",
            "; ".join(_SPAN.findall(r.source_spans)) or r.source_spans,
            ", ".join(
                f"{u} (not backed: not counted)" if u in r.unbacked else u for u in r.preserves
            )
            or "-",
            r.faithful,
            r.atomic,
            ", ".join(r.errors) or "-",
            r.status,
            ", ".join(r.references) or "-",
            *([", ".join(result.proposed.get(r.id, ())) or "-"] if result.proposed else []),
        ]
        for r in result.audit
    ]
    table = pd.DataFrame(rows, columns=columns).set_index(("selection", "#"))
    table.index.name = "#"  # the position in the selection, not a second row number
    return table


def metrics_table(results: dict[str, DecompositionResult]) -> Any:
    """One row per selection: the four ratios as displays and the status counts beside them."""
    pd = pandas()

    rows = []
    for name, r in results.items():
        row: dict[str, object] = {"selection": name}
        row.update({METRIC_LABELS[m]: getattr(r, m).display for m in METRICS})
        row["CONTRADICTED"] = r.status_counts["CONTRADICTED"]
        row["NOT_IN_REFERENCE"] = r.status_counts["NOT_IN_REFERENCE"]
        if any(not x.gold for x in results.values()):
            row["labels"] = (
                "gold"
                if r.gold
                else f"DRAFT: {len(r.proposed)} candidates, {len(r.proposed_units)} units proposed"
            )
        rows.append(row)
    return pd.DataFrame(rows).set_index("selection")


def findings_table(results: dict[str, DecompositionResult]) -> Any:
    """One row per selection: what it holds, and the units it misses and the duplicates it repeats."""
    return rows_table(
        [
            {
                "selection": name,
                "candidates": ", ".join(r.selection) or "(empty)",
                "missing units": ", ".join(r.missing_units) or "-",
                "duplicates": ", ".join(r.duplicates) or "-",
                "errors": ", ".join(f"{k} {', '.join(v)}" for k, v in r.error_ids.items() if v)
                or "-",
            }
            for name, r in results.items()
        ],
        ("selection", "candidates", "missing units", "duplicates", "errors"),
        index="selection",
    )


def show_decomposition_mode(name: str, result: DecompositionResult) -> None:
    """Show one named selection's result: explanation, audit table and the four-metric figure."""
    show_markdown(
        f"### Mode {md_code(name)}: {md_ids(result.selection)}\n\n" + explain_mode(name, result)
    )
    show(audit_table(result))
    show_figure(plot_decomposition(result, title=f"mode: {name}"))


@styled
def plot_decomposition(result: Any, *, title: str | None = None, ax: Axes | None = None) -> Axes:
    """The four Toy metrics of one selection, with CONTRADICTED / NOT_IN_REFERENCE beside support."""
    note = f"status over the unique selection: {status_line(result.status_counts)}"
    labels = {k: v.replace("Toy ", "Toy\n") for k, v in METRIC_LABELS.items()}
    return plot_ratios(result.ratios(), labels=labels, ax=ax, title=title, note=note)


@styled
def plot_mode_comparison(results: Mapping[str, Any], *, title: str | None = None) -> Axes:
    """All selections side by side: four metrics per mode, n/d on every bar."""
    rows = {name: r.ratios() for name, r in results.items()}
    notes = {
        name: f"CON {r.status_counts['CONTRADICTED']} · NIR {r.status_counts['NOT_IN_REFERENCE']}"
        for name, r in results.items()
    }
    return plot_grouped_ratios(
        rows,
        series_labels=METRIC_LABELS,
        title=title,
        row_notes=notes,
        xlabel="CON = CONTRADICTED, NIR = NOT_IN_REFERENCE (unique selection)",
    )


def papers_table(results: dict[str, DecompositionResult], selections: dict[str, Any]) -> Any:
    """Per selection: DecompScore (a count), atomicity, and what Core-style selection does."""
    rows = []
    for name, r in results.items():
        s = selections[name]
        rows.append(
            {
                "selection": name,
                "DecompScore (count)": r.decompscore,
                "coverage": r.coverage.display,
                "coherence (= Toy Preservation)": r.preservation.display,
                "atomicity": r.atomicity.display,
                "Core keeps": ", ".join(s.kept) or "-",
                "Core drops (why)": "; ".join(f"{c}: {why}" for c, why in s.dropped) or "-",
                "coverage after Core": s.coverage_after.display,
            }
        )
    return rows_table(
        rows,
        (
            "selection",
            "DecompScore (count)",
            "coverage",
            "coherence (= Toy Preservation)",
            "atomicity",
            "Core keeps",
            "Core drops (why)",
            "coverage after Core",
        ),
        index="selection",
    )


@styled
def plot_decompscore_atomicity(
    results: Mapping[str, DecompositionResult], *, title: str | None = None
) -> Axes:
    """Two panels: DecompScore as a count per selection, atomicity as a ratio with n/d."""
    import numpy as np

    names = list(results)
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.2, 0.32 * len(names) + 1.4), sharey=True)
    y = np.arange(len(names))[::-1]
    counts = [results[n].decompscore for n in names]
    left.barh(y, counts, color="#4C72B0", height=0.7)
    for yi, c in zip(y, counts, strict=True):
        left.text(c + 0.1, yi, str(c), va="center", fontsize=8)
    left.set_yticks(y)
    left.set_yticklabels([label(n, 24) for n in names], fontsize=8)
    left.set_xlim(0, max(counts + [1]) * 1.3)
    left.set_title("DecompScore: supported subclaims (a count)", fontsize=9)
    left.tick_params(axis="x", labelsize=8)
    for yi, n in zip(y, names, strict=True):
        r = results[n].atomicity
        if r.value is None:
            right.barh(yi, 1.0, height=0.7, **NA_STYLE)
            right.text(0.5, yi, f"N/A ({r.counts})", ha="center", va="center", fontsize=8)
        else:
            right.barh(yi, r.value, height=0.7, color="#55A868")
            right.text(r.value + 0.02, yi, r.counts, va="center", fontsize=8)
    right.set_xlim(0, 1.4)
    right.set_xticks([0, 0.5, 1.0])
    right.set_xticklabels(["0%", "50%", "100%"], fontsize=8)
    right.set_title("Atomicity: atomic / unique selection", fontsize=9)
    if title:
        fig.suptitle(title, fontsize=10)
    shown: Axes = left
    return shown


def entity_table(groups_by_selection: Mapping[str, Sequence[Any]]) -> Any:
    """One row per selection and entity group: its candidates and its own two figures."""
    rows = []
    for name, groups in groups_by_selection.items():
        for g in groups:
            rows.append(
                {
                    "selection": name,
                    "entity": f"{g.entity} {g.version}".strip(),
                    "candidates": ", ".join(g.ids),
                    "with errors": ", ".join(g.errors) or "-",
                    "Toy Preservation": g.preservation.display,
                    "Toy Confirmed Support": g.confirmed_support.display,
                }
            )
    return rows_table(
        rows,
        (
            "selection",
            "entity",
            "candidates",
            "with errors",
            "Toy Preservation",
            "Toy Confirmed Support",
        ),
        index="selection",
    )


def versions_table(
    first: DecompositionFixture,
    first_results: Mapping[str, DecompositionResult],
    revised: DecompositionFixture,
    revised_results: Mapping[str, DecompositionResult],
) -> Any:
    """A revised answer audited again: both versions' figures side by side, per selection.

    Raises:
        FixtureError: the two files are not versions of the same answer.
    """
    from claimlab.core.errors import FixtureError

    if first.original.id != revised.original.id:
        raise FixtureError(
            f"is not a version of answer {first.original.id!r} (it is {revised.original.id!r})",
            file=revised.source,
            field="original.id",
        )
    pd = pandas()
    a, b = first.original.version, revised.original.version
    rows = []
    for name in first_results:
        if name not in revised_results:
            continue
        for m in METRICS:
            rows.append(
                {
                    "selection": name,
                    "figure": METRIC_LABELS[m],
                    f"version {a}": getattr(first_results[name], m).display,
                    f"version {b}": getattr(revised_results[name], m).display,
                }
            )
    if not rows:
        return pd.DataFrame(columns=["selection", "figure"]).set_index("selection")
    return pd.DataFrame(rows).set_index("selection")


def plot_entity_groups(
    groups_by_selection: Mapping[str, Sequence[Any]], *, title: str | None = None
) -> Axes:
    """Toy Preservation per entity group and selection, n/d on every bar.

    N/A where a selection says nothing about that entity.
    """
    from claimlab.core.ratio import Ratio

    entities: list[str] = []
    for groups in groups_by_selection.values():
        for g in groups:
            name = f"{g.entity} {g.version}".strip()
            if name not in entities:
                entities.append(name)
    rows = {}
    for selection, groups in groups_by_selection.items():
        by_name = {f"{g.entity} {g.version}".strip(): g.preservation for g in groups}
        rows[selection] = {e: by_name.get(e, Ratio(0, 0)) for e in entities}
    return plot_grouped_ratios(rows, title=title)


def plot_core_coverage(
    results: Mapping[str, DecompositionResult],
    selections: Mapping[str, Any],
    *,
    title: str | None = None,
) -> Axes:
    """Per selection: coverage before and after Core-style selection (n/d on every bar)."""
    rows = {
        name: {"before": selections[name].coverage_before, "after": selections[name].coverage_after}
        for name in results
    }
    return plot_grouped_ratios(
        rows,
        series_labels={"before": "coverage before", "after": "coverage after selection"},
        title=title,
    )


def plot_versions(
    first_results: Mapping[str, DecompositionResult],
    revised_results: Mapping[str, DecompositionResult],
    *,
    labels: tuple[str, str],
    title: str | None = None,
) -> Axes:
    """The four Toy metrics of each selection in both versions, side by side."""
    rows = {}
    for name in first_results:
        if name not in revised_results:
            continue
        for version, res in ((labels[0], first_results[name]), (labels[1], revised_results[name])):
            rows[f"{name} ({version})"] = res.ratios()
    return plot_grouped_ratios(rows, series_labels=METRIC_LABELS, title=title)


def flags_table(results: Mapping[str, DecompositionResult]) -> Any:
    """Per selection: what is audited but not counted, each with its reason.

    Candidates left out of every count (an AMBIGUOUS mapping; untagged background from outside
    the original) and preserved units no source span of the candidate backs.
    """
    pd = pandas()
    rows = [
        {
            "selection": name,
            "ambiguous (kept, not counted)": ", ".join(r.ambiguous) or "-",
            "untagged background (kept, not counted)": ", ".join(r.untagged_background) or "-",
            "units no span backs (not counted)": "; ".join(
                f"{cid}: {', '.join(units)}" for cid, units in r.unbacked.items()
            )
            or "-",
        }
        for name, r in results.items()
    ]
    return pd.DataFrame(rows).set_index("selection")


def show_original(fixture: DecompositionFixture) -> None:
    """The file's note, the original answer (id, version, text) and the offsets note, escaped."""
    from claimlab.labs import teaching
    from claimlab.labs.decomposition.lesson import offsets_note
    from claimlab.notebook.display import md_text

    o = fixture.original
    parts = (
        teaching.file_note(fixture),
        f"**Original** {md_code(o.id)} ({md_text(o.version)}): " + md_text(o.text),
        offsets_note(fixture),
    )
    show_markdown("\n\n".join(part for part in parts if part))


def papers_record(
    results: Mapping[str, DecompositionResult], core: Mapping[str, Any]
) -> dict[str, Any]:
    """What notebook 01 records of the cited methods: DecompScore, atomicity, Core-style."""
    return {
        name: {
            "decompscore": r.decompscore,
            "atomicity": r.atomicity.to_dict(),
            "core": core[name].to_dict(),
        }
        for name, r in results.items()
    }


def game_outcome(game: Any, *, solver: bool) -> dict[str, Any]:
    """A scripted round's outcome (its last check, or NOT_CHECKED), shown in one line."""
    from claimlab.notebook.display import md_text

    outcome: dict[str, Any] = (
        game.last_check.to_dict()
        if game.last_check
        else {
            "won": False,
            "reasons": [{"code": "NOT_CHECKED", "message": "the script never pressed Check"}],
        }
    )
    reasons = " · ".join(md_text(r["code"] + ": " + r["message"]) for r in outcome["reasons"])
    show_markdown(
        f"Round {md_code(game.puzzle)}"
        + (" (the solver's round)" if solver else "")
        + f": **{'WON' if outcome['won'] else 'not won'}** · "
        + (reasons or "every rule met")
    )
    return outcome
