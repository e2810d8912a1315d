"""Every win and loss rule of both games, table-driven."""

import pytest

from claimlab.io.sufficiency import load_sufficiency
from claimlab.labs.decomposition.game import DecompositionGame
from claimlab.labs.play import play_script
from claimlab.labs.sufficiency.game import SufficiencyGame
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
    assert g.slots == 7 and g.slots_left == 7 - 6
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
        ("REJECTED_EVIDENCE", "NO_WITNESS", "WRONG_ANSWER"),
    ),
    ("missing_link", ["E2", "E8"], [], ["E1", "E2", "E8"], A3, False, ("REJECTED_EVIDENCE",)),
    ("missing_link", ["E2"], [], ["E1", "E2"], {"room": "Room B2"}, False, ("WRONG_ANSWER",)),
    ("missing_link", ["E2"], [], ["E1", "E2"], {"room": " room a3 "}, True, ()),  # as typed
    ("missing_link", ["E2"], [], ["E1", "E2"], {}, False, ("MISSING_ANSWER",)),
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
        ("NO_WITNESS",),
    ),
    (
        "route_and_room",
        ["E1", "E2"],
        [],
        ["E1", "E2"],
        {"room": "Room A3", "route": "Orbit Building"},
        False,
        ("NOT_FROM_WITNESS",),
    ),
    (
        "route_and_room",
        ["E1", "E2"],
        [],
        ["E1", "E2"],
        {"room": "Room A3"},
        False,
        ("MISSING_ANSWER",),
    ),
    # a proof holding both chains wins with either route
    (
        "route_and_room",
        ["E1", "E2", "E3", "E4"],
        [],
        ["E1", "E2", "E3", "E4"],
        {"room": "Room A3", "route": "Solar Route"},
        True,
        (),
    ),
    (
        "route_and_room",
        ["E1", "E2", "E3", "E4"],
        [],
        ["E1", "E2", "E3", "E4"],
        {"room": "Room A3", "route": "Orbit Building"},
        True,
        (),
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
    assert not refused.ok and "not enough budget" in refused.message
    assert not g.copy("E1").ok
    assert "cannot be copied" in g.copy("E5").message  # only what the file lists as copyable
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


# ---- the games are described by the file -------------------------------------------------

from claimlab.core.errors import FixtureError  # noqa: E402
from claimlab.io.decomposition import load_decomposition  # noqa: E402
from claimlab.labs.decomposition.game import solve_decomposition  # noqa: E402
from claimlab.labs.sufficiency.game import (  # noqa: E402
    game_scenarios,
    solve_sufficiency,
    sufficiency_wins,
)
from tests.own_files import (  # noqa: E402
    decomposition_data,
    own_decomposition,
    own_sufficiency,
    sufficiency_data,
    write,
)

DECOMPOSITION_FILES = ("atlas_nova.json", "atlas_nova_th.json", "ferry_lines.json")
SUFFICIENCY_FILES = ("aurora.json", "aurora_th.json", "parcel_routes.json")


@pytest.mark.parametrize("name", DECOMPOSITION_FILES)
def test_every_shipped_puzzle_can_be_won_and_the_solver_wins_it(name):
    fx = load_decomposition(FIXTURES / name)
    assert len(fx.game.puzzles) >= 3
    for puzzle in fx.game.puzzles:
        script = solve_decomposition(fx, puzzle)
        assert script, puzzle
        log = play_script(DecompositionGame(fx, puzzle), script)
        assert log[-1]["won"] is True, (puzzle, log[-1])
        assert not DecompositionGame(fx, puzzle).check().won  # no puzzle starts won


@pytest.mark.parametrize("name", SUFFICIENCY_FILES)
def test_every_shipped_scenario_can_be_won_within_budget_but_not_at_the_start(name):
    fx = load_sufficiency(FIXTURES / name)
    offered = game_scenarios(fx)
    assert len(offered) == 3
    for scenario in offered:
        script = solve_sufficiency(fx, scenario)
        game = SufficiencyGame(fx, scenario)
        log = play_script(game, script)
        assert log[-1]["won"] is True and game.spent <= game.budget, (scenario, log[-1])
        fresh = SufficiencyGame(fx, scenario)
        key = {item: fx.accepted(fresh.question, item)[0] for item in fresh.asks}
        assert not fresh.submit(list(fresh.context), key).won  # a search is always needed


def test_the_parcel_game_reads_costs_budget_and_copies_from_its_file():
    g = SufficiencyGame(FIXTURES / "parcel_routes.json", "tracking_only")
    assert (g.budget, g.cost("k6"), g.cost("k2"), g.copy_cost) == (5, 4, 1, 1)
    assert g.context == ["k6"] and g.asks == ("route", "locker")
    wins = sufficiency_wins(g.fixture, "tracking_only")
    assert [(w.witness, w.cost) for w in wins] == [(("k4", "k5"), 2), (("k1", "k2", "k3"), 3)]
    # three links in one chain, and the stale schedule's chain is refused
    g = SufficiencyGame(FIXTURES / "parcel_routes.json", "two_of_three")
    assert g.search("k3").ok and g.search("k8").ok and g.search("k9").ok
    r = g.submit(["k1", "k8", "k9"], {"locker": "Locker Bank F"})
    assert r.codes == ("REJECTED_EVIDENCE", "NO_WITNESS", "WRONG_ANSWER")
    g.reset()
    assert g.context == ["k1", "k2"] and g.spent == 0 and g.last_submit is None


@pytest.mark.parametrize("game", [True, False], ids=["game section", "defaults"])
def test_a_users_own_files_play_and_win(tmp_path, game):
    dx = load_decomposition(own_decomposition(tmp_path, game=game))
    sx = load_sufficiency(own_sufficiency(tmp_path, game=game))
    if game:
        assert list(dx.game.puzzles) == ["warm_up", "one_too_many"] and dx.game.slots == 5
        assert sx.game.budget == 4 and sx.game.cost("g-c") == 3 and sx.game.copyable == ("g-a",)
    else:  # the defaults: one free puzzle with 7 slots; budget 6, 1 a search, nothing copyable
        assert list(dx.game.puzzles) == ["free"] and dx.game.slots == 7
        assert DecompositionGame(dx).selection == []
        assert (sx.game.budget, sx.game.cost("g-c"), sx.game.copyable) == (6, 1, ())
    for puzzle in dx.game.puzzles:
        g = DecompositionGame(dx, puzzle)
        assert play_script(g, solve_decomposition(dx, puzzle))[-1]["won"] is True
    for scenario in game_scenarios(sx):
        g = SufficiencyGame(sx, scenario)
        assert play_script(g, solve_sufficiency(sx, scenario))[-1]["won"] is True
    # the desk-and-gate scenario: the desk must come from the same witness as the gate
    g = SufficiencyGame(sx, "board_only")
    g.search("g-a")
    g.search("g-b")
    assert g.submit(["g-a", "g-b", "g-c"], {"gate": "Gate 17", "desk": " desk 4"}).won
    g.reset()
    # a value the key accepts but no witness names (the key's other spelling) does not win
    g.search("g-a")
    g.search("g-b")
    r = g.submit(["g-a", "g-b"], {"gate": "Gate 17", "desk": "desk four"})
    assert r.codes == ("NOT_FROM_WITNESS",)
    g.reset()
    assert g.submit(["g-c"], {"gate": "Gate 17", "desk": "Desk 4"}).codes == ("NO_WITNESS",)


def test_without_scenarios_the_game_offers_one_round_per_question(tmp_path):
    data = sufficiency_data(game=False)
    del data["scenarios"]
    fx = load_sufficiency(write(tmp_path, "s.json", data))
    assert list(game_scenarios(fx)) == ["gate", "desk_and_gate"]
    g = SufficiencyGame(fx)
    assert g.context == [] and g.question == "gate"
    assert play_script(g, solve_sufficiency(fx, "gate"))[-1]["won"] is True


def test_a_game_needs_the_answer_key_of_its_question(tmp_path):
    data = sufficiency_data()
    del data["answer_key"]["desk_and_gate"]["desk"]
    fx = load_sufficiency(write(tmp_path, "s.json", data))
    with pytest.raises(ValueError, match=r"answer_key\.desk_and_gate\.desk"):
        SufficiencyGame(fx, "board_only")
    g = SufficiencyGame(fx, "from_the_desk")
    assert not g.choose("board_only").ok and g.scenario == "from_the_desk"


def test_choosing_another_round_starts_it_fresh(tmp_path):
    g = DecompositionGame(own_decomposition(tmp_path))
    assert g.puzzle == "warm_up"
    g.select("t-open")
    assert g.choose("one_too_many").ok and g.selection == ["t-open", "t-oat", "t-oat2", "t-any"]
    assert not g.choose("nope").ok and g.puzzle == "one_too_many"
    assert g.slots_left == 1 and g.deselect("t-any").message == "deselected t-any (2 slots left)"
    assert g.select("t-any").message == "selected t-any (1 slot left)"


BAD_GAMES = [
    ("d", lambda g: g.__setitem__("slots", 0), "game.slots", "at least 1"),
    ("d", lambda g: g.__setitem__("slots", "7"), "game.slots", "must be an integer"),
    (
        "d",
        lambda g: g["puzzles"]["warm_up"].__setitem__("start", ["C1"]),
        "game.puzzles.warm_up.start[0]",
        "unknown candidate id 'C1'",
    ),
    (
        "d",
        lambda g: g["puzzles"]["warm_up"].__setitem__("start", ["t-oat", "t-oat"]),
        "game.puzzles.warm_up.start[1]",
        "listed twice",
    ),
    ("d", lambda g: g.__setitem__("slots", 3), "game.puzzles.one_too_many.start", "has 3 slots"),
    (
        "d",
        lambda g: g["puzzles"]["warm_up"].__setitem__("title", 5),
        "game.puzzles.warm_up.title",
        "must be a string",
    ),
    ("s", lambda g: g.__setitem__("budget", -1), "game.budget", "at least 0"),
    (
        "s",
        lambda g: g["search_cost"].__setitem__("E5", 3),
        "game.search_cost.E5",
        "unknown evidence id",
    ),
    (
        "s",
        lambda g: g["search_cost"].__setitem__("g-c", 1.5),
        "game.search_cost.g-c",
        "whole number",
    ),
    (
        "s",
        lambda g: g["search_cost"].__setitem__("default", True),
        "game.search_cost.default",
        "whole number",
    ),
    ("s", lambda g: g.__setitem__("copyable", ["E1"]), "game.copyable[0]", "unknown evidence id"),
    (
        "s",
        lambda g: g.__setitem__("scenarios", ["missing_link"]),
        "game.scenarios[0]",
        "unknown scenario",
    ),
    ("s", lambda g: g.__setitem__("copy_cost", "one"), "game.copy_cost", "must be an integer"),
]


@pytest.mark.parametrize(("kind", "mutate", "field", "problem"), BAD_GAMES)
def test_a_bad_game_section_is_one_clear_error(tmp_path, kind, mutate, field, problem):
    data = decomposition_data() if kind == "d" else sufficiency_data()
    mutate(data["game"])
    path = write(tmp_path, "f.json", data)
    load = load_decomposition if kind == "d" else load_sufficiency
    with pytest.raises(FixtureError) as info:
        load(path)
    assert info.value.field == field and problem in str(info.value), str(info.value)
    assert str(path) in str(info.value)


def test_unknown_keys_of_a_game_section_are_ignored(tmp_path):
    data = decomposition_data()
    data["game"]["colour"] = "green"
    data["game"]["puzzles"]["warm_up"]["difficulty"] = 3
    assert load_decomposition(write(tmp_path, "f.json", data)).game.slots == 5
