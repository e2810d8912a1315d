"""Notebook 12 under papermill: the SIMULATED history, a store of one's own, a run not there."""

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, run_cli
from tests.labs.ledger.test_release_gate import write_ledger

NB = ROOT / "notebooks" / "12_release_history.ipynb"
pytestmark = pytest.mark.notebook


def test_the_simulated_history_regresses_on_coverage_only(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # the kernel's temporary folder
    run = run_notebook(NB, output_dir=tmp_path)
    assert list(scratch.iterdir()) == []  # the SIMULATED store went with the kernel
    assert [r["command"] for r in run.records["runs"]] == ["ledger"] * 4
    assert [r["release"] for r in run.records["runs"]] == ["1", "2", "3", "4"]
    figures = [r["corpus.micro.coverage"][0] for r in run.records["runs"]]
    assert all(f["low"] <= f["value"] <= f["high"] and f["level"] == 0.95 for f in figures[1:])
    assert figures[0]["low"] is None and "do not vary" in figures[0]["note"]  # 100% everywhere
    gate = {g["metric"]: g for g in run.records["gate"]["gate"]}
    assert (
        gate["coverage"]["verdict"] == "REGRESSED"
        and gate["coverage"]["difference"]["value"] > 0.01
    )
    assert {gate[m]["verdict"] for m in ("preservation", "confirmed_support", "raw_support")} == {
        "PASS"
    }
    assert "SIMULATED" in run.notebook.read_text(encoding="utf-8")


def test_a_store_of_ones_own_two_runs_compared(tmp_path):
    store = tmp_path / "mine.sqlite"
    for name, lost in (("before", set()), ("after", {5})):
        c, u = write_ledger(tmp_path / name, lost)
        run_cli(
            "ledger",
            c,
            "--units",
            u,
            "--out",
            tmp_path / f"{name}.csv",
            "--store",
            store,
            check=True,
        )
    run = run_notebook(
        NB, parameters={"STORE": str(store), "RUN_A": 1, "RUN_B": 2}, output_dir=tmp_path / "out"
    )
    gate = run.records["gate"]
    assert (gate["a"], gate["b"], gate["shared"]) == (1, 2, 600)
    coverage = next(g for g in gate["gate"] if g["metric"] == "coverage")
    assert (
        coverage["difference"]["value"] == pytest.approx(1 / 1800) and coverage["verdict"] == "PASS"
    )
    absent = run_notebook(
        NB, parameters={"STORE": str(store), "RUN_B": 9}, output_dir=tmp_path / "o2"
    )
    assert absent.records["gate"] == {"skipped": "no such run in the store"}


def test_the_simulated_history_shows_which_answers_changed(tmp_path):
    run = run_notebook(NB, output_dir=tmp_path)
    changes = run.records["changes"]
    # release 4 against release 1: answers 0..2 of every twenty lost a unit (3 in 20 of 600)
    assert changes["figure"] == "coverage" and changes["changed"] > 0
    assert [g["change"] for g in changes["groups"]][0].startswith("answer: covered fell")
    assert sum(g["count"] for g in changes["groups"]) == changes["changed"]


def test_two_stored_rag_runs_show_the_claims_that_moved(tmp_path):
    import json

    from tests.labs.rag.test_rag_gate import E, N, greenhouse, write

    doc, _ = greenhouse(n=20, seed=2)
    second = json.loads(json.dumps(doc))
    row = second["results"][4]["response2answer"]
    row[0] = N if row[0] == E else E
    store = tmp_path / "rag.sqlite"
    for name, d in (("a", doc), ("b", second)):
        run_cli("rag", write(tmp_path / f"{name}.json", d), "--store", store, check=True)
    run = run_notebook(NB, parameters={"STORE": str(store), "METRIC": "micro.recall"},
                       output_dir=tmp_path / "out")  # fmt: skip
    changes = run.records["changes"]
    assert [(g["change"], g["count"]) for g in changes["groups"]] == [
        ("ground-truth claim: entailed: " + ("no -> yes" if row[0] == E else "yes -> no"), 1)
    ]
    assert run.records["gate"]["shared"] == 20
