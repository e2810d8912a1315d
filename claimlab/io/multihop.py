"""MuSiQue and HotpotQA records as ``claimlab/sufficiency@1`` documents (``claimlab convert``).

Both files are JSON lists of records (the released formats; MuSiQue: Trivedi et al., TACL 2022,
CC BY 4.0; HotpotQA: Yang et al., EMNLP 2018, CC BY-SA 4.0). One question per record, named by
the record's id; every evidence id starts with the record's id, so each traces back to it.

MuSiQue: one evidence item per paragraph, ``RECORD/pIDX`` (title as its subject, the paragraph
as its text, ``is_supporting`` kept as ``supporting``). A supporting paragraph of hop k answers
hop k: its object is that hop's answer and it *takes* (``inputs``) the answers of the earlier
hops its sub-question refers to (``#1``, ``#2``); the question's one alternative is the chain of
the hops' supporting paragraphs in hop order, and its ``links`` are the references: hop j ->
hop k whenever hop k's sub-question names ``#j``. A hop that refers to nothing starts a
chain; two independent first hops that a later one joins (MuSiQue's 3hop2 and 4hop3 shapes)
are two starts of one alternative. Non-supporting paragraphs take nothing and lead nowhere.

HotpotQA (distractor setting): one evidence item per sentence of each context paragraph,
``RECORD/TITLE#i`` in the ``document`` ``RECORD/TITLE`` (retrieval ranks paragraphs); the alternative is the set of supporting facts (``links``: no pair, a set
whose members need not link); the question's ``kind`` is HotpotQA's ``type`` (bridge or
comparison), kept apart in every study.

All items are APPROVED and CURRENT (the data has no metadata); the answer key holds the answer
and its aliases. Converted ids never hold a comma (one in a title becomes ``;``), so every id can
be given to ``--context`` as it is.

MuSiQue's ``answerable`` is kept: an unanswerable record (a hop with no supporting paragraph,
its ``paragraph_support_idx`` null) becomes a question that is never sufficient, its chain the
hops that have a paragraph. ``contrast=True`` adds, for each answerable record, its unanswerable
twin (``RECORD~unanswerable``): the record with its last hop's supporting paragraph removed, as
MuSiQue builds its contrast set (a record skipped as unreadable has no twin). A record that
cannot be read is left out and reported (``skipped``: file, record, field and problem); the
others are converted. A file with no record left is refused.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claimlab.core.errors import FixtureError
from claimlab.io.reader import Record, describe, read_json, records_of

_REF = re.compile(r"#(\d+)")
RULES = {"required_status": "APPROVED", "require_current": True}


def _records(path: str | Path, id_field: str) -> list[Record]:
    data = read_json(path)
    if not isinstance(data, list):
        raise FixtureError(f"must be a list of records, got {describe(data)}", file=str(path))
    if not data:
        raise FixtureError("no records: there is nothing to convert", file=str(path))
    out = [r for _, r in records_of(data, file=str(path), id_field=id_field)]
    seen: set[str] = set()
    for r in out:
        if r.record in seen:
            raise r.error("duplicate record id", field=id_field)
        seen.add(str(r.record))
    return out


def _item(eid: str, text: str, subject: str, obj: str, topic: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": eid,
        "text": text,
        "subject": subject,
        "relation": "supports" if obj else "mentions",
        "object": obj,
        "status": "APPROVED",
        "current": True,
        "topic": topic,
        **extra,
    }


def _safe(text: str) -> str:
    """A part of an id with no comma (``--context`` splits ids at commas)."""
    return text.replace(",", ";")


def _convert_each(
    records: list[Record], convert: Any
) -> tuple[dict[str, list[Any]], list[FixtureError]]:
    """Every record through ``convert`` (its items, question and key); bad ones kept apart."""
    parts: dict[str, list[Any]] = {"evidence": [], "questions": [], "key": []}
    skipped: list[FixtureError] = []
    for rec in records:
        try:
            evidence, question, key = convert(rec)
        except FixtureError as exc:
            skipped.append(exc)
            continue
        parts["evidence"] += evidence
        parts["questions"].append((str(rec.record), question))
        parts["key"].append((str(rec.record), key))
    if not parts["questions"]:
        first = skipped[0]
        others = [str(e.record) for e in skipped[1:]]
        more = f" (every record is bad; the others: {', '.join(others)})" if others else ""
        raise FixtureError(
            first.problem + more, file=first.file, record=first.record, field=first.field
        )
    return parts, skipped


def _paragraphs(rec: Record) -> dict[int, tuple[str, str]]:
    paragraphs: dict[int, tuple[str, str]] = {}
    for _, p in rec.items("paragraphs"):
        idx = p.get("idx", int)
        if idx in paragraphs:
            raise p.error(f"paragraph idx {idx} occurs twice", field=p.field("idx"))
        p.get("is_supporting", bool)  # checked; the hops say which paragraph supports what
        paragraphs[idx] = (p.get("title", str), p.get("paragraph_text", str))
    return paragraphs


def _hop_chain(
    rec: Record, rid: str, paragraphs: Mapping[int, Any], answerable: bool
) -> tuple[list[str], list[list[str]], dict[int, int], list[str], list[Record]]:
    """The hops' supporting paragraphs in order, their links, and each hop's answer."""
    hops = [h for _, h in rec.items("question_decomposition")]
    if not hops:
        raise rec.error(
            "no hop: a multi-hop question needs its decomposition", field="question_decomposition"
        )
    chain: list[str] = []
    links: list[list[str]] = []
    hop_of: dict[int, int] = {}  # paragraph idx -> the hop it supports
    support_of: dict[int, int] = {}  # hop -> its paragraph idx
    answers: list[str] = []
    for k, h in enumerate(hops, 1):
        support = h.get("paragraph_support_idx", (int, type(None)))
        answers.append(h.get("answer", str))
        refs = sorted({int(m) for m in _REF.findall(h.get("question", str))})
        for j in refs:
            if not 1 <= j < k:
                raise h.error(
                    f"refers to #{j}, which is not an earlier hop", field=h.field("question")
                )
        if support is None or (not answerable and support not in paragraphs):
            if answerable:
                raise h.error(
                    "no supporting paragraph, but the record is answerable",
                    field=h.field("paragraph_support_idx"),
                )
            continue  # the hop unanswerable records leave without a paragraph
        if support not in paragraphs:
            raise h.error(
                f"no paragraph with idx {support}", field=h.field("paragraph_support_idx")
            )
        if support in hop_of:
            raise h.error(
                f"paragraph {support} already supports hop {hop_of[support]}",
                field=h.field("paragraph_support_idx"),
            )
        hop_of[support], support_of[k] = k, support
        links += [[f"{rid}/p{support_of[j]}", f"{rid}/p{support}"] for j in refs if j in support_of]
        chain.append(f"{rid}/p{support}")
    return chain, links, hop_of, answers, hops


def _musique_record(rec: Record) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    rid = _safe(str(rec.record))
    answerable = rec.get("answerable", bool, True)
    paragraphs = _paragraphs(rec)
    chain, links, hop_of, answers, hops = _hop_chain(rec, rid, paragraphs, answerable)
    evidence = []
    for idx, (title, text) in paragraphs.items():
        hop = hop_of.get(idx)
        eid = f"{rid}/p{idx}"
        if hop is None:
            evidence.append(_item(eid, text, title, "", rid, document=eid))
            continue
        sub_q = hops[hop - 1].data["question"]
        takes = [answers[j - 1] for j in sorted({int(m) for m in _REF.findall(sub_q)})]
        evidence.append(
            _item(
                eid,
                text,
                title,
                answers[hop - 1],
                rid,
                document=eid,
                **({"inputs": takes} if takes else {}),
            )  # fmt: skip
        )
    question = {
        "text": rec.get("question", str),
        "asks": ["answer"],
        "topic": rid,
        "kind": rid.split("__")[0] if "__" in rid else "musique",
        "alternatives": [chain] if chain else [],
        "links": [links] if chain else [],
        "subquestions": [h.data["question"] for h in hops],
        **({} if answerable else {"answerable": False}),
    }
    key = {"answer": [rec.get("answer", str), *rec.str_list("answer_aliases", ())]}
    return evidence, question, key


def musique_twin(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The unanswerable twin of an answerable MuSiQue record: its last hop's paragraph removed.

    Returns None for a record that is unanswerable already or names no such paragraph.
    """
    if row.get("answerable", True) is False or not row.get("question_decomposition"):
        return None
    twin = copy.deepcopy(dict(row))
    last = twin["question_decomposition"][-1]
    gone = last.get("paragraph_support_idx")
    if not isinstance(gone, int) or isinstance(gone, bool):
        return None
    twin["id"] = f"{row.get('id')}~unanswerable"
    twin["answerable"] = False
    twin["paragraphs"] = [p for p in twin.get("paragraphs", []) if p.get("idx") != gone]
    last["paragraph_support_idx"] = None
    return twin


def convert_musique(path: str | Path, *, contrast: bool = False) -> dict[str, Any]:
    """A MuSiQue file as a sufficiency document (see the module's mapping).

    Raises:
        FixtureError: no record could be converted (naming the file, record id and field).
    """
    records = _records(path, "id")
    parts, skipped = _convert_each(records, _musique_record)
    if contrast:  # twins of the records that converted only: a skipped one has none
        bad = {e.record for e in skipped}
        twins = [musique_twin(r.data) for r in records if r.record not in bad]
        extra = [t for t in twins if t is not None]
        if extra:
            more, lost = _convert_each(
                [r for _, r in records_of(extra, file=str(path), id_field="id")], _musique_record
            )
            for key, values in more.items():
                parts[key] += values
            skipped += lost
    return _document(parts, f"MuSiQue records from {Path(path).name}", skipped)


def _hotpot_record(rec: Record) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    rid = _safe(str(rec.record))
    evidence: list[dict[str, Any]] = []
    sentences: set[tuple[str, int]] = set()
    for i, para in enumerate(rec.get("context", list)):
        at = f"context[{i}]"
        if not (
            isinstance(para, list)
            and len(para) == 2
            and isinstance(para[0], str)
            and isinstance(para[1], list)
        ):
            raise rec.error(f"must be [title, [sentences]], got {describe(para)}", field=at)
        title, sents = para
        for j, s in enumerate(sents):
            if not isinstance(s, str):
                raise rec.error(
                    f"must be a sentence (a string), got {describe(s)}", field=f"{at}[1][{j}]"
                )
            sentences.add((title, j))
            evidence.append(
                _item(
                    f"{rid}/{_safe(title)}#{j}", s, title, "", rid, document=f"{rid}/{_safe(title)}"
                )
            )
    facts = []
    for i, sf in enumerate(rec.get("supporting_facts", list)):
        at = f"supporting_facts[{i}]"
        if not (
            isinstance(sf, list)
            and len(sf) == 2
            and isinstance(sf[0], str)
            and isinstance(sf[1], int)
            and not isinstance(sf[1], bool)
        ):
            raise rec.error(f"must be [title, sentence index], got {describe(sf)}", field=at)
        if (sf[0], sf[1]) not in sentences:
            raise rec.error(f"names no sentence of the context: {sf[0]!r} #{sf[1]}", field=at)
        eid = f"{rid}/{_safe(sf[0])}#{sf[1]}"
        if eid not in facts:
            facts.append(eid)
    if not facts:
        raise rec.error("no supporting fact: nothing could be sufficient", field="supporting_facts")
    question = {
        "text": rec.get("question", str),
        "asks": ["answer"],
        "topic": rid,
        "kind": rec.get("type", str, "hotpotqa"),
        "alternatives": [facts],
        "links": [[]],
    }
    return evidence, question, {"answer": [rec.get("answer", str)]}


def convert_hotpotqa(path: str | Path) -> dict[str, Any]:
    """A HotpotQA (distractor) file as a sufficiency document (see the module's mapping).

    Raises:
        FixtureError: no record could be converted (naming the file, record id and field).
    """
    parts, skipped = _convert_each(_records(path, "_id"), _hotpot_record)
    return _document(parts, f"HotpotQA records from {Path(path).name}", skipped)


def _document(
    parts: Mapping[str, list[Any]], note: str, skipped: list[FixtureError]
) -> dict[str, Any]:
    return {
        "format": "claimlab/sufficiency@1",
        "note": note + " (converted by claimlab convert; evidence ids start with the record id).",
        "evidence": parts["evidence"],
        "rules": dict(RULES),
        "questions": {rid: q for rid, q in ((_safe(r), q) for r, q in parts["questions"])},
        "answer_key": {_safe(r): k for r, k in parts["key"]},
        **(
            {
                "skipped": [
                    {"file": e.file, "record": e.record, "field": e.field, "problem": e.problem}
                    for e in skipped
                ]
            }
            if skipped
            else {}
        ),
    }
