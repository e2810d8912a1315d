"""Record values in a notebook; read them back in tests and in the runner.

``record(name, value)`` displays a small JSON output with a claimlab MIME type. It is invisible in
JupyterLab and in handouts, survives in the executed ``.ipynb``, and ``read_records`` collects it.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MIME = "application/vnd.claimlab.record+json"


def to_jsonable(value: Any) -> Any:
    """Turn claimlab results, tuples, mappings and dataclasses into plain JSON values.

    Floats that are NaN or infinite are refused: a record never hides an undefined value.
    """
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return to_jsonable(value.to_dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # field by field: asdict would deep-copy, which a read-only mapping refuses
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [to_jsonable(v) for v in items]
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"refusing to record a non-finite float {value!r}; use None (N/A)")
        return value
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
                    payload = json.loads(payload)
                out[payload["name"]] = payload["value"]
    return out


def read_records(path: str | Path) -> dict[str, Any]:
    """Read recorded values from an executed notebook or a ``.records.json`` file."""
    p = Path(path)
    data = json.loads(p.read_text(encoding="utf-8"))
    if p.suffix == ".json" and "cells" not in data:
        records: dict[str, Any] = data.get("records", data)
        return records
    return records_from_notebook(data)
