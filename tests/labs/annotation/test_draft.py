"""claimlab draft: raw subclaims become decomposition drafts whose every label is proposed."""

import json

import pytest

from claimlab.core.spans import utf16_slice
from claimlab.core.vocab import REVIEW_FIELDS
from claimlab.io.decomposition import load_decomposition
from claimlab.io.raw import load_raw_answers
from claimlab.labs.annotation.draft import align, draft_document, file_names, looks_compound
from tests.conftest import run_cli

# three answers of another domain (a museum's opening hours), in English, Thai and Turkish
RAW = [
    {
        "id": "museum/en",
        "answer": "The Harbour Museum opens at 9:30 on weekdays. Entry is free on Sundays. "
        "Dr. Okafor leads tours in English and Igbo.",
        "subclaims": [
            "The Harbour Museum opens at 9:30 on weekdays.",
            "Entry is free on Sundays.",
            "Dr. Okafor leads tours in English.",
            "The museum has a rooftop café.",
            "Entry is free on Sundays.",
        ],
        "labels": [None, {"status": "SUPPORTED", "references": ["H1"]}, None, None, None],
        "references": [
            {
                "id": "H1",
                "title": "Visitor page",
                "version": "2026",
                "text": "Free entry on Sundays.",
            }
        ],
    },
    {
        "id": "museum-th",
        "answer": "พิพิธภัณฑ์เปิดเวลา 9:30 น. ในวันธรรมดา เข้าชมฟรีในวันอาทิตย์",
        "subclaims": ["พิพิธภัณฑ์เปิดเวลา 9:30 น. ในวันธรรมดา", "เข้าชมฟรีในวันอาทิตย์", "มีร้านกาแฟบนดาดฟ้า"],
    },
    {
        "id": "müze-tr",
        "answer": "🏛️ Liman Müzesi hafta içi 9.30'da açılır. Pazar günleri giriş ücretsizdir ve "
        "rehberli turlar vardır.",
        "subclaims": [
            "Liman Müzesi hafta içi 9.30'da açılır.",
            "Pazar günleri giriş ücretsizdir ve rehberli turlar vardır.",
            "Müzenin çatısında bir kafe var.",
        ],
    },
]


@pytest.fixture
def raw_file(tmp_path):
    p = tmp_path / "raw.jsonl"
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in RAW) + "\n", encoding="utf-8")
    return p


def test_drafts_load_and_every_span_is_its_utf16_slice(raw_file, tmp_path):
    out = tmp_path / "drafts"
    proc = run_cli("draft", raw_file, "--out", out)
    assert proc.returncode == 0, proc.stderr
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["museum-th.json", "museum_en.json", "müze-tr.json"]
    for f in files:
        fx = load_decomposition(f)
        doc = json.loads(f.read_text(encoding="utf-8"))
        text = doc["original"]["text"]
        for c in doc["candidates"]:
            for s in c["source_spans"]:
                assert utf16_slice(text, s["start"], s["end"]) == s["text"]
            assert c["review"] == [str(x) for x in REVIEW_FIELDS]  # every label proposed
        assert fx.is_draft and all(u.proposed for u in fx.units)
        assert "Not a gold set" in fx.note


def test_subclaims_that_match_nowhere_get_no_span_and_are_flagged(raw_file, tmp_path):
    proc = run_cli("draft", raw_file, "--out", tmp_path / "d", "--json")
    data = json.loads(proc.stdout)
    nowhere = {d["id"]: d["matched_nowhere"] for d in data["drafts"]}
    assert nowhere == {"museum/en": ["S4"], "museum-th": ["S3"], "müze-tr": ["S3"]}
    assert data["gold"] is False
    en = load_decomposition(data["files"][0])
    s4 = en.candidate("S4")
    assert s4.source_spans == () and s4.errors == ("introduced",) and not s4.faithful
    text = run_cli("draft", raw_file, "--out", tmp_path / "e").stdout
    assert "matched nowhere (no span, proposed as introduced): S4" in text
    assert "PROPOSED, not gold" in text


def test_thai_and_turkish_sentences_and_the_emoji_offsets(raw_file, tmp_path):
    out = tmp_path / "d"
    run_cli("draft", raw_file, "--out", out, check=True)
    th = load_decomposition(out / "museum-th.json")
    # Thai writes no full stop: the space between two Thai words ends the sentence, and the
    # dot of the abbreviation "น." (o'clock) does not
    assert [u.span.text for u in th.units] == [
        "พิพิธภัณฑ์เปิดเวลา 9:30 น. ในวันธรรมดา",
        "เข้าชมฟรีในวันอาทิตย์",
    ]
    tr = load_decomposition(out / "müze-tr.json")
    # "9.30'da" is not a sentence end; the emoji is two UTF-16 units
    assert tr.units[0].span.text.startswith("🏛️ Liman Müzesi hafta içi 9.30'da açılır")
    s1 = tr.candidate("S1").source_spans[0]
    assert (s1.start, s1.text) == (4, "Liman Müzesi hafta içi 9.30'da açılır")  # U+1F3DB is 2
    assert not tr.candidate("S2").atomic  # "ve" joins two statements: proposed non-atomic
    assert tr.candidate("S1").atomic


def test_labels_from_the_raw_file_are_kept_as_proposals(raw_file, tmp_path):
    out = tmp_path / "d"
    run_cli("draft", raw_file, "--out", out, check=True)
    en = load_decomposition(out / "museum_en.json")
    s2 = en.candidate("S2")
    assert s2.evidence.status == "SUPPORTED" and s2.evidence.references == ("H1",)
    assert "evidence" in s2.review
    assert en.candidate("S5").fingerprint == s2.fingerprint  # repeated subclaim: a duplicate
    assert en.modes["decomposer"] == en.candidate_ids


def test_a_draft_scores_with_proposed_labels_flagged(raw_file, tmp_path):
    out = tmp_path / "d"
    run_cli("draft", raw_file, "--out", out, check=True)
    f = out / "museum_en.json"
    text = run_cli("decomposition", f, "--mode", "decomposer").stdout
    assert "DRAFT, not gold" in text and "[proposed: source_spans, preserves" in text
    data = json.loads(run_cli("decomposition", f, "--mode", "decomposer", "--json").stdout)
    assert data["gold"] is False and set(data["proposed_labels"]) == {"S1", "S2", "S3", "S4", "S5"}
    assert data["duplicates"] == ["S5"]


def test_given_units_as_text_and_spans(tmp_path):
    raw = {
        "id": "q",
        "answer": "📘 A and B. C.",
        "subclaims": ["A and B", "C"],
        "units": ["A and B.", {"start": 12, "end": 14}],
    }
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps(raw, ensure_ascii=False) + "\n", encoding="utf-8")
    (a,) = load_raw_answers(p)
    assert a.units == ((3, 11), (12, 14))
    doc, summary = draft_document(a)
    assert summary.units_from == "given" and "review" not in doc["units"][0]
    assert [c["preserves"] for c in doc["candidates"]] == [["U1"], ["U2"]]


def test_units_none_leaves_the_units_to_the_annotator(raw_file, tmp_path):
    out = tmp_path / "d"
    run_cli("draft", raw_file, "--out", out, "--units", "none", check=True)
    fx = load_decomposition(out / "museum_en.json")
    assert fx.units == () and all(c.preserves == () for c in fx.candidates)
    proc = run_cli("draft", raw_file, "--out", tmp_path / "x", "--units", "words")
    assert proc.returncode == 2 and "--units must be one of sentences, none" in proc.stderr


def test_existing_drafts_are_never_overwritten_without_force(raw_file, tmp_path):
    out = tmp_path / "d"
    run_cli("draft", raw_file, "--out", out, check=True)
    target = out / "museum_en.json"
    target.write_text(
        target.read_text(encoding="utf-8").replace('"faithful": true', '"faithful": false', 1),
        encoding="utf-8",
    )
    before = target.read_bytes()
    proc = run_cli("draft", raw_file, "--out", out)
    assert proc.returncode == 2 and "may already be annotated" in proc.stderr
    assert target.read_bytes() == before
    assert run_cli("draft", raw_file, "--out", out, "--force").returncode == 0
    assert target.read_bytes() != before


@pytest.mark.parametrize(
    ("line", "record", "field", "problem"),
    [
        ({"answer": "x", "subclaims": []}, "line 1", "id", "non-empty string"),
        ({"id": "q", "subclaims": ["a"]}, "q", "answer", "missing required field"),
        ({"id": "q", "answer": "x", "subclaims": "a"}, "q", "subclaims", "must be a list"),
        ({"id": "q", "answer": "x", "subclaims": ["  "]}, "q", "subclaims[0]", "some text"),
        (
            {"id": "q", "answer": "x", "subclaims": ["a"], "units": ["zz"]},
            "q",
            "units[0]",
            "does not occur",
        ),
        (
            {"id": "q", "answer": "x", "subclaims": ["a"], "units": [{"start": 0, "end": 9}]},
            "q",
            "units[0].start",
            "not inside",
        ),
        (
            {"id": "q", "answer": "📘", "subclaims": ["a"], "units": [{"start": 0, "end": 1}]},
            "q",
            "units[0]",
            "surrogate",
        ),
        (
            {"id": "q", "answer": "x", "subclaims": ["a"], "labels": []},
            "q",
            "labels",
            "one per subclaim",
        ),
        (
            {"id": "q", "answer": "x", "subclaims": ["a"], "labels": [{"stauts": "SUPPORTED"}]},
            "q",
            "labels[0].stauts",
            "unknown label",
        ),
        (
            {"id": "q", "answer": "x", "subclaims": ["a"], "labels": [{"status": "TRUE"}]},
            "q",
            "labels[0].status",
            "unknown status",
        ),
        (
            {"id": "q", "answer": "x", "subclaims": ["a"], "labels": [{"faithful": 1}]},
            "q",
            "labels[0].faithful",
            "true or false",
        ),
        (
            {"id": "q", "answer": "x", "subclaims": ["a"], "labels": [{"references": ["R9"]}]},
            "q",
            "labels[0].references[0]",
            "unknown reference",
        ),
    ],
)
def test_bad_raw_lines_name_file_record_and_field(tmp_path, line, record, field, problem):
    p = tmp_path / "raw.jsonl"
    p.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    proc = run_cli("draft", p, "--out", tmp_path / "out")
    assert proc.returncode == 2, proc.stdout
    err = proc.stderr.strip()
    assert (
        err.count("\n") == 0 and str(p) in err and record in err and field in err and problem in err
    )
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_duplicate_ids_and_an_empty_file_are_refused(tmp_path):
    p = tmp_path / "raw.jsonl"
    row = {"id": "q", "answer": "x", "subclaims": ["x"]}
    p.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n", encoding="utf-8")
    proc = run_cli("draft", p, "--out", tmp_path / "o")
    assert proc.returncode == 2 and "duplicate id" in proc.stderr
    p.write_text("\n", encoding="utf-8")
    assert "holds no answer" in run_cli("draft", p, "--out", tmp_path / "o").stderr


@pytest.mark.parametrize(
    ("subclaim", "answer", "span"),
    [
        (
            "Version 2 reads EPUB files",
            "It is fast. Version 2 reads PDF and EPUB files.",
            "Version 2 reads PDF and EPUB files",
        ),
        (
            "dosyalarını açar",
            "Uygulama dosyaları açar.",
            "dosyaları açar",
        ),  # a suffix still matches
        ("It is FAST", "it is fast.", "it is fast"),
        ("İstanbul'da açık", "Müze İstanbul'da açık.", "İstanbul'da açık"),  # İ keeps its offsets
        ("เข้าชมฟรี", "เปิดทุกวัน เข้าชมฟรีในวันอาทิตย์", "เข้าชมฟรี"),
    ],
)
def test_alignment_table(subclaim, answer, span):
    a = align(subclaim, answer)
    assert a is not None and answer[a.start : a.end] == span


def test_alignment_below_the_threshold_is_no_span():
    assert align("The museum has a rooftop café", "The museum opens at 9:30.") is None
    assert align("", "text") is None and align("text", " ") is None


@pytest.mark.parametrize(
    ("text", "compound"),
    [
        ("A and B", True),
        ("A ve B", True),
        ("กและข", True),
        ("Andrew reads", False),
        ("sandwich", False),
    ],
)
def test_compound_heuristic(text, compound):
    assert looks_compound(text) is compound


def test_file_names_are_safe_and_distinct():
    names = file_names(["a/b", "a_b", "A_B", "..", "<script>", "x" * 300])
    assert len(set(n.lower() for n in names)) == 6
    assert all("/" not in n and not n.startswith(".") and len(n) <= 90 for n in names)


def test_a_long_answer_with_many_subclaims_drafts_in_reasonable_work():
    # 2,000 sentences and 200 subclaims: the aligner looks only at stretches that start on a
    # matching word, so this stays a fraction of a second per subclaim
    sentences = [f"Item {i} costs {i} euros." for i in range(2000)]
    answer = " ".join(sentences)
    from claimlab.io.raw import RawAnswer

    raw = RawAnswer(
        "big", 1, answer, "v", tuple(sentences[::10]), None, (), tuple({} for _ in sentences[::10])
    )
    doc, summary = draft_document(raw)
    assert summary.units == 2000 and summary.spans == 200
    assert all(c["source_spans"][0]["text"].rstrip(".") in answer for c in doc["candidates"])


def test_an_unknown_answer_names_the_parameter_it_came_from(raw_file, tmp_path):
    """An answer id the file lacks is the user's setting, not a record of the file."""
    from claimlab.core.errors import ClaimlabInputError
    from claimlab.labs.annotation.draft import ensure_draft
    from claimlab.labs.annotation.session import open_workspace

    asked = "the parameter ANSWER"
    with pytest.raises(ClaimlabInputError) as info:
        ensure_draft(raw_file, tmp_path / "w", answer="nosuch", given_as=asked)
    assert str(info.value).startswith(f"{raw_file}: the parameter ANSWER is 'nosuch', but")
    assert "(it has " in str(info.value) and info.value.record is None
    drafts = tmp_path / "drafts"
    run_cli("draft", raw_file, "--out", drafts)
    with pytest.raises(ClaimlabInputError) as info:
        open_workspace(drafts, "tester", tmp_path / "work", answer="nosuch", given_as=asked)
    assert str(info.value).startswith(f"{drafts}: the parameter ANSWER is 'nosuch', but")
    space = open_workspace(drafts, "tester", tmp_path / "work", answer="", given_as=asked)
    assert space.draft.exists()  # "" still takes the first


# ------------------------------------------------------------- one answer's index, as a property
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from claimlab.core.spans import utf16_offset, utf16_offsets  # noqa: E402
from claimlab.labs.annotation.draft import _Units  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab ğ한ส😀\U0001f4d8\n"), max_size=40))
def test_the_answers_utf16_offsets_are_the_one_rules(text):
    """Invariant: the per-answer offset map gives :func:`utf16_offset` at every index."""
    to16 = utf16_offsets(text)
    assert [to16(i) for i in range(len(text) + 1)] == [
        utf16_offset(text, i) for i in range(len(text) + 1)
    ]


units_st = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(units_st, st.integers(0, 70), st.integers(0, 20), st.booleans())
def test_the_units_a_span_overlaps_are_those_a_scan_finds(raw, start, length, in_order):
    """Invariant: the indexed look-up equals the plain scan, for units in order or not, nested
    or empty, in the units' own order."""
    spans = sorted(raw) if in_order else raw
    rows = [(f"U{i}", s, s + n, "") for i, (s, n) in enumerate(spans, 1)]
    end = start + length
    assert _Units(rows).overlapping(start, end) == [
        uid for uid, us, ue, _ in rows if us < end and start < ue
    ]


def test_one_answer_of_many_sentences_is_drafted_in_linear_time():
    """A long answer's subclaims each find their units by binary search (a scan over every unit
    for every subclaim made one answer of 20,000 sentences take 20 s); counted, not timed: the
    same spans and preserves as the scan."""
    from claimlab.io.raw import RawAnswer

    sentences = [f"Kapı {i} saat {i % 24}:00'te açılır 😀." for i in range(300)]
    raw = RawAnswer("long", 1, " ".join(sentences), "v", tuple(sentences), None, (),
                    tuple({} for _ in sentences))  # fmt: skip
    doc, summary = draft_document(raw)
    assert summary.spans == 300 and summary.unbacked == ()
    units = {u["id"]: u["span"] for u in doc["units"]}
    for c in doc["candidates"]:
        (span,) = c["source_spans"]
        assert utf16_slice(doc["original"]["text"], span["start"], span["end"]) == span["text"]
        assert c["preserves"] == [
            uid for uid, u in units.items() if u["start"] < span["end"] and span["start"] < u["end"]
        ]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("a b c d".split()), max_size=30),
       st.lists(st.sampled_from("a b c d".split()), max_size=4))  # fmt: skip
def test_the_first_run_of_a_subclaims_words_is_the_one_a_scan_finds(words, claim):
    """Invariant: looking a run up from its rarest word finds the first run a scan finds."""
    from claimlab.labs.annotation.draft import _WordIndex

    n = len(claim)
    first = next((i for i in range(len(words) - n + 1) if n and words[i : i + n] == claim), None)
    assert _WordIndex(words).find_run(claim) == first


WORDS = st.text(alphabet="abcdeiklnorstuçğışöü가나다รถเมล์", min_size=1, max_size=9)


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=6), st.lists(WORDS, min_size=1, max_size=30))
def test_similar_words_are_the_matrix_of_ratios_at_the_threshold(words, choices):
    """One ``extract`` per word finds what the ratio matrix finds, near the threshold too."""
    from rapidfuzz import fuzz, process

    from claimlab.labs.annotation.draft import WORD_SIMILARITY, similar_words

    sim = process.cdist(words, choices, scorer=fuzz.ratio, score_cutoff=WORD_SIMILARITY)
    want: list[list[str]] = [[] for _ in words]
    for k, j in zip(*sim.nonzero(), strict=True):
        want[k].append(choices[j])
    assert similar_words(words, choices) == want


_SENTENCES = [
    "Mercimek çorbası için 7 su bardağı su kullanın.",
    "진료는 오전 9시에 시작합니다.",
    "Bảo tàng mở cửa lúc chín giờ sáng.",
    "Le musée ouvre à neuf heures, même en été.",
]


@given(st.lists(st.sampled_from(_SENTENCES), min_size=2, max_size=4, unique=True), st.data())
def test_a_subclaim_in_another_unicode_spelling_aligns_as_the_same_text(sentences, data):
    """A subclaim decomposed (NFD) aligns to the span of its composed copy, and a composed
    subclaim to a decomposed answer's span: one text in two spellings (was: no span)."""
    import unicodedata

    answer = " ".join(sentences)
    pick = data.draw(st.sampled_from(sentences)).rstrip(".")
    same = align(pick, answer)
    assert same is not None and same.score == 100
    got = align(unicodedata.normalize("NFD", pick), answer)
    assert got is not None and (got.start, got.end, got.score) == (same.start, same.end, 100)
    nfd_answer = unicodedata.normalize("NFD", answer)
    back = align(pick, nfd_answer)
    assert back is not None and nfd_answer[back.start : back.end] == unicodedata.normalize(
        "NFD", answer[same.start : same.end]
    )
