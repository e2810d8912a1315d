"""``claimlab rag`` and ``claimlab meta-eval``: RAGChecker's metrics and its meta-evaluation."""

from __future__ import annotations

import argparse
from typing import Any

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
)


def cmd_rag(args: argparse.Namespace) -> int:
    """Run ``claimlab rag``; returns the exit code (the gate's, with ``--baseline``)."""
    from claimlab.io.ragchecker import load_checking
    from claimlab.labs.rag.views import report_lines
    from claimlab.metrics.rag import per_query_table, score_rag

    check_gate_options(args)
    if args.baseline:
        _gate_figures(args)  # refused before the file is read
    checked = _check(args) if args.check else {}
    report = score_rag(load_checking(args.check or args.file), noise=args.noise_sensitivity)
    table = per_query_table(report) if args.out or args.baseline or args.store else None
    if args.out:
        write_table(table, args.out)
    if args.store:  # the stored run keeps its per-query table (path and hash in its parameters)
        args.per_query_table = keep_table(table, args.store)
    gate = _gate(args, table) if args.baseline else None
    data = {**checked, **report.to_dict(), **(gate.to_dict() if gate is not None else {})}
    remember(args, "rag", {k: v for k, v in data.items() if k != "per_query"})
    if args.json:
        emit_json(data)
    else:
        for line in report_lines(report, per_query=args.per_query):
            say(line)
        for line in _check_lines(checked):
            say(line)
        if args.out:
            say(f"per-query rows written to {args.out}")
        say_gate(args, gate, items="queries")
    return gate.exit_code if gate is not None else 0


def _gate(args: argparse.Namespace, table: Any) -> Any:
    """This run's per-query table gated against ``--baseline``; the reports written."""
    from claimlab.metrics.gate import gate_file

    gate = gate_file(
        args.baseline, table, _gate_figures(args), keys=["query_id"], **gate_options(args)
    )
    write_reports(args, gate)
    return gate


def _gate_figures(args: argparse.Namespace) -> tuple[Any, ...]:
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
    for name, a in checked["agreement_with_file"].items():
        kappa = a["kappa"]["value"]
        lines.append(
            f"  {name:<18} agrees with the file's labels {a['agreement']['display']}, kappa "
            f"{'N/A' if kappa is None else f'{kappa:.3f}'}"
        )
    return lines


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
    from claimlab.metrics.meta_eval import meta_evaluate

    pairs = load_meta_evaluation(args.human, args.scores, checker=args.checker)
    result = meta_evaluate(
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
        epilog="example: claimlab rag checking_outputs.json --per-query",
    )
    p.add_argument("file", help="RAGChecker's checking output (JSON)")
    p.add_argument("--per-query", action="store_true", help="show every query's figures too")
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

    add_gate_options(p, figures=RAG_METRICS, table="per-query")
    p.add_argument(
        "--bootstrap",
        type=count_type(100, 1_000_000),
        default=2000,
        help="resamples of queries behind the gate's bound (default 2000)",
    )
    p.add_argument("--seed", type=int, default=0, help="the resampling seed (default 0)")


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
