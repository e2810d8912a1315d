"""A checker's labels against people's, in one place: kappa, the confusion table, agreement.

Only items both labelled count (a None on either side is left out, and counted). The table is
``{people's label: {checker's label: n}}``; agreement is the items with the same label over the
items both labelled; Cohen's kappa comes from :func:`claimlab.metrics.agreement.cohen_kappa`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claimlab.core.frozen import freeze
from claimlab.core.ratio import Ratio

if TYPE_CHECKING:  # the agreement module (and numpy) load when a comparison is made
    from claimlab.metrics.agreement import Coefficient


@dataclass(frozen=True)
class AgainstPeople:
    """The checker's agreement with people on the items both labelled."""

    agreement: Ratio
    kappa: Coefficient
    confusion: Mapping[str, Mapping[str, int]]
    left_out: int  # items one side did not label

    def __post_init__(self) -> None:
        freeze(self, "confusion")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "agreement": self.agreement.to_dict(),
            "kappa": self.kappa.to_dict(),
            "confusion": {k: dict(v) for k, v in self.confusion.items()},
            "left_out": self.left_out,
        }


def against_people(checker: Sequence[str | None], people: Sequence[str | None]) -> AgainstPeople:
    """The checker's labels against people's, item by item.

    Examples:
        >>> r = against_people(["S", "S", "NS", None], ["S", "NS", "NS", "S"])
        >>> str(r.agreement), r.left_out, dict(r.confusion["NS"])
        ('66.7% (2/3)', 1, {'S': 1, 'NS': 1})
        >>> str(against_people([], []).agreement)
        'N/A (0/0)'
    """
    from claimlab.metrics.agreement import Coefficient, cohen_kappa

    pairs = [
        (p, c) for c, p in zip(checker, people, strict=True) if c is not None and p is not None
    ]
    table: dict[str, dict[str, int]] = {}
    for p, c in pairs:
        row = table.setdefault(p, {})
        row[c] = row.get(c, 0) + 1
    kappa = (
        cohen_kappa([c for _, c in pairs], [p for p, _ in pairs])
        if pairs
        else Coefficient(None, "no item labelled by both")
    )
    return AgainstPeople(
        Ratio(sum(p == c for p, c in pairs), len(pairs)), kappa, table, len(checker) - len(pairs)
    )


def corrected_by_people(
    auto: tuple[Sequence[int], Sequence[int]],
    people: tuple[Sequence[int], Sequence[int]],
    keys: Sequence[str],
    *,
    figure: str,
    share: float,
    seed: int,
    level: float = 0.9,
) -> dict[str, Any]:
    """A ratio figure from a checker's counts, corrected by people's on a seeded share of items.

    ``auto`` and ``people`` are per-item (numerator, denominator) counts of the same items,
    named by ``keys``; an item is "labelled" by people when a seeded hash of its key falls in
    ``share`` (:func:`~claimlab.metrics.stats.prediction_powered.is_labelled`). The figure is
    prediction-powered (Angelopoulos et al. 2023): the checker's ratio over the other items,
    corrected by its error on those. Every figure here is a share (a numerator never passes its
    denominator), so each normal interval is kept within [0, 1]. Fewer than two items on either
    side: N/A with the reason.
    """
    from claimlab.metrics.stats.prediction_powered import is_labelled, prediction_powered

    labelled = [is_labelled(k, share, seed) for k in keys]
    try:
        found = prediction_powered(
            auto, people, labelled, figure=figure, aggregate="micro", level=level
        ).to_dict()
    except ValueError as err:  # fewer than two items labelled, or unlabelled
        n = sum(labelled)
        return {"figure": figure, "reason": str(err), "labelled": n, "unlabelled": len(keys) - n}
    for part in ("ppi", "naive_autorater", "human_only"):  # a share: its interval within [0, 1]
        e = found[part]
        if e["low"] is not None and e["high"] is not None:
            e["low"], e["high"] = max(0.0, e["low"]), min(1.0, e["high"])
    return found
