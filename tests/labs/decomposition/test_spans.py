"""``claimlab spans``: UTF-16 offsets filled from each span's quoted text.

Invariants (hypothesis): every filled span's UTF-16 slice is its quote; filling twice changes
nothing; the input is never changed; a quote that occurs twice or not at all is refused,
naming the record and the field.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import FixtureError
from claimlab.core.spans import utf16_slice
from claimlab.io.decomposition import load_decomposition
from claimlab.labs.decomposition.spans import fill_spans, occurrences
from tests.conftest import FIXTURES, run_cli

WORDS = st.text(alphabet="abçğışöü📗한ไ", min_size=1, max_size=6)


def _doc(sentences, quotes, evidence=None):
    text = " ".join(sentences)
    return {
        "original": {"text": text},
        "units": [{"id": f"U{i}", "span": {"text": q}} for i, q in enumerate(quotes)],
        "references": [{"id": "R1", "text": text}],
        "candidates": [
            {"id": "C1", "source_spans": [{"text": q} for q in quotes]},
            {
                "id": "C2",
                "evidence": {"spans": [{"reference": "R1", "text": q} for q in evidence or []]},
            },
        ],
    }


@st.composite
def unique_sentences(draw):
    """Sentences each holding a marker no other sentence holds, so each quote is unique."""
    words = draw(st.lists(WORDS, min_size=1, max_size=5))
    return [f"[{i}] {w}." for i, w in enumerate(words)]


@settings(max_examples=60, deadline=None)
@given(unique_sentences(), st.data())
def test_every_filled_span_slices_to_its_quote(sentences, data):
    quotes = data.draw(st.lists(st.sampled_from(sentences), min_size=1, unique=True))
    doc = _doc(sentences, quotes, evidence=quotes)
    before = copy.deepcopy(doc)
    filled = fill_spans(doc)
    assert doc == before  # the input is untouched
    out = filled.document
    text = out["original"]["text"]
    spans = [u["span"] for u in out["units"]] + out["candidates"][0]["source_spans"]
    spans += out["candidates"][1]["evidence"]["spans"]
    for span in spans:
        assert utf16_slice(text, span["start"], span["end"]) == span["text"]
    assert len(filled.filled) == len(spans) and filled.kept == ()
    again = fill_spans(out)  # idempotent: a filled file is kept as it is
    assert again.document == out and again.filled == () and len(again.kept) == len(spans)


@settings(max_examples=40, deadline=None)
@given(WORDS, st.integers(min_value=2, max_value=4))
def test_a_quote_that_repeats_is_refused_unless_offsets_choose_one(word, times):
    doc = _doc([f"{word}."] * times, [f"{word}."])
    with pytest.raises(FixtureError) as err:
        fill_spans(doc, file="mine.json")
    assert str(err.value).startswith("mine.json: U0: span.text: ")
    assert f"occurs {len(occurrences(doc['original']['text'], word + '.'))} times" in str(err.value)
    chosen = copy.deepcopy(doc)  # offsets that hold the quote choose the occurrence
    second = occurrences(doc["original"]["text"], f"{word}.")[1]
    for span in [chosen["units"][0]["span"], *chosen["candidates"][0]["source_spans"]]:
        span.update(start=second, end=second + len(f"{word}.".encode("utf-16-le")) // 2)
    assert fill_spans(chosen).document["units"][0]["span"]["start"] == second


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (_doc(["Ali geldi."], ["Veli"]), "mine.json: U0: span.text: 'Veli' does not occur"),
        (_doc(["Ali geldi."], ["Ali"], evidence=["Ayşe"]), "C2: evidence.spans[0].text: 'Ayşe'"),
        (
            {"original": {"text": "x"}, "units": [{"id": "U1"}]},
            "U1: span: a span needs its quoted text",
        ),
        ({"original": {"text": "x"}, "units": [{"id": "U1", "span": {"text": ""}}]}, "U1: span:"),
        ({"units": []}, "original.text: missing"),
        ([], "a decomposition file is a JSON object"),
        ({"original": {"text": "x"}, "units": {}}, "units: must be a list of objects"),
        (
            {
                "original": {"text": "x"},
                "candidates": [
                    {"id": "C1", "evidence": {"spans": [{"reference": "R9", "text": "x"}]}}
                ],
            },
            "C1: evidence.spans[0].reference: names no reference",
        ),
    ],
)
def test_bad_spans_are_refused_naming_record_and_field(doc, message):
    with pytest.raises(FixtureError) as err:
        fill_spans(doc, file="mine.json")
    assert message in str(err.value)


def test_utf16_offsets_count_an_emoji_as_two_units():
    doc = _doc(["📗 Özet: Ali geldi."], ["Ali geldi."])
    span = fill_spans(doc).document["units"][0]["span"]
    assert (span["start"], span["end"]) == (9, 19)  # 📗 = 2 units, " Özet: " = 7


def test_spans_command_writes_a_file_that_loads(tmp_path):
    doc = json.loads((FIXTURES / "not_uygulamalari_tr.json").read_text(encoding="utf-8"))
    for unit in doc["units"]:
        del unit["span"]["start"], unit["span"]["end"]
    for cand in doc["candidates"]:
        for span in cand["source_spans"]:
            del span["start"], span["end"]
    quoted = tmp_path / "quoted.json"
    quoted.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    proc = run_cli("spans", quoted, "--out", tmp_path / "filled.json")
    assert proc.returncode == 0, proc.stderr
    assert (
        load_decomposition(tmp_path / "filled.json").units
        == load_decomposition(FIXTURES / "not_uygulamalari_tr.json").units
    )
    bad = tmp_path / "bad.json"
    doc["units"][0]["span"]["text"] = "Defne Not 3.2"
    bad.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    proc = run_cli("spans", bad)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "U1: span.text: 'Defne Not 3.2' occurs" in proc.stderr


@pytest.mark.parametrize(
    "place",
    [("candidates", 0, "evidence", "spans"), ("candidates", 0, "source_spans"), ("references",)],
)
def test_a_list_written_null_is_filled_as_the_list_left_out(place):
    """As the file's reader reads it: null for a list that may be left out is the list left
    out (the filled copy keeps the field as the file wrote it; the rest is the same)."""
    doc = json.loads((FIXTURES / "atlas_nova.json").read_text(encoding="utf-8"))
    null, absent = _at(doc, place, None), _at(doc, place, ...)
    got, want = _plain(fill_spans(null).document), _plain(fill_spans(absent).document)
    assert _at(got, place, ...) == want


def _plain(value):
    """A read-only document as plain dicts and lists."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return [_plain(v) for v in value] if isinstance(value, (list, tuple)) else value


def _at(doc, place, value):
    """A copy of ``doc`` with the field at ``place`` set to ``value`` (``...``: left out)."""
    out = copy.deepcopy(doc)
    *path, last = place
    holder = out
    for step in path:
        holder = holder.setdefault(step, {}) if isinstance(step, str) else holder[step]
    if value is ...:
        holder.pop(last, None)
    else:
        holder[last] = value
    return out
