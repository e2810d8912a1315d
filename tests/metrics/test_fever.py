import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.ratio import Ratio
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


S, R, N = "SUPPORTS", "REFUTES", "NOT ENOUGH INFO"


# (case, pairs, max_evidence, strict, label, precision, recall, f1)
CORPUS = [
    ("one perfect claim", [(G(1, S, [("A", 0)]), P(1, S, ("A", 0)))], 5,
     "100.0% (1/1)", "100.0% (1/1)", 1.0, "100.0% (1/1)", 1.0),
    ("P = R = 1/2: F1 1/2, never 0",
     [(G(1, S, [("A", 0)]), P(1, S, ("A", 0), ("Z", 0))), (G(2, S, [("B", 0)]), P(2, S, ("B", 0)))],
     5, "100.0% (2/2)", "100.0% (2/2)", 0.75, "100.0% (2/2)", 2 * 0.75 / 1.75),
    ("equal P and R below 1",
     [(G(1, S, [("A", 0)]), P(1, S, ("A", 0))), (G(2, R, [("B", 0)]), P(2, R, ("Z", 1)))],
     5, "50.0% (1/2)", "100.0% (2/2)", 0.5, "50.0% (1/2)", 0.5),
    ("all wrong", [(G(1, S, [("A", 0)]), P(1, R, ("Z", 0)))], 5,
     "0.0% (0/1)", "0.0% (0/1)", 0.0, "0.0% (0/1)", 0.0),
    ("only NEI: precision, recall, F1 N/A", [(G(1, N), P(1, N))], 5,
     "100.0% (1/1)", "100.0% (1/1)", None, "N/A (0/0)", None),
    ("max_evidence 1 keeps the first sentence only",
     [(G(1, S, [("A", 0)]), P(1, S, ("Z", 0), ("A", 0)))], 1,
     "0.0% (0/1)", "100.0% (1/1)", 0.0, "0.0% (0/1)", 0.0),
    ("max_evidence None keeps every sentence",
     [(G(1, S, [("A", 0)]), P(1, S, *[("Z", i) for i in range(6)], ("A", 0)))], None,
     "100.0% (1/1)", "100.0% (1/1)", 1 / 7, "100.0% (1/1)", 2 * (1 / 7) / (1 + 1 / 7)),
    ("a verifiable claim with no group: recall hit, no strict credit",
     [(GoldClaim(1, S, "c", ()), P(1, S))], 5,
     "0.0% (0/1)", "100.0% (1/1)", 1.0, "100.0% (1/1)", 1.0),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "pairs", "k", "strict", "label", "precision", "recall", "f1"),
    CORPUS,
    ids=[c[0] for c in CORPUS],
)
def test_corpus_figures_at_every_boundary(case, pairs, k, strict, label, precision, recall, f1):
    r = score_fever(pairs, max_evidence=k)
    assert (r.strict.display, r.label.display, r.recall.display) == (strict, label, recall)
    assert r.precision == pytest.approx(precision) if precision is not None else r.precision is None
    assert r.f1 == pytest.approx(f1) if f1 is not None else r.f1 is None
    assert (r.strict_score, r.label_accuracy) == (r.strict.value, r.label.value)
    assert r.max_evidence == k
    d = r.to_dict()
    assert d["counts"]["claims"] == len(pairs) and d["counts"]["precision"]["mean_of"] == (
        r.recall.denominator
    )
    assert d["f1"] == r.f1 and d["precision"] == r.precision and d["recall"] == r.recall.value


@pytest.mark.parametrize(
    ("value", "ok"),
    [(None, True), (1, True), (5, True), (0, False), (-1, False), (True, False),
     (False, False), (1.0, False), ("5", False)],
)  # fmt: skip
def test_max_evidence_is_none_or_an_integer_of_at_least_one(value, ok):
    from claimlab.metrics.fever import check_max_evidence

    if ok:
        check_max_evidence(value)
        score_fever([], max_evidence=value)
    else:
        with pytest.raises(ClaimlabInputError) as info:
            check_max_evidence(value)
        assert str(info.value) == f"max_evidence: must be an integer of at least 1, got {value!r}"
        with pytest.raises(ClaimlabInputError):  # scoring checks it first
            score_fever([], max_evidence=value)


def test_the_study_tables_count_groups_alternatives_and_missing_premises():
    from claimlab.metrics.fever import (
        alternatives_counts,
        group_size_counts,
        missing_premise_counts,
        near_misses,
        sweep_max_evidence,
    )

    gold = [
        G(1, S, [("A", 0)], [("B", 0), ("B", 1)]),  # two alternatives: sizes 1 and 2
        G(2, R, [("C", 0), ("C", 1), ("C", 2)]),  # one group of 3
        G(3, N),  # not verifiable: counted nowhere
        G(4, S, [("D", 0), ("D", 1)]),
    ]
    preds = [
        P(1, S, ("A", 0)),  # witness found
        P(2, R, ("C", 0)),  # 2 missing
        P(3, N),
        P(4, S, ("Z", 9), ("D", 0)),  # 1 missing: a near miss
    ]
    pairs = list(zip(gold, preds, strict=True))
    assert group_size_counts(gold) == {1: 1, 2: 2, 3: 1}
    assert alternatives_counts(gold) == {1: 2, 2: 1}
    r = score_fever(pairs)
    assert missing_premise_counts(r) == {0: 1, 1: 1, 2: 1}
    assert r.one_sentence_away == (4,) and r.one_away == 1
    near = near_misses(r, pairs)
    assert near == [
        {
            "id": 4,
            "claim": "claim 4",
            "label": S,
            "predicted_label": S,
            "predicted (first 5)": "Z#9, D#0",
            "missing sentence": "D#1",
        }
    ]
    assert near_misses(r, pairs, limit=0) == []
    sweep = sweep_max_evidence(pairs, [1, 2])
    assert sorted(sweep) == [1, 2]
    assert sweep[1].recall.display == "33.3% (1/3)" and sweep[2].recall.display == "33.3% (1/3)"
    assert sweep[1].max_evidence == 1 and sweep[1].one_sentence_away == ()  # Z#9 alone
    assert sweep[2].one_sentence_away == (4,)


def test_near_misses_stop_at_the_limit():
    from claimlab.metrics.fever import near_misses

    pairs = [(G(i, S, [("A", i), ("B", i)]), P(i, S, ("A", i))) for i in range(1, 8)]
    r = score_fever(pairs)
    assert [m["id"] for m in near_misses(r, pairs)] == [1, 2, 3, 4, 5]
    assert [m["id"] for m in near_misses(r, pairs, limit=2)] == [1, 2]


def test_claim_details_in_json():
    r = score_fever([(G(9, S, [("A", 0), ("B", 0)]), P(9, R, ("A", 0)))], max_evidence=3)
    c = r.to_dict(details=True)["claims"][0]
    assert c == {
        "id": 9,
        "label": S,
        "predicted_label": R,
        "label_correct": False,
        "strict_correct": False,
        "precision": 1.0,
        "recall_hit": False,
        "complete_groups": [],
        "missing_per_group": [["B#0"]],
        "one_sentence_away": True,
    }
    assert "claims" not in r.to_dict()


def test_claim_score_details_for_each_kind_of_claim():
    from claimlab.metrics.fever import claim_score

    nei = claim_score(G(1, N), P(1, R, ("A", 0)))
    assert nei.to_dict() == {
        "id": 1, "label": N, "predicted_label": R, "label_correct": False,
        "strict_correct": False, "precision": None, "recall_hit": None,
        "complete_groups": [], "missing_per_group": [], "one_sentence_away": False,
    }  # fmt: skip
    assert (nei.complete_groups, nei.missing) == ((), ())
    no_group = claim_score(GoldClaim(2, S, "c", ()), P(2, S, ("A", 0)))
    assert (no_group.recall_hit, no_group.strict_correct, no_group.complete_groups) == (
        True, False, ()
    )  # fmt: skip
    assert no_group.missing == () and no_group.precision == 0.0
    # one group complete, another not: nothing is missing
    done = claim_score(G(3, S, [("A", 0)], [("B", 0), ("B", 1)]), P(3, S, ("A", 0)))
    assert (done.recall_hit, done.complete_groups, done.missing) == (True, (0,), ())
    # the default cut-off is the official five sentences
    six = P(4, S, *[("Z", i) for i in range(5)], ("A", 0))
    assert claim_score(G(4, S, [("A", 0)]), six).recall_hit is False
    assert claim_score(G(4, S, [("A", 0)]), six, max_evidence=6).recall_hit is True
    assert claim_score(G(4, S, [("A", 0)]), six, max_evidence=None).recall_hit is True


def test_one_away_counts_every_claim_one_sentence_short_and_no_other():
    pairs = [
        (G(1, S, [("A", 1), ("B", 1)]), P(1, S, ("A", 1))),  # one short
        (G(2, S, [("A", 2), ("B", 2)]), P(2, S, ("A", 2))),  # one short
        (G(3, S, [("A", 3), ("B", 3), ("C", 3)]), P(3, S, ("A", 3))),  # two short
        (G(4, S, [("A", 4), ("B", 4), ("C", 4)]), P(4, S)),  # three short
        (G(5, S, [("A", 5)]), P(5, S, ("A", 5))),  # found
    ]
    r = score_fever(pairs)
    assert r.one_away == 2 and r.one_sentence_away == (1, 2)
    assert r.to_dict()["counts"]["one_sentence_away"] == 2


def test_missing_premises_are_counted_per_claim():
    from claimlab.metrics.fever import missing_premise_counts

    pairs = [
        (G(1, S, [("A", 1), ("B", 1)]), P(1, S, ("A", 1))),
        (G(2, S, [("A", 2), ("B", 2)]), P(2, S, ("A", 2))),
        (G(3, S, [("A", 3)]), P(3, S, ("A", 3))),
        (G(4, S, [("A", 4)]), P(4, S, ("A", 4))),
        (G(5, S, [("A", 5)]), P(5, S, ("A", 5))),
        (G(6, N), P(6, N)),
    ]
    assert missing_premise_counts(score_fever(pairs)) == {0: 3, 1: 2}


def test_near_misses_show_the_first_five_predicted_only():
    from claimlab.metrics.fever import near_misses

    pred = P(1, S, *[("Z", i) for i in range(6)], ("A", 1))
    pairs = [(G(1, S, [("Z", 0), ("B", 1)]), pred)]
    r = score_fever(pairs)
    (row,) = near_misses(r, pairs)
    assert row["predicted (first 5)"] == "Z#0, Z#1, Z#2, Z#3, Z#4"
    assert row["missing sentence"] == "B#1"
    every = score_fever(pairs, max_evidence=None)
    assert near_misses(every, pairs)[0]["predicted (first 5)"].endswith("Z#5, A#1")


def test_the_json_form_of_the_corpus_figures():
    pairs = [
        (G(1, S, [("A", 0)]), P(1, S, ("A", 0), ("Z", 0))),
        (G(2, N), P(2, R)),
        (G(3, R, [("B", 0), ("B", 1)]), P(3, R, ("B", 0))),
    ]
    d = score_fever(pairs, max_evidence=4).to_dict()
    assert d == {
        "strict_score": 1 / 3,
        "label_accuracy": 2 / 3,
        "precision": 0.75,
        "recall": 0.5,
        "f1": 2 * 0.75 * 0.5 / 1.25,
        "max_evidence": 4,
        "counts": {
            "strict": Ratio(1, 3).to_dict(),
            "label": Ratio(2, 3).to_dict(),
            "recall": Ratio(1, 2).to_dict(),
            "precision": {
                "mean_of": 2,
                "sum": 1.5,
                "note": "macro over verifiable gold claims; no predicted sentence counts as 1",
            },
            "claims": 3,
            "verifiable": 2,
            "one_sentence_away": 1,
        },
    }


def test_a_near_miss_names_the_first_group_one_sentence_short():
    from claimlab.metrics.fever import near_misses

    pairs = [(G(1, S, [("A", 0), ("Z", 1)], [("A", 0), ("B", 1)]), P(1, S, ("A", 0)))]
    assert near_misses(score_fever(pairs), pairs)[0]["missing sentence"] == "Z#1"


# --- official edge: strict credit needs a complete gold group ------------------------------------


def official_fever(pairs, max_evidence=5):
    """The published FEVER scorer's arithmetic, restated over (gold, prediction) pairs.

    Strict: right label and, for a verifiable claim, some gold group wholly among the first
    ``max_evidence`` predicted sentences (a loop over no group finds none). Recall: a claim with
    no gold group scores 1; precision: no predicted sentence scores 1.
    """
    strict = label = prec = rec = hits = 0.0
    for g, p in pairs:
        predicted = list(p.evidence)[:max_evidence]
        ok = g.label == p.label
        label += ok
        if g.label == N:
            strict += ok
            continue
        strict += ok and any(all(s in predicted for s in grp) for grp in g.groups)
        hits += 1
        gold = [s for grp in g.groups for s in grp]
        prec += sum(s in gold for s in predicted) / len(predicted) if predicted else 1.0
        found = not g.groups or any(all(s in predicted for s in grp) for grp in g.groups)
        rec += found
    n = len(pairs)
    return strict / n, label / n, prec / hits, rec / hits


# (case, claims, strict display): the case is three right labels, one of them a
# SUPPORTS claim with ``evidence: []``: official strict 2/3 = 0.6667 (claimlab gave 3/3)
EMPTY_EVIDENCE = [
    ("en: supports with evidence []", "Pensioners pay the fee.", "66.7% (2/3)"),
    ("tr: supports with evidence []", "Emekliler ücret öder.", "66.7% (2/3)"),
]


@pytest.mark.parametrize(
    ("case", "claim", "strict"), EMPTY_EVIDENCE, ids=[c[0] for c in EMPTY_EVIDENCE]
)
def test_a_verifiable_claim_with_no_gold_group_earns_no_strict_credit(
    tmp_path, case, claim, strict
):
    gold_lines = [
        {"id": 1, "label": S, "claim": claim, "evidence": [[[0, 0, "A", 0]]]},
        {"id": 2, "label": N, "claim": claim, "evidence": [[[0, 0, None, None]]]},
        {"id": 3, "label": S, "claim": claim, "evidence": []},
    ]
    preds = [{"id": i, "predicted_label": g["label"], "predicted_evidence": [["A", 0]]}
             for i, g in enumerate(gold_lines, 1)]  # fmt: skip
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in gold_lines))
    pred.write_text("".join(json.dumps(x) + "\n" for x in preds))
    pairs = pair_by_id(load_gold(gold), load_predictions(pred))
    r = score_fever(pairs)
    assert r.strict.display == strict and r.strict_score == pytest.approx(0.6667, abs=1e-4)
    assert r.recall.display == "100.0% (2/2)"  # the official recall still counts it as found
    assert r.claims[2].strict_correct is False and r.claims[2].recall_hit is True
    assert r.strict_score == pytest.approx(official_fever(pairs)[0])


sentences = st.tuples(st.sampled_from("ABC"), st.integers(0, 2))


@st.composite
def fever_pairs(draw):
    n = draw(st.integers(1, 6))
    pairs = []
    for i in range(n):
        label = draw(st.sampled_from([S, R, N]))
        groups = () if label == N else tuple(
            tuple(draw(st.lists(sentences, min_size=1, max_size=3, unique=True)))
            for _ in range(draw(st.integers(0, 2)))
        )  # fmt: skip
        evidence = tuple(draw(st.lists(sentences, max_size=7)))
        pairs.append(
            (GoldClaim(i, label, "c", groups), P(i, draw(st.sampled_from([S, R, N])), *evidence))
        )
    if all(g.label == N for g, _ in pairs):
        g0, p0 = pairs[0]
        pairs[0] = (GoldClaim(g0.id, S, "c", ()), p0)
    return pairs


@settings(max_examples=150, deadline=None)
@given(pairs=fever_pairs(), k=st.integers(1, 6))
def test_the_figures_equal_the_official_arithmetic_on_generated_claims(pairs, k):
    """Invariant: strict, label accuracy, precision and recall are the official scorer's, and a
    strict credit always has a complete gold group (never from an empty ``evidence``)."""
    r = score_fever(pairs, max_evidence=k)
    want = official_fever(pairs, k)
    assert (r.strict_score, r.label_accuracy) == pytest.approx(want[:2])
    assert (r.precision, r.recall.value) == pytest.approx(want[2:])
    for c, (g, _) in zip(r.claims, pairs, strict=True):
        if c.strict_correct and g.label != N:
            assert c.complete_groups and g.groups
    assert r.strict.numerator == sum(c.strict_correct for c in r.claims)
