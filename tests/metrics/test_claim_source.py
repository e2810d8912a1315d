"""Claim to source as the decomposition seed defines it: spans back units, background apart,
audit rows that keep what the seed asks, and Core-style selection solved exactly.

Every expected figure below is counted by hand from the fixture's spans and labels.
"""

from __future__ import annotations

import dataclasses
import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.core.errors import FixtureError
from claimlab.io.decomposition import (
    Candidate,
    DecompositionFixture,
    Evidence,
    Original,
    Span,
    Unit,
    load_decomposition,
    read_decomposition,
)
from claimlab.io.ledger import tables_from_decompositions
from claimlab.labs.decomposition.audit import audit_record
from claimlab.metrics.decomposition import score_decomposition
from claimlab.metrics.ledger import count_ledger
from claimlab.metrics.selection import core_select, entity_groups
from tests.conftest import ROOT, run_cli

# U1 is 12..66 and U3 108..153 in the shipped pair's original (54 and 45 UTF-16 units)


def _utf16(d, start, end):
    raw = d["original"]["text"].encode("utf-16-le")
    return raw[2 * start : 2 * end].decode("utf-16-le")


def _p1_p3(d):
    """C1 claims U1 and U3 with only U1's span (the issue's p1/p3 candidate)."""
    c1 = next(c for c in d["candidates"] if c["id"] == "C1")
    c1["preserves"] = ["U1", "U3"]


def _one_char(d):
    """C3's span overlaps its unit U3 by one character only (107..109 crosses into U3)."""
    c3 = next(c for c in d["candidates"] if c["id"] == "C3")
    c3["source_spans"] = [{"start": 107, "end": 109, "text": _utf16(d, 107, 109)}]


@pytest.mark.parametrize(
    ("mutate", "cid", "unit"), [(_p1_p3, "C1", "U3"), (_one_char, "C3", "U3")], ids=["p1p3", "1ch"]
)
def test_a_unit_no_span_backs_is_listed_and_not_counted_everywhere(
    write_variant, tmp_path, mutate, cid, unit
):
    path = write_variant("atlas_nova.json", mutate)
    fx = load_decomposition(path)
    # baseline C1..C5: without the change every unit is covered (5/5)
    r = score_decomposition(fx, fx.mode("baseline"))
    expected_cov = (4, 5) if cid == "C3" else (5, 5)  # with p1/p3, C3 still backs U3 itself
    assert (r.coverage.numerator, r.coverage.denominator) == expected_cov
    assert r.unbacked == {cid: (unit,)}
    alone = score_decomposition(fx, [cid])
    assert unit not in alone.preserved_units and alone.unbacked == {cid: (unit,)}
    # the command line, text and JSON
    data = json.loads(run_cli("decomposition", path, "--select", cid, "--json").stdout)
    assert data["unbacked_units"] == {cid: [unit]} and unit in data["missing_units"]
    row = data["audit"][0]
    assert (
        row["original_to_subclaim"]["unbacked_units"] == [unit] and "not counted" in row["reason"]
    )
    text = run_cli("decomposition", path, "--select", cid).stdout
    assert f"not backed               {cid} preserves {unit}" in text and "more than half" in text
    # the ledger from decompositions counts the same
    cand, units = tables_from_decompositions([fx], select=lambda f: [cid])
    counts = count_ledger(cand, units).table.iloc[0]
    assert int(counts["covered"]) == alone.coverage.numerator


def test_notebook_01_lists_units_no_span_backs(tmp_path, write_variant):
    from claimlab.tooling.runner import run_notebook

    f = write_variant("atlas_nova.json", _p1_p3)
    run = run_notebook(
        ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb",
        parameters={"FIXTURE": str(f), "MODES": ["baseline"]},
        output_dir=tmp_path / "out",
    )
    text = run.notebook.read_text(encoding="utf-8")
    assert "units no span backs (not counted)" in text and "C1: U3" in text
    assert run.records["results"]["baseline"]["unbacked_units"] == {"C1": ["U3"]}


@pytest.mark.parametrize(
    ("cover", "backed"), [(0.5, True), (0.7, True), (0.72, True), (0.75, False), (1.0, False)]
)
def test_a_file_may_tighten_the_share_a_span_must_cover(write_variant, cover, backed):
    def straddles(d):
        d["span_cover"] = cover
        c1 = next(c for c in d["candidates"] if c["id"] == "C1")
        # 30..80 is 50 units long, 36 of them inside U1 (12..66): 72% of the span lies in U1
        c1["source_spans"] = [{"start": 30, "end": 80, "text": _utf16(d, 30, 80)}]

    fx = load_decomposition(write_variant("atlas_nova.json", straddles))
    assert fx.span_cover == cover
    assert bool(fx.counted_units(fx.candidate("C1"))) is backed


@pytest.mark.parametrize("cover", [0.49, 1.5, "half"])
def test_a_file_cannot_loosen_the_rule(write_variant, cover):
    path = write_variant("atlas_nova.json", lambda d: d.update(span_cover=cover))
    with pytest.raises(FixtureError) as info:
        load_decomposition(path)
    assert info.value.field == "span_cover"


def test_untagged_background_is_left_out_of_the_ledger_too(write_variant):
    def bg(d):
        c2 = next(c for c in d["candidates"] if c["id"] == "C2")
        c2["background"] = {"text": "Found on a forum.", "from_original": False}

    fx = load_decomposition(write_variant("atlas_nova.json", bg))
    r = score_decomposition(fx, fx.mode("baseline"))
    cand, units = tables_from_decompositions([fx], select=lambda f: f.mode("baseline"))
    # C2 stays in the table with its reason, and is counted only as left out
    ids, why = cand.column("candidate_id").to_pylist(), cand.column("left_out").to_pylist()
    reasons = dict(zip(ids, why, strict=True))
    assert reasons["C2"].startswith("background") and not reasons["C1"]
    row = count_ledger(cand, units).table.iloc[0]
    assert (int(row["covered"]), int(row["units"])) == (r.coverage.numerator, 5)
    assert (int(row["raw"]), int(row["left_out"])) == (4, 1)


def test_the_audit_record_keeps_what_the_seed_asks_for_every_candidate(write_variant, tmp_path):
    fx = load_decomposition(write_variant("atlas_nova.json", _p1_p3))
    out = tmp_path / "audit.json"
    run_cli("decomposition", fx.source, "--mode", "baseline", "--record", out, check=True)
    record = json.loads(out.read_text("utf-8"))
    assert record == audit_record(fx, fx.mode("baseline")) | {"file": str(fx.source)}
    rows = {c["id"]: c for c in record["candidates"]}
    assert len(rows) == len(fx.candidates)  # the unselected ones too
    c1 = rows["C1"]
    for key in ("entity", "version", "predicate", "qualifiers", "source_spans", "references",
                "state", "reason", "preserves", "counted_units"):  # fmt: skip
        assert key in c1, key
    assert (c1["entity"], c1["version"]) == ("Atlas Lab", "2.1")
    assert c1["source_spans"] == [
        {"start": 12, "end": 66, "text": "Atlas Lab 2.1 reads PDF files offline only on desktop."}
    ]
    assert c1["references"] == ["R1"] and c1["counted_units"] == ["U1"]
    assert c1["state"] == "counted" and "U3 not counted" in c1["reason"]
    assert rows["C6"]["state"] == "not selected"


def test_entails_edges_name_known_candidates(write_variant):
    for bad, why in ((["C99"], "unknown candidate id 'C99'"), (["C1"], "cannot entail itself")):
        path = write_variant(
            "atlas_nova.json", lambda d, b=bad: d["candidates"][0].update(entails=b)
        )
        with pytest.raises(FixtureError) as info:
            load_decomposition(path)
        assert (info.value.record, info.value.field) == ("C1", "entails[0]")
        assert why in str(info.value)


# --- Core-style selection: exact, against a search over every subset -------------------------


def _fixture(cands: list[Candidate]) -> DecompositionFixture:
    return DecompositionFixture(
        "generated", Original("a", "1", "x"), (Unit("U1", Span(0, 1, "x")),), (), tuple(cands)
    )


def _candidate(i: int, fp: str, weight: float, entails: tuple[str, ...]) -> Candidate:
    return Candidate(
        id=f"k{i}", text="", entity="e", version="1", predicate="p", qualifiers=(),
        source_spans=(Span(0, 1, "x"),), fingerprint=fp, preserves=("U1",), faithful=True,
        atomic=True, errors=(), evidence=Evidence("SUPPORTED", ()), weight=weight,
        entails=entails,
    )  # fmt: skip


def brute_force(chosen: list[Candidate], every: list[Candidate]) -> set[int]:
    """Every subset without a repeat or an entailed pair; the heaviest, earliest on a tie.

    An edge joins claims (fingerprints): from every copy of the entailing one to every copy of
    the entailed one, selected or not (``every``).
    """
    n = len(chosen)
    fp_of = {c.id: c.fingerprint for c in every}
    # a claim is its fingerprint: what any copy of it in the file entails, every copy entails
    says = {(c.fingerprint, fp_of[e]) for c in every for e in c.entails}

    def clash(i, j):
        a, b = chosen[i], chosen[j]
        if a.fingerprint == b.fingerprint:
            return True
        return (a.fingerprint, b.fingerprint) in says or (b.fingerprint, a.fingerprint) in says

    best, best_key = set(), None
    for bits in itertools.product((0, 1), repeat=n):
        s = [i for i in range(n) if bits[i] and chosen[i].weight > 0]
        if len(s) != sum(bits) or any(clash(i, j) for i, j in itertools.combinations(s, 2)):
            continue
        key = (round(sum(chosen[i].weight for i in s), 9), bits)
        if best_key is None or key > best_key:
            best, best_key = set(s), key
    return best


@st.composite
def selections(draw):
    n = draw(st.integers(1, 9))
    fps = draw(st.lists(st.sampled_from("abcde"), min_size=n, max_size=n))
    weights = draw(st.lists(st.sampled_from([0, 0.5, 1, 1, 1.5, 2, 3]), min_size=n, max_size=n))
    cands = []
    for i in range(n):
        targets = draw(st.lists(st.integers(0, n - 1), max_size=3, unique=True))
        cands.append(_candidate(i, fps[i], weights[i], tuple(f"k{t}" for t in targets if t != i)))
    order = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n + 2))
    return cands, [f"k{i}" for i in order]


@pytest.mark.parametrize("solver", ["subsets", "milp"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=selections())
def test_core_selection_equals_a_search_over_every_subset(solver, data):
    import claimlab.metrics.selection as selection

    cands, ids = data
    fx = _fixture(cands)
    chosen = [fx.candidate(i) for i in ids]
    saved = selection.ENUMERATE_UP_TO
    selection.ENUMERATE_UP_TO = saved if solver == "subsets" else 0  # every part through milp
    try:
        s = core_select(fx, ids)
    finally:
        selection.ENUMERATE_UP_TO = saved
    want = brute_force(chosen, cands)
    assert s.weight_kept == pytest.approx(sum(chosen[i].weight for i in want))
    assert list(s.kept) == [chosen[i].id for i in sorted(want)]
    assert len(s.kept) + len(s.dropped) == len(ids)
    for _, reason in s.dropped:
        assert reason.split()[0] in ("uninformative", "repeats", "entailed", "entails"), reason


# k0 (weight 1.5) entails k1 and k2 (weight 1 each); k3 is an exact copy of k0 without the
# edge, k4 one that carries it (k5 is k0 without the edge); k6 repeats k1
COPIES = [
    _candidate(0, "x", 1.5, ("k1", "k2")),
    _candidate(1, "a", 1, ()),
    _candidate(2, "b", 1, ()),
    _candidate(3, "x", 1.5, ()),
    _candidate(4, "y", 1.5, ("k1", "k2")),
    _candidate(5, "y", 1.5, ()),
    _candidate(6, "a", 1, ()),
]

# (selection, kept, why the copy was dropped): k1 + k2 weigh 2 against 1.5, whichever copy
COPY_CASES = [
    (["k1", "k2", "k0", "k3"], ("k1", "k2"), ("k3", "entails k1, k2, kept instead")),
    (
        ["k3", "k1", "k2"],
        ("k1", "k2"),
        ("k3", "entails k1, k2, kept instead"),
    ),  # original unselected
    (["k5", "k1", "k2"], ("k1", "k2"), ("k5", "entails k1, k2, kept instead")),  # edge on the copy
    (["k5", "k6", "k2"], ("k6", "k2"), ("k5", "entails k6, k2, kept instead")),  # edge to a repeat
    (["k5", "k6"], ("k5",), ("k6", "entailed by k5 (it says")),
    (["k0", "k3"], ("k0",), ("k3", "repeats k0 (the same fingerprint)")),
]


@pytest.mark.parametrize(("ids", "kept", "why"), COPY_CASES)
def test_an_exact_copy_of_a_claim_conflicts_as_the_claim_does(ids, kept, why):
    s = core_select(_fixture(COPIES), ids)
    assert s.kept == kept
    assert dict(s.dropped)[why[0]].startswith(why[1])


def test_a_copy_of_an_entailing_claim_in_the_shipped_file_is_not_kept(write_variant):
    def copy_s10(d):
        s10 = next(c for c in d["candidates"] if c["id"] == "s10")
        d["candidates"].append({**s10, "id": "s11", "entails": []})

    fx = load_decomposition(write_variant("ferry_lines.json", copy_s10))
    s = core_select(fx, ["s1", "s3", "s10", "s11"])
    assert s.kept == ("s1", "s3") and s.weight_kept == 2
    assert dict(s.dropped)["s11"] == (
        "entails s1, s3, kept instead: together they weigh 2 against its 1.5"
    )


@st.composite
def copied_and_renamed(draw):
    """A selection; the same with one selected candidate copied (under a new id, later in the
    selection, with or without its edges, selected or only in the file) and every id renamed."""
    cands, ids = draw(selections())
    n = len(cands)
    original = draw(st.sampled_from(ids))
    o = cands[int(original[1:])]
    entails = o.entails if draw(st.booleans()) else ()
    copy = _candidate(n, o.fingerprint, o.weight, entails)
    ids2 = list(ids)
    if draw(st.booleans()):
        ids2.insert(draw(st.integers(ids.index(original) + 1, len(ids))), copy.id)
    names = draw(st.permutations([f"r{i}" for i in range(n + 1)]))
    new = {f"k{i}": names[i] for i in range(n + 1)}
    renamed = [
        dataclasses.replace(c, id=new[c.id], entails=tuple(new[e] for e in c.entails))
        for c in [*cands, copy]
    ]
    return (cands, ids), (renamed, [new[i] for i in ids2]), {v: k for k, v in new.items()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=copied_and_renamed())
def test_a_copy_or_a_new_name_never_changes_what_core_selection_keeps(data):
    """A copy is the same claim: copying a selected candidate, or renaming every id, keeps the
    same candidates (the earlier original before its copy, whose weight is the same)."""
    (cands, ids), (renamed, ids2), old_name = data
    before = core_select(_fixture(cands), ids)
    after = core_select(_fixture(renamed), ids2)
    assert [old_name[k] for k in after.kept] == list(before.kept)
    assert after.weight_kept == before.weight_kept


def test_core_selection_on_the_shipped_file_with_weights_and_entailment():
    fx = load_decomposition(ROOT / "fixtures" / "ferry_lines.json")
    # s10 (weight 1.5) entails s1 and s3 (weight 1 each); s6 repeats s1; s4 weighs 0.5
    s = core_select(fx, ["s1", "s6", "s3", "s10", "s2", "s4"])
    assert s.kept == ("s1", "s3", "s2", "s4") and s.weight_kept == 3.5
    assert dict(s.dropped) == {
        "s6": "repeats s1 (the same fingerprint)",
        "s10": "entails s1, s3, kept instead: together they weigh 2 against its 1.5",
    }
    alone = core_select(fx, ["s6", "s10"])  # s10 entails s1, and s6 repeats s1
    assert alone.kept == ("s10",) and alone.dropped == (
        ("s6", "entailed by s10 (it says nothing the kept one does not)"),
    )
    data = json.loads(
        run_cli(
            "decomposition",
            fx.source,
            "--select",
            "s1,s6,s3,s10",
            "--select-core",
            "--by-entity",
            "--json",
        ).stdout  # fmt: skip
    )
    assert data["selection"] == ["s1", "s3"] and data["scored"] == "core selection"
    groups = {g["entity"]: g for g in data["entity_groups"]}
    assert set(groups) == {"Kestrel Ferry", "Heron Ferry"}
    assert groups["Heron Ferry"]["confirmed_support"]["display"] == "100.0% (1/1)"


def test_a_groups_support_counts_only_that_entitys_references(write_variant):
    def about(d):
        for r in d["references"]:
            r["entity"] = "Nova Lab" if r["id"] == "R1" else ""

    fx = load_decomposition(write_variant("atlas_nova.json", about))
    groups = {g.entity: g for g in entity_groups(fx, fx.mode("baseline"))}
    atlas = groups["Atlas Lab"]
    # C1 (Atlas) is SUPPORTED only by R1, which is about Nova Lab: not Atlas's support
    assert atlas.other_entity == ("C1",)
    assert atlas.confirmed_support.counts == "1/3"  # C2 by R2; C5 is CONTRADICTED
    text = run_cli("decomposition", fx.source, "--mode", "baseline", "--by-entity").stdout
    assert "supported only by another entity's references: C1" in text


@pytest.mark.slow
def test_core_selection_grows_linearly_to_100k_candidates(tmp_path):
    """Time at 100k against time at 10k (:func:`tests.growth.grows_linearly`)."""
    from tests.growth import grows_linearly

    def prepare(n, _folder):
        cands = [
            _candidate(i, f"fp{i // 2}", 1 + (i % 3), (f"k{i + 2}",) if i % 10 == 0 else ())
            for i in range(n)
        ]
        return _fixture(cands), [c.id for c in cands]

    def work(made):
        s = core_select(*made)
        assert len(s.kept) + len(s.dropped) == len(made[1])  # at both sizes
        return s

    # pure work, a twentieth of a second at n/10: the best of three runs of each size
    grows_linearly("core selection", prepare, work, 100_000, folder=tmp_path, repeats=3)


def test_reading_a_file_with_entails_both_ways_gives_the_same_records():
    from tests.metrics.decomposition_invariants import assert_one_reading

    data = json.loads((ROOT / "fixtures" / "ferry_lines.json").read_text("utf-8"))
    assert_one_reading(data)
    assert read_decomposition(data, source="f").candidate("s10").entails == ("s1", "s3")


def test_a_part_too_large_to_solve_exactly_says_so_and_still_has_no_conflict(monkeypatch):
    import claimlab.metrics.selection as selection

    monkeypatch.setattr(selection, "EXACT_UP_TO", 3)  # a chain of 5 is then "too large"
    monkeypatch.setattr(selection, "ENUMERATE_UP_TO", 0)
    cands = [_candidate(i, f"f{i}", 1 + i % 2, (f"k{i + 1}",) if i < 4 else ()) for i in range(5)]
    s = selection.core_select(_fixture(cands), [c.id for c in cands])
    assert "more than the 3 solved exactly" in s.not_exact and s.to_dict()["exact"] is False
    kept = {int(k[1:]) for k in s.kept}
    assert all(not (i in kept and i + 1 in kept) for i in range(4))  # no entailed pair kept
    monkeypatch.undo()
    assert core_select(_fixture(cands), [c.id for c in cands]).to_dict()["exact"] is True
