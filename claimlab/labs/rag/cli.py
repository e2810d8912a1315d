"""``claimlab rag`` and ``claimlab meta-eval``: RAGChecker's metrics and its meta-evaluation."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from claimlab.checkers.options import add_checker_options
from claimlab.core.errors import ClaimlabInputError
from claimlab.notebook.gate import (
    add_gate_options,
    check_gate_options,
    gate_options,
    keep_table,
    say_gate,
    write_reports,
    write_table,
)
from claimlab.notebook.terminal import (
    add_store_option,
    count_type,
    emit_json,
    level_type,
    output_path,
    positive_type,
    remember,
    say,
    share_type,
)

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.io.ragchecker import RagChecking
    from claimlab.metrics.diff import RunDiff
    from claimlab.metrics.gate import Gate, GateFigure
    from claimlab.metrics.rag import RagReport


def cmd_rag(args: argparse.Namespace) -> int:
    """Run ``claimlab rag``; returns the exit code (the gate's, with ``--baseline``)."""
    from claimlab.io.ragchecker import load_checking
    from claimlab.labs.rag.views import per_query_csv, report_lines
    from claimlab.metrics.rag import per_query_rows, per_query_table, score_rag

    check_gate_options(args)
    if args.format and not args.per_query:
        raise ClaimlabInputError("--format shapes the per-query rows: give --per-query too")
    if args.format == "csv" and args.json:
        raise ClaimlabInputError("--format csv prints the per-query table itself: drop --json")
    if args.baseline:
        _gate_figures(args)  # refused before the file is read
    checked = _check(args) if args.check else {}
    checking = load_checking(args.check or args.file)
    report = score_rag(checking, noise=args.noise_sensitivity)
    # the table (pandas) for what writes or compares it; the rows alone for what prints them
    table = per_query_table(report) if args.out or args.baseline or args.store else None
    rows = per_query_rows(report) if args.format in ("table", "csv") else None
    if args.check:
        checked["corrected_with_file_labels"] = _corrected(args, report)
    if args.out:
        write_table(table, args.out)
    gate, changes = _gate(args, table, checking) if args.baseline else (None, None)
    if args.store:  # the stored run keeps its per-query table (path and hash in its parameters)
        args.per_query_table = keep_table(table, args.store)
    data = {**checked, **report.to_dict(), **(gate.to_dict() if gate is not None else {}),
            **({"changes": changes.to_dict()} if changes is not None else {})}  # fmt: skip
    kept = {k: v for k, v in data.items() if k not in ("per_query", "changes")}
    remember(args, "rag", kept, rag_queries=checking.queries)
    if args.format == "csv" and rows is not None:  # the table alone, to pipe into a file
        say(per_query_csv(rows), end="", block=True)
    elif args.json:
        emit_json(data)
    else:
        shaped = rows if args.format == "table" else None
        for line in report_lines(report, per_query=args.per_query, table=shaped):
            say(line)
        for line in _check_lines(checked):
            say(line)
        if args.out:
            say(f"per-query rows written to {args.out}")
        say_gate(args, gate, items="queries", changes=changes)
    return gate.exit_code if gate is not None else 0


def _gate(
    args: argparse.Namespace, table: pd.DataFrame, checking: RagChecking
) -> tuple[Gate, RunDiff]:
    """This run's per-query table gated against ``--baseline``, what changed, the reports.

    The changes go claim by claim when ``--store`` holds the run that kept the baseline table
    (found by its SHA-256), else query by query through the two tables.
    """
    from claimlab.io.store import kept_baseline
    from claimlab.metrics.diff import baseline_side, compare, gate_figure, rag_run, table_run
    from claimlab.metrics.gate import gate_file

    gate = gate_file(
        args.baseline, table, _gate_figures(args), keys=["query_id"], **gate_options(args)
    )
    before = baseline_side(args.baseline, kept_baseline(args.store, args.baseline))
    if before.kind == "RAG claims":
        now = rag_run(checking.queries, noise=args.noise_sensitivity)
    else:
        now = table_run(table, item="query")
    changes = compare(before, now, figure=gate_figure(gate, before.figures))
    write_reports(args, gate, changes=changes)
    return gate, changes


def _gate_figures(args: argparse.Namespace) -> tuple[GateFigure, ...]:
    """The figures ``--gate-figures`` names (default: every metric the aggregate can gate).

    Raises:
        ClaimlabInputError: F1 gated micro (pooled F1 is no ratio of per-query counts).
    """
    from claimlab.metrics.rag import RAG_METRICS, gate_figures

    micro = args.gate_aggregate == "micro"
    names = args.gate_figures or [m for m in RAG_METRICS if not (micro and m == "f1")]
    if micro and "f1" in names:
        raise ClaimlabInputError(
            "f1 is gated macro only (--gate-aggregate macro): pooled F1 is no ratio of "
            "per-query counts",
            field="--gate-figures",
        )
    return gate_figures(names)


def _check_lines(checked: dict[str, Any]) -> list[str]:
    """What ``--check`` adds to the text output: the checker, the file, the agreement."""
    from claimlab.core.text import terminal

    if not checked:
        return []
    run = checked["checker"]
    lines = [
        f"checked by {terminal(run['name'])} (version {terminal(run['version'] or '-')}): "
        f"{run['calls']} calls, {run['hits']} from the cache; written: {terminal(checked['written'])}"
    ]
    from claimlab.checkers.repeats import repeats_line

    repeats = repeats_line(run.get("repeats"))
    lines += [repeats] if repeats else []
    for name, a in checked["agreement_with_file"].items():
        kappa = a["kappa"]["value"]
        lines.append(
            f"  {name:<18} agrees with the file's labels {a['agreement']['display']}, kappa "
            f"{'N/A' if kappa is None else f'{kappa:.3f}'}"
        )
    return lines + _corrected_lines(checked["corrected_with_file_labels"])


def _corrected(args: argparse.Namespace, report: RagReport) -> dict[str, Any]:
    """The checker's figures corrected by the file's own labels on a sample of queries."""
    from claimlab.io.ragchecker import load_checking
    from claimlab.labs.rag.check import corrected_figures
    from claimlab.metrics.rag import score_rag

    try:
        on_file = score_rag(load_checking(args.file), noise=args.noise_sensitivity)
    except ClaimlabInputError:  # claims and chunks only: no labels of the file's own
        return {"reason": "the file carries no labels of its own: nothing to correct with"}
    return corrected_figures(on_file, report, share=args.labelled, seed=args.seed)


def _corrected_lines(corrected: dict[str, Any]) -> list[str]:
    """The corrected figures, one line each, or why there are none."""
    if "figures" not in corrected:
        return [f"  corrected figures: N/A ({corrected['reason']})"]
    figures = corrected["figures"]
    first = next(iter(figures.values()))
    lines = [
        f"  corrected by the file's labels on {first['labelled']} of "
        f"{first['labelled'] + first['unlabelled']} queries (prediction-powered, "
        f"{100 * corrected['level']:.0f}% interval; share {corrected['share']}, seed "
        f"{corrected['seed']}):"
    ]
    for m, f in figures.items():
        if "reason" in f:
            lines.append(f"    {m:<32} N/A ({f['reason']})")
            continue
        lines.append(
            f"    {m:<32} {_estimate(f['ppi'])} (checker alone {_estimate(f['naive_autorater'])})"
        )
    return lines


def _estimate(e: dict[str, Any]) -> str:
    """``61.2% [58.0%, 64.3%]``, or N/A."""
    if e["value"] is None:
        return "N/A"
    if e["low"] is None or e["high"] is None:
        return f"{100 * e['value']:.1f}%"
    return f"{100 * e['value']:.1f}% [{100 * e['low']:.1f}%, {100 * e['high']:.1f}%]"


def _check(args: argparse.Namespace) -> dict[str, Any]:
    """``--check``: the four label sets filled by the checker, written to ``--out``."""
    from claimlab.checkers.options import run_from_args
    from claimlab.io.files import write_json
    from claimlab.io.ragchecker import load_claims
    from claimlab.labs.rag.check import check_items, filled, set_agreement

    doc, queries = load_claims(args.file)
    items, slots = check_items(queries)
    run = run_from_args(args, items, command="rag")
    labels = run.final_labels()
    write_json(args.check, filled(doc, queries, slots, labels, run.to_dict()))
    return {
        "checker": run.to_dict(),
        "written": args.check,
        "agreement_with_file": set_agreement(doc, slots, labels).to_dict(),
    }


def cmd_meta_eval(args: argparse.Namespace) -> int:
    """Run ``claimlab meta-eval``; returns the exit code."""
    from claimlab.io.ragchecker import load_meta_evaluation
    from claimlab.labs.rag.views import meta_lines
    from claimlab.metrics.meta_eval import score_meta_evaluation

    pairs = load_meta_evaluation(args.human, args.scores, checker=args.checker)
    result = score_meta_evaluation(
        pairs,
        level=args.ci,
        resamples=args.bootstrap,
        seed=args.seed,
        tie_decimals=args.tie_decimals,
        scale=args.score_scale,
    )
    if args.json:
        emit_json(
            {
                "human": args.human,
                "scores": args.scores,
                "checker": args.checker,
                **result.to_dict(),
            }
        )
        return 0
    for line in meta_lines(result, checker=args.checker):
        say(line)
    return 0


def add_rag(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab rag`` to the command parser."""
    p = sub.add_parser(
        "rag",
        help="RAGChecker's 11 metrics per query and overall, with counts and N/A",
        description="Reads RAGChecker's checking output (results[] with response and ground-truth "
        "claims and Entailment/Neutral/Contradiction labels) and gives precision, recall, F1, the "
        "retriever's claim recall and context precision, and the generator's context "
        "utilisation, noise sensitivity, hallucination, self-knowledge and faithfulness: the "
        "macro mean over queries (a query where a figure is N/A left out, counted) and the micro "
        "figure over pooled claims.",
        epilog="example: claimlab rag checking_outputs.json --per-query --format table",
    )
    p.add_argument("file", help="RAGChecker's checking output (JSON)")
    p.add_argument("--per-query", action="store_true", help="show every query's figures too")
    p.add_argument(
        "--format",
        choices=("lines", "table", "csv"),
        help="with --per-query: 'lines' (default: each query's figures, a line per metric), "
        "'table' (a row per query, a column per metric, each with its counts) or 'csv' (the "
        "per-query table --out writes, printed alone)",
    )
    p.add_argument(
        "--noise-sensitivity",
        choices=("ragchecker", "paper"),
        default="ragchecker",
        help="a query whose ground truth has no claim: 'ragchecker' (default) counts no chunk as "
        "relevant or irrelevant, so both noise sensitivities are 0 of |R| as RAGChecker's code "
        "gives; 'paper' counts every chunk as irrelevant (the paper's definition read literally)",
    )
    p.add_argument(
        "--check",
        metavar="LABELLED.json",
        type=output_path,
        help="fill the four label sets with --checker from the file's claims and chunks, write "
        "them to LABELLED.json, then score that file (agreement with the file's own labels "
        "reported)",
    )
    add_checker_options(p)
    p.add_argument(
        "--labelled",
        type=share_type,
        default=0.25,
        metavar="SHARE",
        help="with --check: the share of queries whose own labels correct the checker's figures "
        "(prediction-powered; default 0.25, chosen by a seeded hash of the query id, --seed)",
    )
    p.add_argument(
        "--out",
        metavar="TABLE",
        type=output_path,
        help="write the per-query table (every metric's numerator, denominator and value per "
        "query) to CSV, JSONL or Parquet, by the suffix; a later run's --baseline",
    )
    _add_gate(p)
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_rag, paths=lambda a: ([a.file, a.baseline], []))


def _add_gate(p: argparse.ArgumentParser) -> None:
    """The shared gate options, and the resampling behind its one-sided bound."""
    from claimlab.core.vocab import RAG_METRICS

    add_gate_options(p, figures=RAG_METRICS, table="per-query", resampled="queries")


def add_meta_eval(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab meta-eval`` to the command parser."""
    p = sub.add_parser(
        "meta-eval",
        help="how well a checker's score differences follow people's pairwise preferences",
        description="RAGChecker's meta-evaluation: Pearson and Spearman correlations (percent) of "
        "a checker's score differences with people's -2..2 preferences per label, and of the "
        "two people with each other; beyond the paper, intervals from resampling response "
        "pairs, the people's quadratic-weighted kappa, and whether the checker is significantly "
        "below the people's own agreement.",
        epilog="example: claimlab meta-eval human_labeled_data.json baseline_ragchecker.json",
    )
    p.add_argument("human", help="people's judgments (two per response pair, in order)")
    p.add_argument("scores", help="the checker's scores of each response (model1/model2)")
    p.add_argument("--checker", default="ragchecker", help="the checker's key in the scores file")
    p.add_argument(
        "--ci", type=level_type, default=0.95, metavar="LEVEL", help="interval level (default 0.95)"
    )
    p.add_argument(
        "--bootstrap",
        type=count_type(100, 1_000_000),
        default=2000,
        help="resamples of response pairs (default 2000)",
    )
    p.add_argument("--seed", type=int, default=0, help="the resampling seed (default 0)")
    p.add_argument(
        "--tie-decimals",
        type=count_type(0, 15),
        default=None,
        help="round score differences to this many decimals first, so that differences equal "
        "in exact arithmetic tie in Spearman's ranks (default: no rounding)",
    )
    p.add_argument(
        "--score-scale",
        type=positive_type,
        default=100.0,
        help="multiply each score by this before subtracting (default 100: RAGChecker's percent, "
        "the scale of the paper's figures; near-ties in Spearman's ranks depend on it)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_meta_eval, paths=lambda a: ([a.human, a.scores], []))
