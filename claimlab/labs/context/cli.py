"""``claimlab pack`` and ``claimlab citations``.

Ranked chunks packed under two budgets; an answer's claims checked against the chunks sent.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from claimlab.checkers.options import add_checker_options
from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import terminal
from claimlab.notebook.terminal import count_type, emit_json, finite_type, say

if TYPE_CHECKING:  # for annotations; each command imports what it runs
    from claimlab.io.context_lab import Answer, Chunk
    from claimlab.metrics.citations import CitationReport


def cmd_pack(args: argparse.Namespace) -> int:
    """Run ``claimlab pack``; returns the exit code."""
    from claimlab.io.context_lab import load_chunks
    from claimlab.metrics.context_budget import pack

    chunks = load_chunks(args.chunks)
    result = pack(
        chunks,
        max_chunks=args.max_chunks,
        max_tokens=args.max_tokens,
        question=args.question,
        threshold=args.threshold,
        language=args.language,
    )
    if args.json:
        emit_json({"chunks_file": args.chunks, **result.to_dict()})
        return 0
    say(
        f"{args.chunks}: {len(chunks)} candidate chunks, budget {args.max_chunks} chunks / {args.max_tokens} tokens"
        + ("" if args.threshold is None else f", relevance threshold {args.threshold:g}")
    )
    say(f"  chunks used  {result.chunks_used.display}")
    say(f"  tokens used  {result.tokens_used.display}  ({result.token_counter})")
    say(f"  all candidates would need {result.candidates_tokens.display}")
    say(
        f"  kept (prompt order): {', '.join(result.kept) or '(none: abstain, do not call the model)'}"
    )
    for d in result.dropped:
        say(f"  dropped #{d.rank} {d.id}: {d.reason}")
    if args.show_prompt:
        say()
        say(result.prompt, block=True)
    return 0


def add_pack(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab pack`` to the command parser."""
    p = sub.add_parser("pack", help="pack ranked chunks under a chunk and a token budget")
    p.add_argument("chunks", help="JSON list of {id, document, version, score, text}")
    p.add_argument("--max-chunks", type=count_type(0), required=True, help="chunk budget")
    p.add_argument("--max-tokens", type=count_type(0), required=True, help="token budget")
    p.add_argument("--question", default="", help="question to put in the prompt")
    p.add_argument("--show-prompt", action="store_true", help="print the rendered prompt")
    p.add_argument(
        "--threshold",
        type=finite_type,
        help="a calibrated relevance threshold: chunks scored below it are never sent, and with"
        " none above it the model is not called",
    )
    p.add_argument(
        "--language",
        choices=("en", "tr"),
        default="en",
        help='keys of the exact "I don\'t know" answer the prompt asks for (default en)',
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_pack)


def cmd_citations(args: argparse.Namespace) -> int:
    """Run ``claimlab citations``; returns the exit code."""
    answer, sent, report = _citations_report(args)
    checked = _meaning_checked(args, answer) if args.checker else None
    if args.json:
        extra = {} if checked is None else {"checker": checked}
        emit_json(
            {"answer_file": args.answer, "context_file": args.context, **report.to_dict(), **extra}
        )
        return 0
    say(f"{args.answer}: {report.verdict} ({len(answer.claims)} claims, {len(sent)} chunks sent)")
    for p in report.problems:
        say(f"  {p.code}: {p.explanation}")
    say(f"  message: {report.message}")
    if checked is not None:
        say(
            f"  checker {terminal(checked['name'])}: {len(checked['pairs'])} claim-sentence pairs,"
            f" {checked['not_supported']} whose sentence does not support its claim"
        )
        for p in checked["pairs"]:
            if p["label"] != "SUPPORTED":
                say(f"    claim {p['claim']} / sentence {p['sentence']}: {p['label']}")
    return 0


def _citations_report(args: argparse.Namespace) -> tuple[Answer, list[Chunk], CitationReport]:
    """The answer (``--name``: one of a fixture's), the chunks sent and the report."""
    from claimlab.io.context_lab import load_chunks, parse_answer
    from claimlab.io.reader import read_json
    from claimlab.metrics.citations import score_citations

    data = read_json(args.answer, error=ClaimlabInputError)
    if args.name is not None:
        answers = data.get("answers") if isinstance(data, dict) else None
        if not isinstance(answers, dict) or args.name not in answers:
            known = ", ".join(answers) if isinstance(answers, dict) else "none"
            raise ClaimlabInputError(
                f"unknown answer (known: {known})", file=args.answer, field=f"answers.{args.name}"
            )
        data = answers[args.name]
    answer = parse_answer(
        data, source=args.answer, where=None if args.name is None else f"answers.{args.name}"
    )
    sent = load_chunks(args.context)
    report = score_citations(
        answer, sent, allow_unsourced=args.allow_unsourced, threshold=args.threshold
    )
    return answer, sent, report


def _meaning_checked(args: argparse.Namespace, answer: Answer) -> dict[str, Any]:
    """``--checker``: each covered sentence's meaning against each claim matched to it."""
    from claimlab.checkers.options import run_from_args
    from claimlab.checkers.verdicts import Item
    from claimlab.core.sentences import split_sentences
    from claimlab.core.vocab import Status
    from claimlab.metrics.citations import covered_pairs

    sentences = [s.text for s in split_sentences(answer.answer)]
    pairs = covered_pairs(answer)
    items = [
        Item(f"claim {k} / sentence {i}", answer.claims[k - 1].text, (sentences[i - 1],))
        for k, i in pairs
    ]
    run = run_from_args(args, items, command="citations")
    rows = [
        {"claim": k, "sentence": i, "label": label.value}
        for (k, i), label in zip(pairs, run.final_labels(), strict=True)
    ]
    bad = sum(r["label"] != Status.SUPPORTED.value for r in rows)
    return {**run.to_dict(), "pairs": rows, "not_supported": bad}


def add_citations(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab citations`` to the command parser."""
    p = sub.add_parser("citations", help="validate an answer's claim-to-chunk citations")
    p.add_argument(
        "answer", help="answer JSON (Turkish or English keys), or a context-lab fixture with --name"
    )
    p.add_argument("--context", required=True, help="JSON list of the chunks that were sent")
    p.add_argument("--name", help="pick one of a fixture's named answers")
    p.add_argument(
        "--allow-unsourced", action="store_true", help="accept claims flagged as unsourced"
    )
    p.add_argument(
        "--threshold",
        type=finite_type,
        help="the calibrated relevance threshold the pipeline used: a claim on a chunk below it,"
        ' or any answer but "I don\'t know" when no chunk sent reaches it, is refused',
    )
    add_checker_options(p, default=None)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_citations, paths=lambda a: ([a.answer, a.context], []))
