"""The Turkish teacher's class from the README, as a teacher runs it (issue 42, acceptance).

One ``claimlab run`` executes notebooks 01, 02, 06 and 07, each on its own Turkish file
(``-p STEM:FIXTURE``); the student PDFs of 01 and 06 then carry Turkish lesson prose and the
Turkish title, no absolute path, and no shipped English round; every figure is also a PNG and
an SVG in ``<output>/<stem>/``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from claimlab.tooling.handouts import find_chromium
from tests.conftest import FIXTURES, run_cli

pytestmark = [pytest.mark.notebook, pytest.mark.slow, pytest.mark.xdist_group("print")]
TURKISH = {
    "01_decomposition_pitfalls": ("01 · İddia ayrıştırmanın tuzakları", "Özgün yanıt ve birimleri"),
    "06_decomposition_game": ("06 · Ayrıştırma oyunu", "Keşif"),
}
SUFFICIENCY_TURKISH = {
    "02_evidence_sufficiency": ("02 · Kanıtın yeterliliği", "Parametrelerin seçtiği"),
    "07_sufficiency_game": ("07 · Yeterlilik oyunu", "Kâğıt üzerinde yeterlilik oyunu"),
}
ENGLISH_ROUND = ("library", "loan", "Library", "Claim decomposition pitfalls", "The game")
# the English a Turkish handout used to carry around the lesson prose: explanations, the title
# page, headers, the game's texts and the generated exercises (and their solutions)
ENGLISH_WORDS = (
    "Faithful selection", "Support looks perfect", "Introduced claim", "Qualifier error in",
    "Entity error", "Version error", "Duplicate", "Compound claim", "Empty selection",
    "Preservation N/A (0/0), coverage", "student handout", "instructor handout", "Made by claimlab",
    "from the executed notebook", "Parameters", "Data files and provenance", "user-supplied file",
    "provenance as given by the user", "page 1 of", "Classroom view", "nothing selected",
    "Decomposition game on paper", "raw slot", "each of its units marked",
    "The references (what", "(version ", "starts with", "Win it.", "confirmed support is",
    "which single number on the page", "Why does", "A colleague reports", "Solutions.",
    "then Check", "You have", "Rounds in this file", "Original Y1", "This original holds",
    "Mode ", "with errors", "missing units", "starting selection", "what the answer says",
)  # fmt: skip
# the English the Turkish handouts of 02 and 07 used to carry: the check's heading and status
# line, the explanations (from the metric's words), the tables' headers and cells, the
# selective-answering line, the game on paper, the rules, the scripted round's headings and the
# generated exercises (and their solutions)
SUFFICIENCY_WORDS = (
    "Selected by the parameters", "Question ", " raw, ", " unique)", "this selection is not",
    "the claim is false", "complete witness", "missing premises", "link errors", "asked item",
    "search next", "fails the metadata rules", "is about '", "is in no alternative",
    "already in the context", "UNSAFE CANDIDATE (never", "metadata rules ignored",
    "Accuracy on answered", "answered with gaps", "abstained with complete", "answered / total",
    "Sufficiency game on paper", "Budget ", "searching a record costs", "a copy adds no premise",
    "Rounds in this file", "search cost", "searched / cited", "not current", "A scripted round",
    "The conflict round", "the solver's round", "every rule met", "Scenario ", "Round ",
    "cheapest win", "which single record", "Why is the context", "never part of a witness",
    "confidence threshold", "Solutions.", "The start alone", "answering ", "Add E",
)  # fmt: skip
SUFFICIENCY_HEADERS = re.compile(
    r"^\s*(alternative|finding|scenario|threshold|record|round|id)\s+"
    r"(complete|about|answered|text|question|kind|relation)\b",
    re.MULTILINE,
)
ENGLISH_HEADERS = re.compile(
    r"^\s*(selection|unit|candidate|round|id)\s+(start|text|candidates|entity|title|what)\b",
    re.MULTILINE,
)


def english_left(text: str) -> list[str]:
    """The English sentences and table headers found in a handout's text."""
    found = [w for w in ENGLISH_WORDS if w in text]
    return found + [m.group(0).strip() for m in ENGLISH_HEADERS.finditer(text)]


def sufficiency_english_left(text: str) -> list[str]:
    """The English of the sufficiency lessons (and of every lesson) found in a handout's text."""
    found = [w for w in SUFFICIENCY_WORDS if w in text]
    headers = [m.group(0).strip() for m in SUFFICIENCY_HEADERS.finditer(text)]
    return english_left(text) + found + headers


def test_the_turkish_teachers_four_notebooks_in_one_run(tmp_path):
    if find_chromium() is None or shutil.which("pdftotext") is None:
        pytest.skip("chromium and pdftotext are needed to print and read the handouts")
    for name in ("not_uygulamalari_tr.json", "lale_fuari_tr.json"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    out = tmp_path / "out"
    proc = run_cli(
        "run", "01", "02", "06", "07", "--output", out,
        "-p", "01:FIXTURE", "not_uygulamalari_tr.json",
        "-p", "06_decomposition_game:FIXTURE", "not_uygulamalari_tr.json",
        "-p", "02:FIXTURE", "lale_fuari_tr.json",
        "-p", "07:FIXTURE", "lale_fuari_tr.json",
        cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "4 of 4 notebooks executed" in proc.stdout
    records = {
        stem: json.loads((out / f"{stem}.records.json").read_text(encoding="utf-8"))
        for stem in ("02_evidence_sufficiency", "07_sufficiency_game")
    }
    assert records["02_evidence_sufficiency"]["records"]["hard_cases"] == {}
    assert records["07_sufficiency_game"]["records"]["conflict_round"]["scenario"] is None
    figures = sorted(p.name for p in (out / "01_decomposition_pitfalls").iterdir())
    assert figures and {p.rsplit(".", 1)[1] for p in figures} == {"png", "svg"}
    assert len(figures) % 2 == 0 and figures[0].startswith("01-")
    proc = run_cli("handouts", "--from", out, "--to", out / "h", "--variant", "both", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    instructor = pdf_text(out / "h" / "01_decomposition_pitfalls.instructor.pdf")
    assert "Çözümler." in instructor and "öğretmen notları" in instructor
    assert english_left(instructor) == []
    for stem, (title, heading) in TURKISH.items():
        text = pdf_text(out / "h" / f"{stem}.student.pdf")
        assert title in text and heading in text, stem
        assert english_left(text) == [], stem
        assert "öğrenci notları" in text and "sayfa 1 /" in text, stem
        assert str(tmp_path) not in text and "/tmp" not in text  # the file by its name only
        assert "not_uygulamalari_tr.json" in text
        assert [w for w in ENGLISH_ROUND if w in text] == [], stem
        assert "No `REVISION` given" not in text and "No REVISION given" not in text
    for stem, (title, heading) in SUFFICIENCY_TURKISH.items():
        for variant in ("student", "instructor"):
            text = pdf_text(out / "h" / f"{stem}.{variant}.pdf")
            assert title in text and heading in text, stem
            assert sufficiency_english_left(text) == [], (stem, variant)
            assert "lale_fuari_tr.json" in text and str(tmp_path) not in text
    instructor = pdf_text(out / "h" / "07_sufficiency_game.instructor.pdf")
    assert "Betikle oynanan bir tur" in instructor and "Çözümler." in instructor


def pdf_text(pdf):
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
