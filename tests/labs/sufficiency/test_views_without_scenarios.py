"""The sufficiency tables on a valid file with no ``scenarios``: headers and no row, never a
``KeyError`` for want of the column to index by (notebook 02 ended at its selective table)."""

from __future__ import annotations

import json

import pytest

from claimlab.io.sufficiency import load_sufficiency
from claimlab.labs.sufficiency.views import (
    RISK_COLUMNS,
    SELECTIVE_COLUMNS,
    evidence_table,
    risk_coverage_table,
    selective_table,
)
from claimlab.metrics.selective import risk_coverage, selective_items
from claimlab.tooling.runner import run_notebook
from tests.conftest import FIXTURES, ROOT


def _without_scenarios(tmp_path):
    data = json.loads((FIXTURES / "library_loans.json").read_text(encoding="utf-8"))
    del data["scenarios"]
    data.pop("game", None)  # its rounds name scenarios
    path = tmp_path / "no_scenarios.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_selective_and_risk_tables_of_a_file_without_scenarios_keep_their_headers(tmp_path):
    fx = load_sufficiency(_without_scenarios(tmp_path))
    items = selective_items(fx)
    assert len(items) == 0
    table = selective_table(items)
    assert len(table) == 0 and table.index.name == "scenario"
    assert list(table.columns) == list(SELECTIVE_COLUMNS[1:])
    rc = risk_coverage_table(risk_coverage(items, [0.0, 0.5]))
    assert rc.index.name == "threshold" and list(rc.columns) == list(RISK_COLUMNS[1:])
    assert len(evidence_table(fx)) == len(fx.evidence)


@pytest.mark.notebook
def test_notebook_02_runs_on_a_file_without_scenarios(tmp_path):
    path = _without_scenarios(tmp_path)
    nb = ROOT / "notebooks" / "02_evidence_sufficiency.ipynb"
    run_notebook(nb, parameters={"FIXTURE": str(path)}, output_dir=tmp_path / "out")
