"""The raw subclaims format (``claimlab draft``'s input), read from its one declaration.

Invariants: a line's types, defaults and first problem come from ``RawLine``; what spans
fields is the reader's (one label per subclaim, known reference ids, unique ids, no unknown
label, units found in the answer); null is the same as absent for every optional field, as in
every declared format.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from claimlab.core.errors import FixtureError
from claimlab.io.declared import declared_schema
from claimlab.io.raw import LABEL_FIELDS, RawLabel, RawLine, load_raw_answers

LINE = {
    "id": "fern-1",
    "answer": "Fern Hall opens at 9. It lends telescopes.",
    "subclaims": ["Fern Hall opens at 9.", "Fern Hall lends telescopes."],
    "references": [{"id": "D1", "text": "Fern Hall opens at 9 and lends telescopes."}],
    "labels": [{"status": "SUPPORTED", "references": ["D1"]}, None],
}


def _load(tmp_path, *lines):
    f = tmp_path / "raw.jsonl"
    f.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    return load_raw_answers(f)


def test_a_line_reads_with_its_defaults(tmp_path):
    (a,) = _load(tmp_path, LINE)
    assert (a.id, a.line, a.version, a.units) == ("fern-1", 1, "draft", None)
    assert a.references[0].title == "" and a.references[0].version == ""
    assert dict(a.labels[0]) == {"status": "SUPPORTED", "references": ("D1",)}
    assert dict(a.labels[1]) == {}
    (written_null,) = _load(tmp_path, {**LINE, "version": None})  # null: as left out
    assert written_null.version == "draft"


@pytest.mark.parametrize(
    ("change", "record", "fld", "words"),
    [
        ({"id": ""}, "line 1", "id", "must be a non-empty string"),
        ({"answer": 3}, "fern-1", "answer", "must be a string"),
        ({"subclaims": ["a", " "]}, "fern-1", "subclaims[1]", "must hold some text"),
        ({"references": [{"id": "D1"}]}, "D1", "text", "missing required field"),
        ({"labels": [{"status": "MAYBE"}, None]}, "fern-1", "labels[0].status", "unknown status"),
        ({"labels": [{"errors": ["typo"]}, None]}, "fern-1", "labels[0].errors[0]", "error kind"),
        (
            {"labels": [{"statsu": "SUPPORTED"}, None]},
            "fern-1",
            "labels[0].statsu",
            "unknown label",
        ),
        ({"labels": [None]}, "fern-1", "labels", "has 1 entries but there are 2 subclaims"),
        ({"labels": [{"references": ["D9"]}, None]}, "fern-1", "labels[0].references[0]", "D9"),
        ({"units": ["Fern Hall closes"]}, "fern-1", "units[0]", "does not occur in the answer"),
        ({"units": [{"start": 5, "end": 2}]}, "fern-1", "units[0].start", "is not inside"),
        ({"units": 7}, "fern-1", "units", "must be a list"),
        ({"units": [None]}, "fern-1", "units[0]", 'a text found in the answer or {"start", "end"}'),
        ({"units": [[0, 4]]}, "fern-1", "units[0]", "offsets, got"),
        ({"version": 3}, "fern-1", "version", "must be a string"),
    ],
)
def test_each_refusal_names_the_file_record_and_field(tmp_path, change, record, fld, words):
    with pytest.raises(FixtureError) as caught:
        _load(tmp_path, {**LINE, **change})
    exc = caught.value
    assert (exc.record, exc.field) == (record, fld) and words in str(exc)
    assert exc.file == str(tmp_path / "raw.jsonl")


def test_a_second_line_with_the_first_lines_id_is_refused(tmp_path):
    with pytest.raises(FixtureError, match="duplicate id") as caught:
        _load(tmp_path, LINE, {**LINE, "answer": "Another answer."})
    assert (caught.value.record, caught.value.field) == ("fern-1", "id")


def test_the_labels_a_reader_knows_are_the_declarations_fields():
    assert LABEL_FIELDS == tuple(RawLabel.__dataclass_fields__)
    assert set(declared_schema(RawLabel)["$defs"]["RawLabel"]["properties"]) == set(LABEL_FIELDS)


given_labels = st.fixed_dictionaries(
    {},
    optional={
        "status": st.one_of(st.none(), st.sampled_from(["SUPPORTED", "CONTRADICTED"])),
        "faithful": st.one_of(st.none(), st.booleans()),
        "entity": st.one_of(st.none(), st.text(max_size=5)),
        "qualifiers": st.one_of(st.none(), st.lists(st.text(max_size=3), max_size=2)),
        "errors": st.one_of(
            st.none(), st.lists(st.sampled_from(["entity", "introduced"]), max_size=2)
        ),
    },
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.none(), given_labels), min_size=2, max_size=2), st.booleans())
@example([None, {"entity": "\U0002f800", "qualifiers": ["\U0002f800"]}], False)  # NFC: 丽
def test_null_is_absent_and_a_label_keeps_what_it_gives(tmp_path_factory, labels, units_null):
    """Invariant: a label holds exactly its non-null fields (lists as tuples, texts in their
    one spelling, NFC); a null field, a null label and null units read as if they were left out."""
    from claimlab.core.text import nfc

    def spelt(v):  # a CJK compatibility ideograph reads as its unified form, say
        return nfc(v) if isinstance(v, str) else tuple(map(spelt, v)) if isinstance(v, list) else v

    line = {**LINE, "labels": labels, **({"units": None} if units_null else {})}
    (a,) = _load(tmp_path_factory.mktemp("raw"), line)
    for got, given_label in zip(a.labels, labels, strict=True):
        expected = {k: spelt(v) for k, v in (given_label or {}).items() if v is not None}
        assert dict(got) == expected
    assert a.units is None


def test_every_line_of_the_shipped_file_fits_the_schema_and_a_broken_one_does_not():
    from tests.conftest import FIXTURES

    schema = declared_schema(RawLine)
    lines = (FIXTURES / "raw_subclaims.jsonl").read_text("utf-8").splitlines()
    for line in lines:
        jsonschema.validate(json.loads(line), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**json.loads(lines[0]), "units": [{"start": 0}]}, schema)


def test_one_parsed_line_reads_as_the_file_reads_it(tmp_path):
    from claimlab.io.raw import read_raw_answer

    (loaded,) = _load(tmp_path, LINE)
    assert read_raw_answer(LINE, source=str(tmp_path / "raw.jsonl")) == loaded
    with pytest.raises(FixtureError) as caught:
        read_raw_answer({**LINE, "id": 7}, source="mine.jsonl", line=4)
    assert (caught.value.file, caught.value.record, caught.value.field) == (
        "mine.jsonl",
        "line 4",
        "id",
    )
