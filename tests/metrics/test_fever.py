import copy
import json

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.fever import GoldClaim, Prediction, load_gold, load_predictions, pair_by_id
from claimlab.metrics.fever import score_fever
from tests.conftest import require_data, run_cli

OFFICIAL = {  # the FEVER scorer's own test expectations for these files
    "strict_score": 0.32573257325732574,
    "label_accuracy": 0.5208520852085209,
    "precision": 0.1043804380438068,
    "recall": 0.44224422442244227,
    "f1": 0.1688970477815144,
}


@pytest.fixture(scope="module")
def real_pairs():
    gold = load_gold(require_data("fever", "paper_dev.jsonl"))
    preds = load_predictions(require_data("fever", "fever_scorer_tests_baseline_predictions.jsonl"))
    return pair_by_id(gold, preds)


@pytest.mark.realdata
def test_reproduces_the_official_figures(real_pairs):
    d = score_fever(real_pairs, max_evidence=5).to_dict()
    for key, value in OFFICIAL.items():
        assert d[key] == pytest.approx(value, abs=1e-12, rel=0), key
    assert d["counts"]["strict"]["display"] == "32.6% (3257/9999)"
    assert d["counts"]["recall"]["display"] == "44.2% (2948/6666)"


@pytest.mark.realdata
def test_cli_prints_the_five_figures(tmp_path):
    gold = require_data("fever", "paper_dev.jsonl")
    pred = require_data("fever", "fever_scorer_tests_baseline_predictions.jsonl")
    out = tmp_path / "details.jsonl"
    proc = run_cli("fever", gold, pred, "--json", "--details", out)
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    for key, value in OFFICIAL.items():
        assert abs(d[key] - value) <= 1e-12, key
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 9999
    assert sum(r["one_sentence_away"] for r in rows) == d["counts"]["one_sentence_away"]


def G(cid, label, *groups):
    return GoldClaim(cid, label, f"claim {cid}", tuple(tuple(g) for g in groups))


def P(cid, label, *sents):
    return Prediction(cid, label, tuple(sents))


# (case, gold, prediction, strict, label, precision, recall_hit)
CASES = [
    (
        "NEI strict on label alone",
        G(1, "NOT ENOUGH INFO"),
        P(1, "NOT ENOUGH INFO", ("X", 1)),
        1,
        1,
        None,
        None,
    ),
    (
        "complete group",
        G(2, "SUPPORTS", [("A", 0)]),
        P(2, "SUPPORTS", ("A", 0), ("B", 1)),
        1,
        1,
        0.5,
        True,
    ),
    (
        "right label, incomplete group",
        G(3, "REFUTES", [("A", 0), ("A", 1)]),
        P(3, "REFUTES", ("A", 0)),
        0,
        1,
        1.0,
        False,
    ),
    (
        "wrong label, complete group",
        G(4, "SUPPORTS", [("A", 0)]),
        P(4, "REFUTES", ("A", 0)),
        0,
        0,
        1.0,
        True,
    ),
    (
        "empty prediction has precision 1",
        G(5, "SUPPORTS", [("A", 0)]),
        P(5, "SUPPORTS"),
        0,
        1,
        1.0,
        False,
    ),
    (
        "sixth sentence is cut off",
        G(6, "SUPPORTS", [("F", 5)]),
        P(6, "SUPPORTS", *[("X", i) for i in range(5)], ("F", 5)),
        0,
        1,
        0.0,
        False,
    ),
    (
        "second alternative complete",
        G(7, "SUPPORTS", [("A", 0), ("B", 0)], [("C", 3)]),
        P(7, "SUPPORTS", ("C", 3)),
        1,
        1,
        1.0,
        True,
    ),
]


@pytest.mark.parametrize(
    ("case", "g", "p", "strict", "label", "precision", "hit"), CASES, ids=[c[0] for c in CASES]
)
def test_official_conventions(case, g, p, strict, label, precision, hit):
    c = score_fever([(g, p)]).claims[0]
    assert (int(c.strict_correct), int(c.label_correct), c.precision, c.recall_hit) == (
        strict,
        label,
        precision,
        hit,
    )


def test_missing_sentences_per_group_and_one_away():
    g = G(1, "SUPPORTS", [("A", 0), ("B", 0)], [("C", 1), ("D", 2), ("E", 3)])
    r = score_fever([(g, P(1, "SUPPORTS", ("A", 0), ("C", 1)))])
    assert r.claims[0].missing == ((("B", 0),), (("D", 2), ("E", 3)))
    assert r.claims[0].to_dict()["missing_per_group"] == [["B#0"], ["D#2", "E#3"]]
    assert r.one_sentence_away == (1,)


def test_f1_is_defined_when_precision_and_recall_are_zero():
    r = score_fever([(G(1, "SUPPORTS", [("A", 0)]), P(1, "SUPPORTS", ("Z", 9)))])
    assert (r.precision, r.recall.value, r.f1) == (0.0, 0.0, 0.0)
    empty = score_fever([])
    # no verifiable claim: precision, recall and F1 are N/A, not 1.0 / 0.0 / 0.0
    assert empty.strict.display == "N/A (0/0)" and empty.f1 is None
    assert (empty.precision, empty.recall.value) == (None, None)


def test_inputs_are_not_mutated():
    pairs = [(G(1, "SUPPORTS", [("A", 0)]), P(1, "SUPPORTS", ("A", 0)))]
    before = copy.deepcopy(pairs)
    score_fever(pairs)
    assert pairs == before


def test_pairs_by_id_not_position():
    gold = [G(1, "SUPPORTS", [("A", 0)]), G(2, "REFUTES", [("B", 0)])]
    preds = [P(2, "REFUTES", ("B", 0)), P(1, "SUPPORTS", ("A", 0))]
    assert score_fever(pair_by_id(gold, preds)).strict.counts == "2/2"


def test_missing_and_extra_ids_are_named():
    gold = [G(1, "SUPPORTS", [("A", 0)]), G(2, "REFUTES", [("B", 0)])]
    with pytest.raises(
        ClaimlabInputError, match="id 2: id: 1 gold claim.s. have no prediction, first id 2"
    ):
        pair_by_id(gold, [P(1, "SUPPORTS")], pred_file="p.jsonl")
    with pytest.raises(ClaimlabInputError, match="id 3: id: prediction for id 3 has no gold claim"):
        pair_by_id(gold, [P(1, "SUPPORTS"), P(2, "REFUTES"), P(3, "REFUTES")])


GOOD_GOLD = {"id": 7, "label": "SUPPORTS", "claim": "c", "evidence": [[[1, 2, "Page", 0]]]}
GOOD_PRED = {"id": 7, "predicted_label": "SUPPORTS", "predicted_evidence": [["Page", 0]]}


def _edit(base, path, value):
    d = copy.deepcopy(base)
    target = d
    for k in path[:-1]:
        target = target[k]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return d


BAD_LINES = [
    (
        "gold missing page",
        "gold",
        _edit(GOOD_GOLD, ["evidence", 0, 0, 2], None),
        "evidence[0][0][2]",
        "page must be",
    ),
    (
        "gold non-integer line",
        "gold",
        _edit(GOOD_GOLD, ["evidence", 0, 0, 3], "0"),
        "evidence[0][0][3]",
        "line must be an integer",
    ),
    (
        "gold unknown label",
        "gold",
        _edit(GOOD_GOLD, ["label"], "TRUE"),
        "label",
        "unknown label 'TRUE'",
    ),
    ("gold missing id", "gold", _edit(GOOD_GOLD, ["id"], KeyError), "id", "missing required field"),
    (
        "gold empty group",
        "gold",
        _edit(GOOD_GOLD, ["evidence"], [[]]),
        "evidence[0]",
        "empty evidence group",
    ),
    (
        "pred non-integer line",
        "pred",
        _edit(GOOD_PRED, ["predicted_evidence", 0, 1], 1.5),
        "predicted_evidence[0][1]",
        "line must be an integer",
    ),
    (
        "pred missing page",
        "pred",
        _edit(GOOD_PRED, ["predicted_evidence", 0], [None, 0]),
        "predicted_evidence[0][0]",
        "page must be",
    ),
    (
        "pred unknown label",
        "pred",
        _edit(GOOD_PRED, ["predicted_label"], "MAYBE"),
        "predicted_label",
        "unknown label",
    ),
    ("pred missing id", "pred", _edit(GOOD_PRED, ["id"], KeyError), "id", "missing required field"),
]


@pytest.mark.parametrize(
    ("case", "kind", "bad", "field", "fragment"), BAD_LINES, ids=[c[0] for c in BAD_LINES]
)
def test_malformed_lines_name_file_line_and_field(tmp_path, case, kind, bad, field, fragment):
    good = GOOD_GOLD if kind == "gold" else GOOD_PRED
    path = tmp_path / f"{kind}.jsonl"
    bad = {**bad, "id": 8} if "id" in bad else bad  # a different claim after a blank line
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(bad) + "\n", encoding="utf-8")
    loader = load_gold if kind == "gold" else load_predictions
    with pytest.raises(ClaimlabInputError) as info:
        loader(path)
    err = info.value
    assert err.file == str(path)
    assert err.record.startswith("line 3")
    assert err.field == field
    assert fragment in str(err)


def test_cli_malformed_line_is_one_line(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps(_edit(GOOD_GOLD, ["evidence", 0, 0, 3], "x")) + "\n")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps(GOOD_PRED) + "\n")
    proc = run_cli("fever", gold, pred)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"claimlab fever: error: {gold}: line 1 (id 7): evidence[0][0][3]: line must be an integer"
        " of 0 or more (a sentence's index), got 'x'"
    )


@pytest.mark.parametrize("which", ["gold", "predictions"])
def test_a_negative_evidence_line_is_refused_naming_the_field(tmp_path, which):
    gold_doc = _edit(GOOD_GOLD, ["evidence", 0, 0, 3], -1) if which == "gold" else GOOD_GOLD
    pred_doc = GOOD_PRED
    if which == "predictions":
        pred_doc = json.loads(json.dumps(GOOD_PRED))
        pred_doc["predicted_evidence"][0][1] = -2
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(json.dumps(gold_doc) + "\n")
    pred.write_text(json.dumps(pred_doc) + "\n")
    proc = run_cli("fever", gold, pred)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "of 0 or more" in proc.stderr and f"{which}.jsonl"[:4] in proc.stderr
