"""From a decomposer's raw output to a gold set: ``draft``, ``agreement``, ``adjudicate``."""

from __future__ import annotations

import argparse
from pathlib import Path

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.decomposition import load_decomposition
from claimlab.io.files import json_text, replacing_all, write_json
from claimlab.io.reader import read_json
from claimlab.tooling.cli.common import count_type, emit_json, say


def cmd_draft(args: argparse.Namespace) -> int:
    """Run ``claimlab draft``; returns the exit code."""
    from claimlab.io.raw import load_raw_answers
    from claimlab.labs.draft import check_units_choice, draft_document, file_names

    check_units_choice(args.units)
    answers = load_raw_answers(args.input)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ClaimlabInputError("is a file; --out names a folder for the drafts", file=str(out))
    names = file_names([a.id for a in answers])
    targets = [out / n for n in names]
    if not args.force:
        for t, a in zip(targets, answers, strict=True):
            if t.exists():
                raise ClaimlabInputError(
                    "exists: a draft may already be annotated; choose another --out or give "
                    "--force to replace it",
                    file=str(t),
                    record=a.id,
                )
    built = [
        draft_document(a, units=args.units, threshold=args.threshold, source=args.input)
        for a in answers
    ]
    with replacing_all(targets) as temps:
        for tmp, (doc, _) in zip(temps, built, strict=True):
            tmp.write_text(json_text(doc), encoding="utf-8")
    summaries = [s for _, s in built]
    if args.json:
        emit_json(
            {
                "input": args.input,
                "out": str(out),
                "files": [str(t) for t in targets],
                "drafts": [s.to_dict() for s in summaries],
                "gold": False,
            }
        )
        return 0
    for t, s in zip(targets, summaries, strict=True):
        nowhere = f"; matched nowhere (no span, proposed as introduced): {', '.join(s.unmatched)}"
        say(
            f"{s.id} -> {t}: {s.units} units ({s.units_from}), {s.candidates} candidates, "
            f"{s.spans} spans proposed" + (nowhere if s.unmatched else "")
        )
    say(
        f"{len(targets)} drafts written. Every label is PROPOSED, not gold: confirm them in "
        "notebooks/09_annotate.ipynb (one copy per annotator)."
    )
    return 0


def add_draft(sub: argparse._SubParsersAction) -> None:
    """Add ``claimlab draft`` to the command parser."""
    p = sub.add_parser("draft", help="turn raw subclaims into decomposition drafts to annotate")
    p.add_argument("input", help="JSON Lines: {id, answer, subclaims[, units, references, labels]}")
    p.add_argument("--out", required=True, help="folder for the drafts (one file per answer)")
    p.add_argument(
        "--units",
        default="sentences",
        help="where a line gives no units: sentences (default; one per sentence) or none",
    )
    p.add_argument(
        "--threshold",
        type=_score,
        default=70.0,
        help="lowest alignment score (0-100) that proposes a source span (default 70)",
    )
    p.add_argument("--force", action="store_true", help="replace drafts that exist")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_draft)


def _score(text: str) -> float:
    """An alignment score threshold: a finite number within 0..100."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number within 0..100, got {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"must be a number within 0..100, got {text!r}")
    return value


def cmd_agreement(args: argparse.Namespace) -> int:
    """Run ``claimlab agreement``; returns the exit code."""
    from claimlab.metrics.agreement import find_agreement

    fixtures = [load_decomposition(f) for f in args.files]
    report = find_agreement(fixtures, selection=args.mode)
    if args.json:
        emit_json(report.to_dict())
        return 0
    say(f"agreement of {len(report.annotators)} annotators: {', '.join(report.annotators)}")
    say(f"  {'field':<20} {'items':>5}  {'alpha':<12} {'kappa':<12} raw agreement")
    for f in report.fields:
        say(
            f"  {f.field:<20} {f.items:>5}  {_short(f.alpha.display):<12} "
            f"{_short(f.kappa.display):<12} {f.raw.display}"
        )
    two = len(report.annotators) == 2
    for f in report.fields:
        for coef, name in ((f.alpha, "alpha"), (f.kappa, "kappa")):
            if coef.value is None and (two or name == "alpha"):
                say(f"  N/A: {f.field}: {name}: {coef.reason}")
    say(f"  disagreements: {len(report.disagreements)}")
    for d in report.disagreements[: args.show]:
        vals = ", ".join(
            f"{n}={v if v is not None else '-'}"
            for n, v in zip(report.annotators, d.values, strict=True)
        )
        say(f"    {d.field}: {d.item}: {vals}")
    if len(report.disagreements) > args.show:
        say(f"    ... and {len(report.disagreements) - args.show} more (--show N, or --json)")
    say(f"  the four Toy ratios from each annotator's labels ({report.selection}):")
    for fig in report.figures:
        flag = f"  [{fig.under_review} candidates still proposed]" if fig.under_review else ""
        say(
            f"    {fig.annotator:<14} "
            + "  ".join(f"{m} {r.display}" for m, r in fig.ratios.items())
            + flag
        )
    return 0


def _short(text: str) -> str:
    return text if len(text) <= 12 else "N/A"


def add_agreement(sub: argparse._SubParsersAction) -> None:
    """Add ``claimlab agreement`` to the command parser."""
    p = sub.add_parser("agreement", help="inter-annotator agreement on a draft's labels")
    p.add_argument("files", nargs="+", help="two or more annotators' files of the same draft")
    p.add_argument("--mode", help="selection the Toy ratios are computed on (default: decomposer)")
    p.add_argument(
        "--show", type=count_type(0), default=20, help="disagreements listed (default 20)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_agreement)


def cmd_adjudicate(args: argparse.Namespace) -> int:
    """Run ``claimlab adjudicate``; returns the exit code."""
    from claimlab.labs.adjudicate import adjudicate, parse_decision

    docs = [read_json(f) for f in args.files]
    fixtures = [load_decomposition(f) for f in args.files]
    decisions = [parse_decision(d) for d in args.decide or []]
    result = adjudicate(docs, fixtures, decisions=decisions, by=args.by)
    write_json(args.out, result.document)
    if args.json:
        emit_json(
            {
                "out": args.out,
                "gold": result.gold,
                "ties": [t.to_dict() for t in result.ties],
                "unit_ties": list(result.unit_ties),
                "decided": list(result.decided),
            }
        )
        return 0
    say(f"{args.out}: merged from {len(args.files)} files by majority")
    for t in result.ties:
        vals = ", ".join(f"{k}={v}" for k, v in t.values.items())
        say(
            f"  tie: {t.candidate}.{t.label}: {vals}  (settle with --decide {t.candidate}.{t.label}=VALUE)"
        )
    for u in result.unit_ties:
        say(f"  tie: unit {u} (marked by half of the annotators; kept, proposed again)")
    if result.decided:
        say(f"  decided by {args.by}: {', '.join(result.decided)}")
    say(
        "  a gold set: every label settled"
        if result.gold
        else "  NOT yet gold: the ties above stay under review"
    )
    return 0


def add_adjudicate(sub: argparse._SubParsersAction) -> None:
    """Add ``claimlab adjudicate`` to the command parser."""
    p = sub.add_parser("adjudicate", help="merge annotators' files into a gold file by majority")
    p.add_argument("files", nargs="+", help="two or more annotators' files of the same draft")
    p.add_argument("--out", required=True, help="the merged file to write")
    p.add_argument(
        "--decide",
        action="append",
        metavar="CID.LABEL=VALUE",
        help="settle a tie (repeatable): S3.faithful=false, S3.errors=qualifier, "
        "S3.evidence=SUPPORTED:R9, S3.preserves=U10,U11",
    )
    p.add_argument("--by", default="adjudicator", help="the adjudicator's name (recorded)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_adjudicate)
