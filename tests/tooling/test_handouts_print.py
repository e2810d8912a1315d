"""Handouts a teacher can print, checked on the PDFs chromium prints from every notebook.

Whole words in every table header, one font family, figures at 200 ppi or more with labels of
8 pt or more at print size, no near-empty page, answer space after each exercise in the student
handout, and game handouts that carry the board (texts, rounds, slots or budget).
"""

from __future__ import annotations

import json
import re
import subprocess
from html import unescape
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from claimlab.tooling.handouts import VARIANTS, Handout, find_chromium
from claimlab.tooling.paths import NOTEBOOKS_DIR
from tests.conftest import FIXTURES

pytestmark = [pytest.mark.notebook, pytest.mark.xdist_group("print")]
MIN_PPI = 200
MIN_FONT_PT = 8.0
PRINT_WIDTH_IN = 7.32  # A4 less the handout's 12 mm margins


@pytest.fixture(scope="session")
def printed(installed_run):
    """Every notebook executed with its defaults by the installed wheel's ``claimlab run`` (the
    real-data lab again with ``--data``), and both handouts of each, as HTML and PDF, made by
    ``claimlab handouts``, as a teacher runs them (tests/tooling/conftest.py); returns the
    output folder and the handouts (what the commands said is in ``out/said.txt``)."""
    if find_chromium() is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    out = installed_run.labs / "outputs"
    (out / "said.txt").write_text("\n".join(installed_run.said[1:]), encoding="utf-8")
    handouts = tuple(
        Handout(nb.stem, variant, out / "handouts" / f"{nb.stem}.{variant}.html",
                out / "handouts" / f"{nb.stem}.{variant}.pdf")
        for nb in sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
        for variant in VARIANTS
    )  # fmt: skip
    assert all(h.html.is_file() and h.pdf.is_file() for h in handouts)
    return out, SimpleNamespace(handouts=handouts)


def test_a_full_run_and_its_handouts_print_no_third_party_warning(printed):
    """What a teacher sees from ``claimlab run`` and ``claimlab handouts``: claimlab's own
    lines only, no warning from papermill, nbformat, nbconvert, matplotlib or chromium."""
    out, _ = printed
    said = (out / "said.txt").read_text(encoding="utf-8")
    for noise in ("Warning", "warn", "Unable to parse", "Traceback", "ERROR:", "DEPRECAT"):
        assert noise not in said, noise
    lines = said.splitlines()
    ours = re.compile(
        r"^(\[\d+/\d+\] \S+ \.\.\. ok |summary: |  \S+ \((student|instructor)\): |handouts: )"
    )
    assert [line for line in lines if line and not ours.match(line)] == []
    assert len(lines) > 2 * len(list(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb")))


def _pdf_text(pdf, *options) -> str:
    return subprocess.run(
        ["pdftotext", *options, str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def _tool(*args) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def test_the_index_links_every_handout_as_html_and_pdf(printed):
    out, run = printed
    index = (out / "handouts" / "index.html").read_text(encoding="utf-8")
    for h in run.handouts:
        for path in (h.html, h.pdf):
            assert f'href="{path.name}"' in index and path.is_file(), path.name


def test_every_pdf_has_a_title_page_and_numbered_pages(printed):
    _, run = printed
    for h in run.handouts:
        pages = int(re.search(r"Pages:\s+(\d+)", _tool("pdfinfo", str(h.pdf))).group(1))
        assert pages >= 2, (h.stem, h.variant)
        first = _pdf_text(h.pdf, "-f", "1", "-l", "1")
        assert f"{h.variant} handout" in first and f"page 1 of {pages}" in first, h.pdf.name
    pdf = next(h.pdf for h in run.handouts if h.stem.startswith("01_") and h.variant == "student")
    assert "Claim decomposition pitfalls" in _pdf_text(pdf, "-f", "1", "-l", "1")
    assert "01 · Claim decomposition pitfalls" in _pdf_text(pdf, "-f", "2", "-l", "2")


def test_pdf_tables_keep_every_cell_word_whole_and_on_the_page(printed):
    """Every word of every table cell is in the PDF text as it is in the HTML: no word split
    letter by letter to squeeze a column, no column cut off at the page edge."""
    _, run = printed
    h = next(h for h in run.handouts if h.stem.startswith("01_") and h.variant == "student")
    page = h.html.read_text(encoding="utf-8")
    cells = [unescape(re.sub(r"<[^>]+>", " ", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", page)]
    words = {w for cell in cells for w in cell.split()}
    assert {"SUPPORTED", "NOT_IN_REFERENCE", "CONTRADICTED", "(0/0)"} <= words
    missing = sorted(words - set(_pdf_text(h.pdf, "-raw").split()))
    assert not missing, f"table words not printed whole: {missing[:12]}"


def test_every_table_header_is_printed_as_whole_words(printed):
    _, run = printed
    for h in run.handouts:
        page = h.html.read_text(encoding="utf-8")
        headers = [
            unescape(re.sub(r"<[^>]+>", " ", t))
            for t in re.findall(r"<th\b[^>]*>(.*?)</th>", page, re.S)
        ]
        words = {w for t in headers for w in t.split()}
        assert words, h.stem
        printed_words = set(_pdf_text(h.pdf, "-raw").split())
        broken = sorted(words - printed_words)
        assert not broken, (h.stem, h.variant, broken[:10])


def test_one_font_family(printed):
    _, run = printed
    for h in run.handouts:
        rows = _tool("pdffonts", str(h.pdf)).splitlines()[2:]
        for row in rows:
            name, kind = row.split()[0], row[37:55].strip()
            family = name.split("+", 1)[-1]
            # Type 3 glyphs are the colour emoji (Noto Color Emoji drawn as bitmaps)
            assert family.startswith("Noto") or kind == "Type 3", (h.stem, row)


def test_figures_print_at_200_ppi_or_more_with_labels_of_8_pt_or_more(printed):
    out, run = printed
    for h in run.handouts:
        rows = _tool("pdfimages", "-list", str(h.pdf)).splitlines()[2:]
        for row in rows:
            x_ppi, y_ppi = (int(v) for v in row.split()[12:14])
            assert min(x_ppi, y_ppi) >= MIN_PPI, (h.stem, row)
    figures = 0
    for nb in out.glob("[0-9][0-9]_*.ipynb"):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            for o in cell.get("outputs", []):
                if "image/png" in o.get("data", {}):
                    meta = o["metadata"]["image/png"]["claimlab"]
                    assert meta["width_in"] <= PRINT_WIDTH_IN, (nb.name, meta)
                    assert meta["min_printed_font_pt"] >= MIN_FONT_PT, (nb.name, meta)
                    assert meta["ppi"] >= MIN_PPI
                    figures += 1
    assert figures >= 30


def _page_fill(pdf, folder) -> list[float]:
    """How far down each page its content reaches (0..1), the page number left out."""
    subprocess.run(
        ["pdftoppm", "-r", "20", "-gray", "-png", str(pdf), str(folder / "p")], check=True
    )
    pages = sorted(folder.glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
    fills = []
    for p in pages:
        a = np.asarray(Image.open(p))
        body = a[: int(a.shape[0] * 0.93)]
        ink = np.where((body < 200).any(axis=1))[0]
        fills.append((ink.max() + 1) / a.shape[0] if len(ink) else 0.0)
        p.unlink()
    return fills


def test_no_page_but_the_last_is_nearly_empty(printed, tmp_path):
    _, run = printed
    for h in run.handouts:
        fills = _page_fill(h.pdf, tmp_path)
        middle = fills[1:-1]  # the title page and the last page may be short
        assert all(f >= 0.35 for f in middle), (h.stem, h.variant, [round(f, 2) for f in fills])


def test_text_left_numbers_right_and_one_header_row(printed):
    _, run = printed
    page = next(
        h for h in run.handouts if h.stem == "01_decomposition_pitfalls" and h.variant == "student"
    ).html.read_text(encoding="utf-8")
    assert re.search(r'<td style="text-align: left;?">Atlas Lab 2\.1 reads PDF files', page)
    assert re.search(r'<td style="text-align: right;?">12</td>', page)  # a span offset
    assert "<th></th>" not in page and '<th style="text-align: left;"></th>' not in page
    for table in re.findall(r"<table[^>]*claimlab-table.*?</table>", page, re.S):
        head = re.search(r"<thead>(.*?)</thead>", table, re.S).group(1)
        rows = head.count("<tr")
        assert rows == 1 or (rows == 2 and "colspan" in head), head[:300]


def test_the_student_handout_leaves_room_after_each_exercise(printed):
    out, run = printed
    for stem in ("01_decomposition_pitfalls", "02_evidence_sufficiency", "06_decomposition_game"):
        records = json.loads((out / f"{stem}.records.json").read_text(encoding="utf-8"))
        n = len(records["records"]["exercises"])
        student = next(h for h in run.handouts if h.stem == stem and h.variant == "student")
        instructor = next(h for h in run.handouts if h.stem == stem and h.variant == "instructor")
        assert student.html.read_text(encoding="utf-8").count('class="claimlab-answer-space"') == n
        assert "Solutions." not in _pdf_text(student.pdf)
        assert "Solutions." in _pdf_text(instructor.pdf)
        # the boxes take room on paper: the student PDF is at least as long
        pages = [
            int(re.search(r"Pages:\s+(\d+)", _tool("pdfinfo", str(x.pdf)))[1])
            for x in (student, instructor)
        ]
        assert pages[0] >= pages[1] - 1


def test_game_handouts_carry_the_board_to_play_on_paper(printed):
    from claimlab.io.decomposition import load_decomposition
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.labs.sufficiency.game import game_scenarios

    _, run = printed

    def text(stem):
        h = next(h for h in run.handouts if h.stem == stem and h.variant == "student")
        return " ".join(_pdf_text(h.pdf, "-raw").split())  # in the order printed: cell by cell

    dec = text("06_decomposition_game")
    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    for c in fx.candidates:
        assert c.text in dec, c.id
    for p in fx.game.puzzles.values():
        assert p.title in dec and p.note in dec
    assert "7 raw slots" in dec and "A scripted round" not in dec  # the solver's round: not here
    for r in fx.references:  # the sources a player decides from
        assert r.text in dec, r.id
    suf = text("07_sufficiency_game")
    sx = load_sufficiency(FIXTURES / "aurora.json")
    for e in sx.evidence:
        assert e.text in suf, e.id
    for name in game_scenarios(sx):
        assert name in suf
    assert "Budget 6" in suf


def _lines(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.splitlines() if line.strip()}


def test_student_game_handouts_are_executed_in_student_mode_and_keep_the_solutions(printed):
    """The student PDF comes from a run with STUDENT true: diffed with the instructor's, every
    line only the instructor sees stays out of it, and no line of a solution is in it."""
    from claimlab.notebook.widgets import STUDENT_NOTE

    out, run = printed
    for stem in ("06_decomposition_game", "07_sufficiency_game"):
        pdfs = {h.variant: h.pdf for h in run.handouts if h.stem == stem}
        student, instructor = (_pdf_text(pdfs[v], "-layout") for v in ("student", "instructor"))
        assert re.search(r"STUDENT\s+true", student) and re.search(r"STUDENT\s+false", instructor)
        note = " ".join(STUDENT_NOTE.split()[:6])
        assert note in " ".join(student.split()) and note not in " ".join(instructor.split())
        only_instructor = _lines(instructor) - _lines(student)
        assert any("A scripted round" in line for line in only_instructor), stem
        records = json.loads((out / f"{stem}.records.json").read_text(encoding="utf-8"))
        flat = " ".join(student.split())
        for x in records["records"]["exercises"]:
            for line in x["solution"].splitlines():
                line = " ".join(re.sub(r"[*`_]", "", line).split())
                if len(line) >= 24:  # a solution line, not a lone word or id
                    assert line[:60] not in flat, (stem, line)
        for spoiler in ("For the teacher.", "Solutions.", "missing units:", "SUPPORTED 0 ·"):
            assert spoiler not in flat, (stem, spoiler)
