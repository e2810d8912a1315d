"""A handout travels to students: it shows a teacher's file by its name, never its folders.

Invariant (hypothesis): whatever absolute path a parameter holds, the title page shows the
file's name and none of the folders above it; relative (shipped) paths are shown as given.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.tooling.handouts import _stamp, shown_value

SEGMENT = st.text(alphabet="abcışğü_-.", min_size=1, max_size=8).filter(
    lambda s: s not in {".", ".."}
)


@settings(max_examples=100, deadline=None)
@given(st.lists(SEGMENT, min_size=1, max_size=4), SEGMENT)
def test_a_title_page_shows_an_absolute_path_by_its_name_only(folders, name):
    path = "/" + "/".join(folders) + f"/{name}.json"
    page = _stamp("t", "01_x", "student", {"FIXTURE": path, "OTHERS": [path]}, None)
    assert "/".join(folders) + "/" not in page
    assert f"{name}.json" in page


def test_named_values():
    assert shown_value("fixtures/aurora.json") == "fixtures/aurora.json"
    assert shown_value("/home/ayse/ders/izin.json") == "izin.json"
    assert shown_value("~/ders/izin.json") == "izin.json"
    assert shown_value(["/a/b.json", 3, None]) == ["b.json", 3, None]
