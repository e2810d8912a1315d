"""Notebook 11's checker section: a checker's labels against the file's, table by table."""

import json

from claimlab.labs.rag import views
from claimlab.labs.rag.study import checker_study
from tests.metrics.test_rag import HAND, checked


def test_a_checker_of_ones_own_against_the_files_labels(tmp_path):
    doc = checked([HAND, HAND])
    doc["results"][1]["query_id"] = "<b>q2</b>"
    own = tmp_path / "own.json"
    own.write_text(json.dumps(doc), encoding="utf-8")
    study = checker_study(str(own), "python:tests.checkers.stand_ins:contradicts")
    assert not isinstance(study, str)
    agree = views.agreement_table(study)
    assert agree.loc["answer2response", "agreement"] == "25.0% (2/8)"  # the two Contradictions
    assert agree.loc["retrieved2answer", "agreement"] == "0.0% (0/18)"
    confusion = views.confusion_table(study, "answer2response")
    assert confusion.loc["Entailment", "Contradiction"] == 4 and confusion.values.sum() == 8
    errors = views.error_table(study)
    assert errors.loc["precision", "file's labels"] == "50.0% (4/8)"
    assert errors.loc["precision", "checker's"] == "0.0% (0/8)"
    assert errors.loc["precision", "error"] == "-50.0 points"
    assert study.to_dict()["checker"]["calls"] >= 1
    views.show_checker(study)  # outside a notebook: shown as text, escaped ids and all
    views.show_checker("skipped: no file")


def test_absent_data_is_a_sentence_not_an_error():
    assert "skipped" in checker_study("absent/checking.json")
