"""Core-style selection: between decomposition and verification, keep unique, informative subclaims.

Metric card (after Jiang et al., "Core: Robust Factual Precision with Informative Sub-Claim
Identification", Findings of ACL 2025):
    The selection D is a graph: two candidates conflict when they repeat each other (the same
    fingerprint, as the file labels them). Each candidate has a weight (the file's ``weight``,
    default 1; 0 marks an uninformative subclaim, which is dropped). The step keeps the set of
    candidates without two in conflict whose total weight is largest (a maximum-weight
    independent set; the conflict graph is a union of cliques, one per repeat group, so the
    exact solution keeps the heaviest member of each, the earliest on a tie) and drops the
    rest, each with its reason: a repeat of the kept candidate, or uninformative.
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
from claimlab.io.decomposition import DecompositionFixture
from claimlab.metrics.decomposition import find_decomposition


@dataclass(frozen=True)
class Selection:
    """What the step kept, what it dropped and why, and the coverage before and after."""

    kept: tuple[str, ...]
    dropped: tuple[tuple[str, str], ...]  # (candidate id, reason)
    coverage_before: Ratio
    coverage_after: Ratio
    weight_kept: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "kept": list(self.kept),
            "dropped": [{"id": c, "reason": r} for c, r in self.dropped],
            "coverage_before": self.coverage_before.to_dict(),
            "coverage_after": self.coverage_after.to_dict(),
            "weight_kept": self.weight_kept,
        }


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
    n = len(chosen)
    dropped: dict[int, str] = {}
    for i in range(n):
        if weights[i] <= 0:
            dropped[i] = "uninformative (weight 0)"
    live = [i for i in range(n) if i not in dropped]
    # conflicts: repeats of one another (the same fingerprint); components are the repeat groups
    groups: dict[str, list[int]] = {}
    for i in live:
        groups.setdefault(chosen[i].fingerprint, []).append(i)
    kept: set[int] = set()
    for members in groups.values():
        best = _best_independent(members, weights)
        kept.update(best)
        first = min(best) if best else None
        for i in members:
            if i not in best:
                keeper = chosen[first].id if first is not None else "another candidate"
                same = (
                    " (the same id again)" if first is not None and chosen[i].id == keeper else ""
                )
                dropped[i] = f"repeats {keeper}{same} (the same fingerprint)"
    kept_ids = tuple(chosen[i].id for i in sorted(kept))
    before = find_decomposition(fixture, list(selection)).coverage
    after = find_decomposition(fixture, list(kept_ids)).coverage
    return Selection(
        kept=kept_ids,
        dropped=tuple((chosen[i].id, dropped[i]) for i in sorted(dropped)),
        coverage_before=before,
        coverage_after=after,
        weight_kept=float(sum(weights[i] for i in kept)),
    )


def _best_independent(members: list[int], weights: list[float]) -> set[int]:
    """The maximum-weight set of one repeat group without two members in conflict.

    Every two members of a repeat group conflict (the conflict graph is a union of cliques),
    so the exact maximum keeps one member: the heaviest, the earliest on a tie.
    """
    if not members:
        return set()
    return {max(members, key=lambda i: (weights[i], -i))}


@dataclass(frozen=True)
class EntityGroup:
    """The selected candidates about one entity and version, with their own figures."""

    entity: str
    version: str
    ids: tuple[str, ...]
    preservation: Ratio
    confirmed_support: Ratio
    errors: tuple[str, ...]  # ids with an error in this group

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "entity": self.entity,
            "version": self.version,
            "ids": list(self.ids),
            "preservation": self.preservation.to_dict(),
            "confirmed_support": self.confirmed_support.to_dict(),
            "with_errors": list(self.errors),
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
    group it names, unfaithful.
    """
    result = find_decomposition(fixture, list(selection))
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
        out.append(
            EntityGroup(
                entity=e,
                version=v,
                ids=tuple(ids),
                preservation=Ratio(sum(1 for c in cands if c.faithful), len(cands)),
                confirmed_support=Ratio(
                    sum(1 for c in cands if c.evidence.status == "SUPPORTED"), len(cands)
                ),
                errors=tuple(c.id for c in cands if c.errors),
            )
        )
    return tuple(out)
