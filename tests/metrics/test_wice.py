import json

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.wice import load_wice
from claimlab.metrics.wice import lead_k_status, score_wice_sufficiency
from tests.conftest import require_data

REC = {
    "label": "supported",
    "supporting_sentences": [[1, 2], [4]],
    "claim": "c",
    "evidence": ["s0", "s1", "s2", "s3", "s4"],
    "meta": {"id": "t1"},
}


def test_alternative_sets_through_the_core(tmp_path):
    p = tmp_path / "w.jsonl"
    p.write_text(json.dumps(REC) + "\n")
    (c,) = load_wice(p)
    assert c.alternatives == ((1, 2), (4,))
    assert score_wice_sufficiency(c, [0, 1]).status == "INSUFFICIENT"
    assert score_wice_sufficiency(c, [0, 1, 2]).witnesses == (("1", "2"),)
    assert lead_k_status([c], [2, 3, None]) == {
        "first 2": {
            "SUFFICIENT": 0,
            "INSUFFICIENT": 1,
            "partial support only": 0,
            "no supporting set": 0,
        },
        "first 3": {
            "SUFFICIENT": 1,
            "INSUFFICIENT": 0,
            "partial support only": 0,
            "no supporting set": 0,
        },
        "all": {
            "SUFFICIENT": 1,
            "INSUFFICIENT": 0,
            "partial support only": 0,
            "no supporting set": 0,
        },
    }


def test_empty_supporting_set_is_refused_or_dropped_and_counted(tmp_path):
    p = tmp_path / "w.jsonl"
    p.write_text(json.dumps({**REC, "supporting_sentences": [[], [4]]}) + "\n")
    with pytest.raises(
        ClaimlabInputError, match=r"line 1 \(id t1\): supporting_sentences\[0\]: empty"
    ):
        load_wice(p)
    (c,) = load_wice(p, empty_groups="drop")
    assert (c.alternatives, c.empty_groups) == (((4,),), 1)


def test_index_out_of_range(tmp_path):
    p = tmp_path / "w.jsonl"
    p.write_text(json.dumps({**REC, "supporting_sentences": [[9]]}) + "\n")
    with pytest.raises(
        ClaimlabInputError, match=r"supporting_sentences\[0\]\[0\]: sentence index 9 outside 0..4"
    ):
        load_wice(p)


@pytest.mark.realdata
def test_real_wice_file():
    claims = load_wice(require_data("wice", "wice_claim_test.jsonl"), empty_groups="drop")
    assert len(claims) == 358
    assert sum(c.empty_groups for c in claims) == 32
    status = lead_k_status(claims, [None])["all"]
    # only supported claims can be sufficient: 215 partially and 2 not supported claims have
    # sets that back part of the claim (counted apart, never SUFFICIENT)
    assert status == {
        "SUFFICIENT": 111,
        "INSUFFICIENT": 0,
        "partial support only": 217,
        "no supporting set": 30,
    }


def test_lead_k_counts_each_kind_of_claim_once_and_set_sizes():
    from claimlab.core.vocab import WiceLabel
    from claimlab.io.wice import WiceClaim
    from claimlab.metrics.wice import PARTIAL, set_size_counts

    claims = [
        WiceClaim("s", WiceLabel.SUPPORTED, "a", 5, ((0,), (2, 3))),
        WiceClaim("p", WiceLabel.PARTIALLY_SUPPORTED, "b", 5, ((1, 2),)),
        WiceClaim("n", WiceLabel.SUPPORTED, "c", 5, ()),
        WiceClaim("t", WiceLabel.SUPPORTED, "d", 6, ((4, 5), (1, 2, 3))),
    ]
    assert lead_k_status(claims, [1, None]) == {
        "first 1": {"SUFFICIENT": 1, "INSUFFICIENT": 1, PARTIAL: 1, "no supporting set": 1},
        "all": {"SUFFICIENT": 2, "INSUFFICIENT": 0, PARTIAL: 1, "no supporting set": 1},
    }
    assert set_size_counts(claims) == {1: 1, 2: 3, 3: 1}
    assert list(set_size_counts(claims[::-1])) == [1, 2, 3]  # in order of size
    assert set_size_counts([]) == {}
