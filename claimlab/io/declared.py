"""A file format declared once: frozen dataclasses whose annotated fields are the format.

From the one declaration come the records, the checks, the errors and the schema:

* :func:`read_records` turns a JSON list of objects into the dataclass's records, and
  :func:`read_declared` one object. ``msgspec`` converts in one pass (in C: every field's
  presence and type, the bounds, the defaults); when it refuses, the same declaration is walked
  field by field in its order with :class:`~claimlab.io.reader.Record`'s checks
  (:func:`check_record`), so the error names the file, the record id and the field in the words
  of every other reader, and names the first problem in the order the declaration lists the
  fields, whatever order the file writes them in.
* a field's ``metadata`` adds what a type cannot say: ``{"texts": True}`` (each text of a list
  holds some text, not only spaces) and ``{"what": "error kind"}`` (how an error names a value
  outside a closed vocabulary).
* :func:`declared_schema` is the JSON Schema the reference pages show, derived from it, and
  :func:`written` a record as the file writes it (its fields in the declaration's order).

Supported annotations: ``str``, ``bool``, ``int``, ``float`` (bounds as
``Annotated[float, msgspec.Meta(ge=..., le=..., gt=...)]``), a ``Literal`` of strings, a closed
vocabulary (a :class:`~claimlab.core.vocab.Vocab`), a nested declared record (or ``None``), and
``tuple[X, ...]`` of any of those or of ``Any`` (``tuple[X | None, ...]``: an item may be null),
and ``Mapping[str, X]`` of a record (an object keyed by name, each value's errors naming its key).
Items of a list of records with an ``id`` field are named by it in errors; a record id is a
non-empty string; a number is finite; for a field with a default, and for an optional field
(``X | None``), null is the same as absent (a required ``X | None`` field may be null: None).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NamedTuple, TypeVar, Union

import msgspec

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.core.vocab import Vocab, unknown
from claimlab.io.reader import Record, describe, records_of

T = TypeVar("T")
_REQUIRED = object()
_SCALARS = (str, bool, int, float)
_OTHER_BOUNDS = ("lt", "multiple_of", "pattern", "max_length")
_BOUNDS = ("ge", "le", "min_length", "gt")


class _Field(NamedTuple):
    """One declared field: what the file must hold there, and how an error names it."""

    name: str
    kind: Any  # str, bool, int, float, Any, a dataclass, a Vocab, or a tuple of allowed words
    many: bool  # tuple[kind, ...]: a list in the file
    optional: bool  # kind | None: null (or absent) reads as None
    default: Any  # _REQUIRED when the file must give it
    texts: bool  # each text of the list must hold some text
    what: str  # names a value outside a closed vocabulary ("error kind")
    bounds: tuple[float | None, float | None, int | None, float | None]  # ge, le, min_length, gt
    holes: bool = False  # tuple[kind | None, ...]: an item of the list may be null
    keyed: bool = False  # Mapping[str, kind]: an object whose values are records named by key


def _fields(cls: type[Any]) -> tuple[_Field, ...]:
    """The declaration's fields in order, each with what the file must hold there."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = _read_fields(cls)
    return found


_FIELDS: dict[type[Any], tuple[_Field, ...]] = {}


def _read_fields(cls: type[Any]) -> tuple[_Field, ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        default: Any = _REQUIRED
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        hint, holes = _items_may_be_null(hints[f.name])
        hint, keyed = _keyed(hint)
        kind, many, optional, bounds = _kind(cls, f.name, hint)
        what = f.metadata.get("what", f.name)
        texts = bool(f.metadata.get("texts"))
        if holes and not (_is_record(kind) and "id" not in {g.name for g in _fields(kind)}):
            raise TypeError(f"{cls.__name__}.{f.name}: no reader for null items of {kind!r}")
        if keyed and not _is_record(kind):
            raise TypeError(f"{cls.__name__}.{f.name}: no reader for an object of {kind!r}")
        out.append(_Field(f.name, kind, many, optional, default, texts, what, bounds, holes, keyed))
    return tuple(out)


def _optional(hint: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True); any other annotation -> (itself, False)."""
    if typing.get_origin(hint) in (Union, types.UnionType) and type(None) in typing.get_args(hint):
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return inner, True
    return hint, False


def _items_may_be_null(hint: Any) -> tuple[Any, bool]:
    """``tuple[X | None, ...]`` (optional or not) as ``tuple[X, ...]`` and True."""
    inner, optional = _optional(hint)
    args = typing.get_args(inner)
    if typing.get_origin(inner) is tuple and args[1:] == (Ellipsis,):
        item, holes = _optional(args[0])
        if holes:
            many = tuple[item, ...]  # type: ignore[valid-type]
            return (many | None if optional else many), True
    return hint, False


def _keyed(hint: Any) -> tuple[Any, bool]:
    """``Mapping[str, X]`` (optional or not) as ``X`` and True: an object keyed by name."""
    inner, optional = _optional(hint)
    if typing.get_origin(inner) in (Mapping, dict) and typing.get_args(inner)[:1] == (str,):
        kind = typing.get_args(inner)[1]
        return (kind | None if optional else kind), True
    return hint, False


def _kind(cls: type[Any], name: str, hint: Any) -> tuple[Any, bool, bool, tuple[Any, ...]]:
    """(kind, many, optional, bounds) of one annotation; a TypeError names what has no reader."""
    many = False
    hint, optional = _optional(hint)
    origin = typing.get_origin(hint)
    if origin is tuple and typing.get_args(hint)[1:] == (Ellipsis,):
        hint, many = typing.get_args(hint)[0], True
        origin = typing.get_origin(hint)
    bounds: tuple[Any, ...] = (None,) * len(_BOUNDS)
    if origin is Annotated:
        meta = [m for m in hint.__metadata__ if isinstance(m, msgspec.Meta)]
        bounds = tuple(getattr(meta[0], k) for k in _BOUNDS) if meta else bounds
        other = [k for m in meta for k in _OTHER_BOUNDS if getattr(m, k) is not None]
        if other or len(meta) > 1:  # the walk would not check them: refused, not ignored
            raise TypeError(f"{cls.__name__}.{name}: no reader for the bounds {other or meta}")
        hint = typing.get_args(hint)[0]
        origin = typing.get_origin(hint)
    if origin is Literal:
        return tuple(typing.get_args(hint)), many, optional, bounds
    if hint in _SCALARS or hint is Any or _is_record(hint) or _is_vocab(hint):
        return hint, many, optional, bounds
    raise TypeError(f"{cls.__name__}.{name}: no reader for {hint!r}")


def _is_record(kind: Any) -> bool:
    return isinstance(kind, type) and dataclasses.is_dataclass(kind)


def _is_vocab(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, Vocab)


def check_record(cls: type[T], rec: Record) -> T:
    """One record of the declaration, read field by field in order (the first problem raised)."""
    values = {}
    for f in _fields(cls):
        if rec.data.get(f.name) is None and f.default is not _REQUIRED:
            # null is the same as absent for a field with a default (a copy of a mapping's)
            values[f.name] = dict(f.default) if f.keyed else f.default
        elif f.optional and rec.data.get(f.name) is None:
            values[f.name] = None if f.name in rec.data else _default_of(rec, f)
        elif f.keyed:
            values[f.name] = _read_keyed(rec, f)
        elif f.many:
            values[f.name] = _read_many(rec, f)
        else:
            values[f.name] = _read_one(rec, f)
    return cls(**values)


def _default_of(rec: Record, f: _Field) -> Any:
    if f.default is _REQUIRED:
        raise rec.error("missing required field", field=rec.field(f.name))
    return f.default


def _read_one(rec: Record, f: _Field) -> Any:
    """One field that is not a list."""
    if f.name not in rec.data:
        return _default_of(rec, f)
    kind, (ge, le, min_length, gt) = f.kind, f.bounds
    if _is_record(kind):
        return check_record(kind, rec.sub(f.name))
    if kind is float:
        return _number(rec, f.name, f)
    if kind is Any:
        return rec.data[f.name]
    if _is_vocab(kind):
        return rec.choice(f.name, kind, f.what)
    value = rec.get(f.name, str if isinstance(kind, tuple) else kind)
    if isinstance(kind, tuple) and value not in kind:
        raise rec.error(unknown(f.what, value, kind), field=rec.field(f.name))
    if min_length and len(value) < min_length:
        raise rec.error(
            f"must be a non-empty string, got {describe(value)}", field=rec.field(f.name)
        )
    if kind is int and not _unbounded(f):
        rec.number(f.name, minimum=ge, maximum=le, above=gt)
    return value


def _unbounded(f: _Field) -> bool:
    """Whether a number field has no bound (only finiteness to check)."""
    ge, le, _, gt = f.bounds
    return ge is None and le is None and gt is None


def _number(rec: Record, name: str, f: _Field) -> Any:
    """The number at ``name`` of ``rec`` within the field's bounds (a float for a float)."""
    ge, le, _, gt = f.bounds
    value = rec.number(name, minimum=ge, maximum=le, above=gt, integer=f.kind is int)
    return float(value) if f.kind is float else value


def _read_keyed(rec: Record, f: _Field) -> dict[str, Any]:
    """An object keyed by name: each value a record, its errors naming the key as the record."""
    if f.name not in rec.data:
        return dict(_default_of(rec, f))
    return {
        key: check_record(
            f.kind,
            Record(
                value,
                file=rec.file,
                record=key,
                path=rec.field(f"{f.name}.{key}"),
                error=rec.error_type,
            ),  # fmt: skip
        )
        for key, value in rec.mapping(f.name)
    }


def _read_many(rec: Record, f: _Field) -> tuple[Any, ...]:
    """A list field: each item read as the declaration says (records named by their id)."""
    default = () if f.default is _REQUIRED else (f.default,)
    kind = f.kind
    if _is_record(kind) and f.holes:  # a null item stays None
        items = rec.get(f.name, list, *default)
        return tuple(
            None if item is None else check_record(kind, _item(rec, f.name, j, item))
            for j, item in enumerate(items)
        )
    if _is_record(kind):
        items = rec.get(f.name, list, *default)
        if "id" in {g.name for g in _fields(kind)}:  # records named by their ids in errors
            named = records_of(
                items,
                file=rec.file,
                where=rec.field(f.name),
                record=rec.record,
                error=rec.error_type,
            )
            return tuple(check_record(kind, r) for _, r in named)
        return tuple(check_record(kind, r) for _, r in rec.items(f.name, *default))
    if kind is Any:
        return tuple(rec.get(f.name, list, *default))
    if kind in (int, float):  # each item a number within the bounds, named name[j]
        items = rec.get(f.name, list, *default)
        at = [f"{f.name}[{j}]" for j in range(len(items))]
        numbers = Record(dict(zip(at, items, strict=True)), file=rec.file, record=rec.record,
                         path=rec.path, error=rec.error_type)  # fmt: skip
        return tuple(_number(numbers, name, f) for name in at)
    words = rec.texts(f.name, *default) if f.texts else rec.str_list(f.name, *default)
    if kind is str:
        return words
    allowed = kind if isinstance(kind, tuple) else tuple(m.value for m in kind)
    for j, word in enumerate(words):
        if word not in allowed:
            raise rec.error(unknown(f.what, word, allowed), field=rec.field(f"{f.name}[{j}]"))
    return words if isinstance(kind, tuple) else tuple(kind(w) for w in words)


def _item(rec: Record, name: str, j: int, item: Any) -> Record:
    """Item ``j`` of the list ``name`` of ``rec``, its errors naming ``name[j]``."""
    path = rec.field(f"{name}[{j}]")
    return Record(item, file=rec.file, record=rec.record, path=path, error=rec.error_type)


_REFUSED = (msgspec.ValidationError, TypeError, ValueError)


def read_declared(
    cls: type[T],
    data: Any,
    *,
    file: str,
    record: str | None = None,
    path: str = "",
    error: type[ClaimlabInputError] = FixtureError,
) -> T:
    """One JSON object as a record of ``cls`` (nested records too), or its first problem.

    ``path`` is where the object sits in its file (``"calibration"``): errors name fields under it.
    """
    try:
        found: T = msgspec.convert(data, cls)
    except _REFUSED:
        pass
    else:
        if not _needs_walk(cls, [data], [found], None):
            return found
    return check_record(cls, Record(data, file=file, record=record, path=path, error=error))


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
    records = _converted(cls, items, id_field)
    if records is not None:
        return records
    # refused, or a check beyond the types to make: the declaration walked for the first problem
    return [
        check_record(cls, rec)
        for _, rec in records_of(items, file=file, where=where, id_field=id_field, error=error)
    ]


def read_named(
    cls: type[T],
    items: list[Any],
    names: list[str],
    *,
    file: str,
    error: type[ClaimlabInputError] = FixtureError,
) -> list[T]:
    """Objects already named (each line of a JSON Lines file by its id) as records of ``cls``.

    Converted in one pass; when that is refused, each object is walked in turn and the first
    problem names its record by ``names``.
    """
    records = _converted(cls, items, None)
    if records is not None:
        return records
    return [
        check_record(cls, Record(item, file=file, record=name, error=error))
        for item, name in zip(items, names, strict=True)
    ]


def _converted(cls: type[T], items: list[Any], id_field: str | None) -> list[T] | None:
    """The objects converted in one pass, or None: refused, or a check beyond types to make."""
    try:
        records: list[T] = msgspec.convert(items, list[cls])  # type: ignore[valid-type]
    except _REFUSED:
        return None
    return None if _needs_walk(cls, items, records, id_field) else records


def _needs_walk(cls: type[Any], items: list[Any], records: list[Any], id_field: str | None) -> bool:
    """Whether converted records hold what their types allow but the declaration refuses.

    An empty id, a blank text, a number that is not finite where no bound refuses it (NaN,
    infinity), a list given as another sequence (a caller's tuple, looked for among the fields
    of what the reader is handed; nested values are a JSON parser's, whose lists are lists).
    """
    lists = [f.name for f in _fields(cls) if f.many]
    if any(type(item.get(name, [])) is not list for item in items for name in lists):
        return True
    keyed = [f.name for f in _fields(cls) if f.keyed]
    if any(type(item.get(name, {})) is not dict for item in items for name in keyed):
        return True
    if id_field is not None and not all(getattr(r, id_field) for r in records):
        return True
    return any(_plan(cls)) and not all(_within(cls, r) for r in records)


def _within(cls: type[Any], record: Any) -> bool:
    """Whether a converted record keeps the checks beyond types.

    Texts that hold some text, finite numbers, ids and names that are not empty.
    """
    plan = _plan(cls)
    for name in plan.texts:
        if not all(t.strip() for t in getattr(record, name)):
            return False
    for name, many in plan.numbers:
        value = getattr(record, name)
        if value is not None and not all(map(math.isfinite, value if many else (value,))):
            return False
    for name in plan.named:  # records named by their ids, objects keyed by names: none empty
        value = getattr(record, name)
        keys = value if isinstance(value, dict) else (v.id for v in value or ())
        if not all(keys):
            return False
    for name, kind, shape in plan.nested:
        value = getattr(record, name)
        items = value.values() if shape == "keyed" else value if shape == "many" else (value,)
        if value is not None and not all(_within(kind, v) for v in items if v is not None):
            return False
    return True


class _Plan(NamedTuple):
    """What :func:`_within` looks at in one declaration's records (empty: nothing)."""

    texts: list[str]
    numbers: list[tuple[str, bool]]  # (name, many): numbers without bounds, to be finite
    named: list[str]  # lists of records with ids, and objects keyed by name
    nested: list[tuple[str, Any, str]]  # (name, kind, "one" | "many" | "keyed")


def _shape(f: _Field) -> str:
    return "keyed" if f.keyed else "many" if f.many else "one"


def _plan(cls: type[Any]) -> _Plan:
    """What :func:`_within` looks at in one declaration's records.

    Its texts, its numbers without bounds, its lists of records named by id and its objects
    keyed by name, and its records whose own plan is not empty; an empty plan: msgspec's types
    are all the checks.
    """
    found = _PLANS.get(cls)
    if found is None:
        _PLANS[cls] = _Plan([], [], [], [])  # a declaration that holds itself
        fields = _fields(cls)
        found = _PLANS[cls] = _Plan(
            [f.name for f in fields if f.texts],
            [(f.name, f.many) for f in fields if f.kind is float and _unbounded(f)],
            [f.name for f in fields if f.keyed or (f.many and _named_by_id(f.kind))],
            [
                (f.name, f.kind, _shape(f))
                for f in fields
                if _is_record(f.kind) and any(_plan(f.kind))
            ],
        )
    return found


def _named_by_id(kind: Any) -> bool:
    """Whether ``kind`` is a record whose list items are named by their ``id`` in errors."""
    return _is_record(kind) and "id" in {g.name for g in _fields(kind)}


_PLANS: dict[type[Any], _Plan] = {}


def described(schema: dict[str, Any]) -> msgspec.Meta:
    """The JSON Schema of a value the reader checks by rules of its own (``Annotated[Any, ...]``).

    For a value a declaration holds as ``Any`` (a string or a list of strings, a choice of two
    records): its reference page shows ``schema`` for it, and the reader checks it.
    """
    return msgspec.Meta(extra_json_schema=schema)


def declared_schema(cls: type[Any]) -> dict[str, Any]:
    """The JSON Schema of one declared record (``msgspec`` reads the same dataclass).

    A field with a default may be null (the reader reads null as absent), as an optional one.
    """
    schema: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(msgspec.json.schema(cls)))
    for record in schema.get("$defs", {}).values():  # as JSON has it (a default of () is [])
        required = set(record.get("required", ()))
        properties = record.get("properties", {})
        for name, value in properties.items():
            if name not in required and not _takes_null(value):
                rest = {k: v for k, v in value.items() if k != "default"}
                nullable: dict[str, Any] = {"anyOf": [rest, {"type": "null"}]}
                properties[name] = nullable | (
                    {"default": value["default"]} if rest != value else {}
                )
    return schema


def _takes_null(schema: dict[str, Any]) -> bool:
    """Whether a property's schema lets null through (any value, or null among its choices)."""
    if not {"type", "anyOf", "$ref", "enum", "const"} & set(schema):
        return True
    return schema.get("type") == "null" or any(_takes_null(a) for a in schema.get("anyOf", ()))


def written(record: Any) -> Any:
    """A declared record as its file writes it: JSON values, fields in the declaration's order.

    Examples:
        >>> from claimlab.io.decomposition import Span
        >>> written(Span(0, 3, "abc"))
        {'start': 0, 'end': 3, 'text': 'abc'}
    """
    return msgspec.to_builtins(record)
