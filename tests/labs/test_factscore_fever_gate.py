"""``factscore`` and ``fever`` gated as ``ledger`` and ``rag`` are: --out, --baseline, --margin.

The files are generated (seeded): a FEVER run of 200 claims and a FActScore file of 120
prompts. A release that gets a known set of claims (or facts) wrong drops by an amount a hand
computation gives, and is REGRESSED; an identical release PASSes; lost items fail unless allowed;
the changes list names exactly the items changed.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.tooling.cli import main

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")


def fever_files(n=200, seed=0):
    rng = random.Random(seed)
    gold, pred = [], []
    for i in range(n):
        label = LABELS[i % 3]
        page = f"Harbour_{i}"
        evidence = [] if label == LABELS[2] else [[[i, i, page, 0]]]
        gold.append({"id": i, "label": label, "claim": f"claim {i}", "evidence": evidence})
        right = rng.random() < 0.9
        pred.append({"id": i, "predicted_label": label if right else LABELS[(i + 1) % 3],
                     "predicted_evidence": [[page, 0]] if label != LABELS[2] else []})  # fmt: skip
    return gold, pred


def jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def fever(*args):
    return main(["fever", *map(str, args)])


@pytest.fixture(scope="module")
def fever_runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("fever")
    gold, pred = fever_files()
    worse = json.loads(json.dumps(pred))
    flipped = [p["id"] for p in worse if p["predicted_label"] == LABELS[p["id"] % 3]][:30]
    for p in worse:
        if p["id"] in flipped:
            p["predicted_label"] = LABELS[(p["id"] + 1) % 3]
    g, first = jsonl(d / "gold.jsonl", gold), jsonl(d / "pred.jsonl", pred)
    table = d / "claims.csv"
    assert fever(g, first, "--out", table, "--json") == 0
    return {"dir": d, "gold": g, "first": first, "table": table, "flipped": flipped,
            "worse": jsonl(d / "worse.jsonl", worse), "cut_gold": jsonl(d / "cut.jsonl", gold[10:]),
            "cut_pred": jsonl(d / "cutp.jsonl", pred[10:])}  # fmt: skip


def gate_json(capsys, run, *args):
    capsys.readouterr()
    code = run(*args, "--json", "--bootstrap", "200")
    return code, json.loads(capsys.readouterr().out)


def test_fever_writes_its_per_claim_table_with_every_figures_counts(fever_runs):
    import pandas as pd

    t = pd.read_csv(fever_runs["table"])
    assert len(t) == 200 and list(t.columns[:7]) == [
        "id", "strict_score_numerator", "strict_score_denominator", "label_accuracy_numerator",
        "label_accuracy_denominator", "recall_numerator", "recall_denominator"]  # fmt: skip
    assert t["recall_denominator"].sum() == 134  # SUPPORTS and REFUTES: 2 of every 3 of 200


def test_fever_an_identical_release_passes(fever_runs, capsys):
    r = fever_runs
    code, data = gate_json(capsys, fever, r["gold"], r["first"], "--baseline", r["table"])
    assert code == 0 and data["verdict"] == "PASS" and data["changes"]["changed"] == 0


def test_fever_a_release_with_thirty_more_wrong_labels_is_regressed_by_the_hand_figure(
    fever_runs, capsys, tmp_path
):
    r = fever_runs
    summary = tmp_path / "gate.md"
    code, data = gate_json(capsys, fever, r["gold"], r["worse"], "--baseline", r["table"],
                           "--margin", "0.05", "--summary", summary)  # fmt: skip
    rows = {g["metric"]: g for g in data["gate"]}
    assert code == 1 and rows["label_accuracy"]["verdict"] == "REGRESSED"
    assert rows["label_accuracy"]["difference"]["value"] == pytest.approx(30 / 200)  # 30 labels
    changed = {c["item"] for g in data["changes"]["groups"] for c in g["changes"]}
    assert changed == {str(i) for i in r["flipped"]}
    assert summary.read_text(encoding="utf-8").startswith("## What changed")


def test_fever_lost_claims_fail_unless_allowed(fever_runs, capsys):
    r = fever_runs
    code, data = gate_json(capsys, fever, r["cut_gold"], r["cut_pred"], "--baseline", r["table"])
    assert code == 1 and data["missing"] == 10
    code, data = gate_json(capsys, fever, r["cut_gold"], r["cut_pred"], "--baseline", r["table"],
                           "--allow-missing", "10")  # fmt: skip
    assert code == 0 and data["verdict"] == "PASS"


def test_fever_gate_options_need_a_baseline(fever_runs, capsys):
    r = fever_runs
    assert fever(r["gold"], r["first"], "--margin", "0.1") == 2
    assert "give --baseline TABLE" in capsys.readouterr().err


# --- FActScore ---------------------------------------------------------------------------------


def factscore_rows(n=120, seed=0):
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        facts = [{"text": f"fact {i}.{j}", "label": "S" if rng.random() < 0.7 else "NS"}
                 for j in range(rng.randint(3, 12))]  # fmt: skip
        annotations = [{"text": f"s{i}", "is-relevant": True,
                        "model-atomic-facts": [{"text": f["text"]} for f in facts],
                        "human-atomic-facts": facts}]  # fmt: skip
        rows.append({"input": f"Tell me about lighthouse {i}", "topic": f"Lighthouse {i}",
                     "cat": ["rare"], "annotations": None if i % 17 == 0 else annotations})  # fmt: skip
    return rows


def factscore(*args):
    return main(["factscore", *map(str, args)])


def test_factscore_gates_support_and_respond_ratio_per_prompt(tmp_path, capsys):
    rows = factscore_rows()
    first = jsonl(tmp_path / "Keeper.jsonl", rows)
    table = tmp_path / "prompts.csv"
    assert factscore(first, "--out", table, "--json") == 0
    worse_rows = json.loads(json.dumps(rows))
    hand = 0
    for r in worse_rows[:40]:  # every supported fact of 40 prompts becomes not supported
        for f in r["annotations"] or []:
            for fact in f["human-atomic-facts"]:
                hand += fact["label"] == "S"
                fact["label"] = "NS"
    (tmp_path / "worse").mkdir()
    worse = jsonl(tmp_path / "worse" / "Keeper.jsonl", worse_rows)  # the same subject's name
    code, data = gate_json(capsys, factscore, first, "--baseline", table)
    assert code == 0 and data["verdict"] == "PASS"
    code, data = gate_json(capsys, factscore, worse, "--baseline", table, "--margin", "0.05")
    rows_by = {g["metric"]: g for g in data["gate"]}
    facts = sum(len(f["human-atomic-facts"]) for r in rows for f in r["annotations"] or [])
    assert code == 1 and rows_by["support"]["verdict"] == "REGRESSED"
    assert rows_by["support"]["difference"]["value"] == pytest.approx(hand / facts)
    assert rows_by["respond_ratio"]["verdict"] == "PASS"
    groups = {g["change"]: g["count"] for g in data["changes"]["groups"]}
    moved = sum(1 for r in rows[:40] if r["annotations"] and any(
        f["label"] == "S" for a in r["annotations"] for f in a["human-atomic-facts"]))  # fmt: skip
    assert groups == {"prompt: support_numerator fell": moved}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_property_factscore_table_counts_equal_the_reports_counts(seed):
    import tempfile
    from pathlib import Path

    from claimlab.io.factscore import load_labelled
    from claimlab.metrics.factscore import per_prompt_table, score_factscore

    with tempfile.TemporaryDirectory() as d:
        path = jsonl(Path(d) / "S.jsonl", factscore_rows(n=20, seed=seed))
        r = score_factscore(load_labelled(path), name="S", policy="paper")
    t = per_prompt_table([r])
    assert (t["support_numerator"].sum(), t["support_denominator"].sum()) == (r.supported, r.facts)
    assert t["respond_ratio_numerator"].sum() == r.respond.numerator
    defined = t[t["support_denominator"] > 0]
    assert (defined["support_numerator"] / defined["support_denominator"]).mean() == pytest.approx(
        r.init_score
    )
