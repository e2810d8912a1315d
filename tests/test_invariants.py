"""Common invariants every ratio metric must keep (STYLE habit 10).

Each entry builds results from an input list; the test checks: 0/0 gives N/A; the order of the
input does not matter for the unique-selection metrics; counts match the id lists; inputs untouched.
"""

import copy
import itertools

import pytest

from claimlab.decomposition import find_decomposition
from claimlab.fixtures import load_decomposition
from tests.conftest import FIXTURES

FX = load_decomposition(FIXTURES / "atlas_nova.json")
SELECTIONS = [list(ids) for ids in FX.modes.values()] + [["C6", "C1"], ["C11", "C1", "C3"]]


@pytest.mark.parametrize("selection", SELECTIONS)
def test_counts_match_id_lists(selection):
    r = find_decomposition(FX, selection)
    assert r.preservation.numerator == len(r.faithful_ids)
    assert r.preservation.denominator == len(r.unique_ids)
    assert r.coverage.numerator == len(r.preserved_units)
    assert r.coverage.denominator == len(r.preserved_units) + len(r.missing_units)
    assert r.raw_support.denominator == len(selection)
    assert len(r.unique_ids) + len(r.duplicates) == len(selection)
    assert sum(r.status_counts.values()) == len(r.unique_ids)
    assert sum(r.raw_status_counts.values()) == len(selection)


@pytest.mark.parametrize("selection", SELECTIONS)
def test_order_does_not_change_raw_or_coverage(selection):
    base = find_decomposition(FX, selection)
    for perm in itertools.islice(itertools.permutations(selection), 24):
        r = find_decomposition(FX, list(perm))
        assert r.raw_support == base.raw_support
        assert r.coverage == base.coverage
        assert r.preservation.denominator == base.preservation.denominator


def test_zero_denominator_is_na_everywhere():
    r = find_decomposition(FX, [])
    for ratio in r.ratios().values():
        if ratio.denominator == 0:
            assert ratio.value is None and ratio.display == "N/A (0/0)"


def test_inputs_are_not_mutated():
    selection = ["C1", "C6", "C2"]
    before = copy.deepcopy(selection)
    fx_before = repr(FX)
    find_decomposition(FX, selection)
    assert selection == before
    assert repr(FX) == fx_before
