"""Notebook 10 under papermill: the depth study and the premise cuts on real and own data."""

import json

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, require_data
from tests.io.test_multihop import MUSIQUE_ROW

NB = ROOT / "notebooks" / "10_retrieval_depth.ipynb"
pytestmark = pytest.mark.notebook


@pytest.mark.realdata
def test_depth_study_on_musique_and_hotpotqa(tmp_path):
    require_data("musique", "hipporag_musique_ans_train_100.json")
    rec = run_notebook(NB, parameters={"K": [2, 5, 10]}, output_dir=tmp_path).records
    for name in ("musique", "hotpotqa"):
        rows = rec[f"depth_{name}"]
        oracle = next(r for r in rows if r["query"] == "oracle")
        assert oracle["sufficient"]["display"] == "100.0% (100/100)"
        assert [r["k"] for r in rows if r["query"] == "question"] == [2, 5, 10]
    assert rec["cases"]["MuSiQue"]["failed"] == 0 and rec["cases"]["HotpotQA"]["failed"] == 0
    # the lexical reader, scored the official way: every figure over all 100 questions
    hot, mus = rec["official_hotpotqa"], rec["official_musique"]
    assert hot["counts"]["questions"] == 100 and hot["counts"]["missing_answer"] == 0
    assert all(hot["figures"][m]["count"] == 100 for m in ("em", "sp_f1", "joint_f1"))
    assert 0 <= hot["joint_f1"] <= min(hot["f1"], hot["sp_f1"]) + 1e-9
    assert mus["counts"] == {"records": 100, "answerable": 100, "unanswerable": 0}
    assert set(mus) >= {"answer_f1", "answer_em", "support_f1"}
    for calibrated, shifted in (("musique", "HotpotQA"), ("hotpotqa", "MuSiQue")):
        study = rec[f"sufficient_context_{calibrated}"]
        assert study["shifted_to"] == shifted and study["target_accuracy"] == 0.8
        assert sum(study["questions"][s] for s in ("calibration", "held-out")) == 100
        assert study["questions"]["shifted"] == 100
        by = {m["scorer"]: m for m in study["methods"]}
        assert set(by) == {"confidence", "sufficient-then-confidence", "logistic"}
        for m in by.values():
            cal = m["at_threshold"]["calibration"]
            if m["threshold"] is not None:  # chosen on calibration: the target is met there
                assert cal["accuracy"]["value"] >= 0.8
            for split in ("held-out", "shifted"):
                row = m["at_threshold"][split]
                assert row["coverage"]["denominator"] == study["questions"][split]
                drop = m["drop_points"][split]
                if row["accuracy"]["value"] is None or cal["accuracy"]["value"] is None:
                    assert drop is None
                else:
                    want = 100 * (cal["accuracy"]["value"] - row["accuracy"]["value"])
                    assert drop == round(want, 1)


def test_own_multihop_file_and_absent_data(tmp_path):
    own = tmp_path / "mine.json"
    own.write_text(json.dumps([MUSIQUE_ROW]), encoding="utf-8")
    run = run_notebook(
        NB,
        parameters={"MUSIQUE": str(own), "HOTPOTQA": "absent/hotpot.json", "K": [1, 2]},
        output_dir=tmp_path / "out",
    )
    rows = run.records["depth_musique"]
    assert (
        next(r for r in rows if r["query"] == "oracle")["sufficient"]["display"] == "100.0% (1/1)"
    )
    # one question cannot calibrate a threshold: said so, the notebook goes on
    assert "right and wrong answers" in run.records["sufficient_context_musique"]["skipped"]
    text = run.notebook.read_text(encoding="utf-8")
    assert "HotpotQA" in text and "hotpot.json" in text and "this part is skipped" in text
