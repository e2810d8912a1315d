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

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from claimlab.core.errors import FixtureError
from claimlab.core.vocab import ERROR_KINDS, REVIEW_FIELDS, STATUSES, ErrorKind, Status
from claimlab.io.lesson import Exercise, read_exercises
from claimlab.io.reader import Record, check_unique, describe, read_json

DECOMPOSITION_FORMAT = "claimlab/decomposition@1"
__all__ = ["ERROR_KINDS", "REVIEW_FIELDS", "STATUSES", "load_decomposition", "read_decomposition"]


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
    mapping: str = "MAPPED"  # AMBIGUOUS: its source in the original cannot be fixed
    background: Background | None = None


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
            raise ValueError(f"unknown puzzle {name!r} (one of {', '.join(self.puzzles)})")
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
    _by_id: Mapping[str, Candidate] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", MappingProxyType({c.id: c for c in self.candidates}))

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


class _Utf16:
    """A text encoded once as UTF-16, so that every span is checked in time proportional to itself."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.raw = text.encode("utf-16-le")
        self.n = len(self.raw) // 2

    def slice(self, start: int, end: int) -> str:
        """The UTF-16 slice; ValueError when an offset splits a surrogate pair."""
        try:
            return self.raw[2 * start : 2 * end].decode("utf-16-le", errors="strict")
        except UnicodeDecodeError as exc:
            raise ValueError(f"span {start}..{end} splits a surrogate pair") from exc

    def hint(self, start: int, end: int, quoted: str) -> str:
        """Why the offsets may be wrong (computed only for an error message)."""
        if quoted and self.text[start:end] == quoted:
            return "; the offsets look like code points, not UTF-16 units"
        if quoted and self.text.encode("utf-8")[start:end].decode("utf-8", "replace") == quoted:
            return "; the offsets look like UTF-8 bytes, not UTF-16 units"
        return ""


def _span(rec: Record, name: str, text: _Utf16, *, against: str, where: str) -> Span:
    start = rec.get("start", int)
    end = rec.get("end", int)
    quoted = rec.get("text", str)
    n = text.n
    if not (0 <= start <= end <= n):
        bad = f"{where}.start" if not (0 <= start <= n) or start > end else f"{where}.end"
        raise rec.error(
            f"span {start}..{end} is outside {against} (0..{n} UTF-16 units)"
            + text.hint(start, end, quoted),
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
            f"(got {quoted!r}, slice is {actual!r}{text.hint(start, end, quoted)})",
            field=f"{where}.text",
        )
    return Span(start, end, quoted)


def load_decomposition(path: str | Path) -> DecompositionFixture:
    """Load and check a ``claimlab/decomposition@1`` file.

    Checks: format and ``offset_unit``; required fields and types; unique ids; every referenced id
    exists; every span's text equals the UTF-16 slice of the original; a faithful candidate
    preserves at least one unit; a candidate with errors is not faithful; SUPPORTED and
    CONTRADICTED cite at least one reference.

    Raises:
        FixtureError: naming the file, the record id and the field.
    """
    return read_decomposition(read_json(path), source=str(path))


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


def read_decomposition(data: Any, *, source: str) -> DecompositionFixture:
    """Check a parsed ``claimlab/decomposition@1`` document (see :func:`load_decomposition`)."""
    top = Record(data, file=source)
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
    encoded = _Utf16(original.text)

    units = []
    for _, u in top.records("units"):
        review = u.str_list("review", ())
        for j, name in enumerate(review):
            if name != "span":
                raise u.error(
                    f"unknown label {name!r} (a unit's review lists 'span')", field=f"review[{j}]"
                )
        units.append(
            Unit(
                u.get("id", str),
                _span(u.sub("span"), "span", encoded, against="original.text", where="span"),
                proposed=bool(review),
            )
        )
    check_unique([u.id for u in units], file=source, field="units")

    references = []
    for _, r in top.records("references"):
        references.append(
            Reference(
                r.get("id", str), r.get("title", str), r.get("version", str), r.get("text", str)
            )
        )
    check_unique([r.id for r in references], file=source, field="references")
    ref_text = {r.id: r.text for r in references}
    ref_encoded: dict[str, _Utf16] = {}
    unit_set = {u.id for u in units}
    unit_span = {u.id: u.span for u in units}

    candidates = []
    for _, c in top.records("candidates"):
        cid = c.get("id", str)
        spans = []
        for j, s in c.records("source_spans", id_field=None):
            s.record = cid
            spans.append(
                _span(
                    s,
                    "source_spans",
                    encoded,
                    against="original.text",
                    where=f"source_spans[{j}]",
                )
            )
        preserves = c.str_list("preserves")
        for j, uid in enumerate(preserves):
            if uid not in unit_set:
                raise c.error(f"unknown unit id {uid!r}", field=f"preserves[{j}]")
        raw_errors = c.str_list("errors")
        for j, e in enumerate(raw_errors):
            if e not in ERROR_KINDS:
                raise c.error(
                    f"unknown error kind {e!r} (one of {', '.join(ERROR_KINDS)})",
                    field=f"errors[{j}]",
                )
        errors = tuple(ErrorKind(e) for e in raw_errors)
        faithful = c.get("faithful", bool)
        ev = c.sub("evidence")
        raw_status = ev.get("status", str)
        if raw_status not in STATUSES:
            raise ev.error(
                f"unknown status {raw_status!r} (one of {', '.join(STATUSES)})",
                field="evidence.status",
            )
        status = Status(raw_status)
        refs = ev.str_list("references")
        for j, rid in enumerate(refs):
            if rid not in ref_text:
                raise ev.error(f"unknown reference id {rid!r}", field=f"evidence.references[{j}]")
        review = c.str_list("review", ())
        for j, name in enumerate(review):
            if name not in REVIEW_FIELDS:
                raise c.error(
                    f"unknown label {name!r} (one of {', '.join(REVIEW_FIELDS)})",
                    field=f"review[{j}]",
                )
        confirmed = None
        if c.data.get("confirmed") is not None:
            cf = c.sub("confirmed")
            confirmed = Confirmation(cf.get("by", str), cf.get("at", str))
        alignment = None
        if c.data.get("alignment") is not None:
            alignment = float(c.sub("alignment").number("score", minimum=0, maximum=100))
        ev_spans = []
        for j, s in ev.records("spans", id_field=None) if "spans" in ev.data else ():
            s.record = cid
            rid = s.get("reference", str)
            if rid not in refs:
                raise s.error(
                    f"reference {rid!r} is not among evidence.references",
                    field=f"evidence.spans[{j}].reference",
                )
            if rid not in ref_encoded:
                ref_encoded[rid] = _Utf16(ref_text[rid])
            sp = _span(
                s,
                "spans",
                ref_encoded[rid],
                against=f"reference {rid} text",
                where=f"evidence.spans[{j}]",
            )
            ev_spans.append(EvidenceSpan(rid, sp.start, sp.end, sp.text))
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
        )
        if not review:
            for where, problem in candidate_problems(candidate, unit_span):
                raise c.error(problem, field=where)
        candidates.append(candidate)
    check_unique([c.id for c in candidates], file=source, field="candidates")
    cand_set = {c.id for c in candidates}

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

    return DecompositionFixture(
        source=source,
        original=original,
        units=tuple(units),
        references=tuple(references),
        candidates=tuple(candidates),
        modes=MappingProxyType(modes),
        game=_game(top, cand_set),
        note=top.get("note", str, ""),
        exercises=read_exercises(top),
        annotation=_annotation(top),
    )


MAPPINGS = ("MAPPED", "AMBIGUOUS")


def _mapping(c: Record) -> str:
    """``mapping``: MAPPED (default) or AMBIGUOUS (its source cannot be fixed)."""
    value = c.get("mapping", str, "MAPPED")
    if value not in MAPPINGS:
        raise c.error(f"unknown mapping {value!r} (one of {', '.join(MAPPINGS)})", field="mapping")
    return str(value)


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
