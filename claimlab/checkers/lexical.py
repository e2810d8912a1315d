"""The offline checker that needs no model: Okapi BM25 picks the passages, content words judge.

For each item the passages are ranked by BM25 (``rank-bm25``'s Okapi BM25) against the claim;
the claim is SUPPORTED when at least ``threshold`` of its content words (lower-cased words, a
short English stop list left out) occur in the ``top`` best passages, else NOT_IN_REFERENCE.
It never answers CONTRADICTED: word overlap cannot tell a denial from an assertion. A claim
without content words, or an item without passages, is NOT_IN_REFERENCE.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from claimlab.checkers.verdicts import Item, Verdict
from claimlab.core.vocab import Status

_WORD = re.compile(r"\w+", re.UNICODE)
STOP = frozenset(
    "a an the is was were are be been being of in on at to for from by with and or as that this "
    "it its he she his her they their them has have had who which also s".split()
)
LEXICAL_VERSION = "1"


def content_words(text: str) -> set[str]:
    """Lower-cased words of a text, the stop words left out.

    Examples:
        >>> sorted(content_words("The Nile is the longest river."))
        ['longest', 'nile', 'river']
    """
    return {w for w in _WORD.findall(text.lower()) if w not in STOP}


def words(text: str) -> list[str]:
    """Lower-cased words of a text (what BM25 ranks on)."""
    return _WORD.findall(text.lower())


def supported(claim: str, best: Iterable[set[str]], threshold: float) -> bool:
    """Whether at least ``threshold`` of the claim's content words are in the best passages.

    Examples:
        >>> supported("Ada was a poet.", [{"ada"}, {"poet"}], 1.0)
        True
        >>> supported("the of a", [{"x"}], 0.1)
        False
    """
    found = content_words(claim)
    sets = list(best)
    if not found or not sets:
        return False
    return len(found & set().union(*sets)) / len(found) >= threshold


class Ranked:
    """A list of passages ranked by BM25 on demand (the index built once)."""

    def __init__(self, passages: Sequence[str]) -> None:
        from rank_bm25 import BM25Okapi

        self.sets = [content_words(p) for p in passages]
        self.bm25: Any = BM25Okapi([words(p) or [""] for p in passages]) if passages else None

    def best(self, text: str, top: int) -> list[int]:
        """Positions of the ``top`` passages best for ``text`` (ties: file order)."""
        if self.bm25 is None:
            return []
        scores = self.bm25.get_scores(words(text))
        return sorted(range(len(self.sets)), key=lambda i: (-scores[i], i))[:top]


class LexicalChecker:
    """``--checker lexical``: BM25 and content-word overlap, offline and deterministic."""

    name = "lexical"
    version = LEXICAL_VERSION
    batch_size = 256
    workers = 1
    cached = False  # cheaper than a cache look-up; deterministic, so a cache would change nothing

    def __init__(self, *, threshold: float = 0.6, top: int = 5) -> None:
        self.threshold = threshold
        self.top = top
        self._ranked: dict[tuple[str, ...], Ranked] = {}

    @property
    def parameters(self) -> Mapping[str, Any]:
        """What the labels depend on, besides the item."""
        return {"threshold": self.threshold, "top": self.top}

    def check(self, items: Sequence[Item], *, timeout: float) -> list[Verdict]:
        """A verdict per item, in order."""
        return [self.one(item) for item in items]

    def one(self, item: Item) -> Verdict:
        """The verdict for one item."""
        if item.passages not in self._ranked:
            self._ranked[item.passages] = Ranked(item.passages)
        ranked = self._ranked[item.passages]
        used = ranked.best(item.claim, self.top)
        ok = supported(item.claim, (ranked.sets[i] for i in used), self.threshold)
        return Verdict(Status.SUPPORTED if ok else Status.NOT_IN_REFERENCE, None, tuple(used))
