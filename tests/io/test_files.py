"""Writing outputs: a new file replaces the old one whole, or not at all."""

import pytest

from claimlab.io.files import replacing


def test_replacing_swaps_in_the_complete_file(tmp_path):
    target = tmp_path / "deep" / "out.csv"
    with replacing(target) as tmp:
        assert tmp.parent == target.parent and tmp != target
        tmp.write_text("new")
        assert not target.exists()  # nothing at the destination until the write is complete
    assert target.read_text() == "new"
    assert [p.name for p in target.parent.iterdir()] == ["out.csv"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old")
    with pytest.raises(RuntimeError), replacing(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("the writer failed")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_a_path_the_user_gives_is_theirs_and_a_shipped_fixture_is_found_by_its_bare_name(
    tmp_path, monkeypatch
):
    """A bare name or ``fixtures/NAME`` finds the shipped fixture only where the user has no
    file of that name; any other relative path is looked up where the user is, never among the
    shipped fixtures; the label says which file was used."""
    import pytest

    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.locate import FIXTURES_DIR, resolve_path, source_label

    work = tmp_path / "work" / "notebooks"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    shipped = resolve_path("atlas_nova.json")
    assert shipped == (FIXTURES_DIR / "atlas_nova.json").resolve()
    assert source_label(shipped) == "the shipped fixture atlas_nova.json"
    assert resolve_path("fixtures/atlas_nova.json") == shipped
    # a folder of one's own that is mistyped (or absent) never becomes the shipped one
    with pytest.raises(ClaimlabInputError, match="not found"):
        resolve_path("annotations/reader-en.ana.json")
    assert resolve_path("fixtures/annotations/reader-en.ana.json").name == "reader-en.ana.json"
    # the user's own file of the same name wins, here or in the labs folder above
    (work / "atlas_nova.json").write_text("{}", encoding="utf-8")
    mine = resolve_path("atlas_nova.json")
    assert mine == (work / "atlas_nova.json").resolve()
    assert source_label(mine) == "your file atlas_nova.json"
    (tmp_path / "work" / "fixtures").mkdir()
    (tmp_path / "work" / "fixtures" / "aurora.json").write_text("{}", encoding="utf-8")
    assert resolve_path("fixtures/aurora.json") == (tmp_path / "work/fixtures/aurora.json")


def test_an_empty_path_is_refused_in_one_line_not_a_crash():
    import pytest

    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.locate import resolve_path

    for empty in ("", "  "):
        with pytest.raises(ClaimlabInputError, match="no draft given"):
            resolve_path(empty, what="draft")


def test_an_empty_data_path_names_no_file():
    from claimlab.io.locate import find_data

    assert find_data("") is None and find_data(" ") is None
