"""A declared paraphrase still agrees in negation and scope; Thai and Korean negations count.

A claim that declares it restates a sentence (``restates``, Turkish ``yeniden_ifade``) carries
the sentence's words, not the opposite of what it says: a negated or widened sentence is
``POLARITY_MISMATCH`` / ``SCOPE_MISMATCH`` as without the declaration. In Thai and Korean a
clause can negate two things ("내지 않고 ... 내지 않는다"; "ไม่เปิด...ไม่เปิด..."), where English
and Turkish split it at "and"/"ve": a claim restating the whole clause must hold as many
negations, one stating a part need not; Korean 없이 ("without") negates no verb.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.polarity import marks
from claimlab.io.context_lab import Answer, Chunk, Claim
from claimlab.metrics.citations import score_citations
from tests.metrics.test_citations_scope import statements

SETTINGS = settings(max_examples=40, deadline=None)


def _check(language, answer, claim, quote, restates=None):
    chunk = Chunk("doc#1", "Doc", "1", 0.9, quote)
    c = Claim(claim, "doc#1", quote.rstrip("."), restates)
    lang = language if language in ("en", "tr") else "en"  # messages in English or Turkish
    rep = score_citations(Answer(answer, (c,), False, lang), [chunk])
    return [p.code for p in rep.problems], rep


@pytest.mark.parametrize(
    ("language", "answer", "claim", "quote", "codes"),
    [
        # the sentence is negated, its declared restatement is not
        ("tr", "Küçükler salona bedava giremez.", "Çocuklar spor salonunu ücretsiz kullanır.",
         "Çocuklar yurt spor salonunu ücretsiz kullanır.", ["POLARITY_MISMATCH"]),
        ("en", "Kids cannot get into the gym for nothing.", "Children use the gym free of charge.",
         "Children use the dormitory gym free of charge.", ["POLARITY_MISMATCH"]),
        ("ko", "아이들은 체육관에 공짜로 못 들어간다.", "어린이는 체육관을 무료로 이용한다.",
         "어린이는 기숙사 체육관을 무료로 이용한다.", ["POLARITY_MISMATCH"]),
        ("th", "เด็กเข้ายิมฟรีไม่ได้", "เด็กใช้ยิมฟรี", "เด็กใช้ยิมของหอพักฟรี",
         ["POLARITY_MISMATCH"]),
        # the sentence is widened ("everyone"), its declared restatement is not
        ("tr", "Herkes salona bedava girer.", "Çocuklar spor salonunu ücretsiz kullanır.",
         "Çocuklar yurt spor salonunu ücretsiz kullanır.", ["SCOPE_MISMATCH"]),
        ("en", "Everyone gets into the gym for nothing.", "Children use the gym free of charge.",
         "Children use the dormitory gym free of charge.", ["SCOPE_MISMATCH"]),
        ("ko", "누구나 체육관에 공짜로 들어간다.", "어린이는 체육관을 무료로 이용한다.",
         "어린이는 기숙사 체육관을 무료로 이용한다.", ["SCOPE_MISMATCH"]),
        # agreeing paraphrases stay accepted, scope words by kind when the words differ
        ("tr", "Küçükler salona bedava girer.", "Çocuklar spor salonunu ücretsiz kullanır.",
         "Çocuklar yurt spor salonunu ücretsiz kullanır.", []),
        ("tr", "Tüm küçükler salona bedava girer.", "Tüm çocuklar spor salonunu ücretsiz kullanır.",
         "Tüm çocuklar yurt spor salonunu ücretsiz kullanır.", []),
        ("ko", "아이들은 체육관에 공짜로 들어간다.", "어린이는 체육관을 무료로 이용한다.",
         "어린이는 기숙사 체육관을 무료로 이용한다.", []),
    ],
)  # fmt: skip
def test_a_declared_restatement_must_agree_in_negation_and_scope(
    language, answer, claim, quote, codes
):
    got, rep = _check(language, answer, claim, quote, restates=answer)
    assert got == codes, [p.explanation for p in rep.problems]


@pytest.mark.parametrize(
    ("language", "claim", "quote", "codes"),
    [
        # one of two negations dropped, every word kept: the opposite of half the clause
        ("ko", "학생은 기숙사비를 내지 않고 식비를 낸다.",
         "학생은 기숙사비를 내지 않고 식비를 내지 않는다.", ["POLARITY_MISMATCH"]),
        ("ko", "학생은 기숙사비를 내고 식비를 내지 않는다.",
         "학생은 기숙사비를 내지 않고 식비를 내지 않는다.", ["POLARITY_MISMATCH"]),
        ("th", "ห้องสมุดไม่เปิดวันเสาร์เปิดวันอาทิตย์",
         "ห้องสมุดไม่เปิดวันเสาร์ไม่เปิดวันอาทิตย์", ["POLARITY_MISMATCH"]),
        ("th", "ห้องสมุดเปิดวันเสาร์ไม่เปิดวันอาทิตย์",
         "ห้องสมุดไม่เปิดวันเสาร์ไม่เปิดวันอาทิตย์", ["POLARITY_MISMATCH"]),
        # a claim stating one of the two negated parts: as many negations as it carries
        ("ko", "학생은 기숙사비를 내지 않는다.",
         "학생은 기숙사비를 내지 않고 식비를 내지 않는다.", []),
        ("th", "ห้องสมุดไม่เปิดวันเสาร์", "ห้องสมุดไม่เปิดวันเสาร์ไม่เปิดวันอาทิตย์", []),
        ("ko", "학생은 기숙사비를 내지 않고 식비를 내지 않는다.",
         "학생은 기숙사비를 내지 않고 식비를 내지 않는다.", []),
        # Korean 없이 ("without") is no negation of the verb; 없다 is
        ("ko", "야간에는 처방전 없이 약을 살 수 있다.",
         "야간에는 처방전 없이 약을 살 수 없다.", ["POLARITY_MISMATCH"]),
        ("ko", "야간에는 처방전 없이 약을 살 수 없다.",
         "야간에는 처방전 없이 약을 살 수 없다.", []),
        ("ko", "야간에는 처방전 없이 약을 살 수 있다.",
         "야간에는 처방전 없이 약을 살 수 있다.", []),
        # Turkish and English split at "ve"/"and": each clause compared as before
        ("tr", "Öğrenciler yurt aidatı ödemez ve yemek ücreti öder.",
         "Öğrenciler yurt aidatı ödemez ve yemek ücreti ödemez.", ["POLARITY_MISMATCH"]),
        ("tr", "Öğrenciler yurt aidatı ödemez.",
         "Öğrenciler yurt aidatı ödemez, yemek ücreti ödemez.", []),
        ("en", "Students do not pay rent, and pay for meals.",
         "Students do not pay rent, and do not pay for meals.", ["POLARITY_MISMATCH"]),
    ],
)  # fmt: skip
def test_thai_and_korean_negations_are_counted_where_a_claim_restates_the_clause(
    language, claim, quote, codes
):
    got, rep = _check(language, claim, claim, quote)
    assert got == codes, [p.explanation for p in rep.problems]


@pytest.mark.parametrize(
    ("text", "negated", "count"),
    [
        ("학생은 기숙사비를 내지 않고 식비를 내지 않는다.", True, 2),
        ("처방전 없이 약을 살 수 있다.", False, 0),
        ("처방전 없이 약을 살 수 없습니다.", True, 1),
        ("약이 없는 날은 끊임없이 문의가 온다.", True, 1),
        ("ห้องสมุดไม่เปิดวันเสาร์ไม่เปิดวันอาทิตย์", True, 2),
        ("ค่าปรับไม่เกิน 5 บาท", False, 0),  # ไม่เกิน: "at most", not a negation
    ],
)
def test_korean_and_thai_negations_are_counted(text, negated, count):
    got = marks(text, "ko" if text[0] >= "\uac00" else "th")
    assert (got.negated, got.negations) == (negated, count)


KO = [("기숙사비를", "내"), ("식비를", "내"), ("도서관에", "가"), ("책을", "빌리"), ("방을", "쓰")]
TH = ["เปิดวันเสาร์", "เปิดวันอาทิตย์", "จ่ายค่าน้ำ", "จ่ายค่าไฟ", "ใช้ห้องครัว"]


@st.composite
def two_negations(draw):
    """A clause negating two things, in Korean or Thai, and the ways of restating it."""
    language = draw(st.sampled_from(["ko", "th"]))
    if language == "ko":
        (o1, v1), (o2, v2) = draw(
            st.lists(st.sampled_from(KO), min_size=2, max_size=2, unique=True)
        )
        both = f"학생은 {o1} {v1}지 않고 {o2} {v2}지 않는다."
        flips = [f"학생은 {o1} {v1}고 {o2} {v2}지 않는다.", f"학생은 {o1} {v1}지 않고 {o2} {v2}다."]
        part = f"학생은 {o1} {v1}지 않는다."
    else:
        p1, p2 = draw(st.lists(st.sampled_from(TH), min_size=2, max_size=2, unique=True))
        both = f"หอพักไม่{p1}ไม่{p2}"
        flips = [f"หอพัก{p1}ไม่{p2}", f"หอพักไม่{p1}{p2}"]
        part = f"หอพักไม่{p1}"
    return language, both, draw(st.sampled_from(flips)), part


@SETTINGS
@given(two_negations(), st.sampled_from(["claim", "source", "restated sentence"]))
def test_dropping_one_of_two_negations_never_keeps_accept(s, where):
    language, both, flip, part = s
    assert _check(language, both, both, both)[1].verdict == "ACCEPT"
    assert _check(language, part, part, both)[1].verdict == "ACCEPT"  # a part: its own count
    if where == "claim":
        rep = _check(language, flip, flip, both)[1]
    elif where == "source":
        rep = _check(language, both, both, flip)[1]
    else:  # a claim declaring it restates the flipped sentence
        rep = _check(language, flip, both, both, restates=flip)[1]
    assert rep.verdict == "REJECT", [p.explanation for p in rep.problems]
    assert "POLARITY_MISMATCH" in [p.code for p in rep.problems]


@SETTINGS
@given(statements(), st.booleans())
def test_a_declared_restatement_that_negates_or_widens_never_keeps_accept(s, neg):
    language, base, negated, wide = s
    assert _check(language, f"{base}.", f"{base}.", f"{base}.", restates=f"{base}.")[0] == []
    other = negated if neg else wide
    codes, _ = _check(language, f"{other}.", f"{base}.", f"{base}.", restates=f"{other}.")
    assert codes == ["POLARITY_MISMATCH" if neg else "SCOPE_MISMATCH"]


@pytest.mark.parametrize(
    ("language", "claim", "quote"),
    [
        ("ko", "아이들은 체육관에 들어간다.", "아이들은 체육관에 들어가지 못한다."),
        ("ko", "아이들은 체육관에 들어갑니다.", "아이들은 체육관에 들어가지 못합니다."),
        ("ko", "아이들은 체육관에 들어가요.", "아이들은 체육관에 들어가지 못해요."),
        ("ko", "아이들은 체육관에 들어갔다.", "아이들은 체육관에 들어가지 못했다."),
        ("ko", "이것은 무료 카드입니다.", "이것은 무료 카드가 아닙니다."),
        ("th", "เด็กเข้ายิมได้", "เด็กมิได้เข้ายิม"),
        ("th", "ร้านนี้เป็นร้านของรัฐ", "ร้านนี้มิใช่ร้านของรัฐ"),
        ("th", "ผู้เยาว์ซื้อบัตรได้", "ผู้เยาว์มิอาจซื้อบัตร"),
    ],
)  # fmt: skip
def test_formal_and_joined_negations_are_negations(language, claim, quote):
    assert marks(quote, language).negated and not marks(claim, language).negated
    got, rep = _check(language, claim, claim, quote)
    assert "POLARITY_MISMATCH" in got, [p.explanation for p in rep.problems]


@pytest.mark.parametrize(
    ("language", "text"),
    [("ko", "그는 잘못한 일을 고쳤다."), ("ko", "잘못했다고 말한다."), ("th", "เปิดเดือนมิถุนายน")],
)
def test_words_that_only_look_negated_are_not(language, text):
    assert not marks(text, language).negated


@pytest.mark.parametrize(
    ("language", "claim", "quote", "codes"),
    [
        # the claim states the negated clause too (all its own words): never accepted
        ("en", "Members can park in the north garage on Sundays.",
         "Members can park in the north garage, but not on Sundays.", ["POLARITY_MISMATCH"]),
        ("en", "Members can park in the north garage on Sundays.",
         "Members can park in the north garage; not on Sundays.", ["POLARITY_MISMATCH"]),
        ("tr", "Üyeler pazar günleri otoparkı kullanır.",
         "Üyeler otoparkı kullanır ama pazar günleri kullanamaz.", ["POLARITY_MISMATCH"]),
        # a number the quote holds only in a clause the claim does not state
        ("en", "Loans last 7 days.", "Loans last 14 days; fines start after 7 days.",
         ["NUMBER_MISMATCH"]),
        ("tr", "Ödünç süresi 7 gündür.", "Ödünç süresi 14 gündür; ceza 7 gün sonra başlar.",
         ["NUMBER_MISMATCH"]),
        # what the claim states agrees: accepted as before
        ("en", "Members can park in the north garage.",
         "Members can park in the north garage, but not on Sundays.", []),
        ("en", "Adults pay 5 and children pay 2.", "Adults pay 5; children pay 2.", []),
        ("en", "Students pay during the summer term.",
         "Students do not pay during exam weeks, but they pay during the summer term.", []),
    ],
)  # fmt: skip
def test_a_claim_agrees_with_every_clause_it_states(language, claim, quote, codes):
    got, rep = _check(language, claim, claim, quote)
    assert got == codes, [p.explanation for p in rep.problems]


@pytest.mark.parametrize(
    ("language", "claim", "quote"),
    [
        ("en", "The museum does not open on Mondays.",
         "It is not true that the museum does not open on Mondays."),
        ("tr", "Müze pazartesi günleri açılmaz.", "Müzenin pazartesi günleri açılmadığı doğru değil."),
        ("ko", "박물관은 월요일에 문을 열지 않는다.", "박물관이 월요일에 문을 열지 않는 것은 아니다."),
        ("th", "ห้องสมุดไม่เปิดวันจันทร์", "ไม่จริงที่ห้องสมุดไม่เปิดวันจันทร์"),
    ],
)  # fmt: skip
def test_a_nested_negation_is_never_ground_for_a_single_one(language, claim, quote):
    """In doubt, never agreement: a negation over a negated clause is not that clause."""
    got, rep = _check(language, claim, claim, quote)
    assert "POLARITY_MISMATCH" in got, [p.explanation for p in rep.problems]
    got, rep = _check(language, quote, quote, quote)  # the whole sentence restated: agreed
    assert got == [], [p.explanation for p in rep.problems]


@pytest.mark.parametrize(
    ("language", "claim", "quote", "codes"),
    [
        # contractions after "but" are negations of the clause the claim states
        ("en", "The bus stops at the village on public holidays.",
         "The bus stops at the village on weekdays, but it doesn't stop there on public holidays.",
         ["POLARITY_MISMATCH"]),
        ("en", "The bus stops at the village on public holidays.",
         "The bus stops at the village on weekdays, but it won't stop there on public holidays.",
         ["POLARITY_MISMATCH"]),
        # a month named in a date is a number; a date written two ways is one date
        ("en", "The exam is on 12 May.", "The exam is on 12 March.", ["NUMBER_MISMATCH"]),
        ("tr", "Sınav 12 Nisan'da.", "Sınav 12 Mart'ta.", ["NUMBER_MISMATCH"]),
        ("th", "สอบวันที่ 12 เมษายน", "สอบวันที่ 12 มีนาคม", ["NUMBER_MISMATCH"]),
        ("en", "The exam is on 2024-03-12.", "The exam is on 12 March 2024.", []),
        ("tr", "Sınav 12.03.2024 tarihinde.", "Sınav 12 Mart 2024 tarihinde.", []),
        ("en", "Up to 2 guests may enter the pool.", "Up to 2 guests may enter the pool.", []),
        ("en", "Up to 2 guests may enter the pool.", "At most 2 guests may enter the pool.", []),
        # signs in words, halves of the day in words, Korean scales
        ("en", "It was 18 degrees at night.", "It was 18 degrees below zero at night.",
         ["NUMBER_MISMATCH"]),
        ("ko", "밤에는 18도였다.", "밤에는 마이너스 18도였다.", ["NUMBER_MISMATCH"]),
        ("th", "อุณหภูมิ 5 องศา", "อุณหภูมิติดลบ 5 องศา", ["NUMBER_MISMATCH"]),
        ("tr", "Ofis akşam 7'de açılır.", "Ofis sabah 7'de açılır.", ["NUMBER_MISMATCH"]),
        ("th", "สำนักงานเปิด 6 โมงเย็น", "สำนักงานเปิด 6 โมงเช้า", ["NUMBER_MISMATCH"]),
        ("ko", "박물관 입장료는 성인 2천 원이다.", "박물관 입장료는 성인 2만 원이다.", ["NUMBER_MISMATCH"]),
        ("th", "สำนักงานเปิดเวลา 7 โมงเช้าในวันธรรมดา", "สำนักงานเปิดเวลา ๗ โมงเช้าในวันธรรมดา", []),
        # ordinals and Korean number words are numbers
        ("en", "The office is on the 3rd floor.", "The office is on the third floor.", []),
        ("en", "The office is on the fourth floor.", "The office is on the 3rd floor.",
         ["NUMBER_MISMATCH"]),
        ("en", "The office is on the twenty-third floor.", "The office is on the 23rd floor.", []),
        ("tr", "Ofis üçüncü kattadır.", "Ofis 3. kattadır.", []),
        ("tr", "Ofis dördüncü kattadır.", "Ofis 3. kattadır.", ["NUMBER_MISMATCH"]),
        ("ko", "수리는 다섯 시간 걸립니다.", "수리는 5시간 걸립니다.", []),
        ("ko", "수리는 일곱 시간 걸립니다.", "수리는 5시간 걸립니다.", ["NUMBER_MISMATCH"]),
        ("en", "The first bus leaves at 6.", "The first bus leaves at 6.", []),
        ("en", "The hospital ranked 21st.", "The hospital ranked twenty-first.", []),
        ("ko", "회의실은 5명이 사용합니다.", "회의실은 다섯명이 사용합니다.", []),
        ("ko", "이 방은 3명이 사용합니다.", "이 방은 세 명이 사용합니다.", []),
        ("ko", "이 과정은 10살 어린이를 위한 것입니다.", "이 과정은 열 살 어린이를 위한 것입니다.", []),
        ("ko", "이 과정은 12살 어린이를 위한 것입니다.", "이 과정은 열 살 어린이를 위한 것입니다.",
         ["NUMBER_MISMATCH"]),
        ("ko", "세대마다 주차 공간이 있습니다.", "세대마다 주차 공간이 있습니다.", []),  # no number
        # a number of another piece of the quote is not the claim's
        ("en", "Children pay 10 euros per visit.",
         "Adults pay 10 euros per visit, children 5 euros per visit.", ["NUMBER_MISMATCH"]),
        ("ko", "어린이는 10,000원을 냅니다.", "성인은 10,000원을 내고 어린이는 5,000원을 냅니다.",
         ["NUMBER_MISMATCH"]),
        ("ko", "어린이는 10,000원을 냅니다.", "성인은 10,000원을 냅니다. 어린이는 5,000원을 냅니다.",
         ["NUMBER_MISMATCH"]),
        ("th", "เด็กจ่าย 100 บาท", "ผู้ใหญ่จ่าย 100 บาท แต่เด็กจ่าย 50 บาท", ["NUMBER_MISMATCH"]),
        ("en", "Adults pay 10 euros per visit.",
         "Adults pay 10 euros per visit, children 5 euros per visit.", []),
        # prohibitions
        ("ko", "실내에서 담배를 피우세요.", "실내에서 담배를 피우지 마세요.", ["POLARITY_MISMATCH"]),
        ("th", "นำสุนัขเข้าอาคารได้", "ห้ามนำสุนัขเข้าอาคาร", ["POLARITY_MISMATCH"]),
    ],
)  # fmt: skip
def test_numbers_dates_and_negations_written_other_ways(language, claim, quote, codes):
    got, rep = _check(language, claim, claim, quote)
    assert got == codes, [p.explanation for p in rep.problems]


def test_a_clock_time_with_dots_does_not_end_the_sentence():
    from claimlab.core.sentences import split_sentences

    text = "The office opens at 7 a.m. on weekdays. It closes at 5 p.m. Entry is free."
    assert [s.text for s in split_sentences(text)] == [
        "The office opens at 7 a.m. on weekdays.", "It closes at 5 p.m.", "Entry is free."
    ]  # fmt: skip
