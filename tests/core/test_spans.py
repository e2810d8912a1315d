import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.spans import find_utf16, span_backs, utf16_len, utf16_offset, utf16_slice

BOOK = "\U0001f4d8"


@pytest.mark.parametrize(
    ("text", "length"),
    [("", 0), ("abc", 3), (BOOK, 2), ("ไทย", 3), ("é", 1), ("e\u0301", 2)],
)
def test_utf16_len(text, length):
    assert utf16_len(text) == length


def test_slice_after_an_emoji_uses_utf16_units():
    text = f"{BOOK} Atlas Lab"
    assert utf16_slice(text, 3, 8) == "Atlas"
    assert text[2:7] == "Atlas"  # code points differ by one
    assert find_utf16(text, "Atlas") == (3, 8)
    assert utf16_offset(text, 2) == 3


@pytest.mark.parametrize(("start", "end"), [(-1, 2), (3, 2), (0, 99)])
def test_slice_out_of_range_is_refused(start, end):
    with pytest.raises(ValueError, match="outside"):
        utf16_slice("abcd", start, end)


def test_slice_inside_a_surrogate_pair_is_refused():
    with pytest.raises(ValueError, match="surrogate"):
        utf16_slice(f"{BOOK}x", 1, 3)


def test_find_missing_needle():
    with pytest.raises(ValueError, match="does not occur"):
        find_utf16("abc", "z")


# ------------------------------------------------------------------ a span backs a unit it lies in


def _backs(text, span, unit, share=0.5):
    """span_backs on code point ranges of ``text``, converted to UTF-16 as files give them."""
    to16 = lambda i: utf16_len(text[:i])  # noqa: E731
    s, e = span
    us, ue = unit
    return span_backs((to16(s), to16(e)), text[s:e], (to16(us), to16(ue)), text[us:ue], share=share)


# unit: characters 0..30 of a 40-character text (a sentence, then the next one)
@pytest.mark.parametrize(
    ("span", "share", "backed"),
    [
        ((10, 20), 0.5, True),  # a third of the unit, all inside it
        ((0, 30), 0.5, True),  # the whole unit
        ((24, 34), 0.5, True),  # 6 of 10 inside
        ((25, 35), 0.5, False),  # 5 of 10 inside: half is not most
        ((20, 40), 0.5, False),  # 10 of 20: exactly half, not most
        ((29, 40), 0.5, False),  # one character inside
        ((5, 6), 0.5, False),  # a one-character span inside
        ((5, 5), 0.5, False),  # an empty span
        ((24, 34), 0.6, True),  # 6 of 10 meets a file's 60 %
        ((24, 34), 0.7, False),  # but not 70 %
        ((10, 20), 1.0, True),  # entirely inside meets 100 %
    ],
)
def test_a_span_backs_a_unit_when_most_of_its_own_characters_lie_in_it(span, share, backed):
    text = "a" * 30 + "b" * 10
    assert _backs(text, span, (0, 30), share) is backed


@pytest.mark.parametrize(
    ("text", "span", "unit", "backed"),
    [
        (
            f"{BOOK}x",
            (0, 1),
            (0, 2),
            False,
        ),  # one astral character: two UTF-16 units, one character
        (f"{BOOK}{BOOK}x", (0, 2), (0, 3), True),  # two astral characters
        (f"ab{BOOK}{BOOK}{BOOK}", (1, 5), (0, 2), False),  # 1 of 4 characters in the unit
        (f"abc{BOOK}", (0, 4), (0, 3), True),  # 3 of 4 characters (but 3 of 5 UTF-16 units)
        ("", (0, 0), (0, 0), False),  # a unit of no length
    ],
)
def test_characters_count_not_utf16_units(text, span, unit, backed):
    assert _backs(text, span, unit) is backed


@st.composite
def _split_span(draw):
    text = draw(st.text(alphabet=st.sampled_from(["a", "간", BOOK, " "]), min_size=2, max_size=40))
    n = len(text)
    us = draw(st.integers(0, n - 2))
    ue = draw(st.integers(us + 2, n))
    s = draw(st.integers(0, n - 2))
    e = draw(st.integers(s + 2, n))
    cuts = sorted(draw(st.sets(st.integers(s + 2, e - 2), max_size=4)) if e - s >= 4 else [])
    kept = [s]
    for k in cuts:
        if k - kept[-1] >= 2:
            kept.append(k)
    edges = [*kept, e] if e - kept[-1] >= 2 else [*kept[:-1], e]
    share = draw(st.sampled_from([0.5, 0.6, 0.75, 1.0]))
    return text, (s, e), (us, ue), list(zip(edges, edges[1:], strict=False)), share


@settings(max_examples=300, deadline=None)
@given(_split_span())
def test_when_a_span_backs_a_unit_one_of_its_parts_of_two_characters_or_more_does(case):
    text, span, unit, parts, share = case
    assert all(b - a >= 2 for a, b in parts) and parts[0][0] == span[0] and parts[-1][1] == span[1]
    if _backs(text, span, unit, share):
        assert any(_backs(text, p, unit, share) for p in parts), (span, parts)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("ab \u00e7\u0e01\uac00\uffff\U00010000\U0001f600"), max_size=30
    ),
    st.data(),
)
def test_one_texts_utf16_view_is_the_one_rules(text, data):
    """Invariant: Utf16Text (made once per text, used by the readers, agreement and draft) gives
    for any text, index, offset and span what the one-off rules give: utf16_len, utf16_offset,
    utf16_slice (the same refusal of a split surrogate pair) and their reverse."""
    from claimlab.core.spans import Utf16Text

    view = Utf16Text(text)
    assert view.n == utf16_len(text)
    assert [view.offset(i) for i in range(len(text) + 1)] == [
        utf16_offset(text, i) for i in range(len(text) + 1)
    ]
    offsets = [utf16_offset(text, i) for i in range(len(text) + 1)]
    for off in range(view.n + 1):  # the first index at or after the offset
        assert view.index(off) == next(i for i, o in enumerate(offsets) if o >= off)
    start = data.draw(st.integers(0, view.n))
    end = data.draw(st.integers(start, view.n))
    try:
        want = utf16_slice(text, start, end)
    except ValueError:
        with pytest.raises(ValueError):
            view.slice(start, end)
    else:
        assert view.slice(start, end) == want
