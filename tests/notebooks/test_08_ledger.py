import pyarrow.parquet as pq
import pytest

from claimlab.ledger import demo_ledger
from claimlab.runner import run_notebook
from tests.conftest import ROOT

NB = ROOT / "notebooks" / "08_your_ledger.ipynb"
pytestmark = pytest.mark.notebook


def test_demo_ledger_shows_each_habit(tmp_path):
    rec = run_notebook(NB, output_dir=tmp_path).records
    g = rec["result"]["by_group"]
    assert g["drops-hard"]["micro"]["confirmed_support"]["display"].startswith("100.0%")
    assert g["drops-hard"]["micro"]["coverage"]["value"] < 0.7
    assert g["drops-hard"]["answers_without_candidates"] > 0
    assert g["adds-claims"]["micro"]["preservation"]["value"] < 1.0
    assert g["faithful"]["micro"]["coverage"]["display"].startswith("100.0%")
    assert rec["perfect_support_low_coverage"] > 0


def test_own_ledger_without_grouping(tmp_path):
    cand, units = demo_ledger(20, seed=3)
    import pyarrow.compute as pc

    one = cand.filter(pc.equal(cand.column("model"), "faithful")).drop(["model"])
    pq.write_table(one, tmp_path / "c.parquet")
    pq.write_table(units, tmp_path / "u.parquet")
    rec = run_notebook(
        NB,
        parameters={
            "CANDIDATES": str(tmp_path / "c.parquet"),
            "UNITS": str(tmp_path / "u.parquet"),
            "BY": "",
        },
        output_dir=tmp_path / "out",
    ).records
    assert rec["result"]["by_group"] == {}
    assert rec["result"]["corpus"]["answers"] == 20
