"""Claim-to-source mapping: validate an answer's citations in the pipeline's own code.

An answer comes as claims, each with the chunk id it rests on and a supporting quote, plus a flag
saying whether some claim has no source. The checks belong to the pipeline, not the prompt:

* ``FABRICATED_ID``: the chunk id was not among the chunks sent;
* ``QUOTE_NOT_FOUND``: the quote does not occur in **that** chunk's text (after Unicode NFC
  normalisation and white-space folding; ``...`` or ``…`` stands for elided text, so the pieces
  must occur in order);
* ``MISSING_QUOTE``: a cited claim without a quote;
* ``QUOTE_TOO_SHORT``: a quote (or one piece of an elided quote) too short to be evidence:
  fewer than 12 characters or fewer than 3 words (a word of a script written without spaces,
  such as Thai, counts one per 3 characters), so "i" or "7 ... ." cannot pass;
* ``UNSOURCED_CLAIM``: a claim without a chunk id (refused unless ``allow_unsourced``);
* ``NUMBER_MISMATCH``: a claim states a number, date or amount its quote does not hold,
  compared as values ("5.00" is "5", "yedi" is "7"; "7" is not "14");
* ``UNCOVERED_SENTENCE``: a sentence of the answer that its claims do not state: it says
  something no citation backs (refused unless the answer declares unsourced claims and they
  are allowed). Covered means stated: each claim is matched to the sentence it shares the most
  character trigrams with, and the claims matched to a sentence must together carry at least
  half of its content words and every number in it (``claimlab.core.content``);
* ``BELOW_THRESHOLD`` (with a calibrated threshold): a claim rests on a chunk scored below it,
  or no chunk sent reaches it and the answer is not the explicit "I don't know";
* ``DONT_KNOW_WITH_CLAIMS``: an answer that says it does not know but makes claims;
* ``FLAG_MISMATCH``: the unsourced-claim flag disagrees with the claims.

An answer that does not know says so explicitly: ``"bilmiyorum": true`` (``"dont_know": true``)
with no claims and the unsourced flag false. It is ACCEPTed as an abstention, which the seed
asks a pipeline to make a normal, expected answer; an answer that states facts with no claim
at all is REJECTed (every sentence is uncovered).

Both the seed's Turkish keys (``cevap``, ``iddialar``, ``metin``, ``parca_kimligi``, ``dayanak``,
``kaynaksiz_iddia_var``, ``bilmiyorum``) and English ones (``answer``, ``claims``, ``text``,
``chunk_id``, ``quote``, ``has_unsourced_claim``, ``dont_know``) are read. A REJECT comes with a
message for the user, in the answer's language, naming the document set searched and what was
not found.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.core.content import carried, content_units, numbers
from claimlab.core.ratio import Ratio
from claimlab.core.sentences import split_sentences
from claimlab.core.vocab import ProblemCode, Verdict
from claimlab.io.context_lab import Answer, Chunk

ELLIPSIS = re.compile(r"\.\.\.|…")
_SPACE = re.compile(r"\s+")
MIN_QUOTE_CHARS = 12
MIN_QUOTE_WORDS = 3
_WORD = re.compile(r"\w+")
# scripts written without spaces between words: one word per 3 characters
_UNSPACED = re.compile(
    r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)


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
    return bool(pieces) and _pieces_in(pieces, normalise(text))


def _pieces_in(pieces: Sequence[str], hay: str, at: int = 0, end: int | None = None) -> bool:
    for piece in pieces:
        i = hay.find(piece, at, end)
        if i < 0:
            return False
        at = i + len(piece)
    return True


def quote_words(piece: str) -> int:
    """Words in a quote piece; in scripts written without spaces, one word per 3 characters.

    Examples:
        >>> quote_words("7/b) Yıllık izin"), quote_words("ลาพักร้อนล่วงหน้า")
        (4, 6)
    """
    n = 0
    for w in _WORD.findall(piece):
        unspaced = len(_UNSPACED.findall(w))
        n += (unspaced + 2) // 3 + (1 if unspaced < len(w) else 0) if unspaced else 1
    return n


def short_quote_piece(quote: str) -> str | None:
    """The first piece of a quote too short to be evidence, or None when every piece is long enough.

    A piece needs at least ``MIN_QUOTE_CHARS`` characters (white space folded) and
    ``MIN_QUOTE_WORDS`` words; an elided quote is checked piece by piece.

    Examples:
        >>> short_quote_piece("i"), short_quote_piece("7 ... ."), short_quote_piece("en az yedi gün önce")
        ('i', '7', None)
    """
    pieces = [normalise(x) for x in ELLIPSIS.split(quote)]
    for piece in pieces:
        if not piece:
            continue
        if len(piece) < MIN_QUOTE_CHARS or quote_words(piece) < MIN_QUOTE_WORDS:
            return piece
    return None if any(pieces) else quote.strip() or quote


class ChunkIndex:
    """Chunks' normalised texts, joined once, to find which chunks hold a quote.

    One search over the joined text per claim instead of one per (claim, chunk) pair keeps
    validation linear in the size of the context.
    """

    def __init__(self, sent: Sequence[Chunk]) -> None:
        self.ids = [c.id for c in sent]
        self.texts = [normalise(c.text) for c in sent]
        self.by_id = {c.id: (i, c) for i, c in enumerate(sent)}
        self.starts: list[int] = []
        at = 0
        for t in self.texts:
            self.starts.append(at)
            at += len(t) + 1
        self.joined = "\x00".join(self.texts)

    def holding(self, quote: str, *, skip: str | None = None) -> list[str]:
        """Ids of the chunks (other than ``skip``) that hold the quote's pieces in order.

        Examples:
            >>> index = ChunkIndex([Chunk("a", "D", "1", 0.9, "Leave is paid early."),
            ...                     Chunk("b", "D", "1", 0.8, "Requests go  to the manager.")])
            >>> index.holding("Requests go to the manager"), index.holding("paid ... early")
            (['b'], ['a'])
        """
        return self.elsewhere(quote_pieces(quote), skip)

    def elsewhere(self, pieces: Sequence[str], skip: str | None) -> list[str]:
        """Ids of the other chunks that hold the pieces in order."""
        found: list[str] = []
        if not pieces or "\x00" in pieces[0]:
            return found
        pos = self.joined.find(pieces[0])
        while pos >= 0:
            i = bisect.bisect_right(self.starts, pos) - 1
            end = self.starts[i] + len(self.texts[i])
            if self.ids[i] != skip and _pieces_in(pieces, self.joined, pos, end):
                found.append(self.ids[i])
            pos = self.joined.find(pieces[0], end + 1)  # next chunk
        return found


def _trigrams(text: str) -> set[str]:
    t = normalise(text).casefold()
    return {t[i : i + 3] for i in range(max(len(t) - 2, 0))}


def best_matches(
    claims: Sequence[str], sentences: Sequence[str], *, least: int = 3
) -> list[int | None]:
    """For each claim, the sentence it shares the most character trigrams with (None below ``least``).

    Ties go to the earlier sentence. Small inputs are compared pair by pair; large ones (a
    hostile answer of thousands of sentences and claims) through a sparse matrix product, in
    batches, with the same result.
    """
    claim_grams = [_trigrams(c) for c in claims]
    sentence_grams = [_trigrams(s) for s in sentences]
    if len(claims) * len(sentences) <= 40_000:
        out: list[int | None] = []
        for g in claim_grams:
            best, best_n = None, least - 1
            for i, sg in enumerate(sentence_grams):
                n = len(g & sg)
                if n > best_n:
                    best, best_n = i, n
            out.append(best)
        return out
    return _best_matches_sparse(claim_grams, sentence_grams, least=least)


def _best_matches_sparse(
    claim_grams: Sequence[set[str]], sentence_grams: Sequence[set[str]], *, least: int
) -> list[int | None]:
    import numpy as np
    from scipy.sparse import csr_matrix

    vocab: dict[str, int] = {}

    def matrix(grams: Sequence[set[str]]) -> csr_matrix:
        cols = [vocab.setdefault(g, len(vocab)) for gs in grams for g in gs]
        indptr = np.cumsum([0, *(len(gs) for gs in grams)])
        data = np.ones(len(cols), dtype=np.int32)
        return csr_matrix((data, cols, indptr), shape=(len(grams), 1 << 24))

    s = matrix(sentence_grams).T.tocsc()
    c = matrix(claim_grams)
    out: list[int | None] = []
    for start in range(0, c.shape[0], 256):
        shared = (c[start : start + 256] @ s).toarray()
        best = shared.argmax(axis=1)  # the first of equal counts: the earlier sentence
        top = shared[np.arange(len(best)), best]
        out.extend(int(b) if t >= least else None for b, t in zip(best, top, strict=True))
    return out


@dataclass(frozen=True)
class Uncovered:
    """A sentence of the answer (1-based) that its claims do not state, and why."""

    n: int
    text: str
    reason: str


def _coverage_gap(sentence: str, claims: Sequence[str], language: str) -> str | None:
    """Why the claims matched to a sentence do not state it (None: they do)."""
    if not claims:
        return "no claim matches it"
    units = content_units(sentence)
    claim_units = {u for c in claims for u in content_units(c)}
    got = carried(units, claim_units)
    if 2 * len(got) < len(units):
        missing = [u for u in units if u not in got]
        return (
            f"its claims carry {len(got)} of its {len(units)} content words (half are needed;"
            f" not carried: {', '.join(dict.fromkeys(missing[:6]))})"
        )
    claim_numbers = {v for c in claims for v in numbers(c, language)}
    lost = sorted(numbers(sentence, language) - claim_numbers)
    if lost:
        return f"no claim of it states the number {', '.join(lost[:6])}"
    return None


def uncovered_sentences(answer: Answer) -> list[Uncovered]:
    """The answer's sentences that its claims do not state.

    Each claim is matched to the sentence it shares the most character trigrams with (at
    least 3; ties go to the earlier sentence). A sentence is covered when the claims matched
    to it together carry at least half of its content words and every number, date and
    amount in it, compared as values (``claimlab.core.content``).
    """
    sentences = split_sentences(answer.answer)
    texts = [c.text for c in answer.claims]
    best = best_matches(texts, [s.text for s in sentences])
    matched: dict[int, list[str]] = {}
    for text, b in zip(texts, best, strict=True):
        if b is not None:
            matched.setdefault(b, []).append(text)
    out = []
    for i, s in enumerate(sentences):
        reason = _coverage_gap(s.text, matched.get(i, []), answer.language)
        if reason is not None:
            out.append(Uncovered(i + 1, s.text, reason))
    return out


def lost_numbers(claim: str, quote: str, language: str) -> list[str]:
    """The numbers of a claim that its quote does not hold (as values: "5.00" is "5").

    Examples:
        >>> lost_numbers("The fee is 5.00 a day.", "a fee of 2.10 a day", "en")
        ['5']
        >>> lost_numbers("Talep en az yedi gün önce iletilir.", "en az 7 gün önce ...", "tr")
        []
    """
    return sorted(numbers(claim, language) - numbers(quote, language), key=_sort_key)


def _sort_key(value: str) -> tuple[int, str]:
    return (len(value.split(".")[0]), value)


@dataclass(frozen=True)
class Problem:
    """One failed check: which claim (1-based; 0 for the answer as a whole), code, explanation."""

    claim: int
    code: ProblemCode
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"claim": self.claim, "code": self.code, "explanation": self.explanation}


@dataclass(frozen=True)
class CitationReport:
    """ACCEPT or REJECT with every problem, and the message the user sees on REJECT."""

    verdict: Verdict
    problems: tuple[Problem, ...]
    message: str
    documents: tuple[str, ...]
    sent: tuple[str, ...]
    claims: int = 0

    @property
    def verified(self) -> Ratio:
        """Claims with no problem of their own among all claims (N/A for an answer without any)."""
        failed = {p.claim for p in self.problems if p.claim > 0}
        return Ratio(self.claims - len(failed), self.claims)

    def to_dict(self) -> dict[str, Any]:
        """JSON form with the keys of the command line."""
        return {
            "verdict": self.verdict,
            "problems": [p.to_dict() for p in self.problems],
            "message": self.message,
            "documents_searched": list(self.documents),
            "chunks_sent": list(self.sent),
            "claims_verified": self.verified.to_dict(),
        }


MESSAGES = {
    "en": {
        "accept": "Every claim cites a chunk that was sent, with a quote found in that chunk.",
        "dont_know": "The answer says it does not know; there is no claim to verify.",
        "head": "This answer was withheld because its sources could not be verified.",
        "searched": "Searched: {docs} ({n} chunks sent).",
        "not_found": "Not found: {items}.",
        "advice": "You can rephrase the question or ask a person who maintains these documents.",
        "no_source": "a source for {claim}",
        "no_chunk": "chunk {chunk} (cited for {claim})",
        "no_quote": "a quote for {claim}",
        "quote_not_in": "the quote {quote} in {chunk}",
        "short_quote": "a quote long enough to check in {chunk}",
        "uncovered": "a source for sentence {n} ({sentence})",
        "dont_know_claims": "an answer that either makes claims or says it does not know",
        "flag": "a consistent unsourced-claim flag",
        "number": "the number {numbers} of {claim} in its quote from {chunk}",
        "below": "a source above the relevance threshold {threshold} (not {chunk})",
        "nothing_above": "any chunk above the relevance threshold {threshold}",
    },
    "tr": {
        "accept": "Her iddia gönderilen bir parçaya dayanıyor ve dayanak o parçanın metninde geçiyor.",
        "dont_know": "Cevap bilmediğini söylüyor; doğrulanacak bir iddia yok.",
        "head": "Bu cevap, kaynakları doğrulanamadığı için gösterilmedi.",
        "searched": "Aranan belgeler: {docs} ({n} parça gönderildi).",
        "not_found": "Bulunamayan: {items}.",
        "advice": "Soruyu farklı biçimde sorabilir ya da bu belgelerden sorumlu kişiye danışabilirsiniz.",
        "no_source": "{claim} için bir kaynak",
        "no_chunk": "{chunk} parçası ({claim} için gösterilen)",
        "no_quote": "{claim} için bir dayanak",
        "quote_not_in": "{chunk} parçasında {quote} dayanağı",
        "short_quote": "{chunk} parçasında doğrulanabilecek uzunlukta bir dayanak",
        "uncovered": "{n}. cümle için bir kaynak ({sentence})",
        "dont_know_claims": "ya iddia içeren ya da bilmediğini söyleyen bir cevap",
        "flag": "tutarlı bir kaynaksız iddia işareti",
        "number": "{chunk} parçasından alınan dayanakta {claim} iddiasındaki {numbers} sayısı",
        "below": "{threshold} alaka eşiğini geçen bir kaynak ({chunk} değil)",
        "nothing_above": "{threshold} alaka eşiğini geçen herhangi bir parça",
    },
}


def _q(text: str, limit: int = 60) -> str:
    """A quoted, shortened piece of a file's text for a message."""
    short = text if len(text) <= limit else text[: limit - 3] + "..."
    return f"“{' '.join(short.split())}”"


def _claim_problem(
    n: int,
    claim: Any,
    index: ChunkIndex,
    m: dict[str, str],
    language: str,
    threshold: float | None = None,
) -> tuple[Problem, str] | None:
    """The first failed check of one sourced claim with what the user is told is missing."""
    short = _q(claim.text)
    found = index.by_id.get(claim.chunk_id)
    if found is None:
        why = f"claim {n} cites {claim.chunk_id!r}, which was not among the {len(index.ids)} chunks sent"
        return Problem(n, ProblemCode.FABRICATED_ID, why), m["no_chunk"].format(
            chunk=_q(claim.chunk_id), claim=short
        )
    i, chunk = found
    if threshold is not None and chunk.score < threshold:
        why = (
            f"claim {n} cites {chunk.id}, whose score {chunk.score:g} is below the threshold"
            f" {threshold:g}: a chunk below it is never sent"
        )
        return Problem(n, ProblemCode.BELOW_THRESHOLD, why), m["below"].format(
            chunk=_q(chunk.id), threshold=f"{threshold:g}"
        )
    if claim.quote is None:
        why = f"claim {n} cites {chunk.id} without a supporting quote"
        return Problem(n, ProblemCode.MISSING_QUOTE, why), m["no_quote"].format(claim=short)
    too_short = short_quote_piece(claim.quote)
    if too_short is not None:
        why = (
            f"claim {n}: the quote piece {too_short!r} is too short to be evidence (each"
            f" piece needs {MIN_QUOTE_CHARS} characters and {MIN_QUOTE_WORDS} words)"
        )
        return Problem(n, ProblemCode.QUOTE_TOO_SHORT, why), m["short_quote"].format(
            chunk=_q(chunk.id)
        )
    pieces = quote_pieces(claim.quote)
    if not _pieces_in(pieces, index.texts[i]):
        elsewhere = index.elsewhere(pieces, chunk.id)
        where = f"; it occurs in {', '.join(elsewhere)} instead" if elsewhere else ""
        in_order = len(pieces) > 1 and all(p in index.texts[i] for p in pieces)
        order = " (its pieces are not in this order)" if in_order else ""
        why = f"claim {n}: the quote {claim.quote!r} does not occur in {chunk.id}{order}{where}"
        return Problem(n, ProblemCode.QUOTE_NOT_FOUND, why), m["quote_not_in"].format(
            quote=_q(claim.quote), chunk=_q(chunk.id)
        )
    lost = lost_numbers(claim.text, claim.quote, language)
    if lost:
        why = f"claim {n} states {', '.join(lost)}, which its quote from {chunk.id} does not"
        return Problem(n, ProblemCode.NUMBER_MISMATCH, why), m["number"].format(
            numbers=", ".join(lost), claim=short, chunk=_q(chunk.id)
        )
    return None


def _answer_problems(
    answer: Answer, unsourced: int, m: dict[str, str], *, allow_unsourced: bool
) -> list[tuple[Problem, str]]:
    """The checks of the answer as a whole: covered sentences and the unsourced flag."""
    out = []
    uncovered = [] if answer.dont_know else uncovered_sentences(answer)
    declared = answer.has_unsourced_claim
    for u in uncovered:
        if declared and allow_unsourced:
            continue
        why = (
            f"sentence {u.n} of the answer ({_q(u.text)}) is not stated by its claims: {u.reason}"
            + ("" if declared else " (and the answer does not declare unsourced claims)")
        )
        out.append(
            (
                Problem(0, ProblemCode.UNCOVERED_SENTENCE, why),
                m["uncovered"].format(n=u.n, sentence=_q(u.text)),
            )
        )
    # uncovered sentences are unsourced content: a "true" flag is consistent with them
    if declared != (unsourced > 0) and not (declared and uncovered):
        why = (
            f"the unsourced-claim flag says {str(declared).lower()} but "
            f"{unsourced} claim(s) have no source"
        )
        out.append((Problem(0, ProblemCode.FLAG_MISMATCH, why), m["flag"]))
    return out


def validate_citations(
    answer: Answer,
    sent: Sequence[Chunk],
    *,
    allow_unsourced: bool = False,
    threshold: float | None = None,
) -> CitationReport:
    """Check every claim against the chunks that were sent, and every sentence against the claims.

    With a calibrated ``threshold``, a claim resting on a chunk scored below it, and any answer
    but the explicit "I don't know" when no chunk sent reaches it, is ``BELOW_THRESHOLD``.

    Examples:
        >>> sent = [Chunk("k#1", "Doc", "v1", 0.9, "Requests go to the manager seven days ahead.")]
        >>> from claimlab.io.context_lab import Answer, Claim
        >>> ok = Answer("Requests go seven days ahead.", (Claim("Requests go seven days ahead", "k#1", "seven days ahead ..."),), False, "en")
        >>> validate_citations(ok, sent).verdict
        'ACCEPT'
        >>> bad = Answer("Requests go seven days ahead.", (Claim("Requests go seven days ahead", "k#9", "seven days ahead"),), False, "en")
        >>> [p.code for p in validate_citations(bad, sent).problems]
        ['FABRICATED_ID']
    """
    m = MESSAGES[answer.language]
    index = ChunkIndex(sent)
    found: list[tuple[Problem, str]] = []
    if answer.dont_know and answer.claims:
        why = f"the answer says it does not know but makes {len(answer.claims)} claim(s)"
        found.append((Problem(0, ProblemCode.DONT_KNOW_WITH_CLAIMS, why), m["dont_know_claims"]))
    if threshold is not None and not answer.dont_know:
        if not any(c.score >= threshold for c in sent):
            why = (
                f"no chunk sent reaches the threshold {threshold:g}: the model should not have"
                ' been called, and only the explicit "I don\'t know" answer is accepted'
            )
            below = m["nothing_above"].format(threshold=f"{threshold:g}")
            found.append((Problem(0, ProblemCode.BELOW_THRESHOLD, why), below))
    unsourced = 0
    for n, claim in enumerate(answer.claims, 1):
        if claim.chunk_id is None:
            unsourced += 1
            if not allow_unsourced:
                why = f"claim {n} cites no chunk, so it cannot be verified"
                found.append(
                    (
                        Problem(n, ProblemCode.UNSOURCED_CLAIM, why),
                        m["no_source"].format(claim=_q(claim.text)),
                    )
                )
            continue
        problem = _claim_problem(n, claim, index, m, answer.language, threshold)
        if problem is not None:
            found.append(problem)
    found += _answer_problems(answer, unsourced, m, allow_unsourced=allow_unsourced)
    return _report(answer, sent, found, m)


def _report(
    answer: Answer, sent: Sequence[Chunk], found: list[tuple[Problem, str]], m: dict[str, str]
) -> CitationReport:
    documents = tuple(dict.fromkeys(f"{c.document} ({c.version})" for c in sent))
    if found:
        message = " ".join(
            [
                m["head"],
                m["searched"].format(docs=", ".join(documents), n=len(sent)),
                m["not_found"].format(items="; ".join(text for _, text in found)),
                m["advice"],
            ]
        )
        verdict = Verdict.REJECT
    else:
        message, verdict = (m["dont_know"] if answer.dont_know else m["accept"]), Verdict.ACCEPT
    problems = tuple(p for p, _ in found)
    sent_ids = tuple(c.id for c in sent)
    return CitationReport(verdict, problems, message, documents, sent_ids, len(answer.claims))
