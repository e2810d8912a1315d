"""The sufficiency lab's notes, rules, exercises and solutions, computed from the file."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from claimlab.core.text import md_code, md_ids, md_text
from claimlab.io.lesson import Exercise
from claimlab.io.locate import is_shipped, resolve_path
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.sufficiency.explain import conflict_text, explanation, rejection_detail
from claimlab.labs.sufficiency.game import SufficiencyGame, Win, game_scenarios, sufficiency_wins
from claimlab.labs.sufficiency.prose import PROSE
from claimlab.labs.sufficiency.words import WORDS
from claimlab.labs.teaching import (
    language_note,
    lesson_language,
    lesson_record,
    own_exercises,
    prose,
)
from claimlab.metrics.sufficiency import SufficiencyResult, score_fixture_sufficiency
from claimlab.notebook.words import counted, say

if TYPE_CHECKING:
    from claimlab.metrics.selective import RiskCoverageRow


def text(key: str, fixture: SufficiencyFixture) -> str:
    """A section of the lesson (notebooks 02 and 07) in the file's language, else in English."""
    return prose(PROSE, key, fixture)


def introduction(key: str, fixture: SufficiencyFixture) -> str:
    """A notebook's title and why, in the file's language, with a note when it falls back."""
    note = language_note(PROSE, fixture)
    return text(key, fixture) + (f"\n\n{note}" if note else "")


def language(fixture: SufficiencyFixture) -> str:
    """The language the lesson's words are in: the file's ``language`` primary subtag."""
    return lesson_language(fixture)


def word(key: str, fixture: SufficiencyFixture) -> str:
    """One of the lab's words (:mod:`claimlab.labs.sufficiency.words`) in the file's language."""
    return say(WORDS, key, lesson_language(fixture))


def _say(fixture: SufficiencyFixture, key: str, values: Mapping[str, object] | None = None) -> str:
    """One of the lab's words (:mod:`claimlab.labs.sufficiency.words`) in the file's language."""
    return say(WORDS, key, lesson_language(fixture), values)


def lesson_title(key: str, fixture: SufficiencyFixture) -> dict[str, str]:
    """The lesson's language and title, recorded for the handouts' title page."""
    return lesson_record(PROSE, key, fixture)


def _arrow(fixture: SufficiencyFixture, eid: str) -> str:
    item = fixture.item(eid)
    return md_text(f"{eid}: {item.subject} → {item.object}") if item else md_text(eid)


def scenario_results(fixture: SufficiencyFixture) -> dict[str, SufficiencyResult]:
    """Every scenario of a file checked as it says (its question, context and metadata mode)."""
    return {
        name: score_fixture_sufficiency(
            fixture, sc.question, list(sc.context), ignore_metadata=sc.ignore_metadata
        )
        for name, sc in fixture.scenarios.items()
    }


def sufficiency_exercises(
    fixture: SufficiencyFixture,
    walk: Mapping[str, SufficiencyResult],
    thresholds: Sequence[RiskCoverageRow] = (),
) -> list[Exercise]:
    """Exercises on the file's scenarios (``walk``: name -> result) and the risk-coverage rows."""
    steps = (_one_record_short, _question_matters, _metadata_rejects)
    out = [x for step in steps for x in step(fixture, walk)[:1]]
    silent = [t for t in thresholds if t.coverage.numerator == 0 and t.coverage.denominator]
    if silent:
        t = silent[-1]
        q = _say(fixture, "ex.silent.q", {"threshold": f"{t.threshold:g}"})
        out.append(Exercise(q, _say(fixture, "ex.silent.a", {"coverage": t.coverage})))
    return out + own_exercises(fixture)


def _one_record_short(
    fixture: SufficiencyFixture, walk: Mapping[str, SufficiencyResult]
) -> list[Exercise]:
    """The first INSUFFICIENT scenario that one added record makes sufficient."""
    for name, r in walk.items():
        sc = fixture.scenarios[name]
        one = [
            b
            for b in r.branches
            if len(b.missing) == 1
            and not b.link_errors
            and score_fixture_sufficiency(
                fixture, sc.question, [*sc.context, b.missing[0]]
            ).sufficient
        ]
        if r.status == "INSUFFICIENT" and one and not sc.ignore_metadata:
            others = [b for b in r.branches if b not in one and b.missing and not b.link_errors]
            more = "; ".join(md_ids(b.missing) for b in others)
            values = {
                "name": md_code(name),
                "question": md_code(sc.question),
                "context": md_ids(sc.context),
                "records": _say(fixture, "or").join(_arrow(fixture, b.missing[0]) for b in one),
                "more": _say(fixture, "ex.short.more", {"ids": more}) if others else "",
            }
            return [
                Exercise(_say(fixture, "ex.short.q", values), _say(fixture, "ex.short.a", values))
            ]
    return []


def _question_matters(
    fixture: SufficiencyFixture, walk: Mapping[str, SufficiencyResult]
) -> list[Exercise]:
    """The first context that is enough for one question of the file and not for another."""
    for name, r in walk.items():
        sc = fixture.scenarios[name]
        for other in fixture.questions:
            if other == sc.question:
                continue
            alt = score_fixture_sufficiency(fixture, other, sc.context)
            if r.sufficient != alt.sufficient:
                yes, no = (sc.question, other) if r.sufficient else (other, sc.question)
                values = {"context": md_ids(sc.context), "yes": md_code(yes), "no": md_code(no)}
                why = why_not(fixture, no, alt if r.sufficient else r)
                return [
                    Exercise(
                        _say(fixture, "ex.question.q", values),
                        _say(fixture, "ex.question.a", {"why": why}),
                    )
                ]
    return []


def why_not(fixture: SufficiencyFixture, question: str, result: SufficiencyResult) -> str:
    """Why a context is not enough for ``question``, in the words its status calls for.

    Only an INSUFFICIENT (or UNKNOWN) context "completes none" of the alternatives; a
    CONDITIONAL one completes a witness whose conditions the question does not state, and a
    CONFLICT one completes a witness beside a text or witness giving another value.
    """
    q = fixture.question(question)
    language = lesson_language(fixture)
    alternatives = _say(fixture, "or").join("{" + md_ids(a) + "}" for a in q.alternatives)
    values = {
        "head": _say(
            fixture,
            "why.head",
            {"question": md_code(question), "asks": md_ids(q.asks), "alternatives": alternatives},
        ),
        "done": _say(fixture, "and").join("{" + md_ids(w) + "}" for w in result.witnesses),
    }
    if result.status == "CONDITIONAL":
        unmet = "; ".join(
            _say(
                fixture,
                "why.holds",
                {"id": md_text(u.id), "conditions": md_text(", ".join(u.conditions))},
            )
            for u in result.conditions_unmet
        )
        return _say(fixture, "why.conditional", {**values, "unmet": unmet})
    if result.status == "CONFLICT":
        shown = "; ".join(md_text(conflict_text(c, language)) for c in result.conflicts)
        done = values["done"] or _say(fixture, "why.a_witness")
        return _say(fixture, "why.conflict", {**values, "done": done, "shown": shown})
    if result.unanswerable:
        return _say(fixture, "why.unanswerable", values)
    if result.status == "UNKNOWN":
        told = md_text(explanation(result, language))
        return _say(fixture, "why.unknown", {**values, "explanation": told})
    return _say(fixture, "why.none", values)


def _metadata_rejects(
    fixture: SufficiencyFixture, walk: Mapping[str, SufficiencyResult]
) -> list[Exercise]:
    """The first scenario with a record the file's rules reject."""
    for name, r in walk.items():
        meta = [x for x in r.rejected if x.reason == "metadata"]
        sc = fixture.scenarios[name]
        if meta and not sc.ignore_metadata:
            detail = rejection_detail(meta[0], fixture, sc.question, lesson_language(fixture))
            values = {"name": md_code(name), "id": md_text(meta[0].id), "detail": md_text(detail)}
            return [
                Exercise(_say(fixture, "ex.meta.q", values), _say(fixture, "ex.meta.a", values))
            ]
    return []


def sufficiency_game_rules(fixture: SufficiencyFixture) -> str:
    """The game's rules with this file's budget, costs and copies."""
    g = fixture.game
    special = {k: v for k, v in g.search_cost.items() if v != g.default_cost}
    costs = _say(fixture, "rules.cost", {"cost": g.default_cost}) + (
        " ("
        + ", ".join(
            _say(fixture, "rules.special", {"id": md_text(k), "cost": v})
            for k, v in special.items()
        )
        + ")"
        if special
        else ""
    )
    copies = (
        _say(fixture, "rules.copies", {"ids": md_ids(g.copyable), "cost": g.copy_cost})
        if g.copyable
        else _say(fixture, "rules.no_copies")
    )
    values = {
        "budget": g.budget,
        "costs": costs,
        "copies": copies,
        "rounds": md_ids(list(game_scenarios(fixture))),
    }
    return _say(fixture, "rules", values)


def sufficiency_game_exercises(fixture: SufficiencyFixture) -> list[Exercise]:
    """Per round: the cheapest win(s), and why the start alone does not win."""
    out = []
    for name, sc in game_scenarios(fixture).items():
        try:
            game = SufficiencyGame(fixture, name)
        except ValueError:
            continue
        wins = sufficiency_wins(fixture, name)
        start = md_ids(game.context) if game.context else _say(fixture, "ex.no_evidence")
        values = {"name": md_code(name), "start": start}
        if not wins:
            q = _say(fixture, "ex.lost.q", values)
            out.append(Exercise(q, _say(fixture, "ex.lost.a", {"budget": game.budget})))
            continue
        cheapest = [w for w in wins if w.cost == wins[0].cost]
        check = score_fixture_sufficiency(fixture, sc.question, list(game.context))
        many = len(cheapest) > 1
        answer = {
            "why": "" if check.sufficient else _say(fixture, "ex.cheap.start"),
            "count": counted(WORDS, "ex.cheap", len(cheapest), lesson_language(fixture)),
            "cost": counted(WORDS, "unit", cheapest[0].cost, lesson_language(fixture)),
            "budget": game.budget,
            "ways": _say(fixture, "ex.way.or").join(_way(fixture, w) for w in cheapest),
            "many": _say(fixture, "ex.cheap.many") if many else "",
        }
        q = _say(fixture, "ex.cheap.q_many" if many else "ex.cheap.q", values)
        out.append(Exercise(q, _say(fixture, "ex.cheap.a", answer)))
    return out + own_exercises(fixture)


def _way(fixture: SufficiencyFixture, win: Win) -> str:
    """One cheapest win in words: what to search, the witness to cite, the answer it gives."""
    values = {
        "searches": md_ids(win.searches),
        "witness": "{" + md_ids(win.witness) + "}",
        "answers": ", ".join(f"{md_text(k)} = {md_text(v)}" for k, v in win.answer.items()),
    }
    return _say(fixture, "ex.way" if win.searches else "ex.way_none", values)


@dataclass(frozen=True)
class HardCases:
    """The file of hard cases a lesson adds (None: none), and what to say when there is none."""

    path: Path | None
    note: str = ""


def hard_cases(fixture_path: str | os.PathLike[str], value: str | None) -> HardCases:
    """The hard-case file beside a lesson's file: a teacher's own file is the whole lesson.

    ``value`` is the notebook's ``HARD_CASES``: empty for none; a shipped file is added only
    beside a shipped ``FIXTURE`` (a handout of a teacher's own file shows nothing of the
    shipped rounds); a file of the teacher's own is always added.

    Raises:
        ClaimlabInputError: the file named is not found.
    """
    if not value:
        return HardCases(None, "*No file of hard cases (`HARD_CASES` is empty).*")
    path = resolve_path(value, what="sufficiency file of hard cases")
    if is_shipped(path) and not is_shipped(fixture_path):
        return HardCases(
            None,
            "*Your file is the whole lesson: no shipped hard case is added. Name a file of your "
            "own in `HARD_CASES` to add its rounds here.*",
        )
    return HardCases(path)
