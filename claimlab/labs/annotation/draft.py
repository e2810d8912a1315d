"""Drafts: a decomposer's raw subclaims become a ``claimlab/decomposition@1`` file to annotate.

Nothing here is gold. Every candidate's labels are *proposed* and listed in its ``review``;
units found by the sentence splitter are proposed too. A person confirms them in the
annotator (notebook 09), which empties ``review`` one candidate at a time.

How each label is proposed:
    * **units**: the line's own units when it gives them; else, with ``units="sentences"``,
      one per sentence (:func:`claimlab.core.sentences.split_sentences`: full stops that end a
      sentence, not ``2.1`` nor Turkish ordinals ``7. madde`` nor abbreviations; a space between
      two Thai characters ends a Thai sentence, since Thai writes no full stop); with
      ``units="none"``, no units (the annotator marks them).
    * **source span**: the subclaim is aligned to the answer. In spaced scripts word by word:
      where the answer says the subclaim's words in a row (case folded), the first such stretch;
      else the stretch of the answer that holds most of the subclaim's words in the fewest words
      (words match at a ``rapidfuzz`` ratio of 80 or more, so Turkish suffixes still match, or
      when they share their first four letters and 60 % of the shorter word, as reaches and
      reaching do; a word with a digit matches only itself);
      in Korean, which joins particles to words, two words sharing their first syllables (at
      least half the shorter word) and adding at most two syllables match (간장을 / 간장과);
      its score is the share of the subclaim's words found (0-100). In Chinese and Japanese
      (no spaces between morphemes) the same search runs over characters: the stretch holding
      most of the subclaim's characters in the fewest. In Thai by ``rapidfuzz``'s
      ``partial_ratio_alignment`` over characters, never starting or ending inside a
      character's combining marks (Thai vowels and tones). Case is folded
      character by character, so every offset stays where it was (Turkish ``İ`` lower-cases to
      two code points in Python and is left as it is). Below ``threshold`` (default 70) there
      is no span, and the candidate is proposed as introduced.
    * **preserves**: the units the span overlaps (those it does not back, see
      :func:`claimlab.core.spans.span_backs`, are named in the summary); **faithful**: a span was found and no error
      was given; **atomic**: false when the subclaim joins two statements with "and" (English
      ``and``, Turkish ``ve``, Thai ``และ``), else true; **fingerprint**: the text folded
      (case, spaces, punctuation), so two identical subclaims are proposed as duplicates;
      **evidence**: the line's ``labels`` (an autorater's status, say), else NOT_IN_REFERENCE.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.core.parallel import chunked
from claimlab.core.sentences import split_sentences
from claimlab.core.spans import span_backs, utf16_offsets, utf16_slice
from claimlab.core.text import fold_is, marks_kept
from claimlab.core.vocab import REVIEW_FIELDS, ErrorKind, Status
from claimlab.io.decomposition import DECOMPOSITION_FORMAT, read_decomposition
from claimlab.io.files import Staging, file_names, json_text, write_json
from claimlab.io.raw import RawAnswer, load_raw_answers

UNIT_CHOICES = ("sentences", "none")
DEFAULT_THRESHOLD = 70.0
DRAFT_MODE = "decomposer"
ALIGN_METHOD = (
    "words (rapidfuzz ratio >= 80, Korean stems), characters in Chinese and Japanese, "
    "or characters (partial_ratio_alignment) in Thai"
)
_AND = re.compile(r"(?:\s(?:and|ve)\s|และ)", re.IGNORECASE)
_FOLD = re.compile(r"[\W_]+", re.UNICODE)
_SPACE_MARKS_KEPT = marks_kept(" ")


@dataclass(frozen=True)
class Alignment:
    """Where a subclaim was found in the answer: code point offsets and the score (0-100)."""

    start: int
    end: int
    score: float


_TURKISH_IS = str.maketrans({"İ": "i", "ı": "i"})  # BİSİKLET, bisiklet, KAPI, kapı: one word


def _fold_same_length(text: str) -> str:
    """Lower case, character by character, only where that keeps one character one character.

    Turkish i's are read alike (``İ`` and ``ı`` as ``i``), as values and fingerprints read them.
    """
    text = text.translate(_TURKISH_IS)
    low = text.lower()
    if len(low) == len(text):
        return low
    out = []
    for ch in text:
        one = ch.lower()
        out.append(one if len(one) == 1 else ch)
    return "".join(out)


def _wordy(ch: str) -> bool:
    """A character of a space-separated word (Thai, Chinese, Japanese: no spaces, not wordy)."""
    return ch.isalnum() and _UNSPACED.match(ch) is None


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _with_marks(text: str, hit: Alignment) -> Alignment:
    """The alignment with the combining marks after its last word (a decomposed ``é``)."""
    end = hit.end
    while end < len(text) and _is_mark(text[end]):
        end += 1
    return hit if end == hit.end else Alignment(hit.start, end, hit.score)


def _snap(text: str, start: int, end: int) -> tuple[int, int]:
    """Whole words in spaced scripts, whole characters (with their marks) everywhere."""
    n = len(text)
    if 0 < start < n and _wordy(text[start - 1]) and _wordy(text[start]):
        ws = start
        while ws > 0 and _wordy(text[ws - 1]):
            ws -= 1
        we = start
        while we < n and _wordy(text[we]):
            we += 1
        start = ws if (start - ws) <= (we - start) else we
    if 0 < end < n and _wordy(text[end - 1]) and _wordy(text[end]):
        ws = end
        while ws > 0 and _wordy(text[ws - 1]):
            ws -= 1
        we = end
        while we < n and _wordy(text[we]):
            we += 1
        end = we if (we - end) <= (end - ws) else ws
    while start < n and _is_mark(text[start]) and start > 0:
        start -= 1
    while end < n and _is_mark(text[end]):
        end += 1
    while start < end and not (text[start].isalnum() or _is_mark(text[start])):
        if unicodedata.category(text[start]).startswith("S"):  # an emoji or a symbol is content
            break
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_TOKEN = re.compile(r"\w+(?:[.,]\w+)*", re.UNICODE)
WORD_SIMILARITY = 80.0


_HANGUL = re.compile("[\uac00-\ud7a3]")  # Hangul syllables
PARTICLE = 2  # syllables a Korean word may add after its stem: 간장+을, 불고기+에는


def _korean_stem(a: str, b: str) -> bool:
    """Two Korean words with one stem and different particles (간장을 / 간장과, 파를 / 파와).

    Korean writes spaces between words but joins particles to them: two words match when they
    share their first syllables, at least half of the shorter word, and neither adds more
    than two syllables after them.

    Examples:
        >>> _korean_stem("간장을", "간장과"), _korean_stem("파를", "파와")
        (True, True)
        >>> _korean_stem("간장을", "고추장을")
        False
    """
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 1 and 2 * n >= min(len(a), len(b)) and max(len(a), len(b)) - n <= PARTICLE


def _tokens(text: str) -> list[tuple[int, int, str]]:
    """Words with their code point offsets, case folded character by character."""
    folded = _fold_same_length(text)
    return [(m.start(), m.end(), folded[m.start() : m.end()]) for m in _TOKEN.finditer(text)]


def _words(text: str) -> list[str]:
    """The words of :func:`_tokens` without their offsets (folding keeps every offset)."""
    return _TOKEN.findall(_fold_same_length(text))


class Aligner:
    """One answer, prepared once (its words, folded text, script), for many subclaims."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        # a subclaim is read in the answer's Unicode spelling: an NFD copy is the same text
        self.form: Literal["NFC", "NFD"] = (
            "NFD"
            if not unicodedata.is_normalized("NFC", answer)
            and unicodedata.is_normalized("NFD", answer)
            else "NFC"
        )
        self.spaced = _spaced(answer)
        self.words = _tokens(answer) if self.spaced else []
        self.folded = _fold_same_length(answer)
        self._unspaced: tuple[str, list[int]] | None = None  # made when first needed
        self.index = _WordIndex([w for *_, w in self.words])
        self.ideographic = _IDEOGRAPHIC.search(answer) is not None
        self.chars = _characters(answer) if self.ideographic else []
        self.char_index = _WordIndex([w for *_, w in self.chars])

    def align(self, subclaim: str, *, threshold: float = DEFAULT_THRESHOLD) -> Alignment | None:
        """See :func:`align`."""
        from rapidfuzz import fuzz

        answer = self.answer
        if not subclaim.strip() or not answer.strip():
            return None
        if not subclaim.isascii():
            subclaim = unicodedata.normalize(self.form, subclaim)
        if self.spaced and _spaced(subclaim):
            claim = _words(subclaim)
            hit = self.verbatim(claim) or _align_words(claim, self.words, self.index)
            if hit is None or hit.score < threshold:
                return None
            return _with_marks(answer, hit)
        if self.ideographic:
            claim_chars = [w for *_, w in _characters(subclaim)]
            hit = self.verbatim(claim_chars, self.chars, self.char_index) or _align_words(
                claim_chars, self.chars, self.char_index
            )
            if hit is None or hit.score < threshold:
                return None
            return hit
        # white space does not count in a script written without it (Thai spaces vary)
        folded_claim = "".join(_fold_same_length(subclaim).split())
        folded_answer, at = self.unspaced()
        if not folded_claim or not folded_answer:
            return None
        if len(folded_claim) >= len(folded_answer):
            score = fuzz.ratio(folded_claim, folded_answer)
            start, end = 0, len(answer)
        else:
            found = fuzz.partial_ratio_alignment(folded_claim, folded_answer)
            if found is None:
                return None
            score, start, end = found.score, at[found.dest_start], at[found.dest_end - 1] + 1
        if score < threshold:
            return None
        start, end = _snap(answer, start, end)
        if end <= start:
            return None
        return Alignment(start, end, round(float(score), 1))

    def unspaced(self) -> tuple[str, list[int]]:
        """The folded answer without its white space, and where each character stood."""
        if self._unspaced is None:
            kept = [i for i, ch in enumerate(self.folded) if not ch.isspace()]
            self._unspaced = ("".join(self.folded[i] for i in kept), kept)
        return self._unspaced

    def verbatim(
        self,
        claim: Sequence[str],
        words: list[tuple[int, int, str]] | None = None,
        index: _WordIndex | None = None,
    ) -> Alignment | None:
        """The first place where the answer says the subclaim's words in a row (case folded).

        ``words`` and ``index``: the answer's characters instead (Chinese, Japanese).
        """
        words, index = (
            (self.words, self.index) if words is None or index is None else (words, index)
        )
        if not claim:
            return None
        first = index.find_run(claim)
        if first is None:
            return None
        last = first + len(claim) - 1
        return Alignment(words[first][0], words[last][1], 100.0)


PREFIX = 4  # words sharing their first 4 letters and 60 % of the shorter one match: deep, deepest


class _WordIndex:
    """An answer's distinct words, where each occurs, and the words sharing a prefix."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = words
        self.positions: dict[str, list[int]] = {}
        for i, w in enumerate(words):
            self.positions.setdefault(w, []).append(i)
        self.unique = list(self.positions)
        self.n = len(words)
        self._prefix: dict[str, list[str]] | None = None

    @property
    def by_prefix(self) -> dict[str, list[str]]:
        """Distinct words by their first letters (made when first asked for)."""
        if self._prefix is None:
            self._prefix = {}
            for w in self.unique:
                if len(w) >= PREFIX or _HANGUL.match(w):
                    self._prefix.setdefault(_prefix_key(w), []).append(w)
        return self._prefix

    def find_run(self, claim: Sequence[str]) -> int | None:
        """The index of the first word of the first run of answer words equal to ``claim``.

        Only the places of the claim's rarest word are tried (in order, so the first run found
        is the first there is): a subclaim costs its own words, not the answer's length.
        """
        if not claim:
            return None
        count, k = min((len(self.positions.get(w, ())), k) for k, w in enumerate(claim))
        if count == 0:
            return None
        want, n = list(claim), len(claim)
        for p in self.positions[claim[k]]:
            start = p - k
            if start >= 0 and start + n <= self.n and list(self.words[start : start + n]) == want:
                return start
        return None

    def matches(self, claim: Sequence[str]) -> dict[int, int]:
        """Answer position -> the claim words (a bit each) that match the word there.

        Words match at a ``rapidfuzz`` ratio of 80 or more, or when they share a prefix of 4
        letters that is 60 % of the shorter word (inflections: reaches, reaching); a word with
        a digit matches only itself.
        """
        similar = similar_words(claim, self.unique)
        out: dict[int, int] = {}
        for k, w in enumerate(claim):
            if _DIGIT.search(w):
                hits = [w] if w in self.positions else []
            else:
                hits = similar[k]
                hits += [v for v in self.by_prefix.get(_prefix_key(w), ()) if _same_stem(w, v)]
            bit = 1 << k
            for v in hits:
                for pos in self.positions[v]:
                    out[pos] = out.get(pos, 0) | bit
        return out


def similar_words(words: Sequence[str], choices: Sequence[str]) -> list[list[str]]:
    """Per word, the choices at a ``rapidfuzz`` ratio of ``WORD_SIMILARITY`` or more, in order.

    One ``extract`` per word (its matrix form, ``cdist``, would import numpy for an answer of
    a few words: a third of ``draft``'s start-up).

    Examples:
        >>> similar_words(["reaches", "x"], ["reach", "reaching", "reaches"])
        [['reach', 'reaches'], []]
    """
    from rapidfuzz import fuzz, process

    out = []
    for w in words:
        found = process.extract(
            w, choices, scorer=fuzz.ratio, score_cutoff=WORD_SIMILARITY, limit=None
        )
        out.append([choices[j] for j in sorted(j for _, _, j in found)])
    return out


def _prefix_key(word: str) -> str:
    """Where a word's look-alikes are kept: its first syllable (Korean), else 4 letters."""
    return word[:1] if _HANGUL.match(word) else word[:PREFIX]


def _same_stem(a: str, b: str) -> bool:
    if _HANGUL.match(a) and _HANGUL.match(b):
        return _korean_stem(a, b)
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= PREFIX and n >= 0.6 * min(len(a), len(b))


def _align_words(
    claim: Sequence[str], words: list[tuple[int, int, str]], index: _WordIndex | None = None
) -> Alignment | None:
    """The stretch of the answer holding most of the subclaim's words (``claim``) in fewest words.

    A stretch is scored by F2 (recall, the share of the subclaim's words it holds, weighs four
    times its precision, the share of its words that match): a span that misses part of the
    claim is worse than one that holds a word too many; at equal F2 the shorter stretch wins,
    then the earlier. Each answer word in a stretch stands for one claim word (the first it
    matches that no earlier word of the stretch stands for), so a claim that says a word or a
    character twice (日曜日, 天天) is found whole only where the answer says it twice. Only stretches that start and end on a matching word can win, and none
    is longer than 2n + 3 words (n: the subclaim's words), so the work grows with the matches,
    not with the square of the answer. The reported score is the recall (0-100).
    """
    if not claim or not words:
        return None
    index = index or _WordIndex([w for *_, w in words])
    at = index.matches(claim)
    if not at:
        return None
    k, limit = len(claim), min(index.n, 2 * len(claim) + 3)
    hits = sorted(at)
    best = (-1.0, 0, 0, 0)  # F2, start, end, claim words found
    for a, s in enumerate(hits):
        acc = 0
        for e in hits[a:]:
            length = e - s + 1
            if length > limit:
                break
            free = at[e] & ~acc  # each answer word stands for one claim word: a repeat needs two
            acc |= free & -free
            found = acc.bit_count()
            recall = found / k
            precision = found / length if found < length else 1.0
            f2 = 5 * precision * recall / (4 * precision + recall)
            if f2 > best[0] + 1e-12 or (
                abs(f2 - best[0]) <= 1e-12 and (length, s) < (best[2] - best[1] + 1, best[1])
            ):
                best = (f2, s, e, found)
            if found == k:  # every claim word is in: a longer stretch only loses precision
                break
    _, s, e, found = best
    return Alignment(words[s][0], words[e][1], round(100 * found / k, 1))


_IDEOGRAPHIC = re.compile("[\u3040-\u30ff\u3400-\u9fff]")  # kana and CJK ideographs


def _characters(text: str) -> list[tuple[int, int, str]]:
    """Each letter, digit or ideograph with its code point offsets (Chinese, Japanese).

    A Chinese character or a kana is close to a morpheme or a syllable: aligned character by
    character (:func:`_align_words` over characters), the stretch holding most of the
    subclaim's characters in the fewest wins, so a subclaim that leaves out part of a sentence
    (カレーには人参を入れる in カレーには玉ねぎと人参を入れる) is placed on the whole of it.
    """
    folded = _fold_same_length(text)
    return [(i, i + 1, folded[i]) for i, ch in enumerate(text) if ch.isalnum()]


_UNSPACED = re.compile("[\u0e00-\u0e7f\u3040-\u9fff]")  # Thai, kana and CJK ideographs
_DIGIT = re.compile(r"\d")


def _spaced(text: str) -> bool:
    """Whether words are separated by spaces (not Thai, Chinese, Japanese)."""
    return _UNSPACED.search(text) is None


def align(subclaim: str, answer: str, *, threshold: float = DEFAULT_THRESHOLD) -> Alignment | None:
    """The stretch of ``answer`` that ``subclaim`` matches best, or None below ``threshold``.

    Spaced scripts are aligned word by word (:func:`_align_words`); text with Thai (or Chinese,
    Japanese) characters by ``rapidfuzz``'s ``partial_ratio_alignment`` over characters.

    Examples:
        >>> answer = "It is fast. Version 2 reads PDF and EPUB files."
        >>> a = align("Version 2 reads EPUB files", answer)
        >>> answer[a.start:a.end], a.score
        ('Version 2 reads PDF and EPUB files', 100.0)
        >>> align("Version 2 has a dictionary", answer) is None
        True
    """
    return Aligner(answer).align(subclaim, threshold=threshold)


def fingerprint(text: str) -> str:
    """A subclaim's text folded: case, punctuation and runs of spaces do not count.

    Combining marks count (a Thai tone mark tells rice from news), in one Unicode spelling.

    Examples:
        >>> fingerprint("It reads PDF.") == fingerprint("it  reads pdf")
        True
        >>> fingerprint("ร้านนี้ขายข้าว") == fingerprint("ร้านนี้ขายข่าว")
        False
    """
    if text.isascii():
        return " ".join(_FOLD.sub(" ", text.casefold()).split())
    folded = fold_is(unicodedata.normalize("NFC", text).casefold())  # BİSİKLET: bisiklet
    return " ".join(_FOLD.sub(_SPACE_MARKS_KEPT, folded).split())


def looks_compound(text: str) -> bool:
    """Whether a subclaim joins two statements with "and" (English, Turkish or Thai)."""
    return _AND.search(text) is not None


@dataclass(frozen=True)
class DraftSummary:
    """What a draft holds, for the person about to annotate it."""

    id: str
    units: int
    units_from: str
    candidates: int
    spans: int
    unmatched: tuple[str, ...]
    # (candidate id, the units it is proposed to preserve that its span does not back)
    unbacked: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "id": self.id,
            "units": self.units,
            "units_from": self.units_from,
            "candidates": self.candidates,
            "spans_proposed": self.spans,
            "matched_nowhere": list(self.unmatched),
            "unbacked_preserves": {cid: list(units) for cid, units in self.unbacked},
        }


def _unit_spans(raw: RawAnswer, units: str) -> tuple[list[tuple[int, int, str]], str]:
    """The answer's units as UTF-16 (start, end, text), and where they come from."""
    if raw.units is not None:
        return [(s, e, utf16_slice(raw.answer, s, e)) for s, e in raw.units], "given"
    if units == "none":
        return [], "none"
    return [(s.utf16_start, s.utf16_end, s.text) for s in split_sentences(raw.answer)], "sentences"


REVIEW_ALL = tuple(str(f) for f in REVIEW_FIELDS)
INTRODUCED = str(ErrorKind.INTRODUCED)
NOT_IN_REFERENCE = str(Status.NOT_IN_REFERENCE)


class _Units:
    """An answer's units, for the ones a span overlaps.

    Units in order that do not nest (starts and ends both rising, as sentences are) are found by
    two binary searches; any others by a scan. The order is the units' own either way.
    """

    def __init__(self, rows: list[tuple[str, int, int, str]]) -> None:
        self.rows = rows
        self.starts = [s for _, s, _, _ in rows]
        self.ends = [e for _, _, e, _ in rows]
        rising = all(a <= b for a, b in zip(self.starts, self.starts[1:], strict=False))
        self.ordered = rising and all(
            a <= b for a, b in zip(self.ends, self.ends[1:], strict=False)
        )

    def overlapping(self, start: int, end: int) -> list[str]:
        """The ids of the units that share a UTF-16 position with ``[start, end)``."""
        if not self.ordered:
            return [uid for uid, us, ue, _ in self.rows if us < end and start < ue]
        lo = bisect.bisect_right(self.ends, start)  # from here on every unit ends after start
        hi = bisect.bisect_left(self.starts, end)  # before here every unit starts before end
        return [uid for uid, *_ in self.rows[lo:hi]]


def _candidate_doc(
    cid: str,
    claim: str,
    labels: Mapping[str, Any],
    hit: Alignment | None,
    text: str,
    units: _Units,
    to16: Callable[[int], int],
) -> dict[str, Any]:
    """One subclaim as a draft candidate: every label proposed."""
    source_spans: list[dict[str, Any]] = []
    preserves: list[str] = []
    if hit is not None:
        s16, e16 = to16(hit.start), to16(hit.end)
        source_spans.append({"start": s16, "end": e16, "text": text[hit.start : hit.end]})
        preserves = units.overlapping(s16, e16)
    errors = list(labels.get("errors", ()))
    if hit is None and not errors:
        errors = [INTRODUCED]
    return {
        "id": cid,
        "text": claim,
        "entity": labels.get("entity", ""),
        "version": labels.get("version", ""),
        "predicate": labels.get("predicate", ""),
        "qualifiers": list(labels.get("qualifiers", ())),
        "source_spans": source_spans,
        "fingerprint": labels.get("fingerprint", fingerprint(claim)),
        "preserves": preserves,
        "faithful": labels.get("faithful", hit is not None and not errors),
        "atomic": labels.get("atomic", not looks_compound(claim)),
        "errors": errors,
        "evidence": {
            "status": labels.get("status", NOT_IN_REFERENCE),
            "references": list(labels.get("references", ())),
        },
        "review": list(REVIEW_ALL),
        "alignment": {"score": hit.score, "method": ALIGN_METHOD} if hit is not None else None,
    }


def _unbacked(
    candidates: Sequence[dict[str, Any]], units: Sequence[tuple[str, int, int, str]]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each faithful candidate's proposed ``preserves`` that its span does not back, if any.

    The rule is :func:`claimlab.core.spans.span_backs`: such a unit would not count.
    """
    where = {uid: (s, e, t) for uid, s, e, t in units}
    out = []
    for c in candidates:
        spans = [((sp["start"], sp["end"]), sp["text"]) for sp in c["source_spans"]]
        missing = tuple(
            u
            for u in c["preserves"]
            if not any(span_backs(sp, text, where[u][:2], where[u][2]) for sp, text in spans)
        )
        if c["faithful"] and missing:
            out.append((c["id"], missing))
    return tuple(out)


def _draft_note(raw: RawAnswer, units_from: str, source: str) -> str:
    return (
        f"A draft made by claimlab draft from {Path(source).name if source else 'a raw file'}, "
        f"record {raw.id}: units {units_from}, source spans proposed by alignment, every label "
        "proposed until a person confirms it. Not a gold set."
    )


def draft_document(
    raw: RawAnswer,
    *,
    units: str = "sentences",
    threshold: float = DEFAULT_THRESHOLD,
    source: str = "",
    decomposer: str = "",
    check: bool = True,
) -> tuple[dict[str, Any], DraftSummary]:
    """One answer's draft as a JSON document (every label proposed) and its summary.

    ``check`` reads the document back as a decomposition file (it loads, or it is a bug);
    the bulk path leaves that to its tests (every generated raw file's drafts are read back).

    Raises:
        ValueError: ``units`` is not one of :data:`UNIT_CHOICES`.
    """
    if units not in UNIT_CHOICES:
        raise ValueError(f"units must be one of {', '.join(UNIT_CHOICES)}, got {units!r}")
    text = raw.answer
    spans, units_from = _unit_spans(raw, units)
    proposed = {"review": ["span"]} if units_from != "given" else {}
    unit_docs = [
        {"id": f"U{i}", "span": {"start": s, "end": e, "text": t}, **proposed}
        for i, (s, e, t) in enumerate(spans, 1)
    ]
    unit_rows = [(f"U{i}", s, e, t) for i, (s, e, t) in enumerate(spans, 1)]
    width = len(str(len(raw.subclaims)))
    aligner, by_place, to16 = Aligner(text), _Units(unit_rows), utf16_offsets(text)
    candidates = []
    for j, (claim, labels) in enumerate(zip(raw.subclaims, raw.labels, strict=True), 1):
        cid, hit = f"S{j:0{width}d}", aligner.align(claim, threshold=threshold)
        candidates.append(_candidate_doc(cid, claim, labels, hit, text, by_place, to16))
    doc = {
        "format": DECOMPOSITION_FORMAT,
        "offset_unit": "utf16",
        "note": _draft_note(raw, units_from, source),
        **({"decomposer": decomposer} if decomposer else {}),
        "original": {"id": raw.id, "version": raw.version, "text": text},
        "units": unit_docs,
        "references": [
            {"id": r.id, "title": r.title, "version": r.version, "text": r.text}
            for r in raw.references
        ],
        "candidates": candidates,
        "modes": {DRAFT_MODE: [c["id"] for c in candidates]},
    }
    if check:
        read_decomposition(doc, source=f"{source or 'draft'} (record {raw.id})")
    unmatched = tuple(c["id"] for c in candidates if not c["source_spans"])
    summary = DraftSummary(
        raw.id,
        len(unit_docs),
        units_from,
        len(candidates),
        len(candidates) - len(unmatched),
        unmatched,
        _unbacked(candidates, unit_rows),
    )
    return doc, summary


def draft_files(
    answers: Sequence[RawAnswer],
    staging: Staging,
    *,
    units: str = "sentences",
    threshold: float = DEFAULT_THRESHOLD,
    source: str = "",
    decomposer: str = "",
) -> Iterator[DraftSummary]:
    """Draft every answer into its place in ``staging`` (answer k -> target k); the summaries.

    The answers are drafted and written on every core (:func:`claimlab.core.parallel.chunked`);
    nothing replaces a file until the caller commits ``staging``.
    """

    def work(start: int, stop: int) -> list[DraftSummary]:
        out = []
        for k in range(start, stop):
            doc, summary = draft_document(
                answers[k],
                units=units,
                threshold=threshold,
                source=source,
                decomposer=decomposer,
                check=False,
            )
            staging.write(k, json_text(doc))
            out.append(summary)
        return out

    for part in chunked(work, len(answers), chunk=1000):
        yield from part


def check_units_choice(units: str) -> None:
    """Refuse a ``--units`` value other than the two there are."""
    if units not in UNIT_CHOICES:
        raise ClaimlabInputError(f"--units must be one of {', '.join(UNIT_CHOICES)}, got {units!r}")


def draft_owner(path: Path) -> str | None:
    """The answer id a draft file names (``original.id``), or None where it names none."""
    import orjson

    from claimlab.core.text import nfc

    try:
        owner = orjson.loads(path.read_bytes())["original"]["id"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return nfc(owner) if isinstance(owner, str) else None


def ensure_draft(
    raw_path: str | Path,
    work_dir: str | Path,
    *,
    answer: str = "",
    units: str = "sentences",
    threshold: float = DEFAULT_THRESHOLD,
    given_as: str = "the answer asked for",
) -> tuple[Path, DraftSummary | None]:
    """The draft of one answer of a raw file in ``work_dir``: written if absent, else kept.

    ``answer`` names the record (its id); "" takes the first. Returns the draft's path and its
    summary (None when the draft was already there: it is never overwritten). ``given_as``
    says where ``answer`` came from (a notebook parameter), for the error that refuses it.

    Raises:
        FixtureError: the raw file is refused, or it has no record with that id.
    """
    answers = load_raw_answers(raw_path)
    ids = [a.id for a in answers]
    if answer and answer not in ids:
        shown = ", ".join(ids[:12]) + (f", ... ({len(ids)} in all)" if len(ids) > 12 else "")
        raise FixtureError(
            f"{given_as} is {answer!r}, but the file has no answer with that id (it has {shown})",
            file=str(raw_path),
        )
    k = ids.index(answer) if answer else 0
    target = Path(work_dir) / file_names(ids)[k]
    if target.exists():
        return target, None
    older = Path(work_dir) / file_names([ids[k]], older=True)[0]  # marks not yet kept
    if older.exists() and draft_owner(older) == ids[k]:
        return older, None
    doc, summary = draft_document(
        answers[k], units=units, threshold=threshold, source=str(raw_path)
    )
    write_json(target, doc)
    return target, summary
