"""The memory rule: which audited candidates may be reused as trusted facts.

Metric card (the decomposition seed's memory rule, stated with the decomposition metrics' own
definitions, never decided a second time):
    A candidate of a file may be reused when all of these hold, each read from
    :func:`~claimlab.metrics.decomposition.score_decomposition` or
    :func:`~claimlab.metrics.selection.entity_groups` on the same selection:

    1. it is in the selection and counted there: in the unique selection D*, so neither left
       out of every count (an AMBIGUOUS mapping, untagged background) nor a repeat;
    2. it carries no background (DnDScore's context beside the target: only the target was
       verified, so the candidate's text leans on what nobody checked);
    3. it is faithful, and every unit it preserves is backed by one of its own source spans
       (the metrics' ``unbacked`` is empty), with at least one unit backed;
    4. it is SUPPORTED by a reference about its own entity (``entity_groups``: not listed as
       supported only by another entity's documents);
    5. its labels are confirmed (no proposed label).

    Every other candidate of the file gets the first reason it fails, in that order. The
    trusted ids are always a subset of the unique selection's SUPPORTED, faithful candidates.
    Reference: Chiang & Lee (Findings ACL 2024) for support per entity; the rest is the lab's
    own audit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claimlab.core.frozen import freeze
from claimlab.core.vocab import Status
from claimlab.io.decomposition import Candidate, DecompositionFixture
from claimlab.metrics.decomposition import DecompositionResult, score_decomposition
from claimlab.metrics.selection import entity_groups


@dataclass(frozen=True)
class Trust:
    """What the memory rule decided for every candidate of a file.

    ``trusted``: the ids that may be reused, in selection order; ``reasons``: every other
    candidate of the file and the first rule it fails.
    """

    trusted: tuple[str, ...]
    reasons: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze(self, "reasons")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"trusted": list(self.trusted), "not_trusted": dict(self.reasons)}


def _reason(
    fixture: DecompositionFixture,
    c: Candidate,
    result: DecompositionResult,
    other_entity: set[str],
) -> str | None:
    """The first rule of the metric card that ``c`` fails (None: it may be reused)."""
    if c.id not in result.selection:
        return "not in the selection"
    if c.id in result.left_out:
        return f"not counted: {result.left_out[c.id]}"
    if c.id not in result.unique_ids:
        return "not counted: a repeat of a selected candidate"
    if c.background is not None:
        return "carries background context: only its target was verified"
    if not c.faithful:
        return "not faithful to the original"
    if c.id in result.unbacked:
        return f"{', '.join(result.unbacked[c.id])} not backed by a source span of it"
    if not fixture.counted_units(c):
        return "backs no unit of the original with its source spans"
    if c.evidence.status != Status.SUPPORTED:
        return f"{c.evidence.status}, not SUPPORTED"
    if c.id in other_entity:
        return "SUPPORTED only by another entity's references"
    if c.review:
        return f"proposed labels nobody confirmed: {', '.join(c.review)}"
    return None


def score_trust(fixture: DecompositionFixture, selection: Sequence[str]) -> Trust:
    """The memory rule over one selection of a file (see the module's metric card).

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.decomposition import load_decomposition
        >>> fx = load_decomposition(FIXTURES_DIR / "atlas_nova.json")
        >>> score_trust(fx, []).trusted
        ()
        >>> set(score_trust(fx, fx.candidate_ids).trusted) <= set(fx.candidate_ids)
        True
    """
    result = score_decomposition(fixture, list(selection))
    other = {cid for g in entity_groups(fixture, selection) for cid in g.other_entity}
    reasons: dict[str, str] = {}
    for c in fixture.candidates:
        why = _reason(fixture, c, result, other)
        if why is not None:
            reasons[c.id] = why
    trusted = tuple(cid for cid in result.unique_ids if cid not in reasons)
    return Trust(trusted, reasons)
