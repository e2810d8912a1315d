"""Ledger scorer: same definitions as the fixture scorer (property test), bad rows, formats, Dask."""

import json
import re
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.core.errors import LedgerError
from claimlab.core.vocab import STATUSES
from claimlab.io.ledger import CANDIDATE_SCHEMA, UNIT_SCHEMA
from claimlab.metrics.decomposition import score_decomposition
from claimlab.metrics.ledger import count_ledger, fixture_from_rows, per_answer_ratios, score_ledger
from tests.conftest import require_data, run_cli

METRICS = {
    "preservation": ("faithful", "unique"),
    "coverage": ("covered", "units"),
    "confirmed_support": ("supported_unique", "unique"),
    "raw_support": ("supported_raw", "raw"),
}


# short and long (several eight-byte words), multi-byte, empty, and pairs that differ in one byte
FINGERPRINTS = [
    "f0",
    "f1",
    "",
    "atlas nova|release|2.1|offline maps",
    "atlas nova|release|2.1|offline mapz",
    "ร้านเปิด 9 โมง|เวลา",
    "회의실 B|수용 인원|12",
]


@st.composite
def ledgers(draw):
    n_answers = draw(st.integers(1, 4))
    models = draw(st.sampled_from([["m1"], ["m1", "m2"]]))
    units, rows = [], []
    for a in range(n_answers):
        k = draw(st.integers(0, 4))
        unit_ids = [f"U{j}" for j in range(1, k + 1)]
        units += [{"answer_id": f"a{a}", "unit_id": u} for u in unit_ids]
        for m in models:
            for c in range(draw(st.integers(0, 6))):
                rows.append(
                    {
                        "model": m,
                        "answer_id": f"a{a}",
                        "candidate_id": f"C{c}",
                        "fingerprint": draw(st.sampled_from(FINGERPRINTS)),
                        "preserves": draw(
                            st.lists(st.sampled_from(unit_ids), max_size=3, unique=True)
                        )
                        if unit_ids
                        else [],
                        "faithful": draw(st.booleans()),
                        "atomic": draw(st.booleans()),
                        "status": draw(st.sampled_from(STATUSES)),
                    }
                )
    draw(st.randoms()).shuffle(rows)
    return rows, units


def fixture_scorer(rows, units, model, answer):
    """The lab's own scorer on an in-memory fixture made of one answer's rows."""
    mine = [r for r in rows if r["model"] == model and r["answer_id"] == answer]
    fx = fixture_from_rows(mine, [u["unit_id"] for u in units if u["answer_id"] == answer])
    return score_decomposition(fx, [r["candidate_id"] for r in mine])


def tables(rows, units):
    cand = pa.Table.from_pylist(rows, schema=pa.schema([("model", pa.string()), *CANDIDATE_SCHEMA]))
    unit_table = pa.Table.from_pylist(units, schema=UNIT_SCHEMA)
    return cand, unit_table


def assert_fixture_scorer_agrees(table, rows, units):
    """Every (model, answer) row of a ledger table against the lab's fixture scorer."""
    answers_with_units = {u["answer_id"] for u in units}
    expected_pairs = {(r["model"], r["answer_id"]) for r in rows} | {
        (m, a) for m in {r["model"] for r in rows} for a in answers_with_units
    }
    assert {
        (m, a) for m, a in zip(table["model"], table["answer_id"], strict=True)
    } == expected_pairs
    for rec in table.to_dict("records"):
        ref = fixture_scorer(rows, units, rec["model"], rec["answer_id"])
        for name, (num, den) in METRICS.items():
            r = getattr(ref, name)
            assert (rec[num], rec[den]) == (r.numerator, r.denominator), (name, rec)
        assert rec["contradicted_unique"] == ref.status_counts["CONTRADICTED"]
        assert rec["not_in_reference_unique"] == ref.status_counts["NOT_IN_REFERENCE"]
        assert rec["duplicates"] == len(ref.duplicates)
        assert rec["missing_units"] == len(ref.missing_units)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ledgers())
def test_ledger_scorer_equals_fixture_scorer_on_every_answer(data):
    rows, units = data
    cand, unit_table = tables(rows, units)
    table = count_ledger(cand, unit_table, by="model").table
    assert_fixture_scorer_agrees(table, rows, units)
    # the same through Parquet, in row groups of three rows: every chunk has its own dictionaries;
    # and once more with the fingerprints stored dictionary-encoded (as pandas categoricals are)
    i = cand.column_names.index("fingerprint")
    as_dictionary = cand.set_column(i, "fingerprint", pc.dictionary_encode(cand.column(i)))
    for variant in (cand, as_dictionary):
        with tempfile.TemporaryDirectory() as folder:
            cp, up = Path(folder) / "c.parquet", Path(folder) / "u.parquet"
            pq.write_table(variant, cp, row_group_size=3)
            pq.write_table(unit_table, up, row_group_size=3)
            via_parquet = score_ledger(cp, up, by="model").counts.table
        pd.testing.assert_frame_equal(via_parquet, table)


def write_all(tmp_path, rows, units):
    cand, unit_table = tables(rows, units)
    pq.write_table(cand, tmp_path / "c.parquet")
    pq.write_table(unit_table, tmp_path / "u.parquet")
    csv_rows = [
        {
            **r,
            "preserves": ";".join(r["preserves"]),
            "faithful": str(r["faithful"]).lower(),
            "atomic": str(r["atomic"]).lower(),
        }
        for r in rows
    ]
    pd.DataFrame(csv_rows).to_csv(tmp_path / "c.csv", index=False)
    pd.DataFrame(units).to_csv(tmp_path / "u.csv", index=False)
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "u.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units))


ROWS = [
    {
        "model": "m1",
        "answer_id": "a1",
        "candidate_id": "C1",
        "fingerprint": "f1",
        "preserves": ["U1"],
        "faithful": True,
        "atomic": True,
        "status": "SUPPORTED",
    },
    {
        "model": "m1",
        "answer_id": "a1",
        "candidate_id": "C6",
        "fingerprint": "f1",
        "preserves": ["U1"],
        "faithful": True,
        "atomic": True,
        "status": "SUPPORTED",
    },
    {
        "model": "m1",
        "answer_id": "a1",
        "candidate_id": "C4",
        "fingerprint": "f4",
        "preserves": ["U2", "U3"],
        "faithful": True,
        "atomic": False,
        "status": "NOT_IN_REFERENCE",
    },
    {
        "model": "m2",
        "answer_id": "a1",
        "candidate_id": "C8",
        "fingerprint": "f8",
        "preserves": [],
        "faithful": False,
        "atomic": True,
        "status": "SUPPORTED",
    },
]
UNITS = [{"answer_id": "a1", "unit_id": f"U{i}"} for i in range(1, 5)] + [
    {"answer_id": "a2", "unit_id": "U1"}
]


@pytest.mark.parametrize("ext", ["csv", "jsonl", "parquet"])
def test_formats_give_identical_results(tmp_path, ext):
    write_all(tmp_path, ROWS, UNITS)
    r = score_ledger(tmp_path / f"c.{ext}", tmp_path / f"u.{ext}", by="model")
    assert r.groups["m1"].micro["coverage"].counts == "3/5"  # a1: U1-U3 of 4; a2 empty: 0/1
    assert r.groups["m1"].micro["raw_support"].counts == "2/3"
    assert r.groups["m1"].macro["preservation"].undefined == 1  # a2 has no candidate: N/A
    assert r.groups["m2"].micro["preservation"].counts == "0/1"
    # two answers split by two decomposers: 2 answers, 4 pairs (the "all" row counted pairs as answers)
    assert r.corpus.empty_answers == 2 and r.corpus.answers == 2 and r.corpus.pairs == 4
    table = per_answer_ratios(r.counts.table)
    assert (
        table.loc[(table.model == "m1") & (table.answer_id == "a2"), "preservation_display"].item()
        == "N/A (0/0)"
    )


INTRODUCED_ONLY = [  # a decomposer that wrote only introduced claims: no list names a unit
    {**r, "preserves": [], "faithful": False} for r in ROWS
] + [{**ROWS[0], "answer_id": "a2", "candidate_id": "C9", "preserves": None, "faithful": False}]


@pytest.mark.parametrize("written", ["jsonl", "parquet-by-pandas", "csv"])
def test_a_ledger_whose_lists_are_all_empty_reads_in_every_format(tmp_path, written):
    """JSON Lines of ``[]`` only, or Parquet written by pandas from them, hold lists of no
    type (``list<null>``): they read as lists of no unit, as the same rows in CSV do."""
    write_all(tmp_path, [{**r, "preserves": r["preserves"] or []} for r in INTRODUCED_ONLY], UNITS)
    path = tmp_path / "c.csv"
    if written == "jsonl":  # null too, as every format reads it: no unit
        path = tmp_path / "c.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in INTRODUCED_ONLY), "utf-8")
    elif written == "parquet-by-pandas":
        path = tmp_path / "c.parquet"
        pd.DataFrame(INTRODUCED_ONLY).to_parquet(path)
    r = score_ledger(path, tmp_path / "u.csv", by="model")
    assert r.groups["m1"].micro["coverage"].counts == "0/5"
    assert r.groups["m1"].micro["preservation"].counts == "0/3"
    assert r.corpus.pairs == 4


BAD = [
    (
        "status",
        lambda rows, units: rows[2].update(status="PROBABLY"),
        "row 3 (line 4): status: unknown status 'PROBABLY'",
    ),
    (
        "unit",
        lambda rows, units: rows[1].update(preserves=["U9"]),
        "row 2 (line 3): preserves: unit 'U9' is not in the units table (u.{ext}) for answer 'a1'",
    ),
    (
        "duplicate id",
        lambda rows, units: rows[1].update(candidate_id="C1"),
        "row 2 (line 3): candidate_id: candidate id 'C1' appears twice in answer 'a1'",
    ),
]


@pytest.mark.parametrize("ext", ["csv", "parquet"])
@pytest.mark.parametrize(("case", "edit", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_rows_stop_with_file_row_field_or_are_skipped(tmp_path, case, edit, message, ext):
    rows = json.loads(json.dumps(ROWS))
    units = list(UNITS)
    edit(rows, units)
    write_all(tmp_path, rows, units)
    message = message.replace("{ext}", ext)  # the units file is named
    if ext == "parquet":  # Parquet rows have no line of their own
        message = re.sub(r" \(line \d+\)", "", message)
    cand, unit_file = tmp_path / f"c.{ext}", tmp_path / f"u.{ext}"
    with pytest.raises(LedgerError) as info:
        score_ledger(cand, unit_file)
    assert str(info.value) == f"{cand}: {message}" or str(info.value).startswith(
        f"{cand}: {message}"
    )
    r = score_ledger(cand, unit_file, on_error="skip")
    assert r.counts.skipped_rows == 1 and len(r.counts.issues) == 1
    proc = run_cli("ledger", cand, "--units", unit_file, "--on-error", "skip")
    assert proc.returncode == 0 and "skipped 1 bad row (--on-error skip)" in proc.stdout
    proc = run_cli("ledger", cand, "--units", unit_file)
    assert (
        proc.returncode == 2
        and len(proc.stderr.strip().splitlines()) == 1
        and message.split(":")[0] in proc.stderr
    )


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
@pytest.mark.parametrize("preserves", [[None, "U1"], ["U1", None], [None]], ids=str)
def test_a_null_unit_id_in_preserves_names_its_row(tmp_path, ext, preserves):
    """pyarrow's JSON reader builds a broken list column from [null, "U1"]; the ledger reads
    such a file line by line instead and names the row, as for every other bad value."""
    rows = json.loads(json.dumps(ROWS))
    rows[1]["preserves"] = preserves
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "u.jsonl").write_text("".join(json.dumps(u) + "\n" for u in UNITS))
    if ext == "parquet":
        cand = pa.Table.from_pylist(rows)
        cand = cand.set_column(
            cand.column_names.index("preserves"),
            "preserves",
            pa.array([r["preserves"] for r in rows], type=pa.list_(pa.string())),
        )
        pq.write_table(cand, tmp_path / "c.parquet")
        pq.write_table(pa.Table.from_pylist(UNITS), tmp_path / "u.parquet")
    where = "line 2" if ext == "jsonl" else "row 2"
    cand_file = tmp_path / f"c.{ext}"
    with pytest.raises(LedgerError) as info:
        score_ledger(cand_file, tmp_path / f"u.{ext}")
    assert (
        str(info.value) == f"{cand_file}: {where}: preserves: a unit id in the list is empty (null)"
    )


def test_missing_column_and_unknown_file_type(tmp_path):
    pd.DataFrame([{"answer_id": "a", "unit_id": "U1"}]).to_csv(tmp_path / "u.csv", index=False)
    pd.DataFrame([{"answer_id": "a"}]).to_csv(tmp_path / "c.csv", index=False)
    with pytest.raises(LedgerError, match="c.csv: candidate_id: missing required column"):
        score_ledger(tmp_path / "c.csv", tmp_path / "u.csv")
    with pytest.raises(LedgerError, match="unknown file type"):
        score_ledger(tmp_path / "c.txt", tmp_path / "u.csv")


def test_cli_json_and_out(tmp_path):
    write_all(tmp_path, ROWS, UNITS)
    out = tmp_path / "answers.parquet"
    proc = run_cli(
        "ledger",
        tmp_path / "c.parquet",
        "--units",
        tmp_path / "u.parquet",
        "--by",
        "model",
        "--out",
        out,
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["by_group"]["m1"]["micro"]["confirmed_support"]["display"] == "50.0% (1/2)"
    assert d["corpus"]["macro"]["preservation"]["undefined"] == 2
    back = pd.read_parquet(out)
    assert len(back) == 4 and "coverage_display" in back.columns
    assert sorted(back["model"].unique()) == ["m1", "m2"]


@pytest.mark.parametrize(
    ("by", "column"), [("dataset", "dataset"), (None, None)], ids=["by-dataset", "no-by"]
)
def test_out_file_names_the_group_column_after_by(tmp_path, by, column):
    rows = [{**r, "dataset": "news"} for r in ROWS if r["model"] == "m1"]
    write_all(tmp_path, rows, UNITS)
    out = tmp_path / "answers.csv"
    args = ["--by", by] if by else []
    proc = run_cli("ledger", tmp_path / "c.csv", "--units", tmp_path / "u.csv", *args, "--out", out)
    assert proc.returncode == 0, proc.stderr
    back = pd.read_csv(out)
    assert "model" not in back.columns
    if column:
        assert back[column].unique().tolist() == ["news"]
    assert back["answer_id"].tolist() == ["a1", "a2"]


def dask_frame(cand, npartitions, *, scramble=False):
    """A candidates table as a Dask frame: ``;``-joined units (Dask turns lists into text).

    ``scramble`` numbers the rows first and then stores them in another order: the row numbers,
    not where a row sits, must decide which of two duplicates comes first.
    """
    import dask.dataframe as dd

    from claimlab.io.ledger import ROW
    from claimlab.metrics.ledger_dask import with_row_numbers

    df = cand.to_pandas()
    df["preserves"] = df["preserves"].map(";".join)
    if scramble:
        df[ROW] = range(1, len(df) + 1)
        scrambled = df.sample(frac=1, random_state=3).reset_index(drop=True)
        return dd.from_pandas(scrambled, npartitions=npartitions)
    return with_row_numbers(dd.from_pandas(df, npartitions=npartitions, sort=False))


@pytest.fixture(scope="module")
def two_workers():
    """A local Dask cluster of two worker processes, shared by the module's Dask tests.

    Its dashboard takes a free port: two test processes may each start one at once.
    """
    pytest.importorskip("dask.dataframe")
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=ledgers(), npartitions=st.integers(1, 3))
def test_dask_equals_ledger_scorer_equals_fixture_scorer(two_workers, data, npartitions):
    from claimlab.metrics.ledger_dask import score_ledger_dask

    rows, units = data
    cand, unit_table = tables(rows, units)
    single = count_ledger(cand, unit_table, by="model").table
    distributed = score_ledger_dask(dask_frame(cand, npartitions), unit_table, by="model")
    assert_fixture_scorer_agrees(distributed.counts.table, rows, units)
    pd.testing.assert_frame_equal(plain(distributed.counts.table), plain(single))


def plain(table):
    """Id columns as plain Python strings (Dask and Arrow choose their own string dtypes)."""
    return table.assign(
        model=table["model"].astype(str).astype(object),
        answer_id=table["answer_id"].astype(str).astype(object),
    ).reset_index(drop=True)


@pytest.mark.slow
def test_dask_two_workers_identical_to_single_machine(two_workers):
    from claimlab.metrics.ledger_dask import score_ledger_dask

    rng = __import__("random").Random(7)
    rows, units = [], []
    for a in range(60):
        k = rng.randint(0, 5)
        units += [{"answer_id": f"a{a:03d}", "unit_id": f"U{j}"} for j in range(1, k + 1)]
        for m in ("m1", "m2"):
            if rng.random() < 0.15:
                continue  # this model skipped this answer: an empty selection
            for c in range(rng.randint(0, 7)):
                pres = [f"U{j}" for j in range(1, k + 1) if rng.random() < 0.3]
                rows.append(
                    {
                        "model": m,
                        "answer_id": f"a{a:03d}",
                        "candidate_id": f"C{c}",
                        "fingerprint": f"f{rng.randint(0, 4)}",
                        "preserves": pres,
                        "faithful": rng.random() < 0.7,
                        "atomic": rng.random() < 0.9,
                        "status": rng.choice(STATUSES),
                    }
                )
    cand, unit_table = tables(rows, units)
    single = count_ledger(cand, unit_table, by="model")
    distributed = score_ledger_dask(dask_frame(cand, 4), unit_table, by="model")
    assert len(two_workers.scheduler_info()["workers"]) == 2
    scrambled = score_ledger_dask(dask_frame(cand, 4, scramble=True), unit_table, by="model")
    pd.testing.assert_frame_equal(plain(scrambled.counts.table), plain(single.table))
    a = single.table.assign(model=single.table["model"].astype(str)).reset_index(drop=True)
    b = distributed.counts.table.reset_index(drop=True)
    cols = [c for c in a.columns if c not in ("model", "answer_id")]
    assert list(a["model"]) == list(b["model"]) and list(a["answer_id"]) == list(b["answer_id"])
    assert (a[cols].to_numpy() == b[cols].to_numpy()).all()
    from claimlab.metrics.ledger import summarise

    assert summarise(single, by="model").to_dict()["by_group"] == distributed.to_dict()["by_group"]


def test_duplicate_ids_across_models_hint_at_by_model(tmp_path):
    """Three decomposers of one answer reuse candidate ids: without --by they collide, and the
    message says what to do; with --by model they are three separate selections."""
    rows = [dict(r) for r in ROWS if r["model"] == "m1"]
    rows += [{**r, "model": "m2"} for r in rows]
    write_all(tmp_path, rows, UNITS)
    with pytest.raises(LedgerError, match="appears twice.*score each decomposer apart with --by"):
        score_ledger(tmp_path / "c.parquet", tmp_path / "u.parquet")
    both = score_ledger(tmp_path / "c.parquet", tmp_path / "u.parquet", by="model")
    assert both.groups["m1"].to_dict()["micro"] == both.groups["m2"].to_dict()["micro"]
    no_model = tmp_path / "one.csv"
    pd.DataFrame([{**r, "preserves": ";".join(r["preserves"])} for r in rows]).drop(
        columns="model"
    ).to_csv(no_model, index=False)
    with pytest.raises(LedgerError) as info:
        score_ledger(no_model, tmp_path / "u.csv")
    assert "appears twice" in str(info.value) and "--by" not in str(info.value)


def factscore_parity(responses, policy):
    """(ledger macro raw support, defined, undefined, answers) and FActScore's own figures."""
    from claimlab.labs.factscore.ledgers import factscore_ledger
    from claimlab.metrics.factscore import score_factscore
    from claimlab.metrics.ledger import summarise

    cand, units = factscore_ledger(responses, policy=policy)
    corpus = summarise(count_ledger(cand, units), by=None).corpus
    macro = corpus.macro["raw_support"]
    fs = score_factscore(responses, name="x", policy=policy, gamma=0)
    return (macro.value, macro.defined, macro.undefined, corpus.answers), (
        fs.init_score,
        fs.scored,
        fs.undefined,
        fs.respond.numerator,
    )


@pytest.mark.parametrize("subject", ["thorough", "brief", "abstainer", "silent"])
def test_factscore_as_a_ledger_gives_init_score_as_macro_raw_support(subject):
    from claimlab.labs.factscore.simulations import simulated_subjects

    ledger_side, factscore_side = factscore_parity(simulated_subjects()[subject], "exclude")
    if factscore_side[0] is None:  # nobody responded: no answer, both N/A
        assert ledger_side == (None, 0, 0, 0) and factscore_side[1:] == (0, 0, 0)
    else:
        assert ledger_side[0] == pytest.approx(factscore_side[0], abs=1e-12)
        assert ledger_side[1:] == factscore_side[1:]


@pytest.mark.realdata
@pytest.mark.parametrize("policy", ["exclude", "unsupported", "paper"])
@pytest.mark.parametrize("subject", ["InstructGPT", "ChatGPT", "PerplexityAI"])
def test_factscore_human_annotations_as_a_ledger(subject, policy):
    """On the paper's human annotations the ledger's macro raw support is FActScore's
    init_score under every policy, with the same scored and undefined counts."""
    from claimlab.io.factscore import load_labelled

    responses = load_labelled(require_data("factscore", f"{subject}.jsonl"))
    ledger_side, factscore_side = factscore_parity(responses, policy)
    assert ledger_side[0] == pytest.approx(factscore_side[0], abs=1e-12)
    assert ledger_side[1:] == factscore_side[1:]


@pytest.mark.realdata
def test_cli_factscore_ledger_dir_then_ledger(tmp_path):
    path = require_data("factscore", "ChatGPT.jsonl")
    proc = run_cli("factscore", path, "--irrelevant", "exclude", "--ledger-dir", tmp_path, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    init = out["files"][0]["init_score"]
    (paths,) = out["ledgers"]
    proc = run_cli("ledger", paths["candidates"], "--units", paths["units"], "--json")
    assert proc.returncode == 0, proc.stderr
    corpus = json.loads(proc.stdout)["corpus"]
    assert corpus["macro"]["raw_support"]["value"] == pytest.approx(init, abs=1e-12)
    assert corpus["answers"] == 157  # the responding responses (26 of 183 abstained)
    assert corpus["micro"]["coverage"]["display"] == "97.4% (1209/1241)"  # sentences checked
