"""From a decomposer's raw output to a gold set: ``draft``, ``agreement``, ``adjudicate``."""

from __future__ import annotations

import argparse
import itertools
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.spans import unbacked_line
from claimlab.core.text import nfc, plural
from claimlab.io.files import Staging
from claimlab.notebook.terminal import Steps, count_type, emit_json, output_folder, output_path, say

if TYPE_CHECKING:
    from claimlab.io.raw import RawAnswer
    from claimlab.labs.annotation.adjudicate import AnswerResult as Result
    from claimlab.labs.annotation.draft import DraftSummary
    from claimlab.metrics.agreement import AgreementReport


def cmd_draft(args: argparse.Namespace) -> int:
    """Run ``claimlab draft``; returns the exit code."""
    from claimlab.io.raw import load_raw_answers
    from claimlab.labs.annotation.draft import check_units_choice, draft_files

    check_units_choice(args.units)
    steps = Steps("draft", enabled=args.progress or None)
    steps.step("reading answers")
    answers = load_raw_answers(args.input)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ClaimlabInputError("is a file; --out names a folder for the drafts", file=str(out))
    targets = _draft_targets(args, out, answers)
    advance = steps.step("drafting", len(answers), "answer")
    staging = Staging(targets)
    try:
        summaries = []
        built = draft_files(
            answers,
            staging,
            units=args.units,
            threshold=args.threshold,
            source=args.input,
            decomposer=args.decomposer,
        )
        for summary in built:
            summaries.append(summary)
            advance(1)
        staging.commit()
    finally:
        staging.discard()
    steps.close()
    _say_drafts(args, out, targets, summaries)
    return 0


def _draft_targets(args: argparse.Namespace, out: Path, answers: list[RawAnswer]) -> list[Path]:
    """Where each answer's draft goes in ``out``, refusing to replace an input or a draft.

    An answer's name is its id's (:func:`file_names`), or the next free one (``-2``, ``-3``)
    where another answer's file holds it; names are compared as a file system may (without
    case, in one Unicode form). A file under the answer's name, a numbered one or the name
    written before that is that answer's draft (read: ``original.id``) is refused without
    ``--force`` and replaced in place with it; another answer's file is never touched.
    """
    from claimlab.io.files import file_names

    ids = [a.id for a in answers]
    names = file_names(ids)
    src = Path(args.input)
    if out.is_dir() and src.parent.resolve() == out.resolve() and src.name in names:
        raise ClaimlabInputError(
            f"--out {out} would replace the input {src} with a draft: outputs never replace "
            "inputs (choose another --out)",
            file=str(src),
            field="--out",
        )
    if not out.is_dir():
        return [out / n for n in names]
    existing = {_folded(p.name): p.name for p in out.iterdir()}
    taken: set[str] = set()
    targets = []
    for a in answers:
        stem = file_names([a.id])[0][: -len(".json")]
        old = file_names([a.id], older=True)[0][: -len(".json")]  # its own, whatever the run
        mine = _own_draft(out, existing, a.id, stem, old)
        if mine is not None and not args.force:
            raise ClaimlabInputError(
                "exists: a draft may already be annotated; choose another --out or give "
                "--force to replace it",
                file=str(out / mine),
                record=a.id,
            )
        name, k = mine or f"{stem}.json", 2
        while mine is None and (_folded(name) in existing or _folded(name) in taken):
            name, k = f"{stem}-{k}.json", k + 1
        taken.add(_folded(name))
        targets.append(out / name)
    return targets


def _folded(name: str) -> str:
    """A file name as a file system may compare it: without case, in one Unicode form."""
    return nfc(name).casefold()


def _own_draft(out: Path, existing: dict[str, str], answer: str, stem: str, old: str) -> str | None:
    """The name of ``answer``'s draft in ``out``, or None.

    Looked for under ``STEM.json``, ``STEM-2.json``, ... and the same under the stem written
    before (``old``). A file under the answer's own name that cannot be read as a draft (not
    JSON, no ``original.id``) counts as the answer's: never replaced without ``--force``.
    """
    from claimlab.labs.annotation.draft import draft_owner

    first = existing.get(_folded(f"{stem}.json"))
    if first is not None and draft_owner(out / first) in (None, answer):
        return first
    for base in dict.fromkeys((stem, old)):
        for k in itertools.count(1):  # STEM.json, STEM-2.json, ... while they are there
            found = existing.get(_folded(f"{base}.json" if k == 1 else f"{base}-{k}.json"))
            if found is None:
                break
            if draft_owner(out / found) == answer:
                return found
    return None


def _say_drafts(
    args: argparse.Namespace, out: Path, targets: list[Path], summaries: list[DraftSummary]
) -> None:
    if args.json:
        emit_json(
            {
                "input": args.input,
                "out": str(out),
                "decomposer": args.decomposer,
                "files": [str(t) for t in targets],
                "drafts": [s.to_dict() for s in summaries],
                "gold": False,
            }
        )
        return
    shown = targets if len(targets) <= args.show else targets[: args.show]
    for t, s in zip(shown, summaries, strict=False):
        nowhere = f"; matched nowhere (no span, proposed as introduced): {', '.join(s.unmatched)}"
        unbacked = unbacked_line(dict(s.unbacked), show=args.show)
        say(
            f"{s.id} -> {t}: {plural(s.units, 'unit')} ({s.units_from}), "
            f"{plural(s.candidates, 'candidate')}, {plural(s.spans, 'span')} proposed"
            + (nowhere if s.unmatched else "")
            + (f"; {unbacked}" if unbacked else "")
        )
    if len(targets) > len(shown):
        say(f"... and {len(targets) - len(shown)} more (--show N, or --json)")
    unbacked_claims = sum(len(s.unbacked) for s in summaries)
    if unbacked_claims:
        in_files = sum(1 for s in summaries if s.unbacked)
        say(
            f"{plural(unbacked_claims, 'claim')} in {plural(in_files, 'draft')} "
            f"{'preserves' if unbacked_claims == 1 else 'preserve'} units their source spans do "
            "not back (not counted until a span lies in each unit, or the unit is taken off): "
            "check them at Confirm"
        )
    say(
        f"{plural(len(targets), 'draft')} written. Every label is PROPOSED, not gold: confirm "
        "them in notebooks/09_annotate.ipynb (one copy per annotator)."
    )


def add_draft(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab draft`` to the command parser."""
    p = sub.add_parser("draft", help="turn raw subclaims into decomposition drafts to annotate")
    p.add_argument("input", help="JSON Lines: {id, answer, subclaims[, units, references, labels]}")
    p.add_argument(
        "--out",
        required=True,
        type=output_folder,
        help="folder for the drafts (one file per answer)",
    )
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
    p.add_argument(
        "--decomposer",
        default="",
        help="who split the answers (recorded in each draft; answers are paired by it and id)",
    )
    p.add_argument("--force", action="store_true", help="replace drafts that exist")
    p.add_argument("--show", type=count_type(0), default=20, help="drafts listed (default 20)")
    p.add_argument("--progress", action="store_true", help="progress lines even off a terminal")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_draft, paths=lambda a: ([a.input], []))


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
    from claimlab.metrics.agreement import POOLING_STEPS, load_for_agreement, score_pooled_agreement

    steps = Steps("agreement", enabled=args.progress or None)
    sets, items = load_for_agreement(
        args.paths_in, selection=args.mode, progress=steps.step("reading files", unit="file")
    )
    pairing = steps.step("pairing answers", POOLING_STEPS)
    report = score_pooled_agreement(sets, items, per_answer=args.per_answer, progress=pairing)
    steps.close()
    if args.json:
        emit_json(report.to_dict())
        return 0
    _say_agreement(report, show=args.show)
    return 0


def _say_agreement(report: AgreementReport, *, show: int) -> None:
    """The agreement report for a person: fields, N/A reasons, disagreements, figures."""
    names = report.annotators
    split = (
        f" ({report.decompositions} decompositions: each answer split by several decomposers)"
        if report.decompositions != report.answers
        else ""
    )
    say(
        f"agreement of {plural(len(names), 'annotator')} ({', '.join(names)}) over "
        f"{plural(report.answers, 'answer')}{split}"
    )
    if report.single_annotator_answers:
        shown = ", ".join(report.single_annotator_answers[:5])
        more = "" if len(report.single_annotator_answers) <= 5 else ", ..."
        say(
            f"  {plural(len(report.single_annotator_answers), 'answer')} with one annotator only "
            f"(no item to compare): {shown}{more}"
        )
    say(f"  {'field':<20} {'answers':>7} {'items':>7}  {'alpha':<12} {'kappa':<12} raw agreement")
    for f in report.fields:
        say(
            f"  {f.field:<20} {f.answers:>7} {f.items:>7}  {_short(f.alpha.display):<12} "
            f"{_short(f.kappa.display):<12} {f.raw.display}"
        )
    for f in report.fields:
        for coef, name in ((f.alpha, "alpha"), (f.kappa, "kappa")):
            if coef.value is None and (len(names) == 2 or name == "alpha"):
                say(f"  N/A: {f.field}: {name}: {coef.reason}")
    say(f"  disagreements: {len(report.disagreements)}")
    for d in report.disagreements[:show]:
        vals = ", ".join(
            f"{n}={v if v is not None else '-'}" for n, v in zip(names, d.values, strict=True)
        )
        say(f"    {d.field}: {d.item}: {vals}")
    if len(report.disagreements) > show:
        say(f"    ... and {len(report.disagreements) - show} more (--show N, or --json)")
    for row in report.per_answer:
        say(f"  answer {row.answer} ({plural(row.annotators, 'annotator')}):")
        for f in row.fields:
            say(f"    {f.field:<20} {f.items:>5}  {_short(f.alpha.display):<12} {f.raw.display}")
    say(f"  the four Toy ratios from each annotator's labels ({report.selection}):")
    for fig in report.figures:
        flag = (
            f"  [{plural(fig.under_review, 'candidate')} still proposed]"
            if fig.under_review
            else ""
        )
        say(
            f"    {fig.annotator:<14} "
            + "  ".join(f"{m} {r.display}" for m, r in fig.ratios.items())
            + flag
        )


def _short(text: str) -> str:
    return text if len(text) <= 12 else "N/A"


def add_agreement(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab agreement`` to the command parser."""
    p = sub.add_parser(
        "agreement",
        help="inter-annotator agreement, pooled over every answer of the annotators' folders",
        description="Krippendorff's alpha, Cohen's kappa and raw agreement per label, pooled "
        "over every answer the annotators' files or folders hold (paired by answer id).",
    )
    p.add_argument(
        "paths_in",
        nargs="+",
        metavar="ANNOTATOR",
        help="each annotator's file, or folder of files (one per answer; sub-folders too)",
    )
    p.add_argument("--mode", help="selection the Toy ratios are computed on (default: decomposer)")
    p.add_argument(
        "--show", type=count_type(0), default=20, help="disagreements listed (default 20)"
    )
    p.add_argument("--per-answer", action="store_true", help="each answer's figures too")
    p.add_argument("--progress", action="store_true", help="progress lines even off a terminal")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_agreement)


def cmd_adjudicate(args: argparse.Namespace) -> int:
    """Run ``claimlab adjudicate``; returns the exit code."""
    from claimlab.labs.annotation.adjudicate import adjudicate_paths

    steps = Steps("adjudicate", enabled=args.progress or None)
    origin: dict[str, tuple[str, int]] = {}  # candidate id -> the @FILE and line deciding it
    decisions = [d for text in args.decide or [] for d in _decisions(text, origin)]
    try:
        results, targets = adjudicate_paths(
            args.paths_in,
            args.out,
            decisions=decisions,
            by=args.by,
            progress=steps.step,
            prefer=args.prefer or (),
        )
    except ClaimlabInputError as exc:  # a decision naming what the files lack: its line
        if exc.field != "--decide" or exc.file or not (at := origin.get(str(exc.record))):
            raise
        raise type(exc)(
            exc.problem, file=at[0], record=f"line {at[1]} ({exc.record})", field=exc.field
        ) from None
    steps.close()
    if args.decisions_template:
        from claimlab.io.files import atomic_write
        from claimlab.labs.annotation.adjudicate import decisions_template

        atomic_write(Path(args.decisions_template), decisions_template(results))
    _say_adjudication(args, results, targets)
    return 0


def _decisions(text: str, origin: dict[str, tuple[str, int]]) -> list[str]:
    """A ``--decide`` value, or ``@FILE``: one decision a line.

    Blank lines and ``#`` comments are left out; each decision is read here, so that one that
    cannot be read is named by its file and line, and ``origin`` learns which file and line
    decided each candidate first (for what the annotators' files show to be wrong later).
    """
    from claimlab.io.reader import at_file

    if (found := at_file(text, option="--decide")) is None:
        return [text]
    from claimlab.labs.annotation.adjudicate import parse_decision

    path, out = found[0], []
    for n, line in enumerate(found[1], 1):
        decision = line.strip()
        if not decision or decision.startswith("#"):
            continue
        try:
            cid = parse_decision(decision)[0]
        except ClaimlabInputError as exc:
            at = f"line {n}" + (f" ({exc.record})" if exc.record else "")
            raise type(exc)(exc.problem, file=path, record=at, field=exc.field) from None
        for key in (cid, cid.rpartition(":")[2]):  # ANSWER:CID names CID in the answer
            origin.setdefault(nfc(key), (path, n))
        out.append(decision)
    return out


def _say_units(results: list[Result]) -> None:
    """The units no annotator confirmed (a unit tie is a tie, printed with its ``--decide``)."""
    for r in results:
        at = f"{r.key.label}: " if len(results) > 1 else ""
        for u in r.unconfirmed_units:
            say(f"  proposed: {at}unit {u} (no annotator confirmed it; kept, still proposed)")


def _say_adjudication(args: argparse.Namespace, results: list[Result], targets: list[str]) -> None:
    ties = [t for r in results for t in r.ties]
    gold = [r.key.label for r in results if r.gold]
    decided = [f"{r.key.label}:{d}" if len(results) > 1 else d for r in results for d in r.decided]
    if args.json:
        emit_json(
            {
                "out": args.out,
                "answers": len(results),
                "gold": len(gold) == len(results),
                "gold_answers": len(gold),
                "files": [str(t) for t in targets],
                "ties": [t.to_dict() for t in ties],
                "unit_ties": [
                    {"answer": r.key.label, "unit": u} for r in results for u in r.unit_ties
                ],
                "decided": decided,
                "confirmed_by_nobody": [
                    {"answer": r.key.label, "candidate": c} for r in results for c in r.unconfirmed
                ],
                "units_confirmed_by_nobody": [
                    {"answer": r.key.label, "unit": u} for r in results for u in r.unconfirmed_units
                ],
            }
        )
        return
    where = args.out if len(results) == 1 else f"{args.out}/ ({plural(len(results), 'answer')})"
    say(f"{where}: merged from {plural(len(args.paths_in), 'annotator')} by majority")
    for t in ties[: args.show]:
        vals = ", ".join(f"{k}={v}" for k, v in t.values.items())
        how = " or ".join(
            f"--decide {shlex.quote(t.decide(v))}" for v in dict.fromkeys(t.values.values())
        )
        at = f"{t.answer}: " if t.answer else ""
        say(f"  tie: {at}{t.candidate}.{t.label}: {vals}; settle with {how}")
    if len(ties) > args.show:
        say(f"  ... and {len(ties) - args.show} more ties (--show N, or --json)")
    _say_units(results)
    nobody = [(r.key.label, c) for r in results for c in r.unconfirmed]
    if nobody:
        shown = ", ".join(f"{a}:{c}" if len(results) > 1 else c for a, c in nobody[: args.show])
        say(
            f"  confirmed by nobody: {shown}{', ...' if len(nobody) > args.show else ''} (no vote: "
            "an annotator confirms them, or --decide sets each label)"
        )
    if decided:
        say(f"  decided by {args.by}: {', '.join(decided)}")
    if args.decisions_template:
        say(
            f"  {plural(len(ties), 'tie')} written to {args.decisions_template}: remove the '#' "
            f"before each value you choose, then --decide @{args.decisions_template}"
        )
    if len(gold) == len(results):
        say("  a gold set: every label settled")
    else:
        left = len(results) - len(gold)
        say(
            f"  NOT yet gold: {plural(left, 'answer')} of {len(results)} "
            f"still {'holds' if left == 1 else 'hold'} ties under review"
        )


def add_adjudicate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab adjudicate`` to the command parser."""
    from claimlab.core.vocab import LABEL_VALUES

    values = "; ".join(f"{k}: {v}" for k, v in LABEL_VALUES.items())
    p = sub.add_parser(
        "adjudicate",
        help="merge annotators' files or folders into gold files by majority",
        description="Merge two or more annotators' files (or folders, paired by answer id) "
        "into one gold file per answer, each label by majority with its provenance; ties stay "
        f"under review until --decide settles them. Values each label takes: {values}.",
    )
    p.add_argument(
        "paths_in",
        nargs="+",
        metavar="ANNOTATOR",
        help="each annotator's file, or folder of files (one per answer; sub-folders too)",
    )
    p.add_argument(
        "--out",
        required=True,
        type=output_folder,
        help="folder for the gold files (OUT/[DECOMPOSER/]ANSWER.json); a .json file for one answer",
    )
    p.add_argument(
        "--decide",
        action="append",
        metavar="[ANSWER:]CID.LABEL=VALUE",
        help="settle a tie (repeatable; ANSWER: may be left out for one answer): "
        "S3.faithful=false, S3.errors=qualifier, S3.errors=none, S3.evidence=SUPPORTED:R9, "
        "S3.preserves=U10,U11, 'S3.source_spans=12..40;52..60'",
    )
    p.add_argument(
        "--prefer",
        action="append",
        metavar="ANNOTATOR | [ANSWER:]CID=ANNOTATOR",
        help="settle ties with this annotator's value: every tie, or one candidate's "
        "(repeatable; a --decide comes first, then a candidate's own --prefer)",
    )
    p.add_argument(
        "--decisions-template",
        metavar="FILE",
        type=output_path,
        help="write every tie left to FILE, each choice commented out, to edit and give back "
        "as --decide @FILE",
    )
    p.add_argument("--by", default="adjudicator", help="the adjudicator's name (recorded)")
    p.add_argument("--show", type=count_type(0), default=20, help="ties listed (default 20)")
    p.add_argument("--progress", action="store_true", help="progress lines even off a terminal")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_adjudicate, paths=lambda a: (a.paths_in, []))
