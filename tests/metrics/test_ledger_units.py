"""Unit tests of ``metrics/ledger.py``, in process, on a ledger small enough to count by hand.

Two decomposers, three answers: every count of every (decomposer, answer) row is written out
below with how it comes about, and the corpus figures, the per-answer displays, the skipped
rows and the "perfect support, low coverage" finder are checked against them.
"""

import math

import pyarrow as pa
import pytest

from claimlab.core.errors import LedgerError
from claimlab.core.ratio import MeanOfDefined, Ratio
from claimlab.io.ledger import CANDIDATE_SCHEMA, UNIT_SCHEMA
from claimlab.metrics import ledger as L

SCHEMA = pa.schema([("model", pa.string()), *CANDIDATE_SCHEMA])
S, C, N = "SUPPORTED", "CONTRADICTED", "NOT_IN_REFERENCE"


def _row(model, answer, cid, fp, preserves, faithful=True, atomic=True, status=S):
    return {
        "model": model,
        "answer_id": answer,
        "candidate_id": cid,
        "fingerprint": fp,
        "preserves": preserves,
        "faithful": faithful,
        "atomic": atomic,
        "status": status,
    }


ROWS = [
    # m1, x (units U1 U2 U3): C2 repeats C1's fingerprint (D* = C1, C3, C4); C3 unfaithful
    _row("m1", "x", "C1", "f1", ["U1"]),
    _row("m1", "x", "C2", "f1", ["U2"], status=C),
    _row("m1", "x", "C3", "f3", ["U3"], faithful=False, status=N),
    _row("m1", "x", "C4", "f4", ["U1"], atomic=False),
    # m1, y (units V1 V2): everything supported, but only V1 preserved
    _row("m1", "y", "C1", "g1", ["V1"]),
    # m2, x: one contradicted candidate preserving two units
    _row("m2", "x", "C1", "f1", ["U1", "U2"], status=C),
    # m2, z (no units): one candidate
    _row("m2", "z", "C1", "h1", [], faithful=False, atomic=False, status=N),
]
UNITS = [("x", "U1"), ("x", "U2"), ("x", "U3"), ("y", "V1"), ("y", "V2")]

# (model, answer): raw, unique, faithful, covered, units, supported / contradicted /
# not-in-reference among the unique, supported among all, duplicates, non-atomic, missing
EXPECTED = {
    ("m1", "x"): (4, 3, 2, 1, 3, (2, 0, 1), 2, 1, 1, 2),  # P = C1, C4: both preserve U1 only
    ("m1", "y"): (1, 1, 1, 1, 2, (1, 0, 0), 1, 0, 0, 1),
    ("m2", "x"): (1, 1, 1, 2, 3, (0, 1, 0), 0, 0, 0, 1),
    ("m2", "y"): (0, 0, 0, 0, 2, (0, 0, 0), 0, 0, 0, 2),  # no candidate: an empty selection
    ("m2", "z"): (1, 1, 0, 0, 0, (0, 0, 1), 0, 0, 1, 0),
}
COLUMNS = ("raw", "unique", "faithful", "covered", "units", "status", "supported_raw",
           "duplicates", "non_atomic", "missing_units")  # fmt: skip


def _tables(rows=ROWS, units=UNITS):
    cand = pa.Table.from_pylist(rows, schema=SCHEMA)
    unit_table = pa.Table.from_pylist(
        [{"answer_id": a, "unit_id": u} for a, u in units], schema=UNIT_SCHEMA
    )
    return cand, unit_table


def _as_expected(table):
    got = {}
    for rec in table.to_dict("records"):
        status = (
            rec["supported_unique"],
            rec["contradicted_unique"],
            rec["not_in_reference_unique"],
        )
        got[(rec["model"], rec["answer_id"])] = tuple(
            status if c == "status" else rec[c] for c in COLUMNS
        )
    return got


def test_every_count_of_every_decomposer_and_answer_by_hand():
    counts = L.count_ledger(*_tables(), by="model")
    assert _as_expected(counts.table) == EXPECTED
    assert list(zip(counts.table["model"], counts.table["answer_id"], strict=True)) == list(
        EXPECTED
    )  # sorted by model, then answer
    assert (counts.skipped_rows, counts.empty_answers, counts.issues) == (0, 1, ())
    assert counts.to_pandas() is counts.table


def test_corpus_figures_micro_sums_macro_means_over_defined_answers():
    result = L.score_tables(*_tables(), by="model")
    all_ = result.corpus
    assert (all_.group, all_.answers, all_.pairs, all_.empty_answers) == ("all", 3, 5, 1)
    assert dict(all_.micro) == {
        "preservation": Ratio(4, 6),
        "coverage": Ratio(4, 10),
        "confirmed_support": Ratio(3, 6),
        "raw_support": Ratio(3, 7),
    }
    # macro preservation: 2/3, 1/1, 1/1, 0/1 over 4 defined answers, (m2, y) undefined
    assert all_.macro["preservation"] == MeanOfDefined((2 / 3 + 1 + 1 + 0) / 4, 4, 1)
    assert all_.macro["coverage"] == MeanOfDefined((1 / 3 + 1 / 2 + 2 / 3 + 0) / 4, 4, 1)
    assert all_.macro["raw_support"] == MeanOfDefined((2 / 4 + 1 + 0 + 0) / 4, 4, 1)
    assert dict(all_.status_counts) == {S: 3, C: 1, N: 2}
    assert (all_.duplicates, all_.missing_units, all_.non_atomic) == (1, 6, 2)


def test_each_groups_figures_and_an_undefined_macro():
    result = L.score_tables(*_tables(), by="model")
    assert list(result.groups) == ["m1", "m2"] and result.by == "model"
    m2 = result.groups["m2"]
    assert (m2.answers, m2.pairs, m2.empty_answers) == (3, 3, 1)
    assert m2.micro["coverage"] == Ratio(2, 5)
    assert m2.macro["confirmed_support"] == MeanOfDefined(0.0, 2, 1)
    m1 = result.groups["m1"]
    assert m1.macro["coverage"] == MeanOfDefined((1 / 3 + 1 / 2) / 2, 2, 0)
    none = L.score_tables(*_tables([_row("m", "q", "C1", "f", [])], []), by="model")
    assert none.corpus.macro["coverage"] == MeanOfDefined(None, 0, 1)  # no answer has units
    assert none.corpus.micro["coverage"] == Ratio(0, 0)
    m1_only = [r for r in ROWS if r["model"] == "m1"]
    assert L.score_tables(*_tables(m1_only)).groups == {}  # no grouping asked for


def test_a_bad_row_of_a_table_in_memory_is_named_by_its_number():
    from claimlab.core.errors import LedgerError

    with pytest.raises(LedgerError) as e:
        L.score_tables(*_tables())  # two decomposers' rows, not told apart
    assert str(e.value).startswith("candidates: row 6: candidate_id: candidate id 'C1' appears")


def test_the_json_form_names_every_figure_with_its_counts():
    d = L.score_tables(*_tables(), by="model").to_dict()
    assert list(d) == ["corpus", "by_group", "skipped_rows", "issues", "issues_not_listed"]
    corpus = d["corpus"]
    assert corpus["answers"] == 3 and corpus["decomposer_answer_pairs"] == 5
    assert corpus["answers_without_candidates"] == 1
    assert corpus["micro"]["coverage"] == Ratio(4, 10).to_dict()
    assert corpus["status_counts_unique"] == {S: 3, C: 1, N: 2}
    assert (corpus["duplicates"], corpus["missing_units"], corpus["non_atomic_unique"]) == (1, 6, 2)
    assert list(d["by_group"]) == ["m1", "m2"] and d["by_group"]["m1"]["group"] == "m1"
    assert (d["skipped_rows"], d["issues"], d["issues_not_listed"]) == (0, [], {})


def test_per_answer_ratios_show_value_and_counts_and_na_for_zero_over_zero():
    t = L.per_answer_ratios(L.count_ledger(*_tables(), by="model").table)
    rows = {(r["model"], r["answer_id"]): r for r in t.to_dict("records")}
    x = rows[("m1", "x")]
    assert x["preservation"] == pytest.approx(2 / 3)
    assert x["preservation_display"] == "66.7% (2/3)"
    assert x["coverage_display"] == "33.3% (1/3)"
    assert x["raw_support_display"] == "50.0% (2/4)"
    empty = rows[("m2", "y")]
    assert math.isnan(empty["preservation"])
    assert empty["preservation_display"] == "N/A (0/0)"
    assert empty["coverage_display"] == "0.0% (0/2)"
    assert rows[("m2", "z")]["coverage_display"] == "N/A (0/0)"
    assert rows[("m1", "y")]["confirmed_support_display"] == "100.0% (1/1)"


def test_perfect_support_with_low_coverage_is_found_and_counted():
    result = L.score_tables(*_tables(), by="model")
    hits, n = L.perfect_support_low_coverage(result)
    assert n == 1 and hits.to_dict("records") == [
        {
            "model": "m1",
            "answer_id": "y",
            "confirmed_support_display": "100.0% (1/1)",
            "coverage_display": "50.0% (1/2)",
            "missing_units": 1,
        }
    ]
    assert L.perfect_support_low_coverage(result, coverage_below=0.5)[1] == 0  # 0.5 is not below
    assert L.perfect_support_low_coverage(result, coverage_below=0.51)[1] == 1
    more = [*ROWS, _row("m1", "w", "C1", "k", [])]
    many, n = L.perfect_support_low_coverage(
        L.score_tables(*_tables(more, [*UNITS, ("w", "W1")]), by="model"), limit=1
    )
    assert n == 2 and len(many) == 1


def test_a_skipped_row_never_counts_not_even_as_a_first_fingerprint():
    """The first row of f1 is bad (status): with on_error=skip the second is D*'s f1."""
    rows = [_row("m", "x", "C1", "f1", ["U1"], status="MAYBE"), _row("m", "x", "C2", "f1", ["U2"])]
    counts = L.count_ledger(*_tables(rows, UNITS), by="model", on_error="skip")
    assert counts.skipped_rows == 1 and len(counts.issues) == 1
    got = _as_expected(counts.table)[("m", "x")]
    assert got == (1, 1, 1, 1, 3, (1, 0, 0), 1, 0, 0, 2)  # C2 counts, and is no duplicate


def test_coverage_of_a_ledger_too_large_for_one_flag_per_unit():
    """9,000 answers of one unit each (8.1e7 possible unit places): the hashed path."""
    n = 9000
    rows = [_row("m", f"a{k}", "C1", "f", [f"U{k}"] if k % 3 else [], faithful=k % 2 == 0)
            for k in range(n)]  # fmt: skip
    units = [(f"a{k}", f"U{k}") for k in range(n)]
    t = L.count_ledger(*_tables(rows, units), by="model").table
    want = sum(1 for k in range(n) if k % 3 and k % 2 == 0)
    assert int(t["covered"].sum()) == want and int(t["units"].sum()) == n
    assert int(t["missing_units"].sum()) == n - want


@pytest.mark.arrowfiles
def test_score_ledger_reads_both_files(tmp_path):
    import pyarrow.parquet as pq

    cand, units = _tables()
    pq.write_table(cand, tmp_path / "c.parquet")
    pq.write_table(units, tmp_path / "u.parquet")
    got = L.score_ledger(tmp_path / "c.parquet", tmp_path / "u.parquet", by="model")
    assert _as_expected(got.counts.table) == EXPECTED
    assert got.corpus == L.score_tables(cand, units, by="model").corpus
    assert got.corpus.micro["coverage"] == Ratio(4, 10) and list(got.groups) == ["m1", "m2"]


def test_fixture_from_rows_keeps_rows_in_file_order_with_their_labels():
    rows = [r for r in ROWS if r["model"] == "m1" and r["answer_id"] == "x"]
    fx = L.fixture_from_rows(rows, ["U1", "U2", "U3"])
    assert [c.id for c in fx.candidates] == ["C1", "C2", "C3", "C4"]
    assert [u.id for u in fx.units] == ["U1", "U2", "U3"]
    c3 = fx.candidates[2]
    assert (c3.fingerprint, c3.preserves, c3.faithful, c3.atomic) == ("f3", ("U3",), False, True)
    assert str(c3.evidence.status) == N
    assert not fx.candidates[3].atomic


def test_the_rows_come_sorted_by_decomposer_then_answer_numbered_from_zero():
    rows = [_row("m2", "b", "C1", "f", ["B1"]), _row("m1", "b", "C1", "f", []),
            _row("m2", "a", "C1", "f", [])]  # fmt: skip
    t = L.count_ledger(*_tables(rows, [("b", "B1"), ("a", "A1")]), by="model").table
    assert list(zip(t["model"], t["answer_id"], strict=True)) == [
        ("m1", "a"), ("m1", "b"), ("m2", "a"), ("m2", "b")
    ]  # fmt: skip
    assert list(t.index) == [0, 1, 2, 3]


def test_a_decomposer_named_ahead_is_scored_on_every_answer_with_units():
    counts = L.count_ledger(*_tables(), by="model", models=["m0", "m1", "m2"])
    m0 = counts.table[counts.table["model"] == "m0"]
    assert list(m0["answer_id"]) == ["x", "y"] and m0["raw"].tolist() == [0, 0]
    assert counts.empty_answers == 3


def test_a_decomposer_with_nothing_to_score_has_no_group():
    cand, _ = _tables([_row("m1", "x", "C1", "f", [])], [])
    counts = L.count_ledger(cand, _tables([], [])[1], by="model", models=["m0", "m1"])
    assert list(L.summarise(counts, by="model").groups) == ["m1"]


def test_a_unit_listed_twice_names_the_units_table():
    with pytest.raises(LedgerError) as e:
        L.count_ledger(*_tables(ROWS, [*UNITS, ("x", "U2")]), by="model")
    assert str(e.value) == "units: row 6: unit_id: unit 'U2' listed twice for answer 'x'"


def test_a_bad_row_stops_the_count_by_default():
    with pytest.raises(LedgerError, match="status"):
        L.count_ledger(
            *_tables([*ROWS, _row("m1", "x", "C9", "f9", [], status="MAYBE")]), by="model"
        )


def test_an_id_twice_in_one_decomposers_answer_gives_no_by_model_hint_when_grouped():
    rows = [*ROWS, _row("m1", "x", "C1", "f8", [])]
    with pytest.raises(LedgerError) as e:
        L.count_ledger(*_tables(rows), by="model")
    assert (
        str(e.value)
        == "candidates: row 8: candidate_id: candidate id 'C1' appears twice in answer 'x'"
    )


def test_skipped_rows_leave_the_repeats_among_the_kept_rows_counted():
    rows = [_row("m", "x", "C1", "f1", ["U1"], status="MAYBE"), _row("m", "x", "C2", "f1", ["U2"]),
            _row("m", "x", "C3", "f1", ["U3"])]  # fmt: skip
    counts = L.count_ledger(*_tables(rows), by="model", on_error="skip")
    got = _as_expected(counts.table)[("m", "x")]
    assert got[:2] == (2, 1) and got[7] == 1  # C3 repeats C2: one duplicate


def test_bad_rows_past_the_twenty_listed_are_counted_per_field():
    rows = [_row("m", "x", f"C{k}", f"f{k}", [], status="MAYBE") for k in range(23)]
    counts = L.count_ledger(*_tables(rows), by="model", on_error="skip")
    assert len(counts.issues) == 20 and dict(counts.unlisted) == {"status": 3}
    d = L.LedgerResult(counts, L.corpus_figures(counts.table, group="all"), {}).to_dict()
    assert d["issues_not_listed"] == {"status": 3}
    assert d["issues"][0] == str(counts.issues[0]) and "MAYBE" in d["issues"][0]
    assert L.score_tables(*_tables(rows), by="model", on_error="skip").counts.skipped_rows == 23


def test_figures_and_groups_cannot_be_changed_after_the_fact():
    result = L.score_tables(*_tables(), by="model")
    for mapping in (result.corpus.micro, result.corpus.macro, result.corpus.status_counts,
                    result.groups):  # fmt: skip
        with pytest.raises(TypeError):
            mapping["new"] = 1


def test_the_json_form_gives_the_macro_means_with_their_counts():
    d = L.score_tables(*_tables(), by="model").to_dict()["corpus"]
    assert d["macro"]["coverage"] == MeanOfDefined((1 / 3 + 1 / 2 + 2 / 3 + 0) / 4, 4, 1).to_dict()
    assert list(d["macro"]) == ["preservation", "coverage", "confirmed_support", "raw_support"]


def test_perfect_support_defaults_are_below_60_percent_and_ten_rows():
    rows = [_row("m", f"a{k:02d}", "C1", f"f{k}", []) for k in range(12)]
    rows.append(_row("m", "full", "C1", "g", ["F1"]))  # 100% support, 100% coverage
    units = [(f"a{k:02d}", "U1") for k in range(12)] + [("full", "F1")]
    result = L.score_tables(*_tables(rows, units), by="model")
    hits, n = L.perfect_support_low_coverage(result)
    assert (len(hits), n) == (10, 12)
    assert L.perfect_support_low_coverage(result, coverage_below=1.01)[1] == 13


@pytest.mark.arrowfiles
def test_score_ledger_names_a_bad_units_file_and_shows_its_steps_only_when_asked(tmp_path, capsys):
    import pyarrow.parquet as pq

    cand, units = _tables(ROWS, [*UNITS, ("x", "U2")])
    pq.write_table(cand, tmp_path / "c.parquet")
    pq.write_table(units, tmp_path / "u.parquet")
    with pytest.raises(LedgerError) as e:
        L.score_ledger(tmp_path / "c.parquet", tmp_path / "u.parquet", by="model")
    assert str(e.value).startswith(f"{tmp_path / 'u.parquet'}: row 6: unit_id")
    assert capsys.readouterr().err == ""
    good = _tables()
    pq.write_table(good[1], tmp_path / "u.parquet")
    L.score_ledger(tmp_path / "c.parquet", tmp_path / "u.parquet", by="model", progress=True)
    err = capsys.readouterr().err
    assert "ledger" in err and "3/3" in err and "scoring" in err


def test_a_fixture_from_ledger_rows_holds_only_what_the_scorer_reads():
    from claimlab.io.decomposition import (
        Candidate,
        DecompositionFixture,
        Evidence,
        Original,
        Span,
        Unit,
    )

    rows = [_row("m", "x", "C1", "f1", ["U1"], status=C)]
    place = Span(0, 2, "--")  # one place of two characters: each span lies in each unit
    want = DecompositionFixture(
        "ledger rows",
        Original("answer", "ledger", "--"),
        (Unit("U1", place), Unit("U2", place)),
        (),
        (Candidate(id="C1", text="", entity="", version="", predicate="", qualifiers=(),
                   source_spans=(place,), fingerprint="f1", preserves=("U1",),
                   faithful=True, atomic=True, errors=(), evidence=Evidence(C, ())),),
    )  # fmt: skip
    assert L.fixture_from_rows(rows, ["U1", "U2"]) == want
