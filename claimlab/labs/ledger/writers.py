"""Tables written to CSV, JSONL or Parquet, through the one atomic write."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claimlab.core.ratio import percent
from claimlab.io.files import replacing
from claimlab.io.ledger import table_kind
from claimlab.metrics.ledger import LedgerResult, per_answer_ratios


def write_answers(
    result: LedgerResult,
    path: str | Path,
    *,
    extra: Mapping[str, Mapping[str, Any]] | None = None,
) -> Path:
    """Write the per-answer rows (counts, values, displays) to CSV, JSONL or Parquet atomically.

    The group column is named after the ``--by`` column it came from, and left out without one.
    ``extra`` adds columns: name -> {answer id: value}.
    """
    out = Path(path)
    kind = table_kind(out)
    table = per_answer_ratios(result.counts.table)
    for name, values in (extra or {}).items():
        table[name] = table["answer_id"].astype(str).map(dict(values))
    if result.by is None:
        table = table.drop(columns="model")
    elif result.by != "model":
        table = table.rename(columns={"model": result.by})
    with replacing(out) as tmp:
        if kind == "csv":
            table.to_csv(tmp, index=False)
        elif kind == "jsonl":
            table.to_json(tmp, orient="records", lines=True, force_ascii=False)
        else:
            table.to_parquet(tmp, index=False)
    return out


def _points(value: float | None) -> str:
    return "N/A" if value is None else f"{100 * value:+.1f}"


def gate_junit(gate: Any, path: str | Path) -> Path:
    """The gate as a JUnit XML report: one test case per figure, a failure per regression."""
    import xml.etree.ElementTree as ET

    failures = sum(r.verdict == "REGRESSED" for r in gate.rows)
    suite = ET.Element(
        "testsuite",
        name="claimlab release gate",
        tests=str(len(gate.rows)),
        failures=str(failures),
        errors="0",
        skipped="0",
    )
    for r in gate.rows:
        case = ET.SubElement(
            suite, "testcase", classname="claimlab.gate", name=f"{r.metric} ({r.aggregate})"
        )
        text = gate_line(r)
        if r.verdict == "REGRESSED":
            ET.SubElement(case, "failure", message=text, type="REGRESSED").text = text
        else:
            ET.SubElement(case, "system-out").text = text
    out = Path(path)
    with replacing(out) as tmp:
        root = ET.Element(
            "testsuites", name="claimlab", tests=str(len(gate.rows)), failures=str(failures)
        )
        root.append(suite)
        ET.ElementTree(root).write(tmp, encoding="utf-8", xml_declaration=True)
    return out


def gate_line(r: Any) -> str:
    """One figure's verdict in words: before, now, the drop with its bounds, the margin."""
    bounds = (
        ""
        if r.low is None
        else f" (one-sided lower bound {_points(r.low)}, upper {_points(r.high)})"
    )
    why = f"; {r.reason}" if r.reason else ""
    return (
        f"{r.metric} ({r.aggregate}): {percent(r.baseline, '%')} -> {percent(r.now, '%')}, drop {_points(r.difference)} "
        f"points{bounds}, margin {100 * r.margin:.1f}: {r.verdict}{why}"
    )


def gate_summary(gate: Any, path: str | Path) -> Path:
    """The gate as a Markdown table for a pull request or a CI job summary."""
    lines = [
        "| figure | before | now | drop (points) with interval | margin | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for r in gate.rows:
        interval = "" if r.low is None else f" [{_points(r.low)}, {_points(r.high)}]"
        verdict = f"**{r.verdict}**" if r.verdict == "REGRESSED" else r.verdict
        if not r.decided:
            verdict += f" (not decided: {r.reason})"
        lines.append(
            f"| {r.metric} ({r.aggregate}) | {percent(r.baseline, '%')} | {percent(r.now, '%')} | "
            f"{_points(r.difference)}{interval} | {100 * r.margin:.1f} | {verdict} |"
        )
    lines.append("")
    lines.append(
        f"{gate.shared} answers paired; {gate.only_baseline} only in the baseline, "
        f"{gate.only_now} only in this run; one-sided {round(100 * gate.level)}% lower bounds."
    )
    out = Path(path)
    with replacing(out) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
