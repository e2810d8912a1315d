"""The decomposition lab's notes, rules, exercises and solutions, computed from the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from claimlab.core.text import md_code, md_ids, md_text, plural
from claimlab.core.vocab import STATUSES, Status
from claimlab.io.decomposition import DecompositionFixture
from claimlab.io.lesson import Exercise
from claimlab.labs.decomposition.game import DecompositionGame, solve_decomposition
from claimlab.labs.decomposition.prose import GAME_RULES, PROSE
from claimlab.labs.teaching import (
    language_note,
    lesson_language,
    lesson_record,
    own_exercises,
    prose,
)
from claimlab.metrics.decomposition import DecompositionResult, find_decomposition


def text(key: str, fixture: DecompositionFixture) -> str:
    """A section of the lesson (notebooks 01 and 06) in the file's language, else in English."""
    return prose(PROSE, key, fixture)


def introduction(key: str, fixture: DecompositionFixture) -> str:
    """A notebook's title and why, in the file's language, with a note when it falls back."""
    note = language_note(PROSE, fixture)
    return text(key, fixture) + (f"\n\n{note}" if note else "")


def lesson_title(key: str, fixture: DecompositionFixture) -> dict[str, str]:
    """The lesson's language and title, recorded for the handouts' title page."""
    return lesson_record(PROSE, key, fixture)


def offsets_note(fixture: DecompositionFixture) -> str:
    """Why offsets are counted in UTF-16 units, said about this file's original answer."""
    wide = [ch for ch in fixture.original.text if ord(ch) > 0xFFFF]
    if wide:
        shown = ", ".join(f"U+{ord(ch):X}" for ch in dict.fromkeys(wide[:3]))
        return (
            f"This original holds {plural(len(wide), 'character')} beyond U+FFFF ({shown}): each "
            "is two UTF-16 units but one Python character, so an offset counted in code points "
            f"drifts by up to {len(wide)} and is caught when the file loads."
        )
    return (
        "Every character of this original is a single UTF-16 unit, so code-point and UTF-16 "
        "offsets coincide here; in a text with a character beyond U+FFFF "
        "they differ, and an offset counted the wrong way is caught when the file loads."
    )


def _reference_mode(results: Mapping[str, DecompositionResult]) -> str | None:
    """The selection to compare with: the one keeping most units, then most faithful, then first."""
    chosen = [n for n, r in results.items() if r.selection]
    if not chosen:
        return None
    return max(
        chosen,
        key=lambda n: (
            results[n].coverage.numerator,
            results[n].preservation.value or 0.0,
            -list(results).index(n),
        ),
    )


def decomposition_exercises(
    fixture: DecompositionFixture, results: Mapping[str, DecompositionResult]
) -> list[Exercise]:
    """Exercises on the file's own selections (``results``: name -> result), with solutions."""
    out = [
        *_dropped_units(results)[:1],
        *_duplicates(results)[:1],
        *_original_layer(fixture, results)[:1],
    ]
    out.append(
        Exercise(
            'A colleague reports "support 100%" for an empty selection. What should the report '
            "have said, and why is 0% just as wrong?",
            "N/A (0/0): nothing was checked. 0% would claim every checked item failed; 100% "
            "would claim every checked item passed. Coverage is still defined: "
            f"0/{len(fixture.units)}.",
        )
    )
    return out + own_exercises(fixture)


def _dropped_units(results: Mapping[str, DecompositionResult]) -> list[Exercise]:
    """A selection whose support beats the reference selection's by dropping units."""
    ref = _reference_mode(results)
    if ref is None:
        return []
    r0 = results[ref]
    for name, r in results.items():
        better = (r.confirmed_support.value or 0) > (r0.confirmed_support.value or 0)
        if name != ref and r.selection and better and r.missing_units:
            return [
                Exercise(
                    f"In {md_code(name)}, confirmed support is {r.confirmed_support}, against "
                    f"{r0.confirmed_support} in {md_code(ref)}. Which units were lost, and "
                    "which single number on the page tells you so?",
                    f"{md_ids(r.missing_units)}: coverage drops from {r0.coverage} to "
                    f"{r.coverage} while support rises from {r0.confirmed_support} to "
                    f"{r.confirmed_support}. Dropping claims makes support look better "
                    "without checking anything more.",
                )
            ]
    return []


def _duplicates(results: Mapping[str, DecompositionResult]) -> list[Exercise]:
    """A selection with a repeated candidate: raw support moves, nothing else does."""
    for name, r in results.items():
        if r.duplicates:
            first = {a.id: a.duplicate_of for a in r.audit if a.duplicate_of}
            pairs = ", ".join(f"{md_text(d)} (of {md_text(first.get(d))})" for d in r.duplicates)
            return [
                Exercise(
                    f"Why does {md_code(name)} change raw support but not confirmed support or "
                    "coverage?",
                    f"{pairs} share a fingerprint with an earlier candidate, so the unique "
                    f"selection and the preserved units are unchanged (confirmed support "
                    f"{r.confirmed_support}, coverage {r.coverage}); only the raw list grows to "
                    f"{len(r.selection)} items (raw support {r.raw_support}).",
                )
            ]
    return []


def _original_layer(
    fixture: DecompositionFixture, results: Mapping[str, DecompositionResult]
) -> list[Exercise]:
    """A candidate with an error whose evidence label says nothing about the answer."""
    for name, r in results.items():
        kinds = [(k, ids) for k, ids in r.error_ids.items() if ids and k != "introduced"]
        if kinds:
            kind, ids = kinds[0]
            cid = ids[0]
            status = fixture.candidate(cid).evidence.status
            return [
                Exercise(
                    f"In {md_code(name)}, candidate {md_text(cid)} is labelled {status} by the "
                    "references. Why does that label say nothing about the answer?",
                    f"{md_text(cid)} has a {kind} error: it no longer says what the answer said, "
                    f"so it preserves no unit (coverage {r.coverage}) and whatever the references "
                    "say about it is about a different claim. The original layer decides first.",
                )
            ]
    return []


def decomposition_game_rules(fixture: DecompositionFixture) -> str:
    """The game's rules with this file's numbers, in the file's language (else English)."""
    g = fixture.game
    template = GAME_RULES.get(lesson_language(fixture))
    if template is not None:
        return template.format(
            slots=g.slots,
            units=len(fixture.units),
            statuses=", ".join(STATUSES),
            rounds=md_ids(list(g.puzzles)),
        )
    return (
        f"You have **{plural(g.slots, 'raw slot')}**: every selected candidate takes one (a "
        "duplicate too); deselecting frees it; annotating an evidence status takes none. Win by "
        f"covering all {plural(len(fixture.units), 'unit')} of the answer with atomic, faithful "
        "candidates, with no duplicate and no candidate that has an error, and every selected "
        f"candidate annotated with its evidence status ({', '.join(STATUSES)}), even when that "
        "keeps support below 100%. An empty selection never wins. **Check** ends a round; "
        f"**Reset** starts it again. Rounds in this file: {md_ids(list(g.puzzles))}."
    )


def _moves(script: Sequence[Sequence[Any]]) -> str:
    parts = []
    drop = [s[1] for s in script if s[0] == "deselect"]
    add = [s[1] for s in script if s[0] == "select"]
    if drop:
        parts.append(f"deselect {md_ids(drop)}")
    if add:
        parts.append(f"select {md_ids(add)}")
    notes = [f"{md_text(s[1])} {s[2]}" for s in script if s[0] == "annotate"]
    parts.append("annotate " + ", ".join(notes))
    return "; ".join(parts)


def decomposition_game_exercises(fixture: DecompositionFixture) -> list[Exercise]:
    """One exercise per round (solved by the solver), and why a win can show support below 100%."""
    out = []
    low = None
    for name, puzzle in fixture.game.puzzles.items():
        script = solve_decomposition(fixture, name)
        if not script:
            out.append(
                Exercise(
                    f"Round {md_code(name)} ({md_text(puzzle.title)}): can it be won?",
                    "No: some unit has no atomic, faithful, error-free candidate, or the slots "
                    "are too few.",
                )
            )
            continue
        game = DecompositionGame(fixture, name)
        start = md_ids(game.selection) if game.selection else "an empty selection"
        out.append(
            Exercise(
                f"Round {md_code(name)} ({md_text(puzzle.title)}) starts with {start}. Win it.",
                f"{_moves(script)}, then Check.",
            )
        )
        final = [s[1] for s in script if s[0] == "annotate"]
        result = find_decomposition(fixture, final)
        if low is None and (result.confirmed_support.value or 0) < 1:
            low = result
        if len(out) >= 3:
            break
    if low is not None:
        sc = low.status_counts
        others = [
            i for i in low.unique_ids if fixture.candidate(i).evidence.status != Status.SUPPORTED
        ]
        out.append(
            Exercise(
                "Why can a winning selection show confirmed support below 100%?",
                f"Support is about the answer, not the decomposition: the answer has "
                f"{sc[Status.CONTRADICTED]} CONTRADICTED and {sc[Status.NOT_IN_REFERENCE]} "
                f"NOT_IN_REFERENCE claims ({md_ids(others)}); a faithful decomposition keeps "
                f"them visible, so a win shows confirmed support {low.confirmed_support}.",
            )
        )
    return out + own_exercises(fixture)
