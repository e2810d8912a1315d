"""Notebook 10 under papermill: the depth study and the premise cuts on real and own data."""

import json

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, require_data
from tests.test_multihop import MUSIQUE_ROW

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
    text = run.notebook.read_text(encoding="utf-8")
    assert "HotpotQA" in text and "hotpot.json" in text and "this part is skipped" in text
