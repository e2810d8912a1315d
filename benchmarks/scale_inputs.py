"""Large inputs that once took quadratic time: 100k candidates, 20k alternatives, 3000 x 3000 citations.

Shared by ``bench_scale.py`` (which prints the timings) and the hostile test suite (which runs
the same inputs without timing them).
"""

from __future__ import annotations

import json
from pathlib import Path


def decomposition_file(folder: Path, candidates: int = 100_000, units: int = 1000) -> Path:
    """A decomposition file with ``candidates`` candidates over ``units`` units; mode ``all``."""
    sentences = [
        f"Product {i} supports feature {i % 97} in version {i % 13}." for i in range(units)
    ]
    text, spans, at = "", [], 0
    for s in sentences:
        spans.append((at, at + len(s), s))
        text += s + " "
        at += len(s) + 1
    data = {
        "format": "claimlab/decomposition@1",
        "offset_unit": "utf16",
        "original": {"id": "A", "version": "v1", "text": text},
        "units": [
            {"id": f"U{i}", "span": {"start": a, "end": b, "text": t}}
            for i, (a, b, t) in enumerate(spans)
        ],
        "references": [{"id": "R", "title": "t", "version": "1", "text": "reference"}],
        "candidates": [],
        "modes": {},
    }
    for i in range(candidates):
        u = i % units
        a, b, t = spans[u]
        data["candidates"].append(
            {
                "id": f"C{i}",
                "text": t,
                "entity": "Product",
                "version": "1",
                "predicate": "supports",
                "qualifiers": [],
                "source_spans": [{"start": a, "end": b, "text": t}],
                "fingerprint": f"fp{i % (candidates // 2 or 1)}",
                "preserves": [f"U{u}"],
                "faithful": True,
                "atomic": True,
                "errors": [],
                "evidence": {"status": "SUPPORTED", "references": ["R"]},
            }
        )
    data["modes"]["all"] = [c["id"] for c in data["candidates"]]
    path = folder / "decomposition_100k.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def sufficiency_file(folder: Path, alternatives: int = 20_000) -> tuple[Path, str]:
    """A question with ``alternatives`` two-step chains; returns (file, context ids).

    The context holds every chain's first member and every other chain's second: half the
    branches are complete, half miss one premise with thousands of stand-ins available.
    """
    evidence, alts, context = [], [], []
    for i in range(alternatives):
        a, b = f"E{2 * i}", f"E{2 * i + 1}"
        evidence.append(
            {"id": a, "text": "t", "subject": "card", "relation": "uses", "object": f"route{i}",
             "status": "APPROVED", "current": True, "topic": "x"}
        )  # fmt: skip
        evidence.append(
            {"id": b, "text": "t", "subject": f"route{i}", "relation": "leads to",
             "object": "room", "status": "APPROVED", "current": True, "topic": "x"}
        )  # fmt: skip
        alts.append([a, b])
        context.append(a)
        if i % 2:
            context.append(b)
    data = {
        "format": "claimlab/sufficiency@1",
        "evidence": evidence,
        "rules": {"required_status": "APPROVED", "require_current": True},
        "questions": {"q": {"text": "?", "asks": ["room"], "topic": "x", "alternatives": alts}},
    }
    path = folder / "sufficiency_20k.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, ",".join(context)


def citation_files(folder: Path, claims: int = 3000, chunks: int = 3000) -> tuple[Path, Path]:
    """An answer with ``claims`` claims (one sentence each) over ``chunks`` sent chunks.

    Every claim quotes the chunk after the one it cites, so every quote is searched for in
    every other chunk (the slowest path: QUOTE_NOT_FOUND with "it occurs in ... instead").
    """
    sent = [
        {
            "id": f"doc#{i}",
            "document": f"Document {i % 50}",
            "version": "v1",
            "score": 1.0 - i / (chunks + 1),
            "text": f"Clause {i}: requests of type {i} are answered within {i % 30 + 1} days "
            f"by the office of unit {i % 17}, in writing and with a reference number {i}.",
        }
        for i in range(chunks)
    ]
    answer = {
        "answer": " ".join(
            f"Requests of type {i} are answered within some days." for i in range(claims)
        ),
        "claims": [
            {
                "text": f"Requests of type {i} are answered within some days.",
                "chunk_id": f"doc#{i % chunks}",
                "quote": f"requests of type {(i + 1) % chunks} are answered",
            }
            for i in range(claims)
        ],
        "has_unsourced_claim": False,
    }
    a, c = folder / "answer_3000.json", folder / "chunks_3000.json"
    a.write_text(json.dumps(answer), encoding="utf-8")
    c.write_text(json.dumps(sent), encoding="utf-8")
    return a, c
