"""The cited methods as metrics: DecompScore, atomicity, Core-style selection, FActScore by position."""

import json

import pytest

from claimlab.core.ratio import Ratio
from claimlab.io.decomposition import load_decomposition
from claimlab.io.factscore import LabelledResponse, LabelledSentence
from claimlab.metrics.decomposition import score_decomposition
from claimlab.metrics.factscore import error_by_position, fact_revisions
from claimlab.metrics.selection import core_select
from tests.conftest import FIXTURES, run_cli

ATLAS = FIXTURES / "atlas_nova.json"


# DecompScore counts the selected subclaims the passage supports (faithful), duplicates included:
# baseline C1-C5 = 5; duplicate adds C6 (a faithful repeat of C1) = 6; supported_only C1-C3 = 3;
# introduced adds C8, which the original does not say = 5; empty = 0 over 1 passage.
@pytest.mark.parametrize(
    ("mode", "decompscore", "atomicity"),
    [
        ("baseline", 5, Ratio(5, 5)),
        ("duplicate", 6, Ratio(5, 5)),
        ("supported_only", 3, Ratio(3, 3)),
        ("introduced", 5, Ratio(6, 6)),
        ("empty", 0, Ratio(0, 0)),
        ("compound", 4, Ratio(3, 4)),  # C11 joins two units: not atomic
    ],
)
def test_decompscore_and_atomicity_per_mode(mode, decompscore, atomicity):
    fx = load_decomposition(ATLAS)
    r = score_decomposition(fx, fx.mode(mode))
    assert (r.decompscore, r.atomicity) == (decompscore, atomicity)
    data = json.loads(run_cli("decomposition", ATLAS, "--mode", mode, "--json").stdout)
    assert data["decompscore"]["count"] == decompscore and data["decompscore"]["passages"] == 1
    assert data["atomicity"]["numerator"] == atomicity.numerator


def test_core_selection_on_the_duplicate_mode_keeps_c1_and_drops_c6_with_its_reason():
    fx = load_decomposition(ATLAS)
    s = core_select(fx, fx.mode("duplicate"))
    assert "C1" in s.kept and "C6" not in s.kept
    assert s.dropped == (("C6", "repeats C1 (the same fingerprint)"),)
    assert s.coverage_after == s.coverage_before == Ratio(5, 5)
    data = json.loads(run_cli("decomposition", ATLAS, "--mode", "duplicate", "--json").stdout)
    assert data["core_selection"]["dropped"] == [
        {"id": "C6", "reason": "repeats C1 (the same fingerprint)"}
    ]


def test_core_selection_drops_uninformative_subclaims_and_can_lose_a_unit(write_variant):
    def weigh(d):
        for c in d["candidates"]:
            if c["id"] == "C1":
                c["weight"] = 0
            if c["id"] == "C6":
                c["weight"] = 2

    fx = load_decomposition(write_variant("atlas_nova.json", weigh))
    s = core_select(fx, fx.mode("duplicate"))
    # C1 is uninformative; its repeat C6 (weight 2) is kept in its place
    assert ("C1", "uninformative (weight 0)") in s.dropped and "C6" in s.kept
    s = core_select(fx, fx.mode("baseline"))
    # without its repeat, dropping C1 loses unit U1: de-duplication does not promise coverage
    assert s.coverage_before == Ratio(5, 5) and s.coverage_after == Ratio(4, 5)


def test_a_negative_weight_is_refused(write_variant):
    def bad(d):
        d["candidates"][0]["weight"] = -1

    proc = run_cli("decomposition", write_variant("atlas_nova.json", bad), "--mode", "baseline")
    assert proc.returncode == 2 and "weight" in proc.stderr and "C1" in proc.stderr


def _response(*sentences):
    return LabelledResponse(1, "t", (), tuple(sentences))


def test_error_by_position_arithmetic():
    # four facts S, S, NS, NS at positions 0.125, 0.375, 0.625, 0.875: two buckets of two
    s = LabelledSentence(
        "x", True, ("a", "b", "c", "d"), (("a", "S"), ("b", "S"), ("c", "NS"), ("d", "NS"))
    )
    buckets = error_by_position([_response(s)], policy="exclude", buckets=2)
    assert [b.unsupported for b in buckets] == [Ratio(0, 2), Ratio(2, 2)]
    # an abstained response adds nothing; an empty bucket is N/A, never 0%
    three = error_by_position([LabelledResponse(2, "u", (), None)], policy="exclude", buckets=3)
    assert all(b.unsupported == Ratio(0, 0) for b in three)


def test_fact_revisions_arithmetic():
    split = LabelledSentence("x", True, ("a and b",), (("a", "S"), ("b", "S")))  # 1 -> 2
    merged = LabelledSentence("y", True, ("c", "d"), (("c d", "S"),))  # 2 -> 1
    same = LabelledSentence("z", True, ("e",), (("e", "NS"),))  # kept word for word
    unlabelled = LabelledSentence("w", False, ("f",), None)  # no human facts: not compared
    r = fact_revisions([_response(split, merged, same, unlabelled)])
    assert (r.sentences, r.model_facts, r.human_facts) == (3, 4, 4)
    assert r.kept_share == Ratio(1, 4)
    assert (r.more_after_revision, r.fewer_after_revision, r.same_count) == (1, 1, 1)


def test_entity_groups_put_a_mixed_claim_against_the_product_it_names():
    from claimlab.metrics.selection import entity_groups

    fx = load_decomposition(ATLAS)
    groups = {(g.entity, g.version): g for g in entity_groups(fx, fx.mode("entity"))}
    # C9 says of Nova Lab 1.4 what the original says of Atlas Lab 2.1: Nova's group pays for it
    nova = groups[("Nova Lab", "1.4")]
    assert nova.ids == ("C9", "C3", "C4") and nova.errors == ("C9",)
    assert nova.preservation == Ratio(2, 3)
    assert groups[("Atlas Lab", "2.1")].preservation == Ratio(2, 2)
    # a compound candidate about both products belongs to both groups
    both = {(g.entity, g.version): g.ids for g in entity_groups(fx, fx.mode("compound"))}
    assert "C11" in both[("Atlas Lab", "2.1")] and "C11" in both[("Nova Lab", "1.4")]


def test_an_ambiguous_mapping_is_kept_in_the_audit_and_never_counted(write_variant):
    def pronoun(d):
        c = next(c for c in d["candidates"] if c["id"] == "C4")
        c["mapping"] = "AMBIGUOUS"  # "It translates Latin": which product?

    fx = load_decomposition(write_variant("atlas_nova.json", pronoun))
    r = score_decomposition(fx, fx.mode("baseline"))
    assert r.ambiguous == ("C4",) and "C4" not in r.unique_ids
    assert r.preservation == Ratio(4, 4) and r.coverage == Ratio(4, 5)  # U4 not counted as kept
    row = next(a for a in r.audit if a.id == "C4")
    assert not row.counted and row.mapping == "AMBIGUOUS" and row.position == 4
    text = run_cli("decomposition", fx.source, "--mode", "baseline").stdout
    assert "AMBIGUOUS mapping: its source cannot be fixed, not counted" in text
    assert "ambiguous (not counted)  C4" in text


def test_background_from_elsewhere_must_be_tagged(write_variant):
    def context(d):
        cands = {c["id"]: c for c in d["candidates"]}
        cands["C2"]["background"] = {
            "text": "Markdown is a markup language.",
            "from_original": False,
        }
        cands["C3"]["background"] = {
            "text": "Nova Lab is a notes app.",
            "from_original": False,
            "tagged": True,
        }
        cands["C1"]["background"] = {"text": "Summary:", "from_original": True}

    fx = load_decomposition(write_variant("atlas_nova.json", context))
    r = score_decomposition(fx, fx.mode("baseline"))
    assert r.untagged_background == ("C2",)  # C3's is tagged, C1's comes from the original
    # C2 is listed with its reason and left out of every count (it was counted, 5/5, before):
    # preservation 4/4, and its unit U2 is no longer covered
    assert r.preservation == Ratio(4, 4) and r.coverage == Ratio(4, 5)
    assert r.missing_units == ("U2",) and "not tagged" in r.left_out["C2"]
    data = json.loads(run_cli("decomposition", fx.source, "--mode", "baseline", "--json").stdout)
    assert data["untagged_background"] == ["C2"] and "C2" in data["left_out"]
    assert data["audit"][1]["background"] == "Markdown is a markup language."
    assert data["audit"][1]["state"] == "left out" and data["audit"][1]["counted"] is False
    text = run_cli("decomposition", fx.source, "--mode", "baseline").stdout
    assert "never counted" in text


def test_a_revision_is_audited_again_side_by_side(tmp_path, write_variant):
    from claimlab.tooling.runner import run_notebook

    def revise(d):
        d["original"]["version"] = "answer-v2"
        next(c for c in d["candidates"] if c["id"] == "C5")["evidence"] = {
            "status": "SUPPORTED",
            "references": ["R3"],
        }

    revised = write_variant("atlas_nova.json", revise, filename="atlas_v2.json")
    from tests.conftest import ROOT

    rec = run_notebook(
        ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb",
        parameters={"REVISION": str(revised), "MODES": "baseline"},
        output_dir=tmp_path / "out",
    ).records
    support = next(r for r in rec["versions"] if r["figure"] == "Toy Confirmed Support")
    assert (
        support["version answer-v1"] == "60.0% (3/5)"
        and support["version answer-v2"] == "80.0% (4/5)"
    )


def test_revision_audit_arithmetic():
    from claimlab.io.factscore import RevisedResponse
    from claimlab.metrics.factscore import revision_audit

    r = RevisedResponse(
        1,
        "A. B. C. D.",
        "A. B2. C.",
        (("A.", (True,)), ("B.", (False,)), ("C.", (False, True)), ("D.", ("unknown",))),
    )
    a = revision_audit([r, RevisedResponse(2, "x", "", ())])
    # false sentences B (changed) and C (kept): 1 of 2 revised; the clean sentence A kept; D
    # (unknown only) not counted; the second response has no revision
    assert (a.responses, a.revised) == (2, 1)
    assert a.false_revised == Ratio(1, 2) and a.clean_kept_share == Ratio(1, 1)


@pytest.mark.realdata
def test_factcheck_gpt_revisions_change_the_false_sentences():
    from claimlab.io.factscore import load_factcheck_revisions
    from claimlab.metrics.factscore import revision_audit
    from tests.conftest import require_data

    a = revision_audit(
        load_factcheck_revisions(require_data("factcheck_gpt", "factcheck_gpt_benchmark.jsonl"))
    )
    print("Factcheck-GPT revisions:", a.to_dict())
    assert a.revised == a.responses == 94
    assert a.false_revised.value > a.clean_kept_share.value


def test_the_audit_record_keeps_every_candidate_with_its_state_and_both_versions(
    tmp_path, write_variant
):
    def revise(d):
        d["original"]["version"] = "answer-v2"
        cands = {c["id"]: c for c in d["candidates"]}
        cands["C5"]["evidence"] = {"status": "SUPPORTED", "references": ["R3"]}
        cands["C4"]["mapping"] = "AMBIGUOUS"

    v2 = write_variant("atlas_nova.json", revise, filename="v2.json")
    out = tmp_path / "record.json"
    proc = run_cli("decomposition", v2, "--mode", "duplicate", "--earlier", ATLAS, "--record", out)
    assert proc.returncode == 0, proc.stderr
    # C5 now supported; C4 ambiguous, so not counted: 4 of 4
    assert "Toy Confirmed Support  60.0% (3/5)      -> 100.0% (4/4)" in proc.stdout
    record = json.loads(out.read_text(encoding="utf-8"))
    states = {c["id"]: (c["state"], c.get("selection_step")) for c in record["candidates"]}
    assert states["C1"] == ("counted", None)
    assert states["C6"] == ("duplicate", "repeats C1 (the same fingerprint)")
    assert states["C4"][0] == "ambiguous" and states["C8"][0] == "not selected"
    assert len(record["candidates"]) == 11  # every candidate of the file, selected or not
    assert [v["version"] for v in record["versions"]] == ["answer-v1", "answer-v2"]
    other = FIXTURES / "ferry_lines.json"
    proc = run_cli("decomposition", v2, "--select", "C1", "--earlier", other)
    assert proc.returncode == 2 and "is not a version of answer" in proc.stderr


def test_notebook_01_lists_ambiguous_and_untagged_candidates(tmp_path, write_variant):
    from claimlab.tooling.runner import run_notebook
    from tests.conftest import ROOT

    def flags(d):
        cands = {c["id"]: c for c in d["candidates"]}
        cands["C4"]["mapping"] = "AMBIGUOUS"
        cands["C2"]["background"] = {"text": "from a web page", "from_original": False}

    f = write_variant("atlas_nova.json", flags)
    run = run_notebook(
        ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb",
        parameters={"FIXTURE": str(f), "MODES": "baseline"},
        output_dir=tmp_path / "out",
    )
    text = run.notebook.read_text(encoding="utf-8")
    assert "ambiguous (kept, not counted)" in text
    assert "untagged background (kept, not counted)" in text
    assert run.records["results"]["baseline"]["ambiguous"] == ["C4"]
