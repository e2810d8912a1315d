"""Core-style selection unit by unit: the conflict graph, and the exact maximum-weight set against
a brute force over every subset (ties to the earliest members), on small, middle and large parts.
"""

import itertools
import random
from types import SimpleNamespace

import pytest

from claimlab.core.ratio import Ratio
from claimlab.metrics.selection import (
    ENUMERATE_UP_TO,
    EXACT_UP_TO,
    LEXICOGRAPHIC_UP_TO,
    NotExact,
    Selection,
    _greedy,
    _parts,
    conflicts,
    max_weight_independent,
)


def _brute_force(members, weights, cliques, edges):
    """The heaviest conflict-free subset; on a tie the one keeping the earliest members."""
    members = sorted(members)
    clash = {(i, j) for g in cliques for i in g for j in g if i != j}
    clash |= {(i, j) for i, j in edges} | {(j, i) for i, j in edges}
    best, best_key = set(), (-1.0, ())
    for r in range(len(members) + 1):
        for subset in itertools.combinations(members, r):
            if any((i, j) in clash for i in subset for j in subset):
                continue
            total = round(sum(weights[i] for i in subset), 9)
            order = tuple(1 if m in subset else 0 for m in members)  # earliest first
            if (total, order) > best_key:
                best, best_key = set(subset), (total, order)
    return best


def _random_part(rng, n):
    members = list(range(n))
    weights = [rng.choice([0.5, 1.0, 1.0, 2.0, 3.0]) for _ in members]
    cliques = []
    pool = members[:]
    rng.shuffle(pool)
    while len(pool) >= 2 and rng.random() < 0.5:
        size = rng.randint(2, min(3, len(pool)))
        cliques.append(sorted(pool[:size]))
        pool = pool[size:]
    edges = sorted({tuple(sorted(rng.sample(members, 2))) for _ in range(rng.randint(1, n))})
    return members, weights, cliques, edges


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("n", [3, 6, ENUMERATE_UP_TO, ENUMERATE_UP_TO + 1, 15])
def test_the_exact_set_equals_the_brute_force(seed, n):
    rng = random.Random(seed * 100 + n)
    members, weights, cliques, edges = _random_part(rng, n)
    got = max_weight_independent(members, weights, cliques, edges)
    assert got == _brute_force(members, weights, cliques, edges)


def test_a_large_part_keeps_a_heaviest_set():
    n = LEXICOGRAPHIC_UP_TO + 10  # one solve; the bonus for earlier members is below HiGHS's
    path = [(i, i + 1) for i in range(n - 1)]  # tolerance, so only the weight is pinned here

    def independent(kept):  # no two neighbours on the path
        return not any(i + 1 in kept for i in kept)

    got = max_weight_independent(list(range(n)), [1.0] * n, [], path)
    assert len(got) == n // 2 and independent(got)
    heavy = [1.0] * n
    heavy[1] = 5.0  # the second member outweighs its two neighbours
    got = max_weight_independent(list(range(n)), heavy, [], path)
    assert 1 in got and independent(got) and sum(heavy[i] for i in got) == 5 + 34


def test_a_part_without_entailments():
    assert max_weight_independent(
        [4, 7, 9], [0] * 4 + [1.0, 0, 0, 2.0, 0, 2.0], [[4, 7, 9]], []
    ) == {7}
    assert max_weight_independent([4, 7], [0] * 4 + [1.0, 0, 0, 1.0], [[4, 7]], []) == {4}
    assert max_weight_independent([2, 3], [1.0] * 4, [], []) == {2, 3}


def test_a_part_too_large_to_solve_exactly_says_so():
    n = EXACT_UP_TO + 1
    with pytest.raises(NotExact) as stop:
        max_weight_independent(list(range(n)), [1.0] * n, [], [(0, 1)])
    assert str(stop.value) == (
        "a conflict part of 20001 candidates is more than the 20,000 solved exactly here;"
        " kept heaviest first"
    )
    assert stop.value.kept == set()
    assert NotExact("why", {1}).kept == {1}


def test_heaviest_first_when_no_exact_set_was_found():
    weights = [1.0, 3.0, 2.0, 2.0]
    assert _greedy([0, 1, 2, 3], weights, [], [(0, 1), (1, 2), (2, 3)]) == {1, 3}
    assert _greedy([0, 1, 2], [1.0, 1.0, 1.0], [[0, 1, 2]], []) == {0}


def _c(cid, fingerprint, *entails):
    return SimpleNamespace(id=cid, fingerprint=fingerprint, entails=entails)


def test_the_conflict_graph_of_repeats_and_entailments():
    chosen = [_c("a", "x", "b"), _c("b", "y"), _c("c", "y"), _c("d", "z", "e", "a"), _c("a2", "x")]
    groups, pairs = conflicts(chosen, [*chosen, _c("e", "w")])
    assert groups == [[0, 4], [1, 2], [3]]
    # a entails b, and so c (b's repeat), and so does a2 (a's copy); d entails e (not
    # selected) and a, and so a2
    assert pairs == {(0, 1), (0, 2), (0, 3), (3, 4), (1, 4), (2, 4)}
    # the edge is on a copy that is not selected: it still holds for the selected copy
    assert conflicts([_c("x1", "x"), _c("b", "y")], [_c("x0", "x", "b"), _c("b", "y")])[1] == {
        (0, 1)
    }
    own = conflicts([_c("a", "x", "a2"), _c("a2", "x")])  # an edge to a repeat is no conflict
    assert own == ([[0, 1]], set())
    assert conflicts([_c("a", "x", "gone")]) == ([[0]], set())


def test_connected_parts():
    assert sorted(map(sorted, _parts(6, [[0, 4]], {(1, 2), (2, 5)}))) == [[0, 4], [1, 2, 5], [3]]
    assert _parts(0, [], set()) == []


def test_the_json_of_a_selection():
    s = Selection(("a",), (("b", "a repeat of a"),), Ratio(2, 3), Ratio(1, 3), 1.5)
    assert s.to_dict() == {
        "exact": True, "not_exact": None, "kept": ["a"],
        "dropped": [{"id": "b", "reason": "a repeat of a"}],
        "coverage_before": Ratio(2, 3).to_dict(), "coverage_after": Ratio(1, 3).to_dict(),
        "weight_kept": 1.5,
    }  # fmt: skip
    inexact = Selection((), (), Ratio(0, 1), Ratio(0, 1), 0.0, "stopped")
    assert inexact.to_dict()["exact"] is False and inexact.to_dict()["not_exact"] == "stopped"
