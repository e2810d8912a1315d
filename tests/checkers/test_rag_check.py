"""``rag --check``: the four label sets filled by a checker, scored, compared with the file's."""

from __future__ import annotations

import json

import pytest

from claimlab.io.ragchecker import load_checking
from claimlab.tooling.cli import main
from tests.conftest import require_data

TINY = {
    "results": [
        {
            "query_id": "q1",
            "response": "Paris is in France.",
            "gt_answer": "Paris is the capital of France.",
            "response_claims": ["Paris is in France.", "Lyon is big."],
            "gt_answer_claims": ["Paris is the capital of France."],
            "retrieved_context": [
                {"doc_id": "d1", "text": "Paris is the capital of France."},
                {"doc_id": "d2", "text": "Bread."},
            ],
        }
    ]
}


def run(capsys, *args):
    capsys.readouterr()
    code = main([*map(str, args), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_rag_check_fills_every_label_set_in_ragcheckers_words(tmp_path, capsys):
    src, out = tmp_path / "claims.json", tmp_path / "checked.json"
    src.write_text(json.dumps(TINY), encoding="utf-8")
    data = run(capsys, "rag", src, "--check", out, "--checker", "lexical")
    written = json.loads(out.read_text(encoding="utf-8"))["results"][0]
    assert written["answer2response"] == ["Entailment", "Neutral"]
    assert written["response2answer"] == ["Entailment"]
    assert written["retrieved2response"] == [["Entailment", "Neutral"], ["Neutral", "Neutral"]]
    assert written["retrieved2answer"] == [["Entailment", "Neutral"]]
    assert json.loads(out.read_text())["checker"]["name"] == "lexical"
    assert data["micro"]["precision"]["display"] == "50.0% (1/2)"
    # the input had no labels: nothing to agree with, N/A with every item left out
    assert data["agreement_with_file"]["answer2response"]["agreement"]["display"] == "N/A (0/0)"
    assert data["agreement_with_file"]["answer2response"]["left_out"] == 2


@pytest.mark.realdata
def test_rag_check_on_ragcheckers_example_is_scored_and_compared(tmp_path, capsys):
    src = require_data("ragchecker", "checking_outputs.json")
    out = tmp_path / "checked.json"
    data = run(capsys, "rag", src, "--check", out, "--checker", "lexical")
    assert len(load_checking(out).queries) == 2  # the written file is one `rag` reads
    agree = {k: v["agreement"]["display"] for k, v in data["agreement_with_file"].items()}
    assert agree == {
        "answer2response": "68.8% (11/16)",
        "response2answer": "76.7% (23/30)",
        "retrieved2response": "86.4% (51/59)",
        "retrieved2answer": "87.5% (98/112)",
    }
    assert data["checker"]["calls"] == 16 + 30 + 59 + 112


def test_rag_check_names_the_file_it_writes(tmp_path, capsys):
    src = tmp_path / "claims.json"
    src.write_text(json.dumps(TINY), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["rag", str(src), "--check"])
    assert exit_.value.code == 2 and "--check: expected one argument" in capsys.readouterr().err
    # the labelled file is an output: never the input
    assert main(["rag", str(src), "--check", str(src), "--checker", "lexical"]) == 2
    assert "would replace the input" in capsys.readouterr().err


def test_rag_check_and_the_per_query_table_are_two_outputs(tmp_path, capsys):
    src, out, table = tmp_path / "claims.json", tmp_path / "checked.json", tmp_path / "q.csv"
    src.write_text(json.dumps(TINY), encoding="utf-8")
    data = run(capsys, "rag", src, "--check", out, "--checker", "lexical", "--out", table)
    assert out.exists() and data["checker"]["name"] == "lexical"
    rows = table.read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("query_id") and len(rows) == 2  # one query
    assert main(["rag", str(src), "--check", str(table), "--out", str(table)]) == 2
    assert "two outputs" in capsys.readouterr().err


def test_rag_check_with_a_checker_answering_garbage_writes_nothing(tmp_path, capsys):
    src, out = tmp_path / "claims.json", tmp_path / "checked.json"
    src.write_text(json.dumps(TINY), encoding="utf-8")
    garbage = "python:tests.checkers.stand_ins:garbage"
    code = main(["rag", str(src), "--check", str(out), "--checker", garbage, "--no-cache"])
    assert code == 2 and not out.exists()
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    # the second ask: retrieved2response[0][0] is the same claim on the same text as
    # answer2response[0] (the ground truth is chunk d1), so it is not asked again
    assert "item q1:retrieved2response[0][1]: label: unknown label 'PROBABLY'" in err
