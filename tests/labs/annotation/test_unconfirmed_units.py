"""Adjudication never turns an item no annotator confirmed into gold (issue 40, tester's f2/v3).

A unit every annotator's file still proposes (under ``review``) stays proposed in the merged
file, so the file is no gold set and the ledger's summary says DRAFT.
"""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.labs.annotation.adjudicate import merge_documents
from tests.conftest import run_cli
from tests.labs.ledger.test_empty_selections import SENTENCES, decomposition, ledger

# the tester's files (/tmp/variants40/f2/v3, Lek/B and Nok/B): U2 still proposed by both
THAI = {
    "format": "claimlab/decomposition@1",
    "offset_unit": "utf16",
    "decomposer": "B",
    "original": {"id": "ฝน2", "version": "draft", "text": "ภูเก็ตมีคลื่นสูง ห้ามลงเล่นน้ำ"},
    "units": [
        {"id": "U1", "span": {"start": 0, "end": 16, "text": "ภูเก็ตมีคลื่นสูง"}},
        {"id": "U2", "span": {"start": 17, "end": 30, "text": "ห้ามลงเล่นน้ำ"}, "review": ["span"]},
    ],
    "references": [],
    "candidates": [],
    "modes": {"decomposer": []},
    "annotation": {"annotator": "", "started": "2026-12-03T21:00:00Z",
                   "updated": "2026-12-03T22:00:00Z", "log": []},
}  # fmt: skip


def annotated(name, proposed_units, proposed_candidates=()):
    """One annotator's file of the two-sentence answer: the units and candidates it proposes."""
    doc = decomposition("q1", SENTENCES, {1, 2})
    doc["annotation"] = {"annotator": name}
    for u in doc["units"]:
        if u["id"] in proposed_units:
            u["review"] = ["span"]
    for c in doc["candidates"]:
        if c["id"] in proposed_candidates:
            c["review"] = ["faithful"]
    return doc


def merged(docs):
    names = [d["annotation"]["annotator"] for d in docs]
    return merge_documents(docs, [f"{n}.json" for n in names], names, at="T")


@pytest.mark.parametrize(
    ("proposed", "u2_review", "gold"),
    [
        ([{"U2"}, {"U2"}], ["span"], False),  # the tester's case: nobody confirmed U2
        ([{"U2"}, set()], None, True),  # one annotator confirmed it: kept as confirmed
        ([{"U2"}, {"U2"}, {"U2"}], ["span"], False),
        ([{"U2"}, {"U2"}, set()], None, True),
        ([set(), set()], None, True),
    ],
    ids=["both-propose", "one-confirms", "three-propose", "one-of-three-confirms", "all-confirm"],
)
def test_a_unit_nobody_confirmed_stays_proposed(proposed, u2_review, gold):
    docs = [annotated(f"P{k}", units) for k, units in enumerate(proposed)]
    result = merged(docs)
    u2 = next(u for u in result.document["units"] if u["id"] == "U2")
    assert u2.get("review") == u2_review
    assert result.gold is gold
    assert result.unit_ties == ()  # not a tie: every file marks the unit


def test_the_command_keeps_the_thai_unit_proposed_and_the_ledger_says_draft(tmp_path, capsys):
    for name in ("Lek", "Nok"):
        doc = copy.deepcopy(THAI)
        doc["annotation"]["annotator"] = name
        (tmp_path / name / "B").mkdir(parents=True)
        (tmp_path / name / "B" / "ฝน2.json").write_text(
            json.dumps(doc, ensure_ascii=False), encoding="utf-8"
        )
    proc = run_cli("adjudicate", tmp_path / "Lek", tmp_path / "Nok", "--out", tmp_path / "gold")
    assert proc.returncode == 0, proc.stderr
    assert "proposed: unit U2 (no annotator confirmed it; kept, still proposed)" in proc.stdout
    gold = json.loads((tmp_path / "gold" / "B" / "ฝน2.json").read_text(encoding="utf-8"))
    assert [u.get("review") for u in gold["units"]] == [None, ["span"]]
    code, text, err = ledger(capsys, "--from-decompositions", tmp_path / "gold" / "B")
    assert code == 0, err
    assert "DRAFT, not gold: 1 file still holds proposed labels (0 candidates, 1 units)" in text
    assert "every label confirmed by a person" not in text


def confirmed_spans(doc):
    return {(u["span"]["start"], u["span"]["end"]) for u in doc["units"] if not u.get("review")}


@st.composite
def annotators(draw):
    """Two or three annotators' files: each unit and candidate proposed or confirmed."""
    n = draw(st.integers(2, 3))
    ids = st.sets(st.sampled_from(["U1", "U2"]))
    return [
        annotated(f"P{k}", draw(ids), draw(st.sets(st.sampled_from(["C1", "C2"]))))
        for k in range(n)
    ]


@settings(max_examples=60, deadline=None)
@given(annotators())
def test_every_confirmed_item_of_the_gold_file_was_confirmed_by_an_annotator(docs):
    """Property: what the merged file confirms, at least one annotator confirmed."""
    doc = merged(copy.deepcopy(docs)).document
    by_people = set().union(*(confirmed_spans(d) for d in docs))
    for sp in confirmed_spans(doc):
        assert sp in by_people, f"unit {sp} confirmed by nobody became gold"
    people_cands = {c["id"] for d in docs for c in d["candidates"] if not c.get("review")}
    for c in doc["candidates"]:
        if not c["review"]:
            assert c["id"] in people_cands, f"candidate {c['id']} confirmed by nobody became gold"
