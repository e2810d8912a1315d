"""The ``ledger`` command: many decomposers over many answers, from CSV, JSONL or Parquet."""

from __future__ import annotations

import argparse
import sys

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import status_line
from claimlab.tooling.cli.common import emit_json, say


def cmd_ledger(args: argparse.Namespace) -> int:
    """Run ``claimlab ledger``; returns the exit code."""
    from claimlab.metrics.ledger import METRIC_NAMES, score_ledger, score_tables
    from claimlab.tooling.writers import write_answers

    proposed = None
    extra = None
    if args.from_decompositions:
        if args.candidates or args.units:
            raise ClaimlabInputError(
                "--from-decompositions reads a folder instead of CANDIDATES and --units; give one"
            )
        from claimlab.io.ledger import decomposition_folder, tables_from_decompositions

        fixtures = decomposition_folder(args.from_decompositions)
        cand, units = tables_from_decompositions(fixtures)
        result = score_tables(cand, units, by=args.by, on_error=args.on_error)
        drafts = [fx for fx in fixtures if fx.is_draft]
        proposed = {
            "files": len(fixtures),
            "draft_files": len(drafts),
            "candidates_with_proposed_labels": sum(len(fx.proposed) for fx in fixtures),
            "proposed_units": sum(len(fx.proposed_units) for fx in fixtures),
            "gold": not drafts,
        }
        extra = {
            "proposed_candidates": {fx.original.id: len(fx.proposed) for fx in fixtures},
            "proposed_units": {fx.original.id: len(fx.proposed_units) for fx in fixtures},
        }
    else:
        if not args.candidates or not args.units:
            raise ClaimlabInputError(
                "give CANDIDATES and --units UNITS, or --from-decompositions FOLDER"
            )
        result = score_ledger(
            args.candidates,
            args.units,
            by=args.by,
            on_error=args.on_error,
            progress=args.progress or sys.stderr.isatty(),
        )
    if args.out:
        write_answers(result, args.out, extra=extra)
    if args.json:
        emit_json(
            {
                "candidates": args.candidates,
                "units": args.units,
                "from_decompositions": args.from_decompositions,
                **({"labels": proposed} if proposed is not None else {}),
                "by": args.by,
                "out": args.out,
                **result.to_dict(),
            }
        )
        return 0
    if result.counts.skipped_rows:
        n = result.counts.skipped_rows
        say(f"skipped {n} bad row{'' if n == 1 else 's'} (--on-error skip):")
        for issue in result.counts.issues:
            say(f"  {issue}")
        for field, more in result.counts.unlisted.items():
            say(f"  {args.candidates}: {field}: ... and {more} more rows like these")
    if proposed is not None:
        say(
            f"{args.from_decompositions}: {proposed['files']} decomposition files"
            + (
                f"; DRAFT, not gold: {proposed['draft_files']} files still hold proposed labels "
                f"({proposed['candidates_with_proposed_labels']} candidates, "
                f"{proposed['proposed_units']} units) and the figures below count them as given"
                if proposed["draft_files"]
                else "; every label confirmed by a person"
            )
        )
    groups = [result.corpus, *result.groups.values()]
    for g in groups:
        say(
            f"{g.group}: {g.answers} answers ({g.empty_answers} without candidates, scored as empty selections)"
        )
        for m in METRIC_NAMES:
            say(f"  {m:<18} micro {g.micro[m].display:<22} macro {g.macro[m].display}")
        say(
            f"  status (unique)    {status_line(g.status_counts, sep=', ')}; duplicates "
            f"{g.duplicates}; missing units {g.missing_units}; non-atomic {g.non_atomic}"
        )
    if args.out:
        say(f"per-answer rows written to {args.out}")
    return 0


def add_ledger(sub: argparse._SubParsersAction) -> None:
    """Add ``claimlab ledger`` to the command parser."""
    p = sub.add_parser("ledger", help="score a claim ledger (many models x answers) fast")
    p.add_argument("candidates", nargs="?", help="candidates table (.csv, .jsonl or .parquet)")
    p.add_argument("--units", help="units table (answer_id, unit_id)")
    p.add_argument(
        "--from-decompositions",
        metavar="FOLDER",
        help="score a folder of claimlab/decomposition@1 files (drafts or gold), one per answer",
    )
    p.add_argument("--by", help="column to compare side by side (e.g. model)")
    p.add_argument("--out", help="write per-answer rows here (.csv, .jsonl or .parquet)")
    p.add_argument(
        "--on-error",
        choices=("stop", "skip"),
        default="stop",
        help="bad rows: stop (default) or skip and count",
    )
    p.add_argument(
        "--progress", action="store_true", help="show a progress bar even when not on a terminal"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_ledger)
