"""The ``ledger`` command: many decomposers over many answers, from CSV, JSONL or Parquet."""

from __future__ import annotations

import argparse
import sys

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import status_line
from claimlab.tooling.cli.common import add_uncertainty_options, compare_pairs, emit_json, say


def cmd_ledger(args: argparse.Namespace) -> int:
    """Run ``claimlab ledger``; returns the exit code."""
    from claimlab.metrics.ledger import METRIC_NAMES, score_ledger, score_tables
    from claimlab.tooling.writers import write_answers

    if args.compare and not args.by:
        raise ClaimlabInputError("--compare needs --by (the column naming what is compared)")
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
    intervals, comparisons, rankings = _uncertainty(args, result)
    powered = _prediction_powered(args, result) if args.human else []
    if args.json:
        data = result.to_dict()
        for group, ivs in intervals.items():
            fig = data["corpus"] if group is None else data["by_group"][group]
            for (aggregate, metric), iv in ivs.items():
                fig[aggregate][metric]["ci"] = iv.to_dict() if iv is not None else None
        emit_json(
            {
                "candidates": args.candidates,
                "units": args.units,
                "from_decompositions": args.from_decompositions,
                **({"labels": proposed} if proposed is not None else {}),
                "by": args.by,
                "out": args.out,
                **data,
                **({"comparisons": [c.to_dict() for c in comparisons]} if args.compare else {}),
                **({"rankings": rankings} if args.compare else {}),
                **({"prediction_powered": [p.to_dict() for p in powered]} if args.human else {}),
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
        ivs = intervals.get(None if g is result.corpus else g.group, {})
        for m in METRIC_NAMES:
            say(f"  {m:<18} micro {g.micro[m].display:<22} macro {g.macro[m].display}")
            for aggregate in ("micro", "macro") if ivs else ():
                iv = ivs.get((aggregate, m))
                say(
                    f"  {'':<18}   {aggregate} {iv.display if iv else 'N/A: no interval (no denominator)'}"
                )
        say(
            f"  status (unique)    {status_line(g.status_counts, sep=', ')}; duplicates "
            f"{g.duplicates}; missing units {g.missing_units}; non-atomic {g.non_atomic}"
        )
    if comparisons:
        say("paired comparisons (A - B on the answers both scored; Holm over all of them):")
        for c in comparisons:
            say(f"  {c.a} - {c.b}  {c.metric:<18} {c.aggregate}  {c.display}")
        for rk in rankings:
            if rk.get("same_order") is not None:
                shown = rk["order"][0] + "".join(
                    f" {'=' if p['tied'] else '>'} {p['below']}" for p in rk["pairs"]
                )
                say(
                    f"  ranking by {rk['metric']} ({rk['aggregate']}): {shown}"
                    f" holds in {100 * rk['same_order']:.1f}% of {rk['resamples']} resamples of "
                    f"{rk['answers']} answers every decomposer scored"
                )
    if powered:
        p0 = powered[0]
        say(
            f"prediction-powered ({100 * p0.level:g}%): the autorater's labels on every answer, "
            f"corrected by people's on {p0.labelled} of them ({p0.unlabelled} not labelled):"
        )
        for p in powered:
            say(
                f"  {p.figure:<18} {p.aggregate}  corrected {p.ppi.display}  autorater alone "
                f"{p.naive.display}  people alone {p.human.display}"
            )
    if args.out:
        say(f"per-answer rows written to {args.out}")
    return 0


def _prediction_powered(args: argparse.Namespace, result: object) -> list:
    """The ledger's figures with the people's labels of ``--human`` correcting the autorater's."""
    from claimlab.io.ledger import read_table
    from claimlab.metrics.ledger import count_ledger
    from claimlab.metrics.uncertainty import ledger_prediction_powered

    if args.by or args.from_decompositions:
        raise ClaimlabInputError(
            "--human corrects one decomposer's ledger: give it without --by and without "
            "--from-decompositions"
        )
    human = count_ledger(
        read_table(args.human),
        read_table(args.units),
        candidates_file=args.human,
        units_file=args.units,
        on_error=args.on_error,
    )
    try:
        return ledger_prediction_powered(
            result.counts.table,  # type: ignore[attr-defined]
            human.table,
            level=args.ci if args.ci is not None else 0.95,
        )
    except ValueError as exc:
        raise ClaimlabInputError(str(exc), file=args.human) from None


def _uncertainty(args: argparse.Namespace, result: object) -> tuple[dict, list, list]:
    """The intervals (per group, None for the corpus), comparisons and rankings asked for."""
    from claimlab.metrics.uncertainty import ledger_comparisons, ledger_intervals, ledger_ranking

    intervals: dict = {}
    comparisons: list = []
    rankings: list = []
    table = result.counts.table  # type: ignore[attr-defined]
    level = args.ci if args.ci is not None else 0.95
    if args.ci is not None:
        common = dict(level=level, resamples=args.bootstrap, seed=args.seed, method=args.ci_method)
        intervals[None] = ledger_intervals(table, **common)
        for name, sub in table.groupby("model", observed=True) if args.by else ():
            intervals[str(name)] = ledger_intervals(sub, **common)
    if args.compare:
        groups = [str(g) for g in table["model"].unique()]
        pairs = compare_pairs(args.compare, groups, what=args.by)
        comparisons = ledger_comparisons(
            table,
            pairs,
            level=level,
            resamples=args.bootstrap,
            permutations=args.permutations,
            seed=args.seed,
        )
        rankings = [
            ledger_ranking(table, metric=m, resamples=args.bootstrap, seed=args.seed)
            for m in ("preservation", "coverage", "confirmed_support", "raw_support")
        ]
    return intervals, comparisons, rankings


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
    add_uncertainty_options(p, compared="--by groups")
    p.add_argument(
        "--human",
        metavar="CANDIDATES",
        help="people's labels for some of the answers (same format): prediction-powered "
        "estimates of every figure beside the autorater's and the people's alone",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_ledger)
