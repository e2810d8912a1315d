"""The HotpotQA and MuSiQue readers' fast path is their field-by-field reading, and the
scores' token overlap is the official multiset intersection.

Invariants: for any file, reading it with the fast path gives the same records, or the same
error (file, record, field and words), as reading every record field by field; the scores of
any gold and predictions are those of the official definitions restated plainly here (per
question, a row of twelve figures; ``Counter`` intersections), float for float.
"""

import json
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.io import official
from claimlab.metrics.multihop_scores import (
    HOTPOT_METRICS,
    official_normalise,
    score_hotpotqa,
    score_musique,
    set_prf,
    shared_tokens,
)

tokens = st.lists(st.sampled_from(["a", "b", "c", "ก", "가", "ı"]), max_size=6)


@settings(max_examples=500, deadline=None)
@given(tokens, tokens)
def test_shared_tokens_is_the_counter_intersection(pt, gt):
    assert shared_tokens(pt, gt) == sum((Counter(pt) & Counter(gt)).values())


# ------------------------------------------------------------------ the readers
texts = st.text(alphabet="aı ก가\u0301e\u0308", max_size=3)
odd = st.sampled_from([None, True, False, 1.5, 0, -1, "x", "", [], {}, ["t"], [1, 2]])


def _maybe(good):
    """Mostly a good value (the fast path is taken), one time in eight anything."""
    return st.integers(0, 7).flatmap(lambda n: odd if n == 0 else good)


fact = _maybe(st.tuples(texts, st.integers(-2, 3)).map(list))
facts = _maybe(st.lists(fact, max_size=3))
sentences = _maybe(st.lists(_maybe(texts), max_size=2))
paragraph = _maybe(st.tuples(texts, sentences).map(list))


hotpot_gold = st.one_of(
    st.fixed_dictionaries(
        {
            "_id": _maybe(st.sampled_from(["h1", "h2", "h3", "he\u0308"])),
            "answer": _maybe(texts),
            "supporting_facts": st.one_of(st.lists(fact, max_size=3), facts),
        },
        optional={
            "question": _maybe(texts),
            "context": st.one_of(st.lists(paragraph, max_size=2), odd),
        },
    ),
    odd,
)


def musique_paragraphs(texts, maybe):
    """A MuSiQue paragraph, each value now and then anything (``maybe``)."""
    return maybe(
        st.fixed_dictionaries(
            {"idx": maybe(st.integers(0, 3))},
            optional={
                "is_supporting": maybe(st.booleans()),
                "title": maybe(texts),
                "paragraph_text": maybe(texts),
            },
        )
    )


musique_paragraph = musique_paragraphs(texts, _maybe)
musique_gold = st.one_of(
    st.fixed_dictionaries(
        {
            "id": _maybe(st.sampled_from(["m1", "m2", 7, "me\u0308"])),
            "answer": _maybe(texts),
            "paragraphs": _maybe(st.lists(musique_paragraph, max_size=3)),
        },
        optional={
            "answer_aliases": _maybe(st.lists(_maybe(texts), max_size=2)),
            "answerable": _maybe(st.booleans()),
            "question": _maybe(texts),
        },
    ),
    odd,
)
musique_prediction = st.one_of(
    st.fixed_dictionaries(
        {
            "id": _maybe(st.sampled_from(["m1", "m2", 7])),
            "predicted_answer": _maybe(texts),
            "predicted_support_idxs": st.one_of(
                st.lists(_maybe(st.integers(0, 3)), max_size=3), odd
            ),
        },
        optional={"predicted_answerable": st.one_of(st.booleans(), odd)},
    ),
    odd,
)
hotpot_prediction = st.fixed_dictionaries(
    {
        "answer": st.dictionaries(st.sampled_from(["h1", "h2", "h3"]), _maybe(texts)),
        "sp": st.dictionaries(st.sampled_from(["h1", "h2", "x"]), facts),
    }
)

# generated bad structures by the thousand: the hostile tier (make test, not make test-fast)
HOSTILE = pytest.mark.hostile

READERS = {
    "hotpot_gold": (official.load_hotpot_gold, ["_hotpot_gold_fast"]),
    "hotpot_predictions": (official.load_hotpot_predictions, ["_facts_fast"]),
    "musique_gold": (official.load_musique_gold, ["_musique_gold_fast"]),
    "musique_predictions": (official.load_musique_predictions, ["_musique_prediction_fast"]),
}


def _outcome(load, path):
    try:
        return ("read", load(path))
    except ClaimlabInputError as exc:
        return ("refused", str(exc), exc.field)


def _both_ways(name, content, suffix):
    """The reader's outcome on ``content`` with its fast path, and with every record walked."""
    load, fast = READERS[name]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"file{suffix}"
        if suffix == ".jsonl":
            path.write_text("".join(json.dumps(x) + "\n" for x in content), encoding="utf-8")
        else:
            path.write_text(json.dumps(content), encoding="utf-8")
        quick = _outcome(load, path)
        with pytest.MonkeyPatch.context() as m:
            for f in fast:
                m.setattr(official, f, lambda *_a: None)
            walked = _outcome(load, path)
    return quick, walked


# each reader: the files it reads (their contents), and the suffixes it takes
FILES = {
    "hotpot_gold": (st.lists(hotpot_gold, max_size=4), (".json", ".jsonl")),
    "hotpot_predictions": (hotpot_prediction, (".json",)),
    "musique_gold": (st.lists(musique_gold, max_size=4), (".json", ".jsonl")),
    "musique_predictions": (st.lists(musique_prediction, max_size=4), (".json", ".jsonl")),
}


@HOSTILE
@pytest.mark.parametrize("name", sorted(FILES))
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_a_file_read_fast_is_read_field_by_field(name, data):
    contents, suffixes = FILES[name]
    quick, walked = _both_ways(name, data.draw(contents), data.draw(st.sampled_from(suffixes)))
    assert quick == walked


@HOSTILE
def test_the_generated_files_take_the_fast_path_and_the_refusals():
    """The strategies above reach both: files read, and files refused (not only one kind)."""
    seen = set()

    @settings(max_examples=200, deadline=None)
    @given(st.lists(hotpot_gold, max_size=3))
    def look(gold):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "g.json"
            path.write_text(json.dumps(gold), encoding="utf-8")
            seen.add(_outcome(official.load_hotpot_gold, path)[0])

    look()
    assert seen == {"read", "refused"}


# ------------------------------------------------------------------ the scores
answers = st.lists(st.sampled_from(["a", "the", " ", "b", ".", "yes", "no", "ก"]), max_size=6).map(
    "".join
)
ids = st.sampled_from(["q1", "q2", "q3", "q4"])
fact_sets = st.frozensets(st.tuples(st.sampled_from(["T", "U"]), st.integers(0, 2)), max_size=3)


def _plain_hotpot(gold, preds):
    """The HotpotQA definitions, per question a dict of twelve, summed question by question."""

    def prf(p, g):
        if (p in ("yes", "no", "noanswer") or g in ("yes", "no", "noanswer")) and p != g:
            return 0.0, 0.0, 0.0
        pt, gt = p.split(), g.split()
        same = sum((Counter(pt) & Counter(gt)).values())
        if same == 0:
            return 0.0, 0.0, 0.0
        prec, rec = same / len(pt), same / len(gt)
        return 2 * prec * rec / (prec + rec), prec, rec

    totals = dict.fromkeys(HOTPOT_METRICS, 0.0)
    for g in gold:
        row = dict.fromkeys(HOTPOT_METRICS, 0.0)
        if g.id in preds.answers:
            said, want = official_normalise(preds.answers[g.id]), official_normalise(g.answer)
            f1, prec, rec = prf(said, want)
            row.update(em=float(said == want), f1=f1, prec=prec, recall=rec)
        if g.id in preds.facts:
            f1, prec, rec, em = set_prf(set(preds.facts[g.id]), set(g.facts))
            row.update(sp_em=em, sp_f1=f1, sp_prec=prec, sp_recall=rec)
        if g.id in preds.answers and g.id in preds.facts:
            jp, jr = row["prec"] * row["sp_prec"], row["recall"] * row["sp_recall"]
            row.update(
                joint_prec=jp,
                joint_recall=jr,
                joint_f1=2 * jp * jr / (jp + jr) if jp + jr > 0 else 0.0,
                joint_em=row["em"] * row["sp_em"],
            )
        for k, v in row.items():
            totals[k] += v
    return totals


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(ids, st.tuples(answers, fact_sets), min_size=1),
    st.dictionaries(ids, answers),
    st.dictionaries(ids, fact_sets),
)
def test_hotpot_scores_are_the_definitions_float_for_float(gold_by_id, said, facts):
    gold = [official.HotpotGold(i, a, f) for i, (a, f) in gold_by_id.items()]
    preds = official.HotpotPredictions(said, facts)
    got = score_hotpotqa(gold, preds).figures
    want = _plain_hotpot(gold, preds)
    assert {k: got[k].total for k in HOTPOT_METRICS} == want


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            answers, st.lists(answers, max_size=2), answers, st.frozensets(st.integers(0, 3))
        ),
        min_size=1,
        max_size=5,
    )
)
def test_musique_answer_figures_are_the_definitions_float_for_float(rows):
    gold, preds = [], []
    for n, (answer, aliases, said, support) in enumerate(rows):
        gold.append(official.MusiqueGold(f"m{n}", (answer, *aliases), frozenset({0}), True))
        preds.append(official.MusiquePrediction(f"m{n}", said, support, True))
    figures = score_musique(gold, preds).figures
    em = sum(
        max(float(official_normalise(p.answer) == official_normalise(a)) for a in g.answers)
        for g, p in zip(gold, preds, strict=True)
    )
    assert figures["answer_em"].total == em
    assert figures["answer_f1"].total == sum(
        max(_squad2_f1(p.answer, a) for a in g.answers) for g, p in zip(gold, preds, strict=True)
    )


def _squad2_f1(p, g):
    """SQuAD 2.0's token F1 (MuSiQue's), restated plainly."""
    pt, gt = official_normalise(p).split(), official_normalise(g).split()
    if not pt or not gt:
        return float(pt == gt)
    same = sum((Counter(pt) & Counter(gt)).values())
    if same == 0:
        return 0.0
    prec, rec = same / len(pt), same / len(gt)
    return 2 * prec * rec / (prec + rec)


def _support_f1(predicted, gold):
    if not predicted and not gold:
        return 1.0
    tp = len(predicted & gold)
    prec = tp / len(predicted) if predicted else 0.0
    rec = tp / len(gold) if gold else 0.0
    return 2 * prec * rec / (prec + rec) if prec + rec else 0.0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.tuples(answers, st.lists(answers, max_size=2), st.frozensets(st.integers(0, 3))),
            st.tuples(answers, st.frozensets(st.integers(0, 3)), st.booleans()),
            st.tuples(answers, st.frozensets(st.integers(0, 3)), st.booleans()),
            st.booleans(),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_musique_grouped_figures_are_the_definitions_float_for_float(questions):
    """Each question twice (answerable, then its unanswerable twin, in either order): the grouped
    figures are, per question, the answerable record's answer (support) F1 when both
    predictions say answerable rightly, else 0, summed in the questions' order."""
    gold, preds, answer, support = [], [], 0.0, 0.0
    for n, ((text, aliases, sup), (said, got, yes), (_, twin_got, twin_yes), first) in enumerate(
        questions
    ):
        g = official.MusiqueGold(f"m{n}", (text, *aliases), sup, True)
        twin = official.MusiqueGold(f"m{n}", (text, *aliases), frozenset(), False)
        p = official.MusiquePrediction(f"m{n}", said, got, yes)
        q = official.MusiquePrediction(f"m{n}", "", twin_got, twin_yes)
        gold += [g, twin] if first else [twin, g]
        preds += [p, q] if first else [q, p]
        right = yes is True and twin_yes is False
        answer += max(_squad2_f1(said, a) for a in g.answers) if right else 0.0
        support += _support_f1(got, sup) if right else 0.0
    figures = score_musique(gold, preds).figures
    assert figures["group_answer_sufficiency_f1"].total == answer
    assert figures["group_support_sufficiency_f1"].total == support


@pytest.mark.parametrize("name", sorted(READERS))
def test_each_fast_path_named_here_exists(name):
    """A renamed fast path would make the tests above compare the walk with itself."""
    for f in READERS[name][1]:
        assert callable(getattr(official, f))
