"""Notebook 09 under papermill: the default round trip, a user's own raw file, resuming, bad input."""

import json

import pytest

from claimlab.labs.annotation.session import AnnotationSession
from claimlab.tooling.runner import NotebookFailed, run_notebook
from tests.conftest import ROOT, run_cli
from tests.labs.annotation.test_draft import RAW as MUSEUM
from tests.own_files import SHIPPED_WORDS

NB = ROOT / "notebooks" / "09_annotate.ipynb"
pytestmark = pytest.mark.notebook


def test_default_round_trip(tmp_path):
    work = tmp_path / "work"
    rec = run_notebook(NB, parameters={"WORK_DIR": str(work)}, output_dir=tmp_path).records
    assert rec["progress"]["text"] == "0 of 6 candidates confirmed · 0 of 3 units confirmed"
    assert rec["progress"]["file"].endswith("reader-en.annotator.json")
    fields = {f["field"]: f for f in rec["agreement"]["fields"]}
    assert fields["atomic"]["raw_agreement"]["display"] == "83.3% (5/6)"
    assert fields["error: qualifier"]["alpha"]["value"] is None
    assert rec["adjudication"]["gold"] is False and rec["adjudication"]["unit_ties"]
    assert rec["ledger"]["answers"] == 1
    assert (work / "reader-en.json").exists() and (work / "adjudicated" / "reader-en.json").exists()


def _museum(tmp_path):
    raw = tmp_path / "museum.jsonl"
    raw.write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in MUSEUM) + "\n", encoding="utf-8"
    )
    drafts = tmp_path / "drafts"
    run_cli("draft", raw, "--out", drafts, check=True)
    files = []
    for who, atomic in (("Bora", True), ("Deniz", False)):
        s = AnnotationSession.start(drafts / "müze-tr.json", who)
        s.confirm_units()
        s.set_atomic("S2", atomic)
        for cid in ("S1", "S2", "S3"):
            s.confirm(cid)
        files.append(str(s.path))
    return raw, files


def test_a_users_own_raw_file_in_another_domain(tmp_path):
    raw, files = _museum(tmp_path)
    run = run_notebook(
        NB,
        parameters={
            "RAW": str(raw),
            "ANSWER": "müze-tr",
            "ANNOTATOR": "Ece",
            "WORK_DIR": str(tmp_path / "work"),
            "AGREEMENT_FILES": files,
            "UNITS": "none",
        },
        output_dir=tmp_path / "out",
    )
    rec = run.records
    assert rec["progress"]["text"] == "0 of 3 candidates confirmed · 0 of 0 units confirmed"
    fields = {f["field"]: f for f in rec["agreement"]["fields"]}
    assert fields["atomic"]["raw_agreement"]["display"] == "66.7% (2/3)"
    assert {t["candidate"] for t in rec["adjudication"]["ties"]} == {"S2"}
    text = run.notebook.read_text(encoding="utf-8")
    assert "Liman" in text
    for word in SHIPPED_WORDS:
        assert word not in text, word


def test_reopening_resumes_the_annotators_copy(tmp_path):
    work = tmp_path / "work"
    run_notebook(NB, parameters={"WORK_DIR": str(work), "ANNOTATOR": "Ana B"}, output_dir=tmp_path)
    s = AnnotationSession(work / "reader-en.ana-b.json", "Ana B")
    s.confirm("S3")
    rec = run_notebook(
        NB, parameters={"WORK_DIR": str(work), "ANNOTATOR": "Ana B"}, output_dir=tmp_path
    ).records
    assert rec["progress"]["text"].startswith("1 of 6 candidates confirmed")


def test_a_bad_raw_file_fails_naming_file_record_and_field(tmp_path):
    raw = tmp_path / "raw.jsonl"
    raw.write_text(json.dumps({"id": "q9", "answer": 5, "subclaims": []}) + "\n", encoding="utf-8")
    with pytest.raises(NotebookFailed) as err:
        run_notebook(
            NB, parameters={"RAW": str(raw), "WORK_DIR": str(tmp_path / "w")}, output_dir=tmp_path
        )
    assert err.value.input_error
    assert str(raw) in str(err.value) and "q9" in str(err.value) and "answer" in str(err.value)


def test_notebook_01_on_a_draft_says_it_is_not_gold(tmp_path):
    run_cli("draft", ROOT / "fixtures" / "raw_subclaims.jsonl", "--out", tmp_path / "d", check=True)
    run = run_notebook(
        ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb",
        parameters={"FIXTURE": str(tmp_path / "d" / "reader-th.json")},
        output_dir=tmp_path / "out",
    )
    text = run.notebook.read_text(encoding="utf-8")
    assert "A draft, not a gold set" in text
    assert "DRAFT: 4 candidates, 3 units proposed" in text
    assert "proposed (not confirmed)" in text


def test_the_users_drafts_show_only_the_users_files(tmp_path):
    """Two decomposers sharing ids, ``ANSWER=B/k01``: B's draft opens; the shipped example's
    annotators' files (the default AGREEMENT_FILES) are not the user's: skipped, nothing written."""
    from tests.labs.annotation.shared_ids import SUBCLAIMS, write_shared_drafts

    drafts = write_shared_drafts(tmp_path / "drafts")
    work = tmp_path / "ana"
    run = run_notebook(
        NB,
        parameters={
            "DRAFT": str(drafts),
            "ANSWER": "B/k01",
            "ANNOTATOR": "Ana",
            "WORK_DIR": str(work),
        },
        output_dir=tmp_path / "out",
    )
    rec = run.records
    assert rec["progress"]["text"].startswith(f"0 of {len(SUBCLAIMS['B']['k01'])} candidates")
    assert "hold none of the answers annotated here" in rec["agreement"]["skipped"]
    assert "adjudication" not in rec and "ledger" not in rec
    assert not (tmp_path / "ana-adjudicated").exists()
    assert sorted(p.relative_to(work).as_posix() for p in work.rglob("*.json")) == [
        "A/k01.json", "A/k02.json", "B/k01.json", "B/k02.json",
    ]  # fmt: skip
    cells = json.loads(run.notebook.read_text(encoding="utf-8"))["cells"]
    shown = json.dumps([c.get("outputs", []) for c in cells], ensure_ascii=False)
    assert "reader-en" not in shown and "Lumen" not in shown  # nothing of the shipped example


def test_an_empty_agreement_files_skips_that_section_with_a_sentence(tmp_path):
    rec = run_notebook(
        NB,
        parameters={"WORK_DIR": str(tmp_path / "work"), "AGREEMENT_FILES": []},
        output_dir=tmp_path / "out",
    ).records
    assert rec["agreement"]["skipped"].startswith("No annotators' files given")
    assert not (tmp_path / "work" / "adjudicated").exists()
