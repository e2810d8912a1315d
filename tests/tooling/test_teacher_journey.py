"""The Turkish teacher's class from the README, as a teacher runs it (issue 42, acceptance).

One ``claimlab run`` executes notebooks 01, 02, 06 and 07, each on its own Turkish file
(``-p STEM:FIXTURE``); the student PDFs of 01 and 06 then carry Turkish lesson prose and the
Turkish title, no absolute path, and no shipped English round; every figure is also a PNG and
an SVG in ``<output>/<stem>/``.
"""

from __future__ import annotations

import json
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
ENGLISH_ROUND = ("library", "loan", "Library", "Claim decomposition pitfalls", "The game")


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
    proc = run_cli(
        "handouts", "--from", out, "--to", out / "h", "--variant", "student", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    for stem, (title, heading) in TURKISH.items():
        pdf = out / "h" / f"{stem}.student.pdf"
        text = subprocess.run(
            ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert title in text and heading in text, stem
        assert str(tmp_path) not in text and "/tmp" not in text  # the file by its name only
        assert "not_uygulamalari_tr.json" in text
        assert [w for w in ENGLISH_ROUND if w in text] == [], stem
        assert "No `REVISION` given" not in text and "No REVISION given" not in text
