"""A release gate: did this run lose a figure, or answers, against an earlier one?

Metric card. Two runs' per-item tables (for ``claimlab ledger`` the per-answer table its
``--out`` writes) are keyed by item id (and by group, when the runs were scored ``--by`` a
column). Any figure that is a ratio of two per-item counts can be gated; each declares which
direction is better (:class:`GateFigure`). Per figure, the items are paired by the one pairing
rule (:func:`claimlab.metrics.stats.comparisons.pair_items`: items both runs hold, the figure
defined on both sides) and the *drop* is the baseline's figure minus this run's on those pairs
(the other way round for a figure where lower is better), micro (summed counts) by default.
Its one-sided lower bound at ``level`` is the lower end of the paired bootstrap's two-sided
interval at ``2 * level - 1``. A figure is REGRESSED when that bound lies above ``margin``,
UNDECIDED when fewer than ``min_shared`` items pair, else PASS. When every resample
gives the same drop (every paired item's figure moved alike: never shown as a zero-width
interval) the drop is that value on any resample: REGRESSED when it lies above ``margin``
(a release that lost a third of every answer's units, or all of them, FAILs), else PASS.
With too few resamples for an interval the figure PASSes when its drop is 0 or below and is
UNDECIDED otherwise.

The gate as a whole (:attr:`Gate.verdict`) FAILs when a figure regressed or when more items of
the baseline are missing from this run than ``allow_missing`` allows (losing answers never
passes); otherwise it is UNDECIDED when a figure is, and PASSes only when every figure passed.
An item is missing from this run when its table does not hold it, or when the baseline read it
from a file and this run from none (:func:`lost_files`: still scored, as an empty selection).
Items only in this run are counted and shown, never paired.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimlab.core.text import plural
from claimlab.core.vocab import NO_FILE, TOY_METRICS, Vocab
from claimlab.metrics.stats import MIN_CLUSTERS

if TYPE_CHECKING:  # the comparisons (numpy) load when a gate is computed, not with its figures
    from claimlab.metrics.stats.resampling import Aggregate


class Verdict(Vocab):
    """A gated figure's verdict, and the gate's."""

    PASS = "PASS"
    REGRESSED = "REGRESSED"  # a figure: its drop is above the margin beyond noise
    UNDECIDED = "UNDECIDED"  # too few paired items, or the figure N/A on one side
    FAIL = "FAIL"  # the gate: a figure regressed, or answers were lost


PASS, REGRESSED, UNDECIDED, FAIL = Verdict.PASS, Verdict.REGRESSED, Verdict.UNDECIDED, Verdict.FAIL
EXIT_CODES: Mapping[Verdict, int] = {PASS: 0, FAIL: 1, UNDECIDED: 3}
MISSING_LISTED = 20  # missing item ids kept for reports; the count is always whole


@dataclass(frozen=True)
class GateFigure:
    """A figure a gate can hold: a ratio of two per-item count columns, and its better side."""

    name: str
    numerator: str
    denominator: str
    higher_is_better: bool = True


def ledger_figures(names: Sequence[str] = TOY_METRICS) -> tuple[GateFigure, ...]:
    """The ledger's four Toy ratios as gate figures (higher is better for each)."""
    from claimlab.metrics.ledger import RATIO_DEFS

    return tuple(GateFigure(n, *RATIO_DEFS[n]) for n in names)


@dataclass(frozen=True)
class GateRow:
    """One figure's verdict."""

    metric: str
    aggregate: str
    baseline: float | None
    now: float | None
    difference: float | None  # the drop: baseline - now (now - baseline when lower is better)
    low: float | None  # the one-sided lower bound of the drop
    high: float | None  # the two-sided interval's upper end, shown beside it
    margin: float
    verdict: Verdict
    decided: bool
    reason: str = ""
    pairs: int = 0  # items paired for this figure
    undefined: int = 0  # items both runs hold, left out: the figure is N/A (0/0) on one side
    baseline_counts: str = ""  # what ``baseline`` is of, over the pairs: "3/6" or "mean of 4"
    now_counts: str = ""
    group: str | None = None  # the --by group gated (None: every item pooled)

    @property
    def title(self) -> str:
        """The figure as shown: ``coverage (micro)``, ``coverage of M2 (micro)`` for a group."""
        of = "" if self.group is None else f" of {self.group}"
        return f"{self.metric}{of} ({self.aggregate})"

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``gate`` (SPEC section 7)."""
        return {
            "metric": self.metric,
            **({"group": self.group} if self.group is not None else {}),
            "aggregate": self.aggregate,
            "baseline": self.baseline,
            "now": self.now,
            "difference": {"value": self.difference, "low": self.low, "high": self.high},
            "margin": self.margin,
            "verdict": str(self.verdict),
            "decided": self.decided,
            "pairs": self.pairs,
            "undefined": self.undefined,
            "baseline_counts": self.baseline_counts,
            "now_counts": self.now_counts,
            **({"reason": self.reason} if self.reason else {}),
        }


@dataclass(frozen=True)
class Gate:
    """Every gated figure, how the two runs were paired, and the items this run lost."""

    rows: tuple[GateRow, ...]
    shared: int
    only_baseline: int
    only_now: int
    level: float
    margin: float
    allow_missing: int = 0
    missing_ids: tuple[str, ...] = ()  # the first MISSING_LISTED of them
    lost_files: int = 0  # items both tables hold that only the baseline read from a file

    @property
    def missing(self) -> int:
        """Items of the baseline missing from this run: not in its table, or their file lost."""
        return self.only_baseline + self.lost_files

    @property
    def lost_answers(self) -> bool:
        """Whether more items are missing than ``allow_missing`` allows."""
        return self.missing > self.allow_missing

    @property
    def regressed(self) -> bool:
        """Whether any figure is REGRESSED."""
        return any(r.verdict == REGRESSED for r in self.rows)

    @property
    def verdict(self) -> Verdict:
        """FAIL (a figure regressed or answers were lost), UNDECIDED, or PASS."""
        if self.regressed or self.lost_answers:
            return FAIL
        if not self.rows or any(r.verdict == UNDECIDED for r in self.rows):
            return UNDECIDED
        return PASS

    @property
    def exit_code(self) -> int:
        """0 PASS, 1 FAIL, 3 UNDECIDED (2 is bad input, raised before a gate exists)."""
        return EXIT_CODES[self.verdict]

    @property
    def missing_line(self) -> str:
        """The missing items in words: how many, and how many are allowed."""
        allowed = f"--allow-missing {self.allow_missing}"
        what = f"{plural(self.missing, 'answer')} of the baseline missing from this run"
        if self.lost_files:
            what += f", {self.lost_files} of them with no file in this run's folder"
        return f"{what} ({allowed}){': FAIL' if self.lost_answers else ''}"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the rows, the pairing counts, the missing items and the verdict."""
        return {
            "gate": [r.to_dict() for r in self.rows],
            "shared": self.shared,
            "only_baseline": self.only_baseline,
            "only_now": self.only_now,
            "missing": self.missing,
            "missing_files": self.lost_files,
            "missing_ids": list(self.missing_ids),
            "allow_missing": self.allow_missing,
            "level": self.level,
            "margin": self.margin,
            "regressed": self.regressed,
            "verdict": str(self.verdict),
            "exit_code": self.exit_code,
        }


def _above(value: float, margin: float) -> bool:
    """Whether a drop (or its bound) lies above the margin beyond the rounding of its sums.

    A drop of 3 units of 10 is ``0.30000000000000004`` in floating point: at a margin of 0.3
    it lies on the margin, not above it.

    Examples:
        >>> _above(1 - 0.7, 0.3), _above(0.31, 0.3)
        (False, True)
    """
    return value > margin + 1e-12 * max(1.0, abs(margin))


def _undecided(
    figure: GateFigure, values: tuple[float | None, float | None], reason: str, **kw: Any
) -> GateRow:
    before, after = values
    diff = None if before is None or after is None else before - after
    if diff is not None and not figure.higher_is_better:
        diff = -diff
    return GateRow(figure.name, difference=diff, baseline=before, now=after, low=None, high=None,
                   verdict=UNDECIDED, decided=False, reason=reason, **kw)  # fmt: skip


def _without_interval(
    figure: GateFigure,
    values: tuple[float | None, float | None],
    drop: float | None,
    reason: str,
    *,
    flat: bool,
    **kw: Any,
) -> GateRow:
    """A figure with no interval: decided by its drop when every resample gives that drop.

    ``flat`` (every resample gives the same drop): REGRESSED when the drop lies above the
    margin, else PASS. Otherwise (too few resamples) PASS when the drop is 0 or below (this
    run no worse on its pairs, as an identical release), else UNDECIDED.
    """
    why = reason or "no interval could be drawn"
    margin = kw["margin"]
    if drop is not None and flat and _above(drop, margin):
        said = f"{why}; the drop is above the margin on every resample"
        return GateRow(figure.name, baseline=values[0], now=values[1], difference=drop, low=None,
                       high=None, verdict=REGRESSED, decided=True, reason=said, **kw)  # fmt: skip
    if drop is None or (drop > 0 and not flat):
        return _undecided(figure, values, why, **kw)
    said = f"{why}; no drop" if drop <= 0 else f"{why}; the drop is within the margin"
    return GateRow(figure.name, baseline=values[0], now=values[1], difference=drop, low=None,
                   high=None, verdict=PASS, decided=True, reason=said, **kw)  # fmt: skip


def _counts(parts: tuple[Any, Any], aggregate: str) -> str:
    """What a figure over the pairs is of: summed counts (micro), or how many answers (macro)."""
    num, den = parts
    if aggregate == "micro":
        return f"{int(num.sum())}/{int(den.sum())}"
    return f"mean of {len(den)}"


def _ratio(parts: tuple[Any, Any], aggregate: str) -> float | None:
    num, den = parts
    if aggregate == "micro":
        return float(num.sum() / den.sum()) if den.sum() > 0 else None
    return math.fsum((num / den).tolist()) / len(den) if len(den) else None  # any row order


def gate_row(
    figure: GateFigure,
    baseline: Any,
    now: Any,
    *,
    aggregate: Aggregate = "micro",
    margin: float = 0.0,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    min_shared: int = MIN_CLUSTERS,
) -> GateRow:
    """One figure of ``now`` gated against ``baseline`` (frames indexed by item id)."""
    from claimlab.metrics.stats.comparisons import pair_items, paired_comparison
    from claimlab.metrics.stats.resampling import MIN_RESAMPLES

    p = pair_items(baseline, now, figure.numerator, figure.denominator)
    values = (_ratio(p.a, aggregate), _ratio(p.b, aggregate))
    kw: dict[str, Any] = dict(aggregate=aggregate, margin=margin, pairs=p.shared,
                              undefined=p.undefined, baseline_counts=_counts(p.a, aggregate),
                              now_counts=_counts(p.b, aggregate))  # fmt: skip
    if p.shared < max(min_shared, MIN_CLUSTERS):
        why = f"{plural(p.shared, 'paired answer')}: too few to decide ({min_shared} or more are needed)"
        if p.undefined:
            why += f"; {p.undefined} N/A (0/0) in one of the runs"
        return _undecided(figure, values, why, **kw)
    # the drop is A - B of a paired comparison: baseline - now, or now - baseline
    first, second = (p.a, p.b) if figure.higher_is_better else (p.b, p.a)
    c = paired_comparison(
        first, second, aggregate=aggregate, level=2 * level - 1, resamples=resamples,
        permutations=100, seed=seed, metric=figure.name,
    )  # fmt: skip
    d = c.difference
    if d.low is None:  # with enough resamples, none: every resample gives the same drop
        flat = resamples >= MIN_RESAMPLES
        return _without_interval(figure, values, d.value, c.reason, flat=flat, **kw)
    verdict = REGRESSED if _above(d.low, margin) else PASS
    return GateRow(figure.name, baseline=values[0], now=values[1], difference=d.value, low=d.low,
                   high=d.high, verdict=verdict, decided=True, reason=c.reason, **kw)  # fmt: skip


def release_gate(
    baseline: Any,
    now: Any,
    *,
    keys: Sequence[str] = ("answer_id",),
    metrics: Sequence[str] = TOY_METRICS,
    figures: Sequence[GateFigure] | None = None,
    aggregate: Aggregate = "micro",
    margin: float = 0.0,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    allow_missing: int = 0,
    min_shared: int = MIN_CLUSTERS,
    by: str | None = None,
) -> Gate:
    """Gate ``now`` against ``baseline``: pandas per-item tables with the figures' counts.

    ``figures`` are the figures gated (default: the ledger's ``metrics``); ``keys`` the columns
    naming an item. A key given twice counts once (its first row). ``by`` (one of ``keys``):
    each group both runs hold is gated on its own, so one decomposer's loss is never hidden by
    another's gain; items are paired, counted and missed as without it.
    """
    key = list(keys)
    b_all = baseline.drop_duplicates(key).set_index(key)
    n_all = now.drop_duplicates(key).set_index(key)
    shared = b_all.index.intersection(n_all.index, sort=False)
    gone = b_all.index.difference(n_all.index, sort=False)
    lost = lost_files(b_all, n_all, shared)
    options: dict[str, Any] = dict(aggregate=aggregate, margin=margin, level=level,
                                   resamples=resamples, seed=seed, min_shared=min_shared)  # fmt: skip
    gated = figures if figures is not None else ledger_figures(metrics)
    rows = tuple(
        replace(gate_row(f, b_all[mine], n_all[theirs], **options), group=group)
        for group, mine, theirs in _groups(b_all, n_all, by)
        for f in gated
    )
    return Gate(
        rows,
        len(shared),
        len(b_all) - len(shared),
        len(n_all) - len(shared),
        level,
        margin,
        allow_missing=allow_missing,
        missing_ids=tuple(_item_name(k) for k in gone.append(lost)[:MISSING_LISTED]),
        lost_files=len(lost),
    )


def _groups(baseline: Any, now: Any, by: str | None) -> list[tuple[str | None, Any, Any]]:
    """Each group both tables hold (by its value, in sorted order) with its rows' masks.

    Without ``by``: one group of every row (None). A group only one run holds is gated nowhere:
    its items are missing from this run (the gate fails on them) or new in it.
    """
    if by is None:
        return [(None, slice(None), slice(None))]
    import numpy as np

    mine = baseline.index.get_level_values(by).astype(str)
    theirs = now.index.get_level_values(by).astype(str)
    both = sorted(set(mine) & set(theirs))
    return [(g, np.asarray(mine == g), np.asarray(theirs == g)) for g in both]


def lost_files(baseline: Any, now: Any, shared: Any) -> Any:
    """The ``shared`` items whose file this run lost: the baseline read one, this run none.

    Each table may say per item that its decomposer's folder held no file for it (the column
    :data:`~claimlab.core.vocab.NO_FILE`, 1 for no file); a table without the column read every
    item it holds from a file (or from ledger rows, where there are no files to lose). Such an
    item is scored in this run as an empty selection, and counted missing all the same.
    """
    if NO_FILE not in now.columns or not len(shared):
        return shared[:0]
    none_now = now.loc[shared, NO_FILE].to_numpy() > 0
    had = baseline.loc[shared, NO_FILE].to_numpy() == 0 if NO_FILE in baseline.columns else True
    return shared[none_now & had]


def gate_file(
    baseline: str | Path,
    now: Any,
    figures: Sequence[GateFigure],
    *,
    keys: Sequence[str],
    **options: Any,
) -> Gate:
    """Gate ``now`` (a pandas per-item table) against the per-item table in file ``baseline``.

    The baseline must hold the ``keys`` and both count columns of every figure, checked as
    :func:`claimlab.io.ledger.load_answers` checks; ``options`` go to :func:`release_gate`.
    """
    from claimlab.io.ledger import load_answers

    ratios = [(f.numerator, f.denominator) for f in figures]
    table = load_answers(baseline, keys=list(keys), ratios=ratios, optional=[NO_FILE])
    now = now.copy()
    now[list(keys)] = now[list(keys)].astype(str)
    return release_gate(table, now, keys=keys, figures=figures, **options)


def _item_name(key: Any) -> str:
    """An item key as text: the id, or ``group / id`` for a key of several columns."""
    return " / ".join(str(k) for k in key) if isinstance(key, tuple) else str(key)


def count_columns(metrics: Sequence[str] = TOY_METRICS) -> Mapping[str, tuple[str, str]]:
    """The numerator and denominator columns each gated figure needs in a per-answer table."""
    return {f.name: (f.numerator, f.denominator) for f in ledger_figures(metrics)}
