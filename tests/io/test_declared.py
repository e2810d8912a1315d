"""A declared record format: the fast conversion and the field-by-field walk are one rule.

Invariant: for any list of JSON values, :func:`read_records` gives exactly the records the
declaration's walk (:func:`check_record` over :func:`records_of`) gives, or the walk's own first
error (the same file, record id, field and words), whatever order the keys are written in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.io.declared import check_record, declared_schema, read_records
from claimlab.io.reader import records_of


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    live: bool
    count: int = 0
    tags: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=(), metadata={"texts": True})


def walked(items):
    try:
        return [check_record(Item, r) for _, r in records_of(items, file="f.json", where="items")]
    except ClaimlabInputError as exc:
        return ("error", str(exc))


def read(items):
    try:
        return read_records(Item, items, file="f.json", where="items")
    except ClaimlabInputError as exc:
        return ("error", str(exc))


def test_a_good_list_becomes_its_records_with_the_defaults():
    got = read_records(
        Item, [{"id": "i1", "name": "n", "live": True, "extra": 1}], file="f", where="items"
    )
    assert got == [Item("i1", "n", True)]


@pytest.mark.parametrize(
    ("items", "record", "fld", "words"),
    [
        ([{"id": "a", "live": True}], "a", "name", "missing required field"),
        ([{"id": "a", "name": 3, "live": True}], "a", "name", "must be a string, got 3"),
        ([{"id": "a", "name": "n", "live": 1}], "a", "live", "must be true or false, got 1"),
        ([{"id": "a", "name": "n", "live": True, "count": True}], "a", "count", "an integer"),
        ([{"id": "a", "name": "n", "live": True, "tags": ["x", 2]}], "a", "tags[1]", "string"),
        ([{"id": "a", "name": "n", "live": True, "notes": [" "]}], "a", "notes[0]", "some text"),
        ([{"id": "", "name": "n", "live": True}], "items[0]", "id", "non-empty string"),
        ([{"name": "n", "live": True}], "items[0]", "id", "missing required field"),
        ([7], None, "items[0]", "must be an object"),
        # the declaration's order decides which of two problems is named, not the file's
        ([{"id": "a", "live": "no", "name": 1}], "a", "name", "must be a string"),
    ],
)
def test_each_refusal_names_the_record_and_the_field(items, record, fld, words):
    with pytest.raises(FixtureError) as caught:
        read_records(Item, items, file="f.json", where="items")
    exc = caught.value
    assert (exc.file, exc.record, exc.field) == ("f.json", record, fld)
    assert words in str(exc)


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", " ", "a", "ก", "가", "ı"]),
    st.lists(st.sampled_from(["", " ", "x", "ğ"]), max_size=3),
    st.lists(st.integers(0, 2), max_size=2),
    st.tuples(st.sampled_from(["x", " "])),  # a caller's tuple is not a JSON list
    st.frozensets(st.sampled_from(["x", "y"]), max_size=2),
)
anything = st.dictionaries(
    st.sampled_from(["id", "name", "live", "count", "tags", "notes", "other"]), values
)
texts = st.text(alphabet=" aıก가\u0301", max_size=3)
records = st.fixed_dictionaries(  # mostly good: the fast path is taken, then refused or not
    {"id": texts, "name": texts, "live": st.booleans()},
    optional={
        "count": st.integers(-(2**70), 2**70),
        "tags": st.one_of(st.lists(texts, max_size=3), st.tuples(texts)),
        "notes": st.lists(texts, max_size=3),
        "other": values,
    },
)
objects = st.one_of(anything, records)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(objects, values), max_size=4))
def test_the_fast_reading_is_the_walk_of_the_declaration(items):
    assert read(items) == walked(items)


@settings(max_examples=200, deadline=None)
@given(st.lists(objects, max_size=3), st.randoms())
def test_the_order_keys_are_written_in_changes_nothing(items, rnd):
    shuffled = []
    for obj in items:
        keys = list(obj)
        rnd.shuffle(keys)
        shuffled.append({k: obj[k] for k in keys})
    assert read(shuffled) == read(items)


def test_the_schema_comes_from_the_same_declaration():
    schema = declared_schema(Item)["$defs"]["Item"]
    assert schema["required"] == ["id", "name", "live"]
    tags = {"type": "array", "items": {"type": "string"}, "default": []}
    assert schema["properties"]["tags"] == tags
