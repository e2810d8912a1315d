"""File names for answer ids: every letter and its combining marks kept, nothing unsafe.

Invariants, on generated ids in the seeds' scripts (Thai, Korean, Turkish) with separators:
* every letter, mark and digit of an id stays in its file name, in order (ids under the cap);
* no name holds a separator, a control or a leading dot; names differ ignoring case;
* for an id without combining marks the name is the one written before marks were kept.
"""

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from claimlab.io.files import file_names
from claimlab.labs.annotation.draft import ensure_draft
from tests.conftest import run_cli

# letters with their marks (Thai tone marks and vowels, Turkish dotless/dotted i, Hangul),
# digits of two scripts, and the characters a name must not keep
PIECES = st.sampled_from(
    list("รถเมล์ก่อนี้ัิ")
    + list("ıİşğüçö")
    + list("한국어버스")
    + list("7๗")
    + list("aZ")
    + ["/", "\\", " ", "..", "\x00", "\n", ":", "*", "\u0301", "\u200f"]
)
IDS = st.lists(PIECES, min_size=1, max_size=12).map("".join)


def _kept(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c)[0] in "LMN"]


@given(IDS)
def test_every_letter_and_mark_of_an_id_stays_in_its_name(rid):
    name = file_names([rid])[0]
    assert _kept(rid) == _kept(name[: -len(".json")]) or not _kept(rid)


@given(st.lists(IDS, min_size=1, max_size=20))
def test_names_are_safe_and_distinct_ignoring_case(ids):
    names = file_names(ids)
    assert len({n.lower() for n in names}) == len(names)
    for n in names:
        assert not n.startswith(".") and n.endswith(".json")
        assert not any(c in n for c in "/\\\x00\n:* ") and n.isprintable()


@given(st.lists(IDS.filter(lambda r: not any(unicodedata.category(c)[0] == "M" for c in r))))
def test_ids_without_marks_keep_the_names_written_before(ids):
    assert file_names(ids) == file_names(ids, marks=False)


def test_a_thai_bus_line_keeps_its_tone_mark():
    assert file_names(["รถเมล์-8", "ก่อน/หลัง", "cafe\u0301"]) == [
        "รถเมล์-8.json",
        "ก่อน_หลัง.json",
        "cafe\u0301.json",
    ]
    assert file_names(["รถเมล์-8"], marks=False) == ["รถเมล_-8.json"]


def _raw(tmp_path):
    path = tmp_path / "raw.jsonl"
    record = {"id": "รถเมล์-8", "answer": "รถเมล์สาย 8 วิ่งทุกวัน", "subclaims": ["รถเมล์สาย 8 วิ่งทุกวัน"]}
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_a_draft_written_under_the_older_name_is_refused_without_force(tmp_path):
    raw, out = _raw(tmp_path), tmp_path / "drafts"
    out.mkdir()
    (out / "รถเมล_-8.json").write_text("{}", encoding="utf-8")
    proc = run_cli("draft", raw, "--out", out)
    assert proc.returncode == 2 and "may already be annotated" in proc.stderr
    assert "รถเมล_-8.json" in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["รถเมล_-8.json"]


def test_the_annotator_resumes_a_draft_written_under_the_older_name(tmp_path):
    raw, work = _raw(tmp_path), tmp_path / "work"
    work.mkdir()
    (work / "รถเมล_-8.json").write_text("{}", encoding="utf-8")
    path, summary = ensure_draft(raw, work)
    assert path.name == "รถเมล_-8.json" and summary is None
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    path, summary = ensure_draft(raw, fresh)
    assert path.name == "รถเมล์-8.json" and summary is not None
