"""FEVER-format scoring on top of the witness core, reproducing the official scorer's figures.

Metric card (conventions of the official FEVER scorer, Thorne et al. 2018, kept exactly):
    label accuracy = correct labels / claims.
    strict (FEVER score) = claims with the right label and, unless the gold label is NOT ENOUGH
        INFO, at least one complete gold evidence group among the first ``max_evidence``
        predicted sentences; NOT ENOUGH INFO is strict on the label alone.
    precision (macro over verifiable gold claims) = mean over those claims of the share of the first
        ``max_evidence`` predicted sentences that occur in any gold group; a claim with no
        predicted sentence counts as precision 1.
    recall (macro over verifiable gold claims) = share of those claims with a complete gold group.
    F1 = 2PR / (P + R); defined as 0.0 when P = R = 0 (the official scorer divides by zero).
    Undefined: with no verifiable gold claim there is nothing to find evidence for, so
    precision, recall and F1 are N/A (None); the official scorer prints precision 1.0, recall
    0.0 and F1 0.0 there. With no claim at all, strict score and label accuracy are N/A too.
    Differences from the official scorer: gold and predictions are paired by ``id`` (it pairs by
    position), inputs are never mutated, malformed lines are errors naming file, line and field,
    an empty gold evidence group is an error (it would count as complete: ``all([])``), and
    ``max_evidence`` must be at least 1 (a negative slice would silently drop sentences).
    Beyond it: per claim, which gold group was complete and what each incomplete group misses;
    the count of claims one sentence away from a witness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from claimlab._parse import iter_jsonl, where
from claimlab.errors import ClaimlabInputError
from claimlab.ratio import Ratio
from claimlab.sufficiency import any_group_complete, find_group_gaps

LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
NEI = "NOT ENOUGH INFO"
Sentence = tuple[str, int]


@dataclass(frozen=True)
class GoldClaim:
    """A gold FEVER claim: label and alternative evidence groups of (page, line) sentences."""

    id: int
    label: str
    claim: str
    groups: tuple[tuple[Sentence, ...], ...]
    sentences: frozenset[Sentence] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sentences", frozenset(s for g in self.groups for s in g))


@dataclass(frozen=True)
class Prediction:
    """A system's label and ranked predicted evidence sentences."""

    id: int
    label: str
    evidence: tuple[Sentence, ...]


def _label(value, *, file: str, rec: str, field: str) -> str:
    if not isinstance(value, str) or value.upper() not in LABELS:
        raise ClaimlabInputError(
            f"unknown label {value!r} (one of {', '.join(LABELS)})",
            file=file,
            record=rec,
            field=field,
        )
    return value.upper()


def _id(obj: dict, *, file: str, n: int) -> int:
    if "id" not in obj:
        raise ClaimlabInputError("missing required field", file=file, record=where(n), field="id")
    v = obj["id"]
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ClaimlabInputError(
            f"must be an integer or string id, got {v!r}", file=file, record=where(n), field="id"
        )
    return v


def _sentence(page, line, source: str, rec: str, page_field: str, line_field: str) -> Sentence:
    """A (page, line) evidence sentence, checked: a non-empty page name and an integer line."""
    if not isinstance(page, str) or not page:
        raise ClaimlabInputError(
            f"page must be a non-empty string, got {page!r}",
            file=source,
            record=rec,
            field=page_field,
        )
    if isinstance(line, bool) or not isinstance(line, int):
        raise ClaimlabInputError(
            f"line must be an integer, got {line!r}", file=source, record=rec, field=line_field
        )
    return (page, line)


def _unique_records(path: str | Path):
    """Yield ``(line, object, id, record label)`` per line, refusing non-objects and repeated ids."""
    source = str(path)
    seen: set = set()
    for n, obj in iter_jsonl(path):
        if not isinstance(obj, dict):
            raise ClaimlabInputError("must be a JSON object", file=source, record=where(n))
        cid = _id(obj, file=source, n=n)
        rec = where(n, cid)
        if cid in seen:
            raise ClaimlabInputError("duplicate id", file=source, record=rec, field="id")
        seen.add(cid)
        yield n, obj, cid, rec


def load_gold(path: str | Path) -> list[GoldClaim]:
    """Load FEVER gold claims.

    Each line holds ``id``, ``label``, ``claim`` and ``evidence``: groups of
    ``[annotation_id, evidence_id, page, line]``.

    Raises:
        ClaimlabInputError: naming file, line (and id) and field.
    """
    source = str(path)
    out: list[GoldClaim] = []
    for _, obj, cid, rec in _unique_records(path):
        if "label" not in obj:
            raise ClaimlabInputError(
                "missing required field", file=source, record=rec, field="label"
            )
        label = _label(obj["label"], file=source, rec=rec, field="label")
        if "evidence" not in obj:
            raise ClaimlabInputError(
                "missing required field", file=source, record=rec, field="evidence"
            )
        ev = obj["evidence"]
        if not isinstance(ev, list):
            raise ClaimlabInputError(
                f"must be a list of groups, got {ev!r}", file=source, record=rec, field="evidence"
            )
        groups = []
        for gi, group in enumerate(ev):
            f = f"evidence[{gi}]"
            if not isinstance(group, list):
                raise ClaimlabInputError(
                    f"must be a list, got {group!r}", file=source, record=rec, field=f
                )
            if label != NEI and not group:
                raise ClaimlabInputError(
                    "empty evidence group (the official scorer would count it as complete)",
                    file=source,
                    record=rec,
                    field=f,
                )
            sents = []
            for si, item in enumerate(group):
                fi = f"{f}[{si}]"
                if not isinstance(item, list) or len(item) != 4:
                    raise ClaimlabInputError(
                        f"must be [annotation_id, evidence_id, page, line], got {item!r}",
                        file=source,
                        record=rec,
                        field=fi,
                    )
                if label == NEI and item[2] is None:
                    continue
                sents.append(_sentence(item[2], item[3], source, rec, f"{fi}[2]", f"{fi}[3]"))
            if sents:
                groups.append(tuple(sents))
        out.append(GoldClaim(cid, label, str(obj.get("claim", "")), tuple(groups)))
    return out


def load_predictions(path: str | Path, *, require_evidence: bool = True) -> list[Prediction]:
    """Load predictions (``id``, ``predicted_label``, ``predicted_evidence``: ``[[page, line], ...]``).

    Raises:
        ClaimlabInputError: naming file, line (and id) and field.
    """
    source = str(path)
    out = []
    for _, obj, cid, rec in _unique_records(path):
        if "predicted_label" not in obj:
            raise ClaimlabInputError(
                "missing required field", file=source, record=rec, field="predicted_label"
            )
        label = _label(obj["predicted_label"], file=source, rec=rec, field="predicted_label")
        if "predicted_evidence" not in obj:
            if require_evidence:
                raise ClaimlabInputError(
                    "missing required field", file=source, record=rec, field="predicted_evidence"
                )
            out.append(Prediction(cid, label, ()))
            continue
        pe = obj["predicted_evidence"]
        if not isinstance(pe, list):
            raise ClaimlabInputError(
                f"must be a list, got {pe!r}", file=source, record=rec, field="predicted_evidence"
            )
        sents = []
        for i, item in enumerate(pe):
            f = f"predicted_evidence[{i}]"
            if not isinstance(item, list) or len(item) != 2:
                raise ClaimlabInputError(
                    f"must be [page, line], got {item!r}", file=source, record=rec, field=f
                )
            sents.append(_sentence(item[0], item[1], source, rec, f"{f}[0]", f"{f}[1]"))
        out.append(Prediction(cid, label, tuple(sents)))
    return out


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


def _key(s: Sentence) -> str:
    return f"{s[0]}#{s[1]}"


class ClaimScore(NamedTuple):
    """One claim's official figures and its witness details."""

    id: int
    label: str
    predicted_label: str
    label_correct: bool
    strict_correct: bool
    precision: float | None
    recall_hit: bool | None
    complete_groups: tuple[int, ...]
    missing: tuple[tuple[Sentence, ...], ...]

    @property
    def one_away(self) -> bool:
        """A verifiable claim without a complete group, but with a group missing one sentence."""
        return self.recall_hit is False and any(len(m) == 1 for m in self.missing)

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "id": self.id,
            "label": self.label,
            "predicted_label": self.predicted_label,
            "label_correct": self.label_correct,
            "strict_correct": self.strict_correct,
            "precision": self.precision,
            "recall_hit": self.recall_hit,
            "complete_groups": list(self.complete_groups),
            "missing_per_group": [[_key(s) for s in m] for m in self.missing],
            "one_sentence_away": self.one_away,
        }


@dataclass(frozen=True)
class FeverResult:
    """Corpus figures as the official scorer defines them, each with its counts.

    Per-claim witness details (``claims``) are worked out by the witness core on first use.
    """

    strict: Ratio
    label: Ratio
    precision_sum: float
    recall: Ratio
    max_evidence: int | None
    pairs: tuple[tuple[GoldClaim, Prediction], ...] = field(repr=False, compare=False)

    @property
    def strict_score(self) -> float | None:
        """Strict (FEVER) score."""
        return self.strict.value

    @property
    def label_accuracy(self) -> float | None:
        """Label accuracy."""
        return self.label.value

    @property
    def precision(self) -> float | None:
        """Macro precision over verifiable gold claims; None (N/A) when there are none."""
        return self.precision_sum / self.recall.denominator if self.recall.denominator else None

    @property
    def f1(self) -> float | None:
        """Harmonic mean of precision and recall; 0.0 when both are 0; None without a verifiable claim."""
        p, r = self.precision, self.recall.value
        if p is None or r is None:
            return None
        return 0.0 if p + r == 0 else 2.0 * p * r / (p + r)

    @cached_property
    def claims(self) -> tuple[ClaimScore, ...]:
        """Per claim: the official checks, the complete gold groups and what each other misses."""
        return tuple(claim_score(g, p, max_evidence=self.max_evidence) for g, p in self.pairs)

    @property
    def one_sentence_away(self) -> tuple[int, ...]:
        """Ids of verifiable claims one predicted sentence away from a complete witness."""
        return tuple(c.id for c in self.claims if c.one_away)

    def to_dict(self, *, details: bool = False) -> dict:
        """JSON form: the five official figures, their counts, and optionally every claim."""
        out = {
            "strict_score": self.strict_score,
            "label_accuracy": self.label_accuracy,
            "precision": self.precision,
            "recall": self.recall.value,
            "f1": self.f1,
            "max_evidence": self.max_evidence,
            "counts": {
                "strict": self.strict.to_dict(),
                "label": self.label.to_dict(),
                "recall": self.recall.to_dict(),
                "precision": {
                    "mean_of": self.recall.denominator,
                    "sum": self.precision_sum,
                    "note": "macro over verifiable gold claims; no predicted sentence counts as 1",
                },
                "claims": self.strict.denominator,
                "verifiable": self.recall.denominator,
                "one_sentence_away": len(self.one_sentence_away),
            },
        }
        if details:
            out["claims"] = [c.to_dict() for c in self.claims]
        return out


def _precision(g: GoldClaim, predicted: tuple[Sentence, ...]) -> float:
    # the share of predicted sentences found in any gold group; none predicted counts as 1
    return sum(map(g.sentences.__contains__, predicted)) / len(predicted) if predicted else 1.0


def check_max_evidence(max_evidence: int | None) -> None:
    """``max_evidence`` is None (every sentence) or an integer of at least 1.

    Raises:
        ClaimlabInputError: naming the option.
    """
    if max_evidence is None:
        return
    if isinstance(max_evidence, bool) or not isinstance(max_evidence, int) or max_evidence < 1:
        raise ClaimlabInputError(
            f"must be an integer of at least 1, got {max_evidence!r}", field="max_evidence"
        )


def claim_score(g: GoldClaim, p: Prediction, *, max_evidence: int | None = 5) -> ClaimScore:
    """One claim's official checks and its witness details (complete groups, missing sentences)."""
    predicted = p.evidence if max_evidence is None else p.evidence[:max_evidence]
    correct = g.label == p.label
    if g.label == NEI:
        return ClaimScore(g.id, g.label, p.label, correct, correct, None, None, (), ())
    if g.groups:
        complete, gaps = find_group_gaps(g.groups, frozenset(predicted))
        missing = () if complete else gaps
        hit = bool(complete)
    else:  # a verifiable claim with no gold group: the official recall counts it as found
        complete, missing, hit = (), (), True
    return ClaimScore(
        g.id,
        g.label,
        p.label,
        correct,
        correct and hit,
        _precision(g, predicted),
        hit,
        complete,
        missing,
    )


def score_fever(
    pairs: Sequence[tuple[GoldClaim, Prediction]], *, max_evidence: int | None = 5
) -> FeverResult:
    """Score paired claims with the official conventions (counts first, then divide).

    Examples:
        >>> g = GoldClaim(1, "SUPPORTS", "c", ((("P", 0),), (("P", 1), ("Q", 2))))
        >>> p = Prediction(1, "SUPPORTS", (("Q", 2), ("X", 0)))
        >>> r = score_fever([(g, p)])
        >>> r.strict.display, r.precision, r.recall.display, r.one_sentence_away
        ('0.0% (0/1)', 0.5, '0.0% (0/1)', (1,))
        >>> score_fever([]).f1 is None  # no verifiable claim: N/A, not 0.0
        True
    """
    check_max_evidence(max_evidence)
    pairs = tuple(pairs)
    strict = label_ok = verifiable = recall_hits = 0
    precision_sum = 0.0
    for g, p in pairs:
        predicted = p.evidence if max_evidence is None else p.evidence[:max_evidence]
        correct = g.label == p.label
        label_ok += correct
        if g.label == NEI:
            strict += correct
            continue
        verifiable += 1
        precision_sum += _precision(g, predicted)
        hit = any_group_complete(g.groups, frozenset(predicted)) if g.groups else True
        recall_hits += hit
        strict += correct and hit
    return FeverResult(
        strict=Ratio(strict, len(pairs)),
        label=Ratio(label_ok, len(pairs)),
        precision_sum=precision_sum,
        recall=Ratio(recall_hits, verifiable),
        max_evidence=max_evidence,
        pairs=pairs,
    )


def group_size_counts(gold: Sequence[GoldClaim]) -> dict[int, int]:
    """How many gold evidence groups have 1, 2, ... sentences (verifiable claims only)."""
    counts: dict[int, int] = {}
    for g in gold:
        if g.label == NEI:
            continue
        for group in g.groups:
            counts[len(group)] = counts.get(len(group), 0) + 1
    return dict(sorted(counts.items()))


def alternatives_counts(gold: Sequence[GoldClaim]) -> dict[int, int]:
    """How many verifiable claims have 1, 2, ... alternative gold groups."""
    counts: dict[int, int] = {}
    for g in gold:
        if g.label != NEI:
            counts[len(g.groups)] = counts.get(len(g.groups), 0) + 1
    return dict(sorted(counts.items()))


def missing_premise_counts(result: FeverResult) -> dict[int, int]:
    """For verifiable claims: fewest sentences missing from any gold group (0 = witness found)."""
    counts: dict[int, int] = {}
    for c in result.claims:
        if c.recall_hit is None:
            continue
        k = 0 if c.recall_hit else min((len(m) for m in c.missing), default=0)
        counts[k] = counts.get(k, 0) + 1
    return dict(sorted(counts.items()))


def near_misses(
    result: FeverResult, pairs: Sequence[tuple[GoldClaim, Prediction]], *, limit: int = 5
) -> list[dict]:
    """Claims one predicted sentence away from a witness, with what was predicted and what is missing."""
    by_id = {g.id: (g, p) for g, p in pairs}
    out = []
    for c in result.claims:
        if not c.one_away:
            continue
        g, p = by_id[c.id]
        missing = min((m for m in c.missing if len(m) == 1), key=len)
        out.append(
            {
                "id": c.id,
                "claim": g.claim,
                "label": g.label,
                "predicted_label": p.label,
                "predicted (first 5)": ", ".join(
                    _key(s) for s in p.evidence[: result.max_evidence or None]
                ),
                "missing sentence": _key(missing[0]),
            }
        )
        if len(out) >= limit:
            break
    return out


def sweep_max_evidence(
    pairs: Sequence[tuple[GoldClaim, Prediction]], values: Sequence[int]
) -> dict[int, FeverResult]:
    """Score with several ``max_evidence`` values (how much the cut-off moves the figures)."""
    return {k: score_fever(pairs, max_evidence=k) for k in values}
