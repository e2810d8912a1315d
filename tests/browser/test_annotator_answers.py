"""The annotator in JupyterLab on two decomposers' drafts that share answer ids.

A person opens notebook 09 on a folder of drafts (``A/k01``, ``A/k02``, ``B/k01``, ``B/k02``),
runs it once, and annotates two answers of each decomposer by choosing them in the widget's
answer chooser: the notebook is never run again, and each copy is saved in its own place.
"""

import json

import pytest

from tests.browser.test_lab_and_voila import open_and_run_all
from tests.labs.annotation.shared_ids import SUBCLAIMS, write_shared_drafts

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("browser")]

NOTEBOOK = "09_annotate_shared_ids.ipynb"


def _notebook_on_the_drafts(workdir):
    """A copy of notebook 09 whose parameters name the drafts folder (as a person sets them)."""
    nb = json.loads((workdir / "09_annotate.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    cell["source"] = [
        'RAW = ""\n', 'ANSWER = ""\n', 'DRAFT = "drafts42"\n', 'ANNOTATOR = "Ana"\n',
        'WORK_DIR = "ana42"\n', 'GOLD_DIR = ""\n', "SHOW_TABLES = False\n",
        'UNITS = "sentences"\n', "AGREEMENT_FILES = []\n",
    ]  # fmt: skip
    (workdir / NOTEBOOK).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")


def test_annotate_two_answers_of_two_decomposers_switching_in_the_widget(
    lab_server, workdir, lab_page
):
    write_shared_drafts(workdir / "drafts42")
    _notebook_on_the_drafts(workdir)
    base, token = lab_server
    page = lab_page
    open_and_run_all(page, base, token, NOTEBOOK, reuse=True)
    chooser = page.locator(".claimlab-answer-choice select").first
    chooser.wait_for()
    chooser.scroll_into_view_if_needed()
    assert [o.split()[1] for o in chooser.locator("option").all_inner_texts()] == [
        "A/k01", "A/k02", "B/k01", "B/k02",
    ]  # fmt: skip
    progress = page.locator(".claimlab-progress").first
    message = page.locator(".claimlab-message").first
    done = page.locator(".claimlab-answers-done").first
    for n, (index, label) in enumerate([(3, "B/k02"), (0, "A/k01"), (2, "B/k01"), (1, "A/k02")]):
        chooser.select_option(index=index)
        message.get_by_text(f"{label} opened").wait_for()
        assert f"ana42/{label}.json" in progress.inner_text()
        decomposer, answer = label.split("/")
        for k in range(len(SUBCLAIMS[decomposer][answer])):
            page.locator("button.claimlab-confirm").first.click()
            message.get_by_text(f"S{k + 1} confirmed by Ana; saved.").wait_for()
        page.wait_for_function(
            "(n) => document.querySelector('.claimlab-answers-done')"
            "?.textContent.includes(`answers: ${n} confirmed`)",
            arg=n + 1,
        )
    assert "4 confirmed · 0 to do" in done.inner_text()
    for decomposer, answers in SUBCLAIMS.items():
        for answer, claims in answers.items():
            path = workdir / "ana42" / decomposer / f"{answer}.json"
            doc = json.loads(path.read_text(encoding="utf-8"))
            assert doc["decomposer"] == decomposer and doc["original"]["id"] == answer
            assert [c["text"] for c in doc["candidates"]] == claims
            assert all(c["review"] == [] for c in doc["candidates"])
            assert {c["confirmed"]["by"] for c in doc["candidates"]} == {"Ana"}
    drafts = workdir / "drafts42" / "A" / "k01.json"  # the drafts themselves are untouched
    assert json.loads(drafts.read_text(encoding="utf-8")).get("annotation") is None
