"""The memory rule (``history --trusted``) is the metrics' own rule, on the latest revision.

Table-driven: the six claims the issue found trusted, each failing one rule; the revision order
(a file's own version, not the run's time) and one answer in NFC and NFD. Properties: whatever
the selection, the trusted ids are counted, faithful, backed and SUPPORTED; whatever the order
the revisions are recorded in, ``--trusted`` is exactly the latest revision's trusted ids.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sqlite3
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.core.vocab import Status
from claimlab.io.decomposition import Evidence, load_decomposition
from claimlab.io.store import record_run, trusted_claims, version_key
from claimlab.labs.decomposition.audit import audit_record
from claimlab.labs.decomposition.cli import _claims
from claimlab.metrics.decomposition import score_decomposition
from claimlab.metrics.memory import score_trust
from claimlab.tooling.cli import main
from tests.conftest import FIXTURES

FAST = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SERIAL = itertools.count()


def untagged_background(d):
    c2 = cand(d, "C2")
    c2["background"] = {"text": "Made in a lab.", "from_original": False, "tagged": False}


def one_character_span(d):
    (whole,) = cand(d, "C2")["source_spans"]  # the whole of its unit, U2
    one = {"start": whole["start"] + 3, "end": whole["start"] + 4, "text": whole["text"][3]}
    cand(d, "C2")["source_spans"] = [one]


def second_unit_without_span(d):
    cand(d, "C2")["preserves"] = ["U2", "U3"]  # its spans quote U2 only


def another_products_reference(d):
    ref = next(r for r in d["references"] if r["id"] == cand(d, "C2")["evidence"]["references"][0])
    ref["entity"] = "Nova Lab"  # C2 is about Atlas Lab


def cand(d, cid):
    return next(c for c in d["candidates"] if c["id"] == cid)


def ambiguous(d):
    cand(d, "C2")["mapping"] = "AMBIGUOUS"


SELECTED = "C1,C2,C3,C4,C5"
WITHOUT_C2 = "C1,C3,C4,C5"


@pytest.mark.parametrize(
    "mutate, selection",
    [
        (untagged_background, SELECTED),
        (one_character_span, SELECTED),
        (second_unit_without_span, SELECTED),
        (another_products_reference, SELECTED),
        (lambda d: None, WITHOUT_C2),  # an unselected candidate
        (ambiguous, WITHOUT_C2),  # an AMBIGUOUS claim outside the selection
    ],
    ids=["untagged-background", "one-character-span", "second-unit-unbacked",
         "another-products-reference", "unselected", "ambiguous-unselected"],
)  # fmt: skip
def test_none_of_the_six_untrusted_claims_is_listed(tmp_path, write_variant, mutate, selection):
    path = write_variant("atlas_nova.json", mutate)
    store = tmp_path / "runs.sqlite"
    assert main(["decomposition", str(path), "--select", selection, "--store", str(store)]) == 0
    trusted = [c["candidate_id"] for c in trusted_claims(store)]
    assert trusted == ["C1", "C3"]  # the two that pass every rule; C2 never


def test_the_reason_named_for_each_rule():
    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    trust = score_trust(fx, ["C1", "C2", "C3", "C4", "C5", "C1", "C8"])
    assert trust.trusted == ("C1", "C2", "C3")
    assert trust.reasons["C4"] == "NOT_IN_REFERENCE, not SUPPORTED"
    assert trust.reasons["C5"] == "CONTRADICTED, not SUPPORTED"
    assert trust.reasons["C8"] == "not faithful to the original"
    assert trust.reasons["C6"] == "not in the selection"


def revise(version, *, answer="answer-1", contradict=()):
    def mutate(d):
        d["original"].update(id=answer, version=version)
        for c in d["candidates"]:
            if c["id"] in contradict:
                c["evidence"]["status"] = "CONTRADICTED"

    return mutate


def record(write_variant, store, mutate):
    path = write_variant("atlas_nova.json", mutate, filename=f"v{next(SERIAL)}.json")
    assert main(["decomposition", str(path), "--mode", "baseline", "--store", str(store)]) == 0


@pytest.mark.parametrize(
    "revisions",
    [
        # re-running version 1 after version 2 does not bring back what version 2 contradicted
        [revise("v2", contradict=["C1"]), revise("v1")],
        [revise("v1"), revise("v2", contradict=["C1"])],
        [revise("v10", contradict=["C1"]), revise("v9")],  # versions compared as numbers
        # one answer, two spellings of its id: the revision in NFD replaces the NFC one
        [revise("v1", answer=unicodedata.normalize("NFC", "réponse-1")),
         revise("v2", answer=unicodedata.normalize("NFD", "réponse-1"), contradict=["C1"])],
    ],
    ids=["v1-rerun-after-v2", "v2-after-v1", "v10-before-v9", "nfd-id-revises-nfc"],
)  # fmt: skip
def test_the_latest_revision_is_the_files_own_version(tmp_path, write_variant, revisions):
    store = tmp_path / "runs.sqlite"
    for mutate in revisions:
        record(write_variant, store, mutate)
    trusted = trusted_claims(store)
    assert [c["candidate_id"] for c in trusted] == ["C2", "C3"]
    assert len({c["answer_id"] for c in trusted}) == 1
    with sqlite3.connect(store) as con:  # both revisions are kept
        assert con.execute("SELECT COUNT(DISTINCT answer_version) FROM claims").fetchone() == (2,)
    assert json.dumps(trusted)


def test_equal_versions_the_later_run_wins(tmp_path, write_variant):
    store = tmp_path / "runs.sqlite"
    record(write_variant, store, revise("v1"))
    record(write_variant, store, revise("v1", contradict=["C1"]))
    assert [c["candidate_id"] for c in trusted_claims(store)] == ["C2", "C3"]


# --- properties -------------------------------------------------------------------------------

ATLAS = load_decomposition(FIXTURES / "atlas_nova.json")
FILES = [
    load_decomposition(p)
    for p in sorted(FIXTURES.glob("*.json"))
    if '"claimlab/decomposition@1"' in p.read_text(encoding="utf-8")
]


def counted_supported(fx, selection):
    """What the audit counted as supported: unique, faithful, backed, SUPPORTED."""
    r = score_decomposition(fx, selection)
    return {
        cid
        for cid in r.unique_ids
        if fx.candidate(cid).evidence.status == Status.SUPPORTED
        and cid in r.faithful_ids
        and cid not in r.unbacked
    }


def _varied(c, how):
    """``c`` made SUPPORTED and faithful, then one of its spans cut or dropped (``how``)."""
    c = dataclasses.replace(
        c, faithful=True, evidence=Evidence(Status.SUPPORTED, c.evidence.references)
    )
    spans = c.source_spans
    if how == "one character" and spans:
        first = spans[0]
        spans = (dataclasses.replace(first, end=first.start + 1, text=first.text[:1]), *spans[1:])
    elif how == "first span only":
        spans = spans[:1]
    return dataclasses.replace(c, source_spans=spans)


@st.composite
def varied_files(draw):
    """A shipped file whose candidates are drawn SUPPORTED and faithful with spans cut or dropped,
    so that candidates lacking only their backing reach the rule."""
    fx = draw(st.sampled_from(FILES))
    hows = ("as is", "as is", "supported", "one character", "first span only")
    cands = tuple(
        c if (how := draw(st.sampled_from(hows))) == "as is" else _varied(c, how)
        for c in fx.candidates
    )
    return dataclasses.replace(fx, candidates=cands)


@FAST
@given(data=st.data())
def test_property_trusted_ids_are_counted_faithful_backed_and_supported(data):
    fx = data.draw(varied_files())
    selection = data.draw(st.lists(st.sampled_from(fx.candidate_ids), max_size=12))
    trust = score_trust(fx, selection)
    assert set(trust.trusted) <= counted_supported(fx, selection)
    assert set(trust.trusted) | set(trust.reasons) == set(fx.candidate_ids)
    assert not set(trust.trusted) & set(trust.reasons)


@st.composite
def revision(draw):
    """A revision of one answer: its version, its candidates' statuses and a selection."""
    version = draw(st.sampled_from(["v1", "v2", "v10", "2026-01-05", ""]))
    candidates = []
    for c in ATLAS.candidates:
        status = c.evidence.status
        if c.evidence.references:
            status = draw(st.sampled_from([Status.SUPPORTED, Status.CONTRADICTED]))
        candidates.append(dataclasses.replace(c, evidence=Evidence(status, c.evidence.references)))
    spelling = draw(st.sampled_from(["NFC", "NFD"]))
    original = dataclasses.replace(
        ATLAS.original, version=version, id=unicodedata.normalize(spelling, "réponse")
    )
    fx = dataclasses.replace(ATLAS, original=original, candidates=tuple(candidates))
    selection = draw(st.lists(st.sampled_from(ATLAS.candidate_ids), max_size=8))
    return fx, selection


@FAST
@given(revisions=st.lists(revision(), min_size=1, max_size=4))
def test_property_trusted_is_the_latest_revisions_supported_for_any_order(tmp_path, revisions):
    store = tmp_path / f"runs-{next(SERIAL)}.sqlite"
    for fx, selection in revisions:  # recorded in the order drawn: any order
        claims = _claims(audit_record(fx, selection))
        record_run(store, command="decomposition", argv=[], inputs=[], parameters={},
                   figures=[], claims=claims)  # fmt: skip
    # latest: the highest version; for equal versions, the one recorded last
    order = [(version_key(fx.original.version), i) for i, (fx, _) in enumerate(revisions)]
    fx, selection = revisions[max(range(len(revisions)), key=lambda i: order[i])]
    trusted = trusted_claims(store)
    ids = [c["candidate_id"] for c in trusted]
    assert set(ids) <= counted_supported(fx, selection)
    assert sorted(ids) == sorted(score_trust(fx, selection).trusted)
    assert {c["answer_version"] for c in trusted} <= {fx.original.version}
    assert {c["answer_id"] for c in trusted} <= {unicodedata.normalize("NFC", "réponse")}
