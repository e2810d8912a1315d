"""``claimlab fever``: the official FEVER figures with their counts."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from claimlab.notebook.terminal import (
    add_store_option,
    count_type,
    emit_json,
    output_path,
    remember,
    say,
)


def cmd_fever(args: argparse.Namespace) -> int:
    """Run ``claimlab fever``; returns the exit code."""
    from claimlab.io.fever import load_gold, load_predictions, pair_by_id
    from claimlab.io.files import atomic_write
    from claimlab.metrics.fever import score_fever
    from claimlab.notebook.records import to_jsonable

    gold = load_gold(args.gold)
    preds = load_predictions(args.predictions)
    pairs = pair_by_id(gold, preds, gold_file=args.gold, pred_file=args.predictions)
    result = score_fever(pairs, max_evidence=args.max_evidence)
    if args.details:
        atomic_write(
            Path(args.details),
            "".join(json.dumps(to_jsonable(c), ensure_ascii=False) + "\n" for c in result.claims),
        )
    data = {"gold": args.gold, "predictions": args.predictions, **result.to_dict()}
    remember(args, "fever", data)
    if args.json:
        emit_json(data)
        return 0
    c = result.to_dict()["counts"]

    def fig(value: float | None) -> str:
        return "N/A (no verifiable claim)" if value is None else repr(value)

    say(f"{args.predictions} against {args.gold} (max evidence {args.max_evidence}):")
    say(f"  strict score     {fig(result.strict_score):<22} {result.strict}")
    say(f"  label accuracy   {fig(result.label_accuracy):<22} {result.label}")
    say(
        f"  precision        {fig(result.precision):<22} macro over {c['verifiable']} verifiable claims"
    )
    say(f"  recall           {fig(result.recall.value):<22} {result.recall}")
    say(f"  f1               {fig(result.f1)}")
    say(
        f"  one sentence away from a witness: {c['one_sentence_away']} of {c['verifiable']} "
        "verifiable claims"
    )
    if args.details:
        say(f"  per-claim details written to {args.details}")
    return 0


def add_fever(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab fever`` to the command parser."""
    p = sub.add_parser("fever", help="FEVER scores (official conventions, paired by id)")
    p.add_argument("gold", help="gold JSONL (id, label, evidence)")
    p.add_argument(
        "predictions", help="predictions JSONL (id, predicted_label, predicted_evidence)"
    )
    p.add_argument(
        "--max-evidence", type=count_type(1), default=5, help="predicted sentences used (default 5)"
    )
    p.add_argument(
        "--details",
        metavar="OUT",
        type=output_path,
        help="write per-claim witness details as JSONL",
    )
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(
        handler=cmd_fever, paths=lambda a: ([a.gold, a.predictions], [("--details", a.details)])
    )
