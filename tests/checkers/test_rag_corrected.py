"""``rag --check``: the checker's figures corrected by the file's own labels on a sample.

The file's labels play the people's part on a seeded share of the queries (a hash of the
query id); each micro figure is prediction-powered (Angelopoulos et al. 2023), checked here
against the formula written out again.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.io.ragchecker import load_checking
from claimlab.labs.rag.check import corrected_figures
from claimlab.metrics.rag import score_rag
from claimlab.metrics.stats.prediction_powered import is_labelled
from tests.checkers.test_rag_check import run

E, N, C = "Entailment", "Neutral", "Contradiction"


def greenhouse(queries: int, seed: int, prefix: str = "serre") -> dict:
    """A checking output of another domain (Turkish greenhouse notes), labels drawn at random."""
    rng = random.Random(seed)
    pick = lambda *w: rng.choice(w)  # noqa: E731
    rows = []
    for i in range(queries):
        rows.append({
            "query_id": f"{prefix}-{i}", "query": f"Sera {i} kaç derece?",
            "gt_answer": f"Sera {i} 12 derece tutulur. Sulama günde iki kez.",
            "response": f"Sera {i} 12 derecede tutulur ve günde iki kez sulanır.",
            "retrieved_context": [
                {"doc_id": "d0", "text": f"Sera {i} 12 derece tutulur."},
                {"doc_id": "d1", "text": f"Sera {i}: sulama günde iki kez yapılır."},
            ],
            "response_claims": [f"Sera {i} 12 derece tutulur.", f"Sera {i} günde iki kez sulanır.",
                                f"Sera {i} gece ısıtılır."],
            "gt_answer_claims": [f"Sera {i} 12 derece tutulur.", f"Sera {i}: sulama günde iki kez."],
            "answer2response": [pick(E, E, N, C) for _ in range(3)],
            "response2answer": [pick(E, N) for _ in range(2)],
            "retrieved2response": [[pick(E, N) for _ in range(2)] for _ in range(3)],
            "retrieved2answer": [[pick(E, N) for _ in range(2)] for _ in range(2)],
        })  # fmt: skip
    return {"results": rows}


def _by_hand(file_counts, checker_counts, labelled, z):
    """The micro prediction-powered ratio, from the paper's estimator written out again."""
    lab = np.array(labelled)
    yn, yd = (np.array(x, float)[lab] for x in file_counts)
    hn, hd = (np.array(x, float)[lab] for x in checker_counts)
    un, ud = (np.array(x, float)[~lab] for x in checker_counts)
    mu_n = un.mean() - (hn - yn).mean()
    mu_d = ud.mean() - (hd - yd).mean()
    theta = mu_n / mu_d
    g_u, g = (un - theta * ud) / mu_d, ((hn - theta * hd) - (yn - theta * yd)) / mu_d
    se = np.sqrt(g_u.var(ddof=1) / un.size + g.var(ddof=1) / yn.size)
    return theta, max(0.0, theta - z * se), min(1.0, theta + z * se)  # a share: within [0, 1]


def test_the_corrected_figures_equal_the_estimator_written_out(tmp_path, capsys):
    src, out = tmp_path / "serre.json", tmp_path / "checked.json"
    src.write_text(json.dumps(greenhouse(40, 3), ensure_ascii=False), encoding="utf-8")
    data = run(capsys, "rag", src, "--check", out, "--checker", "lexical", "--no-cache",
               "--labelled", "0.3", "--seed", "7")  # fmt: skip
    corrected = data["corrected_with_file_labels"]
    assert (corrected["share"], corrected["seed"], corrected["level"]) == (0.3, 7, 0.9)
    on_file, on_checker = score_rag(load_checking(src)), score_rag(load_checking(out))
    ids = [q.query_id for q in on_file.per_query]
    labelled = [is_labelled(i, 0.3, 7) for i in ids]
    for m in ("precision", "claim_recall", "hallucination"):
        counts = [
            ([q.ratios[m].numerator for q in r.per_query],
             [q.ratios[m].denominator for q in r.per_query])
            for r in (on_file, on_checker)
        ]  # fmt: skip
        theta, lo, hi = _by_hand(*counts, labelled, 1.6448536269514722)
        got = corrected["figures"][m]
        assert got["labelled"] == sum(labelled) and got["unlabelled"] == 40 - sum(labelled)
        assert (got["ppi"]["value"], got["ppi"]["low"], got["ppi"]["high"]) == pytest.approx(
            (theta, lo, hi), abs=1e-12
        )
        assert got["naive_autorater"]["value"] == pytest.approx(on_checker.micro[m].value)
    assert "f1" not in corrected["figures"]  # no ratio of per-query counts


def test_a_file_without_labels_has_nothing_to_correct_with(tmp_path, capsys):
    from tests.checkers.test_rag_check import TINY

    src, out = tmp_path / "claims.json", tmp_path / "checked.json"
    src.write_text(json.dumps(TINY), encoding="utf-8")
    data = run(capsys, "rag", src, "--check", out, "--checker", "lexical", "--no-cache")
    assert data["corrected_with_file_labels"] == {
        "reason": "the file carries no labels of its own: nothing to correct with"
    }


def test_too_few_queries_on_one_side_is_na_with_the_reason():
    report = score_rag_of(greenhouse(3, 1))
    got = corrected_figures(report, report, share=1.0, seed=0)["figures"]["precision"]
    assert got["labelled"] == 3 and got["unlabelled"] == 0 and "two or more" in got["reason"]


def score_rag_of(doc, tmp=None):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "c.json"
        p.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        return score_rag(load_checking(p))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 50))
def test_a_checker_that_agrees_with_the_file_is_not_corrected(seed, shuffle):
    """Invariant: with the checker's labels equal to the file's, the correction is nothing: the
    corrected figure is the checker's own ratio over the queries it alone labels (the estimator
    reads the labelled queries only for the checker's error), whatever the queries' order."""
    doc = greenhouse(12, seed, prefix=f"q{shuffle}")
    random.Random(shuffle).shuffle(doc["results"])
    report = score_rag_of(doc)
    figures = corrected_figures(report, report, share=0.5, seed=seed)["figures"]
    alone = [not is_labelled(q.query_id, 0.5, seed) for q in report.per_query]
    for m, f in figures.items():
        if "reason" in f or f["ppi"]["value"] is None:
            continue
        ratios = [q.ratios[m] for q, a in zip(report.per_query, alone, strict=True) if a]
        want = sum(r.numerator for r in ratios) / sum(r.denominator for r in ratios)
        assert f["ppi"]["value"] == pytest.approx(want, abs=1e-12), m


def test_the_gate_holds_a_figure_on_the_majority_labels(tmp_path, capsys):
    """With --repeats, the labels written (and so the per-query table the gate reads) are each
    item's majority over the repeats; one sample of the same flipping checker regresses."""
    import csv

    from claimlab.tooling.cli import main
    from tests.checkers.stand_ins import draw

    src = tmp_path / "serre.json"
    src.write_text(json.dumps(greenhouse(40, 5), ensure_ascii=False), encoding="utf-8")
    flipper = "python:tests.checkers.stand_ins:Flipper"
    common = ["--checker", flipper, "--no-cache", "--repeats", "5"]
    run(capsys, "rag", src, "--check", tmp_path / "a.json", *common, "--out", tmp_path / "a.csv")
    rows = list(csv.DictReader((tmp_path / "a.csv").open(encoding="utf-8")))
    for row in rows:  # precision: response claims the answer entails, by majority of 5
        q = row["query_id"]
        ids = [f"{q}:answer2response[{n}]" for n in range(3)]
        held = sum(sum(draw(7, i, r) < 0.2 for r in range(5)) <= 2 for i in ids)
        assert (int(row["precision_numerator"]), int(row["precision_denominator"])) == (held, 3), q
    again = [*common, "--baseline", tmp_path / "a.csv", "--gate-figures", "precision"]
    data = run(capsys, "rag", src, "--check", tmp_path / "b.json", *again)
    assert data["verdict"] == "PASS"
    once = ["--checker", flipper, "--no-cache", "--baseline", str(tmp_path / "a.csv"),
            "--gate-figures", "precision"]  # fmt: skip
    code = main(["rag", str(src), "--check", str(tmp_path / "c.json"), *once, "--json"])
    gate = json.loads(capsys.readouterr().out)
    assert code == 1 and gate["verdict"] == "FAIL"
    assert [(r["metric"], r["verdict"]) for r in gate["gate"]] == [("precision", "REGRESSED")]


def test_check_corrects_raw_support_by_the_files_own_statuses(tmp_path, capsys):
    """``claimlab check``: raw support over every candidate, from the checker's labels,
    corrected by the file's statuses on the candidates a seeded hash picks (by hand below)."""
    from claimlab.io.decomposition import load_decomposition
    from tests.conftest import FIXTURES

    out = tmp_path / "labelled.json"
    src = FIXTURES / "atlas_nova.json"
    data = run(capsys, "check", src, "--out", out, "--checker", "lexical", "--no-cache",
               "--labelled", "0.5", "--seed", "3")  # fmt: skip
    c = data["corrected_with_file_labels"]
    fx, checked = load_decomposition(src), load_decomposition(out)
    keys = [x.id for x in fx.candidates]
    lab = np.array([is_labelled(k, 0.5, 3) for k in keys])
    y = np.array([x.evidence.status.value == "SUPPORTED" for x in fx.candidates], float)
    yhat = np.array([x.evidence.status.value == "SUPPORTED" for x in checked.candidates], float)
    assert (c["labelled"], c["unlabelled"]) == (int(lab.sum()), int((~lab).sum()))
    want = yhat[~lab].mean() - (yhat[lab] - y[lab]).mean()  # the same denominators (one each)
    assert c["ppi"]["value"] == pytest.approx(want, abs=1e-12)
    assert 0.0 <= (c["ppi"]["low"] or 0.0) <= (c["ppi"]["high"] or 1.0) <= 1.0
    assert c["naive_autorater"]["value"] == pytest.approx(yhat.mean())
