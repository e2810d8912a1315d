import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, require_data

NB = ROOT / "notebooks" / "03_witnesses_on_real_data.ipynb"
pytestmark = pytest.mark.notebook


@pytest.mark.realdata
def test_default_run_reproduces_official_fever_and_reads_wice(tmp_path):
    require_data("fever", "paper_dev.jsonl")
    require_data("wice", "wice_claim_test.jsonl")
    rec = run_notebook(NB, output_dir=tmp_path).records
    f = rec["fever"]
    assert abs(f["strict_score"] - 0.32573257325732574) <= 1e-12
    assert abs(f["label_accuracy"] - 0.5208520852085209) <= 1e-12
    assert abs(f["precision"] - 0.1043804380438068) <= 1e-12
    assert abs(f["recall"] - 0.44224422442244227) <= 1e-12
    assert abs(f["f1"] - 0.1688970477815144) <= 1e-12
    assert f["counts"]["one_sentence_away"] == sum(1 for _ in range(0)) + f["fewest_missing"]["1"]
    # recall can only grow with more predicted sentences
    recalls = [f["sweep_max_evidence"][str(k)]["recall"]["numerator"] for k in range(1, 6)]
    assert recalls == sorted(recalls)
    assert rec["wice"]["claims"] == 358 and rec["wice"]["empty_supporting_sets_dropped"] == 32


@pytest.mark.realdata
def test_limit_scores_the_first_claims(tmp_path):
    require_data("fever", "paper_dev.jsonl")
    rec = run_notebook(
        NB, parameters={"LIMIT": 100, "MAX_EVIDENCE": 3}, output_dir=tmp_path
    ).records
    assert rec["fever"]["counts"]["claims"] == 100
    assert rec["fever"]["max_evidence"] == 3


def test_absent_data_is_skipped_with_a_message(tmp_path):
    rec = run_notebook(
        NB,
        parameters={"GOLD": "nowhere/gold.jsonl", "WICE": "nowhere/wice.jsonl"},
        output_dir=tmp_path,
    ).records
    assert "FEVER gold: 'nowhere/gold.jsonl' not found" in rec["fever"]["skipped"]
    assert "this part is skipped" in rec["wice"]["skipped"]
