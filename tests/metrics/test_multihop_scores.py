"""The official HotpotQA and MuSiQue figures, table-driven against hand computations."""

import json

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.official import (
    HotpotGold,
    HotpotPredictions,
    MusiqueGold,
    MusiquePrediction,
    load_hotpot_gold,
    load_hotpot_predictions,
    load_musique_gold,
    load_musique_predictions,
)
from claimlab.metrics.multihop_scores import (
    official_normalise,
    score_hotpotqa,
    score_musique,
    set_prf,
    squad2_f1,
    token_prf,
)

NORMALISE = [
    ("The Eiffel Tower", "eiffel tower"),
    ("  a  B.C.  ", "bc"),  # ASCII punctuation is deleted, not spaced
    ("U.S.-born", "usborn"),
    ("An apple, the end!", "apple end"),
    ("théâtre « Molière »", "théâtre « molière »"),  # only ASCII punctuation goes
    ("anthem", "anthem"),  # articles only as whole words
    ("", ""),
]


@pytest.mark.parametrize(("text", "want"), NORMALISE)
def test_official_normalisation(text, want):
    assert official_normalise(text) == want


# (prediction, gold, (f1, precision, recall)) the HotpotQA way, worked by hand
HOTPOT_TOKENS = [
    ("the Eiffel Tower", "Eiffel Tower", (1.0, 1.0, 1.0)),  # exact after normalisation
    ("Eiffel Tower in Paris", "Eiffel Tower", (2 * 0.5 * 1 / 1.5, 0.5, 1.0)),  # partial
    ("Paris France", "Lyon", (0.0, 0.0, 0.0)),
    ("yes", "no", (0.0, 0.0, 0.0)),
    ("yes", "yes", (1.0, 1.0, 1.0)),
    ("yes it is", "yes", (0.0, 0.0, 0.0)),  # a yes/no gold needs the exact word
    ("no", "no way", (0.0, 0.0, 0.0)),  # a yes/no prediction scores 0 unless equal
    ("", "Eiffel Tower", (0.0, 0.0, 0.0)),  # empty prediction
    ("tower tower", "tower", (2 * 0.5 * 1 / 1.5, 0.5, 1.0)),  # a repeated token counts once
]


@pytest.mark.parametrize(("pred", "gold", "want"), HOTPOT_TOKENS)
def test_hotpot_token_scores(pred, gold, want):
    assert token_prf(pred, gold) == pytest.approx(want)


@pytest.mark.parametrize(
    ("pred", "gold", "want"),
    [
        ("", "", 1.0),
        ("", "x", 0.0),
        ("x", "", 0.0),
        ("x y", "y z", 0.5),
        ("a b", "b c", 2 / 3),
        ("The A", "a", 1.0),
    ],
)
def test_musique_f1_is_squad2s(pred, gold, want):
    # "The A" normalises to "" (both words are articles): empty against empty scores 1
    assert squad2_f1(pred, gold) == pytest.approx(want)


@pytest.mark.parametrize(
    ("pred", "gold", "want"),
    [
        ({1, 2}, {1, 2}, (1.0, 1.0, 1.0, 1.0)),
        ({1, 3}, {1, 2}, (0.5, 0.5, 0.5, 0.0)),
        (set(), {1}, (0.0, 0.0, 0.0, 0.0)),
        ({1, 2, 3, 4}, {1}, (0.4, 0.25, 1.0, 0.0)),
        (set(), set(), (0.0, 0.0, 0.0, 1.0)),  # HotpotQA: EM 1, F1 0 (MuSiQue makes F1 1)
    ],
)
def test_set_scores(pred, gold, want):
    assert set_prf(pred, gold) == pytest.approx(want)


def test_hotpot_means_over_gold_a_missing_prediction_scores_zero():
    gold = [
        HotpotGold("q1", "Eiffel Tower", frozenset({("Paris", 0), ("Tower", 1)})),
        HotpotGold("q2", "yes", frozenset({("A", 0)})),
        HotpotGold("q3", "Lyon", frozenset({("B", 2)})),
    ]
    preds = HotpotPredictions(
        {"q1": "Eiffel Tower in Paris", "q2": "yes", "x9": "stray"},
        {"q1": frozenset({("Paris", 0)}), "q2": frozenset({("A", 0)}), "q3": frozenset({("B", 2)})},
    )
    s = score_hotpotqa(gold, preds)
    f = {k: v.value for k, v in s.figures.items()}
    q1_f1 = 2 * 0.5 * 1 / 1.5
    assert f["em"] == pytest.approx(1 / 3) and f["f1"] == pytest.approx((q1_f1 + 1) / 3)
    assert f["sp_em"] == pytest.approx(2 / 3)
    assert f["sp_f1"] == pytest.approx((2 * 1 * 0.5 / 1.5 + 1 + 1) / 3)
    # joint: q1 precision 0.5 x 1.0, recall 1.0 x 0.5; q2 all 1; q3 has no answer: 0
    jp, jr = 0.5, 0.5
    assert f["joint_prec"] == pytest.approx((jp + 1) / 3)
    assert f["joint_f1"] == pytest.approx((2 * jp * jr / (jp + jr) + 1) / 3)
    assert f["joint_em"] == pytest.approx(1 / 3)
    assert s.counts["missing_answer"] == 1 and s.counts["predictions_not_in_gold"] == 1
    assert all(v.count == 3 for v in s.figures.values())


def test_no_gold_question_is_na_not_zero():
    s = score_hotpotqa([], HotpotPredictions({}, {}))
    assert all(v.value is None for v in s.figures.values())
    assert s.figures["em"].display == "N/A (no question)"


def mg(qid, answer, support, answerable=True, aliases=()):
    return MusiqueGold(qid, (answer, *aliases), frozenset(support), answerable)


def mp(qid, answer, support, answerable=True):
    return MusiquePrediction(qid, answer, frozenset(support), answerable)


def test_musique_answerable_only_answer_and_support_f1():
    gold = [mg("a", "G. Stanley Hall", {6, 10}, aliases=("Stanley Hall",)), mg("b", "Paris", {1})]
    preds = [mp("a", "Stanley Hall", {6, 3}), mp("b", "", set())]
    s = score_musique(gold, preds)
    f = {k: v.value for k, v in s.figures.items()}
    assert f["answer_em"] == pytest.approx(0.5)  # the alias matches exactly
    assert f["answer_f1"] == pytest.approx(0.5)
    assert f["support_f1"] == pytest.approx(0.5 / 2)  # {6,3} vs {6,10}: F1 0.5; b: 0
    assert set(f) == {"answer_f1", "answer_em", "support_f1"}


def test_musique_unanswerable_twin_grouped_figures():
    gold = [
        mg("a", "Paris", {1, 2}),
        mg("a", "Paris", {1}, answerable=False),  # the twin: same id, not answerable
        mg("b", "Lyon", {3}),
        mg("b", "Lyon", set(), answerable=False),
    ]
    preds = [
        mp("a", "Paris", {1, 2}, True),
        mp("a", "Paris", {1}, False),  # both sufficiency predictions right
        mp("b", "Lyon", {3}, True),
        mp("b", "Lyon", {3}, True),  # the twin called answerable: group scores 0
    ]
    s = score_musique(gold, preds)
    f = {k: v.value for k, v in s.figures.items()}
    assert f["answer_f1"] == 1.0 and f["support_f1"] == 1.0  # answerable records only
    assert f["group_answer_sufficiency_f1"] == pytest.approx(0.5)
    assert f["group_support_sufficiency_f1"] == pytest.approx(0.5)
    assert s.counts == {"records": 4, "answerable": 2, "unanswerable": 2}


def test_musique_refuses_a_gold_record_without_prediction_and_a_lone_unanswerable():
    with pytest.raises(ClaimlabInputError, match="'b' has no prediction"):
        score_musique([mg("a", "x", {1}), mg("b", "y", {2})], [mp("a", "x", {1})])
    with pytest.raises(ClaimlabInputError, match="twice, answerable and unanswerable"):
        score_musique([mg("a", "x", {1}, answerable=False)], [mp("a", "x", {1})])


def test_official_formats_read_from_json_and_jsonl(tmp_path):
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"_id": "q1", "answer": "x", "supporting_facts": [["T", 0]]}]))
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps({"answer": {"q1": "x"}, "sp": {"q1": [["T", 0]]}}))
    lines = tmp_path / "pred.jsonl"
    lines.write_text(json.dumps({"_id": "q1", "answer": "x", "sp": [["T", 0]]}) + "\n")
    g = load_hotpot_gold(gold)
    for p in (pred, lines):
        assert score_hotpotqa(g, load_hotpot_predictions(p)).figures["joint_em"].value == 1.0
    mgold = tmp_path / "m.jsonl"
    mgold.write_text(
        json.dumps({"id": "m", "answer": "x", "answer_aliases": [], "answerable": True,
                    "paragraphs": [{"idx": 0, "is_supporting": True}]}) + "\n"
    )  # fmt: skip
    mpred = tmp_path / "mp.jsonl"
    mpred.write_text(
        json.dumps({"id": "m", "predicted_answer": "x", "predicted_support_idxs": [0],
                    "predicted_answerable": True}) + "\n"
    )  # fmt: skip
    s = score_musique(load_musique_gold(mgold), load_musique_predictions(mpred))
    assert s.figures["support_f1"].value == 1.0


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ([{"_id": "q", "answer": 3, "supporting_facts": []}], "answer"),
        ([{"_id": "q", "answer": "x", "supporting_facts": [["T", "0"]]}], "supporting_facts[0]"),
        ([{"_id": "q", "answer": "x"}], "supporting_facts"),
        ([{"_id": "q", "answer": "x", "supporting_facts": []}] * 2, "_id"),
    ],
)
def test_bad_gold_names_record_and_field(tmp_path, doc, field):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ClaimlabInputError) as err:
        load_hotpot_gold(path)
    assert err.value.field == field and "g.json" in str(err.value)
