"""The context lab's exercises on packing, citations and thresholds, computed from the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from claimlab.core.content import alter_number
from claimlab.core.sentences import split_sentences
from claimlab.core.text import md_code, md_ids, md_text, plural
from claimlab.core.vocab import ProblemCode, Verdict
from claimlab.io.context_lab import Answer, Chunk, ContextLab
from claimlab.io.lesson import Exercise
from claimlab.labs.teaching import own_exercises
from claimlab.metrics.citations import ChunkIndex, CitationReport
from claimlab.metrics.context_budget import PackResult, ThresholdRow, pack


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
