"""WiCE claim-level entailment-retrieval records: alternative supporting-sentence sets per claim.

WiCE (Kamoi et al., 2023) labels each claim supported / partially_supported / not_supported
against an evidence article and lists alternative minimal sets of supporting sentence indices.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import WiceLabel
from claimlab.io.reader import Record, bulk_load, describe, iter_jsonl, where

LABELS: dict[str, WiceLabel] = {label.value: label for label in WiceLabel}
WICE_LABELS = tuple(LABELS)


@dataclass(frozen=True)
class WiceClaim:
    """A WiCE claim with its alternative supporting-sentence sets."""

    id: str
    label: WiceLabel
    claim: str
    sentences: int
    alternatives: tuple[tuple[int, ...], ...]
    empty_groups: int = 0


@bulk_load()  # records without cycles: no collector pass over them
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
        if not isinstance(obj, dict):
            raise ClaimlabInputError("must be a JSON object", file=source, record=where(n))
        meta = obj.get("meta")
        cid = meta.get("id") if isinstance(meta, dict) else None
        rec = Record(obj, file=source, record=where(n, cid), error=ClaimlabInputError)
        cid = rec.sub("meta").get("id", (str, int))
        value = rec.get("label", str, want=f"one of {', '.join(WICE_LABELS)}")
        label = LABELS.get(value)
        if label is None:
            raise rec.error(f"unknown label {value!r}", field="label")
        ev = _evidence(rec)
        groups, dropped = _groups(rec, len(ev), empty_groups)
        claim = rec.get("claim", (str, type(None)), None) or ""
        out.append(WiceClaim(str(cid), label, claim, len(ev), tuple(groups), dropped))
    return out


def _evidence(rec: Record) -> list[Any]:
    """The record's evidence sentences (a list, or the Python text of one in some releases)."""
    ev: object = rec.get("evidence", (list, str), want="a list of sentences")
    if isinstance(ev, str):  # some releases store the list as its Python text
        try:
            ev = ast.literal_eval(ev)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise rec.error("evidence is not a list of sentences", field="evidence") from None
    if not isinstance(ev, list):
        raise rec.error("must be a list of sentences", field="evidence")
    return ev


def _groups(
    rec: Record, n: int, empty_groups: Literal["error", "drop"]
) -> tuple[list[tuple[int, ...]], int]:
    """The supporting sets as sentence indexes (checked against ``n`` sentences), and drops.

    Returns the sets and how many empty sets were dropped.
    """
    alts = rec.get("supporting_sentences", list, want="a list of sentence-index lists")
    groups: list[tuple[int, ...]] = []
    dropped = 0
    for i, g in enumerate(alts):
        if isinstance(g, list) and not g and empty_groups == "drop":
            dropped += 1
            continue
        if not isinstance(g, list) or not g:
            raise rec.error(
                "empty or malformed supporting set (an empty set would count as complete with "
                "no evidence; load with empty_groups='drop' to leave such sets out, counted)",
                field=f"supporting_sentences[{i}]",
            )
        for j, s in enumerate(g):
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise rec.error(
                    f"sentence index {describe(s)} outside 0..{n - 1}",
                    field=f"supporting_sentences[{i}][{j}]",
                )
        groups.append(tuple(g))
    return groups, dropped
