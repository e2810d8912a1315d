"""The items annotators are compared on, coded per field, for one answer or pooled over many.

Every field's values are small integer codes (the index of the category in
:func:`categories_of`, -1 where an annotator gave no value), one column per item and one row
per annotator. A file is first reduced to :class:`FileItems` (plain values, cheap to send
from the worker process that read it); an answer's files become :class:`AnswerItems`; many
answers become one :class:`Pool` per field, which :mod:`claimlab.metrics.agreement` turns
into alpha, kappa and raw agreement.

``preserves`` has an item for every (candidate, unit span), so a file of 100,000 candidates
over 1,000 units has 10^8 of them; almost all say "false" for every annotator. They are kept
apart by value: a column for each item some annotator marked (the only ones that can
disagree), and, for the rest, one column per pattern of who gave a value, with its count as a
weight. The coefficients count a weighted column as that many identical items.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from claimlab.core.errors import FixtureError
from claimlab.core.frozen import freeze
from claimlab.core.spans import ASTRAL, Utf16Text
from claimlab.core.text import nfc, same_claim_key
from claimlab.core.vocab import ERROR_KINDS, STATUSES
from claimlab.io.annotations import AnswerKey
from claimlab.io.decomposition import Candidate, DecompositionFixture

BOUNDARIES = "unit boundaries"
FIELDS = (
    BOUNDARIES,
    "preserves",
    "faithful",
    "atomic",
    *(f"error: {k}" for k in ERROR_KINDS),
    "evidence status",
)
PER_CANDIDATE = FIELDS[2:]
Codes = NDArray[np.int8]  # annotators x items: a category's index, -1 where there is no value
Span2 = tuple[int, int]
NONE = -1
_MISSING = 255  # -1 as an int8 byte
CATEGORIES: dict[str, tuple[str, ...]] = {
    BOUNDARIES: ("B", "I", "O"),
    "evidence status": tuple(str(s) for s in STATUSES),
}
BOOLEAN = ("false", "true")
B, I, O = 0, 1, 2  # noqa: E741 - the codes of BOUNDARIES' categories
_SPACE = re.compile(r"\s")  # the characters str.isspace() calls white space


def categories_of(field: str) -> tuple[str, ...]:
    """The categories a field's values are coded by (their index is the code)."""
    return CATEGORIES.get(field, BOOLEAN)


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


# ------------------------------------------------------------------------------ one file


def _spaces(text: str) -> list[int]:
    return [m.start() for m in _SPACE.finditer(text)]


def _width(text: str) -> int:
    """The characters of ``text`` that are not white space: the boundary items."""
    return len(text) - len(_SPACE.findall(text))


_ASCII_SPACE = bytes(3 if chr(i).isspace() else 0 for i in range(128)) + bytes(128)  # 3: space
_WIDE_SPACE = re.compile(r"[^\S\x00-\x7f]")  # white space outside ASCII


def boundary_bytes(text: str, spans: Sequence[Span2]) -> bytes:
    """B / I / O (as int8 bytes) for every character of ``text`` that is not white space."""
    if text.isascii() or (ASTRAL.search(text) is None and _WIDE_SPACE.search(text) is None):
        # every character one UTF-16 unit and every space ASCII: one byte a character (any
        # other character becomes "?"), white space dropped in one pass
        n = len(text)
        row = bytearray([O]) * n
        for s, e in spans:
            row[s:e] = bytes([I]) * (e - s)
        for s, _ in spans:
            if s < n:
                row[s] = B
        if not n:
            return b""
        spaces = text.encode("ascii", "replace").translate(_ASCII_SPACE)  # B, I, O | 3 == 3
        both = int.from_bytes(row, "big") | int.from_bytes(spaces, "big")
        return both.to_bytes(n, "big").translate(None, b"\x03")
    to_cp = Utf16Text(text).index  # UTF-16 offsets -> code point indexes
    row = bytearray([O]) * len(text)
    cps = [(to_cp(s), to_cp(e)) for s, e in spans]
    for s, e in cps:
        row[s:e] = bytes([I]) * (e - s)
    for s, _ in cps:
        if s < len(text):
            row[s] = B
    cuts = [-1, *_spaces(text), len(text)]
    return b"".join(row[a + 1 : b] for a, b in zip(cuts, cuts[1:], strict=False))


def boundaries(text: str, spans: Sequence[Span2]) -> Codes:
    """B / I / O for every character of ``text`` that is not white space, given unit spans."""
    return np.frombuffer(boundary_bytes(text, spans), dtype=np.int8)


_STATUS_CODE = {s: k for k, s in enumerate(STATUSES)}  # a plain word finds its member


def _codes_of(c: Candidate) -> tuple[int, ...]:
    """A confirmed candidate's value of every per-candidate field, coded (see PER_CANDIDATE)."""
    errors = c.errors
    return (
        int(c.faithful),
        int(c.atomic),
        *[int(k in errors) for k in ERROR_KINDS],
        _STATUS_CODE[c.evidence.status],
    )


class FileItems(NamedTuple):
    """What agreement needs of one annotator's file: plain values, cheap to send between processes.

    ``codes`` holds the boundaries (None while the file's units are proposed) and each
    per-candidate field over the file's own candidates, as int8 bytes (-1: not confirmed);
    ``confirmed`` each confirmed candidate's codes and the unit spans it keeps; ``counts``
    the four Toy ratios' numerators and denominators over the file's selection.
    """

    source: str
    answer: str  # NFC original id
    text: str
    units: tuple[tuple[int, int, str, str], ...]  # (start, end, first id, text), a span once
    proposed_units: bool
    candidates: tuple[str, ...]  # NFC ids, in file order
    confirmed: tuple[tuple[str, tuple[int, ...], tuple[Span2, ...]], ...]
    codes: tuple[bytes | None, ...]  # boundaries, then one per field of PER_CANDIDATE
    counts: tuple[int, ...]
    selection: str
    proposed: int  # candidates with proposed labels
    layout: bytes  # a digest of what two files must share for their items to line up
    keeps: bytes | None = None  # per candidate a uint64: bit k = it keeps the k-th unit span
    claims: tuple[str, ...] = ()  # each candidate's text as claims compare (same_claim_key)

    def keep_masks(self) -> NDArray[np.uint64] | None:
        """Per candidate (file order) the unit spans it keeps as bits, None past 64 spans."""
        return None if self.keeps is None else np.frombuffer(self.keeps, dtype="<u8")

    def unit_spans(self) -> dict[Span2, tuple[str, str]]:
        """Unit span -> (its id, its text)."""
        return {(s, e): (uid, t) for s, e, uid, t in self.units}


_NO_CODES = (_MISSING,) * len(PER_CANDIDATE)


def _own_codes(
    text: str,
    proposed_units: bool,
    codes: Sequence[tuple[int, ...] | None],
    spans: Sequence[Span2],
) -> tuple[bytes | None, ...]:
    """Boundaries, then each per-candidate field's codes over the file's candidates."""
    rows = [_NO_CODES if values is None else values for values in codes]
    per = [bytes(column) for column in zip(*rows, strict=True)] if rows else []
    bio = None if proposed_units else boundary_bytes(text, spans)
    return (bio, *(per or [b""] * len(PER_CANDIDATE)))


def _selected(fx: DecompositionFixture, selection: str | None) -> tuple[str, tuple[str, ...]]:
    """The mode the Toy ratios are computed on, and its ids (in order)."""
    chosen = (
        selection if selection is not None else ("decomposer" if "decomposer" in fx.modes else "")
    )
    ids = fx.mode(chosen) if chosen else fx.candidate_ids
    return chosen or "all candidates", tuple(ids)


def file_items(fx: DecompositionFixture, *, selection: str | None = None) -> FileItems:
    """Reduce one file to its :class:`FileItems` (units by span: a span listed twice is one)."""
    from claimlab.metrics.decomposition import toy_counts

    units: dict[Span2, tuple[str, str]] = {}
    span_of: dict[str, Span2] = {}
    for u in fx.units:
        sp = (u.span.start, u.span.end)
        units.setdefault(sp, (u.id, u.span.text))
        span_of[u.id] = sp
    spans = sorted(units)
    bit = {sp: 1 << k for k, sp in enumerate(spans)}
    chosen, ids = _selected(fx, selection)
    counts = toy_counts(fx, ids)
    cids = tuple(nfc(c.id) for c in fx.candidates)
    confirmed, masks = [], []
    codes: list[tuple[int, ...] | None] = []
    for cid, c in zip(cids, fx.candidates, strict=True):
        if c.review:
            codes.append(None)
            masks.append(0)
            continue
        keeps = tuple([span_of[u] for u in c.preserves if u in span_of])
        values = _codes_of(c)
        confirmed.append((cid, values, keeps))
        codes.append(values)
        mask = 0
        for sp in keeps:  # a span kept twice is one bit
            mask |= bit[sp]
        masks.append(mask)
    answer, text, proposed_units = nfc(fx.original.id), fx.original.text, bool(fx.proposed_units)
    claims = tuple(same_claim_key(c.text) for c in fx.candidates)
    return FileItems(
        source=fx.source,
        answer=answer,
        text=text,
        units=tuple([(s, e, *units[(s, e)]) for s, e in spans]),
        proposed_units=proposed_units,
        candidates=cids,
        confirmed=tuple(confirmed),
        codes=_own_codes(text, proposed_units, codes, spans),
        counts=counts,
        selection=chosen,
        proposed=codes.count(None),
        layout=hashlib.blake2b(
            repr((answer, text, cids, spans, claims)).encode(), digest_size=16
        ).digest(),
        keeps=struct.pack(f"<{len(masks)}Q", *masks) if len(spans) <= 64 else None,
        claims=claims,
    )


# ------------------------------------------------------------------------------ one answer


@dataclass(frozen=True)
class Preserves:
    """An answer's preserves items: a column per (candidate, span) someone marked, the rest counted.

    ``bulk`` maps a column of values (0 where an annotator has one, -1 where not) to how many
    items share it: the items nobody marked, by who could have.
    """

    codes: Codes
    items: tuple[tuple[int, Span2], ...]  # (candidate index, unit span) of each column
    bulk: Mapping[tuple[int, ...], int]

    def __post_init__(self) -> None:
        freeze(self, "bulk")


def _preserves(
    files: Sequence[FileItems | None], cids: Sequence[str], spans: Sequence[Span2]
) -> Preserves:
    m = len(files)
    marks = [set() if f is None else {(s, e) for s, e, *_ in f.units} for f in files]
    kept: list[dict[str, set[Span2]]] = [
        {} if f is None else {cid: set(keeps) for cid, _, keeps in f.confirmed} for f in files
    ]
    marked_by = {sp: tuple(i for i in range(m) if sp in marks[i]) for sp in spans}
    per_pattern = Counter(marked_by.values())
    columns: list[list[int]] = []
    items: list[tuple[int, Span2]] = []
    counted: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()  # (who, pattern) -> n
    for a, cid in enumerate(cids):
        who = tuple(i for i in range(m) if cid in kept[i])
        if not who:
            continue  # nobody confirmed it: no value anywhere
        mine = [kept[i][cid] for i in who]
        marked = sorted(set().union(*mine)) if any(mine) else []
        for sp in marked:
            columns.append(
                [
                    1
                    if sp in kept[i].get(cid, ())
                    else 0
                    if i in who and i in marked_by[sp]
                    else -1
                    for i in range(m)
                ]
            )
            items.append((a, sp))
        taken = Counter(marked_by[sp] for sp in marked) if marked else {}
        for pattern, n in per_pattern.items():
            counted[(who, pattern)] += n - taken.get(pattern, 0)
    bulk: Counter[tuple[int, ...]] = Counter()
    for (who, pattern), n in counted.items():
        column = tuple(0 if i in who and i in pattern else -1 for i in range(m))
        if n and 0 in column:
            bulk[column] += n
    codes = np.array(columns, dtype=np.int8).T if columns else np.zeros((m, 0), dtype=np.int8)
    return Preserves(codes.reshape(m, -1), tuple(items), dict(bulk))


@dataclass(frozen=True)
class AnswerItems:
    """One answer's items per field, coded (annotators x items), and what the items are."""

    key: AnswerKey
    files: tuple[FileItems | None, ...]
    candidates: tuple[str, ...]
    spans: tuple[Span2, ...]
    codes: Mapping[str, Codes]  # every field but preserves
    preserves: Preserves

    def __post_init__(self) -> None:
        freeze(self, "codes")

    def text_of(self, span: Span2) -> str:
        """The text of a unit span (from the first file that marks it)."""
        for f in self.files:
            if f is not None:
                for s, e, _, t in f.units:
                    if (s, e) == span:
                        return t
        return ""

    def item(self, field: str, j: int) -> str:
        """How item ``j`` of a field is named (a candidate, or a candidate and a unit span)."""
        if field == "preserves":
            a, (s, e) = self.preserves.items[j]
            return f"{self.candidates[a]} preserves {s}..{e} {self.text_of((s, e))!r}"
        return self.candidates[j]

    def columns(self, field: str) -> tuple[Codes, NDArray[np.int64]]:
        """The field's columns and their weights (preserves' counted items as weighted columns)."""
        if field != "preserves":
            codes = self.codes[field]
            return codes, np.ones(codes.shape[1], dtype=np.int64)
        return _with_bulk(self.preserves.codes, [self.preserves.bulk])


def _with_bulk(
    codes: Codes, bulks: Sequence[Mapping[tuple[int, ...], int]]
) -> tuple[Codes, NDArray[np.int64]]:
    total: Counter[tuple[int, ...]] = Counter()
    for b in bulks:
        total.update(b)
    extra = np.array(list(total), dtype=np.int8).T.reshape(codes.shape[0], -1)
    weights = np.concatenate(
        [np.ones(codes.shape[1], np.int64), np.array(list(total.values()), np.int64)]
    )
    return np.concatenate([codes, extra], axis=1), weights


def check_same_text(files: Sequence[FileItems]) -> None:
    """Refuse files of one answer that hold different texts (or ids), or one id two claims.

    Two texts of one candidate id differ as claims when they differ beyond spelling (case,
    spaces, NFC, Turkish i's): the files annotate different drafts, or an added claim reused
    an id.
    """
    first = files[0]
    claim_of = dict(zip(first.candidates, first.claims, strict=False))
    for f in files[1:]:
        if f.text != first.text or f.answer != first.answer:
            raise FixtureError(
                f"is not an annotation of the same answer as {first.source} (original "
                f"{f.answer!r} vs {first.answer!r}, or another text)",
                file=f.source,
                field="original",
            )
        for cid, claim in zip(f.candidates, f.claims, strict=False):
            if claim_of.setdefault(cid, claim) != claim:
                raise FixtureError(
                    f"holds another claim under this id than {first.source} (one id, one "
                    "claim: a claim an annotator added needs an id of its own)",
                    file=f.source,
                    record=f"{f.answer}:{cid}",
                    field="text",
                )


def answer_items(key: AnswerKey, files: Sequence[FileItems | None]) -> AnswerItems:
    """Code one answer's items for every field, over the union of its files' items.

    Raises:
        FixtureError: two files of the answer that hold different texts.
    """
    present = [f for f in files if f is not None]
    check_same_text(present)
    text, m = present[0].text, len(files)
    cids = list(dict.fromkeys(c for f in present for c in f.candidates))
    column = {c: a for a, c in enumerate(cids)}
    spans = sorted({(s, e) for f in present for s, e, *_ in f.units})
    bio = np.full((m, _width(text)), NONE, dtype=np.int8)
    per = np.full((m, len(PER_CANDIDATE), len(cids)), NONE, dtype=np.int8)
    for i, f in enumerate(files):
        if f is None:
            continue
        if f.codes[0] is not None:
            bio[i] = np.frombuffer(f.codes[0], dtype=np.int8)
        for cid, codes, _ in f.confirmed:
            per[i, :, column[cid]] = codes
    out: dict[str, Codes] = {BOUNDARIES: bio}
    for k, name in enumerate(PER_CANDIDATE):
        out[name] = per[:, k, :]
    return AnswerItems(
        key, tuple(files), tuple(cids), tuple(spans), out, _preserves(files, cids, spans)
    )


# ------------------------------------------------------------------------------ many answers


@dataclass(frozen=True)
class Pool:
    """Every answer's items side by side, per field, with weights and the answer of each column.

    Answers whose files line up (every annotator has one, with the same candidates and unit
    spans) are joined straight from the files' own codes; the others through
    :func:`answer_items`. ``owner`` is -1 for a weighted column of counted preserves items.
    """

    keys: tuple[AnswerKey, ...]
    groups: tuple[tuple[FileItems | None, ...], ...]
    codes: Mapping[str, Codes]
    weights: Mapping[str, NDArray[np.int64]]
    owner: Mapping[str, NDArray[np.int64]]
    start: Mapping[str, NDArray[np.int64]]  # per answer, where its columns begin
    lined_up: tuple[bool, ...]  # per answer: see :func:`aligned`

    def __post_init__(self) -> None:
        freeze(self, "codes", "weights", "owner", "start")

    def answer(self, k: int) -> AnswerItems:
        """Answer ``k``'s items on their own."""
        return answer_items(self.keys[k], self.groups[k])


def aligned(files: Sequence[FileItems | None]) -> bool:
    """Every annotator has a file of the answer, and their items line up."""
    if any(f is None for f in files):
        return False
    first = files[0].layout  # type: ignore[union-attr]
    return all(f.layout == first for f in files[1:])  # type: ignore[union-attr]


def _by_field(
    groups: Sequence[Sequence[FileItems | None]], fast: Sequence[int], m: int
) -> list[list[tuple[bytes, ...]]]:
    """Per annotator, per field, the lined-up answers' own codes (transposed in one C pass).

    Boundaries of a file whose units are proposed have no value (-1 for each character).
    """
    out = []
    for i in range(m):
        files = [_present(groups[k][i]) for k in fast]
        columns = list(zip(*(f.codes for f in files), strict=True))
        if None in columns[0]:
            columns[0] = tuple(
                b"\xff" * _width(f.text) if c is None else c
                for c, f in zip(columns[0], files, strict=True)
            )
        out.append(columns)
    return out


def _joined(
    by_field: Sequence[Sequence[tuple[bytes, ...]]], j: int, m: int
) -> tuple[Codes, NDArray[np.int64]]:
    """Field ``j`` of the lined-up answers (see :func:`_by_field`), and each answer's width."""
    if not by_field or not by_field[0]:
        return np.zeros((m, 0), np.int8), np.zeros(0, dtype=np.int64)
    rows = [np.frombuffer(b"".join(columns[j]), dtype=np.int8) for columns in by_field]
    widths = np.fromiter(map(len, by_field[0][j]), dtype=np.int64, count=len(by_field[0][j]))
    return np.vstack(rows), widths


def _place(
    blocks: list[Codes], sizes: NDArray[np.int64], order: NDArray[np.int64], n: int
) -> tuple[Codes, NDArray[np.int64], NDArray[np.int64]]:
    codes = np.concatenate(blocks, axis=1)
    owner = np.repeat(order, sizes)
    begin = np.zeros(n, dtype=np.int64)
    if len(order):
        begin[order] = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return codes, owner, begin


def pool(keys: Sequence[AnswerKey], groups: Sequence[Sequence[FileItems | None]], m: int) -> Pool:
    """Build the :class:`Pool` of these answers (each a group of m annotators' files or None)."""
    lined = [aligned(g) for g in groups]
    fast = [k for k, ok in enumerate(lined) if ok]
    slow = [k for k, ok in enumerate(lined) if not ok]
    others = {k: answer_items(keys[k], groups[k]) for k in slow}
    order = np.array(fast + slow, dtype=np.int64)
    by_field = _by_field(groups, fast, m) if fast else []
    codes, weights, owner, start = {}, {}, {}, {}
    for name in FIELDS:
        if name == "preserves":
            codes[name], weights[name], owner[name], start[name] = _pooled_preserves(
                keys, groups, others, m
            )
            continue
        j = 0 if name == BOUNDARIES else 1 + PER_CANDIDATE.index(name)
        joined, widths = _joined(by_field, j, m)
        blocks = [joined, *(others[k].codes[name] for k in slow)]
        sizes = np.concatenate([widths, [others[k].codes[name].shape[1] for k in slow]]).astype(
            np.int64
        )
        codes[name], owner[name], start[name] = _place(blocks, sizes, order, len(groups))
        weights[name] = np.ones(codes[name].shape[1], dtype=np.int64)
    return Pool(
        tuple(keys), tuple(tuple(g) for g in groups), codes, weights, owner, start, tuple(lined)
    )


def _pooled_preserves(
    keys: Sequence[AnswerKey],
    groups: Sequence[Sequence[FileItems | None]],
    others: Mapping[int, AnswerItems],
    m: int,
) -> tuple[Codes, NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Preserves over every answer: explicit columns by answer, then the counted ones.

    Lined-up answers whose files carry their keep masks are coded together (see
    :func:`_masked_preserves`); the others one by one through :func:`_preserves`.
    """
    masked = [k for k, g in enumerate(groups) if k not in others and _has_masks(g, m)]
    fast_codes, fast_sizes, fast_bulk = _masked_preserves(groups, masked, m)
    blocks, sizes = [fast_codes], [*fast_sizes.tolist()]
    bulks: list[Mapping[tuple[int, ...], int]] = [fast_bulk]
    done = set(masked)
    rest = [k for k in range(len(groups)) if k not in done]
    for k in rest:
        a, first = others.get(k), groups[k][0]
        if a is not None:
            p = a.preserves
        elif first is None:  # pragma: no cover - a lined-up answer has every file
            raise ValueError(f"answer {keys[k].label} is lined up without a first file")
        else:  # lined up: every file has the first one's candidates and unit spans
            p = _preserves(groups[k], first.candidates, [(s, e) for s, e, *_ in first.units])
        blocks.append(p.codes)
        sizes.append(p.codes.shape[1])
        bulks.append(p.bulk)
    codes, owner, begin = _place(
        blocks, np.array(sizes, np.int64), np.array(masked + rest, dtype=np.int64), len(groups)
    )
    full, weights = _with_bulk(codes, bulks)
    owner = np.concatenate([owner, np.full(full.shape[1] - codes.shape[1], -1, dtype=np.int64)])
    return full, weights, owner, begin


def _present(f: FileItems | None) -> FileItems:
    if f is None:  # pragma: no cover - a lined-up answer has every file
        raise ValueError("a lined-up answer without one of its files")
    return f


def _masks_of(f: FileItems) -> NDArray[np.uint64]:
    masks = f.keep_masks()
    if masks is None:  # pragma: no cover - only files with masks are coded together
        raise ValueError(f"{f.source}: no keep masks")
    return masks


def _codes(f: FileItems, j: int) -> bytes:
    codes = f.codes[j]
    if codes is None:  # pragma: no cover - only boundaries may be None
        raise ValueError(f"{f.source}: no codes for field {j}")
    return codes


def _has_masks(group: Sequence[FileItems | None], m: int) -> bool:
    """Every file with its masks, candidate ids distinct, few enough annotators."""
    files = [f for f in group if f is not None]
    if m > 30 or len(files) < len(group):  # the annotators' pattern is a bit mask
        return False
    first = files[0]
    return all(f.keeps is not None for f in files) and len(set(first.candidates)) == len(
        first.candidates
    )


def _masked_preserves(
    groups: Sequence[Sequence[FileItems | None]], answers: Sequence[int], m: int
) -> tuple[Codes, NDArray[np.int64], dict[tuple[int, ...], int]]:
    """Preserves of lined-up answers from their keep masks, as :func:`_preserves` codes them.

    Every file of a lined-up answer marks the same unit spans, so a candidate some annotator
    confirmed has a column for each span one of them says it keeps (1 where that annotator
    says so, 0 where they confirmed it without, -1 where they did not confirm it), in
    candidate then span order; its other spans are counted by who confirmed it.
    Returns the columns, each answer's number of columns, and the counted items.
    """
    if not answers:
        return np.zeros((m, 0), np.int8), np.zeros(0, np.int64), {}
    files = [[_present(groups[k][i]) for k in answers] for i in range(m)]
    masks = np.stack([np.concatenate([_masks_of(f) for f in fs]) for fs in files])
    said = np.stack([np.frombuffer(b"".join(_codes(f, 1) for f in fs), np.uint8) for fs in files])
    said = said != _MISSING  # annotator x candidate: confirmed
    width = np.array([len(f.candidates) for f in files[0]], np.int64)
    answer_of = np.repeat(np.arange(len(answers)), width)
    spans = np.array([len(f.units) for f in files[0]], np.int64)[answer_of]
    union = np.bitwise_or.reduce(masks, axis=0)
    bits = np.unpackbits(union.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    cand, bit = np.nonzero(bits)
    kept = (masks[:, cand] >> bit.astype(np.uint64)) & np.uint64(1)
    codes = np.where(kept == 1, 1, np.where(said[:, cand], 0, -1)).astype(np.int8)
    sizes = np.bincount(answer_of[cand], minlength=len(answers)).astype(np.int64)
    anyone = said.any(axis=0)
    rest = (spans - bits.sum(axis=1, dtype=np.int64))[anyone]
    who = said[:, anyone]
    pattern = (who * (1 << np.arange(m))[:, None]).sum(axis=0)
    bulk: dict[tuple[int, ...], int] = {}
    for code in dict.fromkeys(pattern.tolist()):  # patterns in order of first appearance
        n = int(rest[pattern == code].sum())
        if n:
            bulk[tuple(0 if code >> i & 1 else -1 for i in range(m))] = n
    return codes.reshape(m, -1), sizes, bulk


def _values(codes: Codes, j: int, cats: Sequence[str]) -> tuple[str | None, ...]:
    return tuple(None if v < 0 else cats[int(v)] for v in codes[:, j])


def disagreements(p: Pool) -> list[Disagreement]:
    """Items on which the annotators who labelled it chose differently (units: by span)."""
    many = len(p.keys) > 1
    found: list[tuple[int, int, int, Disagreement]] = []
    answers: dict[int, AnswerItems] = {}
    for f_index, name in enumerate(FIELDS):
        if name == BOUNDARIES:
            for k, ok in enumerate(p.lined_up):
                if not ok:
                    prefix = f"{p.keys[k].label}: " if many else ""
                    for d in unit_disagreements(_answer(answers, p, k), prefix=prefix):
                        found.append((k, f_index, 0, d))
            continue
        codes, owner = p.codes[name], p.owner[name]
        valid = codes >= 0
        low = np.where(valid, codes, np.int8(127)).min(axis=0)
        high = np.where(valid, codes, np.int8(-1)).max(axis=0)
        cats = categories_of(name)
        for j in np.flatnonzero((high >= 0) & (low != high)).tolist():
            k = int(owner[j])
            local = j - int(p.start[name][k])
            label = _item_name(answers, p, k, name, local)
            prefix = f"{p.keys[k].label}: " if many else ""
            found.append(
                (k, f_index, local, Disagreement(prefix + label, name, _values(codes, j, cats)))
            )
    found.sort(key=lambda t: (t[1], t[0], t[2]))
    return [d for *_, d in found]


def _item_name(cache: dict[int, AnswerItems], p: Pool, k: int, name: str, j: int) -> str:
    """Item ``j`` of a field of answer ``k`` (see :meth:`AnswerItems.item`).

    A lined-up answer's per-candidate items are its files' candidates in order: named
    without coding the answer's items again.
    """
    if name != "preserves" and p.lined_up[k]:  # every file there, each with these candidates
        return _present(p.groups[k][0]).candidates[j]
    return _answer(cache, p, k).item(name, j)


def _answer(cache: dict[int, AnswerItems], p: Pool, k: int) -> AnswerItems:
    if k not in cache:
        cache[k] = p.answer(k)
    return cache[k]


def unit_disagreements(a: AnswerItems, *, prefix: str = "") -> list[Disagreement]:
    """Unit spans some annotators marked and others did not (files with proposed units: no value)."""
    out = []
    for sp in a.spans:
        vals: list[str | None] = []
        for f in a.files:
            if f is None or f.proposed_units:
                vals.append(None)
                continue
            hit = f.unit_spans().get(sp)
            vals.append(f"unit {hit[0]}" if hit else "no unit")
        given = {"unit" if v.startswith("unit ") else v for v in vals if v is not None}
        if len(given) > 1:
            item = f"{prefix}unit {sp[0]}..{sp[1]} {a.text_of(sp)!r}"
            out.append(Disagreement(item, BOUNDARIES, tuple(vals)))
    return out
