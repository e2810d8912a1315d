"""Agreement between annotators of one draft: per label, alpha, kappa and raw agreement.

Metric card:
    Items, per field (only a person's judgement counts: a candidate still under review, or
    the units of a file that still has proposed units, gives no value):
        unit boundaries   every character of the answer that is not white space, tagged B
                          (a unit starts here), I (inside a unit) or O (outside every unit);
        preserves         (candidate, unit span) for every unit span any annotator marked:
                          whether the candidate preserves the unit with that span (no value
                          from an annotator who has no unit there);
        faithful, atomic  one per candidate; each error kind: whether it is among the
                          candidate's errors; evidence status: the status.
    Krippendorff's alpha, nominal (``krippendorff`` package; Krippendorff 2011, "Computing
    Krippendorff's alpha-reliability"): 1 - D_o / D_e over the items labelled by at least two
    annotators; any number of annotators, missing values allowed.
    Cohen's kappa (two annotators; Cohen 1960): (p_o - p_e) / (1 - p_e) over the items both
    labelled, p_e from each annotator's own category shares.
    Raw agreement: items with the same value / items both labelled (two annotators), or, for
    more, items on which everyone who labelled it agrees / items labelled by two or more.
    Undefined (N/A with the reason, never 0 or 1): no item labelled by two annotators; every
    value the same category (expected disagreement 0: agreement cannot be told from chance).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from claimlab.core.errors import FixtureError
from claimlab.core.ratio import Ratio
from claimlab.core.vocab import ERROR_KINDS
from claimlab.io.decomposition import Candidate, DecompositionFixture
from claimlab.metrics.decomposition import DecompositionResult, find_decomposition

BOUNDARIES = "unit boundaries"
FIELDS = (
    BOUNDARIES,
    "preserves",
    "faithful",
    "atomic",
    *(f"error: {k}" for k in ERROR_KINDS),
    "evidence status",
)
Value = str  # every category is compared as a word: "B", "true", "SUPPORTED", ...


@dataclass(frozen=True)
class Coefficient:
    """A chance-corrected agreement figure, or N/A with the reason."""

    value: float | None
    reason: str = ""

    @property
    def display(self) -> str:
        """``0.640`` or ``N/A (reason)``."""
        return f"{self.value:.3f}" if self.value is not None else f"N/A ({self.reason})"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"value": self.value, "reason": self.reason or None}


@dataclass(frozen=True)
class FieldAgreement:
    """Agreement on one field, with the items and annotators behind it."""

    field: str
    items: int
    annotators: int
    categories: tuple[str, ...]
    alpha: Coefficient
    kappa: Coefficient
    raw: Ratio

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "field": self.field,
            "items": self.items,
            "annotators": self.annotators,
            "categories": list(self.categories),
            "alpha": self.alpha.to_dict(),
            "kappa": self.kappa.to_dict(),
            "raw_agreement": self.raw.to_dict(),
        }


@dataclass(frozen=True)
class Disagreement:
    """One item on which the annotators who labelled it chose differently."""

    item: str
    field: str
    values: tuple[str | None, ...]

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """JSON form, values by annotator."""
        return {
            "item": self.item,
            "field": self.field,
            "values": dict(zip(names, self.values, strict=True)),
        }


@dataclass(frozen=True)
class AnnotatorFigures:
    """The four Toy ratios computed from one annotator's labels."""

    annotator: str
    file: str
    result: DecompositionResult
    under_review: int

    @property
    def ratios(self) -> dict[str, Ratio]:
        """The four ratios by key."""
        return self.result.ratios()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "annotator": self.annotator,
            "file": self.file,
            **{m: r.to_dict() for m, r in self.ratios.items()},
            "candidates_under_review": self.under_review,
        }


@dataclass(frozen=True)
class AgreementReport:
    """Agreement on every field, the disagreements, and each annotator's figures."""

    annotators: tuple[str, ...]
    files: tuple[str, ...]
    fields: tuple[FieldAgreement, ...]
    disagreements: tuple[Disagreement, ...]
    figures: tuple[AnnotatorFigures, ...]
    selection: str

    def field(self, name: str) -> FieldAgreement:
        """One field's agreement by name."""
        for f in self.fields:
            if f.field == name:
                return f
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "annotators": list(self.annotators),
            "files": list(self.files),
            "fields": [f.to_dict() for f in self.fields],
            "disagreements": [d.to_dict(self.annotators) for d in self.disagreements],
            "figures": {
                "selection": self.selection,
                "by_annotator": [f.to_dict() for f in self.figures],
            },
        }


def alpha_nominal(rows: Sequence[Sequence[Value | None]]) -> Coefficient:
    """Krippendorff's alpha (nominal) for annotators x items, None where an item has no value.

    Examples:
        >>> alpha_nominal([["a", "a", "b", "b", "a"], ["a", "b", "b", "b", "a"]]).value
        0.64
        >>> alpha_nominal([["a", "a"], ["a", "a"]]).reason
        'every value is the same category (a): agreement cannot be told from chance'
    """
    import krippendorff

    pairable: list[list[Value]] = [
        [v for v in (r[i] for r in rows) if v is not None]
        for i in range(len(rows[0]) if rows else 0)
    ]
    pairable = [vals for vals in pairable if len(vals) >= 2]
    if not pairable:
        return Coefficient(None, "no item was labelled by two annotators")
    seen = sorted({v for vals in pairable for v in vals})
    if len(seen) < 2:
        return Coefficient(
            None,
            f"every value is the same category ({seen[0]}): agreement cannot be told from chance",
        )
    code = {v: k for k, v in enumerate(seen)}
    data = np.array(
        [[np.nan if v is None or v not in code else code[v] for v in r] for r in rows], dtype=float
    )
    value = float(
        krippendorff.alpha(
            reliability_data=data,
            value_domain=list(range(len(seen))),
            level_of_measurement="nominal",
        )
    )
    return Coefficient(round(value, 6))


def cohen_kappa(a: Sequence[Value | None], b: Sequence[Value | None]) -> Coefficient:
    """Cohen's kappa over the items both annotators labelled.

    Examples:
        >>> cohen_kappa(["a", "a", "b", "b", "a"], ["a", "b", "b", "b", "a"]).value
        0.615385
    """
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    if not pairs:
        return Coefficient(None, "no item was labelled by both annotators")
    n = len(pairs)
    p_o = sum(1 for x, y in pairs if x == y) / n
    ca, cb = Counter(x for x, _ in pairs), Counter(y for _, y in pairs)
    p_e = sum(ca[c] * cb[c] for c in ca) / (n * n)
    if p_e >= 1.0:
        only = next(iter(ca))
        return Coefficient(
            None,
            f"both chose one category ({only}) on every item: agreement cannot be told from chance",
        )
    return Coefficient(round((p_o - p_e) / (1 - p_e), 6))


def raw_agreement(rows: Sequence[Sequence[Value | None]]) -> Ratio:
    """Items on which everyone who labelled it agrees, of the items labelled by two or more."""
    agree = total = 0
    for i in range(len(rows[0]) if rows else 0):
        vals = [r[i] for r in rows if r[i] is not None]
        if len(vals) < 2:
            continue
        total += 1
        agree += len(set(vals)) == 1
    return Ratio(agree, total)


def _word(value: object) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def _bio(fx: DecompositionFixture, positions: Sequence[int]) -> list[Value | None]:
    if fx.proposed_units:
        return [None] * len(positions)
    text = fx.original.text
    starts: set[int] = set()
    inside: set[int] = set()
    to_cp, at16 = {}, 0
    for i, ch in enumerate(text):
        to_cp[at16] = i
        at16 += 2 if ord(ch) > 0xFFFF else 1
    to_cp[at16] = len(text)
    for u in fx.units:
        s, e = to_cp[u.span.start], to_cp[u.span.end]
        starts.add(s)
        inside.update(range(s, e))
    return ["B" if p in starts else "I" if p in inside else "O" for p in positions]


def _confirmed(fx: DecompositionFixture, cid: str) -> Candidate | None:
    try:
        c = fx.candidate(cid)
    except FixtureError:
        return None
    return None if c.review else c


def check_same_answer(fixtures: Sequence[DecompositionFixture]) -> None:
    """Refuse files that are not annotations of one answer (same id, same text)."""
    first = fixtures[0]
    for fx in fixtures[1:]:
        if fx.original.text != first.original.text or fx.original.id != first.original.id:
            raise FixtureError(
                f"is not an annotation of the same answer as {first.source} (original "
                f"{fx.original.id!r} vs {first.original.id!r}, or another text)",
                file=fx.source,
                field="original",
            )


def annotator_names(fixtures: Sequence[DecompositionFixture]) -> tuple[str, ...]:
    """Each file's annotator (from its ``annotation``), else its file name; made distinct."""
    from pathlib import Path

    names: list[str] = []
    for fx in fixtures:
        name = (fx.annotation.annotator if fx.annotation else "") or Path(fx.source).stem
        base, k = name, 2
        while name in names:
            name, k = f"{base} ({k})", k + 1
        names.append(name)
    return tuple(names)


def _field(name: str, rows: list[list[Value | None]]) -> FieldAgreement:
    items = sum(
        1 for i in range(len(rows[0]) if rows else 0) if sum(r[i] is not None for r in rows) >= 2
    )
    annotators = sum(1 for r in rows if any(v is not None for v in r))
    cats = tuple(sorted({v for r in rows for v in r if v is not None}))
    if len(rows) == 2:
        kappa = cohen_kappa(rows[0], rows[1])
    else:
        kappa = Coefficient(None, f"Cohen's kappa is for two annotators ({len(rows)} here)")
    return FieldAgreement(
        name, items, annotators, cats, alpha_nominal(rows), kappa, raw_agreement(rows)
    )


def find_agreement(
    fixtures: Sequence[DecompositionFixture], *, selection: str | None = None
) -> AgreementReport:
    """Agreement between annotators' files of one draft (see the metric card).

    ``selection`` is the mode the Toy ratios are computed on for each annotator (default: the
    draft's ``decomposer`` mode if there is one, else every candidate).

    Raises:
        FixtureError: fewer than two files, or files that annotate different answers.
    """
    if len(fixtures) < 2:
        raise FixtureError("agreement needs two or more annotators' files")
    check_same_answer(fixtures)
    names = annotator_names(fixtures)
    text = fixtures[0].original.text
    positions = [i for i, ch in enumerate(text) if not ch.isspace()]

    rows: dict[str, list[list[Value | None]]] = {}
    items: dict[str, list[str]] = {}
    rows[BOUNDARIES] = [_bio(fx, positions) for fx in fixtures]
    items[BOUNDARIES] = [f"character {p} {text[p]!r}" for p in positions]

    cids: list[str] = []
    for fx in fixtures:
        cids += [c for c in fx.candidate_ids if c not in cids]
    spans = sorted({(u.span.start, u.span.end) for fx in fixtures for u in fx.units})
    span_text = {(u.span.start, u.span.end): u.span.text for fx in fixtures for u in fx.units}
    pres_items = [(cid, sp) for cid in cids for sp in spans]
    pres_rows = []
    for fx in fixtures:
        by_span = {(u.span.start, u.span.end): u.id for u in fx.units}
        row: list[Value | None] = []
        for cid, sp in pres_items:
            c = _confirmed(fx, cid)
            uid = by_span.get(sp)
            row.append(None if c is None or uid is None else _word(uid in c.preserves))
        pres_rows.append(row)
    rows["preserves"] = pres_rows
    items["preserves"] = [
        f"{cid} preserves {sp[0]}..{sp[1]} {span_text[sp]!r}" for cid, sp in pres_items
    ]

    def per_candidate(get: Any) -> list[list[Value | None]]:
        out = []
        for fx in fixtures:
            row: list[Value | None] = []
            for cid in cids:
                c = _confirmed(fx, cid)
                row.append(None if c is None else get(c))
            out.append(row)
        return out

    rows["faithful"] = per_candidate(lambda c: _word(c.faithful))
    rows["atomic"] = per_candidate(lambda c: _word(c.atomic))
    for kind in ERROR_KINDS:
        rows[f"error: {kind}"] = per_candidate(lambda c, k=kind: _word(k in c.errors))
    rows["evidence status"] = per_candidate(lambda c: str(c.evidence.status))
    for name in FIELDS[2:]:
        items[name] = list(cids)

    fields = tuple(_field(name, rows[name]) for name in FIELDS)
    disagreements = []
    for name in FIELDS:
        if name == BOUNDARIES:
            disagreements += _unit_disagreements(fixtures, span_text)
            continue
        for i, label in enumerate(items[name]):
            vals = tuple(r[i] for r in rows[name])
            given = {v for v in vals if v is not None}
            if len(given) > 1:
                disagreements.append(Disagreement(label, name, vals))

    chosen = selection
    figures = []
    for fx, name in zip(fixtures, names, strict=True):
        if chosen is None:
            chosen = "decomposer" if "decomposer" in fx.modes else ""
        ids = fx.mode(chosen) if chosen else fx.candidate_ids
        r = find_decomposition(fx, ids)
        figures.append(AnnotatorFigures(name, fx.source, r, len(fx.proposed)))
    return AgreementReport(
        names,
        tuple(fx.source for fx in fixtures),
        fields,
        tuple(disagreements),
        tuple(figures),
        chosen or "all candidates",
    )


def _unit_disagreements(
    fixtures: Sequence[DecompositionFixture], span_text: dict[tuple[int, int], str]
) -> list[Disagreement]:
    """Unit spans some annotators marked and others did not (files with proposed units: no value)."""
    out = []
    for sp in sorted(span_text):
        vals: list[str | None] = []
        for fx in fixtures:
            if fx.proposed_units:
                vals.append(None)
                continue
            hit = [u.id for u in fx.units if (u.span.start, u.span.end) == sp]
            vals.append(f"unit {hit[0]}" if hit else "no unit")
        given = {"unit" if v.startswith("unit ") else v for v in vals if v is not None}
        if len(given) > 1:
            out.append(
                Disagreement(f"unit {sp[0]}..{sp[1]} {span_text[sp]!r}", BOUNDARIES, tuple(vals))
            )
    return out
