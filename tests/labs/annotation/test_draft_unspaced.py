"""Drafts place subclaims in scripts without spaces between morphemes: Korean, Chinese, Japanese.

Korean joins particles to words (간장을 / 간장과): two words sharing their first syllables
(at least half the shorter word) and adding at most two syllables after them match. Chinese and Japanese are aligned character by
character: the stretch holding most of the subclaim's characters in the fewest.

Measured on the 30 generated Korean recipe answers of ``korean_recipes`` (6 atomic subclaims
each, 180 in all): before, 90 of 180 placed (50.0%: 3 of 6 per answer, every subclaim whose
first ingredient changed its particle); after, 180 of 180 (100.0%).
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimlab.core.spans import utf16_slice
from claimlab.io.raw import read_raw_answer
from claimlab.labs.annotation.draft import align, draft_document
from tests.labs.annotation.korean_recipes import INGREDIENTS, korean_records


def test_thirty_korean_answers_every_atomic_subclaim_is_placed():
    placed = total = 0
    for n, rec in enumerate(korean_records(), 1):
        doc, summary = draft_document(read_raw_answer(rec, source="ko.jsonl", line=n))
        total += summary.candidates
        placed += summary.spans
        for c in doc["candidates"]:
            for sp in c["source_spans"]:
                assert utf16_slice(rec["answer"], sp["start"], sp["end"]) == sp["text"]
    assert (placed, total) == (180, 180)  # before: (90, 180)


@pytest.mark.parametrize(
    ("answer", "subclaim", "span"),
    [
        ("불고기에는 간장과 양파를 넣는다.", "불고기에는 간장을 넣는다.", "불고기에는 간장과 양파를 넣는다"),
        ("대파와 버섯은 미리 썬다.", "대파는 미리 썬다.", "대파와 버섯은 미리 썬다"),
        ("北京烤鸭需要鸭子和甜面酱。饺子要先煮十分钟。", "北京烤鸭需要甜面酱", "北京烤鸭需要鸭子和甜面酱"),
        ("北京烤鸭需要鸭子和甜面酱。饺子要先煮十分钟。", "北京烤鸭需要鸭子", "北京烤鸭需要鸭子"),
        ("カレーには玉ねぎと人参を入れる。ご飯は十分に蒸らす。", "カレーには人参を入れる",
         "カレーには玉ねぎと人参を入れる"),
        ("カレーには玉ねぎと人参を入れる。ご飯は十分に蒸らす。", "ご飯は十分に蒸らす", "ご飯は十分に蒸らす"),
        ("カレーには玉ねぎと人参を入れる。", "パンは焼く", None),
        ("불고기에는 간장과 양파를 넣는다.", "김치는 맵다.", None),
    ],
)  # fmt: skip
def test_named_cases(answer, subclaim, span):
    hit = align(subclaim, answer)
    assert (answer[hit.start : hit.end] if hit else None) == span


PARTICLES = {"object": ("을", "를"), "and": ("과", "와"), "topic": ("은", "는")}
# nouns none of which holds another (소금 and 깨소금 are alike by ratio already, particles or not)
nouns = st.sampled_from(
    [w for w in INGREDIENTS if len(w) >= 2 and not any(v != w and v in w for v in INGREDIENTS)]
)


def _with(word, kind):
    final = (ord(word[-1]) - 0xAC00) % 28 != 0
    return word + PARTICLES[kind][0 if final else 1]


@given(
    words=st.lists(nouns, min_size=2, max_size=4, unique=True),
    kinds=st.lists(st.sampled_from(list(PARTICLES)), min_size=4, max_size=4),
    swap=st.integers(0, 3),
    other=st.sampled_from(list(PARTICLES)),
)
def test_a_changed_particle_never_stops_a_korean_subclaim_being_placed(words, kinds, swap, other):
    """Invariant: a sentence of the answer, said again with one word's particle changed, is
    placed, on a span that holds that word. Caught mutation: comparing Korean words whole
    (``letters`` returning the word as it is): 간장을 and 간장과 no longer match."""
    sentence = [_with(w, k) for w, k in zip(words, kinds, strict=False)] + ["넣는다"]
    answer = "오늘은 비가 온다. " + " ".join(sentence) + "."
    i = swap % len(words)
    claim = list(sentence)
    claim[i] = _with(words[i], other)
    hit = align(" ".join(claim), answer)
    assert hit is not None
    assert sentence[i] in answer[hit.start : hit.end]


CJK = "北京烤鸭需要和甜面酱饺子先煮十分钟カレーに玉ねぎと人参を入れるご飯は"


@given(text=st.lists(st.sampled_from(CJK), min_size=8, max_size=30, unique=True), data=st.data())
def test_a_stretch_of_a_chinese_or_japanese_answer_is_placed_on_as_many_characters(text, data):
    """Invariant: a subclaim that is a stretch of the answer (no character twice) is placed,
    with score 100, on exactly that stretch. Caught mutation: ``_wordy`` as it was (a
    Chinese or Japanese character taken for part of a spaced word), whose span was snapped out
    to the clause's end."""
    text = "".join(text)
    start = data.draw(st.integers(0, len(text) - 4))
    end = data.draw(st.integers(start + 4, len(text)))
    claim = text[start:end]
    hit = align(claim, text)
    assert hit is not None and hit.score == 100.0
    assert text[hit.start : hit.end] == claim


@pytest.mark.parametrize(
    ("answer", "subclaim", "placed"),
    [
        ("日曜日は休館です。", "日曜日は休館です。", "日曜日は休館です"),
        ("天天开门。", "天天开门", "天天开门"),
        (
            "北京图书馆早上开门。星期天闭馆。",
            "北京图书馆星期天闭馆",
            "北京图书馆早上开门。星期天闭馆",
        ),
        ("ab。ba。", "ba", "ba"),  # said in a row: the stretch saying it so, not a reordering
        ("人人都要排队。", "人人", "人人"),
        ("毎日毎日練習する。", "毎日毎日", "毎日毎日"),
    ],
)
def test_a_subclaim_saying_a_character_twice_is_placed_whole(answer, subclaim, placed):
    """Caught mutation: each answer character counted for every claim character it equals (the
    first 日 of 日曜日 was left out: the second stood for both)."""
    hit = align(subclaim, answer)
    assert hit is not None and answer[hit.start : hit.end] == placed


@given(
    answer=st.text(st.sampled_from("日曜休館天开门书"), min_size=1, max_size=12),
    data=st.data(),
)
def test_a_stretch_of_the_answer_is_placed_on_its_first_occurrence(answer, data):
    """A subclaim that is a stretch of a Chinese or Japanese answer is placed on the first place
    the answer says it in a row, whatever characters repeat."""
    a = data.draw(st.integers(0, len(answer) - 1))
    b = data.draw(st.integers(a + 1, len(answer)))
    hit = align(answer[a:b], answer)
    assert hit is not None and (hit.start, hit.end) == (
        answer.index(answer[a:b]),
        answer.index(answer[a:b]) + b - a,
    )


_THAI = ["รถเมล์สาย 8 ออกจากสถานีทุก 15 นาที", "ค่าโดยสาร 20 บาท", "รถคันสุดท้ายออกเวลา 22:00 น.",
         "ร้านเปิดทุกวัน ยกเว้นวันจันทร์"]  # fmt: skip


@given(st.lists(st.sampled_from(_THAI), min_size=2, max_size=4, unique=True), st.data())
def test_a_thai_subclaim_aligns_to_the_same_span_however_it_is_spaced(sentences, data):
    """Spaces removed, doubled or added in a Thai subclaim change no span: the span was cut
    short by as many characters as spaces were removed (ค่าโดยสาร 20 บา)."""
    from claimlab.labs.annotation.draft import align

    answer = " ".join(sentences)
    pick = data.draw(st.sampled_from(sentences))
    same = align(pick, answer)
    assert same is not None and same.score == 100
    spaced = data.draw(
        st.sampled_from(["".join(pick.split()), pick.replace(" ", "  "), " ".join(pick)])
    )
    got = align(spaced, answer)
    assert got is not None and (got.start, got.end) == (same.start, same.end), spaced
