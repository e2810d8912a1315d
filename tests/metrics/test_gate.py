"""The release gate's arithmetic: the paired drop by hand, the verdicts, the undecided cases."""

import pandas as pd
import pytest

from claimlab.metrics.gate import FAIL, PASS, REGRESSED, UNDECIDED, release_gate


def table(rows):
    """Per-answer counts: (answer, covered, units) with the other figures' counts filled in."""
    return pd.DataFrame(
        [
            {"answer_id": a, "covered": c, "units": u, "faithful": u, "unique": u,
             "supported_unique": u, "supported_raw": u, "raw": u}
            for a, c, u in rows
        ]
    )  # fmt: skip


def test_the_drop_equals_a_hand_computation_and_pairs_only_shared_answers():
    base = table([("q1", 3, 3), ("q2", 2, 4), ("q3", 1, 1), ("gone", 5, 5)])
    now = table([("q1", 2, 3), ("q2", 2, 4), ("q3", 0, 1), ("new", 0, 9)])
    gate = release_gate(base, now, metrics=["coverage"], resamples=500, seed=1)
    (row,) = gate.rows
    # shared q1..q3: before (3+2+1)/(3+4+1) = 6/8, now (2+2+0)/8 = 4/8; drop 2/8
    assert (row.baseline, row.now, row.difference) == (0.75, 0.5, pytest.approx(0.25))
    assert (gate.shared, gate.only_baseline, gate.only_now) == (3, 1, 1)
    assert row.low is not None and row.low <= row.difference <= row.high


def test_macro_averages_the_answers():
    base = table([("q1", 1, 2), ("q2", 2, 2)])
    now = table([("q1", 0, 2), ("q2", 2, 2)])
    (row,) = release_gate(base, now, metrics=["coverage"], aggregate="macro", resamples=200).rows
    assert (row.baseline, row.now) == (0.75, 0.5)


def test_identical_runs_pass_and_a_large_drop_regresses():
    rows = [(f"q{i}", 3, 3) for i in range(200)]
    same = release_gate(table(rows), table(rows), resamples=300)
    assert all(r.verdict == PASS and r.decided and r.difference == 0 for r in same.rows)
    dropped = table([(a, 1 if i % 2 else c, u) for i, (a, c, u) in enumerate(rows)])
    (row,) = release_gate(table(rows), dropped, metrics=["coverage"], resamples=300).rows
    assert row.verdict == REGRESSED and row.low > 0


@pytest.mark.parametrize(
    ("margin", "verdict"), [(0.0, REGRESSED), (0.5, PASS)], ids=["no-margin", "wide-margin"]
)
def test_the_margin_is_compared_with_the_lower_bound(margin, verdict):
    rows = [(f"q{i}", 3, 3) for i in range(100)]
    # every other answer loses a third: drop 16.7 points (a drop the same on every answer has
    # no spread, so no interval: see tests/metrics/test_zero_width_intervals.py)
    worse = table([(a, 2 if i % 2 else 3, u) for i, (a, _, u) in enumerate(rows)])
    (row,) = release_gate(
        table(rows), worse, metrics=["coverage"], margin=margin, resamples=200
    ).rows
    assert row.verdict == verdict


def test_too_few_shared_answers_or_an_na_figure_cannot_decide():
    one = release_gate(table([("q1", 3, 3)]), table([("q1", 0, 3)]), metrics=["coverage"])
    (row,) = one.rows
    assert row.verdict == UNDECIDED and not row.decided and "too few" in row.reason
    assert one.verdict == UNDECIDED and one.exit_code == 3
    na = release_gate(
        table([("q1", 0, 0), ("q2", 0, 0)]),
        table([("q1", 0, 0), ("q2", 0, 0)]),
        metrics=["coverage"],
    )
    assert not na.rows[0].decided and "2 N/A (0/0)" in na.rows[0].reason
    none = release_gate(table([("a", 1, 1)]), table([("b", 1, 1)]), metrics=["coverage"])
    assert none.shared == 0 and none.only_baseline == none.only_now == 1
    assert none.rows[0].reason == "0 paired answers: too few to decide (2 or more are needed)"
    assert none.verdict == FAIL  # and "a" was lost


def test_the_json_contract_of_a_gate_and_its_rows():
    """``claimlab gate --json`` (SPEC section 7): every key, a decided row and an undecided one."""
    base = table([("q1", 3, 3), ("q2", 2, 4), ("q3", 1, 1), ("gone", 5, 5)])
    now = table([("q1", 2, 3), ("q2", 2, 4), ("q3", 0, 1)])
    gate = release_gate(base, now, metrics=["coverage"], margin=0.05, level=0.9, resamples=300)
    (row,) = gate.rows
    assert gate.to_dict() == {
        "gate": [
            {
                "metric": "coverage",
                "aggregate": "micro",
                "baseline": 0.75,
                "now": 0.5,
                "difference": {"value": row.difference, "low": row.low, "high": row.high},
                "margin": 0.05,
                "verdict": row.verdict,
                "decided": True,
                "pairs": 3,
                "undefined": 0,
                "baseline_counts": "6/8",
                "now_counts": "4/8",
                **({"reason": row.reason} if row.reason else {}),
            }
        ],
        "shared": 3,
        "only_baseline": 1,
        "only_now": 0,
        "missing": 1,
        "missing_files": 0,  # answers both tables hold whose file only the baseline read
        "missing_ids": ["gone"],
        "allow_missing": 0,
        "level": 0.9,
        "margin": 0.05,
        "regressed": row.verdict == REGRESSED,
        "verdict": "FAIL",  # "gone" was lost
        "exit_code": 1,
    }
    assert row.difference == pytest.approx(0.25) and row.low <= 0.25 <= row.high
    (undecided,) = release_gate(table([("q1", 3, 3)]), table([("q1", 0, 3)])).rows[:1]
    d = undecided.to_dict()
    assert d["reason"] == "1 paired answer: too few to decide (2 or more are needed)"
    assert (d["decided"], d["verdict"], d["difference"]["low"]) == (False, UNDECIDED, None)


@pytest.mark.parametrize(
    ("aggregate", "base", "now", "want"),
    [
        # one unit in all: the figure is defined (1/1), and so is its drop
        ("micro", [("q1", 1, 1), ("q2", 0, 0)], [("q1", 0, 1), ("q2", 0, 0)], (1.0, 0.0)),
        # macro leaves an answer with no unit out (q2), and keeps an answer of one unit (q1)
        ("macro", [("q1", 1, 1), ("q2", 0, 0), ("q3", 1, 2)], [("q1", 1, 1), ("q2", 0, 0),
         ("q3", 0, 2)], (0.75, 0.5)),
    ],
    ids=["micro-one-unit", "macro-leaves-0-of-0-out"],
)  # fmt: skip
def test_small_denominators_count_and_zero_ones_are_left_out(aggregate, base, now, want):
    (row,) = release_gate(
        table(base), table(now), metrics=["coverage"], aggregate=aggregate, resamples=200
    ).rows
    assert (row.baseline, row.now) == want and row.metric == "coverage"
    assert row.aggregate == aggregate and row.difference == pytest.approx(want[0] - want[1])


def test_two_shared_answers_decide_and_an_undecided_row_keeps_its_figures():
    two = release_gate(table([("q1", 3, 3), ("q2", 1, 3)]), table([("q1", 3, 3), ("q2", 3, 3)]),
                       metrics=["coverage"], resamples=200)  # fmt: skip
    (row,) = two.rows
    assert row.decided and row.low is not None and row.difference == pytest.approx(-1 / 3)
    na = release_gate(table([("q1", 1, 2), ("q2", 1, 2)]), table([("q1", 0, 0), ("q2", 0, 0)]),
                      metrics=["coverage"], margin=0.1)  # fmt: skip
    (row,) = na.rows
    assert row.to_dict() == {
        "metric": "coverage", "aggregate": "micro", "baseline": None, "now": None,
        "difference": {"value": None, "low": None, "high": None}, "margin": 0.1,
        "verdict": UNDECIDED, "decided": False, "pairs": 0, "undefined": 2,
        "baseline_counts": "0/0", "now_counts": "0/0",
        "reason": "0 paired answers: too few to decide (2 or more are needed); 2 N/A (0/0) in one of the runs",
    }  # fmt: skip
    one = release_gate(table([("q1", 1, 2)]), table([("q1", 1, 4)]), metrics=["coverage"])
    (row,) = one.rows  # too few to decide: the figures and the drop are still shown
    assert (row.baseline, row.now, row.difference, row.decided) == (0.5, 0.25, 0.25, False)
    assert (row.baseline_counts, row.now_counts) == ("1/2", "1/4")  # a ratio shows its counts
    macro = release_gate(table([("q1", 1, 2), ("q2", 0, 0)]), table([("q1", 1, 4), ("q2", 1, 2)]),
                         metrics=["coverage"], aggregate="macro")  # fmt: skip
    assert (macro.rows[0].baseline_counts, macro.rows[0].now_counts) == ("mean of 1", "mean of 1")


def test_the_bound_is_the_paired_bootstraps_at_two_level_minus_one_with_the_same_seed():
    """The one-sided bound at 0.95 is the lower end of the two-sided 90% interval of
    paired_comparison (same resamples, same seed, micro), computed here directly."""
    import numpy as np

    from claimlab.metrics.stats.comparisons import paired_comparison

    rng = np.random.default_rng(4)
    units = rng.integers(1, 6, size=60)
    covered_b = np.minimum(units, rng.integers(0, 6, size=60))
    covered_n = np.minimum(units, rng.integers(0, 6, size=60))
    base = table(
        [(f"q{i}", int(c), int(u)) for i, (c, u) in enumerate(zip(covered_b, units, strict=True))]
    )
    now = table(
        [(f"q{i}", int(c), int(u)) for i, (c, u) in enumerate(zip(covered_n, units, strict=True))]
    )
    (row,) = release_gate(base, now, metrics=["coverage"], level=0.95, resamples=400, seed=9).rows
    c = paired_comparison(
        (covered_b.astype(float), units.astype(float)), (covered_n.astype(float), units.astype(float)),
        aggregate="micro", level=2 * 0.95 - 1, resamples=400, permutations=100, seed=9, metric="coverage",
    )  # fmt: skip
    assert (row.difference, row.low, row.high) == (
        c.difference.value,
        c.difference.low,
        c.difference.high,
    )
    default = release_gate(base, now, metrics=["coverage"]).rows[0]
    again = paired_comparison(
        (covered_b.astype(float), units.astype(float)), (covered_n.astype(float), units.astype(float)),
        aggregate="micro", level=2 * 0.95 - 1, resamples=2000, permutations=100, seed=0, metric="coverage",
    )  # fmt: skip
    assert default.low == again.difference.low  # the defaults: 2000 resamples, seed 0


def test_a_repeated_answer_counts_once_and_answers_pair_in_the_baselines_order():
    base = table([("q2", 1, 2), ("q1", 2, 2), ("q2", 0, 2), ("q3", 2, 2)])
    now = table([("q3", 0, 2), ("q1", 2, 2), ("q2", 1, 2)])
    gate = release_gate(base, now, metrics=["coverage"], resamples=200)
    (row,) = gate.rows
    assert (gate.shared, gate.only_baseline, gate.only_now) == (3, 0, 0)
    assert (row.baseline, row.now) == (5 / 6, 3 / 6)  # q2's first row (1 of 2) is kept


@pytest.mark.parametrize(
    ("margin", "verdict"), [(0.3, PASS), (0.29, REGRESSED)], ids=["on-the-margin", "above-it"]
)
def test_a_drop_on_the_margin_is_not_above_it_whatever_the_rounding(margin, verdict):
    """3 units of 10 lost everywhere: the drop is 0.30000000000000004 in floating point."""
    base = table([(f"q{i}", 10, 10) for i in range(5)])
    now = table([(f"q{i}", 7, 10) for i in range(5)])
    for aggregate in ("micro", "macro"):
        (row,) = release_gate(
            base, now, metrics=["coverage"], margin=margin, aggregate=aggregate, resamples=200
        ).rows
        assert row.verdict == verdict, row.reason
