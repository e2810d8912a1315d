"""A declared record format: the fast conversion and the field-by-field walk are one rule.

Invariant: for any list of JSON values, :func:`read_records` gives exactly the records the
declaration's walk (:func:`check_record` over :func:`records_of`) gives, or the walk's own first
error (the same file, record id, field and words), whatever order the keys are written in; and
so does :func:`read_declared` for one object of a nested declaration (records in records, lists
of them, bounds, words of a closed vocabulary).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.core.vocab import ErrorKind, Status
from claimlab.io.declared import (
    check_record,
    declared_schema,
    read_declared,
    read_named,
    read_records,
)
from claimlab.io.reader import Record, records_of


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
    tags = {"type": "array", "items": {"type": "string"}}  # null reads as absent: allowed
    assert schema["properties"]["tags"] == {"anyOf": [tags, {"type": "null"}], "default": []}


# ---------------------------------------------------------------- nested declarations
# Nested records (one, optional, a list named by index, a list named by id), bounded floats,
# a Literal of words and a closed vocabulary, in one declaration and its one walk.


@dataclass(frozen=True)
class Where:
    start: int
    text: str


@dataclass(frozen=True)
class Part:
    id: Annotated[str, msgspec.Meta(min_length=1)]
    status: Status
    kinds: tuple[ErrorKind, ...] = field(default=(), metadata={"what": "error kind"})
    at: tuple[Where, ...] = ()
    score: Annotated[float, msgspec.Meta(ge=0, le=100)] = 1.0
    mark: tuple[Literal["span"], ...] = field(default=(), metadata={"what": "label"})


@dataclass(frozen=True)
class Whole:
    head: Where
    parts: tuple[Part, ...]
    tail: Where | None = None
    log: tuple[Any, ...] = ()
    extra: Any = None
    marks: tuple[Where | None, ...] = ()  # an item may be null


def whole_walked(doc):
    try:
        return check_record(Whole, Record(doc, file="w.json"))
    except ClaimlabInputError as exc:
        return ("error", str(exc))


def whole_read(doc):
    try:
        return read_declared(Whole, doc, file="w.json")
    except ClaimlabInputError as exc:
        return ("error", str(exc))


GOOD = {
    "head": {"start": 0, "text": "a"},
    "parts": [
        {"id": "p1", "status": "SUPPORTED", "kinds": ["entity"], "at": [{"start": 1, "text": "b"}]},
        {"id": "p2", "status": "CONTRADICTED", "score": 50, "mark": ["span"]},
    ],
}


def test_a_nested_declaration_reads_to_its_records_and_vocabularies():
    got = read_declared(Whole, GOOD, file="w.json")
    assert got.parts[0].status is Status.SUPPORTED and got.parts[0].kinds == (ErrorKind.ENTITY,)
    assert got.parts[1].score == 50.0 and type(got.parts[1].score) is float
    assert got.parts[0].at == (Where(1, "b"),) and got.tail is None
    assert got == whole_walked(GOOD)


@pytest.mark.parametrize(
    ("change", "record", "fld", "words"),
    [
        ({"parts": [{"id": "p1", "status": "MAYBE"}]}, "p1", "status", "unknown status 'MAYBE'"),
        (
            {"parts": [{"id": "p", "status": "SUPPORTED", "kinds": ["x"]}]},
            "p",
            "kinds[0]",
            "unknown error kind 'x' (one of introduced",
        ),  # fmt: skip
        (
            {"parts": [{"id": "p", "status": "SUPPORTED", "score": 101}]},
            "p",
            "score",
            "must be at most 100",
        ),  # fmt: skip
        (
            {"parts": [{"id": "p", "status": "SUPPORTED", "mark": ["spam"]}]},
            "p",
            "mark[0]",
            "unknown label 'spam' (one of span)",
        ),  # fmt: skip
        (
            {"parts": [{"id": "p", "status": "SUPPORTED", "at": [{"start": "0"}]}]},
            "p",
            "at[0].start",
            "must be an integer",
        ),  # fmt: skip
        ({"parts": [{"id": "", "status": "SUPPORTED"}]}, "parts[0]", "id", "non-empty string"),
        ({"tail": {"start": 1}}, None, "tail.text", "missing required field"),
        ({"head": []}, None, "head", "must be an object"),
    ],
)
def test_each_nested_refusal_names_the_record_and_the_path(change, record, fld, words):
    with pytest.raises(FixtureError) as caught:
        read_declared(Whole, {**GOOD, **change}, file="w.json")
    exc = caught.value
    assert (exc.file, exc.record, exc.field) == ("w.json", record, fld)
    assert words in str(exc)


words = st.sampled_from(["SUPPORTED", "MAYBE", "entity", "span", "x", ""])
nested_values = st.one_of(values, words, st.lists(words, max_size=2))
wheres = st.one_of(
    st.fixed_dictionaries({"start": st.integers(-2, 2), "text": texts}),
    st.dictionaries(st.sampled_from(["start", "text"]), nested_values),
)
parts = st.one_of(
    st.fixed_dictionaries(
        {"id": texts, "status": words},
        optional={
            "kinds": st.lists(words, max_size=2),
            "at": st.lists(wheres, max_size=2),
            "score": st.one_of(st.integers(-5, 120), st.floats()),
            "mark": st.lists(words, max_size=2),
        },
    ),
    st.dictionaries(st.sampled_from(["id", "status", "kinds", "at", "score"]), nested_values),
)
wholes = st.fixed_dictionaries(
    {"head": wheres, "parts": st.lists(parts, max_size=3)},
    optional={
        "tail": st.one_of(st.none(), wheres),
        "log": st.lists(values, max_size=2),
        "marks": st.one_of(st.lists(st.one_of(st.none(), wheres), max_size=3), values),
    },
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(wholes, values))
def test_the_fast_reading_of_a_nested_declaration_is_its_walk(doc):
    """Invariant: records or the first error, the same either way (file, record, field, words)."""
    assert whole_read(doc) == whole_walked(doc)


@dataclass(frozen=True)
class Scored:
    id: str
    score: float
    position: int | None = None


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_number_without_bounds_must_still_be_finite(bad):
    """msgspec takes NaN and infinity for a float without bounds; the declaration does not."""
    with pytest.raises(FixtureError) as caught:
        read_records(Scored, [{"id": "s", "score": bad}], file="s.json", where="scores")
    assert (caught.value.record, caught.value.field) == ("s", "score")
    assert "must be a finite number" in str(caught.value)


def test_null_reads_as_absent_for_an_optional_field():
    """One rule for every optional field, a record or a number: null is the same as absent."""
    items = [{"id": "s", "score": 1, "position": None}, {"id": "t", "score": 2}]
    got = read_records(Scored, items, file="s.json", where="scores")
    assert got == [Scored("s", 1.0), Scored("t", 2.0)]
    assert got == [check_record(Scored, r) for _, r in records_of(items, file="s", where="x")]


def test_a_bound_the_walk_does_not_check_is_refused_when_declared():
    """A bound msgspec would check but the walk would not (``lt``) fails at declaration."""

    @dataclass(frozen=True)
    class Strict:
        score: Annotated[float, msgspec.Meta(lt=1)]

    with pytest.raises(TypeError, match="no reader for the bounds"):
        read_records(Strict, [{"score": 0.5}], file="s", where="x", id_field="score")


def test_a_null_item_of_a_list_that_allows_it_stays_none():
    doc = {**GOOD, "marks": [None, {"start": 2, "text": "c"}]}
    got = read_declared(Whole, doc, file="w.json")
    assert got.marks == (None, Where(2, "c")) and got == whole_walked(doc)
    with pytest.raises(FixtureError) as caught:
        read_declared(Whole, {**GOOD, "marks": [None, 3]}, file="w.json")
    assert caught.value.field == "marks[1]" and "must be an object" in str(caught.value)


def test_null_items_are_declared_only_for_records_without_ids():
    """A null item of a list of words or of records named by id has no reader: refused."""

    @dataclass(frozen=True)
    class Holed:
        words: tuple[str | None, ...]

    with pytest.raises(TypeError, match="no reader for null items"):
        read_declared(Holed, {"words": ["a", None]}, file="h.json")


def named_walked(items, names):
    try:
        return [
            check_record(Part, Record(item, file="l.jsonl", record=name))
            for item, name in zip(items, names, strict=True)
        ]
    except ClaimlabInputError as exc:
        return ("error", str(exc))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(parts, values), max_size=4))
def test_reading_named_objects_in_one_pass_is_their_walk(items):
    """Invariant: the lines of a JSON Lines file read at once give each line's walk, or the
    first line's first problem named by that line's name."""
    names = [f"line {n}" for n in range(1, len(items) + 1)]
    try:
        got = read_named(Part, items, names, file="l.jsonl")
    except ClaimlabInputError as exc:
        got = ("error", str(exc))
    assert got == named_walked(items, names)


@dataclass(frozen=True)
class Bounded:
    share: Annotated[float, msgspec.Meta(gt=0, le=1)]
    steps: tuple[float, ...] = ()
    counts: tuple[Annotated[int, msgspec.Meta(ge=0)], ...] = ()


@pytest.mark.parametrize(
    ("doc", "fld", "words"),
    [
        ({"share": 0}, "share", "must be greater than 0"),
        ({"share": 0.5, "steps": [0.1, "x"]}, "steps[1]", "must be a number"),
        ({"share": 0.5, "steps": [0.1, float("nan")]}, "steps[1]", "must be a finite number"),
        ({"share": 0.5, "counts": [1, -1]}, "counts[1]", "must be at least 0"),
        ({"share": 0.5, "counts": [1, 1.5]}, "counts[1]", "must be an integer"),
    ],
)
def test_bounds_and_lists_of_numbers_are_walked_as_declared(doc, fld, words):
    with pytest.raises(FixtureError) as caught:
        read_declared(Bounded, doc, file="b.json", path="top")
    assert caught.value.field == f"top.{fld}" and words in str(caught.value)
    walked = whole_error(Bounded, doc)
    assert walked == str(caught.value)


def whole_error(cls, doc):
    try:
        check_record(cls, Record(doc, file="b.json", path="top"))
    except ClaimlabInputError as exc:
        return str(exc)
    return None


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {"share": st.one_of(st.floats(), st.integers(-2, 2), values)},
        optional={
            "steps": st.one_of(
                st.lists(st.one_of(st.floats(), st.integers(), values), max_size=3), values
            ),
            "counts": st.one_of(
                st.lists(st.one_of(st.integers(-2, 2), st.floats(), values), max_size=3), values
            ),
        },
    )
)
def test_the_fast_reading_of_bounded_numbers_is_their_walk(doc):
    try:
        got = read_declared(Bounded, doc, file="b.json", path="top")
    except ClaimlabInputError as exc:
        got = str(exc)
    try:
        walked = check_record(Bounded, Record(doc, file="b.json", path="top"))
    except ClaimlabInputError as exc:
        walked = str(exc)
    assert got == walked


@dataclass(frozen=True)
class Keyed:
    places: Mapping[str, Where]
    named: tuple[Item, ...] = ()
    spare: Mapping[str, Where] = field(default_factory=dict)


def keyed_read(doc):
    try:
        return read_declared(Keyed, doc, file="k.json")
    except ClaimlabInputError as exc:
        return ("error", str(exc))


def keyed_walked(doc):
    try:
        return check_record(Keyed, Record(doc, file="k.json"))
    except ClaimlabInputError as exc:
        return ("error", str(exc))


def test_an_object_keyed_by_name_names_the_key_as_the_record():
    got = read_declared(Keyed, {"places": {"hall": {"start": 1, "text": "h"}}}, file="k.json")
    assert got.places == {"hall": Where(1, "h")} and got.spare == {}
    with pytest.raises(FixtureError) as caught:
        read_declared(Keyed, {"places": {"hall": {"start": "1", "text": "h"}}}, file="k.json")
    assert (caught.value.record, caught.value.field) == ("hall", "places.hall.start")
    with pytest.raises(FixtureError, match="names must be non-empty"):
        read_declared(Keyed, {"places": {"": {"start": 1, "text": "h"}}}, file="k.json")


def test_an_empty_id_of_a_nested_list_is_refused_by_the_fast_reading_too():
    doc = {"places": {}, "named": [{"id": "", "name": "n", "live": True}]}
    assert keyed_read(doc) == keyed_walked(doc) and keyed_read(doc)[0] == "error"


# nested values as a JSON parser gives them (lists, never a caller's tuple: only the top level
# of what a reader is handed is checked for one, see io.declared._needs_walk)
json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["", " ", "a", "ก"]),
    st.lists(st.sampled_from(["", " ", "x"]), max_size=2),
)
json_records = st.one_of(
    st.dictionaries(st.sampled_from(["id", "name", "live", "tags", "other"]), json_values),
    st.fixed_dictionaries(
        {"id": texts, "name": texts, "live": st.booleans()},
        optional={"tags": st.lists(texts, max_size=2), "notes": st.lists(texts, max_size=2)},
    ),
)
keyed_docs = st.fixed_dictionaries(
    {
        "places": st.one_of(
            st.dictionaries(st.sampled_from(["", "a", "b"]), wheres, max_size=2), values
        )
    },
    optional={
        "named": st.lists(json_records, max_size=2),
        "spare": st.one_of(st.dictionaries(st.text(max_size=2), wheres, max_size=2), values),
    },
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(keyed_docs, values))
def test_the_fast_reading_of_objects_keyed_by_name_is_their_walk(doc):
    assert keyed_read(doc) == keyed_walked(doc)
