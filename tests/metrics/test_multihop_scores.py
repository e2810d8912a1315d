"""The official HotpotQA and MuSiQue figures, table-driven against hand computations."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
from tests.conftest import run_cli

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
    # precision and recall both below 1 and unequal: 2 of 3 predicted, 2 of 4 gold
    ("Eiffel Tower Paris", "Eiffel Tower in France", (4 / 7, 2 / 3, 0.5)),
    ("Eiffel", "Eiffel Tower in France", (0.4, 1.0, 0.25)),  # "in" is a word, not an article
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
        ("Paris", "Lyon", 0.0),  # nothing in common, neither side empty
        ("x y z", "x w", 2 * (1 / 3) * 0.5 / (1 / 3 + 0.5)),
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


def test_hotpot_joint_figures_and_counts_when_one_part_is_wrong():
    """Joint precision and recall multiply the answer's and the facts' (neither 1); an answer
    that shares nothing gives a joint F1 of 0 (0/0 is never divided), facts or no facts."""
    gold = [
        HotpotGold("q1", "Eiffel Tower in France", frozenset({("A", 0), ("B", 1)})),
        HotpotGold("q2", "Lyon", frozenset({("C", 0)})),
        HotpotGold("q3", "Rome", frozenset({("D", 0)})),
    ]
    preds = HotpotPredictions(
        {"q1": "Eiffel Tower Paris", "q2": "Paris"},  # q1 partial; q2 wrong; q3 none
        {"q1": frozenset({("A", 0), ("X", 9), ("Y", 8)}), "q2": frozenset({("C", 0)})},
    )
    s = score_hotpotqa(gold, preds)
    f = {k: v.value for k, v in s.figures.items()}
    jp, jr = (2 / 3) * (1 / 3), 0.5 * 0.5  # q1: answer P 2/3 R 1/2, facts P 1/3 R 1/2
    assert f["joint_prec"] == pytest.approx(jp / 3)
    assert f["joint_recall"] == pytest.approx(jr / 3)
    assert f["joint_f1"] == pytest.approx(2 * jp * jr / (jp + jr) / 3)  # q2 and q3 give 0
    assert f["joint_em"] == 0.0 and f["sp_em"] == pytest.approx(1 / 3)
    assert s.counts == {
        "questions": 3,
        "answered": 2,
        "with_supporting_facts": 2,
        "missing_answer": 1,
        "missing_supporting_facts": 1,
        "predictions_not_in_gold": 0,
    }
    assert s.to_dict()["counts"] == s.counts and s.to_dict()["joint_em"] == 0.0
    assert s.to_dict()["figures"]["em"] == {
        "value": 0.0, "total": 0.0, "count": 3, "display": "0.0% (mean of 3)"
    }  # fmt: skip
    with pytest.raises(TypeError):
        s.figures["em"] = None
    with pytest.raises(TypeError):
        s.counts["questions"] = 0


def test_musique_support_f1_of_empty_sets_and_unequal_precision_and_recall():
    gold = [mg("a", "x", set()), mg("b", "y", set()), mg("c", "z", {6, 10})]
    preds = [mp("a", "x", set()), mp("b", "y", {1}), mp("c", "z", {6, 3, 4})]
    f = {k: v.value for k, v in score_musique(gold, preds).figures.items()}
    # a: nothing against nothing 1; b: a fact where none is 0; c: P 1/3, R 1/2, F1 0.4
    assert f["support_f1"] == pytest.approx((1 + 0 + 0.4) / 3)


def test_musique_grouped_figures_are_not_symmetric_in_right_and_wrong():
    gold = [
        mg("a", "Paris", {1}),
        mg("a", "Paris", {1}, answerable=False),
        mg("b", "Lyon", {3}),
        mg("b", "Lyon", set(), answerable=False),
        mg("c", "Rome", {5}),
        mg("c", "Rome", set(), answerable=False),
    ]
    preds = [
        mp("a", "Paris", {1}, True),
        mp("a", "", set(), False),  # right on sufficiency: counts 1, 1
        mp("b", "Lyon", {3}, True),
        mp("b", "Lyon", {3}, True),  # the twin called answerable: 0, 0
        mp("c", "Rome", {5, 7}, True),
        mp("c", "", set(), False),  # right: answer 1, support 2/3
    ]
    f = {k: v.value for k, v in score_musique(gold, preds).figures.items()}
    assert f["group_answer_sufficiency_f1"] == pytest.approx(2 / 3)
    assert f["group_support_sufficiency_f1"] == pytest.approx((1 + 2 / 3) / 3)


@pytest.mark.parametrize(
    ("gold", "preds", "message", "field"),
    [
        ([mg("a", "x", {1}), mg("b", "y", {2})], [mp("a", "x", {1})],
         "gold record 'b' has no prediction (every record needs one)", "id"),
        ([mg("a", "x", {1})], [mp("a", "x", {1}), mp("z", "x", {1}), mp("y", "x", {1})],
         "prediction 'z' has no gold record", "id"),
        ([mg("a", "x", {1}), mg("a", "x", {1}), mg("b", "y", {2}),
          mg("b", "y", {2}, answerable=False)],
         [mp("a", "x", {1}), mp("a", "x", {1}), mp("b", "y", {2}), mp("b", "y", {2})],
         "question 'a' is there twice, 2 of them answerable: a gold file holding unanswerable "
         "records holds every question twice", "answerable"),
        # one question alone among twinned ones (a mixed file)
        ([mg("a", "x", {1}), mg("b", "y", {2}), mg("b", "y", set(), answerable=False)],
         [mp("a", "x", {1}, True), mp("b", "y", {2}, True), mp("b", "", set(), False)],
         "question 'a' is there once, 1 of them answerable: a gold file holding unanswerable "
         "records holds every question twice", "answerable"),
        # no twin at all, one record unanswerable: that record's question is named
        ([mg("a", "x", {1}), mg("b", "y", set(), answerable=False)],
         [mp("a", "x", {1}, True), mp("b", "", set(), False)],
         "question 'b' is there once, 0 of them answerable", "answerable"),
    ],
    ids=["no-prediction", "no-gold", "twice-answerable", "once-among-twins", "lone-unanswerable"],
)  # fmt: skip
def test_musique_pairing_errors_name_the_record_and_the_field(gold, preds, message, field):
    with pytest.raises(ClaimlabInputError) as err:
        score_musique(gold, preds)
    assert err.value.problem.startswith(message)
    assert err.value.field == field


def test_a_gold_file_not_twinned_throughout_is_named_not_the_predictions(tmp_path):
    """A question once where the gold file has unanswerable twins is the gold file's fault:
    the error names it (and the question), not the predictions file."""
    rows = [("q1", True), ("q2", True), ("q2", False)]
    gold = [{"id": q, "answer": "x", "answer_aliases": [], "answerable": a,
             "paragraphs": [{"idx": 0, "is_supporting": a}]} for q, a in rows]  # fmt: skip
    pred = [{"id": q, "predicted_answer": "x" if a else "", "predicted_answerable": a,
             "predicted_support_idxs": [0] if a else []} for q, a in rows]  # fmt: skip
    g, p = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    g.write_text("".join(json.dumps(r) + "\n" for r in gold), encoding="utf-8")
    p.write_text("".join(json.dumps(r) + "\n" for r in pred), encoding="utf-8")
    proc = run_cli("musique", g, p)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert f"{g}: id q1: answerable: question 'q1' is there once" in proc.stderr
    assert str(p) not in proc.stderr
    # predictions made for a well-twinned set (q1 twice) still see the gold file named first
    twinned = [pred[0], {**pred[0], "predicted_answerable": False}, *pred[1:]]
    p.write_text("".join(json.dumps(r) + "\n" for r in twinned), encoding="utf-8")
    proc = run_cli("musique", g, p)
    assert proc.returncode == 2 and f"{g}: id q1: answerable: question 'q1'" in proc.stderr


# --- official edges: ids and keys the official scripts would not match --------------------------

HG = {"answer": "x", "supporting_facts": [["T", 0]]}

# (case, file name, file text, field, words in the message): each refused in one error
REFUSED = [
    ("hotpot gold _id a number", "g.json", json.dumps([{"_id": 5, **HG}]), "_id", "a string"),
    ("hotpot gold _id null", "g.json", json.dumps([{"_id": None, **HG}]), "_id", "a string"),
]
PRED_REFUSED = [
    ("misspelt keys answers, supporting_facts", "p.json",
     json.dumps({"answers": {"q1": "x"}, "supporting_facts": {"q1": [["T", 0]]}}),
     "answer", "expected the keys answer, sp"),
    ("sp misspelt only", "p.json", json.dumps({"answer": {"q1": "x"}, "supporting_facts": {}}),
     "sp", "sp missing"),
    ("jsonl misspelt keys", "p.jsonl",
     json.dumps({"_id": "q1", "answers": "x", "supporting_facts": [["T", 0]]}) + "\n",
     "answer", "expected the keys _id, answer, sp"),
    ("jsonl _id twice", "p.jsonl",
     "".join(json.dumps({"_id": "q1", "answer": a, "sp": []}) + "\n" for a in ("x", "y")),
     "_id", "'q1' appears twice"),
    ("jsonl _id twice, Turkish answer", "p.jsonl",
     "".join(json.dumps({"_id": "ş1", "answer": a, "sp": []}) + "\n" for a in ("öder", "ödemez")),
     "_id", "'ş1' appears twice"),
    ("jsonl _id a number", "p.jsonl", json.dumps({"_id": 1, "answer": "x", "sp": []}) + "\n",
     "_id", "a string"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "name", "text", "field", "words"), REFUSED + PRED_REFUSED,
                         ids=[c[0] for c in REFUSED + PRED_REFUSED])  # fmt: skip
def test_hotpot_files_the_official_script_would_misread_are_refused(
    tmp_path, case, name, text, field, words
):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    loader = load_hotpot_gold if name.startswith("g") else load_hotpot_predictions
    with pytest.raises(ClaimlabInputError) as err:
        loader(path)
    assert err.value.field == field and err.value.file == str(path) and words in err.value.problem


def test_hotpot_misspelt_keys_exit_2_in_one_line_naming_the_file(tmp_path):
    gold, pred = tmp_path / "g.json", tmp_path / "p.json"
    gold.write_text(json.dumps([{"_id": "q1", **HG}]))
    pred.write_text(json.dumps({"answers": {"q1": "x"}, "supporting_facts": {"q1": [["T", 0]]}}))
    proc = run_cli("hotpotqa", gold, pred)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert str(pred) in proc.stderr and "expected the keys answer, sp" in proc.stderr


def mrow(qid, answerable=True, **extra):
    return {"id": qid, "answer": "x", "answer_aliases": [], "answerable": answerable,
            "paragraphs": [{"idx": 0, "is_supporting": True}], **extra}  # fmt: skip


def prow(qid, answerable=None):
    row = {"id": qid, "predicted_answer": "x", "predicted_support_idxs": [0]}
    return row if answerable is None else {**row, "predicted_answerable": answerable}


def jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


# (case, gold rows, prediction rows, field, words)
MUSIQUE_REFUSED = [
    ("no predicted_answerable with an unanswerable twin",
     [mrow("a"), mrow("a", False)], [prow("a"), prow("a")], "predicted_answerable",
     "no predicted_answerable, and the gold has unanswerable records"),
    ("one record lacks it, Turkish id",
     [mrow("ç"), mrow("ç", False)], [prow("ç", True), prow("ç")], "predicted_answerable",
     "no predicted_answerable"),
    ("a prediction id twice, the gold once",
     [mrow("a"), mrow("b")], [prow("a", True), prow("a", True), prow("b", True)], "id",
     "'a' appears 2 times; the gold has it 1 time"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "gold", "preds", "field", "words"), MUSIQUE_REFUSED,
                         ids=[c[0] for c in MUSIQUE_REFUSED])  # fmt: skip
def test_musique_predictions_that_cannot_be_scored_are_refused(
    tmp_path, case, gold, preds, field, words
):
    g = load_musique_gold(jsonl(tmp_path / "g.jsonl", gold))
    p = load_musique_predictions(jsonl(tmp_path / "p.jsonl", preds))
    with pytest.raises(ClaimlabInputError) as err:
        score_musique(g, p)
    assert err.value.field == field and words in err.value.problem


@pytest.mark.parametrize(
    ("rows", "words"),
    [([mrow("a"), mrow("a")], "'a' appears 2 times"),
     ([mrow("a"), mrow("a", False), mrow("a", False)], "'a' appears 3 times")],
    ids=["twice-answerable", "three-times"],
)  # fmt: skip
def test_musique_gold_ids_appear_once_or_as_twins(tmp_path, rows, words):
    with pytest.raises(ClaimlabInputError) as err:
        load_musique_gold(jsonl(tmp_path / "g.jsonl", rows))
    assert err.value.field == "id" and words in err.value.problem and "g.jsonl" in str(err.value)


def test_musique_without_predicted_answerable_is_fine_when_every_record_is_answerable(tmp_path):
    g = load_musique_gold(jsonl(tmp_path / "g.jsonl", [mrow("a")]))
    p = load_musique_predictions(jsonl(tmp_path / "p.jsonl", [prow("a")]))
    assert p[0].answerable is None
    assert score_musique(g, p).figures["answer_f1"].value == 1.0


def test_musique_missing_predicted_answerable_exit_2_naming_the_file(tmp_path):
    gold = jsonl(tmp_path / "g.jsonl", [mrow("a"), mrow("a", False)])
    pred = jsonl(tmp_path / "p.jsonl", [prow("a"), prow("a")])
    proc = run_cli("musique", gold, pred)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert f"{pred}: id a: predicted_answerable: no predicted_answerable" in proc.stderr


@st.composite
def hotpot_rows(draw):
    ids = draw(st.lists(st.sampled_from(["q1", "q2", "q3", "ş4"]), min_size=1, max_size=6))
    return [{"_id": i, "answer": draw(st.sampled_from(["x", "y"])), "sp": [["T", 0]]} for i in ids]


@settings(max_examples=60, deadline=None)
@given(rows=hotpot_rows())
def test_jsonl_predictions_load_iff_ids_are_unique_and_then_equal_the_object_form(
    tmp_path_factory, rows
):
    """Invariant: no prediction is chosen silently: a repeated id is refused, and a file that
    loads gives the figures of the official object form of the same predictions."""
    tmp = tmp_path_factory.mktemp("hp")
    ids = [r["_id"] for r in rows]
    gold = [HotpotGold(i, "x", frozenset({("T", 0)})) for i in dict.fromkeys(ids)]
    path = jsonl(tmp / "p.jsonl", rows)
    if len(set(ids)) < len(ids):
        with pytest.raises(ClaimlabInputError, match="appears twice"):
            load_hotpot_predictions(path)
        return
    obj = tmp / "p.json"
    obj.write_text(json.dumps({"answer": {r["_id"]: r["answer"] for r in rows},
                               "sp": {r["_id"]: r["sp"] for r in rows}}))  # fmt: skip
    a = score_hotpotqa(gold, load_hotpot_predictions(path)).to_dict()
    assert a == score_hotpotqa(gold, load_hotpot_predictions(obj)).to_dict()


@settings(max_examples=60, deadline=None)
@given(
    questions=st.integers(1, 4),
    twinned=st.booleans(),
    given_flags=st.lists(st.sampled_from([None, True, False]), min_size=8, max_size=8),
)
def test_musique_scores_iff_answerability_is_given_where_the_gold_needs_it(
    questions, twinned, given_flags
):
    """Invariant: with unanswerable gold records, a prediction without predicted_answerable
    is refused, never read as true; without them, the figures do not depend on it."""
    gold, preds = [], []
    flags = iter(given_flags)
    for i in range(questions):
        gold.append(mg(f"q{i}", "x", {0}))
        preds.append(MusiquePrediction(f"q{i}", "x", frozenset({0}), next(flags)))
        if twinned:
            gold.append(mg(f"q{i}", "x", {0}, answerable=False))
            preds.append(MusiquePrediction(f"q{i}", "", frozenset(), next(flags)))
    if twinned and any(p.answerable is None for p in preds):
        with pytest.raises(ClaimlabInputError, match="no predicted_answerable"):
            score_musique(gold, preds)
        return
    scores = score_musique(gold, preds)
    assert scores.figures["answer_f1"].value == 1.0
    if twinned:
        right = sum(
            preds[2 * i].answerable is True and preds[2 * i + 1].answerable is False
            for i in range(questions)
        )
        assert scores.figures["group_answer_sufficiency_f1"].value == pytest.approx(
            right / questions
        )


def _object_text(pairs, space):
    """A JSON object written from (key, value) pairs as given, repeats kept."""
    return "{" + ", ".join(f"{json.dumps(k)}{space}:{space}{v}" for k, v in pairs) + "}"


@settings(max_examples=60, deadline=None)
@given(
    ids=st.lists(
        st.text(st.sampled_from('ab":\\ çé\u0301'), min_size=1, max_size=5),
        min_size=1,
        max_size=5,
        unique=True,
    ),  # fmt: skip
    where=st.sampled_from(["answer", "sp", None]),
    space=st.sampled_from(["", " ", "\n\t"]),
    data=st.data(),
)
def test_a_question_id_written_twice_is_refused_and_quotes_in_values_are_not(
    tmp_path_factory, ids, where, space, data
):
    """Repeating an id in ``answer`` or ``sp`` (a JSON reader keeps the last) is refused naming
    the map and the id; answers holding quotes and colons are read as they are."""
    from claimlab.core.text import nfc

    assume_unique = len({nfc(i) for i in ids}) == len(ids)
    if not assume_unique:
        return
    answers = [(i, json.dumps(f'{i}": x')) for i in ids]  # a value that looks like a key
    facts = [(i, json.dumps([[i, 0]])) for i in ids]
    twice = data.draw(st.sampled_from(ids))
    if where == "answer":
        answers.append((twice, json.dumps("other")))
    elif where == "sp":
        facts.append((twice, "[]"))
    path = tmp_path_factory.mktemp("hp") / "pred.json"
    text = _object_text(
        [("answer", _object_text(answers, space)), ("sp", _object_text(facts, space))], space
    )
    path.write_text(text, encoding="utf-8")
    if where is None:
        got = load_hotpot_predictions(path)
        assert got.answers == {nfc(i): f'{nfc(i)}": x' for i in ids}
    else:
        with pytest.raises(ClaimlabInputError, match="written twice") as err:
            load_hotpot_predictions(path)
        assert err.value.field == f"{where}.{nfc(twice)}"


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
    | st.text("Aa .,!'-the", max_size=40)
)
def test_the_normalisation_drops_each_ascii_punctuation_mark_as_the_official_scripts(text):
    """The official scripts' definition, character by character (SQuAD's normalize_answer):
    lower case, drop every character of string.punctuation, drop a, an, the, one space."""
    import re
    import string

    from claimlab.metrics.multihop_scores import official_normalise

    lowered = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    want = " ".join(re.sub(r"\b(a|an|the)\b", " ", lowered).split())
    assert official_normalise(text) == want


# texts that stress what the normalisation of many texts at once could get wrong: the joining
# character inside a text, articles at a text's edges, case that changes with its neighbours
# (a final sigma, a dotted capital I), word characters of other scripts beside an article
EDGES = "ΣσİIıa nthe\x00_.-'é\u0301ก가 \t\n"


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.text(alphabet=EDGES, max_size=12) | st.text(alphabet=st.characters(), max_size=8),
        max_size=6,
    )
)
def test_normalising_many_texts_at_once_is_normalising_each(texts):
    """Invariant: official_normalise_all(texts) == [official_normalise(t) for t in texts], for
    any texts (ASCII or not, holding the joining character or not, none at all)."""
    from claimlab.metrics.multihop_scores import official_normalise_all

    assert official_normalise_all(texts) == [official_normalise(t) for t in texts]


def test_hotpot_predictions_from_a_pipe_are_read_once(tmp_path):
    """A pipe gives its bytes once: the predictions object is read once, so a question id written
    twice is still refused, and nothing waits for a second writer that never comes (the reading
    once hung on a named pipe and let a key written twice through ``<(...)``)."""
    import os
    import subprocess
    import sys

    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"_id": "a", "answer": "x", "supporting_facts": []}]), "utf-8")
    pipe = tmp_path / "pred.pipe"
    os.mkfifo(pipe)
    keep_open = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # lets the writer open at once
    try:
        writer = os.open(pipe, os.O_WRONLY)
        os.write(writer, b'{"answer": {"a": "x", "a": "y"}, "sp": {"a": []}}')
        os.close(writer)  # the bytes wait in the pipe; its reader then sees the end
        code = "import sys; from claimlab.tooling.cli import main; sys.exit(main())"
        proc = subprocess.run(
            [sys.executable, "-c", code, "hotpotqa", str(gold), str(pipe), "--json"],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )  # fmt: skip
    finally:
        os.close(keep_open)
    assert proc.returncode == 2 and "'a' is written twice" in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1
