"""What an answer contributes, held as invariants over generated ledgers (issue 40, item 7).

The checkers (``check_*``) are plain functions so that every command that pairs, compares or
gates per-answer records can run them on its own results:

* :func:`check_paired_difference`: a paired difference equals the difference of the per-group
  figures (the ledger's own :func:`corpus_figures`) over the pairs it reports, and the pairing
  leaves out only answers one side does not hold or whose figure is N/A (0/0) on one side;
* :func:`check_empty_answer_added`: an answer a decomposer produced nothing for never raises
  its coverage and is never left out of a comparison where its figure is defined;
* :func:`check_gate_keeps_answers`: a release that lost answers of its baseline never passes
  the gate unless ``allow_missing`` covers them.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.metrics.gate import FAIL, PASS, REGRESSED, release_gate
from claimlab.metrics.ledger import RATIO_DEFS, corpus_figures, group_records, score_tables
from claimlab.metrics.stats.comparisons import pair_items, side_first
from claimlab.metrics.stats.resampling import ratio_parts
from claimlab.metrics.uncertainty import ledger_comparisons
from tests.metrics.decomposition_invariants import FINGERPRINTS, respelled_fingerprint

QUICK = {"resamples": 100, "permutations": 100, "seed": 0}
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------------ checkers


def check_paired_difference(comparison: Any, table: Any, groups: Any = None) -> None:
    """The comparison's difference is A's figure minus B's over exactly the pairs it reports.

    ``table`` is the per-answer table the comparison came from (``groups``: its records per
    group, when already made); the figures over the pairs are computed by the per-group
    figure's own function on the paired records.
    """
    groups = group_records(table) if groups is None else groups
    a, b = groups[comparison.a], groups[comparison.b]
    _, den = RATIO_DEFS[comparison.metric]
    both = a.index.intersection(b.index)
    # the rule, stated apart from the code: every answer both hold with the figure defined on
    # both sides is paired, and nothing else
    defined = (a.loc[both, den].to_numpy() > 0) & (b.loc[both, den].to_numpy() > 0)
    ids = list(both[defined])
    assert comparison.shared == len(ids)
    assert comparison.shared + comparison.undefined == len(both)
    assert (comparison.only_a, comparison.only_b) == (len(a) - len(both), len(b) - len(both))
    if comparison.difference.value is None:
        return
    fa = corpus_figures(a.loc[ids].reset_index(), group=comparison.a)
    fb = corpus_figures(b.loc[ids].reset_index(), group=comparison.b)
    side = "micro" if comparison.aggregate == "micro" else "macro"
    va = getattr(fa, side)[comparison.metric].value
    vb = getattr(fb, side)[comparison.metric].value
    assert va is not None and vb is not None
    assert comparison.difference.value == pytest.approx(va - vb, abs=1e-12)


def check_comparisons(comparisons: Any, table: Any) -> None:
    """:func:`check_paired_difference` of every comparison of one per-answer table."""
    groups = group_records(table)
    for c in comparisons:
        check_paired_difference(c, table, groups)


def check_empty_answer_added(before: Any, after: Any, group: str, other: str) -> None:
    """``after`` is ``before`` plus one answer ``group`` produced nothing for (``other`` did).

    ``before`` and ``after`` are ledger results; the comparisons of ``group`` against
    ``other`` are recomputed on both.
    """
    cov_before = before.groups[group].micro["coverage"]
    cov_after = after.groups[group].micro["coverage"]
    assert cov_after.denominator > cov_before.denominator  # the answer is scored
    assert cov_after.numerator == cov_before.numerator  # and covers nothing
    if cov_before.value is not None:
        assert cov_after.value is not None and cov_after.value <= cov_before.value
    old = {(c.metric, c.aggregate): c for c in _compare(before, group, other)}
    now = _compare(after, group, other)
    for c in now:
        was = old[(c.metric, c.aggregate)]
        if c.metric == "coverage":  # defined on both sides: the answer is paired
            assert c.shared == was.shared + 1 and c.undefined == was.undefined
        else:  # N/A (0/0) on the empty side: left out, and counted
            assert c.shared == was.shared and c.undefined == was.undefined + 1
        assert (c.only_a, c.only_b) == (was.only_a, was.only_b)
    check_comparisons(now, after.counts.table)


def check_gate_keeps_answers(gate: Any, removed: int, allow_missing: int) -> None:
    """A gate over a release that lost ``removed`` answers of its baseline."""
    assert gate.missing == removed
    if removed > allow_missing:
        assert gate.verdict == FAIL and gate.exit_code == 1
    if gate.verdict == PASS:
        assert removed <= allow_missing


def _compare(result: Any, a: str, b: str) -> list[Any]:
    return ledger_comparisons(result.counts.table, [(a, b)], **QUICK)


# ------------------------------------------------------------------------------ generators

STATUSES = ("SUPPORTED", "CONTRADICTED", "NOT_IN_REFERENCE")


@st.composite
def answers(draw: Any, n_min: int = 1, n_max: int = 6) -> list[dict[str, Any]]:
    """Answers with 1-4 units and, per decomposer A and B, 0-4 candidates each."""
    out = []
    for i in range(draw(st.integers(n_min, n_max))):
        units = [f"U{k}" for k in range(draw(st.integers(1, 4)))]
        sides = {}
        for model in ("A", "B"):
            cands = []
            for k in range(draw(st.integers(0, 4))):
                cands.append(
                    {
                        "candidate_id": f"C{k}",
                        "fingerprint": f"f{draw(st.integers(0, 3))}",
                        "preserves": draw(st.lists(st.sampled_from(units), max_size=2)),
                        "faithful": draw(st.booleans()),
                        "atomic": draw(st.booleans()),
                        "status": draw(st.sampled_from(STATUSES)),
                    }
                )
            sides[model] = cands
        out.append({"answer_id": f"q{i}", "units": units, "sides": sides})
    return out


def tables(answer_list: list[dict[str, Any]]) -> tuple[pa.Table, pa.Table]:
    """The ledger's two tables (candidates with a ``model`` column, units) of generated answers."""
    cand: dict[str, list[Any]] = {
        k: []
        for k in ("answer_id", "candidate_id", "fingerprint", "preserves", "faithful",
                  "atomic", "status", "model")
    }  # fmt: skip
    units: dict[str, list[Any]] = {"answer_id": [], "unit_id": []}
    for ans in answer_list:
        for u in ans["units"]:
            units["answer_id"].append(ans["answer_id"])
            units["unit_id"].append(u)
        for model, cands in ans["sides"].items():
            for c in cands:
                for k, v in {**c, "answer_id": ans["answer_id"], "model": model}.items():
                    cand[k].append(v)
    schema = pa.schema(
        [("answer_id", pa.string()), ("candidate_id", pa.string()),
         ("fingerprint", pa.string()), ("preserves", pa.list_(pa.string())),
         ("faithful", pa.bool_()), ("atomic", pa.bool_()), ("status", pa.string()),
         ("model", pa.string())]
    )  # fmt: skip
    return pa.table(cand, schema=schema), pa.table(units)


def score(answer_list: list[dict[str, Any]]) -> Any:
    return score_tables(*tables(answer_list), by="model")


def both_decomposers(answer_list: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answers, with one candidate added where a decomposer produced nothing at all."""
    for model in ("A", "B"):
        if not any(a["sides"][model] for a in answer_list):
            answer_list[0]["sides"][model] = [ONE_CANDIDATE]
    return answer_list


ONE_CANDIDATE = {"candidate_id": "C0", "fingerprint": "f", "preserves": ["U0"],
                 "faithful": True, "atomic": True, "status": "SUPPORTED"}  # fmt: skip


# ------------------------------------------------------------------------------ properties


@SETTINGS
@given(answers(n_min=2))
def test_the_paired_difference_is_the_difference_of_the_figures_over_its_pairs(answer_list):
    result = score(both_decomposers(answer_list))
    check_comparisons(_compare(result, "A", "B"), result.counts.table)


@SETTINGS
@given(answers(), st.integers(1, 4), st.data())
def test_an_answer_with_an_empty_selection_never_raises_coverage_nor_leaves_a_pairing(
    answer_list, n_units, data
):
    answer_list = both_decomposers(answer_list)
    units = [f"U{k}" for k in range(n_units)]
    given_a = [
        {**c, "preserves": [u for u in c["preserves"] if u in units]}
        for c in data.draw(answers(1, 1))[0]["sides"]["A"]
    ] or [ONE_CANDIDATE]  # A's side of the new answer is defined for every figure
    new = {"answer_id": "new", "units": units, "sides": {"A": given_a, "B": []}}
    check_empty_answer_added(score(answer_list), score([*answer_list, new]), "B", "A")


def per_answer(rows: list[tuple[int, int, int, int]]) -> pd.DataFrame:
    """A per-answer table: (covered, units, faithful, unique) per answer, the rest filled in."""
    return pd.DataFrame(
        [
            {"answer_id": f"q{i}", "covered": c, "units": u, "faithful": f, "unique": n,
             "supported_unique": f, "contradicted_unique": n - f, "not_in_reference_unique": 0,
             "supported_raw": f, "raw": n, "duplicates": 0, "non_atomic": 0,
             "missing_units": u - c}
            for i, (c, u, f, n) in enumerate(rows)
        ]
    )  # fmt: skip


@st.composite
def counts(draw: Any) -> tuple[int, int, int, int]:
    units, unique = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    return (draw(st.integers(0, units)), units, draw(st.integers(0, unique)), unique)


@SETTINGS
@given(
    st.lists(counts(), min_size=1, max_size=30),
    st.data(),
    st.integers(0, 3),
)
def test_removing_answers_from_a_release_never_lets_the_gate_pass(rows, data, allow):
    base = per_answer(rows)
    # the release may even improve every answer it keeps: it still lost the others
    better = [(u, u, n, n) for _, u, _, n in rows]
    keep = data.draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows)))
    now = per_answer(better)[keep]
    removed = len(rows) - int(sum(keep))
    gate = release_gate(base, now, resamples=100, seed=0, allow_missing=allow)
    check_gate_keeps_answers(gate, removed, allow)
    if removed:
        assert release_gate(base, now, resamples=100, seed=0).verdict == FAIL


@SETTINGS
@given(
    st.lists(counts().filter(lambda r: r[0] > 0), min_size=2, max_size=30),
    st.data(),
    st.sampled_from(["micro", "macro"]),
)
def test_a_release_whose_every_answer_covers_less_never_passes(rows, data, aggregate):
    """Every answer of the release covers fewer of its units (units kept): coverage REGRESSED at
    margin 0 and the gate FAILs, whether the answers lost alike (all their candidates, the
    same share: every resample gives one drop) or not."""
    lost = [data.draw(st.integers(1, c)) for c, *_ in rows]
    now = per_answer([(c - k, u, f, n) for (c, u, f, n), k in zip(rows, lost, strict=True)])
    gate = release_gate(per_answer(rows), now, aggregate=aggregate, resamples=100, seed=0)
    row = next(r for r in gate.rows if r.metric == "coverage")
    assert (row.verdict, row.decided) == (REGRESSED, True), row.reason
    assert gate.verdict == FAIL and gate.exit_code == 1


@SETTINGS
@given(st.lists(counts().filter(lambda r: r[0] > 0), min_size=2, max_size=20), st.data())
def test_one_groups_loss_is_never_hidden_by_another_groups_gain(rows, data):
    """--by model: decomposer B covers fewer units on every answer while A covers more; the
    gate of the groups pooled may see no drop, the gate by group FAILs on B and passes A."""
    lost = [data.draw(st.integers(1, c)) for c, *_ in rows]
    a_before = per_answer([(c - k, u, f, n) for (c, u, f, n), k in zip(rows, lost, strict=True)])
    b_after = per_answer([(c - k, u, f, n) for (c, u, f, n), k in zip(rows, lost, strict=True)])
    a_after, b_before = per_answer(rows), per_answer(rows)
    base = pd.concat([a_before.assign(model="A"), b_before.assign(model="B")])
    now = pd.concat([a_after.assign(model="A"), b_after.assign(model="B")])
    gate = release_gate(
        base, now, keys=["model", "answer_id"], by="model", metrics=["coverage"], resamples=100
    )
    verdicts = {r.group: r.verdict for r in gate.rows}
    assert verdicts == {"A": PASS, "B": REGRESSED}
    assert gate.verdict == FAIL and gate.shared == 2 * len(rows)


# ------------------------------------------------------------------------------ named cases


@pytest.mark.parametrize(
    ("a_rows", "b_rows", "shared", "undefined", "difference"),
    [
        # the case: A covers 1 of 2 units of q1..q3, B the same but nothing of q3
        ([(1, 2, 1, 1)] * 3, [(1, 2, 1, 1)] * 2 + [(0, 2, 0, 0)], 3, 0, 3 / 6 - 2 / 6),
        # an answer with no unit is N/A for both: left out and counted
        ([(1, 2, 1, 1), (0, 0, 0, 0)], [(2, 2, 1, 1), (0, 0, 0, 0)], 1, 1, 1 / 2 - 2 / 2),
    ],
    ids=["empty-selection-shared", "no-unit-left-out"],
)
def test_coverage_pairs_by_hand(a_rows, b_rows, shared, undefined, difference):
    table = pd.concat(
        [per_answer(a_rows).assign(model="A"), per_answer(b_rows).assign(model="B")],
        ignore_index=True,
    )
    cov = next(
        c
        for c in ledger_comparisons(table, [("A", "B")], **QUICK)
        if (c.metric, c.aggregate) == ("coverage", "micro")
    )
    assert (cov.shared, cov.undefined) == (shared, undefined)
    assert cov.difference.value == pytest.approx(difference)
    check_paired_difference(cov, table)


# ------------------------------------------------------------------------------ names and rows

NAMES = st.sampled_from(
    ["q", "Q", "ответ", "คำตอบ", "답변", "İzmir", "izmir", "ı", "NA", "001", "1"]
)


def _renamed(table: Any, names: list[str], order: list[int]) -> Any:
    """The per-answer table with its answers renamed (one new name each) and its rows shuffled."""
    ids = list(dict.fromkeys(table["answer_id"]))
    new = {old: f"{names[k % len(names)]}-{k}" for k, old in enumerate(ids)}
    out = table.assign(answer_id=table["answer_id"].map(new))
    return out.iloc[[i % len(out) for i in order]].drop_duplicates().reset_index(drop=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers(n_min=3, n_max=8), st.lists(NAMES, min_size=1, max_size=5), st.randoms())
def test_renaming_or_reordering_answers_changes_no_interval_p_value_ranking_or_verdict(
    answer_list, names, rnd
):
    """Intervals, p-values, rankings and the gate read what the answers hold, not their names
    or the order of the file's rows (a seed draws answers by their values)."""
    from claimlab.metrics.uncertainty import ledger_group_intervals, ledger_rankings

    table = score(both_decomposers(answer_list)).counts.table
    rows = list(range(len(table)))
    rnd.shuffle(rows)
    other = _renamed(table, names, rows)
    assert len(other) == len(table)
    for t in (table, other):
        t.attrs.clear()
    quick = {"resamples": 200, "seed": 3}
    assert ledger_group_intervals(table, by_group=True, **quick) == ledger_group_intervals(
        other, by_group=True, **quick
    )
    assert ledger_comparisons(table, [("A", "B")], **QUICK) == ledger_comparisons(
        other, [("A", "B")], **QUICK
    )
    assert ledger_rankings(table, **quick) == ledger_rankings(other, **quick)
    a, b = table[table["model"] == "A"], table[table["model"] == "B"]
    a2, b2 = other[other["model"] == "A"], other[other["model"] == "B"]
    # B's release gated against A's as baseline, the answers renamed alike on both sides
    gate, gate2 = (
        release_gate(x, y, margin=0.05, resamples=200, seed=1) for x, y in ((a, b), (a2, b2))
    )
    assert (gate.verdict, gate.exit_code) == (gate2.verdict, gate2.exit_code)
    assert gate.rows == gate2.rows and gate.shared == gate2.shared


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers(n_min=3, n_max=8))
def test_renaming_the_decomposers_changes_no_comparison_or_ranking(answer_list):
    """Names sort the other way round (A -> zz, B -> aa): the same bounds, p-values, shares."""
    from claimlab.metrics.uncertainty import ledger_rankings

    table = score(both_decomposers(answer_list)).counts.table
    renamed = table.assign(model=table["model"].map({"A": "zz", "B": "aa"}))
    for t in (table, renamed):
        t.attrs.clear()

    # "--compare all" takes the names in order: aa - zz, the same pair the other way round
    groups = group_records(table)
    for ab, ba in zip(
        ledger_comparisons(table, [("A", "B")], **QUICK),
        ledger_comparisons(renamed, [("aa", "zz")], **QUICK),
        strict=True,
    ):
        pairing = pair_items(groups["A"], groups["B"], *RATIO_DEFS[ab.metric])
        a, b = ratio_parts(*pairing.a, ab.aggregate), ratio_parts(*pairing.b, ab.aggregate)
        if side_first(a, b) and side_first(b, a):
            continue  # both sides hold the same values: A's order them (docs/guide/uncertainty.md)
        assert (ab.p_value, ab.shared, ab.undefined) == (ba.p_value, ba.shared, ba.undefined)
        d, e = ab.difference, ba.difference
        for x, y in ((d.value, e.value), (d.low, e.high), (d.high, e.low)):
            assert (x is None and y is None) or x == pytest.approx(-y, abs=1e-12)
    got = ledger_rankings(table, resamples=200, seed=3)
    again = ledger_rankings(renamed, resamples=200, seed=3)
    for r, r2 in zip(got, again, strict=True):  # two groups of the same values: ranked by name
        if r.values is None or len(set(r.values.values())) == len(r.values):
            assert r.same_order == r2.same_order


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers(n_min=2, n_max=10), st.randoms())
def test_the_figures_are_the_same_to_the_last_digit_in_any_row_order(answer_list, rnd):
    table = score(both_decomposers(answer_list)).counts.table
    rows = list(range(len(table)))
    rnd.shuffle(rows)
    shuffled = table.iloc[rows].reset_index(drop=True)
    assert (
        corpus_figures(shuffled, group="all").to_dict()
        == corpus_figures(table, group="all").to_dict()
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers(n_min=1, n_max=6), st.data())
def test_a_fingerprint_respelled_is_the_same_claim(answer_list, data):
    """Capitals, extra spaces, NFD and Turkish capitals in a fingerprint change no count: a
    respelled copy is a repeat (it was counted as a claim of its own)."""
    for ans in answer_list:
        for cands in ans["sides"].values():
            for c in cands:
                c["fingerprint"] = FINGERPRINTS[int(c["fingerprint"][1:] or 0) % 5]
    before = score(answer_list).counts.table
    for ans in answer_list:
        for cands in ans["sides"].values():
            for c in cands:
                c["fingerprint"] = respelled_fingerprint(
                    c["fingerprint"], data.draw(st.integers(0, 4))
                )
    after = score(answer_list).counts.table
    pd.testing.assert_frame_equal(before, after)
