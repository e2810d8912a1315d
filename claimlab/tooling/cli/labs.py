"""Commands of the teaching labs: ``decomposition``, ``sufficiency``, ``pack``, ``citations``."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import status_line
from claimlab.io.context_lab import load_chunks, parse_answer
from claimlab.io.decomposition import load_decomposition
from claimlab.io.reader import decode_utf8, read_bytes, read_json
from claimlab.io.sufficiency import load_sufficiency
from claimlab.metrics.citations import validate_citations
from claimlab.metrics.context_budget import pack
from claimlab.metrics.decomposition import METRIC_LABELS, METRICS, find_decomposition
from claimlab.metrics.selection import core_select, entity_groups
from claimlab.metrics.sufficiency import find_fixture_sufficiency
from claimlab.tooling.cli.common import count_type, emit_json, finite_type, id_list, say


def cmd_decomposition(args: argparse.Namespace) -> int:
    """Run ``claimlab decomposition``; returns the exit code."""
    fx = load_decomposition(args.file)
    selection = fx.mode(args.mode) if args.mode is not None else id_list(args.select)
    core = core_select(fx, selection)
    if args.select_core:
        selection = core.kept  # the figures below are those of what Core-style selection keeps
    result = find_decomposition(fx, selection)
    groups = entity_groups(fx, selection) if args.by_entity else None
    record = _audit(args, fx, selection) if args.record or args.earlier else None
    if args.json:
        emit_json(
            {
                "file": args.file,
                "mode": args.mode,
                **result.to_dict(),
                "scored": "core selection" if args.select_core else "selection as given",
                "core_selection": core.to_dict(),
                **({"entity_groups": [g.to_dict() for g in groups]} if groups is not None else {}),
                **({"versions": record["versions"]} if record and record["versions"] else {}),
            }
        )
        return 0
    _say_figures(args, fx, result)
    _say_core_and_groups(args, core, groups)
    if record and record["versions"]:
        a, b = record["versions"]
        say(f"  versions side by side    {a['version']} -> {b['version']}")
        for m in METRICS:
            say(f"    {METRIC_LABELS[m]:<22} {a[m]['display']:<16} -> {b[m]['display']}")
    if args.record:
        say(f"  audit record written to {args.record}")
    _say_audit(result)
    return 0


def _audit(args: argparse.Namespace, fx: Any, selection: Sequence[str]) -> dict[str, Any]:
    """The audit record (``--record``, ``--earlier``), written when asked."""
    from claimlab.labs.audit import audit_record

    previous = None
    if args.earlier:
        before = load_decomposition(args.earlier)
        previous = (before, before.mode(args.mode) if args.mode is not None else selection)
    record = audit_record(fx, selection, previous=previous)
    if args.record:
        from claimlab.io.files import write_json

        write_json(args.record, record)
    return record


def _say_figures(args: argparse.Namespace, fx: Any, result: Any) -> None:
    """The four ratios, the cited methods and the ids behind the counts."""
    label = f"mode {args.mode}" if args.mode is not None else "selection"
    say(f"{args.file}: {label}: {', '.join(result.selection) or '(empty)'}")
    if not result.gold:
        say(
            f"  DRAFT, not gold: {len(result.proposed)} selected candidates and "
            f"{len(result.proposed_units)} units hold proposed labels nobody has confirmed; "
            "the figures below count them as given"
        )
    for m in METRICS:
        say(f"  {METRIC_LABELS[m]:<24} {getattr(result, m)}")
    say(f"  {'Atomicity':<24} {result.atomicity}")
    say(
        f"  {'DecompScore':<24} {result.decompscore} supported subclaims per passage (a count, "
        "not a percentage; duplicates count)"
    )
    say(f"  status (unique selection) {status_line(result.status_counts, sep=', ')}")
    for name, ids in (
        ("missing units", result.missing_units),
        ("duplicates", result.duplicates),
        ("introduced", result.introduced),
        ("non-atomic", result.non_atomic),
        ("ambiguous (not counted)", result.ambiguous),
        ("untagged background", result.untagged_background),
        ("unfaithful", result.unfaithful),
    ):
        say(f"  {name:<24} {', '.join(ids) or '-'}")
    if result.untagged_background:
        say("  untagged background: context from outside the original, not tagged: never counted")
    for cid, units in result.unbacked.items():
        say(
            f"  not backed               {cid} preserves {', '.join(units)} but no source span of it"
            f" covers {fx.span_cover:.0%} of the unit's span: not counted"
        )


def _say_core_and_groups(args: argparse.Namespace, core: Any, groups: Any) -> None:
    """What Core-style selection kept and dropped, and the entity groups (``--by-entity``)."""
    say(
        f"  Core-style selection     keeps {', '.join(core.kept) or '-'}; coverage "
        f"{core.coverage_before} -> {core.coverage_after}"
        + ("  (the figures above are of what it keeps: --select-core)" if args.select_core else "")
    )
    if core.not_exact:
        say(f"    NOT proven the heaviest subset: {core.not_exact}")
    for cid, reason in core.dropped:
        say(f"    drops {cid}: {reason}")
    for g in groups or ():
        other = (
            f"; supported only by another entity's references: {', '.join(g.other_entity)}"
            if g.other_entity
            else ""
        )
        say(
            f"  entity {g.entity} {g.version}: {', '.join(g.ids)}; preservation {g.preservation},"
            f" confirmed support {g.confirmed_support} (its own references){other}"
        )


def _say_audit(result: Any) -> None:
    """One line per selected candidate: both layers, and why it is not counted if it is not."""
    say("  audit:")
    for row in result.audit:
        flag = (
            ""
            if row.counted
            else " (AMBIGUOUS mapping: its source cannot be fixed, not counted)"
            if row.mapping == "AMBIGUOUS"
            else f" (duplicate of {row.duplicate_of}, not counted)"
            if row.duplicate_of is not None
            else f" ({row.reason})"
        )
        if row.background:
            untagged = row.id in result.untagged_background
            flag += f" [background{' NOT from the original, untagged' if untagged else ''}: {row.background}]"
        if row.id in result.proposed:
            flag += f" [proposed: {', '.join(result.proposed[row.id])}]"
        say(
            f"    {row.id:<4} preserves={','.join(row.preserves) or '-'} faithful={row.faithful} "
            f"atomic={row.atomic} errors={','.join(row.errors) or '-'} | {row.status} "
            f"{','.join(row.references) or '-'}{flag}"
        )


def add_decomposition(sub: argparse._SubParsersAction) -> None:
    """Add ``claimlab decomposition`` to the command parser."""
    p = sub.add_parser("decomposition", help="score a selection of candidate subclaims")
    p.add_argument("file", help="a claimlab/decomposition@1 file")
    p.add_argument(
        "--select-core",
        action="store_true",
        help="score what Core-style selection keeps (a maximum-weight subset with no repeat and"
        " no entailed pair), each drop with its reason",
    )
    p.add_argument(
        "--by-entity",
        action="store_true",
        help="figures per entity and version (after D-FActScore), a group's support counted"
        " only against that entity's references",
    )
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--select", help="candidate ids, comma-separated (duplicates kept), or @FILE")
    g.add_argument("--mode", help="a named selection from the file's modes")
    p.add_argument(
        "--record",
        metavar="OUT.json",
        help="write the audit record: every candidate with its state and reason, the figures",
    )
    p.add_argument(
        "--earlier",
        metavar="FILE",
        help="the earlier version of the same answer: both versions' figures side by side",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(
        handler=cmd_decomposition,
        paths=lambda a: ([a.file, a.earlier], [("--record", a.record)]),
    )


def context_ids(given: Sequence[str], known: Callable[[str], bool]) -> list[str]:
    """The ids ``--context`` names: each argument an id, or ids joined by commas, or ``@FILE``.

    An argument that is a known id as a whole is one id, commas and all (HotpotQA's
    ``Laie, Hawaii#0``); otherwise it is split at its commas, and pieces that together make a
    known id are joined again. ``@FILE`` holds one id a line.
    """
    out: list[str] = []
    for arg in given:
        if arg.startswith("@"):
            path = arg[1:]
            lines = decode_utf8(read_bytes(path), file=path).splitlines()
            out += [ln.strip() for ln in lines if ln.strip()]
            continue
        if known(arg.strip()) or "," not in arg:
            out += [arg.strip()] if arg.strip() else []
            continue
        pieces = arg.split(",")
        k = 0
        while k < len(pieces):
            for j in range(len(pieces), k, -1):  # the longest run of pieces that is an id
                joined = ",".join(pieces[k:j]).strip()
                if j == k + 1 or known(joined):
                    if joined:
                        out.append(joined)
                    k = j
                    break
    return out


def cmd_sufficiency(args: argparse.Namespace) -> int:
    """Run ``claimlab sufficiency``; returns the exit code."""
    fx = load_sufficiency(args.file)
    context = context_ids(args.context or [], lambda i: fx.item(i) is not None)
    result = find_fixture_sufficiency(
        fx,
        args.question,
        context,
        ignore_metadata=args.ignore_metadata,
        circumstances=args.circumstance or (),
    )
    if args.json:
        emit_json(
            {
                "file": args.file,
                "question": args.question,
                "context": context,
                "ignore_metadata": args.ignore_metadata,
                "circumstances": list(fx.question(args.question).circumstances)
                + list(args.circumstance or ()),
                **result.to_dict(),
            }
        )
        return 0
    _say_sufficiency(args, fx, context, result)
    return 0


def _say_sufficiency(args: argparse.Namespace, fx: Any, context: list[str], result: Any) -> None:
    q = fx.question(args.question)
    say(f"{args.file}: question {args.question}: {q.text}")
    say(
        f"  context: {', '.join(context) or '(empty)'} "
        f"({result.context_raw} raw, {result.context_unique} unique)"
    )
    say(f"  status: {result.status}")
    say(f"  {result.explanation}")
    say(
        "  per asked item: "
        + " · ".join(
            f"{item} {a.status}"
            + (f" ({a.value}, from {', '.join(a.by)})" if a.value else "")
            + (f" (from {', '.join(a.by)})" if a.by and not a.value else "")
            for item, a in result.items.items()
        )
    )
    for c in result.conflicts:
        values = "; ".join(f"{v} ({', '.join(ids)})" for v, ids in c.values.items())
        say(f"  CONFLICT: {c.subject} {c.relation}: {values}")
    for u in result.conditions_unmet:
        say(f"  condition not met: {u.id} holds only if {'; '.join(u.conditions)}")
    for b in result.branches:
        state = "complete" if b.complete else "missing " + (", ".join(b.missing) or "-")
        if b.complete and result.unanswerable:
            state = "every member present, yet the question is unanswerable"
        say(f"  branch {{{', '.join(b.alternative)}}}: {state}")
        for e in b.link_errors:
            say(f"    link error: {e.explanation}")
    for r in result.rejected:
        say(f"  rejected {r.id} ({r.reason}): {r.detail}")
    for r in result.unsafe_candidates:
        say(f"  UNSAFE CANDIDATE {r.id}: {r.detail}")
    for n in result.next_search:
        say(f"  next: {n.explanation}")


def add_sufficiency(sub: argparse._SubParsersAction) -> None:
    """Add ``claimlab sufficiency`` to the command parser."""
    p = sub.add_parser("sufficiency", help="is the selected evidence enough for a question?")
    p.add_argument("file", help="a claimlab/sufficiency@1 file")
    p.add_argument("--question", required=True, help="question name from the file")
    p.add_argument(
        "--context",
        nargs="+",
        action="extend",
        metavar="ID",
        help="evidence ids: repeated, space- or comma-separated (repeats kept), or @FILE with "
        "one id a line; an id holding a comma is given whole",
    )
    p.add_argument(
        "--circumstance",
        action="append",
        metavar="TEXT",
        help="what holds for the asker, beside the question's own (meets an evidence condition "
        "of the same words; repeatable)",
    )
    p.add_argument(
        "--ignore-metadata",
        action="store_true",
        help="demo mode: list records failing the metadata rules as unsafe candidates",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_sufficiency)


def cmd_pack(args: argparse.Namespace) -> int:
    """Run ``claimlab pack``; returns the exit code."""
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
        say(result.prompt)
    return 0


def add_pack(sub: argparse._SubParsersAction) -> None:
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
    report = validate_citations(
        answer, sent, allow_unsourced=args.allow_unsourced, threshold=args.threshold
    )
    if args.json:
        emit_json({"answer_file": args.answer, "context_file": args.context, **report.to_dict()})
        return 0
    say(f"{args.answer}: {report.verdict} ({len(answer.claims)} claims, {len(sent)} chunks sent)")
    for p in report.problems:
        say(f"  {p.code}: {p.explanation}")
    say(f"  message: {report.message}")
    return 0


def add_citations(sub: argparse._SubParsersAction) -> None:
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
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_citations)
