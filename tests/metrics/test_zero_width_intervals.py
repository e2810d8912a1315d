"""Never a zero-width interval presented as a 95 % one (SPEC section 7), in comparisons and gates.

When every resample gives the same value, the interval is null and the reason says so (the
shared :func:`claimlab.metrics.stats.intervals.no_spread`). A gated figure whose every resample
gives the same drop is decided by that drop: REGRESSED above the margin, else PASS (an identical
release passes; a release whose every answer lost the same share fails).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.metrics.gate import PASS, REGRESSED, release_gate
from claimlab.metrics.stats.comparisons import paired_comparison, unpaired_difference
from claimlab.metrics.uncertainty import ledger_comparisons
from tests.labs.ledger.test_empty_selections import ledger, write_folders
from tests.metrics.test_ledger_invariants import counts, per_answer

QUICK = {"resamples": 200, "seed": 0}
NO_SPREAD = "the shared answers do not vary, so the bootstrap shows no spread"


def check_no_zero_width(low: float | None, high: float | None, reason: str) -> None:
    """An interval is shown with width, or not at all and with the reason why."""
    assert (low is None) == (high is None)
    if low is None:
        assert reason
    else:
        assert low < high, f"a zero-width interval [{low}, {high}] shown as an interval"


def arrays(pairs: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    return np.array([n for n, _ in pairs], float), np.array([d for _, d in pairs], float)


@pytest.mark.parametrize(
    ("a", "b", "value", "shown"),
    [
        # the tester's case (f2/v1): A covers 2 of 2 units of both answers, B 1 of 2
        ([(2, 2), (2, 2)], [(1, 2), (1, 2)], 0.5, "+50.0 points"),
        # the same answers on both sides: every resample gives +0.0
        ([(1, 3), (2, 3), (0, 3)], [(1, 3), (2, 3), (0, 3)], 0.0, "+0.0 points"),
        # every answer 1 point worse on a side of 100 units each: every resample gives -1.0
        ([(50, 100)] * 4, [(51, 100)] * 4, -0.01, "-1.0 points"),
    ],
    ids=["plus-50-everywhere", "identical", "minus-1-everywhere"],
)
def test_every_resample_the_same_gives_no_interval_and_says_why(a, b, value, shown):
    for aggregate in ("micro", "macro"):
        c = paired_comparison(arrays(a), arrays(b), aggregate=aggregate, permutations=200, **QUICK)
        d = c.difference
        assert d.value == pytest.approx(value)
        assert (d.low, d.high) == (None, None)
        assert c.reason.startswith(f"every resample gives {shown}: {NO_SPREAD}")
        assert "[" not in c.display and shown in c.display
        un = unpaired_difference(arrays(a), arrays(b), aggregate=aggregate, **QUICK)
        assert un.low is None or un.low < un.high  # resampled apart, the sides may vary


@pytest.mark.parametrize(
    ("now", "verdict", "decided"),
    [
        ([(1, 2, 1, 1)] * 4, PASS, True),  # identical: no drop on any resample
        ([(2, 2, 1, 1)] * 4, PASS, True),  # one more unit covered everywhere: no drop
        ([(0, 2, 1, 1)] * 4, REGRESSED, True),  # one less everywhere: 50 points on every resample
    ],
    ids=["identical", "better-everywhere", "worse-everywhere"],
)
def test_a_gated_figure_without_an_interval(now, verdict, decided):
    base = per_answer([(1, 2, 1, 1)] * 4)
    row = next(
        r for r in release_gate(base, per_answer(now), **QUICK).rows if r.metric == "coverage"
    )
    assert (row.low, row.high) == (None, None)
    assert (row.verdict, row.decided) == (verdict, decided)
    assert NO_SPREAD in row.reason


def test_the_command_prints_no_zero_width_interval(tmp_path, capsys):
    write_folders(tmp_path, {"A": {"q1": {1, 2}, "q2": {1, 2}}, "B": {"q1": {1}, "q2": {1}}})
    code, text, err = ledger(
        capsys, "--from-decompositions", f"A={tmp_path / 'A'}", f"B={tmp_path / 'B'}",
        "--compare", "A", "B", "--ci", "0.95", "--bootstrap", "200", "--permutations", "200",
    )  # fmt: skip
    assert code == 0, err
    line = next(x for x in text.splitlines() if "A - B  coverage" in x and "micro" in x)
    assert line.strip().startswith("A - B  coverage           micro  +50.0 points (2 shared")
    assert "[+50.0, +50.0]" not in line and "every resample gives +50.0 points" in line


def two_sides(a_rows: list[Any], b_rows: list[Any]) -> pd.DataFrame:
    return pd.concat(
        [per_answer(a_rows).assign(model="A"), per_answer(b_rows).assign(model="B")],
        ignore_index=True,
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(counts(), min_size=2, max_size=12), st.data())
def test_no_interval_anywhere_has_zero_width(rows, data):
    """Property: every interval a comparison or a gate gives has low < high, else a reason."""
    other = data.draw(st.lists(counts(), min_size=len(rows), max_size=len(rows)))
    for c in ledger_comparisons(two_sides(rows, other), [("A", "B")], permutations=100, **QUICK):
        check_no_zero_width(c.difference.low, c.difference.high, c.reason)
    base = per_answer(rows)
    for now in (per_answer(other), base):
        for r in release_gate(base, now, **QUICK).rows:
            check_no_zero_width(r.low, r.high, r.reason)
    # an identical release: no figure REGRESSED, and every figure paired on 2 answers passes
    for r in release_gate(base, base, **QUICK).rows:
        assert r.verdict != REGRESSED
        assert r.verdict == PASS or r.pairs < 2
