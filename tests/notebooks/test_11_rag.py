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
    checker = run.records["checker"]  # the offline checker against RAGChecker's own labels
    assert {k: v["agreement"]["display"] for k, v in checker["agreement_with_file"].items()} == {
        "answer2response": "68.8% (11/16)",
        "response2answer": "76.7% (23/30)",
        "retrieved2response": "86.4% (51/59)",
        "retrieved2answer": "87.5% (98/112)",
    }
    assert checker["micro"]["precision"]["file"]["display"] == "75.0% (12/16)"
    text = run.notebook.read_text(encoding="utf-8")
    assert ("longest river in the world" in text) == (walk > 0)  # walked through, or not


OWN_CHECKER = """
def check(items):  # the user's own judge: every claim contradicted
    return ["CONTRADICTED" for _ in items]
"""


def test_own_files_of_another_domain_and_absent_meta_evaluation(tmp_path, monkeypatch):
    doc = checked([HAND])
    doc["results"][0].update(query_id="ferry-7", query="Hangi iskeleden kalkıyor?")
    own = tmp_path / "mine.json"
    own.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "ferry_judge.py").write_text(OWN_CHECKER, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # the kernel imports the user's module
    run = run_notebook(
        NB,
        parameters={
            "CHECKING": str(own), "HUMAN": "absent/h.json", "SCORES": "absent/s.json",
            "CHECKER": "python:ferry_judge:check",
        },
        output_dir=tmp_path / "out",
    )  # fmt: skip
    checker = run.records["checker"]  # by hand: only the file's one Contradiction agrees
    assert checker["checker"]["name"] == "python:ferry_judge:check"
    assert {k: v["agreement"]["display"] for k, v in checker["agreement_with_file"].items()} == {
        "answer2response": "25.0% (1/4)",
        "response2answer": "0.0% (0/3)",
        "retrieved2response": "0.0% (0/12)",
        "retrieved2answer": "0.0% (0/9)",
    }
    precision = checker["micro"]["precision"]  # no response claim entailed by the answer now
    assert (precision["file"]["display"], precision["checker"]["display"]) == (
        "50.0% (2/4)", "0.0% (0/4)",
    )  # fmt: skip
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
    from tests.labs.rag.test_views import without_chunks

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
