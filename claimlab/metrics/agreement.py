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
    Pooled over answers (folders of annotations, paired by answer): every answer's items of a
    field are one list of items, and the figures are computed once over all of them, with the
    number of answers and items behind each; per-answer figures on request. The coefficients
    are computed from category counts (coincidences for alpha, marginals for kappa) and equal
    the ``krippendorff`` package's and scikit-learn's (``tests/metrics/test_agreement.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from claimlab.core.errors import FixtureError
from claimlab.core.frozen import freeze
from claimlab.core.parallel import cores
from claimlab.core.ratio import Ratio
from claimlab.core.text import nfc
from claimlab.io.annotations import AnnotationSet, AnswerKey, answers_of, set_names
from claimlab.io.decomposition import DecompositionFixture
from claimlab.io.reader import bulk_load
from claimlab.metrics.agreement_items import (
    BOUNDARIES,
    FIELDS,
    NONE,
    Codes,
    Disagreement,
    FileItems,
    Pool,
    categories_of,
    disagreements,
    file_items,
    pool,
)

__all__ = [
    "BOUNDARIES",
    "FIELDS",
    "Disagreement",
    "FileItems",
    "score_agreement",
    "score_pooled_agreement",
]
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
    """Agreement on one field, with the answers, items and annotators behind it."""

    field: str
    items: int
    annotators: int
    categories: tuple[str, ...]
    alpha: Coefficient
    kappa: Coefficient
    raw: Ratio
    answers: int = 1  # answers with at least one item labelled by two annotators

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "field": self.field,
            "answers": self.answers,
            "items": self.items,
            "annotators": self.annotators,
            "categories": list(self.categories),
            "alpha": self.alpha.to_dict(),
            "kappa": self.kappa.to_dict(),
            "raw_agreement": self.raw.to_dict(),
        }


@dataclass(frozen=True)
class AnnotatorFigures:
    """The four Toy ratios computed from one annotator's labels (summed over their answers)."""

    annotator: str
    file: str
    ratios: Mapping[str, Ratio]
    under_review: int
    answers: int = 1

    def __post_init__(self) -> None:
        freeze(self, "ratios")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "annotator": self.annotator,
            "file": self.file,
            "answers": self.answers,
            **{m: r.to_dict() for m, r in self.ratios.items()},
            "candidates_under_review": self.under_review,
        }


@dataclass(frozen=True)
class AnswerAgreement:
    """One answer's figures per field (``--per-answer``)."""

    answer: str
    annotators: int
    fields: tuple[FieldAgreement, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "answer": self.answer,
            "annotators": self.annotators,
            "fields": [f.to_dict() for f in self.fields],
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
    answers: int = 1  # distinct answers (an answer split by two decomposers counts once)
    single_annotator_answers: tuple[str, ...] = ()
    per_answer: tuple[AnswerAgreement, ...] = ()
    decompositions: int = 1  # (decomposer, answer) pairs: the files of one answer compared

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
            "answers": self.answers,
            "decompositions": self.decompositions,
            "answers_with_one_annotator": list(self.single_annotator_answers),
            "fields": [f.to_dict() for f in self.fields],
            "disagreements": [d.to_dict(self.annotators) for d in self.disagreements],
            "figures": {
                "selection": self.selection,
                "by_annotator": [f.to_dict() for f in self.figures],
            },
            **({"per_answer": [a.to_dict() for a in self.per_answer]} if self.per_answer else {}),
        }


Weights = NDArray[np.int64]


def _counts(codes: Codes, k: int) -> NDArray[np.int64]:
    """Items x categories: how many annotators gave each category to each item."""
    out = np.empty((codes.shape[1], k), dtype=np.int64)
    for c in range(k):  # one pass per category: no index arrays as large as the codes
        np.sum(codes == c, axis=0, dtype=np.int64, out=out[:, c])
    return out


def _ones(codes: Codes, weights: Weights | None) -> Weights:
    return np.ones(codes.shape[1], dtype=np.int64) if weights is None else weights


def alpha_codes(codes: Codes, cats: Sequence[str], weights: Weights | None = None) -> Coefficient:
    """Krippendorff's alpha (nominal) from coded values (see :func:`alpha_nominal`).

    From the coincidences of each item's values: with ``n_uc`` the annotators giving item
    ``u`` category ``c`` and ``m_u`` its values, ``o_cc = sum_u n_uc (n_uc - 1) / (m_u - 1)``,
    ``n_c = sum_u n_uc`` and ``n = sum_c n_c`` over items with two or more values;
    ``alpha = 1 - (n - 1) (n - sum_c o_cc) / (n^2 - sum_c n_c^2)``. A column of weight w
    counts as w identical items.
    """
    counts = _counts(codes, len(cats))
    w = _ones(codes, weights)
    m_u = counts.sum(axis=1)
    keep = m_u >= 2
    if not keep.any():
        return Coefficient(None, "no item was labelled by two annotators")
    counts, m_u, w = counts[keep], m_u[keep], w[keep]
    n_c = (counts * w[:, None]).sum(axis=0).astype(np.float64)
    # o = sum_u w_u sum_c n_uc (n_uc - 1) / (m_u - 1): whole numbers summed per m_u, then divided
    pairs = np.bincount(m_u, weights=(w * (counts * (counts - 1)).sum(axis=1)).astype(np.float64))
    observed = float(sum(pairs[v] / (v - 1) for v in np.flatnonzero(pairs).tolist()))
    return _alpha(n_c, observed, cats)


def _alpha(n_c: NDArray[np.float64], observed: float, cats: Sequence[str]) -> Coefficient:
    """Alpha from each category's values ``n_c`` and the observed agreement ``sum_c o_cc``."""
    used = np.flatnonzero(n_c)
    if len(used) < 2:
        return Coefficient(
            None,
            f"every value is the same category ({cats[int(used[0])]}): agreement cannot be "
            "told from chance",
        )
    n = float(n_c.sum())
    expected = n * n - float((n_c**2).sum())
    return Coefficient(round(1 - (n - 1) * (n - observed) / expected, 6))


def kappa_codes(
    a: NDArray[np.int8], b: NDArray[np.int8], cats: Sequence[str], weights: Weights | None = None
) -> Coefficient:
    """Cohen's kappa from two annotators' coded values (see :func:`cohen_kappa`)."""
    both = (a >= 0) & (b >= 0)
    w = (np.ones(len(a), np.int64) if weights is None else weights)[both]
    n = int(w.sum())
    if n == 0:
        return Coefficient(None, "no item was labelled by both annotators")
    x, y = a[both].astype(np.int64), b[both].astype(np.int64)
    ca = np.bincount(x, weights=w, minlength=len(cats))
    cb = np.bincount(y, weights=w, minlength=len(cats))
    return _kappa(ca, cb, float(w[x == y].sum()), n, cats)


def _kappa(ca: Any, cb: Any, agreed: float, n: int, cats: Sequence[str]) -> Coefficient:
    """Kappa from each annotator's category counts, the items they agree on and all ``n``."""
    chance = float((ca * cb).sum())
    if chance == float(n) * n:
        only = cats[int(np.flatnonzero(ca)[0])]
        return Coefficient(
            None,
            f"both chose one category ({only}) on every item: agreement cannot be told from chance",
        )
    p_o, p_e = agreed / n, chance / (float(n) * n)
    return Coefficient(round((p_o - p_e) / (1 - p_e), 6))


def raw_codes(codes: Codes, weights: Weights | None = None) -> Ratio:
    """Items on which everyone who labelled it agrees, of the items labelled by two or more."""
    if codes.size == 0:  # no annotator or no item: nothing to agree on
        return Ratio(0, 0)
    w = _ones(codes, weights)
    valid = codes >= 0
    pairable = valid.sum(axis=0) >= 2
    low = np.where(valid, codes, np.int8(127)).min(axis=0)
    high = np.where(valid, codes, np.int8(-1)).max(axis=0)
    return Ratio(int(w[pairable & (low == high)].sum()), int(w[pairable].sum()))


def _encode_rows(rows: Sequence[Sequence[Value | None]]) -> tuple[Codes, tuple[str, ...]]:
    cats = tuple(sorted({v for r in rows for v in r if v is not None}))
    code = {v: k for k, v in enumerate(cats)}
    width = len(rows[0]) if rows else 0
    out = np.full((len(rows), width), NONE, dtype=np.int8)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            if v is not None:
                out[i, j] = code[v]
    return out, cats


def alpha_nominal(rows: Sequence[Sequence[Value | None]]) -> Coefficient:
    """Krippendorff's alpha (nominal) for annotators x items, None where an item has no value.

    Examples:
        >>> alpha_nominal([["a", "a", "b", "b", "a"], ["a", "b", "b", "b", "a"]]).value
        0.64
        >>> alpha_nominal([["a", "a"], ["a", "a"]]).reason
        'every value is the same category (a): agreement cannot be told from chance'
    """
    codes, cats = _encode_rows(rows)
    return alpha_codes(codes, cats)


def cohen_kappa(a: Sequence[Value | None], b: Sequence[Value | None]) -> Coefficient:
    """Cohen's kappa over the items both annotators labelled.

    Examples:
        >>> cohen_kappa(["a", "a", "b", "b", "a"], ["a", "b", "b", "b", "a"]).value
        0.615385
    """
    codes, cats = _encode_rows([a, b])
    return kappa_codes(codes[0], codes[1], cats)


def raw_agreement(rows: Sequence[Sequence[Value | None]]) -> Ratio:
    """Items on which everyone who labelled it agrees, of the items labelled by two or more."""
    codes, _ = _encode_rows(rows)
    return raw_codes(codes)


def pair_table(
    a: NDArray[np.int8], b: NDArray[np.int8], k: int, weights: Weights | None = None
) -> NDArray[np.int64]:
    """Two annotators' values as a (k + 1) x (k + 1) table of (weighted) item counts.

    Row ``i + 1`` / column ``j + 1``: the first gave category i and the second j; row or
    column 0: that annotator gave no value. One pass over the items, whatever their number.

    Examples:
        >>> pair_table(np.array([0, 1, -1], np.int8), np.array([0, 0, 1], np.int8), 2).tolist()
        [[0, 0, 1], [0, 1, 0], [0, 1, 0]]
    """
    cell = (a.astype(np.intp) + 1) * (k + 1) + (b.astype(np.intp) + 1)
    size = (k + 1) ** 2
    if weights is None:
        counts = np.bincount(cell, minlength=size)
    elif int(weights.sum()) < 1 << 53:  # every partial sum is a whole float64: exact
        counts = np.rint(np.bincount(cell, weights=weights, minlength=size)).astype(np.int64)
    else:  # weights too large for a float's 53 bits: whole-number sums, one cell at a time
        counts = np.array([int(weights[cell == c].sum()) for c in range(size)], dtype=np.int64)
    return counts.astype(np.int64).reshape(k + 1, k + 1)


def _alpha_of_table(t: NDArray[np.int64], cats: Sequence[str]) -> Coefficient:
    """Alpha from the table of two annotators' values (as :func:`alpha_codes`, same figures).

    With two values per item the coincidences are the table plus its transpose.
    """
    both = t[1:, 1:]
    if both.sum() == 0:
        return Coefficient(None, "no item was labelled by two annotators")
    coincide = both + both.T
    return _alpha(coincide.sum(axis=1).astype(np.float64), float(np.trace(coincide)), cats)


def _kappa_of_table(t: NDArray[np.int64], cats: Sequence[str]) -> Coefficient:
    """Kappa from the table of two annotators' values (as :func:`kappa_codes`, same figures)."""
    both = t[1:, 1:]
    n = int(both.sum())
    if n == 0:
        return Coefficient(None, "no item was labelled by both annotators")
    ca, cb = both.sum(axis=1).astype(np.float64), both.sum(axis=0).astype(np.float64)
    return _kappa(ca, cb, float(np.trace(both)), n, cats)


def _two_annotators(
    name: str, codes: Codes, answers: int, weights: Weights | None
) -> FieldAgreement:
    """:func:`field_agreement` of two annotators from their table: one pass over the items."""
    cats = categories_of(name)
    k = len(cats)
    plain = pair_table(codes[0], codes[1], k)
    table = plain if weights is None else pair_table(codes[0], codes[1], k, weights)
    gave = plain.sum(axis=1)[1:] + plain.sum(axis=0)[1:]
    both = table[1:, 1:]
    return FieldAgreement(
        name,
        int(both.sum()),
        int(plain[1:, :].sum() > 0) + int(plain[:, 1:].sum() > 0),
        tuple(sorted(cats[c] for c in range(k) if gave[c] > 0)),
        _alpha_of_table(table, cats),
        _kappa_of_table(table, cats),
        Ratio(int(np.trace(both)), int(both.sum())),
        answers,
    )


def field_agreement(
    name: str, codes: Codes, *, answers: int = 1, weights: Weights | None = None
) -> FieldAgreement:
    """One field's figures from its coded values (annotators x items; weighted columns).

    Two annotators' figures come from the table of their value pairs (:func:`pair_table`),
    any other number's from each item's category counts; both give the same figures.
    """
    if codes.shape[0] == 2:
        return _two_annotators(name, codes, answers, weights)
    return _by_item(name, codes, answers, weights)


def _by_item(name: str, codes: Codes, answers: int, weights: Weights | None) -> FieldAgreement:
    """:func:`field_agreement` from each item's category counts (any number of annotators)."""
    cats = categories_of(name)
    w = _ones(codes, weights)
    valid = codes >= 0
    seen = sorted(cats[c] for c in range(len(cats)) if (codes == c).any())
    if codes.shape[0] == 2:
        kappa = kappa_codes(codes[0], codes[1], cats, w)
    else:
        kappa = Coefficient(None, f"Cohen's kappa is for two annotators ({codes.shape[0]} here)")
    return FieldAgreement(
        name,
        int(w[valid.sum(axis=0) >= 2].sum()),
        int(valid.any(axis=1).sum()),
        tuple(seen),
        alpha_codes(codes, cats, w),
        kappa,
        raw_codes(codes, w),
        answers,
    )


# ------------------------------------------------------------------------------ the reports


def _answers_with_items(p: Pool, name: str, answer_of: NDArray[np.int64]) -> int:
    """Distinct answers with an item two annotators labelled (``answer_of``: key -> answer)."""
    pairable = (p.codes[name] >= 0).sum(axis=0) >= 2
    owners = p.owner[name][pairable]
    return int(np.count_nonzero(np.bincount(answer_of[owners[owners >= 0]])))  # no sort


def annotator_figures(
    names: Sequence[str], files: Sequence[Sequence[FileItems]], sources: Sequence[str]
) -> tuple[AnnotatorFigures, ...]:
    """Each annotator's four Toy ratios over their answers (micro: the lab's counts, summed)."""
    from claimlab.metrics.decomposition import METRICS

    figures = []
    for name, mine, source in zip(names, files, sources, strict=True):
        total = np.zeros(2 * len(METRICS), dtype=np.int64)
        for f in mine:
            total += f.counts
        ratios = {m: Ratio(int(total[2 * i]), int(total[2 * i + 1])) for i, m in enumerate(METRICS)}
        under = sum(f.proposed for f in mine)
        figures.append(AnnotatorFigures(name, source, ratios, under, len(mine)))
    return tuple(figures)


def score_pooled_agreement(
    sets: Sequence[AnnotationSet],
    items: Mapping[str, FileItems],
    *,
    per_answer: bool = False,
    progress: Callable[[int], None] | None = None,
) -> AgreementReport:
    """Agreement of annotators' folders over every answer they annotated (see the metric card).

    ``items`` maps each file's path to its :class:`FileItems` (see :func:`load_for_agreement`).
    An answer only one annotator annotated adds no item two annotators labelled; it is listed.
    ``progress(n)`` is told of each of the POOLING_STEPS steps as it ends.

    Raises:
        FixtureError: two files of one answer that annotate different texts.
    """
    names = set_names(sets)
    keys, groups = [], []
    with bulk_load():
        for key, files in answers_of(sets):
            keys.append(key)
            groups.append(tuple(items[f.path] if f is not None else None for f in files))
        single = [
            k.label for k, g in zip(keys, groups, strict=True) if sum(f is not None for f in g) < 2
        ]
        by_set = [[items[f.path] for f in s.files.values()] for s in sets]
        return _report(
            names,
            tuple(s.source for s in sets),
            keys,
            groups,
            by_set,
            per_answer,
            single,
            progress or (lambda n: None),
        )


POOLING_STEPS = len(FIELDS) + 3  # pooling, each field's figures, disagreements, Toy figures


def load_for_agreement(
    args: Sequence[str | Path], *, selection: str | None = None, progress: Any = None
) -> tuple[tuple[AnnotationSet, ...], dict[str, FileItems]]:
    """Read annotators' files or folders (on every core) and reduce each to its items."""
    import msgspec

    from claimlab.io.annotations import load_sets

    # each file's items travel from the worker that read it as one MessagePack string: four
    # times cheaper to send and to receive than the tuples pickled one by one
    encode = msgspec.msgpack.Encoder().encode
    decode = msgspec.msgpack.Decoder(FileItems).decode
    sets, packed = load_sets(
        args,
        lambda _, fx: encode(file_items(fx, selection=selection)),
        progress=progress,
    )
    with bulk_load():
        return sets, {path: decode(blob) for path, blob in packed.items()}


def _report(
    names: tuple[str, ...],
    sources: tuple[str, ...],
    keys: Sequence[AnswerKey],
    groups: Sequence[Sequence[FileItems | None]],
    mine: Sequence[Sequence[FileItems]],
    per_answer: bool,
    single: Sequence[str] = (),
    tick: Callable[[int], None] = lambda n: None,
) -> AgreementReport:
    p = pool(keys, groups, len(names))
    tick(1)
    ids = {a: k for k, a in enumerate(sorted({k.answer for k in keys}))}
    answer_of = np.array([ids[k.answer] for k in keys], dtype=np.int64)

    def one(name: str) -> FieldAgreement:
        return field_agreement(
            name,
            p.codes[name],
            answers=_answers_with_items(p, name, answer_of),
            weights=p.weights[name],
        )

    with ThreadPoolExecutor(max_workers=cores()) as threads:  # numpy lets go of the GIL
        fields = tuple(_ticked(threads.map(one, FIELDS), tick))
    rows = tuple(_answer_row(p, k) for k in (range(len(keys)) if per_answer else ()))
    chosen = next((f.selection for m in mine for f in m), "all candidates")
    found = tuple(disagreements(p))
    tick(1)
    figures = annotator_figures(names, mine, sources)
    tick(1)
    return AgreementReport(
        names,
        sources,
        fields,
        found,
        figures,
        chosen,
        answers=len(ids),
        single_annotator_answers=tuple(single),
        per_answer=rows,
        decompositions=len(keys),
    )


T = TypeVar("T")


def _ticked(results: Iterable[T], tick: Callable[[int], None]) -> Iterator[T]:
    for r in results:
        tick(1)
        yield r


def _answer_row(p: Pool, k: int) -> AnswerAgreement:
    a = p.answer(k)
    fields = []
    for name in FIELDS:
        codes, weights = a.columns(name)
        fields.append(field_agreement(name, codes, weights=weights))
    return AnswerAgreement(a.key.label, sum(f is not None for f in a.files), tuple(fields))


def check_same_answer(fixtures: Sequence[DecompositionFixture]) -> None:
    """Refuse files that are not annotations of one answer (same id after NFC, same text)."""
    first = fixtures[0]
    for fx in fixtures[1:]:
        if fx.original.text != first.original.text or nfc(fx.original.id) != nfc(first.original.id):
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


def score_agreement(
    fixtures: Sequence[DecompositionFixture], *, selection: str | None = None
) -> AgreementReport:
    """Agreement between annotators' files of one answer, in the order given (see the card).

    ``selection`` is the mode the Toy ratios are computed on for each annotator (default: the
    draft's ``decomposer`` mode if there is one, else every candidate).

    Raises:
        FixtureError: fewer than two files, or files that annotate different answers.
    """
    if len(fixtures) < 2:
        raise FixtureError("agreement needs two or more annotators' files")
    check_same_answer(fixtures)
    names = annotator_names(fixtures)
    key = AnswerKey(nfc(fixtures[0].decomposer), nfc(fixtures[0].original.id))
    files = [file_items(fx, selection=selection) for fx in fixtures]
    sources = tuple(fx.source for fx in fixtures)
    return _report(names, sources, [key], [tuple(files)], [[f] for f in files], False)
