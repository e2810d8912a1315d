import pytest

from claimlab.io.decomposition import load_decomposition
from claimlab.labs.decomposition.explain import explain_mode
from claimlab.metrics.decomposition import score_decomposition
from tests.conftest import FIXTURES

FIXTURE_NAMES = ["atlas_nova.json", "atlas_nova_th.json"]

# mode: (preservation, coverage, confirmed_support, raw_support, CONTRADICTED, NOT_IN_REFERENCE)
EXPECTED = {
    "baseline": ("5/5", "5/5", "3/5", "3/5", 1, 1),  # C1-C5: U1..U5 kept; C1-C3 supported
    "supported_only": ("3/3", "3/5", "3/3", "3/3", 0, 0),  # U4, U5 dropped
    "introduced": ("5/6", "5/5", "4/6", "4/6", 1, 1),  # C8 unfaithful but supported by R5
    "qualifier": ("4/5", "4/5", "2/5", "2/5", 2, 1),  # C7 contradicted by R1, U1 lost
    "entity": ("4/5", "4/5", "2/5", "2/5", 1, 2),  # C9 not in reference, U1 lost
    "version": ("4/5", "4/5", "2/5", "2/5", 1, 2),  # C10 not in reference, U1 lost
    "duplicate": ("5/5", "5/5", "3/5", "4/6", 1, 1),  # C6 = C1 by fingerprint: D* = 5, D = 6
    "compound": ("4/4", "5/5", "2/4", "2/4", 1, 1),  # C11 covers U1+U3
    "empty": ("0/0", "0/5", "0/0", "0/0", 0, 0),
}


@pytest.fixture(scope="module", params=FIXTURE_NAMES)
def fixture(request):
    return load_decomposition(FIXTURES / request.param)


@pytest.mark.parametrize("mode", list(EXPECTED))
def test_every_mode_gives_the_worked_values(fixture, mode):
    r = score_decomposition(fixture, fixture.mode(mode))
    pres, cov, conf, raw, contradicted, nir = EXPECTED[mode]
    assert r.preservation.counts == pres
    assert r.coverage.counts == cov
    assert r.confirmed_support.counts == conf
    assert r.raw_support.counts == raw
    assert r.status_counts["CONTRADICTED"] == contradicted
    assert r.status_counts["NOT_IN_REFERENCE"] == nir


def test_baseline_display_strings(fixture):
    r = score_decomposition(fixture, fixture.mode("baseline"))
    assert r.confirmed_support.display == "60.0% (3/5)"
    assert r.confirmed_support.value == 0.6


def test_empty_selection_is_na_not_zero_or_full(fixture):
    r = score_decomposition(fixture, [])
    for m in ("preservation", "confirmed_support", "raw_support"):
        assert getattr(r, m).value is None
        assert getattr(r, m).display == "N/A (0/0)"
    assert r.coverage.display == "0.0% (0/5)"
    assert r.missing_units == ("U1", "U2", "U3", "U4", "U5")


@pytest.mark.parametrize(
    ("mode", "field", "ids"),
    [
        ("supported_only", "missing_units", ("U4", "U5")),
        ("introduced", "introduced", ("C8",)),
        ("duplicate", "duplicates", ("C6",)),
        ("compound", "non_atomic", ("C11",)),
        ("qualifier", "unfaithful", ("C7",)),
        ("qualifier", "missing_units", ("U1",)),
        ("entity", "unfaithful", ("C9",)),
        ("version", "unfaithful", ("C10",)),
        ("baseline", "duplicates", ()),
    ],
)
def test_ids_behind_the_counts(fixture, mode, field, ids):
    assert getattr(score_decomposition(fixture, fixture.mode(mode)), field) == ids


def test_same_id_twice_is_a_duplicate(fixture):
    r = score_decomposition(fixture, ["C1", "C1"])
    assert r.duplicates == ("C1",)
    assert r.raw_support.counts == "2/2" and r.confirmed_support.counts == "1/1"


def test_audit_row_keeps_the_two_layers_apart(fixture):
    r = score_decomposition(fixture, fixture.mode("introduced"))
    row = next(a for a in r.audit if a.id == "C8").to_dict()
    assert row["original_to_subclaim"] == {
        "source_spans": "(no source span)",
        "spans": [],
        "preserves": [],
        "unbacked_units": [],
        "faithful": False,
        "atomic": True,
        "errors": ["introduced"],
    }
    assert row["reference_to_subclaim"] == {"status": "SUPPORTED", "references": ["R5"]}


def test_duplicate_audit_row_names_what_it_duplicates(fixture):
    r = score_decomposition(fixture, fixture.mode("duplicate"))
    c6 = next(a for a in r.audit if a.id == "C6")
    assert (c6.counted, c6.duplicate_of) == (False, "C1")


def test_unknown_candidate_is_an_error(fixture):
    with pytest.raises(Exception, match="C42: unknown candidate id"):
        score_decomposition(fixture, ["C42"])


@pytest.mark.parametrize(
    ("mode", "fragment"),
    [
        ("empty", "N/A"),
        (
            "supported_only",
            "Support looks perfect (100.0% (3/3)) while coverage is only 60.0% (3/5)",
        ),
        ("introduced", "Introduced claim C8"),
        ("qualifier", "Qualifier error in C7"),
        ("duplicate", "Duplicate C6"),
        ("compound", "Compound claim C11"),
        ("baseline", "Faithful selection"),
    ],
)
def test_explanations_use_the_computed_numbers(fixture, mode, fragment):
    r = score_decomposition(fixture, fixture.mode(mode))
    assert fragment in explain_mode(mode, r)


def _draft(fixture_path, tmp_path, **changes):
    import json

    doc = json.loads(fixture_path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return load_decomposition(path)


def test_gold_only_when_no_selected_label_or_unit_awaits_a_person(fixture, tmp_path):
    import json

    confirmed = score_decomposition(fixture, fixture.modes["baseline"])
    assert confirmed.gold is True and confirmed.to_dict()["gold"] is True
    doc = json.loads((FIXTURES / "atlas_nova.json").read_text(encoding="utf-8"))
    next(c for c in doc["candidates"] if c["id"] == "C2")["review"] = ["faithful"]
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    draft = load_decomposition(path)
    with_review = score_decomposition(draft, ["C1", "C2"])
    assert with_review.gold is False and with_review.proposed == {"C2": ("faithful",)}
    assert with_review.to_dict()["gold"] is False
    assert score_decomposition(draft, ["C1"]).gold is True  # C2 not selected: nothing to confirm
    doc["units"][0]["review"] = ["span"]
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    unit_draft = score_decomposition(load_decomposition(path), ["C1"])
    assert unit_draft.gold is False and unit_draft.proposed_units == ("U1",)


def test_a_file_without_modes_walks_every_candidate(fixture, tmp_path):
    from claimlab.core.errors import FixtureError
    from claimlab.metrics.decomposition import ALL_CANDIDATES, named_selections

    bare = _draft(FIXTURES / "atlas_nova.json", tmp_path, modes=None, game=None)
    assert named_selections(bare) == {ALL_CANDIDATES: bare.candidate_ids}
    assert named_selections(fixture, "baseline") == {"baseline": fixture.modes["baseline"]}
    assert list(named_selections(fixture, ["entity", "baseline"])) == ["entity", "baseline"]
    assert named_selections(fixture) == dict(fixture.modes)
    with pytest.raises(FixtureError) as info:
        named_selections(fixture, ["baseline", 3])
    assert "MODES[1]: a mode name must be a string, got 3" in str(info.value)
    with pytest.raises(FixtureError):
        named_selections(fixture, "no-such-mode")


def _r(n, d):
    from claimlab.core.ratio import Ratio

    return Ratio(n, d).to_dict()


def test_the_json_form_by_hand():
    """C1, its duplicate C6, C4 (not in the references) and C8 (introduced): every key."""
    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    d = score_decomposition(fx, ["C1", "C6", "C4", "C8"]).to_dict()
    audit = d.pop("audit")
    assert d == {
        "selection": ["C1", "C6", "C4", "C8"],
        "unique_selection": ["C1", "C4", "C8"],  # C6 repeats C1's fingerprint
        "preservation": _r(2, 3),  # C1, C4 faithful; C8 introduced
        "coverage": _r(2, 5),  # U1 (C1), U4 (C4)
        "confirmed_support": _r(2, 3),  # C1, C8 SUPPORTED among D*
        "raw_support": _r(3, 4),  # and C6 again in D
        "status_counts": {"SUPPORTED": 2, "CONTRADICTED": 0, "NOT_IN_REFERENCE": 1},
        "raw_status_counts": {"SUPPORTED": 3, "CONTRADICTED": 0, "NOT_IN_REFERENCE": 1},
        "faithful": ["C1", "C4"],
        "preserved_units": ["U1", "U4"],
        "missing_units": ["U2", "U3", "U5"],
        "duplicates": ["C6"],
        "introduced": ["C8"],
        "unfaithful": ["C8"],
        "non_atomic": [],
        "errors": {"introduced": ["C8"], "qualifier": [], "entity": [], "version": []},
        "decompscore": {
            "count": 3,  # faithful members of D: C1, C6, C4
            "passages": 1,
            "value": 3.0,
            "note": "a count of supported subclaims per passage, not a percentage",
        },
        "atomicity": _r(3, 3),
        "ambiguous": [],
        "untagged_background": [],
        "unbacked_units": {},
        "left_out": {},
        "gold": True,
        "proposed_labels": {},
        "proposed_units": [],
    }
    assert [row["id"] for row in audit] == ["C1", "C6", "C4", "C8"]
    assert [row["position"] for row in audit] == [1, 2, 3, 4]
    assert audit[1] == {
        "mapping": "MAPPED",
        "background": None,
        "position": 2,
        "id": "C6",
        "text": "On desktop only, Atlas Lab 2.1 opens PDFs without a connection.",
        "entity": "Atlas Lab",
        "version": "2.1",
        "predicate": "reads PDF offline",
        "qualifiers": ["only on desktop"],
        "fingerprint": "atlas-lab|2.1|read-pdf-offline|only-desktop",
        "counted": False,
        "duplicate_of": "C1",
        "state": "duplicate",
        "reason": "repeats C1 (the same fingerprint)",
        "original_to_subclaim": {
            "source_spans": "12..66 'Atlas Lab 2.1 reads PDF files offline only on desktop.'",
            "spans": [
                {
                    "start": 12,
                    "end": 66,
                    "text": "Atlas Lab 2.1 reads PDF files offline only on desktop.",
                }
            ],
            "preserves": ["U1"],
            "unbacked_units": [],
            "faithful": True,
            "atomic": True,
            "errors": [],
        },
        "reference_to_subclaim": {"status": "SUPPORTED", "references": ["R1"]},
    }
    c1, c8 = audit[0], audit[3]
    assert (c1["counted"], c1["duplicate_of"], c1["state"], c1["reason"]) == (
        True, None, "counted", None
    )  # fmt: skip
    assert c8["original_to_subclaim"]["errors"] == ["introduced"]
    assert c8["original_to_subclaim"]["faithful"] is False


def test_results_are_frozen():
    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    r = score_decomposition(fx, ["C1"])
    for name in ("status_counts", "raw_status_counts", "error_ids", "proposed", "unbacked",
                 "left_out"):  # fmt: skip
        with pytest.raises(TypeError):
            getattr(r, name)["x"] = 1


@pytest.mark.parametrize("mode", list(EXPECTED))
def test_toy_ratios_are_the_figures_of_the_full_result(fixture, mode):
    from claimlab.metrics.decomposition import toy_ratios

    selection = fixture.mode(mode)
    full = score_decomposition(fixture, selection)
    assert toy_ratios(fixture, selection) == full.ratios()
    pres, cov, conf, raw, _, _ = EXPECTED[mode]
    got = toy_ratios(fixture, selection)
    assert [got[m].counts for m in ("preservation", "coverage", "confirmed_support",
                                    "raw_support")] == [pres, cov, conf, raw]  # fmt: skip


def test_candidates_with_several_source_spans_list_each():
    from claimlab.metrics.decomposition import score_decomposition as find

    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    row = next(r for r in find(fx, ["C11"]).audit if r.id == "C11")
    spans = [c for c in fx.candidates if c.id == "C11"][0].source_spans
    assert row.source_spans == "; ".join(f"{s.start}..{s.end} {s.text!r}" for s in spans)
    assert len(spans) > 1 and "; " in row.source_spans


def test_toy_counts_are_the_four_ratios_counts_on_every_mode():
    from claimlab.metrics.decomposition import TOY_RATIOS, toy_counts, toy_ratios

    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    assert TOY_RATIOS == ("preservation", "coverage", "confirmed_support", "raw_support")
    for mode in fx.modes:
        ratios = toy_ratios(fx, fx.mode(mode))
        assert toy_counts(fx, fx.mode(mode)) == tuple(
            x for name in TOY_RATIOS for x in (ratios[name].numerator, ratios[name].denominator)
        ), mode
    # by hand: baseline C1..C5, all faithful, the 5 units kept, C1-C3 SUPPORTED (C4 not in a
    # reference, C5 contradicted); duplicate adds C6, C1's fingerprint again and SUPPORTED
    assert toy_counts(fx, fx.mode("baseline")) == (5, 5, 5, 5, 3, 5, 3, 5)
    assert toy_counts(fx, fx.mode("duplicate")) == (5, 5, 5, 5, 3, 5, 4, 6)
    assert toy_counts(fx, []) == (0, 0, 0, 5, 0, 0, 0, 0)


def test_backing_is_worked_out_once_per_candidate_of_the_file_and_never_shared(fixture):
    """The file's own candidate gets the same answer every time; one made elsewhere with a
    file's id (its spans moved out of every unit) gets its own, not the file's."""
    import dataclasses

    c = next(c for c in fixture.candidates if fixture.counted_units(c))
    first = fixture.counted_units(c), fixture.unbacked_units(c)
    assert (fixture.counted_units(c), fixture.unbacked_units(c)) == first
    assert sorted(first[0] + first[1]) == sorted(c.preserves)
    moved = dataclasses.replace(c, source_spans=())
    assert fixture.counted_units(moved) == ()
    assert fixture.unbacked_units(moved) == c.preserves
    assert fixture.counted_units(c) == first[0]  # the file's candidate keeps its answer
