"""A lexical reader that needs no model: BM25 picks the paragraphs, overlap picks the answer.

It writes predictions in the official formats, so notebook 10's depth study ends in the figures
the literature reports (answer EM/F1, supporting facts, joint), scored by
:mod:`claimlab.metrics.multihop_scores`. Per question:

* paragraphs ranked by Okapi BM25 against the question (as :func:`study.bm25_scored`);
* supporting facts (HotpotQA): in each of the top ``facts_k`` paragraphs, the sentence sharing
  most words with the question; supporting paragraphs (MuSiQue): the top ``facts_k``;
* the answer: ``yes`` for a question opening with an auxiliary verb (is, was, are, do, ...);
  otherwise, in the best sentence of the top paragraph, the first run of capitalised words or
  numbers that the question does not contain; else the top paragraph's title, if the question
  does not name it; else nothing. Always predicted answerable.

A baseline to measure against, not a system: it reads no meaning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from claimlab.io.official import HotpotGold, MusiqueGold
from claimlab.labs.retrieval.study import tokens

if TYPE_CHECKING:
    from claimlab.io.official import MusiquePrediction

_YES_NO = {"is", "was", "are", "were", "do", "does", "did", "can", "could", "has", "have", "had"}
_SPAN = re.compile(r"(?:[A-Z0-9][\w'.-]*)(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z0-9][\w'.-]*)*")


def _ranked(question: str, texts: Sequence[str]) -> list[int]:
    """Indices of ``texts`` best first by BM25 against the question (ties: file order)."""
    from rank_bm25 import BM25Okapi

    if not texts:
        return []
    scores = BM25Okapi([tokens(t) or [""] for t in texts]).get_scores(tokens(question))
    return sorted(range(len(texts)), key=lambda i: (-scores[i], i))


def _best_sentence(question: str, sentences: Sequence[str]) -> int:
    """The sentence sharing most words with the question (first on ties); -1 for none."""
    words = set(tokens(question))
    best, index = -1, -1
    for i, s in enumerate(sentences):
        shared = len(words & set(tokens(s)))
        if shared > best:
            best, index = shared, i
    return index


def _answer(question: str, sentence: str, title: str) -> str:
    """The reader's answer from the best sentence of the top paragraph (see the module)."""
    first = tokens(question)[:1]
    if first and first[0] in _YES_NO:
        return "yes"
    asked = set(tokens(question))
    for match in _SPAN.finditer(sentence):
        span = match.group(0).strip(" .")
        if len(span) > 1 and not set(tokens(span)) <= asked:
            return span
    return title if title and not set(tokens(title)) <= asked else ""


def hotpot_predictions(gold: Sequence[HotpotGold], *, facts_k: int = 2) -> dict[str, Any]:
    """Predictions in HotpotQA's official format: ``{"answer": {...}, "sp": {...}}``."""
    answers, facts = {}, {}
    for g in gold:
        texts = [" ".join([t, *s]) for t, s in g.paragraphs]
        order = _ranked(g.question, texts)
        sp = []
        for i in order[:facts_k]:
            title, sentences = g.paragraphs[i]
            j = _best_sentence(g.question, sentences)
            if j >= 0:
                sp.append([title, j])
        answer = ""
        if order:
            title, sentences = g.paragraphs[order[0]]
            j = _best_sentence(g.question, sentences)
            answer = _answer(g.question, sentences[j] if j >= 0 else "", title)
        answers[g.id], facts[g.id] = answer, sp
    return {"answer": answers, "sp": facts}


def musique_predictions(gold: Sequence[MusiqueGold], *, facts_k: int = 2) -> list[dict[str, Any]]:
    """Predictions in MuSiQue's official format, one per gold record, in order."""
    out = []
    for g in gold:
        texts = [f"{title} {text}" for _, title, text in g.paragraphs]
        order = _ranked(g.question, texts)
        answer = ""
        if order:
            _, title, text = g.paragraphs[order[0]]
            sentences = re.split(r"(?<=[.!?])\s+", text)
            j = _best_sentence(g.question, sentences)
            answer = _answer(g.question, sentences[j] if j >= 0 else "", title)
        out.append(
            {
                "id": g.id,
                "predicted_answer": answer,
                "predicted_support_idxs": [g.paragraphs[i][0] for i in order[:facts_k]],
                "predicted_answerable": True,
            }
        )
    return out


def reader_scores(musique: str, hotpotqa: str) -> dict[str, Any]:
    """The lexical reader run on both gold files and scored officially; a message where absent.

    Returns per data set (``MuSiQue``, ``HotpotQA``) its :class:`OfficialScores`, or why it
    was skipped.
    """
    from claimlab.io.locate import find_data
    from claimlab.io.official import (
        HotpotPredictions,
        load_hotpot_gold,
        load_musique_gold,
    )
    from claimlab.labs.teaching import data_message
    from claimlab.metrics.multihop_scores import score_hotpotqa, score_musique

    out: dict[str, Any] = {}
    path = find_data(musique)
    if path is None:
        out["MuSiQue"] = data_message("MuSiQue", musique)
    else:
        gold = load_musique_gold(path)
        out["MuSiQue"] = score_musique(gold, _musique_records(musique_predictions(gold)))
    path = find_data(hotpotqa)
    if path is None:
        out["HotpotQA"] = data_message("HotpotQA", hotpotqa)
    else:
        hgold = load_hotpot_gold(path)
        pred = hotpot_predictions(hgold)
        facts = {k: frozenset((t, i) for t, i in v) for k, v in pred["sp"].items()}
        out["HotpotQA"] = score_hotpotqa(hgold, HotpotPredictions(pred["answer"], facts))
    return out


def _musique_records(rows: Sequence[dict[str, Any]]) -> list[MusiquePrediction]:
    """Prediction rows as the typed records the scorer takes."""
    from claimlab.io.official import MusiquePrediction

    return [
        MusiquePrediction(
            r["id"],
            r["predicted_answer"],
            frozenset(r["predicted_support_idxs"]),
            r["predicted_answerable"],
        )
        for r in rows
    ]
