"""``claimlab factscore``: the paper's human FActScores with their counts.

With intervals, paired comparisons and prediction-powered figures on request.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimlab.checkers.options import add_checker_options
from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import FACTSCORE_GAMMA as DEFAULT_GAMMA
from claimlab.core.vocab import FACTSCORE_GATED as GATED
from claimlab.core.vocab import FACTSCORE_POLICIES as POLICIES
from claimlab.io.files import replacing_all
from claimlab.notebook.gate import (
    add_gate_options,
    check_gate_options,
    gate_options,
    say_gate,
    write_reports,
    write_table,
)
from claimlab.notebook.terminal import (
    add_store_option,
    add_uncertainty_options,
    compare_pairs,
    count_type,
    emit_json,
    level_type,
    output_folder,
    output_path,
    remember,
    say,
    share_type,
)

if TYPE_CHECKING:
    import os
    from collections.abc import Mapping, Sequence

    from claimlab.io.factscore import LabelledResponse
    from claimlab.metrics.diff import RunDiff
    from claimlab.metrics.factscore import FactscoreResult
    from claimlab.metrics.gate import Gate
    from claimlab.metrics.stats.comparisons import Comparison, Ranking
    from claimlab.metrics.stats.intervals import Interval, NoInterval


def cmd_factscore(args: argparse.Namespace) -> int:
    """Run ``claimlab factscore``; returns the exit code (the gate's, with ``--baseline``)."""
    from claimlab.io.factscore import load_labelled
    from claimlab.metrics.factscore import score_factscore

    check_gate_options(args)
    _check_ledger_names(args)
    if args.compare:  # the subjects are the files' names: refused before any file is read
        compare_pairs(args.compare, [Path(f).stem for f in args.files], what="subject")
    results, loaded = [], []
    for f in args.files:
        responses = load_labelled(f)
        r = score_factscore(responses, name=Path(f).stem, policy=args.irrelevant, gamma=args.gamma)
        results.append((f, r))
        loaded.append((Path(f).stem, responses))
    ledgers = _write_factscore_ledgers(loaded, args) if args.ledger_dir else []
    gate, changes = _gate_prompts(args, [r for _, r in results])
    intervals, comparisons, ranking = _factscore_uncertainty(args, results)
    data = {
        "gamma": args.gamma,
        "irrelevant": args.irrelevant,
        "files": [_file_json(f, r, intervals) for f, r in results],
        "ledgers": [{"candidates": str(c), "units": str(u)} for c, u in ledgers],
        **({"comparisons": [c.to_dict() for c in comparisons]} if args.compare else {}),
        **({"ranking": ranking} if ranking else {}),
        **(gate.to_dict() if gate is not None else {}),
    }
    remember(args, "factscore", data)
    if args.json:
        emit_json({**data, **({"changes": changes.to_dict()} if changes is not None else {})})
        return gate.exit_code if gate is not None else 0
    _say_factscore(args, results, intervals, comparisons, ranking)
    for c, u in ledgers:
        say(f"ledger written: {c} --units {u}")
    if args.out:
        say(f"per-prompt rows written to {args.out}")
    say_gate(args, gate, items="prompts", changes=changes)
    return gate.exit_code if gate is not None else 0


def _gate_prompts(
    args: argparse.Namespace, results: list[FactscoreResult]
) -> tuple[Gate | None, RunDiff | None]:
    """The per-prompt table written (``--out``) and gated against ``--baseline``; the reports."""
    from claimlab.metrics.diff import table_changes
    from claimlab.metrics.factscore import gate_figures, per_prompt_table
    from claimlab.metrics.gate import gate_file

    if not (args.out or args.baseline):
        return None, None
    table = per_prompt_table(results)
    if args.out:
        write_table(table, args.out)
    if not args.baseline:
        return None, None
    figures = gate_figures(args.gate_figures or GATED)
    gate = gate_file(
        args.baseline, table, figures, keys=["subject", "prompt"], **gate_options(args)
    )
    changes = table_changes(args.baseline, table, item="prompt", gate=gate)
    write_reports(args, gate, changes=changes)
    return gate, changes


def _check_ledger_names(args: argparse.Namespace) -> None:
    """One ledger per file stem: two files may not write the same one."""
    stems: dict[str, str] = {}
    for f in args.files:
        stem = Path(f).stem
        if args.ledger_dir and stem in stems:
            raise ClaimlabInputError(
                f"same file name as {stems[stem]}: both would write the ledger {stem}.*.parquet"
                " (rename one)",
                file=f,
            )
        stems[stem] = f


def _file_json(
    f: str, r: FactscoreResult, intervals: Mapping[str, Mapping[str, Interval | NoInterval | None]]
) -> dict[str, Any]:
    """One file's figures as JSON (percent forms beside the ratios; intervals when asked)."""
    out = {
        "file": f,
        **r.to_dict(),
        "factscore_percent": None if r.factscore is None else 100 * r.factscore,
        "init_score_percent": None if r.init_score is None else 100 * r.init_score,
    }
    if intervals:
        mine = intervals[r.name]
        out["ci"] = {k: (v.to_dict() if v is not None else None) for k, v in mine.items()}
        out["ci_reason"] = {
            k: getattr(v, "reason", None) if not v else None for k, v in mine.items()
        }
    return out


def _say_factscore(
    args: argparse.Namespace,
    results: list[tuple[str, FactscoreResult]],
    intervals: Mapping[str, Mapping[str, Interval | NoInterval | None]],
    comparisons: list[Comparison],
    ranking: Ranking | None,
) -> None:
    """The figures for a person: per file, intervals, comparisons, the ranking's stability."""
    say(f"FActScore, irrelevant-fact policy {args.irrelevant!r}, gamma {args.gamma}:")
    for _, r in results:
        init = "N/A" if r.init_score is None else f"{100 * r.init_score:.1f}"
        say(f"  {r.name:<16} {r.display}  init_score {init}")
        for figure, iv in intervals.get(r.name, {}).items():
            say(f"  {'':<16}   {figure:<16} {iv.display if iv is not None else 'N/A: no interval'}")
    if comparisons:
        say("paired comparisons on shared prompts (A - B; Holm over all of them):")
        for c in comparisons:
            say(f"  {c.a} - {c.b}  {c.metric:<16} {c.display}")
    if ranking is not None and ranking.same_order is not None:
        say(
            f"ranking by FActScore {' > '.join(ranking.order)} holds in "
            f"{ranking.held} resamples of "
            f"{ranking.about['prompts']} shared prompts"
        )


def _factscore_uncertainty(
    args: argparse.Namespace, results: list[tuple[str, FactscoreResult]]
) -> tuple[dict[str, dict[str, Interval | NoInterval | None]], list[Comparison], Ranking | None]:
    """Intervals per subject, comparisons and the ranking's stability, as the options ask."""
    if args.ci is None and not args.compare:  # none asked: the statistics (numpy) stay unloaded
        return {}, [], None
    from claimlab.metrics.uncertainty import (
        factscore_comparisons,
        factscore_intervals,
        factscore_ranking,
    )

    by_name = {r.name: r for _, r in results}
    level = args.ci if args.ci is not None else 0.95
    intervals = {}
    if args.ci is not None:
        intervals = {
            name: factscore_intervals(
                r, level=level, resamples=args.bootstrap, seed=args.seed, method=args.ci_method
            )
            for name, r in by_name.items()
        }
    comparisons: list[Any] = []
    ranking = None
    if args.compare:
        pairs = compare_pairs(args.compare, list(by_name), what="subject")
        comparisons = factscore_comparisons(
            by_name,
            pairs,
            level=level,
            resamples=args.bootstrap,
            permutations=args.permutations,
            seed=args.seed,
        )
        if len(by_name) >= 2:
            ranking = factscore_ranking(by_name, resamples=args.bootstrap, seed=args.seed)
    return intervals, comparisons, ranking


def _write_factscore_ledgers(
    loaded: Sequence[tuple[str, Sequence[LabelledResponse]]], args: argparse.Namespace
) -> list[tuple[Path, Path]]:
    """Every file's responses as a claim ledger (Parquet): all files are replaced together.

    A candidates file and its units file belong together, and so do the subjects of one run;
    every table is written to a temporary file first and only then are all renamed, so a full
    disk or an interrupt leaves every old ledger as it was.
    """
    import pyarrow.parquet as pq

    from claimlab.labs.factscore.ledgers import factscore_ledger

    tables, paths = [], []
    for stem, responses in loaded:
        for kind, table in zip(
            ("candidates", "units"),
            factscore_ledger(responses, policy=args.irrelevant),
            strict=True,
        ):
            tables.append(table)
            paths.append(Path(args.ledger_dir) / f"{stem}.{kind}.parquet")
    with replacing_all(paths) as temps:
        for table, tmp in zip(tables, temps, strict=True):
            pq.write_table(table, tmp)
    return [(paths[i], paths[i + 1]) for i in range(0, len(paths), 2)]


def add_factscore(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab factscore`` to the command parser."""
    p = sub.add_parser("factscore", help="FActScore of human-labelled responses, with its counts")
    p.add_argument("files", nargs="+", help="labelled JSONL files (one subject model each)")
    p.add_argument(
        "--gamma",
        type=count_type(0),
        default=DEFAULT_GAMMA,
        help="length penalty (0 = off; default 10)",
    )
    p.add_argument(
        "--irrelevant",
        choices=POLICIES,
        default="paper",
        help="irrelevant-fact policy (default paper; always reported)",
    )
    p.add_argument(
        "--ledger-dir",
        metavar="DIR",
        type=output_folder,
        help="also write each file as a claim ledger (DIR/<stem>.candidates.parquet and"
        " .units.parquet, same policy) for `claimlab ledger`",
    )
    add_uncertainty_options(p, compared="subjects (file names)")
    p.add_argument(
        "--out",
        metavar="TABLE",
        type=output_path,
        help="write the per-prompt table (each subject's prompts: supported facts of facts, "
        "responded) to CSV, JSONL or Parquet, by the suffix; a later run's --baseline",
    )
    add_gate_options(p, figures=GATED, table="per-prompt")
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_factscore, paths=_factscore_paths)


def _factscore_paths(
    args: argparse.Namespace,
) -> tuple[list[str | os.PathLike[str] | None], list[tuple[str, str | os.PathLike[str] | None]]]:
    """The ledgers ``--ledger-dir`` writes never replace an input file (nor the baseline)."""
    inputs = [*args.files, args.baseline]
    if not args.ledger_dir:
        return inputs, []
    out = Path(args.ledger_dir)
    targets = [
        out / f"{Path(f).stem}.{kind}.parquet"
        for f in args.files
        for kind in ("candidates", "units")
    ]
    return inputs, [("--ledger-dir", t) for t in targets]


def cmd_fact_estimate(args: argparse.Namespace) -> int:
    """Run ``claimlab fact-estimate``; returns the exit code."""
    from claimlab.io.factscore import load_labelled, load_passages
    from claimlab.labs.factscore.estimator import estimator_report
    from claimlab.labs.factscore.views import estimate_lines

    if args.auto and len(args.auto) != len(args.files):
        raise ClaimlabInputError(
            f"--auto gives {len(args.auto)} files for {len(args.files)}: one per file, in order",
            field="--auto",
        )
    _check_ledger_names(argparse.Namespace(files=args.files, ledger_dir="x"))  # one name per file
    human = {Path(f).stem: load_labelled(f) for f in args.files}
    auto = (
        {Path(f).stem: load_labelled(a) for f, a in zip(args.files, args.auto, strict=True)}
        if args.auto
        else None
    )
    if auto is not None:
        _check_same_responses(human, auto, args)
    knowledge = load_passages(args.knowledge) if args.knowledge else None
    checked = _run_checker(args, human, knowledge) if args.checker else None
    if checked is not None:
        auto, info = checked
    report = estimator_report(
        human,
        auto,
        knowledge=knowledge,
        threshold=args.threshold,
        top=args.top,
        policy=args.irrelevant,
        gamma=args.gamma,
        share=args.labelled,
        seed=args.seed,
        level=args.ci,
        checker_info=info if checked is not None else None,
    )
    if args.json:
        emit_json(report.to_dict())
        return 0
    for line in estimate_lines(report):
        say(line)
    return 0


def _run_checker(
    args: argparse.Namespace,
    human: dict[str, list[LabelledResponse]],
    knowledge: dict[str, list[str]] | None,
) -> tuple[dict[str, list[LabelledResponse]], dict[str, Any]]:
    """``--checker``: every S/NS fact checked; the labels per file and how they were made."""
    from claimlab.checkers.options import run_from_args
    from claimlab.labs.factscore.estimator import checked_labels

    if args.auto:
        raise ClaimlabInputError("give --auto or --checker, not both", field="--checker")
    retrieve = None if args.checker == "lexical" else args.top  # the lexical checker ranks all
    items, back = checked_labels(human, knowledge, retrieve=retrieve)
    run = run_from_args(
        args, items, command="fact-estimate", threshold=args.threshold, top=args.top
    )
    info: dict[str, Any] = {"checker": run.to_dict()}
    labels = run.final_labels()
    return back(labels), info


def _check_same_responses(
    human: dict[str, list[LabelledResponse]],
    auto: dict[str, list[LabelledResponse]],
    args: argparse.Namespace,
) -> None:
    """A checker's file labels the same responses, sentences and facts as the people's."""
    for (name, h), a_file in zip(human.items(), args.auto, strict=True):
        a = auto[name]
        shape_h = [[len(s.human_facts or ()) for s in r.sentences or ()] for r in h]
        shape_a = [[len(s.human_facts or ()) for s in r.sentences or ()] for r in a]
        if [r.topic for r in h] != [r.topic for r in a] or shape_h != shape_a:
            raise ClaimlabInputError(
                "must label the same responses, sentences and facts as the people's file, in order",
                file=a_file,
            )


def add_fact_estimate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab fact-estimate`` to the command parser."""
    p = sub.add_parser(
        "fact-estimate",
        help="an offline FActScore estimator against people: error rate, ranking, correction",
        description="Runs a lexical checker (BM25 over the topic's passages, content-word overlap) "
        "on every atomic fact people labelled, or takes a checker's own labels (--auto, in the "
        "same labelled format), and reports per file the people's FActScore and the estimate, "
        "their difference (the paper's error rate), whether the ranking is kept, the fact-level "
        "agreement, and a prediction-powered FActScore corrected with a seeded share of people's "
        "labels.",
        epilog="example: claimlab fact-estimate ../shared/data/factscore/*.jsonl --labelled 0.25",
    )
    p.add_argument("files", nargs="+", help="people-labelled FActScore files (one system each)")
    p.add_argument(
        "--auto", nargs="+", metavar="FILE", help="a checker's labels, one file per FILE, in order"
    )
    p.add_argument(
        "--knowledge", metavar="PASSAGES", help='passages: JSON Lines of {"topic", "text"}'
    )
    p.add_argument(
        "--threshold",
        type=share_type,
        default=0.6,
        help="share of a fact's content words a passage must hold (default 0.6)",
    )
    p.add_argument(
        "--top",
        type=count_type(1, 100),
        default=5,
        help="passages read per fact (default 5); with another --checker, the BM25-best passages it "
        "is sent",
    )
    p.add_argument(
        "--labelled",
        type=share_type,
        default=0.25,
        metavar="SHARE",
        help="share of topics people's labels are used for (default 0.25)",
    )
    p.add_argument("--seed", type=int, default=0, help="which topics are labelled (default 0)")
    p.add_argument(
        "--ci", type=level_type, default=0.9, metavar="LEVEL", help="interval level (default 0.9)"
    )
    p.add_argument(
        "--gamma", type=count_type(0), default=DEFAULT_GAMMA, help="length penalty (default 10)"
    )
    p.add_argument(
        "--irrelevant",
        choices=POLICIES,
        default="paper",
        help="irrelevant-fact policy (default paper)",
    )
    add_checker_options(p, default=None)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(
        handler=cmd_fact_estimate,
        paths=lambda a: ([*a.files, *(a.auto or []), *([a.knowledge] if a.knowledge else [])], []),
    )
