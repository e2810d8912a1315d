"""FEVER gold claims and system predictions, read and checked, and paired by id.

Gold lines hold ``id``, ``label``, ``claim`` and ``evidence`` (groups of ``[annotation_id,
evidence_id, page, line]``); prediction lines hold ``id``, ``predicted_label`` and
``predicted_evidence`` (``[page, line]`` pairs). An empty gold evidence group is refused (the
official scorer would count it as complete). Errors name file, line (and id) and field.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import as_text
from claimlab.core.vocab import FeverLabel, unknown
from claimlab.io.reader import (
    Record,
    bulk_load,
    describe,
    int64,
    iter_jsonl,
    line_decoder,
    where,
)

Sentence = tuple[str, int]


LABELS: dict[str, FeverLabel] = {label.value: label for label in FeverLabel}
NEI = FeverLabel.NOT_ENOUGH_INFO


@dataclass(frozen=True, slots=True)
class GoldClaim:
    """A gold FEVER claim: label and alternative evidence groups of (page, line) sentences."""

    id: int | str
    label: FeverLabel
    claim: str
    groups: tuple[tuple[Sentence, ...], ...]

    @property
    def sentences(self) -> frozenset[Sentence]:
        """Every sentence of every gold group."""
        return frozenset(s for g in self.groups for s in g)


@dataclass(frozen=True, slots=True)
class Prediction:
    """A system's label and ranked predicted evidence sentences."""

    id: int | str
    label: FeverLabel
    evidence: tuple[Sentence, ...]


# The readers' fast paths build records without the frozen dataclass's __init__, which sets each
# field through object.__setattr__ (0.6-0.7 us a record against 0.4 us, measured; 3 ms of the
# shared 9,999 claims' 40 ms of reading): the slots are filled directly, once, as __init__
# would (the classes have no default and no __post_init__).
_NEW = object.__new__
_GOLD_ID, _GOLD_LABEL, _GOLD_CLAIM, _GOLD_GROUPS = (
    GoldClaim.__dict__[name].__set__ for name in ("id", "label", "claim", "groups")
)
_PRED_ID, _PRED_LABEL, _PRED_EVIDENCE = (
    Prediction.__dict__[name].__set__ for name in ("id", "label", "evidence")
)


def _gold(cid: int | str, label: FeverLabel, claim: str, groups: Any) -> GoldClaim:
    """``GoldClaim(cid, label, claim, groups)``, the same record made faster (see above)."""
    record: GoldClaim = _NEW(GoldClaim)
    _GOLD_ID(record, cid)
    _GOLD_LABEL(record, label)
    _GOLD_CLAIM(record, claim)
    _GOLD_GROUPS(record, groups)
    return record


def _prediction(cid: int | str, label: FeverLabel, evidence: Any) -> Prediction:
    """``Prediction(cid, label, evidence)``, the same record made faster (see above)."""
    record: Prediction = _NEW(Prediction)
    _PRED_ID(record, cid)
    _PRED_LABEL(record, label)
    _PRED_EVIDENCE(record, evidence)
    return record


def _record(obj: Any, source: str, n: int) -> Record:
    """A line as a Record named by its line number and id (an integer or a string)."""
    if not isinstance(obj, dict):
        raise ClaimlabInputError("must be a JSON object", file=source, record=where(n))
    first = Record(obj, file=source, record=where(n), error=ClaimlabInputError)
    cid = first.get("id", (int, str), want="an integer or string id")
    return Record(obj, file=source, record=where(n, cid), error=ClaimlabInputError)


def _label(rec: Record, name: str) -> FeverLabel:
    value = rec.get(name, str, want=f"one of {', '.join(LABELS)}")
    label = LABELS.get(value.upper())
    if label is None:
        raise rec.error(unknown("label", value, LABELS), field=name)
    return label


def _sentence(rec: Record, page: Any, line: Any, page_field: str, line_field: str) -> Sentence:
    """A (page, line) evidence sentence, checked: a non-empty page name and an integer line."""
    if not isinstance(page, str) or not page:
        raise rec.error(f"page must be a non-empty string, got {describe(page)}", field=page_field)
    if isinstance(line, bool) or not isinstance(line, int) or line < 0:
        raise rec.error(
            f"line must be an integer of 0 or more (a sentence's index), got {describe(line)}",
            field=line_field,
        )
    return (page, line)


def _gold_fast(obj: Any) -> GoldClaim | None:
    """A well-formed gold line as a record, checked with cheap type tests; None on any doubt.

    The fast path of the reader: a line it cannot vouch for goes to :func:`_gold_checked`,
    which names what is wrong (or, for a line that is fine after all, builds the same record).
    """
    if type(obj) is not dict:
        return None
    cid, label, ev = obj.get("id"), obj.get("label"), obj.get("evidence")
    if type(cid) not in (int, str) or type(label) is not str or type(ev) is not list:
        return None
    lab = LABELS.get(label) or LABELS.get(label.upper())
    if lab is None:
        return None
    nei = lab is NEI
    groups = []
    for group in ev:
        if type(group) is not list or (not group and not nei):
            return None
        sents = []
        for item in group:
            if type(item) is not list or len(item) != 4:
                return None
            page, line = item[2], item[3]
            if nei and page is None:
                continue
            if type(page) is not str or not page or type(line) is not int or line < 0:
                return None
            sents.append((page, line))
        if sents:
            groups.append(tuple(sents))
    claim = obj.get("claim", "")
    return _gold(cid, lab, as_text(claim), tuple(groups))  # type: ignore[arg-type]


def _gold_checked(obj: Any, source: str, n: int) -> GoldClaim:
    """A gold line checked field by field; the first problem is an error naming it."""
    rec = _record(obj, source, n)
    label = _label(rec, "label")
    groups = []
    for gi, group in enumerate(rec.get("evidence", list, want="a list of groups")):
        f = f"evidence[{gi}]"
        if not isinstance(group, list):
            raise rec.error(f"must be a list, got {describe(group)}", field=f)
        if label != NEI and not group:
            raise rec.error(
                "empty evidence group (the official scorer would count it as complete)", field=f
            )
        sents = []
        for si, item in enumerate(group):
            fi = f"{f}[{si}]"
            if not isinstance(item, list) or len(item) != 4:
                raise rec.error(
                    f"must be [annotation_id, evidence_id, page, line], got {describe(item)}",
                    field=fi,
                )
            if label == NEI and item[2] is None:
                continue
            sents.append(_sentence(rec, item[2], item[3], f"{fi}[2]", f"{fi}[3]"))
        if sents:
            groups.append(tuple(sents))
    return GoldClaim(rec.data["id"], label, as_text(obj.get("claim", "")), tuple(groups))


def _prediction_fast(obj: Any, require_evidence: bool) -> Prediction | None:
    """A well-formed prediction line as a record; None on any doubt (see :func:`_gold_fast`)."""
    if type(obj) is not dict:
        return None
    cid, label, pe = obj.get("id"), obj.get("predicted_label"), obj.get("predicted_evidence")
    if type(cid) not in (int, str) or type(label) is not str:
        return None
    lab = LABELS.get(label) or LABELS.get(label.upper())
    if lab is None:
        return None
    if pe is None:
        if require_evidence or "predicted_evidence" in obj:
            return None
        return _prediction(cid, lab, ())  # type: ignore[arg-type]
    if type(pe) is not list:
        return None
    sents = []
    for item in pe:
        if type(item) is not list or len(item) != 2:
            return None
        page, line = item
        if type(page) is not str or not page or type(line) is not int or line < 0:
            return None
        sents.append((page, line))
    return _prediction(cid, lab, tuple(sents))  # type: ignore[arg-type]


def _prediction_checked(obj: Any, source: str, n: int, require_evidence: bool) -> Prediction:
    """A prediction line checked field by field; the first problem is an error naming it."""
    rec = _record(obj, source, n)
    label = _label(rec, "predicted_label")
    if "predicted_evidence" not in obj and not require_evidence:
        return Prediction(rec.data["id"], label, ())
    sents = []
    for i, item in enumerate(rec.get("predicted_evidence", list)):
        f = f"predicted_evidence[{i}]"
        if not isinstance(item, list) or len(item) != 2:
            raise rec.error(f"must be [page, line], got {describe(item)}", field=f)
        sents.append(_sentence(rec, item[0], item[1], f"{f}[0]", f"{f}[1]"))
    return Prediction(rec.data["id"], label, tuple(sents))


@functools.cache
def _line_types() -> dict[object, Any]:
    """Msgspec decoders of a well-formed gold line and prediction line (a large file's path).

    Strict where the readers above are: labels as written, a non-empty page, a line of 0 or
    more, no boolean for a number, every field named (the shared files' ``verifiable`` too),
    anything else refused, so such a line goes the readers' way and gets their verdict.
    """
    from msgspec import UNSET, Meta, UnsetType

    label = Literal[tuple(LABELS)]  # type: ignore[valid-type]
    page = Annotated[str, Meta(min_length=1)]
    line, number = int64(ge=0), int64()
    ident = number | str | None
    evidence = list[tuple[page, line]]  # type: ignore[valid-type]
    group = list[tuple[ident, ident, page | None, line | None]]  # type: ignore[valid-type]
    predicted = [("id", number | str), ("predicted_label", label)]
    return {
        "gold": line_decoder(
            "Gold",
            [
                ("id", number | str),
                ("label", label),
                ("evidence", list[group]),
                ("claim", str, ""),
                ("verifiable", str | UnsetType, UNSET),
            ],
        ),
        True: line_decoder("Predicted", [*predicted, ("predicted_evidence", evidence)]),
        False: line_decoder(
            "MaybePredicted", [*predicted, ("predicted_evidence", evidence | UnsetType, UNSET)]
        ),
    }


def _gold_typed(line: Any) -> GoldClaim | None:
    """A typed gold line as a record; None where a group breaks a rule its type cannot say."""
    label = LABELS[line.label]
    nei = label is NEI
    groups = []
    for group in line.evidence:
        if not group and not nei:
            return None
        sents = []
        for _, _, page, number in group:
            if page is None and nei:
                continue
            if page is None or number is None:
                return None
            sents.append((page, number))
        if sents:
            groups.append(tuple(sents))
    return _gold(line.id, label, line.claim, tuple(groups))


def _prediction_typed(line: Any) -> Prediction:
    """A typed prediction line as a record (its type said all there is to check)."""
    evidence = line.predicted_evidence
    return _prediction(
        line.id, LABELS[line.predicted_label], () if not evidence else tuple(evidence)
    )


R = TypeVar("R", GoldClaim, Prediction)


def _load(
    path: str | Path,
    fast: Callable[[Any], R | None],
    checked: Callable[[Any, str, int], R],
    typed: tuple[Any, Callable[[Any], R | None]],
) -> list[R]:
    """Every line as a record, ids unique; the garbage collector paused (the records are acyclic).

    ``typed``: the key of the line's msgspec decoder (:func:`_line_types`) and how a decoded
    line becomes a record (a large file's fast path: see :func:`iter_jsonl`).
    """
    source = str(path)
    out: list[R] = []
    seen: set[int | str] = set()
    key, from_typed = typed
    lines = iter_jsonl(path, typed=(lambda: _line_types()[key], from_typed))
    with bulk_load():
        for n, obj in lines:
            record: R | None = obj if type(obj) in (GoldClaim, Prediction) else fast(obj)
            if record is None:
                record = checked(obj, source, n)
            if record.id in seen:
                raise ClaimlabInputError(
                    "duplicate id", file=source, record=where(n, record.id), field="id"
                )  # the one check across lines
            seen.add(record.id)
            out.append(record)
    return out


def load_gold(path: str | Path) -> list[GoldClaim]:
    """Load FEVER gold claims.

    Each line holds ``id``, ``label``, ``claim`` and ``evidence``: groups of
    ``[annotation_id, evidence_id, page, line]``.

    Raises:
        ClaimlabInputError: naming file, line (and id) and field.
    """
    return _load(path, _gold_fast, _gold_checked, ("gold", _gold_typed))


def load_predictions(path: str | Path, *, require_evidence: bool = True) -> list[Prediction]:
    """Load predictions (``id``, ``predicted_label``, ``predicted_evidence``: ``[[page, line], ...]``).

    Raises:
        ClaimlabInputError: naming file, line (and id) and field.
    """
    return _load(
        path,
        lambda obj: _prediction_fast(obj, require_evidence),
        lambda obj, source, n: _prediction_checked(obj, source, n, require_evidence),
        (require_evidence, _prediction_typed),
    )


def pair_by_id(
    gold: Sequence[GoldClaim],
    predictions: Sequence[Prediction],
    *,
    gold_file: str = "gold",
    pred_file: str = "predictions",
) -> list[tuple[GoldClaim, Prediction]]:
    """Pair gold and predictions by id, in prediction order (the official scorer's order).

    Raises:
        ClaimlabInputError: naming the first id missing on either side.
    """
    by_id = {g.id: g for g in gold}
    pairs = []
    with bulk_load():
        for p in predictions:
            g = by_id.get(p.id)
            if g is None:
                raise ClaimlabInputError(
                    f"prediction for id {p.id} has no gold claim in {gold_file}",
                    file=pred_file,
                    record=f"id {p.id}",
                    field="id",
                )
            pairs.append((g, p))
    if len(pairs) != len(gold):
        pred_ids = {p.id for p in predictions}
        missing = [g.id for g in gold if g.id not in pred_ids]
        raise ClaimlabInputError(
            f"{len(missing)} gold claim(s) have no prediction, first id {missing[0]}",
            file=pred_file,
            record=f"id {missing[0]}",
            field="id",
        )
    return pairs
