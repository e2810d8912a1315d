"""Widget logic, headless: set values as a user would, assert what is shown."""

import re

import pytest

from claimlab.io.decomposition import load_decomposition
from claimlab.io.sufficiency import load_sufficiency
from claimlab.labs.decomposition.game import DecompositionGame
from claimlab.labs.decomposition.widgets import DecompositionExplorer, DecompositionGameView
from claimlab.labs.sufficiency.game import SufficiencyGame
from claimlab.labs.sufficiency.widgets import SufficiencyExplorer, SufficiencyGameView
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
    x.copy_of.value = "E1"
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
    shown = [
        w.value
        for row in g.widget.children
        for w in (*getattr(row, "children", ()), row)
        if isinstance(getattr(w, "value", None), str)
    ]
    assert any("&lt;img src=x" in v for v in shown)
    assert all("<img src=x" not in v for v in shown)
    assert "<img src=x" not in g._repr_mimebundle_()["text/html"]


def test_decomposition_game_view_plays_a_round():
    v = DecompositionGameView(DecompositionGame(DX, puzzle="supported_only"))
    assert [c for c, t in v.toggles.items() if t.value] == ["C1", "C2", "C3"]
    v.toggles["C4"].value = True
    v.toggles["C5"].value = True
    assert 'slots left: <span class="claimlab-slots">2</span> of 7' in v.board.value
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
    assert [c for c, t in v.toggles.items() if t.value] == ["C1", "C2", "C3"]


def test_slot_refusal_snaps_the_toggle_back():
    v = DecompositionGameView(DecompositionGame(DX, puzzle="products_mixed"))
    v.toggles["C1"].value = True
    v.toggles["C6"].value = True
    assert v.toggles["C6"].value is False and "no slot left" in v.message.value


def test_sufficiency_game_view_plays_a_round():
    v = SufficiencyGameView(SufficiencyGame(SX, scenario="route_and_room"))
    assert [r.children[1] for r in v.answer_box.children] == [v.answers["route"], v.answers["room"]]
    v.search_buttons["E3"].click()
    v.search_buttons["E4"].click()
    assert 'class="claimlab-budget">4<' in v.board.value
    assert v.search_buttons["E3"].disabled and not v.cite["E3"].disabled
    v.cite["E3"].value = v.cite["E4"].value = True
    v.answers["room"].value = "Room A3"
    v.answers["route"].value = "Orbit Building"
    v.submit_button.click()
    assert "WON" in v.board.value
    v.reset_button.click()  # everything cleared
    assert not any(c.value for c in v.cite.values())
    assert {d.value for d in v.answers.values()} == {"(choose)"} and "WON" not in v.board.value
    v.search_buttons["E5"].click()  # already there: refused, no cost
    assert "already in the context" in v.message.value
    for eid in ("E1", "E2", "E3", "E4", "E6", "E7"):
        v.search_buttons[eid].click()
    assert 'class="claimlab-budget">0<' in v.board.value
    v.search_buttons["E8"].click()
    assert "not enough budget" in v.message.value
    v.cite["E1"].value = v.cite["E2"].value = True
    v.answers["room"].value = "Room A3"
    v.answers["route"].value = "Solar Route"
    v.submit_button.click()
    assert "WON" in v.board.value


def test_the_round_chooser_switches_and_starts_fresh():
    v = SufficiencyGameView(SufficiencyGame(SX, scenario="missing_link"))
    assert [value for _, value in v.chooser.options] == [
        "missing_link",
        "mixed_branches",
        "route_and_room",
    ]
    v.search_buttons["E2"].click()
    v.cite["E1"].value = True
    v.chooser.value = "mixed_branches"
    assert v.game.context == ["E1", "E4"] and v.game.spent == 0
    assert not any(c.value for c in v.cite.values())
    assert [r.children[1] for r in v.answer_box.children] == [v.answers["room"]]
    d = DecompositionGameView(DecompositionGame(DX, puzzle="supported_only"))
    d.chooser.value = "products_mixed"
    assert [c for c, t in d.toggles.items() if t.value] == ["C2", "C3", "C4", "C5", "C9", "C10"]
    assert "Products mixed" in d.intro.value


def test_student_mode_shows_no_status_or_count_before_check():
    x = DecompositionExplorer(DX, DX.modes["duplicate"], student=True)
    shown = x.metrics.value + x.audit.value + x._repr_mimebundle_()["text/html"]
    for word in ("SUPPORTED", "CONTRADICTED", "duplicate", "60.0%", "qualifier", "dup of"):
        assert word not in shown, word
    assert DX.candidate("C6").text in shown
    y = SufficiencyExplorer(SX, "room", ["E1", "E2"], student=True)
    assert "SUFFICIENT" not in y.status.value and "witness" not in y.status.value
    g = DecompositionGameView(DecompositionGame(DX, puzzle="duplicate_for_missing"), student=True)
    before = g.board.value + g.intro.value + g.message.value
    for word in ("SUPPORTED 3", "duplicates:", "introduced:", "Confirmed Support"):
        assert word not in before, word
    g.check_button.click()
    assert "DUPLICATE" in g.board.value and "Confirmed Support" in g.board.value  # after Check
    s = SufficiencyGameView(SufficiencyGame(SX, scenario="missing_link"), student=True)
    assert "SUFFICIENT" not in s.board.value + s.intro.value
    assert SX.item("E2").text in "".join(
        w.value
        for row in s.widget.children
        for w in getattr(row, "children", ())
        if hasattr(w, "value") and isinstance(w.value, str)
    )


def test_the_paper_board_is_the_handout_snapshot():
    g = DecompositionGameView(DecompositionGame(DX), student=True)
    paper = g._repr_mimebundle_()["text/html"]
    for c in DX.candidates:
        assert c.text in paper
    for p in DX.game.puzzles.values():
        assert p.title in paper
    assert "7 raw slots" in paper and "SUPPORTED" in paper  # the statuses to choose from
    assert "CONTRADICTED (R" not in paper  # never a candidate's own status
    s = SufficiencyGameView(SufficiencyGame(SX))
    paper = re.sub(r' style="[^"]*"', "", s._repr_mimebundle_()["text/html"])
    assert all(ev.text in paper for ev in SX.evidence) and "Budget 6" in paper
    assert re.search(r"<td>E5</td><td>[^<]*</td><td>APPROVED</td><td>3</td>", paper)  # its cost


def test_ids_that_are_not_class_names_get_a_safe_class(tmp_path):
    from claimlab.notebook.widgets import css_token

    assert css_token("C1") == "C1" and css_token("t-oat") == "t-oat"
    odd = css_token('a b"<x>')
    assert odd.startswith("x") and " " not in odd and len(odd) == 13
    assert css_token('a b"<x>') == odd != css_token("a b")


def test_a_finished_decomposition_round_is_locked_and_never_rechecked():
    """Check with C4 unannotated, try to annotate it, Check again: the verdict stands, the
    controls are locked, and the message says how to start again (issue: a stale verdict)."""
    v = DecompositionGameView(DecompositionGame(DX, puzzle="supported_only"))
    v.toggles["C4"].value = True
    v.check_button.click()
    first = v.game.last_check
    assert "MISSING_ANNOTATION" in v.board.value and "press Reset to play again" in v.message.value
    assert v.check_button.disabled and all(t.disabled for t in v.toggles.values())
    assert all(p.disabled for p in v.status_pickers.values())
    v.status_pickers["C4"].value = "SUPPORTED"  # refused: the round is over
    assert v.status_pickers["C4"].value == "(not annotated)" and "C4" not in v.game.annotations
    assert v.game.check() is first  # not checked again from a state the player never submitted
    v.reset_button.click()
    assert not v.check_button.disabled and not any(t.disabled for t in v.toggles.values())
    assert v.game.last_check is None and "MISSING_ANNOTATION" not in v.board.value


def test_a_finished_sufficiency_round_is_locked_the_same_way():
    v = SufficiencyGameView(SufficiencyGame(SX, scenario="route_and_room"))
    v.submit_button.click()
    first = v.game.last_submit
    assert v.submit_button.disabled and all(b.disabled for b in v.search_buttons.values())
    assert "press Reset to play again" in v.message.value
    assert v.game.submit(["E1"], {"room": "Room A3"}) is first
    v.reset_button.click()
    assert not v.submit_button.disabled and v.game.last_submit is None


MARKED = [
    # text, spans (id, UTF-16 start, end), expected HTML
    ("abc", [], "abc"),
    (
        "abc",
        [("U1", 0, 3)],
        '<mark class="claimlab-unit">abc</mark><sup class="claimlab-unit-id">U1</sup>',
    ),
    (
        "\U0001f4d8 ab cd",  # an emoji is two UTF-16 units: "ab" starts at 3
        [("U1", 3, 5)],
        '\U0001f4d8 <mark class="claimlab-unit">ab</mark><sup class="claimlab-unit-id">U1</sup> cd',
    ),
    (
        "abcd",  # overlapping units: the overlap is marked once, each id after its own end
        [("A", 0, 3), ("B", 1, 4)],
        '<mark class="claimlab-unit">a</mark><mark class="claimlab-unit">bc</mark>'
        '<sup class="claimlab-unit-id">A</sup><mark class="claimlab-unit">d</mark>'
        '<sup class="claimlab-unit-id">B</sup>',
    ),
    ("ab", [("Z", 1, 1)], 'a<sup class="claimlab-unit-id">Z</sup>b'),  # an empty span: its id only
    (
        "<b>&x",  # text and ids from a file are data
        [("<i>", 0, 3)],
        '<mark class="claimlab-unit">&lt;b&gt;</mark><sup class="claimlab-unit-id">&lt;i&gt;</sup>&amp;x',
    ),
]


@pytest.mark.parametrize(("text", "spans", "expected"), MARKED)
def test_the_answer_is_shown_with_its_units_marked(text, spans, expected):
    from claimlab.notebook.widgets import marked_text_html

    assert marked_text_html(text, spans) == expected


def test_marking_a_long_answer_is_one_pass():
    from claimlab.notebook.widgets import marked_text_html

    text = "word " * 100_000
    spans = [(f"U{i}", 5 * i, 5 * i + 4) for i in range(100_000)]
    out = marked_text_html(text, spans)
    assert out.count("<mark") == 100_000 and out.count("U99999</sup>") == 1


def test_references_and_paper_tables_are_escaped_and_left_aligned():
    from types import SimpleNamespace

    from claimlab.notebook.widgets import paper_table, references_html

    ref = SimpleNamespace(id="R<1>", title="T & co", version="", text="<script>x</script>")
    out = references_html([ref])
    assert "<script>" not in out and "&lt;script&gt;x&lt;/script&gt;" in out
    assert "R&lt;1&gt;" in out and "(version" not in out
    assert "NOT_IN_REFERENCE" in references_html([])  # no reference: say what that means
    table = paper_table("t", ["id", "status"], [["C1", ""]], write={"status": 12})
    assert table.count("text-align:left") == 5  # the table, both headers, both cells
    assert table.count("width:12em;min-width:12em") == 2  # room to write, header and cell
    with pytest.raises(ValueError):
        paper_table("t", ["id", "status"], [["C1"]])  # a short row is a bug, not a blank


def test_the_decomposition_game_shows_the_answer_and_every_reference():
    from claimlab.labs.decomposition.widgets import source_html

    g = DecompositionGameView(DecompositionGame(DX), student=True)
    assert source_html(DX) in g.source.value and source_html(DX) in g.paper_html()
    for shown in (g.source.value, g.paper_html()):
        assert all(r.text in shown and r.title in shown for r in DX.references)
        assert shown.count('<mark class="claimlab-unit">') == len(DX.units)
        for u in DX.units:
            assert f'{u.span.text}</mark><sup class="claimlab-unit-id">{u.id}</sup>' in shown
    assert g.source in g.widget.children
