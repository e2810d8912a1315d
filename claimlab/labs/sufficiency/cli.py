"""``claimlab sufficiency`` and ``claimlab sufficiency-cases``.

Is this context enough for this question? And premise-cut test cases with the trivial
checkers' scores.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from claimlab.io.reader import WRITTEN_DEPTH, at_file, read_json
from claimlab.notebook.terminal import emit_json, output_path, say

if TYPE_CHECKING:
    from claimlab.io.sufficiency import SufficiencyFixture
    from claimlab.metrics.sufficiency import SufficiencyResult


def context_ids(given: Sequence[str], known: Callable[[str], bool]) -> list[str]:
    """The ids ``--context`` names: each argument an id, or ids joined by commas, or ``@FILE``.

    An argument that is a known id as a whole is one id, commas and all (HotpotQA's
    ``Laie, Hawaii#0``); otherwise it is split at its commas, and pieces that together make a
    known id are joined again. ``@FILE`` holds one id a line.
    """
    out: list[str] = []
    for arg in given:
        if (lines := at_file(arg, option="--context")) is not None:
            out += [ln.strip() for ln in lines[1] if ln.strip()]
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
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.metrics.sufficiency import score_fixture_sufficiency

    fx = load_sufficiency(args.file)
    context = context_ids(args.context or [], lambda i: fx.item(i) is not None)
    result = score_fixture_sufficiency(
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


def _say_sufficiency(
    args: argparse.Namespace, fx: SufficiencyFixture, context: list[str], result: SufficiencyResult
) -> None:
    q = fx.question(args.question)
    say(f"{args.file}: question {args.question}: {q.text}")
    say(
        f"  context: {', '.join(context) or '(empty)'} "
        f"({result.context_raw} raw, {result.context_unique} unique)"
    )
    say(f"  status: {result.status}")
    say(f"  {result.explanation}")
    if result.unknown and result.witnesses:  # a typo beside a complete witness: said, not lost
        say(f"  not in the file, left out: {', '.join(result.unknown)}")
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
        about = f"the {c.item} of {c.subject}" if c.item else c.subject
        say(f"  CONFLICT: {about} {c.relation}: {values}")
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


def add_sufficiency(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def cmd_sufficiency_cases(args: argparse.Namespace) -> int:
    """Run ``claimlab sufficiency-cases``; returns the exit code."""
    from claimlab.io.files import write_json
    from claimlab.labs.sufficiency.cases import (
        KINDS,
        build_cases,
        case_notes,
        check_cases,
        trivial_scores,
    )

    doc = read_json(args.file, max_depth=WRITTEN_DEPTH)
    cases = build_cases(doc, source=args.file)
    failures = check_cases(cases)
    trivial = trivial_scores(cases)
    write_json(args.out, cases)
    counts = dict.fromkeys(KINDS, 0)
    for c in cases["cases"]:
        counts[c["kind"]] += 1
    notes = case_notes(cases["fixture"], counts)
    if args.json:
        emit_json(
            {"file": args.file, "out": args.out, "cases": counts, "notes": notes,
             "failed": failures, "trivial_checkers": trivial.to_dict()}
        )  # fmt: skip
        return 0 if not failures else 1
    shown = ", ".join(f"{k} {n}" for k, n in counts.items())
    say(f"{args.out}: {len(cases['cases'])} cases from {args.file} ({shown})")
    for note in notes:
        say(f"  {note}")
    say(
        f"  a checker that always says SUFFICIENT gets {trivial.always_sufficient.display}; "
        f"one that always says INSUFFICIENT {trivial.always_insufficient.display}"
        + ("" if trivial.telling else ": THIS SET CANNOT TELL ONE OF THEM FROM A REAL CHECKER")
    )
    for f in failures[:20]:
        say(f"  FAILED {f}")
    say("every case behaves as stated" if not failures else f"{len(failures)} cases do not")
    return 0 if not failures else 1


def add_sufficiency_cases(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab sufficiency-cases`` to the command parser."""
    p = sub.add_parser(
        "sufficiency-cases",
        help="test cases from every complete witness: one premise cut, a look-alike, stale, a copy",
    )
    p.add_argument("file", help="a claimlab/sufficiency@1 file")
    p.add_argument(
        "--out",
        required=True,
        type=output_path,
        help="the cases file to write (claimlab/sufficiency-cases@1)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_sufficiency_cases, paths=lambda a: ([a.file], []))
