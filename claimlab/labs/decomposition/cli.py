"""``claimlab decomposition``: Toy ratios, Core-style selection and the audit record."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from claimlab.core.spans import backing_rule
from claimlab.core.vocab import SourceMapping, status_line
from claimlab.notebook.terminal import (
    add_store_option,
    emit_json,
    id_list,
    output_path,
    remember,
    say,
)

if TYPE_CHECKING:
    from claimlab.io.decomposition import DecompositionFixture
    from claimlab.metrics.decomposition import DecompositionResult
    from claimlab.metrics.selection import EntityGroup, Selection


def cmd_decomposition(args: argparse.Namespace) -> int:
    """Run ``claimlab decomposition``; returns the exit code."""
    from claimlab.io.decomposition import load_decomposition
    from claimlab.metrics.decomposition import METRIC_LABELS, METRICS, score_decomposition
    from claimlab.metrics.selection import core_select, entity_groups

    fx = load_decomposition(args.file)
    mode = chosen_mode(fx, args.mode, args.select)
    args = argparse.Namespace(**{**vars(args), "mode": mode, "asked_mode": args.mode})
    selection = _selection(fx, mode, args.select)
    core = core_select(fx, selection)
    if args.select_core:
        selection = core.kept  # the figures below are those of what Core-style selection keeps
    result = score_decomposition(fx, selection)
    groups = entity_groups(fx, selection) if args.by_entity else None
    record = _audit(args, fx, selection) if args.record or args.earlier or args.store else None
    data = {
        "file": args.file,
        "mode": args.mode,
        **result.to_dict(),
        "scored": "core selection" if args.select_core else "selection as given",
        **({"selected": EVERY_CANDIDATE} if mode is None and args.select is None else {}),
        "core_selection": core.to_dict(),
        **({"entity_groups": [g.to_dict() for g in groups]} if groups is not None else {}),
        **({"versions": record["versions"]} if record and record["versions"] else {}),
    }
    remember(args, "decomposition", data, claims=_claims(record))
    if args.json:
        emit_json(data)
        return 0
    _say_figures(args, fx, result)
    _say_core_and_groups(args, core, groups)
    if record and record["versions"]:
        a, b = record["versions"]
        say(f"  versions side by side    {a['version']} -> {b['version']}")
        for m in METRICS:
            say(f"    {METRIC_LABELS[m]:<22} {a[m]['display']:<16} -> {b[m]['display']}")
    if args.record:
        say(f"  audit record written to {args.record}")
    _say_audit(result)
    return 0


EVERY_CANDIDATE = "every candidate, in file order (the file names no mode)"


def _selection(fx: DecompositionFixture, mode: str | None, select: str | None) -> Sequence[str]:
    """The candidate ids scored: the mode's, the ids given, or the file's one named selection.

    A file naming no mode has one, every candidate in file order, as the notebooks walk it
    (:func:`claimlab.metrics.decomposition.named_selections`).
    """
    from claimlab.metrics.decomposition import named_selections

    if mode is not None:
        return fx.mode(mode)
    if select is not None:
        return id_list(select)
    (every,) = named_selections(fx).values()
    return every


def _earlier_selection(
    before: DecompositionFixture, args: argparse.Namespace, selection: Sequence[str]
) -> Sequence[str]:
    """What ``--earlier`` is scored on.

    The mode asked for; the ids given (the selection); with neither, the mode taken by default
    when the earlier file has it, else the earlier file's own default (its only mode, or every
    candidate when it names none).
    """
    if args.asked_mode is not None:
        return before.mode(args.asked_mode)
    if args.select is not None:
        return selection
    if args.mode is not None and args.mode in before.modes:
        return before.mode(args.mode)
    return _selection(before, chosen_mode(before, None, None), None)


def chosen_mode(fx: DecompositionFixture, mode: str | None, select: str | None) -> str | None:
    """The mode scored: the one asked for; with neither --mode nor --select, the file's only one.

    None for a selection by ids, and for a file that names no mode (modes are optional): then
    every candidate is scored, in file order, as the notebooks do (:func:`_selection`).

    Raises:
        ClaimlabInputError: neither was given and the file has several modes (named).
    """
    if mode is not None or select is not None:
        return mode
    names = list(fx.modes)
    if len(names) <= 1:
        return str(names[0]) if names else None
    from claimlab.core.errors import ClaimlabInputError

    raise ClaimlabInputError(
        f"give --mode NAME or --select IDS: the file has {len(names)} modes: {', '.join(names)}",
        file=str(fx.source),
        field="--mode",
    )


def _claims(record: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The audit's candidates as the store keeps them (the memory rule)."""
    if record is None:
        return []
    version = record["figures"].get("version")
    return [
        {
            **c,
            "answer_id": record["answer"],
            "answer_version": version,
            "proposed": bool(c.get("proposed")),
        }
        for c in record["candidates"]
    ]


def _audit(
    args: argparse.Namespace, fx: DecompositionFixture, selection: Sequence[str]
) -> dict[str, Any]:
    """The audit record (``--record``, ``--earlier``), written when asked."""
    from claimlab.io.decomposition import load_decomposition
    from claimlab.labs.decomposition.audit import audit_record

    previous = None
    if args.earlier:
        before = load_decomposition(args.earlier)
        previous = (before, _earlier_selection(before, args, selection))
    record = audit_record(fx, selection, previous=previous)
    if args.record:
        from claimlab.io.files import write_json

        write_json(args.record, record)
    return record


def _say_figures(
    args: argparse.Namespace, fx: DecompositionFixture, result: DecompositionResult
) -> None:
    """The four ratios, the cited methods and the ids behind the counts."""
    from claimlab.metrics.decomposition import ALL_CANDIDATES, METRIC_LABELS, METRICS

    label = (
        f"mode {args.mode}"
        if args.mode is not None
        else "selection"
        if args.select is not None
        else f"{ALL_CANDIDATES} (the file names no mode)"
    )
    say(f"{args.file}: {label}: {', '.join(result.selection) or '(empty)'}")
    if not result.gold:
        say(
            f"  DRAFT, not gold: {len(result.proposed)} selected candidates and "
            f"{len(result.proposed_units)} units hold proposed labels nobody has confirmed; "
            "the figures below count them as given"
        )
    for m in METRICS:
        say(f"  {METRIC_LABELS[m]:<24} {getattr(result, m)}")
    say(f"  {'Atomicity':<24} {result.atomicity}")
    say(
        f"  {'DecompScore':<24} {result.decompscore} supported subclaims per passage (a count, "
        "not a percentage; duplicates count)"
    )
    say(f"  status (unique selection) {status_line(result.status_counts, sep=', ')}")
    for name, ids in (
        ("missing units", result.missing_units),
        ("duplicates", result.duplicates),
        ("introduced", result.introduced),
        ("non-atomic", result.non_atomic),
        ("ambiguous (not counted)", result.ambiguous),
        ("untagged background", result.untagged_background),
        ("unfaithful", result.unfaithful),
    ):
        say(f"  {name:<24} {', '.join(ids) or '-'}")
    if result.untagged_background:
        say("  untagged background: context from outside the original, not tagged: never counted")
    for cid, units in result.unbacked.items():
        say(
            f"  not backed               {cid} preserves {', '.join(units)} but no source span of it"
            f" lies in it ({backing_rule(fx.span_cover)}): not counted"
        )


def _say_core_and_groups(
    args: argparse.Namespace, core: Selection, groups: Sequence[EntityGroup] | None
) -> None:
    """What Core-style selection kept and dropped, and the entity groups (``--by-entity``)."""
    say(
        f"  Core-style selection     keeps {', '.join(core.kept) or '-'}; coverage "
        f"{core.coverage_before} -> {core.coverage_after}"
        + ("  (the figures above are of what it keeps: --select-core)" if args.select_core else "")
    )
    if core.not_exact:
        say(f"    NOT proven the heaviest subset: {core.not_exact}")
    for cid, reason in core.dropped:
        say(f"    drops {cid}: {reason}")
    for g in groups or ():
        other = (
            f"; supported only by another entity's references: {', '.join(g.other_entity)}"
            if g.other_entity
            else ""
        )
        say(
            f"  entity {g.entity} {g.version}: {', '.join(g.ids)}; preservation {g.preservation},"
            f" confirmed support {g.confirmed_support} (its own references){other}"
        )


def _say_audit(result: DecompositionResult) -> None:
    """One line per selected candidate: both layers, and why it is not counted if it is not."""
    say("  audit:")
    for row in result.audit:
        flag = (
            ""
            if row.counted
            else " (AMBIGUOUS mapping: its source cannot be fixed, not counted)"
            if row.mapping == SourceMapping.AMBIGUOUS
            else f" (duplicate of {row.duplicate_of}, not counted)"
            if row.duplicate_of is not None
            else f" ({row.reason})"
        )
        if row.background:
            untagged = row.id in result.untagged_background
            flag += f" [background{' NOT from the original, untagged' if untagged else ''}: {row.background}]"
        if row.id in result.proposed:
            flag += f" [proposed: {', '.join(result.proposed[row.id])}]"
        say(
            f"    {row.id:<4} preserves={','.join(row.preserves) or '-'} faithful={row.faithful} "
            f"atomic={row.atomic} errors={','.join(row.errors) or '-'} | {row.status} "
            f"{','.join(row.references) or '-'}{flag}"
        )


def add_decomposition(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab decomposition`` to the command parser."""
    p = sub.add_parser("decomposition", help="score a selection of candidate subclaims")
    p.add_argument("file", help="a claimlab/decomposition@1 file")
    p.add_argument(
        "--select-core",
        action="store_true",
        help="score what Core-style selection keeps (a maximum-weight subset with no repeat and"
        " no entailed pair), each drop with its reason",
    )
    p.add_argument(
        "--by-entity",
        action="store_true",
        help="figures per entity and version (after D-FActScore), a group's support counted"
        " only against that entity's references",
    )
    g = p.add_mutually_exclusive_group()
    g.add_argument("--select", help="candidate ids, comma-separated (duplicates kept), or @FILE")
    g.add_argument(
        "--mode",
        help="a named selection from the file's modes (default: its only one; every candidate "
        "in a file that names none)",
    )
    p.add_argument(
        "--record",
        metavar="OUT.json",
        type=output_path,
        help="write the audit record: every candidate with its state and reason, the figures",
    )
    p.add_argument(
        "--earlier",
        metavar="FILE",
        help="the earlier version of the same answer: both versions' figures side by side",
    )
    add_store_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(
        handler=cmd_decomposition,
        paths=lambda a: ([a.file, a.earlier], [("--record", a.record)]),
    )


def cmd_spans(args: argparse.Namespace) -> int:
    """Run ``claimlab spans``; returns the exit code."""
    from claimlab.io.files import json_text, write_json
    from claimlab.io.reader import WRITTEN_DEPTH, read_json
    from claimlab.labs.decomposition.spans import fill_spans

    result = fill_spans(read_json(args.file, max_depth=WRITTEN_DEPTH), file=args.file)
    if args.out:
        write_json(args.out, dict(result.document))
    else:
        say(json_text(dict(result.document)), end="", block=True)
    if args.json:
        emit_json({"file": args.file, "out": args.out, **result.to_dict()})
    elif args.out:
        say(
            f"{len(result.filled)} spans filled, {len(result.kept)} kept as given -> {args.out}"
            f" (check it: claimlab decomposition {args.out} --select ...)"
        )
    return 0


def add_spans(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab spans`` to the command parser."""
    p = sub.add_parser(
        "spans",
        help="fill the UTF-16 start/end of a decomposition file's spans from their quoted text",
        description='Every span written as {"text": ...} gets the UTF-16 offsets of its one '
        "occurrence (units and source spans in original.text, evidence spans in the cited "
        "reference's text). A quote that is absent or occurs more than once is an error naming "
        "the record and field; offsets already given that hold their quote are kept.",
    )
    p.add_argument("file", help="a claimlab/decomposition@1 file whose spans quote their text")
    p.add_argument("--out", metavar="FILE", help="write the filled file here (default: stdout)")
    p.add_argument("--json", action="store_true", help="with --out: what was filled, as JSON")
    p.set_defaults(handler=cmd_spans, paths=lambda a: ([a.file], [("--out", a.out)]))
