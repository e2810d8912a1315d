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
and its aliases.
"""

from __future__ import annotations

import re
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


def convert_musique(path: str | Path) -> dict[str, Any]:
    """A MuSiQue file as a sufficiency document (see the module's mapping).

    Raises:
        FixtureError: naming the file, the record id and the field.
    """
    evidence: list[dict[str, Any]] = []
    questions: dict[str, Any] = {}
    answer_key: dict[str, Any] = {}
    for rec in _records(path, "id"):
        rid = str(rec.record)
        paragraphs: dict[int, tuple[str, str]] = {}
        for _, p in rec.items("paragraphs"):
            idx = p.get("idx", int)
            if idx in paragraphs:
                raise p.error(f"paragraph idx {idx} occurs twice", field=p.field("idx"))
            p.get("is_supporting", bool)  # checked; the hops say which paragraph supports what
            paragraphs[idx] = (p.get("title", str), p.get("paragraph_text", str))
        hops = list(rec.items("question_decomposition"))
        if not hops:
            raise rec.error(
                "no hop: a multi-hop question needs its decomposition",
                field="question_decomposition",
            )
        answers: list[str] = []
        chain: list[str] = []
        links: list[list[str]] = []
        hop_of: dict[int, int] = {}  # paragraph idx -> the hop it supports
        support_of: dict[int, int] = {}  # hop -> its paragraph idx
        for k, (_, h) in enumerate(hops, 1):
            support = h.get("paragraph_support_idx", int)
            if support not in paragraphs:
                raise h.error(
                    f"no paragraph with idx {support}", field=h.field("paragraph_support_idx")
                )
            if support in hop_of:
                raise h.error(
                    f"paragraph {support} already supports hop {hop_of[support]}",
                    field=h.field("paragraph_support_idx"),
                )
            hop_of[support] = k
            support_of[k] = support
            sub_q = h.get("question", str)
            refs = sorted({int(m) for m in _REF.findall(sub_q)})
            for j in refs:
                if not 1 <= j < k:
                    raise h.error(
                        f"refers to #{j}, which is not an earlier hop", field=h.field("question")
                    )
                links.append([f"{rid}/p{support_of[j]}", f"{rid}/p{support}"])
            answers.append(h.get("answer", str))
            chain.append(f"{rid}/p{support}")
        for idx, (title, text) in paragraphs.items():
            hop = hop_of.get(idx)
            if hop is None:
                evidence.append(
                    _item(f"{rid}/p{idx}", text, title, "", rid, document=f"{rid}/p{idx}")
                )
                continue
            sub_q = hops[hop - 1][1].data["question"]
            takes = [answers[j - 1] for j in sorted({int(m) for m in _REF.findall(sub_q)})]
            evidence.append(
                _item(
                    f"{rid}/p{idx}",
                    text,
                    title,
                    answers[hop - 1],
                    rid,
                    document=f"{rid}/p{idx}",
                    **({"inputs": takes} if takes else {}),
                )
            )
        aliases = rec.str_list("answer_aliases", ())
        answer = rec.get("answer", str)
        questions[rid] = {
            "text": rec.get("question", str),
            "asks": ["answer"],
            "topic": rid,
            "kind": rid.split("__")[0] if "__" in rid else "musique",
            "alternatives": [chain],
            "links": [links],
            "subquestions": [hops[k][1].data["question"] for k in range(len(hops))],
        }
        answer_key[rid] = {"answer": [answer, *aliases]}
    return _document(evidence, questions, answer_key, f"MuSiQue records from {Path(path).name}")


def convert_hotpotqa(path: str | Path) -> dict[str, Any]:
    """A HotpotQA (distractor) file as a sufficiency document (see the module's mapping).

    Raises:
        FixtureError: naming the file, the record id and the field.
    """
    evidence: list[dict[str, Any]] = []
    questions: dict[str, Any] = {}
    answer_key: dict[str, Any] = {}
    for rec in _records(path, "_id"):
        rid = str(rec.record)
        sentences: dict[tuple[str, int], str] = {}
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
                sentences[(title, j)] = s
                evidence.append(
                    _item(f"{rid}/{title}#{j}", s, title, "", rid, document=f"{rid}/{title}")
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
            eid = f"{rid}/{sf[0]}#{sf[1]}"
            if eid not in facts:
                facts.append(eid)
        if not facts:
            raise rec.error(
                "no supporting fact: nothing could be sufficient", field="supporting_facts"
            )
        questions[rid] = {
            "text": rec.get("question", str),
            "asks": ["answer"],
            "topic": rid,
            "kind": rec.get("type", str, "hotpotqa"),
            "alternatives": [facts],
            "links": [[]],
        }
        answer_key[rid] = {"answer": [rec.get("answer", str)]}
    return _document(evidence, questions, answer_key, f"HotpotQA records from {Path(path).name}")


def _document(
    evidence: list[dict[str, Any]], questions: dict[str, Any], key: dict[str, Any], note: str
) -> dict[str, Any]:
    return {
        "format": "claimlab/sufficiency@1",
        "note": note + " (converted by claimlab convert; evidence ids start with the record id).",
        "evidence": evidence,
        "rules": dict(RULES),
        "questions": questions,
        "answer_key": key,
    }
