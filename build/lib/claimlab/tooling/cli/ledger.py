"""The ``ledger`` command: many decomposers over many answers, from CSV, JSONL or Parquet."""

from __future__ import annotations

import argparse
import sys

from claimlab.core.vocab import status_line
from claimlab.tooling.cli.common import emit_json, say


def cmd_ledger(args: argparse.Namespace) -> int:
    """Run ``claimlab ledger``; returns the exit code."""
    from claimlab.metrics.ledger import METRIC_NAMES, score_ledger
    from claimlab.tooling.writers import write_answers

    result = score_ledger(
        args.candidates,
        args.units,
        by=args.by,
        on_error=args.on_error,
        progress=args.progress or sys.stderr.isatty(),
    )
    if args.out:
        write_answers(result, args.out)
    if args.json:
        emit_json(
            {
                "candidates": args.candidates,
                "units": args.units,
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
    p.add_argument("candidates", help="candidates table (.csv, .jsonl or .parquet)")
    p.add_argument("--units", required=True, help="units table (answer_id, unit_id)")
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
