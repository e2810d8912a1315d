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
