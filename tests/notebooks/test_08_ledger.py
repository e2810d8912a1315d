import pyarrow.parquet as pq
import pytest

from claimlab.labs.ledger.demo import demo_ledger
from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, require_data

NB = ROOT / "notebooks" / "08_your_ledger.ipynb"
pytestmark = pytest.mark.notebook


def test_demo_ledger_shows_each_habit(tmp_path):
    rec = run_notebook(NB, output_dir=tmp_path).records
    g = rec["result"]["by_group"]
    assert g["drops-hard"]["micro"]["confirmed_support"]["display"].startswith("100.0%")
    assert g["drops-hard"]["micro"]["coverage"]["value"] < 0.7
    assert g["drops-hard"]["answers_without_candidates"] > 0
    assert g["adds-claims"]["micro"]["preservation"]["value"] < 1.0
    assert g["faithful"]["micro"]["coverage"]["display"].startswith("100.0%")
    assert rec["perfect_support_low_coverage"] > 0


def test_own_ledger_without_grouping(tmp_path):
    cand, units = demo_ledger(20, seed=3)
    import pyarrow.compute as pc

    one = cand.filter(pc.equal(cand.column("model"), "faithful")).drop(["model"])
    pq.write_table(one, tmp_path / "c.parquet")
    pq.write_table(units, tmp_path / "u.parquet")
    rec = run_notebook(
        NB,
        parameters={
            "CANDIDATES": str(tmp_path / "c.parquet"),
            "UNITS": str(tmp_path / "u.parquet"),
            "BY": "",
        },
        output_dir=tmp_path / "out",
    ).records
    assert rec["result"]["by_group"] == {}
    assert rec["result"]["corpus"]["answers"] == 20


@pytest.mark.realdata
def test_factscore_annotations_as_ledgers_reproduce_init_scores(tmp_path):
    require_data("factscore", "ChatGPT.jsonl")
    rec = run_notebook(NB, parameters={"FACTSCORE_POLICY": "paper"}, output_dir=tmp_path).records
    real = rec["factscore_ledgers"]
    # FActScore init_score under the paper's IR convention (the human table, without the penalty)
    expected = {
        "InstructGPT": 0.425758336465452,
        "ChatGPT": 0.582771523739219,
        "PerplexityAI": 0.7161602306474767,
    }
    for name, value in expected.items():
        assert abs(real[name]["macro"]["raw_support"]["value"] - value) <= 1e-12, name
    assert real["PerplexityAI"]["micro"]["coverage"]["display"] == "99.9% (1623/1625)"
    assert real["ChatGPT"]["answers"] == 157  # 26 of 183 prompts abstained: not answers


def test_factscore_section_skips_when_the_data_is_absent(tmp_path):
    result = run_notebook(NB, parameters={"FACTSCORE": "no/such/folder"}, output_dir=tmp_path)
    assert result.records["factscore_ledgers"] == {}
    executed = (tmp_path / "08_your_ledger.ipynb").read_text(encoding="utf-8")
    assert "Skipped:" in executed and "no/such/folder" in executed


def test_intervals_and_paired_comparisons_of_the_demo_ledger(tmp_path):
    rec = run_notebook(NB, parameters={"BOOTSTRAP": 300}, output_dir=tmp_path).records
    ci = rec["intervals"]["faithful"]["micro/confirmed_support"]
    assert ci["resamples"] == 300 and ci["clusters"] == 400 and ci["low"] < ci["high"]
    comps = rec["comparisons"]
    assert len(comps) == 3 * 8
    # drops-hard left 31 answers without a row: they pair for coverage (0 of their units) and
    # are counted apart, as N/A on one side, by every figure over candidates
    with_drops = [c for c in comps if "drops-hard" in (c["a"], c["b"])]
    assert all(c["only_a"] == c["only_b"] == 0 for c in with_drops)
    assert {c["shared"] for c in with_drops if c["metric"] == "coverage"} == {400}
    assert all(
        (c["shared"], c["undefined"]) == (369, 31) for c in with_drops if c["metric"] != "coverage"
    )
    assert all(c["p_adjusted"] >= c["p_value"] for c in comps)
