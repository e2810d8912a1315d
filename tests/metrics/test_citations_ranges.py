"""A range in a quote backs the range, never one of its ends stated alone.

Invariant: a quote that gives a value only as an end of a range ("5-7 working days") never
backs a claim that states that value alone ("5 working days"), in any language or domain;
the same claim on a quote that states the value itself, and a claim that states the range in
any of its spellings ("5 to 7", "between 5 and 7", "5 ile 7", "5~7", "5에서 7", "5 ถึง 7"),
keep ACCEPT.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.content import range_ends
from claimlab.io.context_lab import Answer, Chunk, Claim
from claimlab.metrics.citations import score_citations

# language -> templates of one sentence around a number ({n}); the quote is the same sentence
TEMPLATES = {
    "en": ["Delivery takes {n} working days.", "The course lasts {n} weeks.",
           "A repair of the boiler costs {n} euros.", "The ferry crossing takes {n} minutes."],
    "tr": ["Teslimat {n} iş günü sürer.", "Kurs {n} hafta sürer.",
           "Kombi tamiri {n} avro tutar."],
    "ko": ["국내 배송은 보통 {n}일 걸립니다.", "보일러 수리는 대개 {n}주 걸립니다.",
           "이 강좌는 매주 {n}시간 진행됩니다."],
    "th": ["สินค้าจะจัดส่งภายใน {n} วันทำการ", "ค่าซ่อมหม้อต้มน้ำร้อนราคา {n} บาท",
           "เรือข้ามฟากไปเกาะใช้เวลา {n} นาที"],
}  # fmt: skip
# the spellings of a range in a quote (read only as a range) and in a claim (any of them)
QUOTE_RANGES = {"en": ["{a}-{b}", "{a}–{b}", "between {a} and {b}", "{a} to {b}", "{a} - {b}",
                       "from {a} to {b}"],
                "tr": ["{a}-{b}", "{a}–{b}", "{a} ila {b}"],
                "ko": ["{a}-{b}", "{a}~{b}", "{a}에서 {b}"],
                "th": ["{a}-{b}", "{a} ถึง {b}", "ระหว่าง {a} ถึง {b}"]}  # fmt: skip
CLAIM_RANGES = {
    "en": ["{a}-{b}", "{a} to {b}", "between {a} and {b}", "{a} – {b}"],
    "tr": ["{a}-{b}", "{a} ile {b}", "{a} ila {b}"],
    "ko": ["{a}~{b}", "{a}에서 {b}", "{a}-{b}"],
    "th": ["{a}-{b}", "{a} ถึง {b}"],
}
SETTINGS = settings(max_examples=60, deadline=None)


def _codes(language: str, claim: str, quote: str) -> list[str]:
    chunk = Chunk("doc#1", "Doc", "1", 0.9, quote)
    c = Claim(claim, "doc#1", quote.rstrip("."), None)
    lang = language if language in ("en", "tr") else "en"
    report = score_citations(Answer(claim, (c,), False, lang), [chunk])
    return [p.code for p in report.problems]


@st.composite
def ranged(draw):
    language = draw(st.sampled_from(sorted(TEMPLATES)))
    template = draw(st.sampled_from(TEMPLATES[language]))
    a = draw(st.integers(1, 400))
    b = draw(st.integers(a + 1, a + 400))
    quoted = draw(st.sampled_from(QUOTE_RANGES[language])).format(a=a, b=b)
    return language, template, a, b, quoted


@SETTINGS
@given(ranged(), st.booleans())
def test_one_end_of_a_quoted_range_stated_alone_is_never_accepted(case, low_end):
    language, template, a, b, quoted = case
    claim = template.format(n=a if low_end else b)
    assert "NUMBER_MISMATCH" in _codes(language, claim, template.format(n=quoted))
    assert _codes(language, claim, claim) == []  # the value itself backs it


@SETTINGS
@given(ranged(), st.data())
def test_a_range_stated_in_any_spelling_is_backed_by_the_range(case, data):
    language, template, a, b, quoted = case
    spelled = data.draw(st.sampled_from(CLAIM_RANGES[language])).format(a=a, b=b)
    assert _codes(language, template.format(n=spelled), template.format(n=quoted)) == []


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("opens 2026-03-01", set()),  # a date
        ("open 9:00-17:00", set()),  # clock times
        ("won 3-2", set()),  # a score: the first is not the smaller
        ("call 555-0142", set()),  # a telephone number: the first is not the smaller
        ("5 ile 7 gün arasında", {"5", "7"}),
        ("between 2.5 and 3.5 hours", {"2.5", "3.5"}),
        ("from 5 to 7 days", {"5", "7"}),
        ("prices rose from 5 to 7 euros", set()),  # a change, not a range
        ("요금이 5에서 7로 올랐다", set()),
        ("$20–$35 per person", {"20", "35"}),  # a currency sign on both ends
        ("5km–7km long", {"5", "7"}),  # a unit on both ends
        ("만 3세~7세 어린이", {"3", "7"}),
        ("between -5 and 3 °C", {"-5", "3"}),  # a negative low end
        ("-5 to 3 °C", {"-5", "3"}),
        ("open 5 pm - 11 pm", set()),  # clock times in halves of the day: no unit
        ("09.00-18.00 saatleri arasında", set()),  # clock times with a dot
        ("€4.50-€6.20", {"4.5", "6.2"}),  # prices with two decimals
        ("2 ila 4 iş günü", {"2", "4"}),
        ("5 bis 7 Werktage", {"5", "7"}),
        ("entre 5 y 7 días", {"5", "7"}),
        ("từ 5 đến 7 ngày", {"5", "7"}),
        ("5 से 7 दिन", {"5", "7"}),
        ("من 5 إلى 7 أيام", {"5", "7"}),
        ("๕-๗ วันทำการ", {"5", "7"}),
        ("between $20 and $35", {"20", "35"}),  # a currency sign on both ends, in words
        ("$5 to $7 at the airport", {"5", "7"}),
        ("five to seven days", {"5", "7"}),  # number words
        ("between five and seven", {"5", "7"}),
        ("from 1 May to 30 September", set()),  # two dates
        ("from 9:00 to 17:00", set()),  # two clock times
        ("between 9:30 and 17:00", set()),
        ("from 2026-03-01 to 2026-03-15", set()),
    ],
)
def test_what_is_read_as_a_range(text, ends):
    assert set(range_ends(text)[0]) == ends


def test_number_words_of_the_answers_language_make_a_range():
    assert set(range_ends("beş ile yedi gün arası", language="tr")[0]) == {"5", "7"}
    assert _codes("tr", "Teslimat yedi gün sürer.", "Teslimat beş ile yedi gün arası sürer") == [
        "NUMBER_MISMATCH"
    ]
    assert _codes("en", "Delivery takes five to seven days.", "Delivery takes 5-7 days") == []


def test_a_value_the_quote_also_states_alone_is_backed():
    quote = "Members get 5 days, others wait 5-7 days."
    assert _codes("en", "Members get 5 days.", quote) == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("th", "ค่าเข้าชม 300 บาท ต่อคน"),  # Thai: a space ends a sentence
        ("th", "การจัดส่งใช้เวลา ๕-๗ วันทำการ ภายในประเทศ"),
        ("en", "The museum opens at 9. Entry costs 12 euros. Children enter free."),
        ("tr", "Müze 9'da açılır. Giriş 12 avro. Çocuklar ücretsiz girer."),
    ],
)
def test_a_claim_that_writes_out_several_sentences_states_each(language, text):
    """One claim holding the whole answer covers every sentence of it (Thai ones too)."""
    assert _codes(language, text, text) == []


THAI = st.lists(
    st.sampled_from(["ค่าเข้าชม", "บาท", "ต่อคน", "วันทำการ", "เปิดทุกวัน", "ภายในประเทศ"]),
    min_size=1,
    max_size=6,
)


@settings(max_examples=80, deadline=None)
@given(THAI, st.lists(st.integers(0, 9999), min_size=1, max_size=4), st.randoms())
def test_thai_digits_split_a_thai_text_as_ascii_digits_do(words, values, rnd):
    """Digits of any script are digits: a space next to ๕ does not end a Thai sentence."""
    from claimlab.core.sentences import split_sentences

    parts = words + [str(v) for v in values]
    rnd.shuffle(parts)
    text = " ".join(parts)
    thai = text.translate(str.maketrans("0123456789", "๐๑๒๓๔๕๖๗๘๙"))
    assert len(split_sentences(thai)) == len(split_sentences(text))
