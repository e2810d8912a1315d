"""Chunks, answers with claim-to-chunk citations, and the ``claimlab/context-lab@1`` file.

Chunks: a JSON list of ``{id, document, version, score, text}`` (optional ``position``), or an
object with a ``chunks`` list. Answers use the seed's Turkish keys or English ones (see
:data:`KEYS`). The lab file holds a question, its chunks, named answers (parsed into typed
:class:`Answer` records when it loads) and a labelled calibration set.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

import msgspec

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.sentences import split_sentences
from claimlab.io.declared import described, read_declared, read_records
from claimlab.io.lesson import Exercise, read_exercises
from claimlab.io.reader import Record, bulk_load, describe, read_json

KEYS = {
    "tr": {
        "answer": "cevap",
        "claims": "iddialar",
        "text": "metin",
        "chunk_id": "parca_kimligi",
        "quote": "dayanak",
        "flag": "kaynaksiz_iddia_var",
        "dont_know": "bilmiyorum",
        "restates": "yeniden_ifade",
        "synonyms": "es_anlamlilar",
    },
    "en": {
        "answer": "answer",
        "claims": "claims",
        "text": "text",
        "chunk_id": "chunk_id",
        "quote": "quote",
        "flag": "has_unsourced_claim",
        "dont_know": "dont_know",
        "restates": "restates",
        "synonyms": "synonyms",
    },
}
CONTEXT_LAB_FORMAT = "claimlab/context-lab@1"


@dataclass(frozen=True)
class Chunk:
    """A retrieved chunk with its relevance score (the declaration its list is read from)."""

    id: str
    document: str
    version: str
    score: float
    text: str
    position: int | None = None


@dataclass(frozen=True)
class Claim:
    """One claim of an answer with its cited chunk id and quote (None when absent).

    ``restates`` is the sentence of the answer the claim declares it says in other words.
    """

    text: str
    chunk_id: str | None
    quote: str | None
    restates: str | None = None


@dataclass(frozen=True)
class Answer:
    """An answer as claims, with its unsourced-claim flag and the key language it came in.

    ``dont_know`` marks the explicit "I don't know" answer (``bilmiyorum``/``dont_know``);
    ``synonyms`` are the groups of words or phrases the file declares to mean the same.
    """

    answer: str
    claims: tuple[Claim, ...]
    has_unsourced_claim: bool
    language: str
    dont_know: bool = False
    synonyms: tuple[tuple[str, ...], ...] = ()


# a group of words or phrases declared to mean the same (checked by the reader: _synonyms)
Synonyms = Annotated[
    Any,
    described(
        {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "minItems": 2,
        }
    ),
]


@dataclass(frozen=True, kw_only=True)
class ClaimEn:
    """A claim of an answer file with English keys, as the file writes it."""

    text: str
    chunk_id: str | None = None  # "" is the same as left out: no chunk cited
    quote: str | None = None
    restates: str | None = None  # a sentence of the answer the claim says in other words


@dataclass(frozen=True, kw_only=True)
class AnswerEn:
    """An answer file with English keys: the declaration it is read from."""

    answer: str
    has_unsourced_claim: bool
    dont_know: bool = False
    claims: tuple[ClaimEn, ...]
    synonyms: tuple[Synonyms, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ClaimTr:
    """A claim of an answer file with the seed's Turkish keys, as the file writes it."""

    metin: str
    parca_kimligi: str | None = None
    dayanak: str | None = None
    yeniden_ifade: str | None = None


@dataclass(frozen=True, kw_only=True)
class AnswerTr:
    """An answer file with the seed's Turkish keys: the declaration it is read from."""

    cevap: str
    kaynaksiz_iddia_var: bool
    bilmiyorum: bool = False
    iddialar: tuple[ClaimTr, ...]
    es_anlamlilar: tuple[Synonyms, ...] = ()


SPLITS = ("calibration", "held-out")


@dataclass(frozen=True)
class ScoredCandidate:
    """A candidate of a labelled query: its relevance score and whether it is relevant."""

    score: float
    relevant: bool


@dataclass(frozen=True, kw_only=True)
class QueryEntry:
    """A labelled query as the file writes it (read into a :class:`CalibrationQuery`)."""

    id: Annotated[str, msgspec.Meta(min_length=1)]
    candidates: tuple[ScoredCandidate, ...]
    split: Literal["calibration", "held-out"] | None = None  # None: split by id


@dataclass(frozen=True, kw_only=True)
class Calibration:
    """The file's ``calibration``: the precision to reach, thresholds to compare, labelled queries.

    The declaration it is read from (``claimlab.io.declared``) and its JSON Schema's source.
    """

    target_precision: Annotated[float, msgspec.Meta(gt=0, le=1)]
    fixed_thresholds: tuple[float, ...] = ()
    queries: tuple[QueryEntry, ...]


# the answers by name: each with English keys (AnswerEn) or the seed's Turkish ones (AnswerTr),
# read by parse_answer (a declaration cannot hold a choice of two records)
Answers = Annotated[
    Any,
    described(
        {
            "type": "object",
            "additionalProperties": {"type": "object"},
            "description": "answers by name, each with English keys or the seed's Turkish ones, "
            "read as claimlab.io.context_lab.AnswerEn or AnswerTr (see the file formats page)",
        }
    ),
]


@dataclass(frozen=True, kw_only=True)
class ContextLabDocument:
    """The ``claimlab/context-lab@1`` file as declared: its types, bounds and defaults.

    The one declaration the reader converts and walks for the first problem
    (:mod:`claimlab.io.declared`) and derives the JSON Schema from; the rules between fields
    (chunk ids unique, a query with scored candidates) and the answers (two key languages, see
    :class:`AnswerEn`, :class:`AnswerTr`) are :func:`load_context_lab`'s.
    """

    format: Literal["claimlab/context-lab@1"]
    chunks: tuple[Chunk, ...]
    answers: Answers
    calibration: Calibration
    question: str
    note: str = ""
    exercises: Any = None  # [{"question", "solution", ...}] (claimlab.io.lesson)


@dataclass(frozen=True)
class CalibrationQuery:
    """One labelled evaluation query: candidate scores with relevance labels."""

    id: str
    candidates: tuple[tuple[float, bool], ...]
    split: str | None = None  # "calibration" or "held-out" when the file says; None: by id


@dataclass(frozen=True)
class ContextLab:
    """A question, its ranked chunks, named answers (typed) and a labelled calibration set."""

    source: str
    question: str
    chunks: tuple[Chunk, ...]
    answers: Mapping[str, Answer]
    queries: tuple[CalibrationQuery, ...]
    target_precision: float
    fixed_thresholds: tuple[float, ...]
    exercises: tuple[Exercise, ...] = ()
    note: str = ""

    def answer_name(self, name: str = "", *, given_as: str = "the answer asked for") -> str:
        """``name`` when the file has an answer of that name; empty: the file's first answer.

        ``given_as`` says where ``name`` came from (a notebook parameter, an option), so an
        error names what the user set, not a field of the file.

        Raises:
            ClaimlabInputError: the file has no answer of that name (or none at all).
        """
        if not self.answers:
            raise ClaimlabInputError(
                "the file has no answers to check", file=self.source, field="answers"
            )
        if not name:
            return next(iter(self.answers))
        if name not in self.answers:
            shown = ", ".join(repr(n) for n in list(self.answers)[:10])
            raise ClaimlabInputError(
                f"{given_as} is {name!r}, but the file has no answer of that name (it has {shown})",
                file=self.source,
            )
        return name

    @property
    def calibration_items(self) -> list[tuple[float, bool]]:
        """Every (score, relevant) pair of the evaluation set."""
        return [c for q in self.queries for c in q.candidates]


def parse_chunks(data: Any, *, source: str) -> list[Chunk]:
    """Check a list of chunk objects (or an object with a ``chunks`` list) and build Chunks.

    Raises:
        ClaimlabInputError: naming the file, the chunk (id or index) and the field.
    """
    prefix = ""
    if isinstance(data, dict) and "chunks" in data:
        data, prefix = data["chunks"], "chunks"
    if not isinstance(data, list):
        raise ClaimlabInputError("must be a list of chunks", file=source, field=prefix or None)
    out = read_records(Chunk, data, file=source, where=prefix, error=ClaimlabInputError)
    _check_chunks(out, source, prefix)
    return out


def _check_chunks(chunks: Sequence[Chunk], source: str, where: str) -> None:
    """What a list of chunks must hold beyond each chunk: one chunk at least, ids unique."""
    if not chunks:
        raise ClaimlabInputError(
            "empty chunk list: there is nothing to pack or cite", file=source, field=where or None
        )
    seen: set[str] = set()
    for c in chunks:
        if c.id in seen:
            raise ClaimlabInputError("duplicate chunk id", file=source, record=c.id, field="id")
        seen.add(c.id)


def parse_answer(data: Any, *, source: str, where: str | None = None) -> Answer:
    """Build an Answer from Turkish or English keys, with errors naming file, claim and field.

    The keys' language is the file's (Turkish when it has ``cevap`` or ``iddialar``); each is
    declared once (:class:`AnswerEn`, :class:`AnswerTr`).

    Raises:
        ClaimlabInputError: missing keys or wrong types.
    """
    if not isinstance(data, dict):
        raise ClaimlabInputError("an answer must be a JSON object", file=source, record=where)
    lang = "tr" if "iddialar" in data or "cevap" in data else "en"
    given = (
        _as_english(
            read_declared(AnswerTr, data, file=source, record=where, error=ClaimlabInputError)
        )
        if lang == "tr"
        else read_declared(AnswerEn, data, file=source, record=where, error=ClaimlabInputError)
    )
    a = Record(data, file=source, record=where, error=ClaimlabInputError)
    k = KEYS[lang]
    claims = []
    said: set[str] | None = None  # the answer's sentences, split once if a claim restates one
    for i, c in enumerate(given.claims):
        if c.restates is not None:
            said = _sentence_keys(given.answer) if said is None else said
            if sentence_key(c.restates) not in said:
                raise a.error(
                    "names no sentence of the answer, word for word",
                    field=f"{k['claims']}[{i}].{k['restates']}",
                )
        claims.append(Claim(c.text, c.chunk_id or None, c.quote or None, c.restates))
    synonyms = _synonyms(given.synonyms, a, k["synonyms"])
    return Answer(
        given.answer, tuple(claims), given.has_unsourced_claim, lang, given.dont_know, synonyms
    )


def _as_english(answer: AnswerTr) -> AnswerEn:
    """An answer read with Turkish keys as the same answer with English ones."""
    return AnswerEn(
        answer=answer.cevap,
        has_unsourced_claim=answer.kaynaksiz_iddia_var,
        dont_know=answer.bilmiyorum,
        claims=tuple(
            ClaimEn(
                text=c.metin, chunk_id=c.parca_kimligi, quote=c.dayanak, restates=c.yeniden_ifade
            )
            for c in answer.iddialar
        ),
        synonyms=answer.es_anlamlilar,
    )


def _sentence_keys(answer: str) -> set[str]:
    """The answer's sentences as :func:`sentence_key` writes them."""
    return {sentence_key(s.text) for s in split_sentences(answer)}


def same_sentence(a: str, b: str) -> bool:
    """Two spellings of one sentence: NFC, white space folded, case folded, end mark aside.

    Examples:
        >>> same_sentence("Kids get in for nothing", "kids  get in for nothing.")
        True
    """
    return sentence_key(a) == sentence_key(b)


def sentence_key(text: str) -> str:
    """A sentence as :func:`same_sentence` compares it: two spellings of one sentence are equal.

    Examples:
        >>> sentence_key("Kids  GET in. ")
        'kids get in'
    """
    return " ".join(unicodedata.normalize("NFC", text).casefold().split()).rstrip(".!?…。 ")


def _synonyms(declared: Sequence[Any], a: Record, key: str) -> tuple[tuple[str, ...], ...]:
    """The declared synonym groups, each a list of at least two non-empty phrases.

    ``declared`` is the answer's list as its declaration read it (a list of anything); ``a``
    names the answer in an error, ``key`` the field in the file's key language.
    """
    groups = []
    for i, group in enumerate(declared):
        if (
            not isinstance(group, list)
            or len(group) < 2
            or not all(isinstance(p, str) and p.strip() for p in group)
        ):
            raise a.error(
                f"must be a list of at least two non-empty phrases (got {describe(group)})",
                field=f"{key}[{i}]",
            )
        groups.append(tuple(group))
    return tuple(groups)


@bulk_load()  # records without cycles: no collector pass over them
def load_chunks(path: str | Path) -> list[Chunk]:
    """Load chunks from a JSON file (a list, or an object with a ``chunks`` list)."""
    return parse_chunks(read_json(path, error=ClaimlabInputError), source=str(path))


@bulk_load()  # records without cycles: no collector pass over them
def load_answer(path: str | Path) -> Answer:
    """Load an answer JSON file."""
    return parse_answer(read_json(path, error=ClaimlabInputError), source=str(path))


@bulk_load()  # records without cycles: no collector pass over them
def load_context_lab(path: str | Path) -> ContextLab:
    """Load a ``claimlab/context-lab@1`` fixture; its answers become typed records.

    Raises:
        ClaimlabInputError: naming the file, the record and the field.
    """
    source = str(path)
    top = Record(read_json(path), file=source, nulls_absent=True)
    fmt = top.get("format", str)
    if fmt != CONTEXT_LAB_FORMAT:
        raise top.error(f"expected {CONTEXT_LAB_FORMAT!r}, got {fmt!r}", field="format")
    doc = read_declared(ContextLabDocument, top.data, file=source)
    _check_chunks(doc.chunks, source, "chunks")
    answers = {
        name: parse_answer(data, source=source, where=f"answers.{name}")
        for name, data in top.mapping("answers")
    }
    queries = [
        CalibrationQuery(q.id, tuple((c.score, c.relevant) for c in q.candidates), q.split)
        for q in doc.calibration.queries
    ]
    if not any(q.candidates for q in queries):
        raise top.error(
            "needs at least one query with scored candidates: the lab calibrates its threshold "
            "on them",
            field="calibration.queries",
        )
    return ContextLab(
        source,
        doc.question,
        doc.chunks,
        MappingProxyType(answers),
        tuple(queries),
        doc.calibration.target_precision,
        doc.calibration.fixed_thresholds,
        read_exercises(top),
        doc.note,
    )
