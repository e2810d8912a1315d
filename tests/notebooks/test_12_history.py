"""Notebook 12 under papermill: the SIMULATED history, a store of one's own, a run not there."""

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT, run_cli
from tests.labs.ledger.test_release_gate import write_ledger

NB = ROOT / "notebooks" / "12_release_history.ipynb"
pytestmark = pytest.mark.notebook


def test_the_simulated_history_regresses_on_coverage_only(tmp_path):
    run = run_notebook(NB, output_dir=tmp_path)
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
