import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, require_data

NB = ROOT / "notebooks" / "04_factscore.ipynb"
pytestmark = pytest.mark.notebook


@pytest.fixture(scope="session")
def paper_records(tmp_path_factory):
    """One run with the defaults (policy paper, gamma 10), fewer resamples: read by many tests."""
    require_data("factscore", "ChatGPT.jsonl")
    out = tmp_path_factory.mktemp("nb04")
    return run_notebook(NB, parameters={"BOOTSTRAP": 300}, output_dir=out).records


@pytest.mark.realdata
@pytest.mark.parametrize(("gamma", "policy"), [(10, "paper"), (0, "exclude")])
def test_notebook_records(tmp_path, gamma, policy, request):
    require_data("factscore", "ChatGPT.jsonl")
    if (gamma, policy) == (10, "paper"):
        rec = request.getfixturevalue("paper_records")
    else:
        rec = run_notebook(
            NB,
            parameters={"GAMMA": gamma, "IRRELEVANT_POLICY": policy, "BOOTSTRAP": 300},
            output_dir=tmp_path,
        ).records
    for name, paper in (("InstructGPT", 42.5), ("ChatGPT", 58.3), ("PerplexityAI", 71.5)):
        assert abs(100 * rec["human"][f"{name}|paper|0"]["factscore"] - paper) <= 0.15
        assert rec["chosen"][name]["policy"] == policy and rec["chosen"][name]["gamma"] == gamma
    assert rec["human"]["ChatGPT|paper|0"]["respond_ratio"]["display"] == "85.8% (157/183)"
    assert (
        rec["simulated"]["silent"]["γ = 0"]["display"]
        == "N/A (no scored response; respond 0.0% (0/10))"
    )
    assert rec["penalty"]["10"] == 1.0 and rec["penalty"]["11"] == 1.0
    very_rare = rec["rarity"]["ChatGPT"]["very rare"]["respond_ratio"]
    assert very_rare["denominator"] > 0
    assert rec["factcheck_gpt"]["counts"] == {"true": 472, "false": 159, "unknown": 47}
    assert set(rec["estimators"]) == {"0.05", "0.2", "0.4"}


def test_absent_data_still_runs_the_simulated_parts(tmp_path):
    rec = run_notebook(
        NB,
        parameters={"DATA_DIR": "nowhere", "FACTCHECK_GPT": "nowhere.jsonl"},
        output_dir=tmp_path,
    ).records
    assert rec["human"] == {} and rec["chosen"] == {}
    assert rec["simulated"]["abstainer"]["γ = 0"]["respond_ratio"]["display"] == "20.0% (2/10)"
    assert "not found" in rec["factcheck_gpt"]["skipped"]


@pytest.mark.realdata
def test_uncertainty_sections_on_the_human_annotations(paper_records):
    rec = paper_records
    u = rec["uncertainty"]
    fs = next(c for c in u["comparisons"] if c["metric"] == "factscore")
    assert (fs["a"], fs["b"], fs["shared"]) == ("ChatGPT", "InstructGPT", 183)
    assert fs["difference"]["low"] < fs["difference"]["value"] < fs["difference"]["high"]
    # the unpaired interval on the same data is wider than the paired one
    paired = fs["difference"]["high"] - fs["difference"]["low"]
    assert u["unpaired"]["high"] - u["unpaired"]["low"] > paired
    # per-claim intervals (facts independent) are narrower than clustered ones
    for name in ("ChatGPT", "InstructGPT", "PerplexityAI"):
        pc, cl = u["per_claim"][name], u["clustered"][name]["micro_precision"]
        assert pc["high"] - pc["low"] < cl["high"] - cl["low"]
    assert u["ranking"]["order"] == ["PerplexityAI", "ChatGPT", "InstructGPT"]
    assert rec["ppi"]["covered"]["naive"] < rec["ppi"]["covered"]["ppi"]


@pytest.mark.realdata
def test_error_by_position_and_fact_revisions_for_the_three_subjects(paper_records):
    rec = paper_records
    pr = rec["position_and_revisions"]
    assert set(pr["error_by_position"]) == {"InstructGPT", "ChatGPT", "PerplexityAI"}
    for name, buckets in pr["error_by_position"].items():
        first, last = buckets[0]["unsupported"], buckets[-1]["unsupported"]
        assert first["denominator"] > 0 and last["value"] > first["value"], name  # later: worse
        rev = pr["fact_revisions"][name]
        assert rev["model_facts"] > rev["human_facts"] > 0
        assert rev["kept_verbatim"]["numerator"] < rev["human_facts"]


@pytest.mark.realdata
def test_the_rarity_gap_to_the_papers_text_is_measured(paper_records):
    rec = paper_records
    very_rare = rec["rarity_gap"]["ChatGPT"]["very rare"]
    # as defined (mean over scored responses) 26.2; with the 14 abstentions of 37 as 0, 16.3:
    # the paper's "about 16"
    assert round(100 * very_rare["factscore"], 1) == 26.2
    assert round(100 * very_rare["abstentions_as_zero"], 1) == 16.3
    assert very_rare["respond"]["display"] == "62.2% (23/37)"


@pytest.mark.realdata
def test_the_offline_estimator_section_records_its_error_rate_and_correction(paper_records):
    offline = paper_records["offline_estimator"]
    assert offline["checker"]["kind"] == "lexical" and offline["checker"]["labelled_share"] == 0.25
    by = {s["name"]: s for s in offline["systems"]}
    assert set(by) == {"InstructGPT", "ChatGPT", "PerplexityAI"}
    for s in by.values():
        assert s["error_rate_points"] == round(100 * (s["estimated"] - s["human"]), 2)
        ppi = s["prediction_powered"]["ppi"]
        assert ppi["low"] <= s["human_without_length_penalty"] <= ppi["high"]
    assert offline["ranking"]["ranking_kept"] is False
