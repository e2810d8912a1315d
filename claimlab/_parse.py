"""Small helpers to read JSON records field by field with precise errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from claimlab.errors import FixtureError

_MISSING = object()

TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    bool: "true or false",
    list: "a list",
    dict: "an object",
    float: "a number",
}


def read_json(path: str | Path, *, error: type[FixtureError] = FixtureError) -> Any:
    """Parse a JSON file, turning I/O and syntax errors into a one-line error naming the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read file ({exc.strerror})", file=str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", file=str(path)
        ) from None


class Record:
    """A JSON object being read, remembering its file, record id and field path for errors."""

    def __init__(self, data: Any, *, file: str, record: str | None = None, path: str = "") -> None:
        self.file = file
        self.record = record
        self.path = path
        if not isinstance(data, dict):
            raise self.error("must be an object", field=path or None)
        self.data = data

    def error(self, problem: str, *, field: str | None = None) -> FixtureError:
        """Build a FixtureError for this record."""
        return FixtureError(problem, file=self.file, record=self.record, field=field)

    def _field(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        """Read a field, checking its type; a missing field without default is an error."""
        if name not in self.data:
            if default is _MISSING:
                raise self.error("missing required field", field=self._field(name))
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds)
        if ok and bool not in kinds and isinstance(value, bool):
            ok = False  # JSON true is not an integer here
        if ok and float in kinds and isinstance(value, bool):
            ok = False
        if not ok:
            want = " or ".join(TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise self.error(f"must be {want}, got {value!r}", field=self._field(name))
        return value

    def str_list(self, name: str, default: Any = _MISSING) -> tuple[str, ...]:
        """Read a list of strings."""
        items = self.get(name, list, default)
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise self.error(
                    f"must be a string, got {item!r}", field=f"{self._field(name)}[{i}]"
                )
        return tuple(items)

    def sub(self, name: str) -> Record:
        """Read a nested object."""
        return Record(
            self.get(name, dict), file=self.file, record=self.record, path=self._field(name)
        )

    def records(self, name: str, *, id_field: str | None = "id") -> Iterator[tuple[int, Record]]:
        """Iterate over a list of objects, each named by its id for errors."""
        items = self.get(name, list)
        for i, item in enumerate(items):
            where = f"{self._field(name)}[{i}]"
            if not isinstance(item, dict):
                raise FixtureError(
                    f"must be an object, got {item!r}",
                    file=self.file,
                    record=self.record,
                    field=where,
                )
            rec_id = item.get(id_field) if id_field else None
            if id_field is not None:
                if id_field not in item:
                    raise FixtureError(
                        "missing required field", file=self.file, record=where, field=id_field
                    )
                if not isinstance(rec_id, str) or not rec_id:
                    raise FixtureError(
                        f"must be a non-empty string, got {rec_id!r}",
                        file=self.file,
                        record=where,
                        field=id_field,
                    )
            yield i, Record(item, file=self.file, record=rec_id or where)


def check_unique(ids: list[str], *, file: str, field: str) -> None:
    """Raise on the first id that occurs twice."""
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise FixtureError(
                f"duplicate id (ids in {field} must be unique)", file=file, record=i, field="id"
            )
        seen.add(i)
