"""The diff's reports: every text from a file escaped where it is shown; counts and effects."""

from claimlab.metrics.diff import Unit, diff_runs
from claimlab.notebook.diff import diff_lines, diff_markdown, diff_text, example_line, heading

HOSTILE = "\x1b[31m<script>alert(1)</script> | *bold* $x$"


def hostile_diff():
    def unit(ok):
        return Unit(HOSTILE, "claim", "k", HOSTILE, {"entailed": ok}, {"recall": (int(ok), 1)})

    return diff_runs([unit(True)], [unit(False)], figure="recall")


def test_the_markdown_escapes_the_files_text_and_keeps_the_counts():
    text = "\n".join(diff_markdown(hostile_diff()))
    assert "<script>" not in text and "\x1b" not in text and "| *bold*" not in text
    assert "| 1 | claim: entailed: yes \\-&gt; no | 1 | +100.0 |" in text


def test_the_terminal_and_junit_text_show_control_characters_as_escapes():
    d = hostile_diff()
    for text in ("\n".join(diff_lines(d)), diff_text(d)):
        assert "\x1b" not in text and "\\x1b[31m" in text
    assert "1 change in 1 group" in heading(d)
    assert example_line(d.groups[0].changes[0]).endswith("entailed yes -> no")


def test_more_groups_than_shown_are_counted():
    units_a = [Unit("q", "claim", str(i), "t", {"n": i}, {}) for i in range(8)]
    units_b = [Unit("q", f"kind {i}", str(i), "t", {"n": i}, {}) for i in range(8)]
    d = diff_runs(units_a, units_b)
    assert d.changed == 16 and len(d.groups) == 9  # 8 only in run A (one group), 8 kinds in B
    assert diff_lines(d, top=5)[-1] == "  ... and 4 more groups (--top)"
    assert diff_markdown(d, top=5)[-1] == "... and 4 more groups."
