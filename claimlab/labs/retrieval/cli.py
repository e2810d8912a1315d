"""``claimlab convert`` (MuSiQue and HotpotQA as sufficiency files); ``hotpotqa`` and ``musique``: the official scores."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.files import write_json
from claimlab.notebook.terminal import emit_json, output_path, say

if TYPE_CHECKING:
    from claimlab.metrics.multihop_scores import OfficialScores


def cmd_convert(args: argparse.Namespace) -> int:
    """Run ``claimlab convert``; returns the exit code."""
    from claimlab.io.multihop import convert_hotpotqa, convert_musique
    from claimlab.io.sufficiency import read_sufficiency

    if args.contrast and args.source != "musique":
        raise ClaimlabInputError("--contrast makes MuSiQue's unanswerable twins: give musique")
    if args.source == "musique":
        doc = convert_musique(args.file, contrast=args.contrast)
    else:
        doc = convert_hotpotqa(args.file)
    fx = read_sufficiency(doc, source=args.out)  # what is written loads, or nothing is written
    write_json(args.out, doc)
    skipped = doc.get("skipped", [])
    unanswerable = sum(1 for q in fx.questions.values() if not q.answerable)
    if args.json:
        emit_json(
            {
                "file": args.file,
                "out": args.out,
                "questions": len(fx.questions),
                "unanswerable": unanswerable,
                "evidence": len(fx.evidence),
                "skipped": skipped,
            }
        )
        return 0
    kinds: dict[str, int] = {}
    for q in fx.questions.values():
        kinds[q.kind] = kinds.get(q.kind, 0) + 1
    shown = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    twins = f", {unanswerable} unanswerable" if unanswerable else ""
    say(
        f"{args.out}: {len(fx.questions)} questions ({shown}{twins}), {len(fx.evidence)} evidence items"
    )
    for s in skipped:
        where = ": ".join(str(x) for x in (s["file"], s["record"], s["field"]) if x)
        say(f"  skipped (the others converted): {where}: {s['problem']}")
    return 0


def add_convert(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab convert`` to the command parser."""
    p = sub.add_parser(
        "convert", help="MuSiQue or HotpotQA records as a claimlab/sufficiency@1 file"
    )
    p.add_argument("source", choices=("musique", "hotpotqa"), help="the file's format")
    p.add_argument("file", help="the released JSON file (a list of records)")
    p.add_argument("--out", required=True, type=output_path, help="the sufficiency file to write")
    p.add_argument(
        "--contrast",
        action="store_true",
        help="MuSiQue: add each answerable record's unanswerable twin (its last hop's "
        "supporting paragraph removed), which is never sufficient",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_convert, paths=lambda a: ([a.file], []))


def _say_scores(gold: str, scores: OfficialScores, metrics: Sequence[str]) -> None:
    counts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in scores.counts.items())
    say(f"{gold}: {counts}")
    for m in metrics:
        if m in scores.figures:
            f = scores.figures[m]
            value = "N/A" if f.value is None else f"{f.value:.4f}"
            say(f"  {m:<30} {value:>7}   {f.display}")


def cmd_hotpotqa(args: argparse.Namespace) -> int:
    """Run ``claimlab hotpotqa``; returns the exit code."""
    from claimlab.io.official import load_hotpot_gold, load_hotpot_predictions
    from claimlab.metrics.multihop_scores import HOTPOT_METRICS, score_hotpotqa

    scores = score_hotpotqa(load_hotpot_gold(args.gold), load_hotpot_predictions(args.pred))
    if args.json:
        emit_json({"gold": args.gold, "pred": args.pred, **scores.to_dict()})
    else:
        _say_scores(args.gold, scores, HOTPOT_METRICS)
    return 0


def cmd_musique(args: argparse.Namespace) -> int:
    """Run ``claimlab musique``; returns the exit code."""
    from claimlab.io.official import load_musique_gold, load_musique_predictions
    from claimlab.metrics.multihop_scores import MusiqueGoldError, score_musique

    gold, preds = load_musique_gold(args.gold), load_musique_predictions(args.pred)
    try:
        scores = score_musique(gold, preds)
    except MusiqueGoldError as err:  # the gold file's own fault: it alone is named
        raise ClaimlabInputError(
            err.problem, file=args.gold, record=err.record, field=err.field
        ) from None
    except ClaimlabInputError as err:  # pairing problems: between the two files, both named
        problem = f"{err.problem}; the gold file is {args.gold}"
        raise ClaimlabInputError(
            problem, file=args.pred, record=err.record, field=err.field
        ) from None
    if args.json:
        emit_json({"gold": args.gold, "pred": args.pred, **scores.to_dict()})
    else:
        _say_scores(args.gold, scores, list(scores.figures))
    return 0


def add_hotpotqa(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab hotpotqa`` to the command parser."""
    p = sub.add_parser(
        "hotpotqa",
        help="HotpotQA's official answer, supporting-fact and joint figures, with counts",
        description="Scores predictions as HotpotQA's official evaluation does (answer EM, F1, "
        "precision and recall after its normalisation; supporting facts; joint), every figure a "
        "mean over the gold questions (a missing prediction scores 0 and is counted).",
        epilog="example: claimlab hotpotqa hotpot_dev_distractor_v1.json pred.json",
    )
    p.add_argument("gold", help="gold records (JSON list, or JSON Lines)")
    p.add_argument("pred", help='predictions: {"answer": {ID: text}, "sp": {ID: [[title, i]]}}')
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_hotpotqa, paths=lambda a: ([a.gold, a.pred], []))


def add_musique(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab musique`` to the command parser."""
    p = sub.add_parser(
        "musique",
        help="MuSiQue's official answer and support F1 (and grouped sufficiency figures)",
        description="Scores predictions as MuSiQue's official evaluation does: answer EM and F1 "
        "(best over the answer and its aliases) and support F1 over the answerable records; "
        "with unanswerable records, the grouped answer+sufficiency and support+sufficiency F1.",
        epilog="example: claimlab musique musique_ans_v1.0_dev.jsonl pred.jsonl",
    )
    p.add_argument("gold", help="gold records (JSON Lines as released, or a JSON list)")
    p.add_argument(
        "pred",
        help="predictions: id, predicted_answer, predicted_support_idxs, predicted_answerable",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_musique, paths=lambda a: ([a.gold, a.pred], []))
