"""Claim-to-source mapping: validate an answer's citations in the pipeline's own code.

An answer comes as claims, each with the chunk id it rests on and a supporting quote, plus a flag
saying whether some claim has no source. The checks belong to the pipeline, not the prompt:

* ``FABRICATED_ID``: the chunk id was not among the chunks sent;
* ``QUOTE_NOT_FOUND``: the quote does not occur in **that** chunk's text (after Unicode NFC
  normalisation and white-space folding; ``...`` or ``…`` stands for elided text, so the pieces
  must occur in order);
* ``MISSING_QUOTE``: a cited claim without a quote;
* ``UNSOURCED_CLAIM``: a claim without a chunk id (refused unless ``allow_unsourced``);
* ``FLAG_MISMATCH``: the unsourced-claim flag disagrees with the claims.

Both the seed's Turkish keys (``cevap``, ``iddialar``, ``metin``, ``parca_kimligi``, ``dayanak``,
``kaynaksiz_iddia_var``) and English ones (``answer``, ``claims``, ``text``, ``chunk_id``,
``quote``, ``has_unsourced_claim``) are read. A REJECT comes with a message for the user naming
the document set searched and what was not found.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimlab._parse import read_json
from claimlab.context_budget import Chunk
from claimlab.errors import ClaimlabInputError

KEYS = {
    "tr": {
        "answer": "cevap",
        "claims": "iddialar",
        "text": "metin",
        "chunk_id": "parca_kimligi",
        "quote": "dayanak",
        "flag": "kaynaksiz_iddia_var",
    },
    "en": {
        "answer": "answer",
        "claims": "claims",
        "text": "text",
        "chunk_id": "chunk_id",
        "quote": "quote",
        "flag": "has_unsourced_claim",
    },
}
ELLIPSIS = re.compile(r"\.\.\.|…")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Claim:
    """One claim of an answer with its cited chunk id and quote (None when absent)."""

    text: str
    chunk_id: str | None
    quote: str | None


@dataclass(frozen=True)
class Answer:
    """An answer as claims, with its unsourced-claim flag and the key language it came in."""

    answer: str
    claims: tuple[Claim, ...]
    has_unsourced_claim: bool
    language: str


def parse_answer(data: Any, *, source: str) -> Answer:
    """Build an Answer from Turkish or English keys, with errors naming file, claim and field.

    Raises:
        ClaimlabInputError: missing keys or wrong types.
    """
    if not isinstance(data, dict):
        raise ClaimlabInputError("an answer must be a JSON object", file=source)
    lang = "tr" if "iddialar" in data or "cevap" in data else "en"
    k = KEYS[lang]
    for key in (k["answer"], k["claims"], k["flag"]):
        if key not in data:
            raise ClaimlabInputError("missing required field", file=source, field=key)
    if not isinstance(data[k["answer"]], str):
        raise ClaimlabInputError("must be a string", file=source, field=k["answer"])
    if not isinstance(data[k["flag"]], bool):
        raise ClaimlabInputError(
            f"must be true or false, got {data[k['flag']]!r}", file=source, field=k["flag"]
        )
    raw = data[k["claims"]]
    if not isinstance(raw, list):
        raise ClaimlabInputError("must be a list of claims", file=source, field=k["claims"])
    claims = []
    for i, c in enumerate(raw):
        rec = f"{k['claims']}[{i}]"
        if not isinstance(c, dict):
            raise ClaimlabInputError("must be an object", file=source, record=rec)
        if not isinstance(c.get(k["text"]), str):
            raise ClaimlabInputError(
                "missing or not a string", file=source, record=rec, field=k["text"]
            )
        cid = c.get(k["chunk_id"])
        quote = c.get(k["quote"])
        for key, v in ((k["chunk_id"], cid), (k["quote"], quote)):
            if v is not None and not isinstance(v, str):
                raise ClaimlabInputError(
                    f"must be a string or null, got {v!r}", file=source, record=rec, field=key
                )
        claims.append(Claim(c[k["text"]], cid or None, quote or None))
    return Answer(data[k["answer"]], tuple(claims), data[k["flag"]], lang)


def load_answer(path: str | Path) -> Answer:
    """Load an answer JSON file."""
    return parse_answer(read_json(path, error=ClaimlabInputError), source=str(path))


def normalise(text: str) -> str:
    r"""NFC normal form and runs of white space folded to one space.

    Examples:
        >>> normalise("o\u0308nce  gün\n") == "önce gün"
        True
    """
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()


def quote_pieces(quote: str) -> list[str]:
    """The quote split at ellipses ("..." or "…") into normalised, non-empty pieces."""
    return [p for p in (normalise(x) for x in ELLIPSIS.split(quote)) if p]


def find_quote(quote: str, text: str) -> bool:
    """Whether the quote's pieces occur in ``text`` in order (after normalisation).

    Examples:
        >>> find_quote("en az ... gün önce", "talebi en az yedi gün önce iletilir")
        True
        >>> find_quote("gün önce ... en az", "talebi en az yedi gün önce iletilir")
        False
    """
    pieces = quote_pieces(quote)
    if not pieces:
        return False
    hay = normalise(text)
    at = 0
    for piece in pieces:
        i = hay.find(piece, at)
        if i < 0:
            return False
        at = i + len(piece)
    return True


@dataclass(frozen=True)
class Problem:
    """One failed check: which claim (1-based; 0 for the answer as a whole), code, explanation."""

    claim: int
    code: str
    explanation: str

    def to_dict(self) -> dict:
        """JSON form."""
        return {"claim": self.claim, "code": self.code, "explanation": self.explanation}


@dataclass(frozen=True)
class CitationReport:
    """ACCEPT or REJECT with every problem, and the message the user sees on REJECT."""

    verdict: str
    problems: tuple[Problem, ...]
    message: str
    documents: tuple[str, ...]
    sent: tuple[str, ...]

    def to_dict(self) -> dict:
        """JSON form with the keys of the command line."""
        return {
            "verdict": self.verdict,
            "problems": [p.to_dict() for p in self.problems],
            "message": self.message,
            "documents_searched": list(self.documents),
            "chunks_sent": list(self.sent),
        }


MESSAGES = {
    "en": {
        "accept": "Every claim cites a chunk that was sent, with a quote found in that chunk.",
        "head": "This answer was withheld because its sources could not be verified.",
        "searched": "Searched: {docs} ({n} chunks sent).",
        "not_found": "Not found: {items}.",
        "advice": "You can rephrase the question or ask a person who maintains these documents.",
    },
    "tr": {
        "accept": "Her iddia gönderilen bir parçaya dayanıyor ve dayanak o parçanın metninde geçiyor.",
        "head": "Bu cevap, kaynakları doğrulanamadığı için gösterilmedi.",
        "searched": "Aranan belgeler: {docs} ({n} parça gönderildi).",
        "not_found": "Bulunamayan: {items}.",
        "advice": "Soruyu farklı biçimde sorabilir ya da bu belgelerden sorumlu kişiye danışabilirsiniz.",
    },
}


def validate_citations(
    answer: Answer, sent: Sequence[Chunk], *, allow_unsourced: bool = False
) -> CitationReport:
    """Check every claim against the chunks that were sent.

    Examples:
        >>> sent = [Chunk("k#1", "Doc", "v1", 0.9, "Requests go to the manager seven days ahead.")]
        >>> ok = Answer("a", (Claim("c", "k#1", "seven days ..."),), False, "en")
        >>> validate_citations(ok, sent).verdict
        'ACCEPT'
        >>> bad = Answer("a", (Claim("c", "k#9", "seven days"),), False, "en")
        >>> [p.code for p in validate_citations(bad, sent).problems]
        ['FABRICATED_ID']
    """
    by_id = {c.id: c for c in sent}
    problems: list[Problem] = []
    not_found: list[str] = []
    unsourced = 0
    for n, claim in enumerate(answer.claims, 1):
        short = claim.text if len(claim.text) <= 60 else claim.text[:57] + "..."
        if claim.chunk_id is None:
            unsourced += 1
            if not allow_unsourced:
                problems.append(
                    Problem(
                        n, "UNSOURCED_CLAIM", f"claim {n} cites no chunk, so it cannot be verified"
                    )
                )
                not_found.append(f"a source for {short!r}")
            continue
        chunk = by_id.get(claim.chunk_id)
        if chunk is None:
            problems.append(
                Problem(
                    n,
                    "FABRICATED_ID",
                    f"claim {n} cites {claim.chunk_id!r}, which was not among the {len(sent)} chunks sent",
                )
            )
            not_found.append(f"chunk {claim.chunk_id!r} (cited for {short!r})")
            continue
        if claim.quote is None:
            problems.append(
                Problem(
                    n, "MISSING_QUOTE", f"claim {n} cites {chunk.id} without a supporting quote"
                )
            )
            not_found.append(f"a quote for {short!r}")
            continue
        if not find_quote(claim.quote, chunk.text):
            elsewhere = [c.id for c in sent if c.id != chunk.id and find_quote(claim.quote, c.text)]
            where = f"; it occurs in {', '.join(elsewhere)} instead" if elsewhere else ""
            pieces = quote_pieces(claim.quote)
            order = (
                " (its pieces are not in this order)"
                if len(pieces) > 1 and all(p in normalise(chunk.text) for p in pieces)
                else ""
            )
            problems.append(
                Problem(
                    n,
                    "QUOTE_NOT_FOUND",
                    f"claim {n}: the quote {claim.quote!r} does not occur in {chunk.id}{order}{where}",
                )
            )
            not_found.append(f"the quote {claim.quote!r} in {chunk.id}")
    if answer.has_unsourced_claim != (unsourced > 0):
        problems.append(
            Problem(
                0,
                "FLAG_MISMATCH",
                f"the unsourced-claim flag says {str(answer.has_unsourced_claim).lower()} but "
                f"{unsourced} claim(s) have no source",
            )
        )
        not_found.append("a consistent unsourced-claim flag")
    documents = tuple(dict.fromkeys(f"{c.document} ({c.version})" for c in sent))
    m = MESSAGES[answer.language]
    if problems:
        message = " ".join(
            [
                m["head"],
                m["searched"].format(docs=", ".join(documents), n=len(sent)),
                m["not_found"].format(items="; ".join(not_found)),
                m["advice"],
            ]
        )
        verdict = "REJECT"
    else:
        message, verdict = m["accept"], "ACCEPT"
    return CitationReport(verdict, tuple(problems), message, documents, tuple(c.id for c in sent))
