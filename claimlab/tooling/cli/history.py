"""``claimlab history``: the runs a store recorded, a figure over runs, and the trusted claims."""

from __future__ import annotations

import argparse
import os
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.notebook.terminal import emit_json, output_path, say

SHOWN = 12  # figures listed per run without --metric; the rest are counted


def cmd_history(args: argparse.Namespace) -> int:
    """Run ``claimlab history``; returns the exit code (2: a store error, an unknown figure)."""
    from claimlab.io.store import load_runs

    if not args.store:
        raise ClaimlabInputError(
            "give --store FILE.sqlite (or set CLAIMLAB_STORE)", field="--store"
        )
    if args.plot and not args.metric:
        raise ClaimlabInputError(
            "--plot draws one figure over runs: give --metric NAME", field="--plot"
        )
    if args.trusted:
        return _trusted(args)
    runs = load_runs(args.store, metric=args.metric)  # read-only; an unknown --metric refused
    if args.plot:
        _plot(runs, args.metric, args.plot)
    if args.json:
        emit_json(
            {
                "store": args.store,
                "metric": args.metric,
                "runs": [_found(args.store, r) for r in runs],
            }
        )
        return 0
    say(f"{args.store}: {len(runs)} runs")
    for r in runs:
        inputs = ", ".join(f"{os.path.basename(p)} ({h[:12]})" for p, h in r.inputs)
        say(f"  #{r.id} {r.time} claimlab {r.version} {r.command}: {inputs}")
        shown = r.figures[: SHOWN if args.metric is None else None]
        for f in shown:
            say(f"      {f.name} {f.display}")
        if len(r.figures) > len(shown):
            say(
                f"      ... and {len(r.figures) - len(shown)} more figures (--metric NAME or --json)"
            )
    if args.plot:
        say(f"figure written to {args.plot}")
    return 0


def _found(store: str, run: Any) -> dict[str, Any]:
    """A run as JSON, the path of a table it kept given as it is found now (from this folder)."""
    from claimlab.io.store import kept_table_path

    data: dict[str, Any] = run.to_dict()
    for key in ("per_query_table", "per_answer_table"):
        kept = data.get("parameters", {}).get(key)
        if isinstance(kept, dict):
            kept["path"] = kept_table_path(store, kept.get("path")) or kept.get("path")
    return data


def _trusted(args: argparse.Namespace) -> int:
    """``--trusted``: the claims the latest audit of each answer lets be reused."""
    from claimlab.io.store import trusted_claims

    claims = trusted_claims(args.store)
    if args.json:
        emit_json({"store": args.store, "trusted": claims})
        return 0
    say(f"{args.store}: {len(claims)} claims may be reused as trusted facts")
    for c in claims:
        spans = ", ".join(f"{s.get('start')}..{s.get('end')}" for s in c["source_spans"])
        refs = ", ".join(map(str, c["references"]))
        say(
            f"  {c['answer_id']} v{c['answer_version']} {c['candidate_id']}: {c['text']} "
            f"(spans {spans}; refs {refs})"
        )
    return 0


def _plot(runs: list[Any], metric: str, path: str) -> None:
    """The figure over runs (notebook 12's trend: error bars, counts), written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from claimlab.io.files import replacing
    from claimlab.labs.ledger import plot_trend

    fig = plot_trend(runs, metric).figure
    with replacing(path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, bbox_inches="tight")
    plt.close(fig)


def add_history(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab history`` to the command parser."""
    p = sub.add_parser(
        "history",
        help="the runs a store recorded, a figure over runs, or the claims that may be trusted",
        description="Lists the runs recorded with --store (time, claimlab version, command, "
        "inputs with their sha256, figures with counts and intervals), plots one figure over "
        "runs (intervals as error bars), or lists the claims the latest revisions let be reused "
        "as trusted facts. Reading never writes: a store on a read-only mount can be read.",
        epilog="example: claimlab history --store runs.sqlite --metric corpus.micro.coverage --plot cov.png",
    )
    p.add_argument(
        "--store",
        default=os.environ.get("CLAIMLAB_STORE") or None,
        metavar="FILE.sqlite",
        help="the store (default: $CLAIMLAB_STORE)",
    )
    p.add_argument(
        "--metric",
        help="only this figure (its full name, or its last part); an unknown name is refused "
        "with the names the store knows",
    )
    p.add_argument("--plot", metavar="FILE.png", type=output_path, help="draw --metric over runs")
    p.add_argument(
        "--trusted", action="store_true", help="the claims that may be reused as trusted facts"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_history, paths=lambda a: ([a.store], []))
