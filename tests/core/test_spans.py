import pytest

from claimlab.core.spans import find_utf16, utf16_len, utf16_offset, utf16_slice

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
