"""Tables and figures of the decomposition lab (notebooks 01 and 06)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from claimlab.core.vocab import CandidateState, status_line
from claimlab.io.decomposition import DecompositionFixture
from claimlab.labs.decomposition.explain import explain_mode
from claimlab.labs.decomposition.words import WORDS
from claimlab.labs.teaching import lesson_language
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
from claimlab.notebook.words import WORDS as SHARED
from claimlab.notebook.words import say

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.labs.decomposition.game import DecompositionGame
    from claimlab.metrics.decomposition import AuditRow
    from claimlab.metrics.selection import EntityGroup, Selection

_SPAN = re.compile(r"\d+\.\.\d+")  # the offsets of a span: its text is in the row already


def _w(key: str, language: str, values: Mapping[str, object] | None = None) -> str:
    """One of the lab's words, or of the shared ones (``id``, ``text``, ``yes``, ...)."""
    return say(WORDS if key in WORDS else SHARED, key, language, values)


def _headers(keys: Sequence[str], language: str) -> tuple[str, ...]:
    """Column headers in ``language``: a key of the catalogues, or a metric name kept as is."""
    return tuple(_w(k, language) if k in WORDS or k in SHARED else k for k in keys)


def units_table(fixture: DecompositionFixture) -> pd.DataFrame:
    """The original's units with their UTF-16 spans."""
    pd = pandas()
    columns = _headers(("col.unit", "col.start", "col.end", "col.text"), lesson_language(fixture))
    return pd.DataFrame(
        [[u.id, u.span.start, u.span.end, u.span.text] for u in fixture.units],
        columns=list(columns),
    ).set_index(columns[0])


def candidates_table(fixture: DecompositionFixture) -> pd.DataFrame:
    """All candidates with their labels (both layers)."""
    pd = pandas()

    keys = ["col.id", "col.text", "col.preserves", "col.faithful", "col.atomic", "col.errors"]
    keys += ["col.status", "col.references"]
    keys += ["col.proposed_unconfirmed"] if fixture.is_draft else []
    columns = list(_headers(keys, lesson_language(fixture)))
    rows = []
    for c in fixture.candidates:
        row: list[object] = [c.id, c.text, ", ".join(c.preserves) or "-", c.faithful, c.atomic]
        row += [", ".join(c.errors) or "-", c.evidence.status]
        row += [", ".join(c.evidence.references) or "-"]
        if fixture.is_draft:
            row.append(", ".join(c.review) or "-")
        rows.append(row)
    if not rows:
        return pd.DataFrame(columns=columns[:2]).set_index(columns[0])
    return pd.DataFrame(rows, columns=columns).set_index(columns[0])


def audit_table(result: DecompositionResult, *, language: str = "en") -> pd.DataFrame:
    """The audit rows with the two layers under separate column headings."""
    pd = pandas()

    def w(key: str) -> str:
        return _w(key, language)

    sel, orig, ref = w("col.selection"), w("col.original_layer"), w("col.reference_layer")
    columns = pd.MultiIndex.from_tuples(
        [
            (sel, "#"),
            (sel, w("col.id")),
            (sel, w("col.text")),
            (sel, w("col.counted")),
            (orig, w("col.spans")),
            (orig, w("col.preserves")),
            (orig, w("col.faithful")),
            (orig, w("col.atomic")),
            (orig, w("col.errors")),
            (ref, w("col.status")),
            (ref, w("col.references")),
            *([(w("col.draft"), w("col.proposed"))] if result.proposed else []),
        ]
    )
    rows = [
        [
            r.position,
            r.id,
            r.text,
            _counted_cell(r, language),
            "; ".join(_SPAN.findall(r.source_spans))
            or (w("cell.no_source_span") if not r.spans else r.source_spans),
            ", ".join(
                _w("cell.not_backed", language, {"unit": u}) if u in r.unbacked else u
                for u in r.preserves
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
    table = pd.DataFrame(rows, columns=columns).set_index((sel, "#"))
    table.index.name = "#"  # the position in the selection, not a second row number
    return table


def _counted_cell(row: AuditRow, language: str) -> str:
    """Whether an audit row is counted, and if not, why (a repeat named in ``language``)."""
    if row.counted:
        return _w("cell.yes", language)
    if row.state == CandidateState.DUPLICATE and row.duplicate_of:
        return _w("cell.repeats", language, {"id": row.duplicate_of})
    return _w("cell.not_counted", language, {"reason": row.reason})


def metrics_table(results: dict[str, DecompositionResult], *, language: str = "en") -> pd.DataFrame:
    """One row per selection: the four ratios as displays and the status counts beside them."""
    pd = pandas()
    selection = _w("col.selection", language)
    rows = []
    for name, r in results.items():
        row: dict[str, object] = {selection: name}
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
    return pd.DataFrame(rows).set_index(selection)


def findings_table(
    results: dict[str, DecompositionResult], *, language: str = "en"
) -> pd.DataFrame:
    """One row per selection: what it holds, and the units it misses and the duplicates it repeats."""
    columns = _headers(
        ("col.selection", "col.candidates", "col.missing_units", "col.duplicates", "col.errors"),
        language,
    )
    empty = _w("cell.empty", language)
    return rows_table(
        [
            dict(
                zip(
                    columns,
                    (
                        name,
                        ", ".join(r.selection) or empty,
                        ", ".join(r.missing_units) or "-",
                        ", ".join(r.duplicates) or "-",
                        ", ".join(f"{k} {', '.join(v)}" for k, v in r.error_ids.items() if v)
                        or "-",
                    ),
                    strict=True,
                )
            )
            for name, r in results.items()
        ],
        columns,
        index=columns[0],
    )


def show_decomposition_mode(
    name: str, result: DecompositionResult, *, language: str = "en"
) -> None:
    """Show one named selection's result: explanation, audit table and the four-metric figure."""
    heading = _w("mode", language, {"name": md_code(name), "ids": md_ids(result.selection)})
    show_markdown(heading + "\n\n" + explain_mode(name, result, language=language))
    show(audit_table(result, language=language))
    title = _w("mode.figure", language, {"name": name})
    show_figure(plot_decomposition(result, title=title, language=language))


@styled
def plot_decomposition(
    result: DecompositionResult,
    *,
    title: str | None = None,
    ax: Axes | None = None,
    language: str = "en",
) -> Axes:
    """The four Toy metrics of one selection, with CONTRADICTED / NOT_IN_REFERENCE beside support."""
    note = _w("mode.status_note", language, {"line": status_line(result.status_counts)})
    labels = {k: v.replace("Toy ", "Toy\n") for k, v in METRIC_LABELS.items()}
    return plot_ratios(result.ratios(), labels=labels, ax=ax, title=title, note=note)


@styled
def plot_mode_comparison(
    results: Mapping[str, DecompositionResult], *, title: str | None = None
) -> Axes:
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


def papers_table(
    results: dict[str, DecompositionResult],
    selections: dict[str, Selection],
    *,
    language: str = "en",
) -> pd.DataFrame:
    """Per selection: DecompScore (a count), atomicity, and what Core-style selection does."""
    columns = _headers(
        (
            "col.selection",
            "col.decompscore",
            "col.coverage",
            "col.coherence",
            "col.atomicity",
            "col.core_keeps",
            "col.core_drops",
            "col.coverage_after",
        ),
        language,
    )
    rows = []
    for name, r in results.items():
        s = selections[name]
        cells = (
            name,
            r.decompscore,
            r.coverage.display,
            r.preservation.display,
            r.atomicity.display,
            ", ".join(s.kept) or "-",
            "; ".join(f"{c}: {why}" for c, why in s.dropped) or "-",
            s.coverage_after.display,
        )
        rows.append(dict(zip(columns, cells, strict=True)))
    return rows_table(rows, columns, index=columns[0])


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


def entity_table(
    groups_by_selection: Mapping[str, Sequence[EntityGroup]], *, language: str = "en"
) -> pd.DataFrame:
    """One row per selection and entity group: its candidates and its own two figures."""
    columns = _headers(
        (
            "col.selection",
            "col.entity",
            "col.candidates",
            "col.with_errors",
            "Toy Preservation",
            "Toy Confirmed Support",
        ),
        language,
    )
    rows = []
    for name, groups in groups_by_selection.items():
        for g in groups:
            cells = (
                name,
                f"{g.entity} {g.version}".strip(),
                ", ".join(g.ids),
                ", ".join(g.errors) or "-",
                g.preservation.display,
                g.confirmed_support.display,
            )
            rows.append(dict(zip(columns, cells, strict=True)))
    return rows_table(rows, columns, index=columns[0])


def versions_table(
    first: DecompositionFixture,
    first_results: Mapping[str, DecompositionResult],
    revised: DecompositionFixture,
    revised_results: Mapping[str, DecompositionResult],
) -> pd.DataFrame:
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
    groups_by_selection: Mapping[str, Sequence[EntityGroup]], *, title: str | None = None
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
    selections: Mapping[str, Selection],
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


def flags_table(results: Mapping[str, DecompositionResult]) -> pd.DataFrame:
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
    language = lesson_language(fixture)
    parts = (
        teaching.file_note(fixture),
        _w("original", language, {"id": md_code(o.id), "version": md_text(o.version)})
        + md_text(o.text),
        offsets_note(fixture),
    )
    show_markdown("\n\n".join(part for part in parts if part))


def papers_record(
    results: Mapping[str, DecompositionResult], core: Mapping[str, Selection]
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


def game_outcome(game: DecompositionGame, *, solver: bool, language: str = "en") -> dict[str, Any]:
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
    values = {
        "name": md_code(game.puzzle),
        "solver": _w("outcome.solver", language) if solver else "",
        "verdict": _w("outcome.won" if outcome["won"] else "outcome.not_won", language),
        "reasons": reasons or _w("outcome.all_met", language),
    }
    show_markdown(_w("outcome", language, values))
    return outcome
