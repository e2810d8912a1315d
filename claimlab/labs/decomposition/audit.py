"""The audit record: everything one audit of one answer version decided, kept (Report + Memory).

Every candidate of the file appears, selected or not, with its state and the reason for it:
``counted`` (in the unique selection), ``duplicate`` (a repeat of a counted candidate),
``ambiguous`` (its source in the original cannot be fixed: kept, never counted),
``untagged background`` (context from outside the original, not tagged: kept, never counted),
``proposed``
(labels nobody has confirmed), ``dropped by selection`` (Core-style selection: a repeat or
uninformative), ``not selected``. The record carries the answer's id and version and the
figures; a revised answer is a new version audited again, and its record lists the earlier
version's figures beside its own. Each candidate keeps what the decomposition seed asks an
audit row to keep: entity, version, predicate and qualifiers, its source spans (UTF-16), the units
it preserves and those that count (a source span backs them), its reference ids, its state
and the reason, and whether the memory rule (:mod:`claimlab.metrics.memory`) lets it be reused
as a trusted fact (``trusted``; ``not_trusted_because`` the first rule it fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from claimlab.core.errors import FixtureError
from claimlab.core.vocab import CandidateState, SourceMapping
from claimlab.io.declared import written
from claimlab.io.decomposition import DecompositionFixture
from claimlab.metrics.decomposition import METRICS, DecompositionResult, score_decomposition
from claimlab.metrics.memory import score_trust
from claimlab.metrics.selection import core_select

if TYPE_CHECKING:
    from claimlab.io.decomposition import Candidate
    from claimlab.metrics.decomposition import AuditRow

AUDIT_FORMAT = "claimlab/audit@1"


def _figures(fixture: DecompositionFixture, r: DecompositionResult) -> dict[str, Any]:
    return {
        "version": fixture.original.version,
        "selection": list(r.selection),
        **{m: getattr(r, m).to_dict() for m in METRICS},
        "atomicity": r.atomicity.to_dict(),
        "decompscore": r.decompscore,
        "gold": r.gold,
    }


def _entry(
    fixture: DecompositionFixture, c: Candidate, row: AuditRow | None, dropped: dict[str, str]
) -> dict[str, Any]:
    """One candidate of the record: what the seed asks an audit row to keep, state and reason."""
    if row is None:
        state, reason = CandidateState.NOT_SELECTED, "the selection does not hold it"
    elif c.mapping == SourceMapping.AMBIGUOUS:
        state = CandidateState.AMBIGUOUS
        reason = "its source in the original cannot be fixed; not counted"
    elif c.untagged_background:
        state, reason = CandidateState.UNTAGGED_BACKGROUND, str(fixture.left_out(c))
    elif not row.counted:
        state = CandidateState.DUPLICATE
        reason = f"repeats {row.duplicate_of} (the same fingerprint)"
    else:
        state, reason = CandidateState.COUNTED, row.reason
    entry: dict[str, Any] = {
        "id": c.id,
        "text": c.text,
        "entity": c.entity,
        "version": c.version,
        "predicate": c.predicate,
        "qualifiers": list(c.qualifiers),
        "source_spans": [written(sp) for sp in c.source_spans],
        "preserves": list(c.preserves),
        "counted_units": list(fixture.counted_units(c)),
        "state": state,
        "reason": reason or None,
        "faithful": c.faithful,
        "atomic": c.atomic,
        "errors": list(c.errors),
        "status": str(c.evidence.status),
        "references": list(c.evidence.references),
    }
    if c.entails:
        entry["entails"] = list(c.entails)
    if c.review:
        entry["proposed"] = list(c.review)
    if c.id in dropped:
        entry["selection_step"] = dropped[c.id]
    if c.background is not None:
        entry["background"] = {
            "text": c.background.text,
            "from_original": c.background.from_original,
            "tagged": c.background.tagged,
        }
    return entry


def audit_record(
    fixture: DecompositionFixture,
    selection: Sequence[str],
    *,
    previous: tuple[DecompositionFixture, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The audit record of one selection (see the module); ``previous``: the earlier version.

    Raises:
        FixtureError: ``previous`` is not a version of the same answer.
    """
    r = score_decomposition(fixture, selection)
    dropped = dict(core_select(fixture, selection).dropped)
    by_row = {row.id: row for row in r.audit}
    candidates = [_entry(fixture, c, by_row.get(c.id), dropped) for c in fixture.candidates]
    trust = score_trust(fixture, selection)  # the memory rule: what may be reused as a fact
    for entry in candidates:
        entry["trusted"] = entry["id"] not in trust.reasons
        entry["not_trusted_because"] = trust.reasons.get(entry["id"])
    record: dict[str, Any] = {
        "format": AUDIT_FORMAT,
        "answer": fixture.original.id,
        "file": fixture.source,
        "figures": _figures(fixture, r),
        "candidates": candidates,
        "versions": [],
    }
    if previous is not None:
        before, before_selection = previous
        if before.original.id != fixture.original.id:
            raise FixtureError(
                f"is not a version of answer {fixture.original.id!r} (it is "
                f"{before.original.id!r})",
                file=before.source,
                field="original.id",
            )
        earlier = score_decomposition(before, before_selection)
        record["versions"] = [_figures(before, earlier), record["figures"]]
    return record
