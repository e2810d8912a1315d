"""A ledger's rows parsed on the io floor: coerced, encoded and checked before any count."""

import pyarrow as pa
import pytest

from claimlab.core.errors import LedgerError
from claimlab.io.ledger_rows import NO_MODEL, apply_on_error, check_rows, coerce_columns, encode


def tables(rows, units):
    cand = pa.Table.from_pylist(
        [
            {
                "answer_id": a,
                "candidate_id": c,
                "fingerprint": f,
                "preserves": p,
                "faithful": "true",
                "atomic": "true",
                "status": s,
                **({"model": m} if m is not None else {}),
            }
            for a, c, f, p, s, m in rows
        ]
    )
    return cand, pa.Table.from_pylist([{"answer_id": a, "unit_id": u} for a, u in units])


UNITS = [("q1", "U1"), ("q1", "U2"), ("q2", "U1")]
GOOD = [
    ("q1", "C1", "f1", "U1", "SUPPORTED", None),
    ("q1", "C2", "f2", "U1;U2", "CONTRADICTED", None),
    ("q2", "C1", "f1", "", "NOT_IN_REFERENCE", None),
]

# (rows, the first bad row's field and row, every bad field found with skip)
BAD_ROWS = [
    (GOOD[:2] + [("q2", "C1", "f1", "", "MAYBE", None)], ("status", 3), {"status"}),
    (GOOD + [("q1", "C1", "f9", "U2", "SUPPORTED", None)], ("candidate_id", 4), {"candidate_id"}),
    ([("q1", "C1", "f1", "U7", "SUPPORTED", None), *GOOD[1:]], ("preserves", 1), {"preserves"}),
    (
        [("q1", "C1", "f1", "U1", "DUNNO", None), ("q2", "C1", "f", "U9", "SUPPORTED", None)],
        ("status", 1),
        {"status", "preserves"},
    ),
]


def test_good_rows_are_coded_and_all_kept():
    cols = coerce_columns(*tables(GOOD, UNITS))
    codes = encode(cols)
    assert codes.model_names == (NO_MODEL,)
    assert codes.answers.to_pylist() == ["q1", "q2"]
    assert codes.status.tolist() == [0, 1, 2]
    assert codes.preserved_known.all() and codes.parent.tolist() == [0, 1, 1]
    kept = apply_on_error(cols, check_rows(cols, codes, by=None), on_error="stop")
    assert kept.keep.all() and kept.skipped == 0 and kept.issues == ()


@pytest.mark.parametrize(("rows", "first", "fields"), BAD_ROWS)
def test_bad_rows_stop_at_the_first_or_are_left_out_and_listed(rows, first, fields):
    cols = coerce_columns(*tables(rows, UNITS), candidates_file="c.csv")
    codes = encode(cols)
    checks = check_rows(cols, codes, by=None)
    with pytest.raises(LedgerError) as err:
        apply_on_error(cols, checks, on_error="stop")
    field, row = first
    assert err.value.field == field and f"row {row}" in str(err.value)
    kept = apply_on_error(cols, checks, on_error="skip")
    assert {i.field for i in kept.issues} == fields
    assert kept.skipped == len(kept.issues) == int((~kept.keep).sum())


def test_a_listing_cap_counts_the_rest_per_field():
    rows = [("q1", f"C{i}", f"f{i}", "", "NOPE", None) for i in range(5)]
    cols = coerce_columns(*tables(rows, UNITS))
    kept = apply_on_error(cols, check_rows(cols, encode(cols), by=None), on_error="skip", listed=2)
    assert len(kept.issues) == 2 and kept.unlisted == {"status": 3} and kept.skipped == 5


def test_models_fix_the_list_and_a_repeated_unit_is_refused():
    rows = [(*r[:5], "m2") for r in GOOD]
    cols = coerce_columns(*tables(rows, UNITS), by="model")
    assert encode(cols, models=["m2", "m1"]).model_names == ("m1", "m2")
    cols = coerce_columns(*tables(GOOD, [*UNITS, ("q1", "U2")]), units_file="u.csv")
    with pytest.raises(LedgerError, match="listed twice") as err:
        check_rows(cols, encode(cols), by=None)
    assert err.value.field == "unit_id"


@pytest.mark.parametrize(
    ("drop", "by", "field"), [("status", None, "status"), (None, "team", "team")]
)
def test_a_missing_column_is_named(drop, by, field):
    cand, units = tables(GOOD, UNITS)
    if drop:
        cand = cand.drop_columns([drop])
    with pytest.raises(LedgerError) as err:
        coerce_columns(cand, units, by=by)
    assert field in str(err.value)
