"""One test per loader check, each asserting the file, record id and field in the message."""

import json

import pytest

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.io.decomposition import load_decomposition
from tests.conftest import FIXTURES


@pytest.mark.parametrize("name", ["atlas_nova.json", "atlas_nova_th.json"])
def test_shipped_fixtures_load(name):
    fx = load_decomposition(FIXTURES / name)
    assert fx.unit_ids == ("U1", "U2", "U3", "U4", "U5")
    assert fx.candidate_ids == tuple(f"C{i}" for i in range(1, 12))
    assert [r.id for r in fx.references] == ["R1", "R2", "R3", "R4", "R5"]
    assert set(fx.modes) == {
        "baseline",
        "supported_only",
        "introduced",
        "qualifier",
        "entity",
        "version",
        "duplicate",
        "compound",
        "empty",
    }


@pytest.mark.parametrize("name", ["atlas_nova.json", "atlas_nova_th.json"])
def test_fixture_relations_match_the_spec_table(name):
    fx = load_decomposition(FIXTURES / name)
    expected = {
        # id: (preserves, faithful, atomic, errors, status, references)
        "C1": (("U1",), True, True, (), "SUPPORTED", ("R1",)),
        "C2": (("U2",), True, True, (), "SUPPORTED", ("R2",)),
        "C3": (("U3",), True, True, (), "SUPPORTED", ("R4",)),
        "C4": (("U4",), True, True, (), "NOT_IN_REFERENCE", ()),
        "C5": (("U5",), True, True, (), "CONTRADICTED", ("R3",)),
        "C6": (("U1",), True, True, (), "SUPPORTED", ("R1",)),
        "C7": ((), False, True, ("qualifier",), "CONTRADICTED", ("R1",)),
        "C8": ((), False, True, ("introduced",), "SUPPORTED", ("R5",)),
        "C9": ((), False, True, ("entity",), "NOT_IN_REFERENCE", ()),
        "C10": ((), False, True, ("version",), "NOT_IN_REFERENCE", ()),
        "C11": (("U1", "U3"), True, False, (), "SUPPORTED", ("R1", "R4")),
    }
    for cid, (pres, faithful, atomic, errors, status, refs) in expected.items():
        c = fx.candidate(cid)
        assert (c.preserves, c.faithful, c.atomic, c.errors) == (pres, faithful, atomic, errors), (
            cid
        )
        assert (c.evidence.status, c.evidence.references) == (status, refs), cid
    assert fx.candidate("C6").fingerprint == fx.candidate("C1").fingerprint
    assert fx.candidate("C8").source_spans == ()
    assert fx.candidate("C9").entity != fx.candidate("C1").entity
    assert fx.candidate("C10").version != fx.candidate("C1").version


def _unit_span(data, uid):
    return next(u for u in data["units"] if u["id"] == uid)["span"]


def _cand(data, cid):
    return next(c for c in data["candidates"] if c["id"] == cid)


def as_code_points(data):
    # rewrite C2's span as code-point offsets: the emoji at the start makes them one short
    text = data["original"]["text"]
    span = _cand(data, "C2")["source_spans"][0]
    i = text.index(span["text"])
    span["start"], span["end"] = i, i + len(span["text"])


def as_utf8_bytes(data):
    text = data["original"]["text"]
    span = _unit_span(data, "U3")
    i = len(text[: text.index(span["text"])].encode("utf-8"))
    span["start"], span["end"] = i, i + len(span["text"].encode("utf-8"))


CASES = [
    # (id, mutate, record, field, message fragment)
    ("code-point offsets", as_code_points, "C2", "source_spans[0].text", "look like code points"),
    (
        "utf-8 byte offsets",
        as_utf8_bytes,
        "U3",
        ("span.text", "span.start", "span.end"),
        "look like UTF-8 bytes",
    ),
    (
        "dangling unit",
        lambda d: _cand(d, "C3")["preserves"].append("U9"),
        "C3",
        "preserves[1]",
        "unknown unit id 'U9'",
    ),
    (
        "dangling reference",
        lambda d: _cand(d, "C5")["evidence"]["references"].__setitem__(0, "R9"),
        "C5",
        "evidence.references[0]",
        "unknown reference id 'R9'",
    ),
    (
        "duplicate candidate id",
        lambda d: _cand(d, "C7").__setitem__("id", "C1"),
        "C1",
        "id",
        "duplicate id",
    ),
    (
        "duplicate unit id",
        lambda d: d["units"][1].__setitem__("id", "U1"),
        "U1",
        "id",
        "duplicate id",
    ),
    (
        "missing field",
        lambda d: _cand(d, "C4").pop("fingerprint"),
        "C4",
        "fingerprint",
        "missing required field",
    ),
    (
        "unknown status",
        lambda d: _cand(d, "C4")["evidence"].__setitem__("status", "MAYBE"),
        "C4",
        "evidence.status",
        "unknown status 'MAYBE'",
    ),
    (
        "faithful with errors",
        lambda d: _cand(d, "C7").__setitem__("faithful", True),
        "C7",
        "faithful",
        "cannot be faithful",
    ),
    (
        "faithful without units",
        lambda d: _cand(d, "C2").__setitem__("preserves", []),
        "C2",
        "preserves",
        "at least one unit",
    ),
    (
        "unknown error kind",
        lambda d: _cand(d, "C9")["errors"].append("tone"),
        "C9",
        "errors[1]",
        "unknown error kind 'tone'",
    ),
    (
        "supported without reference",
        lambda d: _cand(d, "C2")["evidence"].__setitem__("references", []),
        "C2",
        "evidence.references",
        "at least one reference",
    ),
    (
        "wrong type",
        lambda d: _cand(d, "C2").__setitem__("atomic", "yes"),
        "C2",
        "atomic",
        "must be true or false",
    ),
    (
        "span out of range",
        lambda d: _unit_span(d, "U5").__setitem__("end", 10_000),
        "U5",
        "span.end",
        "outside original.text",
    ),
    (
        "mode with unknown id",
        lambda d: d["modes"]["baseline"].append("C99"),
        "baseline",
        "modes.baseline[5]",
        "unknown candidate id 'C99'",
    ),
    (
        "wrong format",
        lambda d: d.__setitem__("format", "claimlab/decomposition@2"),
        None,
        "format",
        "expected 'claimlab/decomposition@1'",
    ),
    (
        "offset unit not utf16",
        lambda d: d.__setitem__("offset_unit", "codepoint"),
        None,
        "offset_unit",
        "must be 'utf16'",
    ),
]


@pytest.mark.parametrize(
    ("case", "mutate", "record", "field", "fragment"), CASES, ids=[c[0] for c in CASES]
)
@pytest.mark.parametrize("fixture_name", ["atlas_nova.json", "atlas_nova_th.json"])
def test_loader_rejects_bad_input_naming_file_record_and_field(
    write_variant, fixture_name, case, mutate, record, field, fragment
):
    path = write_variant(fixture_name, mutate, filename="broken.json")
    with pytest.raises(FixtureError) as info:
        load_decomposition(path)
    err = info.value
    assert err.file == str(path)
    assert err.record == record
    assert err.field in (field if isinstance(field, tuple) else (field,))
    assert fragment in str(err)
    assert str(err).startswith(str(path))


def test_unreadable_and_invalid_json_name_the_file(tmp_path):
    missing = tmp_path / "none.json"
    with pytest.raises(ClaimlabInputError, match="cannot read file"):
        load_decomposition(missing)
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    with pytest.raises(ClaimlabInputError, match=r"bad.json: not valid JSON: .* line 1"):
        load_decomposition(bad)


@pytest.mark.parametrize("escape", ["\\ud83e", "\\udf7f", "\\ud83e x"])
def test_half_an_emoji_in_a_span_text_is_named_as_such(tmp_path, escape):
    """A span cut inside an emoji, its text written as that exact UTF-16 slice, holds a lone
    surrogate escape: refused as not valid JSON with what it is and where, whichever half."""
    doc = json.loads((FIXTURES / "atlas_nova.json").read_text(encoding="utf-8"))
    text = json.dumps(doc, ensure_ascii=False)
    bad = tmp_path / "half.json"
    bad.write_text(text.replace('"text": "', f'"text": "{escape}', 1), encoding="utf-8")
    with pytest.raises(ClaimlabInputError) as caught:
        load_decomposition(bad)
    message = str(caught.value)
    assert (
        "half.json: not valid JSON: a \\u escape of half a character (a lone surrogate" in message
    )
    assert " at line 1 column " in message


def test_extra_keys_are_allowed(write_variant):
    path = write_variant("atlas_nova.json", lambda d: _cand(d, "C1").__setitem__("reviewer", "x"))
    assert load_decomposition(path).candidate("C1").id == "C1"


def test_evidence_spans_are_checked_against_the_reference(write_variant):
    def add_span(d):
        ref = next(r for r in d["references"] if r["id"] == "R2")
        i = ref["text"].index("Markdown")
        _cand(d, "C2")["evidence"]["spans"] = [
            {"reference": "R2", "start": i, "end": i + 8, "text": "Markdown"}
        ]

    fx = load_decomposition(write_variant("atlas_nova.json", add_span))
    assert fx.candidate("C2").evidence.spans[0].text == "Markdown"

    def bad_span(d):
        add_span(d)
        _cand(d, "C2")["evidence"]["spans"][0]["text"] = "Markdowx"

    with pytest.raises(FixtureError, match="C2: evidence.spans\\[0\\].text: does not match"):
        load_decomposition(write_variant("atlas_nova.json", bad_span, filename="b.json"))


@pytest.mark.parametrize(
    "queries", [[], [{"id": "q1", "candidates": []}]], ids=["no-query", "no-candidate"]
)
def test_a_context_lab_without_calibration_candidates_is_refused(write_variant, queries):
    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.context_lab import load_context_lab

    path = write_variant(
        "leave_policy_tr.json", lambda d: d["calibration"].__setitem__("queries", queries)
    )
    with pytest.raises(ClaimlabInputError) as err:
        load_context_lab(path)
    assert err.value.field == "calibration.queries" and str(path) in str(err.value)
