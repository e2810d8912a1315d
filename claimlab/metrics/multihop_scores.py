"""The official multi-hop scores: HotpotQA's and MuSiQue's, restated from their definitions.

Metric card. Answers are compared after the official normalisation (lower case; ASCII
punctuation deleted; the words a, an, the removed; white space collapsed).

* **HotpotQA** (Yang et al., 2018; ``hotpot_evaluate_v1.py``): per question, answer EM and
  token F1/precision/recall, where a yes/no/noanswer answer scores 0 unless it matches exactly;
  supporting facts as sets of (title, sentence): precision, recall, F1, EM (no false positive
  and no false negative); joint precision = answer precision x facts precision, joint recall
  likewise, joint F1 their harmonic mean, joint EM both EMs. Every figure is the mean over the
  *gold* questions: a question without a prediction scores 0 (counted in ``missing``).
* **MuSiQue** (Trivedi et al., 2022; ``evaluate_v1.0.py``): over the answerable records, answer
  EM and F1 taking the best over the answer and its aliases (F1 the SQuAD 2.0 way: an empty
  answer scores 1 against an empty answer, else 0), and support F1 over sets of paragraph
  indices (1 when both sets are empty). When unanswerable records are present (each question
  twice: answerable, and its unanswerable twin), the grouped figures: per question, the answer
  (or support) F1 of the answerable record when both answerable predictions are right, else 0;
  mean over questions.

Undefined: a mean over no question is N/A, never 0 (the official scripts print 0).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import add
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.frozen import freeze
from claimlab.io.official import HotpotGold, HotpotPredictions, MusiqueGold, MusiquePrediction
from claimlab.io.reader import bulk_load

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(f"[{re.escape(string.punctuation)}]")  # each ASCII punctuation mark
YES_NO = ("yes", "no", "noanswer")
HOTPOT_METRICS = (
    "em", "f1", "prec", "recall", "sp_em", "sp_f1", "sp_prec", "sp_recall",
    "joint_em", "joint_f1", "joint_prec", "joint_recall",
)  # fmt: skip


def official_normalise(text: str) -> str:
    """The SQuAD/HotpotQA/MuSiQue normalisation.

    Examples:
        >>> official_normalise("The  U.S.-born  Hall!")
        'usborn hall'
    """
    lowered = _PUNCT.sub("", text.lower())  # (faster than str.translate, the same text)
    return " ".join(_ARTICLES.sub(" ", lowered).split())


# over many texts at once: the texts joined by a character that is neither a word character
# (for the articles' word boundaries), punctuation, white space, nor changed by lower case
_BETWEEN = "\x00"
_NO_PUNCT = str.maketrans("", "", string.punctuation)
# an article as a whole word, as _ARTICLES finds it; looked for only where an "a" or a "t" is
_ARTICLE_AT = re.compile(r"[at](?<!\w[at])(?:(?<=a)n?|(?<=t)he)(?!\w)")


def official_normalise_all(texts: Sequence[str]) -> list[str]:
    """:func:`official_normalise` of each text, done over all of them at once (faster by half).

    The texts are joined by a character none of them holds (else each is normalised alone):
    lower case, punctuation and articles are then taken out of the whole, which is cut again.

    Examples:
        >>> official_normalise_all(["The  U.S.-born  Hall!", "an apple", ""])
        ['usborn hall', 'apple', '']
    """
    joined = _BETWEEN.join(texts)
    if not texts or joined.count(_BETWEEN) != len(texts) - 1:
        return [official_normalise(t) for t in texts]
    lowered = joined.lower()
    # str.translate is the regular expression's work at a tenth of the cost on ASCII text
    kept = lowered.translate(_NO_PUNCT) if lowered.isascii() else _PUNCT.sub("", lowered)
    return [" ".join(t.split()) for t in _ARTICLE_AT.sub(" ", kept).split(_BETWEEN)]


def token_prf(prediction: str, gold: str, *, yes_no: bool = True) -> tuple[float, float, float]:
    """(F1, precision, recall) of the normalised tokens, the HotpotQA way.

    With ``yes_no``, a yes/no/noanswer prediction or gold scores 0 unless both are equal.
    """
    return _normalised_prf(official_normalise(prediction), official_normalise(gold), yes_no)


def _normalised_prf(p: str, g: str, yes_no: bool) -> tuple[float, float, float]:
    """:func:`token_prf` of two texts already normalised."""
    if p == g:  # an exact match: every token shared (none: 0)
        return (1.0, 1.0, 1.0) if p else (0.0, 0.0, 0.0)
    if yes_no and (p in YES_NO or g in YES_NO):
        return 0.0, 0.0, 0.0
    pt, gt = p.split(), g.split()
    same = shared_tokens(pt, gt)
    if same == 0:
        return 0.0, 0.0, 0.0
    prec, rec = same / len(pt), same / len(gt)
    return 2 * prec * rec / (prec + rec), prec, rec


def shared_tokens(pt: Sequence[str], gt: Sequence[str]) -> int:
    """How many tokens two token lists share, counted with repeats.

    The size of the multiset intersection, ``sum((Counter(pt) & Counter(gt)).values())`` of
    the official scripts.

    Examples:
        >>> shared_tokens(["a", "b", "b", "c"], ["b", "b", "b", "c", "d"])
        3
    """
    left: dict[str, int] = {}
    for t in gt:
        left[t] = left.get(t, 0) + 1
    same = 0
    for t in pt:
        n = left.get(t, 0)
        if n:
            left[t] = n - 1
            same += 1
    return same


def squad2_f1(prediction: str, gold: str) -> float:
    """Token F1 the SQuAD 2.0 way (MuSiQue): empty against empty is 1, empty against text 0."""
    return _normalised_squad2_f1(official_normalise(prediction), official_normalise(gold))


def _normalised_squad2_f1(p: str, g: str) -> float:
    """:func:`squad2_f1` of two texts already normalised."""
    if p == g:  # an exact match: every token shared (none on both sides: 1 too)
        return 1.0
    pt, gt = p.split(), g.split()
    if not pt or not gt:
        return float(pt == gt)
    same = shared_tokens(pt, gt)
    if same == 0:
        return 0.0
    prec, rec = same / len(pt), same / len(gt)
    return 2 * prec * rec / (prec + rec)


def set_prf(predicted: Iterable[Any], gold: Iterable[Any]) -> tuple[float, float, float, float]:
    """(F1, precision, recall, EM) of two sets, the HotpotQA supporting-fact way."""
    pred = predicted if isinstance(predicted, (set, frozenset)) else set(predicted)
    ref = gold if isinstance(gold, (set, frozenset)) else set(gold)
    tp = len(pred & ref)
    fp, fn = len(pred) - tp, len(ref) - tp
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return f1, prec, rec, float(fp + fn == 0)


@dataclass(frozen=True)
class Mean:
    """A mean of per-question scores with its count; N/A over no question."""

    total: float
    count: int

    @property
    def value(self) -> float | None:
        """Total / count, or None when there is no question."""
        return self.total / self.count if self.count else None

    @property
    def display(self) -> str:
        """``"45.2% (mean of 100)"`` or ``"N/A (no question)"``."""
        v = self.value
        return "N/A (no question)" if v is None else f"{100 * v:.1f}% (mean of {self.count})"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: value, total, count, display."""
        return {
            "value": self.value,
            "total": self.total,
            "count": self.count,
            "display": self.display,
        }


@dataclass(frozen=True)
class OfficialScores:
    """The official figures, the counts behind them, and what was left out."""

    figures: Mapping[str, Mean]
    counts: Mapping[str, int]

    def __post_init__(self) -> None:
        freeze(self, "figures", "counts")

    def to_dict(self) -> dict[str, Any]:
        """JSON form: each figure's value at the top level (as the scripts print), then details."""
        return {
            **{k: v.value for k, v in self.figures.items()},
            "counts": dict(self.counts),
            "figures": {k: v.to_dict() for k, v in self.figures.items()},
        }


def _hotpot_row(
    g: HotpotGold, said: str | None, gold: str, facts: frozenset[tuple[str, int]] | None
) -> tuple[float, ...]:
    """One question's twelve scores in the order of :data:`HOTPOT_METRICS`.

    Given its predicted answer and the gold's, both normalised, and the predicted facts (None:
    not predicted; 0 for that part, and for the joint ones then).
    """
    em = f1 = prec = rec = sp_em = sp_f1 = sp_prec = sp_rec = 0.0
    if said is not None:
        f1, prec, rec = _normalised_prf(said, gold, True)
        em = float(said == gold)
    if facts is not None:
        sp_f1, sp_prec, sp_rec, sp_em = set_prf(facts, g.facts)
    if said is None or facts is None:
        return (em, f1, prec, rec, sp_em, sp_f1, sp_prec, sp_rec, 0.0, 0.0, 0.0, 0.0)
    jp, jr = prec * sp_prec, rec * sp_rec
    jf1 = 2 * jp * jr / (jp + jr) if jp + jr > 0 else 0.0
    return (em, f1, prec, rec, sp_em, sp_f1, sp_prec, sp_rec, em * sp_em, jf1, jp, jr)


@bulk_load()  # a pass over acyclic records: no garbage cycle to collect
def score_hotpotqa(gold: Sequence[HotpotGold], preds: HotpotPredictions) -> OfficialScores:
    """HotpotQA's twelve figures over every gold question (see the module's definitions)."""
    answers, facts = dict(preds.answers), dict(preds.facts)
    said = [answers.get(g.id) for g in gold]
    normal = official_normalise_all([g.answer for g in gold] + [s for s in said if s is not None])
    gold_normal, said_normal = normal[: len(gold)], iter(normal[len(gold) :])
    rows = [
        _hotpot_row(g, None if s is None else next(said_normal), n, facts.get(g.id))
        for g, s, n in zip(gold, said, gold_normal, strict=True)
    ]
    # each figure summed question by question, in the gold's order, from 0.0 (as the script)
    columns = zip(*rows, strict=True)
    totals = [reduce(add, column, 0.0) for column in columns] or [0.0] * len(HOTPOT_METRICS)
    ids = {g.id for g in gold}
    answered = sum(g.id in answers for g in gold)
    with_facts = sum(g.id in facts for g in gold)
    counts = {
        "questions": len(gold),
        "answered": answered,
        "with_supporting_facts": with_facts,
        "missing_answer": len(gold) - answered,
        "missing_supporting_facts": len(gold) - with_facts,
        "predictions_not_in_gold": len((answers.keys() | facts.keys()) - ids),
    }
    return OfficialScores(
        {k: Mean(v, len(gold)) for k, v in zip(HOTPOT_METRICS, totals, strict=True)}, counts
    )


def _pair_musique(
    gold: Sequence[MusiqueGold], preds: Sequence[MusiquePrediction]
) -> list[tuple[MusiqueGold, MusiquePrediction]]:
    """Each gold record with its prediction: by id, the n-th occurrence with the n-th."""
    waiting: dict[str, list[MusiquePrediction]] = {}
    for p in preds:
        waiting.setdefault(p.id, []).append(p)
    pairs = []
    for g in gold:
        queue = waiting.get(g.id)
        if not queue:
            raise ClaimlabInputError(
                f"gold record {g.id!r} has no prediction (every record needs one)", field="id"
            )
        pairs.append((g, queue.pop(0)))
    extra = [pid for pid, q in waiting.items() if q]
    if extra:
        pid = extra[0]
        given = sum(g.id == pid for g in gold)
        if given:  # one id more often than the gold has it: no silent choice of one
            raise ClaimlabInputError(
                f"prediction {pid!r} appears {given + len(waiting[pid])} times; the gold has "
                f"it {given} time{'s' if given > 1 else ''}",
                record=f"id {pid}",
                field="id",
            )
        raise ClaimlabInputError(f"prediction {pid!r} has no gold record", field="id")
    return pairs


def _check_answerable_given(pairs: Sequence[tuple[MusiqueGold, MusiquePrediction]]) -> None:
    """With unanswerable gold records, every prediction says ``predicted_answerable``."""
    for _, p in pairs:
        if p.answerable is None:
            raise ClaimlabInputError(
                "no predicted_answerable, and the gold has unanswerable records (the grouped "
                "figures need every record's prediction; the official script stops here too)",
                record=f"id {p.id}",
                field="predicted_answerable",
            )


def _grouped(
    pairs: Sequence[tuple[MusiqueGold, MusiquePrediction]],
    scored: Mapping[int, tuple[float, float]],
) -> dict[str, Mean]:
    """The answer+sufficiency and support+sufficiency means over questions (twins grouped).

    ``scored``: each answerable record's answer F1 and support F1, by the gold record's ``id()``.
    """
    groups: dict[str, list[tuple[MusiqueGold, MusiquePrediction]]] = {}
    for g, p in pairs:
        groups.setdefault(g.id, []).append((g, p))
    answer = support = 0.0
    fault = _twin_fault({q: [g.answerable for g, _ in m] for q, m in groups.items()})
    if fault is not None:
        raise fault
    for members in groups.values():  # each a question and its unanswerable twin
        answerable = [(g, p) for g, p in members if g.answerable]
        right = [p.answerable for _, p in members] == [g.answerable for g, _ in members]
        answer_f1, support_f1 = scored[id(answerable[0][0])]
        answer += answer_f1 if right else 0.0
        support += support_f1 if right else 0.0
    return {
        "group_answer_sufficiency_f1": Mean(answer, len(groups)),
        "group_support_sufficiency_f1": Mean(support, len(groups)),
    }


class MusiqueGoldError(ClaimlabInputError):
    """The gold file alone is at fault (a question not twinned where others are)."""


def check_twins(gold: Sequence[MusiqueGold]) -> None:
    """Refuse a gold file holding unanswerable records unless every question is there twice.

    Answerable and unanswerable (MuSiQue's full set). :func:`score_musique` checks it before
    naming a pairing problem, so the gold file's own fault is named as its own.

    Raises:
        MusiqueGoldError: naming the first question that is not so (see :func:`_twin_fault`).
    """
    groups: dict[str, list[bool]] = {}
    for g in gold:
        groups.setdefault(g.id, []).append(g.answerable)
    fault = _twin_fault(groups) if not all(map(all, groups.values())) else None
    if fault is not None:
        raise fault


def _twin_fault(groups: Mapping[str, Sequence[bool]]) -> MusiqueGoldError | None:
    """The first question (its records' answerability) not twinned, as an error; None if none.

    One holding an unanswerable record is named first: it is why every question is twinned.
    """
    wrong = [(q, f) for q, f in groups.items() if len(f) != 2 or sum(f) != 1]
    if not wrong:
        return None
    qid, flags = next(((q, f) for q, f in wrong if not all(f)), wrong[0])
    return MusiqueGoldError(
        f"question {qid!r} is there {_times(len(flags))}, {sum(flags)} of them answerable: a "
        "gold file holding unanswerable records holds every question twice, answerable and "
        "unanswerable (MuSiQue's full set); answerable records alone are scored without the "
        "grouped figures",
        record=f"id {qid}",
        field="answerable",
    )


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _support_f1(predicted: frozenset[int], gold: frozenset[int]) -> float:
    return 1.0 if not predicted and not gold else set_prf(predicted, gold)[0]


@bulk_load()  # a pass over acyclic records: no garbage cycle to collect
def score_musique(
    gold: Sequence[MusiqueGold], preds: Sequence[MusiquePrediction]
) -> OfficialScores:
    """MuSiQue's figures (see the module's definitions).

    Raises:
        ClaimlabInputError: a gold record without a prediction or the reverse (an id predicted
            more often than the gold has it); with unanswerable records, a question that is
            not there exactly twice, or a prediction without ``predicted_answerable``.
    """
    try:
        pairs = _pair_musique(gold, preds)
    except ClaimlabInputError:
        check_twins(gold)  # a gold file not twinned throughout: its own fault, named first
        raise
    answerable = [(g, p) for g, p in pairs if g.answerable]
    ems, f1s = [], []
    normal = iter(
        official_normalise_all([t for g, p in answerable for t in (p.answer, *g.answers)])
    )
    for g, _ in answerable:  # each text normalised once, for EM and F1 both
        said, golds = next(normal), [next(normal) for _ in g.answers]
        ems.append(max(float(said == a) for a in golds))
        f1s.append(max(_normalised_squad2_f1(said, a) for a in golds))
    sps = [_support_f1(p.support, g.support) for g, p in answerable]
    em, f1, sp = sum(ems), sum(f1s), sum(sps)
    n = len(answerable)
    figures: dict[str, Mean] = {
        "answer_f1": Mean(f1, n),
        "answer_em": Mean(em, n),
        "support_f1": Mean(sp, n),
    }
    if len(answerable) < len(pairs):
        _check_answerable_given(pairs)
        scored = {id(g): (f, s) for (g, _), f, s in zip(answerable, f1s, sps, strict=True)}
        figures.update(_grouped(pairs, scored))
    counts = {"records": len(pairs), "answerable": n, "unanswerable": len(pairs) - n}
    return OfficialScores(figures, counts)
