"""``claimlab check DECOMPOSITION --out LABELLED.json``: the reference layer filled by a checker.

Every candidate is checked against the file's reference documents (one passage each, in file
order). The checker fills the reference -> subclaim layer only: ``evidence.status`` is its
label and ``evidence.references`` the references it used (all of them when it names none and
its label needs a citation); evidence spans, which were the people's, are dropped. The
original -> subclaim layer (spans, preserves, faithful, errors) is kept as it is. The written
file carries a ``checker`` object (name, version, parameters, cache, calls and hits), and the
report compares the checker's labels with the ones the file had (people's, when it had them).
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from claimlab.checkers.options import add_checker_options, run_from_args
from claimlab.checkers.verdicts import Item, Verdict
from claimlab.core.text import terminal
from claimlab.core.vocab import Status
from claimlab.io.reader import WRITTEN_DEPTH, read_json
from claimlab.notebook.terminal import (
    add_store_option,
    emit_json,
    output_path,
    remember,
    say,
    share_type,
)

if TYPE_CHECKING:  # for annotations; each command imports what it runs
    from claimlab.io.decomposition import DecompositionFixture


def candidate_items(fx: DecompositionFixture) -> list[Item]:
    """Each candidate as an item against all the reference documents."""
    passages = tuple(r.text for r in fx.references)
    return [Item(c.id, c.text, passages) for c in fx.candidates]


def evidence_of(verdict: Verdict, reference_ids: Sequence[str]) -> dict[str, Any]:
    """A verdict as the file's ``evidence`` object.

    Examples:
        >>> evidence_of(Verdict(Status.SUPPORTED), ["doc-a", "doc-b"])
        {'status': 'SUPPORTED', 'references': ['doc-a', 'doc-b']}
        >>> evidence_of(Verdict(Status.NOT_IN_REFERENCE, None, (1,)), ["doc-a", "doc-b"])
        {'status': 'NOT_IN_REFERENCE', 'references': ['doc-b']}
    """
    used = [reference_ids[i] for i in verdict.used]
    if not used and verdict.label is not Status.NOT_IN_REFERENCE:
        used = list(reference_ids)  # a label that needs a citation cites what it was given
    return {"status": verdict.label.value, "references": used}


def labelled_document(
    doc: Any, fx: DecompositionFixture, verdicts: Sequence[Verdict], checker: dict[str, Any]
) -> Any:
    """A copy of the file with every candidate's ``evidence`` from the checker (nothing else)."""
    out = copy.deepcopy(doc)
    refs = [r.id for r in fx.references]
    by_id = {c.id: v for c, v in zip(fx.candidates, verdicts, strict=True)}
    for c in out["candidates"]:
        c["evidence"] = evidence_of(by_id[c["id"]], refs)
    out["checker"] = checker
    return out


def cmd_check(args: argparse.Namespace) -> int:
    """Run ``claimlab check``; returns the exit code."""
    from claimlab.checkers.people import against_people
    from claimlab.checkers.repeats import repeats_line
    from claimlab.io.decomposition import load_decomposition
    from claimlab.io.files import write_json

    fx = load_decomposition(args.file)
    run = run_from_args(args, candidate_items(fx), command="check")
    labels = run.final_labels()  # with repeats: the majority, the first ask's passages
    verdicts = [replace(row[0], label=lab) for row, lab in zip(run.verdicts, labels, strict=True)]
    doc = read_json(args.file, max_depth=WRITTEN_DEPTH)
    write_json(args.out, labelled_document(doc, fx, verdicts, run.to_dict()))
    people = against_people(
        [v.label.value for v in verdicts], [c.evidence.status.value for c in fx.candidates]
    )
    data = {
        "file": args.file,
        "written": args.out,
        "checker": run.to_dict(),
        "labels": {c.id: v.label.value for c, v in zip(fx.candidates, verdicts, strict=True)},
        "against_file": people.to_dict(),
        "corrected_with_file_labels": corrected_support(fx, verdicts, args.labelled, args.seed),
    }
    remember(args, "check", data)
    if args.json:
        emit_json(data)
        return 0
    say(
        f"{terminal(args.file)}: {len(verdicts)} candidates checked by {terminal(run.checker['name'])}"
        f" ({run.calls} calls, {run.hits} from the cache); written: {terminal(args.out)}"
    )
    repeats = repeats_line(run.to_dict().get("repeats"))
    if repeats:
        say(repeats)
    kappa = people.kappa.display
    say(f"against the file's own statuses: {people.agreement.display}, kappa {kappa}")
    say(corrected_line(data["corrected_with_file_labels"]))
    return 0


def corrected_support(
    fx: DecompositionFixture, verdicts: Sequence[Verdict], share: float, seed: int
) -> dict[str, Any]:
    """Raw support over every candidate from the checker's labels, corrected by the file's own.

    The file's statuses play the people's part on a seeded share of the candidates
    (prediction-powered, :func:`~claimlab.checkers.people.corrected_by_people`).
    """
    from claimlab.checkers.people import corrected_by_people

    ones = [1] * len(verdicts)
    auto = [int(v.label is Status.SUPPORTED) for v in verdicts]
    given = [int(c.evidence.status is Status.SUPPORTED) for c in fx.candidates]
    keys = [c.id for c in fx.candidates]
    return {
        "share": share,
        "seed": seed,
        **corrected_by_people(
            (auto, ones), (given, ones), keys, figure="raw_support", share=share, seed=seed
        ),
    }


def corrected_line(c: dict[str, Any]) -> str:
    """The corrected figure in one line, or why there is none."""
    if "reason" in c:
        return f"raw support corrected by the file's statuses: N/A ({c['reason']})"
    ppi, naive = c["ppi"], c["naive_autorater"]
    shown = "N/A" if ppi["value"] is None else f"{100 * ppi['value']:.1f}%"
    if ppi["low"] is not None and ppi["high"] is not None:
        shown += f" [{100 * ppi['low']:.1f}%, {100 * ppi['high']:.1f}%]"
    alone = "N/A" if naive["value"] is None else f"{100 * naive['value']:.1f}%"
    return (
        f"raw support corrected by the file's statuses on {c['labelled']} of "
        f"{c['labelled'] + c['unlabelled']} candidates: {shown} (checker alone {alone})"
    )


def add_check(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab check`` to the command parser."""
    p = sub.add_parser(
        "check",
        help="label every candidate against its references with a checker",
        description="Checks every candidate subclaim of a claimlab/decomposition@1 file against "
        "the file's reference documents and writes a copy whose reference layer (evidence "
        "status and references) is the checker's; the original -> subclaim layer is kept. "
        "Reports the checker's agreement with the statuses the file had.",
        epilog="example: claimlab check answer.json --out labelled.json --checker lexical",
    )
    p.add_argument("file", help="a claimlab/decomposition@1 file")
    p.add_argument(
        "--out", required=True, metavar="LABELLED.json", type=output_path, help="the labelled copy"
    )
    add_checker_options(p)
    p.add_argument(
        "--labelled",
        type=share_type,
        default=0.25,
        metavar="SHARE",
        help="the share of candidates whose own statuses correct the checker's raw support "
        "(prediction-powered; default 0.25, by a seeded hash of the candidate id)",
    )
    p.add_argument("--seed", type=int, default=0, help="the seed of that choice (default 0)")
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_check, paths=lambda a: ([a.file], [("--out", a.out)]))
