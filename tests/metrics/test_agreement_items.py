"""The agreement items unit by unit: unit boundaries in UTF-16, counted columns, the checks.

Each expected code is written out character by character (B 0, I 1, O 2; white space has no
item), so a shifted offset or a changed condition fails here without the pooling around it.
"""

import numpy as np
import pytest

from claimlab.core.errors import FixtureError
from claimlab.core.spans import Utf16Text
from claimlab.io.annotations import AnswerKey
from claimlab.metrics.agreement_items import (
    BOUNDARIES,
    AnswerItems,
    Disagreement,
    FileItems,
    Preserves,
    _has_masks,
    _width,
    _with_bulk,
    boundaries,
    boundary_bytes,
    check_same_text,
)


def _file(
    source="a.json", answer="q1", text="ab cd", units=(), candidates=("S1",), keeps=b"\0" * 8
):
    from claimlab.metrics.agreement_items import PER_CANDIDATE

    bio = boundary_bytes(text, [(s, e) for s, e, *_ in units])
    codes = (bio, *(b"\xff" * len(candidates) for _ in PER_CANDIDATE))
    return FileItems(
        source=source, answer=answer, text=text, units=tuple(units), proposed_units=False,
        candidates=tuple(candidates), confirmed=(), codes=codes, counts=(0,) * 8,
        selection="all", proposed=0, layout=b"", keeps=keeps,
    )  # fmt: skip


# ------------------------------------------------------------------ boundaries


@pytest.mark.parametrize(
    ("text", "spans", "codes"),
    [
        ("ab cd", [(3, 5)], [2, 2, 0, 1]),
        ("ab cd", [(0, 2), (3, 5)], [0, 1, 0, 1]),
        ("a b", [(0, 3)], [0, 1]),  # the space inside a unit has no item
        ("ab cd", [(5, 5)], [2, 2, 2, 2]),  # an empty span at the end marks nothing
        ("ab cd", [], [2, 2, 2, 2]),
        # "ab cd😀e g": the emoji is two UTF-16 units, so 3..8 ends after "e"
        ("ab cd\U0001f600e g", [(0, 2), (3, 8)], [0, 1, 0, 1, 1, 1, 2]),
        ("ab cd\U0001f600e g", [(9, 10)], [2, 2, 2, 2, 2, 2, 0]),
        ("çé ab", [(3, 5)], [2, 2, 0, 1]),  # accents are one UTF-16 unit each
        # white space outside ASCII (no-break space, ideographic space, U+0085) has no item
        ("a\xa0b\u3000c\x85d", [(2, 5)], [2, 0, 1, 2]),
        ("a\x1cb\x1fc\td", [(2, 7)], [2, 0, 1, 1]),  # the separators str.isspace() counts
        ("ก ข", [(0, 1)], [0, 2]),  # Thai: one UTF-16 unit a character, spaces in ASCII
        ("", [(0, 0)], []),
        ("ab\U0001f600", [(4, 4)], [2, 2, 2]),  # an empty span at the end, past an emoji
    ],
)
def test_unit_boundaries_character_by_character(text, spans, codes):
    assert list(boundary_bytes(text, spans)) == codes
    got = boundaries(text, spans)
    assert got.dtype == np.int8 and got.tolist() == codes
    assert _width(text) == len(codes)


def _boundaries_by_hand(text, spans):
    """B / I / O a character at a time, each span's UTF-16 offsets walked one unit at a time."""
    unit_at, at = [], 0  # the UTF-16 offset where each character starts
    for ch in text:
        unit_at.append(at)
        at += 2 if ord(ch) > 0xFFFF else 1
    codes = []
    for k, ch in enumerate(text):
        if ch.isspace():
            continue
        starts = any(unit_at[k] == s for s, e in spans if s < e or s == unit_at[k])
        inside = any(s <= unit_at[k] < e for s, e in spans)
        codes.append(0 if starts else 1 if inside else 2)
    return codes


@pytest.mark.parametrize("seed", range(4))
def test_unit_boundaries_match_a_character_walk_on_random_texts(seed):
    import random

    rng = random.Random(seed)
    alphabet = ["a", "b", " ", "\t", "\n", "\x1c", "\x85", "\xa0", "é", "ก", "\u3000", "\U0001f4d8"]
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        starts = [0]
        for ch in text:
            starts.append(starts[-1] + (2 if ord(ch) > 0xFFFF else 1))
        spans = sorted(
            tuple(sorted(rng.sample(starts, 2))) if len(starts) > 1 else (0, 0)
            for _ in range(rng.randint(0, 3))
        )
        assert list(boundary_bytes(text, spans)) == _boundaries_by_hand(text, spans), (text, spans)


def _doc(units, candidates):
    text = " ".join(f"w{k}" for k in range(units))
    starts = [
        text.index(f"w{k}", 0 if k == 0 else text.index(f"w{k - 1}") + 1) for k in range(units)
    ]
    spans = [(a, a + len(f"w{k}")) for k, a in enumerate(starts)]
    return {
        "format": "claimlab/decomposition@1", "offset_unit": "utf16",
        "original": {"id": "q", "version": "1", "text": text},
        "units": [{"id": f"U{k}", "span": {"start": a, "end": b, "text": text[a:b]}}
                  for k, (a, b) in enumerate(spans)],
        "references": [],
        "candidates": [
            {"id": f"S{j}", "text": "t", "entity": "", "version": "", "predicate": "",
             "qualifiers": [], "source_spans": [{"start": a, "end": b, "text": text[a:b]}],
             "fingerprint": f"s{j}", "preserves": [f"U{k}"], "faithful": True, "atomic": True,
             "errors": [], "evidence": {"status": "NOT_IN_REFERENCE", "references": []}}
            for j, (k, (a, b)) in enumerate(candidates)
        ],
    }  # fmt: skip


def test_keep_masks_one_bit_a_unit_span_up_to_64_and_none_past():
    from claimlab.io.decomposition import read_decomposition
    from claimlab.metrics.agreement_items import PER_CANDIDATE, file_items

    def items(units, keeps):
        doc = _doc(units, [])
        spans = [(u["span"]["start"], u["span"]["end"]) for u in doc["units"]]
        doc = _doc(units, [(k, spans[k]) for k in keeps])
        return file_items(read_decomposition(doc, source="x.json"))

    f = items(64, [0, 5, 63])
    assert f.keep_masks().tolist() == [1, 1 << 5, 1 << 63]
    assert items(65, [0]).keeps is None  # past 64 spans: coded answer by answer
    empty = items(3, [])  # no candidate: every per-candidate field codes nothing
    assert empty.codes[1:] == (b"",) * len(PER_CANDIDATE)
    assert (
        empty.candidates == () and empty.keeps == b"" and empty.counts == (0, 0, 0, 3, 0, 0, 0, 0)
    )
    assert list(empty.codes[0]) == [0, 1] * 3  # "w0 w1 w2": each unit's B then I


def test_utf16_offsets_to_code_points():
    to_cp = Utf16Text("a\U0001f600b\U0001f600c").index
    assert [to_cp(o) for o in (0, 1, 3, 4, 6, 7)] == [0, 1, 2, 3, 4, 5]
    plain = Utf16Text("abc").index
    assert [plain(o) for o in (0, 2, 3)] == [0, 2, 3]
    accented = Utf16Text("çé").index
    assert [accented(o) for o in (0, 1, 2)] == [0, 1, 2]


# ------------------------------------------------------------------ the records and checks


def test_a_disagreement_in_json():
    d = Disagreement("S3", "faithful", ("true", None, "false"))
    assert d.to_dict(["A", "B", "C"]) == {
        "item": "S3", "field": "faithful", "values": {"A": "true", "B": None, "C": "false"},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("other", "fails"),
    [
        ({}, False),
        ({"text": "ab ce"}, True),
        ({"answer": "q2"}, True),
        ({"units": ((0, 2, "U9", "ab"),)}, False),  # units may differ
    ],
)
def test_files_of_one_answer_hold_one_text(other, fails):
    files = [_file(), _file(**{"source": "b.json", **other})]
    if not fails:
        check_same_text(files)
        return
    with pytest.raises(FixtureError) as e:
        check_same_text(files)
    assert (e.value.file, e.value.field) == ("b.json", "original")
    assert "is not an annotation of the same answer as a.json" in str(e.value)
    check_same_text([files[1]])  # one file is always its own answer


def test_a_unit_span_s_text_from_the_first_file_that_marks_it():
    first = _file(units=[(0, 2, "U1", "ab")])
    second = _file(units=[(0, 2, "U7", "ab"), (3, 5, "U8", "cd")])
    items = AnswerItems(
        AnswerKey("", "q1"), (None, first, second), ("S1",), ((0, 2), (3, 5)), {},
        Preserves(np.zeros((3, 0), np.int8), (), {}),
    )  # fmt: skip
    assert items.text_of((0, 2)) == "ab" and items.text_of((3, 5)) == "cd"
    assert items.text_of((1, 4)) == ""
    assert BOUNDARIES == "unit boundaries"


def test_counted_columns_are_added_with_their_weights():
    codes = np.array([[1], [0]], dtype=np.int8)
    got, weights = _with_bulk(codes, [{(0, -1): 3}, {(0, -1): 2, (0, 0): 1}])
    assert got.tolist() == [[1, 0, 0], [0, -1, 0]]
    assert weights.tolist() == [1, 5, 1]
    alone, w = _with_bulk(codes, [])
    assert alone.tolist() == [[1], [0]] and w.tolist() == [1]
    empty, w = _with_bulk(np.zeros((2, 0), np.int8), [{(-1, 0): 4}])
    assert empty.tolist() == [[-1], [0]] and w.tolist() == [4]


@pytest.mark.parametrize(
    ("group", "m", "masks"),
    [
        ([_file(), _file(source="b.json")], 2, True),
        ([_file(), None], 2, False),  # an annotator without a file
        ([_file(), _file(source="b.json", keeps=None)], 2, False),  # past 64 unit spans
        ([_file(candidates=("S1", "S1"), keeps=b"\0" * 16)] * 2, 2, False),  # an id twice
        ([_file(), _file(source="b.json")], 31, False),  # too many annotators for a bit mask
        ([_file(), _file(source="b.json")], 30, True),
    ],
)
def test_which_answers_are_coded_from_their_keep_masks(group, m, masks):
    assert _has_masks(group, m) is masks


def test_unit_disagreements_name_the_span_and_each_annotator_s_unit():
    from claimlab.metrics.agreement_items import unit_disagreements

    a = _file(units=[(0, 2, "U1", "ab")])
    b = _file(source="b.json", units=[(0, 2, "U3", "ab"), (3, 5, "U4", "cd")])
    proposed = _file(source="d.json", units=[(0, 2, "U1", "ab")])._replace(proposed_units=True)
    items = AnswerItems(
        AnswerKey("", "q1"), (a, b, None, proposed), ("S1",), ((0, 2), (3, 5)), {},
        Preserves(np.zeros((4, 0), np.int8), (), {}),
    )  # fmt: skip
    (d,) = unit_disagreements(items, prefix="q1: ")
    assert d == Disagreement("q1: unit 3..5 'cd'", BOUNDARIES, ("no unit", "unit U4", None, None))
    assert unit_disagreements(items)[0].item == "unit 3..5 'cd'"


def test_the_edges_of_the_astral_planes():
    # U+FFFF is one UTF-16 unit, U+10000 the first of two
    to_cp = Utf16Text("a\uffff\U0001f600b").index
    assert [to_cp(o) for o in (0, 1, 2, 4, 5)] == [0, 1, 2, 3, 4]
    first = Utf16Text("\U00010000b").index
    assert [first(o) for o in (0, 2, 3)] == [0, 1, 2]


def test_the_records_are_read_only():
    p = Preserves(np.zeros((2, 0), np.int8), (), {(0, -1): 2})
    with pytest.raises(TypeError):
        p.bulk[(0, 0)] = 1  # type: ignore[index]
    items = AnswerItems(AnswerKey("", "q"), (None,), (), (), {"faithful": np.zeros((1, 0))}, p)
    with pytest.raises(TypeError):
        items.codes["atomic"] = np.zeros((1, 0))  # type: ignore[index]


def test_a_pool_is_read_only():
    from claimlab.metrics.agreement_items import pool

    files = [_file(), _file(source="b.json")]
    p = pool([AnswerKey("", "q1")], [tuple(files)], 2)
    for name in ("codes", "weights", "owner", "start"):
        with pytest.raises(TypeError):
            getattr(p, name)["x"] = None
