"""Read JSON Lines files one record at a time, with errors that name file, line and field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from claimlab.errors import ClaimlabInputError


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value)`` for every non-blank line (numbers start at 1).

    Raises:
        ClaimlabInputError: unreadable file or a line that is not JSON.
    """
    source = str(path)
    try:
        f = open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise ClaimlabInputError(f"cannot read file ({exc.strerror})", file=source) from None
    with f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line)
            except json.JSONDecodeError as exc:
                raise ClaimlabInputError(
                    f"not valid JSON: {exc.msg} at column {exc.colno}",
                    file=source,
                    record=f"line {n}",
                ) from None


def where(n: int, rec_id: Any = None) -> str:
    """``"line 12"`` or ``"line 12 (id 91198)"``."""
    return f"line {n}" if rec_id is None else f"line {n} (id {rec_id})"
