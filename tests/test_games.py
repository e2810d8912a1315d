"""Every win and loss rule of both games, table-driven."""

import pytest

from claimlab.io.sufficiency import load_sufficiency
from claimlab.labs.games import MAX_SLOTS, DecompositionGame, SufficiencyGame, play_script
from tests.conftest import FIXTURES

DX = FIXTURES / "atlas_nova.json"
SX = FIXTURES / "aurora.json"
TRUE = {
    "C1": "SUPPORTED",
    "C2": "SUPPORTED",
    "C3": "SUPPORTED",
    "C4": "NOT_IN_REFERENCE",
    "C5": "CONTRADICTED",
    "C6": "SUPPORTED",
    "C7": "CONTRADICTED",
    "C8": "SUPPORTED",
    "C9": "NOT_IN_REFERENCE",
    "C10": "NOT_IN_REFERENCE",
    "C11": "SUPPORTED",
}


def annotate_all(game, overrides=None):
    for cid in list(game.selection):
        game.annotate(cid, (overrides or {}).get(cid, TRUE[cid]))


# (puzzle, deselect, select, annotation overrides, won, reason codes)
DECOMP = [
    ("supported_only", [], ["C4", "C5"], {}, True, ()),
    ("supported_only", [], [], {}, False, ("UNCOVERED_UNITS",)),  # support 3/3 is not a win
    ("qualifier_lost", ["C7"], ["C1"], {}, True, ()),
    ("qualifier_lost", [], [], {}, False, ("UNCOVERED_UNITS", "QUALIFIER")),
    ("products_mixed", ["C9", "C10"], ["C1"], {}, True, ()),
    ("products_mixed", [], [], {}, False, ("UNCOVERED_UNITS", "ENTITY", "VERSION")),
    ("duplicate_for_missing", ["C6"], ["C4"], {}, True, ()),
    ("duplicate_for_missing", [], [], {}, False, ("UNCOVERED_UNITS", "DUPLICATE")),
    ("duplicate_for_missing", ["C1"], ["C4"], {}, True, ()),  # C6 alone stands for U1: fine
    ("supported_only", [], ["C4", "C5", "C8"], {}, False, ("INTRODUCED",)),
    (
        "supported_only",
        ["C1", "C3"],
        ["C11", "C4", "C5"],
        {},
        False,
        ("UNCOVERED_UNITS", "NON_ATOMIC"),
    ),
    ("supported_only", [], ["C4", "C5"], {"C4": "CONTRADICTED"}, False, ("WRONG_ANNOTATION",)),
    ("supported_only", [], ["C4", "C5"], {"C5": "NOT_IN_REFERENCE"}, False, ("WRONG_ANNOTATION",)),
    ("supported_only", ["C1", "C2", "C3"], [], {}, False, ("EMPTY", "UNCOVERED_UNITS")),
]


@pytest.mark.parametrize(("puzzle", "drop", "add", "over", "won", "codes"), DECOMP)
def test_decomposition_rules(puzzle, drop, add, over, won, codes):
    g = DecompositionGame(DX, puzzle=puzzle)
    for cid in drop:
        assert g.deselect(cid).ok
    for cid in add:
        assert g.select(cid).ok
    annotate_all(g, over)
    r = g.check()
    assert r.won is won
    assert r.codes == codes


def test_missing_annotation_is_named():
    g = DecompositionGame(DX, puzzle="supported_only")
    g.select("C4")
    g.select("C5")
    g.annotate("C1", "SUPPORTED")
    r = g.check()
    assert r.codes == ("MISSING_ANNOTATION",) and "C2, C3, C4, C5" in r.reasons[0].message


def test_empty_selection_never_wins_even_with_nothing_else_wrong():
    g = DecompositionGame(DX, puzzle="supported_only")
    for cid in list(g.selection):
        g.deselect(cid)
    r = g.check()
    assert not r.won and "EMPTY" in r.codes
    assert r.metrics.preservation.display == "N/A (0/0)"


def test_slots_are_limited_and_freed():
    g = DecompositionGame(DX, puzzle="products_mixed")  # 6 taken
    assert g.slots_left == MAX_SLOTS - 6
    assert g.select("C1").ok
    refused = g.select("C6")
    assert not refused.ok and "no slot left" in refused.message
    g.annotate("C1", "SUPPORTED")
    assert g.slots_left == 0  # annotating takes no slot
    assert g.deselect("C9").ok and g.slots_left == 1
    assert g.select("C6").ok


def test_check_ends_round_and_reset_starts_again():
    g = DecompositionGame(DX, puzzle="supported_only")
    g.check()
    assert not g.select("C4").ok and "Reset" in g.select("C4").message
    assert g.reset().ok and g.selection == ["C1", "C2", "C3"] and g.annotations == {}
    assert g.select("C4").ok


def test_annotation_rules():
    g = DecompositionGame(DX, puzzle="supported_only")
    assert not g.annotate("C9", "SUPPORTED").ok
    assert not g.annotate("C1", "TRUE").ok
    assert not g.select("C1").ok


def test_thai_fixture_plays_the_same():
    g = DecompositionGame(FIXTURES / "atlas_nova_th.json", puzzle="qualifier_lost")
    g.deselect("C7")
    g.select("C1")
    annotate_all(g)
    assert g.check().won


A3 = {"room": "Room A3"}

# (scenario, searches, copies, proof, answer, won, codes)
SUFF = [
    ("missing_link", ["E2"], [], ["E1", "E2"], A3, True, ()),
    ("missing_link", ["E3", "E4"], [], ["E3", "E4"], A3, True, ()),
    ("missing_link", ["E5"], [], ["E5"], A3, True, ()),
    ("missing_link", [], [], ["E1"], A3, False, ("NO_WITNESS",)),  # right room, no witness
    ("missing_link", ["E4"], [], ["E1", "E4"], A3, False, ("NO_WITNESS",)),
    (
        "missing_link",
        ["E8"],
        [],
        ["E8"],
        {"room": "Room B2"},
        False,
        ("REJECTED_EVIDENCE", "NO_WITNESS", "WRONG_ROOM"),
    ),
    ("missing_link", ["E2", "E8"], [], ["E1", "E2", "E8"], A3, False, ("REJECTED_EVIDENCE",)),
    ("missing_link", ["E2"], [], ["E1", "E2"], {"room": "Room B2"}, False, ("WRONG_ROOM",)),
    ("missing_link", [], [], ["E1", "E2"], A3, False, ("NOT_IN_CONTEXT", "NO_WITNESS")),
    ("mixed_branches", ["E2"], [], ["E1", "E2"], A3, True, ()),
    ("mixed_branches", ["E3"], [], ["E3", "E4"], A3, True, ()),
    ("mixed_branches", [], [], ["E1", "E4"], A3, False, ("NO_WITNESS",)),
    (
        "route_and_room",
        ["E1", "E2"],
        [],
        ["E1", "E2"],
        {"room": "Room A3", "route": "Solar Route"},
        True,
        (),
    ),
    (
        "route_and_room",
        ["E3", "E4"],
        [],
        ["E3", "E4"],
        {"room": "Room A3", "route": "Orbit Building"},
        True,
        (),
    ),
    (
        "route_and_room",
        [],
        [],
        ["E5"],
        {"room": "Room A3", "route": "Solar Route"},
        False,
        ("NO_WITNESS", "INTERMEDIATE_NOT_FROM_WITNESS"),
    ),
    (
        "route_and_room",
        ["E1", "E2"],
        [],
        ["E1", "E2"],
        {"room": "Room A3", "route": "Orbit Building"},
        False,
        ("INTERMEDIATE_NOT_FROM_WITNESS",),
    ),
    (
        "route_and_room",
        ["E1", "E2"],
        [],
        ["E1", "E2"],
        {"room": "Room A3"},
        False,
        ("INTERMEDIATE_NOT_FROM_WITNESS",),
    ),
    ("missing_link", ["E2"], ["E1"], ["E1", "E2"], A3, True, ()),  # a copy costs but does no harm
]


@pytest.mark.parametrize(
    ("scenario", "searches", "copies", "proof", "answer", "won", "codes"), SUFF
)
def test_sufficiency_rules(scenario, searches, copies, proof, answer, won, codes):
    g = SufficiencyGame(SX, scenario=scenario)
    for e in searches:
        assert g.search(e).ok, e
    for e in copies:
        assert g.copy(e).ok
    r = g.submit(proof, answer)
    assert (r.won, r.codes) == (won, codes)


def test_budget_costs_and_exhaustion():
    g = SufficiencyGame(SX, scenario="missing_link")
    assert g.budget_left == 6
    assert g.search("E5").ok and g.budget_left == 3  # E5 costs 3
    assert g.copy("E1").ok and g.budget_left == 2
    assert g.search("E2").ok and g.search("E3").ok and g.budget_left == 0
    refused = g.search("E4")
    assert not refused.ok and "budget spent" in refused.message
    assert not g.copy("E1").ok
    r = g.submit(["E5"], A3)  # submitting still works with the budget spent
    assert r.won and r.spent == 6
    assert g.reset().ok and g.budget_left == 6 and g.context == ["E1"]


def test_e5_too_expensive_near_the_end():
    g = SufficiencyGame(SX, scenario="mixed_branches")
    for e in ("E2", "E3", "E6", "E7"):
        g.search(e)
    assert g.budget_left == 2
    r = g.search("E5")
    assert not r.ok and "costs 3, 2 left" in r.message


def test_starting_evidence_is_free_and_search_refuses_repeats():
    g = SufficiencyGame(SX, scenario="mixed_branches")
    assert g.context == ["E1", "E4"] and g.spent == 0
    assert not g.search("E1").ok and g.spent == 0
    assert not g.search("E99").ok


def test_submit_ends_round():
    g = SufficiencyGame(SX, scenario="missing_link")
    g.submit(["E1"], A3)
    assert not g.search("E2").ok


def test_games_accept_a_loaded_fixture_and_scripts():
    fx = load_sufficiency(SX)
    g = SufficiencyGame(fx, scenario="route_and_room")
    log = play_script(
        g,
        [
            ["search", "E3"],
            ["search", "E4"],
            ["submit", ["E3", "E4"], {"room": "Room A3", "route": "Orbit Building"}],
        ],
    )
    assert log[-1]["won"] is True
    with pytest.raises(ValueError, match="unknown action"):
        play_script(g, [["fly"]])
    with pytest.raises(ValueError, match="unknown puzzle"):
        DecompositionGame(DX, puzzle="nope")
