"""Core-style selection: between decomposition and verification, keep unique, informative subclaims.

Metric card (after Jiang et al., "Core: Robust Factual Precision with Informative Sub-Claim
Identification", Findings of ACL 2025):
    The selection D is a graph: two candidates conflict when they repeat each other (the same
    fingerprint, as the file labels them) or when one entails the other (an ``entails`` edge
    of the file, from any checker the user ran: the entailed one says nothing the other does
    not). An edge is between claims, not ids: what one copy of a claim entails, every copy
    entails, and every copy of the entailed claim is entailed. Each candidate has a weight
    (the file's ``weight``, its informativeness, default 1; 0 marks an uninformative
    subclaim, which is dropped). The step keeps the set of
    candidates without two in conflict whose total weight is largest (a maximum-weight
    independent set), solved exactly: per connected part of the conflict graph, a clique (a
    repeat group) keeps its heaviest member, a part of up to 12 candidates is searched subset by
    subset, and anything larger is an integer programme (``scipy.optimize.milp``: maximise the
    kept weight, at most one of each conflicting pair, at most one of each repeat group, with
    no optimality gap). On a tie the earliest candidates of the selection are kept: each in turn
    is kept whenever the largest weight is still reachable with it (in a part of more than 60,
    by one solve that prefers earlier candidates by a bonus far below any weight). A connected
    part of more than 20,000 candidates, or one whose programme does not finish in 60 s, is
    kept heaviest first instead, and the result says it is not proven the heaviest.
    Each drop comes with its reason: uninformative, a repeat of a kept candidate, entailed by
    a kept one, or entailing kept ones whose weight together is larger.
    Coverage after selection is the Toy Original Coverage of what is kept: de-duplication does
    not promise that every unit survives (a dropped candidate may have been the only one
    preserving a unit).
    Undefined: an empty selection keeps nothing; its coverage is 0/|A|.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.core.ratio import Ratio
from claimlab.core.text import same_claim_key
from claimlab.io.decomposition import Candidate, DecompositionFixture
from claimlab.io.reader import bulk_load
from claimlab.metrics.decomposition import score_decomposition, toy_ratios

TOLERANCE = 1e-9
ENUMERATE_UP_TO = 12  # a part of at most this many candidates is solved by trying every subset
LEXICOGRAPHIC_UP_TO = 60  # up to this many, ties go to the earliest by one solve per member
LARGE_PART_SECONDS = 60.0  # the integer programme of one large part stops here, said so
EXACT_UP_TO = 20_000  # a larger connected part is kept heaviest first, and said to be inexact


class NotExact(Exception):
    """A large part's programme stopped before proving its optimum: the best set found, and why."""

    def __init__(self, why: str, kept: set[int] | None = None) -> None:
        super().__init__(why)
        self.kept = kept or set()


@dataclass(frozen=True)
class Selection:
    """What the step kept, what it dropped and why, and the coverage before and after."""

    kept: tuple[str, ...]
    dropped: tuple[tuple[str, str], ...]  # (candidate id, reason)
    coverage_before: Ratio
    coverage_after: Ratio
    weight_kept: float
    not_exact: str = ""  # why the kept set is not proven the heaviest ("" when it is)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "exact": not self.not_exact,
            "not_exact": self.not_exact or None,
            "kept": list(self.kept),
            "dropped": [{"id": c, "reason": r} for c, r in self.dropped],
            "coverage_before": self.coverage_before.to_dict(),
            "coverage_after": self.coverage_after.to_dict(),
            "weight_kept": self.weight_kept,
        }


def entailed_claims(candidates: Sequence[Candidate]) -> dict[str, set[str]]:
    """What each claim entails: per fingerprint, the fingerprints that any copy of it entails.

    A claim is its fingerprint: every candidate with it is the same claim, so an ``entails``
    edge that the file (or its checker) wrote on one copy holds for every copy, and it reaches
    every copy of the entailed one. An edge between two copies of one claim is no entailment.
    """
    fingerprint_of = {c.id: same_claim_key(c.fingerprint) for c in candidates}
    out: dict[str, set[str]] = {}
    for c in candidates:
        mine = same_claim_key(c.fingerprint)
        for other in c.entails:
            fp = fingerprint_of.get(other)
            if fp is not None and fp != mine:
                out.setdefault(mine, set()).add(fp)
    return out


def conflicts(
    chosen: Sequence[Candidate], every: Sequence[Candidate] | None = None
) -> tuple[list[list[int]], set[tuple[int, int]]]:
    """The conflict graph of a selection: repeat groups (by fingerprint) and entailment pairs.

    Positions, not ids: a candidate listed twice is two members of one repeat group. An
    entailment is between claims (:func:`entailed_claims` over ``every``, the file's
    candidates; default ``chosen``): it joins every selected copy of the entailing claim to
    every selected copy of the entailed one, whether or not the copies carrying the edge are
    selected.
    """
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(chosen):
        groups.setdefault(same_claim_key(c.fingerprint), []).append(i)
    entailed = entailed_claims(chosen if every is None else every)
    pairs: set[tuple[int, int]] = set()
    for fp, members in groups.items():
        for other in entailed.get(fp, ()):
            for i in members:
                for j in groups.get(other, ()):
                    pairs.add((min(i, j), max(i, j)))
    return list(groups.values()), pairs


def _parts(n: int, groups: list[list[int]], pairs: set[tuple[int, int]]) -> list[list[int]]:
    """The connected parts of the conflict graph over positions 0..n-1 (union-find)."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for g in groups:
        for j in g[1:]:
            parent[root(j)] = root(g[0])
    for i, j in pairs:
        parent[root(j)] = root(i)
    parts: dict[int, list[int]] = {}
    for i in range(n):
        parts.setdefault(root(i), []).append(i)
    return list(parts.values())


def max_weight_independent(
    members: list[int],
    weights: Sequence[float],
    cliques: list[list[int]],
    edges: list[tuple[int, int]],
) -> set[int]:
    """The exact maximum-weight set of one connected part without two members in conflict.

    ``cliques`` are the part's repeat groups of two or more, ``edges`` its entailment pairs.
    A part that is one repeat group keeps its heaviest member (the earliest on a tie); a
    small part is searched subset by subset, a larger one solved with ``scipy.optimize.milp``,
    the earliest members kept first among the sets of the largest weight.
    """
    if not edges:
        if len(cliques) == 1:
            return {max(members, key=lambda i: (weights[i], -i))}
        return set(members)
    if len(members) <= ENUMERATE_UP_TO:
        return _enumerate(sorted(members), weights, cliques, edges)
    if len(members) > EXACT_UP_TO:
        raise NotExact(
            f"a conflict part of {len(members)} candidates is more than the {EXACT_UP_TO:,} solved"
            " exactly here; kept heaviest first"
        )
    return _milp_lexicographic(sorted(members), weights, cliques, edges)


def _neighbours(
    members: list[int], cliques: list[list[int]], edges: list[tuple[int, int]]
) -> dict[int, set[int]]:
    """Each member's conflicting members: the rest of its repeat group, and its entailment pairs."""
    near: dict[int, set[int]] = {m: set() for m in members}
    for g in cliques:
        for a in g:
            near[a].update(x for x in g if x != a)
    for i, j in edges:
        near[i].add(j)
        near[j].add(i)
    return near


def _enumerate(
    members: list[int],
    weights: Sequence[float],
    cliques: list[list[int]],
    edges: list[tuple[int, int]],
) -> set[int]:
    """Every independent subset of a small part; the heaviest, the earliest members on a tie."""
    n = len(members)
    at = {m: k for k, m in enumerate(members)}
    near = _neighbours(members, cliques, edges)
    clash = [sum(1 << at[x] for x in near[m]) for m in members]
    best_mask, best_key = 0, (-1.0, 0)
    for mask in range(1 << n):
        if any(mask >> k & 1 and mask & clash[k] for k in range(n)):
            continue
        total = round(sum(weights[members[k]] for k in range(n) if mask >> k & 1), 9)
        # the earliest members first: member 0 is the highest bit of the order key
        order = sum(1 << (n - 1 - k) for k in range(n) if mask >> k & 1)
        if (total, order) > best_key:
            best_mask, best_key = mask, (total, order)
    return {members[k] for k in range(n) if best_mask >> k & 1}


def _milp_lexicographic(
    members: list[int],
    weights: Sequence[float],
    cliques: list[list[int]],
    edges: list[tuple[int, int]],
) -> set[int]:
    """The part's maximum-weight independent set by integer programming (no optimality gap).

    Up to ``LEXICOGRAPHIC_UP_TO`` members, the earliest are kept first among the optimal sets
    (one solve per member); a larger part is solved once, earlier members preferred by a bonus
    far below any weight (a billionth of the smallest), so the kept weight is still the largest.
    """
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    n = len(members)
    at = {m: k for k, m in enumerate(members)}
    rows = [[at[i] for i in g] for g in cliques] + [[at[i], at[j]] for i, j in edges]
    cols = [k for r in rows for k in r]
    indptr = np.cumsum([0, *(len(r) for r in rows)])
    a = csr_matrix((np.ones(len(cols)), cols, indptr), shape=(len(rows), n))
    w = np.array([weights[m] for m in members], dtype=float)
    constraint = LinearConstraint(a, -np.inf, 1)
    integrality = np.ones(n)
    exact = {"mip_rel_gap": 0.0}

    def best(c: Any, low: Any) -> tuple[float, Any]:
        res = milp(c, constraints=constraint, integrality=integrality, bounds=Bounds(low, 1),
                   options=exact)  # fmt: skip
        return (-res.fun, res.x) if res.success else (-np.inf, None)

    if n > LEXICOGRAPHIC_UP_TO:
        bonus = 1e-9 * float(w[w > 0].min()) * (n - np.arange(n)) / n
        res = milp(-(w + bonus), constraints=constraint, integrality=integrality,
                   bounds=Bounds(0, 1), options={**exact, "time_limit": LARGE_PART_SECONDS})  # fmt: skip
        if res.x is None:
            raise NotExact(f"no solution found within {LARGE_PART_SECONDS:g} s for {n} candidates")
        kept = {members[k] for k in range(n) if res.x[k] > 0.5}
        if res.status != 0:
            raise NotExact(
                f"stopped at {LARGE_PART_SECONDS:g} s on a conflict part of {n} candidates "
                f"(gap {res.mip_gap:.2g})",
                kept,
            )
        return kept
    lower = np.zeros(n)
    target, x = best(-w, lower)
    for k in range(n):
        if x is not None and x[k] > 0.5:
            lower[k] = 1  # already kept by an optimal set: keep it
            continue
        trial = lower.copy()
        trial[k] = 1
        value, tx = best(-w, trial)
        if value >= target - TOLERANCE * max(1.0, abs(target)):
            lower, x = trial, tx
    return {members[k] for k in range(n) if lower[k] == 1}


@bulk_load()  # a pass over acyclic records: no garbage cycle to collect
def core_select(fixture: DecompositionFixture, selection: Sequence[str]) -> Selection:
    """Apply Core-style selection to a selection of candidate ids (see the metric card).

    Raises:
        FixtureError: an unknown candidate id.

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.decomposition import load_decomposition
        >>> fx = load_decomposition(FIXTURES_DIR / "atlas_nova.json")
        >>> ids = fx.candidate_ids[:5] + fx.candidate_ids[:1]
        >>> s = core_select(fx, ids)
        >>> len(s.kept), len(s.dropped), s.coverage_after == s.coverage_before
        (5, 1, True)
    """
    chosen = [fixture.candidate(cid) for cid in selection]
    weights = [c.weight for c in chosen]
    dropped = {i: "uninformative (weight 0)" for i, w in enumerate(weights) if w <= 0}
    live = [i for i in range(len(chosen)) if i not in dropped]
    groups, pairs = conflicts([chosen[i] for i in live], fixture.candidates)
    groups = [[live[k] for k in g] for g in groups]
    pairs = {(live[i], live[j]) for i, j in pairs}
    kept: set[int] = set()
    parts = _parts_of(live, groups, pairs)
    part_of = {i: k for k, part in enumerate(parts) for i in part}
    cliques: list[list[list[int]]] = [[] for _ in parts]
    edges: list[list[tuple[int, int]]] = [[] for _ in parts]
    for g in groups:
        if len(g) > 1:
            cliques[part_of[g[0]]].append(g)
    for i, j in pairs:
        edges[part_of[i]].append((i, j))
    not_exact = []
    for k, part in enumerate(parts):
        try:
            kept |= max_weight_independent(part, weights, cliques[k], edges[k])
        except NotExact as stop:
            kept |= stop.kept or _greedy(part, weights, cliques[k], edges[k])
            not_exact.append(str(stop))
    idx = _kept_index(chosen, kept, pairs, entailed_claims(fixture.candidates))
    for i in live:
        if i not in kept:
            dropped[i] = _why_dropped(i, chosen, weights, idx)
    kept_ids = tuple(chosen[i].id for i in sorted(kept))
    return Selection(
        kept=kept_ids,
        dropped=tuple((chosen[i].id, dropped[i]) for i in sorted(dropped)),
        coverage_before=toy_ratios(fixture, list(selection))["coverage"],
        coverage_after=toy_ratios(fixture, list(kept_ids))["coverage"],
        weight_kept=float(sum(weights[i] for i in kept)),
        not_exact="; ".join(not_exact),
    )


def _greedy(
    members: list[int],
    weights: Sequence[float],
    cliques: list[list[int]],
    edges: list[tuple[int, int]],
) -> set[int]:
    """A conflict-free set, heaviest first (only when a large part's programme found none)."""
    clash = _neighbours(members, cliques, edges)
    kept: set[int] = set()
    for m in sorted(members, key=lambda i: (-weights[i], i)):
        if not clash[m] & kept:
            kept.add(m)
    return kept


def _parts_of(
    live: list[int], groups: list[list[int]], pairs: set[tuple[int, int]]
) -> list[list[int]]:
    """Connected parts over the live positions (mapped to 0..n-1 and back)."""
    at = {p: k for k, p in enumerate(live)}
    local = _parts(
        len(live), [[at[i] for i in g] for g in groups], {(at[i], at[j]) for i, j in pairs}
    )
    return [[live[k] for k in part] for part in local]


class _Kept:
    """What the reasons look up: the first kept of each fingerprint, kept neighbours by position.

    A working index of one call, not a record: it is built, read and dropped inside it.
    """

    def __init__(
        self, first_of: dict[str, int], near: dict[int, list[int]], entailed: dict[str, set[str]]
    ) -> None:
        self.first_of = first_of
        self.near = near
        self.entailed = entailed


def _kept_index(
    chosen: Sequence[Candidate],
    kept: set[int],
    pairs: set[tuple[int, int]],
    entailed: dict[str, set[str]],
) -> _Kept:
    first_of: dict[str, int] = {}
    for k in sorted(kept):
        first_of.setdefault(same_claim_key(chosen[k].fingerprint), k)
    near: dict[int, list[int]] = {}
    for i, j in pairs:
        if j in kept:
            near.setdefault(i, []).append(j)
        if i in kept:
            near.setdefault(j, []).append(i)
    return _Kept(first_of, near, entailed)


def _why_dropped(i: int, chosen: Sequence[Candidate], weights: Sequence[float], idx: _Kept) -> str:
    """The reason one live candidate was not kept, naming the kept ones it conflicts with."""
    c = chosen[i]
    key = same_claim_key(c.fingerprint)
    first = idx.first_of.get(key)
    if first is not None:
        keeper = chosen[first].id
        again = " (the same id again)" if keeper == c.id else ""
        return f"repeats {keeper}{again} (the same fingerprint)"
    near = sorted(set(idx.near.get(i, ())))
    by = [
        chosen[k].id
        for k in near
        if key in idx.entailed.get(same_claim_key(chosen[k].fingerprint), ())
    ]
    if by:
        return f"entailed by {', '.join(by)} (it says nothing the kept one does not)"
    named = [chosen[k].id for k in near]
    total = sum(weights[k] for k in near)
    return (
        f"entails {', '.join(named)}, kept instead: together they weigh {total:g} against its"
        f" {weights[i]:g}"
    )


@dataclass(frozen=True)
class EntityGroup:
    """The selected candidates about one entity and version, with their own figures."""

    entity: str
    version: str
    ids: tuple[str, ...]
    preservation: Ratio
    confirmed_support: Ratio
    errors: tuple[str, ...]  # ids with an error in this group
    other_entity: tuple[str, ...] = ()  # SUPPORTED, but only by another entity's references

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "entity": self.entity,
            "version": self.version,
            "ids": list(self.ids),
            "preservation": self.preservation.to_dict(),
            "confirmed_support": self.confirmed_support.to_dict(),
            "with_errors": list(self.errors),
            "supported_by_another_entity": list(self.other_entity),
        }


def entity_groups(
    fixture: DecompositionFixture, selection: Sequence[str]
) -> tuple[EntityGroup, ...]:
    """The unique selection grouped by the entity and version each candidate is about.

    Metric card (after D-FActScore, Chiang & Lee, Findings ACL 2024, which scores each entity
    apart instead of pooling): a candidate belongs to the group of its ``entity`` and
    ``version`` (a candidate about several, written ``A; B`` with versions ``1; 2``, belongs to
    each); per group, Toy Preservation and Toy Confirmed Support over its unique candidates. A
    claim attached to the wrong product counts against that product's group: it is in the
    group it names, unfaithful. A group's support counts only against that entity's
    references: a SUPPORTED candidate counts in a group when one of its references is about
    that entity (a reference's ``entity``; one without is about any), and is listed apart
    when only another entity's documents support it.
    """
    result = score_decomposition(fixture, list(selection))
    about = {r.id: r.entity.strip() for r in fixture.references}
    groups: dict[tuple[str, str], list[str]] = {}
    for cid in result.unique_ids:
        c = fixture.candidate(cid)
        entities = [e.strip() for e in c.entity.split(";")]
        versions = [v.strip() for v in c.version.split(";")]
        if len(versions) != len(entities):
            versions = [c.version.strip()] * len(entities)
        for e, v in zip(entities, versions, strict=True):
            groups.setdefault((e, v), []).append(cid)
    out = []
    for (e, v), ids in groups.items():
        cands = [fixture.candidate(i) for i in ids]
        supported = [c for c in cands if c.evidence.status == "SUPPORTED"]
        own = {c.id for c in supported if any(about[r] in ("", e) for r in c.evidence.references)}
        out.append(
            EntityGroup(
                entity=e,
                version=v,
                ids=tuple(ids),
                preservation=Ratio(sum(1 for c in cands if c.faithful), len(cands)),
                confirmed_support=Ratio(len(own), len(cands)),
                errors=tuple(c.id for c in cands if c.errors),
                other_entity=tuple(c.id for c in supported if c.id not in own),
            )
        )
    return tuple(out)
