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

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claimlab.core.content import carried, content_units, dashed_ranges, numbers, range_ends
from claimlab.core.frozen import freeze
from claimlab.core.polarity import (
    Marks,
    apply_synonyms,
    clause_spans,
    clauses,
    expand_not,
    marks,
    split_labels,
    without_head_label,
    without_negations,
)
from claimlab.core.ratio import Ratio
from claimlab.core.sentences import split_sentences
from claimlab.core.vocab import ProblemCode, Verdict
from claimlab.io.context_lab import Answer, Chunk, Claim, sentence_key
from claimlab.io.reader import bulk_load

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
    """Chunks' normalised texts, with an inverted index to find which chunks hold a quote.

    The quote of a claim is searched for in the chunk it cites; only when it is not there are
    the other chunks asked, through an index built on first use: each chunk's words, and (for
    a quote piece without a whole word inside it) each chunk's character trigrams. A chunk can
    hold a piece only if it holds every word lying wholly inside the piece (a run of word
    characters with a non-word character on each side is a whole word wherever the piece
    occurs), and every trigram of it; the candidates of the rarest such key are then searched.
    Work grows with the chunks holding that key, not with the whole context.
    """

    def __init__(self, sent: Sequence[Chunk]) -> None:
        self.ids = [c.id for c in sent]
        self.texts = [normalise(c.text) for c in sent]
        self.by_id = {c.id: (i, c) for i, c in enumerate(sent)}
        self._postings: dict[str, dict[str, list[int]]] = {}

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
        """Ids of the other chunks that hold the pieces in order, in the order the chunks were sent."""
        if not pieces or "\x00" in pieces[0]:
            return []
        return [
            self.ids[i]
            for i in self._candidates(pieces)
            if self.ids[i] != skip and _pieces_in(pieces, self.texts[i])
        ]

    def _candidates(self, pieces: Sequence[str]) -> Sequence[int]:
        """The chunks (ascending) holding the rarest key of the pieces; every chunk without keys."""
        best: Sequence[int] | None = None
        for piece in pieces:
            inner = [
                m.group() for m in _WORD.finditer(piece) if m.start() > 0 and m.end() < len(piece)
            ]
            kind, keys = ("words", inner) if inner else ("trigrams", list(_grams(piece)))
            postings = self._index(kind) if keys else {}
            for key in keys:
                found = postings.get(key, ())
                if best is None or len(found) < len(best):
                    best = found
        return range(len(self.texts)) if best is None else best

    def _index(self, kind: str) -> dict[str, list[int]]:
        """The chunks holding each word (``words``) or each trigram (``trigrams``), built once."""
        if kind not in self._postings:
            split = _WORD.findall if kind == "words" else _grams
            postings: dict[str, list[int]] = {}
            for i, text in enumerate(self.texts):
                for key in set(split(text)):
                    postings.setdefault(key, []).append(i)
            self._postings[kind] = postings
        return self._postings[kind]


def _grams(text: str) -> set[str]:
    """The character trigrams of a text as it stands."""
    return {text[i : i + 3] for i in range(len(text) - 2)}


def _trigrams(text: str) -> set[str]:
    t = normalise(text).casefold()
    return {t[i : i + 3] for i in range(max(len(t) - 2, 0))}


def best_matches(
    claims: Sequence[str], sentences: Sequence[str], *, least: int = 3, language: str = "en"
) -> list[int | None]:
    """For each claim, the sentence it shares the most character trigrams with (None below ``least``).

    Numbers are compared as numbers first: a claim stating numbers is matched among the
    sentences holding all of them, when there is one ("2000 TL" never goes to the sentence of
    "20000 TL", though both have the same trigrams). Ties go to the earlier sentence. Small
    inputs are compared pair by pair; large ones (a hostile answer of thousands of sentences
    and claims) through an inverted index of the sentences' trigrams, with the same result.

    Examples:
        >>> best_matches(["Fee is 20000 TL."], ["Fee is 2000 TL.", "Fee is 20000 TL."])
        [1]
    """
    claim_grams = [_trigrams(c) for c in claims]
    sentence_grams = [_trigrams(s) for s in sentences]
    allowed = number_candidates(claims, sentences, language)
    if len(claims) * len(sentences) <= 40_000 or least < 1:
        out: list[int | None] = []
        for g, ok in zip(claim_grams, allowed, strict=True):
            best, best_n = None, least - 1
            for i, sg in enumerate(sentence_grams):
                n = len(g & sg)
                if n > best_n and (ok is None or i in ok):
                    best, best_n = i, n
            out.append(best)
        return out
    return _best_matches_indexed(claim_grams, sentence_grams, least=least, allowed=allowed)


def number_candidates(
    claims: Sequence[str], sentences: Sequence[str], language: str
) -> list[frozenset[int] | None]:
    """For each claim, the sentences holding every number it states (None: no restriction).

    A claim without numbers, or whose numbers no one sentence holds, may match any sentence.

    Examples:
        >>> number_candidates(["2000 TL", "no number", "7 and 9"], ["2000 TL", "20000 TL"], "en")
        [frozenset({0}), None, None]
    """
    where: dict[str, set[int]] = {}
    for i, s in enumerate(sentences):
        for v in numbers(s, language):
            where.setdefault(v, set()).add(i)
    out: list[frozenset[int] | None] = []
    for c in claims:
        values = numbers(c, language)
        held = set.intersection(*(where.get(v, set()) for v in values)) if values else set()
        out.append(frozenset(held) if held else None)
    return out


def _best_matches_indexed(
    claim_grams: Sequence[set[str]],
    sentence_grams: Sequence[set[str]],
    *,
    least: int,
    allowed: Sequence[frozenset[int] | None] | None = None,
) -> list[int | None]:
    """The pair-by-pair result of :func:`best_matches` through an inverted index (``least`` >= 1).

    A claim is compared only with the sentences sharing its rarer trigrams (see
    :class:`_Best`); one whose numbers restrict it to a few sentences, with those alone.
    """
    postings: dict[str, list[int]] = {}
    for i, grams in enumerate(sentence_grams):
        for g in grams:
            postings.setdefault(g, []).append(i)
    out: list[int | None] = []
    for grams, ok in zip(claim_grams, allowed or [None] * len(claim_grams), strict=True):
        best = _Best(grams, sentence_grams, least, ok)
        lists = sorted((postings[g] for g in grams if g in postings), key=len)
        if ok is not None and len(ok) <= len(lists[0] if lists else ()):
            best.consider(sorted(ok))
        else:
            best.search(lists)
        out.append(best.at)
    return out


class _Best:
    """The sentence sharing the most trigrams with one claim: the earliest of equals, at least ``least``.

    Sentences are taken in any order; :meth:`search` takes the sentences holding each of the
    claim's trigrams, rarest first, and stops once a sentence holding none of the trigrams
    taken so far could not reach the best found (it shares at most the trigrams not yet
    taken), nor reach ``least``.
    """

    def __init__(
        self,
        grams: set[str],
        sentence_grams: Sequence[set[str]],
        least: int,
        allowed: frozenset[int] | None,
    ) -> None:
        self.grams, self.sentence_grams, self.allowed = grams, sentence_grams, allowed
        self.at: int | None = None
        self.n = least - 1

    def consider(self, sentences: Iterable[int]) -> None:
        """Compare the claim with these sentences (each of them allowed)."""
        for i in sentences:
            n = len(self.grams & self.sentence_grams[i])
            if n > self.n or (n == self.n and self.at is not None and i < self.at):
                self.at, self.n = i, n

    def search(self, lists: Sequence[Sequence[int]]) -> None:
        """Take the sentences of each trigram's list (rarest first) until no other could win."""
        seen: set[int] = set()
        for k, sentences in enumerate(lists):
            left = len(lists) - k  # what a sentence not yet seen can share at most
            if left < self.n or (left == self.n and self.at is None):
                return
            new = [i for i in sentences if i not in seen]
            seen.update(new)
            ok = self.allowed
            self.consider(new if ok is None else [i for i in new if i in ok])


@dataclass(frozen=True)
class Uncovered:
    """A sentence of the answer (1-based) that its claims do not state, and why."""

    n: int
    text: str
    reason: str


def _coverage_gap(
    sentence: str, claims: Sequence[str], language: str, *, declared: bool = False
) -> str | None:
    """Why the claims matched to a sentence do not state it (None: they do).

    Every clause needs half of its content words carried (a clause the claims leave out is
    not outvoted by the others), and the sentence every number; a claim that declares it
    restates the sentence carries its words, not its numbers.
    """
    if not claims:
        return "no claim matches it"
    claim_units = {u for c in claims for u in content_units(c)}
    parts = clauses(sentence)
    for clause in [] if declared else parts:
        units = content_units(clause)
        got = carried(units, claim_units)
        if 2 * len(got) < len(units):
            missing = [u for u in units if u not in got]
            where = f"in its clause {_q(clause)} " if len(parts) > 1 else ""
            return (
                f"{where}its claims carry {len(got)} of its {len(units)} content words (half"
                f" are needed; not carried: {', '.join(dict.fromkeys(missing[:6]))})"
            )
    claim_numbers = {v for c in claims for v in numbers(c, language)}
    lost = sorted(numbers(sentence, language) - claim_numbers)
    if lost:
        return f"no claim of it states the number {', '.join(lost[:6])}"
    return None


@dataclass(frozen=True)
class Disagreement:
    """A claim clause that says the opposite of, or more or less than, the clause it carries."""

    code: ProblemCode
    clause: str
    claim_clause: str
    theirs: Marks
    ours: Marks


def disagreement(
    target: str, claim: str, language: str, *, declared: bool = False
) -> Disagreement | None:
    """Where a claim and the text it rests on disagree in negation or scope words (None: never).

    Each clause of the claim is compared with the clause of ``target`` it states (see
    :func:`stated_clause`): both must be negated or neither (``POLARITY_MISMATCH``), and both
    must hold the same scope words on the same words, as many times each
    (``SCOPE_MISMATCH``: "everyone" is not "adults", "at least 7" is not "7", and "all members
    ... every visit" is not "gold members ... every visit"). Thai and Korean negations are
    also counted (a clause there can negate two things): the side holding fewer must not
    carry all the other says besides them; a claim stating a part of its clause may. A claim ``declared`` to restate the
    target (its words may differ) must agree all the same, its scope words by kind and count.

    Examples:
        >>> disagreement("Pensioners do not pay the fee.", "Pensioners pay the fee.", "en").code
        'POLARITY_MISMATCH'
        >>> disagreement("Herkes 5 avro öder.", "Yetişkinler 5 avro öder.", "tr").code
        'SCOPE_MISMATCH'
        >>> disagreement("Adults pay 5, but children do not pay.", "Adults pay 5.", "en") is None
        True
        >>> disagreement("Gold members get a towel at every visit.",
        ...              "All members get a towel at every visit.", "en").code
        'SCOPE_MISMATCH'
    """
    parts = clauses(target) or [target]
    units = [content_units(expand_not(p)) for p in parts]  # "doesn't" as "does not"
    for ours_text in clauses(claim) or [claim]:
        claim_units = set(content_units(expand_not(ours_text)))
        at = stated_clause(units, claim_units)
        theirs, ours = marks(parts[at], language), marks(ours_text, language)
        if (
            theirs.negated != ours.negated
            or (
                theirs.negations != ours.negations
                and _drops_a_negation(parts[at], ours_text, theirs.negations > ours.negations)
            )
            or _nested_negations_differ(theirs, ours)
        ):
            return Disagreement(ProblemCode.POLARITY_MISMATCH, parts[at], ours_text, theirs, ours)
        for j in fully_stated(units, claim_units):  # "..., but not on Sundays": Sundays said
            if marks(parts[j], language).negated != ours.negated:
                other = marks(parts[j], language)
                return Disagreement(ProblemCode.POLARITY_MISMATCH, parts[j], ours_text, other, ours)
        same = theirs.same_scope_kinds(ours) if declared else theirs.same_scope(ours)
        if not same:
            return Disagreement(ProblemCode.SCOPE_MISMATCH, parts[at], ours_text, theirs, ours)
    return None


def _drops_a_negation(clause: str, claim: str, claim_has_fewer: bool) -> bool:
    """Whether the text with fewer Thai or Korean negations still says all the other says.

    Then it negates fewer of the same things: the opposite of one of them. A claim stating
    a part of its clause, with the negations of that part only, does not carry all of it.
    """
    fewer, more = (claim, clause) if claim_has_fewer else (clause, claim)
    units = content_units(without_negations(more))
    return len(carried(units, set(content_units(without_negations(fewer))))) == len(units)


def stated_clause(parts: Sequence[list[str]], claim: set[str]) -> int:
    """Which clause (by its content units) a claim clause states: the one whose own words it carries.

    A clause's own words are those no other clause of the text has. Among the clauses whose
    own words the claim carries some of, the one leaving fewest of them out, then carrying
    most of them, then most words at all, then the earlier; none carried: the one carrying most
    words. "Students do not pay during exam weeks, but they pay during the summer term" is
    stated by a claim about the summer term in its second clause, though the first shares
    more words with it.

    Examples:
        >>> stated_clause([["students", "not", "pay", "exam"], ["pay", "summer"]],
        ...               {"students", "not", "pay", "summer"})
        1
        >>> stated_clause([["adults", "pay"], ["children", "not", "pay"]], {"adults", "pay"})
        0
    """
    keys = []
    for i, (units, own) in enumerate(zip(parts, own_units(parts), strict=True)):
        got = len(carried(own, claim))
        left = len(own) - got if got else 0
        keys.append((got > 0, -left, got, len(carried(units, claim)), -i))
    return keys.index(max(keys))


def _nested_negations_differ(theirs: Marks, ours: Marks) -> bool:
    """Whether one side nests negations and the other holds another number of them.

    Two negations in a clause of English or Turkish nest: "it is not true that it does not
    open" is no ground for "it does not open". In doubt, never agreement.
    """
    a, b = theirs.spaced_negations, ours.spaced_negations
    return a != b and max(a, b) >= 2


def fully_stated(parts: Sequence[list[str]], claim: set[str]) -> list[int]:
    """The clauses (by their content units) all of whose own words a claim clause carries.

    Such a clause is stated by the claim too, beside the one :func:`stated_clause` picks: a
    claim "members park there on Sundays" states both "members park there" and "but not on
    Sundays". A clause without words of its own is stated by none.

    Examples:
        >>> fully_stated([["members", "park", "garage"], ["sundays"]],
        ...              {"members", "park", "garage", "sundays"})
        [0, 1]
        >>> fully_stated([["students", "exam", "weeks"], ["summer"]], {"students", "summer"})
        [1]
    """
    out = []
    for i, own_words in enumerate(own_units(parts)):
        # its own words, but its negation: "not on Sundays" is stated by "on Sundays"
        own = [u for u in own_words if not marks(u).negated]
        if own and len(carried(own, claim)) == len(own):
            out.append(i)
    return out


def own_units(parts: Sequence[list[str]]) -> list[list[str]]:
    """Each clause's own words (by content units): those no other clause of the text has.

    Examples:
        >>> own_units([["adults", "pay"], ["children", "pay"]])
        [['adults'], ['children']]
    """
    out = []
    for i, units in enumerate(parts):
        others = {u for j, p in enumerate(parts) if j != i for u in p}
        out.append([u for u in units if not carried([u], others)])
    return out


# where a number's statement ends besides a clause: a comma ("adults pay 10, children 5"),
# Korean -고 / -지만 ("성인은 10,000원을 내고 어린이는 5,000원을"), Thai และ / แต่
_PIECE_BREAK = re.compile(r",\s+|(?<=[\uac00-\ud7a3]고)\s+|(?<=지만)\s+|\s*(?:และ|แต่)\s*")


def _number_pieces(context: str) -> list[str]:
    """The pieces of a quote's context a number belongs to: sentences, clauses, then pieces."""
    thai = any("\u0e00" <= c <= "\u0e7f" for c in context)  # a space there parts phrases
    sentences = [context] if thai else [s.text for s in split_sentences(context)]
    out = [
        piece
        for sentence in sentences
        for clause in clauses(sentence) or [sentence]
        for piece in _PIECE_BREAK.split(clause)
        if piece.strip()
    ]
    return out or [context]


def clause_lost_numbers(claim: str, context: str, language: str) -> list[str]:
    """The numbers of each claim clause that no clause of ``context`` it states holds.

    ``context`` is the quote read in its clauses (:func:`quote_context`). A number the quote
    holds in a clause the claim does not state is not the claim's: "the kiln fires for 35
    hours" is not backed by "the kiln fires for 85 hours; it cools for 35 hours".

    Examples:
        >>> quote = "The kiln fires for 85 hours; it cools for 35 hours"
        >>> clause_lost_numbers("The kiln fires for 35 hours.", quote, "en")
        ['35']
        >>> clause_lost_numbers("Adults pay 5, children 2.", "Adults pay 5; children pay 2", "en")
        []
    """
    parts = _number_pieces(dashed_ranges(context, language=language))  # "between 5 and 7": one
    units = [content_units(expand_not(p)) for p in parts]
    lost: set[str] = set()
    claim = dashed_ranges(claim, loose=True, language=language)
    for ours in clauses(claim) or [claim]:
        claim_units = set(content_units(ours))
        stated = {stated_clause(units, claim_units), *fully_stated(units, claim_units)}
        lost |= _lost(ours, [without_head_label(parts[k]) for k in sorted(stated)], language)
    return sorted(lost, key=_sort_key)


@dataclass(frozen=True)
class SentenceChecks:
    """The answer's sentences its claims do not state, and claims that disagree with theirs."""

    uncovered: tuple[Uncovered, ...]
    disagreeing: tuple[tuple[int, int, Disagreement], ...]  # (claim, sentence), 1-based


def _declared(answer: Answer, sentences: Sequence[str]) -> list[int | None]:
    """For each claim, the sentence it declares it restates (None: none declared or found).

    The first of the sentences that are the same one (see ``same_sentence``).
    """
    first: dict[str, int] = {}
    if any(c.restates is not None for c in answer.claims):
        for i, s in enumerate(sentences):
            first.setdefault(sentence_key(s), i)
    return [
        None if c.restates is None else first.get(sentence_key(c.restates)) for c in answer.claims
    ]


@dataclass(frozen=True)
class Matching:
    """The answer's sentences, the claims matched to each, and the sentence each declares."""

    sentences: tuple[str, ...]
    words: tuple[str, ...]  # the sentences with the file's synonyms applied
    texts: tuple[str, ...]  # the claims with the file's synonyms applied
    declared: tuple[int | None, ...]
    matched: Mapping[int, tuple[int, ...]]  # sentence (0-based) -> claims (0-based)
    written: frozenset[tuple[int, int]] = frozenset()  # (claim, sentence): written out whole

    def __post_init__(self) -> None:
        freeze(self, "matched")


def match_claims(answer: Answer) -> Matching:
    """Each claim matched to a sentence of the answer.

    The sentence it declares it restates, else the one it shares the most trigrams with among
    those holding its numbers (the file's synonyms applied first).
    """
    sentences = [s.text for s in split_sentences(answer.answer)]
    words = [_words(s, answer) for s in sentences]
    texts = [_words(c.text, answer) for c in answer.claims]
    declared = _declared(answer, sentences)
    best = best_matches(texts, words, language=answer.language)
    matched: dict[int, list[int]] = {}
    written: set[tuple[int, int]] = set()
    folded: list[str] = []

    def pieces() -> list[str]:  # the sentences as compared, made once per answer
        if not folded:
            folded.extend(normalise(w).casefold().rstrip(".!?…。！？ ") for w in words)
        return folded

    for k, (d, b) in enumerate(zip(declared, best, strict=True)):
        to = d if d is not None else b
        if to is None:
            continue
        spanned = [to] if d is not None else _written_out(texts[k], pieces(), to)
        for i in spanned:
            matched.setdefault(i, []).append(k)
        written.update((k, i) for i in spanned if len(spanned) > 1)
    return Matching(
        tuple(sentences),
        tuple(words),
        tuple(texts),
        tuple(declared),
        {i: tuple(ks) for i, ks in matched.items()},
        frozenset(written),
    )


_BETWEEN = re.compile(r"[\s.,;:!?…。！？、]*")


def _written_out(claim: str, pieces: Sequence[str], at: int) -> list[int]:
    """The sentences a claim writes out one after another from ``at``, else ``[at]`` alone.

    A claim made of two or more neighbouring sentences of the answer, word for word, with
    nothing but spaces and stops between them, states each (a Thai answer's sentences end at a
    space: "ค่าเข้าชม 300 บาท ต่อคน" is two). ``pieces``: the sentences in NFC, case folded,
    white space as one, without their final stop; the claim is compared so.
    """
    whole = normalise(claim).casefold()
    if not pieces[at] or pieces[at] not in whole or len(whole) <= len(pieces[at]) + 1:
        return [at]  # a claim that writes out its sentence and another holds it, and more
    for low in range(at, max(-1, at - len(whole)), -1):  # the first sentence the claim opens with
        if not (pieces[low] and whole.startswith(pieces[low])):
            continue
        end, high = len(pieces[low]), low
        while True:
            end = _BETWEEN.match(whole, end).end()  # type: ignore[union-attr]
            if end == len(whole):
                return list(range(low, high + 1)) if low <= at <= high and high > low else [at]
            nxt = high + 1
            if nxt >= len(pieces) or not pieces[nxt] or not whole.startswith(pieces[nxt], end):
                break
            end, high = end + len(pieces[nxt]), nxt
    return [at]


def covered_pairs(answer: Answer) -> list[tuple[int, int]]:
    """(claim, sentence), 1-based: each covered sentence with each claim matched to it.

    These are the pairs whose meaning ``citations --checker`` compares.
    """
    m = match_claims(answer)
    out: list[tuple[int, int]] = []
    for i, s in enumerate(m.words):
        ks = m.matched.get(i, ())
        restated = any(m.declared[k] == i for k in ks)
        if _coverage_gap(s, [m.texts[k] for k in ks], answer.language, declared=restated) is None:
            out.extend((k + 1, i + 1) for k in ks)
    return out


def check_sentences(answer: Answer) -> SentenceChecks:
    """Match claims to sentences, then check that each sentence is stated and agreed with.

    Claims are matched by :func:`match_claims`. A covered sentence must agree with each of its
    claims in negation and scope words, those declaring they restate it too (a declared
    paraphrase carries the sentence's words, never the opposite of what it says).
    """
    m = match_claims(answer)
    uncovered, disagreeing = [], []
    for i, s in enumerate(m.words):
        ks = m.matched.get(i, ())
        restated = any(m.declared[k] == i for k in ks)
        reason = _coverage_gap(s, [m.texts[k] for k in ks], answer.language, declared=restated)
        if reason is not None:
            uncovered.append(Uncovered(i + 1, m.sentences[i], reason))
            continue
        for k in ks:
            if (k, i) in m.written:  # the claim is this sentence and its neighbours, word for word
                continue
            found = disagreement(s, m.texts[k], answer.language, declared=m.declared[k] == i)
            if found is not None:
                disagreeing.append((k + 1, i + 1, found))
    return SentenceChecks(tuple(uncovered), tuple(disagreeing))


def _words(text: str, answer: Answer) -> str:
    """The text as the word-level checks read it: the file's synonyms written one way."""
    return apply_synonyms(text, answer.synonyms) if answer.synonyms else text


def uncovered_sentences(answer: Answer) -> list[Uncovered]:
    """The answer's sentences that its claims do not state.

    Each claim is matched to the sentence it shares the most character trigrams with (at
    least 3; ties go to the earlier sentence) among the sentences holding its numbers. A
    sentence is covered when the claims matched to it together carry at least half of the
    content words of each of its clauses and every number, date and amount in it, compared
    as values (``claimlab.core.content``).
    """
    return list(check_sentences(answer).uncovered)


def quote_context(quote: str, text: str) -> str | None:
    """The clauses of ``text`` the quote lies in, elided words included (None: not found).

    A quote "Pensioners ... pay the fee" taken from "Pensioners do not pay the fee." is read
    with its "not"; a quote of one clause is not read with the next one.

    Examples:
        >>> quote_context("Pensioners ... pay the fee", "Pensioners do not pay the fee. Kids go.")
        'Pensioners do not pay the fee.'
        >>> quote_context("Adults pay 5", "Adults pay 5, but children do not pay.")
        'Adults pay 5'
    """
    pieces, hay = quote_pieces(quote), normalise(text)
    span = _span_of(pieces, hay)
    if span is None:
        return None
    start, end = span
    for s in split_sentences(hay):
        if s.end <= start or s.start >= end:
            continue
        for a, b in clause_spans(s.text):
            if s.start + b > start and s.start + a < end:
                start, end = min(start, s.start + a), max(end, s.start + b)
    return hay[start:end]


def _span_of(pieces: Sequence[str], hay: str) -> tuple[int, int] | None:
    """Where the pieces first occur in order: from the first's start to the last's end."""
    at, first = 0, None
    for piece in pieces:
        i = hay.find(piece, at)
        if i < 0:
            return None
        first = i if first is None else first
        at = i + len(piece)
    return None if first is None else (first, at)


def lost_numbers(claim: str, quote: str, language: str) -> list[str]:
    """The numbers of a claim that its quote does not hold (as values: "5.00" is "5").

    A clause or list number at the head of the quote ("7)", "7/b)", "madde 7b") is a label,
    not a value.

    Examples:
        >>> lost_numbers("Ödünç süresi 7 gündür.", "7) Ödünç süresi on dört gündür.", "tr")
        ['7']
        >>> lost_numbers("The fee is 5.00 a day.", "a fee of 2.10 a day", "en")
        ['5']
        >>> lost_numbers("Talep en az yedi gün önce iletilir.", "en az 7 gün önce ...", "tr")
        []
    """
    return sorted(_lost(claim, [without_head_label(normalise(quote))], language), key=_sort_key)


def _lost(claim: str, held_in: Sequence[str], language: str) -> frozenset[str]:
    """The claim's numbers and clause labels none of ``held_in`` holds (labels as labels).

    A value ``held_in`` gives only as an end of a range is not held for a claim that states
    it alone: "delivery takes 5 weeks" is not backed by "delivery takes 5-8 weeks".
    """
    text, labels = split_labels(claim)
    held: set[str] = set()
    ends: set[str] = set()  # values held only as an end of a range ("5-7" holds no 5 alone)
    for part in held_in:
        part_text, part_labels = split_labels(part)
        part_ends, rest = range_ends(part_text, language=language)
        held |= numbers(part_text, language) | part_labels
        ends |= part_ends - numbers(rest, language) if part_ends else set()
    ours = numbers(text, language) | labels
    if ours & ends:
        ours_ends = range_ends(text, loose=True, language=language)[0]
        return ours - held | (ours & ends) - ours_ends
    return ours - held


def _as_range_end(lost: Sequence[str], quote: str, language: str) -> str:
    """Said after a lost number the quote holds only as an end of a range ("" if none is)."""
    ends = [v for v in lost if v in range_ends(quote, language=language)[0]]
    return f" (it gives {', '.join(ends)} only as an end of a range)" if ends else ""


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
        "polarity": "a source that agrees with {claim} on negation (one of {claim} and {other}"
        " says “not”)",
        "scope": "a source that agrees with {claim} on its scope words ({words}; see {other})",
        "sentence": "sentence {n} of the answer",
        "kind:all": "all/every",
        "kind:some": "some",
        "kind:only": "only",
        "kind:at least": "at least",
        "kind:at most": "at most",
        "kind:more": "more than",
        "kind:less": "less than",
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
        "polarity": "{claim} iddiasıyla olumsuzlukta uyuşan bir kaynak ({claim} ile {other}"
        " arasında biri olumsuz)",
        "scope": "{claim} iddiasıyla kapsam sözcüklerinde uyuşan bir kaynak ({words}; bkz."
        " {other})",
        "sentence": "cevabın {n}. cümlesi",
        "kind:all": "herkes/tüm",
        "kind:some": "bazı",
        "kind:only": "yalnızca",
        "kind:at least": "en az",
        "kind:at most": "en fazla",
        "kind:more": "-den fazla",
        "kind:less": "-den az",
    },
}


def _q(text: str, limit: int = 60) -> str:
    """A quoted, shortened piece of a file's text for a message."""
    short = text if len(text) <= limit else text[: limit - 3] + "..."
    return f"“{' '.join(short.split())}”"


def _claim_problem(
    n: int,
    claim: Claim,
    index: ChunkIndex,
    m: dict[str, str],
    answer: Answer,
    threshold: float | None = None,
) -> tuple[Problem, str] | None:
    """The first failed check of one sourced claim with what the user is told is missing."""
    language = answer.language
    short = _q(claim.text)
    found = index.by_id.get(claim.chunk_id or "")
    if found is None:
        why = f"claim {n} cites {claim.chunk_id!r}, which was not among the {len(index.ids)} chunks sent"
        return Problem(n, ProblemCode.FABRICATED_ID, why), m["no_chunk"].format(
            chunk=_q(claim.chunk_id or ""), claim=short
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
    context = quote_context(claim.quote or "", index.texts[i])
    if not lost and context is not None:
        lost = clause_lost_numbers(claim.text, context, language)
    if lost:
        why = f"claim {n} states {', '.join(lost)}, which its quote from {chunk.id} does not"
        why += _as_range_end(lost, claim.quote, language)
        return Problem(n, ProblemCode.NUMBER_MISMATCH, why), m["number"].format(
            numbers=", ".join(lost), claim=short, chunk=_q(chunk.id)
        )
    return _quote_disagreement(n, claim, chunk, index.texts[i], m, answer)


def _quote_disagreement(
    n: int, claim: Claim, chunk: Chunk, text: str, m: dict[str, str], answer: Answer
) -> tuple[Problem, str] | None:
    """A claim that its quote (read in the clauses it lies in) contradicts or widens."""
    context = quote_context(claim.quote or "", text)
    if context is None:
        return None
    found = disagreement(_words(context, answer), _words(claim.text, answer), answer.language)
    if found is None:
        return None
    why = (
        f"claim {n} ({_q(found.claim_clause)}: {found.ours.describe()}) does not say what its"
        f" quote from {chunk.id} says ({_q(found.clause)}: {found.theirs.describe()})"
    )
    key = "polarity" if found.code == ProblemCode.POLARITY_MISMATCH else "scope"
    return Problem(n, found.code, why), m[key].format(
        claim=_q(claim.text), other=_q(chunk.id), words=_scope_words(found, m)
    )


def _scope_words(found: Disagreement, m: dict[str, str]) -> str:
    """The scope kinds one side holds and the other does not, in the message's language."""
    kinds = found.theirs.scope_difference(found.ours)
    return ", ".join(m.get(f"kind:{k}", k) for k in kinds)


def _answer_problems(
    answer: Answer, unsourced: int, m: dict[str, str], *, allow_unsourced: bool
) -> list[tuple[Problem, str]]:
    """The checks of the answer as a whole: covered sentences and the unsourced flag."""
    out = []
    checks = SentenceChecks((), ()) if answer.dont_know else check_sentences(answer)
    uncovered = checks.uncovered
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
    out.extend(_sentence_disagreement(k, i, d, answer, m) for k, i, d in checks.disagreeing)
    # uncovered sentences are unsourced content: a "true" flag is consistent with them
    if declared != (unsourced > 0) and not (declared and uncovered):
        why = (
            f"the unsourced-claim flag says {str(declared).lower()} but "
            f"{unsourced} claim(s) have no source"
        )
        out.append((Problem(0, ProblemCode.FLAG_MISMATCH, why), m["flag"]))
    return out


def _sentence_disagreement(
    k: int, i: int, found: Disagreement, answer: Answer, m: dict[str, str]
) -> tuple[Problem, str]:
    """Claim ``k`` says the opposite of, or more or less than, sentence ``i`` it states."""
    why = (
        f"claim {k} ({_q(found.claim_clause)}: {found.ours.describe()}) does not say what"
        f" sentence {i} of the answer says ({_q(found.clause)}: {found.theirs.describe()})"
    )
    key = "polarity" if found.code == ProblemCode.POLARITY_MISMATCH else "scope"
    other = m["sentence"].format(n=i)
    return Problem(k, found.code, why), m[key].format(
        claim=_q(answer.claims[k - 1].text), other=other, words=_scope_words(found, m)
    )


def score_citations(
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
        >>> score_citations(ok, sent).verdict
        'ACCEPT'
        >>> bad = Answer("Requests go seven days ahead.", (Claim("Requests go seven days ahead", "k#9", "seven days ahead"),), False, "en")
        >>> [p.code for p in score_citations(bad, sent).problems]
        ['FABRICATED_ID']
    """
    with bulk_load():  # many small acyclic records: no garbage cycle to collect
        return _validate(answer, sent, allow_unsourced=allow_unsourced, threshold=threshold)


def _validate(
    answer: Answer, sent: Sequence[Chunk], *, allow_unsourced: bool, threshold: float | None
) -> CitationReport:
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
        problem = _claim_problem(n, claim, index, m, answer, threshold)
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
