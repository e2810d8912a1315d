"""WiCE claim-level entailment-retrieval records: alternative supporting-sentence sets per claim.

WiCE (Kamoi et al., 2023) labels each claim supported / partially_supported / not_supported
against an evidence article and lists alternative minimal sets of supporting sentence indices.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.reader import iter_jsonl, where

WICE_LABELS = ("supported", "partially_supported", "not_supported")


@dataclass(frozen=True)
class WiceClaim:
    """A WiCE claim with its alternative supporting-sentence sets."""

    id: str
    label: str
    claim: str
    sentences: int
    alternatives: tuple[tuple[int, ...], ...]
    empty_groups: int = 0


def load_wice(
    path: str | Path, *, empty_groups: Literal["error", "drop"] = "error"
) -> list[WiceClaim]:
    """Load WiCE claim-level entailment-retrieval records.

    Some released records list an empty supporting set (``[]``) among the alternatives; a
    scorer that tests ``all(...)`` over it would call the claim fully supported by no sentence.
    With ``empty_groups="error"`` (default) such a record is refused; with ``"drop"`` the empty
    set is left out and counted in ``WiceClaim.empty_groups``, so the caller can report it.

    Args:
        path: The JSONL file.
        empty_groups: What to do with an empty supporting set.

    Raises:
        ClaimlabInputError: naming file, line (and id) and field.
    """
    source = str(path)
    out = []
    for n, obj in iter_jsonl(path):
        meta = obj.get("meta") if isinstance(obj, dict) else None
        cid = meta.get("id") if isinstance(meta, dict) else None
        rec = where(n, cid)
        if cid is None:
            raise ClaimlabInputError(
                "missing required field", file=source, record=rec, field="meta.id"
            )
        label = obj.get("label")
        if label not in WICE_LABELS:
            raise ClaimlabInputError(
                f"unknown label {label!r}", file=source, record=rec, field="label"
            )
        ev = obj.get("evidence")
        if isinstance(ev, str):
            try:
                ev = ast.literal_eval(ev)
            except (ValueError, SyntaxError):
                raise ClaimlabInputError(
                    "evidence is not a list of sentences", file=source, record=rec, field="evidence"
                ) from None
        if not isinstance(ev, list):
            raise ClaimlabInputError(
                "must be a list of sentences", file=source, record=rec, field="evidence"
            )
        alts = obj.get("supporting_sentences")
        if not isinstance(alts, list):
            raise ClaimlabInputError(
                "must be a list of sentence-index lists",
                file=source,
                record=rec,
                field="supporting_sentences",
            )
        groups = []
        dropped = 0
        for i, g in enumerate(alts):
            if isinstance(g, list) and not g and empty_groups == "drop":
                dropped += 1
                continue
            if not isinstance(g, list) or not g:
                raise ClaimlabInputError(
                    "empty or malformed supporting set (an empty set would count as complete with "
                    "no evidence; load with empty_groups='drop' to leave such sets out, counted)",
                    file=source,
                    record=rec,
                    field=f"supporting_sentences[{i}]",
                )
            for j, s in enumerate(g):
                if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < len(ev):
                    raise ClaimlabInputError(
                        f"sentence index {s!r} outside 0..{len(ev) - 1}",
                        file=source,
                        record=rec,
                        field=f"supporting_sentences[{i}][{j}]",
                    )
            groups.append(tuple(g))
        out.append(
            WiceClaim(str(cid), label, str(obj.get("claim", "")), len(ev), tuple(groups), dropped)
        )
    return out
