"""Handouts: variants, embedded figures, N/A shown, escaping, and a printer that fails.

The HTML handouts are built here; the PDFs chromium prints are checked on the installed wheel's
run of every notebook (tests/tooling/test_handouts_print.py, the printing group).
"""

import re

import pytest

import claimlab
from claimlab.tooling.handouts import build_handouts
from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT

NB01 = ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb"

pytestmark = pytest.mark.notebook


@pytest.fixture(scope="session")
def executed(tmp_path_factory):
    out = tmp_path_factory.mktemp("exec")
    run_notebook(NB01, parameters={"MODES": ["baseline", "empty"]}, output_dir=out)
    return out


@pytest.fixture(scope="session")
def handouts(executed):
    return build_handouts(executed, executed / "handouts", formats=("html",))


def test_index_links_every_variant(handouts):
    index = handouts.index.read_text(encoding="utf-8")
    for variant in ("student", "instructor"):
        name = f"01_decomposition_pitfalls.{variant}.html"
        assert f'href="{name}"' in index
        assert (handouts.index.parent / name).exists()


def test_student_hides_code_and_solutions_instructor_shows_solutions(handouts):
    student = (handouts.index.parent / "01_decomposition_pitfalls.student.html").read_text(
        encoding="utf-8"
    )
    instructor = (handouts.index.parent / "01_decomposition_pitfalls.instructor.html").read_text(
        encoding="utf-8"
    )
    for page in (student, instructor):
        assert '<div class="jp-InputArea-editor' not in page and "hl-ipython3" not in page
        assert "from claimlab import" not in page and "load_decomposition(" not in page
        assert "record(" not in page  # the remove-cell record cell never shows
        assert "Exercises" in page
    assert "Solutions." not in student
    assert "Solutions." in instructor


def test_figures_are_data_uris_and_na_is_shown(handouts):
    page = (handouts.index.parent / "01_decomposition_pitfalls.student.html").read_text(
        encoding="utf-8"
    )
    imgs = re.findall(r"<img [^>]*src=\"([^\"]+)\"", page)
    assert imgs and all(src.startswith("data:image/png;base64,") for src in imgs)
    assert "N/A (0/0)" in page
    assert (
        f"claimlab {claimlab.__version__}" in page and "&quot;empty&quot;" in page
    )  # stamped with version and parameters


@pytest.mark.parametrize(
    ("value", "provenance"),
    [
        ("factscore", "FActScore human annotations"),
        ("fever/paper_dev.jsonl", "FEVER (Thorne et al., 2018), CC BY-SA 3.0"),
        ("ragchecker/checking_outputs.json", "RAGChecker's example checking output"),
        ("musique/hipporag_musique_ans_train_100.json", "MuSiQue, CC BY 4.0"),
        ("fixtures/aurora.json", "SIMULATION"),
        ("/home/me/ledger.parquet", "user-supplied file"),
        ("all", None),
        (10, None),
    ],
)
def test_stamp_names_data_files_with_provenance(value, provenance):
    from claimlab.tooling.handouts import _data_files

    rows = _data_files({"P": value})
    if provenance is None:
        assert rows == []
    else:
        assert provenance in rows[0][2]


def test_recorded_values_are_left_out_of_the_handout_so_nbconvert_has_nothing_to_warn_about():
    import warnings

    import nbformat

    from claimlab.notebook.records import MIME
    from claimlab.tooling.handouts import _strip_records

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = [
        nbformat.v4.new_output("display_data", data={MIME: {"name": "x", "value": 1}}),
        nbformat.v4.new_output("display_data", data={"text/plain": "shown"}),
    ]
    nb.cells.append(cell)
    assert _strip_records(nb) == 1
    assert [o["data"] for o in nb.cells[0].outputs] == [{"text/plain": "shown"}]
    from nbconvert import HTMLExporter

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        HTMLExporter().from_notebook_node(nb)
    assert not [w for w in caught if "not able to be represented" in str(w.message)]


@pytest.mark.parametrize(
    ("script", "timeout", "said"),
    [
        ("exit 3", 30, "chromium stopped"),  # dies at once: the pipe closes
        ("exec sleep 30", 1, "chromium did not answer in time (Target.createTarget)"),
    ],
)
def test_a_printer_that_fails_is_one_error_naming_the_file_and_leaves_nothing(
    tmp_path, script, timeout, said
):
    """The DevTools printer: a browser that stops, or never answers, is a ClaimlabInputError
    naming the handout; no PDF (not even a partial one) is left, nor any process."""
    import os

    from claimlab.core.errors import ClaimlabInputError
    from claimlab.tooling.handouts import print_pdfs

    fake = tmp_path / "chromium"
    fake.write_text(f"#!/bin/sh\n{script}\n")
    fake.chmod(0o755)
    html = tmp_path / "a.html"
    html.write_text("<p>a</p>")
    pdf = tmp_path / "a.pdf"
    with pytest.raises(ClaimlabInputError, match=re.escape(said)) as err:
        print_pdfs([(html, pdf)], chromium=str(fake), timeout=timeout)
    assert str(html) in str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html", "chromium"]
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _runs(p, str(fake))]


def _runs(pid, exe):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return exe.encode() in f.read()
    except OSError:
        return False


def test_killing_the_printers_group_ends_what_its_first_process_left_running():
    """Chromium's main process ends as soon as its DevTools pipe closes, its renderers a moment
    later: ending the printer kills its whole group even when the first process has ended,
    and returns only once none of it runs (a Ctrl-C test once found two still running)."""
    import subprocess

    from claimlab.tooling.handouts import _group_runs, _kill_group

    proc = subprocess.Popen(
        ["sh", "-c", "sleep 300 & echo started; exit 0"],
        stdout=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout.readline() == b"started\n"
    proc.wait()  # the first process has ended; its child sleeps on in the group
    assert _group_runs(proc.pid)
    _kill_group(proc)
    assert not _group_runs(proc.pid)
    proc.stdout.close()
