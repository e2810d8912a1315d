"""The decomposition lab's notes, rules, exercises and solutions, computed from the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from claimlab.core.text import md_code, md_ids, md_text
from claimlab.core.vocab import STATUSES, Status
from claimlab.io.decomposition import DecompositionFixture
from claimlab.io.lesson import Exercise
from claimlab.labs.decomposition.game import DecompositionGame, solve_decomposition
from claimlab.labs.decomposition.prose import PROSE
from claimlab.labs.decomposition.words import WORDS
from claimlab.labs.teaching import (
    language_note,
    lesson_language,
    lesson_record,
    own_exercises,
    prose,
)
from claimlab.metrics.decomposition import DecompositionResult, score_decomposition
from claimlab.notebook.words import counted, say


def text(key: str, fixture: DecompositionFixture) -> str:
    """A section of the lesson (notebooks 01 and 06) in the file's language, else in English."""
    return prose(PROSE, key, fixture)


def introduction(key: str, fixture: DecompositionFixture) -> str:
    """A notebook's title and why, in the file's language, with a note when it falls back."""
    note = language_note(PROSE, fixture)
    return text(key, fixture) + (f"\n\n{note}" if note else "")


def language(fixture: DecompositionFixture) -> str:
    """The language the lesson's words are in: the file's ``language`` primary subtag."""
    return lesson_language(fixture)


def word(key: str, fixture: DecompositionFixture) -> str:
    """One of the lab's words (:mod:`claimlab.labs.decomposition.words`) in the file's language."""
    return say(WORDS, key, lesson_language(fixture))


def _say(
    fixture: DecompositionFixture, key: str, values: Mapping[str, object] | None = None
) -> str:
    """One of the lab's words (:mod:`claimlab.labs.decomposition.words`) in the file's language."""
    return say(WORDS, key, lesson_language(fixture), values)


def lesson_title(key: str, fixture: DecompositionFixture) -> dict[str, str]:
    """The lesson's language and title, recorded for the handouts' title page."""
    return lesson_record(PROSE, key, fixture)


def offsets_note(fixture: DecompositionFixture) -> str:
    """Why offsets are counted in UTF-16 units, said about this file's original answer."""
    wide = [ch for ch in fixture.original.text if ord(ch) > 0xFFFF]
    if wide:
        shown = ", ".join(f"U+{ord(ch):X}" for ch in dict.fromkeys(wide[:3]))
        count = counted(WORDS, "character", len(wide), lesson_language(fixture))
        return _say(fixture, "offsets.wide", {"count": count, "shown": shown, "n": len(wide)})
    return _say(fixture, "offsets.narrow")


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
        *_dropped_units(fixture, results)[:1],
        *_duplicates(fixture, results)[:1],
        *_original_layer(fixture, results)[:1],
    ]
    out.append(
        Exercise(
            _say(fixture, "ex.empty.q"),
            _say(fixture, "ex.empty.a", {"units": len(fixture.units)}),
        )
    )
    return out + own_exercises(fixture)


def _dropped_units(
    fixture: DecompositionFixture, results: Mapping[str, DecompositionResult]
) -> list[Exercise]:
    """A selection whose support beats the reference selection's by dropping units."""
    ref = _reference_mode(results)
    if ref is None:
        return []
    r0 = results[ref]
    for name, r in results.items():
        better = (r.confirmed_support.value or 0) > (r0.confirmed_support.value or 0)
        if name != ref and r.selection and better and r.missing_units:
            values = {
                "name": md_code(name),
                "ref": md_code(ref),
                "ids": md_ids(r.missing_units),
                "support": r.confirmed_support,
                "ref_support": r0.confirmed_support,
                "coverage": r.coverage,
                "ref_coverage": r0.coverage,
            }
            return [
                Exercise(
                    _say(fixture, "ex.dropped.q", values), _say(fixture, "ex.dropped.a", values)
                )
            ]
    return []


def _duplicates(
    fixture: DecompositionFixture, results: Mapping[str, DecompositionResult]
) -> list[Exercise]:
    """A selection with a repeated candidate: raw support moves, nothing else does."""
    for name, r in results.items():
        if r.duplicates:
            first = {a.id: a.duplicate_of for a in r.audit if a.duplicate_of}
            pairs = ", ".join(
                _say(fixture, "ex.dup.pair", {"id": md_text(d), "of": md_text(first.get(d))})
                for d in r.duplicates
            )
            values = {
                "name": md_code(name),
                "pairs": pairs,
                "confirmed": r.confirmed_support,
                "coverage": r.coverage,
                "n": len(r.selection),
                "raw": r.raw_support,
            }
            return [Exercise(_say(fixture, "ex.dup.q", values), _say(fixture, "ex.dup.a", values))]
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
            values = {
                "name": md_code(name),
                "id": md_text(cid),
                "status": status,
                "kind": _say(fixture, f"kind.{kind}") if f"kind.{kind}" in WORDS else kind,
                "coverage": r.coverage,
            }
            return [
                Exercise(_say(fixture, "ex.layer.q", values), _say(fixture, "ex.layer.a", values))
            ]
    return []


def decomposition_game_rules(fixture: DecompositionFixture) -> str:
    """The game's rules with this file's numbers, in the file's language (else English)."""
    g = fixture.game
    language = lesson_language(fixture)
    values = {
        "slots": counted(WORDS, "raw_slot", g.slots, language),
        "units": counted(WORDS, "unit", len(fixture.units), language),
        "statuses": ", ".join(STATUSES),
        "rounds": md_ids(list(g.puzzles)),
    }
    return say(WORDS, "rules", language, values)


def _moves(fixture: DecompositionFixture, script: Sequence[Sequence[object]]) -> str:
    parts = []
    drop = [s[1] for s in script if s[0] == "deselect"]
    add = [s[1] for s in script if s[0] == "select"]
    if drop:
        parts.append(_say(fixture, "move.deselect", {"ids": md_ids(drop)}))
    if add:
        parts.append(_say(fixture, "move.select", {"ids": md_ids(add)}))
    notes = [f"{md_text(s[1])} {s[2]}" for s in script if s[0] == "annotate"]
    parts.append(_say(fixture, "move.annotate", {"notes": ", ".join(notes)}))
    return "; ".join(parts)


def decomposition_game_exercises(fixture: DecompositionFixture) -> list[Exercise]:
    """One exercise per round (solved by the solver), and why a win can show support below 100%."""
    out = []
    low = None
    for name, puzzle in fixture.game.puzzles.items():
        script = solve_decomposition(fixture, name)
        values = {"name": md_code(name), "title": md_text(puzzle.title)}
        if not script:
            q, a = _say(fixture, "ex.unwinnable.q", values), _say(fixture, "ex.unwinnable.a")
            out.append(Exercise(q, a))
            continue
        game = DecompositionGame(fixture, name)
        start = md_ids(game.selection) if game.selection else _say(fixture, "ex.round.empty_start")
        out.append(
            Exercise(
                _say(fixture, "ex.round.q", {**values, "start": start}),
                _say(fixture, "ex.round.a", {"moves": _moves(fixture, script)}),
            )
        )
        final = [s[1] for s in script if s[0] == "annotate"]
        result = score_decomposition(fixture, final)
        if low is None and (result.confirmed_support.value or 0) < 1:
            low = result
        if len(out) >= 3:
            break
    if low is not None:
        out.append(_low_support(fixture, low))
    return out + own_exercises(fixture)


def _low_support(fixture: DecompositionFixture, low: DecompositionResult) -> Exercise:
    """Why a winning selection can show confirmed support below 100% (the answer's own claims)."""
    sc = low.status_counts
    others = [i for i in low.unique_ids if fixture.candidate(i).evidence.status != Status.SUPPORTED]
    values = {
        "contradicted": sc[Status.CONTRADICTED],
        "nir": sc[Status.NOT_IN_REFERENCE],
        "ids": md_ids(others),
        "confirmed": low.confirmed_support,
    }
    return Exercise(_say(fixture, "ex.low.q"), _say(fixture, "ex.low.a", values))
