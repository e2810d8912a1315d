"""Load claimlab files into frozen, typed records, with every cross-check done once at the edge.

Format ``claimlab/decomposition@1`` (see README, "File formats"): an original answer, its content
units (spans in UTF-16 code units, end exclusive), reference documents, candidate subclaims with
both layers kept apart (original -> subclaim: spans, preserves, faithful, errors; reference ->
subclaim: evidence status and reference ids), named selections (``modes``), and optionally the
game's rules (``game``: slots and puzzles), a ``note`` about the file and ``exercises``.

A *draft* (written by ``claimlab draft``, then annotated) marks what a person has not yet
confirmed: a candidate's ``review`` lists its proposed labels, a unit's ``review`` is
``["span"]`` when the unit was proposed, ``confirmed`` says who confirmed a candidate and when,
and ``annotation`` names the annotator. The cross-checks between a candidate's labels (a
faithful candidate preserves a unit, ...) wait until it is confirmed; the structural checks
(ids, spans equal to their UTF-16 slice) never wait.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast

import msgspec

from claimlab.core.errors import FixtureError
from claimlab.core.spans import BACKING_SHARE, Utf16Text, span_backs
from claimlab.core.vocab import (
    ERROR_KINDS,
    REVIEW_FIELDS,
    STATUSES,
    ErrorKind,
    SourceMapping,
    Status,
    unknown,
)
from claimlab.io.lesson import Exercise, read_exercises
from claimlab.io.reader import Record, bulk_load, check_unique, describe, nfc_json, read_json

DECOMPOSITION_FORMAT = "claimlab/decomposition@1"
# One spelling (NFC) for ids, entities, labels, modes and every name; the texts stay as written,
# since the UTF-16 offsets of the spans point into them and composing characters would move them.
AS_WRITTEN = frozenset({"text"})
__all__ = [
    "ERROR_KINDS",
    "REVIEW_FIELDS",
    "STATUSES",
    "confirmed_count",
    "load_decomposition",
    "read_decomposition",
]


@dataclass(frozen=True)
class Span:
    """A span into a text: UTF-16 ``start`` (inclusive), ``end`` (exclusive), and the quoted text."""

    start: int
    end: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"start": self.start, "end": self.end, "text": self.text}


@dataclass(frozen=True)
class EvidenceSpan:
    """A span into a reference document."""

    reference: str
    start: int
    end: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "reference": self.reference,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }


@dataclass(frozen=True)
class Original:
    """The answer snapshot the candidates were split from."""

    id: str
    version: str
    text: str


@dataclass(frozen=True)
class Unit:
    """A content unit of the original answer (``proposed``: by a draft, not yet confirmed)."""

    id: str
    span: Span
    proposed: bool = False


@dataclass(frozen=True)
class Reference:
    """A reference document."""

    id: str
    title: str
    version: str
    text: str
    entity: str = ""  # whom the document is about ("" any): a group's support counts only these


@dataclass(frozen=True)
class Evidence:
    """Reference -> subclaim layer: the status and the reference ids (and optional spans)."""

    status: Status
    references: tuple[str, ...]
    spans: tuple[EvidenceSpan, ...] = ()


@dataclass(frozen=True)
class Candidate:
    """A candidate subclaim with both layers kept apart."""

    id: str
    text: str
    entity: str
    version: str
    predicate: str
    qualifiers: tuple[str, ...]
    source_spans: tuple[Span, ...]
    fingerprint: str
    preserves: tuple[str, ...]
    faithful: bool
    atomic: bool
    errors: tuple[ErrorKind, ...]
    evidence: Evidence
    review: tuple[str, ...] = ()
    confirmed: Confirmation | None = None
    alignment: float | None = None
    weight: float = 1.0  # how informative (Core-style selection); 0: uninformative
    mapping: SourceMapping = SourceMapping.MAPPED  # AMBIGUOUS: audited, never counted
    background: Background | None = None
    entails: tuple[str, ...] = ()  # candidates it entails (redundancy edges of a checker)

    @property
    def untagged_background(self) -> bool:
        """Whether it carries context from outside the original that is not tagged as such."""
        return _untagged(self.background)


def _untagged(b: Background | _BackgroundShape | None) -> bool:
    """Background from outside the original that is not tagged as such."""
    return b is not None and not b.from_original and not b.tagged


@dataclass(frozen=True)
class Background:
    """Context a candidate carries beside its target (DnDScore): only the target is verified.

    ``from_original``: the context comes from the original answer; context from elsewhere
    must be ``tagged`` as such.
    """

    text: str
    from_original: bool
    tagged: bool = False


@dataclass(frozen=True)
class Confirmation:
    """Who confirmed a candidate's labels, and when (ISO 8601)."""

    by: str
    at: str


@dataclass(frozen=True)
class Annotation:
    """The ``annotation`` section: who annotates the file and when it last changed."""

    annotator: str
    updated: str
    changes: int


@dataclass(frozen=True)
class Puzzle:
    """A starting position of the decomposition game."""

    name: str
    start: tuple[str, ...]
    title: str
    note: str = ""


DEFAULT_SLOTS = 7
# a preserved unit counts when more than this share of a source span's own length lies in it
SPAN_COVER = BACKING_SHARE
FREE_PUZZLE = Puzzle("free", (), "Free play", "Start from an empty selection.")


@dataclass(frozen=True)
class DecompositionRules:
    """The decomposition game as the file describes it (``game``), or the defaults.

    Without a ``game`` section: 7 slots and one puzzle, ``free``, starting empty.
    """

    slots: int = DEFAULT_SLOTS
    puzzles: Mapping[str, Puzzle] = field(
        default_factory=lambda: MappingProxyType({FREE_PUZZLE.name: FREE_PUZZLE})
    )

    def puzzle(self, name: str | None) -> Puzzle:
        """A puzzle by name (None or "": the first one).

        Raises:
            ValueError: naming the puzzles there are.
        """
        if not name:
            return next(iter(self.puzzles.values()))
        if name not in self.puzzles:
            raise ValueError(unknown("puzzle", name, self.puzzles))
        return self.puzzles[name]


@dataclass(frozen=True)
class DecompositionFixture:
    """A loaded, checked decomposition file."""

    source: str
    original: Original
    units: tuple[Unit, ...]
    references: tuple[Reference, ...]
    candidates: tuple[Candidate, ...]
    modes: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    game: DecompositionRules = field(default_factory=DecompositionRules)
    note: str = ""
    exercises: tuple[Exercise, ...] = ()
    annotation: Annotation | None = None
    decomposer: str = ""  # who split the answer (``claimlab draft --decomposer``); "" unknown
    span_cover: float = SPAN_COVER  # the share of a source span that must lie in a unit it backs
    language: str = ""  # the file's ``language`` (BCP 47, e.g. "tr"); "" when not stated
    _by_id: Mapping[str, Candidate] = field(init=False, repr=False, compare=False)
    _unit_span: Mapping[str, Span] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", MappingProxyType({c.id: c for c in self.candidates}))
        object.__setattr__(self, "_unit_span", MappingProxyType({u.id: u.span for u in self.units}))

    def backs(self, c: Candidate, unit: str) -> bool:
        """Whether one of the candidate's source spans lies in the unit (it backs the unit).

        The rule is :func:`claimlab.core.spans.span_backs`: most of the span's own length
        (more than half, or ``span_cover`` of it when the file asks for more) falls inside
        the unit, and more than one character does.
        """
        u = self._unit_span[unit]
        where = (u.start, u.end)
        share = self.span_cover
        return any(
            span_backs((s.start, s.end), s.text, where, u.text, share=share) for s in c.source_spans
        )

    def counted_units(self, c: Candidate) -> tuple[str, ...]:
        """The units a candidate preserves that its source spans back (the ones that count)."""
        return tuple(u for u in c.preserves if self.backs(c, u))

    def unbacked_units(self, c: Candidate) -> tuple[str, ...]:
        """The units a candidate says it preserves but no source span of it backs."""
        return tuple(u for u in c.preserves if not self.backs(c, u))

    @property
    def unbacked_claims(self) -> dict[str, tuple[str, ...]]:
        """Faithful counted candidate id -> the units it preserves that no span of it backs.

        Only candidates with such units, in file order (shown with their count by
        :func:`claimlab.core.spans.unbacked_line`).
        """
        return {
            c.id: un
            for c in self.candidates
            if c.faithful and self.left_out(c) is None and (un := self.unbacked_units(c))
        }

    @staticmethod
    def left_out(c: Candidate) -> str | None:
        """Why a candidate is kept in the audit but left out of every count (None: counted)."""
        if c.mapping == SourceMapping.AMBIGUOUS:
            return "ambiguous mapping: its source in the original cannot be fixed"
        if c.untagged_background:
            return "background from outside the original, not tagged: never counted"
        return None

    @property
    def unit_ids(self) -> tuple[str, ...]:
        """Unit ids in file order."""
        return tuple(u.id for u in self.units)

    @property
    def candidate_ids(self) -> tuple[str, ...]:
        """Candidate ids in file order."""
        return tuple(c.id for c in self.candidates)

    @property
    def proposed(self) -> dict[str, tuple[str, ...]]:
        """Candidate id -> the labels still proposed (only candidates with some)."""
        return {c.id: c.review for c in self.candidates if c.review}

    @property
    def proposed_units(self) -> tuple[str, ...]:
        """Ids of the units a draft proposed and nobody has confirmed."""
        return tuple(u.id for u in self.units if u.proposed)

    @property
    def is_draft(self) -> bool:
        """Whether any label or unit is still proposed: then the file is not a gold set."""
        return bool(self.proposed or self.proposed_units)

    def candidate(self, cid: str) -> Candidate:
        """The candidate with id ``cid``.

        Raises:
            FixtureError: naming the unknown id.
        """
        found = self._by_id.get(cid) if isinstance(cid, str) else None
        if found is not None:
            return found
        ids = self.candidate_ids
        known = ", ".join(ids[:12]) + (f", ... ({len(ids)} in all)" if len(ids) > 12 else "")
        raise FixtureError(
            f"unknown candidate id (known: {known})", file=self.source, record=str(cid)
        )

    def mode(self, name: str) -> tuple[str, ...]:
        """The candidate ids of a named selection."""
        if name not in self.modes:
            known = ", ".join(self.modes) or "none: the file has no modes"
            raise FixtureError(
                f"unknown mode (known: {known})", file=self.source, field=f"modes.{name}"
            )
        return self.modes[name]


def _hint(text: str, start: int, end: int, quoted: str) -> str:
    """Why a span's offsets may be wrong (computed only for an error message)."""
    if quoted and text[start:end] == quoted:
        return "; the offsets look like code points, not UTF-16 units"
    if quoted and text.encode("utf-8")[start:end].decode("utf-8", "replace") == quoted:
        return "; the offsets look like UTF-8 bytes, not UTF-16 units"
    return ""


def _span(rec: Record, name: str, text: Utf16Text, *, against: str, where: str) -> Span:
    start = rec.get("start", int)
    end = rec.get("end", int)
    quoted = rec.get("text", str)
    n = text.n
    if not (0 <= start <= end <= n):
        bad = f"{where}.start" if not (0 <= start <= n) or start > end else f"{where}.end"
        raise rec.error(
            f"span {start}..{end} is outside {against} (0..{n} UTF-16 units)"
            + _hint(text.text, start, end, quoted),
            field=bad,
        )
    try:
        actual = text.slice(start, end)
    except ValueError as exc:
        # name the offset that falls inside a surrogate pair
        try:
            text.slice(0, start)
            bad = f"{where}.end"
        except ValueError:
            bad = f"{where}.start"
        raise rec.error(f"{exc} of {against}", field=bad) from None
    if actual != quoted:
        raise rec.error(
            f"does not match the UTF-16 slice {start}..{end} of {against} "
            f"(got {quoted!r}, slice is {actual!r}{_hint(text.text, start, end, quoted)})",
            field=f"{where}.text",
        )
    return Span(start, end, quoted)


@bulk_load()  # records without cycles: no collector pass over them
def load_decomposition(path: str | Path) -> DecompositionFixture:
    """Load and check a ``claimlab/decomposition@1`` file.

    Checks: format and ``offset_unit``; required fields and types; unique ids; every referenced id
    exists; every span's text equals the UTF-16 slice of the original; a faithful candidate
    preserves at least one unit; a candidate with errors is not faithful; SUPPORTED and
    CONTRADICTED cite at least one reference.

    Raises:
        FixtureError: naming the file, the record id and the field.
    """
    return read_decomposition(read_document(path), source=str(path))


def read_document(path: str | Path) -> Any:
    """A decomposition file parsed, not yet checked: names in NFC, texts as written (AS_WRITTEN).

    Raises:
        FixtureError: the file cannot be read or is not JSON (naming the file).
    """
    return read_json(path, as_written=AS_WRITTEN)


def candidate_problems(c: Candidate, units: Mapping[str, Span]) -> list[tuple[str, str]]:
    """The cross-checks between one candidate's labels, as ``(field, problem)`` pairs.

    A confirmed candidate must pass them all (the loader refuses the first problem); a
    candidate under review may not yet (the annotator refuses to confirm it until it does).
    """
    problems: list[tuple[str, str]] = []
    if c.faithful and c.errors:
        problems.append(
            ("faithful", f"a candidate with errors {list(c.errors)} cannot be faithful")
        )
    if c.faithful and not c.preserves:
        problems.append(("preserves", "a faithful candidate must preserve at least one unit"))
    if c.faithful and not c.source_spans:
        problems.append(
            (
                "source_spans",
                "a faithful candidate needs a source span in the original (where does the answer"
                " say it?)",
            )
        )
    if c.faithful:
        kept = [units[u] for u in c.preserves if u in units]
        for j, sp in enumerate(c.source_spans):
            if kept and not any(sp.start < u.end and u.start < sp.end for u in kept):
                problems.append(
                    (
                        f"source_spans[{j}]",
                        f"span {sp.start}..{sp.end} lies outside every unit it preserves "
                        f"({', '.join(c.preserves)})",
                    )
                )
    status = c.evidence.status
    if status in (Status.SUPPORTED, Status.CONTRADICTED) and not c.evidence.references:
        problems.append(
            ("evidence.references", f"status {status} must cite at least one reference")
        )
    return problems


def confirmed_count(units: Iterable[Any], candidates: Iterable[Any]) -> int:
    """What a person confirmed in a file: units no longer proposed, candidates with no review.

    0 marks a draft nobody annotated (every unit and candidate still proposed); a checked
    file with confirmed units and ``"candidates": []`` is not one (a decomposer that gave
    nothing is what the lab exists to show). Reads ``proposed`` of each unit and ``review``
    of each candidate, so records and decoded shapes count alike.
    """
    return sum(1 for u in units if not u.proposed) + sum(1 for c in candidates if not c.review)


@bulk_load()  # records without cycles: no collector pass over them
def read_decomposition(data: Any, *, source: str) -> DecompositionFixture:
    """Check a parsed ``claimlab/decomposition@1`` document (see :func:`load_decomposition`).

    A well-formed document is read by :func:`_read_fast`; anything it does not accept is read
    again field by field, which names the first problem (file, record, field) or, where the
    fast reader was only cautious, reads it to the same records.
    """
    fast = _read_fast(data, source)
    if fast is not None:
        return fast
    return _read_careful(data, source)


def _careful_candidate(
    c: Record,
    encoded: Utf16Text,
    unit_span: Mapping[str, Span],
    ref_text: Mapping[str, str],
    ref_encoded: dict[str, Utf16Text],
) -> Candidate:
    """One candidate, field by field in file order; the first problem raised."""
    cid = c.get("id", str)
    spans = _careful_source_spans(c, cid, encoded)
    preserves = c.str_list("preserves")
    _all_known(c, "preserves", preserves, unit_span, "unit id", listed=False)
    raw_errors = c.str_list("errors")
    _all_known(c, "errors", raw_errors, ERROR_KINDS, "error kind")
    errors = tuple(ErrorKind(e) for e in raw_errors)
    faithful = c.get("faithful", bool)
    ev = c.sub("evidence")
    status, refs = _careful_evidence(ev, ref_text)
    review = c.str_list("review", ())
    _all_known(c, "review", review, REVIEW_FIELDS, "label")
    confirmed = None
    if c.data.get("confirmed") is not None:
        cf = c.sub("confirmed")
        confirmed = Confirmation(cf.get("by", str), cf.get("at", str))
    alignment = None
    if c.data.get("alignment") is not None:
        alignment = float(c.sub("alignment").number("score", minimum=0, maximum=100))
    ev_spans = _careful_evidence_spans(ev, cid, refs, ref_text, ref_encoded)
    candidate = Candidate(
        id=cid,
        text=c.get("text", str),
        entity=c.get("entity", str),
        version=c.get("version", str),
        predicate=c.get("predicate", str),
        qualifiers=c.str_list("qualifiers"),
        source_spans=tuple(spans),
        fingerprint=c.get("fingerprint", str),
        preserves=preserves,
        faithful=faithful,
        atomic=c.get("atomic", bool),
        errors=errors,
        evidence=Evidence(status, refs, tuple(ev_spans)),
        review=review,
        confirmed=confirmed,
        alignment=alignment,
        weight=float(c.number("weight", minimum=0, maximum=1e9, default=1.0)),
        mapping=_mapping(c),
        background=_background(c),
        entails=c.str_list("entails", ()),
    )
    if not review:
        for where, problem in candidate_problems(candidate, unit_span):
            raise c.error(problem, field=where)
    return candidate


def _careful_source_spans(c: Record, cid: str, encoded: Utf16Text) -> list[Span]:
    """A candidate's source spans, each a UTF-16 slice of the original text."""
    spans = []
    for j, s in c.records("source_spans", id_field=None):
        s.record = cid
        spans.append(
            _span(s, "source_spans", encoded, against="original.text", where=f"source_spans[{j}]")
        )
    return spans


def _all_known(
    c: Record,
    name: str,
    values: Sequence[str],
    allowed: Collection[str],
    what: str,
    *,
    listed: bool = True,
) -> None:
    """Refuse the first value of a list that is not among the allowed ones, naming its index."""
    for j, value in enumerate(values):
        if value not in allowed:
            one_of = f" (one of {', '.join(allowed)})" if listed else ""
            raise c.error(f"unknown {what} {value!r}{one_of}", field=f"{name}[{j}]")


def _careful_evidence(ev: Record, ref_text: Mapping[str, str]) -> tuple[Status, tuple[str, ...]]:
    """The evidence's status and reference ids, each checked."""
    status = ev.choice("status", Status, "status", field="evidence.status")
    refs = ev.str_list("references")
    for j, rid in enumerate(refs):
        if rid not in ref_text:
            raise ev.error(f"unknown reference id {rid!r}", field=f"evidence.references[{j}]")
    return status, refs


def _careful_evidence_spans(
    ev: Record,
    cid: str,
    refs: Sequence[str],
    ref_text: Mapping[str, str],
    ref_encoded: dict[str, Utf16Text],
) -> list[EvidenceSpan]:
    """The evidence spans, each in one of the cited references' texts."""
    ev_spans: list[EvidenceSpan] = []
    for j, s in ev.records("spans", id_field=None) if "spans" in ev.data else ():
        s.record = cid
        rid = s.get("reference", str)
        if rid not in refs:
            raise s.error(
                f"reference {rid!r} is not among evidence.references",
                field=f"evidence.spans[{j}].reference",
            )
        if rid not in ref_encoded:
            ref_encoded[rid] = Utf16Text(ref_text[rid])
        sp = _span(
            s,
            "spans",
            ref_encoded[rid],
            against=f"reference {rid} text",
            where=f"evidence.spans[{j}]",
        )
        ev_spans.append(EvidenceSpan(rid, sp.start, sp.end, sp.text))
    return ev_spans


def _read_careful(data: Any, source: str) -> DecompositionFixture:
    """The field-by-field reader: every check in file order, the first problem raised."""
    top = Record(nfc_json(data, as_written=AS_WRITTEN, file=source), file=source)
    fmt = top.get("format", str)
    if fmt != DECOMPOSITION_FORMAT:
        raise top.error(f"expected {DECOMPOSITION_FORMAT!r}, got {fmt!r}", field="format")
    unit_kind = top.get("offset_unit", str)
    if unit_kind != "utf16":
        raise top.error(
            f"must be 'utf16' (UTF-16 code units, end exclusive), got {unit_kind!r}",
            field="offset_unit",
        )
    o = top.sub("original")
    original = Original(o.get("id", str), o.get("version", str), o.get("text", str))
    o.record = original.id
    encoded = Utf16Text(original.text)
    units = [_careful_unit(u, encoded) for _, u in top.records("units")]
    check_unique([u.id for u in units], file=source, field="units")
    references = [
        Reference(
            r.get("id", str),
            r.get("title", str),
            r.get("version", str),
            r.get("text", str),
            r.get("entity", str, ""),
        )
        for _, r in top.records("references")
    ]
    check_unique([r.id for r in references], file=source, field="references")
    ref_text = {r.id: r.text for r in references}
    ref_encoded: dict[str, Utf16Text] = {}
    unit_span = {u.id: u.span for u in units}
    candidates = [
        _careful_candidate(c, encoded, unit_span, ref_text, ref_encoded)
        for _, c in top.records("candidates")
    ]
    check_unique([c.id for c in candidates], file=source, field="candidates")
    cand_set = {c.id for c in candidates}
    bad_edge = _entails_problem(candidates, cand_set)
    if bad_edge is not None:
        cid, where, why = bad_edge
        raise FixtureError(why, file=source, record=cid, field=where)
    return DecompositionFixture(
        source=source,
        original=original,
        units=tuple(units),
        references=tuple(references),
        candidates=tuple(candidates),
        modes=MappingProxyType(_careful_modes(top, source, cand_set)),
        game=_game(top, cand_set),
        note=top.get("note", str, ""),
        exercises=read_exercises(top),
        annotation=_annotation(top),
        decomposer=_decomposer(top),
        span_cover=_span_cover(top),
        language=top.get("language", str, ""),
    )


def _careful_unit(u: Record, encoded: Utf16Text) -> Unit:
    """One unit: its span of the original, and whether it is still proposed."""
    review = u.str_list("review", ())
    for j, name in enumerate(review):
        if name != "span":
            raise u.error(
                f"unknown label {name!r} (a unit's review lists 'span')", field=f"review[{j}]"
            )
    return Unit(
        u.get("id", str),
        _span(u.sub("span"), "span", encoded, against="original.text", where="span"),
        proposed=bool(review),
    )


def _careful_modes(top: Record, source: str, cand_set: set[str]) -> dict[str, tuple[str, ...]]:
    """The file's named selections: each a list of its candidate ids."""
    modes: dict[str, tuple[str, ...]] = {}
    for name, ids in top.mapping("modes", {}):
        if not isinstance(ids, list):
            raise FixtureError(
                f"must be a list of candidate ids, got {describe(ids)}",
                file=source,
                record=name,
                field=f"modes.{name}",
            )
        for j, cid in enumerate(ids):
            if not isinstance(cid, str):
                raise FixtureError(
                    f"must be a candidate id (a string), got {describe(cid)}",
                    file=source,
                    record=name,
                    field=f"modes.{name}[{j}]",
                )
            if cid not in cand_set:
                raise FixtureError(
                    f"unknown candidate id {cid!r}",
                    file=source,
                    record=name,
                    field=f"modes.{name}[{j}]",
                )
        modes[name] = tuple(ids)
    return modes


def _entails_problem(
    candidates: Sequence[Candidate], cand_set: set[str]
) -> tuple[str, str, str] | None:
    """The first ``entails`` edge to an unknown candidate or to itself, as (id, field, problem)."""
    for c in candidates:
        for j, other in enumerate(c.entails):
            if other not in cand_set:
                return c.id, f"entails[{j}]", f"unknown candidate id {other!r}"
            if other == c.id:
                return c.id, f"entails[{j}]", "a candidate cannot entail itself"
    return None


def _span_cover(top: Record) -> float:
    """``span_cover``: the share of a source span that must lie in a unit it backs (0.5..1).

    Default 0.5: more than half of the span (see :func:`claimlab.core.spans.span_backs`).
    """
    return float(top.number("span_cover", minimum=SPAN_COVER, maximum=1, default=SPAN_COVER))


def _decomposer(top: Record) -> str:
    """``decomposer``: the name of whoever split the answer (optional, default "")."""
    return str(top.get("decomposer", str, ""))


def _mapping(c: Record) -> SourceMapping:
    """``mapping``: MAPPED (default) or AMBIGUOUS (its source cannot be fixed)."""
    return c.choice("mapping", SourceMapping, "mapping", "MAPPED", field="mapping")


def _background(c: Record) -> Background | None:
    """``background``: ``{"text": str, "from_original": bool, "tagged": bool}`` (optional)."""
    if c.data.get("background") is None:
        return None
    b = c.sub("background")
    return Background(
        b.get("text", str), b.get("from_original", bool), b.get("tagged", bool, False)
    )


def _annotation(top: Record) -> Annotation | None:
    """``annotation``: ``{"annotator": str, "updated": str, "log": [changes]}``."""
    if top.data.get("annotation") is None:
        return None
    a = top.sub("annotation")
    log = a.get("log", list, [])
    return Annotation(a.get("annotator", str, ""), a.get("updated", str, ""), len(log))


def _game(top: Record, cand_set: set[str]) -> DecompositionRules:
    """``game``: ``{"slots": 7, "puzzles": {NAME: {"start": [ids], "title": str, "note": str}}}``."""
    if "game" not in top.data:
        return DecompositionRules()
    g = top.sub("game")
    slots = g.number("slots", minimum=1, maximum=10_000, integer=True, default=DEFAULT_SLOTS)
    puzzles: dict[str, Puzzle] = {}
    for name, raw in g.mapping("puzzles", {}):
        p = Record(raw, file=g.file, record=name, path=g.field(f"puzzles.{name}"))
        start = p.str_list("start", ())
        for j, cid in enumerate(start):
            if cid not in cand_set:
                raise p.error(f"unknown candidate id {cid!r}", field=p.field(f"start[{j}]"))
            if cid in start[:j]:
                raise p.error(
                    f"{cid} is listed twice (a slot holds one candidate)",
                    field=p.field(f"start[{j}]"),
                )
        if len(start) > slots:
            raise p.error(
                f"starts with {len(start)} candidates but the game has {slots} slots",
                field=p.field("start"),
            )
        puzzles[name] = Puzzle(name, start, p.get("title", str, name), p.get("note", str, ""))
    if not puzzles:
        puzzles[FREE_PUZZLE.name] = FREE_PUZZLE
    return DecompositionRules(int(slots), MappingProxyType(puzzles))


# ------------------------------------------------------------------------------ the fast reader
#
# Reading many small files (a folder of 100,000 annotated answers) is dominated by checking them
# field by field. The fast reader lets ``msgspec`` check every field's type against the shape of
# the format (in C), then checks the rules between fields and builds the same records; at the
# first thing it does not accept it gives up (returns None) and the careful reader reads the
# document again, naming the problem. It never raises and never accepts what the careful reader
# refuses (tests/hostile reads every generated document both ways).

StatusWord = Literal["SUPPORTED", "CONTRADICTED", "NOT_IN_REFERENCE"]
ErrorWord = Literal["introduced", "qualifier", "entity", "version"]
ReviewWord = Literal["source_spans", "preserves", "faithful", "atomic", "errors", "evidence"]


class _SpanShape(msgspec.Struct):
    start: int
    end: int
    text: str


class _EvSpanShape(msgspec.Struct):
    reference: str
    start: int
    end: int
    text: str


class _EvidenceShape(msgspec.Struct):
    status: StatusWord
    references: list[str]
    spans: list[_EvSpanShape] = []


class _ConfirmedShape(msgspec.Struct):
    by: str
    at: str


class _AlignmentShape(msgspec.Struct):
    score: float


class _BackgroundShape(msgspec.Struct):
    text: str
    from_original: bool
    tagged: bool = False


class _CandidateShape(msgspec.Struct):
    id: str
    text: str
    entity: str
    version: str
    predicate: str
    qualifiers: list[str]
    source_spans: list[_SpanShape]
    fingerprint: str
    preserves: list[str]
    faithful: bool
    atomic: bool
    errors: list[ErrorWord]
    evidence: _EvidenceShape
    review: list[ReviewWord] = []
    confirmed: _ConfirmedShape | None = None
    alignment: _AlignmentShape | None = None
    weight: float = 1.0
    mapping: Literal["MAPPED", "AMBIGUOUS"] = "MAPPED"  # the values of SourceMapping
    background: _BackgroundShape | None = None
    entails: list[str] = []

    @property
    def untagged_background(self) -> bool:
        """As :attr:`Candidate.untagged_background`."""
        return _untagged(self.background)


class _UnitShape(msgspec.Struct):
    id: str
    span: _SpanShape
    review: list[Literal["span"]] = []

    @property
    def proposed(self) -> bool:
        """As :attr:`Unit.proposed`."""
        return bool(self.review)


class _ReferenceShape(msgspec.Struct):
    id: str
    title: str
    version: str
    text: str
    entity: str = ""


class _OriginalShape(msgspec.Struct):
    id: str
    version: str
    text: str


class _AnnotationShape(msgspec.Struct):
    annotator: str = ""
    updated: str = ""
    log: list[Any] = []


class _DocumentShape(msgspec.Struct):
    format: Literal["claimlab/decomposition@1"]
    offset_unit: Literal["utf16"]
    original: _OriginalShape
    units: list[_UnitShape]
    references: list[_ReferenceShape]
    candidates: list[_CandidateShape]
    modes: dict[str, list[str]] = {}
    decomposer: str = ""
    annotation: _AnnotationShape | None = None
    note: str = ""
    language: str = ""
    span_cover: float = SPAN_COVER
    game: Any = msgspec.UNSET  # read by the careful reader's rules (see _sections)
    exercises: Any = msgspec.UNSET


class _Refuse(Exception):
    """The fast reader gives up: the careful reader decides."""


_new = object.__new__
_STATUS_OF = {str(s): s for s in STATUSES}
_ERROR_OF = {str(e): e for e in ERROR_KINDS}
_NO_GAME = DecompositionRules()  # frozen: one for every file without a game section
_FAST_GIVES_UP = (_Refuse, msgspec.MsgspecError, TypeError, ValueError, RecursionError)


def _make(cls: type[Any], **fields: Any) -> Any:
    """A frozen record of ``cls`` with every field given (its checks are the reader's, done).

    Eight times cheaper than the generated ``__init__``, which sets each field through
    ``object.__setattr__``; the records compare equal to those the careful reader builds.
    """
    obj = _new(cls)
    obj.__dict__.update(fields)
    return obj


class _Slicer(Utf16Text):
    """UTF-16 slices of one text, checked against the spans of the fast reader's shapes."""

    __slots__ = ()

    def check(self, s: _SpanShape | _EvSpanShape) -> None:
        """Refuse a span outside the text or whose text is not the slice it names."""
        start, end = s.start, s.end
        if not 0 <= start <= end <= self.n:
            raise _Refuse
        try:
            actual = self.slice(start, end)
        except ValueError:
            raise _Refuse from None
        if actual != s.text:
            raise _Refuse


def _check_units(shape: _DocumentShape, original: _Slicer) -> dict[str, _SpanShape]:
    """Every unit's span checked, ids distinct and not empty: unit id -> span."""
    unit_span = {}
    for u in shape.units:
        original.check(u.span)
        unit_span[u.id] = u.span
    if len(unit_span) != len(shape.units) or "" in unit_span:
        raise _Refuse
    return unit_span


def _check_references(shape: _DocumentShape) -> dict[str, _Slicer | str]:
    """Reference ids distinct and not empty: id -> text (a slicer once a span needs one)."""
    refs: dict[str, _Slicer | str] = {r.id: r.text for r in shape.references}
    if len(refs) != len(shape.references) or "" in refs:
        raise _Refuse
    return refs


def _check_evidence(ev: _EvidenceShape, refs: dict[str, _Slicer | str]) -> None:
    for r in ev.references:
        if r not in refs:
            raise _Refuse
    for s in ev.spans:
        if s.reference not in ev.references:
            raise _Refuse
        slicer = refs[s.reference]
        if isinstance(slicer, str):
            slicer = refs[s.reference] = _Slicer(slicer)
        slicer.check(s)


def _check_candidate(
    c: _CandidateShape,
    original: _Slicer,
    unit_span: Mapping[str, _SpanShape],
    refs: dict[str, _Slicer | str],
) -> None:
    if not c.id:
        raise _Refuse
    for u in c.preserves:
        if u not in unit_span:
            raise _Refuse
    if not 0 <= c.weight <= 1e9 or (c.alignment is not None and not 0 <= c.alignment.score <= 100):
        raise _Refuse
    for s in c.source_spans:
        original.check(s)
    _check_evidence(c.evidence, refs)
    # the shapes answer every attribute the cross-checks read, with the same values
    if not c.review and candidate_problems(cast(Candidate, c), cast(Mapping[str, Span], unit_span)):
        raise _Refuse


def _check_shape(shape: _DocumentShape, source: str) -> dict[str, Any]:
    """Every rule of the format on a decoded document, no record built; returns its sections.

    Raises:
        _Refuse: at the first thing the fast reader does not vouch for.
    """
    original = _Slicer(shape.original.text)
    unit_span = _check_units(shape, original)
    refs = _check_references(shape)
    for c in shape.candidates:
        _check_candidate(c, original, unit_span, refs)
    cand_set = {c.id for c in shape.candidates}
    if len(cand_set) != len(shape.candidates):
        raise _Refuse
    if _entails_problem(cast(Sequence[Candidate], shape.candidates), cand_set) is not None:
        raise _Refuse
    sections = _sections(shape, source, cand_set)
    if sections is None:
        raise _Refuse
    return sections


def _span_record(s: _SpanShape) -> Span:
    return _make(Span, start=s.start, end=s.end, text=s.text)  # type: ignore[no-any-return]


def _evidence_record(ev: _EvidenceShape) -> Evidence:
    spans = tuple(
        _make(EvidenceSpan, reference=s.reference, start=s.start, end=s.end, text=s.text)
        for s in ev.spans
    )
    return _make(  # type: ignore[no-any-return]
        Evidence, status=_STATUS_OF[ev.status], references=tuple(ev.references), spans=spans
    )


def _candidate_record(c: _CandidateShape) -> Candidate:
    b = c.background
    return _make(  # type: ignore[no-any-return]
        Candidate,
        id=c.id,
        text=c.text,
        entity=c.entity,
        version=c.version,
        predicate=c.predicate,
        qualifiers=tuple(c.qualifiers),
        source_spans=tuple(_span_record(s) for s in c.source_spans),
        fingerprint=c.fingerprint,
        preserves=tuple(c.preserves),
        faithful=c.faithful,
        atomic=c.atomic,
        errors=tuple(_ERROR_OF[e] for e in c.errors),
        evidence=_evidence_record(c.evidence),
        review=tuple(c.review),
        confirmed=None if c.confirmed is None else Confirmation(c.confirmed.by, c.confirmed.at),
        alignment=None if c.alignment is None else float(c.alignment.score),
        weight=float(c.weight),
        mapping=SourceMapping(c.mapping),
        background=None if b is None else Background(b.text, b.from_original, b.tagged),
        entails=tuple(c.entails),
    )


def _records(shape: _DocumentShape, sections: dict[str, Any], source: str) -> DecompositionFixture:
    """The records of a checked document (see :func:`_check_shape`)."""
    o = shape.original
    return DecompositionFixture(
        source=source,
        original=Original(o.id, o.version, o.text),
        units=tuple(
            _make(Unit, id=u.id, span=_span_record(u.span), proposed=bool(u.review))
            for u in shape.units
        ),
        references=tuple(
            _make(
                Reference, id=r.id, title=r.title, version=r.version, text=r.text, entity=r.entity
            )
            for r in shape.references
        ),
        candidates=tuple(_candidate_record(c) for c in shape.candidates),
        **sections,
    )


def _checked(data: Any, source: str) -> tuple[_DocumentShape, dict[str, Any]] | None:
    """A parsed document as its checked shape and sections, or None where the fast reader gives up."""
    try:
        shape = msgspec.convert(nfc_json(data, as_written=AS_WRITTEN, file=source), _DocumentShape)
        return shape, _check_shape(shape, source)
    except _FAST_GIVES_UP:
        return None


def _read_fast(data: Any, source: str) -> DecompositionFixture | None:
    """The document's records when every rule holds, else None (see the section's note)."""
    checked = _checked(data, source)
    return None if checked is None else _records(*checked, source)


def fast_check(data: Any, *, source: str) -> bool:
    """Whether the fast reader vouches for a parsed document (no record built).

    Where it does not, :func:`read_decomposition` names the problem or reads it after all.
    """
    return _checked(data, source) is not None


def fast_view(data: Any, *, source: str) -> DecompositionFixture | None:
    """A parsed document checked by the fast reader, its records not built; None where it gives up.

    For reading many files whose records are only looked at, never kept: the fixture holds
    the decoded shapes in place of the records. They answer every attribute of the records
    that :func:`claimlab.metrics.agreement_items.file_items` and the Toy ratios read, with
    equal values (a vocabulary word is its plain string, which equals its enum member);
    tests/hostile reads generated documents both ways and compares. Where this returns
    None, read the file with :func:`read_decomposition`: it names the problem or reads it.
    """
    checked = _checked(data, source)
    if checked is None:
        return None
    shape, sections = checked
    return DecompositionFixture(
        source=source,
        original=cast(Original, shape.original),
        units=cast(tuple[Unit, ...], tuple(shape.units)),
        references=cast(tuple[Reference, ...], tuple(shape.references)),
        candidates=cast(tuple[Candidate, ...], tuple(shape.candidates)),
        **sections,
    )


def _sections(shape: _DocumentShape, source: str, cand_set: set[str]) -> dict[str, Any] | None:
    """Modes, game, note, exercises and annotation, as the careful reader reads them."""
    for name, ids in shape.modes.items():
        if not name or any(i not in cand_set for i in ids):
            return None
    if not SPAN_COVER <= shape.span_cover <= 1:
        return None
    rare = {k: v for k in ("game", "exercises") if (v := getattr(shape, k)) is not msgspec.UNSET}
    rec = Record(rare, file=source)
    a = shape.annotation
    try:
        return {
            "modes": MappingProxyType({k: tuple(v) for k, v in shape.modes.items()}),
            "game": _game(rec, cand_set) if "game" in rare else _NO_GAME,
            "note": shape.note,
            "exercises": read_exercises(rec) if "exercises" in rare else (),
            "annotation": None if a is None else Annotation(a.annotator, a.updated, len(a.log)),
            "decomposer": shape.decomposer,
            "span_cover": float(shape.span_cover),
            "language": shape.language,
        }
    except FixtureError:
        return None
