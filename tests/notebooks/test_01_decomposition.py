"""Papermill regression: execute the decomposition notebook over a parameter grid, read back records."""

import json

import pytest

from claimlab.tooling.runner import NotebookFailed, run_notebook
from tests.conftest import FIXTURES, ROOT
from tests.metrics.test_decomposition import EXPECTED

NB = ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb"
pytestmark = pytest.mark.notebook

GRID = [
    ("atlas_nova.json", "all"),
    ("atlas_nova_th.json", ["baseline", "empty", "duplicate"]),
    ("atlas_nova.json", ["supported_only", "compound"]),
]


@pytest.mark.parametrize(("fixture", "modes"), GRID, ids=["en-all", "th-subset", "en-subset"])
def test_notebook_records_every_metric_of_every_mode(tmp_path, fixture, modes):
    res = run_notebook(
        NB, parameters={"FIXTURE": str(FIXTURES / fixture), "MODES": modes}, output_dir=tmp_path
    )
    rec = res.records
    walked = list(EXPECTED) if modes == "all" else modes
    assert rec["modes"] == walked
    for mode in walked:
        got = rec["results"][mode]
        pres, cov, conf, raw, contradicted, nir = EXPECTED[mode]
        assert f"{got['preservation']['numerator']}/{got['preservation']['denominator']}" == pres
        assert f"{got['coverage']['numerator']}/{got['coverage']['denominator']}" == cov
        assert (
            f"{got['confirmed_support']['numerator']}/{got['confirmed_support']['denominator']}"
            == conf
        )
        assert f"{got['raw_support']['numerator']}/{got['raw_support']['denominator']}" == raw
        assert got["status_counts"]["CONTRADICTED"] == contradicted
        assert got["status_counts"]["NOT_IN_REFERENCE"] == nir
    if "empty" in walked:
        assert rec["results"]["empty"]["preservation"]["display"] == "N/A (0/0)"
        assert rec["results"]["empty"]["coverage"]["display"] == "0.0% (0/5)"
    # the records file on disk carries the same values and the parameters used
    on_disk = json.loads(res.records_path.read_text(encoding="utf-8"))
    assert on_disk["records"] == rec
    assert on_disk["parameters"]["MODES"] == modes
    # the executed notebook shows the N/A bars as text too
    text = res.notebook.read_text(encoding="utf-8")
    if "empty" in walked:
        assert "N/A (0/0)" in text


def test_runner_refuses_undeclared_parameter(tmp_path):
    with pytest.raises(Exception, match="undeclared parameter.*FIXTUR.*declares FIXTURE, MODES"):
        run_notebook(NB, parameters={"FIXTUR": "x.json"}, output_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_failed_run_keeps_the_earlier_good_output(tmp_path):
    good = tmp_path / "01_decomposition_pitfalls.ipynb"
    good.write_text("earlier good output", encoding="utf-8")
    broken = tmp_path / "broken.json"
    data = json.loads((FIXTURES / "atlas_nova.json").read_text(encoding="utf-8"))
    data["units"][0]["id"] = "U2"
    broken.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(NotebookFailed, match=r"FixtureError: .*broken.json: U2: id: duplicate id"):
        run_notebook(NB, parameters={"FIXTURE": str(broken)}, output_dir=tmp_path)
    assert good.read_text(encoding="utf-8") == "earlier good output"
    assert (tmp_path / "01_decomposition_pitfalls.failed.ipynb").exists()


def test_papers_records_of_notebook_01(tmp_path):
    from claimlab.tooling.runner import run_notebook

    rec = run_notebook(
        ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb", output_dir=tmp_path
    ).records
    papers = rec["papers"]
    assert {
        m: p["decompscore"] for m, p in papers.items() if m in ("baseline", "duplicate", "empty")
    } == {
        "baseline": 5,
        "duplicate": 6,
        "empty": 0,
    }
    assert papers["compound"]["atomicity"]["display"] == "75.0% (3/4)"
    assert papers["duplicate"]["core"]["dropped"] == [
        {"id": "C6", "reason": "repeats C1 (the same fingerprint)"}
    ]
