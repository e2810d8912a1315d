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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

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
from claimlab.io.declared import read_declared
from claimlab.io.lesson import Exercise, read_exercises
from claimlab.io.reader import Record, bulk_load, check_unique, describe, nfc_json, read_json

DECOMPOSITION_FORMAT = "claimlab/decomposition@1"
# One spelling (NFC) for ids, entities, labels, modes and every name; the texts stay as written,
# since the UTF-16 offsets of the spans point into them and composing characters would move them.
AS_WRITTEN = frozenset({"text"})
Id = Annotated[str, msgspec.Meta(min_length=1)]  # a record id: a non-empty string
Weight = Annotated[float, msgspec.Meta(ge=0, le=1e9)]
# the words of REVIEW_FIELDS: a candidate's labels a draft proposes (a test holds them equal)
ReviewWord = Literal["source_spans", "preserves", "faithful", "atomic", "errors", "evidence"]
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


@dataclass(frozen=True)
class EvidenceSpan:
    """A span into a reference document."""

    reference: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Original:
    """The answer snapshot the candidates were split from."""

    id: str
    version: str
    text: str


@dataclass(frozen=True)
class Unit:
    """A content unit of the original answer (``review``: ``["span"]`` while a draft proposes it)."""

    id: Id
    span: Span
    review: tuple[Literal["span"], ...] = field(default=(), metadata={"what": "label"})

    @property
    def proposed(self) -> bool:
        """Whether a draft proposed the unit and nobody has confirmed it yet."""
        return bool(self.review)


@dataclass(frozen=True)
class Reference:
    """A reference document."""

    id: Id
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

    id: Id
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
    errors: tuple[ErrorKind, ...] = field(metadata={"what": "error kind"})
    evidence: Evidence
    review: tuple[ReviewWord, ...] = field(default=(), metadata={"what": "label"})
    confirmed: Confirmation | None = None
    alignment: Alignment | None = None  # a decomposer's alignment score with the original
    weight: Weight = 1.0  # how informative (Core-style selection); 0: uninformative
    mapping: SourceMapping = SourceMapping.MAPPED  # AMBIGUOUS: audited, never counted
    background: Background | None = None
    entails: tuple[str, ...] = ()  # candidates it entails (redundancy edges of a checker)

    @property
    def untagged_background(self) -> bool:
        """Whether it carries context from outside the original that is not tagged as such."""
        return _untagged(self.background)


def _untagged(b: Background | None) -> bool:
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
class Alignment:
    """How well a decomposer aligned a candidate with the original (0..100)."""

    score: Annotated[float, msgspec.Meta(ge=0, le=100)]


@dataclass(frozen=True)
class Confirmation:
    """Who confirmed a candidate's labels, and when (ISO 8601)."""

    by: str
    at: str


@dataclass(frozen=True)
class Annotation:
    """The ``annotation`` section: who annotates the file, when it last changed, its log."""

    annotator: str = ""
    updated: str = ""
    log: tuple[Any, ...] = ()

    @property
    def changes(self) -> int:
        """How many changes the log records."""
        return len(self.log)


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
        return self._backed(c)[1]

    def unbacked_units(self, c: Candidate) -> tuple[str, ...]:
        """The units a candidate says it preserves but no source span of it backs."""
        return self._backed(c)[2]

    @cached_property
    def _backing(self) -> dict[str, tuple[Candidate, tuple[str, ...], tuple[str, ...]]]:
        """Candidate id -> (the candidate, its counted units, its unbacked units), as asked.

        A memo beside the record, not one of its fields: what it holds follows from them.
        """
        return {}

    def _backed(self, c: Candidate) -> tuple[Candidate, tuple[str, ...], tuple[str, ...]]:
        """``(c, counted units, unbacked units)``, in the order ``c`` preserves them.

        Worked out once for each of the file's own candidates (every mode and view asks again:
        seven times per candidate for ``--mode all``); a candidate made elsewhere, even with a
        file's id, is worked out each time and not kept.
        """
        known = self._backing.get(c.id)
        if known is not None and known[0] is c:
            return known
        flags = [self.backs(c, u) for u in c.preserves]
        counted = tuple(u for u, backed in zip(c.preserves, flags, strict=True) if backed)
        unbacked = tuple(u for u, backed in zip(c.preserves, flags, strict=True) if not backed)
        found = (c, counted, unbacked)
        if self._by_id.get(c.id) is c:
            self._backing[c.id] = found
        return found

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


def _check_span(
    sp: Span | EvidenceSpan, text: Utf16Text, *, at: tuple[str, str], against: str, where: str
) -> None:
    """Refuse a span outside ``text`` or whose text is not the UTF-16 slice it names.

    ``at`` is (file, record id); ``where`` the span's field path (``source_spans[0]``).
    """
    start, end, quoted = sp.start, sp.end, sp.text
    n = text.n
    if not (0 <= start <= end <= n):
        bad = f"{where}.start" if not (0 <= start <= n) or start > end else f"{where}.end"
        raise FixtureError(
            f"span {start}..{end} is outside {against} (0..{n} UTF-16 units)"
            + _hint(text.text, start, end, quoted),
            file=at[0],
            record=at[1],
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
        raise FixtureError(f"{exc} of {against}", file=at[0], record=at[1], field=bad) from None
    if actual != quoted:
        raise FixtureError(
            f"does not match the UTF-16 slice {start}..{end} of {against} "
            f"(got {quoted!r}, slice is {actual!r}{_hint(text.text, start, end, quoted)})",
            file=at[0],
            record=at[1],
            field=f"{where}.text",
        )


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
    return read_decomposition(load_document(path), source=str(path))


def load_document(path: str | Path) -> Any:
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


@dataclass(frozen=True)
class DecompositionDocument:
    """The ``claimlab/decomposition@1`` file as declared: its types, bounds and defaults.

    The one declaration the reader converts (``msgspec``, in C), walks field by field for the
    first problem (:mod:`claimlab.io.declared`) and derives the JSON Schema from. The rules
    between fields (spans equal to their slice, ids that exist, a faithful candidate's labels)
    are :func:`read_decomposition`'s; ``modes``, ``game`` and ``exercises`` are read by their
    own rules.
    """

    format: Literal["claimlab/decomposition@1"]
    offset_unit: Literal["utf16"]
    original: Original
    units: tuple[Unit, ...]
    references: tuple[Reference, ...]
    candidates: tuple[Candidate, ...]
    note: str = ""
    annotation: Annotation | None = None
    decomposer: str = ""  # who split the answer; "" unknown
    span_cover: Annotated[float, msgspec.Meta(ge=SPAN_COVER, le=1)] = SPAN_COVER
    language: str = ""
    modes: Any = None  # {NAME: [candidate ids]}
    game: Any = None  # {"slots": 7, "puzzles": {NAME: {"start": [ids], "title", "note"}}}
    exercises: Any = None  # [{"question", "answer", ...}] (claimlab.io.lesson)


@bulk_load()  # records without cycles: no collector pass over them
def read_decomposition(data: Any, *, source: str) -> DecompositionFixture:
    """Check a parsed ``claimlab/decomposition@1`` document (see :func:`load_decomposition`).

    The declaration (:class:`DecompositionDocument`) gives the records, or the first field
    whose presence, type or bound it refuses; then the rules between fields are checked on
    the records, in file order.
    """
    doc = nfc_json(data, as_written=AS_WRITTEN, file=source)
    top = Record(doc, file=source, nulls_absent=True)
    fmt = top.get("format", str)
    if fmt != DECOMPOSITION_FORMAT:
        raise top.error(f"expected {DECOMPOSITION_FORMAT!r}, got {fmt!r}", field="format")
    unit_kind = top.get("offset_unit", str)
    if unit_kind != "utf16":
        raise top.error(
            f"must be 'utf16' (UTF-16 code units, end exclusive), got {unit_kind!r}",
            field="offset_unit",
        )
    d = read_declared(DecompositionDocument, doc, file=source)
    cand_set = _check_rules(d, source)
    return DecompositionFixture(
        source=source,
        original=d.original,
        units=d.units,
        references=d.references,
        candidates=d.candidates,
        modes=MappingProxyType(_modes(top, source, cand_set)),
        game=_game(top, cand_set) if "game" in doc else _NO_GAME,
        note=d.note,
        exercises=read_exercises(top) if "exercises" in doc else (),
        annotation=d.annotation,
        decomposer=d.decomposer,
        span_cover=d.span_cover,
        language=d.language,
    )


_NO_GAME = DecompositionRules()  # frozen: one for every file without a game section


def _check_rules(d: DecompositionDocument, source: str) -> set[str]:
    """The rules between fields, in file order (the first broken one raised); the candidate ids."""
    original = Utf16Text(d.original.text)
    for u in d.units:
        _check_span(u.span, original, at=(source, u.id), against="original.text", where="span")
    check_unique([u.id for u in d.units], file=source, field="units")
    check_unique([r.id for r in d.references], file=source, field="references")
    unit_span = {u.id: u.span for u in d.units}
    refs: dict[str, Utf16Text | str] = {r.id: r.text for r in d.references}
    for c in d.candidates:
        _check_candidate(c, original, unit_span, refs, source)
    check_unique([c.id for c in d.candidates], file=source, field="candidates")
    cand_set = {c.id for c in d.candidates}
    bad_edge = _entails_problem(d.candidates, cand_set)
    if bad_edge is not None:
        cid, where, why = bad_edge
        raise FixtureError(why, file=source, record=cid, field=where)
    return cand_set


def _check_candidate(
    c: Candidate,
    original: Utf16Text,
    unit_span: Mapping[str, Span],
    refs: dict[str, Utf16Text | str],
    source: str,
) -> None:
    """One candidate's rules: spans in their texts, known ids, and (confirmed) its labels."""
    at = (source, c.id)
    for j, sp in enumerate(c.source_spans):
        _check_span(sp, original, at=at, against="original.text", where=f"source_spans[{j}]")
    for j, uid in enumerate(c.preserves):
        if uid not in unit_span:
            raise FixtureError(
                f"unknown unit id {uid!r}", file=source, record=c.id, field=f"preserves[{j}]"
            )
    ev = c.evidence
    for j, rid in enumerate(ev.references):
        if rid not in refs:
            raise FixtureError(
                f"unknown reference id {rid!r}",
                file=source,
                record=c.id,
                field=f"evidence.references[{j}]",
            )
    for j, es in enumerate(ev.spans):
        _check_evidence_span(es, j, ev.references, refs, at)
    if not c.review:
        for where, problem in candidate_problems(c, unit_span):
            raise FixtureError(problem, file=source, record=c.id, field=where)


def _check_evidence_span(
    es: EvidenceSpan,
    j: int,
    cited: Sequence[str],
    refs: dict[str, Utf16Text | str],
    at: tuple[str, str],
) -> None:
    """An evidence span: in one of the cited references, the UTF-16 slice of its text."""
    rid = es.reference
    if rid not in cited:
        raise FixtureError(
            f"reference {rid!r} is not among evidence.references",
            file=at[0],
            record=at[1],
            field=f"evidence.spans[{j}].reference",
        )
    text = refs[rid]
    if isinstance(text, str):  # encoded once, the first time a span needs it
        text = refs[rid] = Utf16Text(text)
    where = f"evidence.spans[{j}]"
    _check_span(es, text, at=at, against=f"reference {rid} text", where=where)


def _modes(top: Record, source: str, cand_set: set[str]) -> dict[str, tuple[str, ...]]:
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


def _game(top: Record, cand_set: set[str]) -> DecompositionRules:
    """``game``: ``{"slots": 7, "puzzles": {NAME: {"start": [ids], "title": str, "note": str}}}``."""
    if top.data.get("game") is None:
        return DecompositionRules()
    g = top.sub("game")
    slots = g.number("slots", minimum=1, maximum=10_000, integer=True, default=DEFAULT_SLOTS)
    puzzles: dict[str, Puzzle] = {}
    for name, raw in g.mapping("puzzles", {}):
        where = g.field(f"puzzles.{name}")
        p = Record(raw, file=g.file, record=name, path=where, nulls_absent=g.nulls_absent)
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
