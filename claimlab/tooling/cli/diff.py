"""``claimlab diff``: which claims (or answers, or queries) changed between two runs."""

from __future__ import annotations

import argparse
import os

from claimlab.core.errors import ClaimlabInputError
from claimlab.notebook.terminal import count_type, emit_json, say


def cmd_diff(args: argparse.Namespace) -> int:
    """Run ``claimlab diff``; returns the exit code (0; 2 for input it refuses)."""
    from claimlab.io.store import kept_run
    from claimlab.metrics.diff import compare, kept_side, table_side
    from claimlab.notebook.diff import diff_lines

    sides = []
    for ref in (args.run_a, args.run_b):
        stored = args.store and (ref.isdigit() or ref in ("latest", "previous"))
        if not stored and not os.path.isfile(ref):
            raise ClaimlabInputError(
                f"{ref!r} is neither a per-item table (a file) nor a run of a store "
                "(an id, latest or previous, with --store FILE.sqlite)"
            )
        sides.append(
            kept_side(kept_run(args.store, ref)) if stored else table_side(ref, by=args.by)
        )
    diff = compare(sides[0], sides[1], figure=args.figure)
    if args.json:
        emit_json({"a": sides[0].name, "b": sides[1].name, "units": sides[0].kind,
                   **diff.to_dict()})  # fmt: skip
        return 0
    say(f"{sides[1].name} against {sides[0].name} ({sides[0].kind}):")
    for line in diff_lines(diff, top=args.top):
        say(line)
    return 0


def add_diff(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab diff`` to the command parser."""
    p = sub.add_parser(
        "diff",
        help="which claims, answers or queries changed between two runs, grouped, with counts",
        description="Compares two runs claim by claim: two runs of a store (--store; by id, "
        "latest or previous), whose RAG claims (rag --store: each claim's entailment and the "
        "chunks that entail it) or audited candidates (decomposition --store: status, faithful) "
        "it kept, else their per-item tables; or two per-item tables (ledger --out: each "
        "answer's faithful, covered and supported counts; rag --out: each query's counts). "
        "The changes are grouped by what moved, with counts, largest effect on the figure "
        "first (--figure; default: the figure that dropped most).",
        epilog="example: claimlab diff previous latest --store runs.sqlite",
    )
    p.add_argument(
        "run_a", metavar="RUN_A", help="the earlier run: a run id (with --store) or a table"
    )
    p.add_argument(
        "run_b", metavar="RUN_B", help="the later run: a run id (with --store) or a table"
    )
    p.add_argument(
        "--store",
        default=os.environ.get("CLAIMLAB_STORE") or None,
        metavar="FILE.sqlite",
        help="the store the runs are in (default: $CLAIMLAB_STORE)",
    )
    p.add_argument(
        "--figure", help="weigh the changes on this figure (default: the one that dropped most)"
    )
    p.add_argument("--by", help="the group column of per-answer tables scored with ledger --by")
    p.add_argument(
        "--top", type=count_type(1), default=10, metavar="N", help="groups shown (default 10)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output (every change)")
    p.set_defaults(handler=cmd_diff, paths=lambda a: ([a.run_a, a.run_b, a.store], []))
