"""The sufficiency lab's notes, rules, exercises and solutions, computed from the file."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimlab.core.text import md_code, md_ids, md_text, plural
from claimlab.io.lesson import Exercise
from claimlab.io.locate import is_shipped, resolve_path
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.sufficiency.game import SufficiencyGame, game_scenarios, sufficiency_wins
from claimlab.labs.sufficiency.prose import PROSE
from claimlab.labs.teaching import language_note, lesson_record, own_exercises, prose
from claimlab.metrics.sufficiency import SufficiencyResult, find_fixture_sufficiency


def text(key: str, fixture: SufficiencyFixture) -> str:
    """A section of the lesson (notebooks 02 and 07) in the file's language, else in English."""
    return prose(PROSE, key, fixture)


def introduction(key: str, fixture: SufficiencyFixture) -> str:
    """A notebook's title and why, in the file's language, with a note when it falls back."""
    note = language_note(PROSE, fixture)
    return text(key, fixture) + (f"\n\n{note}" if note else "")


def lesson_title(key: str, fixture: SufficiencyFixture) -> dict[str, str]:
    """The lesson's language and title, recorded for the handouts' title page."""
    return lesson_record(PROSE, key, fixture)


def _arrow(fixture: SufficiencyFixture, eid: str) -> str:
    item = fixture.item(eid)
    return md_text(f"{eid}: {item.subject} → {item.object}") if item else md_text(eid)


def scenario_results(fixture: SufficiencyFixture) -> dict[str, SufficiencyResult]:
    """Every scenario of a file checked as it says (its question, context and metadata mode)."""
    return {
        name: find_fixture_sufficiency(
            fixture, sc.question, list(sc.context), ignore_metadata=sc.ignore_metadata
        )
        for name, sc in fixture.scenarios.items()
    }


def sufficiency_exercises(
    fixture: SufficiencyFixture,
    walk: Mapping[str, SufficiencyResult],
    thresholds: Sequence[Any] = (),
) -> list[Exercise]:
    """Exercises on the file's scenarios (``walk``: name -> result) and the risk-coverage rows."""
    steps = (_one_record_short, _question_matters, _metadata_rejects)
    out = [x for step in steps for x in step(fixture, walk)[:1]]
    silent = [t for t in thresholds if t.coverage.numerator == 0 and t.coverage.denominator]
    if silent:
        t = silent[-1]
        out.append(
            Exercise(
                f"At the confidence threshold {t.threshold:g} nothing is answered. What is the "
                "accuracy, and why is neither 0% nor 100% right?",
                f"N/A (0/0): no answered question exists to be right or wrong; the report shows "
                f"{t.coverage} answered next to it.",
            )
        )
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
            and find_fixture_sufficiency(
                fixture, sc.question, [*sc.context, b.missing[0]]
            ).sufficient
        ]
        if r.status == "INSUFFICIENT" and one and not sc.ignore_metadata:
            others = [b for b in r.branches if b not in one and b.missing and not b.link_errors]
            more = "; ".join(md_ids(b.missing) for b in others)
            return [
                Exercise(
                    f"Scenario {md_code(name)}: with the question {md_code(sc.question)} and the "
                    f"context {md_ids(sc.context)}, which single record completes a witness?",
                    "Add "
                    + " or ".join(_arrow(fixture, b.missing[0]) for b in one)
                    + (f"; a branch needing more would be {more}" if others else "")
                    + ".",
                )
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
            alt = find_fixture_sufficiency(fixture, other, sc.context)
            if r.sufficient != alt.sufficient:
                yes, no = (sc.question, other) if r.sufficient else (other, sc.question)
                return [
                    Exercise(
                        f"Why is the context {md_ids(sc.context)} enough for {md_code(yes)} but "
                        f"not for {md_code(no)}?",
                        why_not(fixture, no, alt if r.sufficient else r)
                        + " Sufficiency is always for a question.",
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
    head = (
        f"{md_code(question)} asks for {md_ids(q.asks)}; only "
        + " or ".join("{" + md_ids(a) + "}" for a in q.alternatives)
        + " answer it"
    )
    done = " and ".join("{" + md_ids(w) + "}" for w in result.witnesses)
    if result.status == "CONDITIONAL":
        unmet = "; ".join(
            f"{md_text(u.id)} holds only if {md_text(', '.join(u.conditions))}"
            for u in result.conditions_unmet
        )
        return (
            f"{head}. The context completes {done}, but {unmet}, which the question does not "
            "state: CONDITIONAL, not SUFFICIENT."
        )
    if result.status == "CONFLICT":
        shown = "; ".join(md_text(c.explanation) for c in result.conflicts)
        return f"{head}. The context completes {done or 'a witness'}, but {shown}: CONFLICT."
    if result.unanswerable:
        return f"{head}, and the file marks the question unanswerable."
    if result.status == "UNKNOWN":
        return f"{head}, and the context completes none of them: {md_text(result.explanation)}."
    return f"{head}, and the context completes none of them."


def _metadata_rejects(
    fixture: SufficiencyFixture, walk: Mapping[str, SufficiencyResult]
) -> list[Exercise]:
    """The first scenario with a record the file's rules reject."""
    for name, r in walk.items():
        meta = [x for x in r.rejected if x.reason == "metadata"]
        if meta and not fixture.scenarios[name].ignore_metadata:
            return [
                Exercise(
                    f"Scenario {md_code(name)}: why is {md_text(meta[0].id)} never part of a "
                    "witness, even where its chain links?",
                    f"{md_text(meta[0].detail)}. Every member of a witness must pass the file's "
                    "rules; a record that fails them is rejected whatever it says.",
                )
            ]
    return []


def sufficiency_game_rules(fixture: SufficiencyFixture) -> str:
    """The game's rules with this file's budget, costs and copies."""
    g = fixture.game
    special = {k: v for k, v in g.search_cost.items() if v != g.default_cost}
    costs = f"searching a record costs {g.default_cost}" + (
        " (" + ", ".join(f"{md_text(k)} costs {v}" for k, v in special.items()) + ")"
        if special
        else ""
    )
    copies = (
        f"copying {md_ids(g.copyable)} costs {g.copy_cost} (a copy adds no premise)"
        if g.copyable
        else "nothing can be copied"
    )
    return (
        f"Budget **{g.budget} units**: {costs}; {copies}; the starting evidence of a round is "
        "free. Win with a proof set holding a complete, valid witness, within budget, and every "
        "asked item answered with the value **that same witness derives** from its own texts "
        "(and the answer key accepts). Naming the right answer without a witness, citing "
        "pieces of two different chains, or citing a record the rules refuse does not win; "
        "evidence that disagrees wins only by reporting the conflict, each side's whole "
        "witness cited. With the budget spent no search is possible, but Check "
        f"and Reset still work. Rounds in this file: {md_ids(list(game_scenarios(fixture)))}."
    )


def sufficiency_game_exercises(fixture: SufficiencyFixture) -> list[Exercise]:
    """Per round: the cheapest win(s), and why the start alone does not win."""
    out = []
    for name, sc in game_scenarios(fixture).items():
        try:
            game = SufficiencyGame(fixture, name)
        except ValueError:
            continue
        wins = sufficiency_wins(fixture, name)
        start = md_ids(game.context) if game.context else "no evidence"
        if not wins:
            out.append(
                Exercise(
                    f"Round {md_code(name)} starts with {start}. Can it be won within the budget?",
                    f"No: no complete, valid witness fits in {game.budget} units.",
                )
            )
            continue
        cheapest = [w for w in wins if w.cost == wins[0].cost]
        ways = "; or ".join(
            f"search {md_ids(w.searches) if w.searches else 'nothing'} and cite "
            f"{{{md_ids(w.witness)}}}, answering "
            + ", ".join(f"{md_text(k)} = {md_text(v)}" for k, v in w.answer.items())
            for w in cheapest
        )
        check = find_fixture_sufficiency(fixture, sc.question, list(game.context))
        why = "" if check.sufficient else "The start alone is no witness. "
        count = f"{len(cheapest)} cheapest wins" if len(cheapest) > 1 else "The cheapest win"
        out.append(
            Exercise(
                f"Round {md_code(name)} starts with {start}. What is the cheapest win"
                + (", and why is there more than one?" if len(cheapest) > 1 else "?"),
                f"{why}{count}, for {plural(cheapest[0].cost, 'unit')} of {game.budget}: {ways}."
                + (
                    " Each complete chain is its own witness; the answer must come from the one "
                    "cited."
                    if len(cheapest) > 1
                    else ""
                ),
            )
        )
    return out + own_exercises(fixture)


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
