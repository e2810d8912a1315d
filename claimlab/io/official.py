"""Gold answers and predictions in the official HotpotQA and MuSiQue formats, JSON or JSON Lines.

HotpotQA (``hotpot_evaluate_v1.py``'s formats): gold is a list of records with ``_id``,
``answer`` and ``supporting_facts`` (``[title, sentence index]`` pairs); predictions are one
object ``{"answer": {ID: text}, "sp": {ID: [[title, index], ...]}}`` (or JSON Lines of
``{"_id", "answer", "sp"}``). MuSiQue (``evaluate_v1.0.py``'s formats): gold records with
``id``, ``answer``, ``answer_aliases``, ``answerable`` and ``paragraphs`` (``idx``,
``is_supporting``); predictions with ``id``, ``predicted_answer``, ``predicted_support_idxs`` and
``predicted_answerable``. An id may appear twice in MuSiQue's full set (a question and its
unanswerable twin): records are then paired by id and order of appearance.

Refused, each in one line naming file, record and field: a HotpotQA ``_id`` that is not a
string (the official script looks ids up as JSON object keys, so a number never matches); a
HotpotQA prediction object without both ``answer`` and ``sp`` (the official script reads
both: a misspelt key would score every question 0); an id given twice in HotpotQA predictions
(no silent last-wins); a MuSiQue id more than twice in gold, or twice without one answerable
and one unanswerable record. A MuSiQue prediction without ``predicted_answerable`` is read as
not given (None), which the scorer refuses when the gold has unanswerable records.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.frozen import freeze, slot_filler
from claimlab.core.text import nfc
from claimlab.io.reader import (
    Record,
    bulk_load,
    describe,
    int64,
    iter_jsonl,
    line_decoder,
    read_bytes,
    read_json,
    strict_struct,
    typed_document,
    typed_list,
    where,
)

Place = int  # a record's place: its line (JSON Lines), its index in a JSON list, or -1 (whole)


def _records(
    path: str | Path,
    typed: tuple[Callable[[], Any], Callable[[Any], Any]] | None = None,
    data: bytes | None = None,
) -> tuple[list[tuple[Place, Any]], Callable[[Place], str]]:
    """The file's records, each with its place, and how a place is named in an error.

    A JSON list (or object), or JSON Lines. A large file's well-formed records are decoded by
    ``typed`` (see :func:`iter_jsonl` and :func:`typed_list`). Places are named only when an
    error needs them. ``data``: the file's bytes, when the caller has read them (a pipe reads once).
    """
    p = Path(path)
    if p.suffix.lower() == ".jsonl":
        return list(iter_jsonl(p, typed=typed, data=data)), where
    data = read_bytes(p) if data is None else data
    if typed is not None and (items := typed_list(data, typed)) is not None:
        return list(enumerate(items)), _list_place
    value = read_json(p, error=ClaimlabInputError, data=data)
    return (list(enumerate(value)) if isinstance(value, list) else [(-1, value)]), _list_place


def _list_place(i: Place) -> str:
    """A record's place in a JSON list, ``[3]`` (``""``: the document itself)."""
    return "" if i < 0 else f"[{i}]"


def _record(obj: Any, source: str, at: str, id_field: str) -> Record:
    rid = obj.get(id_field) if isinstance(obj, dict) else None
    name = f"{at} (id {rid})" if isinstance(rid, (str, int)) and at else (at or None)
    return Record(obj, file=source, record=name, error=ClaimlabInputError)


def _fact(rec: Record, value: Any, field: str) -> tuple[str, int]:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], int)
        and not isinstance(value[1], bool)
    )
    if not ok:
        raise rec.error(
            f"a supporting fact is [title, sentence index], got {describe(value)}", field=field
        )
    return value[0], value[1]


def _facts_fast(value: Any) -> frozenset[tuple[str, int]] | None:
    """Supporting facts checked with cheap type tests; None on any doubt.

    Then :func:`_facts` reads them one by one and names what is wrong.
    """
    if type(value) is not list:
        return None
    for v in value:
        if type(v) is not list or len(v) != 2 or type(v[0]) is not str or type(v[1]) is not int:
            return None
    return frozenset([(v[0], v[1]) for v in value])


def _facts(rec: Record, value: Any, field: str) -> frozenset[tuple[str, int]]:
    fast = _facts_fast(value)
    if fast is not None:
        return fast
    if not isinstance(value, list):
        raise rec.error(
            f"must be a list of [title, sentence index], got {describe(value)}", field=field
        )
    return frozenset(_fact(rec, v, f"{field}[{i}]") for i, v in enumerate(value))


@dataclass(frozen=True, slots=True)
class HotpotGold:
    """One HotpotQA question: its answer and supporting facts."""

    id: str
    answer: str
    facts: frozenset[tuple[str, int]]
    question: str = ""
    paragraphs: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (title, sentences)


# a large file's typed records are made without the frozen dataclass's __init__ (see slot_filler)
_hotpot_gold = slot_filler(HotpotGold)


def _context_fast(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """HotpotQA's ``context`` checked with cheap type tests; None on any doubt."""
    if type(value) is not list:
        return None
    out = []
    for par in value:
        if type(par) is not list or len(par) != 2:
            return None
        title, sentences = par
        if type(title) is not str or type(sentences) is not list:
            return None
        for sentence in sentences:
            if type(sentence) is not str:
                return None
        out.append((title, tuple(sentences)))
    return tuple(out)


def _context(rec: Record) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """HotpotQA's ``context``: ``[title, [sentence, ...]]`` per paragraph (optional for scoring)."""
    out = []
    for i, par in enumerate(rec.get("context", list, [])):
        ok = (
            isinstance(par, list)
            and len(par) == 2
            and isinstance(par[0], str)
            and isinstance(par[1], list)
            and all(isinstance(s, str) for s in par[1])
        )
        if not ok:
            raise rec.error(
                f"a paragraph is [title, [sentences]], got {describe(par)}", field=f"context[{i}]"
            )
        out.append((par[0], tuple(par[1])))
    return tuple(out)


@dataclass(frozen=True)
class HotpotPredictions:
    """Predicted answers and supporting facts by question id (either may lack an id)."""

    answers: Mapping[str, str]
    facts: Mapping[str, frozenset[tuple[str, int]]]

    def __post_init__(self) -> None:
        freeze(self, "answers", "facts")


HOTPOT_KEYS = ("answer", "sp")


def _hotpot_id(rec: Record) -> str:
    """A HotpotQA ``_id``: a string (a number would never match the predictions' string keys)."""
    return str(rec.get("_id", str, want="a string (a JSON object key is a string)"))


def _check_hotpot_keys(rec: Record, keys: tuple[str, ...]) -> None:
    """Every expected prediction key is present; else one error naming them and what was found."""
    missing = [k for k in keys if k not in rec.data]
    if missing:
        found = ", ".join(sorted(str(k) for k in rec.data)) or "none"
        raise rec.error(
            f"expected the keys {', '.join(keys)}; {', '.join(missing)} missing (keys found: "
            f"{found})",
            field=missing[0],
        )


def _hotpot_gold_fast(obj: Any) -> HotpotGold | None:
    """A well-formed gold record, checked with cheap type tests; None on any doubt.

    The reader's fast path: a record it cannot vouch for is read field by field
    (:func:`_hotpot_gold_checked`), which names what is wrong (or, for a record that is fine
    after all, builds the same record).
    """
    if type(obj) is not dict:
        return None
    qid, answer, question = obj.get("_id"), obj.get("answer"), obj.get("question", "")
    if type(qid) is not str or type(answer) is not str or type(question) is not str:
        return None
    facts = _facts_fast(obj.get("supporting_facts"))
    paragraphs = _context_fast(obj.get("context", []))
    if facts is None or paragraphs is None:
        return None
    return _hotpot_gold(qid, answer, facts, question, paragraphs)


def _hotpot_gold_checked(obj: Any, source: str, at: str, seen: set[str]) -> HotpotGold:
    """A gold record read field by field; the first problem is an error naming it."""
    rec = _record(obj, source, at, "_id")
    qid = _hotpot_id(rec)
    if qid in seen:
        raise rec.error("this _id appears twice", field="_id")
    facts = _facts(rec, rec.get("supporting_facts", list), "supporting_facts")
    return HotpotGold(
        qid, rec.get("answer", str), facts, rec.get("question", str, ""), _context(rec)
    )


@functools.cache
def _hotpot_lines() -> dict[str, Any]:
    """Msgspec decoders of a well-formed HotpotQA gold record and prediction document.

    A large file's path (see :func:`claimlab.io.fever._line_types` for the rules they keep):
    every field the released files hold is named, anything else refused, and a file they
    refuse is read as before. An id of predictions is a non-empty key.
    """
    from msgspec import Meta

    index = int64()
    fact = tuple[str, index]  # type: ignore[valid-type]
    key = Annotated[str, Meta(min_length=1)]
    return {
        "gold": line_decoder(
            "HotpotGoldLine",
            [
                ("id", str),
                ("answer", str),
                ("supporting_facts", list[fact]),
                ("question", str, ""),
                ("context", tuple[tuple[str, tuple[str, ...]], ...], ()),
                ("type", str, ""),
                ("level", str, ""),
            ],
            rename={"id": "_id"},
        ),
        "predictions": line_decoder(
            "HotpotPredicted",
            [("answer", dict[key, str]), ("sp", dict[key, list[fact]])],
        ),
    }


def _hotpot_gold_typed(line: Any) -> HotpotGold:
    """A typed gold record as the reader's record."""
    return _hotpot_gold(
        line.id, line.answer, frozenset(line.supporting_facts), line.question, line.context
    )


@bulk_load()  # the file and its records: acyclic, no collector pass over them
def load_hotpot_gold(path: str | Path) -> list[HotpotGold]:
    """HotpotQA gold records (the released JSON list, or JSON Lines).

    Raises:
        ClaimlabInputError: naming file, record and field; an id given twice.
    """
    source, out = str(path), []
    seen: set[str] = set()
    rows, name = _records(path, (lambda: _hotpot_lines()["gold"], _hotpot_gold_typed))
    for place, obj in rows:
        gold = obj if type(obj) is HotpotGold else _hotpot_gold_fast(obj)
        if gold is None:
            gold = _hotpot_gold_checked(obj, source, name(place), seen)
        elif gold.id in seen:
            at = name(place)
            raise ClaimlabInputError(
                "this _id appears twice",
                file=source,
                record=f"{at} (id {gold.id})" if at else None,
                field="_id",
            )
        seen.add(gold.id)
        out.append(gold)
    if not out:
        raise ClaimlabInputError("no gold record in the file", file=source)
    return out


def _keys_written_once(raw: bytes, keys: int) -> bool:
    """Whether no key of a JSON document can be written twice, ``keys`` being how many it has.

    Every key of a JSON object ends with a quote and a colon: when the file has no more of
    those than the parsed objects have keys, no key is written twice.
    """
    import re

    return len(re.findall(rb'"[ \t\r\n]*:', raw)) <= keys


def _refuse_repeated_key(top: Record, raw: bytes) -> None:
    """Refuse a question id written twice in ``answer`` or ``sp`` (a JSON parser keeps the last).

    When a key may be written twice (:func:`_keys_written_once`), the file is read again by the
    standard library's parser, which hands each object's pairs over as written. A JSON Lines
    file's repeated ``_id`` is refused where it is read.
    """
    import json

    keys = len(top.data) + sum(len(v) for v in top.data.values() if isinstance(v, dict))
    if _keys_written_once(raw, keys):
        return
    repeated: list[tuple[str, dict[str, Any]]] = []  # the first key written twice, its object

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys, obj = [k for k, _ in items], dict(items)
        if not repeated and len(set(keys)) < len(keys):
            repeated.append((next(k for i, k in enumerate(keys) if k in keys[:i]), obj))
        return obj

    try:
        parsed = json.loads(raw, object_pairs_hook=pairs)
    except RecursionError:  # read by orjson, too deep for this second reading's recursion
        raise top.error(
            "is nested too deep to look for a question id written twice (answer and sp hold "
            "texts and [title, index] pairs)"
        ) from None
    if repeated:
        key, obj = nfc(repeated[0][0]), repeated[0][1]
        where = next((f for f in HOTPOT_KEYS if parsed.get(f) is obj), None)
        raise top.error(
            f"{key!r} is written twice in one object (a JSON reader would keep only the last)",
            field=f"{where}.{key}" if where else key,
        )


def _hotpot_predictions_typed(data: bytes) -> HotpotPredictions | None:
    """A large, well-formed predictions object through its typed decoder; None on any doubt.

    A key that may be written twice is doubt: the file is then read as before, which names it.
    """
    top = typed_document(data, (lambda: _hotpot_lines()["predictions"], lambda top: top))
    if top is None or not _keys_written_once(data, 2 + len(top.answer) + len(top.sp)):
        return None
    return HotpotPredictions(top.answer, {k: frozenset(v) for k, v in top.sp.items()})


@bulk_load()  # the file and its records: acyclic, no collector pass over them
def load_hotpot_predictions(path: str | Path) -> HotpotPredictions:
    """Predictions: ``{"answer": {...}, "sp": {...}}``, or JSON Lines of ``{_id, answer, sp}``.

    Raises:
        ClaimlabInputError: naming file, question id and field.
    """
    source = str(path)
    data = None if Path(path).suffix.lower() == ".jsonl" else read_bytes(path)
    if data is not None and (typed := _hotpot_predictions_typed(data)) is not None:
        return typed
    rows, name = _records(path, data=data)
    if len(rows) == 1 and rows[0][0] == -1 and data is not None:  # one document, not a list
        top = rows[0][1]
        if not isinstance(top, dict):
            raise ClaimlabInputError(
                f'must be {{"answer": {{...}}, "sp": {{...}}}}, got {describe(top)}', file=source
            )
        if "_id" not in top:
            return _hotpot_prediction_object(_record(top, source, "", "_id"), data)
    return _hotpot_prediction_records(rows, name, source)


def _hotpot_prediction_object(top: Record, data: bytes) -> HotpotPredictions:
    """The predictions object read field by field; the first problem is an error naming it."""
    answers: dict[str, str] = {}
    facts: dict[str, frozenset[tuple[str, int]]] = {}
    _check_hotpot_keys(top, HOTPOT_KEYS)
    _refuse_repeated_key(top, data)
    said, given = top.data["answer"], top.data["sp"]
    if type(said) is dict and type(given) is dict and "" not in said and "" not in given:
        # the answers checked at once; each question's facts by type tests, else named below
        if all(type(text) is str for text in said.values()):
            facts = {qid: f for qid, v in given.items() if (f := _facts_fast(v)) is not None}
            if len(facts) == len(given):
                return HotpotPredictions(dict(said), facts)
    for qid, text in top.mapping("answer"):
        if not isinstance(text, str):
            raise top.error(f"must be a string, got {describe(text)}", field=f"answer.{qid}")
        answers[qid] = text
    for qid, value in top.mapping("sp"):
        facts[qid] = _facts(top, value, f"sp.{qid}")
    return HotpotPredictions(answers, facts)


def _hotpot_prediction_records(
    rows: list[tuple[Place, Any]], name: Callable[[Place], str], source: str
) -> HotpotPredictions:
    """Records of ``{_id, answer, sp}`` (JSON Lines, or a list), one question each."""
    answers: dict[str, str] = {}
    facts: dict[str, frozenset[tuple[str, int]]] = {}
    seen: set[str] = set()
    for place, obj in rows:
        rec = _record(obj, source, name(place), "_id")
        qid = _hotpot_id(rec)
        if qid in seen:
            raise rec.error(f"_id {qid!r} appears twice (one prediction per question)", field="_id")
        seen.add(qid)
        _check_hotpot_keys(rec, ("_id", *HOTPOT_KEYS))
        answers[qid] = rec.get("answer", str)
        facts[qid] = _facts(rec, rec.data["sp"], "sp")
    return HotpotPredictions(answers, facts)


@dataclass(frozen=True, slots=True)
class MusiqueGold:
    """One MuSiQue record: answers (with aliases), supporting paragraphs, answerable or not."""

    id: str
    answers: tuple[str, ...]
    support: frozenset[int]
    answerable: bool
    question: str = ""
    paragraphs: tuple[tuple[int, str, str], ...] = ()  # (idx, title, text)


@dataclass(frozen=True, slots=True)
class MusiquePrediction:
    """One MuSiQue prediction."""

    id: str
    answer: str
    support: frozenset[int]
    answerable: bool | None  # None: the file gave no ``predicted_answerable``


# the fast paths' and typed lines' records are made without __init__ (see slot_filler)
_musique_gold, _musique_prediction = slot_filler(MusiqueGold), slot_filler(MusiquePrediction)


def _index(rec: Record, value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise rec.error(f"a paragraph index is an integer, got {describe(value)}", field=field)
    return value


def _check_twin(rec: Record, seen: dict[str, list[bool]]) -> None:
    """A MuSiQue gold id appears once, or twice as an answerable and an unanswerable twin."""
    _add_twin(str(rec.get("id", (str, int))), rec.get("answerable", bool, True), seen, rec.error)


def _add_twin(
    rid: str, answerable: bool, seen: dict[str, list[bool]], error: Callable[..., Exception]
) -> None:
    before = seen.setdefault(rid, [])
    if len(before) >= 2 or answerable in before:
        raise error(
            f"id {rid!r} appears {len(before) + 1} times; an id appears once, or twice as an "
            "answerable record and its unanswerable twin",
            field="id",
        )
    before.append(answerable)


def _musique_gold_fast(obj: Any, seen: dict[str, list[bool]]) -> MusiqueGold | None:
    """A well-formed gold record whose id may come now, checked with cheap type tests.

    None on any doubt: then :func:`_musique_gold_checked` names what is wrong (or builds the
    same record).
    """
    if type(obj) is not dict:
        return None
    rid, answer, answerable = obj.get("id"), obj.get("answer"), obj.get("answerable", True)
    aliases, question, pars = (
        obj.get("answer_aliases", []),
        obj.get("question", ""),
        obj.get("paragraphs"),
    )
    if type(rid) not in (str, int) or type(answer) is not str or type(answerable) is not bool:
        return None
    if type(aliases) is not list or type(question) is not str or type(pars) is not list:
        return None
    before = seen.get(str(rid), ())
    if len(before) >= 2 or answerable in before or any(type(a) is not str for a in aliases):
        return None
    support, paragraphs = set(), []
    for par in pars:
        if type(par) is not dict:
            return None
        idx, title, text = par.get("idx"), par.get("title", ""), par.get("paragraph_text", "")
        supporting = par.get("is_supporting", False)
        if type(idx) is not int or type(supporting) is not bool:
            return None
        if type(title) is not str or type(text) is not str:
            return None
        if supporting:
            support.add(idx)
        paragraphs.append((idx, title, text))
    seen.setdefault(str(rid), []).append(answerable)
    return _musique_gold(
        str(rid), (answer, *aliases), frozenset(support), answerable, question, tuple(paragraphs)
    )


def _musique_gold_checked(
    obj: Any, source: str, at: str, seen: dict[str, list[bool]]
) -> MusiqueGold:
    """A gold record read field by field; the first problem is an error naming it."""
    rec = _record(obj, source, at, "id")
    _check_twin(rec, seen)
    support, paragraphs = set(), []
    for i, par in rec.items("paragraphs"):
        idx = _index(par, par.data.get("idx"), f"paragraphs[{i}].idx")
        if par.get("is_supporting", bool, False):
            support.add(idx)
        paragraphs.append((idx, par.get("title", str, ""), par.get("paragraph_text", str, "")))
    return MusiqueGold(
        str(rec.get("id", (str, int))),
        (rec.get("answer", str), *rec.str_list("answer_aliases", [])),
        frozenset(support),
        rec.get("answerable", bool, True),
        rec.get("question", str, ""),
        tuple(paragraphs),
    )


@functools.cache
def _musique_lines() -> dict[str, Any]:
    """Msgspec decoders of a well-formed MuSiQue gold line and prediction line.

    A large JSON Lines file's path (see :func:`claimlab.io.fever._line_types` for the rules
    they keep): a line they refuse is read as before.
    """
    from msgspec import UNSET, UnsetType

    number = int64()
    par = strict_struct(
        "Paragraph",
        [
            ("idx", number),
            ("title", str, ""),
            ("paragraph_text", str, ""),
            ("is_supporting", bool, False),
        ],
    )
    return {
        "gold": line_decoder(
            "Gold",
            [
                ("id", number | str),
                ("answer", str),
                ("paragraphs", list[par]),  # type: ignore[valid-type]
                ("answerable", bool, True),
                ("answer_aliases", list[str], []),
                ("question", str, ""),
                ("question_decomposition", list[dict[str, str | number | None]], []),  # type: ignore[valid-type]
            ],
        ),
        "prediction": line_decoder(
            "Predicted",
            [
                ("id", number | str),
                ("predicted_answer", str),
                ("predicted_support_idxs", list[number]),  # type: ignore[valid-type]
                ("predicted_answerable", bool | UnsetType, UNSET),
            ],
        ),
    }


def _musique_gold_typed(line: Any) -> MusiqueGold:
    """A typed gold line as a record (its twin is checked by the caller, in file order)."""
    pars = line.paragraphs
    return _musique_gold(
        str(line.id),
        (line.answer, *line.answer_aliases),
        frozenset([p.idx for p in pars if p.is_supporting]),
        line.answerable,
        line.question,
        tuple([(p.idx, p.title, p.paragraph_text) for p in pars]),
    )


def _typed_twin(
    gold: MusiqueGold,
    seen: dict[str, list[bool]],
    source: str,
    name: Callable[[Place], str],
    place: Place,
) -> None:
    """:func:`_check_twin` for a typed record, naming it as :func:`_record` does."""
    if gold.id not in seen:
        seen[gold.id] = [gold.answerable]
        return
    at = name(place)
    record = f"{at} (id {gold.id})" if at else None
    error = functools.partial(ClaimlabInputError, file=source, record=record)
    _add_twin(gold.id, gold.answerable, seen, error)


def _musique_prediction_typed(line: Any) -> MusiquePrediction:
    """A typed prediction line as a record."""
    answerable = line.predicted_answerable
    return _musique_prediction(
        str(line.id),
        line.predicted_answer,
        frozenset(line.predicted_support_idxs),
        answerable if type(answerable) is bool else None,  # not given: None
    )


@bulk_load()  # the file and its records: acyclic, no collector pass over them
def load_musique_gold(path: str | Path) -> list[MusiqueGold]:
    """MuSiQue gold records (JSON Lines as released, or a JSON list).

    Raises:
        ClaimlabInputError: naming file, record and field.
    """
    source, out = str(path), []
    seen: dict[str, list[bool]] = {}
    rows, name = _records(path, (lambda: _musique_lines()["gold"], _musique_gold_typed))
    for place, obj in rows:
        if type(obj) is MusiqueGold:  # a typed line: its twin checked here, in file order
            _typed_twin(obj, seen, source, name, place)
            out.append(obj)
            continue
        gold = _musique_gold_fast(obj, seen)
        if gold is None:
            gold = _musique_gold_checked(obj, source, name(place), seen)
        out.append(gold)
    if not out:
        raise ClaimlabInputError("no gold record in the file", file=source)
    return out


@bulk_load()  # the file and its records: acyclic, no collector pass over them
def load_musique_predictions(path: str | Path) -> list[MusiquePrediction]:
    """MuSiQue predictions (JSON Lines as the official script reads them, or a JSON list).

    Raises:
        ClaimlabInputError: naming file, record and field.
    """
    source, out = str(path), []
    typed = (lambda: _musique_lines()["prediction"], _musique_prediction_typed)
    rows, name = _records(path, typed)
    for place, obj in rows:
        prediction = obj if type(obj) is MusiquePrediction else _musique_prediction_fast(obj)
        if prediction is None:
            prediction = _musique_prediction_checked(obj, source, name(place))
        out.append(prediction)
    return out


def _musique_prediction_fast(obj: Any) -> MusiquePrediction | None:
    """A well-formed prediction checked with cheap type tests; None on any doubt."""
    if type(obj) is not dict:
        return None
    rid, answer = obj.get("id"), obj.get("predicted_answer")
    idxs, answerable = obj.get("predicted_support_idxs"), obj.get("predicted_answerable")
    if type(rid) not in (str, int) or type(answer) is not str or type(idxs) is not list:
        return None
    if (answerable is not None or "predicted_answerable" in obj) and type(answerable) is not bool:
        return None
    for v in idxs:
        if type(v) is not int:
            return None
    return _musique_prediction(str(rid), answer, frozenset(idxs), answerable)


def _musique_prediction_checked(obj: Any, source: str, at: str) -> MusiquePrediction:
    """A prediction read field by field; the first problem is an error naming it."""
    rec = _record(obj, source, at, "id")
    idxs = rec.get("predicted_support_idxs", list, want="a list of paragraph indices")
    return MusiquePrediction(
        str(rec.get("id", (str, int))),
        rec.get("predicted_answer", str),
        frozenset(_index(rec, v, f"predicted_support_idxs[{i}]") for i, v in enumerate(idxs)),
        rec.get("predicted_answerable", bool, None),
    )
