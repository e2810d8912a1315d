"""Checkers written for the tests (``python:tests.checkers.stand_ins:NAME``). No model runs here.

Each counts the items it is asked, so a test can tell a cached run from a fresh one.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
from pathlib import Path

from tests.conftest import DATA

WORD = {"S": "SUPPORTED", "NS": "NOT_IN_REFERENCE"}
OTHER = {"SUPPORTED": "NOT_IN_REFERENCE", "NOT_IN_REFERENCE": "SUPPORTED"}


def draw(seed, *parts):
    """A seeded uniform number in [0, 1) from the parts (the hand computation uses the same)."""
    digest = hashlib.sha256(":".join(map(str, (seed, *parts))).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def people_labels():
    """FActScore's people's labels by item id ``SYSTEM:LINE:SENTENCE:FACT`` (S and NS only)."""
    out = {}
    for path in sorted((DATA / "factscore").glob("*.jsonl")):
        for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for si, s in enumerate(json.loads(text).get("annotations") or ()):
                for fi, f in enumerate(s.get("human-atomic-facts") or ()):
                    if f["label"] != "IR":
                        out[f"{path.stem}:{line}:{si}:{fi}"] = WORD[f["label"]]
    return out


class PeopleFlipped:
    """The people's label, a seeded 10% of items flipped (S <-> NS); counts its calls."""

    calls = 0
    share = 0.10
    seed = 45
    version = "1"
    _labels: dict[str, str] | None = None

    def __call__(self, items):
        if PeopleFlipped._labels is None:
            PeopleFlipped._labels = people_labels()
        PeopleFlipped.calls += len(items)
        out = []
        for item in items:
            label = PeopleFlipped._labels[item.id]
            out.append(OTHER[label] if draw(self.seed, item.id) < self.share else label)
        return out


class Keyword:
    """Deterministic: SUPPORTED when a passage holds the claim's last word, else NOT_IN_REFERENCE.

    The same rule as ``keyword.pl`` and the stand-in chat server.
    """

    calls = 0

    def __call__(self, items):
        Keyword.calls += len(items)
        return [keyword(i.claim, i.passages) for i in items]


def keyword(claim, passages):
    words = claim.lower().split()
    last = words[-1].strip(".") if words else ""
    hit = [n for n, p in enumerate(passages) if last and last in p.lower()]
    return {"label": "SUPPORTED" if hit else "NOT_IN_REFERENCE", "used": hit}


class Flipper:
    """SUPPORTED, a seeded 20% of asks (by item and repeat) flipped to NOT_IN_REFERENCE."""

    calls = 0
    seed = 7
    share = 0.20

    def __call__(self, items):
        Flipper.calls += len(items)
        return [
            "NOT_IN_REFERENCE" if draw(self.seed, i.id, i.repeat) < self.share else "SUPPORTED"
            for i in items
        ]


def garbage(items):
    """Answers a word no checker vocabulary has for the second item."""
    return ["SUPPORTED" if n != 1 else "PROBABLY" for n, _ in enumerate(items)]


def dying(items):
    """Logs each item to $DYING_LOG; kills its own process (SIGKILL) at item $DYING_AT."""
    log = Path(os.environ["DYING_LOG"])
    out = []
    for item in items:
        done = len(log.read_text().splitlines()) if log.exists() else 0
        if str(done + 1) == os.environ.get("DYING_AT"):
            os.kill(os.getpid(), signal.SIGKILL)
        with log.open("a") as f:
            f.write(item.id + "\n")
        out.append("SUPPORTED")
    return out


def contradicts(items):
    """CONTRADICTED for every item, citing its first passage."""
    return [{"label": "CONTRADICTED", "used": [0] if i.passages else []} for i in items]


def crashing(items):
    """Raises for any batch holding the second fact asked (a model that crashed)."""
    for item in items:
        if item.claim.endswith("fact 1."):
            raise RuntimeError(f"the model crashed on {item.id}")
    return ["SUPPORTED" for _ in items]


def crash_on_even(items):
    """Raises for an item whose number is even and above 0 (``i2``, ``i4``: two failing batches)."""
    for item in items:
        n = int(item.id.lstrip("i"))
        if n and n % 2 == 0:
            raise RuntimeError(f"crashed on {item.id}")
    return ["SUPPORTED" for _ in items]
