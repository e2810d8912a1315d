"""The hostile corpus in a real chromium: handouts, the PDF printer and JupyterLab run no script from data."""

import json
import subprocess

import pytest

from claimlab.tooling.devtools import TYPESET
from claimlab.tooling.handouts import build_handouts
from claimlab.tooling.runner import run_notebook
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_lab_and_voila import open_and_run_all
from tests.conftest import ROOT
from tests.hostile.corpus import RAN

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("browser")]
NB01 = ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb"
HOSTILE_TEXT = "<img src=x onerror=\"document.title='pwned-img'\">"
HOSTILE_REF = "<script>document.title='pwned-script'</script>"
HOSTILE_MODE = "<b onmouseover=alert(1)>mode</b>"


def ran_nothing(page):
    """What a page shows of a payload that ran (nothing, if all is well)."""
    return page.evaluate(
        "() => ({pwned: window.__pwned || 0, title: document.title,"
        f" marker: document.documentElement.textContent.includes({RAN!r}),"
        " typeset: [...document.querySelectorAll('.MathJax, mjx-container')]"
        ".filter(m => !m.closest('.claimlab-math')).length})"
    )


def hostile(data):
    next(c for c in data["candidates"] if c["id"] == "C2")["text"] = HOSTILE_TEXT
    data["references"][0]["title"] = HOSTILE_REF
    data["modes"] = {HOSTILE_MODE: ["C1", "C2"], "empty": []}


def test_hostile_fixture_is_escaped_and_fires_no_script(tmp_path, write_variant, browser):
    path = write_variant("atlas_nova.json", hostile, filename="hostile.json")
    run_notebook(NB01, parameters={"FIXTURE": str(path)}, output_dir=tmp_path)
    run = build_handouts(tmp_path, tmp_path / "handouts", formats=("html",))
    page_file = tmp_path / "handouts" / "01_decomposition_pitfalls.student.html"
    raw = page_file.read_text(encoding="utf-8")
    assert HOSTILE_TEXT not in raw and "<script>document.title" not in raw
    assert run.handouts
    page = browser.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    text = page.inner_text("body")
    for el in page.query_selector_all("b"):
        el.hover()
    assert "Claim decomposition pitfalls" in page.title()  # "01 · Claim ... (student)"
    assert "pwned" not in page.title()
    assert dialogs == []
    assert HOSTILE_TEXT in text  # shown as text
    assert HOSTILE_MODE in text
    assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0
    page.close()
    assert (
        json.loads((tmp_path / "01_decomposition_pitfalls.records.json").read_text())["records"][
            "modes"
        ][0]
        == HOSTILE_MODE
    )


def test_every_handout_of_the_hostile_corpus_runs_no_script(hostile_runs, browser, tmp_path):
    folder, results = hostile_runs
    failed = {k: str(v) for k, v in results.items() if isinstance(v, Exception)}
    assert not failed
    run = build_handouts(folder, tmp_path / "handouts", formats=("html",))
    assert len(run.handouts) == 2 * len(results)
    for h in run.handouts:
        page = browser.new_page()
        dialogs = []
        page.on("dialog", lambda d, dialogs=dialogs: (dialogs.append(d.message), d.dismiss()))
        blocked = []
        page.on("console", lambda m, blocked=blocked: blocked.append(m.text))
        page.goto(h.html.as_uri())
        page.wait_for_load_state("load")
        page.evaluate(TYPESET)  # MathJax typesets after load: wait until its queue is empty
        hrefs = page.evaluate(
            "[...document.querySelectorAll('a')].map(a => a.getAttribute('href'))"
        )
        for href in hrefs:  # a data link would run on click
            assert not (href or "").strip().lower().startswith("javascript:"), (h.stem, href)
        state = ran_nothing(page)
        assert state == {"pwned": 0, "title": state["title"], "marker": False, "typeset": 0}, (
            h.stem,
            h.variant,
        )
        assert "PWNED" not in state["title"] and dialogs == []
        page.close()


def test_the_pdf_printer_runs_no_script_from_data(hostile_runs, chromium, tmp_path):
    folder, _ = hostile_runs
    run = build_handouts(
        folder, tmp_path / "pdf", variants=("student",), stems=["01_decomposition_pitfalls"]
    )
    (handout,) = run.handouts
    text = subprocess.run(
        ["pdftotext", str(handout.pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert RAN not in text
    assert "onerror" in text  # the payload is printed as text


def _notebook_with(stem, params, folder):
    """A copy of a notebook whose parameters cell points at the hostile files."""
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            source = "".join(cell["source"]).rstrip("\n") + "\n"
            source += "".join(
                f"{k} = {json.dumps(v, ensure_ascii=False)}\n" for k, v in params.items()
            )
            cell["source"] = source
    name = f"hostile_{stem}.ipynb"
    (folder / name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    return name


@pytest.mark.parametrize(
    "stem",
    [
        "01_decomposition_pitfalls",
        "05_context_and_citations",
        "06_decomposition_game",
        "07_sufficiency_game",
        "09_annotate",
    ],
)
def test_jupyterlab_session_on_the_hostile_corpus_runs_no_script(
    lab_server, workdir, lab_page, hostile_files, stem
):
    from tests.hostile.files import hostile_parameters

    base, token = lab_server
    name = _notebook_with(stem, hostile_parameters(hostile_files)[stem], workdir)
    before = sorted(p.name for p in workdir.iterdir())
    page = lab_page  # a script any earlier notebook ran would be counted here as well
    open_and_run_all(page, base, token, name, reuse=True)
    page.wait_for_timeout(500)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.all_inner_texts()
    state = ran_nothing(page)
    assert state["pwned"] == 0 and not state["marker"] and state["typeset"] == 0, state
    assert "PWNED" not in state["title"]
    # nothing wrote a file beside the notebooks (the old attack used the lab's contents API)
    after = sorted(p.name for p in workdir.iterdir() if not p.name.startswith("."))
    assert set(after) <= set(before) | {name}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"lab_hostile_{stem}.png"))
