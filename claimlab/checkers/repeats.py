"""How a checker's labels hold when the same items are asked again (``--repeats K``).

Per item, the majority label of its K verdicts (None on a tie: no majority, counted) and its
flips: the verdicts that differ from the majority (on a tie, every verdict but the first
label's, so a tie is never stable). Each item's flip rate is its flips over its asks; the
pooled flip rate is flips over verdicts, summed over the items (micro), and the unstable items
are those with a flip, named. Krippendorff's alpha (nominal) across
the repeats, each repeat an annotator, comes from :func:`claimlab.metrics.agreement.alpha_nominal`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.checkers.verdicts import Verdict
from claimlab.core.ratio import Ratio
from claimlab.core.text import plural, terminal
from claimlab.core.vocab import Status
from claimlab.metrics.agreement import Coefficient, alpha_nominal


@dataclass(frozen=True)
class ItemRepeats:
    """One item's K labels: the majority (None on a tie) and the flips away from it."""

    id: str
    labels: tuple[Status, ...]
    majority: Status | None
    flips: int

    @property
    def flip_ratio(self) -> Ratio:
        """Flips over the item's verdicts."""
        return Ratio(self.flips, len(self.labels))

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the labels, the majority, the flips over the asks and their rate."""
        return {
            "id": self.id,
            "labels": [s.value for s in self.labels],
            "majority": None if self.majority is None else self.majority.value,
            "flips": self.flips,
            "asks": len(self.labels),
            "flip_rate": self.flip_ratio.to_dict(),
        }


@dataclass(frozen=True)
class RepeatReport:
    """Every item's repeats, the flip rate, the unstable items, the ties and alpha."""

    repeats: int
    items: tuple[ItemRepeats, ...]
    alpha: Coefficient

    @property
    def flip_ratio(self) -> Ratio:
        """Flips over verdicts, all items (micro)."""
        return Ratio(sum(i.flips for i in self.items), sum(len(i.labels) for i in self.items))

    @property
    def unstable_ratio(self) -> Ratio:
        """Items with at least one flip, of the items."""
        return Ratio(sum(i.flips > 0 for i in self.items), len(self.items))

    @property
    def unstable_ids(self) -> tuple[str, ...]:
        """Items with at least one flip, in the items' order."""
        return tuple(i.id for i in self.items if i.flips > 0)

    @property
    def tied_ids(self) -> tuple[str, ...]:
        """Items without a majority label."""
        return tuple(i.id for i in self.items if i.majority is None)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the pooled figures, the unstable and tied ids, and each item's row."""
        return {
            "repeats": self.repeats,
            "flip_rate": self.flip_ratio.to_dict(),
            "unstable_items": self.unstable_ratio.to_dict(),
            "unstable_ids": list(self.unstable_ids),
            "tied_ids": list(self.tied_ids),
            "alpha": self.alpha.to_dict(),
            "items": [i.to_dict() for i in self.items],
        }


def item_repeats(item_id: str, labels: Sequence[Status]) -> ItemRepeats:
    """One item's majority label and flips.

    Examples:
        >>> r = item_repeats("c1", [Status.SUPPORTED, Status.SUPPORTED, Status.CONTRADICTED])
        >>> r.majority.value, r.flips
        ('SUPPORTED', 1)
        >>> item_repeats("c2", [Status.SUPPORTED, Status.CONTRADICTED]).majority is None
        True
    """
    ranked = Counter(labels).most_common()
    top, n = ranked[0]
    tie = len(ranked) > 1 and ranked[1][1] == n
    return ItemRepeats(item_id, tuple(labels), None if tie else top, len(labels) - n)


def score_repeats(ids: Sequence[str], verdicts: Sequence[Sequence[Verdict]]) -> RepeatReport:
    """The repeat report of a run: ``verdicts[item][repeat]``."""
    if not verdicts:
        return RepeatReport(0, (), Coefficient(None, "no item"))
    k = len(verdicts[0])
    items = tuple(
        item_repeats(i, [v.label for v in row]) for i, row in zip(ids, verdicts, strict=True)
    )
    rows = [[row[r].label.value for row in verdicts] for r in range(k)]
    alpha = alpha_nominal(rows) if k > 1 else Coefficient(None, "one repeat: nothing to compare")
    return RepeatReport(k, items, alpha)


SHOWN = 5  # unstable items named in the printed line before "and N more"


def unstable_text(repeats: Mapping[str, Any]) -> str:
    """The unstable items of a run's repeats, each with its flips over its asks, the first few.

    Examples:
        >>> rows = [{"id": f"c{n}", "flips": 1, "asks": 5} for n in range(7)]
        >>> unstable_text({"unstable_ids": [r["id"] for r in rows], "items": rows})
        'c0 1/5, c1 1/5, c2 1/5, c3 1/5, c4 1/5 and 2 more'
        >>> unstable_text({"unstable_ids": [], "items": []})
        ''
    """
    ids = list(repeats.get("unstable_ids", ()))
    rows = {r["id"]: r for r in repeats.get("items", ())}
    named = [
        f"{terminal(i)} {rows[i]['flips']}/{rows[i]['asks']}" if i in rows else terminal(i)
        for i in ids[:SHOWN]
    ]
    more = f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
    return ", ".join(named) + more


def repeats_line(repeats: Mapping[str, Any] | None) -> str | None:
    """A run's repeats (:meth:`RepeatReport.to_dict`) as the line a command prints, or None.

    Examples:
        >>> r = {"repeats": 5, "flip_rate": {"display": "16.5% (33/200)"}, "tied_ids": ["c2"],
        ...      "unstable_items": {"display": "5.0% (2/40)"}, "unstable_ids": ["c2", "c9"],
        ...      "items": [{"id": "c2", "flips": 3, "asks": 5}, {"id": "c9", "flips": 1,
        ...      "asks": 5}], "alpha": {"value": 0.5634, "reason": ""}}
        >>> repeats_line(r)
        'asked 5 times: flips 16.5% (33/200), unstable items 5.0% (2/40) (c2 3/5, c9 1/5), 1 tie (c2), alpha 0.563'
    """
    if not repeats or repeats.get("repeats", 0) <= 1:
        return None
    unstable = unstable_text(repeats)
    unstable = f" ({unstable})" if unstable else ""
    ties = list(repeats["tied_ids"])
    shown = ", ".join(terminal(t) for t in ties[:5]) + (", ..." if len(ties) > 5 else "")
    tie_text = f"{plural(len(ties), 'tie')}" + (f" ({shown})" if ties else "")
    alpha = repeats["alpha"]
    alpha_text = "N/A" if alpha["value"] is None else f"{alpha['value']:.3f}"
    if alpha["value"] is None and alpha.get("reason"):
        alpha_text += f" ({terminal(alpha['reason'])})"
    return (
        f"asked {repeats['repeats']} times: flips {repeats['flip_rate']['display']}, unstable "
        f"items {repeats['unstable_items']['display']}{unstable}, {tie_text}, alpha {alpha_text}"
    )


def majority_labels(report: RepeatReport) -> list[Status | None]:
    """Each item's majority label (None on a tie)."""
    return [i.majority for i in report.items]
