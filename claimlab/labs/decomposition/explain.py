"""Plain words for what a selection shows: the pitfall, with its own numbers, for a handout."""

from __future__ import annotations

from claimlab.core.text import md_ids
from claimlab.core.vocab import Status
from claimlab.labs.decomposition.words import WORDS
from claimlab.metrics.decomposition import DecompositionResult
from claimlab.notebook.words import say


def explain_mode(name: str, result: DecompositionResult, *, language: str = "en") -> str:
    """A short, plain explanation of the pitfall a selection shows, with its own numbers.

    Written for a student reading a handout, in ``language`` (English when the catalogue has
    none); every number comes from ``result``. Returns Markdown in which every id from the file
    is escaped.
    """
    r = result
    sc = r.status_counts
    common = say(
        WORDS,
        "explain.common",
        language,
        {
            "preservation": r.preservation,
            "coverage": r.coverage,
            "confirmed": r.confirmed_support,
            "raw": r.raw_support,
            "contradicted": sc[Status.CONTRADICTED],
            "nir": sc[Status.NOT_IN_REFERENCE],
        },
    )
    if not r.selection:
        return say(WORDS, "explain.empty", language, {"coverage": r.coverage, "common": common})
    notes = _pitfall_notes(r, language)
    if not notes and r.missing_units:
        values = {"ids": md_ids(r.missing_units), "coverage": r.coverage}
        notes.append(say(WORDS, "explain.not_kept", language, values))
    if not notes:
        notes.append(_faithful_note(r, language))
    return "\n\n".join(notes) + "\n\n" + common


def _pitfall_notes(r: DecompositionResult, language: str) -> list[str]:
    """A note per pitfall the selection shows (dropped units, introduced claims, errors, ...)."""
    figures = {"coverage": r.coverage, "confirmed": r.confirmed_support, "raw": r.raw_support}
    notes = []
    if r.missing_units and r.confirmed_support.value == 1.0:
        values = {**figures, "ids": md_ids(r.missing_units)}
        notes.append(say(WORDS, "explain.dropped", language, values))
    if r.introduced:
        notes.append(say(WORDS, "explain.introduced", language, {"ids": md_ids(r.introduced)}))
    for kind in ("qualifier", "entity", "version"):
        if r.error_ids[kind]:
            values = {"ids": md_ids(r.error_ids[kind])}
            notes.append(say(WORDS, f"explain.error.{kind}", language, values))
    if r.duplicates:
        values = {**figures, "ids": md_ids(r.duplicates)}
        notes.append(say(WORDS, "explain.duplicate", language, values))
    if r.non_atomic:
        notes.append(say(WORDS, "explain.compound", language, {"ids": md_ids(r.non_atomic)}))
    return notes


def _faithful_note(r: DecompositionResult, language: str) -> str:
    """Why a faithful selection's support can still be below 100%."""
    sc = r.status_counts
    bad = sc[Status.CONTRADICTED] + sc[Status.NOT_IN_REFERENCE]
    counts = {"contradicted": sc[Status.CONTRADICTED], "nir": sc[Status.NOT_IN_REFERENCE]}
    low = say(WORDS, "explain.faithful_low", language, counts) if bad else ""
    return say(WORDS, "explain.faithful", language) + low
