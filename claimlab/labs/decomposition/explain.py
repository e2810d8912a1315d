"""Plain words for what a selection shows: the pitfall, with its own numbers, for a handout."""

from __future__ import annotations

from claimlab.core.text import md_ids
from claimlab.core.vocab import Status
from claimlab.metrics.decomposition import DecompositionResult


def explain_mode(name: str, result: DecompositionResult) -> str:
    """A short, plain explanation of the pitfall a selection shows, with its own numbers.

    Written for a student reading a handout; every number comes from ``result``. Returns
    Markdown in which every id from the file is escaped.
    """
    r = result
    sc = r.status_counts
    common = (
        f"Preservation {r.preservation}, coverage {r.coverage}, confirmed support "
        f"{r.confirmed_support}, raw support {r.raw_support}; "
        f"{sc[Status.CONTRADICTED]} CONTRADICTED and {sc[Status.NOT_IN_REFERENCE]} NOT_IN_REFERENCE."
    )
    if not r.selection:
        return (
            "**Empty selection.** Nothing was selected, so there is nothing to check: preservation "
            "and support have a zero denominator and are **N/A**, not 0% and not 100%. Coverage "
            f"still has a denominator (the original's units) and is {r.coverage}. " + common
        )
    notes = _pitfall_notes(r)
    if not notes and r.missing_units:
        notes.append(
            f"**Units {md_ids(r.missing_units)} not kept.** Nothing selected says what they said; "
            f"coverage is {r.coverage}."
        )
    if not notes:
        notes.append(_faithful_note(r))
    return "\n\n".join(notes) + "\n\n" + common


def _pitfall_notes(r: DecompositionResult) -> list[str]:
    """A note per pitfall the selection shows (dropped units, introduced claims, errors, ...)."""
    notes = []
    if r.missing_units and r.confirmed_support.value == 1.0:
        notes.append(
            f"**Support looks perfect ({r.confirmed_support}) while coverage is only "
            f"{r.coverage}.** Units {md_ids(r.missing_units)} were dropped; dropping hard "
            "claims makes support look better without checking more."
        )
    if r.introduced:
        notes.append(
            f"**Introduced claim {md_ids(r.introduced)}.** It may be supported by a reference, "
            "but the original answer never said it (no source span): it raises support without "
            "preserving anything."
        )
    for kind, what in (
        ("qualifier", "a qualifier was broadened, narrowed or dropped"),
        ("entity", "the claim was given to another entity"),
        ("version", "the version was changed"),
    ):
        if r.error_ids[kind]:
            notes.append(
                f"**{kind.capitalize()} error in {md_ids(r.error_ids[kind])}:** {what}. The "
                "subclaim no longer says what the answer said, so it preserves no unit and "
                "whatever the references say about it is about a different claim."
            )
    if r.duplicates:
        notes.append(
            f"**Duplicate {md_ids(r.duplicates)}.** Same fingerprint as an earlier candidate: "
            f"the raw list grows (raw support {r.raw_support}) but the unique selection, confirmed "
            f"support ({r.confirmed_support}) and coverage ({r.coverage}) do not change."
        )
    if r.non_atomic:
        notes.append(
            f"**Compound claim {md_ids(r.non_atomic)}.** It preserves its units but is not "
            "atomic: one verdict now covers two statements, so a partial failure would be hidden."
        )
    return notes


def _faithful_note(r: DecompositionResult) -> str:
    """Why a faithful selection's support can still be below 100%."""
    sc = r.status_counts
    bad = sc[Status.CONTRADICTED] + sc[Status.NOT_IN_REFERENCE]
    return "**Faithful selection.** Every unit is kept, each once." + (
        f" Support is below 100% because the answer itself has {sc[Status.CONTRADICTED]} "
        f"contradicted and {sc[Status.NOT_IN_REFERENCE]} unreferenced claim(s), and those "
        "must stay visible: a good decomposition reports them rather than dropping them."
        if bad
        else ""
    )
