"""The release gate's arithmetic: the paired drop by hand, the verdicts, the undecided cases."""

import pandas as pd
import pytest

from claimlab.metrics.gate import PASS, REGRESSED, release_gate


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
    worse = table([(a, 2, u) for a, _, u in rows])  # every answer loses a third: drop 33 points
    (row,) = release_gate(
        table(rows), worse, metrics=["coverage"], margin=margin, resamples=200
    ).rows
    assert row.verdict == verdict


def test_too_few_shared_answers_or_an_na_figure_cannot_decide():
    one = release_gate(table([("q1", 3, 3)]), table([("q1", 0, 3)]), metrics=["coverage"])
    (row,) = one.rows
    assert row.verdict == PASS and not row.decided and "too few" in row.reason
    na = release_gate(
        table([("q1", 0, 0), ("q2", 0, 0)]),
        table([("q1", 0, 0), ("q2", 0, 0)]),
        metrics=["coverage"],
    )
    assert not na.rows[0].decided and "N/A" in na.rows[0].reason
    none = release_gate(table([("a", 1, 1)]), table([("b", 1, 1)]), metrics=["coverage"])
    assert none.shared == 0 and none.only_baseline == none.only_now == 1
    assert none.rows[0].reason == "0 shared answers: too few to decide (2 or more are needed)"


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
                **({"reason": row.reason} if row.reason else {}),
            }
        ],
        "shared": 3,
        "only_baseline": 1,
        "only_now": 0,
        "level": 0.9,
        "margin": 0.05,
        "regressed": row.verdict == REGRESSED,
    }
    assert row.difference == pytest.approx(0.25) and row.low <= 0.25 <= row.high
    (undecided,) = release_gate(table([("q1", 3, 3)]), table([("q1", 0, 3)])).rows[:1]
    d = undecided.to_dict()
    assert d["reason"] == "1 shared answer: too few to decide (2 or more are needed)"
    assert (d["decided"], d["verdict"], d["difference"]["low"]) == (False, PASS, None)
