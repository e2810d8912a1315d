"""``convert musique --contrast``: a record skipped as malformed has no unanswerable twin."""

from __future__ import annotations

import copy
import json

import pytest

from claimlab.io.multihop import convert_musique
from tests.io.test_multihop import MUSIQUE_ROW


@pytest.mark.parametrize(
    "break_it",
    [
        lambda r: r["question_decomposition"][1].update(paragraph_support_idx=9),  # no paragraph
        lambda r: r["question_decomposition"][1].update(paragraph_support_idx=None),
        lambda r: r["paragraphs"][1].update(idx=0),  # an idx twice
    ],
)
def test_a_skipped_record_gets_no_twin_and_a_good_one_does(tmp_path, break_it):
    good = copy.deepcopy(MUSIQUE_ROW)
    bad = copy.deepcopy(MUSIQUE_ROW)
    bad["id"] = "2hop__3_4"
    break_it(bad)
    f = tmp_path / "m.json"
    f.write_text(json.dumps([good, bad]), encoding="utf-8")
    doc = convert_musique(f, contrast=True)
    assert set(doc["questions"]) == {"2hop__1_2", "2hop__1_2~unanswerable"}
    assert [s["record"] for s in doc["skipped"]] == ["2hop__3_4"]
    assert not any(e["id"].startswith("2hop__3_4") for e in doc["evidence"])
