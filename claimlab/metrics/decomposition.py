"""Decomposition scoring: does a selection of subclaims keep the original answer, and is it supported?

Metric card (definitions from the decomposition lab's source; all counts, then divisions):
    A  = the original's content units; D = the selection as given (raw, duplicates included);
    D* = D made unique by fingerprint, first occurrence kept; P = members of D* labelled faithful.

    Toy Preservation      = |P| / |D*|
    Toy Original Coverage = |union of units preserved by P| / |A|   (a unit never counts twice)
    Toy Confirmed Support = #SUPPORTED in D* / |D*|
    Toy Raw Support       = #SUPPORTED in D / |D|

    Undefined: an empty selection makes preservation and both supports N/A (0/0); coverage is
    then 0/|A|. CONTRADICTED and NOT_IN_REFERENCE are counted apart: not found is not contradicted.

    Beside them, the cited methods on the same selection:
    DecompScore (Wanner et al., *SEM 2024) = mean over passages of the number of subclaims in D
      that the passage supports (here the file's ``faithful`` label): a count, not a percentage,
      and duplicates count (it rewards repeating a supported claim). One file is one passage.
      It is not on the scale of DnDScore's or the Toy metrics' percentages: compare counts with
      counts.
    Atomicity = #atomic in D* / |D*| (non-atomic candidates counted; N/A for an empty selection).

    A candidate whose mapping is AMBIGUOUS (its source in the original cannot be fixed, e.g. an
    unresolved pronoun) is kept in the audit and listed under ``ambiguous``, and left out of D
    and every count: never silently counted. A candidate's ``background`` (DnDScore's context
    beside the target) is shown apart; only the target is what the labels verify, and
    background that did not come from the original and is not tagged is listed under
    ``untagged_background``.
    Reference: the relations are fixture labels, not the output of a parser or entailment model.
    A draft's labels are proposals: the result lists them (``proposed``) and is not ``gold``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claimlab.core.errors import FixtureError
from claimlab.core.frozen import Plain, freeze
from claimlab.core.ratio import Ratio
from claimlab.core.spans import backing_rule
from claimlab.core.text import same_claim_key
from claimlab.core.vocab import (
    ERROR_KINDS,
    STATUSES,
    TOY_METRICS,
    CandidateState,
    ErrorKind,
    SourceMapping,
    Status,
)
from claimlab.io.declared import written
from claimlab.io.decomposition import Candidate, DecompositionFixture

SUPPORTED = Status.SUPPORTED
CONTRADICTED = Status.CONTRADICTED
NOT_IN_REFERENCE = Status.NOT_IN_REFERENCE

METRICS = TOY_METRICS
METRIC_LABELS = {
    "preservation": "Toy Preservation",
    "coverage": "Toy Original Coverage",
    "confirmed_support": "Toy Confirmed Support",
    "raw_support": "Toy Raw Support",
}


@dataclass(frozen=True)
class AuditRow:
    """One selected candidate, with the two layers kept apart.

    ``original -> subclaim``: spans, preserved units, faithful, atomic, errors.
    ``reference -> subclaim``: evidence status and reference ids.
    ``counted``: whether it is in the unique selection D* (False for a duplicate).
    """

    position: int
    id: str
    text: str
    fingerprint: str
    counted: bool
    duplicate_of: str | None
    source_spans: str
    preserves: tuple[str, ...]
    faithful: bool
    atomic: bool
    errors: tuple[ErrorKind, ...]
    status: Status
    references: tuple[str, ...]
    mapping: SourceMapping = SourceMapping.MAPPED
    background: str = ""
    entity: str = ""
    version: str = ""
    predicate: str = ""
    qualifiers: tuple[str, ...] = ()
    spans: tuple[dict[str, Any], ...] = ()  # each {start, end, text} (UTF-16)
    unbacked: tuple[str, ...] = ()  # preserved units no source span backs (not counted)
    state: CandidateState = CandidateState.COUNTED  # or DUPLICATE, LEFT_OUT
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON form (no float in it: :class:`~claimlab.core.frozen.Plain`)."""
        return Plain(
            {
                "mapping": self.mapping,
                "background": self.background or None,
                "position": self.position,
                "id": self.id,
                "text": self.text,
                "entity": self.entity,
                "version": self.version,
                "predicate": self.predicate,
                "qualifiers": list(self.qualifiers),
                "fingerprint": self.fingerprint,
                "counted": self.counted,
                "duplicate_of": self.duplicate_of,
                "state": self.state,
                "reason": self.reason or None,
                "original_to_subclaim": {
                    "source_spans": self.source_spans,
                    "spans": [dict(sp) for sp in self.spans],
                    "preserves": list(self.preserves),
                    "unbacked_units": list(self.unbacked),
                    "faithful": self.faithful,
                    "atomic": self.atomic,
                    "errors": list(self.errors),
                },
                "reference_to_subclaim": {
                    "status": self.status,
                    "references": list(self.references),
                },
            }
        )


@dataclass(frozen=True)
class DecompositionResult:
    """The four Toy ratios with the ids behind every count."""

    selection: tuple[str, ...]
    unique_ids: tuple[str, ...]
    preservation: Ratio
    coverage: Ratio
    confirmed_support: Ratio
    raw_support: Ratio
    status_counts: Mapping[str, int]
    raw_status_counts: Mapping[str, int]
    faithful_ids: tuple[str, ...]
    preserved_units: tuple[str, ...]
    missing_units: tuple[str, ...]
    duplicates: tuple[str, ...]
    introduced: tuple[str, ...]
    unfaithful: tuple[str, ...]
    non_atomic: tuple[str, ...]
    error_ids: Mapping[str, tuple[str, ...]]
    audit: tuple[AuditRow, ...]
    proposed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    proposed_units: tuple[str, ...] = ()
    decompscore: int = 0  # subclaims of D the passage supports (one passage per file)
    atomicity: Ratio = field(default_factory=lambda: Ratio(0, 0))
    ambiguous: tuple[str, ...] = ()
    untagged_background: tuple[str, ...] = ()
    unbacked: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    left_out: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze(
            self,
            "status_counts",
            "raw_status_counts",
            "error_ids",
            "proposed",
            "unbacked",
            "left_out",
        )

    @property
    def gold(self) -> bool:
        """No selected candidate and no unit holds a label a person has not confirmed."""
        return not self.proposed and not self.proposed_units

    def ratios(self) -> dict[str, Ratio]:
        """The four metrics by key."""
        return {m: getattr(self, m) for m in METRICS}

    def to_dict(self) -> dict[str, Any]:
        """JSON form with the keys of the command line (SPEC §5)."""
        return {
            "selection": list(self.selection),
            "unique_selection": list(self.unique_ids),
            **{m: getattr(self, m).to_dict() for m in METRICS},
            "status_counts": dict(self.status_counts),
            "raw_status_counts": dict(self.raw_status_counts),
            "faithful": list(self.faithful_ids),
            "preserved_units": list(self.preserved_units),
            "missing_units": list(self.missing_units),
            "duplicates": list(self.duplicates),
            "introduced": list(self.introduced),
            "unfaithful": list(self.unfaithful),
            "non_atomic": list(self.non_atomic),
            "errors": {k: list(v) for k, v in self.error_ids.items()},
            "audit": [row.to_dict() for row in self.audit],
            "decompscore": {
                "count": self.decompscore,
                "passages": 1,
                "value": float(self.decompscore),
                "note": "a count of supported subclaims per passage, not a percentage",
            },
            "atomicity": self.atomicity.to_dict(),
            "ambiguous": list(self.ambiguous),
            "untagged_background": list(self.untagged_background),
            "unbacked_units": {k: list(v) for k, v in self.unbacked.items()},
            "left_out": dict(self.left_out),
            "gold": self.gold,
            "proposed_labels": {k: list(v) for k, v in self.proposed.items()},
            "proposed_units": list(self.proposed_units),
        }


def _spans_text(c: Candidate) -> str:
    if not c.source_spans:
        return "(no source span)"
    return "; ".join(f"{s.start}..{s.end} {s.text!r}" for s in c.source_spans)


def _unique(chosen: Sequence[Candidate]) -> tuple[list[Candidate], list[str | None]]:
    """D* (first occurrence of each fingerprint kept) and, for each of D, what it repeats.

    Fingerprints compare as :func:`~claimlab.core.text.same_claim_key` reads them.
    """
    first_by_fp: dict[str, str] = {}
    unique: list[Candidate] = []
    dup_of: list[str | None] = []
    for c in chosen:
        key = same_claim_key(c.fingerprint)
        first = first_by_fp.get(key)
        if first is None:
            first_by_fp[key] = c.id
            unique.append(c)
        dup_of.append(first)
    return unique, dup_of


TOY_RATIOS = ("preservation", "coverage", "confirmed_support", "raw_support")


def _four_counts(
    fixture: DecompositionFixture, chosen: Sequence[Candidate], unique: Sequence[Candidate]
) -> tuple[int, int, int, int, int, int, int, int]:
    """The four Toy ratios' numerators and denominators (in the order of TOY_RATIOS).

    A unit counts as preserved only where a source span of the candidate backs it.
    """
    unit_ids = fixture.unit_ids
    faithful = [c for c in unique if c.faithful]
    preserved = {u for c in faithful for u in fixture.counted_units(c)}
    return (
        len(faithful),
        len(unique),
        sum(1 for u in unit_ids if u in preserved),
        len(unit_ids),
        sum(c.evidence.status == SUPPORTED for c in unique),
        len(unique),
        sum(c.evidence.status == SUPPORTED for c in chosen),
        len(chosen),
    )


def _four(
    fixture: DecompositionFixture, chosen: Sequence[Candidate], unique: Sequence[Candidate]
) -> dict[str, Ratio]:
    """The four Toy ratios from D (``chosen``) and D* (``unique``): the metric card's counts."""
    n = _four_counts(fixture, chosen, unique)
    return {name: Ratio(n[2 * k], n[2 * k + 1]) for k, name in enumerate(TOY_RATIOS)}


def _chosen(fixture: DecompositionFixture, selection: Sequence[str]) -> list[Candidate]:
    """The selected candidates that count (those left out of every count dropped)."""
    return [c for c in map(fixture.candidate, selection) if fixture.left_out(c) is None]


def toy_counts(
    fixture: DecompositionFixture, selection: Sequence[str]
) -> tuple[int, int, int, int, int, int, int, int]:
    """The four Toy ratios' numerators and denominators, in the order of TOY_RATIOS."""
    chosen = _chosen(fixture, selection)
    return _four_counts(fixture, chosen, _unique(chosen)[0])


def toy_ratios(fixture: DecompositionFixture, selection: Sequence[str]) -> dict[str, Ratio]:
    """Only the four Toy ratios of a selection (the figures of :func:`score_decomposition`).

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.decomposition import load_decomposition
        >>> fx = load_decomposition(FIXTURES_DIR / "atlas_nova.json")
        >>> toy_ratios(fx, [])["coverage"].display
        '0.0% (0/5)'
    """
    chosen = _chosen(fixture, selection)
    return _four(fixture, chosen, _unique(chosen)[0])


def score_decomposition(
    fixture: DecompositionFixture, selection: Sequence[str]
) -> DecompositionResult:
    """Score a selection of candidate ids against the fixture's labels.

    Args:
        fixture: A loaded decomposition file.
        selection: Candidate ids in the order selected; duplicates are kept (that is the raw list).

    Returns:
        The four ratios, status counts over the unique selection, and the ids behind them.

    Raises:
        FixtureError: when an id is not a candidate of the fixture.

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.decomposition import load_decomposition
        >>> fx = load_decomposition(FIXTURES_DIR / "atlas_nova.json")
        >>> r = score_decomposition(fx, fx.candidate_ids[:5])
        >>> r.confirmed_support.display, r.coverage.display
        ('60.0% (3/5)', '100.0% (5/5)')
        >>> empty = score_decomposition(fx, [])
        >>> empty.preservation.display, empty.coverage.display
        ('N/A (0/0)', '0.0% (0/5)')
    """
    picked = [fixture.candidate(cid) for cid in selection]
    left_out = {c.id: why for c in picked if (why := fixture.left_out(c)) is not None}
    chosen = [c for c in picked if c.id not in left_out]
    unique, dup_of = _unique(chosen)
    audit = _audit_rows(fixture, picked, dup_of, left_out)
    duplicates = [c.id for c, d in zip(chosen, dup_of, strict=True) if d is not None]
    faithful = [c for c in unique if c.faithful]
    preserved = {u for c in faithful for u in fixture.counted_units(c)}
    unit_ids = fixture.unit_ids
    error_ids = {str(kind): tuple(c.id for c in unique if kind in c.errors) for kind in ERROR_KINDS}
    return DecompositionResult(
        selection=tuple(selection),
        unique_ids=tuple(c.id for c in unique),
        **_four(fixture, chosen, unique),
        status_counts={str(s): sum(c.evidence.status == s for c in unique) for s in STATUSES},
        raw_status_counts={str(s): sum(c.evidence.status == s for c in chosen) for s in STATUSES},
        faithful_ids=tuple(c.id for c in faithful),
        preserved_units=tuple(u for u in unit_ids if u in preserved),
        missing_units=tuple(u for u in unit_ids if u not in preserved),
        duplicates=tuple(duplicates),
        introduced=error_ids["introduced"],
        unfaithful=tuple(c.id for c in unique if not c.faithful),
        non_atomic=tuple(c.id for c in unique if not c.atomic),
        error_ids=error_ids,
        audit=tuple(audit),
        proposed={c.id: c.review for c in chosen if c.review},
        proposed_units=fixture.proposed_units,
        decompscore=sum(1 for c in chosen if c.faithful),
        atomicity=Ratio(sum(1 for c in unique if c.atomic), len(unique)),
        ambiguous=tuple(c.id for c in picked if c.mapping == SourceMapping.AMBIGUOUS),
        untagged_background=tuple(c.id for c in picked if c.untagged_background),
        unbacked={c.id: un for c in unique if c.faithful and (un := fixture.unbacked_units(c))},
        left_out=left_out,
    )


def _audit_rows(
    fixture: DecompositionFixture,
    picked: Sequence[Candidate],
    dup_of: Sequence[str | None],
    left_out: Mapping[str, str],
) -> list[AuditRow]:
    """One row per selected candidate: both layers, its state and the reason for it.

    ``dup_of`` holds, for each counted-kind candidate of the selection in order, what it repeats.
    """
    rows: list[AuditRow] = []
    marks = iter(dup_of)
    for pos, c in enumerate(picked):
        dup = None if c.id in left_out else next(marks)
        unbacked = fixture.unbacked_units(c) if c.faithful else ()
        if c.id in left_out:
            state, reason = CandidateState.LEFT_OUT, left_out[c.id]
        elif dup is not None:
            state, reason = CandidateState.DUPLICATE, f"repeats {dup} (the same fingerprint)"
        else:
            state = CandidateState.COUNTED
            reason = (
                f"{', '.join(unbacked)} not counted: no source span lies in it "
                f"({backing_rule(fixture.span_cover)})"
                if unbacked
                else ""
            )
        rows.append(
            AuditRow(
                position=pos + 1,
                id=c.id,
                text=c.text,
                fingerprint=c.fingerprint,
                counted=state == CandidateState.COUNTED,
                duplicate_of=dup,
                source_spans=_spans_text(c),
                preserves=c.preserves,
                faithful=c.faithful,
                atomic=c.atomic,
                errors=c.errors,
                status=c.evidence.status,
                references=c.evidence.references,
                mapping=c.mapping,
                background=c.background.text if c.background else "",
                entity=c.entity,
                version=c.version,
                predicate=c.predicate,
                qualifiers=c.qualifiers,
                spans=tuple(written(sp) for sp in c.source_spans),
                unbacked=unbacked,
                state=state,
                reason=reason,
            )
        )
    return rows


ALL_CANDIDATES = "all candidates"


def named_selections(
    fixture: DecompositionFixture, modes: str | Sequence[str] = "all"
) -> dict[str, tuple[str, ...]]:
    """The selections a lab walks through: ``"all"`` of the file's modes, one name, or a list.

    A file without modes (they are optional) gives one selection, every candidate in file
    order, named ``"all candidates"``.

    Raises:
        FixtureError: an unknown mode name, or a name that is not a string.

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.decomposition import load_decomposition
        >>> fx = load_decomposition(FIXTURES_DIR / "atlas_nova.json")
        >>> list(named_selections(fx, "baseline")), len(named_selections(fx))
        (['baseline'], 9)
    """
    if isinstance(modes, str):
        if modes == "all":
            if not fixture.modes:
                return {ALL_CANDIDATES: fixture.candidate_ids}
            return dict(fixture.modes)
        names: list[str] = [modes]
    else:
        names = list(modes)
    out = {}
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise FixtureError(
                f"a mode name must be a string, got {name!r}",
                file=fixture.source,
                field=f"MODES[{i}]",
            )
        out[name] = fixture.mode(name)
    return out
