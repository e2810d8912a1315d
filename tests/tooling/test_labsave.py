"""A notebook saved from ``make lab`` keeps no outputs: nothing of the machine enters the checkout."""

import json

from claimlab.tooling.labsave import HOOK, clear_outputs
from tests.conftest import ROOT


def test_jupyters_contents_manager_saves_the_notebook_without_outputs(tmp_path):
    from jupyter_server.services.contents.filemanager import FileContentsManager

    nb = json.loads((ROOT / "notebooks" / "09_annotate.ipynb").read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"{tmp_path}\n"}]
            cell["execution_count"] = 7
    nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    manager = FileContentsManager(root_dir=str(tmp_path), pre_save_hook=HOOK)
    manager.save({"type": "notebook", "format": "json", "content": nb}, "09_annotate.ipynb")
    text = (tmp_path / "09_annotate.ipynb").read_text(encoding="utf-8")
    saved = json.loads(text)
    assert str(tmp_path) not in text and "widgets" not in saved["metadata"]
    code = [c for c in saved["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert [c["source"] for c in saved["cells"]] == [c["source"] for c in nb["cells"]]


def test_other_files_are_left_as_they_are_and_make_lab_names_the_hook():
    model = {"type": "file", "content": "x"}
    clear_outputs(model)
    assert model == {"type": "file", "content": "x"}
    assert f"--ContentsManager.pre_save_hook={HOOK}" in (ROOT / "Makefile").read_text()
