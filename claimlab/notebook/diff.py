"""The diff's reports: what changed between two runs, in the terminal, Markdown and JUnit.

``claimlab diff``, the gates of ``rag`` and ``ledger`` and notebook 12 show a
:class:`~claimlab.metrics.diff.RunDiff` here: in the terminal (:func:`diff_lines`, control
characters made visible), in Markdown (:func:`diff_markdown`, every text escaped) or as plain
text for a JUnit report (:func:`diff_text`).
"""

from __future__ import annotations

from typing import Any

from claimlab.core.ratio import points
from claimlab.core.text import label_text, md_text, plural, terminal
from claimlab.metrics.diff import RunDiff

TOP = 5  # groups shown in a gate's reports and by default in the terminal
EXAMPLES = 3  # changes shown under each group


def _label_move(c: Any) -> str:
    if c.before is None or c.after is None:
        return "only in run A" if c.after is None else "only in run B"
    names = [n for n in c.after if c.before.get(n) != c.after.get(n)]
    return "; ".join(
        f"{n} {label_text(c.before.get(n))} -> {label_text(c.after.get(n))}" for n in names
    )


def example_line(c: Any) -> str:
    """One change in a line (unescaped: escape it where it is shown)."""
    said = "" if c.text in ("", c.item) else f"{_short(c.text)}: "  # an answer is its id
    return f"{c.item}: {said}{_label_move(c)}"


def heading(diff: RunDiff) -> str:
    """The diff in one line: how many changes and groups, the figure before and after."""
    return (
        f"{plural(diff.changed, 'change')} in {plural(len(diff.groups), 'group')} "
        f"({diff.matched} units in both runs, {diff.units[0]} in run A, {diff.units[1]} in run B); "
        f"weighed on {diff.figure} ({diff.before.display} -> {diff.after.display}, drop "
        f"{points(diff.drop)} points)"
    )


def diff_lines(diff: RunDiff, *, top: int | None = TOP, examples: int = EXAMPLES) -> list[str]:
    """The diff for the terminal: the heading, then each group with its count and effect."""
    lines = [terminal(heading(diff))]
    for g in diff.groups[:top]:
        lines.append(
            f"  {g.count:>5}  {terminal(g.name)}  ({plural(g.items, 'item')}; effect "
            f"{points(g.effect)} points)"
        )
        for c in g.changes[:examples]:
            lines.append(f"         {terminal(example_line(c))}")
        if g.count > examples:
            lines.append(f"         ... and {g.count - examples} more")
    if top is not None and len(diff.groups) > top:
        lines.append(f"  ... and {plural(len(diff.groups) - top, 'more group')} (--top)")
    return lines


def diff_markdown(diff: RunDiff, *, top: int = TOP, examples: int = EXAMPLES) -> list[str]:
    """The diff as Markdown: a table of the groups, their counts and effects, and examples."""
    lines = [
        "## What changed",
        "",
        md_text(terminal(heading(diff))),
        "",
        "| changes | what moved | items | effect (points) | for example |",
        "|---|---|---|---|---|",
    ]
    for g in diff.groups[:top]:
        shown = "<br>".join(md_text(terminal(example_line(c))) for c in g.changes[:examples])
        more = f" (and {g.count - examples} more)" if g.count > examples else ""
        lines.append(f"| {g.count} | {md_text(terminal(g.name))} | {g.items} | {points(g.effect)} | "
                     f"{shown}{more} |")  # fmt: skip
    if len(diff.groups) > top:
        lines.append("")
        lines.append(f"... and {plural(len(diff.groups) - top, 'more group')}.")
    return lines


def diff_text(diff: RunDiff, *, top: int = TOP) -> str:
    """The top groups as plain text (a JUnit failure's body; no markup, no control characters)."""
    return "\n".join(diff_lines(diff, top=top, examples=1))


def _short(text: str, width: int = 80) -> str:
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 3] + "..."
