"""A teacher's file is the whole lesson: no shipped extra joins it, no absolute path is shown.

Invariants (hypothesis): with a teacher's FIXTURE, no parameter left at its default names a
shipped file; given values are never changed; without a new FIXTURE nothing is added. A
handout's title page never shows the folders of an absolute path, only the file's name.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.io.locate import FIXTURES_DIR
from claimlab.tooling.handouts import _stamp, shown_value
from claimlab.tooling.runner import (
    declared_parameters,
    lesson_parameters,
    names_shipped_file,
)
from claimlab.tooling.serve import prepare_games_folder
from tests.conftest import ROOT

SEGMENT = st.text(alphabet="abcışğü_-.", min_size=1, max_size=8).filter(
    lambda s: s not in {".", ".."}
)
VALUES = st.one_of(
    st.builds(lambda p: f"fixtures/{p}.json", SEGMENT),
    st.builds(lambda p: f"{p}.json", SEGMENT),
    st.just(""),
    st.integers(),
    st.lists(st.builds(lambda p: f"fixtures/{p}.json", SEGMENT), max_size=2),
)
NAMES = st.sampled_from(["HARD_CASES", "EXTRA", "MODES", "SEED", "OTHER_FILES"])


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(NAMES, VALUES),
    st.dictionaries(NAMES, VALUES),
    st.one_of(st.none(), st.builds(lambda p: f"/home/teacher/{p}.json", SEGMENT)),
)
def test_a_teachers_fixture_drops_every_shipped_default(declared, given_, fixture):
    declared = {"FIXTURE": "fixtures/shipped.json", **declared}
    given_ = {k: v for k, v in given_.items() if k in declared}
    if fixture is not None:
        given_["FIXTURE"] = fixture
    out = lesson_parameters(declared, given_)
    assert {k: out[k] for k in given_} == given_  # a given value is never changed
    if fixture is None:
        assert out == given_  # the shipped lesson keeps its defaults
        return
    used = {**declared, **out}
    for name, value in used.items():
        if name != "FIXTURE" and name not in given_:
            assert not names_shipped_file(value), (name, value)


@pytest.mark.parametrize("stem", ["02_evidence_sufficiency", "07_sufficiency_game"])
def test_the_shipped_round_is_not_added_to_a_teachers_file(stem):
    declared = declared_parameters(ROOT / "notebooks" / f"{stem}.ipynb")
    assert names_shipped_file(declared["HARD_CASES"])  # the shipped lesson has its hard cases
    mine = lesson_parameters(declared, {"FIXTURE": "/home/ayse/ders/fuar.json"})
    assert mine["HARD_CASES"] == ""
    shipped = str(FIXTURES_DIR / declared["FIXTURE"].split("/")[-1])
    assert "HARD_CASES" not in lesson_parameters(declared, {"FIXTURE": shipped})
    kept = lesson_parameters(declared, {"FIXTURE": "mine.json", "HARD_CASES": "hard.json"})
    assert kept["HARD_CASES"] == "hard.json"


def test_the_classroom_copy_of_game_07_has_no_shipped_round(tmp_path):
    mine = tmp_path / "fuar.json"
    mine.write_text("{}", encoding="utf-8")
    (tmp_path / "games").mkdir()
    copies = prepare_games_folder(
        ROOT / "notebooks", tmp_path / "games", fixtures={"07_sufficiency_game.ipynb": mine}
    )
    source = "".join(c.read_text(encoding="utf-8") for c in copies if c.name.startswith("07"))
    assert "HARD_CASES = ''" in source


@settings(max_examples=100, deadline=None)
@given(st.lists(SEGMENT, min_size=1, max_size=4), SEGMENT)
def test_a_title_page_shows_an_absolute_path_by_its_name_only(folders, name):
    path = "/" + "/".join(folders) + f"/{name}.json"
    page = _stamp("t", "01_x", "student", {"FIXTURE": path, "OTHERS": [path]}, None)
    assert "/".join(folders) + "/" not in page.replace("&#x27;", "'")
    assert f"{name}.json" in page or f"{name}.json".replace("'", "&#x27;") in page
    assert shown_value("fixtures/aurora.json") == "fixtures/aurora.json"
