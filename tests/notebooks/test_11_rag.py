"""Notebook 11 under papermill: RAGChecker's example and meta-evaluation, own files, absent data."""

import json

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, require_data
from tests.metrics.test_rag import HAND, checked

NB = ROOT / "notebooks" / "11_rag_diagnostics.ipynb"
pytestmark = pytest.mark.notebook


@pytest.mark.realdata
@pytest.mark.parametrize(("walk", "label"), [(2, "overall_label"), (0, "correctness_label")])
def test_the_example_and_the_meta_evaluation(tmp_path, walk, label):
    require_data("ragchecker", "checking_outputs.json")
    run = run_notebook(
        NB, parameters={"WALK": walk, "LABEL": label, "RESAMPLES": 200}, output_dir=tmp_path
    )
    rag, meta = run.records["rag"], run.records["meta_eval"]
    assert rag["queries"] == 2 and [q["query_id"] for q in rag["per_query"]] == ["0", "1"]
    for m, published in rag["published"].items():
        assert round(100 * rag["macro"][m]["value"], 1) == published
    assert rag["micro"]["precision"]["display"] == "75.0% (12/16)"
    assert meta["instances"] == 280 and meta["resamples"] == 200
    assert meta["labels"]["overall_label"]["pearson"]["value"] == pytest.approx(61.93, abs=0.01)
    text = run.notebook.read_text(encoding="utf-8")
    assert ("longest river in the world" in text) == (walk > 0)  # walked through, or not


def test_own_files_of_another_domain_and_absent_meta_evaluation(tmp_path):
    doc = checked([HAND])
    doc["results"][0].update(query_id="ferry-7", query="Hangi iskeleden kalkıyor?")
    own = tmp_path / "mine.json"
    own.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    run = run_notebook(
        NB,
        parameters={"CHECKING": str(own), "HUMAN": "absent/h.json", "SCORES": "absent/s.json"},
        output_dir=tmp_path / "out",
    )
    rag = run.records["rag"]
    assert [q["query_id"] for q in rag["per_query"]] == ["ferry-7"]
    assert rag["micro"]["noise_sensitivity_in_irrelevant"]["display"] == "25.0% (1/4)"
    assert "this part is skipped" in run.records["meta_eval"]["skipped"]
    text = run.notebook.read_text(encoding="utf-8")
    assert "Hangi iskeleden kalkıyor?" in text and "this part is skipped" in text


def test_a_bad_label_parameter_is_refused_by_name(tmp_path):
    from claimlab.tooling.runner import NotebookFailed

    with pytest.raises(NotebookFailed, match="LABEL must be"):
        run_notebook(
            NB, parameters={"LABEL": "vibes", "CHECKING": "absent/c.json"}, output_dir=tmp_path
        )


@pytest.mark.realdata
def test_a_walked_query_with_no_retrieved_chunk(tmp_path):
    """RAGChecker's example with the first query's chunks removed: the walk shows it, no error."""
    from tests.labs.rag.test_rag_views import without_chunks

    doc = json.loads(require_data("ragchecker", "checking_outputs.json").read_text("utf-8"))
    variant = tmp_path / "no_chunks.json"
    variant.write_text(json.dumps(without_chunks(doc, 0)), encoding="utf-8")
    run = run_notebook(
        NB,
        parameters={"CHECKING": str(variant), "WALK": 2, "HUMAN": "absent/h.json"},
        output_dir=tmp_path / "out",
    )
    rag = run.records["rag"]
    assert rag["per_query"][0]["context_precision"]["display"] == "N/A (0/0)"
    assert rag["per_query"][0]["faithfulness"]["display"] == "0.0% (0/11)"
    assert "No chunk was retrieved for this query" in run.notebook.read_text(encoding="utf-8")
