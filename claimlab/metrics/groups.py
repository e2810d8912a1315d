"""The AND/OR primitive of evidence: groups of ids, complete or not against what may be used.

Sufficiency (alternatives of premises) and FEVER (gold evidence groups) both ask it; it lives
here alone, so a command that needs only this loads neither lab's file format.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)  # an evidence id: a string, a (page, line) pair, ...

__all__ = ["any_group_complete", "find_group_gaps"]


def any_group_complete(groups: Sequence[Sequence[K]], usable: set[K] | frozenset[K]) -> bool:
    """Whether some group has every member in ``usable`` (OR across groups, AND inside).

    Examples:
        >>> any_group_complete([("a", "b"), ("c",)], {"c"}), any_group_complete([("a", "b")], {"a"})
        (True, False)
    """
    return any(map(usable.issuperset, groups))


def find_group_gaps(
    groups: Sequence[Sequence[K]], usable: set[K] | frozenset[K]
) -> tuple[tuple[int, ...], tuple[tuple[K, ...], ...]]:
    """The AND/OR primitive of the core: which groups are complete, and what each one misses.

    Args:
        groups: Alternative evidence groups (AND inside a group, OR across groups).
        usable: The context ids that may serve as premises.

    Returns:
        ``(complete, missing)``: indices of complete groups, and per group the members not in
        ``usable`` in group order (empty for a complete group).

    Examples:
        >>> find_group_gaps([("a", "b"), ("c",)], {"a", "c"})
        ((1,), (('b',), ()))
    """
    complete: list[int] = []
    missing: list[tuple[K, ...]] = []
    covers = usable.issuperset
    for i, g in enumerate(groups):
        if covers(g):
            complete.append(i)
            missing.append(())
        else:
            missing.append(tuple(x for x in g if x not in usable))
    return tuple(complete), tuple(missing)
