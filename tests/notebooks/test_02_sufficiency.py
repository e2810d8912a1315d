import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import FIXTURES, ROOT

NB = ROOT / "notebooks" / "02_evidence_sufficiency.ipynb"
pytestmark = pytest.mark.notebook

WALK = {  # scenario: (status, witnesses)
    "missing_link": ("INSUFFICIENT", []),
    "mixed_branches": ("INSUFFICIENT", []),
    "solar_e1_e2": ("SUFFICIENT", [["E1", "E2"]]),
    "orbit_e3_e4": ("SUFFICIENT", [["E3", "E4"]]),
    "map_e5_room": ("SUFFICIENT", [["E5"]]),
    "route_and_room": ("INSUFFICIENT", []),
    "copy_e1": ("INSUFFICIENT", []),
    "noise_e6_e7": ("INSUFFICIENT", []),
    "draft_e8": ("INSUFFICIENT", []),
    "draft_e8_ignored": ("INSUFFICIENT", []),
}

HARD = {"aurora.json": "library_loans.json", "aurora_th.json": "library_loans_th.json"}
HARD_WALK = {
    "missing_rule": "INSUFFICIENT",
    "conflicting_rules": "CONFLICT",
    "saturday_rule": "CONDITIONAL",
    "saturday_asked": "INSUFFICIENT",
}

GRID = [
    ("aurora.json", "room", ["E1", "E4"], False, "INSUFFICIENT", [], 2),
    (
        "aurora_th.json",
        "route_and_room",
        ["E3", "E4", "E3"],
        False,
        "SUFFICIENT",
        [["E3", "E4"]],
        3,
    ),
    ("aurora.json", "room", ["E8"], True, "INSUFFICIENT", [], 1),
]


@pytest.mark.parametrize(
    ("fixture", "question", "context", "ignore", "status", "witnesses", "raw"), GRID
)
def test_notebook_records(tmp_path, fixture, question, context, ignore, status, witnesses, raw):
    res = run_notebook(
        NB,
        parameters={
            "FIXTURE": str(FIXTURES / fixture),
            "QUESTION": question,
            "CONTEXT": context,
            "IGNORE_METADATA": ignore,
            "HARD_CASES": "" if ignore else str(FIXTURES / HARD[fixture]),
        },
        output_dir=tmp_path,
    )
    rec = res.records
    if ignore:
        assert rec["hard_cases"] == {}
    else:  # the conflict shown with both sides, the dropped condition CONDITIONAL
        hard = rec["hard_cases"]
        assert {name: r["status"] for name, r in hard.items()} == HARD_WALK
        (conflict,) = hard["conflicting_rules"]["conflicts"]
        assert sorted(i for ids in conflict["values"].values() for i in ids) == ["L2", "L3"]
        assert hard["saturday_rule"]["conditions_unmet"][0]["id"] == "L4"
        assert hard["missing_rule"]["next_search"][0]["missing"] == "L2"
    assert rec["chosen"]["status"] == status
    assert rec["chosen"]["witnesses"] == witnesses
    assert rec["chosen"]["context_raw"] == raw
    if ignore:
        assert [u["id"] for u in rec["chosen"]["unsafe_candidates"]] == ["E8"]
    for name, (st, wit) in WALK.items():
        assert (rec["walk"][name]["status"], rec["walk"][name]["witnesses"]) == (st, wit), name
    assert rec["selective"]["accuracy_on_answered"]["display"] == "50.0% (3/6)"
    assert rec["selective"]["answered"]["display"] == "60.0% (6/10)"
    last = rec["risk_coverage"][-1]
    assert (last["threshold"], last["accuracy"]["display"], last["coverage"]["display"]) == (
        0.99,
        "N/A (0/0)",
        "0.0% (0/10)",
    )
