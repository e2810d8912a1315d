"""Widget logic, headless: set values as a user would, assert what is shown."""

from claimlab.io.decomposition import load_decomposition
from claimlab.io.sufficiency import load_sufficiency
from claimlab.labs.games import DecompositionGame, SufficiencyGame
from claimlab.notebook.widgets import (
    DecompositionExplorer,
    DecompositionGameView,
    SufficiencyExplorer,
    SufficiencyGameView,
)
from tests.conftest import FIXTURES

DX = load_decomposition(FIXTURES / "atlas_nova.json")
SX = load_sufficiency(FIXTURES / "aurora.json")


def test_explorer_toggles_update_metrics_and_show_na():
    x = DecompositionExplorer(DX, DX.modes["baseline"])
    assert 'data-metric="confirmed_support">60.0% (3/5)' in x.metrics.value
    x.toggles["C6"].value = True  # a duplicate
    assert 'data-metric="raw_support">66.7% (4/6)' in x.metrics.value
    assert 'data-metric="confirmed_support">60.0% (3/5)' in x.metrics.value
    for t in x.toggles.values():
        t.value = False
    assert 'data-metric="preservation">N/A (0/0)' in x.metrics.value
    assert 'data-metric="coverage">0.0% (0/5)' in x.metrics.value
    x.mode.value = "supported_only"
    assert x.selection == ["C1", "C2", "C3"]
    assert 'data-metric="coverage">60.0% (3/5)' in x.metrics.value
    assert "C3" in x.audit.value and "C4" not in x.audit.value


def test_snapshot_is_static_html_beside_the_widget():
    x = DecompositionExplorer(DX, ["C1"])
    bundle = x._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "100.0% (1/1)" in bundle["text/html"]


def test_sufficiency_explorer():
    x = SufficiencyExplorer(SX, "room", ["E1"])
    assert ">INSUFFICIENT<" in x.status.value and "missing E2" in x.status.value
    x.toggles["E2"].value = True
    assert ">SUFFICIENT<" in x.status.value
    x.question.value = "route_and_room"
    assert ">SUFFICIENT<" in x.status.value
    x.toggles["E1"].value = False
    x.toggles["E2"].value = False
    x.toggles["E5"].value = True
    assert ">INSUFFICIENT<" in x.status.value
    x.copies.value = 2
    assert "3 raw / 2 unique" in x.status.value
    x.toggles["E8"].value = True
    assert "E8 (metadata)" in x.status.value
    x.ignore.value = True
    assert "UNSAFE CANDIDATE</strong> E8" in x.status.value


def test_hostile_text_is_escaped_in_widgets(write_variant):
    from claimlab.io.decomposition import load_decomposition as load

    def hostile(d):
        d["candidates"][1]["text"] = "<img src=x onerror=alert(1)>"

    fx = load(write_variant("atlas_nova.json", hostile, filename="h.json"))
    x = DecompositionExplorer(fx, ["C2"])
    assert "<img src=x" not in x.audit.value and "&lt;img src=x" in x.audit.value
    g = DecompositionGameView(DecompositionGame(fx, puzzle="supported_only"))
    assert all(
        "<img src=x" not in w.value
        for w in g.widget.children[1].children
        if hasattr(w, "value") and isinstance(w.value, str)
    )


def test_decomposition_game_view_plays_a_round():
    v = DecompositionGameView(DecompositionGame(DX, puzzle="supported_only"))
    assert [c for c, t in v.toggles.items() if t.value] == ["C1", "C2", "C3"]
    v.toggles["C4"].value = True
    v.toggles["C5"].value = True
    assert "slots left: 2 of 7" in v.board.value
    for cid, status in [
        ("C1", "SUPPORTED"),
        ("C2", "SUPPORTED"),
        ("C3", "SUPPORTED"),
        ("C4", "NOT_IN_REFERENCE"),
        ("C5", "CONTRADICTED"),
    ]:
        v.status_pickers[cid].value = status
    v.check_button.click()
    assert "WON" in v.board.value
    v.toggles["C6"].value = True  # round over: refused, toggle snaps back
    assert v.toggles["C6"].value is False and "Reset" in v.message.value
    v.reset_button.click()
    assert "WON" not in v.board.value and v.status_pickers["C4"].value == "(not annotated)"


def test_slot_refusal_snaps_the_toggle_back():
    v = DecompositionGameView(DecompositionGame(DX, puzzle="products_mixed"))
    v.toggles["C1"].value = True
    v.toggles["C6"].value = True
    assert v.toggles["C6"].value is False and "no slot left" in v.message.value


def test_sufficiency_game_view_plays_a_round():
    v = SufficiencyGameView(SufficiencyGame(SX, scenario="route_and_room"))
    v.search_buttons["E3"].click()
    v.search_buttons["E4"].click()
    assert 'class="claimlab-budget">4<' in v.board.value
    v.proof.value = ("E3", "E4")
    v.room.value = "Room A3"
    v.route.value = "Orbit Building"
    v.submit_button.click()
    assert "WON" in v.board.value
    v.reset_button.click()
    v.search_buttons["E5"].click()  # already there: refused, no cost
    assert "already in the context" in v.message.value
    for eid in ("E1", "E2", "E3", "E4", "E6", "E7"):
        v.search_buttons[eid].click()
    assert 'class="claimlab-budget">0<' in v.board.value
    v.search_buttons["E8"].click()
    assert "budget spent" in v.message.value
    v.proof.value = ("E1", "E2")
    v.room.value = "Room A3"
    v.route.value = "Solar Route"
    v.submit_button.click()
    assert "WON" in v.board.value
