import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import FIXTURES, ROOT

pytestmark = pytest.mark.notebook
NB6 = ROOT / "notebooks" / "06_decomposition_game.ipynb"
NB7 = ROOT / "notebooks" / "07_sufficiency_game.ipynb"

ALL_TRUE = [
    ["annotate", c, s]
    for c, s in [
        ("C1", "SUPPORTED"),
        ("C2", "SUPPORTED"),
        ("C3", "SUPPORTED"),
        ("C4", "NOT_IN_REFERENCE"),
        ("C5", "CONTRADICTED"),
    ]
]

DECOMP = [
    (
        "atlas_nova.json",
        "supported_only",
        [["select", "C4"], ["select", "C5"], *ALL_TRUE, ["check"]],
        True,
        [],
    ),
    (
        "atlas_nova_th.json",
        "qualifier_lost",
        [["deselect", "C7"], ["select", "C1"], *ALL_TRUE, ["check"]],
        True,
        [],
    ),
    (
        "atlas_nova.json",
        "supported_only",
        [["check"]],
        False,
        ["UNCOVERED_UNITS", "MISSING_ANNOTATION"],
    ),
    (
        "atlas_nova.json",
        "duplicate_for_missing",
        [["select", "C4"], *ALL_TRUE, ["annotate", "C6", "SUPPORTED"], ["check"]],
        False,
        ["DUPLICATE"],
    ),
]


@pytest.mark.parametrize(("fixture", "puzzle", "script", "won", "codes"), DECOMP)
def test_decomposition_game_notebook(tmp_path, fixture, puzzle, script, won, codes):
    rec = run_notebook(
        NB6,
        parameters={
            "FIXTURE": str(FIXTURES / fixture),
            "PUZZLE": puzzle,
            "SCRIPT": script,
            "EXPLORE_MODE": "baseline",
        },
        output_dir=tmp_path,
    ).records
    assert rec["outcome"]["won"] is won
    assert [r["code"] for r in rec["outcome"]["reasons"]] == codes
    assert rec["explorer"]["confirmed_support"] == "60.0% (3/5)"
    assert len(rec["log"]) == len(script)


SUFF = [
    (
        "aurora.json",
        "missing_link",
        [["search", "E2"], ["submit", ["E1", "E2"], {"room": "Room A3"}]],
        True,
        [],
        1,
    ),
    (
        "aurora.json",
        "mixed_branches",
        [["submit", ["E1", "E4"], {"room": "Room A3"}]],
        False,
        ["NO_WITNESS"],
        0,
    ),
    (
        "aurora_th.json",
        "route_and_room",
        [
            ["search", "E1"],
            ["search", "E2"],
            ["submit", ["E1", "E2"], {"room": "ห้อง A3", "route": "เส้นทางสุริยะ"}],
        ],
        True,
        [],
        2,
    ),
    (
        "aurora.json",
        "missing_link",
        [["search", "E8"], ["submit", ["E8"], {"room": "Room B2"}]],
        False,
        ["REJECTED_EVIDENCE", "NO_WITNESS", "WRONG_ANSWER"],
        1,
    ),
    (  # a round on a conflict: picking the newer text's value loses
        "library_loans.json",
        "conflicting_rules",
        [["submit", ["L1", "L3"], {"period": "7 days"}]],
        False,
        ["PICKED_A_SIDE"],
        0,
    ),
]


@pytest.mark.parametrize(("fixture", "scenario", "script", "won", "codes", "spent"), SUFF)
def test_sufficiency_game_notebook(tmp_path, fixture, scenario, script, won, codes, spent):
    rec = run_notebook(
        NB7,
        parameters={
            "FIXTURE": str(FIXTURES / fixture),
            "SCENARIO": scenario,
            "SCRIPT": script,
            "HARD_CASES": str(
                FIXTURES / ("library_loans_th.json" if "_th" in fixture else "library_loans.json")
            ),
        },
        output_dir=tmp_path,
    ).records
    assert rec["outcome"]["won"] is won
    assert [r["code"] for r in rec["outcome"]["reasons"]] == codes
    assert rec["outcome"]["spent"] == spent
    # the conflict round, played by the solver: won by reporting it, both sides cited
    hard = rec["conflict_round"]
    assert hard["scenario"] == "conflicting_rules" and hard["outcome"]["won"] is True
    assert sorted(hard["outcome"]["witness"]) == ["L2", "L3"]
    assert rec["explorer"]["status"] == "INSUFFICIENT"
