"""A record of a file format declared once: a frozen dataclass whose annotated fields it holds.

From the one declaration come the records, the checks, the errors and the schema:

* :func:`read_records` turns a JSON list of objects into the dataclass's records. ``msgspec``
  converts the whole list in one pass (in C: every field's presence and type, the defaults);
  when it refuses, the same declaration is walked field by field in its order with
  :class:`~claimlab.io.reader.Record`'s checks (:func:`check_record`), so the error names the
  file, the record id and the field in the words of every other reader, and names the first
  problem in the order the declaration lists the fields, whatever order the file writes them in.
* a field's ``metadata`` adds what a type cannot say: ``{"texts": True}`` (each text of a list
  holds some text, not only spaces).
* :func:`declared_schema` is the JSON Schema the reference pages show, derived from it.

Supported annotations: ``str``, ``bool``, ``int`` and ``tuple[str, ...]``; a record id is a
non-empty string.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, NamedTuple, TypeVar

import msgspec

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.io.reader import Record, records_of

T = TypeVar("T")


class _Field(NamedTuple):
    name: str
    kind: Any  # str, bool, int or tuple (of strings)
    default: Any  # _REQUIRED when the file must give it
    texts: bool  # each text of the list must hold some text


_REQUIRED = object()
_KINDS: dict[Any, Any] = {str: str, bool: bool, int: int, tuple[str, ...]: tuple}


def _fields(cls: type[Any]) -> tuple[_Field, ...]:
    """The declaration's fields in order, each with what the file must hold there."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = _read_fields(cls)
    return found


_FIELDS: dict[type[Any], tuple[_Field, ...]] = {}


def _read_fields(cls: type[Any]) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        if hints[f.name] not in _KINDS:
            raise TypeError(f"{cls.__name__}.{f.name}: no reader for {hints[f.name]!r}")
        default = f.default if f.default is not dataclasses.MISSING else _REQUIRED
        out.append(_Field(f.name, _KINDS[hints[f.name]], default, bool(f.metadata.get("texts"))))
    return tuple(out)


def check_record(cls: type[T], rec: Record) -> T:
    """One record of the declaration, read field by field in order (the first problem raised)."""
    values = []
    for f in _fields(cls):
        default = () if f.default is _REQUIRED else (f.default,)
        if f.kind is tuple:
            read = rec.texts if f.texts else rec.str_list
            value: Any = read(f.name, *default)
        else:
            value = rec.get(f.name, f.kind, *default)
        values.append(value)
    return cls(*values)


def read_records(
    cls: type[T],
    items: list[Any],
    *,
    file: str,
    where: str,
    id_field: str = "id",
    error: type[ClaimlabInputError] = FixtureError,
) -> list[T]:
    """The list's objects as records of ``cls``, or the first problem (file, record id, field).

    ``where`` is the list's field path (``"evidence"``); each record is named by ``id_field``.
    """
    try:
        records = msgspec.convert(items, list[cls])  # type: ignore[valid-type]
    except (msgspec.ValidationError, TypeError, ValueError):
        records = None
    if records is not None and not _needs_walk(cls, items, records, id_field):
        return records
    # refused, or a check beyond the types to make: the declaration walked for the first problem
    return [
        check_record(cls, rec)
        for _, rec in records_of(items, file=file, where=where, id_field=id_field, error=error)
    ]


def _needs_walk(cls: type[Any], items: list[Any], records: list[Any], id_field: str) -> bool:
    """Whether a converted list holds what its types allow but the declaration refuses.

    An empty id, a blank text, a list given as another sequence (a tuple from a caller).
    """
    texts = [f.name for f in _fields(cls) if f.texts]
    lists = [f.name for f in _fields(cls) if f.kind is tuple]
    if any(type(item.get(name, [])) is not list for item in items for name in lists):
        return True
    for r in records:
        if not getattr(r, id_field):
            return True
        for name in texts:
            if not all(t.strip() for t in getattr(r, name)):
                return True
    return False


def declared_schema(cls: type[Any]) -> dict[str, Any]:
    """The JSON Schema of one declared record (``msgspec`` reads the same dataclass)."""
    schema: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(msgspec.json.schema(cls)))
    return schema  # as JSON has it (a default of () is the list [])
