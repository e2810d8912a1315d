"""The commands as a user runs them: rag, meta-eval, hotpotqa and musique on real data and bad files."""

import json

import pytest

from tests.conftest import require_data, run_cli
from tests.metrics.test_rag import HAND, checked


@pytest.mark.realdata
def test_rag_json_gives_every_metric_per_query_and_overall():
    path = require_data("ragchecker", "checking_outputs.json")
    data = json.loads(run_cli("rag", path, "--json", check=True).stdout)
    original = json.loads(path.read_text(encoding="utf-8"))
    assert data["queries"] == 2 and len(data["per_query"]) == 2
    for ours, theirs in zip(data["per_query"], original["results"], strict=True):
        for m, v in theirs["metrics"].items():
            assert ours[m]["value"] == pytest.approx(v, abs=1e-12), m
    for part in original["metrics"].values():
        for m, v in part.items():
            assert round(100 * data["macro"][m]["value"], 1) == v
            assert data["macro"][m]["queries"] == 2 and data["macro"][m]["left_out"] == 0
    assert data["micro"]["precision"]["numerator"] == 12


@pytest.mark.realdata
def test_meta_eval_prints_the_published_figures_with_intervals():
    human = require_data("ragchecker", "human_labeled_data.json")
    scores = require_data("ragchecker", "baseline_ragchecker.json")
    proc = run_cli("meta-eval", human, scores, "--bootstrap", "300", check=True)
    assert "ragchecker vs people   Pearson 49.66 [" in proc.stdout
    assert "people vs people   Pearson 71.91 [" in proc.stdout
    assert "Spearman 58.09 [" in proc.stdout and "Spearman 46.94 [" in proc.stdout
    fractions = run_cli("meta-eval", human, scores, "--bootstrap", "100", "--score-scale", "1")
    assert "Spearman 58.11 [" in fractions.stdout  # the released fractions' own near-ties
    refused = run_cli("meta-eval", human, scores, "--score-scale", "0")
    assert refused.returncode == 2 and "--score-scale: must be above 0" in refused.stderr
    data = json.loads(run_cli("meta-eval", human, scores, "--json", "--bootstrap", "300").stdout)
    assert (data["instances"], data["judgments"], data["scale"]) == (280, 560, 100.0)
    overall = data["labels"]["overall_label"]
    assert overall["spearman"]["value"] == pytest.approx(60.90, abs=0.01)
    assert overall["human_human"]["spearman"]["value"] == pytest.approx(68.89, abs=0.01)
    assert overall["pearson"]["low"] < overall["pearson"]["value"] < overall["pearson"]["high"]


@pytest.mark.realdata
def test_official_scorers_on_the_lexical_readers_predictions(tmp_path):
    from claimlab.io.official import load_hotpot_gold, load_musique_gold
    from claimlab.labs.retrieval.reader import hotpot_predictions, musique_predictions

    hgold = require_data("hotpotqa", "hipporag_hotpotqa_train_100_distractor.json")
    mgold = require_data("musique", "hipporag_musique_ans_train_100.json")
    hp = tmp_path / "hotpot_pred.json"
    hp.write_text(json.dumps(hotpot_predictions(load_hotpot_gold(hgold))), encoding="utf-8")
    mp = tmp_path / "musique_pred.jsonl"
    rows = musique_predictions(load_musique_gold(mgold))
    mp.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    hot = json.loads(run_cli("hotpotqa", hgold, hp, "--json", check=True).stdout)
    assert set(hot) >= {"em", "f1", "prec", "recall", "sp_em", "sp_f1", "joint_em", "joint_f1"}
    assert hot["counts"]["questions"] == 100
    mus = json.loads(run_cli("musique", mgold, mp, "--json", check=True).stdout)
    assert mus["counts"]["answerable"] == 100 and "group_answer_sufficiency_f1" not in mus
    text = run_cli("musique", mgold, mp, check=True).stdout
    assert "support_f1" in text and "(mean of 100)" in text


def write(tmp_path, doc):
    path = tmp_path / "checked.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda q: q["answer2response"].__setitem__(0, "Entailed"), "answer2response[0]"),
        (lambda q: q["retrieved2response"][1].pop(), "retrieved2response[1]"),
        (lambda q: q["retrieved2answer"].pop(), "retrieved2answer"),
        (lambda q: q.pop("response2answer"), "response2answer"),
        (lambda q: q["response_claims"].append(7), "response_claims[4]"),
    ],
    ids=["bad-label", "ragged-row", "missing-row", "missing-field", "bad-claim"],
)
def test_bad_checking_output_is_one_line_naming_query_and_field(tmp_path, mutate, field):
    doc = checked([HAND])
    mutate(doc["results"][0])
    proc = run_cli("rag", write(tmp_path, doc))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "query q0" in proc.stderr and f": {field}:" in proc.stderr


def test_meta_eval_refuses_a_pair_judged_once(tmp_path):
    human = tmp_path / "h.json"
    human.write_text(
        json.dumps(
            [
                {
                    "instance_id": 0,
                    "correctness_label": 1,
                    "completeness_label": 0,
                    "overall_label": 2,
                }
            ]
        )
    )
    scores = tmp_path / "s.json"
    scores.write_text(
        json.dumps([{"instance_id": 0, "model1": {"ragchecker": {}}, "model2": {"ragchecker": {}}}])
    )
    proc = run_cli("meta-eval", human, scores)
    assert proc.returncode == 2 and "judged once" in proc.stderr and "h.json" in proc.stderr


def test_musique_names_the_predictions_file_when_a_record_has_none(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "answer": "x", "paragraphs": []}) + "\n")
    pred = tmp_path / "p.jsonl"
    pred.write_text(
        json.dumps({"id": "b", "predicted_answer": "x", "predicted_support_idxs": []}) + "\n"
    )
    proc = run_cli("musique", gold, pred)
    assert (
        proc.returncode == 2 and "p.jsonl" in proc.stderr and "'a' has no prediction" in proc.stderr
    )
    assert f"the gold file is {gold}" in proc.stderr  # a pairing problem is between both files
    assert proc.stderr.count("\n") == 1
