"""Read-only results: the mappings a frozen record holds cannot be changed once it is made.

A frozen dataclass stops its fields from being reassigned, not a dict it holds from being
changed. :func:`freeze` is called from a record's ``__post_init__`` and replaces each named
mapping field with a read-only view of a copy, so the counts a result reports stay the ones it
was built with, whoever holds it (a notebook cell, a widget, a caller's loop). :class:`Plain`
marks a result's JSON form built from JSON values only, which the notebook's ``to_jsonable``
keeps as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")


def freeze(record: Any, *names: str) -> None:
    """Replace each named mapping field of a frozen dataclass by a read-only copy.

    Examples:
        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Counts:
        ...     by_status: Mapping[str, int]
        ...     def __post_init__(self) -> None:
        ...         freeze(self, "by_status")
        >>> given = {"SUPPORTED": 2}
        >>> c = Counts(given)
        >>> given["SUPPORTED"] = 9
        >>> c.by_status["SUPPORTED"]
        2
        >>> c.by_status["SUPPORTED"] = 3
        Traceback (most recent call last):
        ...
        TypeError: 'mappingproxy' object does not support item assignment
    """
    for name in names:
        value = getattr(record, name)
        if not isinstance(value, MappingProxyType):
            object.__setattr__(record, name, MappingProxyType(dict(value)))


def _rebuild(cls: Any, values: tuple[Any, ...]) -> Any:
    return cls(*values)


class Picklable:
    """A frozen record holding read-only mappings that can still travel to another process.

    ``MappingProxyType`` cannot be pickled; this sends each mapping as a plain dict, and the
    record's ``__post_init__`` freezes it again on arrival.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        fields = getattr(self, "__dataclass_fields__", {})
        values = tuple(
            dict(v) if isinstance(v, MappingProxyType) else v
            for v in (getattr(self, f) for f in fields if fields[f].init)
        )
        return (_rebuild, (type(self), values))


class Plain(dict[str, Any]):
    """A dict built from JSON values only: :func:`~claimlab.notebook.records.to_jsonable` keeps it.

    For a ``to_dict`` that writes strings, integers, booleans, None, vocabulary words, lists
    and dicts of them, and no float but a quotient of counts (a ratio's value, an F1 of two
    ratios: never NaN or infinite, so there is nothing to refuse): a 100,000-row audit is not
    walked again value by value (``tests/notebook/test_records.py`` holds its users to it:
    their walk gives the same, and every float is finite).
    """


def slot_filler(cls: type[T]) -> Callable[..., T]:
    """A maker of ``cls(*values)`` that fills a slotted frozen dataclass's slots directly.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``; a reader
    making 100,000 records saves half of that time by setting the slots itself (every field
    given, in order; for a class without ``__post_init__``, whose fields all go to ``__init__``).

    Examples:
        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True, slots=True)
        ... class Pair:
        ...     left: str
        ...     right: int = 0
        >>> slot_filler(Pair)("a", 1) == Pair("a", 1)
        True
    """
    names = list(getattr(cls, "__dataclass_fields__", {}))
    if hasattr(cls, "__post_init__") or not names or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: a slotted dataclass without __post_init__ is needed")
    setters = tuple(cls.__dict__[name].__set__ for name in names)
    new = object.__new__

    def make(*values: Any) -> T:
        record: T = new(cls)
        for set_slot, value in zip(setters, values, strict=True):
            set_slot(record, value)
        return record

    return make
