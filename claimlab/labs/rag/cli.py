"""``claimlab rag`` and ``claimlab meta-eval``: RAGChecker's metrics and its meta-evaluation."""

from __future__ import annotations

import argparse

from claimlab.notebook.terminal import (
    add_store_option,
    count_type,
    emit_json,
    level_type,
    positive_type,
    remember,
    say,
)


def cmd_rag(args: argparse.Namespace) -> int:
    """Run ``claimlab rag``; returns the exit code."""
    from claimlab.io.ragchecker import load_checking
    from claimlab.labs.rag.views import report_lines
    from claimlab.metrics.rag import score_rag

    report = score_rag(load_checking(args.file), noise=args.noise_sensitivity)
    data = report.to_dict()
    remember(args, "rag", {k: v for k, v in data.items() if k != "per_query"})
    if args.json:
        emit_json(data)
        return 0
    for line in report_lines(report, per_query=args.per_query):
        say(line)
    return 0


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
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_rag, paths=lambda a: ([a.file], []))


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
