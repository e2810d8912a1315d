"""Ratio: a value that never hides its counts.

Metric card:
    Definition: ``numerator / denominator`` with both counts kept.
    Undefined: when ``denominator == 0`` the value is ``None`` and the display is
    ``"N/A (0/0)"``; never 0 %, never 100 %, never NaN.
    Display: one decimal percentage followed by the counts, ``"60.0% (3/5)"``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from claimlab.core.frozen import Plain


@dataclass(frozen=True, order=False)
class Ratio:
    """A ratio with its numerator and denominator.

    Args:
        numerator: Count of items that meet the condition.
        denominator: Count of items the condition is checked on.

    Examples:
        >>> str(Ratio(3, 5))
        '60.0% (3/5)'
        >>> Ratio(0, 0).value is None
        True
        >>> str(Ratio(0, 0))
        'N/A (0/0)'
        >>> Ratio(0, 0).value_or(0.0)
        0.0
    """

    numerator: int
    denominator: int

    def __post_init__(self) -> None:
        n, d = self.numerator, self.denominator
        if type(n) is int and type(d) is int and 0 <= n <= d:
            return  # the common case, in one test; anything else is looked at below
        for name in ("numerator", "denominator"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"Ratio.{name} must be an int, got {v!r}")
            if v < 0:
                raise ValueError(f"Ratio.{name} must be >= 0, got {v}")
        if self.numerator > self.denominator:
            raise ValueError(
                f"Ratio numerator {self.numerator} exceeds denominator {self.denominator}"
            )

    @property
    def defined(self) -> bool:
        """Whether the denominator is non-zero."""
        return self.denominator != 0

    @property
    def value(self) -> float | None:
        """The fraction, or ``None`` when the denominator is 0."""
        if self.denominator == 0:
            return None
        return self.numerator / self.denominator

    def value_or(self, default: float) -> float:
        """The fraction, or ``default`` when undefined (make the choice visible to a reviewer)."""
        v = self.value
        return default if v is None else v

    @property
    def counts(self) -> str:
        """``"n/d"``."""
        return f"{self.numerator}/{self.denominator}"

    @property
    def display(self) -> str:
        """``"60.0% (3/5)"``, ``"99.95% (1999/2000)"`` or ``"N/A (0/0)"``."""
        v = self.value
        if v is None:
            return f"N/A ({self.counts})"
        return f"{share_shown(self.numerator, self.denominator)}% ({self.counts})"

    def __str__(self) -> str:
        return self.display

    def to_dict(self) -> dict[str, Any]:
        """JSON form: numerator, denominator, value (null at 0/0) and display.

        A :class:`~claimlab.core.frozen.Plain` dict: its float is a quotient of two counts
        (never NaN or infinite), so a 100,000-query report is not walked again value by value.
        """
        n, d = self.numerator, self.denominator
        if d == 0:
            return Plain(numerator=n, denominator=d, value=None, display=f"N/A ({n}/{d})")
        v = n / d
        shown = f"{100 * v:.1f}"
        if shown in ("0.0", "100.0") and 0 < n < d:  # a part shown as none or all: more places
            shown = share_shown(n, d)
        return Plain(numerator=n, denominator=d, value=v, display=f"{shown}% ({n}/{d})")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ratio:
        """Rebuild from :meth:`to_dict` output (value and display are re-derived)."""
        return cls(int(data["numerator"]), int(data["denominator"]))

    def __add__(self, other: Ratio) -> Ratio:
        """Summed counts (micro aggregation)."""
        if not isinstance(other, Ratio):
            return NotImplemented
        return Ratio(self.numerator + other.numerator, self.denominator + other.denominator)


@dataclass(frozen=True)
class MeanOfDefined:
    """A macro average: the mean of the defined values, with how many were undefined.

    Examples:
        >>> m = macro_mean([Ratio(1, 2), Ratio(0, 0), Ratio(1, 1)])
        >>> m.value, m.defined, m.undefined
        (0.75, 2, 1)
        >>> macro_mean([Ratio(0, 0)]).display
        'N/A (0 of 1 items defined)'
    """

    value: float | None
    defined: int
    undefined: int

    @property
    def display(self) -> str:
        """``"75.0% (mean of 2 defined; 1 N/A)"`` or ``"N/A (0 of 1 items defined)"``."""
        if self.value is None:
            return f"N/A (0 of {self.defined + self.undefined} items defined)"
        return f"{100 * self.value:.1f}% (mean of {self.defined} defined; {self.undefined} N/A)"

    def __str__(self) -> str:
        return self.display

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "value": self.value,
            "defined": self.defined,
            "undefined": self.undefined,
            "display": self.display,
        }


def micro_sum(ratios: Iterable[Ratio]) -> Ratio:
    """Sum numerators and denominators (micro aggregation).

    Examples:
        >>> micro_sum([Ratio(1, 2), Ratio(0, 0), Ratio(1, 1)])
        Ratio(numerator=2, denominator=3)
        >>> micro_sum([]).display
        'N/A (0/0)'
    """
    n = d = 0
    for r in ratios:
        n += r.numerator
        d += r.denominator
    return Ratio(n, d)


def macro_mean(ratios: Iterable[Ratio]) -> MeanOfDefined:
    """Mean of the defined ratios' values; undefined ones are counted, not averaged in."""
    values: list[float] = []
    undefined = 0
    for r in ratios:
        v = r.value
        if v is None:
            undefined += 1
        else:
            values.append(v)
    # fsum: exact, so the mean's last digit does not depend on the order of the items
    value = math.fsum(values) / len(values) if values else None
    return MeanOfDefined(value, len(values), undefined)


def percent(value: float | None, unit: str = "") -> str:
    """A share as a percentage with one decimal, or ``"N/A"`` when undefined.

    Examples:
        >>> percent(0.7636), percent(None), percent(0.5, "%")
        ('76.4', 'N/A', '50.0%')
    """
    return "N/A" if value is None else f"{100 * value:.1f}{unit}"


def points(value: float | None) -> str:
    """A difference of shares in signed percentage points, one decimal; ``"N/A"`` undefined.

    A difference that rounds to zero is ``+0.0`` whatever its sign (never ``-0.0``).

    Examples:
        >>> points(0.0833), points(-1e-17), points(None)
        ('+8.3', '+0.0', 'N/A')
    """
    if value is None:
        return "N/A"
    shown = f"{100 * value:+.1f}"
    return "+0.0" if shown == "-0.0" else shown


def share_shown(numerator: float, denominator: float) -> str:
    """A share of counts in percent, one decimal: a share shown as 100.0% is all, 0.0% none.

    More decimals where one would round a part to ``100.0`` or ``0.0``.

    Examples:
        >>> share_shown(3, 5), share_shown(1999, 2000), share_shown(1, 30000), share_shown(0, 9)
        ('60.0', '99.95', '0.003', '0.0')
    """
    value = 100 * numerator / denominator
    for places in range(1, 7):
        shown = f"{value:.{places}f}"
        if (0 < numerator < denominator) and float(shown) in (0.0, 100.0):
            continue
        return shown
    return shown
