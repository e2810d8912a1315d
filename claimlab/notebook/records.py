"""Record values in a notebook; read them back in tests and in the runner.

``record(name, value)`` displays a small JSON output with a claimlab MIME type. It is invisible in
JupyterLab and in handouts, survives in the executed ``.ipynb``, and ``load_records`` collects it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claimlab.core.frozen import Plain

MIME = "application/vnd.claimlab.record+json"


def to_jsonable(value: Any) -> Any:
    """Turn claimlab results, tuples, mappings and dataclasses into plain JSON values.

    Floats that are NaN or infinite are refused: a record never hides an undefined value.
    The plain types (exactly ``str``, ``int``, ``bool``, ``None``, ``dict``, ``list``,
    ``tuple``, ``float``) and the dataclasses without a ``to_dict`` are turned at once, by
    their type; anything else takes the general path (:func:`_general`), with the same result.

    Examples:
        >>> to_jsonable({1: (True, None, 0.5, "x"), "s": frozenset({"b", "a"})})
        {'1': [True, None, 0.5, 'x'], 's': ['a', 'b']}
    """
    kind = type(value)
    if kind in _AS_IS or kind is Plain:
        return value
    if kind is dict:
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [to_jsonable(v) for v in value]
    if kind is float:
        return _finite(value)
    names = _dataclass_fields(kind)
    if names is not None:
        # field by field: asdict would deep-copy, which a read-only mapping refuses
        return {name: to_jsonable(getattr(value, name)) for name in names}
    return _general(value)


_AS_IS = frozenset({str, int, bool, type(None)})


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _dataclass_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type without a ``to_dict`` of its own, else None (cached)."""
    try:
        return _FIELDS[kind]
    except KeyError:
        pass
    plain = dataclasses.is_dataclass(kind) and not callable(getattr(kind, "to_dict", None))
    names = tuple(f.name for f in dataclasses.fields(kind)) if plain else None
    _FIELDS[kind] = names
    return names


def _finite(value: float) -> float:
    """``value``, refused when it is NaN or infinite (a record never hides an undefined value)."""
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"refusing to record a non-finite float {value!r}; use None (N/A)")
    return value


def _general(value: Any) -> Any:
    """:func:`to_jsonable` for any other value: ``to_dict``, mappings, sets, subclasses, numpy."""
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return to_jsonable(value.to_dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [to_jsonable(v) for v in items]
    if isinstance(value, float):
        return _finite(value)
    if value is None or isinstance(value, (str, int, bool)):
        return value
    if hasattr(value, "item"):  # numpy scalar
        return to_jsonable(value.item())
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot record a value of type {type(value).__name__}")


def record(name: str, value: Any) -> None:
    """Record ``value`` under ``name`` in the running notebook's outputs."""
    from IPython.display import display

    payload = {"name": name, "value": to_jsonable(value)}
    display({MIME: payload}, raw=True)


def records_from_notebook(nb: Mapping[str, Any]) -> dict[str, Any]:
    """Collect recorded values from a notebook dict (later records of one name win)."""
    out: dict[str, Any] = {}
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data", {})
            if MIME in data:
                payload = data[MIME]
                if isinstance(payload, str):
                    import json

                    payload = json.loads(payload)
                out[payload["name"]] = payload["value"]
    return out


def load_records(path: str | Path) -> dict[str, Any]:
    """Read recorded values from an executed notebook or a ``.records.json`` file."""
    import json

    p = Path(path)
    data = json.loads(p.read_text(encoding="utf-8"))
    if p.suffix == ".json" and "cells" not in data:
        records: dict[str, Any] = data.get("records", data)
        return records
    return records_from_notebook(data)
