"""The ``ledger`` command: many decomposers over many answers, from CSV, JSONL or Parquet."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.spans import unbacked_line
from claimlab.core.text import nfc, plural
from claimlab.core.vocab import status_line
from claimlab.notebook.gate import add_gate_options, gate_options, say_gate, write_reports
from claimlab.notebook.terminal import (
    Steps,
    add_store_option,
    add_uncertainty_options,
    check_compare,
    compare_pairs,
    emit_json,
    output_path,
    remember,
    say,
)

if TYPE_CHECKING:
    import os
    from collections.abc import Mapping

    import pandas as pd

    from claimlab.metrics.diff import RunDiff
    from claimlab.metrics.gate import Gate
    from claimlab.metrics.ledger import LedgerResult
    from claimlab.metrics.stats.comparisons import Comparison, Ranking
    from claimlab.metrics.stats.intervals import Interval, NoInterval
    from claimlab.metrics.stats.prediction_powered import PredictionPowered

UNBACKED_SHOWN = 5  # claims named in the summary whose preserves their spans do not back


def cmd_ledger(args: argparse.Namespace) -> int:
    """Run ``claimlab ledger``; returns the exit code."""
    from claimlab.labs.ledger.writers import write_answers

    _check_options(args)
    result, labels, extra = _score(args)
    # the names are refused now: before --out is written or a resample drawn
    pairs = compare_pairs(args.compare, _groups(result), what=args.by) if args.compare else []
    if args.out:
        write_answers(result, args.out, extra=extra)
    intervals, comparisons, rankings = _uncertainty(args, result, pairs)
    powered = _prediction_powered(args, result) if args.human else []
    gate, changes = _gate(args, result) if args.baseline else (None, None)
    if args.store:  # the stored run keeps its per-answer table (path and hash in its parameters)
        args.per_answer_table = _keep(args, result)
    data = _data(args, result, labels, intervals, comparisons, rankings, powered, gate)
    remember(args, "ledger", data)
    if changes is not None:
        data["changes"] = changes.to_dict()
    if args.json:
        emit_json(data)
    else:
        _say_result(args, result, labels, intervals)
        _say_uncertainty(comparisons, rankings, powered)
        if args.out:
            say(f"per-answer rows written to {args.out}")
        say_gate(args, gate, changes=changes)
    return gate.exit_code if gate is not None else 0


def _keep(args: argparse.Namespace, result: LedgerResult) -> dict[str, str]:
    """The per-answer table kept beside the store (as ``--out`` writes it), its path and hash."""
    from claimlab.metrics.ledger import per_answer_ratios
    from claimlab.notebook.gate import keep_table

    table = per_answer_ratios(result.counts.table)
    table = (
        table.drop(columns="model") if args.by is None else table.rename(columns={"model": args.by})
    )
    return keep_table(table, args.store, kind="per_answer")


def _gate(args: argparse.Namespace, result: LedgerResult) -> tuple[Gate, RunDiff]:
    """The run gated against ``--baseline``, what changed answer by answer, the reports."""
    from claimlab.core.vocab import TOY_METRICS
    from claimlab.metrics.diff import compare, gate_figure, table_run, table_side
    from claimlab.metrics.gate import gate_file, ledger_figures
    from claimlab.metrics.ledger import per_answer_ratios

    keys = ["answer_id"] if args.by is None else [args.by, "answer_id"]
    now = per_answer_ratios(result.counts.table)
    if args.by is not None:
        now = now.rename(columns={"model": args.by})
    figures = ledger_figures(args.gate_figures or TOY_METRICS)
    gate = gate_file(args.baseline, now, figures, keys=keys, by=args.by, **gate_options(args))
    before = table_side(args.baseline, by=args.by)
    changes = compare(
        before, table_run(now, item="answer", keys=keys), figure=gate_figure(gate, before.figures)
    )
    write_reports(args, gate, changes=changes)
    return gate, changes


def _groups(result: LedgerResult) -> list[str]:
    """The groups a ledger was scored by (the values of its ``--by`` column)."""
    return [str(g) for g in result.counts.table["model"].unique()]


def _check_options(args: argparse.Namespace) -> None:
    """Options that contradict each other are refused before anything is read."""
    if args.from_decompositions:
        if args.candidates or args.units:
            raise ClaimlabInputError(
                "--from-decompositions reads folders instead of CANDIDATES and --units; give one"
            )
        if len(args.from_decompositions) > 1 and args.by is None:
            args.by = "model"  # each folder is a decomposer
        if args.by not in (None, "model"):
            raise ClaimlabInputError(
                "--from-decompositions groups by the folders' decomposers: --by model, or no --by",
                field="--by",
            )
    elif not args.candidates or not args.units:
        raise ClaimlabInputError(
            "give CANDIDATES and --units UNITS, or --from-decompositions FOLDER"
        )
    if args.compare and not args.by:
        raise ClaimlabInputError("--compare needs --by (the column naming what is compared)")
    if args.compare:
        check_compare(args.compare, what=args.by)
    if (args.junit or args.summary or args.margin or args.allow_missing) and not args.baseline:
        raise ClaimlabInputError(
            "--margin, --allow-missing, --junit and --summary gate a run: give --baseline ANSWERS"
        )


def _score(
    args: argparse.Namespace,
) -> tuple[LedgerResult, dict[str, Any] | None, dict[str, Any] | None]:
    """The scored ledger, and for decomposition folders what is still proposed in them."""
    from claimlab.metrics.ledger import score_ledger, score_tables, summarise, with_files

    if not args.from_decompositions:
        progress = args.progress or sys.stderr.isatty()
        return (
            score_ledger(
                args.candidates, args.units, by=args.by, on_error=args.on_error, progress=progress
            ),
            None,
            None,
        )
    from claimlab.io.ledger import decomposition_folders, tables_from_decompositions

    named = decomposition_folders(args.from_decompositions)
    fixtures = [fx for _, files in named for fx in files]
    models = named if args.by else None
    cand, units = tables_from_decompositions(fixtures, models=models)
    names = [name for name, _ in named] if models is not None else None
    result = score_tables(cand, units, by=args.by, on_error=args.on_error, models=names)
    if models is not None:  # an answer a folder has no file for: scored, and recorded as such
        files = {name: [nfc(fx.original.id) for fx in got] for name, got in named}
        result = summarise(with_files(result.counts, files), by=args.by)
    drafts = [fx for fx in fixtures if fx.is_draft]
    unbacked = [
        (f"{folder}/{fx.original.id}: {cid}", list(unit_ids))
        for folder, files in named
        for fx in files
        for cid, unit_ids in fx.unbacked_claims.items()
    ]
    labels = {
        "folders": {name: len(files) for name, files in named},
        "without_file": _without_file(result.counts.table) if models is not None else {},
        "files": len(fixtures),
        "draft_files": len(drafts),
        "candidates_with_proposed_labels": sum(len(fx.proposed) for fx in fixtures),
        "proposed_units": sum(len(fx.proposed_units) for fx in fixtures),
        "gold": not drafts,
        "claims_with_unbacked_preserves": len(unbacked),
        "unbacked_preserves": dict(unbacked[:UNBACKED_SHOWN]),  # the first ones
    }
    extra = {
        "proposed_candidates": {fx.original.id: len(fx.proposed) for fx in fixtures},
        "proposed_units": {fx.original.id: len(fx.proposed_units) for fx in fixtures},
    }
    return result, labels, extra


def _data(
    args: argparse.Namespace,
    result: LedgerResult,
    labels: dict[str, Any] | None,
    intervals: Mapping[str | None, Mapping[tuple[str, str], Interval | NoInterval]],
    comparisons: list[Comparison],
    rankings: list[Ranking],
    powered: list[PredictionPowered],
    gate: Gate | None = None,
) -> dict[str, Any]:
    """The command's JSON document (printed with ``--json``, recorded with ``--store``)."""
    from claimlab.metrics.stats.intervals import interval_or_reason

    data = result.to_dict()
    for group, ivs in intervals.items():
        fig = data["corpus"] if group is None else data["by_group"][group]
        for (aggregate, metric), iv in ivs.items():
            fig[aggregate][metric].update(interval_or_reason(iv))
    return {
        "candidates": args.candidates,
        "units": args.units,
        "from_decompositions": args.from_decompositions,
        **({"labels": labels} if labels is not None else {}),
        "by": args.by,
        "out": args.out,
        **data,
        **({"comparisons": [c.to_dict() for c in comparisons]} if args.compare else {}),
        **({"rankings": rankings} if args.compare else {}),
        **({"prediction_powered": [p.to_dict() for p in powered]} if args.human else {}),
        **(gate.to_dict() if gate is not None else {}),
    }


def _say_result(
    args: argparse.Namespace,
    result: LedgerResult,
    labels: dict[str, Any] | None,
    intervals: Mapping[str | None, Mapping[tuple[str, str], Interval | NoInterval]],
) -> None:
    from claimlab.metrics.ledger import METRIC_NAMES

    if result.counts.skipped_rows:
        n = result.counts.skipped_rows
        say(f"skipped {plural(n, 'bad row')} (--on-error skip):")
        for issue in result.counts.issues:
            say(f"  {issue}")
        for field, more in result.counts.unlisted.items():
            say(f"  {args.candidates}: {field}: ... and {more} more rows like these")
    if labels is not None:
        _say_labels(args, labels)
    for g in [result.corpus, *result.groups.values()]:
        pairs = "" if g.pairs == g.answers else f", {g.pairs} decomposer-answer pairs"
        say(
            f"{g.group}: {plural(g.answers, 'answer')}{pairs} ({g.empty_answers} without "
            "candidates, scored as empty selections)"
        )
        ivs = intervals.get(None if g is result.corpus else g.group, {})
        for m in METRIC_NAMES:
            say(f"  {m:<18} micro {g.micro[m].display:<22} macro {g.macro[m].display}")
            for aggregate in ("micro", "macro") if ivs else ():
                iv = ivs.get((aggregate, m))
                say(
                    f"  {'':<18}   {aggregate} {iv.display if iv is not None else 'N/A: no interval'}"
                )
        say(
            f"  status (unique)    {status_line(g.status_counts, sep=', ')}; duplicates "
            f"{g.duplicates}; missing units {g.missing_units}; non-atomic {g.non_atomic}"
        )
        if g.left_out:
            say(
                f"  not counted        {plural(g.left_out, 'candidate')} audited but left out "
                "(an ambiguous mapping, or untagged background)"
            )


def _without_file(table: pd.DataFrame) -> dict[str, dict[str, int | list[str]]]:
    """Per folder, the answers it held no file for: their count and the first 20 ids in order.

    Read from the rows' ``no_file`` (set by :func:`claimlab.metrics.ledger.with_files`).
    """
    from claimlab.core.vocab import NO_FILE

    lost = table[table[NO_FILE] > 0]
    out: dict[str, dict[str, int | list[str]]] = {}
    for name, rows in lost.groupby("model", sort=True):
        ids = sorted(rows["answer_id"].astype(str))
        out[str(name)] = {"count": len(ids), "ids": ids[:MISSING_SHOWN]}
    return out


MISSING_SHOWN = 20


def _say_labels(args: argparse.Namespace, labels: dict[str, Any]) -> None:
    where = ", ".join(f"{n} ({plural(k, 'file')})" for n, k in labels["folders"].items())
    say(
        f"{where}: {plural(labels['files'], 'decomposition file')}"
        + (
            f"; DRAFT, not gold: {plural(labels['draft_files'], 'file')} still "
            f"{'holds' if labels['draft_files'] == 1 else 'hold'} proposed labels "
            f"({labels['candidates_with_proposed_labels']} candidates, "
            f"{labels['proposed_units']} units) and the figures below count them as given"
            if labels["draft_files"]
            else "; every label confirmed by a person"
        )
    )
    for name, lost in labels["without_file"].items():
        more = lost["count"] - len(lost["ids"])
        say(
            f"  {name} has no file for {plural(lost['count'], 'answer')} another folder holds "
            f"(scored as empty selections): {', '.join(lost['ids'])}"
            + (f" and {more} more" if more else "")
        )
    n = labels["claims_with_unbacked_preserves"]
    if n:
        say(f"  {unbacked_line(labels['unbacked_preserves'], total=n)}")


def _say_uncertainty(
    comparisons: list[Comparison], rankings: list[Ranking], powered: list[PredictionPowered]
) -> None:
    if comparisons:
        say(
            "paired comparisons (the first named minus the second, on every answer both were "
            "given where the figure is defined on both; Holm over all of them):"
        )
        for c in comparisons:
            say(f"  {c.a} - {c.b}  {c.metric:<18} {c.aggregate}  {c.display}")
        for rk in rankings:
            if rk.same_order is not None:
                shown = rk.order[0] + "".join(
                    f" {'=' if p.tied else '>'} {p.below}" for p in rk.pairs
                )
                about = rk.about
                say(
                    f"  ranking by {about['metric']} ({about['aggregate']}): {shown}"
                    f" holds in {rk.held} resamples of "
                    f"{about['answers']} answers every decomposer was given"
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


def _prediction_powered(args: argparse.Namespace, result: object) -> list[PredictionPowered]:
    """The ledger's figures with the people's labels of ``--human`` correcting the autorater's."""
    from claimlab.io.ledger import load_table
    from claimlab.metrics.ledger import count_ledger
    from claimlab.metrics.uncertainty import ledger_prediction_powered

    if args.by or args.from_decompositions:
        raise ClaimlabInputError(
            "--human corrects one decomposer's ledger: give it without --by and without "
            "--from-decompositions"
        )
    human = count_ledger(
        load_table(args.human),
        load_table(args.units),
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


def _uncertainty(
    args: argparse.Namespace, result: object, pairs: list[tuple[str, str]]
) -> tuple[
    dict[str | None, dict[tuple[str, str], Interval | NoInterval]], list[Comparison], list[Ranking]
]:
    """The intervals (per group, None for the corpus), comparisons of ``pairs`` and rankings."""
    from claimlab.metrics.stats.resampling import reporting
    from claimlab.metrics.uncertainty import (
        ledger_comparisons,
        ledger_group_intervals,
        ledger_rankings,
    )

    steps = Steps("ledger", enabled=args.progress or None)

    intervals: dict[Any, Any] = {}
    comparisons: list[Any] = []
    rankings: list[Any] = []
    table = result.counts.table  # type: ignore[attr-defined]
    level = args.ci if args.ci is not None else 0.95
    if args.ci is not None:
        with reporting(steps.step("bootstrap intervals", args.bootstrap, "resample")):
            intervals = ledger_group_intervals(
                table,
                by_group=bool(args.by),
                level=level,
                resamples=args.bootstrap,
                seed=args.seed,
                method=args.ci_method,
            )
    if args.compare:
        with reporting(steps.step("paired comparisons", args.bootstrap * len(pairs), "resample")):
            comparisons = ledger_comparisons(
                table,
                pairs,
                level=level,
                resamples=args.bootstrap,
                permutations=args.permutations,
                seed=args.seed,
            )
        with reporting(steps.step("rankings", args.bootstrap, "resample")):
            rankings = ledger_rankings(table, resamples=args.bootstrap, seed=args.seed)
    steps.close()
    return intervals, comparisons, rankings


def add_ledger(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab ledger`` to the command parser."""
    p = sub.add_parser("ledger", help="score a claim ledger (many models x answers) fast")
    p.add_argument("candidates", nargs="?", help="candidates table (.csv, .jsonl or .parquet)")
    p.add_argument("--units", help="units table (answer_id, unit_id)")
    p.add_argument(
        "--from-decompositions",
        nargs="+",
        metavar="[NAME=]FOLDER",
        help="score folders of claimlab/decomposition@1 files (drafts or gold; one file per "
        "answer), each as one decomposer named NAME (or its folder's name): several folders "
        "are compared with --compare A B",
    )
    p.add_argument("--by", help="column to compare side by side (e.g. model)")
    p.add_argument(
        "--out", type=output_path, help="write per-answer rows here (.csv, .jsonl or .parquet)"
    )
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
    from claimlab.core.vocab import TOY_METRICS

    add_gate_options(p, figures=TOY_METRICS)
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_ledger, paths=_paths)


def _paths(
    args: argparse.Namespace,
) -> tuple[list[str | os.PathLike[str] | None], list[tuple[str, str | os.PathLike[str] | None]]]:
    """What the command reads and writes (an output never replaces an input)."""
    from claimlab.io.ledger import folder_spec

    folders = [folder_spec(s)[1] for s in args.from_decompositions or ()]
    return [args.candidates, args.units, args.human, args.baseline, *folders], []
