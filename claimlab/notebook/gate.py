"""The release gate's shared edge: its command-line options, its run, and its reports.

Every command that gates a figure (``ledger``, ``rag``) adds the same options
(:func:`add_gate_options`), checks them the same way (:func:`check_gate_options`), gates through
:func:`claimlab.metrics.gate.gate_file` with the same settings (:func:`gate_options`), and
writes the same JUnit report and Markdown summary (:func:`write_reports`); the labs share these
here because a lab never imports another.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.ratio import percent, points
from claimlab.notebook.terminal import count_type, level_type, output_path, say, share_or_zero

GATE_ONLY = ("margin", "allow_missing", "junit", "summary", "gate_figures")


def _replacing(out: Path) -> Any:
    """:func:`claimlab.io.files.replacing`, imported when a file is written.

    Not when a command's options are added: ``claimlab --help`` imports this module.
    """
    from claimlab.io.files import replacing

    return replacing(out)


def write_table(table: Any, path: str | Path) -> Path:
    """Write a pandas table to CSV, JSONL or Parquet (by the path's suffix), atomically."""
    from claimlab.io.ledger import table_kind

    out = Path(path)
    kind = table_kind(out)
    with _replacing(out) as tmp:
        if kind == "csv":
            table.to_csv(tmp, index=False)
        elif kind == "jsonl":
            table.to_json(tmp, orient="records", lines=True, force_ascii=False)
        else:
            table.to_parquet(tmp, index=False)
    return out


def keep_table(table: Any, store: str | Path, *, kind: str = "per_query") -> dict[str, str]:
    """Keep a run's per-item table beside the store, named by its SHA-256; its path and hash.

    The table is written to ``STORE.tables/KIND-SHA256.csv`` (atomically; the same table twice
    is one file), so a stored run can later be gated with ``--baseline`` from that path alone.
    """
    import hashlib

    folder = Path(f"{store}.tables")
    folder.mkdir(parents=True, exist_ok=True)
    text = table.to_csv(index=False)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    out = folder / f"{kind}-{digest}.csv"
    with _replacing(out) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return {"path": str(out), "sha256": digest}


def _add_resampling(p: argparse.ArgumentParser, resampled: str) -> None:
    """``--bootstrap`` and ``--seed``: the resampling behind the gate's one-sided bound."""
    p.add_argument(
        "--bootstrap",
        type=count_type(100, 1_000_000),
        default=2000,
        help=f"resamples of {resampled} behind the gate's bound (default 2000)",
    )
    p.add_argument("--seed", type=int, default=0, help="the resampling seed (default 0)")


def add_gate_options(
    p: argparse.ArgumentParser,
    *,
    figures: Sequence[str],
    table: str = "per-answer",
    resampled: str | None = None,
) -> None:
    """Add the gate's options; ``figures`` are the names ``--gate-figures`` may take.

    ``--baseline``, ``--margin``, ``--allow-missing``, ``--gate-figures``, ``--gate-aggregate``,
    ``--gate-level``, ``--junit`` and ``--summary``; with ``resampled`` (what the bootstrap
    draws: "queries", "claims") also ``--bootstrap`` and ``--seed``, for a command that has no
    interval options of its own to share them with.
    """
    p.add_argument(
        "--baseline",
        metavar="TABLE",
        help=f"release gate: an earlier run's {table} table (its --out); exit 1 when a figure "
        "dropped by more than --margin beyond noise (a one-sided paired interval) or items "
        "of the baseline are missing, 3 when too few items pair to decide",
    )
    p.add_argument(
        "--margin",
        type=share_or_zero,
        default=0.0,
        help="the drop allowed, as a share (0.02 = 2 points; default 0)",
    )
    p.add_argument(
        "--allow-missing",
        type=count_type(0),
        default=0,
        metavar="N",
        help="items of the baseline that may be missing from this run (default 0: a lost "
        "item fails the gate)",
    )
    p.add_argument(
        "--gate-figures",
        nargs="+",
        choices=tuple(figures),
        metavar="FIGURE",
        help=f"figures to gate (default all): {', '.join(figures)}",
    )
    p.add_argument(
        "--gate-aggregate",
        choices=("micro", "macro"),
        default="micro",
        help="micro (default) or macro",
    )
    p.add_argument(
        "--gate-level", type=level_type, default=0.95, help="one-sided level (default 0.95)"
    )
    p.add_argument(
        "--junit", metavar="FILE.xml", type=output_path, help="write the gate as a JUnit XML report"
    )
    p.add_argument(
        "--summary", metavar="FILE.md", type=output_path, help="write the gate as a Markdown table"
    )
    if resampled is not None:
        _add_resampling(p, resampled)


def check_gate_options(args: argparse.Namespace) -> None:
    """Refuse a gate option given without ``--baseline`` (bad input, exit 2).

    Raises:
        ClaimlabInputError: naming the options that need ``--baseline``.
    """
    if not args.baseline and any(getattr(args, name, None) for name in GATE_ONLY):
        raise ClaimlabInputError(
            "--margin, --allow-missing, --gate-figures, --junit and --summary gate a run: "
            "give --baseline TABLE"
        )


def gate_options(args: argparse.Namespace) -> dict[str, Any]:
    """The parsed gate options as :func:`claimlab.metrics.gate.gate_file` takes them."""
    return {
        "aggregate": args.gate_aggregate,
        "margin": args.margin,
        "level": args.gate_level,
        "resamples": getattr(args, "bootstrap", 2000),
        "seed": getattr(args, "seed", 0),
        "allow_missing": args.allow_missing,
    }


def write_reports(args: argparse.Namespace, gate: Any, *, changes: Any = None) -> None:
    """Write the gate's JUnit report (``--junit``) and Markdown summary (``--summary``).

    ``changes`` (a :class:`~claimlab.metrics.diff.RunDiff` of the baseline and this run) head
    the summary and follow a failure's text in the report.
    """
    if args.junit:
        gate_junit(gate, args.junit, changes=changes)
    if args.summary:
        gate_summary(gate, args.summary, changes=changes)


def say_gate(
    args: argparse.Namespace, gate: Any, *, items: str = "answers", changes: Any = None
) -> None:
    """Print the gate: what changed, the pairing, every figure's verdict, missing items, verdict."""
    if gate is None:
        return
    if changes is not None:
        from claimlab.notebook.diff import diff_lines

        say("what changed against the baseline:")
        for line in diff_lines(changes):
            say(f"  {line}")
    say(
        f"release gate against {args.baseline}: {gate.shared} {items} in both runs, "
        f"{gate.only_baseline} only in the baseline, {gate.only_now} only in this run"
    )
    for r in gate.rows:
        say(f"  {gate_line(r)}")
    say(f"  {gate.missing_line}")
    if gate.missing_ids:
        more = gate.missing - len(gate.missing_ids)
        say(f"    missing: {', '.join(gate.missing_ids)}{f' and {more} more' if more else ''}")
    say(f"{gate.verdict}: exit {gate.exit_code}" if gate.exit_code else str(gate.verdict))


def _missing_text(gate: Any) -> str:
    """How many answers of the baseline this run lost, and the first of their ids."""
    more = gate.missing - len(gate.missing_ids)
    ids = ", ".join(gate.missing_ids) + (f" and {more} more" if more else "")
    line: str = gate.missing_line
    return line + (f": {ids}" if gate.missing_ids else "")


def gate_junit(gate: Any, path: str | Path, *, changes: Any = None) -> Path:
    """The gate as a JUnit XML report.

    One test case per figure (a failure per regression, skipped when undecided) and one for the
    answers of the baseline, failing when more are missing than ``--allow-missing`` allows. A
    failure's text ends with the top ``changes`` (what moved between the runs), when given.
    """
    import xml.etree.ElementTree as ET

    from claimlab.core.text import terminal
    from claimlab.notebook.diff import diff_text

    moved = "" if changes is None else "\n\nwhat changed:\n" + terminal(diff_text(changes))

    suite = ET.Element("testsuite", name="claimlab release gate", errors="0")
    failures = skipped = 0
    for r in gate.rows:
        case = ET.SubElement(suite, "testcase", classname="claimlab.gate", name=terminal(r.title))
        text = terminal(gate_line(r))  # no control character reaches the XML (ill-formed there)
        if r.verdict == "REGRESSED":
            failures += 1
            ET.SubElement(case, "failure", message=text, type="REGRESSED").text = text + moved
        elif r.verdict == "UNDECIDED":
            skipped += 1
            ET.SubElement(case, "skipped", message=text).text = text
        else:
            ET.SubElement(case, "system-out").text = text
    case = ET.SubElement(suite, "testcase", classname="claimlab.gate", name="answers kept")
    text = terminal(_missing_text(gate))
    if gate.lost_answers:
        failures += 1
        ET.SubElement(case, "failure", message=text, type="MISSING").text = text + moved
    else:
        ET.SubElement(case, "system-out").text = text
    tests = len(gate.rows) + 1
    suite.attrib.update(tests=str(tests), failures=str(failures), skipped=str(skipped))
    out = Path(path)
    with _replacing(out) as tmp:
        root = ET.Element(
            "testsuites", name="claimlab", tests=str(tests), failures=str(failures),
            skipped=str(skipped),
        )  # fmt: skip
        root.append(suite)
        ET.ElementTree(root).write(tmp, encoding="utf-8", xml_declaration=True)
    return out


def _with_counts(value: float | None, counts: str) -> str:
    """A gated figure with what it is of: ``50.0% (3/6)``, ``N/A (0/0)``, ``40.0% (mean of 4)``."""
    return f"{percent(value, '%')} ({counts})" if counts else percent(value, "%")


def gate_line(r: Any) -> str:
    """One figure's verdict in words: before, now, the drop with its bounds, the margin."""
    bounds = (
        "" if r.low is None else f" (one-sided lower bound {points(r.low)}, upper {points(r.high)})"
    )
    why = f"; {r.reason}" if r.reason else ""
    left = f", {r.undefined} N/A on one side" if r.undefined else ""
    return (
        f"{r.title}: {_with_counts(r.baseline, r.baseline_counts)} -> "
        f"{_with_counts(r.now, r.now_counts)}, drop {points(r.difference)} "
        f"points{bounds} on {r.pairs} answers{left}, margin {100 * r.margin:.1f}: {r.verdict}{why}"
    )


def _md_title(r: Any) -> str:
    """A gated figure's name in Markdown: the group named by a file escaped, the rest as is."""
    from claimlab.core.text import md_text, terminal

    of = "" if r.group is None else f" of {md_text(terminal(r.group))}"
    return f"{r.metric}{of} ({r.aggregate})"


def gate_summary(gate: Any, path: str | Path, *, changes: Any = None) -> Path:
    """The gate as a Markdown table for a pull request or a CI job summary (ids escaped).

    The top ``changes`` (what moved between the runs, largest effect first) head it, when given.
    """
    from claimlab.core.text import md_text, terminal
    from claimlab.notebook.diff import diff_markdown

    lines = [*diff_markdown(changes), "", "## The gate", ""] if changes is not None else []
    lines += [
        "| figure | before | now | drop (points) with interval | answers | margin | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in gate.rows:
        interval = "" if r.low is None else f" [{points(r.low)}, {points(r.high)}]"
        verdict = f"**{r.verdict}**" if r.verdict == "REGRESSED" else str(r.verdict)
        if not r.decided:
            verdict += f" (not decided: {md_text(terminal(r.reason))})"
        left = f" ({r.undefined} N/A on one side)" if r.undefined else ""
        lines.append(
            f"| {_md_title(r)} | {_with_counts(r.baseline, r.baseline_counts)} | "
            f"{_with_counts(r.now, r.now_counts)} | "
            f"{points(r.difference)}{interval} | {r.pairs}{left} | {100 * r.margin:.1f} | {verdict} |"
        )
    lines.append("")
    lines.append(
        f"{gate.shared} answers in both runs; {gate.only_baseline} only in the baseline, "
        f"{gate.only_now} only in this run; one-sided {round(100 * gate.level)}% lower bounds."
    )
    missing = md_text(terminal(_missing_text(gate)))
    lines.append("")
    lines.append(f"**{missing}**" if gate.lost_answers else missing)
    lines.append("")
    lines.append(f"Gate: **{gate.verdict}** (exit {gate.exit_code}).")
    out = Path(path)
    with _replacing(out) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
