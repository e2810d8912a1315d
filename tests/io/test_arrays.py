"""Array helpers of the io floor: string hashes, repeats within groups, dictionary codes."""

import numpy as np
import pyarrow as pa
import pytest

from claimlab.io import arrays
from claimlab.io.arrays import codes_in, decoded, dictionary_codes, string_hash, unique_values

HASH_CASES = [
    ["", "", "a", "a", "ab"],  # empty strings and one-byte strings
    ["abcdefgh", "abcdefgh", "abcdefghi", "abcdefg"],  # around one eight-byte word
    ["x" * 15, "x" * 16, "x" * 17, "x" * 16, "x" * 100, "x" * 100],  # word boundaries, long
    ["é" * 9, "e\u0301" * 9, "é" * 9, "ş|ğ|ı", "ş|ğ|ı"],  # multi-byte UTF-8, NFC vs NFD differ
    ["a\x00", "a", "a\x00"],  # a NUL byte is a byte, not padding
]


@pytest.mark.parametrize("values", HASH_CASES)
def test_string_hash_equal_strings_equal_hashes_also_in_slices(values):
    for arr in (pa.array(values), pa.array(["padding", *values]).slice(1)):
        h = string_hash(arr)
        assert len(h) == len(values)
        for i, a in enumerate(values):
            for j, b in enumerate(values):
                assert (h[i] == h[j]) == (a == b), (a, b)


REPEAT_CASES = [
    # (groups, values, repeats): a repeat is a value seen earlier in the same group
    ([0, 0, 0, 1, 1, 0, 1], ["f1", "f2", "f1", "f1", "f3", "f2", "f2"], [0, 0, 1, 0, 0, 1, 0]),
    ([5, 5, 5, 2, 2, 2], ["a", "b", "a", "a", "a", "a"], [0, 0, 1, 0, 1, 1]),  # contiguous runs
    ([0, 1, 0, 1, 0, 1], ["x", "x", "x", "y", "y", "x"], [0, 0, 1, 0, 0, 1]),  # interleaved
    ([7, 10**6, 7, 10**6], ["a", "a", "a", "a"], [0, 0, 1, 1]),  # sparse group numbers
    ([2**41, 0, 2**41, 0], ["a", "a", "a", "b"], [0, 0, 1, 0]),  # too wide for the sort key
    ([3, 3, 3], ["", "", "é"], [0, 1, 0]),  # empty strings repeat too
]


@pytest.mark.parametrize("collide", [False, True], ids=["hashed", "every-hash-collides"])
@pytest.mark.parametrize(("groups", "values", "repeats"), REPEAT_CASES)
def test_repeats_within_groups_exact_even_when_hashes_collide(
    monkeypatch, collide, groups, values, repeats
):
    if collide:  # every string hashes the same: the string check must catch it and fall back
        monkeypatch.setattr(arrays, "string_hash", lambda arr: np.zeros(len(arr), np.uint64))
    chunked = pa.chunked_array([values[:2], values[2:]])  # two chunks, as files are read
    got = arrays.repeats_within(np.array(groups, dtype=np.int64), chunked)
    assert got.astype(int).tolist() == repeats
    assert arrays.repeats_within(np.zeros(0, np.int64), chunked.slice(0, 0)).tolist() == []


CODE_CASES = [
    # (values, dictionary, codes): the index of each value in the dictionary, -1 when absent
    (["b", "a", "b", "z"], ["a", "b"], [1, 0, 1, -1]),
    ([], ["a"], []),
    (["é", "e\u0301"], ["é"], [0, -1]),  # NFC and NFD are different strings here
    ([None, "a"], ["a"], [-1, 0]),
]


@pytest.mark.parametrize(("values", "dictionary", "codes"), CODE_CASES)
def test_codes_in_a_dictionary(values, dictionary, codes):
    got = codes_in(pa.array(values, type=pa.string()), pa.array(dictionary, type=pa.string()))
    assert got.dtype == np.int64
    assert got.tolist() == codes


@pytest.mark.parametrize("encoded", [False, True], ids=["plain", "dictionary"])
@pytest.mark.parametrize(
    "chunks", [[["b", "a"], ["b", "c", "a"]], [[], ["x", "x"]], [["only"]]], ids=str
)
def test_dictionary_codes_give_back_every_value_and_unique_keeps_first_order(encoded, chunks):
    col = pa.chunked_array([pa.array(c, type=pa.string()) for c in chunks], type=pa.string())
    if encoded:
        col = pa.chunked_array([c.dictionary_encode() for c in col.chunks])
    codes, dictionary = dictionary_codes(col)
    flat = [v for c in chunks for v in c]
    assert [dictionary[int(i)].as_py() for i in codes] == flat
    assert len(set(dictionary.to_pylist())) == len(dictionary)
    assert unique_values(decoded(col)).to_pylist() == list(dict.fromkeys(flat))
    assert decoded(col).type == pa.string()


def test_dictionary_codes_of_no_chunks_are_empty():
    codes, dictionary = dictionary_codes(pa.chunked_array([], type=pa.string()))
    assert codes.tolist() == [] and dictionary.to_pylist() == []


@pytest.mark.parametrize(
    ("keys", "repeated"),
    [
        ([3, 1, 3, 3, 0], [0, 0, 1, 1, 0]),
        ([], []),
        ([5], [0]),
        ([2**62, 2**62, 1], [0, 1, 0]),  # beyond the dense range: the hash table path
        ([0, 1, 2], [0, 0, 0]),
    ],
)
def test_repeats_marks_every_later_occurrence(keys, repeated):
    assert arrays.repeats(np.array(keys, dtype=np.int64)).astype(int).tolist() == repeated
