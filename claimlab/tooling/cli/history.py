"""``claimlab history``: the runs a store recorded, a figure over runs, and the trusted claims."""

from __future__ import annotations

import argparse
import os
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.notebook.terminal import emit_json, say


def cmd_history(args: argparse.Namespace) -> int:
    """Run ``claimlab history``; returns the exit code."""
    from claimlab.io.store import read_runs, trusted_claims

    if not args.store:
        raise ClaimlabInputError(
            "give --store FILE.sqlite (or set CLAIMLAB_STORE)", field="--store"
        )
    if args.plot and not args.metric:
        raise ClaimlabInputError(
            "--plot draws one figure over runs: give --metric NAME", field="--plot"
        )
    if args.trusted:
        claims = trusted_claims(args.store)
        if args.json:
            emit_json({"store": args.store, "trusted": claims})
            return 0
        say(f"{args.store}: {len(claims)} claims may be reused as trusted facts")
        for c in claims:
            spans = ", ".join(f"{s['start']}..{s['end']}" for s in c["source_spans"])
            say(
                f"  {c['answer_id']} v{c['answer_version']} {c['candidate_id']}: {c['text']} (spans {spans}; refs {', '.join(c['references'])})"
            )
        return 0
    if args.metric:
        _check_metric(args.store, args.metric)
    runs = read_runs(args.store, metric=args.metric)
    if args.plot:
        _plot(runs, args.metric, args.plot)
    if args.json:
        emit_json({"store": args.store, "metric": args.metric, "runs": [r.to_dict() for r in runs]})
        return 0
    say(f"{args.store}: {len(runs)} runs")
    for r in runs:
        inputs = ", ".join(f"{os.path.basename(p)} ({h[:12]})" for p, h in r.inputs)
        say(f"  #{r.id} {r.time} claimlab {r.version} {r.command}: {inputs}")
        for f in r.figures[: 12 if args.metric is None else None]:
            counts = "" if f.denominator is None else f" ({f.numerator}/{f.denominator})"
            value = "N/A" if f.value is None else f"{f.value:.4f}"
            bounds = "" if f.low is None else f" [{f.low:.4f}, {f.high:.4f}]"
            say(f"      {f.name} {value}{counts}{bounds}")
    if args.plot:
        say(f"figure written to {args.plot}")
    return 0


def metric_names(figures: list[str]) -> list[str]:
    """The names ``--metric`` accepts for figures so named: each name and each dotted tail.

    Examples:
        >>> metric_names(["micro.coverage", "f1"])
        ['coverage', 'f1', 'micro.coverage']
    """
    out = set(figures)
    for name in figures:
        parts = name.split(".")
        out.update(".".join(parts[i:]) for i in range(1, len(parts)))
    return sorted(out)


def _check_metric(store: str, metric: str) -> None:
    """Refuse a ``--metric`` no figure of the store answers to, with the names it holds."""
    from claimlab.core.text import did_you_mean
    from claimlab.io.store import read_runs

    figures = sorted({f.name for r in read_runs(store) for f in r.figures})
    names = metric_names(figures)
    if figures and metric not in names:
        raise ClaimlabInputError(
            f"no figure is named {metric!r}{did_you_mean(metric, names)}; this store holds "
            f"{', '.join(figures)}",
            field="--metric",
        )


def _plot(runs: list[Any], metric: str, path: str) -> None:
    """The figure over runs, each point with its interval and counts, written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from claimlab.io.files import replacing
    from claimlab.notebook.style import label

    points = [(r, f) for r in runs for f in r.figures if f.value is not None]
    fig, ax = plt.subplots(figsize=(7.2, 3.0))
    names = sorted({f.name for _, f in points})
    for name in names:
        mine = [(r, f) for r, f in points if f.name == name]
        xs = [r.id for r, _ in mine]
        ys = [f.value for _, f in mine]
        ax.plot(xs, ys, marker="o", label=label(name, 60))
        for (_, f), x, y in zip(mine, xs, ys, strict=True):
            if f.low is not None and f.high is not None:
                ax.vlines(x, f.low, f.high, color="0.5")
            if f.denominator is not None:
                ax.annotate(
                    f"{f.numerator}/{f.denominator}",
                    (x, y),
                    fontsize=8,
                    xytext=(3, 3),
                    textcoords="offset points",
                )
    ax.set_xlabel("run")
    ax.set_ylabel(label(metric, 40))
    ax.set_title(
        label(f"{metric} over {len({r.id for r, _ in points})} runs (counts beside each point)", 80)
    )
    if names:
        ax.legend(fontsize=8)
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
        "runs, or lists the claims the latest audits let be reused as trusted facts.",
        epilog="example: claimlab history --store runs.sqlite --metric corpus.micro.coverage --plot cov.png",
    )
    p.add_argument(
        "--store",
        default=os.environ.get("CLAIMLAB_STORE") or None,
        metavar="FILE.sqlite",
        help="the store (default: $CLAIMLAB_STORE)",
    )
    p.add_argument("--metric", help="only this figure (its full name, or its last part)")
    p.add_argument("--plot", metavar="FILE.png", help="draw --metric over runs")
    p.add_argument(
        "--trusted", action="store_true", help="the claims that may be reused as trusted facts"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_history, paths=lambda a: ([a.store], [("--plot", a.plot)]))
