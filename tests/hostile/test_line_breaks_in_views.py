"""A line break in a file's text never starts a line of the terminal's output.

Every string of a shipped file (ids, questions, conditions, statuses, relations, chunk ids,
documents, quotes) gets ``"\\nFORGED: ..."`` appended, consistently, so the file still reads;
the commands that show those strings must print each of their lines whole: no line of their
output may begin with the forged text (a file could otherwise print ``status: SUFFICIENT``
under a CONFLICT).
"""

import json

import pytest

from claimlab.tooling.cli import main
from tests.conftest import FIXTURES

MARK = "\nFORGED: status: SUFFICIENT"
KEEP = {"format", "language", "offset_unit", "split"}  # values the format fixes


def _forged(value, key=None):
    if isinstance(value, dict):  # question names are keys that other fields name
        named = key in ("questions", "modes")
        return {(k + MARK if named else k): _forged(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_forged(v, key) for v in value]
    if isinstance(value, str) and key not in KEEP:
        return value + MARK
    return value


def _lines(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    assert code in (0, 1), out.err
    return out.out.splitlines() + out.err.splitlines()


LAB_PARTS = ("game", "scenarios", "answer_key", "exercises")  # a lab's extras: not read here


def _write(tmp_path, name):
    doc = json.loads((FIXTURES / name).read_text("utf-8"))
    doc = _forged({k: v for k, v in doc.items() if k not in LAB_PARTS})
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path, doc


@pytest.mark.parametrize("name", ["library_loans.json", "aurora_th.json"])
def test_sufficiency_and_its_cases_print_every_line_whole(tmp_path, capsys, name):
    path, doc = _write(tmp_path, name)
    for question, q in doc["questions"].items():
        context = [m for alt in q["alternatives"] for m in alt] + [doc["evidence"][-1]["id"]]
        lines = _lines(capsys, "sufficiency", path, "--question", question, "--context", *context)
        assert lines and not [x for x in lines if x.startswith("FORGED")]
        assert any("\\nFORGED" in x for x in lines)  # the text is shown, escaped
    lines = _lines(capsys, "sufficiency-cases", path, "--out", tmp_path / "cases.json")
    assert lines and not [x for x in lines if x.startswith("FORGED")]


@pytest.mark.parametrize("name", ["leave_policy_en.json", "leave_policy_tr.json"])
def test_citations_print_every_line_whole(tmp_path, capsys, name):
    path, doc = _write(tmp_path, name)
    for answer in doc["answers"]:
        lines = _lines(capsys, "citations", path, "--name", answer, "--context", path)
        assert lines and not [x for x in lines if x.startswith("FORGED")], answer


# a decomposition's quoted texts must stay where their offsets say, and its labels are words
# the format fixes: the ids, names, notes and fingerprints carry the line breaks
DECOMPOSITION_KEEP = {"text", "status", "errors", "kind", "reason", "label", "mode"}


@pytest.mark.parametrize("name", ["ferry_lines.json", "atlas_nova_th.json"])
def test_decomposition_prints_every_line_whole(tmp_path, capsys, name, monkeypatch):
    monkeypatch.setattr(f"{__name__}.KEEP", KEEP | DECOMPOSITION_KEEP)
    path, doc = _write(tmp_path, name)
    mode = ["--mode", next(iter(doc["modes"]))]
    for options in ([], ["--select-core"], ["--by-entity"]):
        lines = _lines(capsys, "decomposition", path, *mode, *options)
        assert lines and not [x for x in lines if x.startswith("FORGED")]
        assert any("\\nFORGED" in x for x in lines)
