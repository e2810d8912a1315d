"""FEVER-format scoring on top of the witness core, reproducing the official scorer's figures.

Metric card (conventions of the official FEVER scorer, Thorne et al. 2018, kept exactly):
    label accuracy = correct labels / claims.
    strict (FEVER score) = claims with the right label and, unless the gold label is NOT ENOUGH
        INFO, at least one complete gold evidence group among the first ``max_evidence``
        predicted sentences; NOT ENOUGH INFO is strict on the label alone. A verifiable claim
        with no gold group (``evidence: []``) has no group to complete: no strict credit.
    precision (macro over verifiable gold claims) = mean over those claims of the share of the first
        ``max_evidence`` predicted sentences that occur in any gold group; a claim with no
        predicted sentence counts as precision 1.
    recall (macro over verifiable gold claims) = share of those claims with a complete gold group;
        a claim with no gold group counts as found (the official recall returns 1 for it).
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
from typing import TYPE_CHECKING, Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.ratio import Ratio
from claimlab.core.vocab import FEVER_GATED, FeverLabel
from claimlab.io.fever import GoldClaim, Prediction, Sentence
from claimlab.io.reader import bulk_load
from claimlab.metrics.groups import any_group_complete, find_group_gaps

NEI = FeverLabel.NOT_ENOUGH_INFO

if TYPE_CHECKING:  # the gate (and numpy) load when a run is gated
    from claimlab.metrics.gate import GateFigure


def _key(s: Sentence) -> str:
    return f"{s[0]}#{s[1]}"


@dataclass(frozen=True, slots=True)
class ClaimScore:
    """One claim's official figures and its witness details."""

    id: int | str
    label: FeverLabel
    predicted_label: FeverLabel
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

    def to_dict(self) -> dict[str, Any]:
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
    one_away: int = 0  # verifiable claims one predicted sentence away from a complete group

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
    def one_sentence_away(self) -> tuple[int | str, ...]:
        """Ids of verifiable claims one predicted sentence away from a complete witness."""
        return tuple(c.id for c in self.claims if c.one_away)

    def to_dict(self, *, details: bool = False) -> dict[str, Any]:
        """JSON form: the five official figures, their counts, and optionally every claim."""
        out: dict[str, Any] = {
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
                "one_sentence_away": self.one_away,
            },
        }
        if details:
            out["claims"] = [c.to_dict() for c in self.claims]
        return out


def _precision(g: GoldClaim, predicted: tuple[Sentence, ...]) -> float:
    # the share of predicted sentences found in any gold group; none predicted counts as 1
    if not predicted:
        return 1.0
    gold = g.sentences
    return sum(map(gold.__contains__, predicted)) / len(predicted)


def evidence_credit(
    groups: Sequence[Sequence[Sentence]], found: frozenset[Sentence]
) -> tuple[bool, bool]:
    """The official evidence checks of a verifiable claim: ``(strict, recall)``.

    Strict credit needs a complete gold group among ``found``, so a claim with no gold group
    earns none; the official recall counts a claim with no gold group as found.

    Examples:
        >>> evidence_credit([], frozenset()), evidence_credit([[("P", 0)]], frozenset({("P", 0)}))
        ((False, True), (True, True))
    """
    complete = any_group_complete(groups, found)
    return complete, complete or not groups


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
    strict, hit = evidence_credit(g.groups, frozenset(predicted))
    complete, gaps = find_group_gaps(g.groups, frozenset(predicted))
    missing = () if complete else gaps
    return ClaimScore(
        g.id,
        g.label,
        p.label,
        correct,
        correct and strict,
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
        >>> from claimlab.io.fever import GoldClaim, Prediction
        >>> g = GoldClaim(1, FeverLabel.SUPPORTS, "c", ((("P", 0),), (("P", 1), ("Q", 2))))
        >>> p = Prediction(1, FeverLabel.SUPPORTS, (("Q", 2), ("X", 0)))
        >>> r = score_fever([(g, p)])
        >>> r.strict.display, r.precision, r.recall.display, r.one_sentence_away
        ('0.0% (0/1)', 0.5, '0.0% (0/1)', (1,))
        >>> score_fever([]).f1 is None  # no verifiable claim: N/A, not 0.0
        True
    """
    check_max_evidence(max_evidence)
    pairs = tuple(pairs)
    strict = label_ok = verifiable = recall_hits = one_away = 0
    precision_sum = 0.0
    with bulk_load():  # a pass over acyclic records: no garbage cycle to collect
        for g, p in pairs:
            predicted = p.evidence if max_evidence is None else p.evidence[:max_evidence]
            correct = g.label == p.label
            label_ok += correct
            if g.label == NEI:
                strict += correct
                continue
            verifiable += 1
            precision_sum += _precision(g, predicted)
            found = frozenset(predicted)
            strict_ok, hit = evidence_credit(g.groups, found)
            recall_hits += hit
            strict += correct and strict_ok
            if not hit:  # counted here, so the per-claim details are never needed for it
                one_away += any(sum(s not in found for s in grp) == 1 for grp in g.groups)
    return FeverResult(
        strict=Ratio(strict, len(pairs)),
        label=Ratio(label_ok, len(pairs)),
        precision_sum=precision_sum,
        recall=Ratio(recall_hits, verifiable),
        max_evidence=max_evidence,
        pairs=pairs,
        one_away=one_away,
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
) -> list[dict[str, Any]]:
    """Claims one predicted sentence away from a witness, with what was predicted and what is missing."""
    by_id = {g.id: (g, p) for g, p in pairs}
    out: list[dict[str, Any]] = []
    for c in result.claims:
        if len(out) >= limit:
            break
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
    return out


def sweep_max_evidence(
    pairs: Sequence[tuple[GoldClaim, Prediction]], values: Sequence[int]
) -> dict[int, FeverResult]:
    """Score with several ``max_evidence`` values (how much the cut-off moves the figures)."""
    return {k: score_fever(pairs, max_evidence=k) for k in values}


# What the release gate holds of FEVER: each claim's counts. Evidence precision is a mean of
# per-claim shares (no ratio of two counts), and F1 is built from it, so neither is gated.
GATED = FEVER_GATED


def gate_figures(names: Sequence[str] = GATED) -> tuple[GateFigure, ...]:
    """The named figures as gate figures over :func:`per_claim_table`'s count columns.

    Examples:
        >>> [f.name for f in gate_figures(["recall"])]
        ['recall']
    """
    for m in names:
        if m not in GATED:
            raise ValueError(f"unknown FEVER gate figure {m!r} (known: {', '.join(GATED)})")
    from claimlab.metrics.gate import GateFigure

    return tuple(GateFigure(m, f"{m}_numerator", f"{m}_denominator") for m in names)


def per_claim_table(result: FeverResult) -> Any:
    """The per-claim table ``fever --out`` writes: one row per claim, in the files' order.

    ``id``; ``strict_score_numerator`` (1 when the label is right and, for a verifiable claim,
    a gold group is complete) of 1; ``label_accuracy_numerator`` (1 when the label is right)
    of 1; ``recall_numerator`` (1 when a gold group is complete) of ``recall_denominator`` (1
    for a verifiable claim, 0 for NOT ENOUGH INFO); ``label``, ``predicted_label`` and
    ``precision`` (the claim's evidence precision, empty for NOT ENOUGH INFO).
    """
    import pandas as pd

    rows = []
    for c in result.claims:
        verifiable = c.recall_hit is not None
        rows.append({"id": str(c.id),
                     "strict_score_numerator": int(c.strict_correct), "strict_score_denominator": 1,
                     "label_accuracy_numerator": int(c.label_correct), "label_accuracy_denominator": 1,
                     "recall_numerator": int(bool(c.recall_hit)), "recall_denominator": int(verifiable),
                     "label": str(c.label), "predicted_label": str(c.predicted_label),
                     "precision": c.precision})  # fmt: skip
    columns = ["id", "strict_score_numerator", "strict_score_denominator",
               "label_accuracy_numerator", "label_accuracy_denominator", "recall_numerator",
               "recall_denominator", "label", "predicted_label", "precision"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)
