"""A teacher's own sufficiency file is the whole lesson: notebooks 02 and 07 run on it with the
default ``HARD_CASES`` add no shipped round (the handouts are made from these runs)."""

from __future__ import annotations

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT
from tests.notebooks.test_own_files import shown_text
from tests.own_files import own_sufficiency

pytestmark = pytest.mark.notebook
LIBRARY_WORDS = ("short-loan", "reading-room", "weekend rule", "conflicting_rules", "L3")


@pytest.mark.parametrize("stem", ["02_evidence_sufficiency", "07_sufficiency_game"])
def test_no_shipped_round_joins_a_teachers_own_file(tmp_path, stem):
    res = run_notebook(
        ROOT / "notebooks" / f"{stem}.ipynb",
        parameters={"FIXTURE": str(own_sufficiency(tmp_path))},
        output_dir=tmp_path,
    )
    text = shown_text(res.notebook)
    assert [w for w in LIBRARY_WORDS if w in text] == []
    assert "whole lesson" in text
    if stem == "07_sufficiency_game":
        assert res.records["conflict_round"] == {"scenario": None, "outcome": None}
    else:
        assert res.records["hard_cases"] == {}
