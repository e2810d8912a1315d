"""File names for answer ids: every letter and its combining marks kept, nothing unsafe.

Invariants, on generated ids in the seeds' scripts (Thai, Korean, Turkish) with separators:
* every letter, mark and digit of an id stays in its file name, in order (ids under the cap);
* no name holds a separator, a control or a leading dot; names differ ignoring case;
* for an id without combining marks the name is the one written before marks were kept;
* a name never depends on another run: a long id keeps a hash of itself, and ``draft`` into a
  folder holding another answer's file under the same name (ignoring case and Unicode form)
  takes another name, and one holding this answer's draft is refused without ``--force``.
"""

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimlab.core.text import is_mark
from claimlab.io.files import file_names
from claimlab.labs.annotation.draft import ensure_draft, fingerprint
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
    return [c for c in text if unicodedata.category(c)[0] in "LMN" or is_mark(c)]


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


@given(st.lists(IDS.filter(lambda r: not any(is_mark(c) for c in r))))
def test_ids_without_marks_keep_the_names_written_before(ids):
    assert file_names(ids) == file_names(ids, older=True)


def test_a_thai_bus_line_keeps_its_tone_mark():
    assert file_names(["รถเมล์-8", "ก่อน/หลัง", "cafe\u0301"]) == [
        "รถเมล์-8.json",
        "ก่อน_หลัง.json",
        "cafe\u0301.json",
    ]
    assert file_names(["รถเมล์-8"], older=True) == ["รถเมล_-8.json"]


def _raw(tmp_path):
    path = tmp_path / "raw.jsonl"
    record = {"id": "รถเมล์-8", "answer": "รถเมล์สาย 8 วิ่งทุกวัน", "subclaims": ["รถเมล์สาย 8 วิ่งทุกวัน"]}
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _older_draft(tmp_path, raw):
    """A folder holding the answer's draft under the name written before marks were kept."""
    out = tmp_path / "drafts"
    run_cli("draft", raw, "--out", out, check=True)
    (out / "รถเมล์-8.json").rename(out / "รถเมล_-8.json")
    return out


def test_a_draft_written_under_the_older_name_is_refused_without_force(tmp_path):
    raw = _raw(tmp_path)
    out = _older_draft(tmp_path, raw)
    proc = run_cli("draft", raw, "--out", out)
    assert proc.returncode == 2 and "may already be annotated" in proc.stderr
    assert "รถเมล_-8.json" in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["รถเมล_-8.json"]


def test_the_annotator_resumes_a_draft_written_under_the_older_name(tmp_path):
    raw = _raw(tmp_path)
    work = _older_draft(tmp_path, raw)
    path, summary = ensure_draft(raw, work)
    assert path.name == "รถเมล_-8.json" and summary is None
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    path, summary = ensure_draft(raw, fresh)
    assert path.name == "รถเมล์-8.json" and summary is not None


@given(st.text(min_size=1, max_size=30), st.text(min_size=1, max_size=30))
def test_long_ids_sharing_a_beginning_get_their_own_names_in_any_run(tail_a, tail_b):
    start = "क्षयरोग-उपचार-दिशानिर्देश-संस्करण-" * 3
    a, b = start + tail_a, start + tail_b
    (name_a,), (name_b,) = file_names([a]), file_names([b])
    assert (name_a == name_b) == (a == b)
    assert len(name_a[: -len(".json")].encode()) <= 80


def test_device_names_and_joiners():
    assert file_names(["CON", "lpt1.x", "क्\u200dष"]) == [
        "CON_.json",
        "lpt1.x_.json",
        "क्\u200dष.json",
    ]


def test_fingerprints_keep_marks_in_one_spelling():
    assert fingerprint("ร้านนี้ขายข้าว") != fingerprint("ร้านนี้ขายข่าว")  # rice, news
    assert fingerprint("दवा की खुराक।") == fingerprint("दवा  की खुराक")
    assert fingerprint("Vie\u0302\u0323t Nam") == fingerprint("Việt nam")


def _raw_ids(tmp_path, ids):
    path = tmp_path / "raw.jsonl"
    lines = [{"id": i, "answer": "Phở là món ăn.", "subclaims": ["Phở là món ăn."]} for i in ids]
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    return path


def _ids_in(folder):
    return sorted(json.loads(p.read_text("utf-8"))["original"]["id"] for p in folder.iterdir())


def test_another_answers_draft_keeps_its_name_across_runs_and_one_answer_has_one_file(tmp_path):
    out = tmp_path / "drafts"
    run_cli("draft", _raw_ids(tmp_path, ["hà-nội"]), "--out", out, check=True)
    # another answer whose name differs only by case: a second name, never the first file
    run_cli("draft", _raw_ids(tmp_path, ["Hà-Nội"]), "--out", out, check=True)
    assert sorted(p.name for p in out.iterdir()) == ["Hà-Nội-2.json", "hà-nội.json"]
    # both again: each answer's draft is found (refused without --force), whatever its name
    proc = run_cli("draft", _raw_ids(tmp_path, ["Hà-Nội", "hà-nội"]), "--out", out)
    assert proc.returncode == 2 and "Hà-Nội-2.json" in proc.stderr and "exists" in proc.stderr
    run_cli("draft", _raw_ids(tmp_path, ["Hà-Nội", "hà-nội"]), "--out", out, "--force", check=True)
    assert _ids_in(out) == ["Hà-Nội", "hà-nội"] and len(list(out.iterdir())) == 2


def test_a_draft_under_another_spelling_of_its_name_is_replaced_in_place(tmp_path):
    out = tmp_path / "drafts"
    run_cli("draft", _raw_ids(tmp_path, ["김치", "รถเมล์-8"]), "--out", out, check=True)
    (out / "김치.json").rename(out / unicodedata.normalize("NFD", "김치.json"))  # as macOS stores
    (out / "รถเมล์-8.json").rename(out / "รถเมล_-8.json")  # as written before marks were kept
    assert run_cli("draft", _raw_ids(tmp_path, ["김치"]), "--out", out).returncode == 2
    run_cli("draft", _raw_ids(tmp_path, ["김치", "รถเมล์-8"]), "--out", out, "--force", check=True)
    assert len(list(out.iterdir())) == 2 and _ids_in(out) == sorted(["김치", "รถเมล์-8"])


def test_draft_shows_an_id_with_a_line_break_on_one_line(tmp_path):
    proc = run_cli("draft", _raw_ids(tmp_path, ["kanun\n7"]), "--out", tmp_path / "d", check=True)
    assert "kanun\\n7 -> " in proc.stdout


def test_a_draft_under_its_older_name_is_found_whichever_id_comes_first(tmp_path):
    """The older name of an answer is its own, not what the run's other ids make of it."""
    src, out = tmp_path / "src", tmp_path / "drafts"
    run_cli("draft", _raw_ids(tmp_path, ["รถเมล์-8"]), "--out", src, check=True)
    out.mkdir()
    (src / "รถเมล์-8.json").rename(out / "รถเมล_-8.json")  # written before marks were kept
    both = _raw_ids(tmp_path, ["รถเมล_-8", "รถเมล์-8"])  # the other id's own name is that one
    proc = run_cli("draft", both, "--out", out)
    assert proc.returncode == 2 and "รถเมล_-8.json" in proc.stderr
    run_cli("draft", both, "--out", out, "--force", check=True)
    assert _ids_in(out) == sorted(["รถเมล_-8", "รถเมล์-8"]) and len(list(out.iterdir())) == 2


@given(st.text(alphabet="aeข้ิ่\u0301\u0302कषि्\u200d", min_size=60, max_size=120))
def test_a_long_id_is_cut_between_letters_never_inside_one(rid):
    """Never before a mark, never after a virama or a joiner (a Hindi conjunct such as क्ष)."""
    stem = file_names([rid])[0][: -len(".json")]
    if len(rid.encode()) <= 80 or not any(c.isalpha() for c in rid):
        return
    kept = stem.rsplit("-", 1)[0]
    assert rid.startswith(kept) and not (len(kept) < len(rid) and is_mark(rid[len(kept)]))
    assert not kept or kept[-1] not in "\u094d\u200d"


def test_every_windows_device_name_gets_its_underscore():
    assert file_names(["COM¹", "lpt³.txt", "COM0"]) == ["COM¹_.json", "lpt³.txt_.json", "COM0.json"]


@pytest.mark.parametrize(
    ("copy", "original"),
    [
        ("BİSİKLET PARK YERİ ÜCRETSİZDİR", "Bisiklet park yeri ücretsizdir"),
        ("İSTASYON SABAH ALTIDA AÇILIR", "İstasyon sabah altıda açılır"),
        ("istasyon sabah altıda açılır", "İstasyon sabah altıda açılır"),
        ("KAPI KAPALI", "kapı kapalı"),
    ],
)
def test_a_turkish_copy_in_capitals_is_the_same_claim(copy, original):
    """Turkish i's read alike: a copy in capitals is a duplicate, and it aligns in full."""
    from claimlab.labs.annotation.draft import align

    assert fingerprint(copy) == fingerprint(original)
    answer = f"{original}. Başka bir cümle."
    found = align(copy, answer)
    assert found is not None and answer[found.start : found.end].rstrip(".") == original
