"""What the notebooks say about a file, computed from the file: notes, rules, exercises, solutions.

Nothing here knows a shipped fixture: every id, name, count and sentence about the data comes
from the file being shown (its ``note`` and ``exercises`` included), so a lab run on a user's
own file talks about that file. An exercise appears only when the file has what it needs (a
selection that drops units, a duplicate, two questions over the same evidence, ...).

Every function returns Markdown in which every string from the file is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from claimlab.core.content import alter_number
from claimlab.core.sentences import split_sentences
from claimlab.core.text import md_code, md_ids, md_text
from claimlab.core.vocab import STATUSES, ProblemCode, Status, Verdict
from claimlab.io.context_lab import Answer, Chunk, ContextLab
from claimlab.io.decomposition import DecompositionFixture
from claimlab.io.lesson import Exercise
from claimlab.io.sufficiency import SufficiencyFixture
from claimlab.labs.games import (
    DecompositionGame,
    SufficiencyGame,
    game_scenarios,
    plural,
    solve_decomposition,
    sufficiency_wins,
)
from claimlab.metrics.citations import ChunkIndex, CitationReport
from claimlab.metrics.context_budget import PackResult, ThresholdRow, pack
from claimlab.metrics.decomposition import DecompositionResult, find_decomposition
from claimlab.metrics.sufficiency import SufficiencyResult, find_fixture_sufficiency


def file_note(fixture: DecompositionFixture | SufficiencyFixture | ContextLab) -> str:
    """The file's own ``note`` (e.g. that its contents are made up), and a draft's warning."""
    parts = [f"**About this file.** {md_text(fixture.note)}"] if fixture.note else []
    if isinstance(fixture, DecompositionFixture) and fixture.is_draft:
        parts.append(
            f"**A draft, not a gold set.** {plural(len(fixture.proposed), 'candidate')} and "
            f"{plural(len(fixture.proposed_units), 'unit')} hold labels a person has not "
            "confirmed (listed as *proposed* below); every figure here counts them as given."
        )
    return "\n\n".join(parts)


def own_exercises(
    fixture: DecompositionFixture | SufficiencyFixture | ContextLab,
) -> list[Exercise]:
    """The exercises the file brings, escaped for Markdown."""
    return [Exercise(md_text(x.question), md_text(x.solution)) for x in fixture.exercises]


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
    out: list[Exercise] = []
    ref = _reference_mode(results)
    if ref is not None:
        r0 = results[ref]
        for name, r in results.items():
            better = (r.confirmed_support.value or 0) > (r0.confirmed_support.value or 0)
            if name != ref and r.selection and better and r.missing_units:
                out.append(
                    Exercise(
                        f"In {md_code(name)}, confirmed support is {r.confirmed_support}, against "
                        f"{r0.confirmed_support} in {md_code(ref)}. Which units were lost, and "
                        "which single number on the page tells you so?",
                        f"{md_ids(r.missing_units)}: coverage drops from {r0.coverage} to "
                        f"{r.coverage} while support rises from {r0.confirmed_support} to "
                        f"{r.confirmed_support}. Dropping claims makes support look better "
                        "without checking anything more.",
                    )
                )
                break
    for name, r in results.items():
        if r.duplicates:
            first = {a.id: a.duplicate_of for a in r.audit if a.duplicate_of}
            pairs = ", ".join(f"{md_text(d)} (of {md_text(first.get(d))})" for d in r.duplicates)
            out.append(
                Exercise(
                    f"Why does {md_code(name)} change raw support but not confirmed support or "
                    "coverage?",
                    f"{pairs} share a fingerprint with an earlier candidate, so the unique "
                    f"selection and the preserved units are unchanged (confirmed support "
                    f"{r.confirmed_support}, coverage {r.coverage}); only the raw list grows to "
                    f"{len(r.selection)} items (raw support {r.raw_support}).",
                )
            )
            break
    for name, r in results.items():
        kinds = [(k, ids) for k, ids in r.error_ids.items() if ids and k != "introduced"]
        if kinds:
            kind, ids = kinds[0]
            cid = ids[0]
            status = fixture.candidate(cid).evidence.status
            out.append(
                Exercise(
                    f"In {md_code(name)}, candidate {md_text(cid)} is labelled {status} by the "
                    "references. Why does that label say nothing about the answer?",
                    f"{md_text(cid)} has a {kind} error: it no longer says what the answer said, "
                    f"so it preserves no unit (coverage {r.coverage}) and whatever the references "
                    "say about it is about a different claim. The original layer decides first.",
                )
            )
            break
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
    thresholds: Sequence = (),
) -> list[Exercise]:
    """Exercises on the file's scenarios (``walk``: name -> result) and the risk-coverage rows."""
    out: list[Exercise] = []
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
            out.append(
                Exercise(
                    f"Scenario {md_code(name)}: with the question {md_code(sc.question)} and the "
                    f"context {md_ids(sc.context)}, which single record completes a witness?",
                    "Add "
                    + " or ".join(_arrow(fixture, b.missing[0]) for b in one)
                    + (
                        "; a branch needing more would be "
                        + "; ".join(md_ids(b.missing) for b in others)
                        if others
                        else ""
                    )
                    + ".",
                )
            )
            break
    names = list(fixture.questions)
    done = False
    for name, r in walk.items():
        sc = fixture.scenarios[name]
        for other in names:
            if other == sc.question or done:
                continue
            alt = find_fixture_sufficiency(fixture, other, sc.context)
            if r.sufficient != alt.sufficient:
                yes, no = (sc.question, other) if r.sufficient else (other, sc.question)
                q = fixture.question(no)
                out.append(
                    Exercise(
                        f"Why is the context {md_ids(sc.context)} enough for {md_code(yes)} but "
                        f"not for {md_code(no)}?",
                        f"{md_code(no)} asks for {md_ids(q.asks)}; only "
                        + " or ".join("{" + md_ids(a) + "}" for a in q.alternatives)
                        + " answer it, and the context completes none of them. Sufficiency is "
                        "always for a question.",
                    )
                )
                done = True
    for name, r in walk.items():
        meta = [x for x in r.rejected if x.reason == "metadata"]
        if meta and not fixture.scenarios[name].ignore_metadata:
            out.append(
                Exercise(
                    f"Scenario {md_code(name)}: why is {md_text(meta[0].id)} never part of a "
                    "witness, even where its chain links?",
                    f"{md_text(meta[0].detail)}. Every member of a witness must pass the file's "
                    "rules; a record that fails them is rejected whatever it says.",
                )
            )
            break
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


def decomposition_game_rules(fixture: DecompositionFixture) -> str:
    """The game's rules with this file's numbers."""
    g = fixture.game
    return (
        f"You have **{plural(g.slots, 'raw slot')}**: every selected candidate takes one (a "
        "duplicate too); deselecting frees it; annotating an evidence status takes none. Win by "
        f"covering all {plural(len(fixture.units), 'unit')} of the answer with atomic, faithful "
        "candidates, with no duplicate and no candidate that has an error, and every selected "
        f"candidate annotated with its evidence status ({', '.join(STATUSES)}), even when that "
        "keeps support below 100%. An empty selection never wins. **Check** ends a round; "
        f"**Reset** starts it again. Rounds in this file: {md_ids(list(g.puzzles))}."
    )


def _moves(script: Sequence[Sequence]) -> str:
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
        "asked item answered with a value **named by that same witness**. Naming the right "
        "answer without a witness, citing pieces of two different chains, or citing a record "
        "the rules refuse does not win. With the budget spent no search is possible, but Submit "
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


def _packing_exercise(context: ContextLab, packed: PackResult) -> Exercise | None:
    """One token fewer than the chunks kept now need: which chunk goes, and why whole."""
    need = packed.tokens_used.used
    if not packed.kept or need < 1:
        return None
    tighter = pack(
        context.chunks,
        max_chunks=packed.chunks_used.limit,
        max_tokens=need - 1,
        question=context.question,
    )
    gone = [d for d in tighter.dropped if d.id in packed.kept]
    if not gone:
        return None
    first = gone[0]
    kept = md_ids(tighter.kept) if tighter.kept else "nothing"
    question = (
        f"Set `MAX_TOKENS` to {need - 1}, one token less than the "
        f"{plural(len(packed.kept), 'chunk')} kept now need ({need}). Which chunk is dropped, "
        "and why is cutting it to fit worse than dropping it?"
    )
    solution = (
        f"{md_text(first.id)} (ranked {first.rank}) is {md_text(first.reason)}. "
        f"The prompt then holds {kept}"
        + (" and the model is not called" if not tighter.kept else "")
        + ". A chunk cut to fit could be cited for text the model never saw, and a quote from "
        "it could not be verified."
    )
    return Exercise(question, solution)


def _citation_exercise(
    context: ContextLab, reports: Mapping[str, CitationReport]
) -> Exercise | None:
    """A true quote from another chunk (sent or not); else the first rejected answer."""
    index = ChunkIndex(context.chunks)  # one search per claim, whatever the number of chunks
    for name, report in reports.items():
        claims = context.answers[name].claims
        for p in report.problems:
            claim = claims[p.claim - 1] if 0 < p.claim <= len(claims) else None
            if p.code != ProblemCode.QUOTE_NOT_FOUND or claim is None or claim.quote is None:
                continue
            holders = index.holding(claim.quote, skip=claim.chunk_id)
            if holders:
                sent = [h for h in holders if h in report.sent]
                where = "a chunk that was sent" if sent else "a chunk of the file that was not sent"
                return Exercise(
                    f"Claim {p.claim} of the {md_code(name)} answer quotes a sentence that really "
                    "is in the sources. Why is it still rejected?",
                    f"The quote is in {md_ids(holders)} ({where}), but the claim cites "
                    f"{md_text(claim.chunk_id)}, where it does not occur. The quote must occur "
                    "in the chunk the claim cites: a true sentence from another chunk (or from "
                    "one that was not sent) does not support this citation.",
                )
    for name, report in reports.items():
        if report.verdict == Verdict.REJECT and report.problems:
            codes = ", ".join(dict.fromkeys(str(p.code) for p in report.problems))
            reasons = "; ".join(md_text(p.explanation) for p in report.problems)
            return Exercise(
                f"The {md_code(name)} answer is rejected. Which check fails, and what is the "
                "user told?",
                f"{codes}: {reasons}. The user is told what was searched and what was not "
                "found, never an unverified answer.",
            )
    return None


def _threshold_exercise(rows: Sequence[ThresholdRow]) -> Exercise | None:
    """The fixed threshold that abstains most, judged by the table of the file's own queries."""
    fixed = [r for r in rows if r.name.startswith("fixed")]
    if not fixed:
        return None
    worst = max(fixed, key=lambda r: (len(r.abstained), r.threshold))
    calibrated = [r for r in rows if r.name.startswith("calibrated")]
    against = (
        f" The calibrated threshold {calibrated[0].threshold:g} (chosen on other queries) keeps precision "
        f"{calibrated[0].precision} with recall {calibrated[0].recall} and abstains on "
        f"{len(calibrated[0].abstained)}/{calibrated[0].queries}."
        if calibrated
        else " No threshold reaches the target precision on the calibration queries, so none is calibrated."
    )
    return Exercise(
        f'A colleague proposes the fixed threshold {worst.threshold:g} "because it worked on the '
        'last project". What does the table say it would do here?',
        f"It abstains on {len(worst.abstained)} of the "
        f"{plural(worst.queries, 'evaluation query', 'evaluation queries')} "
        f"({len(worst.abstained)}/{worst.queries}) and lets through "
        f"{worst.recall.numerator} of the {worst.recall.denominator} relevant candidates (recall "
        f"{worst.recall}; precision {worst.precision})." + against + " A raw score's scale "
        "shifts between retrievers and queries; a threshold has to be calibrated on labelled "
        "queries of this setting.",
    )


def stated_cases(answer: Answer, sent: Sequence[Chunk]) -> dict[str, Answer]:
    """The answer as given and two variants that show what "covered means stated" refuses.

    * a sentence no claim states: the first sentence of a sent chunk that no claim cites,
      added to the answer (the answer now says more than its claims);
    * a changed number: the first claim that holds a number says it one higher (its quote
      still says the old one, and so does the answer).

    A variant the file cannot make (every chunk cited, no claim with a number) is left out.
    """
    out = {"as given": answer}
    cited = {c.chunk_id for c in answer.claims}
    spare = next((c for c in sent if c.id not in cited), None)
    if spare is not None and not answer.dont_know:
        extra = split_sentences(spare.text)
        if extra:
            text = f"{answer.answer.rstrip()} {extra[0].text}"
            out["a sentence no claim states"] = replace(answer, answer=text)
    for i, claim in enumerate(answer.claims):
        changed = alter_number(claim.text, answer.language)
        if changed is not None and claim.chunk_id is not None:
            claims = list(answer.claims)
            claims[i] = replace(claim, text=changed)
            out["a claim's number changed"] = replace(answer, claims=tuple(claims))
            break
    return out


def context_exercises(
    context: ContextLab,
    packed: PackResult,
    reports: Mapping[str, CitationReport],
    thresholds: Sequence[ThresholdRow],
) -> list[Exercise]:
    """Exercises on the file's own chunks, answers and evaluation queries, with solutions."""
    found = [
        _packing_exercise(context, packed),
        _citation_exercise(context, reports),
        _threshold_exercise(thresholds),
    ]
    return [x for x in found if x is not None] + own_exercises(context)
