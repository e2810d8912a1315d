"""WiCE claims through the witness core: alternative supporting-sentence sets per claim.

Metric card:
    A claim's context (sentence indices, e.g. the first k a reader sees) is SUFFICIENT when it
    holds one of the claim's alternative supporting sets; only a ``supported`` claim can be
    sufficient (the sets of a partially supported claim back part of it). A claim without any
    set is counted apart, never scored.

WiCE (Kamoi et al., 2023) labels each claim supported / partially_supported / not_supported
against an evidence article and lists *alternative* minimal sets of supporting sentence indices.
Here those sets are the alternatives of the sufficiency core; a context is a list of sentence
indices (for example the first k sentences a reader would see).
"""

from __future__ import annotations

from claimlab.core.vocab import WiceLabel
from claimlab.io.wice import WiceClaim
from claimlab.metrics.sufficiency import SufficiencyResult, score_sufficiency


def score_wice_sufficiency(claim: WiceClaim, context: list[int]) -> SufficiencyResult | None:
    """Sufficiency of a context of sentence indices; None when the claim has no supporting set."""
    if not claim.alternatives:
        return None
    return score_sufficiency(
        [[str(s) for s in g] for g in claim.alternatives], [str(s) for s in context]
    )


PARTIAL = "partial support only"


def lead_k_status(claims: list[WiceClaim], ks: list[int | None]) -> dict[str, dict[str, int]]:
    """Status counts when the context is the first k sentences (None = every sentence).

    Only a ``supported`` claim can be SUFFICIENT: WiCE's sets for a ``partially_supported``
    claim support part of it, and a ``not_supported`` claim is not supported by the article at
    all, so those are counted as ``partial support only`` whatever the context holds. Claims
    without any supporting set are counted as ``no supporting set`` rather than scored.
    """
    out: dict[str, dict[str, int]] = {}
    for k in ks:
        name = "all" if k is None else f"first {k}"
        counts = {"SUFFICIENT": 0, "INSUFFICIENT": 0, PARTIAL: 0, "no supporting set": 0}
        for c in claims:
            if not c.alternatives:
                counts["no supporting set"] += 1
                continue
            if c.label is not WiceLabel.SUPPORTED:
                counts[PARTIAL] += 1
                continue
            n = c.sentences if k is None else min(k, c.sentences)
            alternatives = [[str(s) for s in g] for g in c.alternatives]
            counts[score_sufficiency(alternatives, [str(s) for s in range(n)]).status] += 1
        out[name] = counts
    return out


def set_size_counts(claims: list[WiceClaim]) -> dict[int, int]:
    """How many supporting sets have 1, 2, ... sentences."""
    counts: dict[int, int] = {}
    for c in claims:
        for g in c.alternatives:
            counts[len(g)] = counts.get(len(g), 0) + 1
    return dict(sorted(counts.items()))
