"""Notebook 02 on the Thai fixture and notebook 01 on a Korean file: no figure has an empty box."""

import json

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import FIXTURES, ROOT
from tests.notebook.test_fonts import korean

pytestmark = pytest.mark.notebook


def glyph_warnings(notebook):
    """Every missing-glyph warning the kernel printed while drawing the notebook's figures."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    texts = [
        "".join(out.get("text", ""))
        for cell in cells
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream"
    ]
    return [t for t in texts if "Glyph" in t and "missing" in t]


@pytest.mark.parametrize(
    ("stem", "fixture", "script"),
    [("02_evidence_sufficiency", "aurora_th.json", "th"),
     ("01_decomposition_pitfalls", "atlas_nova_th.json", "ko")],
    ids=["02-thai", "01-korean"],
)  # fmt: skip
def test_the_notebooks_figures_draw_every_glyph(tmp_path, stem, fixture, script):
    path = FIXTURES / fixture
    if script == "ko":
        path = tmp_path / fixture.replace("_th", "_ko")
        data = korean(json.loads((FIXTURES / fixture).read_text("utf-8")))
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    run = run_notebook(
        ROOT / "notebooks" / f"{stem}.ipynb",
        parameters={"FIXTURE": str(path)},
        output_dir=tmp_path / "out",
    )
    assert glyph_warnings(run.notebook) == []
    assert "image/png" in run.notebook.read_text(encoding="utf-8")
