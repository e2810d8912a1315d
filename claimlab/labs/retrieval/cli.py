"""``claimlab convert``: MuSiQue and HotpotQA records as sufficiency files."""

from __future__ import annotations

import argparse

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.files import write_json
from claimlab.notebook.terminal import emit_json, say


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
    p.add_argument("--out", required=True, help="the sufficiency file to write")
    p.add_argument(
        "--contrast",
        action="store_true",
        help="MuSiQue: add each answerable record's unanswerable twin (its last hop's "
        "supporting paragraph removed), which is never sufficient",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_convert, paths=lambda a: ([a.file], [("--out", a.out)]))
