"""``claimlab fever``: the official FEVER figures with their counts."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

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
    count_type,
    emit_json,
    output_path,
    remember,
    say,
)

if TYPE_CHECKING:
    from claimlab.metrics.diff import RunDiff
    from claimlab.metrics.fever import FeverResult
    from claimlab.metrics.gate import Gate


def cmd_fever(args: argparse.Namespace) -> int:
    """Run ``claimlab fever``; returns the exit code (the gate's, with ``--baseline``)."""
    from claimlab.io.fever import load_gold, load_predictions, pair_by_id
    from claimlab.io.files import atomic_write
    from claimlab.metrics.fever import score_fever
    from claimlab.notebook.records import to_jsonable

    check_gate_options(args)
    gold = load_gold(args.gold)
    preds = load_predictions(args.predictions)
    pairs = pair_by_id(gold, preds, gold_file=args.gold, pred_file=args.predictions)
    result = score_fever(pairs, max_evidence=args.max_evidence)
    if args.details:
        atomic_write(
            Path(args.details),
            "".join(json.dumps(to_jsonable(c), ensure_ascii=False) + "\n" for c in result.claims),
        )
    gate, changes = _gate_claims(args, result)
    data = {"gold": args.gold, "predictions": args.predictions, **result.to_dict(),
            **(gate.to_dict() if gate is not None else {})}  # fmt: skip
    remember(args, "fever", data)
    code = gate.exit_code if gate is not None else 0
    if args.json:
        emit_json({**data, **({"changes": changes.to_dict()} if changes is not None else {})})
        return code
    _say_fever(args, result)
    if args.out:
        say(f"  per-claim rows written to {args.out}")
    say_gate(args, gate, items="claims", changes=changes)
    return code


def _gate_claims(
    args: argparse.Namespace, result: FeverResult
) -> tuple[Gate | None, RunDiff | None]:
    """The per-claim table written (``--out``) and gated against ``--baseline``; the reports."""
    if not (args.out or args.baseline):
        return None, None  # nothing of the gate (nor numpy) is loaded
    from claimlab.metrics.diff import table_changes
    from claimlab.metrics.fever import GATED, gate_figures, per_claim_table
    from claimlab.metrics.gate import gate_file

    table = per_claim_table(result)
    if args.out:
        write_table(table, args.out)
    if not args.baseline:
        return None, None
    figures = gate_figures(args.gate_figures or GATED)
    gate = gate_file(args.baseline, table, figures, keys=["id"], **gate_options(args))
    changes = table_changes(args.baseline, table, item="claim", gate=gate)
    write_reports(args, gate, changes=changes)
    return gate, changes


def _say_fever(args: argparse.Namespace, result: FeverResult) -> None:
    """The five official figures with their counts, for a person."""
    c = result.to_dict()["counts"]

    def fig(value: float | None, over: str = "verifiable claim") -> str:
        return f"N/A (no {over})" if value is None else repr(value)

    say(f"{args.predictions} against {args.gold} (max evidence {args.max_evidence}):")
    say(f"  strict score     {fig(result.strict_score, 'claim'):<22} {result.strict}")
    say(f"  label accuracy   {fig(result.label_accuracy, 'claim'):<22} {result.label}")
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
    p.add_argument(
        "--out",
        metavar="TABLE",
        type=output_path,
        help="write the per-claim table (strict, label and recall counts per claim) to CSV, "
        "JSONL or Parquet, by the suffix; a later run's --baseline",
    )
    from claimlab.core.vocab import FEVER_GATED as GATED

    add_gate_options(p, figures=GATED, table="per-claim", resampled="claims")
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(
        handler=cmd_fever,
        paths=lambda a: ([a.gold, a.predictions, a.baseline], [("--details", a.details)]),
    )
