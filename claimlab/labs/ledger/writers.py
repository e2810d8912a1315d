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


def _missing_text(gate: Any) -> str:
    """How many answers of the baseline this run lost, and the first of their ids."""
    more = gate.missing - len(gate.missing_ids)
    ids = ", ".join(gate.missing_ids) + (f" and {more} more" if more else "")
    line: str = gate.missing_line
    return line + (f": {ids}" if gate.missing_ids else "")


def gate_junit(gate: Any, path: str | Path) -> Path:
    """The gate as a JUnit XML report.

    One test case per figure (a failure per regression, skipped when undecided) and one for the
    answers of the baseline, failing when more are missing than ``--allow-missing`` allows.
    """
    import xml.etree.ElementTree as ET

    suite = ET.Element("testsuite", name="claimlab release gate", errors="0")
    failures = skipped = 0
    for r in gate.rows:
        case = ET.SubElement(
            suite, "testcase", classname="claimlab.gate", name=f"{r.metric} ({r.aggregate})"
        )
        text = gate_line(r)
        if r.verdict == "REGRESSED":
            failures += 1
            ET.SubElement(case, "failure", message=text, type="REGRESSED").text = text
        elif r.verdict == "UNDECIDED":
            skipped += 1
            ET.SubElement(case, "skipped", message=text).text = text
        else:
            ET.SubElement(case, "system-out").text = text
    case = ET.SubElement(suite, "testcase", classname="claimlab.gate", name="answers kept")
    text = _missing_text(gate)
    if gate.lost_answers:
        failures += 1
        ET.SubElement(case, "failure", message=text, type="MISSING").text = text
    else:
        ET.SubElement(case, "system-out").text = text
    tests = len(gate.rows) + 1
    suite.attrib.update(tests=str(tests), failures=str(failures), skipped=str(skipped))
    out = Path(path)
    with replacing(out) as tmp:
        root = ET.Element(
            "testsuites", name="claimlab", tests=str(tests), failures=str(failures),
            skipped=str(skipped),
        )  # fmt: skip
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
    left = f", {r.undefined} N/A on one side" if r.undefined else ""
    return (
        f"{r.metric} ({r.aggregate}): {percent(r.baseline, '%')} -> {percent(r.now, '%')}, drop {_points(r.difference)} "
        f"points{bounds} on {r.pairs} answers{left}, margin {100 * r.margin:.1f}: {r.verdict}{why}"
    )


def gate_summary(gate: Any, path: str | Path) -> Path:
    """The gate as a Markdown table for a pull request or a CI job summary (ids escaped)."""
    from claimlab.core.text import md_text

    lines = [
        "| figure | before | now | drop (points) with interval | answers | margin | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in gate.rows:
        interval = "" if r.low is None else f" [{_points(r.low)}, {_points(r.high)}]"
        verdict = f"**{r.verdict}**" if r.verdict == "REGRESSED" else str(r.verdict)
        if not r.decided:
            verdict += f" (not decided: {md_text(r.reason)})"
        left = f" ({r.undefined} N/A on one side)" if r.undefined else ""
        lines.append(
            f"| {r.metric} ({r.aggregate}) | {percent(r.baseline, '%')} | {percent(r.now, '%')} | "
            f"{_points(r.difference)}{interval} | {r.pairs}{left} | {100 * r.margin:.1f} | {verdict} |"
        )
    lines.append("")
    lines.append(
        f"{gate.shared} answers in both runs; {gate.only_baseline} only in the baseline, "
        f"{gate.only_now} only in this run; one-sided {round(100 * gate.level)}% lower bounds."
    )
    missing = md_text(_missing_text(gate))
    lines.append("")
    lines.append(f"**{missing}**" if gate.lost_answers else missing)
    lines.append("")
    lines.append(f"Gate: **{gate.verdict}** (exit {gate.exit_code}).")
    out = Path(path)
    with replacing(out) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
