"""Fill a hand-written decomposition file's UTF-16 span offsets from the quoted ``text``.

A teacher writes each span as the words it covers (``{"text": "..."}``); the offsets are then
found in the text the span points into: ``original.text`` for ``units[].span`` and
``candidates[].source_spans[]``, the cited reference's ``text`` for
``candidates[].evidence.spans[]``. A quote must occur exactly once, unless the span already
gives offsets that hold that quote (the way to choose among repeats); an absent or ambiguous
quote is an error naming the record and the field.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from claimlab.core.errors import FixtureError
from claimlab.core.spans import utf16_offset, utf16_slice


@dataclass(frozen=True)
class FilledSpans:
    """A decomposition document with every span's offsets found, and what was done."""

    document: Mapping[str, Any]  # read-only view of the filled copy
    filled: tuple[str, ...]  # "record: field" of every span whose offsets were set
    kept: tuple[str, ...]  # spans whose given offsets already held their text

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready counts and places."""
        return {"filled": list(self.filled), "kept": list(self.kept)}


def occurrences(text: str, quote: str) -> list[int]:
    """UTF-16 start offsets of every occurrence of ``quote`` in ``text`` (overlaps included).

    Examples:
        >>> occurrences("aXa aXa", "aXa"), occurrences("📘 ok", "ok"), occurrences("x", "y")
        ([0, 4], [3], [])
    """
    out, i = [], text.find(quote)
    while quote and i >= 0:
        out.append(utf16_offset(text, i))
        i = text.find(quote, i + 1)
    return out


def _holds(target: str, span: dict[str, Any]) -> bool:
    """Whether the span's given offsets are integers whose slice is its text."""
    start, end = span.get("start"), span.get("end")
    if not (type(start) is int and type(end) is int):
        return False
    try:
        return bool(utf16_slice(target, start, end) == span["text"])
    except ValueError:
        return False


def _fill_one(span: object, target: str, *, file: str, record: str, field: str) -> bool:
    """Set one span's offsets in place; True if set, False if its offsets already held."""
    if not isinstance(span, dict) or not isinstance(span.get("text"), str) or not span["text"]:
        raise FixtureError("a span needs its quoted text", file=file, record=record, field=field)
    if _holds(target, span):
        return False
    quote = span["text"]
    found = occurrences(target, quote)
    if len(found) != 1:
        problem = (
            f"{quote!r} does not occur in the text"
            if not found
            else f"{quote!r} occurs {len(found)} times (at {found}); quote more words, "
            "or give start/end to choose one"
        )
        raise FixtureError(problem, file=file, record=record, field=f"{field}.text")
    span["start"] = found[0]
    span["end"] = found[0] + len(quote.encode("utf-16-le")) // 2
    return True


def _text_of(doc: object, *path: str, file: str) -> str:
    """A text field the spans point into (``original.text``)."""
    node = doc
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    if not isinstance(node, str):
        raise FixtureError("missing or not a string", file=file, field=".".join(path))
    return node


def _records(doc: dict[str, Any], key: str, *, file: str) -> list[tuple[str, dict[str, Any]]]:
    """``(id, record)`` pairs of a list section (missing or null: none)."""
    items = doc.get(key)
    items = [] if items is None else items
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise FixtureError("must be a list of objects", file=file, field=key)
    return [(str(x.get("id", f"{key}[{i}]")), x) for i, x in enumerate(items)]


def _spans(doc: dict[str, Any], *, file: str) -> Iterator[tuple[object, str, str, str]]:
    """Every span with the text it points into: ``(span, target, record, field)``."""
    original = _text_of(doc, "original", "text", file=file)
    refs = {
        rid: r["text"]
        for rid, r in _records(doc, "references", file=file)
        if isinstance(r.get("text"), str)
    }
    for uid, unit in _records(doc, "units", file=file):
        yield unit.get("span"), original, uid, "span"
    for cid, cand in _records(doc, "candidates", file=file):
        for j, span in enumerate(_list(cand, "source_spans", file=file, record=cid)):
            yield span, original, cid, f"source_spans[{j}]"
        evidence = cand.get("evidence")
        ev_spans = _list(evidence, "spans", file=file, record=cid, where="evidence.")
        for j, span in enumerate(ev_spans):
            field = f"evidence.spans[{j}]"
            ref = span.get("reference") if isinstance(span, dict) else None
            if not isinstance(ref, str) or ref not in refs:
                problem = f"names no reference with a text ({ref!r})"
                raise FixtureError(problem, file=file, record=cid, field=f"{field}.reference")
            yield span, refs[ref], cid, field


def _list(node: object, key: str, *, file: str, record: str, where: str = "") -> list[object]:
    """A list field of a record (missing or null: empty, as the file's reader reads it)."""
    value = node.get(key) if isinstance(node, dict) else None
    value = [] if value is None else value
    if not isinstance(value, list):
        raise FixtureError("must be a list", file=file, record=record, field=f"{where}{key}")
    return value


def fill_spans(doc: object, *, file: str = "<document>") -> FilledSpans:
    """Find the UTF-16 offsets of every quoted span of a decomposition document.

    The input is not changed; the result holds a filled copy.

    Raises:
        FixtureError: a span without text, a quote that is absent or ambiguous, a reference
            that does not exist, or a section of the wrong shape (naming record and field).

    Examples:
        >>> doc = {"original": {"text": "📘 A. B."}, "units": [{"id": "u", "span": {"text": "B."}}]}
        >>> fill_spans(doc).document["units"][0]["span"]
        {'text': 'B.', 'start': 6, 'end': 8}
    """
    if not isinstance(doc, Mapping):
        raise FixtureError("a decomposition file is a JSON object", file=file)
    out = copy.deepcopy(dict(doc))
    filled: list[str] = []
    kept: list[str] = []
    for span, target, record, field in _spans(out, file=file):
        place = f"{record}: {field}"
        (filled if _fill_one(span, target, file=file, record=record, field=field) else kept).append(
            place
        )
    return FilledSpans(MappingProxyType(out), tuple(filled), tuple(kept))
